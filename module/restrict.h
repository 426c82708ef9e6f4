/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nosec_exec - PR_RESTRICT_ME, for the caller or its whole thread group
 * (restrict.c)
 */
#ifndef _NOSEC_EXEC_RESTRICT_H
#define _NOSEC_EXEC_RESTRICT_H

#include <linux/types.h>

int nosec_restrict(unsigned int set, bool thread_group, pid_t *blocker);

#endif /* _NOSEC_EXEC_RESTRICT_H */
