/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nosec_exec - the statistics in debugfs (stats.c)
 */
#ifndef _NOSEC_EXEC_STATS_H
#define _NOSEC_EXEC_STATS_H

#include <linux/atomic.h>

struct nosec_stats {
	atomic_long_t denied_execs;
	atomic_long_t nosec_execs;
	atomic_long_t killed_execs;
	atomic_long_t fork_enomem;
	atomic_long_t fork_refused;
	atomic_long_t scope_denied;
	atomic_long_t worker_read_checks;
	atomic_long_t lsm_refused;
};

extern struct nosec_stats nosec_stats;
void nosec_stats_register(void);
void nosec_stats_unregister(void);

#endif /* _NOSEC_EXEC_STATS_H */
