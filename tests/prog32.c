// SPDX-License-Identifier: GPL-2.0
/*
 * prog32 - a real 32-bit program (x86-64: gcc -m32, i386; arm64:
 * arm-linux-gnueabihf-gcc, AArch32), its system calls through the
 * kernel's compat entry.
 *
 * Usage: prog32	restricts itself, checks the compat prctl and that
 *			execve/execveat are denied, then runs FIX_PROBE_SUID
 *			through execve_nosecurity (the 32-bit execveat with
 *			AT_EXECVE_NO_TRANSITION)
 *        prog32 MASK PATH CALL[,CALL...]
 *			restricts itself with MASK (0: not), then makes each
 *			CALL on PATH in turn; "errnoN=E" when call N fails
 *			(common.h's prog32_calls(): the 32-bit calls an arm64
 *			test cannot make from its own task)
 *
 * The calls: execve, execveat[:FLAGS]
 */
#ifndef NOSEC_KSELFTEST
/* and the module's ioctl[:FLAGS] (NOSEC_IOC_EXECVEAT). */
#endif
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef NOSEC_KSELFTEST
#include <sys/ioctl.h>
#endif
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nosec.h"
#include "fixtures.h"

extern char **environ;

#ifndef NOSEC_KSELFTEST
/* NOSEC_IOC_EXECVEAT of @path with @argv and @flags: returns only when it fails. */
static int ioctl32(const char *path, char *const argv[], unsigned int flags)
{
	struct nosec_execveat_args args = {
		.pathname = (uintptr_t)path,
		.argv = (uintptr_t)argv,
		.envp = (uintptr_t)environ,
		.dirfd = AT_FDCWD,
		.flags = flags,
	};
	int fd = open("/dev/" NOSEC_EXEC_DEVICE_NAME, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return errno;
	syscall(SYS_ioctl, fd, NOSEC_IOC_EXECVEAT, &args);
	return errno;
}
#endif

/* One call, "NAME[:FLAGS]", on @path: returns only when it fails. */
static int call32(const char *call, const char *path)
{
	char *const argv[] = { (char *)path, NULL };
	const char *colon = strchr(call, ':');
	size_t len = colon ? (size_t)(colon - call) : strlen(call);
	unsigned int flags = colon ? strtoul(colon + 1, NULL, 0) : 0;

	if (len == 6 && !strncmp(call, "execve", len))
		syscall(SYS_execve, path, argv, environ);
	else if (len == 8 && !strncmp(call, "execveat", len))
		syscall(SYS_execveat, AT_FDCWD, path, argv, environ, flags);
#ifndef NOSEC_KSELFTEST
	else if (len == 5 && !strncmp(call, "ioctl", len))
		return ioctl32(path, argv, flags);
#endif
	else
		return -1;
	return errno;
}

static int calls32(char *argv[])
{
	unsigned long mask = strtoul(argv[1], NULL, 0);
	char *call, *save = NULL;
	int n = 0, e;

	if (mask && prctl(PR_RESTRICT_ME, mask, 0, 0, 0)) {
		printf("restrict_errno=%d\n", errno);
		return 10;
	}
	for (call = strtok_r(argv[3], ",", &save); call;
	     call = strtok_r(NULL, ",", &save)) {
		e = call32(call, argv[2]);
		if (e < 0) {
			printf("prog32_usage=unknown call %s\n", call);
			return 2;
		}
		printf("errno%d=%d\n", ++n, e);
		fflush(stdout);
	}
	return 0;
}

int main(int argc, char *argv[])
{
	int mask;
	char *const probe_argv[] = { FIX_PROBE_SUID, NULL };
	int e1, e2;

	if (argc == 4)
		return calls32(argv);
	if (argc != 1) {
		printf("prog32_usage=prog32 [MASK PATH CALL[,CALL...]]\n");
		return 2;
	}
	if (prctl(PR_RESTRICT_ME, PR_RESTRICT_EXEC, 0, 0, 0))
		return 10;
	mask = prctl(PR_GET_RESTRICT, 0, 0, 0, 0);
	if (mask < 0)
		return 11;
	printf("mask32=%d\n", mask);
	execve(FIX_PROBE, probe_argv, environ);
	e1 = errno;
	syscall(SYS_execveat, AT_FDCWD, FIX_PROBE, probe_argv, environ, 0);
	e2 = errno;
	printf("execve32_errno=%d\nexecveat32_errno=%d\n", e1, e2);
	fflush(stdout);
	execve_nosecurity(FIX_PROBE_SUID, probe_argv, environ);
	printf("nosec32_errno=%d\n", errno);
	return 12;
}
