// SPDX-License-Identifier: GPL-2.0
/*
 * execveat(AT_EXECVE_CHECK) (Linux 6.14): "would this exec be allowed?",
 * which a script interpreter under SECBIT_EXEC_RESTRICT_FILE asks of a
 * script before it reads it as code.  The answer (docs/security.md,
 * "AT_EXECVE_CHECK") is the exec's own:
 *
 * - a plain check: the kernel's, the module changes nothing;
 * - a nosecurity check (AT_EXECVE_NO_TRANSITION with it, or any check in
 *   force mode): the nosecurity exec's, so EACCES for a file the caller
 *   may execute and not read, and 0 for a set-UID program (it would run,
 *   without privilege);
 * - in a restricted tree that is not forced: EPERM, as its exec.
 *
 * The securebits that ask interpreters for the check pass a nosecurity
 * exec as they pass a plain one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nosec.h"
#include "fixtures.h"
#include "common.h"
#include "../kselftest_harness.h"
#include "ksft_nosec.h"

#ifndef AT_EXECVE_CHECK
#define AT_EXECVE_CHECK		0x10000
#endif
#ifndef SECBIT_EXEC_RESTRICT_FILE
#define SECBIT_EXEC_RESTRICT_FILE	(1 << 8)
#define SECBIT_EXEC_DENY_INTERACTIVE	(1 << 10)
#endif

/* Which check: the flags beside AT_EXECVE_CHECK, and the task's state. */
enum check_as {
	CHECK_PLAIN, CHECK_NOSEC, CHECK_RESTRICTED, CHECK_FORCED,
	CHECK_LIBRARY,	/* execveat_nosecurity(..., AT_EXECVE_CHECK) */
};

/*
 * In a child of TEST_UID, @as: execveat(AT_EXECVE_CHECK) of @path.  0 or
 * the errno; 200 and up when the child could not get there.
 */
static int check_errno(enum check_as as, const char *path)
{
	pid_t pid = fork();

	if (pid == 0) {
		char *argv[] = { (char *)path, NULL };
		int flags = AT_EXECVE_CHECK;

		setup_user();
		if (as == CHECK_NOSEC)
			flags |= AT_EXECVE_NO_TRANSITION;
		if (as == CHECK_RESTRICTED && nosec_restrict_exec())
			_exit(201);
		if (as == CHECK_FORCED &&
		    (nosec_restrict_exec() || nosec_set_force(1)))
			_exit(202);
		if (as == CHECK_LIBRARY) {
			if (execveat_nosecurity(AT_FDCWD, path, argv, environ,
						AT_EXECVE_CHECK))
				_exit(errno);
			_exit(0);
		}
		if (syscall(SYS_execveat, AT_FDCWD, path, argv, environ, flags))
			_exit(errno);
		_exit(0);
	}
	return wait_status(pid);
}

NOSEC_FIXTURE(execve_check);

/* Where the kernel has no AT_EXECVE_CHECK, execveat() refuses the flag. */
#define NEED_EXECVE_CHECK()						\
	do {								\
		if (check_errno(CHECK_PLAIN, FIX_PROBE) == EINVAL)	\
			SKIP(return, "no AT_EXECVE_CHECK in this kernel"); \
	} while (0)

/*
 * A program the caller may execute, not read (mode 0711): the plain exec
 * runs it, the nosecurity exec refuses it.  Their checks say so.
 */
TEST_F(execve_check, nosec_check_requires_read)
{
	struct run r;

	NEED_EXECVE_CHECK();
	ASSERT_EQ(0, check_errno(CHECK_PLAIN, FIX_PROBE_XONLY));
	ASSERT_EQ(EACCES, check_errno(CHECK_NOSEC, FIX_PROBE_XONLY));
	ASSERT_EQ(EACCES, check_errno(CHECK_FORCED, FIX_PROBE_XONLY));
	ASSERT_EQ(EACCES, check_errno(CHECK_LIBRARY, FIX_PROBE_XONLY));
	/* What each exec does is what its check said. */
	ASSERT_EQ(0, run_prog(PLAIN, FIX_PROBE_XONLY, setup_user, &r));
	ASSERT_EQ(EACCES, run_prog(NOSEC, FIX_PROBE_XONLY, setup_user, &r));
}

/* A readable program, and a set-UID one: both would run, so 0. */
TEST_F(execve_check, nosec_check_allows_what_would_run)
{
	NEED_EXECVE_CHECK();
	ASSERT_EQ(0, check_errno(CHECK_NOSEC, FIX_PROBE));
	ASSERT_EQ(0, check_errno(CHECK_FORCED, FIX_PROBE));
	ASSERT_EQ(0, check_errno(CHECK_LIBRARY, FIX_PROBE))
		TH_LOG("the library returns 0 for a check that passes");
	ASSERT_EQ(0, check_errno(CHECK_NOSEC, FIX_PROBE_SUID));
	ASSERT_EQ(0, check_errno(CHECK_PLAIN, FIX_PROBE_SUID));
}

/* No exec bit: no exec of any kind, no check either. */
TEST_F(execve_check, no_exec_bit_refused_by_every_check)
{
	NEED_EXECVE_CHECK();
	ASSERT_EQ(EACCES, check_errno(CHECK_PLAIN, FIX_PROBE_NOEXEC_BIT));
	ASSERT_EQ(EACCES, check_errno(CHECK_NOSEC, FIX_PROBE_NOEXEC_BIT));
	ASSERT_EQ(EACCES, check_errno(CHECK_FORCED, FIX_PROBE_NOEXEC_BIT));
}

/*
 * A restricted tree (not forced) execs nothing: its check says EPERM, as
 * its exec does, and the nosecurity flag changes nothing.
 */
TEST_F(execve_check, restricted_check_refused_as_its_exec)
{
	NEED_EXECVE_CHECK();
	ASSERT_EQ(EPERM, check_errno(CHECK_RESTRICTED, FIX_PROBE));
	ASSERT_EQ(0, check_errno(CHECK_PLAIN, FIX_PROBE));
}

static void setup_exec_securebits(void)
{
	setup_user();
	/* Unprivileged since 6.14: these bits need no CAP_SETPCAP. */
	if (prctl(PR_SET_SECUREBITS,
		  SECBIT_EXEC_RESTRICT_FILE | SECBIT_EXEC_DENY_INTERACTIVE))
		_exit(203);
}

/* The interpreter's securebits: kept by a plain exec and a nosecurity one. */
TEST_F(execve_check, exec_securebits_kept_as_by_plain_exec)
{
	long bits = SECBIT_EXEC_RESTRICT_FILE | SECBIT_EXEC_DENY_INTERACTIVE;
	struct run p, n;

	NEED_EXECVE_CHECK();
	ASSERT_EQ(0, run_prog(PLAIN, FIX_PROBE, setup_exec_securebits, &p))
		TH_LOG("plain exec: %d", p.exec_errno);
	ASSERT_EQ(bits, getl(&p, "securebits"));
	ASSERT_EQ(0, run_prog(NOSEC, FIX_PROBE, setup_exec_securebits, &n))
		TH_LOG("nosecurity exec: %d", n.exec_errno);
	ASSERT_EQ(bits, getl(&n, "securebits"));
}

TEST_HARNESS_MAIN
