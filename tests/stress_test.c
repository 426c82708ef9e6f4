// SPDX-License-Identifier: GPL-2.0
/*
 * Stress and fuzz cases, bounded in count and time.  The fuzz case runs a
 * short round in every run; the rest, and the full fuzz round, run with
 * --stress (make stress, make check-debug).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nosec.h"
#include "common.h"
#include "../kselftest_harness.h"
#include "ksft_nosec.h"
#include "fixtures.h"

/*
 * fuzz: runs in every suite run.  stress and stress_module (which
 * reloads the module) run only in make stress (run-tests --stress).
 */
NOSEC_FIXTURE(fuzz);
NOSEC_FIXTURE(stress);
NOSEC_RELOAD_FIXTURE(stress_module);

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- 100,000 fork/exit cycles of restricted and forced tasks ---- */

/*
 * NOSEC_STRESS_CLONE=vfork makes the children with vfork(): the same
 * copy_process() and release_task() as fork(), so the same module hooks,
 * without copying the address space, which is what makes a fork slow on
 * the debug kernel (kmemleak tracks every VMA, anon_vma and page table).
 */
static int fork_worker(int id, int cycles, int use_vfork)
{
	setup_user();
	if (id % 2 == 0 && nosec_restrict_exec())
		return 1;
	if (id % 4 == 0 && nosec_set_force(1))
		return 1;
	for (int i = 0; i < cycles; i++) {
		pid_t pid = use_vfork ? vfork() : fork();

		if (pid < 0)
			return 1;
		if (pid == 0)
			_exit(0);
		if (wait_status(pid) != 0)
			return 1;
	}
	return 0;
}

TEST_F_TIMEOUT(stress, stress_fork_exit_100k, 1200)
{
	long total = env_long("NOSEC_STRESS_FORKS", 100000);
	const char *mode = getenv("NOSEC_STRESS_CLONE");
	int use_vfork = mode && !strcmp(mode, "vfork");
	int workers = 4, bad = 0;
	double t0 = now();
	pid_t pids[4];

	/* The module's stats, here and below; natively there are none. */
	ASSERT_TRUE(nosec_native || wait_tasks(0) == 0) TH_LOG("baseline");
	for (int w = 0; w < workers; w++) {
		pids[w] = fork();
		if (pids[w] == 0)
			_exit(fork_worker(w, total / workers, use_vfork));
	}
	for (int w = 0; w < workers; w++)
		bad += wait_status(pids[w]) != 0;
	printf("# %ld %s/exit cycles (restricted, forced, plain) in %.1f s\n",
	       total, use_vfork ? "vfork" : "fork", now() - t0);
	ASSERT_EQ(0, bad) TH_LOG("%d workers failed a fork", bad);
	if (nosec_native)
		return;
	ASSERT_EQ(0, wait_tasks(0)) TH_LOG("tasks %ld, not back to 0", stat_value("tasks"));
}

/* ---- 64 processes racing for 60 s ---- */

enum { V_RESTRICTED_EXEC, V_PRIVILEGE, V_READ_SKIPPED, V_OTHER, V_NR };
static const char *const violation_names[V_NR] = {
	"restricted execs that succeeded", "nosecurity execs that kept privilege",
	"read checks skipped", "other wrong results",
};

static void *thread_exec_probe(void *arg)
{
	char *argv[] = { FIX_PROBE, "--euid", "1000", NULL };

	if (arg)
		execve_nosecurity(FIX_PROBE, argv, environ);
	else
		execve(FIX_PROBE, argv, environ);
	return (void *)(long)errno;
}

/* One action in a child; its exit status says what happened. */
static void race_action(int action)
{
	char *suid_argv[] = { FIX_PROBE_SUID, "--euid", "1000", NULL };
	char *argv[] = { FIX_PROBE, "--euid", "1000", NULL };
	pthread_t t;
	void *ret;

	switch (action) {
	case 0:	/* restricted plain exec: EPERM */
		nosec_restrict_exec();
		execve(FIX_PROBE, argv, environ);
		_exit(errno);
	case 1:	/* forced exec of a setuid program: runs, euid 1000 */
		nosec_restrict_exec();
		nosec_set_force(1);
		execve(FIX_PROBE_SUID, suid_argv, environ);
		_exit(100 + errno);
	case 2:	/* nosecurity exec of an exec-only program: EACCES */
		execve_nosecurity(FIX_PROBE_XONLY, argv, environ);
		_exit(errno);
	case 3:	/* restricted, from a thread: EPERM */
		nosec_restrict_exec();
		pthread_create(&t, NULL, thread_exec_probe, NULL);
		pthread_join(t, &ret);
		_exit((int)(long)ret);
	case 4:	/* restricted, nosecurity exec from a thread: runs */
		nosec_restrict_exec();
		pthread_create(&t, NULL, thread_exec_probe, (void *)1);
		pthread_join(t, &ret);
		_exit(100 + (int)(long)ret);
	case 5:	/* force on, off, exec: EPERM */
		nosec_restrict_exec();
		nosec_set_force(1);
		nosec_set_force(0);
		execve(FIX_PROBE, argv, environ);
		_exit(errno);
	default:	/* unrestricted plain exec: runs */
		execve(FIX_PROBE, argv, environ);
		_exit(100 + errno);
	}
}

static int race_violation(int action, int status)
{
	switch (action) {
	case 0:
	case 3:
	case 5:
		return status == EPERM ? -1 : status == 0 ? V_RESTRICTED_EXEC : V_OTHER;
	case 1:
		return status == 0 ? -1 : status == 3 ? V_PRIVILEGE : V_OTHER;
	case 2:
		return status == EACCES ? -1 : status == 0 ? V_READ_SKIPPED : V_OTHER;
	default:
		return status == 0 ? -1 : V_OTHER;
	}
}

static void race_worker(int id, double seconds, int wfd)
{
	unsigned int seed = id * 7919 + 1;
	long counts[V_NR + 1] = { 0 };
	double end = now() + seconds;

	setup_user();
	while (now() < end) {
		int action = rand_r(&seed) % 7, v;
		pid_t pid = fork();

		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);

			dup2(null, 1);
			race_action(action);
		}
		if (pid < 0)
			continue;
		v = race_violation(action, wait_status(pid));
		if (v >= 0)
			counts[v]++;
		counts[V_NR]++;
	}
	if (write(wfd, counts, sizeof(counts)) != sizeof(counts))
		_exit(1);
	_exit(0);
}

TEST_F_TIMEOUT(stress, stress_race_64_procs, 600)
{
	int procs = env_long("NOSEC_STRESS_PROCS", 64);
	double seconds = env_long("NOSEC_STRESS_SECONDS", 60);
	long total[V_NR + 1] = { 0 }, counts[V_NR + 1];
	int pfd[2], bad = 0;

	ASSERT_EQ(0, pipe(pfd)) TH_LOG("pipe");
	for (int i = 0; i < procs; i++) {
		if (fork() == 0) {
			close(pfd[0]);
			race_worker(i, seconds, pfd[1]);
		}
	}
	close(pfd[1]);
	for (int i = 0; i < procs; i++) {
		if (read(pfd[0], counts, sizeof(counts)) != sizeof(counts)) {
			bad++;
			continue;
		}
		for (int v = 0; v <= V_NR; v++)
			total[v] += counts[v];
	}
	while (wait(NULL) > 0)
		;
	printf("# %d processes, %.0f s: %ld actions\n", procs, seconds, total[V_NR]);
	for (int v = 0; v < V_NR; v++)
		printf("# %s: %ld\n", violation_names[v], total[v]);
	ASSERT_EQ(0, bad) TH_LOG("%d workers did not report", bad);
	ASSERT_TRUE(total[V_NR] > procs) TH_LOG("too few actions: %ld", total[V_NR]);
	for (int v = 0; v < V_NR; v++) {
		ASSERT_EQ(0, total[v]) TH_LOG("%s: %ld", violation_names[v], total[v]);
	}
	if (nosec_native)	/* the module's stats */
		return;
	ASSERT_EQ(0, stat_value("killed_execs")) TH_LOG("killed %ld", stat_value("killed_execs"));
	ASSERT_EQ(0, wait_tasks(0)) TH_LOG("tasks %ld", stat_value("tasks"));
}

/* ---- 200 insmod/rmmod cycles under an unrelated workload ---- */

static void exec_workload(void)
{
	char *argv[] = { FIX_PROBE, "--euid", "0", NULL };
	int null = open("/dev/null", O_WRONLY);

	dup2(null, 1);
	for (;;) {
		pid_t pid = fork();

		if (pid == 0) {
			execve(FIX_PROBE, argv, environ);
			_exit(127);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
}

TEST_F_TIMEOUT(stress_module, stress_module_cycles, 1500)
{
	MODULE_ONLY("insmod/rmmod cycles");

	int cycles = env_long("NOSEC_STRESS_MODCYCLES", 200), bad = 0;
	double t0 = now();
	pid_t workload = fork();

	if (workload == 0)
		exec_workload();
	for (int i = 0; i < cycles && bad < 5; i++) {
		if (i % 5 == 0) {	/* with a restricted task: refused */
			int pfd[2];
			char c;
			pid_t pid;

			ASSERT_EQ(0, pipe(pfd));
			pid = fork();
			if (pid == 0) {
				close(pfd[1]);
				nosec_restrict_exec();
				if (read(pfd[0], &c, 1) < 0)
					_exit(1);
				_exit(0);
			}
			close(pfd[0]);
			while (stat_value("tasks") < 1)
				usleep(1000);
			if (delete_module() == 0 || errno != EWOULDBLOCK) {
				printf("# cycle %d: unload with a restricted task: %d\n", i, errno);
				bad++;
			}
			close(pfd[1]);
			wait_status(pid);
		}
		if (wait_tasks(0) != 0 || unload_module()) {
			printf("# cycle %d: unload failed: %d\n", i, errno);
			bad++;
		}
		if (load_module()) {
			printf("# cycle %d: load failed: %d\n", i, errno);
			bad++;
			break;
		}
	}
	kill(workload, SIGKILL);
	wait_status(workload);
	printf("# %d insmod/rmmod cycles in %.1f s\n", cycles, now() - t0);
	ASSERT_EQ(0, bad) TH_LOG("%d cycles went wrong", bad);
	ASSERT_EQ(0, access("/dev/nosec_exec", F_OK)) TH_LOG("module loaded at the end");
}

/* ---- PID reuse with a small pid_max ---- */

TEST_F_TIMEOUT(stress, stress_pid_reuse, 600)
{
	char old[32] = "";
	int fd = open("/proc/sys/kernel/pid_max", O_RDONLY), bad = 0, rounds;
	ssize_t n;

	ASSERT_TRUE(fd >= 0 && (n = read(fd, old, sizeof(old) - 1)) > 0) TH_LOG("read pid_max");
	close(fd);
	old[n] = 0;
	ASSERT_EQ(0, write_text("/proc/sys/kernel/pid_max", "400")) TH_LOG("set pid_max");
	rounds = env_long("NOSEC_STRESS_PIDROUNDS", 20);
	for (int r = 0; r < rounds && !bad; r++) {
		for (int i = 0; i < 40; i++) {	/* restricted tasks exit */
			pid_t pid = fork();

			if (pid == 0) {
				nosec_restrict_exec();
				_exit(0);
			}
			wait_status(pid);
		}
		for (int i = 0; i < 40; i++) {	/* their pids come back */
			pid_t pid = fork();

			if (pid == 0)
				_exit(child_execve_errno(FIX_PROBE));
			if (wait_status(pid) != 0) {
				printf("# round %d: fresh task %d could not exec\n", r, pid);
				bad++;
			}
		}
	}
	write_text("/proc/sys/kernel/pid_max", old);
	ASSERT_EQ(0, bad) TH_LOG("unrestricted tasks on reused pids were refused");
	/* The module's stats; natively there are none. */
	ASSERT_TRUE(nosec_native || wait_tasks(0) == 0) TH_LOG("tasks %ld", stat_value("tasks"));
}

/*
 * ---- fuzzing the four prctls and the ioctl ----
 * Natively, the execveat_nosecurity system call with the arguments the
 * ioctl would have been given (the ioctl's own command and struct are
 * the module's).
 */

struct fuzz {
	unsigned int seed;
	char *rw, *ro, *none;	/* writable, read-only and unmapped pages */
	unsigned long restricted;	/* the restriction mask */
	int force;
	long calls, bad;
	int dirfds[8];
	const char *paths[12];
	uintptr_t argvs[6];
};

static unsigned long fz_rand(struct fuzz *f)
{
	return ((unsigned long)rand_r(&f->seed) << 31) ^ rand_r(&f->seed);
}

/* Kernel addresses: the kernel's text, its map of all memory (no KASLR). */
#if defined(__x86_64__)
#define KERNEL_TEXT		0xffffffff81000000UL
#define KERNEL_DIRECT_MAP	0xffff888000000000UL
#elif defined(__aarch64__)
#define KERNEL_TEXT		0xffff800008000000UL	/* 6.1's; 6.12's is higher */
#define KERNEL_DIRECT_MAP	0xffff000000000000UL
#endif

/* An argument and whether the kernel may write an unsigned long there. */
static unsigned long fz_arg(struct fuzz *f, int *writable)
{
	static const unsigned long fixed[] = {
		0, 1, 2, 3, 0x10, 0x1000, ~0UL, 0x7fffffffffffUL,
		KERNEL_TEXT, KERNEL_DIRECT_MAP,
	};
	int pick = rand_r(&f->seed) % 16;

	*writable = 0;
	switch (pick) {
	case 0 ... 9:
		return fixed[pick];
	case 10:
		*writable = 1;
		return (uintptr_t)f->rw;
	case 11:
		*writable = 1;
		return (uintptr_t)f->rw + 1 + rand_r(&f->seed) % 64;	/* unaligned */
	case 12:
		return (uintptr_t)f->ro;
	case 13:
		return (uintptr_t)f->none;
	case 14:
		return (uintptr_t)f->rw + 4096 - 4;	/* straddles into ro */
	default:
		return fz_rand(f);
	}
}

static void fz_fail(struct fuzz *f, const char *what, long ret, int err, long want)
{
	if (f->bad++ < 10)
		printf("# fuzz call %ld: %s returned %ld errno %d, want %ld\n",
		       f->calls, what, ret, err, want);
}

static void fz_prctl(struct fuzz *f)
{
	static const int options[] = {
		PR_RESTRICT_ME, PR_GET_RESTRICT, PR_SET_FORCE_EXECVE_NOSECURITY,
		PR_GET_FORCE_EXECVE_NOSECURITY,
	};
	int option = options[rand_r(&f->seed) % 4], w[5] = { 0 };
	unsigned long a[5];
	long ret, want;

	for (int i = 1; i < 5; i++)
		a[i] = rand_r(&f->seed) % 3 ? 0 : fz_arg(f, &w[i]);
	errno = 0;
	ret = prctl(option, a[1], a[2], a[3], a[4]);
	switch (option) {
	case PR_RESTRICT_ME:
		/*
		 * Known bits only; the others only with or after EXEC.  arg3:
		 * 0 or PR_RESTRICT_TSYNC; arg4, where the blocker goes, is
		 * written only on EBUSY, which a task alone never gets.
		 */
		want = (a[2] & ~PR_RESTRICT_TSYNC) || a[4] ? -EINVAL : a[1] == 0 ? 0 :
		       a[1] & ~PR_RESTRICT_ALL ? -EINVAL :
		       !((a[1] | f->restricted) & PR_RESTRICT_EXEC) ? -EINVAL : 0;
		if (want == 0)
			f->restricted |= a[1];
		break;
	case PR_GET_RESTRICT:
		want = (a[1] | a[2] | a[3] | a[4]) ? -EINVAL : (long)f->restricted;
		break;
	case PR_SET_FORCE_EXECVE_NOSECURITY:
		want = (a[1] > 1 || a[2] | a[3] | a[4]) ? -EINVAL : !f->restricted ? -EPERM :
		       a[1] && (f->restricted & PR_RESTRICT_EXEC_NOSECURITY) ? -EPERM : 0;
		if (!want)
			f->force = !!a[1];
		break;
	default:
		want = (a[1] | a[2] | a[3] | a[4]) ? -EINVAL : f->force;
	}
	if ((want < 0 && (ret != -1 || errno != -want)) || (want >= 0 && ret != want))
		fz_fail(f, "prctl", ret, errno, want);
}

static void fz_ioctl(struct fuzz *f, int dev)
{
	struct nosec_execveat_args *args = (void *)(f->rw + 2048);
	unsigned int cmd = NOSEC_IOC_EXECVEAT;
	unsigned long arg = (uintptr_t)args;
	int w, pick = rand_r(&f->seed) % 10;
	long ret;

	if (pick == 0)
		cmd = (unsigned int)fz_rand(f);
	else if (pick == 1)
		cmd = _IOW(0xE7, 0x01, char[16 + rand_r(&f->seed) % 32]);
	else if (pick == 2)
		arg = fz_arg(f, &w);
	args->pathname = rand_r(&f->seed) % 8 ? (uintptr_t)f->paths[rand_r(&f->seed) % 12] :
						fz_arg(f, &w);
	args->argv = f->argvs[rand_r(&f->seed) % 6];
	args->envp = f->argvs[rand_r(&f->seed) % 6];
	args->dirfd = f->dirfds[rand_r(&f->seed) % 8];
	if (rand_r(&f->seed) % 4)
		args->flags = (rand_r(&f->seed) % 2) * AT_EMPTY_PATH |
			      (rand_r(&f->seed) % 2) * AT_SYMLINK_NOFOLLOW;
	else
		args->flags = (unsigned int)fz_rand(f);
	errno = 0;
	if (nosec_native)
		ret = syscall(SYS_execveat, args->dirfd,
			      (const char *)(uintptr_t)args->pathname,
			      (char *const *)(uintptr_t)args->argv,
			      (char *const *)(uintptr_t)args->envp,
			      args->flags | AT_EXECVE_NO_TRANSITION);
	else
		ret = ioctl(dev, cmd, arg);
	switch (errno) {
	case EPERM:	/* PR_RESTRICT_EXEC_NOSECURITY denies the ioctl */
		if (ret == -1 && (f->restricted & PR_RESTRICT_EXEC_NOSECURITY))
			break;
		fz_fail(f, "ioctl", ret, errno, -1);
		break;
	case ENOTTY:	/* an unknown ioctl command: the module only */
		if (ret == -1 && !nosec_native)
			break;
		fz_fail(f, "ioctl", ret, errno, -1);
		break;
	case EFAULT: case EINVAL: case ENOENT: case EACCES:
	case ENOEXEC: case E2BIG: case EBADF: case ENOTDIR: case ELOOP:
	case ENAMETOOLONG:
		if (ret == -1)
			break;
		/* fallthrough */
	default:
		fz_fail(f, "ioctl", ret, errno, -1);
	}
}

static void fz_setup(struct fuzz *f, unsigned int seed)
{
	static char longpath[5000];
	char *mem = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char **unterminated, **huge;
	size_t nhuge = 200000;

	memset(f, 0, sizeof(*f));
	f->seed = seed;
	f->rw = mem;
	f->ro = mem + 4096;
	f->none = mem + 8192;
	memset(f->ro, 'a', 4096);	/* a path with no NUL before the hole */
	mprotect(f->ro, 4096, PROT_READ);
	mprotect(f->none, 4096, PROT_NONE);
	memset(longpath, 'a', sizeof(longpath) - 1);
	/* Paths that can never start a program. */
	f->paths[0] = "";
	f->paths[1] = "/nonexistent";
	f->paths[2] = FIX_PROBE_XONLY;
	f->paths[3] = FIX_GARBAGE;
	f->paths[4] = FIX;
	f->paths[5] = FIX_LOOP;
	f->paths[6] = "probe-xonly";
	f->paths[7] = "garbage";
	f->paths[8] = longpath;
	f->paths[9] = f->ro + 4096 - 3;	/* runs into the unmapped page */
	f->paths[10] = FIX_SCRIPT_XINTERP;
	f->paths[11] = FIX_DYNPROBE_XINTERP;
	/* argv/envp: NULL, bad, a good one, unterminated, huge, kernel. */
	unterminated = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (size_t i = 0; i < 4096 / sizeof(char *); i++)
		unterminated[i] = "x";
	mprotect((char *)unterminated + 4096, 4096, PROT_NONE);
	huge = calloc(nhuge + 1, sizeof(char *));
	for (size_t i = 0; i < nhuge; i++)
		huge[i] = longpath;
	f->argvs[0] = 0;
	f->argvs[1] = (uintptr_t)BAD;
	f->argvs[2] = (uintptr_t)(char *[]){ "x", NULL };
	f->argvs[3] = (uintptr_t)unterminated;
	f->argvs[4] = (uintptr_t)huge;
	f->argvs[5] = KERNEL_TEXT;
	f->dirfds[0] = AT_FDCWD;
	f->dirfds[1] = -1;
	f->dirfds[2] = 0;
	f->dirfds[3] = 9999;
	f->dirfds[4] = open(FIX, O_RDONLY | O_DIRECTORY);
	f->dirfds[5] = open(FIX_PROBE_XONLY, O_PATH);
	f->dirfds[6] = open("/dev/nosec_exec", O_RDWR);
	f->dirfds[7] = open(FIX_GARBAGE, O_RDONLY);
}

/* The fuzzing itself, as the unprivileged test uid; exits with its verdict. */
static void fuzz_child(long max_calls, double max_seconds)
{
	unsigned int seed = env_long("NOSEC_FUZZ_SEED", (long)(time(NULL) ^ getpid()) & 0x7fffffff);
	double end = now() + max_seconds, t0 = now();
	struct fuzz f;
	int dev;

	setup_user();
	dev = open("/dev/nosec_exec", O_RDWR | O_CLOEXEC);
	printf("# fuzz seed %u (replay: NOSEC_FUZZ_SEED=%u)\n", seed, seed);
	if ((dev < 0 && !nosec_native) || chdir("/"))
		_exit(FAIL);
	fz_setup(&f, seed);
	while (f.calls < max_calls && (f.calls % 1024 || now() < end)) {
		if (rand_r(&f.seed) % 10 < 8)
			fz_prctl(&f);
		else
			fz_ioctl(&f, dev);
		f.calls++;
	}
	printf("# fuzz: %ld calls in %.1f s, %ld wrong results\n", f.calls, now() - t0, f.bad);
	fflush(stdout);
	_exit(f.bad ? FAIL : PASS);
}

static int fuzz(long max_calls, double max_seconds)
{
	long killed = stat_value("killed_execs");
	pid_t pid = fork();

	if (pid == 0)
		fuzz_child(max_calls, max_seconds);
	REQUIRE(wait_status(pid) == PASS, "calls returned outside the documented set");
	/* The module's stats; natively there are none. */
	REQUIRE(nosec_native || stat_value("killed_execs") == killed,
		"killed %ld -> %ld", killed, stat_value("killed_execs"));
	return PASS;
}

TEST_F(fuzz, fuzz_prctl_ioctl_short)
{
	ASSERT_PASS(fuzz(env_long("NOSEC_FUZZ_CALLS", 20000), 60));
}

TEST_F_TIMEOUT(stress, fuzz_prctl_ioctl_1m_calls, 600)
{
	ASSERT_PASS(fuzz(env_long("NOSEC_FUZZ_CALLS", 1000000), 300));
}

TEST_HARNESS_MAIN
