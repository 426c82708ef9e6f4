/* SPDX-License-Identifier: GPL-2.0 */
/* A FUSE file system whose one file only an exec may open: other opens never complete. */
#ifndef NOSEC_FUSE_SERVER_H
#define NOSEC_FUSE_SERVER_H

#include <sys/types.h>

pid_t fuse_stall_start(const char *mnt, int *ready);

#endif
