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
 * A tracee attached before the tracer was restricted (another thread's
 * attach racing PR_RESTRICT_TSYNC, or NOSEC_EXEC_RESTRICT_ALL's exec) is
 * as much out of scope as one attached after: every ptrace request on it
 * but PTRACE_DETACH fails with EPERM, so the tracer can let it go and do
 * nothing else to it.
 *
 * TIOCSTI pushes bytes into a terminal's input queue, which the shell that
 * started the restricted tree reads next: a restricted task could type a
 * command into its unrestricted parent.  It fails with EPERM for a
 * restricted task, as kernels built without LEGACY_TIOCSTI refuse it to
 * everyone.  TIOCLINUX on a virtual console opens the same door through
 * two of its subcommands, which 6.1 allows the console's owner:
 * TIOCL_SETSEL selects text for a later paste, or, in mode
 * TIOCL_SELMOUSEREPORT, writes a mouse report into the console's input
 * (6.12 still allows that mode without CAP_SYS_ADMIN); TIOCL_PASTESEL
 * pastes the selection as input.  The functions that do it,
 * set_selection_user() and paste_selection(), fail with EPERM for a
 * restricted task; the other subcommands (queries, blanking, scrolling)
 * put no input anywhere and work as for anyone.  Checking the functions,
 * not the subcommand byte in user memory, leaves no window in which
 * another task could change the byte after the check.
 *
 * prlimit64() sets the resource limits of another task of the same uid,
 * and limits survive exec: a restricted task could shrink RLIMIT_FSIZE or
 * RLIMIT_NOFILE of its parent shell, and the next set-UID program that
 * shell runs would start crippled at a point of its choosing.  New limits
 * for a task out of scope fail with EPERM; reading them is allowed.
 * KEYCTL_SESSION_TO_PARENT replaces the parent's session keyring, which
 * the parent's next programs run with: from a restricted task to a parent
 * out of scope, it fails with EPERM, decided where the keyring change is
 * queued to the parent, which the caller may have changed for another
 * (a subreaper) after it called.
 */
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/resource.h>
#include <linux/sched.h>
#include <linux/task_work.h>
#include <linux/tty.h>

#include "nosec.h"

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

static long nosec_ptrace_request_denied(struct task_struct *child,
					long request, unsigned long addr,
					unsigned long data)
{
	return -EPERM;
}

static int nosec_file_ioctl_denied(struct file *file, unsigned int cmd,
				   unsigned long arg)
{
	return -EPERM;
}

/* set_selection_user() and paste_selection() both return int. */
static int nosec_selection_denied(void)
{
	return -EPERM;
}

static int nosec_task_work_add_denied(struct task_struct *task,
				      struct callback_head *work,
				      enum task_work_notify_mode notify)
{
	return -EPERM;
}

/* key_change_session_keyring(), the work KEYCTL_SESSION_TO_PARENT queues. */
static unsigned long nosec_session_keyring_work;

/**
 * nosec_scope_prepare() - find what the scope's hooks compare against
 *
 * A kernel without keyrings has no key_change_session_keyring(): then no
 * work is compared, as none can be a session keyring.
 */
void nosec_scope_prepare(void)
{
	unsigned long addr;

	if (!nosec_function_entry("key_change_session_keyring", &addr))
		nosec_session_keyring_work = addr;
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

static void nosec_ptrace_request_check(struct pt_regs *regs, long request)
{
	struct task_struct *child = (struct task_struct *)regs->di;

	if (request == PTRACE_DETACH)
		return;
	if (!nosec_may_reach(nosec_task_flags(current), nosec_task_flags(child)))
		nosec_scope_deny(regs, nosec_ptrace_request_denied);
}

/**
 * nosec_ptrace_request_pre() - no ptrace request on a tracee out of scope
 * @regs: registers at the entry of arch_ptrace() (the tracee, the request
 *	as a long), which ptrace(2) calls for every request on an attached
 *	tracee
 */
void nosec_ptrace_request_pre(struct pt_regs *regs)
{
	nosec_ptrace_request_check(regs, (long)regs->si);
}

/**
 * nosec_compat_ptrace_request_pre() - the same for a 32-bit tracer
 * @regs: registers at the entry of compat_arch_ptrace() (the tracee, the
 *	request as a 32-bit compat_long_t)
 */
void nosec_compat_ptrace_request_pre(struct pt_regs *regs)
{
	nosec_ptrace_request_check(regs, (s32)regs->si);
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
 * nosec_file_ioctl_pre() - no TIOCSTI from a restricted task
 * @regs: registers at the entry of security_file_ioctl() or
 *	security_file_ioctl_compat() (second argument: the command)
 */
void nosec_file_ioctl_pre(struct pt_regs *regs)
{
	if ((unsigned int)regs->si != TIOCSTI)
		return;
	if (nosec_task_flags(current) & NOSEC_TASK_RESTRICTED)
		nosec_scope_deny(regs, nosec_file_ioctl_denied);
}

/**
 * nosec_selection_pre() - no console selection or paste from a restricted task
 * @regs: registers at the entry of set_selection_user() (TIOCL_SETSEL) or
 *	paste_selection() (TIOCL_PASTESEL)
 */
void nosec_selection_pre(struct pt_regs *regs)
{
	if (nosec_task_flags(current) & NOSEC_TASK_RESTRICTED)
		nosec_scope_deny(regs, nosec_selection_denied);
}

/**
 * nosec_task_work_add_pre() - no session keyring to a parent out of scope
 * @regs: registers at the entry of task_work_add() (the task, the work)
 *
 * KEYCTL_SESSION_TO_PARENT reads the parent and queues the keyring change
 * to it with task_work_add(), both under tasklist_lock: checked here, the
 * parent is the one that would get the keyring, even if the caller was
 * reparented a moment before.  The keyctl then fails with EPERM.  Every
 * other work passes after one comparison (this runs in any context, NMI
 * included: no lock, no lookup before the comparison).
 */
void nosec_task_work_add_pre(struct pt_regs *regs)
{
	struct task_struct *task = (struct task_struct *)regs->di;
	struct callback_head *work = (struct callback_head *)regs->si;

	if (!nosec_session_keyring_work ||
	    (unsigned long)READ_ONCE(work->func) != nosec_session_keyring_work)
		return;
	if (!nosec_may_reach(nosec_task_flags(current), nosec_task_flags(task)))
		nosec_scope_deny(regs, nosec_task_work_add_denied);
}
