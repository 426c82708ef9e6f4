/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small kselftest-style harness: one forked process per case, TAP
 * output, a summary line "N passed, N failed[, N skipped]".
 */
#ifndef NOSEC_HARNESS_H
#define NOSEC_HARNESS_H

#include <stdio.h>

enum { PASS = 0, FAIL = 1, SKIP = 2 };

struct test_case {
	const char *name;
	int (*fn)(void);
	int as_root;	/* 0: the case runs as the unprivileged test uid */
	int timeout;	/* seconds; 0: 120 */
	/*
	 * Non-NULL: the case tests the module itself (loading, its device,
	 * its stats, its hooks...); on a kernel with the native series it
	 * is skipped, "module only: " this reason.
	 */
	const char *module_only;
};

/* Each file's cases, ended by { NULL }. */
extern const struct test_case nosec_exec_cases[];
extern const struct test_case restrict_cases[];
extern const struct test_case force_cases[];
extern const struct test_case nosec_run_cases[];	/* the nosec-run command */
extern const struct test_case lifecycle_cases[];	/* stats, load, unload */
extern const struct test_case bypass_cases[];
extern const struct test_case scope_cases[];
extern const struct test_case restrict_all_cases[];
extern const struct test_case held_cases[];	/* what a task holds when restricted */
extern const struct test_case fuzz_cases[];
extern const struct test_case watcher_cases[];
extern const struct test_case failsafe_cases[];
extern const struct test_case stress_cases[];	/* only with --stress */
extern const struct test_case lsm_apparmor_cases[];
extern const struct test_case lsm_landlock_cases[];
extern const struct test_case lsm_selinux_cases[];	/* make check-lsm */
extern const struct test_case lsm_smack_cases[];
extern const struct test_case tomoyo_cases[];	/* last: loads a policy */

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			printf("# %s:%d: check failed: %s: ", __FILE__,	\
			       __LINE__, #cond);			\
			printf(__VA_ARGS__);				\
			printf("\n");					\
			fflush(stdout);					\
			return FAIL;					\
		}							\
	} while (0)

/* A check made by a helper that prints its own message: PASS or return. */
#define CHECK_PASS(expr)						\
	do {								\
		int r_ = (expr);					\
									\
		if (r_ != PASS)						\
			return r_;					\
	} while (0)

/*
 * Why the case running now skipped: a page shared with the runner, which
 * prints it on the case's TAP line ("ok N NAME # SKIP WHY").
 */
extern char *skip_reason;
#define SKIP_REASON_MAX	256

#define SKIP_IF(cond, why)						\
	do {								\
		if (cond) {						\
			printf("# skip: %s\n", why);			\
			fflush(stdout);					\
			if (skip_reason)				\
				snprintf(skip_reason, SKIP_REASON_MAX,	\
					 "%s", why);			\
			return SKIP;					\
		}							\
	} while (0)

#endif
