// SPDX-License-Identifier: GPL-2.0
/*
 * The module's stats and the state it keeps (as root): the counters
 * move with each nosecurity and refused exec, no state stays behind
 * restricted tasks that exit, and an exec storm leaves no exec to the
 * last gate.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "nosec.h"
#include "fixtures.h"
#include "common.h"
#include "../kselftest_harness.h"
#include "ksft_nosec.h"

NOSEC_FIXTURE(stats);

TEST_F(stats, no_stale_state_after_restricted_exits)
{
	int i;

	/* The module's count of tasks with state (no stats natively). */
	if (!nosec_native) {
		long base = wait_tasks(0);

		ASSERT_EQ(0, base) TH_LOG("baseline %ld", base);
	}
	for (i = 0; i < 200; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			nosec_restrict_exec();
			if (i & 1)
				nosec_set_force(1);
			_exit(0);
		}
		ASSERT_EQ(0, wait_status(pid)) TH_LOG("child");
	}
	ASSERT_TRUE(nosec_native || wait_tasks(0) == 0)
		TH_LOG("tasks %ld after 200 restricted exits", stat_value("tasks"));
	/* New tasks, possibly at reused addresses and pids, exec freely. */
	for (i = 0; i < 20; i++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(child_execve_errno(FIX_PROBE));
		ASSERT_EQ(0, wait_status(pid)) TH_LOG("fresh task %d execs", i);
	}
}

TEST_F(stats, stats_count_nosec_and_denied)
{
	MODULE_ONLY("the stats in debugfs");

	long denied = stat_value("denied_execs"), nosec = stat_value("nosec_execs");
	struct run r;

	ASSERT_TRUE(denied >= 0 && nosec >= 0 && stat_value("killed_execs") >= 0)
		TH_LOG("stats readable");
	ASSERT_EQ(0, run_prog(NOSEC, FIX_PROBE, NULL, &r)) TH_LOG("nosec");
	ASSERT_EQ(nosec + 1, stat_value("nosec_execs"))
		TH_LOG("nosec_execs %ld -> %ld", nosec, stat_value("nosec_execs"));
	ASSERT_EQ(EPERM, run_prog(PLAIN, FIX_PROBE, setup_restrict, &r)) TH_LOG("denied");
	ASSERT_EQ(denied + 1, stat_value("denied_execs"))
		TH_LOG("denied_execs %ld -> %ld", denied, stat_value("denied_execs"));
}

static int storm_worker(int id, long execs)
{
	char *argv[] = { FIX_PROBE, NULL };

	if (id % 2 == 0)
		nosec_restrict_exec();
	if (id % 4 == 0)
		nosec_set_force(1);
	for (int i = 0; i < execs; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);

			dup2(null, 1);
			if (i % 2)
				execve_nosecurity(FIX_PROBE, argv, environ);
			else
				execve(FIX_PROBE, argv, environ);
			_exit(errno == EPERM ? 10 : 11);
		}
		int st = wait_status(pid);
		/* restricted, unforced, plain execve: must be EPERM */
		int want = (id % 4 == 2 && i % 2 == 0) ? 10 : 0;

		if (st != want)
			return 1;
	}
	return 0;
}

/*
 * Six workers exec every way at once, 60 times each (NOSEC_STORM_EXECS:
 * make check-debug-quick's are fewer); each result must be the right one,
 * and none may reach the last gate (killed_execs: an exec a hook should
 * have refused, or a nosecurity exec it should have kept in place).
 */
TEST_F_TIMEOUT(stats, exec_storm_none_killed, 400)
{
	long killed = stat_value("killed_execs");
	long execs = env_long("NOSEC_STORM_EXECS", 60);
	pid_t pids[6];
	int i, bad = 0;

	ASSERT_LT(0, execs) TH_LOG("NOSEC_STORM_EXECS=%ld", execs);
	for (i = 0; i < 6; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			_exit(storm_worker(i, execs));
	}
	for (i = 0; i < 6; i++)
		bad += wait_status(pids[i]) != 0;
	ASSERT_EQ(0, bad) TH_LOG("%d workers saw a wrong exec result", bad);
	if (nosec_native)
		return;
	ASSERT_EQ(killed, stat_value("killed_execs"))
		TH_LOG("killed %ld -> %ld", killed, stat_value("killed_execs"));
}

TEST_HARNESS_MAIN
