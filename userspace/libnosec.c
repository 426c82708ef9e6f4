// SPDX-License-Identifier: LGPL-2.1-or-later
#ifndef NOSEC_KSELFTEST
/*
 * libnosec - execve_nosecurity() and friends: execveat() with
 * AT_EXECVE_NO_TRANSITION, the one call our kernel series (upstream/) and
 * the nosec_exec module both answer; /dev/nosec_exec only for what the
 * module alone offers (NOSEC_EXEC_RESTRICT_ALL); prctl(2) for the rest.
 * No system call number of our own, anywhere.
 */
#else
/*
 * execve_nosecurity() and friends (nosec.h): execveat() with
 * AT_EXECVE_NO_TRANSITION, and prctl(2) for the exec ban and force mode.
 */
#endif
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#ifndef NOSEC_KSELFTEST
#include <sys/ioctl.h>
#endif
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nosec.h"

#ifndef NOSEC_KSELFTEST
#define NOSEC_DEVICE "/dev/" NOSEC_EXEC_DEVICE_NAME
#endif

/* execveat() itself: glibc has a wrapper only since 2.34. */
static int nosec_execveat(int dirfd, const char *pathname, char *const argv[],
			  char *const envp[], int flags)
{
	return (int)syscall(SYS_execveat, dirfd, pathname, argv, envp, flags);
}

/*
 * Does the kernel know AT_EXECVE_NO_TRANSITION?  Asked with no side
 * effect: an execveat() of no file.  A kernel that knows the flag judges
 * the call and gets as far as the descriptor (EBADF), or refuses a task
 * that may run nothing new (EPERM); one that does not rejects the flag
 * before anything else (EINVAL).  Asked only after a failure, and not
 * remembered: the answer may change while a process runs.
 */
static int nosec_kernel_knows_flag(void)
{
	char *const argv[] = { (char *)"", NULL };
	char *const envp[] = { NULL };
	int saved = errno, known;

	known = nosec_execveat(-1, "", argv, envp,
			       AT_EMPTY_PATH | AT_EXECVE_NO_TRANSITION) < 0 &&
		errno != EINVAL;
	errno = saved;
	return known;
}

#ifndef NOSEC_KSELFTEST
/*
 * The module's ioctl, for NOSEC_EXEC_RESTRICT_ALL: it turns into the same
 * execveat(), with that bit beside the flag.  Without the device: ENOSYS
 * when no kernel part is there at all, ENODEV when the kernel knows the
 * flag but this mount namespace has no /dev/nosec_exec (a private /dev, or
 * the series, which has no such flag).
 */
static int nosec_device_execveat(int dirfd, const char *pathname,
				 char *const argv[], char *const envp[],
				 int flags)
{
	struct nosec_execveat_args args = {
		.pathname = (uintptr_t)pathname,
		.argv = (uintptr_t)argv,
		.envp = (uintptr_t)envp,
		.dirfd = dirfd,
		.flags = (unsigned int)flags,
	};
	int fd, saved;

	fd = open(NOSEC_DEVICE, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT || errno == ENXIO || errno == ENODEV)
			errno = nosec_kernel_knows_flag() ? ENODEV : ENOSYS;
		return -1;	/* EACCES, EPERM: the device's mode or cgroup */
	}
	/* Returns only on failure; fd is close-on-exec otherwise. */
	ioctl(fd, NOSEC_IOC_EXECVEAT, &args);
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}
#endif

int execveat_nosecurity(int dirfd, const char *pathname, char *const argv[],
			char *const envp[], int flags)
{
#ifndef NOSEC_KSELFTEST
	if (flags & NOSEC_EXEC_RESTRICT_ALL)
		return nosec_device_execveat(dirfd, pathname, argv, envp,
					     flags);
#endif
	/*
	 * The call first: where the flag is known it runs, and where it is
	 * not, it is refused before anything happens.  Only EINVAL needs
	 * the question: a flag this kernel does not know, or the caller's.
	 */
	/* Only an AT_EXECVE_CHECK returns: the exec would be allowed. */
	if (!nosec_execveat(dirfd, pathname, argv, envp,
			    flags | AT_EXECVE_NO_TRANSITION))
		return 0;
	if (errno == EINVAL && !nosec_kernel_knows_flag())
		errno = ENOSYS;
	return -1;
}

int execve_nosecurity(const char *pathname, char *const argv[],
		      char *const envp[])
{
	return execveat_nosecurity(AT_FDCWD, pathname, argv, envp, 0);
}

int fexecve_nosecurity(int fd, char *const argv[], char *const envp[])
{
	return execveat_nosecurity(fd, "", argv, envp, AT_EMPTY_PATH);
}

/* Does the kernel answer the prctl options? */
static int nosec_kernel_has_prctls(void)
{
	return prctl(PR_GET_RESTRICT, 0UL, 0UL, 0UL, 0UL) >= 0;
}

/*
 * prctl() of one of the options: EINVAL means the kernel has none of
 * them, unless it answers PR_GET_RESTRICT.
 */
static int nosec_prctl(int option, unsigned long arg2, unsigned long arg3,
		       unsigned long arg4)
{
	int ret = prctl(option, arg2, arg3, arg4, 0UL);

	if (ret < 0 && errno == EINVAL && !nosec_kernel_has_prctls())
		errno = ENOSYS;
	return ret;
}

int nosec_restrict_exec(void)
{
	return nosec_prctl(PR_RESTRICT_ME, PR_RESTRICT_EXEC, 0, 0);
}

int nosec_restrict_exec_all_threads(pid_t *blocker)
{
	int tid = 0, ret;

	ret = nosec_prctl(PR_RESTRICT_ME, PR_RESTRICT_EXEC, PR_RESTRICT_TSYNC,
			  (unsigned long)&tid);
	if (blocker)
		*blocker = ret < 0 && errno == EBUSY ? tid : 0;
	return ret;
}

int nosec_exec_restricted(void)
{
	int mask = nosec_prctl(PR_GET_RESTRICT, 0, 0, 0);

	if (mask < 0)
		return -1;
	return !!(mask & PR_RESTRICT_EXEC);
}

int nosec_set_force(int on)
{
	return nosec_prctl(PR_SET_FORCE_EXECVE_NOSECURITY, on ? 1UL : 0UL, 0, 0);
}

int nosec_get_force(void)
{
	return nosec_prctl(PR_GET_FORCE_EXECVE_NOSECURITY, 0, 0, 0);
}
