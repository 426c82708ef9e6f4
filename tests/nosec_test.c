// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_test - the nosec_exec test suite, run inside the QEMU guest as
 * root with the module loaded, or on a kernel with the native series
 * (then the cases of the module itself are skipped).  This is the
 * runner: it makes the fixtures as root, then runs every file's cases in
 * order, each in its own process, as the unprivileged TEST_UID unless the
 * case says otherwise, and prints TAP.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nosec.h"
#include "fixtures.h"
#include "harness.h"
#include "common.h"

static int run_case(const struct test_case *tc)
{
	int status;
	pid_t pid;

	fflush(stdout);
	if (skip_reason)
		skip_reason[0] = '\0';
	pid = fork();
	if (pid < 0)
		return FAIL;
	if (pid == 0) {
		setpgid(0, 0);
		alarm(tc->timeout ? tc->timeout : 120);
		if (!tc->as_root && drop_to_user()) {
			printf("# cannot drop to uid %d\n", TEST_UID);
			_exit(FAIL);
		}
		_exit(tc->fn());
	}
	setpgid(pid, pid);
	if (waitpid(pid, &status, 0) != pid)
		return FAIL;
	/*
	 * Nothing a case started outlives it: its process group is killed and
	 * every process that ends up ours (we are a subreaper) is reaped, so
	 * that no stray restricted task pins the module for the next case.
	 */
	kill(-pid, SIGKILL);
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	if (WIFSIGNALED(status)) {
		printf("# killed by signal %d\n", WTERMSIG(status));
		return FAIL;
	}
	return WEXITSTATUS(status) <= SKIP ? WEXITSTATUS(status) : FAIL;
}

/* One file of cases: its name (tests/NAME.c) and its case table. */
struct test_file {
	const char *name;
	const struct test_case *cases;
	bool stress_only;	/* run only with --stress */
	bool named_only;	/* run only when --file names it */
};

/*
 * Every file's cases, in the order they run (and are numbered).  Last:
 * TOMOYO's, whose policy, once loaded, stays for the whole boot.
 */
static const struct test_file files[] = {
	{ "nosec_exec", nosec_exec_cases },
	{ "restrict", restrict_cases },
	{ "force", force_cases },
	{ "nosec_run", nosec_run_cases },
	{ "lifecycle", lifecycle_cases },
	{ "restrict_all", restrict_all_cases },
	{ "held", held_cases },
	{ "bypass", bypass_cases },
	{ "scope", scope_cases },
	{ "watchers", watcher_cases },
	{ "failsafe", failsafe_cases },
	{ "stress", fuzz_cases },
	{ "stress", stress_cases, true },
	{ "lsm_apparmor", lsm_apparmor_cases },
	{ "lsm_landlock", lsm_landlock_cases },
	/*
	 * Only where make check-lsm boots their LSM: SELinux (whose policy
	 * stays for the boot) and Smack (the series' kernel).
	 */
	{ "lsm_selinux", lsm_selinux_cases, false, true },
	{ "lsm_smack", lsm_smack_cases, false, true },
	{ "tomoyo", tomoyo_cases },
};
#define NR_FILES	(sizeof(files) / sizeof(files[0]))

/*
 * Which kernel: the module, or the native series.  Decided here, once,
 * before any case runs (lifecycle cases remove the device for a while).
 * NOSEC_NATIVE ("1" native, "0" module), when the runner sets it, must
 * agree: a module that failed to load must never pass for "native".
 */
static int decide_native(void)
{
	const char *env = getenv("NOSEC_NATIVE");

	nosec_native = nosec_detect_native();
	if (env && strcmp(env, "0") && strcmp(env, "1")) {
		fprintf(stderr,
			"nosec_test: NOSEC_NATIVE=%s: want 0 (module) or 1 (native)\n",
			env);
		return -1;
	}
	if (env && atoi(env) != nosec_native) {
		fprintf(stderr, "nosec_test: NOSEC_NATIVE=%s, but %s\n", env,
			nosec_native ?
			"no nosec_exec module and PR_GET_RESTRICT works: native" :
			access("/sys/module/nosec_exec", F_OK) == 0 ?
			"the nosec_exec module is loaded" :
			"PR_GET_RESTRICT fails: neither (module not loaded?)");
		return -1;
	}
	return 0;
}

/* Does the comma-separated @list name @name? */
static bool names(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p; p = strchr(p, ','), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/*
 * Which files run: those --file names (@only_files), or every one but
 * those that run only when named, and the stress cases only with
 * --stress.
 */
static bool file_runs(const struct test_file *f, const char *only_files,
		      bool stress)
{
	if (only_files)
		return names(only_files, f->name);
	return !f->named_only && !(f->stress_only && !stress);
}

/*
 * nosec_test [--stress] [--file FILE[,FILE...]] [NAME]: every case (with
 * --stress, the stress cases too), or only those of the files named
 * (tests/FILE.c), and of those the ones whose name contains NAME (the
 * others are listed as skipped).
 */
char *skip_reason;

int main(int argc, char *argv[])
{
	void *page = mmap(NULL, SKIP_REASON_MAX, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int passed = 0, failed = 0, skipped = 0;
	const char *only = NULL, *only_file = NULL;
	bool stress = false;
	size_t n = 0, i = 0;

	/* Without the page the cases still run; their TAP lines lack reasons. */
	if (page != MAP_FAILED)
		skip_reason = page;

	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--stress")) {
			stress = true;
		} else if (!strcmp(argv[a], "--file") && a + 1 < argc) {
			only_file = argv[++a];
		} else if (argv[a][0] == '-') {
			fprintf(stderr, "usage: nosec_test [--stress] [--file FILE[,FILE...]] [NAME]\n");
			return 2;
		} else {
			only = argv[a];
		}
	}

	for (const char *p = only_file; p; p = strchr(p, ','), p = p ? p + 1 : NULL) {
		bool known = false;
		size_t len = strcspn(p, ",");

		for (size_t f = 0; f < NR_FILES; f++)
			known |= strlen(files[f].name) == len &&
				 !strncmp(files[f].name, p, len);
		if (!known) {
			fprintf(stderr, "nosec_test: no file of cases tests/%.*s.c\n",
				(int)len, p);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	if (getuid() != 0) {
		fprintf(stderr, "nosec_test: run as root (it makes fixtures, then drops to uid %d)\n", TEST_UID);
		return 2;
	}
	if (decide_native())
		return 2;
	if (make_fixtures("/nosec/tests"))
		return 2;
	for (size_t f = 0; f < NR_FILES; f++)
		for (const struct test_case *tc = files[f].cases;
		     tc->name && file_runs(&files[f], only_file, stress); tc++)
			n++;
	printf("TAP version 13\n1..%zu\n", n);
	printf("# %s\n", nosec_native ?
	       "native series: module-only cases are skipped" :
	       "the nosec_exec module");
	for (size_t f = 0; f < NR_FILES; f++) {
		if (!file_runs(&files[f], only_file, stress))
			continue;
		for (const struct test_case *tc = files[f].cases; tc->name; tc++) {
			int r;

			i++;
			if (only && !strstr(tc->name, only)) {
				printf("ok %zu %s # SKIP not selected\n", i, tc->name);
				skipped++;
				continue;
			}
			if (nosec_native && tc->module_only) {
				const char *why = tc->module_only;

				printf("# skip: module only: %s\n", why);
				printf("ok %zu %s # SKIP module only: %s\n", i,
				       tc->name, why);
				skipped++;
				continue;
			}
			r = run_case(tc);
			if (r == PASS) {
				printf("ok %zu %s\n", i, tc->name);
				passed++;
			} else if (r == SKIP) {
				printf("ok %zu %s # SKIP %s\n", i, tc->name,
				       skip_reason ? skip_reason : "");
				skipped++;
			} else {
				printf("not ok %zu %s\n", i, tc->name);
				failed++;
			}
		}
	}
	if (skipped)
		printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
	else
		printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
