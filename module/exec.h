/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nosec_exec - the exec: what the ban refuses (exec_ban.c), the nosecurity
 * exec (exec_nosec.c), its creds (exec_creds.c) and its ways in (exec_arm.c)
 */
#ifndef _NOSEC_EXEC_EXEC_H
#define _NOSEC_EXEC_EXEC_H

#include <linux/types.h>
#include <uapi/linux/nosec_exec.h>
#include "task.h"

struct ftrace_regs;
struct linux_binprm;

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
 * nosec_exec_forced() - is the task's current exec a forced one?
 * @flags: NOSEC_TASK_* bits of the task
 *
 * Return: true for a plain execve() or execveat() that force mode turns
 * into a nosecurity exec: its program never asked for one, so it gets the
 * credentials of a plain exec under no_new_privs (exec_creds.c), where an
 * explicit AT_EXECVE_NO_TRANSITION keeps the caller's.
 */
static inline bool nosec_exec_forced(unsigned int flags)
{
	return (flags & (NOSEC_TASK_FORCE_NOSEC | NOSEC_TASK_FLAG_EXEC)) ==
	       NOSEC_TASK_FORCE_NOSEC;
}

/* exec_arm.c: execveat() with AT_EXECVE_NO_TRANSITION; the ioctl becomes one */
long nosec_exec_arm(const struct nosec_execveat_args *args);
void nosec_exec_disarm(void);

/* exec_ban.c: the exec ban; every refused exec is refused here */
int nosec_exec_refused(void);
void nosec_ban_syscall_pre(struct ftrace_regs *regs);

/* exec_nosec.c: the exec without a security transition */
void nosec_bprm_check_pre(struct ftrace_regs *regs);
void nosec_read_checks_forget(struct nosec_task *t);
int nosec_read_checks_start(void);
void nosec_read_checks_stop(void);

/* exec_creds.c: a nosecurity exec's creds, the caller's or a forced exec's */
int nosec_forced_creds_start(void);
void nosec_forced_creds_stop(void);
int nosec_creds_compute_forced(struct linux_binprm *bprm);
void nosec_creds_keep_caller(struct linux_binprm *bprm, struct nosec_task *t);
bool nosec_creds_as_checked(const struct linux_binprm *bprm, unsigned int flags);
void nosec_creds_commit_dumpable(const struct nosec_task *t);

#endif /* _NOSEC_EXEC_EXEC_H */
