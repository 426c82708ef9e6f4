/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nosec_exec - what differs between the kernels the module builds for
 * (Debian's 6.1 and 6.12), each shim named for the feature it detects.
 * No kernel version is compared anywhere: a macro of the kernel's own
 * headers, or a Kbuild test of them (Kbuild: NOSEC_HAVE_*), decides.
 */
#ifndef _NOSEC_EXEC_COMPAT_H
#define _NOSEC_EXEC_COMPAT_H

#include <linux/ftrace.h>

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
