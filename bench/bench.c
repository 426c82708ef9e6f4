// SPDX-License-Identifier: GPL-2.0
/*
 * bench - what nosec_exec costs, measured in the guest (make bench).
 *
 * Each round measures the same workloads in three states, in an order that
 * rotates from round to round: the stock kernel (no module), the noise
 * module (nosec_null.ko, registers nothing) and nosec_exec.  A ratio is
 * taken within a round, so slow drift of the emulator cancels out; the
 * report gives each ratio's median over the rounds and its spread (lowest
 * and highest round).  The noise module's ratio against the stock kernel
 * is the noise floor: a difference smaller than that one is not a cost.
 *
 * Workloads (throughput unless said otherwise):
 *   fork_exec      fork + exec of a tiny static program + wait
 *   fork_exit      fork + _exit + wait
 *   prctl          prctl(PR_GET_DUMPABLE)
 *   getpid         getpid() of a plain task
 *   exec_nosec     exec latency of execve_nosecurity ÷ of execve
 *                  (a chain of execs in one process, no fork)
 *   exec_nosec_open  the same ÷ of an open of /dev/nosec_exec followed
 *                  by execve: what the mechanism costs beyond the device
 *                  open that the interface requires
 *   getpid_restricted, getpid_seccomp
 *                  getpid() of a task restricted by PR_RESTRICT_ME, and
 *                  of one under a seccomp filter denying execve/execveat,
 *                  each ÷ a plain task's on the stock kernel
 *   fork_exec_10k  fork_exec with 10,000 restricted tasks alive ÷ none,
 *                  and ÷ with 10,000 unrestricted ones (what tracking
 *                  costs, apart from what 10,000 threads cost the kernel)
 * and, five times, the slab memory that 10,000 tracked tasks and 10,000
 * untracked ones cost the module.
 *
 *   bench [--rounds N] [--seconds S]
 *   bench --exec-only [--rounds N] [--seconds S]   exec_nosec alone, to tune it
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nosec.h"

#define NOSEC_KO	"/nosec/nosec_exec.ko"
#define NULL_KO		"/nosec/bench/nosec_null.ko"
#define TINY		"/nosec/bench/tiny"
#define STATS		"/sys/kernel/debug/nosec_exec/stats"
#define MAX_ROUNDS	64
#define HELD_TASKS	10000

enum state { ST_STOCK, ST_NULL, ST_NOSEC, ST_NR };
static const char *const state_names[ST_NR] = { "stock", "null", "nosec" };
static const char *const state_modules[ST_NR] = { NULL, "nosec_null",
						  "nosec_exec" };
static const char *const state_files[ST_NR] = { NULL, NULL_KO, NOSEC_KO };

/* Raw samples, in operations per second, of one workload in one state. */
enum sample {
	S_FORK_EXEC, S_FORK_EXIT, S_PRCTL, S_GETPID,
	S_EXEC_PLAIN, S_EXEC_NOSEC, S_GETPID_RESTRICTED, S_GETPID_SECCOMP,
	S_FORK_EXEC_10K, S_FORK_EXEC_10K_PLAIN, S_EXEC_OPEN, S_NR
};
static double samples[S_NR][ST_NR][MAX_ROUNDS];

/* A line of the report: a ratio of two samples within each round. */
struct ratio {
	const char *name;
	const char *what;
	enum sample num;
	enum state num_state;
	enum sample den;
	enum state den_state;
	enum sample noise;	/* whose noise-module ratio is the noise floor */
	double target;		/* the ratio must be at least this */
	bool latency;		/* report den/num: a latency ratio */
	const char *target_text;
};

static const struct ratio ratios[] = {
	{ "fork_exec", "fork + exec + wait, unrestricted task",
	  S_FORK_EXEC, ST_NOSEC, S_FORK_EXEC, ST_STOCK, S_FORK_EXEC, 0.99, false,
	  ">= 0.99 or within noise" },
	{ "fork_exit", "fork + exit + wait, unrestricted task",
	  S_FORK_EXIT, ST_NOSEC, S_FORK_EXIT, ST_STOCK, S_FORK_EXIT, 0.99, false,
	  ">= 0.99 or within noise" },
	{ "prctl", "prctl(PR_GET_DUMPABLE)",
	  S_PRCTL, ST_NOSEC, S_PRCTL, ST_STOCK, S_PRCTL, 0.97, false,
	  ">= 0.97 or within noise" },
	{ "getpid", "getpid, unrestricted task",
	  S_GETPID, ST_NOSEC, S_GETPID, ST_STOCK, S_GETPID, 0.99, false,
	  ">= 0.99 or within noise" },
	{ "exec", "exec, chained in one process, unrestricted task",
	  S_EXEC_PLAIN, ST_NOSEC, S_EXEC_PLAIN, ST_STOCK, S_EXEC_PLAIN, 0.99, false,
	  ">= 0.99 or within noise" },
	{ "exec_nosec", "execve_nosecurity latency / execve latency",
	  S_EXEC_NOSEC, ST_NOSEC, S_EXEC_PLAIN, ST_NOSEC, S_EXEC_PLAIN, 1.05, true,
	  "<= 1.05" },
	{ "exec_nosec_open", "execve_nosecurity latency / (device open + execve) latency",
	  S_EXEC_NOSEC, ST_NOSEC, S_EXEC_OPEN, ST_NOSEC, S_EXEC_PLAIN, 1.05, true,
	  "<= 1.05" },
	{ "getpid_restricted", "getpid, PR_RESTRICT_ME task / stock plain task",
	  S_GETPID_RESTRICTED, ST_NOSEC, S_GETPID, ST_STOCK, S_GETPID, 0.99, false,
	  ">= 0.99 or within noise" },
	{ "getpid_seccomp", "getpid, seccomp exec filter / stock plain task",
	  S_GETPID_SECCOMP, ST_STOCK, S_GETPID, ST_STOCK, S_GETPID, 0, false,
	  "(the alternative)" },
	{ "fork_exec_10k", "fork + exec + wait, 10,000 restricted tasks alive / none",
	  S_FORK_EXEC_10K, ST_NOSEC, S_FORK_EXEC, ST_NOSEC, S_FORK_EXEC, 0.99, false,
	  ">= 0.99 or within noise" },
	{ "fork_exec_10k_tracking", "fork + exec + wait, 10,000 restricted / unrestricted alive",
	  S_FORK_EXEC_10K, ST_NOSEC, S_FORK_EXEC_10K_PLAIN, ST_NOSEC, S_FORK_EXEC, 0.99, false,
	  ">= 0.99 or within noise" },
};
#define NR_RATIOS (sizeof(ratios) / sizeof(ratios[0]))

static int rounds = 11;
static double seconds = 1.5;

static void die(const char *what)
{
	fprintf(stderr, "bench: %s: %s\n", what, strerror(errno));
	exit(2);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- the module states ---- */

static long stat_tasks(void)
{
	char line[128];
	long v = -1;
	FILE *f = fopen(STATS, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "tasks %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

static void enter_state(enum state st)
{
	int fd;

	if (!state_files[st])
		return;
	fd = open(state_files[st], O_RDONLY | O_CLOEXEC);
	if (fd < 0 || syscall(SYS_finit_module, fd, "", 0))
		die(state_files[st]);
	close(fd);
}

static void leave_state(enum state st)
{
	/* Freed tasks drop their entries after an RCU grace period. */
	for (int i = 0; state_modules[st] && i < 100; i++) {
		if (!syscall(SYS_delete_module, state_modules[st], O_NONBLOCK))
			return;
		usleep(50000);
	}
	if (state_modules[st])
		die(state_modules[st]);
}

/* ---- workloads: each returns operations per second ---- */

static void wait_child(pid_t pid, const char *what)
{
	int status;

	if (pid < 0)
		die("fork");
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "bench: %s: child failed (status %#x)\n",
			what, status);
		exit(2);
	}
}

static double run_fork_exec(void)
{
	char *argv[] = { TINY, NULL };
	double t0 = now(), t;
	long n = 0;

	do {
		pid_t pid = fork();

		if (pid == 0) {
			execve(TINY, argv, environ);
			_exit(127);
		}
		wait_child(pid, "fork_exec");
		n++;
		t = now();
	} while (t - t0 < seconds);
	return n / (t - t0);
}

static double run_fork_exit(void)
{
	double t0 = now(), t;
	long n = 0;

	do {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		wait_child(pid, "fork_exit");
		n++;
		t = now();
	} while (t - t0 < seconds);
	return n / (t - t0);
}

/* A cheap syscall in a loop, for half the time of a fork workload. */
static double syscall_loop(long nr, long arg)
{
	double t0 = now(), t;
	long n = 0;

	do {
		for (int i = 0; i < 1024; i++)
			syscall(nr, arg);
		n += 1024;
		t = now();
	} while (t - t0 < seconds / 2);
	return n / (t - t0);
}

static double run_prctl(void)
{
	return syscall_loop(SYS_prctl, PR_GET_DUMPABLE);
}

static int deny_exec_with_seccomp(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execve, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execveat, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
	};
	struct sock_fprog prog = {
		.len = sizeof(filter) / sizeof(filter[0]),
		.filter = filter,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

enum confinement { PLAIN_TASK, RESTRICTED_TASK, SECCOMP_TASK };

/*
 * getpid() in a child confined as asked, which first proves the
 * confinement works: its execve must fail with EPERM.
 */
static double run_getpid(enum confinement how)
{
	char *argv[] = { TINY, NULL };
	double ops = 0;
	int fds[2];
	pid_t pid;

	if (pipe(fds))
		die("pipe");
	pid = fork();
	if (pid == 0) {
		int ret = 0;

		if (how == RESTRICTED_TASK)
			ret = nosec_restrict_exec();
		else if (how == SECCOMP_TASK)
			ret = deny_exec_with_seccomp();
		if (ret)
			_exit(3);
		if (how != PLAIN_TASK &&
		    (execve(TINY, argv, environ) == 0 || errno != EPERM))
			_exit(4);
		ops = syscall_loop(SYS_getpid, 0);
		_exit(write(fds[1], &ops, sizeof(ops)) != sizeof(ops));
	}
	close(fds[1]);
	if (read(fds[0], &ops, sizeof(ops)) != sizeof(ops))
		ops = 0;
	close(fds[0]);
	wait_child(pid, "getpid");
	return ops;
}

/*
 * Exec latency: chains of 100 execs of tiny by tiny itself, plain, after
 * an open of the device, or the way execve_nosecurity() does (open the
 * device, ioctl).
 * The chain runs on CPU 0 alone, so that no exec moves it to the other
 * CPU (sched_exec), a cost that varies from exec to exec.  Returns the
 * seconds one chain took.
 */
/* The ways the exec chain execs; each is a sample in the nosec state. */
enum exec_way { EXEC_PLAIN, EXEC_OPEN, EXEC_NOSEC, EXEC_NR };
static const enum sample exec_way_sample[EXEC_NR] = {
	S_EXEC_PLAIN, S_EXEC_OPEN, S_EXEC_NOSEC,
};

static double exec_chain_once(enum exec_way way)
{
	static const char *const modes[EXEC_NR] = { "plain", "open", "nosec" };
	char *argv[] = { TINY, "100", (char *)modes[way], NULL };
	double t0 = now();
	pid_t pid = fork();

	if (pid == 0) {
		cpu_set_t cpu0;

		CPU_ZERO(&cpu0);
		CPU_SET(0, &cpu0);
		sched_setaffinity(0, sizeof(cpu0), &cpu0);
		execve(TINY, argv, environ);
		_exit(127);
	}
	wait_child(pid, "exec chain");
	return now() - t0;
}

#define EXECS_PER_CHAIN 101	/* tiny, then 100 more */

/* Execs per second, plain chains only, for @seconds. */
static double run_exec_chain(void)
{
	double t = 0;
	long n = 0;

	do {
		t += exec_chain_once(EXEC_PLAIN);
		n += EXECS_PER_CHAIN;
	} while (t < seconds);
	return n / t;
}

/*
 * Execs per second of each way, the samples of round @r in the nosec
 * state, measured together for EXEC_NR × @seconds:
 * chains take turns, the order rotating from one turn to the next, so
 * that a drift of the emulator's speed weighs on every way alike.
 */
static void run_exec_chains(int r)
{
	double t[EXEC_NR] = { 0 }, total = 0;
	long n[EXEC_NR] = { 0 };
	int turn = 0;

	do {
		for (int i = 0; i < EXEC_NR; i++) {
			enum exec_way way = (turn + i) % EXEC_NR;
			double dt = exec_chain_once(way);

			t[way] += dt;
			n[way] += EXECS_PER_CHAIN;
			total += dt;
		}
		turn++;
	} while (total < EXEC_NR * seconds || turn % EXEC_NR);
	for (int w = 0; w < EXEC_NR; w++)
		samples[exec_way_sample[w]][ST_NOSEC][r] = n[w] / t[w];
}

/* ---- 10,000 tasks held alive ---- */

static void *held_thread(void *arg)
{
	char c;

	(void)!read(*(int *)arg, &c, 1);	/* until the holder exits */
	return NULL;
}

struct holder {
	pid_t pid;
	int release;	/* write end: closing it ends every thread */
};

/* A process of HELD_TASKS tasks (itself and its threads), restricted or not. */
static struct holder hold_tasks(bool restricted)
{
	struct holder h;
	int ready[2], release[2];
	char c;

	if (pipe(ready) || pipe(release))
		die("pipe");
	h.pid = fork();
	if (h.pid == 0) {
		pthread_attr_t attr;
		pthread_t t;

		close(ready[0]);
		close(release[1]);
		if (restricted && nosec_restrict_exec())
			_exit(3);
		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, 64 * 1024);
		for (int i = 1; i < HELD_TASKS; i++)
			if (pthread_create(&t, &attr, held_thread, &release[0]))
				_exit(4);
		(void)!write(ready[1], "r", 1);
		held_thread(&release[0]);
		_exit(0);
	}
	if (h.pid < 0)
		die("fork");
	close(ready[1]);
	close(release[0]);
	if (read(ready[0], &c, 1) != 1) {
		fprintf(stderr, "bench: could not start %d tasks\n", HELD_TASKS);
		exit(2);
	}
	close(ready[0]);
	h.release = release[1];
	if (restricted && stat_tasks() < HELD_TASKS) {
		fprintf(stderr, "bench: %ld tasks tracked, not %d\n",
			stat_tasks(), HELD_TASKS);
		exit(2);
	}
	return h;
}

static void release_tasks(struct holder h)
{
	close(h.release);
	wait_child(h.pid, "holder");
	/* Entries go after an RCU grace period; let the table drain. */
	for (int i = 0; i < 200 && stat_tasks() > 0; i++)
		usleep(20000);
}

static double run_fork_exec_held(bool restricted)
{
	struct holder h = hold_tasks(restricted);
	double ops = run_fork_exec();

	release_tasks(h);
	return ops;
}

/* ---- one round ---- */

static void measure(enum state st, int r)
{
	enter_state(st);
	samples[S_FORK_EXEC][st][r] = run_fork_exec();
	samples[S_FORK_EXIT][st][r] = run_fork_exit();
	samples[S_PRCTL][st][r] = run_prctl();
	samples[S_GETPID][st][r] = run_getpid(PLAIN_TASK);
	if (st == ST_STOCK)
		samples[S_GETPID_SECCOMP][st][r] = run_getpid(SECCOMP_TASK);
	if (st != ST_NOSEC) {
		samples[S_EXEC_PLAIN][st][r] = run_exec_chain();
	} else {
		run_exec_chains(r);
		samples[S_GETPID_RESTRICTED][st][r] =
			run_getpid(RESTRICTED_TASK);
		samples[S_FORK_EXEC_10K][st][r] = run_fork_exec_held(true);
		samples[S_FORK_EXEC_10K_PLAIN][st][r] =
			run_fork_exec_held(false);
	}
	leave_state(st);
}

/* ---- memory ---- */

/*
 * Bytes in use in slab cache @cache, or in all of them for NULL, from
 * /proc/slabinfo (active objects × object size).
 */
static long slab_bytes(const char *cache)
{
	char line[512], name[64];
	long total = 0, active, num, size;
	FILE *f = fopen("/proc/slabinfo", "r");

	if (!f)
		die("/proc/slabinfo");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %ld %ld %ld", name, &active, &num,
			   &size) == 4 && (!cache || !strcmp(name, cache)))
			total += active * size;
	fclose(f);
	return total;
}

/* The module's one allocation per tracked task: a 48-byte kzalloc(). */
#define ENTRY_CACHE	"kmalloc-64"
#define MEM_RUNS	5

struct held_bytes {
	long entry_cache;	/* in ENTRY_CACHE */
	long all;		/* in every slab cache */
};

/* Slab bytes with HELD_TASKS tasks alive, minus without them. */
static struct held_bytes held_slab_bytes(bool restricted)
{
	struct held_bytes before, with;
	struct holder h;

	before.entry_cache = slab_bytes(ENTRY_CACHE);
	before.all = slab_bytes(NULL);
	h = hold_tasks(restricted);
	usleep(200000);
	with.entry_cache = slab_bytes(ENTRY_CACHE);
	with.all = slab_bytes(NULL);
	release_tasks(h);
	return (struct held_bytes){ with.entry_cache - before.entry_cache,
				    with.all - before.all };
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	double s[MAX_ROUNDS];

	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

struct spread {
	double median, min, max;
};

static struct spread spread_of(double *v, int n)
{
	struct spread s = { median(v, n), v[0], v[0] };

	for (int i = 1; i < n; i++) {
		if (v[i] < s.min)
			s.min = v[i];
		if (v[i] > s.max)
			s.max = v[i];
	}
	return s;
}

static struct spread ratio_spread(const struct ratio *q, enum state num_state,
				  enum state den_state)
{
	double v[MAX_ROUNDS] = { 0 };

	for (int r = 0; r < rounds; r++) {
		double num = samples[q->num][num_state][r];
		double den = samples[q->den][den_state][r];

		v[r] = q->latency ? den / num : num / den;
	}
	return spread_of(v, rounds);
}

/* The noise floor of a ratio: its workload's noise module ÷ stock. */
static struct spread noise_spread(const struct ratio *q)
{
	struct ratio noise = { .num = q->noise, .num_state = ST_NULL,
			       .den = q->noise, .den_state = ST_STOCK };

	return ratio_spread(&noise, ST_NULL, ST_STOCK);
}

/*
 * Met: at least the target, or within the noise floor, i.e. no lower
 * than the noise module (which does nothing) came out in some round.
 */
static bool target_met(const struct ratio *q, struct spread s,
		       struct spread noise)
{
	if (!q->target)
		return true;
	if (q->latency)
		return s.median <= q->target;
	return s.median >= q->target || s.median >= noise.min;
}

/* Only the exec latency ratio, for quick before/after comparisons. */
static int exec_only(void)
{
	double ratio[MAX_ROUNDS], open_ratio[MAX_ROUNDS];
	struct spread s, o;

	enter_state(ST_NOSEC);
	for (int r = 0; r < rounds; r++) {
		double plain, opened, nosec;

		run_exec_chains(r);
		plain = samples[S_EXEC_PLAIN][ST_NOSEC][r];
		opened = samples[S_EXEC_OPEN][ST_NOSEC][r];
		nosec = samples[S_EXEC_NOSEC][ST_NOSEC][r];
		ratio[r] = plain / nosec;
		open_ratio[r] = opened / nosec;
		printf("# round %d: exec %.0f/s, open + exec %.0f/s, "
		       "nosecurity exec %.0f/s\n", r + 1, plain, opened, nosec);
	}
	leave_state(ST_NOSEC);
	s = spread_of(ratio, rounds);
	o = spread_of(open_ratio, rounds);
	printf("execve_nosecurity latency / execve latency: %.3f [%.3f-%.3f]\n",
	       s.median, s.min, s.max);
	printf("execve_nosecurity latency / (open + execve) latency: "
	       "%.3f [%.3f-%.3f]\n", o.median, o.min, o.max);
	return 0;
}

int main(int argc, char **argv)
{
	struct spread res[NR_RATIOS], noise[NR_RATIOS] = { { 0 } };
	struct held_bytes mem_untracked[MEM_RUNS], mem_tracked[MEM_RUNS];
	struct held_bytes mem_stock[MEM_RUNS];
	struct spread mem_tracked_bytes, mem_untracked_bytes;
	struct spread mem_tracked_all, mem_untracked_all;
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	double t0 = now();
	bool only_exec = false;
	struct utsname u;
	int fd;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
			rounds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			seconds = atof(argv[++i]);
		else if (!strcmp(argv[i], "--exec-only"))
			only_exec = true;
		else {
			fprintf(stderr, "usage: bench [--exec-only] [--rounds N] [--seconds S]\n");
			return 2;
		}
	}
	if (rounds < 1 || rounds > MAX_ROUNDS || seconds <= 0) {
		fprintf(stderr, "bench: rounds 1..%d, seconds > 0\n", MAX_ROUNDS);
		return 2;
	}
	if (only_exec)
		return exec_only();
	setrlimit(RLIMIT_NPROC, &unlimited);
	fd = open("/proc/sys/kernel/threads-max", O_WRONLY);
	if (fd < 0 || write(fd, "100000", 6) != 6)
		die("threads-max");
	close(fd);
	uname(&u);
	printf("# bench: %d rounds, %.1f s a workload, kernel %s\n",
	       rounds, seconds, u.release);

	for (int r = 0; r < rounds; r++) {
		/* Rotate the order, so each state goes first as often. */
		for (int k = 0; k < ST_NR; k++) {
			enum state st = (r + k) % ST_NR;

			measure(st, r);
		}
		printf("# round %d/%d done (%.0f s)\n", r + 1, rounds,
		       now() - t0);
		fflush(stdout);
	}

	for (int i = 0; i < MEM_RUNS; i++) {
		mem_stock[i] = held_slab_bytes(false);
		enter_state(ST_NOSEC);
		mem_untracked[i] = held_slab_bytes(false);
		mem_tracked[i] = held_slab_bytes(true);
		leave_state(ST_NOSEC);
	}

	printf("\n%-58s %12s %22s %22s  %s\n", "workload (ratio: nosec_exec / stock)",
	       "stock ops/s", "ratio med [min-max]", "noise med [min-max]",
	       "target");
	for (size_t i = 0; i < NR_RATIOS; i++) {
		const struct ratio *q = &ratios[i];
		double base[MAX_ROUNDS] = { 0 };
		char nbuf[40] = "-";

		for (int r = 0; r < rounds; r++)
			base[r] = samples[q->den][q->den_state][r];
		res[i] = ratio_spread(q, q->num_state, q->den_state);
		noise[i] = noise_spread(q);
		snprintf(nbuf, sizeof(nbuf), "%.3f [%.3f-%.3f]",
			 noise[i].median, noise[i].min, noise[i].max);
		printf("%-58s %12.0f %6.3f [%.3f-%.3f] %22s  %s %s\n", q->what,
		       median(base, rounds), res[i].median, res[i].min,
		       res[i].max, nbuf, q->target_text,
		       target_met(q, res[i], noise[i]) ? "met" : "MISSED");
	}
	{
		double tracked[MEM_RUNS], untracked[MEM_RUNS];
		double tracked_all[MEM_RUNS], untracked_all[MEM_RUNS];

		for (int i = 0; i < MEM_RUNS; i++) {
			tracked[i] = (double)(mem_tracked[i].entry_cache -
					      mem_untracked[i].entry_cache) /
				     HELD_TASKS;
			untracked[i] = (double)(mem_untracked[i].entry_cache -
						mem_stock[i].entry_cache) /
				       HELD_TASKS;
			tracked_all[i] = (double)(mem_tracked[i].all -
						  mem_untracked[i].all) /
					 HELD_TASKS;
			untracked_all[i] = (double)(mem_untracked[i].all -
						    mem_stock[i].all) /
					   HELD_TASKS;
		}
		mem_tracked_bytes = spread_of(tracked, MEM_RUNS);
		mem_untracked_bytes = spread_of(untracked, MEM_RUNS);
		mem_tracked_all = spread_of(tracked_all, MEM_RUNS);
		mem_untracked_all = spread_of(untracked_all, MEM_RUNS);
		printf("%-58s %6.1f [%.1f-%.1f]  target <= 64\n",
		       "module bytes per tracked task (" ENTRY_CACHE ")",
		       mem_tracked_bytes.median, mem_tracked_bytes.min,
		       mem_tracked_bytes.max);
		printf("%-58s %6.1f [%.1f-%.1f]  target 0\n",
		       "module bytes per untracked task (" ENTRY_CACHE ")",
		       mem_untracked_bytes.median, mem_untracked_bytes.min,
		       mem_untracked_bytes.max);
		printf("%-58s %6.1f [%.1f-%.1f] and %.1f [%.1f-%.1f] (noisier)\n",
		       "module bytes per tracked/untracked task, all caches",
		       mem_tracked_all.median, mem_tracked_all.min,
		       mem_tracked_all.max, mem_untracked_all.median,
		       mem_untracked_all.min, mem_untracked_all.max);

		printf("BENCH-JSON-BEGIN\n{\n");
		printf("  \"kernel\": \"%s\",\n  \"rounds\": %d,\n"
		       "  \"seconds_per_workload\": %.2f,\n"
		       "  \"duration_s\": %.0f,\n", u.release, rounds, seconds,
		       now() - t0);
		printf("  \"ratios\": {\n");
		for (size_t i = 0; i < NR_RATIOS; i++) {
			const struct ratio *q = &ratios[i];

			printf("    \"%s\": { \"what\": \"%s\", \"median\": %.4f, "
			       "\"min\": %.4f, \"max\": %.4f", q->name, q->what,
			       res[i].median, res[i].min, res[i].max);
			printf(", \"noise_median\": %.4f, \"noise_min\": %.4f, "
			       "\"noise_max\": %.4f", noise[i].median,
			       noise[i].min, noise[i].max);
			printf(", \"target\": \"%s\", \"met\": %s }%s\n",
			       q->target_text,
			       target_met(q, res[i], noise[i]) ? "true" : "false",
			       i + 1 < NR_RATIOS ? "," : "");
		}
		printf("  },\n  \"ops_per_s\": {\n");
		for (int s = 0; s < S_NR; s++) {
			static const char *const names[S_NR] = {
				"fork_exec", "fork_exit", "prctl", "getpid",
				"exec_plain", "exec_nosec", "getpid_restricted",
				"getpid_seccomp", "fork_exec_10k",
				"fork_exec_10k_unrestricted", "exec_open",
			};
			enum state st = s == S_EXEC_NOSEC ||
					s == S_EXEC_OPEN ||
					s == S_GETPID_RESTRICTED ||
					s == S_FORK_EXEC_10K ||
					s == S_FORK_EXEC_10K_PLAIN ?
					ST_NOSEC : ST_STOCK;

			printf("    \"%s\": { \"state\": \"%s\", \"median\": %.1f }%s\n",
			       names[s], state_names[st],
			       median(samples[s][st], rounds),
			       s + 1 < S_NR ? "," : "");
		}
		printf("  },\n  \"memory\": { \"tasks\": %d, \"runs\": %d, "
		       "\"cache\": \"" ENTRY_CACHE "\",\n"
		       "    \"bytes_per_tracked_task\": %.1f, "
		       "\"bytes_per_untracked_task\": %.1f,\n"
		       "    \"all_caches_bytes_per_tracked_task\": %.1f, "
		       "\"all_caches_bytes_per_untracked_task\": %.1f }\n"
		       "}\nBENCH-JSON-END\n",
		       HELD_TASKS, MEM_RUNS, mem_tracked_bytes.median,
		       mem_untracked_bytes.median, mem_tracked_all.median,
		       mem_untracked_all.median);
	}
	printf("# bench: %.0f s\n", now() - t0);
	return 0;
}
