/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nosec_exec - records for the audit log (audit.c)
 */
#ifndef _NOSEC_EXEC_AUDIT_H
#define _NOSEC_EXEC_AUDIT_H

#include <linux/types.h>

void nosec_audit_exec(const char *op, const char *how, int res, gfp_t gfp);

#endif /* _NOSEC_EXEC_AUDIT_H */
