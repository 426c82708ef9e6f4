#!/bin/sh
# tests/kselftest.sh [-c NAME] PROGRAM[,OPTION...]...: run kselftest_harness.h
# programs (the series' kselftests in the guest, qemu/check-native; the
# suite's *_test binaries) and add their results up: each program prints
# TAP and a "# Totals: pass:N fail:N xfail:N xpass:N skip:N error:N" line
# (tools/testing/selftests/kselftest_harness.h).  Ends with the run's
# "N passed, N failed[, N skipped]" line; a program that prints no totals,
# or exits with a status other than 0 (pass) or 4 (all skipped), fails.
# -c NAME: only the tests whose fixture, variant or test name contains
# NAME (make check CASE=NAME), through the harness's own -f/-v/-t filters
# (6.12's harness; they select on exact names, so the names come from the
# program's -l list); a program with none is not run, and a NAME that no
# program has fails the run.  OPTIONs after a
# program, comma-separated, go to it first (-F,stress: not that fixture;
# the harness stops at the first filter that matches).  After each
# program, "# time: PROGRAM: N s" says how long it took.
#
# tests/kselftest.sh --runner DIR: run the kselftests installed in DIR
# (make -C tools/testing/selftests install INSTALL_PATH=DIR) through the
# kernel's own runner, DIR/run_kselftest.sh, and add up the totals each
# program prints (nested one level in the runner's TAP); a program the
# runner reports "not ok" (a failure, or killed at the timeout of its
# settings file), or one that printed no totals, fails.
passed=0 failed=0 skipped=0
case_name='' matched=''

# add_totals TOTALS: add a "pass:N fail:N ..." line to the counts.
add_totals() {
	for field in $1; do
		n=${field#*:}
		case "$field" in
		pass:*|xfail:*) passed=$((passed + n)) ;;
		fail:*|xpass:*|error:*) failed=$((failed + n)) ;;
		skip:*) skipped=$((skipped + n)) ;;
		esac
	done
}

# print_counts: the run's last line, and its status.
print_counts() {
	if [ "$skipped" != 0 ]; then
		echo "$passed passed, $failed failed, $skipped skipped"
	else
		echo "$passed passed, $failed failed"
	fi
	[ "$failed" = 0 ]
}

if [ "${1:-}" = --runner ] && [ $# = 2 ]; then
	out=/tmp/kselftest.out
	"$2/run_kselftest.sh" 2>&1 | tee "$out"
	programs=$(grep -c '^ok [0-9]* selftests: \|^not ok [0-9]* selftests: ' "$out")
	notok=$(grep -c '^not ok [0-9]* selftests: ' "$out")
	sed -n 's/^# # Totals: //p' "$out" >"$out.totals"
	while read -r totals; do
		add_totals "$totals"
	done <"$out.totals"
	have=$(wc -l <"$out.totals")
	if [ "$programs" = 0 ] || [ "$have" -lt "$programs" ]; then
		echo "# kselftest: $programs programs, $have printed totals"
		failed=$((failed + 1))
	fi
	[ "$notok" = 0 ] || echo "# kselftest: the runner reports $notok programs not ok"
	failed=$((failed + notok))
	print_counts
	exit
fi
if [ "${1:-}" = -c ] && [ $# -ge 2 ]; then
	case_name=$2
	shift 2
fi
for entry in "$@"; do
	prog=${entry%%,*}
	opts=
	[ "$prog" = "$entry" ] || opts=$(echo "${entry#*,}" | tr , ' ')
	sel=
	if [ -n "$case_name" ]; then
		sel=$("$prog" -l 2>&1 | awk -v n="$case_name" '
			NR > 1 && !/^---/ {
				for (i = 1; i <= NF; i++)
					if (index($i, n))
						printf " -f %s -v %s -t %s", $i, $i, $i
			}')
		[ -n "$sel" ] || continue
		matched=1
	fi
	sel="${opts:+ $opts}$sel"
	echo "# kselftest: $prog$sel"
	out=/tmp/kselftest.out
	t0=$(date +%s)
	# shellcheck disable=SC2086 # names: one word each
	{
		"$prog" $sel 2>&1
		echo $? >"$out.rc"
	} | tee "$out"
	rc=$(cat "$out.rc")
	echo "# time: ${prog##*/}: $(($(date +%s) - t0)) s"
	totals=$(sed -n 's/^# Totals: //p' "$out" | tail -n 1)
	if [ -z "$totals" ]; then
		echo "# kselftest: $prog printed no totals (status $rc)"
		failed=$((failed + 1))
		continue
	fi
	add_totals "$totals"
	if [ "$rc" != 0 ] && [ "$rc" != 4 ]; then
		echo "# kselftest: $prog exited with status $rc"
		failed=$((failed + 1))
	fi
done
if [ -n "$case_name" ] && [ -z "$matched" ]; then
	echo "# kselftest: no test, variant or fixture name contains '$case_name'"
	failed=$((failed + 1))
fi
print_counts
