/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nosec_exec - declarations shared by the module's files.
 */
#ifndef _NOSEC_EXEC_NOSEC_H
#define _NOSEC_EXEC_NOSEC_H

#include <linux/atomic.h>
#include <linux/types.h>
#include <uapi/linux/nosec_exec.h>

struct file;
struct linux_binprm;
struct pt_regs;
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
#define NOSEC_TASK_CREDS_KEPT		BIT(3)	/* this exec keeps the caller's creds */
#define NOSEC_TASK_EXEC_ARMED		BIT(4)	/* NOSEC_IOC_EXECVEAT armed it */
/* This armed exec restricts everything once it cannot fail any more. */
#define NOSEC_TASK_RESTRICT_ON_EXEC	BIT(6)
/* An LSM moved this nosecurity exec to another domain (TOMOYO). */
#define NOSEC_TASK_LSM_MOVED		BIT(7)

struct nosec_exec_arming;

/**
 * struct nosec_task - what the module knows about one task
 * @node: link in the task hashtable, keyed by @task
 * @rcu: deferred free, so that lockless readers never see freed memory
 * @task: the task; not a counted reference, the entry dies with the task
 * @flags: NOSEC_TASK_* bits, changed only by atomic operations: by @task
 *	itself, by its parent before @task first runs, and by a thread of
 *	its group restricting the whole group (restrict.c); read locklessly
 * @saved_dumpable: the caller's dumpability, kept over a nosecurity exec
 * @arming: the execveat NOSEC_IOC_EXECVEAT armed (exec_arm.c), while
 *	%NOSEC_TASK_EXEC_ARMED is set; owned by @task.  One kmalloc'ed
 *	block that holds nothing else: exec_arm.c fills and consumes it,
 *	and whoever frees the entry kfree()s it with the entry, without
 *	knowing what is inside.
 * @read_checked: the file of the current exec that last passed the read
 *	check at bprm_check (exec_nosec.c), NULL where an exec starts and
 *	commits; compared, never dereferenced; owned by @task.
 */
struct nosec_task {
	struct hlist_node node;
	struct rcu_head rcu;
	struct task_struct *task;
	atomic_t flags;
	int saved_dumpable;
	struct nosec_exec_arming *arming;
	const struct file *read_checked;
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

/**
 * nosec_exec_banned() - may a task with these flags not exec normally?
 * @flags: NOSEC_TASK_* bits of the task
 *
 * Return: true when the exec must fail with EPERM: every exec is
 * restricted, or exec is restricted and neither force mode nor
 * AT_EXECVE_NO_TRANSITION makes it a nosecurity exec.
 */
static inline bool nosec_exec_banned(unsigned int flags)
{
	if (flags & NOSEC_TASK_RESTRICT_NOSEC)
		return true;
	return (flags & NOSEC_TASK_RESTRICT_EXEC) &&
	       !(flags & (NOSEC_TASK_FORCE_NOSEC | NOSEC_TASK_FLAG_EXEC));
}

/**
 * nosec_exec_nosecurity() - is the task's current exec a nosecurity one?
 * @flags: NOSEC_TASK_* bits of the task
 *
 * Return: true inside an execveat() with AT_EXECVE_NO_TRANSITION (the
 * ioctl's or a direct one), or for any exec in force mode.
 */
static inline bool nosec_exec_nosecurity(unsigned int flags)
{
	return flags & (NOSEC_TASK_FORCE_NOSEC | NOSEC_TASK_FLAG_EXEC);
}

/**
 * nosec_may_reach() - is a task inside another's restriction?
 * @from: NOSEC_TASK_* flags of the task that reaches
 * @to: NOSEC_TASK_* flags of the task it reaches
 *
 * Return: true when @to carries every restriction @from does (force mode
 * is no restriction): then nothing @from does through @to escapes it.
 */
static inline bool nosec_may_reach(unsigned int from, unsigned int to)
{
	from &= NOSEC_TASK_RESTRICTED;
	return (to & from) == from;
}

/* restrict.c: PR_RESTRICT_ME, for the caller or its whole thread group */
int nosec_restrict(unsigned int set, bool thread_group, pid_t *blocker);

/* exec_arm.c: execveat() with AT_EXECVE_NO_TRANSITION; the ioctl becomes one */
long nosec_exec_arm(const struct nosec_execveat_args *args);
void nosec_exec_disarm(void);
long nosec_exec_refused(void);

/* exec_nosec.c: the exec without a security transition */
void nosec_read_checks_forget(struct nosec_task *t);
int nosec_read_checks_start(void);
void nosec_read_checks_stop(void);

/* audit.c: records for the audit log */
void nosec_audit_exec(const char *op, const char *how, int res, gfp_t gfp);

/* hooks.c: the table of hooks and the helpers their handlers share */
/* In install order (see the table in hooks.c): enforcement first. */
enum nosec_hook_id {
	NOSEC_HOOK_SYS_EXECVE,
	NOSEC_HOOK_SYS_EXECVEAT,
	NOSEC_HOOK_COMPAT_SYS_EXECVE,
	NOSEC_HOOK_COMPAT_SYS_EXECVEAT,
	NOSEC_HOOK_X32_SYS_EXECVE,
	NOSEC_HOOK_X32_SYS_EXECVEAT,
	NOSEC_HOOK_BPRM_EXECVE,
	NOSEC_HOOK_BPRM_CHECK,
	NOSEC_HOOK_OPEN_EXEC,
	NOSEC_HOOK_BPRM_CREDS_FROM_FILE,
	NOSEC_HOOK_CAP_CREDS_FROM_FILE,
	NOSEC_HOOK_BPRM_COMMITTING_CREDS,
	NOSEC_HOOK_TASK_FREE,
	NOSEC_HOOK_TASK_ALLOC,
	NOSEC_HOOK_CGROUP_CAN_FORK,
	NOSEC_HOOK_CGROUP_POST_FORK,
	NOSEC_HOOK_PTRACE_ACCESS_CHECK,
	NOSEC_HOOK_PTRACE_TRACEME,
	NOSEC_HOOK_ARCH_PTRACE,
	NOSEC_HOOK_COMPAT_ARCH_PTRACE,
	NOSEC_HOOK_FILE_IOCTL,
	NOSEC_HOOK_FILE_IOCTL_COMPAT,
	NOSEC_HOOK_SET_SELECTION,
	NOSEC_HOOK_PASTE_SELECTION,
	NOSEC_HOOK_TASK_WORK_ADD,
	NOSEC_HOOK_PRLIMIT,
	NOSEC_HOOK_TOMOYO_ASSIGN_DOMAIN,
	NOSEC_HOOK_SELINUX_CREDS_FOR_EXEC,
	NOSEC_HOOK_TASK_PRCTL,
	NOSEC_NR_HOOKS,
};

/*
 * A hook handler: runs at the entry of the hooked function, with its
 * arguments in @regs, preemption off; it may redirect the call.  Only the
 * argument registers and the instruction pointer of @regs are valid (the
 * hooks save no more).  Calls made from the module itself are not hooked.
 */
typedef void (*nosec_hook_fn)(struct pt_regs *regs);

int nosec_hooks_prepare(void);
void nosec_hooks_forget(void);
int nosec_hooks_enable(void);
void nosec_hooks_remove(void);
unsigned long nosec_hook_call(enum nosec_hook_id id, unsigned long arg0,
			      unsigned long arg1);
int nosec_ibt_guard(void);
int nosec_function_entry(const char *symbol, unsigned long *addr);

/* call_original.S: fn(a0, ..., a4), entered by a return. */
unsigned long nosec_call_original(unsigned long a0, unsigned long a1,
				  unsigned long a2, unsigned long a3,
				  unsigned long a4, unsigned long fn);
unsigned long nosec_hooks_missed(void);
void nosec_hook_redirect(struct pt_regs *regs, void *replacement);

/* Hook handlers, one file a concern. */
void nosec_ban_syscall_pre(struct pt_regs *regs);
void nosec_execveat_pre(struct pt_regs *regs);
void nosec_ban_bprm_execve_pre(struct pt_regs *regs);
void nosec_bprm_check_pre(struct pt_regs *regs);
void nosec_open_exec_pre(struct pt_regs *regs);
void nosec_creds_from_file_pre(struct pt_regs *regs);
void nosec_cap_creds_from_file_pre(struct pt_regs *regs);
void nosec_committing_creds_pre(struct pt_regs *regs);
void nosec_tomoyo_assign_domain_pre(struct pt_regs *regs);
void nosec_selinux_creds_for_exec_pre(struct pt_regs *regs);
void nosec_task_alloc_pre(struct pt_regs *regs);
void nosec_task_free_pre(struct pt_regs *regs);
void nosec_fork_check_pre(struct pt_regs *regs);
void nosec_fork_done_pre(struct pt_regs *regs);
void nosec_ptrace_access_pre(struct pt_regs *regs);
void nosec_ptrace_traceme_pre(struct pt_regs *regs);
void nosec_ptrace_request_pre(struct pt_regs *regs);
void nosec_compat_ptrace_request_pre(struct pt_regs *regs);
void nosec_file_ioctl_pre(struct pt_regs *regs);
void nosec_selection_pre(struct pt_regs *regs);
void nosec_prlimit_pre(struct pt_regs *regs);
void nosec_task_work_add_pre(struct pt_regs *regs);

/*
 * fault_inject.c: the knobs of the test build, nosec_exec_fault_inject.ko
 * (Kbuild: NOSEC_FAULT_INJECT=y).  In the module that ships they are
 * these stubs: no load step fails, no hook misses.
 */
#ifdef NOSEC_FAULT_INJECT
int nosec_fault_step(const char *step);
bool nosec_fault_probe(const char *symbol);
bool nosec_fault_miss(const char *symbol);
const char *nosec_fault_ibt_target(void);
bool nosec_fault_fork_enomem(void);
#else
static inline int nosec_fault_step(const char *step)
{
	return 0;
}

static inline bool nosec_fault_probe(const char *symbol)
{
	return false;
}

static inline bool nosec_fault_miss(const char *symbol)
{
	return false;
}

static inline const char *nosec_fault_ibt_target(void)
{
	return NULL;
}

static inline bool nosec_fault_fork_enomem(void)
{
	return false;
}
#endif

/* scope.c: what the scope's hooks compare against, found at load */
void nosec_scope_prepare(void);

/* main.c: nothing reaches a task before every hook is live */
bool nosec_is_live(void);

/* prctl.c: entered by a direct ftrace call, not through a handler. */
void nosec_prctl_direct(void);
int nosec_prctl(int option, unsigned long arg2, unsigned long arg3,
		unsigned long arg4, unsigned long arg5);

/* nosec_prctl_direct relies on the four options being contiguous. */
static_assert(PR_GET_RESTRICT - PR_RESTRICT_ME == 1 &&
	      PR_SET_FORCE_EXECVE_NOSECURITY - PR_RESTRICT_ME == 2 &&
	      PR_GET_FORCE_EXECVE_NOSECURITY - PR_RESTRICT_ME == 3);

/* device.c */
bool nosec_exec_permitted(void);
int nosec_device_register(void);
void nosec_device_unregister(void);

/* stats.c */
struct nosec_stats {
	atomic_long_t denied_execs;
	atomic_long_t nosec_execs;
	atomic_long_t killed_execs;
	atomic_long_t fork_enomem;
	atomic_long_t fork_refused;
	atomic_long_t scope_denied;
	atomic_long_t worker_read_checks;
	atomic_long_t lsm_refused;
};

extern struct nosec_stats nosec_stats;
void nosec_stats_register(void);
void nosec_stats_unregister(void);

#endif /* _NOSEC_EXEC_NOSEC_H */
