// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - what the module tells the audit log.
 *
 * The execs themselves are real execve()/execveat() syscalls (exec_arm.c),
 * so the rules an administrator already has (-S execve,execveat, -w PATH
 * -p x) record them as they record any exec.  What those records cannot
 * say is that an exec ran without a security transition, or that the
 * module refused one: for that the module adds one AUDIT_KERNEL_OTHER
 * record ("for use by 3rd party modules") per nosecurity exec, denied exec
 * and killed exec, in the syscall's own event (same serial as its SYSCALL
 * record), whenever auditing is enabled.  Audit's rate and backlog limits
 * apply to them as to any record.
 */
#include <linux/audit.h>

#include "audit.h"

/**
 * nosec_audit_exec() - one record about the current task's exec
 * @op: what happened: "exec_nosecurity", "exec_denied" or "exec_killed"
 * @how: why: "flag" (AT_EXECVE_NO_TRANSITION, from the ioctl or not),
 *	"force" (force mode),
 *	"restricted" (the exec ban), or what the last gate found
 * @res: 1 when the exec goes on, 0 when it is refused or killed
 * @gfp: allocation flags of the caller's context
 *
 * Nothing is logged while auditing is disabled.
 */
void nosec_audit_exec(const char *op, const char *how, int res, gfp_t gfp)
{
	struct audit_buffer *ab;

	if (!audit_enabled)
		return;
	ab = audit_log_start(audit_context(), gfp, AUDIT_KERNEL_OTHER);
	if (!ab)
		return;
	audit_log_format(ab, "nosec_exec op=%s how=%s", op, how);
	audit_log_task_info(ab);
	audit_log_format(ab, " res=%d", res);
	audit_log_end(ab);
}
