// SPDX-License-Identifier: GPL-2.0
/*
 * What already watches exec still sees a nosecurity exec: seccomp filters,
 * ptrace and the audit log.  Each seccomp action is tried through every
 * route to a nosecurity exec: execve_nosecurity(), fexecve_nosecurity(),
 * the raw call without the library, and force mode.
 *
 * A nosecurity exec is an execveat() with AT_EXECVE_NO_TRANSITION in its
 * flags, and a forced one the execve() the program made: the filters and
 * rules below name execve and execveat, nothing else.
 */
#ifndef NOSEC_KSELFTEST
/*
 * So it is on the module and on the series alike (the module's raw call,
 * NOSEC_IOC_EXECVEAT, turns into that execveat()), and the cases expect
 * the same on both.
 */
#endif
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/netlink.h>
#include <linux/ptrace.h>
#include <linux/seccomp.h>

#include "nosec.h"
#include "fixtures.h"
#include "common.h"
#include "../kselftest_harness.h"
#include "ksft_nosec.h"

NOSEC_FIXTURE(watchers);

static const enum how routes[] = { NOSEC, NOSEC_FD, NOSEC_RAW, FORCED };
static const char *const route_names[] = {
	[NOSEC] = "execve_nosecurity", [NOSEC_FD] = "fexecve_nosecurity",
#ifndef NOSEC_KSELFTEST
	[NOSEC_RAW] = "raw ioctl", [FORCED] = "force mode",
#else
	[NOSEC_RAW] = "raw execveat(AT_EXECVE_NO_TRANSITION)", [FORCED] = "force mode",
#endif
};

#define NR_ROUTES ARRAY_SIZE(routes)

static const char *route_name(enum how how)
{
#ifndef NOSEC_KSELFTEST
	if (nosec_native && how == NOSEC_RAW)
		return "raw execveat(AT_EXECVE_NO_TRANSITION)";
#endif
	return route_names[how];
}

/* The syscall each route makes: force mode's program execve, the others execveat. */
static int route_nr(enum how how)
{
	return how == FORCED ? __NR_execve : __NR_execveat;
}

/* ---- seccomp ---- */

/* A filter returning @action for execve and execveat, after NNP. */
static int exec_filter(unsigned int action, unsigned int flags)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NOSEC_AUDIT_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execve, 1, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execveat, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, action),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { ARRAY_SIZE(f), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
}

static unsigned int filter_action;

static void setup_filter(void)
{
	if (exec_filter(filter_action, 0))
		_exit(97);
}

TEST_F(watchers, seccomp_errno_binds_nosec_exec)
{
	struct run r;

	ARCH_TEST_START("a filter on the seccomp architecture");
	AS_TEST_USER();

	filter_action = SECCOMP_RET_ERRNO | EHOSTDOWN;
	for (size_t i = 0; i < NR_ROUTES; i++) {
		int ret = run_prog(routes[i], FIX_PROBE, setup_filter, &r);

		ASSERT_TRUE(ret == EHOSTDOWN && !strstr(r.out, "end=1"))
			TH_LOG("%s under SECCOMP_RET_ERRNO: %d, out %s", route_name(routes[i]), ret,
			       r.out);
	}
}

NOSEC_FIXTURE(seccomp_kill);

FIXTURE_VARIANT(seccomp_kill) {
	unsigned int action;
};

FIXTURE_VARIANT_ADD(seccomp_kill, seccomp_kill_process_binds_nosec_exec) {
	.action = SECCOMP_RET_KILL_PROCESS,
};

FIXTURE_VARIANT_ADD(seccomp_kill, seccomp_kill_thread_binds_nosec_exec) {
	.action = SECCOMP_RET_KILL_THREAD,
};

/* A filter that kills on execveat() kills every nosecurity exec. */
TEST_F(seccomp_kill, every_route_killed_by_sigsys)
{
	struct run r;

	ARCH_TEST_START("a filter on the seccomp architecture");
	AS_TEST_USER();
	filter_action = variant->action;
	for (size_t i = 0; i < NR_ROUTES; i++) {
		run_prog(routes[i], FIX_PROBE, setup_filter, &r);
		ASSERT_TRUE(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGSYS &&
			    !strstr(r.out, "end=1"))
			TH_LOG("%s: status %#x out %s", route_name(routes[i]), r.status, r.out);
	}
}

static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
	char buf[64];
	int n;

	(void)sig;
	(void)uc;
	n = snprintf(buf, sizeof(buf), "sigsys_nr=%d\nsigsys_arch=%#x\n",
		     si->si_syscall, si->si_arch);
	if (write(1, buf, n) != n)
		_exit(96);
	_exit(0);
}

static void trapped_exec(void *arg)
{
	enum how how = *(enum how *)arg;
	struct sigaction sa = { .sa_sigaction = on_sigsys, .sa_flags = SA_SIGINFO };
	char *const argv[] = { FIX_PROBE, NULL };

	sigaction(SIGSYS, &sa, NULL);
	filter_action = SECCOMP_RET_TRAP;
	setup_filter();
	printf("exec_errno=%d\n", do_exec(how, FIX_PROBE, argv));
}

TEST_F(watchers, seccomp_trap_names_execveat)
{
	struct run r;

	ARCH_TEST_START("a filter on the seccomp architecture");
	AS_TEST_USER();

	for (size_t i = 0; i < NR_ROUTES; i++) {
		enum how how = routes[i];

		capture(trapped_exec, &how, &r);
		ASSERT_TRUE(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0 &&
			    getl(&r, "sigsys_nr") == route_nr(how) &&
			    getl(&r, "sigsys_arch") == NOSEC_AUDIT_ARCH)
			TH_LOG("%s: SIGSYS for %s, arch %s, status %#x", route_name(how),
			       get(&r, "sigsys_nr"), get(&r, "sigsys_arch"), r.status);
	}
}

/*
 * SECCOMP_RET_USER_NOTIF: the child installs the filter with a listener
 * and forks the exec; it supervises, answering @error (0: continue).
 */
struct notif_case {
	enum how how;
	int error;
};

static void notified_exec(void *arg)
{
	const struct notif_case *c = arg;
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;
	char *const argv[] = { FIX_PROBE, NULL };
	int listener, status;
	pid_t pid;

	listener = exec_filter(SECCOMP_RET_USER_NOTIF,
			       SECCOMP_FILTER_FLAG_NEW_LISTENER);
	if (listener < 0)
		_exit(95);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(listener);
		printf("exec_errno=%d\n", do_exec(c->how, FIX_PROBE, argv));
		fflush(stdout);
		_exit(0);
	}
	memset(&req, 0, sizeof(req));
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req))
		_exit(94);
	printf("notif_nr=%d\n", req.data.nr);
	printf("notif_flags=%#llx\n", (unsigned long long)req.data.args[4]);
	memset(&resp, 0, sizeof(resp));
	resp.id = req.id;
	if (c->error)
		resp.error = -c->error;
	else
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	fflush(stdout);
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp))
		_exit(93);
	waitpid(pid, &status, 0);
	fflush(stdout);
	_exit(0);
}

TEST_F(watchers, seccomp_user_notif_continue_and_error)
{
	struct run r;

	ARCH_TEST_START("a filter on the seccomp architecture");
	AS_TEST_USER();

	for (size_t i = 0; i < NR_ROUTES; i++) {
		struct notif_case c = { routes[i], 0 };

		capture(notified_exec, &c, &r);
		ASSERT_EQ(route_nr(c.how), getl(&r, "notif_nr"))
			TH_LOG("%s: supervisor saw syscall %s (out %s)", route_name(c.how),
			       get(&r, "notif_nr"), r.out);
		ASSERT_TRUE(strstr(r.out, "end=1") && getl(&r, "uids") == TEST_UID)
			TH_LOG("%s: continued exec did not run: %s", route_name(c.how), r.out);
		c.error = EHOSTUNREACH;
		capture(notified_exec, &c, &r);
		ASSERT_TRUE(getl(&r, "exec_errno") == EHOSTUNREACH && !strstr(r.out, "end=1"))
			TH_LOG("%s: supervisor's error: %s", route_name(c.how), r.out);
	}
}

/*
 * An allowlist written before any of this, as Docker's default profile
 * is: the system calls numbered below the block every architecture
 * shares from 424 on (x86-64: up to 334, arm64: up to 294; execve and
 * execveat among them) allowed, anything else EPERM.  The control: 463,
 * a number an earlier ABI of the nosecurity exec used, is refused.
 */
#if defined(__x86_64__)
#define ALLOWLIST_LAST	334
#elif defined(__aarch64__)
#define ALLOWLIST_LAST	294
#else
#define ALLOWLIST_LAST	0	/* never used: its case skips */
#endif

static void setup_allowlist(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NOSEC_AUDIT_ARCH, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, ALLOWLIST_LAST, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
	};
	struct sock_fprog prog = { ARRAY_SIZE(f), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
		_exit(97);
	if (syscall(463, 0, 0, 0, 0, 0) != -1 || errno != EPERM)
		_exit(96);
}

/* Every route is execveat() (or the forced execve()): the allowlist runs it. */
TEST_F(watchers, seccomp_allowlist_with_execveat_runs_it)
{
	struct run r;

	ARCH_TEST_START("a filter on the seccomp architecture");
	AS_TEST_USER();

	for (size_t i = 0; i < NR_ROUTES; i++) {
		ASSERT_TRUE(run_prog(routes[i], FIX_PROBE_SUID, setup_allowlist, &r) == 0 &&
			    !strcmp(get(&r, "uids"), "1000,1000,1000,1000"))
			TH_LOG("%s: exec %d status %#x uids %s", route_name(routes[i]),
			       r.exec_errno, r.status, get(&r, "uids"));
	}
}

NOSEC_FIXTURE(seccomp_runs);

FIXTURE_VARIANT(seccomp_runs) {
	unsigned int action;
};

FIXTURE_VARIANT_ADD(seccomp_runs, seccomp_log_and_allow_run_it) {
	.action = SECCOMP_RET_LOG,
};

FIXTURE_VARIANT_ADD(seccomp_runs, seccomp_allow_runs_it) {
	.action = SECCOMP_RET_ALLOW,
};

/* A filter that logs or allows execveat() lets every route run. */
TEST_F(seccomp_runs, every_route_runs_without_privilege)
{
	struct run r;

	ARCH_TEST_START("a filter on the seccomp architecture");
	AS_TEST_USER();
	filter_action = variant->action;
	for (size_t i = 0; i < NR_ROUTES; i++) {
		ASSERT_EQ(0, run_prog(routes[i], FIX_PROBE_SUID, setup_filter, &r))
			TH_LOG("%s: exec %d", route_name(routes[i]), r.exec_errno);
		ASSERT_TRUE(!strcmp(get(&r, "uids"), "1000,1000,1000,1000"))
			TH_LOG("%s: uids %s", route_name(routes[i]), get(&r, "uids"));
	}
}

/* ---- ptrace: a tracer sees execveat with AT_EXECVE_NO_TRANSITION ---- */

#ifndef NOSEC_KSELFTEST
/*
 * The library's call, on the module and on the series; on the module, the
 * ioctl too, which returns into the same execveat.
 */

/*
 * What the ioctl returns, so that its syscall instruction runs again as
 * execveat (module/arch): on x86-64 the syscall number, which the return
 * register holds; on arm64 the first argument (the library's AT_FDCWD),
 * which it holds there, the number being in x8.
 */
#ifdef __aarch64__
#define IOCTL_RET_FOR_EXECVEAT	((unsigned long long)(long long)AT_FDCWD)
#else
#define IOCTL_RET_FOR_EXECVEAT	((unsigned long long)__NR_execveat)
#endif

struct traced_exec {
	int saw_ioctl, saw_execveat;
	unsigned long long ioctl_ret, at_flags;
};
#else
struct traced_exec {
	int saw_execveat;
	unsigned long long at_flags;
};
#endif

/* Trace a child through a nosecurity exec by @how, recording the calls. */
static int trace_nosec_exec(enum how how, struct traced_exec *t)
{
	struct ptrace_syscall_info info;
	int st, exited = 0;
	pid_t pid = fork();

	memset(t, 0, sizeof(*t));
	if (pid == 0) {
		char *const argv[] = { FIX_PROBE, NULL };
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		do_exec(how, FIX_PROBE, argv);
		_exit(99);
	}
	REQUIRE(waitpid(pid, &st, 0) == pid && WIFSTOPPED(st), "child stopped");
	REQUIRE(ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD) == 0, "options");
	for (int i = 0; i < 1000 && !exited; i++) {
		REQUIRE(ptrace(PTRACE_SYSCALL, pid, 0, 0) == 0, "PTRACE_SYSCALL %d", errno);
		REQUIRE(waitpid(pid, &st, 0) == pid, "wait");
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			exited = 1;
			break;
		}
		if (WSTOPSIG(st) != (SIGTRAP | 0x80))
			continue;	/* the exec's SIGTRAP */
		memset(&info, 0, sizeof(info));
		REQUIRE(ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), &info) > 0, "info");
#ifndef NOSEC_KSELFTEST
		if (info.op == PTRACE_SYSCALL_INFO_ENTRY && info.entry.nr == __NR_ioctl &&
		    info.entry.args[1] == NOSEC_IOC_EXECVEAT)
			t->saw_ioctl = 1;
		else if (info.op == PTRACE_SYSCALL_INFO_EXIT && t->saw_ioctl &&
			 !t->saw_execveat && !t->ioctl_ret)
			t->ioctl_ret = info.exit.rval;
		else if (info.op == PTRACE_SYSCALL_INFO_ENTRY &&
			 info.entry.nr == __NR_execveat && !t->saw_execveat) {
#else
		if (info.op == PTRACE_SYSCALL_INFO_ENTRY &&
		    info.entry.nr == __NR_execveat && !t->saw_execveat) {
#endif
			t->saw_execveat = 1;
			t->at_flags = info.entry.args[4];
		}
	}
	if (!exited)
		kill(pid, SIGKILL);
	REQUIRE(exited && WIFEXITED(st) && WEXITSTATUS(st) == 0, "traced program ran: %#x", st);
	return PASS;
}

TEST_F(watchers, ptrace_sees_execveat_with_the_flag)
{
	struct traced_exec t;

	AS_TEST_USER();

	ASSERT_EQ(PASS, trace_nosec_exec(NOSEC, &t)) TH_LOG("library route");
#ifndef NOSEC_KSELFTEST
	ASSERT_TRUE(!t.saw_ioctl && t.saw_execveat && t.at_flags == AT_EXECVE_NO_TRANSITION)
		TH_LOG("execve_nosecurity(): execveat seen %d, flags %#llx, ioctl %d",
		       t.saw_execveat, t.at_flags, t.saw_ioctl);
	if (nosec_native)
		return;
	ASSERT_EQ(PASS, trace_nosec_exec(NOSEC_RAW, &t)) TH_LOG("ioctl route");
	ASSERT_TRUE(t.saw_ioctl && t.ioctl_ret == IOCTL_RET_FOR_EXECVEAT)
		TH_LOG("ioctl seen %d, returned %lld", t.saw_ioctl, (long long)t.ioctl_ret);
	ASSERT_TRUE(t.saw_execveat && t.at_flags == AT_EXECVE_NO_TRANSITION)
		TH_LOG("the ioctl's execveat seen %d, flags %#llx", t.saw_execveat, t.at_flags);
#else
	ASSERT_TRUE(t.saw_execveat && t.at_flags == AT_EXECVE_NO_TRANSITION)
		TH_LOG("execve_nosecurity(): execveat seen %d, flags %#llx",
		       t.saw_execveat, t.at_flags);
#endif
}


/* ---- audit: the rules an administrator already has ---- */

static int audit_fd = -1;

/* Send one request and wait for its acknowledgment: 0 or -errno. */
static int audit_request(int type, const void *data, size_t len)
{
	struct {
		struct nlmsghdr h;
		char data[2048];
	} req;
	char buf[8192];
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };

	if (len > sizeof(req.data))
		return -E2BIG;
	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = NLMSG_LENGTH(len);
	req.h.nlmsg_type = type;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.h.nlmsg_seq = type;
	memcpy(req.data, data, len);
	if (sendto(audit_fd, &req, req.h.nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		return -errno;
	for (;;) {
		ssize_t n = recv(audit_fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h = (struct nlmsghdr *)buf;

		if (n < 0)
			return -errno;
		for (; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n))
			if (h->nlmsg_type == NLMSG_ERROR && h->nlmsg_seq == (unsigned int)type)
				return ((struct nlmsgerr *)NLMSG_DATA(h))->error;
	}
}

static int audit_set(int enabled, int pid)
{
	struct audit_status st = {
		.mask = AUDIT_STATUS_ENABLED | AUDIT_STATUS_PID,
		.enabled = enabled,
		.pid = pid,
	};

	return audit_request(AUDIT_SET, &st, sizeof(st));
}

/* -a always,exit -F arch=b64 -S execve,execveat */
static int audit_exec_rule(int type)
{
	struct audit_rule_data r;

	memset(&r, 0, sizeof(r));
	r.flags = AUDIT_FILTER_EXIT;
	r.action = AUDIT_ALWAYS;
	r.mask[__NR_execve / 32] |= 1U << (__NR_execve % 32);
	r.mask[__NR_execveat / 32] |= 1U << (__NR_execveat % 32);
	r.field_count = 1;
	r.fields[0] = AUDIT_ARCH;
	r.values[0] = NOSEC_AUDIT_ARCH;
	r.fieldflags[0] = AUDIT_EQUAL;
	return audit_request(type, &r, sizeof(r));
}

/* -w PATH -p x */
static int audit_watch_rule(int type, const char *path)
{
	struct {
		struct audit_rule_data r;
		char path[256];
	} w;
	size_t len = strlen(path);

	memset(&w, 0, sizeof(w));
	w.r.flags = AUDIT_FILTER_EXIT;
	w.r.action = AUDIT_ALWAYS;
	memset(w.r.mask, 0xff, sizeof(w.r.mask));
	w.r.field_count = 2;
	w.r.fields[0] = AUDIT_WATCH;
	w.r.values[0] = len;
	w.r.fieldflags[0] = AUDIT_EQUAL;
	w.r.fields[1] = AUDIT_PERM;
	w.r.values[1] = AUDIT_PERM_EXEC;
	w.r.fieldflags[1] = AUDIT_EQUAL;
	w.r.buflen = len;
	memcpy(w.path, path, len);
	return audit_request(type, &w, sizeof(w.r) + len);
}

/* The records received so far, "type serial text" a line. */
static char audit_log_text[1 << 18];

static void audit_collect(int ms)
{
	char buf[9000];
	size_t len = strlen(audit_log_text);
	struct pollfd p = { audit_fd, POLLIN, 0 };

	while (poll(&p, 1, ms) > 0) {
		ssize_t n = recv(audit_fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
		struct nlmsghdr *h = (struct nlmsghdr *)buf;
		int tlen;

		/*
		 * One record a datagram; its nlmsg_len counts the text only
		 * (audit's own convention), so the datagram's size is used.
		 */
		if (n <= (ssize_t)NLMSG_HDRLEN)
			break;
		tlen = n - NLMSG_HDRLEN;
		if (h->nlmsg_type < 1300 || len + tlen + 16 >= sizeof(audit_log_text))
			continue;
		len += snprintf(audit_log_text + len, sizeof(audit_log_text) - len,
				"%d %.*s\n", h->nlmsg_type, tlen,
				(const char *)NLMSG_DATA(h));
	}
}

/*
 * The serial of the first record of @type whose text holds every one of
 * the NULL-terminated @needles; 0 when there is none.
 */
static unsigned long audit_find(int type, const char *const needles[])
{
	char prefix[16];
	const char *p = audit_log_text;

	snprintf(prefix, sizeof(prefix), "%d ", type);
	while (p && *p) {
		const char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		char line[4096];
		int all = 1;

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		for (int i = 0; needles[i] && all; i++)
			all = !!strstr(line, needles[i]);
		if (all && !strncmp(line, prefix, strlen(prefix))) {
			const char *colon = strchr(line, ':');

			if (colon)
				return strtoul(colon + 1, NULL, 10);
		}
		p = end ? end + 1 : NULL;
	}
	return 0;
}

/* TEST_UID, CAP_NET_RAW kept in the permitted set only. */
static void setup_user_holding_net_raw(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0 } };

	prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0);
	if (setgroups(0, NULL) || setresgid(TEST_GID, TEST_GID, TEST_GID) ||
	    setresuid(TEST_UID, TEST_UID, TEST_UID))
		_exit(98);
	d[0].permitted = 1u << CAP_NET_RAW;
	if (syscall(SYS_capset, &h, d))
		_exit(97);
	prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0);
}

/*
 * Run @how of @path as TEST_UID (restricted first if @restricted; holding
 * CAP_NET_RAW in its permitted set if @holds_net_raw).
 */
static pid_t audited_exec_of(enum how how, const char *path, int restricted,
			     int holds_net_raw)
{
	pid_t pid = fork();

	if (pid == 0) {
		char *const argv[] = { (char *)path, NULL };
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		if (holds_net_raw)
			setup_user_holding_net_raw();
		else
			setup_user();
		if (restricted)
			nosec_restrict_exec();
		_exit(do_exec(how, path, argv));
	}
	wait_status(pid);
	return pid;
}

static pid_t audited_exec(enum how how, int restricted)
{
	return audited_exec_of(how, FIX_PROBE, restricted, 0);
}

/* Does event @serial hold a record of @type? */
static int audit_event_has(unsigned long serial, int type)
{
	char prefix[16], tag[32];
	const char *p = audit_log_text;

	snprintf(prefix, sizeof(prefix), "%d ", type);
	snprintf(tag, sizeof(tag), ":%lu)", serial);
	while (p && *p) {
		const char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (!strncmp(p, prefix, strlen(prefix)) &&
		    memmem(p, n, tag, strlen(tag)))
			return 1;
		p = end ? end + 1 : NULL;
	}
	return 0;
}

/* "syscall=N " of a plain execve's SYSCALL record (x86-64: 59). */
#define NOSEC_STR_(x)	#x
#define NOSEC_STR(x)	NOSEC_STR_(x)
#define EXECVE_FIELD	"syscall=" NOSEC_STR(__NR_execve) " "

/* "syscall=N " of the nosecurity exec's SYSCALL record. */
static const char *nosec_syscall_field(void)
{
	static char field[32];

	snprintf(field, sizeof(field), "syscall=%d ", route_nr(NOSEC));
	return field;
}

static int check_audited(void)
{
	char pidp[32], pidn[32], pidd[32], pidf[32];
	pid_t plain, nosec, denied, forced;
#ifndef NOSEC_KSELFTEST
	unsigned long s_plain, s_nosec, s_denied, s_forced, s_mark;
#else
	unsigned long s_plain, s_nosec, s_denied, s_forced;
#endif
	const char *nosec_nr = nosec_syscall_field();

	audit_log_text[0] = 0;
	plain = audited_exec(PLAIN, 0);
	nosec = audited_exec(NOSEC, 0);
	forced = audited_exec(FORCED, 0);
	denied = audited_exec(PLAIN, 1);
	audit_collect(1500);
	snprintf(pidp, sizeof(pidp), " pid=%d ", plain);
	snprintf(pidn, sizeof(pidn), " pid=%d ", nosec);
	snprintf(pidf, sizeof(pidf), " pid=%d ", forced);
	snprintf(pidd, sizeof(pidd), " pid=%d ", denied);

	s_plain = audit_find(AUDIT_SYSCALL,
			     (const char *[]){ EXECVE_FIELD, "success=yes", pidp, NULL });
	REQUIRE(s_plain, "plain execve: no SYSCALL record:\n%s", audit_log_text);
#ifndef NOSEC_KSELFTEST
	REQUIRE(!audit_find(AUDIT_KERNEL_OTHER, (const char *[]){ pidp, NULL }),
		"a plain execve has no nosec_exec record");
#endif
	s_nosec = audit_find(AUDIT_SYSCALL,
			     (const char *[]){ nosec_nr, "success=yes", pidn, NULL });
	REQUIRE(s_nosec, "nosecurity exec: no SYSCALL record for execveat:\n%s",
		audit_log_text);
	/* a0-a3 only: the flag in a4 is not in the record. */
	REQUIRE(audit_find(AUDIT_EXECVE, (const char *[]){ "argc=1", NULL }), "EXECVE records");
#ifndef NOSEC_KSELFTEST
	if (nosec_native) {
		/* The same SYSCALL records, without the module's own. */
		printf("# skip part: %s\n",
		       "module only: the series logs no marker record");
		s_forced = audit_find(AUDIT_SYSCALL, (const char *[]){
			EXECVE_FIELD, "success=yes", pidf, NULL });
		REQUIRE(s_forced, "forced exec: no SYSCALL record:\n%s",
			audit_log_text);
		s_denied = audit_find(AUDIT_SYSCALL, (const char *[]){
			EXECVE_FIELD, "success=no", "exit=-1 ", pidd, NULL });
		REQUIRE(s_denied, "denied execve: no SYSCALL record:\n%s",
			audit_log_text);
		return PASS;
	}
	s_mark = audit_find(AUDIT_KERNEL_OTHER,
			    (const char *[]){ "op=exec_nosecurity how=flag", pidn, "res=1", NULL });
	REQUIRE(s_mark == s_nosec, "nosec_exec record in the same event (%lu, %lu):\n%s",
		s_mark, s_nosec, audit_log_text);
	s_forced = audit_find(AUDIT_SYSCALL,
			      (const char *[]){ EXECVE_FIELD, "success=yes", pidf, NULL });
	s_mark = audit_find(AUDIT_KERNEL_OTHER,
			    (const char *[]){ "op=exec_nosecurity how=force", pidf, NULL });
	REQUIRE(s_forced && s_mark == s_forced, "forced exec: %lu %lu", s_forced, s_mark);
	/* Refused before the path is looked at: the exec rule sees it. */
	s_mark = audit_find(AUDIT_KERNEL_OTHER,
			    (const char *[]){ "op=exec_denied how=restricted", pidd,
					      "res=0", NULL });
	REQUIRE(s_mark, "denied exec: no nosec_exec record:\n%s", audit_log_text);
	s_denied = audit_find(AUDIT_SYSCALL,
			      (const char *[]){ EXECVE_FIELD, "success=no",
						"exit=-1 ", pidd, NULL });
	REQUIRE(s_denied == s_mark, "denied execve: SYSCALL record in the same event (%lu, %lu)",
		s_denied, s_mark);
#else
	s_forced = audit_find(AUDIT_SYSCALL,
			      (const char *[]){ EXECVE_FIELD, "success=yes", pidf, NULL });
	REQUIRE(s_forced, "forced exec: no SYSCALL record:\n%s", audit_log_text);
	/* Refused before the path is looked at: the exec rule sees it. */
	s_denied = audit_find(AUDIT_SYSCALL,
			      (const char *[]){ EXECVE_FIELD, "success=no",
						"exit=-1 ", pidd, NULL });
	REQUIRE(s_denied, "denied execve: no SYSCALL record:\n%s", audit_log_text);
#endif
	return PASS;
}

static int check_watch_only(void)
{
	char pidp[32], pidn[32];
	pid_t plain = audited_exec(PLAIN, 0), nosec = audited_exec(NOSEC, 0);

	audit_collect(1500);
	snprintf(pidp, sizeof(pidp), " pid=%d ", plain);
	snprintf(pidn, sizeof(pidn), " pid=%d ", nosec);
	REQUIRE(audit_find(AUDIT_SYSCALL, (const char *[]){ EXECVE_FIELD, pidp, NULL }),
		"watch: plain execve not recorded:\n%s", audit_log_text);
	REQUIRE(audit_find(AUDIT_SYSCALL,
			   (const char *[]){ nosec_syscall_field(), pidn, NULL }),
		"watch: nosecurity exec not recorded:\n%s", audit_log_text);
	REQUIRE(audit_find(AUDIT_PATH, (const char *[]){ "name=\"" FIX_PROBE "\"", NULL }),
		"watch: PATH record");
	return PASS;
}

/* Be the audit daemon, with the rule -S execve,execveat: PASS, SKIP, FAIL. */
static int audit_start(void)
{
	int ret;

	audit_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	SKIP_IF(audit_fd < 0, "no audit netlink in this kernel");
	ret = audit_set(1, getpid());
	REQUIRE(ret == 0, "enable audit, be its daemon: %d", ret);
	ret = audit_exec_rule(AUDIT_ADD_RULE);
	if (ret)
		audit_set(0, 0);
	REQUIRE(ret == 0, "add -S execve,execveat: %d", ret);
	return PASS;
}

/* Undo audit_start() and the watch on FIX_PROBE, whichever are there. */
static void audit_stop(void)
{
	audit_watch_rule(AUDIT_DEL_RULE, FIX_PROBE);
	audit_exec_rule(AUDIT_DEL_RULE);
	audit_set(0, 0);
}

TEST_F(watchers, audit_records_nosec_and_denied_execs)
{
	int ret, e;

	ARCH_TEST_START("an audit rule on the architecture");
	ret = audit_start();
	ASSERT_PASS(ret);
	/* Until audit_stop(), a failed check sets ret: nothing returns early. */
	e = audit_watch_rule(AUDIT_ADD_RULE, FIX_PROBE);
	if (e) {
		printf("# add -w " FIX_PROBE " -p x: %d\n", e);
		ret = FAIL;
	} else {
		ret = check_audited();
	}
	/* The watch alone records the plain and the nosecurity exec. */
	if (ret == PASS) {
		e = audit_exec_rule(AUDIT_DEL_RULE);
		audit_log_text[0] = 0;
		ret = e ? FAIL : check_watch_only();
		if (e)
			printf("# delete the syscall rule: %d\n", e);
	}
	audit_stop();
	ASSERT_PASS(ret);
}

/*
 * A file with capabilities, run by TEST_UID: the plain exec raises them
 * and audit says so (a BPRM_FCAPS record); a nosecurity exec grants none,
 * and audit must not say it did, nor for a caller that already holds
 * the file's capability in its permitted set (whose effective set a plain
 * exec would raise).
 */
TEST_F(watchers, audit_no_fcaps_record_for_nosec_exec)
{
	char pidp[32], pidn[32], pidf[32], pidh[32];
	pid_t plain, nosec, forced, holder;
	int ret;

	ARCH_TEST_START("an audit rule on the architecture");
	ret = audit_start();
	ASSERT_PASS(ret);
	audit_log_text[0] = 0;
	plain = audited_exec_of(PLAIN, FIX_PROBE_CAPS, 0, 0);
	nosec = audited_exec_of(NOSEC, FIX_PROBE_CAPS, 0, 0);
	forced = audited_exec_of(FORCED, FIX_PROBE_CAPS, 0, 0);
	holder = audited_exec_of(NOSEC, FIX_PROBE_CAPS, 0, 1);
	audit_collect(1500);
	audit_stop();
	snprintf(pidp, sizeof(pidp), " pid=%d ", plain);
	snprintf(pidn, sizeof(pidn), " pid=%d ", nosec);
	snprintf(pidf, sizeof(pidf), " pid=%d ", forced);
	snprintf(pidh, sizeof(pidh), " pid=%d ", holder);
	ret = (int)audit_find(AUDIT_SYSCALL, (const char *[]){ "success=yes", pidp, NULL });
	ASSERT_TRUE(ret) TH_LOG("plain exec: no SYSCALL record:\n%s", audit_log_text);
	/* BPRM_FCAPS carries no pid: the plain exec's event serial. */
	ASSERT_TRUE(audit_event_has(ret, AUDIT_BPRM_FCAPS))
		TH_LOG("plain exec of a file with capabilities: no BPRM_FCAPS record:\n%s",
		       audit_log_text);
	ret = (int)audit_find(AUDIT_SYSCALL, (const char *[]){ "success=yes", pidn, NULL });
	ASSERT_TRUE(ret) TH_LOG("nosecurity exec: no SYSCALL record:\n%s", audit_log_text);
	ASSERT_TRUE(!audit_event_has(ret, AUDIT_BPRM_FCAPS))
		TH_LOG("nosecurity exec: a BPRM_FCAPS record for capabilities not granted:\n%s",
		       audit_log_text);
	ret = (int)audit_find(AUDIT_SYSCALL, (const char *[]){ "success=yes", pidf, NULL });
	ASSERT_TRUE(ret) TH_LOG("forced exec: no SYSCALL record:\n%s", audit_log_text);
	ASSERT_TRUE(!audit_event_has(ret, AUDIT_BPRM_FCAPS))
		TH_LOG("forced exec: a BPRM_FCAPS record for capabilities not granted:\n%s",
		       audit_log_text);
	ret = (int)audit_find(AUDIT_SYSCALL, (const char *[]){ "success=yes", pidh, NULL });
	ASSERT_TRUE(ret)
		TH_LOG("nosecurity exec, caller holding CAP_NET_RAW: no SYSCALL record:\n%s",
		       audit_log_text);
	ASSERT_TRUE(!audit_event_has(ret, AUDIT_BPRM_FCAPS))
		TH_LOG("nosecurity exec, caller holding CAP_NET_RAW: a BPRM_FCAPS record:\n%s",
		       audit_log_text);
}

#ifndef NOSEC_KSELFTEST	/* the module: its ioctl */
/* ---- the arming itself ---- */

/*
 * NOSEC_EXEC_RESTRICT_ALL reaches execveat only from the ioctl: made
 * directly, beside the flag or not, it is EINVAL (no execveat() knows it),
 * so a restriction asked for is never silently dropped.
 */
TEST_F(watchers, restrict_all_bit_without_arming_einval)
{
	char *const argv[] = { FIX_PROBE, NULL };
	long ret;

	AS_TEST_USER();

	ret = syscall(__NR_execveat, AT_FDCWD, FIX_PROBE, argv, environ,
		      AT_EXECVE_NO_TRANSITION | NOSEC_EXEC_RESTRICT_ALL);
	ASSERT_ERRNO(EINVAL, ret, "with the flag, unarmed: %ld %d", ret, errno);
	ret = syscall(__NR_execveat, AT_FDCWD, FIX_PROBE, argv, environ,
		      NOSEC_EXEC_RESTRICT_ALL);
	ASSERT_ERRNO(EINVAL, ret, "alone: %ld %d", ret, errno);
}

/* A failed nosecurity exec leaves the ioctl's registers as they were. */
TEST_F(watchers, failed_nosec_exec_keeps_registers)
{
	MODULE_ONLY("the ioctl of /dev/nosec_exec");
	AS_TEST_USER();

	struct nosec_execveat_args a = {
		.pathname = (uintptr_t)FIX "/nope", .dirfd = AT_FDCWD,
	};
	int fd = open("/dev/nosec_exec", O_RDWR | O_CLOEXEC);
#if defined(__x86_64__)
	register long rdi asm("rdi") = fd;
	register long rsi asm("rsi") = NOSEC_IOC_EXECVEAT;
	register long rdx asm("rdx") = (long)&a;
	register long r10 asm("r10") = 0x1010;
	register long r8 asm("r8") = 0x0808;
	long ret = __NR_ioctl;

	ASSERT_TRUE(fd >= 0) TH_LOG("open");
	asm volatile("syscall"
		     : "+a"(ret), "+r"(rdi), "+r"(rsi), "+r"(rdx), "+r"(r10), "+r"(r8)
		     : : "rcx", "r11", "memory");
	ASSERT_EQ(-ENOENT, ret) TH_LOG("ioctl returned %ld", ret);
	ASSERT_TRUE(rdi == fd && rsi == (long)NOSEC_IOC_EXECVEAT && rdx == (long)&a &&
		    r10 == 0x1010 && r8 == 0x0808)
		TH_LOG("registers changed: %lx %lx %lx %lx %lx", rdi, rsi, rdx, r10, r8);
#elif defined(__aarch64__)
	/* x0 brings the descriptor and takes the result back, as always. */
	register long x0 asm("x0") = fd;
	register long x1 asm("x1") = NOSEC_IOC_EXECVEAT;
	register long x2 asm("x2") = (long)&a;
	register long x3 asm("x3") = 0x0303;
	register long x4 asm("x4") = 0x0404;
	register long x8 asm("x8") = __NR_ioctl;
	long ret, r[5];

	ASSERT_TRUE(fd >= 0) TH_LOG("open");
	asm volatile("svc #0"
		     : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3), "+r"(x4), "+r"(x8)
		     : : "memory");
	ret = x0;
	r[0] = x1;
	r[1] = x2;
	r[2] = x3;
	r[3] = x4;
	r[4] = x8;
	ASSERT_EQ(-ENOENT, ret) TH_LOG("ioctl returned %ld", ret);
	ASSERT_TRUE(r[0] == (long)NOSEC_IOC_EXECVEAT && r[1] == (long)&a && r[2] == 0x0303 &&
		    r[3] == 0x0404 && r[4] == __NR_ioctl)
		TH_LOG("registers changed: %lx %lx %lx %lx %lx", r[0], r[1], r[2], r[3], r[4]);
#endif
}

/*
 * An arming that its execveat never consumed (seccomp refused it) does not
 * reach the next exec: a plain execve of an execute-only program, which a
 * nosecurity exec refuses (no read permission), runs.
 */
static void refused_then_plain(void *arg)
{
	char *const argv[] = { FIX_PROBE_XONLY, NULL };
	int e;

	(void)arg;
	/* execveat refused by seccomp, execve allowed. */
	if (deny_execveat(EHOSTDOWN))
		_exit(97);
	execve_nosecurity(FIX_PROBE_XONLY, argv, environ);
	e = errno;
	printf("first_errno=%d\n", e);
	fflush(stdout);
	execve(FIX_PROBE_XONLY, argv, environ);
	printf("exec_errno=%d\n", errno);
}

TEST_F(watchers, unconsumed_arming_not_kept)
{
	struct run r;

	MODULE_ONLY("the ioctl's arming of execveat");
	AS_TEST_USER();

	capture(refused_then_plain, NULL, &r);
	ASSERT_EQ(EHOSTDOWN, getl(&r, "first_errno")) TH_LOG("armed execveat refused: %s", r.out);
	ASSERT_NE(NULL, strstr(r.out, "end=1"))
		TH_LOG("the plain execve after it ran as a plain exec: %s", r.out);
}
#endif	/* NOSEC_KSELFTEST */

TEST_HARNESS_MAIN
