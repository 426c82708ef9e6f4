/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers the test files share: running a program and reading what it
 * reports, the credentials and flags a test sets up.
 */
#ifndef NOSEC_KSELFTEST
/* And the module's: its stats, loading and unloading it. */
#endif
#ifndef NOSEC_COMMON_H
#define NOSEC_COMMON_H

#include <stdint.h>
#include <sys/types.h>

#define TEST_UID	1000
#define TEST_GID	1000

#ifndef NOSEC_KSELFTEST
#define STATS		"/sys/kernel/debug/nosec_exec/stats"
#define MODULE_NAME	"nosec_exec"
#define MODULE_PATH	"/nosec/nosec_exec.ko"
/* The test build: the same module with the fault-injection knobs. */
#define FAULT_MODULE_NAME	"nosec_exec_fault_inject"
#define FAULT_MODULE_PATH	"/nosec/nosec_exec_fault_inject.ko"

/*
 * 1 on a kernel with the native series (upstream/): no module, and the
 * kernel itself answers AT_EXECVE_NO_TRANSITION and the prctl options.
 * Set once by the runner before any case.
 */
extern int nosec_native;
int nosec_detect_native(void);
#endif

extern char **environ;
extern char *no_argv[];
/* An unmapped user address, hidden from the compiler's checks. */
extern uintptr_t bad_addr;
#define BAD ((void *)bad_addr)

/*
 * How a program is run: execve, execve_nosecurity (the library:
 * execveat() with AT_EXECVE_NO_TRANSITION), execve after PR_RESTRICT_ME +
 * PR_SET_FORCE_EXECVE_NOSECURITY, fexecve_nosecurity, the raw call
 * without the library, or execve under no_new_privs (what a forced
 * exec's creds are measured by).
 */
#ifndef NOSEC_KSELFTEST
/*
 * The raw call, NOSEC_RAW: the module's NOSEC_IOC_EXECVEAT (on the
 * series, which has no device: execveat() with the flag).
 */
#else
/* The raw call, NOSEC_RAW: execveat() with the flag, made directly. */
#endif
enum how { PLAIN, NOSEC, FORCED, NOSEC_FD, NOSEC_RAW, PLAIN_NNP };

struct run {
	char out[8192];
	int exec_errno;	/* 0: the program ran */
	int status;	/* wait status of the child */
};

/* What a run printed: "key=value" lines. */
const char *get(const struct run *r, const char *key);
long getl(const struct run *r, const char *key);
unsigned long long getx(const struct run *r, const char *key);
long id_field(const struct run *r, const char *key, int i);

int do_exec(enum how how, const char *path, char *const argv[]);
int capture(void (*child)(void *arg), void *arg, struct run *r);
int run_prog(enum how how, const char *path, void (*setup)(void),
	     struct run *r);
/*
 * @how of @path (after @setup) runs, under the LSM label @label; or is
 * refused with @err.  PASS, or FAIL with a message saying what happened.
 */
int runs_as(enum how how, const char *path, void (*setup)(void),
	    const char *label);
int refused(enum how how, const char *path, void (*setup)(void), int err);
int child_execve_errno(const char *path);
int wait_status(pid_t pid);
#ifndef NOSEC_KSELFTEST
/* A capture() child: nosec-run @arg FIX_PROBE, its stderr on stdout. */
void nosec_run_capture(void *arg);
int killed_before_running(const struct run *r);
#endif

/* Credentials and flags of the calling process. */
int drop_to_user(void);
void setup_user(void);
void setup_restrict(void);
void setup_user_restricted(void);
long restrict_me(unsigned long a2, unsigned long a3, unsigned long a4,
		 unsigned long a5);

/* The first line of /proc/self/task/@tid/@name, in @buf ("" if none). */
const char *read_thread_file(int tid, const char *name, char *buf, size_t size);
/* A task of TEST_UID that waits to be reached; restricted if asked. */
pid_t spawn_sleeper(int restricted);
/* Yama's ptrace_scope 0 (Debian's default) for a while, then as it was. */
void yama_permissive(void);
void yama_restore(void);

/* After no_new_privs, a seccomp filter: syscall @nr (or execveat) fails with @err. */
int deny_syscall(int nr, int err);
int deny_execveat(int err);

/* The elements of array @a. */
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#ifndef NOSEC_KSELFTEST
/*
 * What the architecture names: the syscall wrappers ftrace shows and the
 * module hooks (SYSCALL_SYM("execve"): "__x64_sys_execve" on x86-64,
 * "__arm64_sys_execve" on arm64), and the seccomp and audit arch.
 */
#else
/*
 * What the architecture names: the seccomp and audit arch.  The cases
 * that need it, or code of their own for the architecture, are written
 * for x86-64 and arm64; elsewhere they skip (ARCH_TEST_START()).
 */
#endif
#if defined(__x86_64__)
#define NOSEC_ARCH_KNOWN	1
#ifndef NOSEC_KSELFTEST
#define NOSEC_SYSCALL_PREFIX	"__x64_sys_"
#define NOSEC_COMPAT_PREFIX	"__ia32_compat_sys_"
#endif
#define NOSEC_AUDIT_ARCH	AUDIT_ARCH_X86_64	/* <linux/audit.h> */
#ifndef NOSEC_KSELFTEST
#define PROG32_MISSING		"no prog32 (gcc-multilib missing)"
#else
#define PROG32_MISSING		"no prog32 (the compiler built no -m32 program)"
#endif
#elif defined(__aarch64__)
#define NOSEC_ARCH_KNOWN	1
#ifndef NOSEC_KSELFTEST
#define NOSEC_SYSCALL_PREFIX	"__arm64_sys_"
#define NOSEC_COMPAT_PREFIX	"__arm64_compat_sys_"
#endif
#define NOSEC_AUDIT_ARCH	AUDIT_ARCH_AARCH64	/* <linux/audit.h> */
#ifndef NOSEC_KSELFTEST
#define PROG32_MISSING		"no prog32 (arm-linux-gnueabihf-gcc missing)"
#else
#define PROG32_MISSING		"no prog32 (no AArch32 program is built here)"
#endif
#elif !defined(NOSEC_KSELFTEST)
#error "the tests know x86-64 and arm64"
#else
/* Never used: every case that needs it skips first. */
#define NOSEC_AUDIT_ARCH	0
#define PROG32_MISSING		"no prog32 (no 32-bit program is built here)"
#endif
#ifndef NOSEC_KSELFTEST
#define SYSCALL_SYM(name)	NOSEC_SYSCALL_PREFIX name
#define COMPAT_SYSCALL_SYM(name) NOSEC_COMPAT_PREFIX name
#endif

#ifdef __x86_64__
/* A syscall through the 32-bit entry (int $0x80) of this 64-bit process. */
long int80(long nr, long b, long c, long d, long s, long di);
#define NR32_EXECVE	11
#ifndef NOSEC_KSELFTEST
#define NR32_IOCTL	54
#endif
#define NR32_EXECVEAT	358
#endif

/*
 * The 32-bit program (prog32.c), beside the tests (in the selftests,
 * copied from there with the probes, for TEST_UID to run): x86-64's i386
 * build, arm64's AArch32 one.  An arm64 task has no 32-bit entry of its
 * own, so there prog32 makes the 32-bit calls: as TEST_UID when @setup
 * says so, it restricts itself with @mask (PR_RESTRICT_ME; 0: not), then
 * makes each call of @calls on @path in turn, comma-separated (prog32.c
 * lists them).  It prints "errnoN=E" when call N (from 1) fails; a call
 * that runs the program prints nothing, and what ran prints its own
 * output.  PASS, its output in @r; SKIP_HELPER where no 32-bit program
 * runs (none built, or neither the kernel nor the CPU runs one); FAIL
 * otherwise.
 */
#ifndef NOSEC_KSELFTEST
#define PROG32		"/nosec/tests/prog32"
#else
#define PROG32		FIX_PROG32	/* fixtures.h */
#endif
int prog32_calls(void (*setup)(void), unsigned long mask, const char *path,
		 const char *calls, struct run *r);

/* Is LSM @name active in this boot (/sys/kernel/security/lsm)? */
int lsm_active(const char *name);
#ifndef NOSEC_KSELFTEST
/* Does this boot exist to run @name's cases (NOSEC_LSM, make check-lsm)? */
int lsm_expected(const char *name);

/* The module. */
long stat_value(const char *name);
long wait_tasks(long want);
int delete_module(void);
/* The real module, with @params (exec_group=...). */
int load_module_with(const char *params);
int load_module(void);
/* The test build, with fault-injection @params; reload_with("") goes back. */
int load_fault_module(const char *params);
int unload_module(void);
int reload_with(const char *params);
int reload_fault(const char *params);
/* The real module, its defaults: loaded if need be (@reload: anew). */
int module_as_shipped(void);
/* A parameter of the build loaded last. */
int set_param(const char *name, const char *value);
#endif
/* Write @text to an existing file (sysfs, procfs): 0 or -1. */
int write_text(const char *path, const char *text);
/* The environment's @name as a number; @def when it is unset or empty. */
long env_long(const char *name, long def);
/* Does the file at @path hold exactly @text?  1 or 0. */
int read_text(const char *path, const char *text);
int log_says_after(const char *marker, const char *text);
#ifndef NOSEC_KSELFTEST
int module_probes(void);
/* Functions whose ftrace site calls @func (enabled_functions), or -1. */
int ftrace_sites_calling(const char *func);
#endif

#endif
