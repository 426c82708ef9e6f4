// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - the scope of a restricted task: what it may still reach
 * outside its own tree.  This is where ptrace access, terminal input
 * injection and new resource limits on other tasks by a restricted task
 * are denied.
 *
 * An exec ban that a task can step around by making an unrestricted task
 * of the same uid exec for it is no ban: a forced tree that attaches to
 * its parent shell, points its registers at execve("/usr/bin/passwd") and
 * detaches gets a set-UID program run with full privilege.  So, as a
 * Landlock domain scopes ptrace, a restricted task gets ptrace access (any
 * mode: attach, seize, /proc/PID/mem, process_vm_readv/writev,
 * pidfd_getfd, /proc/PID/environ, kcmp... whatever ptrace_may_access()
 * decides) only to a task whose restrictions include all of its own: its
 * own subtree, or another tree restricted at least as much.  The same
 * rule holds for PTRACE_TRACEME, where the tracer is the parent.  Access
 * from outside into a restricted task is what it was.
 *
 * Landlock goes further: each landlock_restrict_self() starts a domain of
 * its own, so that two sibling sandboxes with the same rules cannot reach
 * each other either.  A restriction here has no such identity: two trees
 * with the same restrictions may ptrace each other, as the kernel's own
 * rules (uid, capabilities, Yama, LSMs) allow, since neither can make the
 * other exec anything it could not exec itself.  Isolating one sandbox's
 * memory from another's is a question for those rules, not for an exec
 * restriction (docs/security.md).
 *
 * TIOCSTI pushes bytes into a terminal's input queue, which the shell that
 * started the restricted tree reads next: a restricted task could type a
 * command into its unrestricted parent.  It fails with EPERM for a
 * restricted task, as kernels built without LEGACY_TIOCSTI refuse it to
 * everyone.  TIOCLINUX on a virtual console is the same door (select text
 * on the screen, paste it as input: TIOCL_SETSEL, TIOCL_PASTESEL), which
 * 6.1 opens to the console's owner; a restricted task gets EPERM for
 * every TIOCLINUX subcommand, as a sandbox has no use for the others.
 *
 * prlimit64() sets the resource limits of another task of the same uid,
 * and limits survive exec: a restricted task could shrink RLIMIT_FSIZE or
 * RLIMIT_NOFILE of its parent shell, and the next set-UID program that
 * shell runs would start crippled at a point of its choosing.  New limits
 * for a task out of scope fail with EPERM; reading them is allowed.
 */
#include <linux/resource.h>
#include <linux/sched.h>
#include <linux/tty.h>

#include "nosec.h"

/*
 * May a task with flags @from reach one with flags @to?  Only if @to
 * carries every restriction @from does.
 */
static bool nosec_may_reach(unsigned int from, unsigned int to)
{
	/* Restrictions scope a task; force mode does not. */
	from &= NOSEC_TASK_RESTRICTED;
	return (to & from) == from;
}

static void nosec_scope_deny(struct pt_regs *regs, void *replacement)
{
	atomic_long_inc(&nosec_stats.scope_denied);
	nosec_hook_redirect(regs, replacement);
}

static int nosec_ptrace_access_denied(struct task_struct *child,
				      unsigned int mode)
{
	return -EPERM;
}

static int nosec_ptrace_traceme_denied(struct task_struct *parent)
{
	return -EPERM;
}

static int nosec_prlimit_denied(struct task_struct *tsk,
				unsigned int resource, struct rlimit *new_rlim,
				struct rlimit *old_rlim)
{
	return -EPERM;
}

static int nosec_file_ioctl_denied(struct file *file, unsigned int cmd,
				   unsigned long arg)
{
	return -EPERM;
}

/**
 * nosec_ptrace_access_pre() - a restricted tracer reaches only its scope
 * @regs: registers at the entry of security_ptrace_access_check() (first
 *	argument: the task to be accessed; the tracer is current)
 *
 * A denied access is redirected to return -EPERM; ptrace_may_access()
 * then refuses, and each route answers as it does for a refused access.
 */
void nosec_ptrace_access_pre(struct pt_regs *regs)
{
	struct task_struct *child = (struct task_struct *)regs->di;

	if (!nosec_may_reach(nosec_task_flags(current), nosec_task_flags(child)))
		nosec_scope_deny(regs, nosec_ptrace_access_denied);
}

/**
 * nosec_ptrace_traceme_pre() - PTRACE_TRACEME to a restricted parent
 * @regs: registers at the entry of security_ptrace_traceme() (first
 *	argument: the parent, which becomes the tracer of current)
 */
void nosec_ptrace_traceme_pre(struct pt_regs *regs)
{
	struct task_struct *parent = (struct task_struct *)regs->di;

	if (!nosec_may_reach(nosec_task_flags(parent), nosec_task_flags(current)))
		nosec_scope_deny(regs, nosec_ptrace_traceme_denied);
}

/**
 * nosec_prlimit_pre() - no new resource limits for a task out of scope
 * @regs: registers at the entry of do_prlimit() (the task, the resource,
 *	the new limits or NULL, the old limits or NULL)
 *
 * prlimit64() calls do_prlimit() on the task it named once the kernel's
 * own permission check has passed; setrlimit() calls it on current.
 */
void nosec_prlimit_pre(struct pt_regs *regs)
{
	struct task_struct *tsk = (struct task_struct *)regs->di;

	if (!regs->dx || tsk == current)
		return;
	if (!nosec_may_reach(nosec_task_flags(current), nosec_task_flags(tsk)))
		nosec_scope_deny(regs, nosec_prlimit_denied);
}

/**
 * nosec_file_ioctl_pre() - no TIOCSTI or TIOCLINUX from a restricted task
 * @regs: registers at the entry of security_file_ioctl() or
 *	security_file_ioctl_compat() (second argument: the command)
 */
void nosec_file_ioctl_pre(struct pt_regs *regs)
{
	unsigned int cmd = (unsigned int)regs->si;

	if (cmd != TIOCSTI && cmd != TIOCLINUX)
		return;
	if (nosec_task_flags(current) & NOSEC_TASK_RESTRICTED)
		nosec_scope_deny(regs, nosec_file_ioctl_denied);
}
