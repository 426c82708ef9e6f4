// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - the fault-injection knobs of the test build, all of them.
 *
 * Compiled only into nosec_exec_fault_inject.ko (Kbuild:
 * NOSEC_FAULT_INJECT=y), which the test suite loads to show that a load
 * unwinds, that a missed hook fails closed, that a fork whose state
 * cannot be allocated fails, and that what the branch guard refuses
 * would fault.  The module that make, make install, DKMS
 * and the Debian package build is nosec_exec.ko, without this file: its
 * only parameter is exec_group, and nothing can make it miss a hook.
 * Elsewhere the knobs are the stubs of nosec.h, which compile to nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/kstrtox.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include "arch.h"
#include "hooks.h"
#include "fault_inject.h"

static char *fail_probe;
module_param(fail_probe, charp, 0400);
MODULE_PARM_DESC(fail_probe, "fail the hook on this symbol (load must unwind)");

static char *fail_step;
module_param(fail_step, charp, 0400);
MODULE_PARM_DESC(fail_step, "fail this load step (plain_file, device, ftrace, direct)");

static char *test_miss;
module_param(test_miss, charp, 0400);
MODULE_PARM_DESC(test_miss,
		 "comma-separated symbols whose hooks miss every hit");

static char *test_ibt_target;
module_param(test_ibt_target, charp, 0400);
MODULE_PARM_DESC(test_ibt_target,
		 "check this symbol (+OFFSET) as an indirect-branch target");

static char *test_wrong_branch;
module_param(test_wrong_branch, charp, 0400);
MODULE_PARM_DESC(test_wrong_branch,
		 "enter this symbol (+OFFSET), refused by the branch guard, as a hooked function (the CPU must fault)");

static bool test_fork_enomem;
module_param(test_fork_enomem, bool, 0600);
MODULE_PARM_DESC(test_fork_enomem,
		 "fail the child-state allocation of restricted forks");

/**
 * nosec_fault_step() - does fail_step name this step of the load?
 * @step: "plain_file", "device", "ftrace" or "direct"
 *
 * Return: -EIO when it does (the step must then fail), else 0.
 */
int nosec_fault_step(const char *step)
{
	if (!fail_step || strcmp(fail_step, step))
		return 0;
	pr_warn("fail_step: %s fails\n", step);
	return -EIO;
}

/**
 * nosec_fault_probe() - does fail_probe name this hooked function?
 * @symbol: the function
 *
 * Return: true when its hook must fail to resolve.
 */
bool nosec_fault_probe(const char *symbol)
{
	return fail_probe && !strcmp(fail_probe, symbol);
}

/**
 * nosec_fault_miss() - does test_miss list this hooked function?
 * @symbol: the function
 *
 * Return: true when its hook must miss every hit (counted in missed).
 */
bool nosec_fault_miss(const char *symbol)
{
	size_t len = strlen(symbol);
	const char *p = test_miss;

	while (p && *p) {
		if (!strncmp(p, symbol, len) && (p[len] == ',' || !p[len])) {
			pr_warn("test_miss: %s misses every hit\n", symbol);
			return true;
		}
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

/* "SYMBOL[+OFFSET]": the address it names, as a pointer to SYMBOL holds it. */
static int nosec_fault_target(const char *target, unsigned long *addr)
{
	char *plus, symbol[KSYM_NAME_LEN];
	unsigned long off = 0;
	int ret;

	strscpy(symbol, target, sizeof(symbol));
	plus = strchr(symbol, '+');
	if (plus) {
		*plus = '\0';
		if (kstrtoul(plus + 1, 0, &off))
			return -EINVAL;
	}
	ret = nosec_function_entry(symbol, addr);
	if (!ret)
		*addr += off;
	return ret;
}

/**
 * nosec_fault_ibt_guard() - check test_ibt_target as an indirect target
 *
 * Context: load time.  Shows the branch guard (IBT, BTI) refusing an
 * address without a landing pad (4 bytes into a function, or a function
 * whose endbr64 the kernel sealed): the module itself branches to no such
 * address.
 *
 * Return: 0 without test_ibt_target or when "SYMBOL[+OFFSET]" starts with
 * a landing pad (always, on a kernel that does not check), else the
 * guard's error.
 */
int nosec_fault_ibt_guard(void)
{
	unsigned long addr;
	int ret;

	if (!test_ibt_target)
		return 0;
	ret = nosec_fault_target(test_ibt_target, &addr);
	return ret ?: nosec_branch_check(test_ibt_target, addr);
}

/**
 * nosec_fault_wrong_branch() - enter test_wrong_branch as a hooked function
 *
 * Context: the start of the load, before anything is registered.  The
 * branch guard's negative control: where the module enters the functions
 * it hooks by a call the CPU checks (arm64's BTI), it enters
 * "SYMBOL[+OFFSET]" the same way, by nosec_call_original(), once the
 * guard has refused that address.  The CPU must fault: a Branch Target
 * Exception, an Oops that kills the loading task and leaves this module
 * half-loaded until the next boot (make check-arm64-bti runs it in a
 * boot of its own).  Nothing else makes that branch: an address the
 * guard accepts, or a kernel that checks no such call, fails the load
 * before it.  With all five arguments 0, the target must not mind
 * running, on a kernel that does not fault: a syscall's wrapper that
 * reads no argument, such as getpid's.
 *
 * Return: 0 without test_wrong_branch; -EOPNOTSUPP where the CPU checks
 * no call into a hooked function; -EINVAL when the guard accepts the
 * target; -EIO when the call came back, which no CPU that checks lets it.
 */
int nosec_fault_wrong_branch(void)
{
	unsigned long addr, ret;
	int err;

	if (!test_wrong_branch)
		return 0;
	if (!nosec_arch_entered_by_call() || !nosec_arch_branch_checked()) {
		pr_err("test_wrong_branch: this kernel checks no call into a hooked function\n");
		return -EOPNOTSUPP;
	}
	err = nosec_fault_target(test_wrong_branch, &addr);
	if (err)
		return err;
	if (!nosec_branch_check(test_wrong_branch, addr)) {
		pr_err("test_wrong_branch: %s has a landing pad\n", test_wrong_branch);
		return -EINVAL;
	}
	pr_warn("test_wrong_branch: entering %pS, which the guard refused\n",
		(void *)addr);
	ret = nosec_call_original(0, 0, 0, 0, 0, addr);
	pr_err("test_wrong_branch: %pS returned %lu: the CPU did not check the call\n",
	       (void *)addr, ret);
	return -EIO;
}

/**
 * nosec_fault_stats_show() - the test build's own lines of the stats file
 * @m: the stats file
 *
 * missed: the hits test_miss dropped.  The module that ships has no way
 * to drop one, so it shows no such line.
 */
void nosec_fault_stats_show(struct seq_file *m)
{
	seq_printf(m, "missed %lu\n", nosec_hooks_missed());
}

/**
 * nosec_fault_fork_enomem() - must a restricted fork's allocation fail?
 *
 * Return: test_fork_enomem, which may change while the module is loaded.
 */
bool nosec_fault_fork_enomem(void)
{
	return READ_ONCE(test_fork_enomem);
}
