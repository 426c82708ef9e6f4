// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - x86-64's direct ftrace call for prctl() (module/arch.h):
 * the module's options reach nosec_task_prctl() (prctl.c), every other
 * prctl() pays two comparisons.
 */
#include <linux/linkage.h>
#include <linux/stringify.h>
#include <asm/ibt.h>
#include <asm/linkage.h>
#include <asm/nospec-branch.h>

#include "../../prctl.h"

/*
 * Call-depth tracking (a retbleed mitigation): code reached by a call
 * the kernel did not account, such as a direct ftrace trampoline, counts
 * the call itself.  Nothing to do on a kernel without it.
 */
#ifndef CALL_DEPTH_ACCOUNT
#define CALL_DEPTH_ACCOUNT ""
#endif

/*
 * nosec_prctl_direct - what security_task_prctl() calls at its entry: a
 * direct ftrace call, not the ftrace_ops of the other hooks, because every
 * prctl() on the machine comes here and two comparisons should be all that
 * the others pay.  For the module's options (contiguous, see nosec.h) it
 * overwrites its return address with nosec_task_prctl(), as an IPMODIFY ftrace
 * hook would: nosec_task_prctl() runs in place of security_task_prctl(), with
 * its arguments, and returns to its caller.  As the kernel's own direct
 * trampolines do, it counts the call that reached it for call-depth
 * tracking, where the kernel has it.
 */
asm("	.pushsection	.text, \"ax\", @progbits\n"
	/*
	 * Aligned as the kernel aligns a function: where ftrace can jump to
	 * a direct trampoline instead of calling it, an odd address means
	 * "jump" (ftrace_jmp_set()), and the call would land a byte early.
	 */
"	.p2align	4\n"
"	.type		nosec_prctl_direct, @function\n"
"	.globl		nosec_prctl_direct\n"
"nosec_prctl_direct:\n"
	ASM_ENDBR
	/* ftrace's call to a direct trampoline is not accounted: count it. */
	CALL_DEPTH_ACCOUNT
"	cmpl	$" __stringify(PR_RESTRICT_ME) ", %edi\n"
"	jb	1f\n"
"	cmpl	$" __stringify(PR_GET_FORCE_EXECVE_NOSECURITY) ", %edi\n"
"	jbe	2f\n"
"1:\n"
	ASM_RET
"2:	leaq	nosec_task_prctl(%rip), %r11\n"
"	movq	%r11, (%rsp)\n"
	ASM_RET
"	.size		nosec_prctl_direct, .-nosec_prctl_direct\n"
"	.popsection\n"
);

