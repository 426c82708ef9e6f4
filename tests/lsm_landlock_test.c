// SPDX-License-Identifier: GPL-2.0
/*
 * Landlock: its domain lives in the creds and never moves at exec, so a
 * nosecurity exec stays in it; its read check is an open for reading, so
 * a domain that handles LANDLOCK_ACCESS_FS_READ_FILE must grant it, as
 * well as EXECUTE, on the program.  Its scopes (ABI 6: no signal to a
 * process outside the domain) pass a nosecurity exec and a forced one as
 * they pass a plain one, and its TSYNC (ABI 8: every thread enters the
 * domain) composes with PR_RESTRICT_TSYNC, in either order.
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
#include <pthread.h>
#include <signal.h>
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

/* Newer than Debian 12's uapi headers: the values of Landlock's ABI 6 and 8. */
#ifndef LANDLOCK_SCOPE_SIGNAL
#define LANDLOCK_SCOPE_SIGNAL		(1ULL << 1)
#endif
#ifndef LANDLOCK_RESTRICT_SELF_TSYNC
#define LANDLOCK_RESTRICT_SELF_TSYNC	(1U << 3)
#endif

/* The scoped part of struct landlock_ruleset_attr (ABI 6), laid out whole. */
struct ll_ruleset_attr_v6 {
	__u64 handled_access_fs;
	__u64 handled_access_net;
	__u64 scoped;
};

static int ll_abi(void)
{
	return syscall(__NR_landlock_create_ruleset, NULL, 0,
		       LANDLOCK_CREATE_RULESET_VERSION);
}

/* Enter a domain that forbids signals outside it, with @flags: 0 or -1. */
static int ll_enter_signal_scope(unsigned int flags)
{
	struct ll_ruleset_attr_v6 attr = { .scoped = LANDLOCK_SCOPE_SIGNAL };
	int ruleset = syscall(__NR_landlock_create_ruleset, &attr, sizeof(attr), 0);
	int ret;

	if (ruleset < 0)
		return -1;
	ret = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ?:
	      syscall(__NR_landlock_restrict_self, ruleset, flags);
	close(ruleset);
	return ret ? -1 : 0;
}

static void setup_signal_scope(void)
{
	if (ll_enter_signal_scope(0))
		_exit(97);
}

/*
 * The signal scope after each kind of exec: the program may not signal
 * the test process (of its own uid, outside its domain); without the
 * domain it may.
 */
TEST_F(lsm_landlock, landlock_signal_scope_kept_by_every_exec)
{
	struct run r;

	LSM_TEST_START("landlock");
	if (ll_abi() < 6)
		SKIP(return, "Landlock ABI %d: no scopes", ll_abi());
	AS_TEST_USER();
	ASSERT_EQ(0, run_prog(PLAIN, FIX_PROBE, NULL, &r));
	ASSERT_EQ(0, getl(&r, "kill_parent")) TH_LOG("no domain: the signal goes");
	ASSERT_EQ(0, run_prog(PLAIN, FIX_PROBE, setup_signal_scope, &r));
	ASSERT_EQ(EPERM, getl(&r, "kill_parent")) TH_LOG("plain exec");
	ASSERT_EQ(0, run_prog(NOSEC, FIX_PROBE, setup_signal_scope, &r));
	ASSERT_EQ(EPERM, getl(&r, "kill_parent")) TH_LOG("nosecurity exec");
	ASSERT_EQ(0, run_prog(FORCED, FIX_PROBE, setup_signal_scope, &r));
	ASSERT_EQ(EPERM, getl(&r, "kill_parent")) TH_LOG("forced exec");
}

/* The other thread: waits for the word, then tries an exec and a signal. */
struct ll_thread {
	int go[2];		/* the main thread writes a byte when done */
	int exec_errno, kill_errno;
};

static void *ll_thread_tries(void *arg)
{
	struct ll_thread *lt = arg;
	/* Should the exec run, the child exits 3, not 0. */
	char *argv[] = { FIX_PROBE, "--euid", "99999", NULL };
	char c;

	if (read(lt->go[0], &c, 1) != 1)
		return NULL;
	execve(FIX_PROBE, argv, environ);
	lt->exec_errno = errno;
	lt->kill_errno = kill(getppid(), 0) ? errno : 0;
	return NULL;
}

/*
 * In a child, with a second thread: Landlock's TSYNC and PR_RESTRICT_TSYNC,
 * in the order @landlock_first says; then the second thread's exec (EPERM:
 * restricted) and signal to the test process, of the same uid (EPERM:
 * scoped).  Exit status: 0 when both hold in that thread, else the step
 * that failed (11 and up).
 */
static int both_tsyncs_child(bool landlock_first)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct ll_thread lt = { .exec_errno = -1, .kill_errno = -1 };
		pthread_t th;

		if (pipe(lt.go) || pthread_create(&th, NULL, ll_thread_tries, &lt))
			_exit(11);
		if (landlock_first &&
		    ll_enter_signal_scope(LANDLOCK_RESTRICT_SELF_TSYNC))
			_exit(12);
		if (nosec_restrict_exec_all_threads(NULL))
			_exit(13);
		if (!landlock_first &&
		    ll_enter_signal_scope(LANDLOCK_RESTRICT_SELF_TSYNC))
			_exit(12);
		if (write(lt.go[1], "g", 1) != 1 || pthread_join(th, NULL))
			_exit(14);
		if (lt.exec_errno != EPERM)
			_exit(15);
		_exit(lt.kill_errno == EPERM ? 0 : 16);
	}
	return wait_status(pid);
}

TEST_F(lsm_landlock, landlock_tsync_and_restrict_tsync_compose)
{
	LSM_TEST_START("landlock");
	if (ll_abi() < 8)
		SKIP(return, "Landlock ABI %d: no LANDLOCK_RESTRICT_SELF_TSYNC", ll_abi());
	AS_TEST_USER();
	ASSERT_EQ(0, both_tsyncs_child(true)) TH_LOG("Landlock's TSYNC first");
	ASSERT_EQ(0, both_tsyncs_child(false)) TH_LOG("PR_RESTRICT_TSYNC first");
}

TEST_HARNESS_MAIN
