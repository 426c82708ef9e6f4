// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - the table of every hook the module places, and the two
 * techniques the handlers share.
 *
 * Every exec and task hook is an ftrace callback on the entry of a kernel
 * function, all carried by one ftrace_ops (IPMODIFY), so they go live and
 * go away in one step; while no task carries state they have nothing to
 * do and return at once, but for execveat's entries, where any task may
 * ask for a nosecurity exec (AT_EXECVE_NO_TRANSITION).  The ops does
 * not ask for SAVE_REGS: on x86-64 with DYNAMIC_FTRACE_WITH_ARGS the
 * ftrace trampoline saves the argument registers and honours a changed
 * instruction pointer, as livepatch relies on, and skipping the full
 * register frame makes every hit cheaper.
 *
 * The prctl hook is a direct ftrace call instead (prctl.c): every prctl()
 * on the machine passes there, and a two-comparison stub costs the other
 * options much less than the ftrace trampoline would.  It goes live after
 * the exec and task hooks, so no task can restrict itself before the ban
 * is in place, and goes away first.
 *
 * A handler either observes (the function runs as usual) or redirects:
 * it points the saved instruction pointer at a module function of the
 * same prototype, which then runs instead, in the caller's process
 * context, and returns to the caller.  A replacement that wants the
 * kernel's behaviour runs the original function itself, through
 * nosec_hook_call(), which enters it by a return rather than an indirect
 * call (IBT, see call_original.S); the dispatcher sees that call come
 * from the module and lets it through.
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
 * a nosecurity execveat takes one of its own.  The one that any task can reach,
 * prctl, takes a reference of its own.  The last few instructions after a
 * reference is dropped, and the replacements that never sleep, are
 * covered by synchronize_rcu_tasks() at unload.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/ibt.h>

#include "compat.h"
#include "nosec.h"

#ifndef CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS
#error "nosec_exec needs DYNAMIC_FTRACE_WITH_ARGS (x86-64)"
#endif

/**
 * struct nosec_hook - one hooked kernel function
 * @symbol: the kernel function
 * @handler: what runs at its entry
 * @kind: "observe", "redirect" or "direct", for the reader and the log
 * @what: what the hook does
 * @optional: a kernel built without this function loads without the hook
 * @every_task: runs for every task, tracked or not (execveat's entries:
 *	AT_EXECVE_NO_TRANSITION is for any task to pass)
 * @direct: a direct-call trampoline that replaces @handler
 * @direct_ops: the ftrace_ops of the direct call, where the kernel wants one
 * @addr: the function's address (its ftrace site), while the hook is
 *	installed
 * @missed: hits dropped (only the test build drops any: test_miss)
 * @miss: the test build's test_miss names this hook (never set otherwise)
 */
struct nosec_hook {
	const char *symbol;
	nosec_hook_fn handler;
	const char *kind;
	const char *what;
	bool optional;
	bool every_task;
	void (*direct)(void);
	struct ftrace_ops direct_ops;
	unsigned long addr;
	atomic_long_t missed;
	bool miss;
};

#define NOSEC_HOOK(_id, _symbol, _handler, _kind, _what)		\
	[_id] = { .symbol = _symbol, .handler = _handler,		\
		  .kind = _kind, .what = _what }

/*
 * Only on kernels that have the function: the x32 syscalls (bprm_execve
 * covers them too), the compat ioctl LSM hook (older kernels check compat
 * ioctls through security_file_ioctl()).
 */
#define NOSEC_OPTIONAL_HOOK(_id, _symbol, _handler, _kind, _what)	\
	[_id] = { .symbol = _symbol, .handler = _handler,		\
		  .kind = _kind, .what = _what, .optional = true }

/*
 * Required where @_built_in (the feature it serves is in the kernel's
 * configuration), else optional: without TOMOYO's hook, a kernel with
 * TOMOYO would move a nosecurity exec to another domain; without
 * SELinux's, SELinux would judge the transition, not execute_no_trans.
 */
#define NOSEC_HOOK_IF_BUILT(_id, _built_in, _symbol, _handler, _kind, _what) \
	[_id] = { .symbol = _symbol, .handler = _handler,		\
		  .kind = _kind, .what = _what, .optional = !(_built_in) }

/*
 * execveat()'s entry in one ABI: the nosecurity exec (any task that passes
 * AT_EXECVE_NO_TRANSITION), and the exec ban.
 */
#define NOSEC_EXECVEAT_HOOK(_id, _symbol, _optional, _what)		\
	[_id] = { .symbol = _symbol, .handler = nosec_execveat_pre,	\
		  .kind = "redirect", .what = _what,			\
		  .optional = _optional, .every_task = true }

/* A direct ftrace call to a trampoline of the module's own. */
#define NOSEC_DIRECT_HOOK(_id, _symbol, _direct, _what)		\
	[_id] = { .symbol = _symbol, .direct = _direct,		\
		  .kind = "direct", .what = _what }

/*
 * The table.  The handler hooks go live together, when nosec_ftrace_ops
 * is registered; the direct hook after them.
 */
static struct nosec_hook nosec_hooks[NOSEC_NR_HOOKS] = {
	NOSEC_HOOK(NOSEC_HOOK_SYS_EXECVE, "__x64_sys_execve",
		   nosec_ban_syscall_pre, "redirect",
		   "exec ban at execve entry (EPERM first)"),
	NOSEC_EXECVEAT_HOOK(NOSEC_HOOK_SYS_EXECVEAT, "__x64_sys_execveat", false,
			    "nosecurity exec (the flag); exec ban at execveat entry"),
	NOSEC_HOOK(NOSEC_HOOK_COMPAT_SYS_EXECVE, "__ia32_compat_sys_execve",
		   nosec_ban_syscall_pre, "redirect",
		   "exec ban at 32-bit execve entry (EPERM first)"),
	NOSEC_EXECVEAT_HOOK(NOSEC_HOOK_COMPAT_SYS_EXECVEAT,
			    "__ia32_compat_sys_execveat", false,
			    "nosecurity exec; exec ban at 32-bit execveat entry"),
	NOSEC_OPTIONAL_HOOK(NOSEC_HOOK_X32_SYS_EXECVE,
			    "__x64_compat_sys_execve",
			    nosec_ban_syscall_pre, "redirect",
			    "exec ban at x32 execve entry (EPERM first)"),
	NOSEC_EXECVEAT_HOOK(NOSEC_HOOK_X32_SYS_EXECVEAT,
			    "__x64_compat_sys_execveat", true,
			    "nosecurity exec; exec ban at x32 execveat entry"),
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
		   "nosecurity: keep the caller's ids, capabilities, label"),
	NOSEC_HOOK(NOSEC_HOOK_CAP_CREDS_FROM_FILE, "cap_bprm_creds_from_file",
		   nosec_cap_creds_from_file_pre, "redirect",
		   "nosecurity: no set-ID, no file capabilities (nor their audit)"),
	NOSEC_HOOK(NOSEC_HOOK_BPRM_COMMITTING_CREDS,
		   "security_bprm_committing_creds",
		   nosec_committing_creds_pre, "observe",
		   "last gate: keep dumpability; kill an exec that got past a missed hook"),
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
	NOSEC_HOOK(NOSEC_HOOK_TASK_FREE, "security_task_free",
		   nosec_task_free_pre, "observe",
		   "drop the state of a task being freed"),
	NOSEC_HOOK(NOSEC_HOOK_TASK_ALLOC, "security_task_alloc",
		   nosec_task_alloc_pre, "redirect",
		   "copy a restricted parent's flags to the child, or fail the fork"),
	NOSEC_HOOK(NOSEC_HOOK_CGROUP_CAN_FORK, "cgroup_can_fork",
		   nosec_fork_check_pre, "redirect",
		   "the child carries the parent's flags now, or no fork"),
	NOSEC_HOOK(NOSEC_HOOK_CGROUP_POST_FORK, "cgroup_post_fork",
		   nosec_fork_done_pre, "redirect",
		   "a parent restricted during its fork: the child too, before it runs"),
	NOSEC_HOOK(NOSEC_HOOK_PTRACE_ACCESS_CHECK,
		   "security_ptrace_access_check",
		   nosec_ptrace_access_pre, "redirect",
		   "scope: a restricted task ptraces only tasks restricted as much"),
	NOSEC_HOOK(NOSEC_HOOK_PTRACE_TRACEME, "security_ptrace_traceme",
		   nosec_ptrace_traceme_pre, "redirect",
		   "scope: PTRACE_TRACEME only to a parent restricted no more"),
	NOSEC_HOOK(NOSEC_HOOK_ARCH_PTRACE, "arch_ptrace",
		   nosec_ptrace_request_pre, "redirect",
		   "scope: no ptrace request but DETACH on a tracee out of scope"),
	NOSEC_OPTIONAL_HOOK(NOSEC_HOOK_COMPAT_ARCH_PTRACE, "compat_arch_ptrace",
			    nosec_compat_ptrace_request_pre, "redirect",
			    "scope: the same for a 32-bit tracer"),
	NOSEC_HOOK(NOSEC_HOOK_FILE_IOCTL, "security_file_ioctl",
		   nosec_file_ioctl_pre, "redirect",
		   "scope: no TIOCSTI from a restricted task"),
	NOSEC_OPTIONAL_HOOK(NOSEC_HOOK_FILE_IOCTL_COMPAT,
			    "security_file_ioctl_compat",
			    nosec_file_ioctl_pre, "redirect",
			    "scope: no TIOCSTI from a restricted task (compat)"),
	NOSEC_OPTIONAL_HOOK(NOSEC_HOOK_SET_SELECTION, "set_selection_user",
			    nosec_selection_pre, "redirect",
			    "scope: no TIOCL_SETSEL (select, mouse report) when restricted"),
	NOSEC_OPTIONAL_HOOK(NOSEC_HOOK_PASTE_SELECTION, "paste_selection",
			    nosec_selection_pre, "redirect",
			    "scope: no TIOCL_PASTESEL from a restricted task"),
	NOSEC_HOOK(NOSEC_HOOK_TASK_WORK_ADD, "task_work_add",
		   nosec_task_work_add_pre, "redirect",
		   "scope: no session keyring to a parent restricted less"),
	NOSEC_HOOK(NOSEC_HOOK_PRLIMIT, "do_prlimit",
		   nosec_prlimit_pre, "redirect",
		   "scope: no new resource limits on a task restricted less"),
	NOSEC_DIRECT_HOOK(NOSEC_HOOK_TASK_PRCTL, "security_task_prctl",
			  nosec_prctl_direct,
			  "PR_RESTRICT_ME, PR_GET_RESTRICT, PR_[SG]ET_FORCE_EXECVE_NOSECURITY"),
};

static struct ftrace_ops nosec_ftrace_ops;

/*
 * The function's address, without arming anything: a disabled kprobe.
 * It is the function's ftrace site (after an endbr64, or its seal) when
 * the function has one: then @ftrace_site says so, from the kernel's own
 * table (the kprobe uses ftrace there).
 */
static int nosec_symbol_address(const char *symbol, unsigned long *addr,
				bool *ftrace_site)
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
	*ftrace_site = kprobe_ftrace(&kp);
	unregister_kprobe(&kp);
	return 0;
}

/*
 * Which handler hook an ftrace hit is for: slots indexed by a hash of the
 * function's address, open addressing, each holding a hook's index + 1 (0:
 * empty).  Filled as the addresses become known, before the hooks go
 * live; emptied after they are gone.  A hit costs a hash and a compare or
 * two rather than a walk over the table (every hook of every task runs
 * the dispatcher while any task carries state).
 */
#define NOSEC_HOOK_SLOT_BITS	6
static u8 nosec_hook_slots[1 << NOSEC_HOOK_SLOT_BITS];
static_assert(ARRAY_SIZE(nosec_hook_slots) > 2 * NOSEC_NR_HOOKS);

static __always_inline unsigned int nosec_hook_slot_next(unsigned int slot)
{
	return (slot + 1) & (ARRAY_SIZE(nosec_hook_slots) - 1);
}

static void nosec_hook_slot_add(const struct nosec_hook *h)
{
	unsigned int slot = hash_long(h->addr, NOSEC_HOOK_SLOT_BITS);

	while (nosec_hook_slots[slot])
		slot = nosec_hook_slot_next(slot);
	nosec_hook_slots[slot] = h - nosec_hooks + 1;
}

static __always_inline struct nosec_hook *nosec_hook_at(unsigned long ip)
{
	unsigned int slot = hash_long(ip, NOSEC_HOOK_SLOT_BITS);
	u8 i;

	while ((i = nosec_hook_slots[slot])) {
		if (nosec_hooks[i - 1].addr == ip)
			return &nosec_hooks[i - 1];
		slot = nosec_hook_slot_next(slot);
	}
	return NULL;
}

/*
 * The addresses of the hooks that run for every task (@every_task), for
 * the one check that hits of the others make while no task carries state.
 */
#define NOSEC_EVERY_TASK_HOOKS	3	/* execveat: 64-bit, ia32, x32 */
static unsigned long nosec_every_task_addrs[NOSEC_EVERY_TASK_HOOKS];

static void nosec_every_task_add(const struct nosec_hook *h)
{
	int i;

	for (i = 0; i < NOSEC_EVERY_TASK_HOOKS; i++) {
		if (!nosec_every_task_addrs[i]) {
			nosec_every_task_addrs[i] = h->addr;
			return;
		}
	}
	WARN_ON_ONCE(1);	/* the table has more: raise the count */
}

static __always_inline bool nosec_hook_for_every_task(unsigned long ip)
{
	int i;

	for (i = 0; i < NOSEC_EVERY_TASK_HOOKS; i++)
		if (nosec_every_task_addrs[i] == ip)
			return true;
	return false;
}

/* The module's core text: a call from there is the module's own. */
static unsigned long nosec_text_base, nosec_text_size;

static __always_inline bool nosec_called_by_module(unsigned long parent_ip)
{
	return parent_ip - nosec_text_base < nosec_text_size;
}

/*
 * Find the hook and run its handler, unless the call is the module's.
 *
 * No recursion guard, here or in ftrace (the ops does not ask for
 * FTRACE_OPS_FL_RECURSION, whose guard drops hits without a trace): no
 * handler calls a function the module hooks, so a hook cannot recurse
 * into itself, and a hit inside another ftrace callback is handled like
 * any other.  The only hits the module does not see are those the test
 * build's test_miss drops, counted in missed.
 */
static void notrace nosec_hook_dispatch(unsigned long ip,
					unsigned long parent_ip,
					struct pt_regs *regs)
{
	struct nosec_hook *h = nosec_hook_at(ip);

	if (unlikely(!h))
		return;
	if (unlikely(h->miss))
		atomic_long_inc(&h->missed);
	else if (!nosec_called_by_module(parent_ip))
		h->handler(regs);
}

/*
 * The ftrace callback of every handler hook.  @fregs holds the arguments
 * and ip that ftrace_caller saved (no SAVE_REGS), as a struct pt_regs.
 */
static void notrace nosec_hook_callback(unsigned long ip,
					unsigned long parent_ip,
					struct ftrace_ops *op,
					struct ftrace_regs *fregs)
{
	/* No task carries state: a no-op, but for execveat's entries. */
	if (likely(!nosec_task_count()) && !nosec_hook_for_every_task(ip))
		return;
	nosec_hook_dispatch(ip, parent_ip, nosec_ftrace_pt_regs(fregs));
}

static int nosec_hook_resolve(struct nosec_hook *h)
{
	unsigned long addr = 0;
	bool ftrace_site;
	int ret;

	/* A direct hook has no dispatcher to miss in. */
	h->miss = !h->direct && nosec_fault_miss(h->symbol);
	if (nosec_fault_probe(h->symbol))
		return -ENOENT;
	ret = nosec_symbol_address(h->symbol, &addr, &ftrace_site);
	if (ret)
		return ret;
	/*
	 * The module hooks the function at its ftrace site and enters it
	 * there (nosec_hook_call()): the address must be that site, as
	 * ftrace's own table has it, or the kernel is not one the module
	 * knows (a function without an ftrace site at its entry).
	 */
	if (!ftrace_site) {
		pr_err("%s: no ftrace site at its entry (%pS): unknown kernel\n",
		       h->symbol, (void *)addr);
		return -ENOEXEC;
	}
	h->addr = addr;
	if (h->direct)
		return 0;
	ret = ftrace_set_filter_ip(&nosec_ftrace_ops, h->addr, 0, 0);
	if (ret)
		return ret;
	nosec_hook_slot_add(h);
	if (h->every_task)
		nosec_every_task_add(h);
	return 0;
}

/**
 * nosec_hooks_forget() - undo nosec_hooks_prepare()
 *
 * For a load that fails before the hooks go live.
 */
void nosec_hooks_forget(void)
{
	int i;

	ftrace_free_filter(&nosec_ftrace_ops);
	memset(nosec_hook_slots, 0, sizeof(nosec_hook_slots));
	memset(nosec_every_task_addrs, 0, sizeof(nosec_every_task_addrs));
	for (i = 0; i < NOSEC_NR_HOOKS; i++)
		nosec_hooks[i].addr = 0;
}

/**
 * nosec_hooks_prepare() - find every hooked function, place nothing
 *
 * Return: 0 when the IBT guard passes, every address is known and is its
 * function's ftrace site, and the ftrace filter is set (the
 * steps that can fail before any hook goes live), or the error of the
 * first symbol that could not be found, after undoing everything; the log
 * names the symbol.
 */
int nosec_hooks_prepare(void)
{
	int i, ret;

	ret = nosec_ibt_guard();
	if (ret)
		return ret;
	nosec_module_text(THIS_MODULE, &nosec_text_base, &nosec_text_size);
	nosec_ftrace_ops.func = nosec_hook_callback;
	/*
	 * IPMODIFY: handlers redirect.  PERMANENT: the ftrace_enabled sysctl
	 * cannot turn the hooks off while they are registered (it fails with
	 * EBUSY), as for livepatch.  No RECURSION: see nosec_hook_dispatch().
	 */
	nosec_ftrace_ops.flags = FTRACE_OPS_FL_IPMODIFY |
				 FTRACE_OPS_FL_PERMANENT;
	for (i = 0; i < NOSEC_NR_HOOKS; i++) {
		struct nosec_hook *h = &nosec_hooks[i];

		ret = nosec_hook_resolve(h);
		if (ret == -ENOENT && h->optional) {
			pr_info("no %s in this kernel: hook skipped\n",
				h->symbol);
			continue;
		}
		if (ret) {
			pr_err("cannot probe %s: %d; it is needed for: %s\n",
			       h->symbol, ret, h->what);
			goto out_forget;
		}
		pr_debug("%s: %s, %s\n", h->symbol, h->kind, h->what);
	}
	return 0;

out_forget:
	nosec_hooks_forget();
	return ret;
}

static void nosec_direct_hook_remove(struct nosec_hook *h)
{
	if (h->direct && h->addr)
		nosec_unregister_direct(&h->direct_ops, h->addr, h->direct);
}

static int nosec_direct_hooks_install(void)
{
	int i, ret;

	for (i = 0; i < NOSEC_NR_HOOKS; i++) {
		struct nosec_hook *h = &nosec_hooks[i];

		if (!h->direct || !h->addr)
			continue;
		ret = nosec_fault_step("direct") ?:
		      nosec_register_direct(&h->direct_ops, h->addr, h->direct);
		if (ret) {
			pr_err("cannot probe %s: %d\n", h->symbol, ret);
			goto out_remove_direct;
		}
	}
	return 0;

out_remove_direct:
	while (--i >= 0)
		nosec_direct_hook_remove(&nosec_hooks[i]);
	return ret;
}

static void nosec_direct_hooks_remove(void)
{
	int i;

	for (i = NOSEC_NR_HOOKS - 1; i >= 0; i--)
		nosec_direct_hook_remove(&nosec_hooks[i]);
}

/**
 * nosec_hooks_enable() - make every prepared hook live, or none
 *
 * Return: 0 when the handler hooks went live together, then the direct
 * prctl hook (none of them has anything to do yet: no task acquires state
 * before the module is marked live), or the registration error, after
 * undoing everything, the prepared addresses included.
 */
int nosec_hooks_enable(void)
{
	int ret;

	ret = nosec_fault_step("ftrace") ?:
	      register_ftrace_function(&nosec_ftrace_ops);
	if (ret) {
		pr_err("cannot register the hooks with ftrace: %d\n", ret);
		goto out_forget;
	}
	ret = nosec_direct_hooks_install();
	if (ret)
		goto out_unregister_ops;
	return 0;

out_unregister_ops:
	unregister_ftrace_function(&nosec_ftrace_ops);
out_forget:
	nosec_hooks_forget();
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

	nosec_direct_hooks_remove();
	unregister_ftrace_function(&nosec_ftrace_ops);
	for (i = 0; i < NOSEC_NR_HOOKS; i++) {
		struct nosec_hook *h = &nosec_hooks[i];
		long missed = atomic_long_read(&h->missed);

		if (missed)
			pr_warn("%s: missed %ld hits\n", h->symbol, missed);
	}
	nosec_hooks_forget();
}

/**
 * nosec_hook_call() - run a hooked kernel function from its replacement
 * @id: the hook
 * @arg0: the function's first argument
 * @arg1: its second argument, or 0 (no hooked function takes more)
 *
 * Enters the function at its ftrace site by a return, never by an
 * indirect call (call_original.S); the hook's dispatcher lets the call
 * through, since it comes from the module.  Only while the hooks are
 * installed.
 *
 * Return: the function's return value, in a register's width; the caller
 * narrows it to the function's return type.
 */
unsigned long nosec_hook_call(enum nosec_hook_id id, unsigned long arg0,
			      unsigned long arg1)
{
	return nosec_call_original(arg0, arg1, 0, 0, 0, nosec_hooks[id].addr);
}

/* The 4 bytes of kernel text at @addr, little-endian; false if unreadable. */
static bool nosec_text32(unsigned long addr, u32 *insn)
{
	return !copy_from_kernel_nofault(insn, (void *)addr, sizeof(*insn));
}

/* Does the kernel text at @addr hold an endbr64 (f3 0f 1e fa), not its seal? */
static bool nosec_endbr_at(unsigned long addr)
{
	u32 insn;

	return nosec_text32(addr, &insn) && insn == 0xfa1e0ff3;
}

/* Was there an endbr64 at @addr when the kernel was built (maybe sealed)? */
static bool nosec_endbr_or_seal_at(unsigned long addr)
{
	u32 insn;

	return nosec_text32(addr, &insn) && is_endbr(insn);
}

/**
 * nosec_function_entry() - the address a pointer to a kernel function holds
 * @symbol: the function
 * @addr: where the address goes
 *
 * The kprobe lookup steps over an endbr64 (or its seal), which a pointer
 * to the function points at: the address is stepped back over it.  For
 * comparing with a function pointer the kernel stored; never called.
 *
 * Return: 0, or the lookup's error (-ENOENT: no such function).
 */
int nosec_function_entry(const char *symbol, unsigned long *addr)
{
	bool ftrace_site;
	int ret;

	ret = nosec_symbol_address(symbol, addr, &ftrace_site);
	if (ret)
		return ret;
	if (HAS_KERNEL_IBT && nosec_endbr_or_seal_at(*addr - ENDBR_INSN_SIZE))
		*addr -= ENDBR_INSN_SIZE;
	return 0;
}

/*
 * May the module branch indirectly to @addr?  On a kernel built with
 * X86_KERNEL_IBT an indirect call or jump must land on an endbr64, or the
 * CPU raises a control-protection fault; the kernel also seals the
 * endbr64 of functions whose address it never takes.
 */
static int nosec_ibt_check(const char *what, unsigned long addr)
{
	if (!HAS_KERNEL_IBT)
		return 0;
	if (!nosec_endbr_at(addr)) {
		pr_err("%s at %pS does not start with endbr64: an indirect branch there would fault (IBT); not loading\n",
		       what, (void *)addr);
		return -ENOEXEC;
	}
	return 0;
}

/**
 * nosec_ibt_guard() - check every address the module branches to indirectly
 *
 * Return: 0, or -ENOEXEC with the target named in the kernel log.
 */
int nosec_ibt_guard(void)
{
	unsigned long addr, off = 0;
	char *plus, symbol[KSYM_NAME_LEN];
	const char *target;
	int ret;

	/*
	 * The module makes no indirect branch to a kernel address.  It
	 * reaches hooked functions by a return (nosec_hook_call()), and the
	 * kernel reaches the module's own functions.  So the list is empty
	 * but for the test build's test_ibt_target, which shows the guard
	 * refusing a target; an indirect call added later belongs here.
	 */
	target = nosec_fault_ibt_target();
	if (!target)
		return 0;
	strscpy(symbol, target, sizeof(symbol));
	plus = strchr(symbol, '+');
	if (plus) {
		*plus = '\0';
		if (kstrtoul(plus + 1, 0, &off))
			return -EINVAL;
	}
	ret = nosec_function_entry(symbol, &addr);
	if (ret)
		return ret;
	return nosec_ibt_check(target, addr + off);
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
