// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - the four prctl options, with the argument checks of our
 * series (upstream/): unused arguments must be 0.  security_task_prctl()
 * is replaced for these options only; every other option reaches the
 * kernel's LSMs untouched.
 */
#include <linux/module.h>
#include <linux/stringify.h>
#include <linux/sched.h>
#include <linux/uaccess.h>
#include <uapi/linux/nosec_exec.h>

#include "compat.h"
#include "task.h"
#include "restrict.h"
#include "exec.h"
#include "hooks.h"
#include "main.h"
#include "prctl.h"
#include "device.h"

static int nosec_prctl_restrict_me(unsigned long mask, unsigned long how,
				   unsigned long blocker_addr,
				   unsigned long arg5)
{
	unsigned int set = NOSEC_TASK_RESTRICT_EXEC;
	pid_t blocker = 0;
	int ret;

	if ((how & ~PR_RESTRICT_TSYNC) || arg5)
		return -EINVAL;
	if (!mask)
		return 0;
	if (mask & ~PR_RESTRICT_ALL)
		return -EINVAL;
	/* Every other restriction bit requires PR_RESTRICT_EXEC, now or before. */
	if (!(mask & PR_RESTRICT_EXEC) &&
	    !(nosec_task_flags(current) & NOSEC_TASK_RESTRICT_EXEC))
		return -EINVAL;
	if (mask & PR_RESTRICT_EXEC_NOSECURITY)
		set |= NOSEC_TASK_RESTRICT_NOSEC;
	ret = nosec_restrict(set, how & PR_RESTRICT_TSYNC, &blocker);
	if (ret == -EBUSY && blocker_addr &&
	    put_user(blocker, (int __user *)blocker_addr))
		return -EFAULT;
	return ret;
}

/* PR_GET_RESTRICT: the mask, returned as PR_GET_NO_NEW_PRIVS returns its bit. */
static int nosec_prctl_get_restrict(unsigned long arg2, unsigned long arg3,
				    unsigned long arg4, unsigned long arg5)
{
	unsigned int flags = nosec_task_flags(current);
	int mask = 0;

	if (arg2 || arg3 || arg4 || arg5)
		return -EINVAL;
	if (flags & NOSEC_TASK_RESTRICT_EXEC)
		mask |= PR_RESTRICT_EXEC;
	if (flags & NOSEC_TASK_RESTRICT_NOSEC)
		mask |= PR_RESTRICT_EXEC_NOSECURITY;
	return mask;
}

static int nosec_prctl_get_force(unsigned long arg2, unsigned long arg3,
				 unsigned long arg4, unsigned long arg5)
{
	if (arg2 || arg3 || arg4 || arg5)
		return -EINVAL;
	return !!(nosec_task_flags(current) & NOSEC_TASK_FORCE_NOSEC);
}

static int nosec_prctl_set_force(unsigned long on, unsigned long arg3,
				 unsigned long arg4, unsigned long arg5)
{
	unsigned int flags = nosec_task_flags(current);

	if (on > 1 || arg3 || arg4 || arg5)
		return -EINVAL;
	if (!(flags & NOSEC_TASK_RESTRICT_EXEC))
		return -EPERM;
	if (on) {
		/* No nosecurity exec either: force mode would have nothing to do. */
		if (flags & NOSEC_TASK_RESTRICT_NOSEC)
			return -EPERM;
		/* The administrator's exec_group decides, as for the device. */
		if (!nosec_exec_permitted())
			return -EACCES;
		return nosec_task_set_flags(NOSEC_TASK_FORCE_NOSEC);
	}
	/* The entry stays: it still carries the restriction. */
	nosec_task_clear_flags(NOSEC_TASK_FORCE_NOSEC);
	return 0;
}

static int nosec_prctl_option(int option, unsigned long arg2,
			      unsigned long arg3, unsigned long arg4,
			      unsigned long arg5)
{
	switch (option) {
	case PR_RESTRICT_ME:
		return nosec_prctl_restrict_me(arg2, arg3, arg4, arg5);
	case PR_GET_RESTRICT:
		return nosec_prctl_get_restrict(arg2, arg3, arg4, arg5);
	case PR_SET_FORCE_EXECVE_NOSECURITY:
		return nosec_prctl_set_force(arg2, arg3, arg4, arg5);
	case PR_GET_FORCE_EXECVE_NOSECURITY:
		return nosec_prctl_get_force(arg2, arg3, arg4, arg5);
	}
	return -EINVAL;
}

/**
 * nosec_task_prctl() - security_task_prctl() for the module's four options
 * @option: PR_RESTRICT_ME, PR_GET_RESTRICT, PR_SET_FORCE_EXECVE_NOSECURITY
 *	or PR_GET_FORCE_EXECVE_NOSECURITY
 * @arg2: second prctl() argument
 * @arg3: third prctl() argument
 * @arg4: fourth prctl() argument
 * @arg5: fifth prctl() argument
 *
 * Reached in place of security_task_prctl(), from the direct call
 * (arch/x86/prctl_direct.c) or the handler (nosec_task_prctl_pre()),
 * by any task, restricted or not; it may sleep (allocation, user copies),
 * so it holds a module reference while it works.  Its first and last
 * instructions, outside the reference, are covered by
 * synchronize_rcu_tasks() at unload.
 *
 * Return: the option's result; -EINVAL, as if the module were not loaded,
 * while it is being loaded or unloaded.
 */
__visible int nosec_task_prctl(int option, unsigned long arg2,
			       unsigned long arg3, unsigned long arg4,
			       unsigned long arg5)
{
	int ret;

	if (!nosec_is_live() || !try_module_get(THIS_MODULE))
		return -EINVAL;
	ret = nosec_prctl_option(option, arg2, arg3, arg4, arg5);
	module_put(THIS_MODULE);
	return ret;
}

#ifdef NOSEC_ARCH_PRCTL_DIRECT
/* The prctl options: a direct ftrace call, not a handler. */
const struct nosec_hook_spec nosec_prctl_hooks[] = {
	NOSEC_DIRECT_HOOK(NOSEC_HOOK_TASK_PRCTL, "security_task_prctl",
			  nosec_prctl_direct,
			  "PR_RESTRICT_ME, PR_GET_RESTRICT, PR_[SG]ET_FORCE_EXECVE_NOSECURITY"),
	{}
};
#else
/*
 * security_task_prctl()'s entry, for any task: the module's options
 * (contiguous, see prctl.h) go to nosec_task_prctl(), with the same
 * arguments; every other option goes on to the kernel's LSMs.
 */
static void nosec_task_prctl_pre(struct ftrace_regs *regs)
{
	unsigned long option = (unsigned int)nosec_hook_arg(regs, 0);

	if (option - PR_RESTRICT_ME <= PR_GET_FORCE_EXECVE_NOSECURITY - PR_RESTRICT_ME)
		nosec_hook_redirect(regs, nosec_task_prctl);
}

/* The prctl options: a handler that runs for every task. */
const struct nosec_hook_spec nosec_prctl_hooks[] = {
	{ .id = NOSEC_HOOK_TASK_PRCTL, .symbol = "security_task_prctl",
	  .handler = nosec_task_prctl_pre, .kind = "redirect",
	  .what = "PR_RESTRICT_ME, PR_GET_RESTRICT, PR_[SG]ET_FORCE_EXECVE_NOSECURITY",
	  .every_task = true },
	{}
};
#endif
