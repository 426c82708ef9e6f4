/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nosec_exec - x86-64's side of module/arch.h: ftrace's site after an
 * endbr64, IBT, the 64-bit, ia32 and x32 syscall ABIs, and a direct ftrace
 * call for prctl()
 */
#ifndef _NOSEC_EXEC_ARCH_X86_H
#define _NOSEC_EXEC_ARCH_X86_H

#include <linux/compat.h>
#include <linux/ptrace.h>
#include <linux/uaccess.h>
#include <asm/ibt.h>
#include <asm/syscall.h>
#include <asm/unistd.h>

/* ---- The way into a hooked function ---- */

/*
 * The kprobe lookup put @addr on the function's ftrace site (after an
 * endbr64, or its seal), from ftrace's own table (@kprobe_ftrace): the
 * module enters the function there (call_original.S), by a return.
 */
static inline bool nosec_arch_ftrace_site(unsigned long addr,
					  bool kprobe_ftrace,
					  unsigned long *site,
					  unsigned long *entry)
{
	if (!kprobe_ftrace)
		return false;
	*site = addr;
	*entry = addr;
	return true;
}

/* By a return, which IBT does not check (call_original.S). */
static inline bool nosec_arch_entered_by_call(void)
{
	return false;
}

/* ---- Branch targets (IBT) ---- */

#define NOSEC_ARCH_BRANCH_PAD	"endbr64"

/* The 4 bytes of kernel text at @addr, little-endian; false if unreadable. */
static inline bool nosec_arch_text32(unsigned long addr, u32 *insn)
{
	return !copy_from_kernel_nofault(insn, (void *)addr, sizeof(*insn));
}

/* Does this kernel make an indirect call or jump land on an endbr64? */
static inline bool nosec_arch_branch_checked(void)
{
	return HAS_KERNEL_IBT;
}

/* Does the kernel text at @addr hold an endbr64 (f3 0f 1e fa), not its seal? */
static inline bool nosec_arch_branch_pad(unsigned long addr)
{
	u32 insn;

	return nosec_arch_text32(addr, &insn) && insn == 0xfa1e0ff3;
}

/* An endbr64, or its seal, read already (Kbuild: NOSEC_HAVE___IS_ENDBR). */
#ifdef NOSEC_HAVE___IS_ENDBR
#define nosec_arch_is_endbr(insn)	__is_endbr(insn)
#else
#define nosec_arch_is_endbr(insn)	is_endbr(insn)
#endif

/*
 * What a pointer to the function at @addr (as the kprobe lookup found it)
 * holds: the lookup steps over an endbr64, or its seal.
 */
static inline unsigned long nosec_arch_function_pointer(unsigned long addr)
{
	u32 insn;

	if (HAS_KERNEL_IBT &&
	    nosec_arch_text32(addr - ENDBR_INSN_SIZE, &insn) &&
	    nosec_arch_is_endbr(insn))
		return addr - ENDBR_INSN_SIZE;
	return addr;
}

/* ---- The syscall ABIs ---- */

#define NOSEC_SYSCALL(name)		"__x64_sys_" name
#define NOSEC_COMPAT_SYSCALL(name)	"__ia32_compat_sys_" name
#define NOSEC_X32_SYSCALL(name)		"__x64_compat_sys_" name

static inline enum nosec_abi nosec_current_abi(void)
{
	if (in_ia32_syscall())
		return NOSEC_ABI_COMPAT;
	if (in_x32_syscall())
		return NOSEC_ABI_X32;
	return NOSEC_ABI_64;
}

/* The register of syscall argument @i in @abi's convention. */
static inline unsigned long *nosec_syscall_arg(struct pt_regs *regs,
					       enum nosec_abi abi, int i)
{
	unsigned long *ia32[NOSEC_NR_ARGS] = {
		&regs->bx, &regs->cx, &regs->dx, &regs->si, &regs->di,
	};
	unsigned long *x64[NOSEC_NR_ARGS] = {
		&regs->di, &regs->si, &regs->dx, &regs->r10, &regs->r8,
	};

	return abi == NOSEC_ABI_COMPAT ? ia32[i] : x64[i];
}

/* Is @regs the frame of the ioctl syscall, in @abi? */
static inline bool nosec_arch_ioctl_frame(const struct pt_regs *regs,
					  enum nosec_abi abi)
{
	switch (abi) {
	case NOSEC_ABI_COMPAT:
		return regs->orig_ax == __NR_ia32_ioctl;
	case NOSEC_ABI_X32:
		return regs->orig_ax == (__X32_SYSCALL_BIT | __NR_x32_ioctl);
	default:
		return regs->orig_ax == __NR_ioctl;
	}
}

static inline long nosec_arch_execveat_nr(enum nosec_abi abi)
{
	switch (abi) {
	case NOSEC_ABI_COMPAT:
		return __NR_ia32_execveat;
	case NOSEC_ABI_X32:
		return __X32_SYSCALL_BIT | __NR_x32_execveat;
	default:
		return __NR_execveat;
	}
}

/*
 * Make the syscall instruction that entered the kernel run again, as the
 * syscall @nr, with the argument registers as they are now: back over the
 * two-byte syscall instruction (as a restart after a signal is), and
 * return @nr, which the exit path stores where the number goes (%rax).
 */
static inline long nosec_arch_syscall_again(struct pt_regs *regs,
					    enum nosec_abi abi, long nr)
{
	regs->ip -= 2;
	return nr;
}

/* The ioctl returns the syscall number, never the dirfd: any will do. */
static inline bool nosec_arch_dirfd_returnable(int dirfd)
{
	return true;
}

/* An armed call failed: the number register is its return value already. */
static inline void nosec_arch_ioctl_restore(struct pt_regs *regs,
					    enum nosec_abi abi)
{
}

/* ---- prctl() ---- */

/* security_task_prctl() is hooked by a direct call (prctl_direct.c). */
#define NOSEC_ARCH_PRCTL_DIRECT
void nosec_prctl_direct(void);

#endif /* _NOSEC_EXEC_ARCH_X86_H */
