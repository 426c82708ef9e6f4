// SPDX-License-Identifier: GPL-2.0
/*
 * PR_SET/GET_FORCE_EXECVE_NOSECURITY: its arguments and
 * toggle, and a forced tree's execve() as a nosecurity exec: no set-ID
 * or file capability privilege, the credentials of a plain exec under
 * no_new_privs (side by side with one, from many callers' credentials),
 * the explicit call's own rule inside a forced tree, scripts run, and
 * read access required.
 */
#ifndef NOSEC_KSELFTEST
/* And subprocesses of a shell started by nosec-run --restrict --force. */
#endif
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "nosec.h"
#include "fixtures.h"
#include "common.h"
#include "creds.h"
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

/*
 * A forced exec's creds: what a plain exec of a plain file (FIX_PROBE)
 * gives under no_new_privs, from the same caller, whatever the forced
 * file's set-ID bits and file capabilities (SPEC 1.1, "Credentials in
 * force mode").  Each case also pins one value the rule decides, so that
 * the comparison cannot pass by both runs being wrong alike.
 */
static const char *const like_nnp_keys[] = {
	"uids", "gids", "capinh", "capprm", "capeff", "capbnd", "capamb",
	"securebits", "at_secure", "dumpable", "pdeathsig", "personality",
	"stack", "thread_keyring", "process_keyring",
};

static const struct {
	const char *name;
	const char *forced;	/* the file the forced tree execs */
	void (*setup)(void);	/* the caller, from root */
	const char *key;	/* and what the rule decides of it: */
	unsigned long long mask, want;	/* (value & mask) == want */
} like_nnp[] = {
	{ "user, plain file", FIX_PROBE, setup_user, "at_secure", ~0ULL, 0 },
	{ "user, set-UID root file", FIX_PROBE_SUID, setup_user, "at_secure", ~0ULL, 0 },
	{ "user, set-GID root file", FIX_PROBE_SGID, setup_user, "at_secure", ~0ULL, 0 },
	{ "user, file capabilities", FIX_PROBE_CAPS, setup_user, "capprm", ~0ULL, 0 },
	/* permitted beyond ambient: cut to the ambient set */
	{ "user holding capabilities", FIX_PROBE, setup_caps, "capprm",
	  ~0ULL, 1ULL << CAP_NET_RAW },
	{ "user holding capabilities, file capabilities", FIX_PROBE_CAPS, setup_caps,
	  "capamb", ~0ULL, 1ULL << CAP_NET_RAW },
	{ "KEEP_CAPS", FIX_PROBE, setup_keepcaps, "securebits", ~0ULL, 0 },
	{ "set-ID caller", FIX_PROBE, setup_split_euid, "at_secure", ~0ULL, 1 },
	{ "saved and filesystem uid 0", FIX_PROBE, setup_split_saved_uids,
	  "at_secure", ~0ULL, 0 },
	{ "every id split", FIX_PROBE, setup_split_ids, "capeff", ~0ULL, 0 },
	{ "thread and process keyrings", FIX_PROBE, setup_keyrings,
	  "thread_keyring", ~0ULL, (unsigned long long)-ENOKEY },
	{ "undumpable", FIX_PROBE, setup_undumpable, "dumpable", ~0ULL, 1 },
	{ "parent-death signal, set-UID file", FIX_PROBE_SUID, setup_pdeathsig,
	  "pdeathsig", ~0ULL, SIGUSR1 },
	/* a root tree that dropped a capability does not get it back */
	{ "root without CAP_NET_RAW", FIX_PROBE, setup_root_dropped_net_raw,
	  "capprm", 1ULL << CAP_NET_RAW, 0 },
	{ "root, nothing effective", FIX_PROBE, setup_root_no_effective, "capeff",
	  1ULL << CAP_SYS_ADMIN, 1ULL << CAP_SYS_ADMIN },
};

static unsigned long long like_nnp_value(const struct run *r, const char *key)
{
	return strncmp(key, "cap", 3) ? (unsigned long long)getl(r, key) : getx(r, key);
}

TEST_F(force, forced_like_nnp)
{
	struct run f, p;
	int bad = 0;

	for (size_t i = 0; i < ARRAY_SIZE(like_nnp); i++) {
		const char *name = like_nnp[i].name, *key = like_nnp[i].key;
		bool same = true;

		ASSERT_EQ(0, run_prog(PLAIN_NNP, FIX_PROBE, like_nnp[i].setup, &p))
			TH_LOG("%s: plain under no_new_privs: %d", name, p.exec_errno);
		ASSERT_EQ(0, run_prog(FORCED, like_nnp[i].forced, like_nnp[i].setup, &f))
			TH_LOG("%s: forced: %d", name, f.exec_errno);
		for (size_t k = 0; k < ARRAY_SIZE(like_nnp_keys); k++) {
			const char *kk = like_nnp_keys[k];
			char pv[256], fv[256];	/* get() returns one static buffer */

			snprintf(pv, sizeof(pv), "%s", get(&p, kk));
			snprintf(fv, sizeof(fv), "%s", get(&f, kk));
			if (!*pv || strcmp(pv, fv)) {
				printf("# %s: %s forced '%s', under no_new_privs '%s'\n",
				       name, kk, fv, pv);
				same = false;
			}
		}
		if ((like_nnp_value(&f, key) & like_nnp[i].mask) != like_nnp[i].want) {
			printf("# %s: forced %s=%s\n", name, key, get(&f, key));
			same = false;
		}
		bad += !same;
	}
	ASSERT_EQ(0, bad) TH_LOG("%d callers' forced creds differ from the rule", bad);
}

/* A caller holding capabilities, in a forced tree. */
static void setup_caps_forced_tree(void)
{
	setup_caps();
	if (nosec_restrict_exec() || nosec_set_force(1))
		_exit(95);
}

TEST_F(force, explicit_call_in_forced_tree_keeps_caller_creds)
{
	struct run f, n;

	ASSERT_EQ(0, run_prog(PLAIN, FIX_PROBE, setup_caps_forced_tree, &f))
		TH_LOG("forced: %d", f.exec_errno);
	ASSERT_TRUE(getx(&f, "capprm") == 1ULL << CAP_NET_RAW)
		TH_LOG("forced: permitted cut to ambient: %s", get(&f, "capprm"));
	ASSERT_EQ(0, run_prog(NOSEC, FIX_PROBE, setup_caps_forced_tree, &n))
		TH_LOG("explicit: %d", n.exec_errno);
	ASSERT_EQ(CAPS_KEPT, getx(&n, "capprm")) TH_LOG("explicit: %s", get(&n, "capprm"));
	ASSERT_EQ(CAPS_KEPT, getx(&n, "capeff")) TH_LOG("explicit: %s", get(&n, "capeff"));
}

#ifndef NOSEC_KSELFTEST	/* nosec-run */
static void nosec_run_forced_shell(void *arg)
{
	char *const argv[] = { "nosec-run", "--restrict", "--force", "/bin/sh", "-c",
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
