/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nosec_exec - what differs between the kernels the module builds for
 * (Debian's 6.1 and 6.12), each shim named for the feature it detects.
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
 * struct ftrace_regs: a struct pt_regs in its first member until it became
 * opaque, with arch_ftrace_regs() to reach the architecture's layout.
 */
#ifdef arch_ftrace_regs
#define nosec_ftrace_pt_regs(fregs)	(&arch_ftrace_regs(fregs)->regs)
#else
#define nosec_ftrace_pt_regs(fregs)	(&(fregs)->regs)
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
 * Call-depth tracking (a retbleed mitigation): code reached by a call
 * the kernel did not account, such as a direct ftrace trampoline, counts
 * the call itself.  Nothing to do on a kernel without it.
 */
#include <asm/nospec-branch.h>
#ifndef CALL_DEPTH_ACCOUNT
#define CALL_DEPTH_ACCOUNT ""
#endif

#endif /* _NOSEC_EXEC_COMPAT_H */
