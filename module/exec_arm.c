// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - the nosecurity exec's way in: execveat() with
 * AT_EXECVE_NO_TRANSITION, and the ioctl that turns into that call
 * (docs/design.md, "How it works").
 */
#include <linux/compat.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>

#include "compat.h"
#include "arch.h"
#include "task.h"
#include "exec.h"
#include "hooks.h"
#include "main.h"
#include "device.h"
#include "session.h"

/**
 * struct nosec_exec_arming - the execveat an ioctl armed
 * @abi: the syscall ABI of the ioctl, and of the armed execveat
 * @ip: the user address the syscall returns to (after the instruction)
 * @args: execveat's arguments, as its registers hold them
 * @saved: the same registers as the ioctl found them
 */
struct nosec_exec_arming {
	enum nosec_abi abi;
	unsigned long ip;
	unsigned long args[NOSEC_NR_ARGS];
	unsigned long saved[NOSEC_NR_ARGS];
};

static enum nosec_hook_id nosec_execveat_hook(enum nosec_abi abi)
{
	switch (abi) {
	case NOSEC_ABI_COMPAT:
		return NOSEC_HOOK_COMPAT_SYS_EXECVEAT;
#ifdef NOSEC_X32_SYSCALL
	case NOSEC_ABI_X32:
		return NOSEC_HOOK_X32_SYS_EXECVEAT;
#endif
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
 * The ioctl does not exec.  It arms the task's next execveat and makes
 * the syscall instruction that entered the ioctl run again, as execveat:
 * the argument registers get execveat's arguments, the flags word
 * AT_EXECVE_NO_TRANSITION (and NOSEC_EXEC_RESTRICT_ALL when asked), the
 * instruction pointer moves back over the syscall instruction (as the
 * kernel does to restart a syscall after a signal), and the syscall
 * number becomes execveat's (nosec_arch_syscall_again(): on x86-64 the
 * ioctl returns it, on arm64 it returns the first argument).  The task
 * enters the kernel again through the ordinary syscall path, as the
 * execveat() it is.
 *
 * The arming (same ABI, same return address, same arguments) gives the
 * ioctl's call two things a direct call does not have: when it fails, the
 * task's argument registers are put back as the ioctl found them; and it
 * alone may carry NOSEC_EXEC_RESTRICT_ALL, which no execveat() knows: with
 * the bit, a call that is not the armed one fails with EINVAL, so a
 * restriction that was asked for is never lost on the way.  Any exec
 * consumes a pending arming, whether it succeeds or fails and whether it
 * is the armed one or not: an arming never reaches a later exec.
 * Process context, inside the ioctl syscall.
 *
 * Return: what makes the syscall instruction run again as execveat (see
 * above); -EBADF for a dirfd the ioctl cannot return where it returns the
 * dirfd (arm64: a restart code, which the signal code would act on;
 * execveat's own answer for a relative path, a refusal for an absolute
 * one, whose dirfd execveat ignores); -EINVAL when the ioctl was not
 * entered by a syscall instruction of this task; -ENOMEM.
 */
long nosec_exec_arm(const struct nosec_execveat_args *args)
{
	struct pt_regs *regs = current_pt_regs();
	enum nosec_abi abi = nosec_current_abi();
	struct nosec_exec_arming *a;
	int i, ret;

	if (!nosec_arch_dirfd_returnable(args->dirfd))
		return -EBADF;
	if (!nosec_arch_ioctl_frame(regs, abi))
		return -EINVAL;
	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return -ENOMEM;
	a->abi = abi;
	a->ip = instruction_pointer(regs);
	/* As a C int argument reaches the kernel in each convention. */
	a->args[0] = abi == NOSEC_ABI_COMPAT ? (u32)args->dirfd :
					       (unsigned long)(long)args->dirfd;
	a->args[1] = args->pathname;
	a->args[2] = args->argv;
	a->args[3] = args->envp;
	a->args[4] = args->flags | AT_EXECVE_NO_TRANSITION;

	ret = nosec_install_arming(a);
	if (ret) {
		kfree(a);
		return ret;
	}
	for (i = 0; i < NOSEC_NR_ARGS; i++) {
		unsigned long *reg = nosec_syscall_arg(regs, abi, i);

		a->saved[i] = *reg;
		*reg = a->args[i];
	}
	return nosec_arch_syscall_again(regs, abi, nosec_arch_execveat_nr(abi));
}

/* Is the execveat of @regs, in @abi, the call @a armed? */
static bool nosec_arming_matches(const struct nosec_exec_arming *a,
				 struct pt_regs *regs, enum nosec_abi abi)
{
	int i;

	if (a->abi != abi || a->ip != instruction_pointer(regs))
		return false;
	for (i = 0; i < NOSEC_NR_ARGS; i++)
		if (*nosec_syscall_arg(regs, abi, i) != a->args[i])
			return false;
	return true;
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

/* What a nosecurity execveat sets while it runs, and clears when it returns. */
#define NOSEC_FLAG_EXEC_FLAGS	(NOSEC_TASK_FLAG_EXEC | \
				 NOSEC_TASK_EXEC_PROGRESS | \
				 NOSEC_TASK_RESTRICT_ON_EXEC)

/* The bits of execveat's flags that the kernel's execveat() does not know. */
#define NOSEC_EXECVEAT_OWN_FLAGS	(AT_EXECVE_NO_TRANSITION | \
					 NOSEC_EXEC_RESTRICT_ALL)

/*
 * The nosecurity exec itself: the kernel's execveat(), without the flags
 * it does not know, for a task marked for it.  Consumes @a (the arming of
 * an ioctl's call, or NULL): freed, or given back to the task for a
 * restart.
 */
static long nosec_run_no_transition(struct nosec_exec_arming *a,
				    struct pt_regs *regs, enum nosec_abi abi)
{
	struct pt_regs call = *regs;
	long ret;
	int i;

	*nosec_syscall_arg(&call, abi, 4) &= ~(unsigned long)NOSEC_EXECVEAT_OWN_FLAGS;
	ret = (long)nosec_hook_call(nosec_execveat_hook(abi),
				    (unsigned long)&call, 0);
	if (nosec_exec_restarts(ret)) {
		/* Rearmed first, so the entry stays; else EINVAL later. */
		if (a && nosec_install_arming(a))
			kfree(a);
		nosec_task_clear_flags(NOSEC_FLAG_EXEC_FLAGS);
		return ret;
	}
	nosec_task_clear_flags(NOSEC_FLAG_EXEC_FLAGS);
	if (ret && a) {
		/* The ioctl's call failed: its registers, as if it had failed. */
		for (i = 0; i < NOSEC_NR_ARGS; i++)
			*nosec_syscall_arg(regs, abi, i) = a->saved[i];
		nosec_arch_ioctl_restore(regs, abi);
	}
	kfree(a);
	return ret;
}

/*
 * Replaces execveat() (any ABI) for a call that carries
 * AT_EXECVE_NO_TRANSITION.  It may sleep for the whole exec, so it holds a
 * module reference; a failure to take one means the module is going, and
 * the call is refused as the kernel would refuse it.
 */
static long nosec_execveat_no_transition(const struct pt_regs *unused)
{
	struct pt_regs *regs = current_pt_regs();
	enum nosec_abi abi = nosec_current_abi();
	unsigned int at_flags = *nosec_syscall_arg(regs, abi, 4);
	struct nosec_task *t = nosec_task_current();
	struct nosec_exec_arming *a;
	bool armed;
	long ret;

	if (!nosec_is_live() || !try_module_get(THIS_MODULE))
		return -EINVAL;
	armed = t && t->arming && nosec_arming_matches(t->arming, regs, abi);
	if (nosec_exec_banned(nosec_task_flags(current) |
			      NOSEC_TASK_FLAG_EXEC)) {
		ret = nosec_exec_refused();	/* PR_RESTRICT_EXEC_NOSECURITY */
	} else if ((at_flags & NOSEC_EXEC_RESTRICT_ALL) && !armed) {
		ret = -EINVAL;		/* not the ioctl's call: unknown bit */
	} else if (!nosec_exec_permitted()) {
		ret = -EACCES;		/* not in the module's exec_group */
	} else {
		/* Set first, so an armed task's entry stays as the arming goes. */
		ret = nosec_task_set_flags(NOSEC_TASK_FLAG_EXEC |
					   (at_flags & NOSEC_EXEC_RESTRICT_ALL ?
					    NOSEC_TASK_RESTRICT_ON_EXEC : 0));
		if (!ret) {
			a = nosec_take_arming();	/* any exec consumes it */
			if (!armed) {
				kfree(a);
				a = NULL;
			}
			ret = nosec_run_no_transition(a, regs, abi);
			/*
			 * Restricted by its exec (NOSEC_EXEC_RESTRICT_ALL): a
			 * session keyring of its own before the new program
			 * runs, or the program never runs.
			 */
			if (!ret && (at_flags & NOSEC_EXEC_RESTRICT_ALL) &&
			    nosec_session_renew())
				force_sig(SIGKILL);
			goto out_put;	/* @a freed or rearmed */
		}
	}
	nosec_exec_disarm();	/* any exec consumes it */
out_put:
	module_put(THIS_MODULE);
	return ret;
}

/**
 * nosec_execveat_pre() - execveat() entry, any ABI
 * @regs: registers at the entry of execveat()'s syscall wrapper, in any
 *	ABI (NOSEC_SYSCALL(), arch.h; first argument: the syscall's user
 *	registers)
 *
 * Runs for every task, tracked or not (hooks.c): a call that carries
 * AT_EXECVE_NO_TRANSITION is redirected to the nosecurity exec, which
 * decides; any other consumes a pending arming and meets the exec ban.
 * The flag is the ABI, here as in the series (upstream/): seccomp, audit,
 * ptrace and the syscall tracepoints see the same call on both.
 * nosec_execveat_no_transition() marks the task's exec and runs the
 * kernel's execveat() without the flag, which it does not know.
 */
static void nosec_execveat_pre(struct ftrace_regs *regs)
{
	struct pt_regs *user = (struct pt_regs *)nosec_hook_arg(regs, 0);
	unsigned int flags = *nosec_syscall_arg(user, nosec_current_abi(), 4);

	if (flags & AT_EXECVE_NO_TRANSITION) {
		nosec_hook_redirect(regs, nosec_execveat_no_transition);
		return;
	}
	if (nosec_task_count())
		nosec_ban_syscall_pre(regs);
}

/*
 * execveat()'s entry in one ABI: the nosecurity exec (any task that passes
 * AT_EXECVE_NO_TRANSITION), and the exec ban.
 */
#define NOSEC_EXECVEAT_HOOK(_id, _symbol, _optional, _what)		\
	{ .id = _id, .symbol = _symbol, .handler = nosec_execveat_pre,	\
	  .kind = "redirect", .what = _what, .optional = _optional,	\
	  .every_task = true }

/* execveat()'s entries: the flag's way in, and the ban there. */
const struct nosec_hook_spec nosec_exec_arm_hooks[] = {
	NOSEC_EXECVEAT_HOOK(NOSEC_HOOK_SYS_EXECVEAT, NOSEC_SYSCALL("execveat"),
			    false,
			    "nosecurity exec (the flag); exec ban at execveat entry"),
	NOSEC_EXECVEAT_HOOK(NOSEC_HOOK_COMPAT_SYS_EXECVEAT,
			    NOSEC_COMPAT_SYSCALL("execveat"), false,
			    "nosecurity exec; exec ban at 32-bit execveat entry"),
#ifdef NOSEC_X32_SYSCALL
	NOSEC_EXECVEAT_HOOK(NOSEC_HOOK_X32_SYS_EXECVEAT,
			    NOSEC_X32_SYSCALL("execveat"), true,
			    "nosecurity exec; exec ban at x32 execveat entry"),
#endif
	{}
};
