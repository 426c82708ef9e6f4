/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Callers' credentials the exec tests start from (creds.c): each a setup
 * run in the child, as root, before its exec; each may drop to TEST_UID
 * itself.  Shared by nosec_exec_test.c (what the explicit call keeps) and
 * force_test.c (what a forced exec gets, against a plain exec under
 * no_new_privs).
 */
#ifndef NOSEC_CREDS_H
#define NOSEC_CREDS_H

#include <linux/capability.h>

/* The capabilities setup_caps() leaves its non-root caller. */
#define CAPS_KEPT ((1ULL << CAP_NET_RAW) | (1ULL << CAP_CHOWN))

void setup_caps(void);
void setup_keepcaps(void);
void setup_split_ids(void);
void setup_split_euid(void);
void setup_split_saved_uids(void);
void setup_undumpable(void);
void setup_pdeathsig(void);
void setup_keyrings(void);
void setup_root_dropped_net_raw(void);
void setup_root_no_effective(void);

#endif
