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
#include "harness.h"
#include "common.h"

static int t_force_args(void)
{
	CHECK(prctl(PR_SET_FORCE_EXECVE_NOSECURITY, 1, 0, 0, 0) == -1 && errno == EPERM, "unrestricted");
	CHECK(prctl(PR_SET_FORCE_EXECVE_NOSECURITY, 1, 1, 0, 0) == -1 && errno == EINVAL, "arg3");
	CHECK(prctl(PR_SET_FORCE_EXECVE_NOSECURITY, 1, 0, 1, 0) == -1 && errno == EINVAL, "arg4");
	CHECK(prctl(PR_SET_FORCE_EXECVE_NOSECURITY, 1, 0, 0, 1) == -1 && errno == EINVAL, "arg5");
	CHECK(prctl(PR_GET_FORCE_EXECVE_NOSECURITY, 0, 0, 0, 0) == 0, "get 0");
	CHECK(prctl(PR_GET_FORCE_EXECVE_NOSECURITY, 1, 0, 0, 0) == -1 && errno == EINVAL, "get arg2");
	CHECK(prctl(PR_GET_FORCE_EXECVE_NOSECURITY, 0, 0, 0, 1) == -1 && errno == EINVAL, "get arg5");
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	CHECK(prctl(PR_SET_FORCE_EXECVE_NOSECURITY, 2, 0, 0, 0) == -1 && errno == EINVAL, "on = 2");
	CHECK(prctl(PR_GET_FORCE_EXECVE_NOSECURITY, 0, 0, 0, 0) == 0, "still off");
	CHECK(prctl(PR_SET_FORCE_EXECVE_NOSECURITY, 1, 0, 0, 0) == 0, "set");
	CHECK(prctl(PR_GET_FORCE_EXECVE_NOSECURITY, 0, 0, 0, 0) == 1, "get 1");
	CHECK(prctl(PR_SET_FORCE_EXECVE_NOSECURITY, 0, 0, 0, 0) == 0, "clear");
	CHECK(prctl(PR_GET_FORCE_EXECVE_NOSECURITY, 0, 0, 0, 0) == 0, "get 0 again");
	CHECK(execve(FIX_PROBE, no_argv, environ) == -1 && errno == EPERM, "force off: EPERM again");
	return PASS;
}

static int t_force_setuid(void)
{
	struct run f;

	CHECK(run_prog(FORCED, FIX_PROBE_SUID, NULL, &f) == 0, "forced ran: %d", f.exec_errno);
	CHECK(!strcmp(get(&f, "uids"), "1000,1000,1000,1000"), "uids %s", get(&f, "uids"));
	CHECK(getl(&f, "at_secure") == 0, "AT_SECURE %s", get(&f, "at_secure"));
	return PASS;
}

static int t_force_file_caps(void)
{
	struct run f;

	CHECK(run_prog(FORCED, FIX_PROBE_CAPS, NULL, &f) == 0, "forced ran");
	CHECK(getx(&f, "capprm") == 0, "caps %s", get(&f, "capprm"));
	return PASS;
}

static int t_force_script_and_read(void)
{
	struct run f;

	CHECK(run_prog(FORCED, FIX_SCRIPT, NULL, &f) == 0, "forced script ran: %d", f.exec_errno);
	CHECK(!strcmp(get(&f, "exe"), FIX_PROBE), "exe %s", get(&f, "exe"));
	CHECK(run_prog(FORCED, FIX_PROBE_XONLY, NULL, &f) == EACCES, "exec-only: %d", f.exec_errno);
	CHECK(run_prog(FORCED, FIX_SCRIPT_XINTERP, NULL, &f) == EACCES, "exec-only interp: %d", f.exec_errno);
	return PASS;
}

static void nosec_run_forced_shell(void *arg)
{
	char *argv[] = { "nosec-run", "--restrict", "--force", "/bin/sh", "-c",
			 "exec " FIX_PROBE_SUID, NULL };

	(void)arg;
	execve("/nosec/bin/nosec-run", argv, environ);
}

static int t_force_subprocess(void)
{
	struct run r;

	CHECK(capture(nosec_run_forced_shell, NULL, &r) == 0, "nosec-run: %s", r.out);
	CHECK(!strcmp(get(&r, "uids"), "1000,1000,1000,1000"), "uids %s", get(&r, "uids"));
	CHECK(getl(&r, "restrict") == 1 && getl(&r, "force") == 1, "flags %s", r.out);
	return PASS;
}

const struct test_case force_cases[] = {
	{ "force_argument_errors_and_toggle", t_force_args },
	{ "force_setuid_target_no_privilege", t_force_setuid },
	{ "force_file_caps_target_no_caps", t_force_file_caps },
	{ "force_script_runs_read_enforced", t_force_script_and_read },
	{ "force_subprocess_execve_via_nosec_run", t_force_subprocess },
	{ NULL },
};
