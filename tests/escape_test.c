// SPDX-License-Identifier: GPL-2.0
/*
 * What a restricted tree shares with the unrestricted process that
 * started it, and may not turn into a way out:
 *
 * - the pipe or file that process reads its commands from (a shell fed by
 *   a pipe or a here-document): no reopening a descriptor, through
 *   /proc/PID/fd or openat(fd, "", O_EMPTYPATH), with more access than it
 *   has;
 * - its session keyring: a restriction gives the task one of its own;
 * - its fs_struct and files_struct: shared with a task outside, they
 *   refuse the restriction (EBUSY), as shared memory does;
 * - an exec in flight in another thread, waiting for cred_guard_mutex,
 *   when PR_RESTRICT_TSYNC restricts it: refused, never killed, never run
 *   after the prctl has returned.
 *
 * Each case runs the route unrestricted too, where it must work: the
 * route exists, and the restriction is what closes it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/keyctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nosec.h"
#include "fixtures.h"
#include "common.h"
#include "fuse_server.h"
#include "../kselftest_harness.h"
#include "ksft_nosec.h"

NOSEC_FIXTURE(escape);

#define ESCAPED		FIX "/escaped"

/* ---- reopening a descriptor ---- */

/*
 * Two ways to open a descriptor's file anew: /proc/self/fd/N, and, where
 * the kernel has it (7.x), openat(N, "", O_EMPTYPATH).  The uapi value
 * is asm-generic's on both architectures.
 */
#ifndef O_EMPTYPATH
#define O_EMPTYPATH	(1 << 26)
#endif

FIXTURE(reopen) {};

FIXTURE_VARIANT(reopen) {
	bool emptypath;
};

FIXTURE_VARIANT_ADD(reopen, proc_fd) {
	.emptypath = false,
};

FIXTURE_VARIANT_ADD(reopen, emptypath) {
	.emptypath = true,
};

FIXTURE_SETUP(reopen)
{
	int fd;

	nosec_fixture_setup(_metadata);
	if (!variant->emptypath)
		return;
	/* Unknown to the kernel, the flag is ignored: "" is then ENOENT. */
	fd = openat(0, "", O_RDONLY | O_EMPTYPATH);
	if (fd < 0 && errno == ENOENT)
		SKIP(return, "no O_EMPTYPATH in this kernel");
	if (fd >= 0)
		close(fd);
}

FIXTURE_TEARDOWN(reopen)
{
	nosec_reap_descendants();
}

/*
 * In a child of TEST_UID restricted with @mask (0: not), with @fd as its
 * descriptor 0: open that file anew with @flags, with O_EMPTYPATH if
 * @emptypath, else through /proc/self/fd/0.  0 or errno.
 */
static int reopen_errno(bool emptypath, int fd, unsigned long mask,
			int flags)
{
	pid_t pid = fork();

	if (pid == 0) {
		int r;

		setup_user();
		if (dup2(fd, 0) != 0)
			_exit(200);
		if (mask && restrict_me(mask, 0, 0, 0))
			_exit(201);
		if (emptypath)
			r = openat(0, "", flags | O_EMPTYPATH);
		else
			r = open("/proc/self/fd/0", flags);
		_exit(r < 0 ? errno : 0);
	}
	return wait_status(pid);
}

/* Each restriction, and none. */
static const unsigned long masks[] = {
	0, PR_RESTRICT_EXEC, PR_RESTRICT_EXEC | PR_RESTRICT_EXEC_NOSECURITY,
};

/*
 * The read end of a pipe, as a shell fed by `curl ... | sh` hands it to
 * what it runs: reopened for writing it is a new write end of the same
 * pipe, whose bytes the shell reads as its next commands.
 */
TEST_F(reopen, pipe_read_end_for_writing)
{
	int p[2];

	ASSERT_EQ(0, pipe(p));
	fchown(p[0], TEST_UID, TEST_GID);
	for (size_t i = 0; i < ARRAY_SIZE(masks); i++) {
		int want = masks[i] ? EACCES : 0;

		ASSERT_EQ(want, reopen_errno(variant->emptypath, p[0], masks[i], O_WRONLY))
			TH_LOG("mask %#lx: O_WRONLY", masks[i]);
		ASSERT_EQ(want, reopen_errno(variant->emptypath, p[0], masks[i], O_RDWR))
			TH_LOG("mask %#lx: O_RDWR", masks[i]);
		ASSERT_EQ(0, reopen_errno(variant->emptypath, p[0], masks[i], O_RDONLY))
			TH_LOG("mask %#lx: O_RDONLY, the access the descriptor has", masks[i]);
	}
	/* The write end, for reading: more access too. */
	ASSERT_EQ(0, reopen_errno(variant->emptypath, p[1], 0, O_RDONLY));
	ASSERT_EQ(EACCES, reopen_errno(variant->emptypath, p[1], PR_RESTRICT_EXEC, O_RDONLY));
	ASSERT_EQ(0, reopen_errno(variant->emptypath, p[1], PR_RESTRICT_EXEC, O_WRONLY));
}

/*
 * A file of TEST_UID's, opened for reading and unlinked (bash's here-
 * documents): reopened for writing, appending or truncating, it is the
 * script the shell reads next.  An O_PATH descriptor on it gives no
 * access either, so it is no step towards one.  A descriptor that writes
 * (O_APPEND or not: fcntl() takes O_APPEND off it) reopens for writing.
 */
TEST_F(reopen, file_with_more_access)
{
	int ro, wa, path;

	ASSERT_EQ(0, write_file(FIX "/heredoc", "true\n", 0600));
	ASSERT_EQ(0, chown(FIX "/heredoc", TEST_UID, TEST_GID));
	ro = open(FIX "/heredoc", O_RDONLY);
	wa = open(FIX "/heredoc", O_WRONLY | O_APPEND);
	path = open(FIX "/heredoc", O_PATH);
	ASSERT_TRUE(ro >= 0 && wa >= 0 && path >= 0);
	ASSERT_EQ(0, unlink(FIX "/heredoc"));
	for (size_t i = 0; i < ARRAY_SIZE(masks); i++) {
		int want = masks[i] ? EACCES : 0;

		ASSERT_EQ(want, reopen_errno(variant->emptypath, ro, masks[i], O_WRONLY | O_APPEND))
			TH_LOG("mask %#lx: read-only, for appending", masks[i]);
		if (masks[i])	/* unrestricted, it would empty the file: last */
			ASSERT_EQ(EACCES, reopen_errno(variant->emptypath, ro, masks[i],
						       O_RDONLY | O_TRUNC))
				TH_LOG("mask %#lx: read-only, for reading and truncating",
				       masks[i]);
		ASSERT_EQ(0, reopen_errno(variant->emptypath, ro, masks[i], O_RDONLY))
			TH_LOG("mask %#lx: read-only, for reading", masks[i]);
		ASSERT_EQ(want, reopen_errno(variant->emptypath, path, masks[i], O_RDONLY))
			TH_LOG("mask %#lx: O_PATH, for reading", masks[i]);
		ASSERT_EQ(0, reopen_errno(variant->emptypath, path, masks[i], O_PATH))
			TH_LOG("mask %#lx: O_PATH, as O_PATH", masks[i]);
		ASSERT_EQ(0, reopen_errno(variant->emptypath, wa, masks[i], O_WRONLY))
			TH_LOG("mask %#lx: writing, for writing", masks[i]);
		ASSERT_EQ(want, reopen_errno(variant->emptypath, wa, masks[i], O_RDWR))
			TH_LOG("mask %#lx: writing, for reading too", masks[i]);
	}
	/* The truncations were refused: the file still holds its line. */
	ASSERT_EQ(5, lseek(ro, 0, SEEK_END));
	ASSERT_EQ(0, reopen_errno(variant->emptypath, ro, 0, O_RDONLY | O_TRUNC));
	ASSERT_EQ(0, lseek(ro, 0, SEEK_END)) TH_LOG("unrestricted, the reopen truncates");
}

#ifndef NOSEC_KSELFTEST	/* nosec-run starts the tree */
#define NOSEC_RUN	"/nosec/bin/nosec-run"

/*
 * A shell of TEST_UID reads its script from @fd (a pipe's read end or a
 * file) and runs it: first a tree (tree_line()) that tries to add a line
 * to that script, the set-UID probe saying whether it ran with euid 0.
 * 1 if the shell ran the line, 0 if not, -1 if the shell could not be
 * started or was killed.
 */
static int shell_runs_injected(int fd)
{
	pid_t pid;
	int status;

	unlink(ESCAPED);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		setup_user();
		dup2(fd, 0);
		dup2(null, 1);
		dup2(null, 2);
		execl("/bin/sh", "sh", "-s", NULL);
		_exit(127);
	}
	status = wait_status(pid);
	if (status < 0 || status >= 127)
		return -1;
	return access(ESCAPED, F_OK) == 0;
}

/*
 * The script: the tree's line, under nosec-run @opt (NULL: a plain
 * /bin/sh), which appends the line the shell must not run.
 */
static void tree_line(char *buf, size_t size, const char *opt)
{
	snprintf(buf, size,
		 "%s%s%s /bin/sh -c 'echo \"%s --euid 0 && echo x > %s\" >> /proc/self/fd/0'\n",
		 opt ? NOSEC_RUN " " : "", opt ? opt : "", opt ? " --" : "",
		 FIX_PROBE_SUID, ESCAPED);
}

static const char *const tree_opts[] = {
	NULL, "--restrict", "--restrict --force", "--restrict-all",
};

/* --restrict-all is the module's (NOSEC_EXEC_RESTRICT_ALL). */
static bool tree_opt_here(const char *opt)
{
	return !nosec_native || !opt || !strstr(opt, "--restrict-all");
}

TEST_F(escape, shell_fed_by_a_pipe_runs_nothing_of_the_tree)
{
	char line[512];

	ASSERT_EQ(0, chmod(FIX, 0777));
	for (size_t i = 0; i < ARRAY_SIZE(tree_opts); i++) {
		int p[2], r;

		if (!tree_opt_here(tree_opts[i]))
			continue;
		ASSERT_EQ(0, pipe(p));
		/* The pipe of a shell of TEST_UID's: its own to reopen, unrestricted. */
		ASSERT_EQ(0, fchown(p[0], TEST_UID, TEST_GID));
		tree_line(line, sizeof(line), tree_opts[i]);
		ASSERT_EQ((ssize_t)strlen(line), write(p[1], line, strlen(line)));
		close(p[1]);
		r = shell_runs_injected(p[0]);
		close(p[0]);
		ASSERT_EQ(tree_opts[i] ? 0 : 1, r)
			TH_LOG("a shell fed by a pipe, the tree under %s: %s",
			       tree_opts[i] ? tree_opts[i] : "no restriction",
			       r < 0 ? "the shell failed" :
			       r ? "ran the line the tree added" : "ran nothing more");
	}
}

TEST_F(escape, shell_reading_a_heredoc_file_runs_nothing_of_the_tree)
{
	char line[512];

	ASSERT_EQ(0, chmod(FIX, 0777));
	for (size_t i = 0; i < ARRAY_SIZE(tree_opts); i++) {
		int fd, r;

		if (!tree_opt_here(tree_opts[i]))
			continue;
		tree_line(line, sizeof(line), tree_opts[i]);
		ASSERT_EQ(0, write_file(FIX "/heredoc", line, 0600));
		ASSERT_EQ(0, chown(FIX "/heredoc", TEST_UID, TEST_GID));
		fd = open(FIX "/heredoc", O_RDONLY);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, unlink(FIX "/heredoc"));
		r = shell_runs_injected(fd);
		close(fd);
		ASSERT_EQ(tree_opts[i] ? 0 : 1, r)
			TH_LOG("a shell reading an unlinked file, the tree under %s: %s",
			       tree_opts[i] ? tree_opts[i] : "no restriction",
			       r < 0 ? "the shell failed" :
			       r ? "ran the line the tree added" : "ran nothing more");
	}
}
#endif	/* NOSEC_KSELFTEST */

/* ---- the session keyring ---- */

static long keyctl(long cmd, long a2, long a3, long a4, long a5)
{
	return syscall(SYS_keyctl, cmd, a2, a3, a4, a5);
}

static long add_user_key(const char *desc, long keyring)
{
	return syscall(SYS_add_key, "user", desc, "planted", 7, keyring);
}

/* Whether @keyring, searched by the caller, holds the user key @desc. */
static int keyring_has(long keyring, const char *desc)
{
	return keyctl(KEYCTL_SEARCH, keyring, (long)"user", (long)desc, 0) >= 0;
}

/*
 * A child of TEST_UID that shares its session keyring with the process
 * that started it (which joined one), restricted with @mask, adds a key to
 * @keyring.  @tsync: it restricts with PR_RESTRICT_TSYNC and a thread made
 * before adds the key.  Return: bit 0, the parent then finds it in its
 * session keyring; bit 1, in its user session keyring; 100 + n when a
 * step failed.
 */
static long planted_key;

static void *plant_from_thread(void *arg)
{
	int *go = arg;
	char c;

	if (read(go[0], &c, 1) != 1)
		return (void *)-1L;
	return (void *)(long)(add_user_key("nosec:planted", planted_key) < 0 ? errno : 0);
}

static int key_reaches_parent(unsigned long mask, long keyring, int tsync)
{
	pid_t pid = fork();

	if (pid == 0) {
		pid_t child;
		int found = 0;

		setup_user();
		if (keyctl(KEYCTL_JOIN_SESSION_KEYRING, 0, 0, 0, 0) < 0)
			_exit(errno == ENOSYS ? 150 : 101);
		child = fork();
		if (child == 0) {
			long before = keyctl(KEYCTL_GET_KEYRING_ID,
					     KEY_SPEC_SESSION_KEYRING, 0, 0, 0);
			pthread_t t;
			int go[2];
			void *ret;

			planted_key = keyring;
			if (tsync) {
				if (pipe(go) || pthread_create(&t, NULL, plant_from_thread, go))
					_exit(102);
				if (mask && restrict_me(mask, PR_RESTRICT_TSYNC, 0, 0))
					_exit(103);
				if (write(go[1], "g", 1) != 1 || pthread_join(t, &ret) || ret)
					_exit(104);
				_exit(0);
			}
			if (mask && restrict_me(mask, 0, 0, 0))
				_exit(103);
			/* A restriction gives a session keyring of the task's own. */
			if (mask && keyctl(KEYCTL_GET_KEYRING_ID,
					   KEY_SPEC_SESSION_KEYRING, 0, 0, 0) == before)
				_exit(105);
			_exit(add_user_key("nosec:planted", keyring) < 0 ? 106 : 0);
		}
		found = wait_status(child);
		if (found)
			_exit(found >= 100 ? found : 108);
		found |= keyring_has(KEY_SPEC_SESSION_KEYRING, "nosec:planted");
		found |= keyring_has(KEY_SPEC_USER_SESSION_KEYRING, "nosec:planted") << 1;
		keyctl(KEYCTL_CLEAR, KEY_SPEC_USER_SESSION_KEYRING, 0, 0, 0);
		_exit(found);
	}
	return wait_status(pid);
}

/*
 * The tree's key in a session keyring it shares with its parent would be
 * found by the parent's next set-UID program: a restriction gives the
 * task a new, empty session keyring of its own (each thread with
 * PR_RESTRICT_TSYNC), and the parent finds nothing.
 */
TEST_F(escape, session_keyring_not_shared_with_the_parent)
{
	int r = key_reaches_parent(0, KEY_SPEC_SESSION_KEYRING, 0);

	if (r == 150)
		SKIP(return, "%s", "no keyrings in this kernel");
	ASSERT_EQ(1, r) TH_LOG("unrestricted: the parent finds the key (%d)", r);
	for (size_t i = 1; i < ARRAY_SIZE(masks); i++) {
		r = key_reaches_parent(masks[i], KEY_SPEC_SESSION_KEYRING, 0);
		ASSERT_EQ(0, r) TH_LOG("mask %#lx: %d (1: the parent found it)", masks[i], r);
		r = key_reaches_parent(masks[i], KEY_SPEC_SESSION_KEYRING, 1);
		ASSERT_EQ(0, r)
			TH_LOG("mask %#lx, PR_RESTRICT_TSYNC, a thread's key: %d", masks[i], r);
	}
}

/*
 * A session keyring joined by name (keyctl new_session NAME, pam_keyinit
 * with a name) lets its user link it: a restricted child that links the
 * parent's into its own possesses it again, and could add a key there.
 * A restricted task links, joins by name and searches no keyring it does
 * not possess.
 */
static int link_parent_keyring(unsigned long mask)
{
	pid_t pid = fork();

	if (pid == 0) {
		long parent;
		pid_t child;

		setup_user();
		parent = keyctl(KEYCTL_JOIN_SESSION_KEYRING, (long)"nosec-parent", 0, 0, 0);
		if (parent < 0)
			_exit(errno == ENOSYS ? 150 : 101);
		child = fork();
		if (child == 0) {
			/* A keyring of its own to link into (not the parent's itself). */
			if ((mask && restrict_me(mask, 0, 0, 0)) ||
			    keyctl(KEYCTL_JOIN_SESSION_KEYRING, 0, 0, 0, 0) < 0)
				_exit(102);
			if (keyctl(KEYCTL_LINK, parent, KEY_SPEC_SESSION_KEYRING, 0, 0) < 0)
				_exit(errno == EACCES ? 10 : 103);
			if (add_user_key("nosec:planted", parent) < 0)
				_exit(104);
			_exit(0);
		}
		child = wait_status(child);
		if (child && child != 10)
			_exit(child);
		/* 0: the parent's keyring holds the tree's key; 10: refused. */
		_exit(keyring_has(KEY_SPEC_SESSION_KEYRING, "nosec:planted") ? 0 :
		      child == 10 ? 10 : 105);
	}
	return wait_status(pid);
}

TEST_F(escape, named_session_keyring_not_linked_by_the_tree)
{
	int r = link_parent_keyring(0);

	if (r == 150)
		SKIP(return, "%s", "no keyrings in this kernel");
	ASSERT_EQ(0, r) TH_LOG("unrestricted: the child links the parent's keyring (%d)", r);
	for (size_t i = 1; i < ARRAY_SIZE(masks); i++) {
		r = link_parent_keyring(masks[i]);
		ASSERT_EQ(10, r) TH_LOG("mask %#lx: %d (0: the parent's keyring got the key)",
					masks[i], r);
	}
}

/* The uid's own keyrings (@u, @us) stay shared, as its files do. */
TEST_F(escape, user_session_keyring_stays_shared)
{
	int r = key_reaches_parent(PR_RESTRICT_EXEC, KEY_SPEC_USER_SESSION_KEYRING, 0);

	if (r == 150)
		SKIP(return, "%s", "no keyrings in this kernel");
	ASSERT_EQ(2, r) TH_LOG("a restricted tree's key in @us: %d (2: the parent finds it)", r);
}

/* ---- fs_struct and files_struct shared with a task outside ---- */

/*
 * A task of TEST_UID made by clone(@flags) from an unrestricted parent of
 * TEST_UID, after unshare(@unshare) if not 0, calls PR_RESTRICT_ME (with
 * @how).  Return: 0, the errno, or 1xx when a step failed; *blocker: the
 * task named, *parent: the parent's pid.
 */
static int sharer_restrict(unsigned long flags, int unshare_flags, unsigned long how,
			   int *blocker, int *parent)
{
	int *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid = fork();
	int ret;

	if (pid == 0) {
		pid_t child;

		setup_user();
		shared[1] = getpid();
		child = syscall(SYS_clone, flags | SIGCHLD, 0, 0, 0, 0);
		if (child == 0) {
			int tid = 0;

			if (unshare_flags && unshare(unshare_flags))
				_exit(110);
			ret = restrict_me(PR_RESTRICT_EXEC, how, (unsigned long)&tid, 0) ?
			      errno : 0;
			shared[0] = tid;
			if (ret && prctl(PR_GET_RESTRICT, 0, 0, 0, 0) != 0)
				_exit(111);
			_exit(ret);
		}
		_exit(child < 0 ? 112 : wait_status(child));
	}
	ret = wait_status(pid);
	*blocker = shared[0];
	*parent = shared[1];
	munmap(shared, 4096);
	return ret;
}

static void sharer_case(struct __test_metadata *_metadata, unsigned long flags,
			const char *what)
{
	int blocker, parent, e;

	e = sharer_restrict(0, 0, 0, &blocker, &parent);
	ASSERT_EQ(0, e) TH_LOG("a child sharing nothing: %d", e);
	e = sharer_restrict(flags, 0, 0, &blocker, &parent);
	ASSERT_EQ(EBUSY, e) TH_LOG("a child sharing its %s: %d", what, e);
	ASSERT_EQ(parent, blocker) TH_LOG("the task named: %d, the parent %d", blocker, parent);
	e = sharer_restrict(flags, 0, PR_RESTRICT_TSYNC, &blocker, &parent);
	ASSERT_EQ(EBUSY, e) TH_LOG("PR_RESTRICT_TSYNC, sharing its %s: %d", what, e);
	e = sharer_restrict(flags, flags, 0, &blocker, &parent);
	ASSERT_EQ(0, e) TH_LOG("after unshare() of its %s: %d", what, e);
}

/*
 * A restricted task that shares its working directory and root with an
 * unrestricted one moves them under it: the other's next ./prog runs the
 * tree's program, unrestricted.
 */
TEST_F(escape, clone_fs_sharer_refuses_restriction)
{
	sharer_case(_metadata, CLONE_FS, "fs_struct (CLONE_FS)");
}

/* ...and a shared descriptor table lets it dup2() over the other's stdin. */
TEST_F(escape, clone_files_sharer_refuses_restriction)
{
	sharer_case(_metadata, CLONE_FILES, "files_struct (CLONE_FILES)");
}

#ifndef NOSEC_KSELFTEST	/* the module: its ioctl flag */
/*
 * NOSEC_EXEC_RESTRICT_ALL restricts its task by the exec, which gives it
 * a memory and descriptors of its own but keeps its fs_struct: beside a
 * process sharing that, it fails with EBUSY before the program runs.
 */
TEST_F(escape, restrict_all_exec_refused_beside_fs_sharer)
{
	char *const argv[] = { "probe", NULL };
	int e;

	MODULE_ONLY("NOSEC_EXEC_RESTRICT_ALL");
	for (int share = 0; share < 2; share++) {
		pid_t pid = fork();

		if (pid == 0) {
			pid_t child;

			setup_user();
			child = syscall(SYS_clone, (share ? CLONE_FS : 0) | SIGCHLD, 0, 0, 0, 0);
			if (child == 0) {
				int null = open("/dev/null", O_WRONLY);

				dup2(null, 1);
				execveat_nosecurity(AT_FDCWD, FIX_PROBE, argv, environ,
						    NOSEC_EXEC_RESTRICT_ALL);
				_exit(errno);
			}
			_exit(wait_status(child));
		}
		e = wait_status(pid);
		ASSERT_EQ(share ? EBUSY : 0, e)
			TH_LOG("RESTRICT_ALL exec, %s: %d",
			       share ? "CLONE_FS sharer" : "no sharer", e);
	}
}
#endif	/* NOSEC_KSELFTEST */

/*
 * A thread that takes an fs_struct or files_struct of its own
 * (unshare(@arg >> 1)) and, with @arg & 1, makes a process that shares
 * it (clone()), which waits to be killed; then it says so on
 * thread_sharer_ready and waits too: it must be there, holding what it
 * shares, when its group is restricted.
 */
static pid_t thread_sharer_pid;
static int thread_sharer_ready[2];

static void *unshare_and_share(void *arg)
{
	unsigned long flags = (unsigned long)arg >> 1;
	pid_t child;

	if (unshare(flags))
		return NULL;
	if ((unsigned long)arg & 1) {
		child = syscall(SYS_clone, flags | SIGCHLD, 0, 0, 0, 0);
		if (child == 0) {
			pause();
			_exit(0);
		}
		thread_sharer_pid = child > 0 ? child : 0;
	}
	if (write(thread_sharer_ready[1], "r", 1) == 1)
		for (;;)
			pause();
	return NULL;
}

/*
 * PR_RESTRICT_TSYNC from a process of TEST_UID whose other thread has an
 * fs_struct or files_struct of its own (unshare(@flags)) and, with
 * @share, a process it made with clone(@flags) that shares it.  Return:
 * 0, the errno, or 1xx when a step failed; *blocker: the task named,
 * *sharer: that process.
 */
static int thread_sharer_restrict(unsigned long flags, int share, int *blocker,
				  int *sharer)
{
	int *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid = fork();
	int ret;

	if (pid == 0) {
		pthread_t t;
		int tid = 0;
		char c;

		setup_user();
		shared[1] = 0;
		if (pipe(thread_sharer_ready) ||
		    pthread_create(&t, NULL, unshare_and_share,
				   (void *)(long)((share ? 1 : 0) | (flags << 1))) ||
		    read(thread_sharer_ready[0], &c, 1) != 1)
			_exit(120);
		if (share && !thread_sharer_pid)
			_exit(121);
		shared[1] = thread_sharer_pid;
		ret = restrict_me(PR_RESTRICT_EXEC, PR_RESTRICT_TSYNC, (unsigned long)&tid, 0) ?
		      errno : 0;
		shared[0] = tid;
		if (thread_sharer_pid)
			kill(thread_sharer_pid, SIGKILL);
		_exit(ret);
	}
	ret = wait_status(pid);
	*blocker = shared[0];
	*sharer = shared[1];
	munmap(shared, 4096);
	return ret;
}

/*
 * With PR_RESTRICT_TSYNC every thread is restricted, and what each holds
 * must not be shared outside: a thread that unshared its fs_struct or
 * files_struct and gave it to a process of its own making keeps the
 * group from being restricted (EBUSY, that process named).
 */
TEST_F(escape, tsync_refused_beside_a_thread_s_own_sharer)
{
	static const unsigned long flags[] = { CLONE_FS, CLONE_FILES };
	int blocker, sharer, e;

	for (size_t i = 0; i < ARRAY_SIZE(flags); i++) {
		const char *what = flags[i] == CLONE_FS ? "fs_struct" : "files_struct";

		e = thread_sharer_restrict(flags[i], 0, &blocker, &sharer);
		ASSERT_EQ(0, e) TH_LOG("a thread with its own %s, shared with no one: %d", what, e);
		e = thread_sharer_restrict(flags[i], 1, &blocker, &sharer);
		ASSERT_EQ(EBUSY, e) TH_LOG("a thread's own %s shared with a process: %d", what, e);
		ASSERT_EQ(sharer, blocker)
			TH_LOG("the task named: %d, the sharer %d", blocker, sharer);
	}
}

/* What a restricted task makes with CLONE_FS or CLONE_FILES is restricted. */
TEST_F(escape, clone_fs_files_child_of_restricted_inherits)
{
	pid_t pid = fork();

	if (pid == 0) {
		pid_t child;

		setup_user();
		if (restrict_me(PR_RESTRICT_EXEC, 0, 0, 0))
			_exit(100);
		child = syscall(SYS_clone, CLONE_FS | CLONE_FILES | SIGCHLD, 0, 0, 0, 0);
		if (child == 0)
			_exit(prctl(PR_GET_RESTRICT, 0, 0, 0, 0) == PR_RESTRICT_EXEC ? 0 : 101);
		_exit(wait_status(child));
	}
	ASSERT_EQ(0, wait_status(pid));
}

/* ---- an exec in flight when PR_RESTRICT_TSYNC restricts its thread ---- */

#define STALL_DIR	"/tmp/stall"

#ifndef NOSEC_KSELFTEST
#define NO_FUSE		"no FUSE (/dev/fuse or fuse.ko)"
#else
#define NO_FUSE		"no FUSE in this kernel (CONFIG_FUSE_FS)"
#endif

/*
 * The FUSE server whose reads wait (FUSE_STALL_READ), mounted on
 * STALL_DIR/mnt.  Return: its pid, -1 without FUSE, -2 when the mount
 * point could not be made.
 */
#ifndef NOSEC_KSELFTEST
/* fuse.ko is loaded first where it is a module. */
#endif
static pid_t stall_server_start(int *ready, int *release)
{
#ifndef NOSEC_KSELFTEST
	int fd = open("/nosec/kmod/fuse.ko", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		syscall(SYS_finit_module, fd, "", 0);	/* EEXIST is fine */
		close(fd);
	}
#endif
	if ((mkdir(STALL_DIR, 0755) && errno != EEXIST) ||
	    (mkdir(STALL_DIR "/mnt", 0755) && errno != EEXIST))
		return -2;
	return fuse_server_start(STALL_DIR "/mnt", FUSE_STALL_READ, ready, release);
}

/*
 * The stall server's file mapped, not yet read: the first access waits
 * for a read the server holds.  MAP_FAILED when it cannot be.
 */
static void *stall_page(void)
{
	int fd = open(STALL_DIR "/mnt/interp", O_RDONLY);

	return fd < 0 ? MAP_FAILED : mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
}

struct inflight {
	int ready;		/* a byte for each read the server holds */
	int report;		/* the threads' reports to the test */
};

static void *exec_held_by_fuse(void *arg)
{
	char *const argv[] = { "interp", NULL };

	(void)arg;
	execve(STALL_DIR "/mnt/interp", argv, environ);
	return NULL;
}

static int exec_report;

static void *exec_setuid_probe(void *arg)
{
	char *const argv[] = { "probe-suid", "--euid", "0", NULL };
	char msg[16];

	(void)arg;
	execve(FIX_PROBE_SUID, argv, environ);
	snprintf(msg, sizeof(msg), "e%d\n", errno);
	if (write(exec_report, msg, strlen(msg)) < 0)
		return NULL;
	return NULL;
}

/* Whether thread @tid of this process waits for cred_guard_mutex (its wchan). */
static int waits_in_mutex(pid_t tid)
{
	char buf[128];

	read_thread_file(tid, "wchan", buf, sizeof(buf));
	/* The mutex's own functions are skipped, as the scheduler's. */
	return strstr(buf, "mutex") || strstr(buf, "bprm_execve") ||
	       strstr(buf, "prepare_bprm_creds");
}

static atomic_int probe_tid;

/* Made before C's exec starts: no thread is made while one runs (EAGAIN). */
static void *exec_setuid_probe_on_cue(void *arg)
{
	int *cue = arg;
	char c;

	atomic_store(&probe_tid, gettid());
	if (read(cue[0], &c, 1) != 1)
		return NULL;
	return exec_setuid_probe(NULL);
}

/*
 * One round, in a child of TEST_UID: thread C's exec of the FUSE file
 * holds the process's cred_guard_mutex (the server holds its read);
 * thread A's plain exec of the set-UID probe, past every check at the
 * exec's entry, waits for the mutex; then the main thread restricts
 * every thread (PR_RESTRICT_TSYNC) and reports when the prctl returns.
 * The test releases C's read.  Return the child's wait status; @log gets
 * what the threads reported.
 */
static int inflight_round(struct inflight *f, int release, char *log, size_t size)
{
	int rep[2], status, n, len = 0;
	pid_t pid;
	char c;

	if (pipe(rep))
		return -1;
	pid = fork();
	if (pid == 0) {
		pthread_t hold, probe;
		int i, cue[2];

		close(rep[0]);
		exec_report = rep[1];
		setup_user();
		atomic_store(&probe_tid, 0);
		if (pipe(cue) || pthread_create(&probe, NULL, exec_setuid_probe_on_cue, cue))
			_exit(122);
		if (pthread_create(&hold, NULL, exec_held_by_fuse, NULL))
			_exit(120);
		if (read(f->ready, &c, 1) != 1)
			_exit(121);
		if (write(rep[1], "h\n", 2) != 2 || write(cue[1], "g", 1) != 1)
			_exit(124);
		for (i = 0; i < 400; i++) {
			if (atomic_load(&probe_tid) && waits_in_mutex(atomic_load(&probe_tid)))
				break;
			usleep(5000);
		}
		if (write(rep[1], "w\n", 2) != 2)
			_exit(123);
		n = restrict_me(PR_RESTRICT_EXEC, PR_RESTRICT_TSYNC, 0, 0) ? errno : 0;
		dprintf(rep[1], "p%d\n", n);
		pthread_join(probe, NULL);
		_exit(60);
	}
	close(rep[1]);
	/* C holds the mutex ("h"), A waits ("w"): the prctl is under way. */
	for (n = 0; n < 4; n += len) {
		struct pollfd p = { .fd = rep[0], .events = POLLIN };

		if (poll(&p, 1, 20000) != 1)
			break;
		len = read(rep[0], log + n, 4 - n);
		if (len <= 0)
			break;
	}
	log[n] = 0;
	if (n < 4) {
		/* A step did not come: fail the round, with what came. */
		kill(pid, SIGKILL);
		write(release, "x", 1);
		waitpid(pid, &status, 0);
		write(release, "h", 1);
		return -2;
	}
	/* Give the prctl time to decide, then fail C's read. */
	usleep(100000);
	if (write(release, "x", 1) != 1)
		return -1;
	len = n;
	while (len < (int)size - 1 && (n = read(rep[0], log + len, size - 1 - len)) > 0)
		len += n;
	log[len] = 0;
	close(rep[0]);
	if (waitpid(pid, &status, 0) != pid || write(release, "h", 1) != 1)
		return -1;
	/* Bytes for reads the kernel retried: the next round waits for its own. */
	while (poll(&(struct pollfd){ .fd = f->ready, .events = POLLIN }, 1, 50) == 1)
		if (read(f->ready, &c, 1) != 1)
			break;
	return status;
}

/*
 * Every round must end one of two ways: the prctl returned 0 and the
 * exec then failed with EPERM, or the exec ran (its program replaced the
 * process) and the prctl never returned.  Never the set-UID program run
 * after the prctl returned, never the exec killed.
 */
TEST_F_TIMEOUT(escape, tsync_refuses_exec_waiting_for_cred_guard_mutex, 600)
{
	long rounds = env_long("NOSEC_INFLIGHT_ROUNDS", 200), refused = 0, ran = 0;
#ifndef NOSEC_KSELFTEST
	long killed_before = stat_value("killed_execs");
#endif
	struct inflight f;
	int release;
	pid_t server = stall_server_start(&f.ready, &release);

	if (server == -2)
		ASSERT_TRUE(0) TH_LOG("mkdir %s: %d", STALL_DIR "/mnt", errno);
	if (server < 0)
		SKIP(return, "%s", NO_FUSE);
	for (long i = 0; i < rounds; i++) {
		char log[256];
		int status = inflight_round(&f, release, log, sizeof(log));
		int returned = !!strstr(log, "p0\n");

		ASSERT_NE(-1, status);
		ASSERT_NE(-2, status) TH_LOG("round %ld: the exec was not held (%s)", i, log);
		ASSERT_FALSE(WIFSIGNALED(status))
			TH_LOG("round %ld: killed by signal %d (%s)", i,
			       WIFSIGNALED(status) ? WTERMSIG(status) : 0, log);
		if (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 3) {
			/* The probe ran: the prctl must not have returned. */
			ASSERT_FALSE(returned)
				TH_LOG("round %ld: the set-UID program ran (euid 0: %d) %s (%s)",
				       i, WEXITSTATUS(status) == 0,
				       "after PR_RESTRICT_TSYNC returned 0", log);
			ran++;
			continue;
		}
		ASSERT_EQ(60, WEXITSTATUS(status)) TH_LOG("round %ld: status %d (%s)", i,
							  WEXITSTATUS(status), log);
		ASSERT_TRUE(returned && strstr(log, "e1\n")) TH_LOG("round %ld: %s", i, log);
		refused++;
	}
	kill(server, SIGKILL);
	wait_status(server);
	umount2(STALL_DIR "/mnt", MNT_DETACH);
	TH_LOG("%ld rounds: %ld exec refused after the prctl, %ld ran before it returned",
	       rounds, refused, ran);
#ifndef NOSEC_KSELFTEST
	ASSERT_TRUE(nosec_native || stat_value("killed_execs") == killed_before)
		TH_LOG("killed_execs %ld, was %ld", stat_value("killed_execs"), killed_before);
#endif
}

/*
 * The exec in flight before it takes cred_guard_mutex: its environment
 * is still being copied, from a page whose read FUSE holds, when another
 * thread's PR_RESTRICT_TSYNC returns.  Then the exec must fail (EPERM),
 * decided again under the mutex, not run the set-UID program.
 */
static void *exec_probe_env_held_by_fuse(void *page)
{
	char *const argv[] = { "probe-suid", "--euid", "0", NULL };
	char *const envp[] = { page, NULL };
	char msg[16];

	execve(FIX_PROBE_SUID, argv, envp);
	snprintf(msg, sizeof(msg), "e%d\n", errno);
	if (write(exec_report, msg, strlen(msg)) < 0)
		return NULL;
	return NULL;
}

/*
 * One round, in a process of TEST_UID, with @restricted or not.  Return:
 * its wait status (the probe's exit, or 60 after the exec failed), with
 * what its threads reported in @log ("p0": the prctl returned 0, "eN":
 * the exec failed with N); -1 when a step failed.
 */
static int exec_before_mutex_round(int restricted, int ready, int release,
				   char *log, size_t size)
{
	int rep[2], status;
	ssize_t n, len = 0;
	pid_t pid;

	if (pipe(rep))
		return -1;
	pid = fork();
	if (pid == 0) {
		void *page = stall_page();
		pthread_t t;
		char c;

		close(rep[0]);
		exec_report = rep[1];
		setup_user();
		if (page == MAP_FAILED ||
		    pthread_create(&t, NULL, exec_probe_env_held_by_fuse, page))
			_exit(120);
		/* The exec's copy of its environment waits for the read. */
		if (read(ready, &c, 1) != 1)
			_exit(121);
		if (restricted)
			dprintf(rep[1], "p%d\n",
				restrict_me(PR_RESTRICT_EXEC, PR_RESTRICT_TSYNC, 0, 0) ?
				errno : 0);
		if (write(release, "r", 1) != 1)
			_exit(122);
		pthread_join(t, NULL);
		_exit(60);
	}
	close(rep[1]);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	while (len < (ssize_t)size - 1 && (n = read(rep[0], log + len, size - 1 - len)) > 0)
		len += n;
	log[len] = 0;
	close(rep[0]);
	return status;
}

TEST_F(escape, tsync_refuses_exec_still_copying_its_environment)
{
	int ready, release, status;
	pid_t server = stall_server_start(&ready, &release);
	char log[64];

	if (server == -2)
		ASSERT_TRUE(0) TH_LOG("mkdir %s: %d", STALL_DIR "/mnt", errno);
	if (server < 0)
		SKIP(return, "%s", NO_FUSE);
	/* Unrestricted, the exec runs the set-UID probe, which sees euid 0. */
	status = exec_before_mutex_round(0, ready, release, log, sizeof(log));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("unrestricted: status %#x (%s)", status, log);
	ASSERT_EQ(1, write(release, "h", 1));
	status = exec_before_mutex_round(1, ready, release, log, sizeof(log));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 60)
		TH_LOG("restricted meanwhile: status %#x (%s)", status, log);
	EXPECT_TRUE(!!strstr(log, "p0\n") && !!strstr(log, "e1\n"))
		TH_LOG("restricted meanwhile, the threads said: %s", log);
	kill(server, SIGKILL);
	wait_status(server);
	umount2(STALL_DIR "/mnt", MNT_DETACH);
}

/* ---- a key added in flight when PR_RESTRICT_TSYNC restricts its thread ---- */

/* The payload of the key, on a page whose read the FUSE server holds. */
static void *add_key_held_by_fuse(void *payload)
{
	long r = syscall(SYS_add_key, "user", "nosec:inflight", payload, 16,
			 KEY_SPEC_SESSION_KEYRING);

	return (void *)(long)(r < 0 ? errno : 0);
}

/*
 * A process of TEST_UID with a session keyring of its own starts a child
 * that shares it; a thread of the child calls add_key() into the session
 * keyring with a payload whose page FUSE holds, and meanwhile (with
 * @restricted) the child's other thread restricts both with
 * PR_RESTRICT_TSYNC; then the read is answered.  Return: 0 or 1, whether
 * the parent finds the key in its session keyring, + 2 when the add_key()
 * failed; 100 + n when a step failed.
 */
static int inflight_key_reaches_parent(int restricted, int ready, int release)
{
	pid_t pid = fork();

	if (pid == 0) {
		pid_t child;
		int found;

		setup_user();
		if (keyctl(KEYCTL_JOIN_SESSION_KEYRING, 0, 0, 0, 0) < 0)
			_exit(101);
		child = fork();
		if (child == 0) {
			void *page = stall_page();
			pthread_t t;
			void *ret;
			char c;

			if (page == MAP_FAILED)
				_exit(102);
			if (pthread_create(&t, NULL, add_key_held_by_fuse, page))
				_exit(103);
			/* The thread's copy of the payload waits for the read. */
			if (read(ready, &c, 1) != 1)
				_exit(104);
			if (restricted && restrict_me(PR_RESTRICT_EXEC, PR_RESTRICT_TSYNC, 0, 0))
				_exit(105);
			if (write(release, "r", 1) != 1 || pthread_join(t, &ret))
				_exit(106);
			_exit(ret ? 2 : 0);
		}
		found = wait_status(child);
		if (found != 0 && found != 2)
			_exit(found < 100 ? 107 : found);
		found += keyring_has(KEY_SPEC_SESSION_KEYRING, "nosec:inflight");
		_exit(found);
	}
	return wait_status(pid);
}

/*
 * The key must not land in the keyring the tree shared with its parent:
 * the add_key() fails (the kernel refuses keys to a thread whose new
 * session keyring is not installed yet), or would reach the new one.
 * Unrestricted, the same race puts it in the parent's.
 */
TEST_F(escape, tsync_add_key_in_flight_stays_out_of_parent_keyring)
{
	int ready, release, r;
	pid_t server = stall_server_start(&ready, &release);

	if (server == -2)
		ASSERT_TRUE(0) TH_LOG("mkdir %s: %d", STALL_DIR "/mnt", errno);
	if (server < 0)
		SKIP(return, "%s", NO_FUSE);
	r = inflight_key_reaches_parent(0, ready, release);
	EXPECT_EQ(1, r) TH_LOG("unrestricted, the key added in flight: %d", r);
	/* A new mapping of the file reads it again: hold reads again. */
	ASSERT_EQ(1, write(release, "h", 1));
	r = inflight_key_reaches_parent(1, ready, release);
	EXPECT_TRUE(r == 0 || r == 2)
		TH_LOG("restricted by TSYNC while adding it: %d (1, 3: in the parent's)", r);
	kill(server, SIGKILL);
	wait_status(server);
	umount2(STALL_DIR "/mnt", MNT_DETACH);
}

TEST_HARNESS_MAIN
