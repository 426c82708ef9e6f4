#!/bin/bash
# tests/deb.sh: part of `make check-real`.  Runs as root in a
# `qemu/run --hostfs --no-module` guest with the packages of `make deb` in
# /nosec/debs: install them with apt, let DKMS build the module for the
# running kernel, modprobe it from updates/dkms, use nosec-run and a
# program built with pkg-config, then purge everything and check that
# nothing is left.  TAP output, then "N passed, N failed".
# Conditions are strings check() evals (check NAME eval '...'), which read
# the variables they name: hence the two exceptions below.
# shellcheck disable=SC2016,SC2034
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"
tap_start deb.sh /tmp/deb
# What the packages installed, not a copy under /usr/local.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
# Debian's multiarch directory of this machine (x86_64-linux-gnu, ...).
multiarch=$(cc -print-multiarch)
export PKG_CONFIG_LIBDIR=/usr/lib/$multiarch/pkgconfig:/usr/share/pkgconfig
kver=$(uname -r)
pkgs="nosec-exec-dkms libnosec1 libnosec-dev nosec-run"
diag_lines=30	# apt's and DKMS's logs: their end says what went wrong
# What this boot changed on the host's root: the overlay's upper layer
# (see qemu/init), without what apt and dpkg keep as their own records.
# Directories are not counted (dpkg leaves an empty one it created, as on
# any Debian system), nor depmod's index files: the kernel's own package
# owns them, but this guest's kernel is not installed on the host.  Nor
# DKMS's module-signing key pair, which its first build on a machine
# creates and keeps on purpose (see Secure Boot in docs/packaging.md).
changes() {
	(cd /run/nosec-overlay/upper && find . -mindepth 1 ! -type d | sort) |
		grep -Ev '^\./var/lib/dkms/mok\.(key|pub)$' |
		grep -Ev '^\./(var/(lib/(dpkg|apt)|log|cache)|run|tmp|root)(/|$)' |
		grep -Ev '^\./etc/ld\.so\.cache$' |
		grep -Ev "^\./usr/lib/modules/$kver/modules\.[a-z.]+$"
}
user=nosecdeb
useradd -m "$user"
uid=$(id -u "$user")
gid=$(id -g "$user")
home=/home/$user
# man-db's trigger would re-index every manual page of the host over 9p
# under TCG, minutes of it, twice; it is not what is tested here.
rm -f /var/lib/man-db/auto-update
changes >"$work/changes.before"
# useradd's changes at least: an empty list means the listing is broken.
[ -s "$work/changes.before" ] || { echo "Bail out! empty overlay listing"; exit 1; }

step "apt-get install"
apt-get install -y --no-install-recommends /nosec/debs/*.deb >"$work/out" 2>&1
rc=$?
check "apt-get install of the four packages" \
	eval '[ $rc = 0 ] && for p in $pkgs; do
		[ "$(dpkg-query -W -f="\${Status}" "$p")" = "install ok installed" ] || exit 1
	 done'
ko=$(ls /lib/modules/"$kver"/updates/dkms/nosec_exec.ko* 2>/dev/null)
check "DKMS built and installed nosec_exec for $kver" \
	eval '[ -n "$ko" ] && dkms status nosec_exec | grep -q "$kver.*installed"'
step "modprobe"
modprobe nosec_exec >"$work/out" 2>&1
check "modprobe nosec_exec loads it from updates/dkms" \
	eval 'grep -q "^nosec_exec " /proc/modules && [ "$(modinfo -n nosec_exec)" = "$ko" ]'
check "/dev/nosec_exec appears, mode 0666" \
	eval '[ -c /dev/nosec_exec ] && [ "$(stat -c %a /dev/nosec_exec)" = 666 ]'

install -m 4755 -o root /usr/bin/id "$work/suid-id"
as_user "$work/suid-id" -u >"$work/out.plain" 2>&1
as_user /usr/bin/nosec-run --restrict --force sh -c "$work/suid-id -u" >"$work/out" 2>&1
rc=$?
check "the packaged nosec-run (linked to libnosec.so.1) runs a setuid copy without privilege" \
	eval 'ldd /usr/bin/nosec-run | grep -Eq "libnosec\.so\.1 => (/usr)?/lib/$multiarch/libnosec\.so\.1" &&
	 [ "$(cat "$work/out.plain")" = 0 ] && [ $rc = 0 ] && [ "$(cat "$work/out")" = "$uid" ]'
rm -f "$work/out.plain"

cat >"$work/prog.c" <<'C'
#include <nosec.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char *argv[])
{
	(void)argc;
	execve_nosecurity(argv[1], &argv[1], NULL);
	perror("execve_nosecurity");
	return 1;
}
C
# shellcheck disable=SC2046 # pkg-config's output is meant to be split
cc $(pkg-config --cflags libnosec) -o "$work/prog" "$work/prog.c" \
	$(pkg-config --libs libnosec) >"$work/out" 2>&1
rc=$?
as_user "$work/prog" "$work/suid-id" -u >"$work/out" 2>&1
check "a program built with pkg-config libnosec runs the setuid copy without privilege" \
	eval '[ $rc = 0 ] && [ "$(pkg-config --variable=libdir libnosec)" = "/usr/lib/$multiarch" ] &&
	 ldd "$work/prog" | grep -Eq "libnosec\.so\.1 => (/usr)?/lib/$multiarch/libnosec\.so\.1" &&
	 [ "$(cat "$work/out")" = "$uid" ]'

for p in $pkgs; do dpkg -L "$p"; done | sort -u >"$work/files"
step "apt-get purge"
modprobe -r nosec_exec
# shellcheck disable=SC2086 # one word per package
apt-get purge -y $pkgs >"$work/out" 2>&1
rc=$?
check "apt-get purge of the four packages" eval '[ $rc = 0 ]'
check "dpkg knows none of them any more" \
	eval 'for p in $pkgs; do ! dpkg -L "$p" >/dev/null 2>&1 || exit 1; done'
check "every file they installed is gone" \
	eval 'while read -r f; do
		[ -d "$f" ] || { [ ! -e "$f" ] && [ ! -L "$f" ]; } || { echo "# left: $f"; exit 1; }
	 done <"$work/files"'
check "no module under /lib/modules/$kver, no DKMS tree, no /usr/src/nosec_exec-*, no /dev/nosec_exec" \
	eval '[ -z "$(find /lib/modules/"$kver" -name "nosec_exec.ko*")" ] &&
	 [ ! -e /var/lib/dkms/nosec_exec ] && ! ls -d /usr/src/nosec_exec-* 2>/dev/null &&
	 [ ! -e /dev/nosec_exec ] && ! grep -q "^nosec_exec " /proc/modules &&
	 ! grep -qs nosec_exec /lib/modules/"$kver"/modules.dep'
step "done"
rm -f "$work/out"
changes >"$work/changes.after"
diff "$work/changes.before" "$work/changes.after" | grep '^[<>]' >"$work/out"
check "the root filesystem holds nothing new after the purge (overlay upper layer)" \
	eval '! grep -q . "$work/out"'
tap_done
