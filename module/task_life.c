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
#include <linux/moduleparam.h>
#include <linux/sched.h>

#include "nosec.h"

/* Test-only: make the child's allocation fail, as under memory pressure. */
static bool test_fork_enomem;
module_param(test_fork_enomem, bool, 0600);
MODULE_PARM_DESC(test_fork_enomem,
		 "test only: fail the child-state allocation of restricted forks");

typedef int (*nosec_task_alloc_fn)(struct task_struct *task,
				   unsigned long clone_flags);

static int nosec_task_alloc(struct task_struct *task,
			    unsigned long clone_flags)
{
	unsigned int inherit = nosec_task_flags(current) & NOSEC_TASK_INHERITED;
	nosec_task_alloc_fn alloc;
	struct nosec_task *t;
	int ret;

	t = READ_ONCE(test_fork_enomem) ? NULL :
					  nosec_task_prepare(task, inherit);
	if (!t) {
		atomic_long_inc(&nosec_stats.fork_enomem);
		return -ENOMEM;
	}
	alloc = (nosec_task_alloc_fn)nosec_hook_original(NOSEC_HOOK_TASK_ALLOC);
	ret = alloc(task, clone_flags);
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

/**
 * nosec_task_free_pre() - forget a task as it is freed
 * @regs: registers at the entry of security_task_free() (first argument:
 *	the task)
 */
void nosec_task_free_pre(struct pt_regs *regs)
{
	nosec_task_drop((struct task_struct *)regs->di);
}
