/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How the tests' helper functions (common.c, and the static helpers of
 * each *_test.c) report: PASS, FAIL with a message, or SKIP with a
 * reason.  A test turns that into the harness's verdict with
 * ASSERT_PASS() (ksft_nosec.h); the tests themselves use the harness's
 * ASSERT_*() and SKIP().
 */
#ifndef NOSEC_CHECK_H
#define NOSEC_CHECK_H

#include <stdio.h>

enum { PASS = 0, FAIL = 1, SKIP_HELPER = 2 };

/* Why the last helper returned SKIP_HELPER (ASSERT_PASS() says it). */
extern char skip_reason[256];

/* In a helper: unless @cond holds, say where and why, and return FAIL. */
#define REQUIRE(cond, ...)						\
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

/* In a helper: a helper it calls must PASS, else its verdict is ours. */
#define REQUIRE_PASS(expr)						\
	do {								\
		int r_ = (expr);					\
									\
		if (r_ != PASS)						\
			return r_;					\
	} while (0)

/* In a helper: if @cond, the test cannot run here; return SKIP_HELPER. */
#define SKIP_IF(cond, why)						\
	do {								\
		if (cond) {						\
			snprintf(skip_reason, sizeof(skip_reason), "%s", why); \
			return SKIP_HELPER;				\
		}							\
	} while (0)

#endif
