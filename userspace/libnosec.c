// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libnosec - execve_nosecurity() and friends, over /dev/nosec_exec and
 * prctl(2); or, on a kernel with our series applied (upstream/), over its
 * execveat_nosecurity() system call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nosec.h"

#define NOSEC_DEVICE "/dev/" NOSEC_EXEC_DEVICE_NAME

/* Open the device; -1 with errno ENOSYS when the module is not loaded. */
static int nosec_open_device(void)
{
	int fd = open(NOSEC_DEVICE, O_RDWR | O_CLOEXEC);

	if (fd < 0 && (errno == ENOENT || errno == ENXIO || errno == ENODEV))
		errno = ENOSYS;
	return fd;
}

/*
 * execveat_nosecurity()'s number in the series, where the C library's
 * headers do not have it yet.  Used only on a kernel that has shown it
 * has the series (nosec_native_execveat()): a later kernel may have
 * given the same number to another call (6.13 gave 463 to setxattrat).
 */
#ifndef __NR_execveat_nosecurity
# if defined(__x86_64__) && defined(__ILP32__)
#  define __NR_execveat_nosecurity	(0x40000000 | 464)	/* x32 */
# elif defined(__x86_64__) || defined(__i386__)
#  define __NR_execveat_nosecurity	464
# endif
#endif

/* Does the kernel answer the prctl options (the module's, or the series')? */
static int nosec_kernel_has_prctls(void)
{
	return prctl(PR_GET_RESTRICT, 0UL, 0UL, 0UL, 0UL) == 0;
}

/*
 * With the module's device absent: the series' system call, if the
 * kernel has it.  The prctl options come in the same series as the
 * system calls, so a kernel that answers them without the module has
 * the calls; it has no NOSEC_EXEC_RESTRICT_ALL.  Else -1 with ENOSYS.
 */
static int nosec_native_execveat(int dirfd, const char *pathname,
				 char *const argv[], char *const envp[],
				 int flags)
{
#ifdef __NR_execveat_nosecurity
	if (nosec_kernel_has_prctls())
		return (int)syscall(__NR_execveat_nosecurity, dirfd, pathname,
				    argv, envp, flags);
#endif
	errno = ENOSYS;
	return -1;
}

int execveat_nosecurity(int dirfd, const char *pathname, char *const argv[],
			char *const envp[], int flags)
{
	struct nosec_execveat_args args = {
		.pathname = (uintptr_t)pathname,
		.argv = (uintptr_t)argv,
		.envp = (uintptr_t)envp,
		.dirfd = dirfd,
		.flags = (unsigned int)flags,
	};
	int fd, saved;

	fd = nosec_open_device();
	if (fd < 0) {
		if (errno != ENOSYS)
			return -1;
		return nosec_native_execveat(dirfd, pathname, argv, envp,
					     flags);
	}
	/* Returns only on failure; fd is close-on-exec otherwise. */
	ioctl(fd, NOSEC_IOC_EXECVEAT, &args);
	saved = errno;
	close(fd);
	errno = saved;
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

/*
 * prctl() of an option the module or the series adds: EINVAL means
 * neither is there, unless the kernel answers PR_GET_RESTRICT.
 */
static int nosec_prctl(int option, unsigned long arg2, unsigned long arg3,
		       unsigned long arg4)
{
	int ret = prctl(option, arg2, arg3, arg4, 0UL);

	if (ret < 0 && errno == EINVAL && access(NOSEC_DEVICE, F_OK) != 0 &&
	    !nosec_kernel_has_prctls())
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
	unsigned long mask = 0;

	if (nosec_prctl(PR_GET_RESTRICT, (unsigned long)&mask, 0, 0) < 0)
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
