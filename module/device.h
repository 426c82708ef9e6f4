/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nosec_exec - /dev/nosec_exec (device.c)
 */
#ifndef _NOSEC_EXEC_DEVICE_H
#define _NOSEC_EXEC_DEVICE_H

#include <linux/types.h>

bool nosec_exec_permitted(void);
int nosec_device_register(void);
void nosec_device_unregister(void);

#endif /* _NOSEC_EXEC_DEVICE_H */
