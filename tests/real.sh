#!/bin/bash
# tests/real.sh: `make check-real`.  Runs as root in a `qemu/run --hostfs`
# guest, on this machine's own Debian userland (read-only, with a tmpfs
# overlay), the module loaded.  Each case runs a real Debian program as an
# ordinary user three ways in the same boot:
#   plain    the program as it is (set-ID bits, file caps, AppArmor apply)
#   nosec    nosec-run PROGRAM: one execve_nosecurity()
#   forced   nosec-run --restrict --force sh -c 'PROGRAM': a forced shell
#            whose execve() of PROGRAM becomes a nosecurity exec
# and asserts the exact result of each, side by side.  TAP output, then
# "N passed, N failed[, N skipped]"; exit 1 if anything failed.
# Conditions are strings check() evals later (check NAME eval '...', see
# tests/tap.sh), and rc_WAY variables are read through rc(): hence the
# two exceptions below.
# shellcheck disable=SC2016,SC2034
# shellcheck source=tests/tap.sh
. "$(dirname "$0")/tap.sh"
tap_start real.sh /tmp/real

# --- the user, its passwords, a group and a user-mountable fstab entry ---
user=nosecreal
root_pw=nosec-root-pw-1
user_pw=nosec-user-pw-1
new_pw=Nosec-new-pw-2
useradd -m -s /bin/bash "$user"
groupadd nosecgrp
usermod -aG nosecgrp "$user"
echo "root:$root_pw" | chpasswd
echo "$user:$user_pw" | chpasswd
uid=$(id -u "$user")
gid=$(id -g "$user")
home=/home/$user
mkdir -p /mnt/nosecreal
echo 'tmpfs /mnt/nosecreal tmpfs noauto,user 0 0' >>/etc/fstab
ip link set lo up

# way WAY CMD...: CMD as the user, one of the three ways.
way() {
	local w=$1
	shift
	case "$w" in
	plain) as_user "$@" ;;
	nosec) as_user nosec-run "$@" ;;
	forced) as_user nosec-run --restrict --force sh -c '"$@"' sh "$@" ;;
	esac
}

# run3 INPUT CMD...: CMD the three ways, INPUT on stdin; stdout+stderr in
# out.WAY, exit status in rc_WAY.  reset_state WAY runs before each way,
# after_state WAY after it.
run3() {
	local input=$1 w
	shift
	rm -f "$work"/out.*
	for w in plain nosec forced; do
		reset_state "$w"
		printf '%s' "$input" | way "$w" "$@" >"$work/out.$w" 2>&1
		eval "rc_$w=\$?"
		after_state "$w"
	done
}
reset_state() { :; }
after_state() { :; }

same() { cmp -s "$1" "$2"; }

# Snapshots of what a set-ID program must not change when it fails safe.
snap() { # snap TAG
	cp /etc/shadow "$work/shadow.$1"
	cp /etc/passwd "$work/passwd.$1"
	cut -d' ' -f5 /proc/self/mountinfo | sort >"$work/mounts.$1"
}
snap orig

echo "# uid $uid ($user), kernel $(uname -r), $(grep -c . /proc/modules) modules"
check "the nosec-run under test is the tree's (/nosec/bin)" \
	eval '[ "$(as_user sh -c "command -v nosec-run")" = /nosec/bin/nosec-run ]'

# --- su: the root password, typed correctly ---
run3 "$root_pw
" su -c 'id -u' root
check "su: plain run becomes root (prints 0)" \
	eval 'rc plain 0 && has plain "^Password: 0$"'
for w in nosec forced; do
	check "su: $w run says 'Authentication failure', stays uid $uid" \
		eval "! rc $w 0 && has $w 'su: Authentication failure' && hasnt $w ': 0$'"
done

# --- passwd: the user changes its own password ---
reset_state() { echo "$user:$user_pw" | chpasswd; snap "before.$1"; }
after_state() { snap "after.$1"; }
run3 "$user_pw
$new_pw
$new_pw
" passwd
check "passwd: plain run updates /etc/shadow" \
	eval 'rc plain 0 && has plain "password updated successfully" &&
	      ! same "$work/shadow.before.plain" "$work/shadow.after.plain"'
for w in nosec forced; do
	check "passwd: $w run fails safe (status 10, token manipulation error), /etc/shadow unchanged" \
		eval "rc $w 10 && has $w 'Authentication token manipulation error' &&
		      same '$work/shadow.before.$w' '$work/shadow.after.$w'"
done

# --- mount: a 'user' fstab entry ---
after_state() {
	snap "after.$1"
	umount /mnt/nosecreal 2>/dev/null
}
reset_state() { snap "before.$1"; }
run3 "" mount /mnt/nosecreal
check "mount: plain run mounts the 'user' fstab entry" \
	eval 'rc plain 0 && ! same "$work/mounts.before.plain" "$work/mounts.after.plain" &&
	      grep -qx /mnt/nosecreal "$work/mounts.after.plain"'
for w in nosec forced; do
	check "mount: $w run says 'must be superuser' (status 32), mount table unchanged" \
		eval "rc $w 32 && has $w 'must be superuser to use mount' &&
		      same '$work/mounts.before.$w' '$work/mounts.after.$w'"
done

# --- newgrp: a group the user is a member of ---
reset_state() { :; }
after_state() { :; }
run3 'id -gn
' newgrp nosecgrp
check "newgrp: plain run switches to nosecgrp" eval 'rc plain 0 && is plain nosecgrp'
for w in nosec forced; do
	check "newgrp: $w run fails (Operation not permitted), no shell in nosecgrp" \
		eval "! rc $w 0 && has $w 'Operation not permitted' && hasnt $w nosecgrp"
done

# --- chsh: the user changes its login shell ---
reset_state() {
	echo "$user:$user_pw" | chpasswd
	usermod -s /bin/bash "$user" >/dev/null 2>&1
	snap "before.$1"
}
after_state() { snap "after.$1"; }
run3 "$user_pw
" chsh -s /bin/sh
check "chsh: plain run changes the shell in /etc/passwd" \
	eval 'rc plain 0 && grep -q "^$user:.*:/bin/sh\$" "$work/passwd.after.plain"'
# nosec: PAM's unix_chkpwd helper (set-group-ID shadow, exec'd plainly)
# accepts the password, then chsh cannot become root to write; forced: the
# helper runs without its set-group-ID too, so the password check fails.
for w in nosec forced; do
	case $w in
	nosec) msg="Cannot change ID to root." ;;
	forced) msg="chsh: PAM: Authentication failure" ;;
	esac
	check "chsh: $w run fails ('$msg'), /etc/passwd and /etc/shadow unchanged" \
		eval "! rc $w 0 && has $w '$msg' &&
		      same '$work/passwd.before.$w' '$work/passwd.after.$w' &&
		      same '$work/shadow.before.$w' '$work/shadow.after.$w'"
done
reset_state() { :; }
after_state() { :; }
echo "$user:$user_pw" | chpasswd
usermod -s /bin/bash "$user" >/dev/null 2>&1

# --- ping with cap_net_raw+ep on a copy (security.* does not cross 9p) ---
cp /usr/bin/ping "$work/ping"
setcap cap_net_raw+ep "$work/ping"
echo '1 0' >/proc/sys/net/ipv4/ping_group_range	# no ICMP datagram sockets
run3 "" "$work/ping" -c 1 -W 5 127.0.0.1
check "ping (cap_net_raw+ep copy): plain run gets its echo reply" \
	eval 'rc plain 0 && has plain "1 packets transmitted, 1 received"'
for w in nosec forced; do
	check "ping: $w run has no cap_net_raw ('missing cap_net_raw+p capability', status 2)" \
		eval "rc $w 2 && has $w 'missing cap_net_raw+p capability' && hasnt $w 'bytes from'"
done

# --- setuid-root / setgid-shadow copies of coreutils ---
shadow_gid=$(getent group shadow | cut -d: -f3)
install -m 4755 -o root /usr/bin/id "$work/suid-id"
install -m 2755 -g shadow /usr/bin/id "$work/sgid-id"
install -m 4755 -o root /usr/bin/od "$work/suid-od"
install -m 755 /usr/bin/od "$work/plain-od"
run3 "" "$work/suid-id" -u
check "setuid-root id: plain run has euid 0" eval 'rc plain 0 && is plain 0'
for w in nosec forced; do
	check "setuid-root id: $w run keeps euid $uid" eval "rc $w 0 && is $w $uid"
done
run3 "" "$work/sgid-id" -g
check "setgid-shadow id: plain run has egid $shadow_gid" eval 'rc plain 0 && is plain "$shadow_gid"'
for w in nosec forced; do
	check "setgid-shadow id: $w run keeps egid $gid" eval "rc $w 0 && is $w $gid"
done
# AT_SECURE is auxv entry 23; od prints its own /proc/self/auxv.
at_secure() { awk '$1 == 23 { print $2 }' "$work/out.$1"; }
run3 "" "$work/suid-od" -An -tu8 -w16 -v /proc/self/auxv
check "setuid-root od: plain run has AT_SECURE 1" eval 'rc plain 0 && [ "$(at_secure plain)" = 1 ]'
for w in nosec forced; do
	check "setuid-root od: $w run has AT_SECURE 0" eval "rc $w 0 && [ \"\$(at_secure $w)\" = 0 ]"
done
run3 "" "$work/plain-od" -An -tu8 -w16 -v /proc/self/auxv
check "plain od (no set-ID bit): AT_SECURE 0 all three ways" \
	eval '[ "$(at_secure plain)$(at_secure nosec)$(at_secure forced)" = 000 ]'

# --- workloads in a forced shell: same output as unrestricted ---
# workload NAME DIR CMD: CMD in a fresh copy of DIR, unrestricted and in a
# forced shell (nosec-run -r -f bash -c CMD); same output, status 0.
workload() {
	local name=$1 dir=$2 cmd=$3 w
	rm -f "$work"/out.*
	for w in plain forced; do
		rm -rf "$work/wl.$w"
		cp -a "$dir" "$work/wl.$w"
		chown -R "$uid:$gid" "$work/wl.$w"
		if [ $w = plain ]; then
			(cd "$work/wl.$w" && as_user bash -c "$cmd") >"$work/out.$w" 2>&1
		else
			(cd "$work/wl.$w" &&
			 as_user nosec-run --restrict --force bash -c "$cmd") >"$work/out.$w" 2>&1
		fi
		eval "rc_$w=\$?"
	done
	check "$name: forced shell gives the unrestricted output" \
		eval 'rc plain 0 && rc forced 0 && same "$work/out.plain" "$work/out.forced" && [ -s "$work/out.plain" ]'
}

proj=$work/proj
mkdir -p "$proj"
cat >"$proj/main.c" <<'C'
#include <stdio.h>
#include "sum.h"
int main(void) { printf("sum %d, product %d\n", sum(6, 7), product(6, 7)); return 0; }
C
cat >"$proj/sum.c" <<'C'
#include "sum.h"
int sum(int a, int b) { return a + b; }
C
cat >"$proj/product.c" <<'C'
#include "sum.h"
int product(int a, int b) { return a * b; }
C
printf 'int sum(int a, int b);\nint product(int a, int b);\n' >"$proj/sum.h"
printf 'prog: main.o sum.o product.o\n\t$(CC) -o $@ $^\n%%.o: %%.c sum.h\n\t$(CC) -O2 -c -o $@ $<\n' >"$proj/Makefile"
workload "make + gcc (cc1, as, collect2, ld) build of a 3-file C project" "$proj" \
	'make -s && ./prog && ls *.o prog'

scripts=$work/scripts
mkdir -p "$scripts"
cat >"$scripts/py" <<'PY'
#!/usr/bin/python3
import subprocess
print(subprocess.run(["sh", "-c", "echo from sh; id -u"], capture_output=True, text=True).stdout, end="")
print(subprocess.check_output(["./pl"], text=True), end="")
PY
cat >"$scripts/pl" <<'PL'
#!/usr/bin/perl
print `echo from perl backticks`;
system("./sh") == 0 or die "system: $!";
PL
cat >"$scripts/sh" <<'SH'
#!/bin/bash
echo "bash $(basename "$(readlink /proc/$$/exe)")" | tr a-z A-Z
find . -maxdepth 1 -name 'p?' -exec wc -l {} + | sort
printf '%s\n' py pl | xargs -n 1 head -n 1 | sort
SH
chmod 755 "$scripts"/*
workload "python3 subprocess -> perl backticks and system() -> bash with find -exec, xargs (shebang scripts)" \
	"$scripts" './py'

# --- every exec route denied in a restricted, unforced tree ---
# route NAME MESSAGE INPUT PROGRAM ARGS...: PROGRAM (started by nosec-run
# --restrict itself, so that PROGRAM's own exec route is what is tried)
# reports EPERM in its own words (MESSAGE, a grep pattern) and the marker
# never appears; run plainly, it creates the marker.
route() {
	local name=$1 msg=$2 input=$3 w
	shift 3
	rm -f "$work"/out.*
	for w in plain restricted; do
		rm -rf "$work/rt"
		mkdir -p "$work/rt"
		printf 'all:\n\ttouch marker\n' >"$work/rt/Makefile"
		chown -R "$uid:$gid" "$work/rt"
		if [ $w = plain ]; then
			(cd "$work/rt" && printf '%s' "$input" | as_user "$@") >"$work/out.$w" 2>&1
		else
			(cd "$work/rt" && printf '%s' "$input" |
			 as_user nosec-run --restrict "$@") >"$work/out.$w" 2>&1
		fi
		eval "rc_$w=\$?"
		eval "marker_$w=\$([ -e $work/rt/marker ] && echo yes || echo no)"
	done
	check "restricted, unforced: $name: EPERM in its own words, nothing run (plain run: runs)" \
		eval '[ "$marker_plain" = yes ] && [ "$marker_restricted" = no ] &&
		      { [ "$route_status" = any ] || ! rc restricted 0; } &&
		      has restricted "$msg"'
}
route_status=nonzero
route "bash" "bash: line 1: /usr/bin/touch: Operation not permitted" "" \
	bash -c '/usr/bin/touch marker; exit $?'
route "dash" "dash: 1: touch: Operation not permitted" "" dash -c 'touch marker; exit $?'
route "python3 subprocess" "PermissionError: \[Errno 1\] Operation not permitted: 'touch'" "" \
	python3 -c 'import subprocess; subprocess.run(["touch", "marker"], check=True)'
route "perl system()" "^system: Operation not permitted$" "" \
	perl -e 'system("touch", "marker") == 0 or die "system: $!\n"'
route "env" "env: 'touch': Operation not permitted" "" env touch marker
route "xargs" "xargs: touch: Operation not permitted" "marker
" xargs touch
# GNU find reports the failed exec and goes on: -exec is only false, and
# find's own status stays 0.
route_status=any
route "find -exec" "find: 'touch': Operation not permitted" "" \
	find . -maxdepth 0 -exec touch marker ';'
route_status=nonzero
route "make" "make: touch: Operation not permitted" "" make -s

# --- bubblewrap and unshare on either side of nosec-run ---
bw=(bwrap --ro-bind / / --dev-bind /dev /dev --proc /proc --tmpfs /tmp)
run_pair() { # run_pair NAME EXPECTED CMD...: as the user, exact output
	local name=$1 want=$2
	shift 2
	rm -f "$work"/out.*
	as_user "$@" >"$work/out.cmd" 2>&1
	rc_cmd=$?
	check "$name" eval 'rc cmd 0 && is cmd "$want"'
}
run_pair "bwrap inside a forced nosec-run: id -u is $uid" "$uid" \
	nosec-run --restrict --force "${bw[@]}" id -u
run_pair "nosec-run --restrict --force inside bwrap: id -u is $uid" "$uid" \
	"${bw[@]}" nosec-run --restrict --force id -u
run_pair "unshare -r inside a forced nosec-run: id -u is 0 (in the namespace)" 0 \
	nosec-run --restrict --force unshare -r id -u
run_pair "nosec-run --restrict --force inside unshare -r: id -u is 0" 0 \
	unshare -r nosec-run --restrict --force id -u
rm -f "$work"/out.*
as_user nosec-run --restrict "${bw[@]}" id -u >"$work/out.restricted" 2>&1
rc_restricted=$?
check "bwrap inside a restricted, unforced nosec-run cannot exec (the restriction crosses the namespace)" \
	eval '! rc restricted 0 && has restricted "bwrap: execvp id: Operation not permitted" &&
	      hasnt restricted "^$uid\$"'
as_user unshare -r nosec-run --restrict sh -c 'id -u' >"$work/out.restricted" 2>&1
rc_restricted=$?
check "a restricted shell in unshare -r cannot exec, even as namespace root" \
	eval '! rc restricted 0 && has restricted "Operation not permitted"'
run_pair "bwrap --dev hides /dev/nosec_exec: a plain nosec-run runs all the same (the flag needs no device)" \
	"$uid" bwrap --ro-bind / / --dev /dev --proc /proc nosec-run id -u
as_user bwrap --ro-bind / / --dev /dev --proc /proc nosec-run --restrict-all id -u \
	>"$work/out.devhidden" 2>&1
rc_devhidden=$?
check "bwrap --dev hides /dev/nosec_exec: nosec-run --restrict-all says the device is missing, not the module (status 125)" \
	eval 'rc devhidden 125 && has devhidden "module is loaded, but /dev/nosec_exec is missing here" &&
	      hasnt devhidden "module is not loaded"'
as_user bwrap --ro-bind / / --dev /dev --dev-bind /dev/nosec_exec /dev/nosec_exec \
	--proc /proc nosec-run --restrict-all id -u >"$work/out.devbound" 2>&1
rc_devbound=$?
check "bwrap --dev plus --dev-bind /dev/nosec_exec: nosec-run --restrict-all works again (the recipe)" \
	eval 'rc devbound 0 && is devbound "$uid"'
run_pair "bwrap --dev without the node: nosec-run --restrict --force runs (a forced exec needs no device)" \
	"$uid" bwrap --ro-bind / / --dev /dev --proc /proc nosec-run --restrict --force id -u
run_pair "a forced tree's later execve calls need no device (bwrap --dev inside nosec-run -r -f)" \
	"$uid" nosec-run --restrict --force bwrap --ro-bind / / --dev /dev --proc /proc id -u

# --- setpriv: no_new_privs on either side ---
run_pair "setpriv --no-new-privs then nosec-run --restrict --force: runs" "$uid" \
	setpriv --no-new-privs nosec-run --restrict --force id -u
run_pair "nosec-run --restrict --force then setpriv --no-new-privs: runs" "$uid" \
	nosec-run --restrict --force setpriv --no-new-privs id -u
as_user setpriv --no-new-privs "$work/suid-id" -u >"$work/out.nnp" 2>&1
rc_nnp=$?
check "control: setpriv --no-new-privs alone also keeps the setuid copy at euid $uid" \
	eval 'rc nnp 0 && is nnp "$uid"'

# --- debuggers and process tools in a forced tree (the ptrace scope) ---
# Inside nosec-run -r -f, strace and gdb trace what they start (their own
# subtree), ps and top list every process; gdb attaching to a process
# outside the tree is refused, where the same attach from outside works.
rm -f "$work"/out.*
as_user nosec-run -r -f strace -f -qq -e trace=execve /usr/bin/true >"$work/out.strace" 2>&1
rc_strace=$?
check "strace under nosec-run -r -f traces its own child's execve" \
	eval 'rc strace 0 && has strace "execve(\"/usr/bin/true\""'
as_user nosec-run -r -f gdb -nx -batch -ex run /usr/bin/true >"$work/out.gdb" 2>&1
rc_gdb=$?
check "gdb under nosec-run -r -f runs and debugs its own inferior" \
	eval 'rc gdb 0 && has gdb "exited normally"'
as_user nosec-run -r -f ps -e -o pid=,comm= >"$work/out.ps" 2>&1
rc_ps=$?
as_user nosec-run -r -f top -b -n 1 >"$work/out.top" 2>&1
rc_top=$?
check "ps and top under nosec-run -r -f list processes outside the tree (PID 1 among them)" \
	eval 'rc ps 0 && grep -qE "^ *1 " "$work/out.ps" && rc top 0 && grep -qE "^ *1 " "$work/out.top"'
# The attach: a sleeping process of the user, outside; gdb -p from a forced
# tree, then the same gdb -p from outside (the control).
attach_from() { # attach_from WAY: gdb -p on a fresh outside sleeper
	as_user sh -c '
		sleep 60 & pid=$!
		'"$1"' gdb -nx -batch -ex "info proc" -p $pid 2>&1
		kill $pid'
}
attach_from "nosec-run -r -f" >"$work/out.inside" 2>&1
attach_from "" >"$work/out.outside" 2>&1
check "gdb -p from a forced tree to the user's own process outside: refused (Operation not permitted); from outside: attached" \
	eval 'has inside "Operation not permitted" && hasnt inside "exe = " &&
	      has outside "exe = "'

# --- AppArmor, real profiles loaded with apparmor_parser ---
aa=/opt/nosec-aa
if [ "$(cat /sys/module/apparmor/parameters/enabled 2>/dev/null)" != Y ] ||
   ! command -v apparmor_parser >/dev/null; then
	for c in attachment Px Cx "deny x" "x without r"; do
		skip "AppArmor $c" "AppArmor or apparmor_parser missing"
	done
else
	mkdir -p "$aa"
	for p in attached parent child-px child-cx child-xonly denied; do
		cp /usr/bin/cat "$aa/$p"
	done
	cp /usr/bin/bash "$aa/parent"
	cat >"$work/aa.profiles" <<EOF
abi <abi/3.0>,
profile nosec-attached $aa/attached {
  /** mr,
}
profile nosec-child {
  /** mr,
}
profile nosec-parent $aa/parent {
  /** mr,
  /usr/bin/** ix,
  /nosec/bin/nosec-run ix,
  $aa/parent ix,
  $aa/child-px Px -> nosec-child,
  $aa/child-cx Cx -> sub,
  $aa/child-xonly Px -> nosec-child,
  deny $aa/child-xonly r,
  deny $aa/denied x,
  profile sub {
    /** mr,
  }
}
EOF
	apparmor_parser -r "$work/aa.profiles"
	label() { # label WAY PROGRAM: the label PROGRAM runs under
		case "$1" in
		plain) as_user "$2" /proc/self/attr/current ;;
		nosec) as_user nosec-run "$2" /proc/self/attr/current ;;
		esac
	}
	rm -f "$work"/out.*
	label plain "$aa/attached" >"$work/out.plain" 2>&1
	label nosec "$aa/attached" >"$work/out.nosec" 2>&1
	check "AppArmor attachment: plain exec attaches nosec-attached, nosecurity exec refused (Operation not permitted)" \
		eval 'is plain "nosec-attached (enforce)" && has nosec "Operation not permitted" &&
		      hasnt nosec unconfined'
	# In the confined parent (a bash attached to nosec-parent): each
	# child exec'd plainly, then with nosec-run, then from a forced shell.
	in_parent() { as_user "$aa/parent" -c "$1"; }
	for c in px cx; do
		rm -f "$work"/out.*
		in_parent "$aa/child-$c /proc/self/attr/current" >"$work/out.plain" 2>&1
		in_parent "nosec-run $aa/child-$c /proc/self/attr/current" >"$work/out.nosec" 2>&1
		in_parent "nosec-run -r -f $aa/parent -c '$aa/child-$c /proc/self/attr/current'" \
			>"$work/out.forced" 2>&1
		case $c in
		px) want="nosec-child (enforce)" ;;
		cx) want="nosec-parent//sub (enforce)" ;;
		esac
		check "AppArmor ${c^}: plain exec moves to '$want', nosecurity and forced execs refused (Operation not permitted)" \
			eval 'is plain "$want" && has nosec "Operation not permitted" &&
			      has forced "Operation not permitted" &&
			      hasnt nosec "nosec-parent" && hasnt forced "nosec-parent"'
	done
	rm -f "$work"/out.*
	in_parent "$aa/denied /etc/hostname" >"$work/out.plain" 2>&1
	rc_plain=$?
	in_parent "nosec-run $aa/denied /etc/hostname" >"$work/out.nosec" 2>&1
	rc_nosec=$?
	in_parent "nosec-run -r -f $aa/parent -c '$aa/denied /etc/hostname'" >"$work/out.forced" 2>&1
	rc_forced=$?
	check "AppArmor 'deny x': plain, nosecurity and forced execs all refused (Permission denied)" \
		eval '! rc plain 0 && ! rc nosec 0 && ! rc forced 0 &&
		      has plain "Permission denied" && has nosec "Permission denied" &&
		      has forced "Permission denied" && ! grep -qxF -f /etc/hostname "$work"/out.*'
	# Execute, don't read: the profile gives child-xonly Px but no r.
	# The caller cannot open it; a plain exec moves to nosec-child; a
	# nosecurity exec, which would run it under the caller's profile (and
	# let the caller read its image), is refused as the open would be.
	rm -f "$work"/out.*
	in_parent "cat $aa/child-xonly >/dev/null" >"$work/out.open" 2>&1
	rc_open=$?
	in_parent "$aa/child-xonly /proc/self/attr/current" >"$work/out.plain" 2>&1
	in_parent "nosec-run $aa/child-xonly /proc/self/attr/current" >"$work/out.nosec" 2>&1
	rc_nosec=$?
	in_parent "nosec-run -r -f $aa/parent -c '$aa/child-xonly /proc/self/attr/current'" \
		>"$work/out.forced" 2>&1
	rc_forced=$?
	check "AppArmor x without r: open refused, plain exec moves to 'nosec-child', nosecurity and forced execs refused (Permission denied)" \
		eval '! rc open 0 && has open "Permission denied" &&
		      is plain "nosec-child (enforce)" &&
		      rc nosec 126 && has nosec "Permission denied" &&
		      ! rc forced 0 && has forced "Permission denied" &&
		      hasnt nosec "nosec-parent" && hasnt forced "nosec-parent"'
	apparmor_parser -R "$work/aa.profiles"
fi

echo "$user:$user_pw" | chpasswd
rm -f "$work"/out.*
tap_done
