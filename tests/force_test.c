// SPDX-License-Identifier: GPL-2.0
/*
 * PR_SET/GET_FORCE_EXECVE_NOSECURITY: its arguments and
 * toggle, and a forced tree's execve() as a nosecurity exec: no set-ID
 * or file capability privilege, scripts run, read access required, and
 * subprocesses of a shell started by nosec-run --restrict --force.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "nosec.h"
#include "fixtures.h"
#include "common.h"
#include "../kselftest_harness.h"
#include "ksft_nosec.h"

NOSEC_FIXTURE(force);

TEST_F(force, force_argument_errors_and_toggle)
{
	AS_TEST_USER();

	ASSERT_ERRNO(EPERM, prctl(PR_SET_FORCE_EXECVE_NOSECURITY, 1, 0, 0, 0), "unrestricted");
	ASSERT_ERRNO(EINVAL, prctl(PR_SET_FORCE_EXECVE_NOSECURITY, 1, 1, 0, 0), "arg3");
	ASSERT_ERRNO(EINVAL, prctl(PR_SET_FORCE_EXECVE_NOSECURITY, 1, 0, 1, 0), "arg4");
	ASSERT_ERRNO(EINVAL, prctl(PR_SET_FORCE_EXECVE_NOSECURITY, 1, 0, 0, 1), "arg5");
	ASSERT_EQ(0, prctl(PR_GET_FORCE_EXECVE_NOSECURITY, 0, 0, 0, 0)) TH_LOG("get 0");
	ASSERT_ERRNO(EINVAL, prctl(PR_GET_FORCE_EXECVE_NOSECURITY, 1, 0, 0, 0), "get arg2");
	ASSERT_ERRNO(EINVAL, prctl(PR_GET_FORCE_EXECVE_NOSECURITY, 0, 0, 0, 1), "get arg5");
	ASSERT_EQ(0, restrict_me(PR_RESTRICT_EXEC, 0, 0, 0)) TH_LOG("restrict");
	ASSERT_ERRNO(EINVAL, prctl(PR_SET_FORCE_EXECVE_NOSECURITY, 2, 0, 0, 0), "on = 2");
	ASSERT_EQ(0, prctl(PR_GET_FORCE_EXECVE_NOSECURITY, 0, 0, 0, 0)) TH_LOG("still off");
	ASSERT_EQ(0, prctl(PR_SET_FORCE_EXECVE_NOSECURITY, 1, 0, 0, 0)) TH_LOG("set");
	ASSERT_EQ(1, prctl(PR_GET_FORCE_EXECVE_NOSECURITY, 0, 0, 0, 0)) TH_LOG("get 1");
	ASSERT_EQ(0, prctl(PR_SET_FORCE_EXECVE_NOSECURITY, 0, 0, 0, 0)) TH_LOG("clear");
	ASSERT_EQ(0, prctl(PR_GET_FORCE_EXECVE_NOSECURITY, 0, 0, 0, 0)) TH_LOG("get 0 again");
	ASSERT_ERRNO(EPERM, execve(FIX_PROBE, no_argv, environ), "force off: EPERM again");
}

TEST_F(force, force_setuid_target_no_privilege)
{
	struct run f;

	AS_TEST_USER();

	ASSERT_EQ(0, run_prog(FORCED, FIX_PROBE_SUID, NULL, &f))
		TH_LOG("forced ran: %d", f.exec_errno);
	ASSERT_TRUE(!strcmp(get(&f, "uids"), "1000,1000,1000,1000"))
		TH_LOG("uids %s", get(&f, "uids"));
	ASSERT_EQ(0, getl(&f, "at_secure")) TH_LOG("AT_SECURE %s", get(&f, "at_secure"));
}

TEST_F(force, force_file_caps_target_no_caps)
{
	struct run f;

	AS_TEST_USER();

	ASSERT_EQ(0, run_prog(FORCED, FIX_PROBE_CAPS, NULL, &f)) TH_LOG("forced ran");
	ASSERT_EQ(0, getx(&f, "capprm")) TH_LOG("caps %s", get(&f, "capprm"));
}

TEST_F(force, force_script_runs_read_enforced)
{
	struct run f;

	AS_TEST_USER();

	ASSERT_EQ(0, run_prog(FORCED, FIX_SCRIPT, NULL, &f))
		TH_LOG("forced script ran: %d", f.exec_errno);
	ASSERT_TRUE(!strcmp(get(&f, "exe"), FIX_PROBE)) TH_LOG("exe %s", get(&f, "exe"));
	ASSERT_EQ(EACCES, run_prog(FORCED, FIX_PROBE_XONLY, NULL, &f))
		TH_LOG("exec-only: %d", f.exec_errno);
	ASSERT_EQ(EACCES, run_prog(FORCED, FIX_SCRIPT_XINTERP, NULL, &f))
		TH_LOG("exec-only interp: %d", f.exec_errno);
}

#ifndef NOSEC_KSELFTEST	/* nosec-run */
static void nosec_run_forced_shell(void *arg)
{
	char *argv[] = { "nosec-run", "--restrict", "--force", "/bin/sh", "-c",
			 "exec " FIX_PROBE_SUID, NULL };

	(void)arg;
	execve("/nosec/bin/nosec-run", argv, environ);
}

TEST_F(force, force_subprocess_execve_via_nosec_run)
{
	struct run r;

	AS_TEST_USER();

	ASSERT_EQ(0, capture(nosec_run_forced_shell, NULL, &r)) TH_LOG("nosec-run: %s", r.out);
	ASSERT_TRUE(!strcmp(get(&r, "uids"), "1000,1000,1000,1000"))
		TH_LOG("uids %s", get(&r, "uids"));
	ASSERT_TRUE(getl(&r, "restrict") == 1 && getl(&r, "force") == 1) TH_LOG("flags %s", r.out);
}
#endif	/* NOSEC_KSELFTEST */

TEST_HARNESS_MAIN
