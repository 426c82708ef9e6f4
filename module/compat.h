/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nosec_exec - what differs between the kernels the module builds for
 * (Debian's 6.1, 6.12 and 7.3), each shim named for the feature it
 * detects.
 * A macro of the kernel's own headers, or a Kbuild test of them (Kbuild:
 * NOSEC_HAVE_*), decides; Kbuild compares a kernel version only where a
 * change left no reliable trace in the headers
 * (NOSEC_IN_EXECVE_TOMOYO_ONLY), and only on top of such a test, towards
 * the safe side.
 */
#ifndef _NOSEC_EXEC_COMPAT_H
#define _NOSEC_EXEC_COMPAT_H

#include <linux/ftrace.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/security.h>
#include <linux/string.h>
#ifdef NOSEC_HAVE_TASK_EXEC_STATE
#include <linux/sched/exec_state.h>
#endif

/*
 * Whether a kernel worker opens the later files of a nosecurity exec for
 * the read check: where current->in_execve still hides an exec's opens
 * from AppArmor and TOMOYO (docs/design.md, "The read check's open").
 * The LSM side of that change touched no header; the flag's comment was
 * reworded to "tell TOMOYO" by a separate commit, which can reach a
 * stable tree alone.  So the caller opens the file itself only where the
 * comment says so and the kernel is at least the release both commits are
 * in (Kbuild: NOSEC_IN_EXECVE_TOMOYO_ONLY): a wrong guess towards the
 * worker costs time, the other way the check.
 */
#if defined(NOSEC_HAVE_IN_EXECVE) && !defined(NOSEC_IN_EXECVE_TOMOYO_ONLY)
#define NOSEC_READ_CHECK_WORKER
#endif

/*
 * The registers of a hooked call, as ftrace hands them over.  Where the
 * architecture has no ftrace_regs of its own (arm64 before 6.2: only
 * DYNAMIC_FTRACE_WITH_REGS), they are a struct pt_regs only if the ops
 * asks for all of them (NOSEC_FTRACE_OPS_REGS).  Where it has one, either
 * a struct pt_regs is inside it (x86-64; in its first member until
 * arch_ftrace_regs() made it opaque), or the architecture's accessors read
 * its own layout (arm64 since 6.2; Kbuild: NOSEC_HAVE_FTRACE_REGS_ARGUMENT).
 */
#ifdef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
#define NOSEC_FTRACE_OPS_REGS	0
#else
#define NOSEC_FTRACE_OPS_REGS	FTRACE_OPS_FL_SAVE_REGS
#endif

#ifdef NOSEC_HAVE_FTRACE_REGS_ARGUMENT
/* Argument @n (from 0) of the hooked call. */
#define nosec_hook_arg(fregs, n)	ftrace_regs_get_argument(fregs, n)
/* Where the hooked call goes on: its function, or a replacement. */
#define nosec_hook_set_ip(fregs, ip)	ftrace_regs_set_instruction_pointer(fregs, ip)
#else
#ifdef arch_ftrace_regs
#define nosec_ftrace_pt_regs(fregs)	(&arch_ftrace_regs(fregs)->regs)
#else
#define nosec_ftrace_pt_regs(fregs)	(&(fregs)->regs)
#endif
#define nosec_hook_arg(fregs, n)	\
	regs_get_kernel_argument(nosec_ftrace_pt_regs(fregs), n)
#define nosec_hook_set_ip(fregs, ip)	\
	instruction_pointer_set(nosec_ftrace_pt_regs(fregs), ip)
#endif

/*
 * The module's own text, as one range: a hook's dispatcher asks of every
 * hit whether the module made the call, and within_module() walks every
 * kind of module memory once the layout became one range per kind
 * (struct module_memory, Kbuild: NOSEC_HAVE_MODULE_MEMORY).  The calls it
 * must recognise come from the module's core text only.
 */
static inline void nosec_module_text(const struct module *mod,
				     unsigned long *base, unsigned long *size)
{
#ifdef NOSEC_HAVE_MODULE_MEMORY
	*base = (unsigned long)mod->mem[MOD_TEXT].base;
	*size = mod->mem[MOD_TEXT].size;
#else
	*base = (unsigned long)mod->core_layout.base;
	*size = mod->core_layout.text_size;
#endif
}

/*
 * Direct ftrace calls: registered by address until they took an ftrace_ops
 * of their own, filtered on the function (Kbuild: NOSEC_HAVE_DIRECT_OPS).
 */
#ifdef NOSEC_HAVE_DIRECT_OPS
static inline int nosec_register_direct(struct ftrace_ops *ops,
					unsigned long ip, void (*tramp)(void))
{
	int ret = ftrace_set_filter_ip(ops, ip, 0, 0);

	if (ret)
		return ret;
	ret = register_ftrace_direct(ops, (unsigned long)tramp);
	if (ret)
		ftrace_free_filter(ops);
	return ret;
}

static inline void nosec_unregister_direct(struct ftrace_ops *ops,
					   unsigned long ip,
					   void (*tramp)(void))
{
	unregister_ftrace_direct(ops, (unsigned long)tramp, true);
}
#else
static inline int nosec_register_direct(struct ftrace_ops *ops,
					unsigned long ip, void (*tramp)(void))
{
	return register_ftrace_direct(ip, (unsigned long)tramp);
}

static inline void nosec_unregister_direct(struct ftrace_ops *ops,
					   unsigned long ip,
					   void (*tramp)(void))
{
	unregister_ftrace_direct(ip, (unsigned long)tramp);
}
#endif

/*
 * The fs_struct a task shares with others: ->fs, or, where ->fs may point
 * for a moment at PID 1's (scoped_with_init_fs()), ->real_fs (Kbuild:
 * NOSEC_HAVE_REAL_FS), which exit_fs() and unshare() go by.
 */
#ifdef NOSEC_HAVE_REAL_FS
#define nosec_task_fs(t)	((t)->real_fs)
#else
#define nosec_task_fs(t)	((t)->fs)
#endif

/*
 * Current's dumpability: in its mm's flags, or, since the mm stopped
 * carrying it, in the task's exec_state (Kbuild:
 * NOSEC_HAVE_TASK_EXEC_STATE), which only the task itself replaces, at
 * exec, and which an exec has made the task's own by the time it commits
 * its creds.  NOSEC_DUMPABLE_OWNER is the value of a task that dumps and
 * is traced as its owner; ROOT and OFF are stricter, OFF the strictest.
 */
#ifdef NOSEC_HAVE_TASK_EXEC_STATE
#define NOSEC_DUMPABLE_OFF	TASK_DUMPABLE_OFF
#define NOSEC_DUMPABLE_OWNER	TASK_DUMPABLE_OWNER
#define NOSEC_DUMPABLE_ROOT	TASK_DUMPABLE_ROOT

static inline int nosec_current_dumpable(void)
{
	return READ_ONCE(rcu_dereference_protected(current->exec_state,
						   true)->dumpable);
}

static inline void nosec_current_set_dumpable(int value)
{
	WRITE_ONCE(rcu_dereference_protected(current->exec_state,
					     true)->dumpable, value);
}
#else
#define NOSEC_DUMPABLE_OFF	SUID_DUMP_DISABLE
#define NOSEC_DUMPABLE_OWNER	SUID_DUMP_USER
#define NOSEC_DUMPABLE_ROOT	SUID_DUMP_ROOT

/* A task without an mm (a kernel thread's exec) is its owner's. */
static inline int nosec_current_dumpable(void)
{
	return current->mm ? get_dumpable(current->mm) : SUID_DUMP_USER;
}

static inline void nosec_current_set_dumpable(int value)
{
	set_mask_bits(&current->mm->flags, MMF_DUMPABLE_MASK, value);
}
#endif

/*
 * The label the LSMs give current: one secid, or, since a task's label
 * is one property per LSM, a struct lsm_prop (Kbuild:
 * NOSEC_HAVE_LSM_PROP), compared whole.  Zeroed first: an LSM the kernel
 * does not run leaves its part as it was.
 */
#ifdef NOSEC_HAVE_LSM_PROP
struct nosec_label {
	struct lsm_prop prop;
};

static inline void nosec_current_label(struct nosec_label *label)
{
	memset(label, 0, sizeof(*label));
	security_current_getlsmprop_subj(&label->prop);
}
#else
struct nosec_label {
	u32 secid;
};

static inline void nosec_current_label(struct nosec_label *label)
{
	memset(label, 0, sizeof(*label));
	security_current_getsecid_subj(&label->secid);
}
#endif

/*
 * No VM flags for shmem_file_setup() (exec_creds.c's stand-in
 * file): a vma_flags_t on newer kernels, an unsigned long before.
 */
#ifdef NOSEC_HAVE_SHMEM_VMA_FLAGS
#define NOSEC_SHMEM_NO_FLAGS	EMPTY_VMA_FLAGS
#else
#define NOSEC_SHMEM_NO_FLAGS	0UL
#endif

static inline bool nosec_label_equal(const struct nosec_label *a,
				     const struct nosec_label *b)
{
	return !memcmp(a, b, sizeof(*a));
}

#endif /* _NOSEC_EXEC_COMPAT_H */
