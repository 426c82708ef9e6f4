/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nosec_exec - the hooks: their ids, how a concern states its own, and the
 * helpers their handlers share (hooks.c)
 */
#ifndef _NOSEC_EXEC_HOOKS_H
#define _NOSEC_EXEC_HOOKS_H

#include <linux/types.h>
#include "arch.h"
#include "compat.h"

struct ftrace_regs;

/* In install order (hooks.c): enforcement first. */
enum nosec_hook_id {
	NOSEC_HOOK_SYS_EXECVE,
	NOSEC_HOOK_SYS_EXECVEAT,
	NOSEC_HOOK_COMPAT_SYS_EXECVE,
	NOSEC_HOOK_COMPAT_SYS_EXECVEAT,
#ifdef NOSEC_X32_SYSCALL
	NOSEC_HOOK_X32_SYS_EXECVE,
	NOSEC_HOOK_X32_SYS_EXECVEAT,
#endif
	NOSEC_HOOK_BPRM_EXECVE,
	NOSEC_HOOK_BPRM_CHECK,
	NOSEC_HOOK_OPEN_EXEC,
#ifdef NOSEC_HAVE_BPRM_OPEN_INTERPRETER
	NOSEC_HOOK_BPRM_OPEN_INTERPRETER,
#endif
#ifdef NOSEC_HAVE_EXECVE_CHECK
	NOSEC_HOOK_BPRM_CREDS_FOR_EXEC,
#endif
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
	NOSEC_HOOK_PROC_FD_LINK,
#ifdef NOSEC_HAVE_O_EMPTYPATH
	NOSEC_HOOK_DO_FILE_OPEN,
#endif
	NOSEC_HOOK_FILE_OPEN,
	NOSEC_HOOK_KEY_PERMISSION,
	NOSEC_HOOK_TOMOYO_ASSIGN_DOMAIN,
	NOSEC_HOOK_SELINUX_CREDS_FOR_EXEC,
	NOSEC_HOOK_TASK_PRCTL,
	NOSEC_NR_HOOKS,
};

/*
 * A hook handler: runs at the entry of the hooked function, with its
 * arguments in @regs (read with nosec_hook_arg(), compat.h); it may
 * redirect the call (nosec_hook_redirect()).  Whether preemption is off
 * there depends on the kernel's ftrace (off on 6.1, not always on 7.3): a
 * handler neither sleeps nor counts on it.  Calls made from the module
 * itself are not hooked.
 */
typedef void (*nosec_hook_fn)(struct ftrace_regs *regs);

/**
 * struct nosec_hook_spec - one hooked kernel function, as a concern states it
 * @id: the hook
 * @symbol: the kernel function
 * @handler: what runs at its entry
 * @kind: "observe", "redirect" or "direct", for the reader and the log
 * @what: what the hook does
 * @optional: a kernel built without this function loads without the hook
 * @every_task: runs for every task, tracked or not (execveat's entries:
 *	AT_EXECVE_NO_TRANSITION is for any task to pass)
 * @direct: a direct-call trampoline that replaces @handler
 *
 * Each concern keeps the table of its own hooks (exec_ban.c, exec_arm.c,
 * exec_nosec.c, task_life.c, scope.c, prctl.c), ended by an empty entry;
 * hooks.c places them all and makes them live together, in @id order.
 */
struct nosec_hook_spec {
	enum nosec_hook_id id;
	const char *symbol;
	nosec_hook_fn handler;
	const char *kind;
	const char *what;
	bool optional;
	bool every_task;
	void (*direct)(void);
};

#define NOSEC_HOOK(_id, _symbol, _handler, _kind, _what)		\
	{ .id = _id, .symbol = _symbol, .handler = _handler,		\
	  .kind = _kind, .what = _what }

/*
 * Only on kernels that have the function: the x32 syscalls (bprm_execve
 * covers them too), the compat ioctl LSM hook (older kernels check compat
 * ioctls through security_file_ioctl()).
 */
#define NOSEC_OPTIONAL_HOOK(_id, _symbol, _handler, _kind, _what)	\
	{ .id = _id, .symbol = _symbol, .handler = _handler,		\
	  .kind = _kind, .what = _what, .optional = true }

/*
 * Required where @_built_in (the feature it serves is in the kernel's
 * configuration), else optional: without TOMOYO's hook, a kernel with
 * TOMOYO would move a nosecurity exec to another domain; without
 * SELinux's, SELinux would judge the transition, not execute_no_trans.
 */
#define NOSEC_HOOK_IF_BUILT(_id, _built_in, _symbol, _handler, _kind, _what) \
	{ .id = _id, .symbol = _symbol, .handler = _handler,		\
	  .kind = _kind, .what = _what, .optional = !(_built_in) }

/* A direct ftrace call to a trampoline of the module's own. */
#define NOSEC_DIRECT_HOOK(_id, _symbol, _direct, _what)		\
	{ .id = _id, .symbol = _symbol, .direct = _direct,		\
	  .kind = "direct", .what = _what }

/* Each concern's table of hooks. */
extern const struct nosec_hook_spec nosec_exec_ban_hooks[];
extern const struct nosec_hook_spec nosec_exec_arm_hooks[];
extern const struct nosec_hook_spec nosec_exec_nosec_hooks[];
extern const struct nosec_hook_spec nosec_task_life_hooks[];
extern const struct nosec_hook_spec nosec_scope_hooks[];
extern const struct nosec_hook_spec nosec_reopen_hooks[];
extern const struct nosec_hook_spec nosec_session_hooks[];
extern const struct nosec_hook_spec nosec_prctl_hooks[];

int nosec_hooks_prepare(void);
void nosec_hooks_forget(void);
int nosec_hooks_enable(void);
void nosec_hooks_remove(void);
unsigned long nosec_hook_call(enum nosec_hook_id id, unsigned long arg0,
			      unsigned long arg1);
unsigned long nosec_hook_call3(enum nosec_hook_id id, unsigned long arg0,
			       unsigned long arg1, unsigned long arg2);
int nosec_branch_guard(void);
int nosec_branch_check(const char *what, unsigned long addr);
unsigned int nosec_branch_targets_checked(void);
int nosec_function_entry(const char *symbol, unsigned long *addr);
unsigned long nosec_hooks_missed(void);
void nosec_hook_redirect(struct ftrace_regs *regs, void *replacement);

#endif /* _NOSEC_EXEC_HOOKS_H */
