// SPDX-License-Identifier: GPL-2.0
/*
 * PR_RESTRICT_ME and PR_GET_RESTRICT: their arguments, an
 * exec ban that is irrevocable and holds for every route (execveat, a
 * memfd, the 32-bit entry, vfork, posix_spawn), its inheritance over
 * fork, clone3 and threads, and the flags a nosecurity exec keeps.  Two
 * nosecurity exec cases sit among them: through the 32-bit entry, and
 * from a non-leader thread.
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
#include <linux/types.h>

#include "nosec.h"
#include "fixtures.h"
#include "common.h"
#include "../kselftest_harness.h"
#include "ksft_nosec.h"

NOSEC_FIXTURE(restrict);

TEST_F(restrict, restrict_me_argument_errors)
{
	AS_TEST_USER();

	ASSERT_ERRNO(EINVAL, restrict_me(PR_RESTRICT_EXEC, PR_RESTRICT_TSYNC << 1, 0, 0),
		     "arg3: an unknown flag");
	ASSERT_ERRNO(EINVAL, restrict_me(PR_RESTRICT_EXEC, 0, 0, 1), "arg5");
	ASSERT_EQ(0, restrict_me(0, PR_RESTRICT_TSYNC, 0, 0))
		TH_LOG("arg2 0 with PR_RESTRICT_TSYNC");
	ASSERT_ERRNO(EINVAL, restrict_me(4, 0, 0, 0), "unknown bit");
	ASSERT_ERRNO(EINVAL, restrict_me(PR_RESTRICT_EXEC | 4, 0, 0, 0), "unknown bit with EXEC");
	ASSERT_ERRNO(EINVAL, restrict_me(PR_RESTRICT_EXEC_NOSECURITY, 0, 0, 0),
		     "a further bit without PR_RESTRICT_EXEC");
	ASSERT_EQ(0, restrict_me(0, 0, 0, 0)) TH_LOG("arg2 0");
	ASSERT_EQ(0, nosec_exec_restricted()) TH_LOG("bad input changed nothing");
	ASSERT_EQ(ENOENT, child_execve_errno(FIX "/nope")) TH_LOG("exec still allowed");
}

TEST_F(restrict, restrict_denies_execve_before_lookup)
{
	AS_TEST_USER();

	ASSERT_EQ(0, restrict_me(PR_RESTRICT_EXEC, 0, 0, 0)) TH_LOG("restrict: %d", errno);
	ASSERT_ERRNO(EPERM, execve(FIX_PROBE, (char *[]){ FIX_PROBE, NULL }, environ), "errno %d",
		     errno);
	ASSERT_ERRNO(EPERM, execve(FIX "/does-not-exist", no_argv, environ),
		     "nonexistent path: errno %d", errno);
	ASSERT_ERRNO(EPERM, execve(FIX_PROBE, BAD, NULL), "bad argv still EPERM: errno %d", errno);
}

TEST_F(restrict, restrict_is_irrevocable)
{
	AS_TEST_USER();

	ASSERT_EQ(0, restrict_me(PR_RESTRICT_EXEC, 0, 0, 0)) TH_LOG("restrict");
	ASSERT_EQ(0, restrict_me(0, 0, 0, 0)) TH_LOG("arg2 0");
	ASSERT_EQ(0, restrict_me(PR_RESTRICT_EXEC, 0, 0, 0)) TH_LOG("again");
	ASSERT_EQ(0, nosec_set_force(0)) TH_LOG("force off");
	ASSERT_EQ(1, nosec_exec_restricted()) TH_LOG("still restricted");
	ASSERT_ERRNO(EPERM, execve(FIX_PROBE, no_argv, environ), "errno %d", errno);
}

TEST_F(restrict, get_restrict_returns_mask_unused_args_einval)
{
	unsigned long m = 0;

	AS_TEST_USER();

	ASSERT_EQ(0, prctl(PR_GET_RESTRICT, 0, 0, 0, 0)) TH_LOG("unrestricted: %d", errno);
	ASSERT_ERRNO(EINVAL, prctl(PR_GET_RESTRICT, &m, 0, 0, 0), "arg2");
	ASSERT_ERRNO(EINVAL, prctl(PR_GET_RESTRICT, 0, 1, 0, 0), "arg3");
	ASSERT_ERRNO(EINVAL, prctl(PR_GET_RESTRICT, 0, 0, 1, 0), "arg4");
	ASSERT_ERRNO(EINVAL, prctl(PR_GET_RESTRICT, 0, 0, 0, 1), "arg5");
	ASSERT_EQ(0, restrict_me(PR_RESTRICT_EXEC, 0, 0, 0)) TH_LOG("restrict");
	ASSERT_EQ(PR_RESTRICT_EXEC, prctl(PR_GET_RESTRICT, 0, 0, 0, 0)) TH_LOG("mask");
	ASSERT_EQ(0, restrict_me(PR_RESTRICT_EXEC_NOSECURITY, 0, 0, 0)) TH_LOG("restrict more");
	ASSERT_EQ((PR_RESTRICT_EXEC | PR_RESTRICT_EXEC_NOSECURITY),
		  prctl(PR_GET_RESTRICT, 0, 0, 0, 0))
		TH_LOG("both bits");
	ASSERT_EQ(0, m) TH_LOG("nothing stored through arg2");
}

TEST_F(restrict, restrict_denies_execveat_all_forms)
{
	AS_TEST_USER();

	int fd = open(FIX_PROBE, O_RDONLY);
	int pfd = open(FIX_PROBE, O_PATH);
	char proc[64];

	ASSERT_TRUE(fd >= 0 && pfd >= 0) TH_LOG("open");
	ASSERT_EQ(0, restrict_me(PR_RESTRICT_EXEC, 0, 0, 0)) TH_LOG("restrict");
	ASSERT_ERRNO(EPERM, syscall(SYS_execveat, AT_FDCWD, FIX_PROBE, NULL, NULL, 0), "path %d",
		     errno);
	ASSERT_ERRNO(EPERM, syscall(SYS_execveat, fd, "", NULL, NULL, AT_EMPTY_PATH), "fd %d",
		     errno);
	ASSERT_ERRNO(EPERM, syscall(SYS_execveat, pfd, "", NULL, NULL, AT_EMPTY_PATH), "O_PATH %d",
		     errno);
	ASSERT_ERRNO(EPERM, fexecve(fd, (char *[]){ "p", NULL }, environ), "fexecve %d", errno);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	ASSERT_ERRNO(EPERM, execve(proc, no_argv, environ), "/proc/self/fd: %d", errno);
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

TEST_F(restrict, restrict_denies_memfd_fexecve)
{
	AS_TEST_USER();

	int fd = memfd_with_probe();
	pid_t pid;

	ASSERT_TRUE(fd >= 0) TH_LOG("memfd");
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		fexecve(fd, (char *[]){ "p", NULL }, environ);
		_exit(99);
	}
	ASSERT_EQ(0, wait_status(pid)) TH_LOG("unrestricted memfd fexecve runs");
	ASSERT_EQ(0, restrict_me(PR_RESTRICT_EXEC, 0, 0, 0)) TH_LOG("restrict");
	ASSERT_ERRNO(EPERM, fexecve(fd, (char *[]){ "p", NULL }, environ), "memfd %d", errno);
}

#if defined(__x86_64__)
/*
 * 32-bit entry points from this 64-bit program; the binary is static and
 * not PIE, so these live below 4 GiB.
 */
static char i32_path[] = FIX_PROBE;
static unsigned int i32_argv[2];


TEST_F(restrict, restrict_denies_int80_execve_execveat)
{
	pid_t pid;

	AS_TEST_USER();

	i32_argv[0] = (unsigned int)(uintptr_t)i32_path;
	ASSERT_TRUE((uintptr_t)i32_path < 0xffffffffUL) TH_LOG("static data below 4 GiB");
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		int80(NR32_EXECVE, (long)i32_path, (long)i32_argv, 0, 0, 0);
		_exit(99);
	}
	ASSERT_EQ(0, wait_status(pid)) TH_LOG("unrestricted int $0x80 execve runs the probe");
	ASSERT_EQ(0, restrict_me(PR_RESTRICT_EXEC, 0, 0, 0)) TH_LOG("restrict");
	ASSERT_EQ(-EPERM, int80(NR32_EXECVE, (long)i32_path, (long)i32_argv, 0, 0, 0))
		TH_LOG("int80 execve");
	ASSERT_EQ(-EPERM, int80(NR32_EXECVEAT, AT_FDCWD, (long)i32_path, (long)i32_argv, 0, 0))
		TH_LOG("int80 execveat");
}

static char i32_suid_path[] = FIX_PROBE_SUID;
static unsigned int i32_suid_argv[2];
#ifndef NOSEC_KSELFTEST
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
#else
/* The arguments of the i386 execveat, as 32-bit values. */
static struct {
	unsigned int pathname, argv, envp, flags;
	int dirfd;
} i32_args;

/* The i386 execveat with AT_EXECVE_NO_TRANSITION: 32-bit argv. */
static long compat_nosec_exec(void)
{
	return int80(NR32_EXECVEAT, i32_args.dirfd, i32_args.pathname, i32_args.argv,
		     i32_args.envp, i32_args.flags | AT_EXECVE_NO_TRANSITION);
}
#endif

static void compat_exec_child(void *arg)
{
	(void)arg;
	printf("exec_errno=%ld\n", -compat_nosec_exec());
}

#ifndef NOSEC_KSELFTEST
TEST_F(restrict, nosec_compat_ioctl_int80)
#else
TEST_F(restrict, nosec_compat_execveat_int80)
#endif
{
	struct run r;

	AS_TEST_USER();

	i32_suid_argv[0] = (unsigned int)(uintptr_t)i32_suid_path;
	i32_args.pathname = (uintptr_t)i32_suid_path;
	i32_args.argv = (uintptr_t)i32_suid_argv;
	i32_args.dirfd = AT_FDCWD;
	ASSERT_EQ(0, capture(compat_exec_child, NULL, &r))
		TH_LOG("32-bit nosecurity exec: %s", r.out);
	ASSERT_TRUE(!strcmp(get(&r, "uids"), "1000,1000,1000,1000"))
		TH_LOG("uids %s", get(&r, "uids"));
	i32_args.flags = 0x4;
	ASSERT_EQ(-EINVAL, compat_nosec_exec()) TH_LOG("unknown flag through compat");
}
#elif defined(__aarch64__)
/*
 * The 32-bit entry: an arm64 task has none, so the AArch32 program
 * (prog32) makes the calls, restricting itself first.
 */
TEST_F(restrict, restrict_denies_aarch32_execve_execveat)
{
	struct run r;

	AS_TEST_USER();

	ASSERT_PASS(prog32_calls(NULL, 0, FIX_PROBE, "execve", &r));
	ASSERT_TRUE(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0 && getl(&r, "end") == 1)
		TH_LOG("unrestricted AArch32 execve runs the probe: %s", r.out);
	ASSERT_PASS(prog32_calls(NULL, PR_RESTRICT_EXEC, FIX_PROBE, "execve,execveat", &r));
	ASSERT_EQ(EPERM, getl(&r, "errno1")) TH_LOG("AArch32 execve: %s", r.out);
	ASSERT_EQ(EPERM, getl(&r, "errno2")) TH_LOG("AArch32 execveat: %s", r.out);
}

#ifndef NOSEC_KSELFTEST
/*
 * The ioctl through the AArch32 entry: compat_ioctl, 32-bit argv; first
 * with an unknown flag.  Natively: the AArch32 execveat with
 * AT_EXECVE_NO_TRANSITION, with the same arguments.
 */
TEST_F(restrict, nosec_compat_ioctl_aarch32)
#else
/*
 * The AArch32 execveat with AT_EXECVE_NO_TRANSITION, 32-bit argv; first
 * with an unknown flag.
 */
TEST_F(restrict, nosec_compat_execveat_aarch32)
#endif
{
	struct run r;

	AS_TEST_USER();

#ifndef NOSEC_KSELFTEST
	ASSERT_PASS(prog32_calls(NULL, 0, FIX_PROBE_SUID,
				 nosec_native ? "execveat:0x204,execveat:0x200" : "ioctl:4,ioctl",
				 &r));
#else
	ASSERT_PASS(prog32_calls(NULL, 0, FIX_PROBE_SUID, "execveat:0x204,execveat:0x200", &r));
#endif
	ASSERT_EQ(EINVAL, getl(&r, "errno1")) TH_LOG("unknown flag through compat: %s", r.out);
	ASSERT_TRUE(!strcmp(get(&r, "uids"), "1000,1000,1000,1000"))
		TH_LOG("32-bit nosecurity exec: %s", r.out);
}
#else
/* The 32-bit entry, as the cases above reach it on x86-64 and arm64. */
TEST_F(restrict, restrict_denies_compat_execve_execveat)
{
	ARCH_TEST_START("the 32-bit entry (int $0x80, or an AArch32 program)");
}
#endif

TEST_F(restrict, restrict_denies_vfork_exec)
{
	pid_t pid;

	AS_TEST_USER();

	ASSERT_EQ(0, restrict_me(PR_RESTRICT_EXEC, 0, 0, 0)) TH_LOG("restrict");
	pid = vfork();
	if (pid == 0) {
		execve(FIX_PROBE, (char *[]){ FIX_PROBE, NULL }, environ);
		_exit(errno);
	}
	ASSERT_EQ(EPERM, wait_status(pid)) TH_LOG("vfork+exec");
}

TEST_F(restrict, restrict_denies_posix_spawn)
{
	char *const argv[] = { FIX_PROBE, NULL };
	pid_t pid;
	int ret;

	AS_TEST_USER();

	ASSERT_EQ(0, restrict_me(PR_RESTRICT_EXEC, 0, 0, 0)) TH_LOG("restrict");
	ret = posix_spawn(&pid, FIX_PROBE, NULL, NULL, argv, environ);
	ASSERT_EQ(EPERM, ret) TH_LOG("posix_spawn: %d", ret);
}

/* ---- inheritance ---- */

TEST_F(restrict, restrict_inherited_fork_grandchild)
{
	pid_t pid;

	AS_TEST_USER();

	ASSERT_EQ(0, restrict_me(PR_RESTRICT_EXEC, 0, 0, 0)) TH_LOG("restrict");
	pid = fork();
	if (pid == 0) {
		pid_t grand = fork();

		if (grand == 0)
			_exit(child_execve_errno(FIX_PROBE));
		_exit(wait_status(grand));
	}
	ASSERT_EQ(EPERM, wait_status(pid)) TH_LOG("grandchild exec");
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

TEST_F(restrict, restrict_not_per_thread_and_inherited_by_threads)
{
	pthread_t t;
	void *ret;

	AS_TEST_USER();

	/*
	 * Not per thread, as the 2010 series and no_new_privs were: a thread
	 * may not restrict itself alone while the main thread shares its
	 * memory (EBUSY, naming it).
	 */
	ASSERT_EQ(0, pthread_create(&t, NULL, thread_restrict, NULL)) TH_LOG("thread");
	pthread_join(t, &ret);
	ASSERT_EQ(EBUSY, (long)ret) TH_LOG("a thread restricting itself alone: %ld", (long)ret);
	ASSERT_EQ(0, nosec_exec_restricted()) TH_LOG("main thread not restricted");
	ASSERT_EQ(0, restrict_me(PR_RESTRICT_EXEC, 0, 0, 0)) TH_LOG("restrict");
	ASSERT_EQ(0, pthread_create(&t, NULL, thread_exec, NULL)) TH_LOG("thread");
	pthread_join(t, &ret);
	ASSERT_EQ(EPERM, (long)ret) TH_LOG("thread created after: errno %ld", (long)ret);
}

static void *thread_nosec_exec(void *arg)
{
	char *const argv[] = { FIX_PROBE_SUID, NULL };

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
TEST_F(restrict, nosec_exec_from_non_leader_thread)
{
	struct run r;

	AS_TEST_USER();

	ASSERT_EQ(0, capture(restricted_thread_exec, NULL, &r)) TH_LOG("probe ran: %s", r.out);
	ASSERT_EQ(getl(&r, "pid_before"), getl(&r, "pid"))
		TH_LOG("the process keeps its pid: %s", r.out);
	ASSERT_TRUE(id_field(&r, "uids", 1) == TEST_UID && getl(&r, "restrict") == 1)
		TH_LOG("no privilege, still restricted: %s", r.out);
}

struct clone3_args {
	__u64 flags, pidfd, child_tid, parent_tid, exit_signal;
	__u64 stack, stack_size, tls, set_tid, set_tid_size, cgroup;
};

TEST_F(restrict, restrict_inherited_clone3)
{
	struct clone3_args args = { .exit_signal = SIGCHLD };
	long pid;

	AS_TEST_USER();

	ASSERT_EQ(0, restrict_me(PR_RESTRICT_EXEC, 0, 0, 0)) TH_LOG("restrict");
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid == 0)
		_exit(child_execve_errno(FIX_PROBE));
	ASSERT_TRUE(pid > 0) TH_LOG("clone3: %d", errno);
	ASSERT_EQ(EPERM, wait_status(pid)) TH_LOG("clone3 child exec");
}

TEST_F(restrict, flags_kept_across_nosec_exec)
{
	struct run n;

	AS_TEST_USER();

	ASSERT_EQ(0, run_prog(NOSEC, FIX_PROBE, setup_restrict, &n))
		TH_LOG("restricted nosec exec ran: %d", n.exec_errno);
	ASSERT_EQ(PR_RESTRICT_EXEC, getl(&n, "restrict"))
		TH_LOG("restrict after exec %s", get(&n, "restrict"));
	ASSERT_EQ(0, getl(&n, "force")) TH_LOG("force %s", get(&n, "force"));
	ASSERT_EQ(0, run_prog(FORCED, FIX_PROBE, NULL, &n))
		TH_LOG("forced exec ran: %d", n.exec_errno);
	ASSERT_TRUE(getl(&n, "restrict") == PR_RESTRICT_EXEC && getl(&n, "force") == 1)
		TH_LOG("forced: restrict %s force %s", get(&n, "restrict"), get(&n, "force"));
}

TEST_HARNESS_MAIN
