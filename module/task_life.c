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
 */
#include <linux/sched.h>
#include <linux/sched/task.h>

#include "nosec.h"

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
void nosec_task_alloc_pre(struct pt_regs *regs)
{
	nosec_task_drop((struct task_struct *)regs->di);
	if (nosec_task_flags(current) & NOSEC_TASK_INHERITED)
		nosec_hook_redirect(regs, nosec_task_alloc);
}

static int nosec_fork_refused(struct task_struct *child,
			      struct kernel_clone_args *kargs)
{
	atomic_long_inc(&nosec_stats.fork_refused);
	return -ENOMEM;
}

/**
 * nosec_fork_check_pre() - the backstop of inheritance
 * @regs: registers at the entry of cgroup_can_fork() (first argument: the
 *	new task), which copy_process() calls after security_task_alloc()
 *	and which may still fail the fork
 *
 * The new task must carry exactly the flags its parent passes on.  If it
 * carries others, they are stale (a free and an allocation at the same
 * address both missed): dropped when the parent passes none, otherwise
 * the fork fails with ENOMEM, as when the child's state cannot be
 * allocated; the failed fork frees the task and whatever it carried.  A
 * restricted parent never gets an unrestricted child, even when the
 * inheritance hook misses.
 */
void nosec_fork_check_pre(struct pt_regs *regs)
{
	struct task_struct *child = (struct task_struct *)regs->di;
	unsigned int want = nosec_task_flags(current) & NOSEC_TASK_INHERITED;
	unsigned int have = nosec_task_flags(child);

	if (have == want)
		return;
	if (!want) {
		nosec_task_drop(child);
		return;
	}
	nosec_hook_redirect(regs, nosec_fork_refused);
}

/**
 * nosec_task_free_pre() - forget a task as it is freed
 * @regs: registers at the entry of security_task_free() (first argument:
 *	the task)
 */
void nosec_task_free_pre(struct pt_regs *regs)
{
	nosec_task_drop((struct task_struct *)regs->di);
}
