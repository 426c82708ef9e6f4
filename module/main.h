/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nosec_exec - the module's life (main.c)
 */
#ifndef _NOSEC_EXEC_MAIN_H
#define _NOSEC_EXEC_MAIN_H

#include <linux/types.h>

bool nosec_is_live(void);

#endif /* _NOSEC_EXEC_MAIN_H */
