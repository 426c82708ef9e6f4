// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers the test files share (common.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#ifndef NOSEC_KSELFTEST
#include <sys/ioctl.h>
#endif
#include <sys/klog.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "nosec.h"
#include "check.h"
#include "common.h"
#include "fixtures.h"

#ifndef NOSEC_KSELFTEST
int nosec_native;
#endif
char skip_reason[256];
char *no_argv[] = { NULL };
/* An unmapped user address, hidden from the compiler's checks. */
uintptr_t bad_addr = 8;

/* ---- running a program and reading what it reports ---- */

const char *get(const struct run *r, const char *key)
{
	static char val[256];
	size_t n = strlen(key);
	const char *p = r->out;

	while (p && *p) {
		if (!strncmp(p, key, n) && p[n] == '=') {
			size_t len = strcspn(p + n + 1, "\n");

			snprintf(val, sizeof(val), "%.*s", (int)len, p + n + 1);
			return val;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return "";
}

long getl(const struct run *r, const char *key)
{
	return strtol(get(r, key), NULL, 0);
}

unsigned long long getx(const struct run *r, const char *key)
{
	return strtoull(get(r, key), NULL, 16);
}

/* Field @i (0-3) of a "a,b,c,d" id line. */
long id_field(const struct run *r, const char *key, int i)
{
	const char *p = get(r, key);

	while (i-- > 0 && p) {
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return p ? strtol(p, NULL, 10) : -1;
}

#ifndef NOSEC_KSELFTEST
/*
 * The native series: no module is loaded, yet the kernel answers the
 * prctl options (which come in the same series as the flag).  Neither:
 * the module failed to load, not native.
 */
int nosec_detect_native(void)
{
	return access("/sys/module/nosec_exec", F_OK) != 0 &&
	       prctl(PR_GET_RESTRICT, 0UL, 0UL, 0UL, 0UL) >= 0;
}
#endif

int do_exec(enum how how, const char *path, char *const argv[])
{
	if (how == FORCED) {
		if (nosec_restrict_exec() || nosec_set_force(1))
			return errno;
		how = PLAIN;
	}
	if (how == PLAIN_NNP) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
			return errno;
		how = PLAIN;
	}
	switch (how) {
	case PLAIN:
		execve(path, argv, environ);
		break;
	case NOSEC_FD: {
		int fd = open(path, O_RDONLY | O_CLOEXEC);

		if (fd < 0)
			return errno;
		fexecve_nosecurity(fd, argv, environ);
		break;
	}
#ifndef NOSEC_KSELFTEST
	case NOSEC_RAW: {
		struct nosec_execveat_args a = {
			.pathname = (uintptr_t)path,
			.argv = (uintptr_t)argv,
			.envp = (uintptr_t)environ,
			.dirfd = AT_FDCWD,
		};
		int fd;

		if (nosec_native) {
			syscall(SYS_execveat, AT_FDCWD, path, argv, environ,
				AT_EXECVE_NO_TRANSITION);
			break;
		}
		fd = open("/dev/" NOSEC_EXEC_DEVICE_NAME, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			return errno;
		ioctl(fd, NOSEC_IOC_EXECVEAT, &a);
		break;
	}
#else
	case NOSEC_RAW:
		syscall(SYS_execveat, AT_FDCWD, path, argv, environ,
			AT_EXECVE_NO_TRANSITION);
		break;
#endif
	default:
		execve_nosecurity(path, argv, environ);
	}
	return errno;
}

/*
 * Run @child(@arg) in a forked process whose stdout is collected in @r;
 * returns its wait status (also in r->status), -1 if it could not start.
 */
int capture(void (*child)(void *arg), void *arg, struct run *r)
{
	int pfd[2], status;
	ssize_t n, len = 0;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	if (pipe(pfd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(pfd[0]);
		dup2(pfd[1], 1);
		close(pfd[1]);
		child(arg);
		fflush(stdout);
		_exit(99);
	}
	close(pfd[1]);
	while ((n = read(pfd[0], r->out + len, sizeof(r->out) - 1 - len)) > 0)
		len += n;
	close(pfd[0]);
	waitpid(pid, &status, 0);
	r->status = status;
	r->exec_errno = (int)getl(r, "exec_errno");
	return status;
}

struct prog {
	enum how how;
	const char *path;
	void (*setup)(void);
};

static void exec_prog(void *arg)
{
	const struct prog *prog = arg;
	char *const argv[] = { (char *)prog->path, NULL };

	if (prog->setup)
		prog->setup();
	printf("exec_errno=%d\n", do_exec(prog->how, prog->path, argv));
}

/*
 * Run @path in a child (after @setup) the way @how says; collect its
 * output.  Returns 0 when the program ran and exited 0, the exec's errno
 * when it failed, else -1.
 */
int run_prog(enum how how, const char *path, void (*setup)(void),
	     struct run *r)
{
	struct prog prog = { how, path, setup };
	int status = capture(exec_prog, &prog, r);

	if (r->exec_errno)
		return r->exec_errno;
	return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
	       getl(r, "end") == 1 ? 0 : -1;
}

static const char *const how_names[] = {
	[PLAIN] = "plain", [NOSEC] = "nosec", [FORCED] = "forced",
#ifndef NOSEC_KSELFTEST
	[NOSEC_FD] = "nosec (fd)", [NOSEC_RAW] = "nosec (ioctl)",
#else
	[NOSEC_FD] = "nosec (fd)", [NOSEC_RAW] = "nosec (execveat)",
#endif
	[PLAIN_NNP] = "plain under no_new_privs",
};

int runs_as(enum how how, const char *path, void (*setup)(void),
	    const char *label)
{
	struct run r;
	int err = run_prog(how, path, setup, &r);

	REQUIRE(err == 0, "%s %s: %d", how_names[how], path, err);
	REQUIRE(!strcmp(get(&r, "label"), label), "%s %s: label '%s', want '%s'",
		how_names[how], path, get(&r, "label"), label);
	return PASS;
}

int refused(enum how how, const char *path, void (*setup)(void), int err)
{
	struct run r;
	int got = run_prog(how, path, setup, &r);

	REQUIRE(got == err, "%s %s: %d, want %d (label '%s')", how_names[how],
		path, got, err, get(&r, "label"));
	return PASS;
}

/* ---- small helpers ---- */

/* @list, comma-separated, names @name. */
static int list_has(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == 0 || p[n] == '\n'))
			return 1;
	return 0;
}

int lsm_active(const char *name)
{
	char buf[256] = "";
	int fd = open("/sys/kernel/security/lsm", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	buf[n < 0 ? 0 : n] = 0;
	return list_has(buf, name);
}

#ifndef NOSEC_KSELFTEST
int lsm_expected(const char *name)
{
	return list_has(getenv("NOSEC_LSM"), name);
}

long stat_value(const char *name)
{
	char line[128];
	long v = -1;
	size_t n = strlen(name);
	FILE *f = fopen(STATS, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ' ')
			v = strtol(line + n + 1, NULL, 10);
	fclose(f);
	return v;
}

/*
 * Wait (up to 10 s) for "tasks" to drop to @want; freed tasks drop their
 * state after an RCU grace period.
 */
long wait_tasks(long want)
{
	long v = -1;

	for (int i = 0; i < 100; i++) {
		v = stat_value("tasks");
		if (v <= want)
			break;
		usleep(100000);
	}
	return v;
}
#endif

int drop_to_user(void)
{
	if (setgroups(0, NULL) || setresgid(TEST_GID, TEST_GID, TEST_GID) ||
	    setresuid(TEST_UID, TEST_UID, TEST_UID))
		return -1;
	return prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

/* Exit status of a child that tried execve(@path): errno, or 0 if ran. */
int child_execve_errno(const char *path)
{
	char *const argv[] = { (char *)path, NULL };
	int null = open("/dev/null", O_WRONLY);

	dup2(null, 1);
	execve(path, argv, environ);
	return errno;
}

int wait_status(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

long restrict_me(unsigned long a2, unsigned long a3, unsigned long a4,
		 unsigned long a5)
{
	return prctl(PR_RESTRICT_ME, a2, a3, a4, a5);
}

#ifdef __x86_64__
long int80(long nr, long b, long c, long d, long s, long di)
{
	long ret;

	asm volatile("int $0x80"
		     : "=a"(ret)
		     : "a"(nr), "b"(b), "c"(c), "d"(d), "S"(s), "D"(di)
		     : "memory", "r8", "r9", "r10", "r11");
	return ret;
}
#endif

struct prog32_args {
	void (*setup)(void);
	char *argv[5];
};

static void exec_prog32(void *arg)
{
	struct prog32_args *a = arg;

	if (a->setup)
		a->setup();
	execv(PROG32, a->argv);
	printf("prog32_errno=%d\n", errno);
}

int prog32_calls(void (*setup)(void), unsigned long mask, const char *path,
		 const char *calls, struct run *r)
{
	char mask_text[32];
	struct prog32_args a = {
		setup, { "prog32", mask_text, (char *)path, (char *)calls, NULL },
	};
	int e;

	snprintf(mask_text, sizeof(mask_text), "%lu", mask);
	SKIP_IF(access(PROG32, X_OK), PROG32_MISSING);
	REQUIRE(capture(exec_prog32, &a, r) != -1, "cannot run prog32");
	e = (int)getl(r, "prog32_errno");
	/* The kernel's compat_elf_check_arch(): no CONFIG_COMPAT, or no 32-bit EL0. */
	SKIP_IF(e == ENOEXEC, "this kernel or CPU runs no 32-bit program (ENOEXEC)");
	REQUIRE(e == 0, "exec of prog32: %d", e);
	REQUIRE(!strstr(r->out, "prog32_usage"), "prog32 %s %s %s: %s", mask_text, path,
		calls, r->out);
	return PASS;
}

void setup_user(void)
{
	if (drop_to_user())
		_exit(98);
}

void setup_user_restricted(void)
{
	setup_user();
	nosec_restrict_exec();
}

#ifndef NOSEC_KSELFTEST
/* Unload the build that is loaded: the test build, else the real one. */
int delete_module(void)
{
	const char *name = access("/sys/module/" FAULT_MODULE_NAME, F_OK) ?
			   MODULE_NAME : FAULT_MODULE_NAME;

	return syscall(SYS_delete_module, name, O_NONBLOCK);
}

static int load_file(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0) {
		printf("# cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	ret = syscall(SYS_finit_module, fd, params, 0);
	close(fd);
	return ret;
}

int load_module_with(const char *params)
{
	return load_file(MODULE_PATH, params);
}

int load_fault_module(const char *params)
{
	return load_file(FAULT_MODULE_PATH, params);
}

int load_module(void)
{
	return load_module_with("");
}

/*
 * How many lines of ftrace's enabled_functions @match accepts (@arg is
 * its own), or -1 when the file cannot be read.
 */
static int enabled_functions_count(int (*match)(const char *line,
						const void *arg),
				   const void *arg)
{
	char line[512];
	int n = 0;
	FILE *f = fopen("/sys/kernel/debug/tracing/enabled_functions", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += match(line, arg);
	fclose(f);
	return n;
}

static int names_a_sample(const char *line, const void *arg)
{
	static const char *const syms[] = {
		"bprm_execve ", "security_task_alloc ", "security_task_prctl ",
		"open_exec ", SYSCALL_SYM("execve") " ", "security_task_free ",
	};
	int n = 0;

	(void)arg;
	for (size_t i = 0; i < ARRAY_SIZE(syms); i++)
		n += !strncmp(line, syms[i], strlen(syms[i]));
	return n;
}

static int mentions(const char *line, const void *func)
{
	return !!strstr(line, func);
}

/* How many of six sample functions ftrace shows hooked. */
int module_probes(void)
{
	return enabled_functions_count(names_a_sample, NULL);
}

int ftrace_sites_calling(const char *func)
{
	return enabled_functions_count(mentions, func);
}

int unload_module(void)
{
	for (int i = 0; i < 50; i++) {
		if (delete_module() == 0)
			return 0;
		usleep(100000);
	}
	return -1;
}

int reload_with(const char *params)
{
	if (wait_tasks(0) != 0 || unload_module())
		return -1;
	return load_module_with(params);
}

/*
 * The module as it ships, with its defaults, and no task state left: as
 * it is when loaded, not the test build, exec_group at -1 and no tracked
 * task; otherwise unloaded (whichever build) and loaded again.
 */
int module_as_shipped(void)
{
	int shipped = access("/sys/module/" MODULE_NAME, F_OK) == 0;
	int fault = access("/sys/module/" FAULT_MODULE_NAME, F_OK) == 0;
	/* Not reload_with(): a test that missed task_free leaves entries. */
	long tasks = shipped || fault ? wait_tasks(0) : 0;

	if (shipped && !fault && tasks == 0 &&
	    read_text("/sys/module/" MODULE_NAME "/parameters/exec_group", "-1\n"))
		return 0;
	if ((shipped || fault) && unload_module())
		return -1;
	return load_module();
}

int reload_fault(const char *params)
{
	if (wait_tasks(0) != 0 || unload_module())
		return -1;
	return load_fault_module(params);
}

/* The exec ran into the last gate: SIGKILL before the program ran. */
int killed_before_running(const struct run *r)
{
	return WIFSIGNALED(r->status) && WTERMSIG(r->status) == SIGKILL &&
	       !strstr(r->out, "end=1");
}
#endif

long env_long(const char *name, long def)
{
	const char *v = getenv(name);

	return v && *v ? strtol(v, NULL, 0) : def;
}

int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok ? 0 : -1;
}

int read_text(const char *path, const char *text)
{
	char buf[256];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return 0;
	buf[n] = 0;
	return !strcmp(buf, text);
}

#ifndef NOSEC_KSELFTEST
int set_param(const char *name, const char *value)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s",
		 access("/sys/module/" FAULT_MODULE_NAME, F_OK) ?
		 MODULE_NAME : FAULT_MODULE_NAME, name);
	return write_text(path, value);
}
#endif

void setup_restrict(void)
{
	nosec_restrict_exec();
}

/* After no_new_privs, a seccomp filter: system call @nr fails with @err. */
int deny_syscall(int nr, int err)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned int)err),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { ARRAY_SIZE(f), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

int deny_execveat(int err)
{
	return deny_syscall(__NR_execveat, err);
}

/*
 * /proc/self/task/@tid/@name into @buf (@size bytes at most, with the
 * terminating NUL; "" when it cannot be read), its first line only.
 */
const char *read_thread_file(int tid, const char *name, char *buf, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/%s", tid, name);
	fd = open(path, O_RDONLY);
	n = fd < 0 ? 0 : read(fd, buf, size - 1);
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

/*
 * A task of TEST_UID that waits to be reached; restricted if asked.
 * Returns once it is set up (or gone).
 */
pid_t spawn_sleeper(int restricted)
{
	int ready[2];
	pid_t pid;
	char c;

	if (pipe(ready))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(ready[0]);
		setup_user();
		if (restricted && nosec_restrict_exec())
			_exit(1);
		close(ready[1]);
		for (;;)
			pause();
	}
	close(ready[1]);
	/* EOF when the sleeper is ready, or has died. */
	while (pid > 0 && read(ready[0], &c, 1) < 0 && errno == EINTR)
		;
	close(ready[0]);
	return pid;
}

#define YAMA_SCOPE "/proc/sys/kernel/yama/ptrace_scope"

static char yama_saved[8];

/* Debian's default: any task may ptrace its uid's others (ptrace_scope 0). */
void yama_permissive(void)
{
	int fd = open(YAMA_SCOPE, O_RDONLY);

	if (fd < 0)
		return;
	if (read(fd, yama_saved, sizeof(yama_saved) - 1) < 0)
		yama_saved[0] = 0;
	close(fd);
	write_text(YAMA_SCOPE, "0");
}

void yama_restore(void)
{
	if (yama_saved[0])
		write_text(YAMA_SCOPE, yama_saved);
}

#ifndef NOSEC_KSELFTEST
/* nosec-run @arg FIX_PROBE, stderr on stdout: a child for capture(). */
void nosec_run_capture(void *arg)
{
	char *const argv[] = { "nosec-run", arg, FIX_PROBE, NULL };

	dup2(1, 2);
	execve("/nosec/bin/nosec-run", argv, environ);
}
#endif

/**
 * log_says_after() - does the kernel log say @text after the last @marker?
 * @marker: a line the test wrote to /dev/kmsg before the step it checks
 * @text: what the step must have logged
 *
 * Return: 1 if it does, 0 if not (or the log cannot be read).
 */
int log_says_after(const char *marker, const char *text)
{
	static char log[1 << 17];
	int n = klogctl(3, log, sizeof(log) - 1);
	char *p, *last = NULL;

	if (n <= 0)
		return 0;
	log[n] = 0;
	for (p = strstr(log, marker); p; p = strstr(p + 1, marker))
		last = p;
	return last && strstr(last, text);
}
