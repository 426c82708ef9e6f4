// SPDX-License-Identifier: GPL-2.0
/*
 * What a task holds when it is restricted (all or nothing):
 * another thread, an io_uring SQPOLL or io-wq thread, a process sharing
 * its memory (CLONE_VM, vfork), a tracee.  PR_RESTRICT_ME refuses with
 * EBUSY and names the task in the way, PR_RESTRICT_TSYNC restricts every
 * thread at once, and what is created after the restriction carries it.
 * A thread storm races PR_RESTRICT_TSYNC against thread creation.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <linux/io_uring.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nosec.h"
#include "fixtures.h"
#include "common.h"
#include "../kselftest_harness.h"
#include "ksft_nosec.h"

NOSEC_FIXTURE(held);

/* PR_RESTRICT_ME for PR_RESTRICT_EXEC: 0, or errno; *tid: the blocker. */
static int restrict_exec(unsigned long how, int *tid)
{
	*tid = 0;
	return restrict_me(PR_RESTRICT_EXEC, how, (unsigned long)tid, 0) ? errno : 0;
}

/* The name of thread @tid of this process ("" when there is none). */
static const char *thread_comm(int tid)
{
	static char comm[32];

	return read_thread_file(tid, "comm", comm, sizeof(comm));
}

/* ---- a thread ---- */

static int thread_pipe[2];
static atomic_int thread_tid;

static void *blocked_thread(void *arg)
{
	char c;

	(void)arg;
	atomic_store(&thread_tid, gettid());
	if (read(thread_pipe[0], &c, 1) != 1)
		return (void *)-1L;
	return (void *)(long)child_execve_errno(FIX_PROBE);
}

TEST_F(held, held_thread_refused_then_tsync)
{
	pthread_t t;
	void *ret;
	int tid, e;

	AS_TEST_USER();

	ASSERT_TRUE(pipe(thread_pipe) == 0 && pthread_create(&t, NULL, blocked_thread, NULL) == 0)
		TH_LOG("thread");
	while (!atomic_load(&thread_tid))
		usleep(1000);
	e = restrict_exec(0, &tid);
	ASSERT_EQ(EBUSY, e) TH_LOG("restricting one thread of two: %d, want EBUSY", e);
	ASSERT_EQ(atomic_load(&thread_tid), tid)
		TH_LOG("blocker %d, the other thread is %d", tid, atomic_load(&thread_tid));
	ASSERT_EQ(0, nosec_exec_restricted()) TH_LOG("a refused restriction changed the caller");
	e = restrict_exec(PR_RESTRICT_TSYNC, &tid);
	ASSERT_EQ(0, e) TH_LOG("PR_RESTRICT_TSYNC: %d (blocker %d)", e, tid);
	ASSERT_EQ(1, nosec_exec_restricted()) TH_LOG("caller restricted");
	ASSERT_TRUE(write(thread_pipe[1], "x", 1) == 1 && pthread_join(t, &ret) == 0)
		TH_LOG("join");
	ASSERT_EQ(EPERM, (long)ret) TH_LOG("the thread created before: exec errno %ld", (long)ret);
}

/* Every thread created after the restriction carries it. */
static void *exec_from_thread(void *arg)
{
	(void)arg;
	return (void *)(long)child_execve_errno(FIX_PROBE);
}

TEST_F(held, held_thread_created_after)
{
	pthread_t t;
	void *ret;

	AS_TEST_USER();

	ASSERT_EQ(0, nosec_restrict_exec()) TH_LOG("restrict: %d", errno);
	ASSERT_TRUE(pthread_create(&t, NULL, exec_from_thread, NULL) == 0 &&
		    pthread_join(t, &ret) == 0)
		TH_LOG("thread");
	ASSERT_EQ(EPERM, (long)ret) TH_LOG("thread created after: exec errno %ld", (long)ret);
}

/* ---- io_uring: an SQPOLL thread, an io-wq worker ---- */

struct ring {
	int fd;
	struct io_uring_params p;
	unsigned char *sq, *cq;
	struct io_uring_sqe *sqes;
};

static int ring_init(struct ring *r, unsigned int flags)
{
	memset(r, 0, sizeof(*r));
	r->p.flags = flags;
	r->p.sq_thread_idle = 60000;
	r->fd = syscall(__NR_io_uring_setup, 4, &r->p);
	if (r->fd < 0)
		return -1;
	r->sq = mmap(NULL, r->p.sq_off.array + r->p.sq_entries * sizeof(unsigned int),
		     PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		     IORING_OFF_SQ_RING);
	r->cq = mmap(NULL, r->p.cq_off.cqes + r->p.cq_entries * sizeof(struct io_uring_cqe),
		     PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		     IORING_OFF_CQ_RING);
	r->sqes = mmap(NULL, r->p.sq_entries * sizeof(struct io_uring_sqe),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		       IORING_OFF_SQES);
	return r->sq == MAP_FAILED || r->cq == MAP_FAILED || r->sqes == MAP_FAILED ? -1 : 0;
}

#define RING_U32(base, off) ((atomic_uint *)((base) + (off)))

/* Submit @sqe, wait for its completion: its result, or -1000 - errno. */
static int ring_run(struct ring *r, const struct io_uring_sqe *sqe)
{
	unsigned int tail = atomic_load(RING_U32(r->sq, r->p.sq_off.tail));
	unsigned int mask = *RING_U32(r->sq, r->p.sq_off.ring_mask);
	unsigned int head, enter = IORING_ENTER_GETEVENTS;
	struct io_uring_cqe *cqe;

	r->sqes[tail & mask] = *sqe;
	((unsigned int *)(r->sq + r->p.sq_off.array))[tail & mask] = tail & mask;
	atomic_store(RING_U32(r->sq, r->p.sq_off.tail), tail + 1);
	if ((r->p.flags & IORING_SETUP_SQPOLL) &&
	    (atomic_load(RING_U32(r->sq, r->p.sq_off.flags)) & IORING_SQ_NEED_WAKEUP))
		enter |= IORING_ENTER_SQ_WAKEUP;
	if (syscall(__NR_io_uring_enter, r->fd, 1, 1, enter, NULL, 0) < 0)
		return -1000 - errno;
	head = atomic_load(RING_U32(r->cq, r->p.cq_off.head));
	while (head == atomic_load(RING_U32(r->cq, r->p.cq_off.tail)))
		usleep(1000);
	cqe = (struct io_uring_cqe *)(r->cq + r->p.cq_off.cqes) +
	      (head & *RING_U32(r->cq, r->p.cq_off.ring_mask));
	atomic_store(RING_U32(r->cq, r->p.cq_off.head), head + 1);
	return cqe->res;
}

static int ring_nop_async(struct ring *r)
{
	struct io_uring_sqe sqe = { .opcode = IORING_OP_NOP, .flags = IOSQE_ASYNC };

	return ring_run(r, &sqe);
}

/* Open /proc/@pid/mem for writing through @r: an fd, or its error. */
static int ring_open_mem(struct ring *r, pid_t pid, unsigned char sqe_flags)
{
	static char path[64];
	struct io_uring_sqe sqe = {
		.opcode = IORING_OP_OPENAT, .flags = sqe_flags, .fd = AT_FDCWD,
		.addr = (unsigned long)path, .open_flags = O_RDWR,
	};
	int res;

	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	res = ring_run(r, &sqe);
	if (res >= 0)
		close(res);
	return res;
}

enum ring_kind { RING_SQPOLL, RING_IOWQ };

/*
 * As TEST_UID beside an unrestricted sleeper of the same uid: a ring
 * made before the restriction, which must refuse it (the ring's thread
 * named), then PR_RESTRICT_TSYNC; or (@after) a ring made after it.  The
 * ring opens the sleeper's memory for writing before and after.
 * Return: the case's result, from the child that ran it.
 */
static int ring_case(enum ring_kind kind, int after)
{
	pid_t outside = spawn_sleeper(0), pid;
	int st;

	yama_permissive();
	pid = fork();
	if (pid == 0) {
		unsigned char sqe_flags = kind == RING_IOWQ ? IOSQE_ASYNC : 0;
		const char *prefix = kind == RING_SQPOLL ? "iou-sqp-" : "iou-wrk-";
		struct ring r;
		int tid, e, res;

		setup_user();
		if (after && nosec_restrict_exec())
			_exit(10);
		if (ring_init(&r, kind == RING_SQPOLL ? IORING_SETUP_SQPOLL : 0))
			_exit(errno == ENOSYS || errno == EPERM ? 11 : 12);
		if (kind == RING_IOWQ && ring_nop_async(&r) != 0)
			_exit(13);
		if (after) {
			res = ring_open_mem(&r, outside, sqe_flags);
			printf("# ring made after the restriction: open %d\n", res);
			_exit(res < 0 ? 0 : 14);
		}
		res = ring_open_mem(&r, outside, sqe_flags);
		if (res < 0) {
			printf("# unrestricted ring: open %d\n", res);
			_exit(15);
		}
		e = restrict_exec(0, &tid);
		printf("# PR_RESTRICT_ME: %d, blocker %d (%s)\n", e, tid, thread_comm(tid));
		if (e != EBUSY || strncmp(thread_comm(tid), prefix, strlen(prefix)))
			_exit(16);
		if (nosec_exec_restricted() != 0)
			_exit(17);
		if (restrict_exec(PR_RESTRICT_TSYNC, &tid))
			_exit(18);
		res = ring_open_mem(&r, outside, sqe_flags);
		printf("# ring made before PR_RESTRICT_TSYNC: open %d\n", res);
		_exit(res < 0 ? 0 : 19);
	}
	st = wait_status(pid);
	yama_restore();
	kill(outside, SIGKILL);
	wait_status(outside);
	return st;
}

NOSEC_FIXTURE(ring);

FIXTURE_VARIANT(ring) {
	enum ring_kind kind;
	int after;	/* the ring made after the restriction */
};

FIXTURE_VARIANT_ADD(ring, held_sqpoll_ring_before) {
	.kind = RING_SQPOLL,
	.after = 0,
};

FIXTURE_VARIANT_ADD(ring, held_sqpoll_ring_after) {
	.kind = RING_SQPOLL,
	.after = 1,
};

FIXTURE_VARIANT_ADD(ring, held_iowq_worker_before) {
	.kind = RING_IOWQ,
	.after = 0,
};

FIXTURE_VARIANT_ADD(ring, held_iowq_worker_after) {
	.kind = RING_IOWQ,
	.after = 1,
};

/*
 * An io_uring's SQPOLL thread, or an io-wq worker, made before the
 * restriction: PR_RESTRICT_ME names it and refuses; PR_RESTRICT_TSYNC
 * then covers it.  Made after: restricted from the start.
 */
TEST_F(ring, restricted_like_its_owner)
{
	int st = ring_case(variant->kind, variant->after);

	if (st == 11)
		SKIP(return, "io_uring is not available to this user");
	ASSERT_EQ(0, st) TH_LOG("ring case: exit status %d", st);
}

/* ---- a process sharing the memory ---- */

static _Alignas(16) char clone_stack[64 * 1024];
static int clone_pipe[2];

static int clone_vm_child(void *arg)
{
	char c;

	(void)arg;
	if (read(clone_pipe[0], &c, 1) != 1)
		return 99;
	return child_execve_errno(FIX_PROBE);
}

/* A CLONE_VM child made before: refused, with or without TSYNC; after: carries it. */
TEST_F(held, held_clone_vm_child)
{
	pid_t child, after;
	int tid, e;

	AS_TEST_USER();

	ASSERT_EQ(0, pipe(clone_pipe)) TH_LOG("pipe");
	child = clone(clone_vm_child, clone_stack + sizeof(clone_stack),
		      CLONE_VM | SIGCHLD, NULL);
	ASSERT_TRUE(child > 0) TH_LOG("clone: %d", errno);
	e = restrict_exec(0, &tid);
	ASSERT_TRUE(e == EBUSY && tid == child)
		TH_LOG("restrict beside a CLONE_VM child: %d, blocker %d (child %d)", e, tid,
		       child);
	e = restrict_exec(PR_RESTRICT_TSYNC, &tid);
	ASSERT_TRUE(e == EBUSY && tid == child)
		TH_LOG("TSYNC beside a CLONE_VM child: %d, blocker %d", e, tid);
	ASSERT_EQ(0, nosec_exec_restricted()) TH_LOG("a refused restriction changed the caller");
	ASSERT_EQ(1, write(clone_pipe[1], "x", 1)) TH_LOG("release");
	e = wait_status(child);
	ASSERT_EQ(0, e) TH_LOG("the unrestricted CLONE_VM child execs: %d", e);

	ASSERT_EQ(0, nosec_restrict_exec()) TH_LOG("restrict alone: %d", errno);
	after = clone(clone_vm_child, clone_stack + sizeof(clone_stack), CLONE_VM | SIGCHLD,
		      NULL);
	ASSERT_TRUE(after > 0 && write(clone_pipe[1], "x", 1) == 1)
		TH_LOG("clone after: %d", errno);
	e = wait_status(after);
	ASSERT_EQ(EPERM, e) TH_LOG("CLONE_VM child made after: exec errno %d", e);
}

/*
 * The same sibling, while a thousand threads of the caller exit at once:
 * each exit drops a reference on the memory, and none may make the
 * sibling's look like a thread's (a PR_RESTRICT_TSYNC was won this way
 * when the threads were counted first).
 */
#define EXITERS	1500

static atomic_int exiter_go[EXITERS];
static long exiter_spin[EXITERS];	/* written before exiter_go, read after */
static atomic_int exiters_released;
static long prctl_us;

/* Run on CPU @cpu only, if there is such a CPU. */
static void pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

/* Wait for its turn, spin a little, exit. */
static void *exiter(void *arg)
{
	long i = (atomic_int *)arg - exiter_go;

	pin_to(1);
	while (!atomic_load(&exiter_go[i]))
		syscall(SYS_futex, &exiter_go[i], FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	for (volatile long spin = 0; spin < exiter_spin[i]; spin++)
		;
	return NULL;
}

/*
 * The releases take at most this long, however slow the kernel: 100 s,
 * or NOSEC_RELEASE_SECONDS.
 */
#ifndef NOSEC_KSELFTEST
/* (make check-debug-quick's are fewer.) */
#endif
#define RELEASE_BUDGET_S	100

/*
 * On the other CPU, let the exiters go one by one, more than once per
 * PR_RESTRICT_TSYNC call, each after a spin of random length: exits land
 * at every point of the calls' walks.  Where a call is slow (a debug
 * kernel: 0.2 to 0.4 s), more of them go per call, so that the test
 * stays within its time.
 */
static void *exiter_releaser(void *arg)
{
	int n = *(int *)arg;
	unsigned int seed = 27;
	long gap = prctl_us * 6 / 10;
	long budget_us = env_long("NOSEC_RELEASE_SECONDS", RELEASE_BUDGET_S) * 1000000L;

	if (budget_us > 0 && gap > budget_us / n)
		gap = budget_us / n;
	pin_to(1);
	for (int i = 0; i < n; i++) {
		exiter_spin[i] = rand_r(&seed) % (gap * 50 + 1);
		atomic_store(&exiter_go[i], 1);
		syscall(SYS_futex, &exiter_go[i], FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
		usleep(gap + 1);
	}
	atomic_store(&exiters_released, 1);
	return NULL;
}

TEST_F_TIMEOUT(held, held_clone_vm_child_beside_exiting_threads, 500)
{
	AS_TEST_USER();

	pthread_attr_t attr;
	pthread_t t;
	pid_t child;
	int tid, e, calls = 0, n;
	long start;

	ASSERT_EQ(0, pipe(clone_pipe)) TH_LOG("pipe");
	child = clone(clone_vm_child, clone_stack + sizeof(clone_stack), CLONE_VM | SIGCHLD,
		      NULL);
	ASSERT_TRUE(child > 0) TH_LOG("clone: %d", errno);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (n = 0; n < EXITERS; n++)
		if (pthread_create(&t, &attr, exiter, &exiter_go[n]) || pthread_detach(t))
			break;
	ASSERT_TRUE(n > EXITERS / 2) TH_LOG("threads: %d", n);
	pin_to(0);
	start = now_us();
	for (int i = 0; i < 5; i++)
		restrict_exec(PR_RESTRICT_TSYNC, &tid);
	prctl_us = (now_us() - start) / 5;
	ASSERT_TRUE(pthread_create(&t, &attr, exiter_releaser, &n) == 0 && pthread_detach(t) == 0)
		TH_LOG("releaser");
	while (!atomic_load(&exiters_released)) {
		e = restrict_exec(PR_RESTRICT_TSYNC, &tid);
		ASSERT_TRUE(e == EBUSY && tid == child)
			TH_LOG("call %d while threads exit: %d, blocker %d (the sibling is %d)",
			       calls, e, tid, child);
		calls++;
	}
	printf("# %d calls of %ld us while %d threads exited\n", calls, prctl_us, n);
	ASSERT_EQ(1, write(clone_pipe[1], "x", 1)) TH_LOG("release");
	e = wait_status(child);
	ASSERT_EQ(0, e) TH_LOG("the unrestricted sibling execs: %d", e);
}

/* A vfork child shares its parent's memory: it cannot restrict itself. */
TEST_F(held, held_vfork_child_refused)
{
	AS_TEST_USER();

	volatile int e = -1, tid = 0;
	pid_t pid = vfork();

	if (pid == 0) {
		int t;

		e = restrict_exec(0, &t);
		tid = t;
		_exit(0);
	}
	ASSERT_TRUE(pid > 0) TH_LOG("vfork: %d", errno);
	wait_status(pid);
	ASSERT_TRUE(e == EBUSY && tid == getpid())
		TH_LOG("restrict in a vfork child: %d, blocker %d (parent %d)", e, tid, getpid());
	ASSERT_EQ(0, nosec_exec_restricted()) TH_LOG("parent unrestricted");
}

/* ---- a tracee ---- */

/* Seize @pid and stop it; 0 or errno. */
static int seize_and_stop(pid_t pid)
{
	int status;

	if (ptrace(PTRACE_SEIZE, pid, 0, 0) || ptrace(PTRACE_INTERRUPT, pid, 0, 0))
		return errno;
	return waitpid(pid, &status, 0) == pid ? 0 : errno;
}

TEST_F(held, held_tracee_refused)
{
	pid_t outside = spawn_sleeper(0), pid;
	int st;

	yama_permissive();
	pid = fork();
	if (pid == 0) {
		int tid, e;

		setup_user();
		if (seize_and_stop(outside))
			_exit(10);
		e = restrict_exec(0, &tid);
		printf("# restrict a tracer: %d, blocker %d\n", e, tid);
		if (e != EBUSY || tid != outside)
			_exit(11);
		e = restrict_exec(PR_RESTRICT_TSYNC, &tid);
		printf("# TSYNC a tracer: %d, blocker %d\n", e, tid);
		if (e != EBUSY || tid != outside)
			_exit(12);
		if (nosec_exec_restricted() != 0)
			_exit(13);
		if (ptrace(PTRACE_DETACH, outside, 0, 0) || restrict_exec(0, &tid))
			_exit(14);
		/* Attached after: refused at attach. */
		_exit(ptrace(PTRACE_SEIZE, outside, 0, 0) == -1 && errno == EPERM ? 0 : 15);
	}
	st = wait_status(pid);
	yama_restore();
	kill(outside, SIGKILL);
	wait_status(outside);
	ASSERT_EQ(0, st) TH_LOG("tracer case: %d", st);
}

#ifndef NOSEC_KSELFTEST	/* the module: its ioctl flag */
/* Read and written by the tracer through ptrace. */
static volatile long tracee_word = 42;

/* As TEST_UID: stop *@arg as its tracer, then run probe --tracee restricted. */
static void trace_then_restrict_all(void *arg)
{
	pid_t outside = *(pid_t *)arg;
	char sp[16], sa[32];
	char *const argv[] = { "probe", "--tracee", sp, sa, NULL };
	long word;

	setup_user();
	if (seize_and_stop(outside))
		_exit(10);
	errno = 0;
	word = ptrace(PTRACE_PEEKDATA, outside, &tracee_word, 0);
	printf("peek_before=%d\n", word == 42 ? errno : -1);
	snprintf(sp, sizeof(sp), "%d", outside);
	snprintf(sa, sizeof(sa), "%#lx", (unsigned long)&tracee_word);
	fflush(stdout);
	execveat_nosecurity(AT_FDCWD, FIX_PROBE, argv, environ, NOSEC_EXEC_RESTRICT_ALL);
	printf("exec_errno=%d\n", errno);
}

/*
 * A tracee kept across the exec that restricts (NOSEC_EXEC_RESTRICT_ALL
 * restricts a single-threaded program with a fresh memory, which has no
 * one to refuse it but its tracees): the new, restricted program may only
 * let it go.
 */
TEST_F(held, held_tracee_used_after_restrict_all)
{
	MODULE_ONLY("NOSEC_EXEC_RESTRICT_ALL is the module's ioctl flag");

	pid_t outside = spawn_sleeper(0);
	struct run r;

	yama_permissive();
	capture(trace_then_restrict_all, &outside, &r);
	yama_restore();
	kill(outside, SIGKILL);
	wait_status(outside);
	ASSERT_EQ(0, getl(&r, "peek_before"))
		TH_LOG("the tracer reads its tracee before: %s", r.out);
	ASSERT_TRUE(r.exec_errno == 0 && getl(&r, "end") == 1)
		TH_LOG("restricted tracer ran: %s", r.out);
	ASSERT_TRUE(getl(&r, "peek") == EPERM && getl(&r, "poke") == EPERM)
		TH_LOG("restricted tracer on a tracee out of scope: peek %ld poke %ld",
		       getl(&r, "peek"), getl(&r, "poke"));
	ASSERT_EQ(0, getl(&r, "detach"))
		TH_LOG("it may let the tracee go: %ld", getl(&r, "detach"));
}
#endif	/* NOSEC_KSELFTEST */

/* ---- a thread storm against PR_RESTRICT_TSYNC ---- */

#define STORM_SPAWNERS	3
#define STORM_THREADS	60	/* per spawner */
#define STORM_ROUNDS	12	/* NOSEC_STORM_ROUNDS: fewer in check-debug-quick */

static atomic_int storm_done, storm_unrestricted, storm_checked, storm_create_failed;

/* Every thread that lives past the restriction must carry it. */
static void storm_check(void)
{
	while (!atomic_load(&storm_done))
		usleep(200);
	if (nosec_exec_restricted() != 1)
		atomic_fetch_add(&storm_unrestricted, 1);
	atomic_fetch_add(&storm_checked, 1);
}

static void *storm_leaf(void *arg)
{
	(void)arg;
	storm_check();
	return NULL;
}

static void *storm_spawner(void *arg)
{
	(void)arg;
	for (int i = 0; i < STORM_THREADS; i++) {
		pthread_t t;
		int e = pthread_create(&t, NULL, storm_leaf, NULL);

		if (e) {
			printf("# pthread_create: %s\n", strerror(e));
			atomic_fetch_add(&storm_create_failed, 1);
		} else {
			pthread_detach(t);
		}
		if (i % 8 == 0)
			sched_yield();
	}
	storm_check();
	return NULL;
}

/* One round, in a process of its own: 0, or what went wrong. */
static int storm_round(int round)
{
	pthread_t spawners[STORM_SPAWNERS];
	int tid, e, want = STORM_SPAWNERS * (STORM_THREADS + 1);

	for (int i = 0; i < STORM_SPAWNERS; i++)
		if (pthread_create(&spawners[i], NULL, storm_spawner, NULL))
			return 10;
	usleep(500 * (round % 6));
	e = restrict_exec(PR_RESTRICT_TSYNC, &tid);
	atomic_store(&storm_done, 1);
	if (e) {
		printf("# round %d: PR_RESTRICT_TSYNC: %d (blocker %d)\n", round, e, tid);
		return 11;
	}
	for (int i = 0; i < STORM_SPAWNERS; i++)
		pthread_join(spawners[i], NULL);
	for (int i = 0; i < 2000 && atomic_load(&storm_checked) +
	     atomic_load(&storm_create_failed) < want; i++)
		usleep(1000);
	if (atomic_load(&storm_unrestricted) || atomic_load(&storm_create_failed) ||
	    atomic_load(&storm_checked) != want) {
		printf("# round %d: %d unrestricted, %d not created, %d of %d checked\n", round,
		       atomic_load(&storm_unrestricted), atomic_load(&storm_create_failed),
		       atomic_load(&storm_checked), want);
		return 12;
	}
	return 0;
}

TEST_F_TIMEOUT(held, held_tsync_thread_storm, 300)
{
	long rounds = env_long("NOSEC_STORM_ROUNDS", STORM_ROUNDS);

	AS_TEST_USER();

	ASSERT_LT(0, rounds) TH_LOG("NOSEC_STORM_ROUNDS=%ld", rounds);
	for (int round = 0; round < rounds; round++) {
		pid_t pid = fork();
		int st;

		if (pid == 0)
			_exit(storm_round(round));
		st = wait_status(pid);
		ASSERT_EQ(0, st) TH_LOG("round %d: %d", round, st);
	}
}

TEST_HARNESS_MAIN
