# tests/tap.sh: sourced by the scripts `make check-real` and `make
# check-secureboot` run in a `qemu/run --hostfs` guest (tests/real.sh,
# tests/systemd.sh, tests/deb.sh, tests/secureboot.sh): the scripts'
# common start (tap_start), TAP lines, timestamps (step), the closing
# "N passed, N failed[, N skipped]" line, and running a command as the
# test user.  The script sets `work` (its scratch directory; its
# out* files are a failing case's diagnostics) and, before as_user, `user`,
# `uid`, `gid` and `home`.
# shellcheck shell=bash
# The variables the sourcing script sets:
# shellcheck disable=SC2154

set -u
export LC_ALL=C
passed=0 failed=0 skipped=0 n=0

# tap_start NAME WORK: refuse to run outside a --hostfs guest (these
# scripts add users, set passwords and install packages: only ever in the
# throwaway overlay; qemu/init marks its second stage with /nosec/stage2),
# then make WORK, empty and world-readable, the scratch directory.  PATH:
# the tree's nosec-run first, not one installed on the host.
tap_start() {
	if [ ! -e /nosec/stage2 ] || [ ! -d /run/nosec-overlay/upper ]; then
		echo "$1: only in a qemu/run --hostfs guest" >&2
		exit 2
	fi
	PATH=/nosec/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
	export PATH
	work=$2
	rm -rf "$work"
	mkdir -p "$work"
	chmod 755 "$work"
}

# check NAME COMMAND...: one TAP line for COMMAND's status.  COMMAND runs
# in a subshell, so a condition may `exit 1` (`check NAME eval '...'`).
# On failure the case's outputs ($work/out*) follow as diagnostics: whole,
# or their last $diag_lines lines when the script sets it.
check() {
	local name=$1 f
	shift
	n=$((n + 1))
	if ("$@"); then
		passed=$((passed + 1))
		echo "ok $n - $name"
		return
	fi
	failed=$((failed + 1))
	echo "not ok $n - $name"
	for f in "$work"/out*; do
		[ -f "$f" ] || continue
		if [ -n "${diag_lines:-}" ]; then tail -n "$diag_lines" "$f"; else cat "$f"; fi |
			sed "s|^|# ${f##*/}: |"
	done
}

# step WHAT: a timestamp (guest uptime) in the TAP stream.
step() { echo "# $(cut -d' ' -f1 /proc/uptime) s: $1"; }

# skip NAME REASON
skip() {
	n=$((n + 1))
	skipped=$((skipped + 1))
	echo "ok $n - $1 # SKIP $2"
}

# tap_done: the closing line; the status is 0 only when nothing failed.
tap_done() {
	if [ "$skipped" -gt 0 ]; then
		echo "$passed passed, $failed failed, $skipped skipped"
	else
		echo "$passed passed, $failed failed"
	fi
	[ "$failed" = 0 ]
}

# A case's outputs are $work/out.NAME, its exit statuses rc_NAME:
has() { grep -q -- "$2" "$work/out.$1"; }	# has NAME TEXT
hasnt() { ! has "$@"; }
is() { [ "$(cat "$work/out.$1")" = "$2" ]; }	# is NAME EXACT-OUTPUT
rc() { [ "$(eval "echo \$rc_$1")" = "$2" ]; }	# rc NAME STATUS

# as_user CMD...: CMD as the test user, with its groups, in a clean
# environment that keeps PATH.
as_user() {
	setpriv --reuid="$uid" --regid="$gid" --init-groups \
		env -i HOME="$home" USER="$user" LOGNAME="$user" PATH="$PATH" \
		LC_ALL=C "$@"
}
