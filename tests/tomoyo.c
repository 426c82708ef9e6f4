// SPDX-License-Identifier: GPL-2.0
/*
 * TOMOYO keeps its domain in the task, not in the creds, so the module
 * cannot keep a nosecurity exec in the caller's domain by keeping the
 * caller's creds.  It fails such an exec instead (EPERM) when TOMOYO
 * moves the task, puts the task back in its domain first, and lets the
 * exec run when TOMOYO keeps the domain.
 *
 * TOMOYO is built into Debian's kernels and active, but does nothing until
 * a policy is loaded.  The case loads one: profile 0 (disabled: no access
 * is checked), every program keeps the <kernel> domain except
 * FIX_PROBE_TOMOYO, which gets a domain of its own.  A loaded policy stays
 * for the rest of the boot, so this case runs last.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixtures.h"
#include "harness.h"
#include "common.h"

#define TOMOYO		"/sys/kernel/security/tomoyo/"
#define TOMOYO_DOMAIN	"<kernel> " FIX_PROBE_TOMOYO

static int cmdline_has(const char *word)
{
	char buf[1024];
	FILE *f = fopen("/proc/cmdline", "r");
	int found = 0;

	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f))
		found = strstr(buf, word) != NULL;
	fclose(f);
	return found;
}

/* Load the policy: write it, then exec the trigger, which runs the loader. */
static int tomoyo_load_policy(void)
{
	pid_t pid;

	if (write_text(TOMOYO "profile",
		       "PROFILE_VERSION=20150505\n"
		       "0-COMMENT=nosec_exec tests: nothing checked\n"
		       "0-CONFIG={ mode=disabled grant_log=no reject_log=no }\n") ||
	    write_text(TOMOYO "exception_policy",
		       "initialize_domain " FIX_PROBE_TOMOYO " from any\n"
		       "keep_domain <kernel>\n"))
		return -1;
	pid = fork();
	if (pid == 0)
		_exit(child_execve_errno(FIX_TOMOYO_TRIGGER) ? 1 : 0);
	return wait_status(pid);
}

/*
 * From TEST_UID, a nosecurity exec (@how) of FIX_PROBE_TOMOYO, which must
 * fail with EPERM and leave the caller in its own domain: TOMOYO switched
 * before the module refused, and a domain left switched would hand the
 * caller's own code the program's domain.
 * Return: 0, or what went wrong (1 ran, 2 other errno, 3 moved).
 */
static int refused_and_not_moved(enum how how)
{
	pid_t pid = fork();

	if (pid == 0) {
		char *argv[] = { FIX_PROBE_TOMOYO, NULL };
		char domain[256] = "";
		int e, fd;
		ssize_t n;

		setup_user();
		e = do_exec(how, FIX_PROBE_TOMOYO, argv);
		if (e != EPERM) {
			printf("# %s: errno %d, want EPERM\n", how == FORCED ? "forced" : "nosec", e);
			_exit(2);
		}
		fd = open(TOMOYO "self_domain", O_RDONLY);
		n = fd < 0 ? -1 : read(fd, domain, sizeof(domain) - 1);
		domain[n > 0 ? n : 0] = 0;
		domain[strcspn(domain, "\n")] = 0;
		if (strcmp(domain, "<kernel>")) {
			printf("# after the refused exec the caller is in '%s'\n", domain);
			_exit(3);
		}
		_exit(0);
	}
	return wait_status(pid);
}

static int t_tomoyo_transition_refused(void)
{
	struct run p, n;
	int e;

	SKIP_IF(access(TOMOYO "profile", W_OK), "TOMOYO not active in this kernel");
	SKIP_IF(!cmdline_has("TOMOYO_trigger=" FIX_TOMOYO_TRIGGER),
		"guest booted without TOMOYO_trigger= (qemu/run adds it)");
	e = tomoyo_load_policy();
	CHECK(e == 0, "loading the TOMOYO policy: %d", e);

	/* Control: a plain exec moves to the program's domain. */
	CHECK(run_prog(PLAIN, FIX_PROBE_TOMOYO, setup_user, &p) == 0, "plain: %d",
	      p.exec_errno);
	CHECK(!strcmp(get(&p, "tomoyo_domain"), TOMOYO_DOMAIN),
	      "plain exec's domain '%s' (is the policy loaded?)", get(&p, "tomoyo_domain"));

	/* A nosecurity exec that TOMOYO would move is refused, unmoved... */
	e = refused_and_not_moved(NOSEC);
	CHECK(e == 0, "nosec: %d", e);
	e = refused_and_not_moved(FORCED);
	CHECK(e == 0, "forced: %d", e);
	e = refused_and_not_moved(NOSEC_IOCTL);
	CHECK(e == 0, "ioctl: %d", e);

	/* ...one that TOMOYO keeps in its domain runs there. */
	CHECK(run_prog(NOSEC, FIX_PROBE, setup_user, &n) == 0, "nosec, kept: %d",
	      n.exec_errno);
	CHECK(!strcmp(get(&n, "tomoyo_domain"), "<kernel>"), "kept domain '%s'",
	      get(&n, "tomoyo_domain"));
	CHECK(run_prog(FORCED, FIX_PROBE, setup_user, &n) == 0, "forced, kept: %d",
	      n.exec_errno);
	return PASS;
}

const struct test_case tomoyo_cases[] = {
	{ "nosec_tomoyo_transition_refused", t_tomoyo_transition_refused, 1 },
	{ NULL },
};
