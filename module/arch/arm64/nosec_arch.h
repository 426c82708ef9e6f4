/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nosec_exec - arm64's side of module/arch.h: ftrace's site behind a
 * "mov x9, x30", BTI, the AArch64 and AArch32 syscall ABIs; prctl() is an
 * ordinary handler hook here
 */
#ifndef _NOSEC_EXEC_ARCH_ARM64_H
#define _NOSEC_EXEC_ARCH_ARM64_H

#include <linux/compat.h>
#include <linux/errno.h>
#include <linux/ptrace.h>
#include <linux/uaccess.h>
#include <asm/cpufeature.h>
#include <asm/insn.h>
#include <asm/unistd.h>

/* The A64 instructions the module recognises in kernel text. */
#define NOSEC_A64_NOP		0xd503201fU
#define NOSEC_A64_MOV_X9_LR	0xaa1e03e9U	/* orr x9, xzr, x30 */
#define NOSEC_A64_BL_MASK	0xfc000000U
#define NOSEC_A64_BL		0x94000000U
#define NOSEC_A64_BTI_MASK	0xffffff3fU	/* bti, bti c, bti j, bti jc */
#define NOSEC_A64_BTI		0xd503241fU
#define NOSEC_A64_BTI_C		0xd503245fU
#define NOSEC_A64_BTI_JC	0xd50324dfU
#define NOSEC_A64_PACIASP	0xd503233fU
#define NOSEC_A64_PACIBSP	0xd503237fU

/* The instruction at @addr of kernel text; false if unreadable. */
static inline bool nosec_arch_text32(unsigned long addr, u32 *insn)
{
	__le32 raw;

	if (copy_from_kernel_nofault(&raw, (void *)addr, sizeof(raw)))
		return false;
	*insn = le32_to_cpu(raw);
	return true;
}

/* ---- The way into a hooked function ---- */

/*
 * @addr is the function's first instruction (arm64 has no kprobes on
 * ftrace).  The compiler put two NOPs at the entry, after a BTI where
 * the kernel has BTI; at boot ftrace made the first "mov x9, x30" (the
 * caller's return address, which ftrace's caller reads), and the second
 * is the site: a NOP, or a BL while some ftrace user traces it.  A call
 * from the module enters at @addr, so that the "mov x9, x30" runs.
 */
static inline bool nosec_arch_ftrace_site(unsigned long addr,
					  bool kprobe_ftrace,
					  unsigned long *site,
					  unsigned long *entry)
{
	unsigned long p = addr;
	u32 insn;

	if (!nosec_arch_text32(p, &insn))
		return false;
	if ((insn & NOSEC_A64_BTI_MASK) == NOSEC_A64_BTI) {
		p += AARCH64_INSN_SIZE;
		if (!nosec_arch_text32(p, &insn))
			return false;
	}
	if (insn != NOSEC_A64_MOV_X9_LR)
		return false;
	p += AARCH64_INSN_SIZE;
	if (!nosec_arch_text32(p, &insn))
		return false;
	if (insn != NOSEC_A64_NOP && (insn & NOSEC_A64_BL_MASK) != NOSEC_A64_BL)
		return false;
	*site = p;
	*entry = addr;
	return true;
}

/* The module enters a hooked function by a call: the branch guard checks it. */
static inline bool nosec_arch_entered_by_call(void)
{
	return true;
}

/* ---- Branch targets (BTI) ---- */

#define NOSEC_ARCH_BRANCH_PAD	"a BTI landing pad (bti c, bti jc, paciasp, pacibsp)"

/*
 * Does this kernel make an indirect call land on a landing pad?  Only
 * where its own text is guarded: built with ARM64_BTI_KERNEL, on a CPU
 * with BTI.
 */
static inline bool nosec_arch_branch_checked(void)
{
	return IS_ENABLED(CONFIG_ARM64_BTI_KERNEL) && system_supports_bti();
}

/* May a BLR land at @addr: BTI C or JC, or PACIASP or PACIBSP (implicit BTI)? */
static inline bool nosec_arch_branch_pad(unsigned long addr)
{
	u32 insn;

	if (!nosec_arch_text32(addr, &insn))
		return false;
	return insn == NOSEC_A64_BTI_C || insn == NOSEC_A64_BTI_JC ||
	       insn == NOSEC_A64_PACIASP || insn == NOSEC_A64_PACIBSP;
}

/* A pointer to a function holds its first instruction: the lookup's. */
static inline unsigned long nosec_arch_function_pointer(unsigned long addr)
{
	return addr;
}

/* ---- The syscall ABIs ---- */

#define NOSEC_SYSCALL(name)		"__arm64_sys_" name
#define NOSEC_COMPAT_SYSCALL(name)	"__arm64_compat_sys_" name

/* AArch32's numbers (arch/arm/tools/syscall.tbl), which arm64 does not name. */
#define NOSEC_COMPAT_NR_IOCTL		54
#define NOSEC_COMPAT_NR_EXECVEAT	387

static inline enum nosec_abi nosec_current_abi(void)
{
	return is_compat_task() ? NOSEC_ABI_COMPAT : NOSEC_ABI_64;
}

/*
 * The register of syscall argument @i: x0-x4, or r0-r4 for AArch32 (a u64,
 * the width of an unsigned long here).
 */
static inline unsigned long *nosec_syscall_arg(struct pt_regs *regs,
					       enum nosec_abi abi, int i)
{
	return (unsigned long *)&regs->regs[i];
}

/* The register the syscall number is in: x8, or r7 for AArch32. */
static inline unsigned long *nosec_arch_nr_reg(struct pt_regs *regs,
					       enum nosec_abi abi)
{
	return (unsigned long *)&regs->regs[abi == NOSEC_ABI_COMPAT ? 7 : 8];
}

static inline long nosec_arch_ioctl_nr(enum nosec_abi abi)
{
	return abi == NOSEC_ABI_COMPAT ? NOSEC_COMPAT_NR_IOCTL : __NR_ioctl;
}

/* Is @regs the frame of the ioctl syscall, in @abi? */
static inline bool nosec_arch_ioctl_frame(const struct pt_regs *regs,
					  enum nosec_abi abi)
{
	return regs->syscallno == nosec_arch_ioctl_nr(abi);
}

static inline long nosec_arch_execveat_nr(enum nosec_abi abi)
{
	return abi == NOSEC_ABI_COMPAT ? NOSEC_COMPAT_NR_EXECVEAT :
					 __NR_execveat;
}

/*
 * Make the SVC that entered the kernel run again, as the syscall @nr,
 * with the argument registers as they are now: the number register gets
 * @nr, the PC goes back over the SVC (two bytes in Thumb state), as a
 * restart after a signal does.  The exit path stores the syscall's return
 * value in x0, the first argument's register: so it returns that argument.
 */
static inline long nosec_arch_syscall_again(struct pt_regs *regs,
					    enum nosec_abi abi, long nr)
{
	*nosec_arch_nr_reg(regs, abi) = nr;
	regs->pc -= compat_thumb_mode(regs) ? 2 : AARCH64_INSN_SIZE;
	return regs->regs[0];
}

/*
 * Can the ioctl return @dirfd, as nosec_arch_syscall_again() does?  Not a
 * restart code (-ERESTARTSYS to -ERESTART_RESTARTBLOCK, which include
 * -ENOIOCTLCMD): the signal code would act on it, and make the SVC run
 * again as the ioctl, or step the PC back twice.  Every other value is
 * only displayed (ptrace, audit) before the SVC runs again.
 */
static inline bool nosec_arch_dirfd_returnable(int dirfd)
{
	return dirfd < -ERESTART_RESTARTBLOCK || dirfd > -ERESTARTSYS;
}

/*
 * An armed call failed: its number register as the ioctl had it (a
 * caller may keep the number there across the SVC).
 */
static inline void nosec_arch_ioctl_restore(struct pt_regs *regs,
					    enum nosec_abi abi)
{
	*nosec_arch_nr_reg(regs, abi) = nosec_arch_ioctl_nr(abi);
}

#endif /* _NOSEC_EXEC_ARCH_ARM64_H */
