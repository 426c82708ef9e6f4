// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - the table of every probe the module places, and the two
 * techniques the handlers share.
 *
 * Every hook is a kprobe on the entry of a kernel function (ftrace-based
 * on this kernel).  A handler either observes (returns 0: the function runs
 * as usual) or redirects: it points the saved instruction pointer at a
 * module function of the same prototype and returns 1, so the module
 * function runs instead, in the caller's process context, and returns to
 * the caller.  A replacement that wants the kernel's behaviour calls the
 * original function itself; the probe sees that call come from the module
 * and lets it through.
 *
 * No kretprobes: an entry kprobe in process context cannot run out of
 * instances, so an enforcement hook never silently misses.  A kprobe does
 * miss when it fires while another kprobe's handler runs on the CPU, which
 * happens to security_task_free() when an interrupt's softirq frees a task
 * (an RCU callback) during one of our handlers.  That hook is therefore a
 * plain ftrace_ops, which nests across contexts.
 *
 * Unload safety.  Handlers are covered by unregister_kprobe(), which waits
 * for running ones.  Replacements run outside the probe; those that may
 * sleep run only for tasks that pin the module: a restricted task holds a
 * module reference, an ioctl exec holds the device file.  The one that
 * any task can reach, prctl, takes a reference of its own.  The last few
 * instructions after a reference is dropped, and the replacements that
 * never sleep, are covered by synchronize_rcu_tasks() at unload.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/string.h>

#include "nosec.h"

/**
 * struct nosec_hook - one probe
 * @symbol: the kernel function probed
 * @handler: its handler, in kprobe pre_handler form
 * @kind: "observe" or "redirect" (kprobes), or "ftrace" (observe through
 *	an ftrace_ops), for the reader and the log
 * @what: what the hook does
 * @kp: the kprobe, registered from @symbol and @handler
 * @ops: the ftrace_ops of an "ftrace" hook
 * @ftrace_missed: hits an "ftrace" hook dropped under test_miss
 * @optional: a kernel built without this function loads without the hook
 * @miss: test_miss names this hook
 * @installed: the hook is registered
 */
struct nosec_hook {
	const char *symbol;
	kprobe_pre_handler_t handler;
	const char *kind;
	const char *what;
	struct kprobe kp;
	struct ftrace_ops ops;
	unsigned long ftrace_missed;
	bool optional;
	bool miss;
	bool installed;
};

#define NOSEC_HOOK(_id, _symbol, _handler, _kind, _what)		\
	[_id] = { .symbol = _symbol, .handler = _handler,		\
		  .kind = _kind, .what = _what }

/* Only on kernels built with the syscalls; bprm_execve covers them too. */
#define NOSEC_OPTIONAL_HOOK(_id, _symbol, _handler, _kind, _what)	\
	[_id] = { .symbol = _symbol, .handler = _handler,		\
		  .kind = _kind, .what = _what, .optional = true }

/* Test-only: make the registration of this symbol fail, to show unwind. */
static char *fail_probe;
module_param(fail_probe, charp, 0400);
MODULE_PARM_DESC(fail_probe,
		 "test only: fail the probe on this symbol (load must unwind)");

/* Test-only: probes on these symbols miss every hit, to show fail-closed. */
static char *test_miss;
module_param(test_miss, charp, 0400);
MODULE_PARM_DESC(test_miss,
		 "test only: comma-separated symbols whose probes miss every hit");

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

/* Stands in for a handler under test_miss: counted as a missed hit. */
static int nosec_hook_miss(struct kprobe *p, struct pt_regs *regs)
{
	p->nmissed++;
	return 0;
}

static bool nosec_hook_is_ftrace(const struct nosec_hook *h)
{
	return !strcmp(h->kind, "ftrace");
}

/* The ftrace_ops callback of an "ftrace" hook: runs its handler. */
static void notrace nosec_hook_ftrace(unsigned long ip,
				      unsigned long parent_ip,
				      struct ftrace_ops *op,
				      struct ftrace_regs *fregs)
{
	struct nosec_hook *h = container_of(op, struct nosec_hook, ops);
	struct pt_regs *regs = ftrace_get_regs(fregs);

	if (unlikely(h->miss)) {
		h->ftrace_missed++;
		return;
	}
	if (regs)
		h->handler(NULL, regs);
}

static int nosec_hook_register(struct nosec_hook *h)
{
	int ret;

	if (fail_probe && !strcmp(fail_probe, h->symbol))
		return -ENOENT;
	h->miss = nosec_hook_listed(test_miss, h->symbol);
	if (h->miss)
		pr_warn("test_miss: %s misses every hit\n", h->symbol);
	if (!nosec_hook_is_ftrace(h)) {
		h->kp.symbol_name = h->symbol;
		h->kp.pre_handler = h->miss ? nosec_hook_miss : h->handler;
		ret = register_kprobe(&h->kp);
		if (ret)
			return ret;
		if (h->kp.offset || !h->kp.addr) {
			unregister_kprobe(&h->kp);
			return -EINVAL;
		}
		return 0;
	}
	h->ops.func = nosec_hook_ftrace;
	h->ops.flags = FTRACE_OPS_FL_SAVE_REGS;
	ret = ftrace_set_filter(&h->ops, (unsigned char *)h->symbol,
				strlen(h->symbol), 0);
	if (!ret)
		ret = register_ftrace_function(&h->ops);
	if (ret)
		ftrace_free_filter(&h->ops);
	return ret;
}

static void nosec_hook_unregister(struct nosec_hook *h)
{
	if (nosec_hook_is_ftrace(h)) {
		unregister_ftrace_function(&h->ops);
		ftrace_free_filter(&h->ops);
	} else {
		unregister_kprobe(&h->kp);
	}
}

/*
 * The table, installed in this order and removed in reverse.  Enforcement
 * comes first and state creation last: by the time a task can restrict
 * itself (prctl) or inherit a restriction (task_alloc), the exec ban and
 * the free hook are already in place.
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
		   nosec_task_free_pre, "ftrace",
		   "drop the state of a task being freed"),
	NOSEC_HOOK(NOSEC_HOOK_TASK_ALLOC, "security_task_alloc",
		   nosec_task_alloc_pre, "redirect",
		   "copy a restricted parent's flags to the child, or fail the fork"),
	NOSEC_HOOK(NOSEC_HOOK_TASK_PRCTL, "security_task_prctl",
		   nosec_prctl_pre, "redirect",
		   "PR_RESTRICT_ME, PR_GET_RESTRICT, PR_[SG]ET_FORCE_EXECVE_NOSECURITY"),
};

/**
 * nosec_hooks_install() - register every probe, or none
 *
 * Return: 0, or the error of the first probe that failed, after every
 * probe already placed has been removed again; the log names the symbol.
 */
int nosec_hooks_install(void)
{
	int i, ret;

	for (i = 0; i < NOSEC_NR_HOOKS; i++) {
		struct nosec_hook *h = &nosec_hooks[i];

		ret = nosec_hook_register(h);
		if (ret == -ENOENT && h->optional) {
			pr_info("no %s in this kernel: hook skipped\n",
				h->symbol);
			continue;
		}
		if (ret) {
			pr_err("cannot probe %s: %d\n", h->symbol, ret);
			goto out_unregister;
		}
		h->installed = true;
		pr_debug("%s: %s, %s\n", h->symbol, h->kind, h->what);
	}
	return 0;

out_unregister:
	nosec_hooks_remove();
	return ret;
}

/**
 * nosec_hooks_remove() - unregister every probe, in reverse order
 *
 * On return no handler runs any more; the log reports missed hits.
 */
void nosec_hooks_remove(void)
{
	int i;

	for (i = NOSEC_NR_HOOKS - 1; i >= 0; i--) {
		struct nosec_hook *h = &nosec_hooks[i];

		if (!h->installed)
			continue;
		nosec_hook_unregister(h);
		h->installed = false;
		if (h->kp.nmissed + h->ftrace_missed)
			pr_warn("%s: missed %lu hits\n", h->symbol,
				h->kp.nmissed + h->ftrace_missed);
		memset(&h->kp, 0, sizeof(h->kp));
		memset(&h->ops, 0, sizeof(h->ops));
		h->ftrace_missed = 0;
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
	return (unsigned long)nosec_hooks[id].kp.addr;
}

/**
 * nosec_hooks_missed() - hits missed by all probes together
 *
 * Return: the sum of every probe's nmissed count.
 */
unsigned long nosec_hooks_missed(void)
{
	unsigned long missed = 0;
	int i;

	for (i = 0; i < NOSEC_NR_HOOKS; i++)
		missed += READ_ONCE(nosec_hooks[i].kp.nmissed) +
			  READ_ONCE(nosec_hooks[i].ftrace_missed);
	return missed;
}

/**
 * nosec_hook_called_by_us() - was the probed function called by the module?
 * @regs: registers at the probed function's entry
 *
 * At entry the stack pointer addresses the return address, so this tells
 * a replacement calling the original apart from any other caller.  The
 * module is built with -fno-optimize-sibling-calls so that such a call is
 * never turned into a jump.
 *
 * Return: true when the caller is module code.
 */
bool nosec_hook_called_by_us(struct pt_regs *regs)
{
	unsigned long ret_addr = *(unsigned long *)kernel_stack_pointer(regs);

	return within_module(ret_addr, THIS_MODULE);
}

/**
 * nosec_hook_redirect() - make a probed call run a module function instead
 * @regs: registers at the probed function's entry
 * @replacement: module function with the probed function's prototype
 *
 * Return: 1, the pre_handler value that makes kprobes resume at the new
 * instruction pointer.
 */
int nosec_hook_redirect(struct pt_regs *regs, void *replacement)
{
	instruction_pointer_set(regs, (unsigned long)replacement);
	return 1;
}
