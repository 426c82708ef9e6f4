// SPDX-License-Identifier: GPL-2.0
/*
 * A FUSE file system of one file that only an exec may open,
 * spoken directly over /dev/fuse: the interpreter of a script whose
 * nosecurity exec must stay killable while its read check waits.
 *
 * An exec's own open (open_exec(), flagged __FMODE_EXEC) is answered; any
 * other open, such as the read check's open for reading or a plain
 * open(), gets no reply.  The server says on a pipe when such an open has
 * arrived, and answers everything else (releases, getxattr with ENOSYS)
 * until it is killed, which aborts the connection and ends the open that
 * is still waiting.  The file reads as 256 zero bytes: the series reads
 * the start of a file before its read check, the module after.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuse_server.h"

#define INTERP_INO	2
/* __FMODE_EXEC, in the flags of an exec's own open. */
#define OPEN_FOR_EXEC	0x20

static void fill_attr(struct fuse_attr *a, uint64_t ino)
{
	memset(a, 0, sizeof(*a));
	a->ino = ino;
	a->mode = ino == FUSE_ROOT_ID ? S_IFDIR | 0755 : S_IFREG | 0755;
	a->nlink = 1;
	a->size = ino == FUSE_ROOT_ID ? 0 : 256;
	a->blksize = 4096;
}

static void reply(int dev, uint64_t unique, int error, const void *arg,
		  size_t size)
{
	char buf[sizeof(struct fuse_out_header) + 256];
	struct fuse_out_header *oh = (struct fuse_out_header *)buf;

	oh->len = sizeof(*oh) + (error ? 0 : size);
	oh->error = error;
	oh->unique = unique;
	if (!error && size)
		memcpy(buf + sizeof(*oh), arg, size);
	if (write(dev, buf, oh->len) < 0 && errno != ENOENT)
		perror("# fuse reply");
}

/* Serve @dev until killed; @ready gets a byte when a stalled open comes. */
static void serve(int dev, int ready)
{
	static char buf[FUSE_MIN_READ_BUFFER + 65536];

	for (;;) {
		ssize_t n = read(dev, buf, sizeof(buf));
		struct fuse_in_header *ih = (struct fuse_in_header *)buf;
		void *in = buf + sizeof(*ih);

		if (n < 0 && (errno == EINTR || errno == ENOENT))
			continue;
		if (n < (ssize_t)sizeof(*ih))
			return;
		switch (ih->opcode) {
		case FUSE_INIT: {
			struct fuse_init_in *ii = in;
			struct fuse_init_out io = {
				.major = FUSE_KERNEL_VERSION,
				.minor = FUSE_KERNEL_MINOR_VERSION,
				.max_readahead = ii->max_readahead,
				.max_background = 16,
				.congestion_threshold = 12,
				.max_write = 4096,
				.time_gran = 1,
			};

			reply(dev, ih->unique, 0, &io, sizeof(io));
			break;
		}
		case FUSE_LOOKUP: {
			struct fuse_entry_out eo = {
				.nodeid = INTERP_INO, .entry_valid = 3600, .attr_valid = 3600,
			};

			if (strcmp(in, "interp")) {
				reply(dev, ih->unique, -ENOENT, NULL, 0);
				break;
			}
			fill_attr(&eo.attr, INTERP_INO);
			reply(dev, ih->unique, 0, &eo, sizeof(eo));
			break;
		}
		case FUSE_GETATTR: {
			struct fuse_attr_out ao = { .attr_valid = 3600 };

			fill_attr(&ao.attr, ih->nodeid);
			reply(dev, ih->unique, 0, &ao, sizeof(ao));
			break;
		}
		case FUSE_OPEN: {
			struct fuse_open_in *oi = in;
			struct fuse_open_out oo = { .fh = 1 };

			if (!(oi->flags & OPEN_FOR_EXEC)) {
				/* Not an exec's own open: no answer, ever. */
				if (write(ready, "o", 1) != 1)
					return;
				break;
			}
			reply(dev, ih->unique, 0, &oo, sizeof(oo));
			break;
		}
		case FUSE_READ: {
			/* Zeros: what is read before the read check (series). */
			static const char zeros[256];
			struct fuse_read_in *ri = in;
			size_t size = ri->offset < sizeof(zeros) ?
				      sizeof(zeros) - ri->offset : 0;

			reply(dev, ih->unique, 0, zeros,
			      size < ri->size ? size : ri->size);
			break;
		}
		case FUSE_FORGET:
		case FUSE_BATCH_FORGET:
			break;	/* no reply expected */
		case FUSE_RELEASE:
		case FUSE_FLUSH:
			reply(dev, ih->unique, 0, NULL, 0);
			break;
		default:
			reply(dev, ih->unique, -ENOSYS, NULL, 0);
		}
	}
}

/**
 * fuse_stall_start() - mount the file system and serve it
 * @mnt: an empty directory; the file is @mnt/interp (0755)
 * @ready: set to a descriptor that becomes readable (one byte) when the
 *	open that will never be answered has arrived
 *
 * Return: the server's pid (kill it to abort the connection), or -1.
 */
pid_t fuse_stall_start(const char *mnt, int *ready)
{
	int dev = open("/dev/fuse", O_RDWR | O_CLOEXEC), p[2];
	char opts[128];
	pid_t pid;

	if (dev < 0 || pipe(p))
		return -1;
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40000,user_id=0,group_id=0,allow_other", dev);
	if (mount("nosec_stall", mnt, "fuse", MS_NOSUID | MS_NODEV, opts))
		return -1;
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(p[0]);
		serve(dev, p[1]);
		_exit(0);
	}
	close(dev);
	close(p[1]);
	*ready = p[0];
	return pid;
}
