// SPDX-License-Identifier: GPL-2.0
/*
 * The bypass catalogue: one case per way around the exec ban or the
 * nosecurity rules, beyond the entry points restrict_test.c covers.
 */
#ifndef NOSEC_KSELFTEST
/* The ways are those docs/security.md's table lists. */
#endif
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/types.h>

#include "nosec.h"
#include "common.h"
#include "../kselftest_harness.h"
#include "ksft_nosec.h"
#include "fixtures.h"

NOSEC_FIXTURE(bypass);

/* ---- clone3 with CLONE_VM, CLONE_VFORK, CLONE_PARENT ---- */

struct clone3_args {
	__u64 flags, pidfd, child_tid, parent_tid, exit_signal;
	__u64 stack, stack_size, tls, set_tid, set_tid_size, cgroup;
};

/*
 * clone3(); the child, which may share our memory and runs on @args'
 * stack, touches no memory: it calls execve(@path, NULL, NULL) and exits
 * with the errno.  Returns the child's pid (or -errno).
 */
static long clone3_exec(struct clone3_args *args, const char *path)
{
#if defined(__x86_64__)
	long ret;

	asm volatile("syscall\n\t"
		     "test %%rax, %%rax\n\t"
		     "jnz 1f\n\t"
		     "mov %[path], %%rdi\n\t"
		     "xor %%esi, %%esi\n\t"
		     "xor %%edx, %%edx\n\t"
		     "mov $59, %%eax\n\t"	/* execve */
		     "syscall\n\t"
		     "neg %%rax\n\t"
		     "mov %%rax, %%rdi\n\t"
		     "mov $60, %%eax\n\t"	/* exit */
		     "syscall\n\t"
		     "1:\n\t"
		     : "=a"(ret)
		     : "a"((long)SYS_clone3), "D"(args), "S"(sizeof(*args)),
		       [path] "r"(path)
		     : "rcx", "rdx", "r11", "memory");
	return ret;
#elif defined(__aarch64__)
	register long x0 asm("x0") = (long)args;
	register long x1 asm("x1") = sizeof(*args);
	register long x8 asm("x8") = SYS_clone3;

	/* The kernel keeps every register but x0; the child never returns. */
	asm volatile("svc #0\n\t"
		     "cbnz x0, 1f\n\t"
		     "mov x0, %[path]\n\t"
		     "mov x1, xzr\n\t"
		     "mov x2, xzr\n\t"
		     "mov x8, #221\n\t"	/* execve */
		     "svc #0\n\t"
		     "neg x0, x0\n\t"
		     "mov x8, #93\n\t"	/* exit */
		     "svc #0\n\t"
		     "1:\n\t"
		     : "+r"(x0)
		     : "r"(x1), "r"(x8), [path] "r"(path)
		     : "memory");
	return x0;
#else
	(void)args;
	(void)path;
	return -1;	/* never called: its case skips */
#endif
}

static int clone3_exec_status(__u64 flags, const char *path)
{
	static _Alignas(16) char stack[16384];
	struct clone3_args args = {
		.flags = flags,
		.exit_signal = SIGCHLD,
		.stack = (uintptr_t)stack,
		.stack_size = sizeof(stack),
	};
	long pid = clone3_exec(&args, path);

	return pid > 0 ? wait_status(pid) : -1;
}

TEST_F(bypass, bypass_clone3_vm_vfork)
{
	ARCH_TEST_START("the child's clone3() and execve() in assembly");
	AS_TEST_USER();

	int null = open("/dev/null", O_WRONLY);

	dup2(null, 1);
	ASSERT_EQ(0, clone3_exec_status(CLONE_VM | CLONE_VFORK, FIX_PROBE))
		TH_LOG("unrestricted CLONE_VM|CLONE_VFORK child execs");
	ASSERT_EQ(0, restrict_me(PR_RESTRICT_EXEC, 0, 0, 0)) TH_LOG("restrict");
	ASSERT_EQ(EPERM, clone3_exec_status(CLONE_VM | CLONE_VFORK, FIX_PROBE))
		TH_LOG("CLONE_VM|CLONE_VFORK child");
	ASSERT_EQ(EPERM, clone3_exec_status(CLONE_VFORK, FIX_PROBE)) TH_LOG("CLONE_VFORK child");
	ASSERT_EQ(EPERM, clone3_exec_status(CLONE_VM, FIX_PROBE)) TH_LOG("CLONE_VM child");
}

/* A CLONE_PARENT child is our sibling: it reports through a pipe. */
TEST_F(bypass, bypass_clone3_parent)
{
	struct clone3_args args = { .flags = CLONE_PARENT };
	int pfd[2], err = -1;
	long pid;

	AS_TEST_USER();

	ASSERT_EQ(0, pipe(pfd)) TH_LOG("pipe");
	ASSERT_EQ(0, restrict_me(PR_RESTRICT_EXEC, 0, 0, 0)) TH_LOG("restrict");
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid == 0) {
		err = child_execve_errno(FIX_PROBE);
		if (write(pfd[1], &err, sizeof(err)) != sizeof(err))
			_exit(1);
		_exit(0);
	}
	ASSERT_TRUE(pid > 0) TH_LOG("clone3(CLONE_PARENT): %d", errno);
	close(pfd[1]);
	ASSERT_EQ(sizeof(err), read(pfd[0], &err, sizeof(err))) TH_LOG("report");
	ASSERT_EQ(EPERM, err) TH_LOG("CLONE_PARENT sibling exec: %d", err);
}

/* ---- shebang chains ---- */

TEST_F(bypass, bypass_shebang_chains)
{
	struct run r;

	AS_TEST_USER();

	ASSERT_EQ(0, run_prog(PLAIN, FIX_CHAIN5, NULL, &r))
		TH_LOG("plain 5-script chain: %d", r.exec_errno);
	ASSERT_EQ(0, run_prog(NOSEC, FIX_CHAIN5, NULL, &r))
		TH_LOG("nosec 5-script chain: %d", r.exec_errno);
	ASSERT_EQ(0, run_prog(FORCED, FIX_CHAIN5, NULL, &r))
		TH_LOG("forced 5-script chain: %d", r.exec_errno);
	ASSERT_EQ(ELOOP, run_prog(PLAIN, FIX_CHAIN6, NULL, &r)) TH_LOG("plain 6: %d", r.exec_errno);
	ASSERT_EQ(ELOOP, run_prog(NOSEC, FIX_CHAIN6, NULL, &r)) TH_LOG("nosec 6: %d", r.exec_errno);
	ASSERT_EQ(0, run_prog(PLAIN, FIX_CHAINX3, NULL, &r))
		TH_LOG("plain chain, exec-only middle: %d", r.exec_errno);
	ASSERT_EQ(EACCES, run_prog(NOSEC, FIX_CHAINX3, NULL, &r))
		TH_LOG("nosec chain, exec-only middle: %d", r.exec_errno);
	ASSERT_EQ(EPERM, run_prog(PLAIN, FIX_CHAIN5, setup_restrict, &r))
		TH_LOG("restricted chain: %d", r.exec_errno);
}

/* ---- binfmt_misc, with and without the C flag ---- */

#define BINFMT_DIR	"/proc/sys/fs/binfmt_misc"

/* Remove the handlers binfmt_setup() registers (those that exist). */
static void binfmt_unregister(void)
{
	write_text(BINFMT_DIR "/nosecx", "-1");
	write_text(BINFMT_DIR "/nosecc", "-1");
	write_text(BINFMT_DIR "/nosecxi", "-1");
}

/*
 * binfmt_misc, mounted where it is not yet, with the handlers the case
 * needs: 0, or -1 without it (CONFIG_BINFMT_MISC).
 */
static int binfmt_setup(void)
{
#ifndef NOSEC_KSELFTEST
	int fd = open("/nosec/kmod/binfmt_misc.ko", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		syscall(SYS_finit_module, fd, "", 0);	/* EEXIST is fine */
		close(fd);
	}
#endif
	if (access(BINFMT_DIR "/register", W_OK) &&
	    mount("binfmt_misc", BINFMT_DIR, "binfmt_misc", 0, NULL))
		return -1;
	write_text(BINFMT_DIR "/status", "1");
	binfmt_unregister();
	if (write_text(BINFMT_DIR "/register",
		       ":nosecx:E::nosecx::" FIX_PROBE_SUID ":") ||
	    write_text(BINFMT_DIR "/register",
		       ":nosecc:E::nosecc::" FIX_PROBE ":C") ||
	    write_text(BINFMT_DIR "/register",
		       ":nosecxi:E::nosecxi::" FIX_INTERP_XONLY ":"))
		return -1;
	return 0;
}

/*
 * The runs as TEST_UID, each in a child of its own (run_prog()'s setup),
 * so that the test, still root, removes its handlers at the end whatever
 * the checks found.
 */
TEST_F(bypass, bypass_binfmt_misc_with_and_without_C)
{
	struct run p, n;

	if (binfmt_setup()) {
		binfmt_unregister();
#ifndef NOSEC_KSELFTEST
		SKIP(return, "%s", "binfmt_misc not available in this kernel");
#else
		SKIP(return, "%s", "no binfmt_misc in this kernel (CONFIG_BINFMT_MISC)");
#endif
	}
	/* Without C: the interpreter (setuid root) decides the creds. */
	EXPECT_TRUE(run_prog(PLAIN, FIX_MISC_PLAIN, setup_user, &p) == 0 &&
		    id_field(&p, "uids", 1) == 0)
		TH_LOG("plain binfmt_misc, setuid interpreter: %d %s", p.exec_errno,
		       get(&p, "uids"));
	EXPECT_TRUE(run_prog(NOSEC, FIX_MISC_PLAIN, setup_user, &n) == 0 &&
		    id_field(&n, "uids", 1) == TEST_UID)
		TH_LOG("nosec binfmt_misc: %d %s", n.exec_errno, get(&n, "uids"));
	/* With C: the (setuid root) file itself decides the creds. */
	EXPECT_TRUE(run_prog(PLAIN, FIX_MISC_CREDS, setup_user, &p) == 0 &&
		    id_field(&p, "uids", 1) == 0)
		TH_LOG("plain binfmt_misc C: %d %s", p.exec_errno, get(&p, "uids"));
	EXPECT_TRUE(run_prog(NOSEC, FIX_MISC_CREDS, setup_user, &n) == 0 &&
		    id_field(&n, "uids", 1) == TEST_UID)
		TH_LOG("nosec binfmt_misc C: %d %s", n.exec_errno, get(&n, "uids"));
	/* A forced exec: the rule of a plain exec under no_new_privs. */
	EXPECT_TRUE(run_prog(FORCED, FIX_MISC_PLAIN, setup_user, &n) == 0 &&
		    !strcmp(get(&n, "uids"), "1000,1000,1000,1000"))
		TH_LOG("forced binfmt_misc: %d %s", n.exec_errno, get(&n, "uids"));
	EXPECT_TRUE(run_prog(FORCED, FIX_MISC_CREDS, setup_user, &n) == 0 &&
		    !strcmp(get(&n, "uids"), "1000,1000,1000,1000"))
		TH_LOG("forced binfmt_misc C: %d %s", n.exec_errno, get(&n, "uids"));
	/* The handler needs read access too. */
	EXPECT_EQ(0, run_prog(PLAIN, FIX_MISC_XINTERP, setup_user, &p))
		TH_LOG("exec-only handler, plain: %d", p.exec_errno);
	EXPECT_EQ(EACCES, run_prog(NOSEC, FIX_MISC_XINTERP, setup_user, &n))
		TH_LOG("exec-only handler, nosec: %d", n.exec_errno);
	EXPECT_EQ(EPERM, run_prog(PLAIN, FIX_MISC_PLAIN, setup_user_restricted, &p))
		TH_LOG("restricted binfmt_misc: %d", p.exec_errno);
	binfmt_unregister();
}

/* ---- ptrace ---- */

/* A restricted tracee stays restricted whatever its tracer does. */
TEST_F(bypass, bypass_ptrace_restricted_tracee)
{
	AS_TEST_USER();

	pid_t pid = fork();
	int status;

	if (pid == 0) {
		nosec_restrict_exec();
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		_exit(child_execve_errno(FIX_PROBE));
	}
	ASSERT_TRUE(waitpid(pid, &status, 0) == pid && WIFSTOPPED(status)) TH_LOG("tracee stopped");
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL)) TH_LOG("cont: %d", errno);
	ASSERT_TRUE(waitpid(pid, &status, 0) == pid && WIFEXITED(status)) TH_LOG("tracee exited");
	ASSERT_EQ(EPERM, WEXITSTATUS(status))
		TH_LOG("traced restricted exec: %d", WEXITSTATUS(status));
}

/* A restricted tracer: itself and every tracee it creates stay banned. */
TEST_F(bypass, bypass_ptrace_restricted_tracer)
{
	pid_t pid;
	int status;

	AS_TEST_USER();

	ASSERT_EQ(0, restrict_me(PR_RESTRICT_EXEC, 0, 0, 0)) TH_LOG("restrict");
	pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		_exit(child_execve_errno(FIX_PROBE));
	}
	ASSERT_TRUE(waitpid(pid, &status, 0) == pid && WIFSTOPPED(status)) TH_LOG("tracee stopped");
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL)) TH_LOG("cont");
	ASSERT_TRUE(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		    WEXITSTATUS(status) == EPERM)
		TH_LOG("tracee of a restricted tracer: %#x", status);
	ASSERT_ERRNO(EPERM, execve(FIX_PROBE, no_argv, environ), "tracer");
}

/* ---- a real 32-bit program ---- */

static void run_prog32(void *arg)
{
	(void)arg;
	execl(PROG32, "prog32", (char *)NULL);
	printf("exec_errno=%d\n", errno);
}

TEST_F(bypass, bypass_real_32bit_program)
{
	struct run r;
	int status;

	AS_TEST_USER();

	if (access(PROG32, X_OK))
		SKIP(return, "%s", PROG32_MISSING);
	status = capture(run_prog32, NULL, &r);
#ifdef __aarch64__	/* AArch32 at EL0 is the CPU's option */
	if (r.exec_errno == ENOEXEC)
		SKIP(return, "%s", "this kernel or CPU runs no 32-bit program (ENOEXEC)");
#endif
	ASSERT_EQ(0, status) TH_LOG("prog32: %s", r.out);
	ASSERT_EQ(PR_RESTRICT_EXEC, getl(&r, "mask32"))
		TH_LOG("32-bit PR_GET_RESTRICT returns the mask: %s", r.out);
	ASSERT_TRUE(getl(&r, "execve32_errno") == EPERM && getl(&r, "execveat32_errno") == EPERM)
		TH_LOG("32-bit execve/execveat: %s", r.out);
	ASSERT_TRUE(!strcmp(get(&r, "uids"), "1000,1000,1000,1000") && getl(&r, "restrict") == 1)
		TH_LOG("32-bit execve_nosecurity of a setuid program: %s", r.out);
}

TEST_HARNESS_MAIN
