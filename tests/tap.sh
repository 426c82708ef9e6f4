# tests/tap.sh: sourced by the scripts `make check-real` runs in a
# `qemu/run --hostfs` guest (tests/real.sh, tests/deb.sh): TAP lines, the
# closing "N passed, N failed[, N skipped]" line, and running a command
# as the test user.  The script sets `work` (its scratch directory; its
# out* files are a failing case's diagnostics) and, before as_user, `user`,
# `uid`, `gid` and `home`.
# shellcheck shell=bash
# The variables the sourcing script sets:
# shellcheck disable=SC2154

passed=0 failed=0 skipped=0 n=0

# hostfs_guest_only NAME: these scripts add users, set passwords and
# install packages: only ever in the throwaway overlay of a --hostfs guest
# (qemu/init marks its second stage with /nosec/stage2).
hostfs_guest_only() {
	[ -e /nosec/stage2 ] && [ -d /run/nosec-overlay/upper ] && return 0
	echo "$1: only in a qemu/run --hostfs guest" >&2
	exit 2
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

# as_user CMD...: CMD as the test user, with its groups, in a clean
# environment that keeps PATH.
as_user() {
	setpriv --reuid="$uid" --regid="$gid" --init-groups \
		env -i HOME="$home" USER="$user" LOGNAME="$user" PATH="$PATH" \
		LC_ALL=C "$@"
}
