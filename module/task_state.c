// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - per-task state: a hashtable of struct nosec_task keyed by
 * task_struct address, read under RCU, written under one spinlock.
 *
 * Only tasks that carry a flag have an entry.  An entry is created by the
 * task itself (prctl, ioctl), by its parent in copy_process() before the
 * child first runs, or by a thread that restricts its whole thread group
 * (restrict.c), and removed when the task is freed, or by the task itself
 * when its last flag goes.  Flags change by atomic operations; an entry is
 * created for another task, and removed when empty, under the lock, so
 * that a task never gets two entries and a flag added by another task is
 * never lost with an entry its own task is removing.
 *
 * An entry with NOSEC_TASK_RESTRICT_EXEC holds a reference on the module:
 * a restriction cannot be unloaded away.
 */
#include <linux/hashtable.h>
#include <linux/key.h>
#include <linux/module.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "task.h"
#include "exec.h"
#include "scope.h"

#define NOSEC_TASK_HASH_BITS	12

static DEFINE_HASHTABLE(nosec_tasks, NOSEC_TASK_HASH_BITS);
/* Taken with interrupts off: tasks are freed from RCU callbacks. */
static DEFINE_SPINLOCK(nosec_tasks_lock);
atomic_long_t nosec_tasks_nr = ATOMIC_LONG_INIT(0);

/**
 * nosec_task_find() - look up the entry of a task
 * @task: the task
 *
 * The walk passes other tasks' entries, which are freed after a grace
 * period at any time: the caller is inside an RCU read-side section
 * (rcu_read_lock(), or a hook handler, which runs with preemption off),
 * and uses the entry only inside it.  For the current task's own entry,
 * which may be used longer, see nosec_task_current().
 *
 * Return: the entry, or NULL when @task carries no state.
 */
struct nosec_task *nosec_task_find(struct task_struct *task)
{
	struct nosec_task *t;

	RCU_LOCKDEP_WARN(!rcu_read_lock_any_held(),
			 "task table walked outside an RCU read-side section");
	if (!nosec_task_count())
		return NULL;
	hash_for_each_possible_rcu(nosec_tasks, t, node, (unsigned long)task)
		if (t->task == task)
			return t;
	return NULL;
}

/**
 * nosec_task_current() - the current task's own entry
 *
 * Context: any.  The lookup is inside an RCU read-side section; the entry
 * may be used after it ends.  While the task lives, only the task itself
 * removes its entry, in nosec_task_clear_flags(); anything else frees it
 * with the task, or at unload, once no task runs module code.
 *
 * Return: the entry, or NULL when the current task carries no state.
 */
struct nosec_task *nosec_task_current(void)
{
	struct nosec_task *t;

	rcu_read_lock();
	t = nosec_task_find(current);
	rcu_read_unlock();
	return t;
}

/**
 * nosec_task_flags() - the NOSEC_TASK_* flags of a task
 * @task: the task
 *
 * Safe in any context.
 *
 * Return: the flags, 0 for a task without state.
 */
unsigned int nosec_task_flags(struct task_struct *task)
{
	struct nosec_task *t;
	unsigned int flags = 0;

	rcu_read_lock();
	t = nosec_task_find(task);
	if (t)
		flags = nosec_entry_flags(t);
	rcu_read_unlock();
	return flags;
}

/**
 * nosec_task_prepare() - allocate an entry, not yet visible
 * @task: the task it will describe
 * @flags: its initial flags
 *
 * Process context only (sleeps).
 *
 * Return: the entry, or NULL when memory is short.
 */
struct nosec_task *nosec_task_prepare(struct task_struct *task,
				      unsigned int flags)
{
	struct nosec_task *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return NULL;
	t->task = task;
	atomic_set(&t->flags, flags);
	return t;
}

/**
 * nosec_task_discard() - free an entry that was never published
 * @t: the entry, or NULL
 */
void nosec_task_discard(struct nosec_task *t)
{
	kfree(t);
}

/**
 * nosec_task_table_lock() - take the lock that orders entries' creation and removal
 *
 * For nosec_task_add_flags_locked(), which restrict.c calls for many
 * tasks at once.  Context: interrupts off, and kept off until after
 * nosec_task_table_unlock(): the caller holds an interrupt-safe lock
 * (the group's siglock), which this must not re-enable them under.
 */
void nosec_task_table_lock(void)
	__acquires(&nosec_tasks_lock)
{
	lockdep_assert_irqs_disabled();
	spin_lock(&nosec_tasks_lock);
}

/**
 * nosec_task_table_unlock() - release what nosec_task_table_lock() took
 *
 * Leaves interrupts off, as they were.
 */
void nosec_task_table_unlock(void)
	__releases(&nosec_tasks_lock)
{
	spin_unlock(&nosec_tasks_lock);
}

/* Or @set into @t's flags; the first restriction takes the module reference. */
static void nosec_entry_or(struct nosec_task *t, unsigned int set)
{
	unsigned int old = (unsigned int)atomic_fetch_or(set, &t->flags);

	if ((set & NOSEC_TASK_RESTRICT_EXEC) &&
	    !(old & NOSEC_TASK_RESTRICT_EXEC))
		__module_get(THIS_MODULE);
}

static void nosec_entry_link(struct nosec_task *t)
{
	hash_add_rcu(nosec_tasks, &t->node, (unsigned long)t->task);
	atomic_long_inc(&nosec_tasks_nr);
}

/**
 * nosec_task_add_flags_locked() - add flags to any task
 * @task: the task; alive, and not yet freed (security_task_free())
 * @set: NOSEC_TASK_* bits to add
 * @spare: a prepared entry (nosec_task_prepare(), no flags), or NULL
 *
 * Context: under nosec_task_table_lock().  Neither sleeps nor allocates: a
 * task without an entry gets *@spare, which is then consumed (set to
 * NULL).
 *
 * Return: false when @task has no entry and no spare was given (nothing
 * changed), true otherwise.
 */
bool nosec_task_add_flags_locked(struct task_struct *task, unsigned int set,
				 struct nosec_task **spare)
{
	struct nosec_task *t;

	lockdep_assert_held(&nosec_tasks_lock);
	hash_for_each_possible(nosec_tasks, t, node, (unsigned long)task)
		if (t->task == task) {
			nosec_entry_or(t, set);
			return true;
		}
	t = *spare;
	if (!t)
		return false;
	*spare = NULL;
	t->task = task;
	nosec_entry_or(t, set);
	nosec_entry_link(t);
	return true;
}

/**
 * nosec_task_publish() - make a prepared entry visible
 * @t: the entry
 *
 * Takes the module reference a restriction holds.  Should the task have
 * an entry already (another thread restricted the group meanwhile), @t's
 * flags are added to that one and @t is freed.
 */
void nosec_task_publish(struct nosec_task *t)
{
	unsigned int set = nosec_entry_flags(t);
	struct nosec_task *spare = t;
	unsigned long irqflags;

	atomic_set(&t->flags, 0);
	spin_lock_irqsave(&nosec_tasks_lock, irqflags);
	nosec_task_add_flags_locked(t->task, set, &spare);
	spin_unlock_irqrestore(&nosec_tasks_lock, irqflags);
	nosec_task_discard(spare);
}

static void nosec_task_unlink(struct nosec_task *t)
{
	hash_del_rcu(&t->node);
	atomic_long_dec(&nosec_tasks_nr);
}

/**
 * nosec_task_add_flags() - add flags to a task
 * @task: the task: current, or a child that has not run yet
 * @set: NOSEC_TASK_* bits to set
 *
 * Creates the entry if the task has none, which may sleep (process
 * context only); on a task that has an entry it neither sleeps nor fails.
 *
 * Return: 0, or -ENOMEM with nothing changed.
 */
int nosec_task_add_flags(struct task_struct *task, unsigned int set)
{
	struct nosec_task *t;

	rcu_read_lock();
	t = nosec_task_find(task);
	if (t)
		nosec_entry_or(t, set);
	rcu_read_unlock();
	if (t)
		return 0;
	t = nosec_task_prepare(task, set);
	if (!t)
		return -ENOMEM;
	nosec_task_publish(t);
	return 0;
}

/**
 * nosec_task_set_flags() - add flags to the current task
 * @set: NOSEC_TASK_* bits to set
 *
 * As nosec_task_add_flags() for current.
 *
 * Return: 0, or -ENOMEM with nothing changed.
 */
int nosec_task_set_flags(unsigned int set)
{
	return nosec_task_add_flags(current, set);
}

/**
 * nosec_task_clear_flags() - remove flags from the current task
 * @clear: NOSEC_TASK_* bits to clear; never a restriction
 *
 * An entry left without flags is removed.  Safe in any context.
 */
void nosec_task_clear_flags(unsigned int clear)
{
	struct nosec_task *t = nosec_task_current();
	unsigned long irqflags;
	bool empty;

	WARN_ON_ONCE(clear & NOSEC_TASK_RESTRICTED);
	if (!t)
		return;
	if (atomic_fetch_andnot(clear, &t->flags) & ~clear)
		return;
	/* Empty, unless another thread added a flag meanwhile. */
	spin_lock_irqsave(&nosec_tasks_lock, irqflags);
	empty = !atomic_read(&t->flags);
	if (empty)
		nosec_task_unlink(t);
	spin_unlock_irqrestore(&nosec_tasks_lock, irqflags);
	if (empty)
		kfree_rcu(t, rcu);
}

/**
 * nosec_task_drop() - forget a task that is being freed
 * @task: the task
 *
 * Also used on a task under construction, to clear any entry a missed
 * free left at the same address.  Safe in any context.
 */
void nosec_task_drop(struct task_struct *task)
{
	struct nosec_task *t;
	unsigned long irqflags;
	bool present;

	/* Most tasks have no entry: look without the lock first. */
	rcu_read_lock();
	present = nosec_task_find(task);
	rcu_read_unlock();
	if (!present)
		return;

	spin_lock_irqsave(&nosec_tasks_lock, irqflags);
	hash_for_each_possible(nosec_tasks, t, node, (unsigned long)task)
		if (t->task == task)
			break;
	if (t)
		nosec_task_unlink(t);
	spin_unlock_irqrestore(&nosec_tasks_lock, irqflags);
	if (!t)
		return;
	if (nosec_entry_flags(t) & NOSEC_TASK_RESTRICT_EXEC)
		module_put(THIS_MODULE);
	/* Its task is gone: nobody else touches the arming. */
	kfree(t->arming);
	key_put(t->new_session);
	kfree_rcu(t, rcu);
}

/**
 * nosec_task_drop_all() - free every entry, at module unload
 *
 * Called once no probe can run any more.  A restricted task pins the
 * module, so only entries without a restriction can be left here.
 */
void nosec_task_drop_all(void)
{
	struct hlist_node *tmp;
	struct nosec_task *t;
	unsigned long irqflags;
	int bkt;

	spin_lock_irqsave(&nosec_tasks_lock, irqflags);
	hash_for_each_safe(nosec_tasks, bkt, tmp, t, node) {
		nosec_task_unlink(t);
		kfree(t->arming);
		key_put(t->new_session);
		kfree_rcu(t, rcu);
	}
	spin_unlock_irqrestore(&nosec_tasks_lock, irqflags);
}
