#!/bin/bash
# tests/secureboot.sh before|after [--headers DIR] PASSWORD: part of `make
# check-secureboot` (qemu/check-secureboot).  Runs as root in a `qemu/run
# --hostfs --uefi VARS --disk IMG --no-module` guest: Debian's signed
# kernel, booted by OVMF's Secure Boot firmware through shim and GRUB, on
# the host's userland with its changes kept on IMG from one boot to the
# next.  What a user of a Secure Boot machine does, in two boots:
#   before: the packages of `make deb` (/nosec/debs) installed with apt;
#           DKMS builds the module and signs it with its own key, which
#           the kernel does not trust yet: modprobe is refused, nothing is
#           hooked, nosec-run says what is missing; then
#           `mokutil --import /var/lib/dkms/mok.pub` with PASSWORD.
#   (qemu/mok-enroll confirms the enrollment in MokManager, with PASSWORD.)
#   after:  the key is enrolled; modprobe loads the DKMS build and
#           nosec-run uses it.  --headers DIR: a kernel the packages were
#           not built for (6.12): DIR is its headers, linked as
#           /lib/modules/KVER/build, and DKMS builds for it as Debian's
#           kernel packages have it do (dkms autoinstall) first.
# TAP output, then "N passed, N failed".
# Conditions are strings check() evals (check NAME eval '...'), which read
# the variables they name.
# shellcheck disable=SC2016,SC2034
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"
tap_start secureboot.sh /tmp/secureboot
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
stage=$1
shift
headers=
if [ "${1:-}" = --headers ]; then
	headers=$2
	shift 2
fi
password=$1
kver=$(uname -r)
pkgs="nosec-exec-dkms libnosec1 libnosec-dev nosec-run"
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
step() { echo "# $(cut -d' ' -f1 /proc/uptime) s: $1"; }
# The subject's common name of DKMS's certificate: what modinfo names as
# the signer, and the kernel as the key it loaded.
mok_name() { openssl x509 -inform DER -in "$mok" -noout -subject -nameopt multiline | sed -n 's/^ *commonName *= *//p'; }
mok_sha1() { openssl x509 -inform DER -in "$mok" -noout -fingerprint -sha1 | sed 's/.*=//' | tr 'A-F' 'a-f'; }
# What shows the hooks: ftrace's list of patched functions and the list
# of kprobes, each naming the module's handlers.
# qemu/init mounts debugfs, not tracefs.
mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing
hooked() {
	grep -q nosec_exec /sys/kernel/tracing/enabled_functions ||
		grep -q nosec_exec /sys/kernel/debug/kprobes/list
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
	step "apt-get install"
	apt-get install -y --no-install-recommends /nosec/debs/*.deb >"$work/out" 2>&1
	rc=$?
	check "apt-get install of the four packages" \
		eval '[ $rc = 0 ] && for p in $pkgs; do
			[ "$(dpkg-query -W -f="\${Status}" "$p")" = "install ok installed" ] || exit 1
		 done'
	ko=$(ls /lib/modules/"$kver"/updates/dkms/nosec_exec.ko* 2>/dev/null)
	check "DKMS built nosec_exec for $kver and signed it with the key it made, $mok" \
		eval '[ -n "$ko" ] && [ -s "$mok" ] && [ -s "${mok%.pub}.key" ] && [ -n "$(mok_name)" ] &&
		 [ "$(modinfo -F signer "$ko")" = "$(mok_name)" ]'
	mokutil --test-key "$mok" >"$work/out" 2>&1
	check "that key is not enrolled yet (mokutil --test-key)" \
		eval 'grep -q "is not enrolled" "$work/out"'
	step "modprobe, refused"
	modprobe nosec_exec >"$work/out.modprobe" 2>&1
	rc=$?
	sed 's/^/# /' "$work/out.modprobe"
	check "modprobe nosec_exec is refused: \"Key was rejected by service\"" \
		eval '[ $rc != 0 ] && grep -q "Key was rejected by service" "$work/out.modprobe"'
	insmod /nosec/nosec_exec.ko >"$work/out.insmod" 2>&1
	rc=$?
	check "so is the tree's build, which is not signed at all (insmod)" \
		eval '[ $rc != 0 ] && [ -z "$(modinfo -F signer /nosec/nosec_exec.ko)" ] &&
		 grep -q "Key was rejected by service" "$work/out.insmod"'
	check "nothing is hooked: no module, no /dev/nosec_exec, no ftrace site or kprobe of it" \
		eval '! grep -q "^nosec_exec " /proc/modules && [ ! -e /dev/nosec_exec ] &&
		 [ -r /sys/kernel/tracing/enabled_functions ] && ! hooked'
	as_user /usr/bin/nosec-run --restrict true >"$work/out" 2>&1
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
		eval '[ $rc = 0 ] && grep -qi "SHA1 Fingerprint: $(mok_sha1)" "$work/out"'
	tap_done
	exit
fi

[ "$stage" = after ] || { echo "Bail out! secureboot.sh: no stage $stage"; exit 2; }
mokutil --test-key "$mok" >"$work/out" 2>&1
check "DKMS's key is enrolled (mokutil --test-key) and the kernel loaded it from MokListRT" \
	eval 'grep -q "is already enrolled" "$work/out" &&
	 dmesg | grep -q "Loaded X.509 cert .$(mok_name):"'
if [ -n "$headers" ]; then
	mkdir -p "/lib/modules/$kver"
	ln -sfn "$headers" "/lib/modules/$kver/build"
	step "dkms autoinstall -k $kver"
	dkms autoinstall -k "$kver" >"$work/out" 2>&1
	rc=$?
	check "DKMS builds the module for $kver as the kernel's package would (dkms autoinstall)" \
		eval '[ $rc = 0 ] && dkms status nosec_exec | grep -q "$kver.*installed"'
fi
ko=$(ls /lib/modules/"$kver"/updates/dkms/nosec_exec.ko* 2>/dev/null)
step "modprobe"
modprobe nosec_exec >"$work/out" 2>&1
echo "# taint: $(cat /sys/module/nosec_exec/taint 2>&1)"
# Taint flags: O (out of tree) is every DKMS module's; E would say the
# kernel loaded it without checking a signature, which lockdown forbids.
check "modprobe nosec_exec loads the DKMS build, its signature checked (no E taint)" \
	eval 'grep -q "^nosec_exec " /proc/modules && [ "$(modinfo -n nosec_exec)" = "$ko" ] &&
	 [ "$(modinfo -F signer "$ko")" = "$(mok_name)" ] &&
	 ! grep -q E /sys/module/nosec_exec/taint &&
	 ! dmesg | grep -q "nosec_exec: module verification failed"'
check "the hooks are in, in integrity lockdown: ftrace sites or kprobes of nosec_exec" \
	eval 'hooked'
install -m 4755 -o root /usr/bin/id "$work/suid-id"
as_user /usr/bin/nosec-run --restrict --force sh -c "$work/suid-id -u" >"$work/out" 2>&1
rc=$?
check "nosec-run --restrict --force runs a setuid copy without privilege" \
	eval '[ $rc = 0 ] && [ "$(cat "$work/out")" = "$uid" ]'
as_user /usr/bin/nosec-run --restrict sh -c "$work/suid-id -u" >"$work/out" 2>&1
rc=$?
check "and with --restrict alone, the restricted shell cannot exec it" \
	eval '[ $rc != 0 ] && ! grep -qx "$uid" "$work/out" && ! grep -qx 0 "$work/out"'
modprobe -r nosec_exec >"$work/out" 2>&1
check "modprobe -r nosec_exec unloads it, and the hooks are gone" \
	eval '! grep -q "^nosec_exec " /proc/modules && ! hooked'
tap_done
