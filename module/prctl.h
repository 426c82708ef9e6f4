/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nosec_exec - the prctl options (prctl.c)
 */
#ifndef _NOSEC_EXEC_PRCTL_H
#define _NOSEC_EXEC_PRCTL_H

#include <linux/build_bug.h>
#include <uapi/linux/nosec_exec.h>

int nosec_task_prctl(int option, unsigned long arg2, unsigned long arg3,
		     unsigned long arg4, unsigned long arg5);

/* The prctl hooks (prctl.c, arch/x86) rely on the options being contiguous. */
static_assert(PR_GET_RESTRICT - PR_RESTRICT_ME == 1 &&
	      PR_SET_FORCE_EXECVE_NOSECURITY - PR_RESTRICT_ME == 2 &&
	      PR_GET_FORCE_EXECVE_NOSECURITY - PR_RESTRICT_ME == 3);

#endif /* _NOSEC_EXEC_PRCTL_H */
