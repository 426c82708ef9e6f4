#!/bin/sh
# The demonstration `make demo` runs in the guest: what nosec_exec does,
# shown as the unprivileged user 1000.  Each step also checks what it
# shows; the script exits 1 if any step did not show it.
set -u
T=/nosec/tests
mkdir -p /tmp/demo
cp $T/probe /tmp/demo/suid-probe
chown 0:0 /tmp/demo/suid-probe
chmod 4755 /tmp/demo/suid-probe
export PATH=/nosec/bin:/bin
bad=0

show() {
	# uids: real, effective, saved, filesystem
	grep -E '^(uids|at_secure|restrict|force)=' | tr '\n' ' '
	echo
}

# expect TEXT OUTPUT: OUTPUT must contain TEXT.
expect() {
	case "$2" in
	*"$1"*) ;;
	*) echo "   demo: expected '$1'"; bad=1 ;;
	esac
}

echo "== A setuid-root program, /tmp/demo/suid-probe, run by uid 1000 =="
echo
echo "1. plain execve: the setuid bit applies (euid 0, AT_SECURE 1)"
echo "   \$ /tmp/demo/suid-probe"
out=$($T/runas 1000 /tmp/demo/suid-probe | show)
echo "   $out"
expect "uids=1000,0,0,0 at_secure=1" "$out"
echo
echo "2. execve_nosecurity: no transition (euid stays 1000, AT_SECURE 0)"
echo "   \$ nosec-run /tmp/demo/suid-probe"
out=$($T/runas 1000 nosec-run /tmp/demo/suid-probe | show)
echo "   $out"
expect "uids=1000,1000,1000,1000 at_secure=0" "$out"
echo
echo "3. a restricted process: its execve fails with EPERM"
echo "   \$ nosec-run --restrict sh -c /tmp/demo/suid-probe"
out=$($T/runas 1000 nosec-run --restrict sh -c '/tmp/demo/suid-probe; echo "execve status $? (126: not permitted)"' 2>&1 | tr '\n' ' ')
echo "   $out"
expect "Operation not permitted" "$out"
expect "status 126" "$out"
echo
echo "4. restricted + forced: the shell's execve becomes execve_nosecurity"
echo "   \$ nosec-run --restrict --force sh -c /tmp/demo/suid-probe"
out=$($T/runas 1000 nosec-run --restrict --force sh -c /tmp/demo/suid-probe | show)
echo "   $out"
expect "uids=1000,1000,1000,1000 at_secure=0 restrict=1 force=1" "$out"
echo
if [ -e /dev/nosec_exec ]; then
	echo "== /sys/kernel/debug/nosec_exec/stats =="
	cat /sys/kernel/debug/nosec_exec/stats
else
	echo "== no module: the native series (no stats) =="
fi
[ $bad = 0 ] || echo "demo: a step did not show what it says"
exit $bad
