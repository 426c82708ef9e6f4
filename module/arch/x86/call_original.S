/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nosec_exec - run a hooked kernel function from a replacement, without
 * an indirect branch.
 *
 * On a kernel built with X86_KERNEL_IBT, an indirect call or jump must land
 * on an endbr64, and the kernel seals (overwrites) the endbr64 of every
 * function whose address it never takes, which includes most of the
 * functions the module hooks; the address the module holds (the ftrace
 * site) is after the endbr64 anyway.  So the module never calls them
 * indirectly: this thunk enters them by a return, as a retpoline does.
 * A return is not checked by IBT.  The thunk is reached by a direct call,
 * and the function it enters returns straight to the thunk's caller,
 * which is how the hook's dispatcher knows the call is the module's own.
 *
 *   unsigned long nosec_call_original(a0, a1, a2, a3, a4, fn)
 *
 * calls fn(a0, a1, a2, a3, a4): the six arguments arrive in the registers
 * of the x86-64 C convention, fn last (%r9), so a0..a4 are already where
 * fn expects them.  fn is an address nosec_hooks_prepare() verified.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <linux/stringify.h>
#include <asm/alternative.h>
#include <asm/cpufeatures.h>
#include <asm/nospec-branch.h>
#include <asm/unwind_hints.h>

	.text
SYM_FUNC_START(nosec_call_original)
	ANNOTATE_INTRA_FUNCTION_CALL
	call	.Lnosec_enter
	int3				/* speculation trap */
.Lnosec_enter:
	/* Our return address becomes fn; the caller's is right under it. */
	mov	%r9, (%rsp)
	UNWIND_HINT_FUNC
	/*
	 * Through the return thunk, as every return must be for the
	 * retbleed and SRSO mitigations, except where the kernel tracks
	 * call depth: there the call that reached the thunk was counted
	 * (its call thunk), fn's return will count down, and this return
	 * must not, as in the kernel's own ftrace_regs_caller.
	 */
#ifdef CONFIG_MITIGATION_CALL_DEPTH_TRACKING
	ALTERNATIVE __stringify(RET), \
		    __stringify(ANNOTATE_UNRET_SAFE; ret; int3), \
		    X86_FEATURE_CALL_DEPTH
#else
	RET
#endif
SYM_FUNC_END(nosec_call_original)
