// SPDX-License-Identifier: GPL-2.0
/*
 * The branch guard's negative control: what the guard refuses is a real
 * fault.  On a kernel that checks indirect branches (arm64 built with
 * ARM64_BTI_KERNEL, on a CPU with BTI), the module enters the functions
 * it hooks by a call, which must land on a landing pad; the guard checks
 * each such target at load (failsafe_test.c).  Here the test build enters
 * a function 4 bytes in, where the guard finds no pad, the same way
 * (test_wrong_branch), and the CPU must raise a Branch Target Exception.
 *
 * That fault is an Oops: it kills the loading task and leaves the test
 * build half-loaded until the next boot.  So this program runs only when
 * named (run-tests --file branch_fault), in a boot of its own whose run
 * expects that one report (make check-arm64-bti: qemu/run --expect-oops).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nosec.h"
#include "fixtures.h"
#include "common.h"
#include "../kselftest_harness.h"
#include "ksft_nosec.h"

NOSEC_FIXTURE(branch_fault);

/* getpid's wrapper reads no argument: harmless if a CPU let it run. */
#define WRONG_SYMBOL	SYSCALL_SYM("getpid")

TEST_F(branch_fault, call_to_a_target_without_pad_faults)
{
	MODULE_ONLY("the test build's wrong branch");

	const char *marker = "nosec_test: wrong branch";
	long bti = stat_value("ibt_kernel");
	int status;
	pid_t pid;

#ifndef __aarch64__
	SKIP(return, "%s",
	     "arm64 only: x86-64 enters a hooked function by a return, and TCG models no IBT");
#endif
	ASSERT_TRUE(bti == 0 || bti == 1) TH_LOG("stats: ibt_kernel %ld", bti);
	if (!bti)
		SKIP(return, "%s", "kernel or CPU without BTI: no branch would fault");
	ASSERT_TRUE(wait_tasks(0) == 0 && unload_module() == 0) TH_LOG("unload: %d", errno);
	ASSERT_EQ(0, write_text("/dev/kmsg", marker)) TH_LOG("kmsg marker");
	pid = fork();
	ASSERT_LE(0, pid) TH_LOG("fork: %d", errno);
	if (pid == 0) {
		/* Returns only if the load failed before the branch. */
		load_fault_module("test_wrong_branch=" WRONG_SYMBOL "+4");
		printf("# the load returned: %s\n", strerror(errno));
		_exit(1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV)
		TH_LOG("the loading task must die of the fault (SIGSEGV): status %#x", status);
	/* The kernel names an address SYMBOL+0xOFFSET/SIZE. */
	ASSERT_TRUE(log_says_after(marker, "entering " WRONG_SYMBOL "+0x4/"))
		TH_LOG("the test build did not branch to %s+4", WRONG_SYMBOL);
	ASSERT_TRUE(log_says_after(marker, "Internal error: Oops - BTI"))
		TH_LOG("no Branch Target Exception in the log");
	ASSERT_TRUE(log_says_after(marker, "pc : " WRONG_SYMBOL "+0x4/"))
		TH_LOG("the exception is not at %s+4", WRONG_SYMBOL);
	/* The half-loaded test build holds nothing the module needs. */
	ASSERT_EQ(0, load_module()) TH_LOG("load " MODULE_PATH ": %s", strerror(errno));
}

TEST_HARNESS_MAIN
