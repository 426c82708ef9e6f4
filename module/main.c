// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - module load and unload.
 *
 * Load is all or nothing, and nothing that can fail comes after anything
 * a task can reach is live: the read-check workqueue is made (6.1) and the
 * hooked functions are found first; then the device is registered, but
 * refuses every open; then the stats; then the hooks go live, with
 * nothing to do while no task carries state.  Only
 * when all of that succeeded is the module marked live, which lets the
 * prctl options and the device's open through.  A failure unwinds in
 * reverse and waits for any task still running module code (an open
 * refused, a prctl answered as if the module were not there) before the
 * module is freed.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/rcupdate.h>

#include "task.h"
#include "exec.h"
#include "hooks.h"
#include "scope.h"
#include "fault_inject.h"
#include "main.h"
#include "device.h"
#include "stats.h"

/*
 * The one piece of the module's life cycle that its parts ask about.  The
 * device and prctl refuse service until nosec_init() has every hook in
 * place, so main.c starts the parts (device.c among them) and they ask
 * main.c this, which is the shape of a life cycle rather than a circle.
 */
static bool nosec_live;

/**
 * nosec_is_live() - may tasks use the module?
 *
 * Return: true once every hook is live, false while the module is loading
 * (or a load is failing).
 */
bool nosec_is_live(void)
{
	/* Pairs with the release in nosec_init(): hooks live before this. */
	return smp_load_acquire(&nosec_live);
}

static int __init nosec_init(void)
{
	int ret;

	/* The test build's wrong branch faults here, before anything exists. */
	ret = nosec_fault_wrong_branch();
	if (ret)
		return ret;
	ret = nosec_read_checks_start();
	if (ret) {
		pr_err("cannot create the read-check workqueue: %d\n", ret);
		return ret;
	}
	ret = nosec_fault_step("plain_file") ?: nosec_forced_creds_start();
	if (ret) {
		pr_err("cannot create the forced execs' stand-in file: %d\n", ret);
		goto out_stop_read_checks;
	}
	ret = nosec_hooks_prepare();
	if (ret)
		goto out_stop_forced_creds;
	nosec_scope_prepare();
	ret = nosec_fault_step("device") ?: nosec_device_register();
	if (ret) {
		pr_err("cannot register /dev/%s: %d\n", "nosec_exec", ret);
		goto out_forget_hooks;
	}
	nosec_stats_register();
	ret = nosec_hooks_enable();
	if (ret)
		goto out_unregister_device;
	/* Every hook is live before a task can see the module live. */
	smp_store_release(&nosec_live, true);
	pr_info("loaded\n");
	return 0;

out_unregister_device:
	nosec_stats_unregister();
	nosec_device_unregister();
	/* A refused open or prctl may still be on its way out. */
	synchronize_rcu_tasks();
	/* nosec_hooks_enable() has forgotten the hooks itself. */
	goto out_stop_forced_creds;
out_forget_hooks:
	nosec_hooks_forget();
out_stop_forced_creds:
	nosec_forced_creds_stop();
out_stop_read_checks:
	nosec_read_checks_stop();
	return ret;
}

static void __exit nosec_exit(void)
{
	nosec_stats_unregister();
	nosec_device_unregister();
	nosec_hooks_remove();
	/* No handler runs now; free what unrestricted tasks left behind. */
	nosec_task_drop_all();
	/* Replacement functions run outside the probes: let them finish. */
	synchronize_rcu_tasks();
	/* Read-check workers past their module reference, too. */
	nosec_read_checks_stop();
	nosec_forced_creds_stop();
	rcu_barrier();
	pr_info("unloaded\n");
}

module_init(nosec_init);
module_exit(nosec_exit);

MODULE_DESCRIPTION("execve_nosecurity and PR_RESTRICT_ME for Linux 6.1, 6.12 and 7.3");
MODULE_AUTHOR("nosec_exec developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(NOSEC_VERSION);
