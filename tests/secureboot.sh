#!/bin/bash
# tests/secureboot.sh before|after [--headers DIR] PASSWORD: part of `make
# check-secureboot` (qemu/check-secureboot).  Runs as root in a `qemu/run
# --hostfs --uefi VARS --disk IMG --no-module` guest: Debian's signed
# kernel, booted by OVMF's Secure Boot firmware through shim and GRUB, on
# the host's userland with its changes kept on IMG from one boot to the
# next.  What a user of a Secure Boot machine does, in two boots:
# The steps are docs/packaging.md's, for Secure Boot:
#   before: (steps 1 to 3) the packages of `make deb` (/nosec/debs)
#           installed with apt;
#           DKMS builds the module and signs it with its own key, which
#           the kernel does not trust yet: modprobe is refused, nothing is
#           hooked, nosec-run says what is missing; then
#           `mokutil --import /var/lib/dkms/mok.pub` with PASSWORD.
#   (qemu/mok-enroll confirms the enrollment in MokManager, with PASSWORD.)
#   after:  (step 5) the key is enrolled; modprobe loads the DKMS build
#           and nosec-run uses it.  --headers DIR: a kernel the packages were
#           not built for (6.12): DIR is its headers, linked as
#           /lib/modules/KVER/build, and DKMS builds for it as Debian's
#           kernel packages have it do (dkms autoinstall) first.
# TAP output, then "N passed, N failed".
# Conditions are strings check() evals (check NAME eval '...'), which read
# the variables they name.
# shellcheck disable=SC2016,SC2034
usage() { echo "usage: secureboot.sh before|after [--headers DIR] PASSWORD" >&2; exit 2; }
stage=${1:-}
case "$stage" in before|after) shift ;; *) usage ;; esac
headers=
if [ "${1:-}" = --headers ]; then
	{ [ "$stage" = after ] && [ -d "${2:-}" ]; } || usage
	headers=$2
	shift 2
fi
{ [ $# = 1 ] && [ -n "$1" ]; } || usage
password=$1
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"
tap_start secureboot.sh /tmp/secureboot
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
kver=$(uname -r)
mok=/var/lib/dkms/mok.pub
diag_lines=30
user=nosecsb
uid=$(id -u "$user" 2>/dev/null)
if [ -z "$uid" ]; then
	useradd -m "$user"
	uid=$(id -u "$user")
fi
gid=$(id -g "$user")
home=/home/$user
rm -f /var/lib/man-db/auto-update	# as in tests/deb.sh: minutes of TCG
# DKMS's certificate: its subject's common name (what modinfo names as
# the signer), its serial number (modinfo's sig_key), its subject key
# identifier (which the kernel prints when it loads the key), its SHA-1
# fingerprint (mokutil's); hex in capitals without colons.
mok_cert() { openssl x509 -inform DER -in "$mok" -noout "$@"; }
hex() { tr -d ':\n ' | tr 'a-f' 'A-F'; }
mok_name() { mok_cert -subject -nameopt multiline | sed -n 's/^ *commonName *= *//p'; }
# A serial number with its high bit set may come with a leading 00 byte.
mok_serial() { mok_cert -serial | sed 's/^serial=//' | hex | sed 's/^\(00\)*//'; }
mok_skid() { mok_cert -ext subjectKeyIdentifier | sed -n '2,$p' | hex; }
mok_sha1() { mok_cert -fingerprint -sha1 | sed 's/.*=//' | hex; }
# modinfo KO is signed by DKMS's key: the signer's name and the serial.
signed_by_mok() {
	[ -n "$(mok_serial)" ] && [ "$(modinfo -F signer "$1")" = "$(mok_name)" ] &&
		[ "$(modinfo -F sig_key "$1" | hex | sed 's/^\(00\)*//')" = "$(mok_serial)" ]
}
# How many of the six sample functions of the suite's module_probes()
# (tests/common.c) ftrace shows hooked: 6 with the module in, 0 without.
hooks=/sys/kernel/debug/tracing/enabled_functions
hooked() {
	grep -cE '^(bprm_execve|security_task_alloc|security_task_prctl|open_exec|__(x64|arm64)_sys_execve|security_task_free) ' "$hooks"
}

check "Secure Boot is on: mokutil --sb-state, and the kernel's own line" \
	eval '[ "$(mokutil --sb-state)" = "SecureBoot enabled" ] &&
	 dmesg | grep -q "secureboot: Secure boot enabled"'
check "the kernel is locked down: /sys/kernel/security/lockdown shows [integrity]" \
	eval 'grep -q "\[integrity\]" /sys/kernel/security/lockdown'

if [ "$stage" = before ]; then
	# A machine where DKMS never built anything has no key pair; the
	# host this guest runs on may have one (make dkms-build), which its
	# overlay hides here.  DKMS makes its own at the first build.
	rm -f "$mok" "${mok%.pub}.key"
	step "apt install"
	# docs/packaging.md's step 1; -y and --no-install-recommends because
	# no one answers here and the guest has no network.
	apt install -y --no-install-recommends /nosec/debs/nosec-exec-dkms_*.deb \
		/nosec/debs/libnosec1_*.deb /nosec/debs/nosec-run_*.deb >"$work/out" 2>&1
	rc=$?
	check "apt install of nosec-exec-dkms, libnosec1 and nosec-run" \
		eval '[ $rc = 0 ] && for p in nosec-exec-dkms libnosec1 nosec-run; do
			[ "$(dpkg-query -W -f="\${Status}" "$p")" = "install ok installed" ] || exit 1
		 done'
	ko=$(modinfo -n nosec_exec 2>/dev/null)
	check "DKMS built nosec_exec for $kver and signed it with the key it made, $mok" \
		eval '[ "${ko#/lib/modules/$kver/updates/dkms/nosec_exec.ko}" != "$ko" ] &&
		 [ -s "$mok" ] && [ -s "${mok%.pub}.key" ] && signed_by_mok "$ko"'
	step "modprobe, refused"
	modprobe nosec_exec >"$work/out.modprobe" 2>&1
	rc=$?
	sed 's/^/# /' "$work/out.modprobe"
	check "modprobe nosec_exec is refused: \"Key was rejected by service\"" \
		eval '[ $rc != 0 ] && grep -q "Key was rejected by service" "$work/out.modprobe"'
	mokutil --test-key "$mok" >"$work/out" 2>&1
	check "that key is not enrolled (mokutil --test-key)" \
		eval 'grep -q "is not enrolled" "$work/out"'
	insmod /nosec/nosec_exec.ko >"$work/out.insmod" 2>&1
	rc=$?
	check "nor is the tree's build, which is not signed at all (insmod)" \
		eval '[ $rc != 0 ] && [ -z "$(modinfo -F signer /nosec/nosec_exec.ko)" ] &&
		 grep -q "Key was rejected by service" "$work/out.insmod"'
	check "nothing is hooked: no module, no /dev/nosec_exec, none of the sample functions in ftrace" \
		eval '! grep -q "^nosec_exec " /proc/modules && [ ! -e /dev/nosec_exec ] &&
		 [ -r "$hooks" ] && [ "$(hooked)" = 0 ]'
	as_user /usr/bin/nosec-run --restrict sh -c /bin/true >"$work/out" 2>&1
	rc=$?
	check "nosec-run says what is missing: the module, refused by a locked-down kernel, and how to enroll the key" \
		eval '[ $rc != 0 ] && grep -q "the nosec_exec module is not loaded" "$work/out" &&
		 grep -q "locked down" "$work/out" &&
		 grep -q "mokutil --import $mok" "$work/out" && grep -q "nosec_exec(4)" "$work/out"'
	step "mokutil --import"
	printf '%s\n%s\n' "$password" "$password" | mokutil --import "$mok" >"$work/out" 2>&1
	rc=$?
	mokutil --list-new >>"$work/out" 2>&1
	check "mokutil --import $mok asks the firmware to enroll it at the next boot" \
		eval '[ $rc = 0 ] && [ -n "$(mok_sha1)" ] &&
		 [ "$(sed -n "s/^SHA1 Fingerprint: //p" "$work/out" | hex)" = "$(mok_sha1)" ]'
	tap_done
	exit
fi

mokutil --test-key "$mok" >"$work/out" 2>&1
# The kernel names a key it loads "CN: SKID" (the subject key identifier).
check "DKMS's key is enrolled (mokutil --test-key) and the kernel loaded it from MokListRT" \
	eval 'grep -q "is already enrolled" "$work/out" && [ -n "$(mok_skid)" ] &&
	 dmesg | grep -A1 "Loading X.509 certificate: UEFI:MokListRT" |
		grep -qi "Loaded X.509 cert .$(mok_name): $(mok_skid)."'
if [ -n "$headers" ]; then
	mkdir -p "/lib/modules/$kver"
	ln -sfn "$headers" "/lib/modules/$kver/build"
	step "dkms autoinstall -k $kver"
	dkms autoinstall -k "$kver" >"$work/out" 2>&1
	rc=$?
	check "DKMS builds the module for $kver as the kernel's package would (dkms autoinstall)" \
		eval '[ $rc = 0 ] && dkms status nosec_exec | grep -q "$kver.*installed"'
fi
ko=$(modinfo -n nosec_exec 2>/dev/null)
step "modprobe"
modprobe nosec_exec >"$work/out" 2>&1
rc=$?
echo "# taint: $(cat /sys/module/nosec_exec/taint 2>&1)"
# Taint flags: O (out of tree) is every DKMS module's; E would say the
# kernel loaded it without checking a signature, which lockdown forbids.
check "modprobe nosec_exec loads the DKMS build, signed by the enrolled key (no E taint)" \
	eval '[ $rc = 0 ] && grep -q "^nosec_exec " /proc/modules &&
	 [ "${ko#/lib/modules/$kver/updates/dkms/nosec_exec.ko}" != "$ko" ] && signed_by_mok "$ko" &&
	 ! grep -q E /sys/module/nosec_exec/taint &&
	 ! dmesg | grep -q "nosec_exec: module verification failed"'
check "the hooks are in, in integrity lockdown: ftrace shows all six sample functions hooked" \
	eval '[ "$(hooked)" = 6 ]'
# docs/packaging.md's step 5, as the user.
as_user /usr/bin/nosec-run --restrict --force sh -c /bin/true >"$work/out" 2>&1
rc=$?
check "nosec-run --restrict --force sh -c /bin/true runs it" eval '[ $rc = 0 ]'
as_user /usr/bin/nosec-run --restrict sh -c /bin/true >"$work/out" 2>&1
rc=$?
check "nosec-run --restrict sh -c /bin/true fails: exec is off in that shell (EPERM)" \
	eval '[ $rc != 0 ] && grep -q "/bin/true: Operation not permitted" "$work/out"'
install -m 4755 -o root /usr/bin/id "$work/suid-id"
as_user "$work/suid-id" -u >"$work/out" 2>&1
check "control: run plainly, a setuid-root copy of id gives euid 0" \
	eval '[ "$(cat "$work/out")" = 0 ]'
as_user /usr/bin/nosec-run --restrict --force sh -c "$work/suid-id -u" >"$work/out" 2>&1
rc=$?
check "from a forced shell it runs without privilege: the user's uid" \
	eval '[ $rc = 0 ] && [ "$(cat "$work/out")" = "$uid" ]'
# modprobe -r of a module that is not loaded succeeds too: it must have been.
loaded=0
grep -q "^nosec_exec " /proc/modules && loaded=1
modprobe -r nosec_exec >"$work/out" 2>&1
rc=$?
check "modprobe -r nosec_exec unloads it, and the hooks are gone" \
	eval '[ $loaded = 1 ] && [ $rc = 0 ] && ! grep -q "^nosec_exec " /proc/modules &&
	 [ "$(hooked)" = 0 ]'
tap_done
