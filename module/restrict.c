// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - who a restriction covers: PR_RESTRICT_ME is all or nothing
 * (docs/security.md, "All or nothing"; the races: nosec_restrict()).
 */
#include <linux/fdtable.h>
#include <linux/fs_struct.h>
#include <linux/list.h>
#include <linux/mm_types.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>

#include "compat.h"
#include "task.h"
#include "restrict.h"
#include "exec.h"
#include "scope.h"
#include "session.h"

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
 * What a task shares with current and a task outside may use: its memory
 * (it runs what the restricted task writes there), its fs_struct (its
 * working directory and root, which the restricted task may move under a
 * program of its own) and its files_struct (its descriptors, which the
 * restricted task may replace).
 */
enum nosec_shared { NOSEC_SHARED_MM, NOSEC_SHARED_FS, NOSEC_SHARED_FILES };

/* What @t shares as @what (read once; the task may be letting it go). */
static const void *nosec_shared_of(struct task_struct *t, enum nosec_shared what)
{
	switch (what) {
	case NOSEC_SHARED_MM:
		return READ_ONCE(t->mm);
	case NOSEC_SHARED_FS:
		return READ_ONCE(nosec_task_fs(t));
	default:
		return READ_ONCE(t->files);
	}
}

/*
 * The references to current's @what: every task that shares it holds
 * one.  Read without fs_struct's lock, which must not be taken under the
 * group's siglock (an interrupt-safe lock).
 */
static int nosec_shared_users(enum nosec_shared what)
{
	switch (what) {
	case NOSEC_SHARED_MM:
		return atomic_read(&current->mm->mm_users);
	case NOSEC_SHARED_FS:
		return READ_ONCE(nosec_task_fs(current)->users);
	default:
		return atomic_read(&current->files->count);
	}
}

/* Does current, or with @thread_group a thread of its group, hold @it? */
static bool nosec_group_holds(const void *it, enum nosec_shared what,
			      bool thread_group)
{
	struct task_struct *t;

	if (it == nosec_shared_of(current, what))
		return true;
	if (thread_group)
		for_each_thread(current, t)
			if (nosec_shared_of(t, what) == it)
				return true;
	return false;
}

/*
 * A task outside current's thread group that shares its @what (with
 * @thread_group, or another thread's of the group: a thread may have an
 * fs_struct or files_struct of its own, from unshare(), whose count is
 * not read here, so the task list is walked) and stays outside @flags,
 * or NULL.  Under the group's siglock and RCU.  Each task
 * that shares it holds a reference: when the group's own threads account
 * for all of them, no other task shares it, and the task list is not
 * walked.  The count is read first, and the group's own threads counted
 * after the barrier are only those not exiting: a thread marks itself
 * exiting (PF_EXITING) before it drops any of these references, with a
 * full barrier between (exit_files()'s and mmput()'s decrements come
 * first), so a reference seen dropped belongs to a thread seen exiting,
 * and the threads cannot seem to hold more references than were counted.
 * An exiting thread still holding one only makes the count look higher:
 * then the task list is walked, and finds no one but a real sharer.  A
 * task being made meanwhile holds its reference before it is linked into
 * the task list, where the walk would see it: but only a task that shares
 * current's @what can make one that does, and that task is seen here.
 * Kernel threads that borrow the mm for a moment run no user code and are
 * not counted, as in the kernel's own current_is_single_threaded().
 */
static struct task_struct *nosec_sharer_left_out(unsigned int flags,
						 enum nosec_shared what,
						 bool thread_group)
{
	const void *mine = nosec_shared_of(current, what), *it;
	int users = nosec_shared_users(what), own = 0, others = 0;
	struct task_struct *p, *t;

	/* Pairs with the full barrier between PF_EXITING and the drop. */
	smp_rmb();
	for_each_thread(current, t) {
		it = nosec_shared_of(t, what);
		if (it == mine)
			own += !(READ_ONCE(t->flags) & PF_EXITING);
		else
			others += !!it;
	}
	if (users <= own && !(thread_group && others))
		return NULL;
	for_each_process(p) {
		if ((p->flags & PF_KTHREAD) || same_thread_group(p, current))
			continue;
		for_each_thread(p, t) {
			it = nosec_shared_of(t, what);
			if (it && nosec_group_holds(it, what, thread_group) &&
			    nosec_left_out(t, flags))
				return t;
		}
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
	return nosec_sharer_left_out(flags, NOSEC_SHARED_MM, thread_group) ?:
	       nosec_sharer_left_out(flags, NOSEC_SHARED_FS, thread_group) ?:
	       nosec_sharer_left_out(flags, NOSEC_SHARED_FILES, thread_group);
}

/*
 * Threads of current's group that run code and have no entry, and (in
 * *@others) those other than current.  Under the group's siglock (or RCU)
 * and the task table's lock.
 */
static unsigned int nosec_threads_without_entry(unsigned int *others)
{
	struct task_struct *t;
	unsigned int n = 0;

	*others = 0;
	for_each_thread(current, t) {
		if (t->flags & PF_EXITING)
			continue;
		if (!nosec_task_find(t))
			n++;
		if (t != current)
			(*others)++;
	}
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

/*
 * Add @set to @t, with an entry from @spares (there is one) if it has
 * none; a thread other than current gets the new session keyring of
 * @session first, if there is one (current commits its own once the
 * section is left).
 */
static void nosec_restrict_task(struct task_struct *t, unsigned int set,
				struct hlist_head *spares,
				struct nosec_session *session)
{
	struct nosec_task *spare = NULL, *e;

	e = nosec_task_find(t);
	if (!e) {
		spare = nosec_spare_take(spares);
		e = spare;
	}
	if (t != current && session->keyring)
		nosec_session_give(session, t, e);
	nosec_task_add_flags_locked(t, set, &spare);
}

/*
 * The section that decides.  Under RCU, the group's siglock and the task
 * table's lock: the blocker, or, if there is none, @set for the caller
 * alone or (@thread_group) for every thread, from @spares and @session.
 */
static int nosec_restrict_locked(unsigned int set, bool thread_group,
				 struct hlist_head *spares,
				 struct nosec_session *session, pid_t *blocker)
{
	unsigned int flags = nosec_task_flags(current) | set;
	struct task_struct *b, *t;

	b = nosec_restrict_blocker(flags, thread_group);
	if (b) {
		*blocker = task_pid_vnr(b);
		return -EBUSY;
	}
	if (!thread_group) {
		nosec_restrict_task(current, set, spares, session);
		return 0;
	}
	for_each_thread(current, t)
		if (!(t->flags & PF_EXITING))
			nosec_restrict_task(t, set, spares, session);
	return 0;
}

/*
 * Allocate entries up to @need and session works up to @others (when
 * @session has a keyring), outside any lock.  0 or -ENOMEM.
 */
static int nosec_restrict_alloc(struct hlist_head *spares, unsigned int *have,
				unsigned int need, struct nosec_session *session,
				unsigned int *works, unsigned int others)
{
	for (; *have < need; (*have)++) {
		struct nosec_task *t = nosec_task_prepare(current, 0);

		if (!t)
			return -ENOMEM;
		hlist_add_head(&t->node, spares);
	}
	if (session->keyring && *works < others) {
		if (nosec_session_add_works(session, others - *works))
			return -ENOMEM;
		*works = others;
	}
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
 * the caller), and, when @set adds a restriction, a new session keyring
 * with a task_work for each other thread to install it (session.c), are
 * allocated first, outside any lock; then, in one section, the threads
 * are counted again (more threads may have been made meanwhile: then the
 * section is left and more allocated), the blocker is looked for, and the
 * flags are set; the caller then commits its new session keyring.
 * Process context (allocates).
 *
 * A restriction of one task is no boundary while another task shares its
 * memory (a sibling thread, an io_uring SQPOLL or io-wq thread, a process
 * made with CLONE_VM, a vfork parent among them), its working directory
 * and root (CLONE_FS) or its descriptors (CLONE_FILES), or while it
 * traces a task outside it: so the caller is restricted only when every
 * such task already carries the restriction, or, with @thread_group, every
 * thread of its group is restricted with it, as seccomp's and Landlock's
 * TSYNC do.
 *
 * Races.  Only a task that shares the caller's memory (fs_struct,
 * files_struct) can make another one that does, and only a tracer
 * attaches its tracees: a caller alone has no one to race with, and what
 * it checked holds until it is restricted (tasks that exit meanwhile only
 * take sharers away; how they are counted: nosec_sharer_left_out()).  For
 * a thread group, the check and the new flags are made in one section
 * under the group's siglock, which copy_process() holds while it links a
 * task made by any thread of the group (a thread, or a process made with
 * CLONE_VM) into the group's thread list or the task list.  A task linked
 * before the section is seen in it, checked or restricted.  One linked
 * after it was made by a creator whose flags may have changed under its
 * fork: task_life.c gives every child its creator's flags again at
 * cgroup_can_fork() and at cgroup_post_fork(), after the link and before
 * the child first runs (and its creator's new session keyring,
 * nosec_session_fork()).  A tracee that another thread attached after its
 * access check passed but before the section is out of scope when it is
 * used: scope.c refuses every ptrace request on it but PTRACE_DETACH.
 *
 * An exec in flight in another thread.  With @thread_group the section
 * is entered under the group's cred_guard_mutex, as seccomp's TSYNC does:
 * an exec that holds it (from prepare_bprm_creds() to the new creds'
 * commit) ends before the threads are restricted, killing the caller if
 * it succeeds, so the call never returns; an exec that takes it after
 * meets the restriction at security_bprm_check() (exec_ban.c), under the
 * mutex, and is refused.
 *
 * Return: 0; -EBUSY when a task that shares the caller's memory,
 * fs_struct or files_struct (another thread of its group, unless
 * @thread_group; a process outside it) does not carry the restriction
 * already, or the caller (with @thread_group, any thread of its group)
 * traces a task; -ENOMEM; -EINTR when a fatal signal came while it
 * waited for an exec in flight.  On error nothing changed.
 */
int nosec_restrict(unsigned int set, bool thread_group, pid_t *blocker)
{
	struct mutex *exec_guard = &current->signal->cred_guard_mutex;
	/* Only current's own exec changes current's sighand. */
	struct sighand_struct *sighand = rcu_dereference_protected(current->sighand,
								   true);
	unsigned int have = 0, need = 1, works = 0, others = 0;
	struct nosec_session session = {};
	HLIST_HEAD(spares);
	int ret;

	if (thread_group && mutex_lock_killable(exec_guard))
		return -EINTR;
	if (set & ~nosec_task_flags(current)) {
		ret = nosec_session_prepare(&session, 0);
		if (ret)
			goto out_unlock_guard;
	}
	for (;;) {
		ret = nosec_restrict_alloc(&spares, &have, need, &session,
					   &works, others);
		if (ret)
			goto out_free;
		rcu_read_lock();
		spin_lock_irq(&sighand->siglock);
		nosec_task_table_lock();
		need = thread_group ? nosec_threads_without_entry(&others) : 1;
		if (!thread_group)
			others = 0;
		if (need <= have && (!session.keyring || others <= works))
			break;
		nosec_task_table_unlock();
		spin_unlock_irq(&sighand->siglock);
		rcu_read_unlock();
	}
	ret = nosec_restrict_locked(set, thread_group, &spares, &session,
				    blocker);
	nosec_task_table_unlock();
	spin_unlock_irq(&sighand->siglock);
	rcu_read_unlock();
	if (!ret)
		nosec_session_commit(&session);

out_free:
	nosec_session_abort(&session);
	while (!hlist_empty(&spares))
		nosec_task_discard(nosec_spare_take(&spares));
out_unlock_guard:
	if (thread_group)
		mutex_unlock(exec_guard);
	return ret;
}
