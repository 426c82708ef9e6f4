// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - who a restriction covers: PR_RESTRICT_ME is all or nothing
 * (docs/security.md, "All or nothing"; the races: nosec_restrict()).
 */
#include <linux/list.h>
#include <linux/mm_types.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>

#include "task.h"
#include "restrict.h"
#include "exec.h"
#include "scope.h"

/* Would @t stay outside a restriction of @flags?  Exiting tasks run no code. */
static bool nosec_left_out(struct task_struct *t, unsigned int flags)
{
	return !(t->flags & PF_EXITING) &&
	       !nosec_may_reach(flags, nosec_task_flags(t));
}

/*
 * A task @tracer traces, or NULL.  The list changes under tasklist_lock,
 * which a module cannot take; its head is read once, and the task it
 * points to is freed only after a grace period (caller under RCU).  Any
 * tracee refuses a restriction, in scope or not.
 */
static struct task_struct *nosec_tracee(struct task_struct *tracer)
{
	struct list_head *first = READ_ONCE(tracer->ptraced.next);

	if (first == &tracer->ptraced)
		return NULL;
	return list_entry(first, struct task_struct, ptrace_entry);
}

/*
 * A task outside current's thread group that shares its memory and stays
 * outside @flags, or NULL.  Under the group's siglock and RCU.  Each task
 * that shares the memory holds a reference in mm_users: when the group's
 * own threads account for all of them, no other task shares it, and the
 * task list is not walked.  The count is read first: a thread clears its
 * ->mm before it drops its reference (exit_mm()), so a thread still seen
 * with the mm after the barrier was counted, and a thread exiting
 * meanwhile cannot make the threads seem to hold more references than
 * were counted.  Kernel threads that borrow the mm for a moment run no
 * user code and are not counted, as in the kernel's own
 * current_is_single_threaded().
 */
static struct task_struct *nosec_mm_sharer_left_out(unsigned int flags)
{
	struct mm_struct *mm = current->mm;
	int users = atomic_read(&mm->mm_users), own = 0;
	struct task_struct *p, *t;

	/* Pairs with the full barrier of mmput()'s decrement. */
	smp_rmb();
	for_each_thread(current, t)
		if (READ_ONCE(t->mm) == mm)
			own++;
	if (users <= own)
		return NULL;
	for_each_process(p) {
		if ((p->flags & PF_KTHREAD) || same_thread_group(p, current))
			continue;
		for_each_thread(p, t)
			if (READ_ONCE(t->mm) == mm && nosec_left_out(t, flags))
				return t;
	}
	return NULL;
}

/*
 * The task that keeps a restriction of @flags from holding, or NULL.
 * @thread_group: every thread of current's group is restricted with it;
 * else only current, and any other thread must carry @flags already.
 * Under the group's siglock and RCU.
 */
static struct task_struct *nosec_restrict_blocker(unsigned int flags,
						  bool thread_group)
{
	struct task_struct *t, *found;

	for_each_thread(current, t) {
		if (t == current || thread_group)
			found = nosec_tracee(t);
		else
			found = nosec_left_out(t, flags) ? t : NULL;
		if (found)
			return found;
	}
	return nosec_mm_sharer_left_out(flags);
}

/*
 * Threads of current's group that run code and have no entry.  Under the
 * group's siglock (or RCU) and the task table's lock.
 */
static unsigned int nosec_threads_without_entry(void)
{
	struct task_struct *t;
	unsigned int n = 0;

	for_each_thread(current, t)
		if (!(t->flags & PF_EXITING) && !nosec_task_find(t))
			n++;
	return n;
}

/* Take one entry off @spares (there is one). */
static struct nosec_task *nosec_spare_take(struct hlist_head *spares)
{
	struct nosec_task *t = hlist_entry(spares->first, struct nosec_task,
					   node);

	hlist_del(&t->node);
	return t;
}

/* Add @set to @t, with an entry from @spares (there is one) if it has none. */
static void nosec_restrict_task(struct task_struct *t, unsigned int set,
				struct hlist_head *spares)
{
	struct nosec_task *spare = NULL;

	if (nosec_task_add_flags_locked(t, set, &spare))
		return;
	spare = nosec_spare_take(spares);
	nosec_task_add_flags_locked(t, set, &spare);
}

/*
 * The section that decides.  Under RCU, the group's siglock and the task
 * table's lock: the blocker, or, if there is none, @set for the caller
 * alone or (@thread_group) for every thread, from @spares.
 */
static int nosec_restrict_locked(unsigned int set, bool thread_group,
				 struct hlist_head *spares, pid_t *blocker)
{
	unsigned int flags = nosec_task_flags(current) | set;
	struct task_struct *b, *t;

	b = nosec_restrict_blocker(flags, thread_group);
	if (b) {
		*blocker = task_pid_vnr(b);
		return -EBUSY;
	}
	if (!thread_group) {
		nosec_restrict_task(current, set, spares);
		return 0;
	}
	for_each_thread(current, t)
		if (!(t->flags & PF_EXITING))
			nosec_restrict_task(t, set, spares);
	return 0;
}

/**
 * nosec_restrict() - add restrictions to the caller, all or nothing
 * @set: NOSEC_TASK_* restriction bits
 * @thread_group: restrict every thread of the caller's group with it
 *	(PR_RESTRICT_TSYNC)
 * @blocker: where the thread ID (in the caller's pid namespace) of a task
 *	that keeps the restriction from holding is stored on -EBUSY
 *
 * Entries for the threads that have none (with @thread_group; else for
 * the caller) are allocated first, outside any lock; then, in one section,
 * they are counted again (more threads may have been made meanwhile: then
 * the section is left and more entries allocated), the blocker is looked
 * for, and the flags are set.  Process context (allocates).
 *
 * A restriction of one task is no boundary while another task shares its
 * memory (a sibling thread, an io_uring SQPOLL or io-wq thread, a process
 * made with CLONE_VM, a vfork parent among them) or while it traces a task
 * outside it: so the caller is restricted only when every such task
 * already carries the restriction, or, with @thread_group, every thread
 * of its group is restricted with it, as seccomp's and Landlock's TSYNC do.
 *
 * Races.  Only a task that shares the caller's memory can make another
 * one, and only a tracer attaches its tracees: a caller alone has no one
 * to race with, and what it checked holds until it is restricted (threads
 * that exit meanwhile only take sharers away; how they are counted:
 * nosec_mm_sharer_left_out()).  For a thread group, the check and the new
 * flags are made in one section under the group's siglock, which
 * copy_process() holds while it links a task made by any thread of the
 * group (a thread, or a process made with CLONE_VM) into the group's
 * thread list or the task list.  A task linked before the section is seen
 * in it, checked or restricted.  One linked after it was made by a
 * creator whose flags may have changed under its fork: task_life.c gives
 * every child its creator's flags again at cgroup_can_fork() and at
 * cgroup_post_fork(), after the link and before the child first runs.  A
 * tracee that another thread attached after its access check passed but
 * before the section is out of scope when it is used: scope.c refuses
 * every ptrace request on it but PTRACE_DETACH.
 *
 * Return: 0; -EBUSY when a task that shares the caller's memory (another
 * thread of its group, unless @thread_group; a process outside it) does
 * not carry the restriction already, or the caller (with @thread_group,
 * any thread of its group) traces a task; -ENOMEM.  On error nothing
 * changed.
 */
int nosec_restrict(unsigned int set, bool thread_group, pid_t *blocker)
{
	/* Only current's own exec changes current's sighand. */
	struct sighand_struct *sighand = rcu_dereference_protected(current->sighand,
								   true);
	unsigned int have = 0, need = 1;
	HLIST_HEAD(spares);
	int ret;

	for (;;) {
		for (; have < need; have++) {
			struct nosec_task *t = nosec_task_prepare(current, 0);

			if (!t) {
				ret = -ENOMEM;
				goto out_free_spares;
			}
			hlist_add_head(&t->node, &spares);
		}
		rcu_read_lock();
		spin_lock_irq(&sighand->siglock);
		nosec_task_table_lock();
		need = thread_group ? nosec_threads_without_entry() : 1;
		if (need <= have)
			break;
		nosec_task_table_unlock();
		spin_unlock_irq(&sighand->siglock);
		rcu_read_unlock();
	}
	ret = nosec_restrict_locked(set, thread_group, &spares, blocker);
	nosec_task_table_unlock();
	spin_unlock_irq(&sighand->siglock);
	rcu_read_unlock();

out_free_spares:
	while (!hlist_empty(&spares))
		nosec_task_discard(nosec_spare_take(&spares));
	return ret;
}
