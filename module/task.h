/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nosec_exec - what the module knows of each task (task_state.c), and the
 * hooks that follow tasks through fork and exit (task_life.c)
 */
#ifndef _NOSEC_EXEC_TASK_H
#define _NOSEC_EXEC_TASK_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/types.h>

struct file;
struct task_struct;

/*
 * Per-task flags (task_state.c).  The NOSEC_TASK_INHERITED ones are the
 * task's persistent state, inherited at fork and kept across exec; the
 * others describe the exec the task is running right now and are never
 * inherited.
 */
#define NOSEC_TASK_RESTRICT_EXEC	BIT(0)	/* PR_RESTRICT_EXEC is set */
#define NOSEC_TASK_FORCE_NOSEC		BIT(1)	/* PR_SET_FORCE_EXECVE_NOSECURITY */
#define NOSEC_TASK_RESTRICT_NOSEC	BIT(5)	/* PR_RESTRICT_EXEC_NOSECURITY */
#define NOSEC_TASK_INHERITED		(NOSEC_TASK_RESTRICT_EXEC | \
					 NOSEC_TASK_FORCE_NOSEC | \
					 NOSEC_TASK_RESTRICT_NOSEC)
/* Restrictions: what holds a module reference and scopes ptrace. */
#define NOSEC_TASK_RESTRICTED		(NOSEC_TASK_RESTRICT_EXEC | \
					 NOSEC_TASK_RESTRICT_NOSEC)
#define NOSEC_TASK_FLAG_EXEC		BIT(2)	/* inside an AT_EXECVE_NO_TRANSITION execveat */
#define NOSEC_TASK_CREDS_CHECKED	BIT(3)	/* this exec's creds passed the checks */
#define NOSEC_TASK_EXEC_ARMED		BIT(4)	/* NOSEC_IOC_EXECVEAT armed it */
/* This armed exec restricts everything once it cannot fail any more. */
#define NOSEC_TASK_RESTRICT_ON_EXEC	BIT(6)
/* An LSM moved this nosecurity exec to another domain (TOMOYO). */
#define NOSEC_TASK_LSM_MOVED		BIT(7)
/* commoncap computed this forced exec's creds as a plain exec's under NNP. */
#define NOSEC_TASK_CAPS_COMPUTED	BIT(8)
/* What one exec records of its way through the hooks, cleared around it. */
#define NOSEC_TASK_EXEC_PROGRESS	(NOSEC_TASK_CREDS_CHECKED | \
					 NOSEC_TASK_CAPS_COMPUTED | \
					 NOSEC_TASK_LSM_MOVED)

struct nosec_exec_arming;
struct key;

/**
 * struct nosec_reopen - a descriptor a /proc/PID/fd link led to
 * @dentry: the file's dentry, or NULL when no walk is pending
 * @mnt: its mount
 * @mode: the access the descriptor has (FMODE_READ, FMODE_WRITE; none for
 *	O_PATH)
 */
struct nosec_reopen {
	const void *dentry;
	const void *mnt;
	unsigned int mode;
};

/**
 * struct nosec_task - what the module knows about one task
 * @node: link in the task hashtable, keyed by @task
 * @rcu: deferred free, so that lockless readers never see freed memory
 * @task: the task; not a counted reference, the entry dies with the task
 * @flags: NOSEC_TASK_* bits, changed only by atomic operations: by @task
 *	itself, by its parent before @task first runs, and by a thread of
 *	its group restricting the whole group (restrict.c); read locklessly
 * @saved_dumpable: the caller's dumpability, kept over an explicit
 *	nosecurity exec (exec_nosec.c)
 * @arming: the execveat NOSEC_IOC_EXECVEAT armed (exec_arm.c), while
 *	%NOSEC_TASK_EXEC_ARMED is set; owned by @task.  One kmalloc'ed
 *	block that holds nothing else: exec_arm.c fills and consumes it,
 *	and whoever frees the entry kfree()s it with the entry, without
 *	knowing what is inside.
 * @read_checked: the file of the current exec that last passed the read
 *	check at bprm_check (exec_nosec.c), NULL where an exec starts and
 *	commits; compared, never dereferenced; owned by @task.
 * @new_session: the session keyring PR_RESTRICT_TSYNC gave @task, until
 *	@task's task_work installs it (session.c); a reference, set by the
 *	restricting thread under the table's lock, taken back by @task.
 * @reopen: what @task's last walk through a /proc/PID/fd link found
 *	(reopen.c); compared, never dereferenced; owned by @task.
 */
struct nosec_task {
	struct hlist_node node;
	struct rcu_head rcu;
	struct task_struct *task;
	atomic_t flags;
	int saved_dumpable;
	struct nosec_exec_arming *arming;
	const struct file *read_checked;
	struct key *new_session;
	struct nosec_reopen reopen;
};

/* task_state.c */
unsigned int nosec_task_flags(struct task_struct *task);
struct nosec_task *nosec_task_find(struct task_struct *task);
struct nosec_task *nosec_task_current(void);
int nosec_task_set_flags(unsigned int set);
int nosec_task_add_flags(struct task_struct *task, unsigned int set);
void nosec_task_clear_flags(unsigned int clear);
struct nosec_task *nosec_task_prepare(struct task_struct *task,
				      unsigned int flags);
void nosec_task_publish(struct nosec_task *t);
void nosec_task_discard(struct nosec_task *t);
void nosec_task_drop(struct task_struct *task);
void nosec_task_drop_all(void);
void nosec_task_table_lock(void);
void nosec_task_table_unlock(void);
bool nosec_task_add_flags_locked(struct task_struct *task, unsigned int set,
				 struct nosec_task **spare);

/* The flags of an entry. */
static inline unsigned int nosec_entry_flags(const struct nosec_task *t)
{
	return (unsigned int)atomic_read(&t->flags);
}

extern atomic_long_t nosec_tasks_nr;

/* Number of tasks carrying state: while 0, no hook but prctl has work. */
static inline long nosec_task_count(void)
{
	return atomic_long_read(&nosec_tasks_nr);
}

#endif /* _NOSEC_EXEC_TASK_H */
