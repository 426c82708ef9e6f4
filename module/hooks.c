// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - places every hook the concerns state, makes them live and
 * removes them in one step (one ftrace_ops), and dispatches each hit.
 * How the hooks work, why ftrace and not kprobes, why unload is safe:
 * docs/design.md, "How it works".
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/hash.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/string.h>

#include "compat.h"
#include "arch.h"
#include "task.h"
#include "hooks.h"
#include "fault_inject.h"

/* A hook redirects a call by the instruction pointer ftrace returns to. */
#if !defined(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS) && \
	!defined(CONFIG_DYNAMIC_FTRACE_WITH_REGS)
#error "nosec_exec needs DYNAMIC_FTRACE_WITH_ARGS or DYNAMIC_FTRACE_WITH_REGS"
#endif

/**
 * struct nosec_hook - one hooked kernel function, placed
 * @s: what its concern states (struct nosec_hook_spec)
 * @direct_ops: the ftrace_ops of the direct call, where the kernel wants one
 * @addr: the function's ftrace site, while the hook is installed
 * @entry: where a call from the module enters the function (nosec_hook_call())
 * @missed: hits dropped (only the test build drops any: test_miss)
 * @miss: the test build's test_miss names this hook (never set otherwise)
 */
struct nosec_hook {
	struct nosec_hook_spec s;
	struct ftrace_ops direct_ops;
	unsigned long addr;
	unsigned long entry;
	atomic_long_t missed;
	bool miss;
};

/*
 * The hooks, by id: each concern states its own (struct nosec_hook_spec),
 * these are where they are placed and run.
 */
static struct nosec_hook nosec_hooks[NOSEC_NR_HOOKS];

/* The concerns' tables of hooks, each ended by an empty entry. */
static const struct nosec_hook_spec *const nosec_hook_tables[] = {
	nosec_exec_ban_hooks, nosec_exec_arm_hooks, nosec_exec_nosec_hooks,
	nosec_task_life_hooks, nosec_scope_hooks, nosec_reopen_hooks,
	nosec_session_hooks, nosec_prctl_hooks,
};

/*
 * Every hook from its concern's table, each id stated exactly once: a
 * hook left out would leave a hole in the enforcement, so the load fails.
 */
static int nosec_hooks_gather(void)
{
	DECLARE_BITMAP(stated, NOSEC_NR_HOOKS) = { 0 };
	const struct nosec_hook_spec *s;
	int i;

	for (i = 0; i < ARRAY_SIZE(nosec_hook_tables); i++) {
		for (s = nosec_hook_tables[i]; s->symbol; s++) {
			if (s->id >= NOSEC_NR_HOOKS || test_and_set_bit(s->id, stated)) {
				pr_err("hook %s: id %d stated twice or out of range\n",
				       s->symbol, s->id);
				return -EINVAL;
			}
			nosec_hooks[s->id].s = *s;
		}
	}
	i = find_first_zero_bit(stated, NOSEC_NR_HOOKS);
	if (i < NOSEC_NR_HOOKS) {
		pr_err("hook %d: no concern states it\n", i);
		return -EINVAL;
	}
	return 0;
}

static struct ftrace_ops nosec_ftrace_ops;

/*
 * The function's address, without arming anything: a disabled kprobe.
 * Where kprobes use ftrace (x86-64), it is the function's ftrace site
 * (after an endbr64, or its seal) when the function has one, and
 * @ftrace_site says so, from the kernel's own table; elsewhere (arm64)
 * it is the function's first instruction.
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
#define NOSEC_HOOK_SLOT_BITS	7
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
/* x86-64: execveat's three ABIs; arm64: its two, and prctl (a handler there). */
#define NOSEC_EVERY_TASK_HOOKS	3
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

/* Indirect-branch targets the branch guard found a landing pad at. */
static unsigned int nosec_branch_checked;

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
					struct ftrace_regs *regs)
{
	struct nosec_hook *h = nosec_hook_at(ip);

	if (unlikely(!h))
		return;
	if (unlikely(h->miss))
		atomic_long_inc(&h->missed);
	else if (!nosec_called_by_module(parent_ip))
		h->s.handler(regs);
}

/*
 * The ftrace callback of every handler hook.  @fregs holds the arguments
 * and ip that ftrace's caller saved (compat.h: nosec_hook_arg()).
 */
static void notrace nosec_hook_callback(unsigned long ip,
					unsigned long parent_ip,
					struct ftrace_ops *op,
					struct ftrace_regs *fregs)
{
	/* No task carries state: a no-op, but for execveat's entries. */
	if (likely(!nosec_task_count()) && !nosec_hook_for_every_task(ip))
		return;
	nosec_hook_dispatch(ip, parent_ip, fregs);
}

static int nosec_hook_resolve(struct nosec_hook *h)
{
	unsigned long addr = 0, site, entry;
	bool ftrace_site;
	int ret;

	/* A direct hook has no dispatcher to miss in. */
	h->miss = !h->s.direct && nosec_fault_miss(h->s.symbol);
	if (nosec_fault_probe(h->s.symbol))
		return -ENOENT;
	ret = nosec_symbol_address(h->s.symbol, &addr, &ftrace_site);
	if (ret)
		return ret;
	/*
	 * The module hooks the function at its ftrace site and enters it
	 * at a place the architecture knows (nosec_hook_call()): the
	 * function must have the site its architecture's compiler puts at
	 * the entry, or the kernel is not one the module knows.
	 */
	if (!nosec_arch_ftrace_site(addr, ftrace_site, &site, &entry)) {
		pr_err("%s: no ftrace site at its entry (%pS): unknown kernel\n",
		       h->s.symbol, (void *)addr);
		return -ENOEXEC;
	}
	if (nosec_arch_entered_by_call()) {
		ret = nosec_branch_check(h->s.symbol, entry);
		if (ret)
			return ret;
	}
	h->addr = site;
	h->entry = entry;
	if (h->s.direct)
		return 0;
	ret = ftrace_set_filter_ip(&nosec_ftrace_ops, h->addr, 0, 0);
	if (ret)
		return ret;
	nosec_hook_slot_add(h);
	if (h->s.every_task)
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
	for (i = 0; i < NOSEC_NR_HOOKS; i++) {
		nosec_hooks[i].addr = 0;
		nosec_hooks[i].entry = 0;
	}
}

/**
 * nosec_hooks_prepare() - find every hooked function, place nothing
 *
 * Return: 0 when the branch guard passes, every address is known and is its
 * function's ftrace site, and the ftrace filter is set (the
 * steps that can fail before any hook goes live), or the error of the
 * first symbol that could not be found, after undoing everything; the log
 * names the symbol.
 */
int nosec_hooks_prepare(void)
{
	int i, ret;

	nosec_branch_checked = 0;
	ret = nosec_hooks_gather();
	if (ret)
		return ret;
	nosec_module_text(THIS_MODULE, &nosec_text_base, &nosec_text_size);
	nosec_ftrace_ops.func = nosec_hook_callback;
	/*
	 * IPMODIFY: handlers redirect.  PERMANENT: the ftrace_enabled sysctl
	 * cannot turn the hooks off while they are registered (it fails with
	 * EBUSY), as for livepatch.  No RECURSION: see nosec_hook_dispatch().
	 * All the registers where only they hold the arguments (compat.h).
	 */
	nosec_ftrace_ops.flags = FTRACE_OPS_FL_IPMODIFY |
				 FTRACE_OPS_FL_PERMANENT | NOSEC_FTRACE_OPS_REGS;
	for (i = 0; i < NOSEC_NR_HOOKS; i++) {
		struct nosec_hook *h = &nosec_hooks[i];

		ret = nosec_hook_resolve(h);
		if (ret == -ENOENT && h->s.optional) {
			pr_info("no %s in this kernel: hook skipped\n",
				h->s.symbol);
			continue;
		}
		if (ret) {
			pr_err("cannot probe %s: %d; it is needed for: %s\n",
			       h->s.symbol, ret, h->s.what);
			goto out_forget;
		}
		pr_debug("%s: %s, %s\n", h->s.symbol, h->s.kind, h->s.what);
	}
	/* The handlers of the hooks found (an optional one may not be). */
	ret = nosec_branch_guard();
	if (ret)
		goto out_forget;
	return 0;

out_forget:
	nosec_hooks_forget();
	return ret;
}

static void nosec_direct_hook_remove(struct nosec_hook *h)
{
	if (h->s.direct && h->addr)
		nosec_unregister_direct(&h->direct_ops, h->addr, h->s.direct);
}

static int nosec_direct_hooks_install(void)
{
	int i, ret;

	for (i = 0; i < NOSEC_NR_HOOKS; i++) {
		struct nosec_hook *h = &nosec_hooks[i];

		if (!h->s.direct || !h->addr)
			continue;
		ret = nosec_fault_step("direct") ?:
		      nosec_register_direct(&h->direct_ops, h->addr, h->s.direct);
		if (ret) {
			pr_err("cannot probe %s: %d\n", h->s.symbol, ret);
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
			pr_warn("%s: missed %ld hits\n", h->s.symbol, missed);
	}
	nosec_hooks_forget();
}

/**
 * nosec_hook_call() - run a hooked kernel function from its replacement
 * @id: the hook
 * @arg0: the function's first argument
 * @arg1: its second argument, or 0
 *
 * Enters the function where its architecture's nosec_call_original()
 * can (x86-64: at the ftrace site, by a return; arm64: at its first
 * instruction, by a call the branch guard checked); the hook's dispatcher
 * lets the call through, since it comes from the module.  Only while the
 * hooks are installed.
 *
 * Return: the function's return value, in a register's width; the caller
 * narrows it to the function's return type.
 */
unsigned long nosec_hook_call(enum nosec_hook_id id, unsigned long arg0,
			      unsigned long arg1)
{
	return nosec_hook_call3(id, arg0, arg1, 0);
}

/**
 * nosec_hook_call3() - nosec_hook_call() for a function of three arguments
 * @id: the hook
 * @arg0: the function's first argument
 * @arg1: its second
 * @arg2: its third (no hooked function takes more)
 *
 * Return: as nosec_hook_call().
 */
unsigned long nosec_hook_call3(enum nosec_hook_id id, unsigned long arg0,
			       unsigned long arg1, unsigned long arg2)
{
	return nosec_call_original(arg0, arg1, arg2, 0, 0, nosec_hooks[id].entry);
}

/**
 * nosec_function_entry() - the address a pointer to a kernel function holds
 * @symbol: the function
 * @addr: where the address goes
 *
 * The kprobe lookup may step over a landing pad (x86-64's endbr64, or its
 * seal), which a pointer to the function points at: the architecture
 * steps back over it.  For comparing with a function pointer the kernel
 * stored; never called.
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
	*addr = nosec_arch_function_pointer(*addr);
	return 0;
}

/**
 * nosec_branch_check() - may the module branch indirectly to @addr?
 * @what: the target, for the log
 * @addr: its address
 *
 * On a kernel that checks indirect branches (x86-64's X86_KERNEL_IBT,
 * arm64's BTI for the kernel), an indirect call or jump must land on a
 * landing pad (endbr64; a BTI or PACIxSP instruction), or the CPU faults;
 * x86-64 also seals the endbr64 of functions whose address it never takes.
 *
 * Return: 0 (always, on a kernel that does not check), or -ENOEXEC with
 * the target named in the kernel log.
 */
int nosec_branch_check(const char *what, unsigned long addr)
{
	if (!nosec_arch_branch_checked())
		return 0;
	if (!nosec_arch_branch_pad(addr)) {
		pr_err("%s at %pS does not start with %s: an indirect branch there would fault; not loading\n",
		       what, (void *)addr, NOSEC_ARCH_BRANCH_PAD);
		return -ENOEXEC;
	}
	nosec_branch_checked++;
	return 0;
}

/**
 * nosec_branch_guard() - check every address reached by an indirect branch
 *
 * Context: load time, once every hook is resolved (an optional hook not
 * found has no handler to reach).  The module's own handlers are reached
 * by indirect calls: the dispatcher's, and ftrace's to the ops callback;
 * on arm64 the hooked functions too, entered by a call (nosec_hook_call(),
 * checked as each is resolved).  A module
 * built without the kernel's branch-protection flags (a stray compiler, a
 * hand-written Makefile) has no landing pad there and would fault at the
 * first hook hit: on a kernel that checks, every such target is checked
 * before any hook is placed, and counted (stats: ibt_checked; x86-64
 * seals its functions, so the hooked ones are entered by a return there).
 *
 * Return: 0, or -ENOEXEC with the target named in the kernel log.
 */
int nosec_branch_guard(void)
{
	int i, ret;

	if (!nosec_arch_branch_checked())
		return 0;
	ret = nosec_branch_check("nosec_hook_callback",
				 (unsigned long)nosec_hook_callback);
	for (i = 0; i < NOSEC_NR_HOOKS && !ret; i++) {
		const struct nosec_hook_spec *s = &nosec_hooks[i].s;

		if (s->handler && nosec_hooks[i].addr)
			ret = nosec_branch_check(s->symbol,
						 (unsigned long)s->handler);
	}
	return ret ?: nosec_fault_ibt_guard();
}

/**
 * nosec_branch_targets_checked() - targets the branch guard verified at load
 *
 * Return: how many addresses had a landing pad (0 on a kernel that does
 * not check indirect branches).
 */
unsigned int nosec_branch_targets_checked(void)
{
	return nosec_branch_checked;
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
void nosec_hook_redirect(struct ftrace_regs *regs, void *replacement)
{
	nosec_hook_set_ip(regs, (unsigned long)replacement);
}
