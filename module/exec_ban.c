// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - the exec ban (PR_RESTRICT_EXEC): this is where a restricted
 * task's execve()/execveat() is denied.
 *
 * Three layers.  The syscall entries (64-bit and 32-bit compat execve and
 * execveat) answer EPERM before anything is looked at, as the 2010 patch
 * did in do_execve().  bprm_execve(), which every exec of a user task goes
 * through whatever its entry point, denies again (on 6.1 before the file
 * is opened; on 6.12 after), so an entry point missing from the first
 * layer cannot bypass the ban.  security_bprm_check() decides once more
 * under the process's cred_guard_mutex, which PR_RESTRICT_TSYNC takes
 * (restrict.c): an exec that was in flight in another thread when its
 * thread was restricted is refused there, before the point of no return.
 * A last check, in exec_nosec.c, kills an exec that somehow got past all
 * three.
 *
 * The ban and the nosecurity exec of exec_arm.c meet at execveat(): a call
 * with AT_EXECVE_NO_TRANSITION goes to exec_arm.c, any other comes here
 * (nosec_execveat_pre()), and every exec consumes a pending arming of
 * the ioctl (nosec_exec_disarm()).  Each file calls the other at that one seam.
 */
#include <linux/binfmts.h>
#include <linux/gfp.h>
#include <linux/security.h>
#include <linux/sched.h>

#include "task.h"
#include "exec.h"
#include "audit.h"
#include "hooks.h"
#include "stats.h"

/**
 * nosec_exec_refused() - refuse a restricted task's exec, in process context
 *
 * Context: process context.  Every refusal of the ban ends here: the
 * hooks' replacements below, the ioctl and a nosecurity exec under
 * PR_RESTRICT_EXEC_NOSECURITY.
 *
 * Return: -EPERM, counted (denied_execs) and audited.
 */
int nosec_exec_refused(void)
{
	atomic_long_inc(&nosec_stats.denied_execs);
	nosec_audit_exec("exec_denied", "restricted", 0, GFP_KERNEL);
	return -EPERM;
}

static long nosec_syscall_denied(const struct pt_regs *regs)
{
	return nosec_exec_refused();
}

/* bprm_execve() has taken 4 arguments or only @bprm: either way. */
static int nosec_bprm_execve_denied(struct linux_binprm *bprm)
{
	return nosec_exec_refused();
}

static int nosec_bprm_check_denied(struct linux_binprm *bprm)
{
	return nosec_exec_refused();
}

static int nosec_bprm_check_shared(struct linux_binprm *bprm)
{
	return -EBUSY;
}

/*
 * An exec that restricts its task (NOSEC_EXEC_RESTRICT_ALL) while a
 * process outside its group shares its working directory and root: the
 * exec gives the task a memory and a descriptor table of its own, but
 * not an fs_struct, and a restriction beside a task that shares one is no
 * boundary (restrict.c).  check_unsafe_exec() has just told, under
 * cred_guard_mutex, with LSM_UNSAFE_SHARE; without it, it marked the
 * fs_struct so that no task can share it until the exec ends.
 */
static bool nosec_restricts_beside_a_sharer(struct ftrace_regs *regs,
					    unsigned int flags)
{
	const struct linux_binprm *bprm =
		(const struct linux_binprm *)nosec_hook_arg(regs, 0);

	return (flags & NOSEC_TASK_RESTRICT_ON_EXEC) &&
	       (bprm->unsafe & LSM_UNSAFE_SHARE);
}

/*
 * Clear what a previous, failed exec of the task (@t, current's entry) may
 * have left, and any arming: an exec that is not the armed one consumes
 * it all the same.
 */
static void nosec_exec_starts(struct nosec_task *t, unsigned int flags)
{
	nosec_read_checks_forget(t);
	if (flags & NOSEC_TASK_EXEC_ARMED)
		nosec_exec_disarm();
	/*
	 * Left from an exec that did not reach the last gate, or, for
	 * LSM_MOVED, from a TOMOYO domain change by a self_domain write.
	 */
	if (flags & NOSEC_TASK_EXEC_PROGRESS)
		nosec_task_clear_flags(NOSEC_TASK_EXEC_PROGRESS);
}

/**
 * nosec_ban_syscall_pre() - deny execve/execveat of a restricted task
 * @regs: registers at the entry of execve()'s or execveat()'s syscall
 *	wrapper, in any ABI (NOSEC_SYSCALL(), arch.h)
 *
 * The call consumes any arming.  A banned call is redirected to return
 * -EPERM.
 */
void nosec_ban_syscall_pre(struct ftrace_regs *regs)
{
	struct nosec_task *t = nosec_task_current();
	unsigned int flags = t ? nosec_entry_flags(t) : 0;

	if (!flags)
		return;
	nosec_read_checks_forget(t);
	if (flags & NOSEC_TASK_EXEC_ARMED)
		nosec_exec_disarm();
	if (nosec_exec_banned(flags))
		nosec_hook_redirect(regs, nosec_syscall_denied);
}

/**
 * nosec_ban_bprm_execve_pre() - deny at the common exec path
 * @regs: registers at bprm_execve()'s entry
 *
 * A banned call is redirected to return -EPERM.
 */
static void nosec_ban_bprm_execve_pre(struct ftrace_regs *regs)
{
	struct nosec_task *t = nosec_task_current();
	unsigned int flags = t ? nosec_entry_flags(t) : 0;

	if (!flags)
		return;
	nosec_exec_starts(t, flags);
	if (nosec_exec_banned(flags))
		nosec_hook_redirect(regs, nosec_bprm_execve_denied);
}

/**
 * nosec_ban_bprm_check_pre() - deny under cred_guard_mutex
 * @regs: registers at security_bprm_check()'s entry, which every file of
 *	an exec meets before its binfmt loads it, the process's
 *	cred_guard_mutex held
 *
 * The restriction that counts: PR_RESTRICT_TSYNC sets it under the same
 * mutex, so an exec that began before it (past the two checks above) is
 * refused here with EPERM, never run, never killed.  An exec that would
 * restrict its task beside a process sharing its fs_struct fails with
 * EBUSY, as PR_RESTRICT_ME does.  An exec the ban lets through meets the
 * nosecurity exec's read check (exec_nosec.c).
 */
static void nosec_ban_bprm_check_pre(struct ftrace_regs *regs)
{
	unsigned int flags = nosec_task_flags(current);

	if (nosec_exec_banned(flags))
		nosec_hook_redirect(regs, nosec_bprm_check_denied);
	else if (nosec_restricts_beside_a_sharer(regs, flags))
		nosec_hook_redirect(regs, nosec_bprm_check_shared);
	else
		nosec_bprm_check_pre(regs);
}

/* The ban's hooks: every exec entry, then the path they all share. */
const struct nosec_hook_spec nosec_exec_ban_hooks[] = {
	NOSEC_HOOK(NOSEC_HOOK_SYS_EXECVE, NOSEC_SYSCALL("execve"),
		   nosec_ban_syscall_pre, "redirect",
		   "exec ban at execve entry (EPERM first)"),
	NOSEC_HOOK(NOSEC_HOOK_COMPAT_SYS_EXECVE, NOSEC_COMPAT_SYSCALL("execve"),
		   nosec_ban_syscall_pre, "redirect",
		   "exec ban at 32-bit execve entry (EPERM first)"),
#ifdef NOSEC_X32_SYSCALL
	NOSEC_OPTIONAL_HOOK(NOSEC_HOOK_X32_SYS_EXECVE,
			    NOSEC_X32_SYSCALL("execve"),
			    nosec_ban_syscall_pre, "redirect",
			    "exec ban at x32 execve entry (EPERM first)"),
#endif
	NOSEC_HOOK(NOSEC_HOOK_BPRM_EXECVE, "bprm_execve",
		   nosec_ban_bprm_execve_pre, "redirect",
		   "exec ban, every entry point (EPERM; on 6.1 before the file is opened)"),
	NOSEC_HOOK(NOSEC_HOOK_BPRM_CHECK, "security_bprm_check",
		   nosec_ban_bprm_check_pre, "redirect",
		   "exec ban under cred_guard_mutex (EPERM); nosecurity: read access on each file"),
	{}
};
