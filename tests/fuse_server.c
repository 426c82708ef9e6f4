// SPDX-License-Identifier: GPL-2.0
/*
 * A FUSE file system of one file, spoken directly over /dev/fuse, that
 * holds a task where the test wants it held.
 *
 * FUSE_STALL_OPEN: only an exec may open the file: the interpreter of a
 * script whose nosecurity exec must stay killable while its read check
 * waits.  An exec's own open (open_exec(), flagged __FMODE_EXEC) is
 * answered; any other open, such as the read check's open for reading or
 * a plain open(), gets no reply.  The server says on a pipe when such an
 * open has arrived, and answers everything else (releases, getxattr with
 * ENOSYS) until it is killed, which aborts the connection and ends the
 * open that is still waiting.  The file reads as 256 zero bytes, which
 * an exec reads the start of, before or after its read check.
 *
 * FUSE_STALL_READ: every open is answered, every read waits: the server
 * says so on the pipe.  An 'x' on its release pipe answers the reads
 * waiting, and every later one, with EIO (the kernel retries a failed
 * read ahead with a read of its own); an 'r' answers them with the
 * file's zeros; an 'h' makes it hold reads again.
 * An exec of the file waits there holding its process's cred_guard_mutex.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "fuse_server.h"

#define INTERP_INO	2
/* __FMODE_EXEC, in the flags of an exec's own open. */
#define OPEN_FOR_EXEC	0x20

static void fill_attr(struct fuse_attr *a, __u64 ino)
{
	memset(a, 0, sizeof(*a));
	a->ino = ino;
	a->mode = ino == FUSE_ROOT_ID ? S_IFDIR | 0755 : S_IFREG | 0755;
	a->nlink = 1;
	a->size = ino == FUSE_ROOT_ID ? 0 : 256;
	a->blksize = 4096;
}

static void reply(int dev, __u64 unique, int error, const void *arg,
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
		perror("# fuse: answering");
}

/* The file's contents: what an exec reads of it. */
static const char zeros[256];

/* The reads FUSE_STALL_READ holds: their request's unique id, the bytes. */
static struct held_read {
	__u64 unique;
	size_t size;
} held_reads[64];
static unsigned int held_nr;
/* FUSE_STALL_READ, released: 'x' reads fail at once, 'r' are answered. */
static char reads_released;

/* The bytes a read of @size at @offset gets. */
static size_t read_size(__u64 offset, size_t size)
{
	size_t left = offset < sizeof(zeros) ? sizeof(zeros) - offset : 0;

	return left < size ? left : size;
}

/* Answer every held read as released says. */
static void release_reads(int dev)
{
	while (held_nr) {
		struct held_read *h = &held_reads[--held_nr];

		if (reads_released == 'x')
			reply(dev, h->unique, -EIO, NULL, 0);
		else
			reply(dev, h->unique, 0, zeros, h->size);
	}
}

/*
 * Wait until @dev has a request, answering held reads whenever a byte
 * comes on @release (-1: none).  0, or -1 when the server is to end.
 */
static int wait_request(int dev, int release)
{
	struct pollfd p[2] = {
		{ .fd = dev, .events = POLLIN }, { .fd = release, .events = POLLIN },
	};
	char c;

	for (;;) {
		if (poll(p, release < 0 ? 1 : 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (p[1].revents & POLLIN) {
			if (read(release, &c, 1) != 1)
				return -1;
			reads_released = c == 'x' || c == 'r' ? c : 0;
			if (reads_released)
				release_reads(dev);
		} else if (p[1].revents) {
			return -1;
		}
		if (p[0].revents)
			return 0;
	}
}

/* Serve @dev until killed; @ready gets a byte when a stalled request comes. */
static void serve(int dev, enum fuse_stall stall, int ready, int release)
{
	static char buf[FUSE_MIN_READ_BUFFER + 65536];

	for (;;) {
		ssize_t n = wait_request(dev, release) ? -1 :
			    read(dev, buf, sizeof(buf));
		struct fuse_in_header *ih = (struct fuse_in_header *)buf;
		void *in = buf + sizeof(*ih);

		if (n < 0 && (errno == EINTR || errno == ENOENT || errno == EAGAIN))
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

			if (stall == FUSE_STALL_OPEN && !(oi->flags & OPEN_FOR_EXEC)) {
				/* Not an exec's own open: no answer, ever. */
				if (write(ready, "o", 1) != 1)
					return;
				break;
			}
			reply(dev, ih->unique, 0, &oo, sizeof(oo));
			break;
		}
		case FUSE_READ: {
			struct fuse_read_in *ri = in;
			size_t size = read_size(ri->offset, ri->size);

			if (stall == FUSE_STALL_READ && reads_released == 'x') {
				reply(dev, ih->unique, -EIO, NULL, 0);
				break;
			}
			if (stall == FUSE_STALL_READ && !reads_released &&
			    held_nr < ARRAY_SIZE(held_reads)) {
				held_reads[held_nr++] = (struct held_read){
					.unique = ih->unique, .size = size,
				};
				if (write(ready, "r", 1) != 1)
					return;
				break;
			}
			reply(dev, ih->unique, 0, zeros, size);
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
 * fuse_server_start() - mount the file system and serve it
 * @mnt: an empty directory; the file is @mnt/interp (0755)
 * @stall: what the server holds (enum fuse_stall)
 * @ready: set to a descriptor that becomes readable (one byte) each time
 *	a request the server holds has arrived
 * @release: FUSE_STALL_READ: set to the server's release pipe ('x':
 *	reads fail with EIO; 'r': they are answered; 'h': they are held
 *	again); else NULL
 *
 * Return: the server's pid (kill it to abort the connection), or -1.
 */
pid_t fuse_server_start(const char *mnt, enum fuse_stall stall, int *ready,
			int *release)
{
	int dev = open("/dev/fuse", O_RDWR | O_CLOEXEC), p[2], r[2] = { -1, -1 };
	char opts[128];
	pid_t pid;

	if (dev < 0 || pipe(p) || (release && pipe2(r, O_CLOEXEC)))
		return -1;
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40000,user_id=0,group_id=0,allow_other", dev);
	if (mount("nosec_stall", mnt, "fuse", MS_NOSUID | MS_NODEV, opts))
		return -1;
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(p[0]);
		if (release)
			close(r[1]);
		serve(dev, stall, p[1], r[0]);
		_exit(0);
	}
	close(dev);
	close(p[1]);
	*ready = p[0];
	if (release) {
		close(r[0]);
		*release = r[1];
	}
	return pid;
}

/**
 * fuse_stall_start() - the server that holds every open but an exec's
 * @mnt: an empty directory; the file is @mnt/interp (0755)
 * @ready: set to a descriptor that becomes readable (one byte) when the
 *	open that will never be answered has arrived
 *
 * Return: the server's pid (kill it to abort the connection), or -1.
 */
pid_t fuse_stall_start(const char *mnt, int *ready)
{
	return fuse_server_start(mnt, FUSE_STALL_OPEN, ready, NULL);
}
