/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nosec_exec - what a restricted task can reach (scope.c)
 */
#ifndef _NOSEC_EXEC_SCOPE_H
#define _NOSEC_EXEC_SCOPE_H

#include <linux/types.h>
#include "task.h"

/**
 * nosec_may_reach() - is a task inside another's restriction?
 * @from: NOSEC_TASK_* flags of the task that reaches
 * @to: NOSEC_TASK_* flags of the task it reaches
 *
 * Return: true when @to carries every restriction @from does (force mode
 * is no restriction): then nothing @from does through @to escapes it.
 */
static inline bool nosec_may_reach(unsigned int from, unsigned int to)
{
	from &= NOSEC_TASK_RESTRICTED;
	return (to & from) == from;
}

void nosec_scope_prepare(void);

#endif /* _NOSEC_EXEC_SCOPE_H */
