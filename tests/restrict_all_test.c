// SPDX-License-Identifier: GPL-2.0
/*
 * A tree that can run nothing new: PR_RESTRICT_EXEC_NOSECURITY
 * on top of PR_RESTRICT_EXEC also denies the nosecurity exec, through the
 * library, the raw system calls and force mode.  Every route is tried,
 * each with the restriction's absence as its control where the route
 * could otherwise fail for another reason.
 */
#ifndef NOSEC_KSELFTEST
/*
 * The module's raw call is its ioctl (natively the system calls), and
 * its NOSEC_EXEC_RESTRICT_ALL gives both to the program a nosecurity exec
 * starts; nosec-run --restrict-all uses it (the module only: the series
 * has no such flag).
 */
#endif
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nosec.h"
#include "fixtures.h"
#include "common.h"
#include "../kselftest_harness.h"
#include "ksft_nosec.h"

NOSEC_FIXTURE(restrict_all);

#define RESTRICT_ALL	(PR_RESTRICT_EXEC | PR_RESTRICT_EXEC_NOSECURITY)

static unsigned long restrict_mask(void)
{
	int m = prctl(PR_GET_RESTRICT, 0, 0, 0, 0);

	return m < 0 ? 99 : (unsigned long)m;
}

TEST_F(restrict_all, restrict_all_prctl_rules)
{
	AS_TEST_USER();

	ASSERT_ERRNO(EINVAL, restrict_me(PR_RESTRICT_EXEC_NOSECURITY, 0, 0, 0),
		     "without PR_RESTRICT_EXEC: %d", errno);
	ASSERT_EQ(0, restrict_mask())
		TH_LOG("a refused call changed the mask: %lu", restrict_mask());
	ASSERT_ERRNO(EINVAL, restrict_me(RESTRICT_ALL | 4, 0, 0, 0),
		     "an unknown bit beside them: %d", errno);
	ASSERT_EQ(0, restrict_me(PR_RESTRICT_EXEC, 0, 0, 0)) TH_LOG("restrict exec");
	ASSERT_EQ(PR_RESTRICT_EXEC, restrict_mask()) TH_LOG("mask %lu", restrict_mask());
	/* After PR_RESTRICT_EXEC, the new bit alone. */
	ASSERT_EQ(0, restrict_me(PR_RESTRICT_EXEC_NOSECURITY, 0, 0, 0))
		TH_LOG("then the rest: %d", errno);
	ASSERT_EQ(RESTRICT_ALL, restrict_mask()) TH_LOG("mask %lu", restrict_mask());
	ASSERT_TRUE(restrict_me(0, 0, 0, 0) == 0 && restrict_mask() == RESTRICT_ALL)
		TH_LOG("irrevocable");
}

#ifdef __x86_64__
static char i32_path[] = FIX_PROBE;
static unsigned int i32_argv[2];
#endif

/* Each route a restricted task has to a new program, tried in turn. */
static int every_route_denied(const char *who)
{
	char *const argv[] = { FIX_PROBE, NULL };
	int fd = open(FIX_PROBE, O_RDONLY | O_CLOEXEC);
	pid_t pid;
	int e;

	REQUIRE(fd >= 0, "open");
	REQUIRE(execve(FIX_PROBE, argv, environ) == -1 && errno == EPERM,
		"%s: execve: %d", who, errno);
	REQUIRE(syscall(SYS_execveat, fd, "", argv, environ, AT_EMPTY_PATH) == -1 &&
		errno == EPERM, "%s: execveat: %d", who, errno);
	REQUIRE(execve_nosecurity(FIX_PROBE, argv, environ) == -1 && errno == EPERM,
		"%s: execve_nosecurity: %d", who, errno);
	REQUIRE(fexecve_nosecurity(fd, argv, environ) == -1 && errno == EPERM,
		"%s: fexecve_nosecurity: %d", who, errno);
	e = do_exec(NOSEC_RAW, FIX_PROBE, argv);
#ifndef NOSEC_KSELFTEST
	REQUIRE(e == EPERM, "%s: the %s itself: %d", who,
		nosec_native ? "flag" : "ioctl", e);
#else
	REQUIRE(e == EPERM, "%s: the flag itself: %d", who, e);
#endif
	REQUIRE(syscall(SYS_execveat, AT_FDCWD, FIX_PROBE, argv, environ,
			AT_EXECVE_NO_TRANSITION) == -1 && errno == EPERM,
		"%s: execveat(AT_EXECVE_NO_TRANSITION) made directly: %d", who, errno);
	REQUIRE(nosec_set_force(1) == -1 && errno == EPERM, "%s: force mode: %d", who, errno);
	REQUIRE(execve(FIX_PROBE, argv, environ) == -1 && errno == EPERM,
		"%s: execve after refused force: %d", who, errno);
#ifdef __x86_64__	/* arm64: prog32, restrict_all_denies_every_route */
	i32_argv[0] = (unsigned int)(uintptr_t)i32_path;
	REQUIRE(int80(NR32_EXECVE, (long)i32_path, (long)i32_argv, 0, 0, 0) == -EPERM,
		"%s: int $0x80 execve", who);
	REQUIRE(int80(NR32_EXECVEAT, AT_FDCWD, (long)i32_path, (long)i32_argv, 0,
		      AT_EXECVE_NO_TRANSITION) == -EPERM,
		"%s: int $0x80 execveat(AT_EXECVE_NO_TRANSITION)", who);
#endif
	e = posix_spawn(&pid, FIX_PROBE, NULL, NULL, argv, environ);
	REQUIRE(e == EPERM, "%s: posix_spawn: %d", who, e);
	close(fd);
	return PASS;
}

TEST_F(restrict_all, restrict_all_denies_every_route)
{
	struct run r;
	pid_t pid;
#ifdef __aarch64__
	struct run r32;
	int aarch32;
#endif

	AS_TEST_USER();

	/* Control: restricted exec alone, the nosecurity route works. */
	ASSERT_EQ(0, run_prog(NOSEC, FIX_PROBE, setup_restrict, &r))
		TH_LOG("PR_RESTRICT_EXEC alone: %d", r.exec_errno);
#ifdef __aarch64__
	/*
	 * The 32-bit routes: prog32, restricted the same way, makes them
	 * (a restricted task could not start it).  Checked last.
	 */
	aarch32 = prog32_calls(NULL, RESTRICT_ALL, FIX_PROBE, "execve,execveat:0x200", &r32);
#endif
	ASSERT_EQ(0, restrict_me(RESTRICT_ALL, 0, 0, 0)) TH_LOG("restrict all: %d", errno);
	ASSERT_PASS(every_route_denied("self"));
	pid = fork();
	if (pid == 0)
		_exit(every_route_denied("child") == PASS && restrict_mask() == RESTRICT_ALL ?
		      0 : 1);
	ASSERT_EQ(0, wait_status(pid)) TH_LOG("a child inherits it");
#ifdef __aarch64__
	ASSERT_PASS(aarch32);
	ASSERT_EQ(EPERM, getl(&r32, "errno1")) TH_LOG("AArch32 execve: %s", r32.out);
	ASSERT_EQ(EPERM, getl(&r32, "errno2"))
		TH_LOG("AArch32 execveat(AT_EXECVE_NO_TRANSITION): %s", r32.out);
#endif
}

/* Force mode first, then everything: the forced execve is denied too. */
TEST_F(restrict_all, restrict_all_after_force)
{
	char *const argv[] = { FIX_PROBE, NULL };

	AS_TEST_USER();

	ASSERT_TRUE(nosec_restrict_exec() == 0 && nosec_set_force(1) == 0)
		TH_LOG("restrict + force");
	ASSERT_EQ(0, restrict_me(PR_RESTRICT_EXEC_NOSECURITY, 0, 0, 0))
		TH_LOG("then all: %d", errno);
	ASSERT_EQ(1, nosec_get_force()) TH_LOG("force stays reported");
	ASSERT_ERRNO(EPERM, execve(FIX_PROBE, argv, environ), "a forced execve: %d", errno);
}

#ifndef NOSEC_KSELFTEST	/* the module: its ioctl, and nosec-run */
static void exec_restrict_all(void *arg)
{
	char *const argv[] = { (char *)arg, NULL };

	execveat_nosecurity(AT_FDCWD, arg, argv, environ, NOSEC_EXEC_RESTRICT_ALL);
	printf("exec_errno=%d\n", errno);
	printf("mask_after_failure=%lu\n", restrict_mask());
	fflush(stdout);
	execve(FIX_PROBE, argv, environ);
	printf("plain_errno=%d\n", errno);
}

TEST_F(restrict_all, restrict_all_ioctl_flag_restricts_new_program)
{
	struct run r;

	MODULE_ONLY("NOSEC_EXEC_RESTRICT_ALL");
	AS_TEST_USER();

	ASSERT_EQ(0, capture(exec_restrict_all, FIX_PROBE_SUID, &r)) TH_LOG("ran: %s", r.out);
	ASSERT_TRUE(getl(&r, "restrict") == RESTRICT_ALL && getl(&r, "force") == 0)
		TH_LOG("the new program's restrictions: %s", r.out);
	ASSERT_TRUE(!strcmp(get(&r, "uids"), "1000,1000,1000,1000"))
		TH_LOG("uids %s", get(&r, "uids"));
	/* A failed exec leaves the caller as it was. */
	capture(exec_restrict_all, FIX "/does-not-exist", &r);
	ASSERT_TRUE(getl(&r, "exec_errno") == ENOENT && getl(&r, "mask_after_failure") == 0)
		TH_LOG("failed exec: %s", r.out);
	ASSERT_TRUE(getl(&r, "plain_errno") == 0 && getl(&r, "end") == 1)
		TH_LOG("a plain exec after the failure: %s", r.out);
}

/* nosec-run --restrict-all: the program starts with both restrictions. */
static void nosec_run_all(void *arg)
{
	setup_user();
	execl("/nosec/bin/nosec-run", "nosec-run", (char *)arg, FIX_PROBE, (char *)NULL);
	printf("exec_errno=%d\n", errno);
}

TEST_F(restrict_all, restrict_all_nosec_run)
{
	struct run r;

	MODULE_ONLY("NOSEC_EXEC_RESTRICT_ALL");

	ASSERT_EQ(0, capture(nosec_run_all, "--restrict-all", &r)) TH_LOG("ran: %s", r.out);
	ASSERT_TRUE(getl(&r, "restrict") == RESTRICT_ALL && getl(&r, "end") == 1)
		TH_LOG("--restrict-all: %s", r.out);
	ASSERT_TRUE(capture(nosec_run_all, "-R", &r) == 0 && getl(&r, "restrict") == RESTRICT_ALL)
		TH_LOG("-R: %s", r.out);
	ASSERT_TRUE(capture(nosec_run_all, "--restrict", &r) == 0 &&
		    getl(&r, "restrict") == PR_RESTRICT_EXEC)
		TH_LOG("--restrict alone: %s", r.out);
}

static void nosec_run_all_forced(void *arg)
{
	(void)arg;
	setup_user();
	dup2(1, 2);
	execl("/nosec/bin/nosec-run", "nosec-run", "--restrict-all", "--force", FIX_PROBE,
	      (char *)NULL);
}

TEST_F(restrict_all, restrict_all_nosec_run_not_with_force)
{
	struct run r;
	int status = capture(nosec_run_all_forced, NULL, &r);

	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 125) TH_LOG("status %#x", status);
	ASSERT_TRUE(strstr(r.out, "--restrict-all") && strstr(r.out, "--force") &&
		    !strstr(r.out, "end=1"))
		TH_LOG("said: %s", r.out);
}
#endif	/* NOSEC_KSELFTEST */

TEST_HARNESS_MAIN
