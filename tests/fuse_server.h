/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A FUSE file system of one file, whose server holds the requests the
 * test wants held: every open but an exec's (FUSE_STALL_OPEN), or every
 * read until it is released (FUSE_STALL_READ).
 */
#ifndef NOSEC_FUSE_SERVER_H
#define NOSEC_FUSE_SERVER_H

#include <sys/types.h>

enum fuse_stall { FUSE_STALL_OPEN, FUSE_STALL_READ };

pid_t fuse_server_start(const char *mnt, enum fuse_stall stall, int *ready,
			int *release);
pid_t fuse_stall_start(const char *mnt, int *ready);

#endif
