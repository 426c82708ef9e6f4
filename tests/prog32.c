// SPDX-License-Identifier: GPL-2.0
/*
 * prog32 - a real 32-bit program (gcc -m32): restricts itself, checks the
 * compat prctl and that execve/execveat are denied, then runs
 * FIX_PROBE_SUID through execve_nosecurity (the ioctl's compat path;
 * natively, the i386 execveat_nosecurity system call).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nosec.h"
#include "fixtures.h"

int main(void)
{
	int mask;
	char *argv[] = { FIX_PROBE_SUID, NULL };
	extern char **environ;
	int e1, e2;

	if (prctl(PR_RESTRICT_ME, PR_RESTRICT_EXEC, 0, 0, 0))
		return 10;
	mask = prctl(PR_GET_RESTRICT, 0, 0, 0, 0);
	if (mask < 0)
		return 11;
	printf("mask32=%d\n", mask);
	execve(FIX_PROBE, argv, environ);
	e1 = errno;
	syscall(SYS_execveat, AT_FDCWD, FIX_PROBE, argv, environ, 0);
	e2 = errno;
	printf("execve32_errno=%d\nexecveat32_errno=%d\n", e1, e2);
	fflush(stdout);
	execve_nosecurity(FIX_PROBE_SUID, argv, environ);
	printf("nosec32_errno=%d\n", errno);
	return 12;
}
