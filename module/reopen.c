// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - a restricted task reopens a descriptor through /proc/PID/fd
 * with no more access than the descriptor has.
 *
 * /proc/PID/fd/N leads to the file itself, not to a path: an open of it
 * opens the file anew, with whatever access its permission bits give.
 * The read end of the pipe a shell reads its commands from (`curl | sh`)
 * so becomes a write end of that pipe, and a here-document's unlinked
 * file a writable one: the tree writes commands that the unrestricted
 * shell runs once the tree has exited, TIOCSTI's harm by another channel.
 * openat(N, "", O_EMPTYPATH) (7.x) opens descriptor N's file anew too,
 * without a link.  So for a restricted task, proc_fd_link() and
 * do_file_open() with an empty name note the access the
 * descriptor has, and the open that follows (security_file_open()), of
 * that same file, asks for no more: read only if the descriptor reads,
 * write (or truncate) only if it writes; an O_PATH descriptor gives none
 * (it would be a step to any).  Otherwise EACCES.  (O_APPEND is no limit
 * to keep: fcntl(F_SETFL) takes it off any descriptor.)
 * An exec's own open gives the task no descriptor and is not judged.  Why,
 * and what stays open: docs/security.md, "What the tree shares".
 */
#include <linux/dcache.h>
#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/fdtable.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/path.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task.h>

#include "task.h"
#include "hooks.h"
#include "stats.h"

/* struct nosec_reopen's mode: the access bits of f_mode. */
#define NOSEC_REOPEN_READ	((__force unsigned int)FMODE_READ)
#define NOSEC_REOPEN_WRITE	((__force unsigned int)FMODE_WRITE)

/* The access bits of @file's f_mode, as struct nosec_reopen's mode. */
static unsigned int nosec_file_access(const struct file *file)
{
	return (__force unsigned int)file->f_mode &
	       (NOSEC_REOPEN_READ | NOSEC_REOPEN_WRITE);
}

/*
 * The access descriptor @fd of @task has, if it still holds the file at
 * @path: FMODE_READ, FMODE_WRITE; 0 when it holds
 * another file now (the table changed since the link was followed), or
 * the descriptor is an O_PATH one.
 */
static unsigned int nosec_fd_access(struct task_struct *task, unsigned int fd,
				    const struct path *path)
{
	unsigned int mode = 0;
	struct files_struct *files;
	struct file *file;

	task_lock(task);
	files = task->files;
	if (!files)
		goto out_unlock;
	rcu_read_lock();
	file = files_lookup_fd_raw(files, fd);
	if (file && file->f_path.dentry == path->dentry &&
	    file->f_path.mnt == path->mnt)
		mode = nosec_file_access(file);
	/* Still the same file: what was read is its access. */
	if (files_lookup_fd_raw(files, fd) != file)
		mode = 0;
	rcu_read_unlock();
out_unlock:
	task_unlock(task);
	return mode;
}

/*
 * proc_fd_link() for a restricted task: the kernel's, then the access of
 * the descriptor it followed, noted for the open that comes next.
 */
static int nosec_proc_fd_link(struct dentry *dentry, struct path *path,
			      struct task_struct *task)
{
	struct nosec_task *t = nosec_task_current();
	unsigned int fd;
	int ret;

	ret = (int)nosec_hook_call3(NOSEC_HOOK_PROC_FD_LINK,
				    (unsigned long)dentry, (unsigned long)path,
				    (unsigned long)task);
	if (ret || !t)
		return ret;
	t->reopen.dentry = path->dentry;
	t->reopen.mnt = path->mnt;
	t->reopen.mode = kstrtouint(dentry->d_name.name, 10, &fd) ? 0 :
			 nosec_fd_access(task, fd, path);
	return 0;
}

/**
 * nosec_proc_fd_link_pre() - a restricted task follows /proc/PID/fd/N
 * @regs: registers at the entry of proc_fd_link() (the link's dentry, the
 *	path it fills in, the task whose descriptor it is)
 */
static void nosec_proc_fd_link_pre(struct ftrace_regs *regs)
{
	if (nosec_task_flags(current) & NOSEC_TASK_RESTRICTED)
		nosec_hook_redirect(regs, nosec_proc_fd_link);
}

#ifdef NOSEC_HAVE_O_EMPTYPATH
/**
 * nosec_do_file_open_pre() - a restricted task opens "" at a descriptor
 * @regs: registers at the entry of do_file_open() (the descriptor, the
 *	name, the open's flags)
 *
 * An empty name opens the descriptor's own file (O_EMPTYPATH; without
 * it, the open fails before any file is opened): note that descriptor's
 * access for the open that follows, as nosec_proc_fd_link() does.  Every
 * open on the machine comes here: the name is looked at first.
 */
static void nosec_do_file_open_pre(struct ftrace_regs *regs)
{
	const struct filename *name = (const void *)nosec_hook_arg(regs, 1);
	int dfd = (int)nosec_hook_arg(regs, 0);
	struct nosec_task *t;
	struct file *file;

	if (IS_ERR_OR_NULL(name) || name->name[0] || dfd == AT_FDCWD)
		return;
	if (!(nosec_task_flags(current) & NOSEC_TASK_RESTRICTED))
		return;
	t = nosec_task_current();
	if (!t)
		return;
	rcu_read_lock();
	file = files_lookup_fd_raw(current->files, dfd);
	if (file) {
		t->reopen.dentry = file->f_path.dentry;
		t->reopen.mnt = file->f_path.mnt;
		t->reopen.mode = nosec_file_access(file);
	} else {
		t->reopen.dentry = NULL;
	}
	rcu_read_unlock();
}
#endif

static int nosec_reopen_denied(struct file *file)
{
	atomic_long_inc(&nosec_stats.scope_denied);
	return -EACCES;
}

/* Does an open of @file ask for more than @mode (struct nosec_reopen)? */
static bool nosec_reopen_exceeds(const struct file *file, unsigned int mode)
{
	unsigned int want = nosec_file_access(file);

	if (file->f_flags & __FMODE_EXEC)
		return false;
	/* O_TRUNC writes, whatever the access asked for. */
	if (file->f_flags & O_TRUNC)
		want |= NOSEC_REOPEN_WRITE;
	return want & ~mode;
}

/**
 * nosec_file_open_pre() - the open after a /proc/PID/fd link
 * @regs: registers at the entry of security_file_open() (the new file)
 *
 * The note proc_fd_link() left is for this open only: taken, whatever the
 * file.  An open of that file that asks for more access than its
 * descriptor has is redirected to fail with EACCES.
 */
static void nosec_file_open_pre(struct ftrace_regs *regs)
{
	const struct file *file = (const struct file *)nosec_hook_arg(regs, 0);
	struct nosec_task *t = nosec_task_current();
	struct nosec_reopen r;

	if (!t || !t->reopen.dentry)
		return;
	r = t->reopen;
	t->reopen.dentry = NULL;
	if (file->f_path.dentry == r.dentry && file->f_path.mnt == r.mnt &&
	    nosec_reopen_exceeds(file, r.mode))
		nosec_hook_redirect(regs, nosec_reopen_denied);
}

/* The reopen rule's hooks. */
const struct nosec_hook_spec nosec_reopen_hooks[] = {
	NOSEC_HOOK(NOSEC_HOOK_PROC_FD_LINK, "proc_fd_link",
		   nosec_proc_fd_link_pre, "redirect",
		   "reopen: note the access of the descriptor /proc/PID/fd/N leads to"),
#ifdef NOSEC_HAVE_O_EMPTYPATH
	NOSEC_HOOK(NOSEC_HOOK_DO_FILE_OPEN, "do_file_open",
		   nosec_do_file_open_pre, "observe",
		   "reopen: note the access of the descriptor O_EMPTYPATH opens"),
#endif
	NOSEC_HOOK(NOSEC_HOOK_FILE_OPEN, "security_file_open",
		   nosec_file_open_pre, "redirect",
		   "reopen: no more access than that descriptor has (EACCES)"),
	{}
};
