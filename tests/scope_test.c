// SPDX-License-Identifier: GPL-2.0
/*
 * The scope of a restricted task: ptrace access of any mode
 * only to tasks restricted at least as much, no PTRACE_TRACEME to a more
 * restricted parent, no TIOCSTI or TIOCLINUX, no new resource limits on
 * a task restricted less.  Each route is tried three ways in one
 * run, all as TEST_UID: from inside a restricted tree to an unrestricted
 * task (denied), from inside to the tree's own child (allowed, which also
 * shows the route works here), and from outside into a restricted task
 * (allowed, as without a restriction).  Yama's ptrace_scope is 0 for these
 * cases, as Debian ships it.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include <linux/kcmp.h>
#include <linux/keyctl.h>
#include <linux/tiocl.h>

#include "nosec.h"
#include "fixtures.h"
#include "common.h"
#include "../kselftest_harness.h"
#include "ksft_nosec.h"

NOSEC_FIXTURE(scope);

/* Written by the routes that write another task's memory. */
static volatile long scope_scratch = 1;

/* ---- the routes: each returns 0 when it reached @t, else errno ---- */

static int reach_attach(pid_t t)
{
	int status;

	if (ptrace(PTRACE_ATTACH, t, 0, 0))
		return errno;
	waitpid(t, &status, 0);
	ptrace(PTRACE_DETACH, t, 0, 0);
	return 0;
}

static int reach_seize(pid_t t)
{
	/* The tracer's exit detaches. */
	return ptrace(PTRACE_SEIZE, t, 0, 0) ? errno : 0;
}

static int reach_open(pid_t t, const char *file, int flags)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", t, file);
	fd = open(path, flags);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static int reach_proc_mem(pid_t t)
{
	return reach_open(t, "mem", O_RDWR);
}

static int reach_environ(pid_t t)
{
	return reach_open(t, "environ", O_RDONLY);
}

static int reach_vm(pid_t t, int write)
{
	long val = 2;
	struct iovec local = { &val, sizeof(val) };
	struct iovec remote = { (void *)&scope_scratch, sizeof(val) };
	ssize_t n;

	n = write ? process_vm_writev(t, &local, 1, &remote, 1, 0) :
		    process_vm_readv(t, &local, 1, &remote, 1, 0);
	return n == sizeof(val) ? 0 : errno;
}

static int reach_vm_write(pid_t t)
{
	return reach_vm(t, 1);
}

static int reach_vm_read(pid_t t)
{
	return reach_vm(t, 0);
}

static int reach_pidfd_getfd(pid_t t)
{
	int pidfd = syscall(SYS_pidfd_open, t, 0), fd;

	if (pidfd < 0)
		return errno;
	fd = syscall(SYS_pidfd_getfd, pidfd, 0, 0);
	if (fd < 0)
		return errno;
	close(fd);
	close(pidfd);
	return 0;
}

/* Lower the soft limit on open files of @t (the sleepers never open any). */
static int reach_prlimit(pid_t t)
{
	struct rlimit lim;

	if (prlimit(t, RLIMIT_NOFILE, NULL, &lim))
		return 100 + errno;
	lim.rlim_cur = 64;
	return prlimit(t, RLIMIT_NOFILE, &lim, NULL) ? errno : 0;
}

static int read_prlimit(pid_t t)
{
	struct rlimit lim;

	return prlimit(t, RLIMIT_NOFILE, NULL, &lim) ? errno : 0;
}

static int reach_kcmp(pid_t t)
{
	return syscall(SYS_kcmp, getpid(), t, KCMP_VM, 0, 0) < 0 ? errno : 0;
}

/* ---- running a route from inside and outside ---- */

/*
 * From a task of TEST_UID, restricted with @mask (0: not restricted),
 * try @reach on @target, or on a child of its own when @target is 0.
 * Return: 0 reached, else the errno (or 200+ when the setup failed).
 */
static int reach_from(unsigned long mask, int (*reach)(pid_t), pid_t target)
{
	pid_t pid = fork();

	if (pid == 0) {
		pid_t t = target;
		int e;

		setup_user();
		if (mask && restrict_me(mask, 0, 0, 0))
			_exit(200);
		if (!t) {
			t = fork();
			if (t == 0)
				for (;;)
					pause();
		}
		usleep(20000);
		e = reach(t);
		if (!target)
			kill(t, SIGKILL);
		_exit(e);
	}
	return wait_status(pid);
}

/* The three directions of one route; @denied is the errno the kernel gives. */
static int route(int (*reach)(pid_t), int denied)
{
	pid_t outside = spawn_sleeper(0), inside = spawn_sleeper(1);
#ifndef NOSEC_KSELFTEST
	long before = stat_value("scope_denied");
#endif
	int out, own, in, ret = FAIL;

	yama_permissive();
	out = reach_from(PR_RESTRICT_EXEC, reach, outside);
	own = reach_from(PR_RESTRICT_EXEC, reach, 0);
	in = reach_from(0, reach, inside);
	yama_restore();
	kill(outside, SIGKILL);
	kill(inside, SIGKILL);
	wait_status(outside);
	wait_status(inside);
	if (out != denied)
		printf("# inside -> outside: %d, want %d (%s)\n", out, denied, strerror(denied));
	else if (own != 0)
		printf("# inside -> its own child: %d, want 0\n", own);
	else if (in != 0)
		printf("# outside -> inside: %d, want 0\n", in);
#ifndef NOSEC_KSELFTEST
	else if (!nosec_native && stat_value("scope_denied") <= before)
		/* the module's stats; natively there are none */
		printf("# scope_denied did not count the denial\n");
#endif
	else
		ret = PASS;
	return ret;
}

static bool have_process_vm(void)
{
	long val;
	struct iovec iov = { &val, sizeof(val) };

	return process_vm_readv(getpid(), &iov, 1, &iov, 1, 0) >= 0 ||
	       errno != ENOSYS;
}

static bool have_kcmp(void)
{
	return syscall(SYS_kcmp, getpid(), getpid(), KCMP_VM, 0, 0) >= 0 ||
	       errno != ENOSYS;
}

NOSEC_FIXTURE(route);

FIXTURE_VARIANT(route) {
	int (*reach)(pid_t target);
	int denied;	/* the errno the kernel gives */
	bool (*available)(void);	/* NULL: every kernel has it */
	const char *missing;	/* else the reason to skip */
};

FIXTURE_VARIANT_ADD(route, scope_ptrace_attach) {
	.reach = reach_attach,
	.denied = EPERM,
};

FIXTURE_VARIANT_ADD(route, scope_ptrace_seize) {
	.reach = reach_seize,
	.denied = EPERM,
};

FIXTURE_VARIANT_ADD(route, scope_proc_pid_mem) {
	.reach = reach_proc_mem,
	.denied = EACCES,
};

FIXTURE_VARIANT_ADD(route, scope_proc_pid_environ) {
	.reach = reach_environ,
	.denied = EACCES,
};

FIXTURE_VARIANT_ADD(route, scope_process_vm_writev) {
	.reach = reach_vm_write,
	.denied = EPERM,
	.available = have_process_vm,
	.missing = "kernel without process_vm_* (CONFIG_CROSS_MEMORY_ATTACH)",
};

FIXTURE_VARIANT_ADD(route, scope_process_vm_readv) {
	.reach = reach_vm_read,
	.denied = EPERM,
	.available = have_process_vm,
	.missing = "kernel without process_vm_* (CONFIG_CROSS_MEMORY_ATTACH)",
};

FIXTURE_VARIANT_ADD(route, scope_pidfd_getfd) {
	.reach = reach_pidfd_getfd,
	.denied = EPERM,
};

FIXTURE_VARIANT_ADD(route, scope_kcmp) {
	.reach = reach_kcmp,
	.denied = EPERM,
	.available = have_kcmp,
	.missing = "kernel without kcmp (CONFIG_KCMP)",
};

/*
 * One route from a task to another: refused from a restricted task to one
 * outside its tree, allowed to its own child and from outside in.
 */
TEST_F(route, refused_inside_out_only)
{
	if (variant->available && !variant->available())
		SKIP(return, "%s", variant->missing);
	ASSERT_PASS(route(variant->reach, variant->denied));
}

/*
 * New limits survive exec: an unrestricted shell's next set-UID program
 * would start with them.  Reading another task's limits stays allowed.
 */
TEST_F(scope, scope_prlimit)
{
	pid_t outside;
	int e;

	ASSERT_PASS(route(reach_prlimit, EPERM));
	outside = spawn_sleeper(0);
	e = reach_from(PR_RESTRICT_EXEC, read_prlimit, outside);
	kill(outside, SIGKILL);
	wait_status(outside);
	ASSERT_EQ(0, e) TH_LOG("restricted task reading an outside task's limits: %d", e);
}

/*
 * The whole escape: a forced task attaches to its unrestricted
 * parent, points it at execve("probe-suid") and detaches; the parent
 * would run the set-UID program with euid 0.  The same steps from an
 * unrestricted child show that the escape is real here.
 */
extern char scope_syscall_insn[];
#if defined(__x86_64__)
asm(".pushsection .text\n"
	".globl scope_syscall_insn\n"
	"scope_syscall_insn:\n"
	"	syscall\n"
	"	ud2\n"
	".popsection\n");
#elif defined(__aarch64__)
asm(".pushsection .text\n"
	".globl scope_syscall_insn\n"
	"scope_syscall_insn:\n"
	"	svc #0\n"
	"	udf #0\n"
	".popsection\n");
#endif

static char escape_path[] = FIX_PROBE_SUID;
static char *escape_argv[] = { escape_path, NULL };

#if defined(__x86_64__)
/* Point the stopped @pid at execve(escape_path): 0, 201 or 202. */
static int aim_at_execve(pid_t pid)
{
	struct user_regs_struct regs;

	if (ptrace(PTRACE_GETREGS, pid, 0, &regs))
		return 201;
	regs.rip = (uintptr_t)scope_syscall_insn;
	regs.rax = SYS_execve;
	regs.orig_rax = -1;	/* no syscall restart on the way out */
	regs.rdi = (uintptr_t)escape_path;
	regs.rsi = (uintptr_t)escape_argv;
	regs.rdx = 0;
	return ptrace(PTRACE_SETREGS, pid, 0, &regs) ? 202 : 0;
}
#elif defined(__aarch64__)
static int aim_at_execve(pid_t pid)
{
	struct user_regs_struct regs;
	struct iovec iov = { &regs, sizeof(regs) };

	if (ptrace(PTRACE_GETREGSET, pid, NT_PRSTATUS, &iov))
		return 201;
	/* A pc of our own: the kernel restarts no interrupted call then. */
	regs.pc = (uintptr_t)scope_syscall_insn;
	regs.regs[8] = SYS_execve;
	regs.regs[0] = (uintptr_t)escape_path;
	regs.regs[1] = (uintptr_t)escape_argv;
	regs.regs[2] = 0;
	return ptrace(PTRACE_SETREGSET, pid, NT_PRSTATUS, &iov) ? 202 : 0;
}
#else
static int aim_at_execve(pid_t pid)
{
	(void)pid;
	(void)escape_argv;
	return 201;	/* never called: its case skips */
}
#endif

/* In the child: make @parent exec escape_path.  0 or errno. */
static int hijack(pid_t parent)
{
	int status, ret;

	if (ptrace(PTRACE_ATTACH, parent, 0, 0))
		return errno;
	if (waitpid(parent, &status, 0) != parent)
		return 201;
	ret = aim_at_execve(parent);
	if (ret)
		return ret;
	if (ptrace(PTRACE_DETACH, parent, 0, 0))
		return 202;
	return 0;
}

/* The victim: a TEST_UID "shell" whose child tries the escape. */
static void victim(void *arg)
{
	int forced = *(int *)arg, pfd[2];
	char c;
	pid_t child;

	setup_user();
	if (pipe(pfd))
		_exit(97);
	child = fork();
	if (child == 0) {
		close(pfd[0]);
		if (forced && (nosec_restrict_exec() || nosec_set_force(1)))
			_exit(200);
		printf("hijack=%d\n", hijack(getppid()));
		fflush(stdout);
		_exit(0);	/* closes pfd[1]: the victim's read ends */
	}
	close(pfd[1]);
	/* Blocked here, as a shell waits; the escape would exec from here. */
	while (read(pfd[0], &c, 1) < 0 && errno == EINTR)
		;
	waitpid(child, NULL, 0);
	printf("victim_untouched=1\n");
}

TEST_F(scope, scope_forced_tree_cannot_hijack_parent)
{
	int forced = 0;
	struct run r;

	ARCH_TEST_START("the hijack's registers");
	yama_permissive();
	capture(victim, &forced, &r);
	if (getl(&r, "hijack") != 0 || id_field(&r, "uids", 1) != 0) {
		yama_restore();
		ASSERT_TRUE(0)
			TH_LOG("control: the unrestricted hijack did not work here: %s", r.out);
	}
	forced = 1;
	capture(victim, &forced, &r);
	yama_restore();
	ASSERT_EQ(EPERM, getl(&r, "hijack")) TH_LOG("forced child's attach: %s", r.out);
	ASSERT_TRUE(getl(&r, "victim_untouched") == 1 && !strstr(r.out, "uids="))
		TH_LOG("the parent ran something: %s", r.out);
}

/* PTRACE_TRACEME: the tracer is the parent, which must be no more restricted. */
static int traceme_errno(int parent_restricted)
{
	pid_t pid = fork();

	if (pid == 0) {
		int pfd[2], status;
		char c;
		pid_t child;

		setup_user();
		if (pipe(pfd))
			_exit(201);
		child = fork();
		if (child == 0) {
			close(pfd[1]);
			if (read(pfd[0], &c, 1) != 1)
				_exit(202);
			_exit(ptrace(PTRACE_TRACEME, 0, 0, 0) ? errno : 0);
		}
		close(pfd[0]);
		/* The child predates the restriction: it is not restricted. */
		if (parent_restricted && nosec_restrict_exec())
			_exit(203);
		if (write(pfd[1], "x", 1) != 1)
			_exit(204);
		if (waitpid(child, &status, 0) != child)
			_exit(205);
		_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 206);
	}
	return wait_status(pid);
}

TEST_F(scope, scope_traceme_to_restricted_parent)
{
	int e;

	yama_permissive();
	e = traceme_errno(0);
	ASSERT_EQ(0, e) TH_LOG("TRACEME to an unrestricted parent: %d", e);
	e = traceme_errno(1);
	yama_restore();
	ASSERT_EQ(EPERM, e) TH_LOG("TRACEME to a restricted parent from outside: %d", e);
}

/*
 * Same restriction, another tree: allowed (the design: no Landlock-style
 * domains).  Less restricted: denied.
 */
TEST_F(scope, scope_sibling_trees)
{
	pid_t sibling = spawn_sleeper(1);
	int same, more;

	yama_permissive();
	same = reach_from(PR_RESTRICT_EXEC, reach_proc_mem, sibling);
	more = reach_from(PR_RESTRICT_EXEC | PR_RESTRICT_EXEC_NOSECURITY,
			  reach_proc_mem, sibling);
	yama_restore();
	kill(sibling, SIGKILL);
	wait_status(sibling);
	ASSERT_EQ(0, same) TH_LOG("a sibling tree with the same restriction: %d", same);
	ASSERT_EQ(EACCES, more)
		TH_LOG("a more restricted tree reaching a less restricted one: %d", more);
}

/* ---- TIOCSTI: typing into the terminal of the shell outside ---- */

/*
 * ioctl(@cmd, @arg) from TEST_UID, restricted or not, on @console as its
 * controlling terminal (a new session's, taken from any other).
 * Return: 0, the ioctl's errno, or 202/203 when the setup failed.
 */
static int ctty_ioctl_errno(const char *console, unsigned long cmd, void *arg,
			    int restricted)
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd;

		setsid();
		fd = open(console, O_RDWR | O_NOCTTY);
		if (fd < 0 || ioctl(fd, TIOCSCTTY, 1))
			_exit(202);
		setup_user();
		if (restricted && nosec_restrict_exec())
			_exit(203);
		_exit(ioctl(fd, cmd, arg) < 0 ? errno : 0);
	}
	return wait_status(pid);
}

/*
 * A new pseudo-terminal's slave side, in raw mode (a read returns what
 * is queued, or nothing, at once), or -1.  The master stays open.
 */
static int open_raw_pty_slave(void)
{
	int master = posix_openpt(O_RDWR | O_NOCTTY), fd;
	struct termios tio;

	if (master < 0 || grantpt(master) || unlockpt(master))
		return -1;
	fd = open(ptsname(master), O_RDWR | O_NOCTTY);
	if (fd < 0 || tcgetattr(fd, &tio))
		return -1;
	cfmakeraw(&tio);
	tio.c_cc[VMIN] = 0;
	tio.c_cc[VTIME] = 0;
	return tcsetattr(fd, TCSANOW, &tio) ? -1 : fd;
}

/*
 * TIOCSTI of one byte from TEST_UID, restricted or not, on a new
 * pseudo-terminal its new session takes as controlling terminal; then a
 * read of that terminal's input says whether the byte arrived.
 * Return: 0 when the ioctl succeeded and the byte arrived; the ioctl's
 * errno when it failed and nothing arrived; 201 when it succeeded and
 * nothing arrived, 204 when it failed and something did; 202/203 when
 * the setup failed.
 */
static int tiocsti_errno(int restricted)
{
	pid_t pid = fork();

	if (pid == 0) {
		char c = 'x', got = 0;
		int fd, e;
		ssize_t n;

		setsid();
		fd = open_raw_pty_slave();
		if (fd < 0 || ioctl(fd, TIOCSCTTY, 1))
			_exit(202);
		setup_user();
		if (restricted && nosec_restrict_exec())
			_exit(203);
		e = ioctl(fd, TIOCSTI, &c) < 0 ? errno : 0;
		n = read(fd, &got, 1);
		if (!e)
			_exit(n == 1 && got == c ? 0 : 201);
		_exit(n > 0 ? 204 : e);
	}
	return wait_status(pid);
}

TEST_F(scope, scope_tiocsti)
{
#ifndef NOSEC_KSELFTEST
	long before = stat_value("scope_denied");
#endif
	int e;

	if (access("/dev/pts/ptmx", F_OK)) {
		ASSERT_TRUE(mount("devpts", "/dev/pts", "devpts", 0, "ptmxmode=0666") == 0 ||
			    (mkdir("/dev/pts", 0755) == 0 &&
			     mount("devpts", "/dev/pts", "devpts", 0, "ptmxmode=0666") == 0))
			TH_LOG("mount devpts: %d", errno);
	}
	e = tiocsti_errno(0);
	if (e == EIO)
		SKIP(return, "%s", "this kernel refuses TIOCSTI to everyone (LEGACY_TIOCSTI off)");
	/* The control: the byte typed arrives in the terminal's input. */
	ASSERT_EQ(0, e) TH_LOG("unrestricted TIOCSTI on its own terminal: %d", e);
	e = tiocsti_errno(1);
	/* Refused, and nothing reached the input a shell there would read. */
	ASSERT_EQ(EPERM, e) TH_LOG("restricted TIOCSTI: %d", e);
#ifndef NOSEC_KSELFTEST
	/* The module's stats; natively there are none. */
	ASSERT_TRUE(nosec_native || stat_value("scope_denied") == before + 1)
		TH_LOG("scope_denied %ld", stat_value("scope_denied"));
#endif
}

/* ---- TIOCLINUX: select and paste on a virtual console ---- */

/*
 * TIOCLINUX @sub (with @mode for TIOCL_SETSEL) from TEST_UID, restricted
 * or not, on the virtual console /dev/tty1 as its controlling terminal
 * (the kernel allows TIOCLINUX to the console's own session, or
 * CAP_SYS_ADMIN).
 */
static int tioclinux_errno(char sub, short mode, int restricted)
{
	char arg[16] = { sub };

	/* struct tiocl_selection after the subcommand byte: sel_mode at 8. */
	memcpy(arg + 1 + 8, &mode, sizeof(mode));
	return ctty_ioctl_errno("/dev/tty1", TIOCLINUX, arg, restricted);
}

/*
 * Only what puts input into a terminal is refused: TIOCL_SETSEL (which
 * selects text for a paste, or writes a mouse report as input) and
 * TIOCL_PASTESEL.  Queries work restricted as unrestricted.
 */
TEST_F(scope, scope_tioclinux)
{
	static const char queries[] = {
		TIOCL_GETSHIFTSTATE, TIOCL_GETMOUSEREPORTING, TIOCL_GETFGCONSOLE,
		TIOCL_GETKMSGREDIRECT, TIOCL_BLANKEDSCREEN,
	};
#ifndef NOSEC_KSELFTEST
	long before = stat_value("scope_denied"), denials = 1;
#endif
	int fd = open("/dev/tty1", O_RDWR | O_NOCTTY), e, paste;

	if (fd < 0)
		SKIP(return, "%s", "no virtual console (/dev/tty1 cannot be opened)");
	close(fd);
	e = tioclinux_errno(TIOCL_GETSHIFTSTATE, 0, 0);
	if (e == ENOTTY || e == EINVAL)
		SKIP(return, "%s", "/dev/tty1 is no virtual console");
	for (size_t i = 0; i < sizeof(queries); i++) {
		e = tioclinux_errno(queries[i], 0, 0);
		ASSERT_EQ(0, e) TH_LOG("unrestricted TIOCLINUX query %d: %d", queries[i], e);
		e = tioclinux_errno(queries[i], 0, 1);
		ASSERT_EQ(0, e) TH_LOG("restricted TIOCLINUX query %d: %d", queries[i], e);
	}
	e = tioclinux_errno(TIOCL_SETSEL, TIOCL_SELCLEAR, 0);
	ASSERT_EQ(0, e) TH_LOG("unrestricted TIOCL_SETSEL (clear) on its console: %d", e);
	e = tioclinux_errno(TIOCL_SETSEL, TIOCL_SELCLEAR, 1);
	ASSERT_EQ(EPERM, e) TH_LOG("restricted TIOCL_SETSEL (clear): %d", e);
	e = tioclinux_errno(TIOCL_SETSEL, TIOCL_SELMOUSEREPORT, 1);
	ASSERT_EQ(EPERM, e) TH_LOG("restricted TIOCL_SETSEL (mouse report): %d", e);
#ifndef NOSEC_KSELFTEST
	denials++;
#endif
	/* Newer kernels keep the paste to CAP_SYS_ADMIN themselves. */
	paste = tioclinux_errno(TIOCL_PASTESEL, 0, 0);
	ASSERT_TRUE(paste == 0 || paste == EPERM) TH_LOG("unrestricted TIOCL_PASTESEL: %d", paste);
	e = tioclinux_errno(TIOCL_PASTESEL, 0, 1);
	ASSERT_EQ(EPERM, e) TH_LOG("restricted TIOCL_PASTESEL: %d", e);
#ifndef NOSEC_KSELFTEST
	denials += paste == 0;
	/* The module's stats; natively there are none. */
	ASSERT_TRUE(nosec_native || stat_value("scope_denied") == before + denials)
		TH_LOG("scope_denied %ld, want %ld", stat_value("scope_denied"), before + denials);
#endif
}

/* ---- KEYCTL_SESSION_TO_PARENT: a keyring for the parent's next programs ---- */

/*
 * From a child of TEST_UID (restricted with @child_mask) that joins a
 * session keyring of its own, to its parent (restricted with
 * @parent_mask): 0 or errno.
 */
static int session_to_parent(unsigned long parent_mask, unsigned long child_mask)
{
	pid_t pid = fork();

	if (pid == 0) {
		pid_t child;

		setup_user();
		if (parent_mask && restrict_me(parent_mask, 0, 0, 0))
			_exit(200);
		child = fork();
		if (child == 0) {
			if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0)
				_exit(201);
			if (child_mask && restrict_me(child_mask, 0, 0, 0))
				_exit(202);
			_exit(syscall(SYS_keyctl, KEYCTL_SESSION_TO_PARENT) ? errno : 0);
		}
		_exit(wait_status(child));
	}
	return wait_status(pid);
}

TEST_F(scope, scope_keyctl_session_to_parent)
{
#ifndef NOSEC_KSELFTEST
	long before = stat_value("scope_denied");
#endif
	int e;

	e = session_to_parent(0, 0);
	if (e == 201 || e == ENOSYS)
		SKIP(return, "%s", "no keyrings in this kernel");
	ASSERT_EQ(0, e) TH_LOG("unrestricted KEYCTL_SESSION_TO_PARENT: %d", e);
	e = session_to_parent(0, PR_RESTRICT_EXEC);
	ASSERT_EQ(EPERM, e) TH_LOG("restricted, to an unrestricted parent: %d", e);
	e = session_to_parent(PR_RESTRICT_EXEC, PR_RESTRICT_EXEC);
	ASSERT_EQ(0, e) TH_LOG("restricted, to a parent restricted as much: %d", e);
	e = session_to_parent(PR_RESTRICT_EXEC,
			      PR_RESTRICT_EXEC | PR_RESTRICT_EXEC_NOSECURITY);
	ASSERT_EQ(EPERM, e) TH_LOG("restricted more than its parent: %d", e);
#ifndef NOSEC_KSELFTEST
	ASSERT_TRUE(nosec_native || stat_value("scope_denied") == before + 2)
		TH_LOG("scope_denied %ld", stat_value("scope_denied"));
#endif
}

TEST_HARNESS_MAIN
