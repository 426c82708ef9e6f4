/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nosec_exec - the knobs of the test build (fault_inject.c)
 */
#ifndef _NOSEC_EXEC_FAULT_INJECT_H
#define _NOSEC_EXEC_FAULT_INJECT_H

#include <linux/types.h>

struct seq_file;

/*
 * fault_inject.c: the knobs of the test build, nosec_exec_fault_inject.ko
 * (Kbuild: NOSEC_FAULT_INJECT=y).  In the module that ships they are
 * these stubs: no load step fails, no hook misses.
 */
#ifdef NOSEC_FAULT_INJECT
int nosec_fault_step(const char *step);
bool nosec_fault_probe(const char *symbol);
bool nosec_fault_miss(const char *symbol);
int nosec_fault_ibt_guard(void);
int nosec_fault_wrong_branch(void);
void nosec_fault_stats_show(struct seq_file *m);
bool nosec_fault_fork_enomem(void);
#else
static inline int nosec_fault_step(const char *step)
{
	return 0;
}

static inline bool nosec_fault_probe(const char *symbol)
{
	return false;
}

static inline bool nosec_fault_miss(const char *symbol)
{
	return false;
}

static inline int nosec_fault_ibt_guard(void)
{
	return 0;
}

static inline int nosec_fault_wrong_branch(void)
{
	return 0;
}

static inline void nosec_fault_stats_show(struct seq_file *m)
{
}

static inline bool nosec_fault_fork_enomem(void)
{
	return false;
}
#endif

#endif /* _NOSEC_EXEC_FAULT_INJECT_H */
