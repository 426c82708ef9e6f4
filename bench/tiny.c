// SPDX-License-Identifier: GPL-2.0
/*
 * tiny - the program the benchmark execs: no libc, a handful of pages.
 *
 *   tiny                 exit 0
 *   tiny N plain         exec itself N more times with execve(), then
 *                        exit 0
 *   tiny N nosec         the same through execve_nosecurity()'s path:
 *                        open /dev/nosec_exec (O_CLOEXEC), then the
 *                        NOSEC_IOC_EXECVEAT ioctl
 *   tiny N open          open /dev/nosec_exec (O_CLOEXEC) as nosec does,
 *                        then execve(): what the device open alone costs
 *
 * A chain of execs in one process measures exec latency alone, without a
 * fork and a wait around each one.
 */
#include <linux/nosec_exec.h>
#include <stddef.h>

static long sys3(long nr, long a, long b, long c)
{
	long ret;

	asm volatile ("syscall"
		      : "=a" (ret)
		      : "a" (nr), "D" (a), "S" (b), "d" (c)
		      : "rcx", "r11", "memory");
	return ret;
}

static __attribute__((noreturn)) void sys_exit(int code)
{
	sys3(60, code, 0, 0);
	for (;;)
		;
}

static long parse(const char *s)
{
	long v = 0;

	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	return v;
}

static void format(char *buf, long v)
{
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = '0' + v % 10;
		v /= 10;
	} while (v);
	while (n)
		*buf++ = tmp[--n];
	*buf = '\0';
}

void tiny_main(long *sp);
__attribute__((used)) void tiny_main(long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1);
	char **envp = argv + argc + 1;
	char count[24];
	char *next[] = { argv[0], count, argv[2], NULL };
	long n, fd;

	if (argc < 3)
		sys_exit(0);
	n = parse(argv[1]);
	if (n <= 0)
		sys_exit(0);
	format(count, n - 1);
	if (argv[2][0] == 'p') {
		sys3(59, (long)argv[0], (long)next, (long)envp);
	} else if (argv[2][0] == 'o') {
		sys3(2, (long)"/dev/" NOSEC_EXEC_DEVICE_NAME, 02000002, 0);
		sys3(59, (long)argv[0], (long)next, (long)envp);
	} else {
		struct nosec_execveat_args args = {
			.pathname = (unsigned long)argv[0],
			.argv = (unsigned long)next,
			.envp = (unsigned long)envp,
			.dirfd = -100,	/* AT_FDCWD */
		};

		/* open(2) with O_RDWR | O_CLOEXEC, as libnosec does */
		fd = sys3(2, (long)"/dev/" NOSEC_EXEC_DEVICE_NAME, 02000002, 0);
		if (fd >= 0)
			sys3(16, fd, NOSEC_IOC_EXECVEAT, (long)&args);
	}
	sys_exit(127);	/* the exec failed */
}

asm (".globl _start\n"
     "_start:\n"
     "	mov %rsp, %rdi\n"
     "	and $-16, %rsp\n"
     "	call tiny_main\n"
     "	hlt\n");
