// SPDX-License-Identifier: GPL-2.0
/*
 * Landlock: its domain lives in the creds and never moves at exec, so a
 * nosecurity exec stays in it; its read check is an open for reading, so
 * a domain that handles LANDLOCK_ACCESS_FS_READ_FILE must grant it, as
 * well as EXECUTE, on the program.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/landlock.h>

#include "nosec.h"
#include "fixtures.h"
#include "common.h"
#include "../kselftest_harness.h"
#include "ksft_nosec.h"

NOSEC_FIXTURE(lsm_landlock);

#define LL_DIR		"/tmp/nosec-ll"
#define LL_XONLY	LL_DIR "/xonly"		/* EXECUTE */
#define LL_RX		LL_DIR "/rx"		/* EXECUTE and READ_FILE */

static int ll_grant(int ruleset, const char *path, __u64 access)
{
	struct landlock_path_beneath_attr rule = { .allowed_access = access };
	int ret;

	rule.parent_fd = open(path, O_PATH | O_CLOEXEC);
	if (rule.parent_fd < 0)
		return -1;
	ret = syscall(__NR_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH,
		      &rule, 0);
	close(rule.parent_fd);
	return ret;
}

/*
 * A Landlock domain that handles EXECUTE and READ_FILE: READ_FILE where
 * the test needs to read (/proc, /dev, /sys), EXECUTE alone on LL_XONLY,
 * both on LL_RX.
 */
static int ll_enter_domain(void)
{
	struct landlock_ruleset_attr attr = {
		.handled_access_fs = LANDLOCK_ACCESS_FS_EXECUTE |
				     LANDLOCK_ACCESS_FS_READ_FILE,
	};
	int ruleset = syscall(__NR_landlock_create_ruleset, &attr, sizeof(attr), 0);

	if (ruleset < 0)
		return -1;
	if (ll_grant(ruleset, "/proc", LANDLOCK_ACCESS_FS_READ_FILE) ||
	    ll_grant(ruleset, "/dev", LANDLOCK_ACCESS_FS_READ_FILE) ||
	    ll_grant(ruleset, "/sys", LANDLOCK_ACCESS_FS_READ_FILE) ||
	    ll_grant(ruleset, LL_XONLY, LANDLOCK_ACCESS_FS_EXECUTE) ||
	    ll_grant(ruleset, LL_RX, LANDLOCK_ACCESS_FS_EXECUTE |
		     LANDLOCK_ACCESS_FS_READ_FILE) ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(__NR_landlock_restrict_self, ruleset, 0)) {
		close(ruleset);
		return -1;
	}
	close(ruleset);
	return 0;
}

TEST_F(lsm_landlock, landlock_read_file_required)
{
	struct run p, n;

	LSM_TEST_START("landlock");
	mkdir(LL_DIR, 0755);
	mkdir(LL_XONLY, 0755);
	mkdir(LL_RX, 0755);
	ASSERT_TRUE(copy_file(FIX_PROBE, LL_XONLY "/probe", 0755) == 0 &&
		    copy_file(FIX_PROBE, LL_RX "/probe", 0755) == 0)
		TH_LOG("copies: %s", strerror(errno));
	ASSERT_EQ(0, drop_to_user()) TH_LOG("drop to uid %d", TEST_UID);
	ASSERT_EQ(0, ll_enter_domain()) TH_LOG("Landlock domain: %s", strerror(errno));
	ASSERT_ERRNO(EACCES, open(LL_XONLY "/probe", O_RDONLY),
		     "the domain must not let it read " LL_XONLY "/probe");
	/* A plain exec's own open reads too: Landlock's verdict, for the record. */
	printf("# plain exec with EXECUTE alone: %s\n",
	       strerror(run_prog(PLAIN, LL_XONLY "/probe", NULL, &p)));
	ASSERT_EQ(EACCES, run_prog(NOSEC, LL_XONLY "/probe", NULL, &n))
		TH_LOG("nosec, EXECUTE alone: %d", n.exec_errno);
	ASSERT_EQ(0, run_prog(PLAIN, LL_RX "/probe", NULL, &p))
		TH_LOG("plain, both: %d", p.exec_errno);
	ASSERT_EQ(0, run_prog(NOSEC, LL_RX "/probe", NULL, &n))
		TH_LOG("nosec, both: %d", n.exec_errno);
	ASSERT_EQ(0, run_prog(FORCED, LL_RX "/probe", NULL, &n))
		TH_LOG("forced, both: %d", n.exec_errno);
}

TEST_HARNESS_MAIN
