// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - module load and unload.
 *
 * Load is all or nothing: the probes, then the device, then the stats; an
 * error unwinds what was done, in reverse.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/rcupdate.h>

#include "nosec.h"

static int __init nosec_init(void)
{
	int ret;

	ret = nosec_hooks_install();
	if (ret)
		return ret;
	ret = nosec_device_register();
	if (ret) {
		pr_err("cannot register /dev/%s: %d\n", "nosec_exec", ret);
		goto out_remove_hooks;
	}
	nosec_stats_register();
	pr_info("loaded\n");
	return 0;

out_remove_hooks:
	nosec_hooks_remove();
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
	rcu_barrier();
	pr_info("unloaded\n");
}

module_init(nosec_init);
module_exit(nosec_exit);

MODULE_DESCRIPTION("execve_nosecurity and PR_RESTRICT_ME for Linux 6.1");
MODULE_AUTHOR("nosec_exec developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(NOSEC_VERSION);
