// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - the exec without a security transition: an execveat() with
 * AT_EXECVE_NO_TRANSITION, or any exec of a task in force mode.  What each
 * hook below does, and the kernel code it stands in for: docs/design.md,
 * "Patch points: 2010 -> 6.1 -> 6.12".
 */
#include <linux/binfmts.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/key.h>
#include <linux/mount.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/signal.h>
#include <linux/security.h>
#include <linux/completion.h>
#include <linux/refcount.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "compat.h"
#include "task.h"
#include "exec.h"
#include "audit.h"
#include "hooks.h"
#include "scope.h"
#include "stats.h"

/* Open @path for reading with @cred, as open(O_RDONLY) would, and close it. */
static int nosec_open_for_read(const struct path *path,
			       const struct cred *cred)
{
	struct file *reader = dentry_open(path, O_RDONLY | O_LARGEFILE, cred);

	if (IS_ERR(reader))
		return PTR_ERR(reader);
	fput(reader);
	return 0;
}

#ifdef NOSEC_READ_CHECK_WORKER
/*
 * The open by a kernel worker with the caller's creds (compat.h): what
 * the LSMs that judge by creds (AppArmor, SELinux, Smack, Landlock)
 * decide.  TOMOYO, which judges by task, sees the worker, and so does a
 * fanotify permission listener.
 *
 * The caller's wait is killable: an open that never completes (a FUSE
 * server that does not answer) holds the worker, not the caller.  So the
 * request holds what the worker needs (the path, the creds) and lives
 * until both are done with it, and the worker holds a module reference
 * until it has finished (rmmod then fails with EWOULDBLOCK rather than
 * waiting); the workqueue is the module's own, which unload drains, so
 * the worker's last instructions after that reference are covered too.
 */
static struct workqueue_struct *nosec_read_check_wq;

/**
 * struct nosec_read_check - one open for reading, made by a worker
 * @work: the worker's item on nosec_read_check_wq
 * @done: completed when the open has been made
 * @users: the caller and the worker; the last one frees the request
 * @path: the file's path, a reference of its own
 * @cred: the caller's creds, a reference of their own
 * @ret: the open's result, once @done
 */
struct nosec_read_check {
	struct work_struct work;
	struct completion done;
	refcount_t users;
	struct path path;
	const struct cred *cred;
	int ret;
};

static void nosec_read_check_put(struct nosec_read_check *c)
{
	if (!refcount_dec_and_test(&c->users))
		return;
	path_put(&c->path);
	put_cred(c->cred);
	kfree(c);
}

static void nosec_read_check_work(struct work_struct *work)
{
	struct nosec_read_check *c = container_of(work, struct nosec_read_check,
						  work);
	const struct cred *old = override_creds(c->cred);

	c->ret = nosec_open_for_read(&c->path, c->cred);
	revert_creds(old);
	complete(&c->done);
	nosec_read_check_put(c);
	module_put(THIS_MODULE);
}

static int nosec_open_by_worker(struct file *file)
{
	struct nosec_read_check *c = kzalloc(sizeof(*c), GFP_KERNEL);
	int ret;

	if (!c)
		return -ENOMEM;
	INIT_WORK(&c->work, nosec_read_check_work);
	init_completion(&c->done);
	refcount_set(&c->users, 2);
	c->path = file->f_path;
	path_get(&c->path);
	c->cred = get_current_cred();
	/* The caller holds one already (a restricted task, or a nosecurity execveat). */
	__module_get(THIS_MODULE);
	atomic_long_inc(&nosec_stats.worker_read_checks);
	queue_work(nosec_read_check_wq, &c->work);
	ret = wait_for_completion_killable(&c->done);
	if (!ret)
		ret = c->ret;
	nosec_read_check_put(c);
	return ret;
}

/**
 * nosec_read_checks_start() - create the read-check workers' queue
 *
 * Return: 0, or -ENOMEM.
 */
int nosec_read_checks_start(void)
{
	nosec_read_check_wq = alloc_workqueue("nosec_read_check", WQ_UNBOUND,
					      0);
	return nosec_read_check_wq ? 0 : -ENOMEM;
}

/**
 * nosec_read_checks_stop() - wait for every read check, free the queue
 *
 * At unload (no request can be pending: each holds a module reference)
 * or when a load fails after nosec_read_checks_start().
 */
void nosec_read_checks_stop(void)
{
	destroy_workqueue(nosec_read_check_wq);
}
#else
/**
 * nosec_read_checks_start() - nothing to do: no read-check workers here
 *
 * Return: 0.
 */
int nosec_read_checks_start(void)
{
	return 0;
}

/**
 * nosec_read_checks_stop() - nothing to do: no read-check workers here
 */
void nosec_read_checks_stop(void)
{
}
#endif

/*
 * Open @file's path for reading as the caller would (docs/design.md,
 * "The read check's open").  @first: no LSM's bprm_check hook has run in
 * this exec yet, so the caller opens it with current->in_execve clear for
 * that one call (the flag is current's own).  A later file: the caller
 * with the flag as it is, or a kernel worker (NOSEC_READ_CHECK_WORKER).
 */
static int nosec_open_check(struct file *file, bool first)
{
#ifdef NOSEC_HAVE_IN_EXECVE
	if (first) {
		unsigned int in_execve = current->in_execve;
		int ret;

		current->in_execve = 0;
		ret = nosec_open_for_read(&file->f_path, current_cred());
		current->in_execve = in_execve;
		return ret;
	}
#endif
#ifdef NOSEC_READ_CHECK_WORKER
	return nosec_open_by_worker(file);
#else
	return nosec_open_for_read(&file->f_path, current_cred());
#endif
}

/*
 * May the caller read @file?  What open(O_RDONLY) by the caller would
 * check: DAC and the LSMs' inode hooks (inode_permission(), with MAY_OPEN
 * as an open asks), then every LSM's open-time hook, by opening the file
 * for reading for a moment.  The 2010 series added MAY_READ to the exec's
 * own open, which asked the inode hooks; AppArmor and TOMOYO check files
 * at open and let an exec's own opens through, so only a separate open
 * for reading asks them.  @first: see nosec_open_check().  May sleep.
 */
static int nosec_may_read(struct file *file, bool first)
{
	int ret;

	ret = file_permission(file, MAY_READ | MAY_OPEN);
	if (ret)
		return ret;
	return nosec_open_check(file, first);
}

/**
 * nosec_read_checks_forget() - no file of an exec is read-checked yet
 * @t: current's entry
 *
 * Called where an exec starts (the execve and execveat entries,
 * bprm_execve()) and where it commits (the last gate), so that a file
 * remembered by one exec never stands for a file of the next, should a
 * hook miss.
 */
void nosec_read_checks_forget(struct nosec_task *t)
{
	t->read_checked = NULL;
}

/*
 * Put current back in the TOMOYO domain it had before this exec.  TOMOYO
 * switched domains already and kept the old one aside; it puts it back
 * when the task next prepares creds outside an exec, which a failed exec
 * does not do, and drops it for good at the task's next file access.  So
 * the creds are prepared (and thrown away) here, with current->in_execve
 * clear for that one call: the flag is current's own, and nothing in
 * prepare_creds() but TOMOYO's hook reads it.  If that cannot be done,
 * the task must not go back to userspace in the new domain: SIGKILL.
 */
static void nosec_tomoyo_move_back(void)
{
	struct cred *cred = NULL;

#ifdef NOSEC_HAVE_IN_EXECVE
	unsigned int in_execve = current->in_execve;

	current->in_execve = 0;
	cred = prepare_creds();
	current->in_execve = in_execve;
#endif
	if (cred) {
		abort_creds(cred);
		return;
	}
	atomic_long_inc(&nosec_stats.killed_execs);
	force_sig(SIGKILL);
}

/*
 * The read check of each file that becomes bprm->file, before the
 * kernel's own bprm_check (LSMs included).  The first file of the exec is
 * the one that no binfmt has replaced yet (bprm->interp still points at
 * bprm->filename) while no bprm_check of this exec has passed; a file
 * that passes is remembered, so that the final one is not checked twice.
 */
static int nosec_bprm_check(struct linux_binprm *bprm)
{
	struct nosec_task *t = nosec_task_current();
	bool moved;
	int ret;

	if (!t)
		return -EPERM;
	ret = nosec_may_read(bprm->file, !t->read_checked &&
			     bprm->interp == bprm->filename);
	if (ret)
		return ret;
	t->read_checked = bprm->file;
	ret = (int)nosec_hook_call(NOSEC_HOOK_BPRM_CHECK,
				   (unsigned long)bprm, 0);
	moved = nosec_entry_flags(t) & NOSEC_TASK_LSM_MOVED;
	if (moved) {
		nosec_tomoyo_move_back();
		nosec_task_clear_flags(NOSEC_TASK_LSM_MOVED);
	}
	if (ret)
		return ret;
	if (!moved)
		return 0;
	atomic_long_inc(&nosec_stats.lsm_refused);
	return -EPERM;
}

/*
 * An interpreter @file just opened for a nosecurity exec, if the caller
 * may read it; else closed as the exec would close it, and the error.
 */
static struct file *nosec_interpreter_read_checked(struct file *file)
{
	int ret;

	if (IS_ERR(file))
		return file;
	ret = nosec_may_read(file, false);
	if (ret) {
		exe_file_allow_write_access(file);
		fput(file);
		return ERR_PTR(ret);
	}
	return file;
}

static struct file *nosec_open_exec(const char *name)
{
	return nosec_interpreter_read_checked((struct file *)
		nosec_hook_call(NOSEC_HOOK_OPEN_EXEC, (unsigned long)name, 0));
}

#ifdef NOSEC_HAVE_BPRM_OPEN_INTERPRETER
/*
 * Where binfmt_elf asks bprm_open_interpreter() for its PT_INTERP, which
 * opens it with open_exec() inlined, or hands out the loader a
 * binfmt_misc entry staged in its place ('L').
 */
static struct file *nosec_bprm_open_interpreter(struct linux_binprm *bprm,
						const char *path)
{
	return nosec_interpreter_read_checked((struct file *)
		nosec_hook_call(NOSEC_HOOK_BPRM_OPEN_INTERPRETER,
				(unsigned long)bprm, (unsigned long)path));
}
#endif

/*
 * The label the LSMs give a task that runs with @cred, into @label: what
 * the LSM that labels tasks (SELinux, AppArmor or Smack, whichever the
 * kernel runs) says of it, nothing where none does.  Asked as of current,
 * which is what the hook offers for a cred not yet installed.
 */
static void nosec_cred_label(const struct cred *cred,
			     struct nosec_label *label)
{
	const struct cred *saved = override_creds(cred);

	nosec_current_label(label);
	revert_creds(saved);
}

/*
 * An LSM that would not keep the exec in place (its creds for @bprm carry
 * another label than the caller's) refuses it: -EPERM.
 */
static int nosec_lsm_keeps_in_place(const struct linux_binprm *bprm)
{
	struct nosec_label label, caller_label;

	nosec_cred_label(bprm->cred, &label);
	nosec_cred_label(current_cred(), &caller_label);
	if (nosec_label_equal(&label, &caller_label))
		return 0;
	atomic_long_inc(&nosec_stats.lsm_refused);
	return -EPERM;
}

/*
 * Every LSM's bprm_creds_from_file hook, then the checks of a nosecurity
 * exec: the read check if bprm_check missed, the label in place, and the
 * creds of its call (exec_creds.c): the caller's for the explicit call;
 * for a forced exec, commoncap's (nosec_cap_creds_from_file()), refused
 * if that hook missed.
 */
static int nosec_creds_from_file(struct linux_binprm *bprm, struct file *file)
{
	struct nosec_task *t = nosec_task_current();
	unsigned int flags;
	int ret;

	if (!t)
		return -EPERM;
	ret = (int)nosec_hook_call(NOSEC_HOOK_BPRM_CREDS_FROM_FILE,
				   (unsigned long)bprm, (unsigned long)file);
	if (ret)
		return ret;
	/*
	 * The final program passed the read check at bprm_check, unless
	 * that hook missed: then it is checked here.
	 */
	if (t->read_checked != bprm->file) {
		ret = nosec_may_read(bprm->file, false);
		if (ret)
			return ret;
	}
	ret = nosec_lsm_keeps_in_place(bprm);
	if (ret)
		return ret;
	flags = nosec_entry_flags(t);
	if (!nosec_exec_forced(flags))
		nosec_creds_keep_caller(bprm, t);
	else if (!(flags & NOSEC_TASK_CAPS_COMPUTED))
		return -EPERM;
	return nosec_task_set_flags(NOSEC_TASK_CREDS_CHECKED);
}

/*
 * commoncap's bprm_creds_from_file hook computes set-ID and file
 * capability credentials.  For the explicit call it does not run (the
 * caller's creds replace whatever it would compute; run, it would audit a
 * capability raise that does not happen, BPRM_FCAPS, and check a
 * CAP_SETUID the caller never used).  For a forced exec it computes a
 * plain exec's creds under no_new_privs (exec_creds.c).
 */
static int nosec_cap_creds_from_file(struct linux_binprm *bprm,
				     struct file *file)
{
	if (!nosec_exec_forced(nosec_task_flags(current)))
		return 0;
	return nosec_creds_compute_forced(bprm);
}

/*
 * SELinux's bprm_creds_for_exec hook, as under no_new_privs: a domain
 * transition its policy defines for the file falls back to the caller's
 * context (and execute_no_trans is what decides), a pending exec context
 * (setexeccon()) fails the exec with EPERM, and only a transition to a
 * bounded context (or one allowed nnp_transition) goes on, which
 * nosec_creds_from_file() then refuses.
 */
static int nosec_selinux_creds_for_exec(struct linux_binprm *bprm)
{
	unsigned int unsafe = bprm->unsafe;
	int ret;

	bprm->unsafe |= LSM_UNSAFE_NO_NEW_PRIVS;
	ret = (int)nosec_hook_call(NOSEC_HOOK_SELINUX_CREDS_FOR_EXEC,
				   (unsigned long)bprm, 0);
	bprm->unsafe = unsafe;
	return ret;
}

#ifdef NOSEC_HAVE_EXECVE_CHECK
/*
 * execveat(AT_EXECVE_CHECK) asks whether the exec would be allowed, and
 * stops after the LSMs' bprm_creds_for_exec hooks: none of the hooks
 * above runs.  For a nosecurity exec (the flag, or force mode) the answer
 * is the nosecurity exec's: the caller must be able to read the file, and
 * no LSM may move it.  (A check runs no interpreter; the file is the
 * script or the program itself.)
 */
static int nosec_creds_for_exec_check(struct linux_binprm *bprm)
{
	int ret;

	ret = (int)nosec_hook_call(NOSEC_HOOK_BPRM_CREDS_FOR_EXEC,
				   (unsigned long)bprm, 0);
	if (ret)
		return ret;
	ret = nosec_may_read(bprm->file, true);
	if (ret)
		return ret;
	return nosec_lsm_keeps_in_place(bprm);
}
#endif

/* Redirect to @replacement during a nosecurity exec. */
static void nosec_redirect_if_nosec(struct ftrace_regs *regs,
				    void *replacement)
{
	if (nosec_exec_nosecurity(nosec_task_flags(current)))
		nosec_hook_redirect(regs, replacement);
}

/**
 * nosec_bprm_check_pre() - read check on each file of a nosecurity exec
 * @regs: registers at the entry of security_bprm_check(), for an exec the
 *	ban lets through (exec_ban.c hooks the function)
 */
void nosec_bprm_check_pre(struct ftrace_regs *regs)
{
	nosec_redirect_if_nosec(regs, nosec_bprm_check);
}

/**
 * nosec_open_exec_pre() - read check on interpreters of a nosecurity exec
 * @regs: registers at the entry of open_exec()
 */
static void nosec_open_exec_pre(struct ftrace_regs *regs)
{
	nosec_redirect_if_nosec(regs, nosec_open_exec);
}

#ifdef NOSEC_HAVE_BPRM_OPEN_INTERPRETER
/**
 * nosec_bprm_open_interpreter_pre() - read check on an ELF interpreter
 * @regs: registers at the entry of bprm_open_interpreter()
 */
static void nosec_bprm_open_interpreter_pre(struct ftrace_regs *regs)
{
	nosec_redirect_if_nosec(regs, nosec_bprm_open_interpreter);
}
#endif

#ifdef NOSEC_HAVE_EXECVE_CHECK
/**
 * nosec_creds_for_exec_pre() - a nosecurity AT_EXECVE_CHECK's answer
 * @regs: registers at the entry of security_bprm_creds_for_exec()
 */
static void nosec_creds_for_exec_pre(struct ftrace_regs *regs)
{
	const struct linux_binprm *bprm = (const void *)nosec_hook_arg(regs, 0);

	if (bprm->is_check)
		nosec_redirect_if_nosec(regs, nosec_creds_for_exec_check);
}
#endif

/**
 * nosec_creds_from_file_pre() - keep the caller's creds
 * @regs: registers at the entry of security_bprm_creds_from_file()
 */
static void nosec_creds_from_file_pre(struct ftrace_regs *regs)
{
	nosec_redirect_if_nosec(regs, nosec_creds_from_file);
}

/**
 * nosec_cap_creds_from_file_pre() - no set-ID or file capabilities
 * @regs: registers at the entry of cap_bprm_creds_from_file()
 */
static void nosec_cap_creds_from_file_pre(struct ftrace_regs *regs)
{
	nosec_redirect_if_nosec(regs, nosec_cap_creds_from_file);
}

/**
 * nosec_selinux_creds_for_exec_pre() - SELinux judges the exec in place
 * @regs: registers at the entry of selinux_bprm_creds_for_exec()
 */
static void nosec_selinux_creds_for_exec_pre(struct ftrace_regs *regs)
{
	nosec_redirect_if_nosec(regs, nosec_selinux_creds_for_exec);
}

/**
 * nosec_tomoyo_assign_domain_pre() - TOMOYO is moving a nosecurity exec
 * @regs: registers at the entry of tomoyo_assign_domain() (second
 *	argument: transit, set when the domain becomes current's)
 *
 * Marks the exec, which nosec_bprm_check() then fails with EPERM (and the
 * last gate kills, should that hook have missed).  The task has an entry:
 * setting a bit neither sleeps nor fails.
 */
static void nosec_tomoyo_assign_domain_pre(struct ftrace_regs *regs)
{
	if (nosec_hook_arg(regs, 1) && nosec_exec_nosecurity(nosec_task_flags(current)))
		nosec_task_set_flags(NOSEC_TASK_LSM_MOVED);
}

/* Did this nosecurity exec pass every check the hooks above make? */
static bool nosec_exec_checked(const struct linux_binprm *bprm,
			       unsigned int flags)
{
	return !(flags & NOSEC_TASK_LSM_MOVED) &&
	       !(bprm->interp_flags & BINPRM_FLAGS_ENFORCE_NONDUMP) &&
	       nosec_creds_as_checked(bprm, flags);
}

/**
 * nosec_committing_creds_pre() - the last gate before new creds commit
 * @regs: registers at the entry of security_bprm_committing_creds()
 *	(first argument: the bprm)
 *
 * Past the point of no return, so it cannot fail the exec: an exec that
 * should have been denied, or a nosecurity exec whose creds are not the
 * caller's, gets SIGKILL before it reaches userspace.
 */
static void nosec_committing_creds_pre(struct ftrace_regs *regs)
{
	struct linux_binprm *bprm = (struct linux_binprm *)nosec_hook_arg(regs, 0);
	struct nosec_task *t;
	unsigned int flags;

	rcu_read_lock();
	t = nosec_task_find(current);
	flags = t ? nosec_entry_flags(t) : 0;
	if (!flags)
		goto out_unlock;
	nosec_read_checks_forget(t);
	if (nosec_exec_banned(flags) ||
	    (nosec_exec_nosecurity(flags) && !nosec_exec_checked(bprm, flags))) {
		atomic_long_inc(&nosec_stats.killed_execs);
		nosec_audit_exec("exec_killed", nosec_exec_banned(flags) ?
				 "restricted" : "unchecked", 0, GFP_ATOMIC);
		force_sig(SIGKILL);
		goto out_unlock;
	}
	if (nosec_exec_nosecurity(flags)) {
		if (!nosec_exec_forced(flags))
			nosec_creds_commit_dumpable(t);
		atomic_long_inc(&nosec_stats.nosec_execs);
		nosec_audit_exec("exec_nosecurity",
				 flags & NOSEC_TASK_FLAG_EXEC ? "flag" : "force",
				 1, GFP_ATOMIC);
	}
	/*
	 * NOSEC_EXEC_RESTRICT_ALL: past the point of no return, so the
	 * restriction comes with the new program, never without it.  The
	 * entry exists: this neither sleeps nor fails.
	 */
	if (flags & NOSEC_TASK_RESTRICT_ON_EXEC)
		nosec_task_set_flags(NOSEC_TASK_RESTRICTED);
out_unlock:
	rcu_read_unlock();
	if (flags & NOSEC_TASK_EXEC_PROGRESS)
		nosec_task_clear_flags(NOSEC_TASK_EXEC_PROGRESS);
}

/* The nosecurity exec's hooks, in the order an exec meets them. */
const struct nosec_hook_spec nosec_exec_nosec_hooks[] = {
	NOSEC_HOOK(NOSEC_HOOK_OPEN_EXEC, "open_exec",
		   nosec_open_exec_pre, "redirect",
		   "nosecurity: require read access on interpreters"),
#ifdef NOSEC_HAVE_BPRM_OPEN_INTERPRETER
	NOSEC_HOOK(NOSEC_HOOK_BPRM_OPEN_INTERPRETER, "bprm_open_interpreter",
		   nosec_bprm_open_interpreter_pre, "redirect",
		   "nosecurity: require read access on ELF interpreters and loaders"),
#endif
#ifdef NOSEC_HAVE_EXECVE_CHECK
	NOSEC_HOOK(NOSEC_HOOK_BPRM_CREDS_FOR_EXEC,
		   "security_bprm_creds_for_exec",
		   nosec_creds_for_exec_pre, "redirect",
		   "nosecurity: AT_EXECVE_CHECK answers as the exec would (read, in place)"),
#endif
	NOSEC_HOOK(NOSEC_HOOK_BPRM_CREDS_FROM_FILE,
		   "security_bprm_creds_from_file",
		   nosec_creds_from_file_pre, "redirect",
		   "nosecurity: label in place; caller's creds, or forced: a plain exec's"),
	NOSEC_HOOK(NOSEC_HOOK_CAP_CREDS_FROM_FILE, "cap_bprm_creds_from_file",
		   nosec_cap_creds_from_file_pre, "redirect",
		   "nosecurity: no set-ID, no file caps; forced: commoncap as under NNP"),
	NOSEC_HOOK(NOSEC_HOOK_BPRM_COMMITTING_CREDS,
		   "security_bprm_committing_creds",
		   nosec_committing_creds_pre, "observe",
		   "last gate: creds by their rule, dumpability; kill past a missed hook"),
	NOSEC_HOOK_IF_BUILT(NOSEC_HOOK_TOMOYO_ASSIGN_DOMAIN,
			    IS_ENABLED(CONFIG_SECURITY_TOMOYO),
			    "tomoyo_assign_domain",
			    nosec_tomoyo_assign_domain_pre, "observe",
			    "nosecurity: fail an exec that TOMOYO moves to another domain"),
	NOSEC_HOOK_IF_BUILT(NOSEC_HOOK_SELINUX_CREDS_FOR_EXEC,
			    IS_ENABLED(CONFIG_SECURITY_SELINUX),
			    "selinux_bprm_creds_for_exec",
			    nosec_selinux_creds_for_exec_pre, "redirect",
			    "nosecurity: SELinux judges the exec in place (execute_no_trans)"),
	{}
};
