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
 * for the rest of the boot, so these cases run last.
 *
 * The read check of a nosecurity exec is the caller's own open of the
 * program (module/exec_nosec.c), so TOMOYO judges it by the caller's
 * domain: a second case puts the caller in a domain of profile 1, where
 * opens are enforced (and nothing else is checked), allowed to read
 * FIX_PROBE but not FIX_PROBE_TOMOYO_NOREAD, and kept in that domain by
 * every exec.
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
#include "common.h"
#include "../kselftest_harness.h"
#include "ksft_nosec.h"

NOSEC_FIXTURE(tomoyo);

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

#define READER_DOMAIN	"<kernel> //nosec_reader"

/* Does the text of @path (its first 8 KB) contain @text? */
static int file_has(const char *path, const char *text)
{
	static char buf[8192];
	int fd = open(path, O_RDONLY);
	ssize_t n, len = 0;

	if (fd < 0)
		return 0;
	while (len < (ssize_t)sizeof(buf) - 1 &&
	       (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = 0;
	return strstr(buf, text) != NULL;
}

/*
 * Load the policy: write it, then exec the trigger, which runs the loader.
 * Once loaded, only TOMOYO's managers may change it, so everything the
 * cases use is written here, and a later case finds it in place (each
 * case runs in a process of its own).  Profile 1, the reader's domain and
 * the way into it are the second case's.
 */
static int tomoyo_load_policy(void)
{
	pid_t pid;

	if (file_has(TOMOYO "profile", "1-COMMENT=nosec_exec tests: opens enforced"))
		return 0;
	if (write_text(TOMOYO "profile",
		       "PROFILE_VERSION=20150505\n"
		       "0-COMMENT=nosec_exec tests: nothing checked\n"
		       "0-CONFIG={ mode=disabled grant_log=no reject_log=no }\n"
		       "1-COMMENT=nosec_exec tests: opens enforced\n"
		       "1-CONFIG={ mode=disabled grant_log=no reject_log=no }\n"
		       "1-CONFIG::file::open={ mode=enforcing grant_log=no reject_log=no }\n") ||
	    write_text(TOMOYO "exception_policy",
		       "initialize_domain " FIX_PROBE_TOMOYO " from any\n"
		       "keep_domain <kernel>\n"
		       "keep_domain " READER_DOMAIN "\n") ||
	    write_text(TOMOYO "domain_policy",
		       "<kernel>\n"
		       "task manual_domain_transition " READER_DOMAIN "\n"
		       READER_DOMAIN "\n"
		       "use_profile 1\n"
		       "file read " FIX_PROBE "\n"
		       "file read securityfs:/tomoyo/self_domain\n"
		       "file read/write /dev/nosec_exec\n"))
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
			printf("# %s: errno %d, want EPERM\n", how == FORCED ? "forced" : "nosec",
			       e);
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

/* PASS once TOMOYO is active and the policy loaded; else SKIP, or FAIL. */
static int tomoyo_ready(void)
{
	int e;

	SKIP_IF(access(TOMOYO "profile", W_OK), "TOMOYO not active in this kernel");
	SKIP_IF(!cmdline_has("TOMOYO_trigger=" FIX_TOMOYO_TRIGGER),
		"guest booted without TOMOYO_trigger= (qemu/run adds it)");
	e = tomoyo_load_policy();
	REQUIRE(e == 0, "loading the TOMOYO policy: %d", e);
	return PASS;
}

TEST_F(tomoyo, nosec_tomoyo_transition_refused)
{
	struct run p, n;
	int e;

	e = tomoyo_ready();
	ASSERT_PASS(e);

	/* Control: a plain exec moves to the program's domain. */
	ASSERT_EQ(0, run_prog(PLAIN, FIX_PROBE_TOMOYO, setup_user, &p))
		TH_LOG("plain: %d", p.exec_errno);
	ASSERT_TRUE(!strcmp(get(&p, "tomoyo_domain"), TOMOYO_DOMAIN))
		TH_LOG("plain exec's domain '%s' (is the policy loaded?)",
		       get(&p, "tomoyo_domain"));

	/* A nosecurity exec that TOMOYO would move is refused, unmoved... */
	e = refused_and_not_moved(NOSEC);
	ASSERT_EQ(0, e) TH_LOG("nosec: %d", e);
	e = refused_and_not_moved(FORCED);
	ASSERT_EQ(0, e) TH_LOG("forced: %d", e);
	e = refused_and_not_moved(NOSEC_RAW);
	ASSERT_EQ(0, e) TH_LOG("ioctl: %d", e);

	/* ...one that TOMOYO keeps in its domain runs there. */
	ASSERT_EQ(0, run_prog(NOSEC, FIX_PROBE, setup_user, &n))
		TH_LOG("nosec, kept: %d", n.exec_errno);
	ASSERT_TRUE(!strcmp(get(&n, "tomoyo_domain"), "<kernel>"))
		TH_LOG("kept domain '%s'", get(&n, "tomoyo_domain"));
	ASSERT_EQ(0, run_prog(FORCED, FIX_PROBE, setup_user, &n))
		TH_LOG("forced, kept: %d", n.exec_errno);
}

/* run_prog()'s setup: into the reader's domain, then TEST_UID. */
static void setup_tomoyo_reader(void)
{
	if (write_text(TOMOYO "self_domain", READER_DOMAIN))
		_exit(97);
	setup_user();
}

/*
 * From the reader's domain: a plain exec of either file runs (execute is
 * not checked, the domain is kept); a nosecurity exec runs only the file
 * the domain may read, and is refused the other (TOMOYO's EPERM).
 */
TEST_F(tomoyo, nosec_tomoyo_read_checked_in_callers_domain)
{
	struct run p, n;
	int e;

	e = tomoyo_ready();
	ASSERT_PASS(e);

	/* Controls: the domain is entered and kept, the opens enforced. */
	run_prog(PLAIN, FIX_PROBE_TOMOYO_NOREAD, setup_tomoyo_reader, &p);
	ASSERT_TRUE(p.exec_errno == 0 && strstr(p.out, "end=1"))
		TH_LOG("plain exec from the reader's domain: %d %s", p.exec_errno, p.out);
	ASSERT_TRUE(!strcmp(get(&p, "tomoyo_domain"), READER_DOMAIN))
		TH_LOG("plain exec's domain '%s'", get(&p, "tomoyo_domain"));

	for (enum how how = NOSEC; how <= FORCED; how++) {
		const char *name = how == NOSEC ? "nosec" : "forced";

		run_prog(how, FIX_PROBE, setup_tomoyo_reader, &n);
		ASSERT_TRUE(n.exec_errno == 0 && strstr(n.out, "end=1"))
			TH_LOG("%s, readable: %d %s", name, n.exec_errno, n.out);
		ASSERT_TRUE(!strcmp(get(&n, "tomoyo_domain"), READER_DOMAIN))
			TH_LOG("%s: domain '%s'", name, get(&n, "tomoyo_domain"));
		ASSERT_EQ(EPERM, run_prog(how, FIX_PROBE_TOMOYO_NOREAD, setup_tomoyo_reader, &n))
			TH_LOG("%s, not readable in the caller's domain: %d %s", name, n.exec_errno,
			       n.out);
	}
}

TEST_HARNESS_MAIN
