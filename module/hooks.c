// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - the table of every hook the module places, and the two
 * techniques the handlers share.
 *
 * Every hook is an ftrace callback on the entry of a kernel function; one
 * ftrace_ops (IPMODIFY) carries them all, so they are installed and
 * removed in one step.  It does not ask for SAVE_REGS: on x86-64 with
 * DYNAMIC_FTRACE_WITH_ARGS the ftrace trampoline saves the argument
 * registers and honours a changed instruction pointer, as livepatch relies
 * on, and skipping the full register frame makes every hit cheaper.  A handler either observes (the function runs
 * as usual) or redirects: it points the saved instruction pointer at a
 * module function of the same prototype, which then runs instead, in the
 * caller's process context, and returns to the caller.  A replacement that
 * wants the kernel's behaviour calls the original function itself; the
 * dispatcher sees that call come from the module and lets it through.
 *
 * Why not kprobes: registering an ftrace-based kprobe while another CPU
 * runs the probed function can send that CPU, trapping on the int3 that
 * the text patching leaves for a moment, into the int3-kprobe path with no
 * instruction to single-step (seen here as a jump to address 0 during
 * insmod under exec load).  A plain ftrace_ops has no such window, is
 * cheaper per hit, and, handling recursion itself, can count every hit it
 * drops.
 *
 * Unload safety.  unregister_ftrace_function() waits for running handlers.
 * Replacements run outside the callback; those that may sleep run only for
 * tasks that pin the module: a restricted task holds a module reference,
 * an ioctl exec holds the device file.  The one that any task can reach,
 * prctl, takes a reference of its own.  The last few instructions after a
 * reference is dropped, and the replacements that never sleep, are
 * covered by synchronize_rcu_tasks() at unload.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/string.h>

#include "nosec.h"

#ifndef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
#error "nosec_exec needs DYNAMIC_FTRACE_WITH_ARGS (x86-64)"
#endif

/**
 * struct nosec_hook - one hooked kernel function
 * @symbol: the kernel function
 * @handler: what runs at its entry
 * @kind: "observe" or "redirect", for the reader and the log
 * @what: what the hook does
 * @optional: a kernel built without this function loads without the hook
 * @addr: the function's address, while the hook is installed
 * @missed: hits dropped (ftrace recursion guard, or test_miss)
 * @miss: test_miss names this hook
 */
struct nosec_hook {
	const char *symbol;
	nosec_hook_fn handler;
	const char *kind;
	const char *what;
	bool optional;
	unsigned long addr;
	atomic_long_t missed;
	bool miss;
};

#define NOSEC_HOOK(_id, _symbol, _handler, _kind, _what)		\
	[_id] = { .symbol = _symbol, .handler = _handler,		\
		  .kind = _kind, .what = _what }

/* Only on kernels built with the syscalls; bprm_execve covers them too. */
#define NOSEC_OPTIONAL_HOOK(_id, _symbol, _handler, _kind, _what)	\
	[_id] = { .symbol = _symbol, .handler = _handler,		\
		  .kind = _kind, .what = _what, .optional = true }

/* Test-only: fail the hook on this symbol, to show that a load unwinds. */
static char *fail_probe;
module_param(fail_probe, charp, 0400);
MODULE_PARM_DESC(fail_probe,
		 "test only: fail the hook on this symbol (load must unwind)");

/* Test-only: these hooks miss every hit, to show fail-closed. */
static char *test_miss;
module_param(test_miss, charp, 0400);
MODULE_PARM_DESC(test_miss,
		 "test only: comma-separated symbols whose hooks miss every hit");

/*
 * The table.  All hooks go live together, when the one ftrace_ops that
 * carries them is registered, so no task can restrict itself before the
 * exec ban is in place.
 */
static struct nosec_hook nosec_hooks[NOSEC_NR_HOOKS] = {
	NOSEC_HOOK(NOSEC_HOOK_SYS_EXECVE, "__x64_sys_execve",
		   nosec_ban_syscall_pre, "redirect",
		   "exec ban at execve entry (EPERM first)"),
	NOSEC_HOOK(NOSEC_HOOK_SYS_EXECVEAT, "__x64_sys_execveat",
		   nosec_ban_syscall_pre, "redirect",
		   "exec ban at execveat entry (EPERM first)"),
	NOSEC_HOOK(NOSEC_HOOK_COMPAT_SYS_EXECVE, "__ia32_compat_sys_execve",
		   nosec_ban_syscall_pre, "redirect",
		   "exec ban at 32-bit execve entry (EPERM first)"),
	NOSEC_HOOK(NOSEC_HOOK_COMPAT_SYS_EXECVEAT, "__ia32_compat_sys_execveat",
		   nosec_ban_syscall_pre, "redirect",
		   "exec ban at 32-bit execveat entry (EPERM first)"),
	NOSEC_OPTIONAL_HOOK(NOSEC_HOOK_X32_SYS_EXECVE,
			    "__x64_compat_sys_execve",
			    nosec_ban_syscall_pre, "redirect",
			    "exec ban at x32 execve entry (EPERM first)"),
	NOSEC_OPTIONAL_HOOK(NOSEC_HOOK_X32_SYS_EXECVEAT,
			    "__x64_compat_sys_execveat",
			    nosec_ban_syscall_pre, "redirect",
			    "exec ban at x32 execveat entry (EPERM first)"),
	NOSEC_HOOK(NOSEC_HOOK_BPRM_EXECVE, "bprm_execve",
		   nosec_ban_bprm_execve_pre, "redirect",
		   "exec ban, every entry point (EPERM before the file is opened)"),
	NOSEC_HOOK(NOSEC_HOOK_BPRM_CHECK, "security_bprm_check",
		   nosec_bprm_check_pre, "redirect",
		   "nosecurity: require read access on each file of the chain"),
	NOSEC_HOOK(NOSEC_HOOK_OPEN_EXEC, "open_exec",
		   nosec_open_exec_pre, "redirect",
		   "nosecurity: require read access on interpreters"),
	NOSEC_HOOK(NOSEC_HOOK_BPRM_CREDS_FROM_FILE,
		   "security_bprm_creds_from_file",
		   nosec_creds_from_file_pre, "redirect",
		   "nosecurity: discard the new creds, keep the caller's"),
	NOSEC_HOOK(NOSEC_HOOK_BPRM_COMMITTING_CREDS,
		   "security_bprm_committing_creds",
		   nosec_committing_creds_pre, "observe",
		   "last gate: keep dumpability; kill an exec that got past a missed hook"),
	NOSEC_HOOK(NOSEC_HOOK_TASK_FREE, "security_task_free",
		   nosec_task_free_pre, "observe",
		   "drop the state of a task being freed"),
	NOSEC_HOOK(NOSEC_HOOK_TASK_ALLOC, "security_task_alloc",
		   nosec_task_alloc_pre, "redirect",
		   "copy a restricted parent's flags to the child, or fail the fork"),
	NOSEC_HOOK(NOSEC_HOOK_TASK_PRCTL, "security_task_prctl",
		   nosec_prctl_pre, "redirect",
		   "PR_RESTRICT_ME, PR_GET_RESTRICT, PR_[SG]ET_FORCE_EXECVE_NOSECURITY"),
};

static struct ftrace_ops nosec_ftrace_ops;

static bool nosec_hook_listed(const char *list, const char *symbol)
{
	size_t len = strlen(symbol);
	const char *p = list;

	while (p && *p) {
		if (!strncmp(p, symbol, len) && (p[len] == ',' || !p[len]))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

/* The function's address, without arming anything: a disabled kprobe. */
static int nosec_symbol_address(const char *symbol, unsigned long *addr)
{
	struct kprobe kp = {
		.symbol_name = symbol,
		.flags = KPROBE_FLAG_DISABLED,
	};
	int ret;

	ret = register_kprobe(&kp);
	if (ret)
		return ret;
	*addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	return 0;
}

static struct nosec_hook *nosec_hook_at(unsigned long ip)
{
	int i;

	for (i = 0; i < NOSEC_NR_HOOKS; i++)
		if (nosec_hooks[i].addr == ip)
			return &nosec_hooks[i];
	return NULL;
}

/* The ftrace callback of every hook. */
static void notrace nosec_hook_dispatch(unsigned long ip,
					unsigned long parent_ip,
					struct ftrace_ops *op,
					struct ftrace_regs *fregs)
{
	/* The arguments and ip, saved by ftrace_caller (no SAVE_REGS). */
	struct pt_regs *regs = &fregs->regs;
	struct nosec_hook *h = nosec_hook_at(ip);
	int bit;

	if (unlikely(!h))
		return;
	bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (unlikely(bit < 0)) {
		atomic_long_inc(&h->missed);
		return;
	}
	/* Preemption is off from here to the unlock. */
	if (unlikely(h->miss))
		atomic_long_inc(&h->missed);
	else if (!within_module(parent_ip, THIS_MODULE))
		h->handler(regs);
	ftrace_test_recursion_unlock(bit);
}

static int nosec_hook_resolve(struct nosec_hook *h)
{
	unsigned long addr = 0;
	int ret;

	h->miss = nosec_hook_listed(test_miss, h->symbol);
	if (h->miss)
		pr_warn("test_miss: %s misses every hit\n", h->symbol);
	if (fail_probe && !strcmp(fail_probe, h->symbol))
		return -ENOENT;
	ret = nosec_symbol_address(h->symbol, &addr);
	if (ret)
		return ret;
	h->addr = addr;
	return ftrace_set_filter_ip(&nosec_ftrace_ops, addr, 0, 0);
}

/**
 * nosec_hooks_install() - hook every function, or none
 *
 * Return: 0, or the error of the first hook that could not be placed,
 * after undoing everything; the log names the symbol.
 */
int nosec_hooks_install(void)
{
	int i, ret;

	nosec_ftrace_ops.func = nosec_hook_dispatch;
	nosec_ftrace_ops.flags = FTRACE_OPS_FL_IPMODIFY |
				 FTRACE_OPS_FL_RECURSION;
	for (i = 0; i < NOSEC_NR_HOOKS; i++) {
		struct nosec_hook *h = &nosec_hooks[i];

		ret = nosec_hook_resolve(h);
		if (ret == -ENOENT && h->optional) {
			pr_info("no %s in this kernel: hook skipped\n",
				h->symbol);
			continue;
		}
		if (ret) {
			pr_err("cannot probe %s: %d\n", h->symbol, ret);
			goto out_free_filter;
		}
		pr_debug("%s: %s, %s\n", h->symbol, h->kind, h->what);
	}
	ret = register_ftrace_function(&nosec_ftrace_ops);
	if (ret) {
		pr_err("cannot register the hooks with ftrace: %d\n", ret);
		goto out_free_filter;
	}
	return 0;

out_free_filter:
	ftrace_free_filter(&nosec_ftrace_ops);
	for (i = 0; i < NOSEC_NR_HOOKS; i++)
		nosec_hooks[i].addr = 0;
	return ret;
}

/**
 * nosec_hooks_remove() - remove every hook
 *
 * On return no handler runs any more; the log reports missed hits.
 */
void nosec_hooks_remove(void)
{
	int i;

	unregister_ftrace_function(&nosec_ftrace_ops);
	ftrace_free_filter(&nosec_ftrace_ops);
	for (i = 0; i < NOSEC_NR_HOOKS; i++) {
		struct nosec_hook *h = &nosec_hooks[i];
		long missed = atomic_long_read(&h->missed);

		if (missed)
			pr_warn("%s: missed %ld hits\n", h->symbol, missed);
		h->addr = 0;
	}
}

/**
 * nosec_hook_original() - address of a hooked kernel function
 * @id: the hook
 *
 * Only valid while the hooks are installed.
 *
 * Return: the function's entry address, to call it from a replacement.
 */
unsigned long nosec_hook_original(enum nosec_hook_id id)
{
	return nosec_hooks[id].addr;
}

/**
 * nosec_hooks_missed() - hits missed by all hooks together
 *
 * Return: the sum of every hook's missed count.
 */
unsigned long nosec_hooks_missed(void)
{
	unsigned long missed = 0;
	int i;

	for (i = 0; i < NOSEC_NR_HOOKS; i++)
		missed += atomic_long_read(&nosec_hooks[i].missed);
	return missed;
}

/**
 * nosec_hook_redirect() - make a hooked call run a module function instead
 * @regs: registers at the hooked function's entry
 * @replacement: module function with the hooked function's prototype
 */
void nosec_hook_redirect(struct pt_regs *regs, void *replacement)
{
	instruction_pointer_set(regs, (unsigned long)replacement);
}
