// SPDX-License-Identifier: GPL-2.0
/*
 * bench - what nosec_exec costs, in guest instructions (make bench).
 *
 * Runs in a guest booted with one vCPU, `-icount shift=1,sleep=off` and
 * the icount plugin (bench/icount/icount.c).  Every measurement is a
 * window between two markers: the plugin writes the instructions the
 * whole machine ran in it, and the host's time; this program prints, for
 * each window, a label line
 *
 *   BENCH-W ID OP STATE ROUND ITERATIONS
 *
 * in the same order, so that bench/report can pair them (the id, part
 * of the marker, checks the pairing).
 *
 * Each round measures the workloads in three states: the stock kernel (no
 * module), the noise module (nosec_null.ko, registers nothing) and
 * nosec_exec.  Six rounds take the six orders of the three states, so
 * that each state comes first, and follows each other state, equally
 * often: what one state leaves behind (memory to reclaim, slabs to
 * refill) lands on the others evenly.  After every load, unload and
 * release the guest idles a second (free under sleep=off), so that work
 * deferred by the change (RCU callbacks, workers) is done before the
 * next window.  Workloads that need the module run in its state only;
 * the seccomp peer runs on the stock kernel.
 *
 * The fork + exec windows with many tasks alive come after the rounds,
 * in a phase of their own with nosec_exec loaded: each is measured next
 * to a baseline window with none (fork_exec_base), tracked and untracked
 * taking turns, so that a ratio compares neighbours, not windows minutes
 * apart.
 *
 * Before the first round the guest settles: a kernel keeps working for a
 * while after boot (6.12 checks RSA signatures in the background), and
 * that work lands in whatever window runs meanwhile.  Under -icount the
 * guest's clock advances with the instructions it runs, so a window of
 * getpid() calls timed by the guest itself counts instructions too: the
 * bench sleeps a second at a time (idle time costs nothing under
 * sleep=off) until three such windows in a row agree within 0.2 %, and
 * says how long that took; it fails if they never do.
 *
 *   bench [--rounds N] [--quick] [--no-100k] [--profile]
 *
 * --rounds: 6 by default, a multiple of 6 keeps the orders balanced;
 * --quick: fewer iterations and no 100,000 task figure (the CI gate);
 * --no-100k: skip that figure; --profile: only the exec and fork + exec windows,
 * nosec_exec loaded, for a boot whose plugin profiles them (each is a
 * profile window too; chain.c marks the exec chains' own).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "icount/marker.h"
#include "nosec.h"

#define NOSEC_KO	"/nosec/nosec_exec.ko"
#define NULL_KO		"/nosec/bench/nosec_null.ko"
#define CHAIN		"/nosec/bench/chain"
#define STATS		"/sys/kernel/debug/nosec_exec/stats"

/*
 * The states: the stock kernel, with the noise module, with nosec_exec;
 * and a kernel with our series (upstream/), measured on its own (bench
 * --native).
 */
enum state { ST_STOCK, ST_NULL, ST_NOSEC, ST_NATIVE, ST_NR };
static const char *const state_names[ST_NR] = { "stock", "null", "nosec",
						"native" };
static const char *const state_modules[ST_NR] = { NULL, "nosec_null",
						  "nosec_exec", NULL };
static const char *const state_files[ST_NR] = { NULL, NULL_KO, NOSEC_KO,
						NULL };

/*
 * The windows: name, marker id (two hex digits; chain.c marks 03, 06, 07,
 * 08 and 12 itself).
 */
#define BENCH_OPS(X)				\
	X(fork, "01")				\
	X(fork_exec, "02")			\
	X(exec, "03")				\
	X(getpid, "04")				\
	X(prctl, "05")				\
	X(exec_open, "06")			\
	X(exec_nosec, "07")			\
	X(exec_forced, "08")			\
	X(getpid_restricted, "09")		\
	X(getpid_seccomp, "0a")			\
	X(fork_exec_10k, "0b")			\
	X(fork_exec_10k_untracked, "0c")	\
	X(fork_exec_100k, "0d")			\
	X(fork_exec_100k_untracked, "0e")	\
	X(settle, "0f")				\
	X(fork_exec_base, "10")			\
	X(getpid_child, "11")			\
	X(exec_nosec_raw, "12")			\
	X(fork_exec_tree, "13")			\
	X(fork_exec_forced_tree, "14")		\
	X(shell_tree, "15")			\
	X(shell_forced_tree, "16")

enum op {
#define OP_ENUM(name, id) OP_##name,
	BENCH_OPS(OP_ENUM)
	OP_NR
};

static const char *const op_names[OP_NR] = {
#define OP_NAME(name, id) #name,
	BENCH_OPS(OP_NAME)
};

static const char *const op_ids[OP_NR] = {
#define OP_ID(name, id) id,
	BENCH_OPS(OP_ID)
};

/*
 * Run the marker of @kind for @op: 'B' a window begins, 'E' it ends, 'P'
 * and 'Q' a profile window (icount/marker.h).  The id is part of the
 * instruction, so each (op, kind) is an instruction of its own.
 */
#define OP_MARKS(name, id)					\
	case OP_##name:						\
		switch (kind) {					\
		case 'B': NOSEC_MARK_BEGIN(id); break;		\
		case 'E': NOSEC_MARK_END(id); break;		\
		case 'P': NOSEC_MARK_PROFILE_ON(id); break;	\
		case 'Q': NOSEC_MARK_PROFILE_OFF(id); break;	\
		}						\
		break;

static void mark(enum op op, char kind)
{
	switch (op) {
	BENCH_OPS(OP_MARKS)
	default:
		break;
	}
}

/*
 * Iterations a window.  A fork's count moves with the state of memory
 * (pages to clear, slabs to refill) more than anything else measured here,
 * so its windows are the longest: 100 forks, about 26 million
 * instructions.
 */
static int forks = 100, execs = 40, calls = 20000;
static int rounds = 6;
static bool with_100k = true;
static int round_nr;

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

/* The label of the window that just ended, for bench/report. */
static void label(enum op op, enum state st, int iterations)
{
	printf("BENCH-W %s %s %s %d %d\n", op_ids[op], op_names[op],
	       state_names[st], round_nr, iterations);
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

/*
 * Let deferred work finish (RCU callbacks, workers): idle time costs no
 * instructions under -icount sleep=off, and runs nothing of the bench.
 */
static void quiesce(void)
{
	sleep(1);
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
	quiesce();
}

static void leave_state(enum state st)
{
	/* Freed tasks drop their entries after an RCU grace period. */
	if (!state_modules[st])
		return;
	for (int i = 0; i < 100; i++) {
		if (!syscall(SYS_delete_module, state_modules[st], O_NONBLOCK)) {
			quiesce();
			return;
		}
		usleep(50000);
	}
	die(state_modules[st]);
}

/* ---- workloads ---- */

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

/*
 * Every window starts quiet: what earlier windows left to the kernel (the
 * RCU frees of their tasks, above all) runs before it, not in it.  The
 * settle windows wait on their own.
 */
static void window_begin(enum op op)
{
	if (op != OP_settle)
		quiesce();
	mark(op, 'P');
	mark(op, 'B');
}

static void fork_exit_loop(enum op op, enum state st)
{
	window_begin(op);
	for (int i = 0; i < forks; i++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		wait_child(pid, "fork");
	}
	mark(op, 'E');
	mark(op, 'Q');
	label(op, st, forks);
}

static void fork_exec_loop(enum op op, enum state st)
{
	char *argv[] = { CHAIN, NULL };

	window_begin(op);
	for (int i = 0; i < forks; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			execve(CHAIN, argv, environ);
			_exit(127);
		}
		wait_child(pid, "fork + exec");
	}
	mark(op, 'E');
	mark(op, 'Q');
	label(op, st, forks);
}

static void syscall_loop(enum op op, enum state st, long nr, long arg)
{
	window_begin(op);
	for (int i = 0; i < calls; i++)
		syscall(nr, arg);
	mark(op, 'E');
	mark(op, 'Q');
	label(op, st, calls);
}

/*
 * The peer: a one-rule seccomp filter, execve() fails with EPERM.  (A
 * real sandbox also checks the architecture and denies execveat(): more
 * instructions on every system call, so this is seccomp at its cheapest.)
 */
static int deny_exec_with_seccomp(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execve, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(filter) / sizeof(filter[0]),
		.filter = filter,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

/*
 * getpid() in a child: unconfined (getpid_child, the baseline of the two
 * others, a process of the same shape), restricted, or under the seccomp
 * peer.  A confined child first shows that the confinement holds: its
 * execve must fail with EPERM.
 */
static void child_getpid(enum op op, enum state st)
{
	char *argv[] = { CHAIN, NULL };
	pid_t pid = fork();

	if (pid == 0) {
		if (op != OP_getpid_child) {
			if (op == OP_getpid_seccomp ? deny_exec_with_seccomp() :
						      nosec_restrict_exec())
				_exit(3);
			if (execve(CHAIN, argv, environ) == 0 ||
			    errno != EPERM)
				_exit(4);
		}
		syscall_loop(op, st, SYS_getpid, 0);
		fflush(stdout);
		_exit(0);
	}
	wait_child(pid, op_names[op]);
}

/*
 * A tree at work, as a shell runs commands: fork, exec, exit, wait, in a
 * child that restricted itself and turned force mode on (every child a
 * tracked task, every exec a forced one: fork_exec_forced_tree), or in a
 * plain child of the same shape (fork_exec_tree, the baseline).
 */
static void tree_fork_exec(enum op op, enum state st)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (op == OP_fork_exec_forced_tree &&
		    (nosec_restrict_exec() || nosec_set_force(1)))
			_exit(3);
		fork_exec_loop(op, st);
		fflush(stdout);
		_exit(0);
	}
	wait_child(pid, op_names[op]);
}

/*
 * The same tree as a shell drives it: busybox sh runs a loop of @forks
 * external commands, each found by a PATH search (a directory that does
 * not exist first), forked, exec'd, exited and waited for; in a child
 * that restricted itself and turned force mode on (shell_forced_tree:
 * the shell's own exec and every command's forced, every task tracked)
 * or in a plain one (shell_tree).  The shell's start-up is in the window
 * once, the same in both.
 */
static void tree_shell(enum op op, enum state st)
{
	char script[128];
	char *argv[] = { "sh", "-c", script, NULL };
	char *envp[] = { "PATH=/nosec/bench/none:/nosec/bench", NULL };
	pid_t pid;

	snprintf(script, sizeof(script),
		 "i=0; while [ $i -lt %d ]; do chain; i=$((i + 1)); done",
		 forks);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		pid_t sh;

		if (op == OP_shell_forced_tree &&
		    (nosec_restrict_exec() || nosec_set_force(1)))
			_exit(3);
		window_begin(op);
		sh = fork();
		if (sh == 0) {
			execve("/bin/busybox", argv, envp);
			_exit(127);
		}
		wait_child(sh, "sh");
		mark(op, 'E');
		mark(op, 'Q');
		label(op, st, forks);
		fflush(stdout);
		_exit(0);
	}
	wait_child(pid, op_names[op]);
}

/* A chain of @execs execs made one way (chain.c), in a child. */
static void exec_chain(enum op op, enum state st)
{
	static const char *const ways[OP_NR] = {
		[OP_exec] = "plain", [OP_exec_open] = "open",
		[OP_exec_nosec] = "nosec", [OP_exec_forced] = "forced",
		[OP_exec_nosec_raw] = "raw",
	};
	char count[16];
	char *argv[] = { CHAIN, (char *)ways[op], count, NULL };
	pid_t pid;

	snprintf(count, sizeof(count), "%d", execs);
	fflush(stdout);
	quiesce();
	pid = fork();
	if (pid == 0) {
		if (op == OP_exec_forced &&
		    (nosec_restrict_exec() || nosec_set_force(1)))
			_exit(3);
		execve(CHAIN, argv, environ);
		_exit(127);
	}
	wait_child(pid, op_names[op]);
	label(op, st, execs);
}

/* ---- many tasks held alive ---- */

#define HELD_STACK	4096

static int held_thread(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return 0;
}

/*
 * A process of @n tasks (itself and @n - 1 threads, each on a 4-KB
 * stack carved from one mapping), restricted or not; killed to release.
 */
static pid_t hold_tasks(int n, bool restricted)
{
	int ready[2];
	pid_t pid;
	char c;

	if (pipe(ready))
		die("pipe");
	pid = fork();
	if (pid == 0) {
		const int flags = CLONE_VM | CLONE_FS | CLONE_FILES |
				  CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM;
		char *stacks;

		close(ready[0]);
		if (restricted && nosec_restrict_exec())
			_exit(3);
		stacks = mmap(NULL, (size_t)n * HELD_STACK,
			      PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
			      -1, 0);
		if (stacks == MAP_FAILED)
			_exit(4);
		for (int i = 1; i < n; i++)
			if (clone(held_thread, stacks + (size_t)i * HELD_STACK,
				  flags, NULL) < 0)
				_exit(5);
		(void)!write(ready[1], "r", 1);
		held_thread(NULL);
	}
	if (pid < 0)
		die("fork");
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1) {
		fprintf(stderr, "bench: could not start %d tasks\n", n);
		exit(2);
	}
	close(ready[0]);
	if (restricted && stat_tasks() < n) {
		fprintf(stderr, "bench: %ld tasks tracked, not %d\n",
			stat_tasks(), n);
		exit(2);
	}
	return pid;
}

static void release_tasks(pid_t pid)
{
	int status;

	kill(pid, SIGKILL);
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	/* Entries go after an RCU grace period; let the table drain. */
	for (int i = 0; i < 500 && stat_tasks() > 0; i++)
		usleep(20000);
	quiesce();
}

static void fork_exec_held(enum op op, int n, bool restricted)
{
	pid_t holder = hold_tasks(n, restricted);

	fork_exec_loop(op, ST_NOSEC);
	release_tasks(holder);
}

/*
 * @n tasks held, tracked and untracked, in the order @tracked_first says,
 * each followed by a baseline window.
 */
static void fork_exec_held_pair(int n, enum op tracked, enum op untracked,
				bool tracked_first)
{
	fork_exec_held(tracked_first ? tracked : untracked, n, tracked_first);
	fork_exec_loop(OP_fork_exec_base, ST_NOSEC);
	fork_exec_held(tracked_first ? untracked : tracked, n, !tracked_first);
	fork_exec_loop(OP_fork_exec_base, ST_NOSEC);
}

/*
 * The held-task phase (nosec_exec loaded): a baseline window, then each
 * held window followed by another baseline; tracked first in odd rounds,
 * untracked first in even ones.  The 100,000 task windows (each makes and
 * reaps 100,000 threads) in the first two rounds only.
 */
static void held_phase(void)
{
	enter_state(ST_NOSEC);
	for (round_nr = 1; round_nr <= rounds; round_nr++) {
		bool tracked_first = round_nr % 2;

		fork_exec_loop(OP_fork_exec_base, ST_NOSEC);
		fork_exec_held_pair(10000, OP_fork_exec_10k,
				    OP_fork_exec_10k_untracked, tracked_first);
		if (with_100k && round_nr <= 2)
			fork_exec_held_pair(100000, OP_fork_exec_100k,
					    OP_fork_exec_100k_untracked,
					    tracked_first);
		printf("# held round %d/%d done\n", round_nr, rounds);
	}
	leave_state(ST_NOSEC);
}

/* ---- settling ---- */

/*
 * Guest nanoseconds of a window of getpid() calls: under -icount, with
 * nothing idle in it, its instructions times 2 (shift=1).
 */
static double settle_window(void)
{
	double t0 = now();

	syscall_loop(OP_settle, ST_STOCK, SYS_getpid, 0);
	return now() - t0;
}

static void settle(void)
{
	double prev = settle_window(), t;
	int agree = 0, i;

	for (i = 1; i <= 300 && agree < 2; i++) {
		sleep(1);
		t = settle_window();
		agree = t > prev * 0.998 && t < prev * 1.002 ? agree + 1 : 0;
		prev = t;
	}
	if (agree < 2) {
		fprintf(stderr, "bench: the guest did not settle in %d s\n", i);
		exit(2);
	}
	/* i - 1 sleeps of a second each. */
	printf("# settled after %d s: three windows of %d getpid() agree "
	       "within 0.2 %% (%.0f ns a call)\n", i - 1, calls,
	       prev * 1e9 / calls);
}

/* ---- one round ---- */

static void measure(enum state st)
{
	enter_state(st);
	fork_exit_loop(OP_fork, st);
	fork_exec_loop(OP_fork_exec, st);
	exec_chain(OP_exec, st);
	syscall_loop(OP_getpid, st, SYS_getpid, 0);
	syscall_loop(OP_prctl, st, SYS_prctl, PR_GET_DUMPABLE);
	child_getpid(OP_getpid_child, st);
	if (st == ST_STOCK)
		child_getpid(OP_getpid_seccomp, st);
	if (st == ST_NOSEC) {
		exec_chain(OP_exec_nosec, st);
		exec_chain(OP_exec_nosec_raw, st);
		exec_chain(OP_exec_forced, st);
		tree_fork_exec(OP_fork_exec_tree, st);
		tree_fork_exec(OP_fork_exec_forced_tree, st);
		tree_shell(OP_shell_tree, st);
		tree_shell(OP_shell_forced_tree, st);
		child_getpid(OP_getpid_restricted, st);
	}
	leave_state(st);
}

/*
 * The exec and fork + exec windows alone, each profiled (bench --profile).  The module
 * stays loaded, so that its symbols are in /proc/kallsyms when bench/run
 * reads them; it unloads it after.
 */
static void profile_execs(void)
{
	enter_state(ST_NOSEC);
	for (round_nr = 1; round_nr <= rounds; round_nr++) {
		exec_chain(OP_exec, ST_NOSEC);
		exec_chain(OP_exec_nosec, ST_NOSEC);
		exec_chain(OP_exec_forced, ST_NOSEC);
		fork_exec_loop(OP_fork_exec, ST_NOSEC);
		tree_fork_exec(OP_fork_exec_tree, ST_NOSEC);
		tree_fork_exec(OP_fork_exec_forced_tree, ST_NOSEC);
		tree_shell(OP_shell_tree, ST_NOSEC);
		tree_shell(OP_shell_forced_tree, ST_NOSEC);
		fork_exec_held(OP_fork_exec_10k, 10000, true);
	}
}

/*
 * bench --native: on a kernel with our series, the execs alone, each way
 * in each round, in an order that turns from round to round: plain,
 * execveat() with AT_EXECVE_NO_TRANSITION called directly, through the
 * library, forced.
 * What a nosecurity and a forced exec cost over a plain one there is the
 * limit the module's figures are set against.
 */
static void measure_native(void)
{
	static const enum op ways[] = {
		OP_exec, OP_exec_nosec_raw, OP_exec_nosec, OP_exec_forced,
	};
	const int n = sizeof(ways) / sizeof(ways[0]);

	for (round_nr = 1; round_nr <= rounds; round_nr++) {
		for (int k = 0; k < n; k++)
			exec_chain(ways[(round_nr - 1 + k) % n], ST_NATIVE);
		printf("# round %d/%d done\n", round_nr, rounds);
	}
}

/* ---- memory ---- */

/* Bytes in use in slab cache @cache, from /proc/slabinfo. */
static long slab_bytes(const char *cache)
{
	char line[512], name[64];
	long total = 0, active, num, size;
	FILE *f = fopen("/proc/slabinfo", "r");

	if (!f)
		die("/proc/slabinfo");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %ld %ld %ld", name, &active, &num,
			   &size) == 4 && !strcmp(name, cache))
			total += active * size;
	fclose(f);
	return total;
}

/* The module's one allocation per tracked task: a 64-byte kzalloc(). */
#define ENTRY_CACHE	"kmalloc-64"
#define MEM_TASKS	10000

/*
 * Slab bytes per task with MEM_TASKS tasks alive, minus without them.
 * Tasks and the module's entries are freed an RCU grace period after
 * they go: the idle seconds before each reading let the frees of the
 * previous holder land first (they cost nothing under sleep=off).
 */
static double held_bytes_per_task(bool restricted)
{
	long before, with;
	pid_t holder;

	sleep(2);
	before = slab_bytes(ENTRY_CACHE);
	holder = hold_tasks(MEM_TASKS, restricted);
	sleep(2);
	with = slab_bytes(ENTRY_CACHE);
	release_tasks(holder);
	return (double)(with - before) / MEM_TASKS;
}

/*
 * BENCH-MEM RUN STOCK UNTRACKED TRACKED: bytes per task in ENTRY_CACHE
 * with MEM_TASKS tasks alive, on the stock kernel, with the module and
 * untracked tasks, with the module and tracked (restricted) tasks.  The
 * module's cost per tracked task is TRACKED - UNTRACKED, per untracked
 * task UNTRACKED - STOCK.
 */
static void memory(void)
{
	for (int i = 1; i <= 3; i++) {
		double stock, untracked, tracked;

		stock = held_bytes_per_task(false);
		enter_state(ST_NOSEC);
		untracked = held_bytes_per_task(false);
		tracked = held_bytes_per_task(true);
		leave_state(ST_NOSEC);
		printf("BENCH-MEM %d %.1f %.1f %.1f\n", i, stock, untracked,
		       tracked);
	}
}

static void write_sysctl(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, value, strlen(value)) != (ssize_t)strlen(value))
		die(path);
	close(fd);
}

int main(int argc, char **argv)
{
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };
	bool profile_only = false, native = false;
	double t0 = now();
	struct utsname u;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
			rounds = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--quick")) {
			forks = 40;
			execs = 20;
			calls = 10000;
			with_100k = false;
		} else if (!strcmp(argv[i], "--no-100k")) {
			with_100k = false;
		} else if (!strcmp(argv[i], "--profile")) {
			profile_only = true;
		} else if (!strcmp(argv[i], "--native")) {
			native = true;
		} else {
			fprintf(stderr, "usage: bench [--rounds N] [--quick] "
				"[--no-100k] [--profile] [--native]\n");
			return 2;
		}
	}
	if (rounds < 1 || rounds > 100) {
		fprintf(stderr, "bench: rounds 1..100\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	setrlimit(RLIMIT_NPROC, &unlimited);
	write_sysctl("/proc/sys/kernel/threads-max", "250000");
	write_sysctl("/proc/sys/kernel/pid_max", "4194304");
	uname(&u);
	printf("# bench: %d rounds, kernel %s (%s)\n", rounds, u.release,
	       u.version);
	settle();
	if (profile_only) {
		profile_execs();
		printf("# bench: profile done\n");
		return 0;
	}
	if (native) {
		measure_native();
		printf("# bench: done, %.0f guest seconds\n", now() - t0);
		return 0;
	}
	for (round_nr = 1; round_nr <= rounds; round_nr++) {
		/*
		 * The six orders of the three states, in turn (not
		 * ST_NR wide: ST_NATIVE is no state of a round).
		 */
		static const enum state orders[6][3] = {
			{ ST_STOCK, ST_NULL, ST_NOSEC },
			{ ST_NULL, ST_NOSEC, ST_STOCK },
			{ ST_NOSEC, ST_STOCK, ST_NULL },
			{ ST_STOCK, ST_NOSEC, ST_NULL },
			{ ST_NOSEC, ST_NULL, ST_STOCK },
			{ ST_NULL, ST_STOCK, ST_NOSEC },
		};

		const enum state *order = orders[(round_nr - 1) % 6];

		for (int k = 0; k < 3; k++)
			measure(order[k]);
		printf("# round %d/%d done\n", round_nr, rounds);
	}
	held_phase();
	memory();
	printf("# bench: done, %.0f guest seconds\n", now() - t0);
	return 0;
}
