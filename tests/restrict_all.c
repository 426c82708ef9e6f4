// SPDX-License-Identifier: GPL-2.0
/*
 * A tree that can run nothing new: PR_RESTRICT_EXEC_NOSECURITY
 * on top of PR_RESTRICT_EXEC also denies the nosecurity exec, through the
 * library, the ioctl (natively the system calls) and force mode;
 * NOSEC_EXEC_RESTRICT_ALL gives both to the program a nosecurity exec
 * starts, and nosec-run --restrict-all uses it (the module only: the
 * series has no such flag).  Every route is tried, each with the
 * restriction's absence as its control where the route could otherwise
 * fail for another reason.
 */
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
#include "harness.h"
#include "common.h"

#define RESTRICT_ALL	(PR_RESTRICT_EXEC | PR_RESTRICT_EXEC_NOSECURITY)

static unsigned long restrict_mask(void)
{
	int m = prctl(PR_GET_RESTRICT, 0, 0, 0, 0);

	return m < 0 ? 99 : (unsigned long)m;
}

static int t_prctl_rules(void)
{
	CHECK(restrict_me(PR_RESTRICT_EXEC_NOSECURITY, 0, 0, 0) == -1 && errno == EINVAL,
	      "without PR_RESTRICT_EXEC: %d", errno);
	CHECK(restrict_mask() == 0, "a refused call changed the mask: %lu", restrict_mask());
	CHECK(restrict_me(RESTRICT_ALL | 4, 0, 0, 0) == -1 && errno == EINVAL,
	      "an unknown bit beside them: %d", errno);
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict exec");
	CHECK(restrict_mask() == PR_RESTRICT_EXEC, "mask %lu", restrict_mask());
	/* After PR_RESTRICT_EXEC, the new bit alone. */
	CHECK(restrict_me(PR_RESTRICT_EXEC_NOSECURITY, 0, 0, 0) == 0, "then the rest: %d", errno);
	CHECK(restrict_mask() == RESTRICT_ALL, "mask %lu", restrict_mask());
	CHECK(restrict_me(0, 0, 0, 0) == 0 && restrict_mask() == RESTRICT_ALL, "irrevocable");
	return PASS;
}

static char i32_path[] = FIX_PROBE;
static unsigned int i32_argv[2];

/* Each route a restricted task has to a new program, tried in turn. */
static int every_route_denied(const char *who)
{
	char *argv[] = { FIX_PROBE, NULL };
	int fd = open(FIX_PROBE, O_RDONLY | O_CLOEXEC);
	pid_t pid;
	int e;

	CHECK(fd >= 0, "open");
	CHECK(execve(FIX_PROBE, argv, environ) == -1 && errno == EPERM,
	      "%s: execve: %d", who, errno);
	CHECK(syscall(SYS_execveat, fd, "", argv, environ, AT_EMPTY_PATH) == -1 &&
	      errno == EPERM, "%s: execveat: %d", who, errno);
	CHECK(execve_nosecurity(FIX_PROBE, argv, environ) == -1 && errno == EPERM,
	      "%s: execve_nosecurity: %d", who, errno);
	CHECK(fexecve_nosecurity(fd, argv, environ) == -1 && errno == EPERM,
	      "%s: fexecve_nosecurity: %d", who, errno);
	e = do_exec(NOSEC_IOCTL, FIX_PROBE, argv);
	CHECK(e == EPERM, "%s: the %s itself: %d", who,
	      nosec_native ? "flag" : "ioctl", e);
	CHECK(syscall(SYS_execveat, AT_FDCWD, FIX_PROBE, argv, environ,
		      AT_EXECVE_NO_TRANSITION) == -1 && errno == EPERM,
	      "%s: execveat(AT_EXECVE_NO_TRANSITION) made directly: %d", who, errno);
	CHECK(nosec_set_force(1) == -1 && errno == EPERM, "%s: force mode: %d", who, errno);
	CHECK(execve(FIX_PROBE, argv, environ) == -1 && errno == EPERM,
	      "%s: execve after refused force: %d", who, errno);
	i32_argv[0] = (unsigned int)(uintptr_t)i32_path;
	CHECK(int80(NR32_EXECVE, (long)i32_path, (long)i32_argv, 0, 0, 0) == -EPERM,
	      "%s: int $0x80 execve", who);
	CHECK(int80(NR32_EXECVEAT, AT_FDCWD, (long)i32_path, (long)i32_argv, 0,
		    AT_EXECVE_NO_TRANSITION) == -EPERM,
	      "%s: int $0x80 execveat(AT_EXECVE_NO_TRANSITION)", who);
	e = posix_spawn(&pid, FIX_PROBE, NULL, NULL, argv, environ);
	CHECK(e == EPERM, "%s: posix_spawn: %d", who, e);
	close(fd);
	return PASS;
}

static int t_every_route_denied(void)
{
	struct run r;
	pid_t pid;

	/* Control: restricted exec alone, the nosecurity route works. */
	CHECK(run_prog(NOSEC, FIX_PROBE, setup_restrict, &r) == 0, "PR_RESTRICT_EXEC alone: %d",
	      r.exec_errno);
	CHECK(restrict_me(RESTRICT_ALL, 0, 0, 0) == 0, "restrict all: %d", errno);
	if (every_route_denied("self") != PASS)
		return FAIL;
	pid = fork();
	if (pid == 0)
		_exit(every_route_denied("child") == PASS && restrict_mask() == RESTRICT_ALL ?
		      0 : 1);
	CHECK(wait_status(pid) == 0, "a child inherits it");
	return PASS;
}

/* Force mode first, then everything: the forced execve is denied too. */
static int t_forced_then_all(void)
{
	char *argv[] = { FIX_PROBE, NULL };

	CHECK(nosec_restrict_exec() == 0 && nosec_set_force(1) == 0, "restrict + force");
	CHECK(restrict_me(PR_RESTRICT_EXEC_NOSECURITY, 0, 0, 0) == 0, "then all: %d", errno);
	CHECK(nosec_get_force() == 1, "force stays reported");
	CHECK(execve(FIX_PROBE, argv, environ) == -1 && errno == EPERM,
	      "a forced execve: %d", errno);
	return PASS;
}

static void exec_restrict_all(void *arg)
{
	char *argv[] = { (char *)arg, NULL };

	execveat_nosecurity(AT_FDCWD, arg, argv, environ, NOSEC_EXEC_RESTRICT_ALL);
	printf("exec_errno=%d\n", errno);
	printf("mask_after_failure=%lu\n", restrict_mask());
	fflush(stdout);
	execve(FIX_PROBE, argv, environ);
	printf("plain_errno=%d\n", errno);
}

static int t_ioctl_flag(void)
{
	struct run r;

	CHECK(capture(exec_restrict_all, FIX_PROBE_SUID, &r) == 0, "ran: %s", r.out);
	CHECK(getl(&r, "restrict") == RESTRICT_ALL && getl(&r, "force") == 0,
	      "the new program's restrictions: %s", r.out);
	CHECK(!strcmp(get(&r, "uids"), "1000,1000,1000,1000"), "uids %s", get(&r, "uids"));
	/* A failed exec leaves the caller as it was. */
	capture(exec_restrict_all, FIX "/does-not-exist", &r);
	CHECK(getl(&r, "exec_errno") == ENOENT && getl(&r, "mask_after_failure") == 0,
	      "failed exec: %s", r.out);
	CHECK(getl(&r, "plain_errno") == 0 && getl(&r, "end") == 1,
	      "a plain exec after the failure: %s", r.out);
	return PASS;
}

/* nosec-run --restrict-all: the program starts with both restrictions. */
static void nosec_run_all(void *arg)
{
	setup_user();
	execl("/nosec/bin/nosec-run", "nosec-run", (char *)arg, FIX_PROBE, (char *)NULL);
	printf("exec_errno=%d\n", errno);
}

static int t_nosec_run(void)
{
	struct run r;

	CHECK(capture(nosec_run_all, "--restrict-all", &r) == 0, "ran: %s", r.out);
	CHECK(getl(&r, "restrict") == RESTRICT_ALL && getl(&r, "end") == 1,
	      "--restrict-all: %s", r.out);
	CHECK(capture(nosec_run_all, "-R", &r) == 0 && getl(&r, "restrict") == RESTRICT_ALL,
	      "-R: %s", r.out);
	CHECK(capture(nosec_run_all, "--restrict", &r) == 0 &&
	      getl(&r, "restrict") == PR_RESTRICT_EXEC, "--restrict alone: %s", r.out);
	return PASS;
}

static void nosec_run_all_forced(void *arg)
{
	(void)arg;
	setup_user();
	dup2(1, 2);
	execl("/nosec/bin/nosec-run", "nosec-run", "--restrict-all", "--force", FIX_PROBE,
	      (char *)NULL);
}

static int t_nosec_run_usage(void)
{
	struct run r;
	int status = capture(nosec_run_all_forced, NULL, &r);

	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 125, "status %#x", status);
	CHECK(strstr(r.out, "--restrict-all") && strstr(r.out, "--force") &&
	      !strstr(r.out, "end=1"), "said: %s", r.out);
	return PASS;
}

const struct test_case restrict_all_cases[] = {
	{ "restrict_all_prctl_rules", t_prctl_rules },
	{ "restrict_all_denies_every_route", t_every_route_denied },
	{ "restrict_all_after_force", t_forced_then_all },
	{ "restrict_all_ioctl_flag_restricts_new_program", t_ioctl_flag,
	  .module_only = "NOSEC_EXEC_RESTRICT_ALL" },
	{ "restrict_all_nosec_run", t_nosec_run, 1,
	  .module_only = "NOSEC_EXEC_RESTRICT_ALL" },
	{ "restrict_all_nosec_run_not_with_force", t_nosec_run_usage, 1 },
	{ NULL },
};
