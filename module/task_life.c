// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - task lifetime: inheritance at fork, state dropped at free.
 *
 * copy_process() calls security_task_alloc() for every new task, before
 * it can run.  For a child of a task with flags, that call is replaced:
 * the child's entry is allocated first (failing the fork with ENOMEM if it
 * cannot be), then the kernel's security_task_alloc() runs, and only if it
 * succeeds is the entry published.  A restricted parent therefore gets a
 * restricted child or no child.  A failed fork after that point frees the
 * task through security_task_free(), which drops the entry.
 *
 * A parent's flags can change during its fork: another thread of its
 * group may restrict them all (restrict.c).  So the child is given its
 * parent's flags again at cgroup_can_fork(), where the fork can still
 * fail, and at cgroup_post_fork(), after copy_process() has linked the
 * child into its group and before the child first runs.
 */
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>

#include "task.h"
#include "exec.h"
#include "hooks.h"
#include "session.h"
#include "fault_inject.h"
#include "stats.h"

static int nosec_task_alloc(struct task_struct *task,
			    unsigned long clone_flags)
{
	/* Only reached when current has flags to pass on. */
	unsigned int inherit = nosec_task_flags(current) & NOSEC_TASK_INHERITED;
	struct nosec_task *t;
	int ret;

	/* The test build can fail it, as memory pressure would. */
	t = nosec_fault_fork_enomem() ? NULL :
					nosec_task_prepare(task, inherit);
	if (!t) {
		atomic_long_inc(&nosec_stats.fork_enomem);
		return -ENOMEM;
	}
	ret = (int)nosec_hook_call(NOSEC_HOOK_TASK_ALLOC, (unsigned long)task,
				   clone_flags);
	if (ret) {
		nosec_task_discard(t);
		return ret;
	}
	nosec_task_publish(t);
	return 0;
}

/**
 * nosec_task_alloc_pre() - inheritance at fork
 * @regs: registers at the entry of security_task_alloc() (first argument:
 *	the new task)
 *
 * Clears any entry left at the new task's address (a free whose hook
 * missed), so no new task inherits stale state; redirects when the parent
 * has flags to pass on.
 */
static void nosec_task_alloc_pre(struct ftrace_regs *regs)
{
	nosec_task_drop((struct task_struct *)nosec_hook_arg(regs, 0));
	if (nosec_task_flags(current) & NOSEC_TASK_INHERITED)
		nosec_hook_redirect(regs, nosec_task_alloc);
}

static int nosec_fork_refused(struct task_struct *child,
			      struct kernel_clone_args *kargs)
{
	atomic_long_inc(&nosec_stats.fork_refused);
	return -ENOMEM;
}

/* Give @child the flags current passes on; 0 or -ENOMEM. */
static int nosec_child_inherit(struct task_struct *child)
{
	unsigned int inherit = nosec_task_flags(current) & NOSEC_TASK_INHERITED;

	if (nosec_fault_fork_enomem())
		return -ENOMEM;
	return nosec_task_add_flags(child, inherit);
}

/* cgroup_can_fork() for a child that lacks some of its parent's flags. */
static int nosec_fork_inherit(struct task_struct *child,
			      struct kernel_clone_args *kargs)
{
	if (nosec_child_inherit(child)) {
		atomic_long_inc(&nosec_stats.fork_enomem);
		return -ENOMEM;
	}
	return (int)nosec_hook_call(NOSEC_HOOK_CGROUP_CAN_FORK,
				    (unsigned long)child, (unsigned long)kargs);
}

/**
 * nosec_fork_check_pre() - the child carries its parent's flags, or no fork
 * @regs: registers at the entry of cgroup_can_fork() (first argument: the
 *	new task), which copy_process() calls after security_task_alloc()
 *	and which may still fail the fork
 *
 * The new task must carry exactly the flags its parent passes on.  If it
 * lacks some (the parent's group was restricted during the fork, or the
 * inheritance hook missed), they are added, or the fork fails with ENOMEM.
 * If it carries others, they are stale (a free and an allocation at the
 * same address both missed): dropped when the parent passes none,
 * otherwise the fork fails with ENOMEM; the failed fork frees the task and
 * whatever it carried.  A restricted parent never gets an unrestricted
 * child.
 */
static void nosec_fork_check_pre(struct ftrace_regs *regs)
{
	struct task_struct *child = (struct task_struct *)nosec_hook_arg(regs, 0);
	unsigned int want = nosec_task_flags(current) & NOSEC_TASK_INHERITED;
	unsigned int have = nosec_task_flags(child);

	if (have == want)
		return;
	if (!want) {
		nosec_task_drop(child);
		return;
	}
	nosec_hook_redirect(regs, have & ~want ? nosec_fork_refused :
						 nosec_fork_inherit);
}

/* cgroup_post_fork() for a child that lacks some of its parent's flags. */
static void nosec_fork_done_inherit(struct task_struct *child,
				    struct kernel_clone_args *kargs)
{
	nosec_hook_call(NOSEC_HOOK_CGROUP_POST_FORK, (unsigned long)child,
			(unsigned long)kargs);
	/* Too late to fail the fork: the child must never run. */
	if (nosec_child_inherit(child)) {
		atomic_long_inc(&nosec_stats.fork_enomem);
		send_sig(SIGKILL, child, 1);
	}
}

/**
 * nosec_fork_done_pre() - the child carries its parent's flags as it is born
 * @regs: registers at the entry of cgroup_post_fork() (first argument: the
 *	new task, linked into its group, not yet run)
 *
 * For a parent whose group was restricted between cgroup_can_fork() and
 * the child's link (restrict.c): the child gets the flags; if its entry
 * cannot be allocated, SIGKILL (for a thread, its whole group): the child
 * never runs.  A restricted child of a thread whose new session keyring is
 * still pending gets it before it first runs (session.c).
 */
static void nosec_fork_done_pre(struct ftrace_regs *regs)
{
	struct task_struct *child = (struct task_struct *)nosec_hook_arg(regs, 0);
	unsigned int want = nosec_task_flags(current) & NOSEC_TASK_INHERITED;

	if (want & NOSEC_TASK_RESTRICTED)
		nosec_session_fork(child);
	if (want & ~nosec_task_flags(child))
		nosec_hook_redirect(regs, nosec_fork_done_inherit);
}

/**
 * nosec_task_free_pre() - forget a task as it is freed
 * @regs: registers at the entry of security_task_free() (first argument:
 *	the task)
 */
static void nosec_task_free_pre(struct ftrace_regs *regs)
{
	nosec_task_drop((struct task_struct *)nosec_hook_arg(regs, 0));
}

/* The hooks that follow tasks through fork and exit. */
const struct nosec_hook_spec nosec_task_life_hooks[] = {
	NOSEC_HOOK(NOSEC_HOOK_TASK_FREE, "security_task_free",
		   nosec_task_free_pre, "observe",
		   "drop the state of a task being freed"),
	NOSEC_HOOK(NOSEC_HOOK_TASK_ALLOC, "security_task_alloc",
		   nosec_task_alloc_pre, "redirect",
		   "copy a restricted parent's flags to the child, or fail the fork"),
	NOSEC_HOOK(NOSEC_HOOK_CGROUP_CAN_FORK, "cgroup_can_fork",
		   nosec_fork_check_pre, "redirect",
		   "the child carries the parent's flags now, or no fork"),
	NOSEC_HOOK(NOSEC_HOOK_CGROUP_POST_FORK, "cgroup_post_fork",
		   nosec_fork_done_pre, "redirect",
		   "a parent restricted during its fork: the child too, before it runs"),
	{}
};
