// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - the fault-injection knobs of the test build, all of them.
 *
 * Compiled only into nosec_exec_fault_inject.ko (Kbuild:
 * NOSEC_FAULT_INJECT=y), which the test suite loads to show that a load
 * unwinds, that a missed hook fails closed and that a fork whose state
 * cannot be allocated fails.  The module that make, make install, DKMS
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

#include "hooks.h"
#include "fault_inject.h"

static char *fail_probe;
module_param(fail_probe, charp, 0400);
MODULE_PARM_DESC(fail_probe, "fail the hook on this symbol (load must unwind)");

static char *fail_step;
module_param(fail_step, charp, 0400);
MODULE_PARM_DESC(fail_step, "fail this load step (device, ftrace, direct)");

static char *test_miss;
module_param(test_miss, charp, 0400);
MODULE_PARM_DESC(test_miss,
		 "comma-separated symbols whose hooks miss every hit");

static char *test_ibt_target;
module_param(test_ibt_target, charp, 0400);
MODULE_PARM_DESC(test_ibt_target,
		 "check this symbol (+OFFSET) as an indirect-branch target");

static bool test_fork_enomem;
module_param(test_fork_enomem, bool, 0600);
MODULE_PARM_DESC(test_fork_enomem,
		 "fail the child-state allocation of restricted forks");

/**
 * nosec_fault_step() - does fail_step name this step of the load?
 * @step: "device", "ftrace" or "direct"
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
	char *plus, symbol[KSYM_NAME_LEN];
	unsigned long addr, off = 0;
	int ret;

	if (!test_ibt_target)
		return 0;
	strscpy(symbol, test_ibt_target, sizeof(symbol));
	plus = strchr(symbol, '+');
	if (plus) {
		*plus = '\0';
		if (kstrtoul(plus + 1, 0, &off))
			return -EINVAL;
	}
	ret = nosec_function_entry(symbol, &addr);
	if (ret)
		return ret;
	return nosec_branch_check(test_ibt_target, addr + off);
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
