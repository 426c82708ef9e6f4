// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - /sys/kernel/debug/nosec_exec/stats: one "name value" pair
 * a line.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "task.h"
#include "hooks.h"
#include "fault_inject.h"
#include "stats.h"

struct nosec_stats nosec_stats;

static struct dentry *nosec_debugfs_dir;

static int nosec_stats_show(struct seq_file *m, void *unused)
{
	seq_printf(m, "tasks %ld\n", nosec_task_count());
	seq_printf(m, "denied_execs %ld\n",
		   atomic_long_read(&nosec_stats.denied_execs));
	seq_printf(m, "nosec_execs %ld\n",
		   atomic_long_read(&nosec_stats.nosec_execs));
	seq_printf(m, "killed_execs %ld\n",
		   atomic_long_read(&nosec_stats.killed_execs));
	seq_printf(m, "fork_enomem %ld\n",
		   atomic_long_read(&nosec_stats.fork_enomem));
	seq_printf(m, "fork_refused %ld\n",
		   atomic_long_read(&nosec_stats.fork_refused));
	seq_printf(m, "scope_denied %ld\n",
		   atomic_long_read(&nosec_stats.scope_denied));
	seq_printf(m, "worker_read_checks %ld\n",
		   atomic_long_read(&nosec_stats.worker_read_checks));
	seq_printf(m, "lsm_refused %ld\n",
		   atomic_long_read(&nosec_stats.lsm_refused));
	/*
	 * 1 on a kernel that checks indirect branches (x86-64's IBT, arm64's
	 * BTI): the branch guard checks.  The names are from x86-64's.
	 */
	seq_printf(m, "ibt_kernel %d\n", nosec_arch_branch_checked());
	seq_printf(m, "ibt_checked %u\n", nosec_branch_targets_checked());
	nosec_fault_stats_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nosec_stats);

/**
 * nosec_stats_register() - create the debugfs files
 *
 * Debugfs is a debugging aid: failing to create it does not fail the load.
 */
void nosec_stats_register(void)
{
	nosec_debugfs_dir = debugfs_create_dir("nosec_exec", NULL);
	debugfs_create_file("stats", 0444, nosec_debugfs_dir, NULL,
			    &nosec_stats_fops);
}

/**
 * nosec_stats_unregister() - remove the debugfs files
 */
void nosec_stats_unregister(void)
{
	debugfs_remove_recursive(nosec_debugfs_dir);
}
