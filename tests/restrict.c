// SPDX-License-Identifier: GPL-2.0
/*
 * PR_RESTRICT_ME and PR_GET_RESTRICT: their arguments, an
 * exec ban that is irrevocable and holds for every route (execveat, a
 * memfd, the 32-bit entry, vfork, posix_spawn), its inheritance over
 * fork, clone3 and threads, and the flags a nosecurity exec keeps.  Two
 * nosecurity exec cases sit among them to keep the TAP numbering: the
 * ioctl through the 32-bit entry and the exec from a non-leader thread.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nosec.h"
#include "fixtures.h"
#include "harness.h"
#include "common.h"

static int t_restrict_args(void)
{
	CHECK(restrict_me(PR_RESTRICT_EXEC, PR_RESTRICT_TSYNC << 1, 0, 0) == -1 &&
	      errno == EINVAL, "arg3: an unknown flag");
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 1) == -1 && errno == EINVAL, "arg5");
	CHECK(restrict_me(0, PR_RESTRICT_TSYNC, 0, 0) == 0, "arg2 0 with PR_RESTRICT_TSYNC");
	CHECK(restrict_me(4, 0, 0, 0) == -1 && errno == EINVAL, "unknown bit");
	CHECK(restrict_me(PR_RESTRICT_EXEC | 4, 0, 0, 0) == -1 && errno == EINVAL, "unknown bit with EXEC");
	CHECK(restrict_me(PR_RESTRICT_EXEC_NOSECURITY, 0, 0, 0) == -1 && errno == EINVAL,
	      "a further bit without PR_RESTRICT_EXEC");
	CHECK(restrict_me(0, 0, 0, 0) == 0, "arg2 0");
	CHECK(nosec_exec_restricted() == 0, "bad input changed nothing");
	CHECK(child_execve_errno(FIX "/nope") == ENOENT, "exec still allowed");
	return PASS;
}

static int t_restrict_denies_execve(void)
{
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict: %d", errno);
	CHECK(execve(FIX_PROBE, (char *[]){ FIX_PROBE, NULL }, environ) == -1 && errno == EPERM, "errno %d", errno);
	CHECK(execve(FIX "/does-not-exist", no_argv, environ) == -1 && errno == EPERM,
	      "nonexistent path: errno %d", errno);
	CHECK(execve(FIX_PROBE, BAD, NULL) == -1 && errno == EPERM,
	      "bad argv still EPERM: errno %d", errno);
	return PASS;
}

static int t_restrict_irrevocable(void)
{
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	CHECK(restrict_me(0, 0, 0, 0) == 0, "arg2 0");
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "again");
	CHECK(nosec_set_force(0) == 0, "force off");
	CHECK(nosec_exec_restricted() == 1, "still restricted");
	CHECK(execve(FIX_PROBE, no_argv, environ) == -1 && errno == EPERM, "errno %d", errno);
	return PASS;
}

static int t_get_restrict(void)
{
	unsigned long m = 0;

	CHECK(prctl(PR_GET_RESTRICT, 0, 0, 0, 0) == 0, "unrestricted: %d", errno);
	CHECK(prctl(PR_GET_RESTRICT, &m, 0, 0, 0) == -1 && errno == EINVAL, "arg2");
	CHECK(prctl(PR_GET_RESTRICT, 0, 1, 0, 0) == -1 && errno == EINVAL, "arg3");
	CHECK(prctl(PR_GET_RESTRICT, 0, 0, 1, 0) == -1 && errno == EINVAL, "arg4");
	CHECK(prctl(PR_GET_RESTRICT, 0, 0, 0, 1) == -1 && errno == EINVAL, "arg5");
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	CHECK(prctl(PR_GET_RESTRICT, 0, 0, 0, 0) == PR_RESTRICT_EXEC, "mask");
	CHECK(restrict_me(PR_RESTRICT_EXEC_NOSECURITY, 0, 0, 0) == 0, "restrict more");
	CHECK(prctl(PR_GET_RESTRICT, 0, 0, 0, 0) ==
	      (PR_RESTRICT_EXEC | PR_RESTRICT_EXEC_NOSECURITY), "both bits");
	CHECK(m == 0, "nothing stored through arg2");
	return PASS;
}

static int t_ban_execveat(void)
{
	int fd = open(FIX_PROBE, O_RDONLY);
	int pfd = open(FIX_PROBE, O_PATH);
	char proc[64];

	CHECK(fd >= 0 && pfd >= 0, "open");
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	CHECK(syscall(SYS_execveat, AT_FDCWD, FIX_PROBE, NULL, NULL, 0) == -1 && errno == EPERM, "path %d", errno);
	CHECK(syscall(SYS_execveat, fd, "", NULL, NULL, AT_EMPTY_PATH) == -1 && errno == EPERM, "fd %d", errno);
	CHECK(syscall(SYS_execveat, pfd, "", NULL, NULL, AT_EMPTY_PATH) == -1 && errno == EPERM, "O_PATH %d", errno);
	CHECK(fexecve(fd, (char *[]){ "p", NULL }, environ) == -1 && errno == EPERM, "fexecve %d", errno);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	CHECK(execve(proc, no_argv, environ) == -1 && errno == EPERM, "/proc/self/fd: %d", errno);
	return PASS;
}

static int memfd_with_probe(void)
{
	int in = open(FIX_PROBE, O_RDONLY), fd = memfd_create("probe", MFD_CLOEXEC);
	char buf[65536];
	ssize_t n;

	if (in < 0 || fd < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(fd, buf, n) != n)
			return -1;
	close(in);
	return fd;
}

static int t_ban_memfd(void)
{
	int fd = memfd_with_probe();
	pid_t pid;

	CHECK(fd >= 0, "memfd");
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		fexecve(fd, (char *[]){ "p", NULL }, environ);
		_exit(99);
	}
	CHECK(wait_status(pid) == 0, "unrestricted memfd fexecve runs");
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	CHECK(fexecve(fd, (char *[]){ "p", NULL }, environ) == -1 && errno == EPERM, "memfd %d", errno);
	return PASS;
}

/* 32-bit entry points from this 64-bit program; the binary is static and
 * not PIE, so these live below 4 GiB. */
static char i32_path[] = FIX_PROBE;
static unsigned int i32_argv[2];


static int t_ban_int80(void)
{
	pid_t pid;

	i32_argv[0] = (unsigned int)(uintptr_t)i32_path;
	CHECK((uintptr_t)i32_path < 0xffffffffUL, "static data below 4 GiB");
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		int80(NR32_EXECVE, (long)i32_path, (long)i32_argv, 0, 0, 0);
		_exit(99);
	}
	CHECK(wait_status(pid) == 0, "unrestricted int $0x80 execve runs the probe");
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	CHECK(int80(NR32_EXECVE, (long)i32_path, (long)i32_argv, 0, 0, 0) == -EPERM, "int80 execve");
	CHECK(int80(NR32_EXECVEAT, AT_FDCWD, (long)i32_path, (long)i32_argv, 0, 0) == -EPERM,
	      "int80 execveat");
	return PASS;
}

static char i32_suid_path[] = FIX_PROBE_SUID;
static unsigned int i32_suid_argv[2];
static struct nosec_execveat_args i32_args;


/*
 * The ioctl through the 32-bit entry: compat_ioctl, 32-bit argv.
 * Natively: the i386 execveat with AT_EXECVE_NO_TRANSITION, with the
 * same arguments.
 */
static long compat_nosec_exec(void)
{
	int fd;

	if (nosec_native)
		return int80(NR32_EXECVEAT, (int)i32_args.dirfd,
			     (long)i32_args.pathname, (long)i32_args.argv,
			     (long)i32_args.envp,
			     i32_args.flags | AT_EXECVE_NO_TRANSITION);
	fd = open("/dev/nosec_exec", O_RDWR | O_CLOEXEC);
	return int80(NR32_IOCTL, fd, NOSEC_IOC_EXECVEAT, (long)&i32_args, 0, 0);
}

static void compat_ioctl_exec(void *arg)
{
	(void)arg;
	printf("exec_errno=%ld\n", -compat_nosec_exec());
}

static int t_nosec_compat_ioctl(void)
{
	struct run r;

	i32_suid_argv[0] = (unsigned int)(uintptr_t)i32_suid_path;
	i32_args.pathname = (uintptr_t)i32_suid_path;
	i32_args.argv = (uintptr_t)i32_suid_argv;
	i32_args.dirfd = AT_FDCWD;
	CHECK(capture(compat_ioctl_exec, NULL, &r) == 0, "32-bit ioctl exec: %s", r.out);
	CHECK(!strcmp(get(&r, "uids"), "1000,1000,1000,1000"), "uids %s", get(&r, "uids"));
	i32_args.flags = 0x4;
	CHECK(compat_nosec_exec() == -EINVAL, "unknown flag through compat");
	return PASS;
}

static int t_ban_vfork(void)
{
	pid_t pid;

	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	pid = vfork();
	if (pid == 0) {
		execve(FIX_PROBE, (char *[]){ FIX_PROBE, NULL }, environ);
		_exit(errno);
	}
	CHECK(wait_status(pid) == EPERM, "vfork+exec");
	return PASS;
}

static int t_ban_posix_spawn(void)
{
	char *argv[] = { FIX_PROBE, NULL };
	pid_t pid;
	int ret;

	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	ret = posix_spawn(&pid, FIX_PROBE, NULL, NULL, argv, environ);
	CHECK(ret == EPERM, "posix_spawn: %d", ret);
	return PASS;
}

/* ---- inheritance ---- */

static int t_inherit_fork(void)
{
	pid_t pid;

	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	pid = fork();
	if (pid == 0) {
		pid_t grand = fork();

		if (grand == 0)
			_exit(child_execve_errno(FIX_PROBE));
		_exit(wait_status(grand));
	}
	CHECK(wait_status(pid) == EPERM, "grandchild exec");
	return PASS;
}

static void *thread_exec(void *arg)
{
	(void)arg;
	execve(FIX "/nope", no_argv, environ);
	return (void *)(long)errno;
}

static void *thread_restrict(void *arg)
{
	int tid = 0;

	(void)arg;
	if (restrict_me(PR_RESTRICT_EXEC, 0, (unsigned long)&tid, 0) == 0)
		return (void *)0L;
	return (void *)(long)(errno == EBUSY && tid == getpid() ? EBUSY : -1);
}

static int t_inherit_threads(void)
{
	pthread_t t;
	void *ret;

	/*
	 * Not per thread, as the 2010 series and no_new_privs were: a thread
	 * may not restrict itself alone while the main thread shares its
	 * memory (EBUSY, naming it).
	 */
	CHECK(pthread_create(&t, NULL, thread_restrict, NULL) == 0, "thread");
	pthread_join(t, &ret);
	CHECK((long)ret == EBUSY, "a thread restricting itself alone: %ld", (long)ret);
	CHECK(nosec_exec_restricted() == 0, "main thread not restricted");
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	CHECK(pthread_create(&t, NULL, thread_exec, NULL) == 0, "thread");
	pthread_join(t, &ret);
	CHECK((long)ret == EPERM, "thread created after: errno %ld", (long)ret);
	return PASS;
}

static void *thread_nosec_exec(void *arg)
{
	char *argv[] = { FIX_PROBE_SUID, NULL };

	(void)arg;
	execve_nosecurity(FIX_PROBE_SUID, argv, environ);
	return (void *)(long)errno;
}

/* A nosecurity exec from a non-leader thread takes over the process. */
static void restricted_thread_exec(void *arg)
{
	pthread_t t;
	void *ret;

	(void)arg;
	nosec_restrict_exec();
	printf("pid_before=%d\n", getpid());
	fflush(stdout);
	if (pthread_create(&t, NULL, thread_nosec_exec, NULL) == 0)
		pthread_join(t, &ret);
}

/* A nosecurity exec from a non-leader thread takes over the process. */
static int t_nosec_from_thread(void)
{
	struct run r;

	CHECK(capture(restricted_thread_exec, NULL, &r) == 0, "probe ran: %s", r.out);
	CHECK(getl(&r, "pid") == getl(&r, "pid_before"), "the process keeps its pid: %s", r.out);
	CHECK(id_field(&r, "uids", 1) == TEST_UID && getl(&r, "restrict") == 1,
	      "no privilege, still restricted: %s", r.out);
	return PASS;
}

struct clone3_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal;
	uint64_t stack, stack_size, tls, set_tid, set_tid_size, cgroup;
};

static int t_inherit_clone3(void)
{
	struct clone3_args args = { .exit_signal = SIGCHLD };
	long pid;

	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid == 0)
		_exit(child_execve_errno(FIX_PROBE));
	CHECK(pid > 0, "clone3: %d", errno);
	CHECK(wait_status(pid) == EPERM, "clone3 child exec");
	return PASS;
}

static int t_kept_across_nosec_exec(void)
{
	struct run n;

	CHECK(run_prog(NOSEC, FIX_PROBE, setup_restrict, &n) == 0, "restricted nosec exec ran: %d", n.exec_errno);
	CHECK(getl(&n, "restrict") == PR_RESTRICT_EXEC, "restrict after exec %s", get(&n, "restrict"));
	CHECK(getl(&n, "force") == 0, "force %s", get(&n, "force"));
	CHECK(run_prog(FORCED, FIX_PROBE, NULL, &n) == 0, "forced exec ran: %d", n.exec_errno);
	CHECK(getl(&n, "restrict") == PR_RESTRICT_EXEC && getl(&n, "force") == 1,
	      "forced: restrict %s force %s", get(&n, "restrict"), get(&n, "force"));
	return PASS;
}

const struct test_case restrict_cases[] = {
	{ "restrict_me_argument_errors", t_restrict_args },
	{ "restrict_denies_execve_before_lookup", t_restrict_denies_execve },
	{ "restrict_is_irrevocable", t_restrict_irrevocable },
	{ "get_restrict_returns_mask_unused_args_einval", t_get_restrict },
	{ "restrict_denies_execveat_all_forms", t_ban_execveat },
	{ "restrict_denies_memfd_fexecve", t_ban_memfd },
	{ "restrict_denies_int80_execve_execveat", t_ban_int80 },
	{ "nosec_compat_ioctl_int80", t_nosec_compat_ioctl },
	{ "restrict_denies_vfork_exec", t_ban_vfork },
	{ "restrict_denies_posix_spawn", t_ban_posix_spawn },
	{ "restrict_inherited_fork_grandchild", t_inherit_fork },
	{ "restrict_not_per_thread_and_inherited_by_threads", t_inherit_threads },
	{ "restrict_inherited_clone3", t_inherit_clone3 },
	{ "nosec_exec_from_non_leader_thread", t_nosec_from_thread },
	{ "flags_kept_across_nosec_exec", t_kept_across_nosec_exec },
	{ NULL },
};
