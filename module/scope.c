// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - the scope of a restricted task: where its ptrace access,
 * terminal input injection, new resource limits and keyring hand-over to
 * tasks restricted less are denied.  Why each channel, and what stays
 * open: docs/security.md, "Scope".
 */
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/resource.h>
#include <linux/sched.h>
#include <linux/task_work.h>
#include <linux/tty.h>

#include "task.h"
#include "hooks.h"
#include "scope.h"
#include "stats.h"

static void nosec_scope_deny(struct ftrace_regs *regs, void *replacement)
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
static void nosec_ptrace_access_pre(struct ftrace_regs *regs)
{
	struct task_struct *child = (struct task_struct *)nosec_hook_arg(regs, 0);

	if (!nosec_may_reach(nosec_task_flags(current), nosec_task_flags(child)))
		nosec_scope_deny(regs, nosec_ptrace_access_denied);
}

/**
 * nosec_ptrace_traceme_pre() - PTRACE_TRACEME to a restricted parent
 * @regs: registers at the entry of security_ptrace_traceme() (first
 *	argument: the parent, which becomes the tracer of current)
 */
static void nosec_ptrace_traceme_pre(struct ftrace_regs *regs)
{
	struct task_struct *parent = (struct task_struct *)nosec_hook_arg(regs, 0);

	if (!nosec_may_reach(nosec_task_flags(parent), nosec_task_flags(current)))
		nosec_scope_deny(regs, nosec_ptrace_traceme_denied);
}

static void nosec_ptrace_request_check(struct ftrace_regs *regs,
				       long request)
{
	struct task_struct *child = (struct task_struct *)nosec_hook_arg(regs, 0);

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
static void nosec_ptrace_request_pre(struct ftrace_regs *regs)
{
	nosec_ptrace_request_check(regs, (long)nosec_hook_arg(regs, 1));
}

/**
 * nosec_compat_ptrace_request_pre() - the same for a 32-bit tracer
 * @regs: registers at the entry of compat_arch_ptrace() (the tracee, the
 *	request as a 32-bit compat_long_t)
 */
static void nosec_compat_ptrace_request_pre(struct ftrace_regs *regs)
{
	nosec_ptrace_request_check(regs, (s32)nosec_hook_arg(regs, 1));
}

/**
 * nosec_prlimit_pre() - no new resource limits for a task out of scope
 * @regs: registers at the entry of do_prlimit() (the task, the resource,
 *	the new limits or NULL, the old limits or NULL)
 *
 * prlimit64() calls do_prlimit() on the task it named once the kernel's
 * own permission check has passed; setrlimit() calls it on current.
 */
static void nosec_prlimit_pre(struct ftrace_regs *regs)
{
	struct task_struct *tsk = (struct task_struct *)nosec_hook_arg(regs, 0);

	if (!nosec_hook_arg(regs, 2) || tsk == current)
		return;
	if (!nosec_may_reach(nosec_task_flags(current), nosec_task_flags(tsk)))
		nosec_scope_deny(regs, nosec_prlimit_denied);
}

/**
 * nosec_file_ioctl_pre() - no TIOCSTI from a restricted task
 * @regs: registers at the entry of security_file_ioctl() or
 *	security_file_ioctl_compat() (second argument: the command)
 */
static void nosec_file_ioctl_pre(struct ftrace_regs *regs)
{
	if ((unsigned int)nosec_hook_arg(regs, 1) != TIOCSTI)
		return;
	if (nosec_task_flags(current) & NOSEC_TASK_RESTRICTED)
		nosec_scope_deny(regs, nosec_file_ioctl_denied);
}

/**
 * nosec_selection_pre() - no console selection or paste from a restricted task
 * @regs: registers at the entry of set_selection_user() (TIOCL_SETSEL) or
 *	paste_selection() (TIOCL_PASTESEL)
 */
static void nosec_selection_pre(struct ftrace_regs *regs)
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
static void nosec_task_work_add_pre(struct ftrace_regs *regs)
{
	struct task_struct *task = (struct task_struct *)nosec_hook_arg(regs, 0);
	struct callback_head *work = (struct callback_head *)nosec_hook_arg(regs, 1);

	if (!nosec_session_keyring_work ||
	    (unsigned long)READ_ONCE(work->func) != nosec_session_keyring_work)
		return;
	if (!nosec_may_reach(nosec_task_flags(current), nosec_task_flags(task)))
		nosec_scope_deny(regs, nosec_task_work_add_denied);
}

/* The scope's hooks: every channel to another task it closes. */
const struct nosec_hook_spec nosec_scope_hooks[] = {
	NOSEC_HOOK(NOSEC_HOOK_PTRACE_ACCESS_CHECK,
		   "security_ptrace_access_check",
		   nosec_ptrace_access_pre, "redirect",
		   "scope: a restricted task ptraces only tasks restricted as much"),
	NOSEC_HOOK(NOSEC_HOOK_PTRACE_TRACEME, "security_ptrace_traceme",
		   nosec_ptrace_traceme_pre, "redirect",
		   "scope: PTRACE_TRACEME only to a parent restricted no more"),
	NOSEC_HOOK(NOSEC_HOOK_ARCH_PTRACE, "arch_ptrace",
		   nosec_ptrace_request_pre, "redirect",
		   "scope: no ptrace request but DETACH on a tracee out of scope"),
	NOSEC_OPTIONAL_HOOK(NOSEC_HOOK_COMPAT_ARCH_PTRACE, "compat_arch_ptrace",
			    nosec_compat_ptrace_request_pre, "redirect",
			    "scope: the same for a 32-bit tracer"),
	NOSEC_HOOK(NOSEC_HOOK_FILE_IOCTL, "security_file_ioctl",
		   nosec_file_ioctl_pre, "redirect",
		   "scope: no TIOCSTI from a restricted task"),
	NOSEC_OPTIONAL_HOOK(NOSEC_HOOK_FILE_IOCTL_COMPAT,
			    "security_file_ioctl_compat",
			    nosec_file_ioctl_pre, "redirect",
			    "scope: no TIOCSTI from a restricted task (compat)"),
	NOSEC_OPTIONAL_HOOK(NOSEC_HOOK_SET_SELECTION, "set_selection_user",
			    nosec_selection_pre, "redirect",
			    "scope: no TIOCL_SETSEL (select, mouse report) when restricted"),
	NOSEC_OPTIONAL_HOOK(NOSEC_HOOK_PASTE_SELECTION, "paste_selection",
			    nosec_selection_pre, "redirect",
			    "scope: no TIOCL_PASTESEL from a restricted task"),
	NOSEC_HOOK(NOSEC_HOOK_TASK_WORK_ADD, "task_work_add",
		   nosec_task_work_add_pre, "redirect",
		   "scope: no session keyring to a parent restricted less"),
	NOSEC_HOOK(NOSEC_HOOK_PRLIMIT, "do_prlimit",
		   nosec_prlimit_pre, "redirect",
		   "scope: no new resource limits on a task restricted less"),
	{}
};
