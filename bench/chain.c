// SPDX-License-Identifier: GPL-2.0
/*
 * chain - the program the benchmark execs (make bench).
 *
 *   chain                  exit 0 (what fork + exec runs)
 *   chain WAY N            exec itself N times, one way, inside a window
 *                          the icount plugin measures; then exit 0
 *
 * WAY is how each of the N execs is made:
 *   plain    execve()
 *   open     open /dev/nosec_exec (close-on-exec), then execve(): the
 *            device open the interface needs, and a plain exec
 *   nosec    execve_nosecurity(), from the library
 *   forced   execve(), run by the bench in a restricted, forced task
 *   raw      execveat() with AT_EXECVE_NO_TRANSITION, called directly
 *            (the library's call without the library)
 *
 * The first image marks the window's start just before its exec; the
 * image with nothing left to do marks its end, so the window holds N
 * execs, each with the new image's start-up up to its own exec.  The
 * same points start and end a profile window, which the plugin records
 * only when asked to (its profile=on).  A chain
 * of execs in one process measures exec alone, without a fork and a wait
 * around each one.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "icount/marker.h"
#include "nosec.h"

/* Each way's window id (bench.c's table has the same ones). */
#define CHAIN_WAYS(X)				\
	X(plain, "03")				\
	X(open, "06")				\
	X(nosec, "07")				\
	X(forced, "08")				\
	X(raw, "12")

enum way {
#define WAY_ENUM(name, id) WAY_##name,
	CHAIN_WAYS(WAY_ENUM)
	WAY_NR
};

static const char *const way_names[WAY_NR] = {
#define WAY_NAME(name, id) #name,
	CHAIN_WAYS(WAY_NAME)
};

/*
 * A window (and a profile window: the plugin records it only when asked)
 * begins ('B') or ends ('E') for way @w; the id is part of the
 * instruction, so each way has its own.
 */
#define WAY_MARKS(name, id)					\
	case WAY_##name:					\
		if (kind == 'B') {				\
			NOSEC_MARK_PROFILE_ON(id);		\
			NOSEC_MARK_BEGIN(id);			\
		} else {					\
			NOSEC_MARK_END(id);			\
			NOSEC_MARK_PROFILE_OFF(id);		\
		}						\
		break;

static void mark(enum way w, char kind)
{
	switch (w) {
	CHAIN_WAYS(WAY_MARKS)
	default:
		break;
	}
}

int main(int argc, char *argv[])
{
	char count[24], started[] = "started";
	char *next[] = { argv[0], argv[1], count, started, NULL };
	enum way w;
	long n;

	if (argc < 3)
		return 0;
	for (w = 0; w < WAY_NR; w++)
		if (!strcmp(argv[1], way_names[w]))
			break;
	n = atol(argv[2]);
	if (w == WAY_NR || n < 0) {
		fprintf(stderr, "usage: chain [plain|open|nosec|forced|raw N]\n");
		return 2;
	}
	if (!n) {
		mark(w, 'E');
		return 0;
	}
	snprintf(count, sizeof(count), "%ld", n - 1);
	if (argc < 4)
		mark(w, 'B');
	if (w == WAY_nosec) {
		execve_nosecurity(argv[0], next, environ);
	} else if (w == WAY_raw) {
		syscall(SYS_execveat, AT_FDCWD, argv[0], next, environ,
			AT_EXECVE_NO_TRANSITION);
	} else {
		if (w == WAY_open &&
		    open("/dev/" NOSEC_EXEC_DEVICE_NAME, O_RDWR | O_CLOEXEC) < 0) {
			perror("chain: /dev/" NOSEC_EXEC_DEVICE_NAME);
			return 127;
		}
		execve(argv[0], next, environ);
	}
	perror("chain: exec");
	return 127;
}
