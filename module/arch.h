/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nosec_exec - what differs between the architectures the module builds
 * for (x86-64, arm64): one small interface per concern, each architecture's
 * side in module/arch/ARCH/ (Kbuild adds that directory to the include
 * path, as compat.h stands for the kernel versions):
 *
 * - the way into a hooked function, from its replacement (the call into
 *   the original): where ftrace's site in it is, and where a call enters;
 * - the branch targets the CPU checks (x86's IBT, arm64's BTI): what an
 *   indirect branch must land on, and whether this kernel checks it;
 * - the syscall ABIs: the argument registers of each, the syscall
 *   instruction, how a syscall is made to run again as another;
 * - the direct ftrace call for prctl(), where the architecture has one.
 *
 * The registers of a hooked call are read through compat.h's
 * nosec_hook_arg(), which the kernel's ftrace_regs decides.
 */
#ifndef _NOSEC_EXEC_ARCH_H
#define _NOSEC_EXEC_ARCH_H

#include <linux/types.h>

struct pt_regs;

/* The syscall ABIs: each architecture's nosec_arch.h says which it has. */
enum nosec_abi {
	NOSEC_ABI_64,		/* x86-64, arm64 (AArch64) */
	NOSEC_ABI_COMPAT,	/* ia32, AArch32 */
	NOSEC_ABI_X32,		/* x86-64 only */
};

#define NOSEC_NR_ARGS	5	/* execveat's, and the ioctl's registers */

/*
 * nosec_call_original(a0, ..., a4, fn) calls a hooked kernel function
 * from its replacement: fn(a0, ..., a4), where fn is where a call enters
 * it (nosec_arch_ftrace_site()'s @entry).  Architecture code
 * (module/arch/ARCH/call_original.*): the call comes from the module's
 * text, so the hook's dispatcher lets it through, and it reaches fn only
 * by a way the CPU's branch checks accept.
 */
unsigned long nosec_call_original(unsigned long a0, unsigned long a1,
				  unsigned long a2, unsigned long a3,
				  unsigned long a4, unsigned long fn);

#include <nosec_arch.h>

#endif /* _NOSEC_EXEC_ARCH_H */
