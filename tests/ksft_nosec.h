/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tests (NAME_test.c) share on top of kselftest_harness.h,
 * which each of them includes first.
 *
 * Every test makes its own fixtures: a mount namespace of its own with a
 * fresh tmpfs on FIX, so that no test depends on another having run, or
 * on the order they run in.
 */
#ifndef NOSEC_KSELFTEST
/*
 * The suite's kselftests include the kernel's header as its own
 * selftests do: #include "../kselftest_harness.h".  The header is never
 * in the repository: tests/Makefile extracts it, with kselftest.h, from
 * Debian's linux-source-6.12 into its build directory (KSFT_DIR) and
 * points -iquote at KSFT_DIR/exec_nosecurity.
 */
#endif
#ifndef NOSEC_KSFT_H
#define NOSEC_KSFT_H

#include <dirent.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "common.h"
#include "fixtures.h"

/*
 * 120 s a test (the harness's default is 30 s), for the slower ones on an
 * emulated machine or a debug kernel.  TEST_F() expands
 * TEST_TIMEOUT_DEFAULT where it is used, so this holds for every TEST_F()
 * after this header; TEST_F_TIMEOUT() for more.
 */
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT 120

#ifndef NOSEC_KSELFTEST
/*
 * Which kernel: the module, or the native series.  Decided once a binary,
 * before any test runs; NOSEC_NATIVE ("1" native, "0" module), when the
 * driver sets it, must agree: a module that failed to load must never
 * pass for "native".  On a mismatch the binary prints no totals, which
 * the driver counts as a failure.
 */
static void __attribute__((constructor)) nosec_ksft_decide_native(void)
{
	const char *env = getenv("NOSEC_NATIVE");

	nosec_native = nosec_detect_native();
	if (!env)
		return;
	if ((strcmp(env, "0") && strcmp(env, "1")) || atoi(env) != nosec_native) {
		fprintf(stderr, "NOSEC_NATIVE=%s, but this kernel is %s\n", env,
			nosec_native ? "native (no module, PR_GET_RESTRICT works)" :
			access("/sys/module/nosec_exec", F_OK) == 0 ?
			"the nosec_exec module" : "neither (module not loaded?)");
		exit(KSFT_FAIL);
	}
}

/* A test of the module itself: on the native series it skips, saying so. */
#define MODULE_ONLY(why)						\
	do {								\
		if (nosec_native)					\
			SKIP(return, "module only: %s", why);		\
	} while (0)
#endif

/*
 * A case whose code is written for x86-64 and arm64 (its own system
 * calls or registers, the seccomp and audit architecture): elsewhere it
 * skips, saying so.
 */
#ifdef NOSEC_ARCH_KNOWN
#define ARCH_TEST_START(what)	((void)(what))
#else
#define ARCH_TEST_START(what)						\
	SKIP(return, "%s: written for x86-64 and arm64 only", what)
#endif

/*
 * @call fails with @err (errno), else the test fails saying @fmt, its
 * arguments taken right after the call.
 */
#define ASSERT_ERRNO(err, call, fmt, ...)				\
	do {								\
		long ret_ = (call);					\
		int errno_ = errno;					\
		char why_[256];						\
									\
		snprintf(why_, sizeof(why_), fmt, ##__VA_ARGS__);	\
		ASSERT_EQ(-1, ret_) TH_LOG("%s", why_);			\
		ASSERT_EQ(err, errno_) TH_LOG("%s", why_);		\
	} while (0)

/* A helper of check.h's kind passed; or the test skips, or fails. */
#define ASSERT_PASS(expr)						\
	do {								\
		int r_ = (expr);					\
									\
		if (r_ == SKIP_HELPER)					\
			SKIP(return, "%s", skip_reason);		\
		ASSERT_EQ(PASS, r_) TH_LOG("%s", #expr);		\
	} while (0)

/* The rest of the test runs as the unprivileged TEST_UID. */
#define AS_TEST_USER()							\
	do {								\
		ASSERT_EQ(0, drop_to_user())				\
			TH_LOG("cannot drop to uid %d", TEST_UID);	\
	} while (0)

#ifndef NOSEC_KSELFTEST
/*
 * A test about LSM @name (a string literal) runs where @name is active;
 * elsewhere it skips, saying so, unless the boot was made for @name
 * (NOSEC_LSM, make check-lsm): then it fails.
 */
#define LSM_TEST_START(name)						\
	do {								\
		if (!lsm_active(name)) {				\
			ASSERT_FALSE(lsm_expected(name))		\
				TH_LOG("this boot is for " name ", which is not active"); \
			SKIP(return, name " is not active in this boot"	\
			     " (make check-lsm boots every LSM the kernel builds)"); \
		}							\
	} while (0)
#endif

/*
 * In FIXTURE_SETUP(), as root: a subreaper (nosec_reap_descendants()),
 * a mount namespace of the test's own, a fresh tmpfs on FIX, and every
 * fixture file in it, from the probe binaries beside this program.  The
 * namespace goes with the test: no teardown, nothing left behind.
 */
static inline void nosec_fixture_setup(struct __test_metadata *_metadata)
{
	char dir[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);

#ifdef NOSEC_KSELFTEST	/* skip where they cannot run */
	if (geteuid() != 0)
		SKIP(return, "run as root: each test mounts its own fixtures");
	if (prctl(PR_GET_RESTRICT, 0, 0, 0, 0) < 0)
		SKIP(return, "no AT_EXECVE_NO_TRANSITION and PR_RESTRICT_ME here");
#endif
	ASSERT_LT(0, n);
	dir[n] = '\0';
	slash = strrchr(dir, '/');
	ASSERT_TRUE(slash != NULL);
	*slash = '\0';
	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0));
	ASSERT_EQ(0, unshare(CLONE_NEWNS));
	ASSERT_EQ(0, mount(NULL, "/", NULL, MS_PRIVATE | MS_REC, NULL));
	mkdir(FIX, 0755);
	ASSERT_EQ(0, mount("tmpfs", FIX, "tmpfs", 0, "mode=0755"))
		TH_LOG("tmpfs on %s: %s", FIX, strerror(errno));
	ASSERT_EQ(0, make_fixture_files(dir));
}

/* The parent of @pid in /proc/PID/stat, or -1. */
static inline pid_t nosec_ppid(pid_t pid)
{
	char path[64], buf[512], *p;
	int ppid = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f)) {
		p = strrchr(buf, ')');	/* comm may hold spaces */
		if (!p || sscanf(p + 1, " %*c %d", &ppid) != 1)
			ppid = -1;
	}
	fclose(f);
	return ppid;
}

/*
 * In FIXTURE_TEARDOWN(): nothing a test started outlives it, so that no
 * stray restricted task is left for the next test.  The test is a
 * subreaper: its orphans come back to it, are killed and reaped, until
 * it has no child left.
 */
#ifndef NOSEC_KSELFTEST
/* On the module, a stray task would also pin it, or count in its stats. */
#endif
static inline void nosec_reap_descendants(void)
{
	for (;;) {
		DIR *d = opendir("/proc");
		struct dirent *e;

		while (d && (e = readdir(d))) {
			pid_t pid = atoi(e->d_name);

			if (pid > 0 && nosec_ppid(pid) == getpid())
				kill(pid, SIGKILL);
		}
		if (d)
			closedir(d);
		if (waitpid(-1, NULL, 0) < 0 && errno == ECHILD)
			break;
	}
}

/*
 * NOSEC_FIXTURE(name): a fixture whose every test starts as root with
 * its own fixture files (nosec_fixture_setup()) and leaves no process
 * behind (nosec_reap_descendants()).
 */
#define NOSEC_FIXTURE(name)						\
	FIXTURE(name) {};						\
	FIXTURE_SETUP(name)						\
	{								\
		nosec_fixture_setup(_metadata);				\
	}								\
	FIXTURE_TEARDOWN(name)						\
	{								\
		nosec_reap_descendants();				\
	}

#ifndef NOSEC_KSELFTEST
/*
 * NOSEC_RELOAD_FIXTURE(name): for the tests that unload, reload or
 * reconfigure the module (a program of their own, as root).  Each starts
 * with the module as it ships, loaded, and ends with it so again (reloaded
 * if the test left it otherwise: module_as_shipped()), so that no test
 * depends on what another left.  On the
 * native series there is no module: those of its tests that still make
 * sense run as in NOSEC_FIXTURE().
 */
#define NOSEC_RELOAD_FIXTURE(name)					\
	FIXTURE(name) {};						\
	FIXTURE_SETUP(name)						\
	{								\
		nosec_fixture_setup(_metadata);				\
		if (!nosec_native)					\
			ASSERT_EQ(0, module_as_shipped())		\
				TH_LOG("load " MODULE_PATH ": %s", strerror(errno)); \
	}								\
	FIXTURE_TEARDOWN(name)						\
	{								\
		nosec_reap_descendants();				\
		if (!nosec_native)					\
			ASSERT_EQ(0, module_as_shipped())		\
				TH_LOG("reload " MODULE_PATH ": %s", strerror(errno)); \
	}
#endif

#endif
