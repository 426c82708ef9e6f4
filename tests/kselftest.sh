#!/bin/sh
# tests/kselftest.sh PROGRAM...: run the series' kselftests in the guest
# (qemu/check-native) and add their results up: each program prints TAP
# and a "# Totals: pass:N fail:N xfail:N xpass:N skip:N error:N" line
# (tools/testing/selftests/kselftest_harness.h).  Ends with the run's
# "N passed, N failed[, N skipped]" line; a program that prints no totals,
# or exits with a status other than 0 (pass) or 4 (all skipped), fails.
passed=0 failed=0 skipped=0
for prog in "$@"; do
	echo "# kselftest: $prog"
	out=/tmp/kselftest.out
	"$prog" >"$out" 2>&1
	rc=$?
	cat "$out"
	totals=$(sed -n 's/^# Totals: //p' "$out" | tail -n 1)
	if [ -z "$totals" ]; then
		echo "# kselftest: $prog printed no totals (status $rc)"
		failed=$((failed + 1))
		continue
	fi
	for field in $totals; do
		n=${field#*:}
		case "$field" in
		pass:*|xfail:*) passed=$((passed + n)) ;;
		fail:*|xpass:*|error:*) failed=$((failed + n)) ;;
		skip:*) skipped=$((skipped + n)) ;;
		esac
	done
	if [ "$rc" != 0 ] && [ "$rc" != 4 ]; then
		echo "# kselftest: $prog exited with status $rc"
		failed=$((failed + 1))
	fi
done
if [ "$skipped" != 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" = 0 ]
