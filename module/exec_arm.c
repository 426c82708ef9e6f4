// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - how NOSEC_IOC_EXECVEAT becomes a real execveat() syscall.
 *
 * The ioctl does not exec.  It arms the task's next execveat and makes the
 * syscall instruction that entered the ioctl run again, as execveat: the
 * argument registers get execveat's arguments, the flags word the extra
 * bit NOSEC_EXECVEAT_ARMED, the instruction pointer moves back over the
 * two-byte syscall instruction (as the kernel does to restart a syscall
 * after a signal), and the ioctl returns execveat's number, which becomes
 * the syscall number.  Back in userspace for one instruction, the task
 * enters the kernel again through the ordinary syscall path, so seccomp,
 * audit, ptrace, syscall user dispatch and the syscall tracepoints all see
 * the exec as the execveat() it is.
 *
 * At execveat's entry, a call carrying NOSEC_EXECVEAT_ARMED runs as a
 * nosecurity exec only if it is the call that was armed: same ABI, same
 * return address, same arguments.  Any exec consumes the arming, whether it
 * succeeds or fails and whether it is the armed one or not, so an arming
 * never reaches a later exec.  A call with the bit that was not armed fails
 * with EINVAL, which is also what the kernel answers without the module:
 * an arming that is lost (a signal handler that execs first, a tracer that
 * rewrites the call, a module unloaded in between) never turns into a
 * plain exec.  When the armed exec fails, the task's argument registers
 * are put back as the ioctl found them, so the ioctl looks like any
 * syscall that returned an error.
 */
#include <linux/compat.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <asm/syscall.h>
#include <asm/unistd.h>

#include "nosec.h"

/* The syscall ABI the ioctl came in by, and so the one execveat uses. */
enum nosec_abi {
	NOSEC_ABI_64,
	NOSEC_ABI_IA32,
	NOSEC_ABI_X32,
};

#define NOSEC_NR_ARGS	5	/* execveat's, and the ioctl's registers */

/**
 * struct nosec_exec_arming - the execveat an ioctl armed
 * @abi: the syscall ABI of the ioctl, and of the armed execveat
 * @ip: the user address the syscall returns to (after the instruction)
 * @args: execveat's arguments, as its registers hold them
 * @saved: the same registers as the ioctl found them
 * @restrict_all: %NOSEC_EXEC_RESTRICT_ALL: restrict the new program
 */
struct nosec_exec_arming {
	enum nosec_abi abi;
	unsigned long ip;
	unsigned long args[NOSEC_NR_ARGS];
	unsigned long saved[NOSEC_NR_ARGS];
	bool restrict_all;
};

static enum nosec_abi nosec_current_abi(void)
{
	if (in_ia32_syscall())
		return NOSEC_ABI_IA32;
	if (in_x32_syscall())
		return NOSEC_ABI_X32;
	return NOSEC_ABI_64;
}

/* The register of argument @i in @abi's convention. */
static unsigned long *nosec_arg_reg(struct pt_regs *regs, enum nosec_abi abi,
				    int i)
{
	unsigned long *ia32[NOSEC_NR_ARGS] = {
		&regs->bx, &regs->cx, &regs->dx, &regs->si, &regs->di,
	};
	unsigned long *x64[NOSEC_NR_ARGS] = {
		&regs->di, &regs->si, &regs->dx, &regs->r10, &regs->r8,
	};

	return abi == NOSEC_ABI_IA32 ? ia32[i] : x64[i];
}

/* Is @regs the frame of the ioctl syscall, in @abi? */
static bool nosec_is_ioctl_frame(const struct pt_regs *regs,
				 enum nosec_abi abi)
{
	switch (abi) {
	case NOSEC_ABI_IA32:
		return regs->orig_ax == __NR_ia32_ioctl;
	case NOSEC_ABI_X32:
		return regs->orig_ax == (__X32_SYSCALL_BIT | __NR_x32_ioctl);
	default:
		return regs->orig_ax == __NR_ioctl;
	}
}

static long nosec_execveat_nr(enum nosec_abi abi)
{
	switch (abi) {
	case NOSEC_ABI_IA32:
		return __NR_ia32_execveat;
	case NOSEC_ABI_X32:
		return __X32_SYSCALL_BIT | __NR_x32_execveat;
	default:
		return __NR_execveat;
	}
}

static enum nosec_hook_id nosec_execveat_hook(enum nosec_abi abi)
{
	switch (abi) {
	case NOSEC_ABI_IA32:
		return NOSEC_HOOK_COMPAT_SYS_EXECVEAT;
	case NOSEC_ABI_X32:
		return NOSEC_HOOK_X32_SYS_EXECVEAT;
	default:
		return NOSEC_HOOK_SYS_EXECVEAT;
	}
}

/* Take the current task's arming away from it; the caller frees it. */
static struct nosec_exec_arming *nosec_take_arming(void)
{
	struct nosec_task *t = nosec_task_current();
	struct nosec_exec_arming *a;

	if (!t || !t->arming)
		return NULL;
	a = t->arming;
	t->arming = NULL;
	nosec_task_clear_flags(NOSEC_TASK_EXEC_ARMED);
	return a;
}

/* Give @a to the current task as its arming; 0 or -ENOMEM. */
static int nosec_install_arming(struct nosec_exec_arming *a)
{
	struct nosec_task *t;
	int ret;

	ret = nosec_task_set_flags(NOSEC_TASK_EXEC_ARMED);
	if (ret)
		return ret;
	t = nosec_task_current();
	kfree(t->arming);	/* an arming no exec consumed: replaced */
	t->arming = a;
	return 0;
}

/**
 * nosec_exec_disarm() - forget the current task's arming
 *
 * Every exec calls this, through its hooks: an arming never outlives the
 * exec that follows it.  Safe in any context.
 */
void nosec_exec_disarm(void)
{
	kfree(nosec_take_arming());
}

/**
 * nosec_exec_arm() - NOSEC_IOC_EXECVEAT: arm the execveat that follows
 * @args: the ioctl's argument, validated
 *
 * Rewrites the current syscall frame so that returning from the ioctl
 * enters execveat() with @args (see the comment at the top of this file).
 * Process context, inside the ioctl syscall.
 *
 * Return: execveat's syscall number, which the syscall exit path stores
 * as the number of the syscall the task makes next; -EINVAL when the ioctl
 * was not entered by a syscall instruction of this task; -ENOMEM.
 */
long nosec_exec_arm(const struct nosec_execveat_args *args)
{
	struct pt_regs *regs = current_pt_regs();
	enum nosec_abi abi = nosec_current_abi();
	struct nosec_exec_arming *a;
	int i, ret;

	if (!nosec_is_ioctl_frame(regs, abi))
		return -EINVAL;
	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return -ENOMEM;
	a->abi = abi;
	a->ip = regs->ip;
	/* As a C int argument reaches the kernel in each convention. */
	a->args[0] = abi == NOSEC_ABI_IA32 ? (u32)args->dirfd :
					     (unsigned long)(long)args->dirfd;
	a->args[1] = args->pathname;
	a->args[2] = args->argv;
	a->args[3] = args->envp;
	/* Not an execveat() flag: kept in the arming, not in the register. */
	a->args[4] = (args->flags & ~NOSEC_EXEC_RESTRICT_ALL) |
		     NOSEC_EXECVEAT_ARMED;
	a->restrict_all = args->flags & NOSEC_EXEC_RESTRICT_ALL;

	ret = nosec_install_arming(a);
	if (ret) {
		kfree(a);
		return ret;
	}
	for (i = 0; i < NOSEC_NR_ARGS; i++) {
		unsigned long *reg = nosec_arg_reg(regs, abi, i);

		a->saved[i] = *reg;
		*reg = a->args[i];
	}
	/* Back over the syscall instruction: it runs again, as execveat. */
	regs->ip -= 2;
	return nosec_execveat_nr(abi);
}

/* Is the execveat of @regs, in @abi, the call @a armed? */
static bool nosec_arming_matches(const struct nosec_exec_arming *a,
				 struct pt_regs *regs, enum nosec_abi abi)
{
	int i;

	if (a->abi != abi || a->ip != regs->ip)
		return false;
	for (i = 0; i < NOSEC_NR_ARGS; i++)
		if (*nosec_arg_reg(regs, abi, i) != a->args[i])
			return false;
	return true;
}

/**
 * nosec_exec_refused() - refuse a restricted task's exec, in process context
 *
 * Return: -EPERM, counted and audited.
 */
long nosec_exec_refused(void)
{
	atomic_long_inc(&nosec_stats.denied_execs);
	nosec_audit_exec("exec_denied", "restricted", 0, GFP_KERNEL);
	return -EPERM;
}

/*
 * The exec will be restarted (a signal came while it waited, e.g. for
 * cred_guard_mutex): the syscall instruction runs again, as the same
 * execveat, with the armed registers.  Put the arming back, so that the
 * restarted call is the armed one again; an arming that no restart
 * consumes is consumed by the next exec, as any.
 */
static bool nosec_exec_restarts(long ret)
{
	return ret == -ERESTARTSYS || ret == -ERESTARTNOINTR ||
	       ret == -ERESTARTNOHAND || ret == -ERESTART_RESTARTBLOCK;
}

/* What the armed exec sets while it runs, and clears when it returns. */
#define NOSEC_ARMED_EXEC_FLAGS	(NOSEC_TASK_IOCTL_EXEC | \
				 NOSEC_TASK_CREDS_KEPT | \
				 NOSEC_TASK_RESTRICT_ON_EXEC)

/*
 * The armed exec itself: a nosecurity execveat, nothing else changed.
 * Consumes @a: freed, or given back to the task for a restart.
 */
static long nosec_run_armed(struct nosec_exec_arming *a, struct pt_regs *regs)
{
	struct pt_regs call = *regs;
	long ret;
	int i;

	/* The kernel's execveat() rejects the bit: the call goes without. */
	*nosec_arg_reg(&call, a->abi, 4) &= ~(unsigned long)NOSEC_EXECVEAT_ARMED;
	ret = (long)nosec_hook_call(nosec_execveat_hook(a->abi),
				    (unsigned long)&call, 0);
	if (nosec_exec_restarts(ret)) {
		/* Rearmed first, so the entry stays; else EINVAL later. */
		if (nosec_install_arming(a))
			kfree(a);
		nosec_task_clear_flags(NOSEC_ARMED_EXEC_FLAGS);
		return ret;
	}
	nosec_task_clear_flags(NOSEC_ARMED_EXEC_FLAGS);
	if (ret) {
		/* Failed: the ioctl's registers, as if it had failed. */
		for (i = 0; i < NOSEC_NR_ARGS; i++)
			*nosec_arg_reg(regs, a->abi, i) = a->saved[i];
	}
	kfree(a);
	return ret;
}

/*
 * Replaces execveat() (any ABI) for a call that carries
 * NOSEC_EXECVEAT_ARMED.  It may sleep for the whole exec, so it holds a
 * module reference; a failure to take one means the module is going and
 * the call is refused as the kernel would refuse it.
 */
static long nosec_execveat_armed(const struct pt_regs *unused)
{
	struct pt_regs *regs = current_pt_regs();
	struct nosec_task *t = nosec_task_current();
	struct nosec_exec_arming *a;
	long ret;

	if (!try_module_get(THIS_MODULE))
		return -EINVAL;
	a = t ? t->arming : NULL;
	if (nosec_exec_banned(nosec_task_flags(current) |
			      NOSEC_TASK_IOCTL_EXEC)) {
		/* PR_RESTRICT_EXEC_NOSECURITY came after the arming. */
		kfree(nosec_take_arming());
		ret = nosec_exec_refused();
	} else if (a && nosec_arming_matches(a, regs, nosec_current_abi())) {
		/* Set first, so the entry stays: it exists, this cannot fail. */
		ret = nosec_task_set_flags(NOSEC_TASK_IOCTL_EXEC |
					   (a->restrict_all ?
					    NOSEC_TASK_RESTRICT_ON_EXEC : 0));
		a = nosec_take_arming();
		if (ret)
			kfree(a);
		else
			ret = nosec_run_armed(a, regs);	/* frees or rearms */
	} else {
		kfree(nosec_take_arming());
		ret = nosec_exec_banned(nosec_task_flags(current)) ?
		      nosec_exec_refused() : -EINVAL;
	}
	module_put(THIS_MODULE);
	return ret;
}

/**
 * nosec_execveat_pre() - execveat() entry, any ABI
 * @regs: registers at the entry of __x64_sys_execveat,
 *	__ia32_compat_sys_execveat or __x64_compat_sys_execveat (first
 *	argument: the syscall's user registers)
 *
 * A call that carries NOSEC_EXECVEAT_ARMED is redirected to the armed
 * exec, which decides; any other consumes a pending arming and meets the
 * exec ban.
 */
void nosec_execveat_pre(struct pt_regs *regs)
{
	struct pt_regs *user = (struct pt_regs *)regs->di;
	unsigned long flags = *nosec_arg_reg(user, nosec_current_abi(), 4);

	if ((unsigned int)flags & NOSEC_EXECVEAT_ARMED) {
		nosec_hook_redirect(regs, nosec_execveat_armed);
		return;
	}
	nosec_ban_syscall_pre(regs);
}
