// SPDX-License-Identifier: GPL-2.0
/*
 * The module's life (as root): the stats counters, an unload refused
 * while a task is restricted and a clean reload, a load that is all or
 * nothing, failing closed when probes miss or a restricted fork cannot
 * allocate, no stale state after restricted tasks exit, an exec storm
 * with no exec left to the last gate, and a nosecurity exec whose read check waits on a
 * FUSE server that never answers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nosec.h"
#include "fixtures.h"
#include "fuse_server.h"
#include "harness.h"
#include "common.h"

static int t_load_all_or_nothing(void)
{
	char log[1 << 16];
	int n;

	CHECK(module_probes() == 6, "probes while loaded: %d", module_probes());
	CHECK(wait_tasks(0) == 0 && unload_module() == 0, "unload: %d", errno);
	CHECK(module_probes() == 0, "unload removes every probe: %d left", module_probes());
	CHECK(load_fault_module("fail_probe=security_task_alloc") == -1, "injected failure must fail the load");
	CHECK(access("/dev/nosec_exec", F_OK) != 0, "no device after a failed load");
	CHECK(module_probes() == 0, "failed load left %d probes", module_probes());
	n = klogctl(3, log, sizeof(log) - 1);
	CHECK(n > 0, "klogctl");
	log[n] = 0;
	CHECK(strstr(log, "cannot probe security_task_alloc"), "the log names the symbol");
	/* The prctl hook fails last, with the others already live. */
	CHECK(load_fault_module("fail_probe=security_task_prctl") == -1,
	      "injected prctl hook failure must fail the load");
	CHECK(module_probes() == 0, "failed late load left %d probes", module_probes());
	n = klogctl(3, log, sizeof(log) - 1);
	CHECK(n > 0, "klogctl");
	log[n] = 0;
	CHECK(strstr(log, "cannot probe security_task_prctl"), "the log names the prctl hook");
	CHECK(load_module() == 0, "normal load after the failure: %d", errno);
	CHECK(module_probes() == 6 && access("/dev/nosec_exec", F_OK) == 0, "loaded again");
	return PASS;
}

static int t_fail_closed_missed_probes(void)
{
	struct run r;
	int ret = FAIL;

	/* Both layers of the exec ban miss: the last gate kills the exec. */
	CHECK(reload_fault("test_miss=__x64_sys_execve,__x64_sys_execveat,bprm_execve") == 0,
	      "load with missing ban probes: %d", errno);
	if (run_prog(PLAIN, FIX_PROBE, setup_user_restricted, &r) != -1 ||
	    !killed_before_running(&r)) {
		printf("# restricted execve with the ban missed: status %#x out %s\n", r.status, r.out);
		goto out_reload;
	}
	if (stat_value("killed_execs") != 1 || stat_value("missed") < 2) {
		printf("# killed %ld missed %ld\n", stat_value("killed_execs"), stat_value("missed"));
		goto out_reload;
	}
	/* The per-file read check misses: the final one still refuses. */
	CHECK(reload_fault("test_miss=security_bprm_check") == 0, "reload");
	if (run_prog(NOSEC, FIX_PROBE_XONLY, setup_user, &r) != EACCES) {
		printf("# exec-only program, bprm_check missed: %d\n", r.exec_errno);
		goto out_reload;
	}
	/* The interpreter read check misses: would_dump's mark kills it. */
	CHECK(reload_fault("test_miss=open_exec") == 0, "reload");
	if (run_prog(NOSEC, FIX_DYNPROBE_XINTERP, setup_user, &r) != -1 ||
	    !killed_before_running(&r)) {
		printf("# exec-only PT_INTERP, open_exec missed: status %#x\n", r.status);
		goto out_reload;
	}
	/* The cred swap misses: a setuid program never runs privileged. */
	CHECK(reload_fault("test_miss=security_bprm_creds_from_file") == 0, "reload");
	if (run_prog(NOSEC, FIX_PROBE_SUID, setup_user, &r) != -1 ||
	    !killed_before_running(&r)) {
		printf("# setuid program, cred swap missed: status %#x out %s\n", r.status, r.out);
		goto out_reload;
	}
	ret = PASS;
out_reload:
	CHECK(reload_with("") == 0, "normal reload: %d", errno);
	return ret;
}

static int fork_errno_when_restricted(void)
{
	pid_t pid;

	if (nosec_restrict_exec())
		return -1;
	pid = fork();
	if (pid == 0)
		_exit(child_execve_errno(FIX_PROBE));	/* must never run */
	if (pid > 0) {
		wait_status(pid);
		return 0;
	}
	return errno;
}

static int t_fork_enomem_fails_closed(void)
{
	long before;
	pid_t pid;
	int st;

	CHECK(reload_fault("") == 0, "load the test build: %d", errno);
	before = stat_value("fork_enomem");
	CHECK(set_param("test_fork_enomem", "1") == 0, "set knob: %d", errno);
	pid = fork();
	if (pid == 0) {
		setup_user();
		_exit(fork_errno_when_restricted());
	}
	st = wait_status(pid);
	CHECK(set_param("test_fork_enomem", "0") == 0, "clear knob");
	CHECK(st == ENOMEM, "restricted fork with the allocation failing: %d", st);
	CHECK(stat_value("fork_enomem") == before + 1, "fork_enomem %ld", stat_value("fork_enomem"));
	/* An unrestricted task forks normally under the same knob. */
	CHECK(set_param("test_fork_enomem", "1") == 0, "set knob");
	pid = fork();
	if (pid == 0)
		_exit(0);
	st = wait_status(pid);
	CHECK(set_param("test_fork_enomem", "0") == 0, "clear knob");
	CHECK(pid > 0 && st == 0, "unrestricted fork: %d", st);
	CHECK(reload_with("") == 0, "back to the real module: %d", errno);
	return PASS;
}

static int t_unload_refused_while_restricted(void)
{
	int pfd[2], ret = PASS, i;
	pid_t pid;
	char c;

	CHECK(wait_tasks(0) == 0, "baseline 0 tasks");
	CHECK(pipe(pfd) == 0, "pipe");
	pid = fork();
	if (pid == 0) {
		close(pfd[1]);
		if (nosec_restrict_exec())
			_exit(1);
		if (read(pfd[0], &c, 1) < 0)
			_exit(2);
		_exit(child_execve_errno(FIX_PROBE) == EPERM ? 0 : 3);
	}
	close(pfd[0]);
	for (i = 0; i < 100 && stat_value("tasks") < 1; i++)
		usleep(10000);
	if (delete_module() != -1 || errno != EWOULDBLOCK) {
		printf("# delete_module with a restricted task: %d\n", errno);
		ret = FAIL;
	}
	/* The restriction is still in force after the refused unload. */
	close(pfd[1]);
	CHECK(wait_status(pid) == 0, "child still restricted after refused unload");
	CHECK(ret == PASS, "unload refused");
	CHECK(wait_tasks(0) == 0, "tasks back to 0");
	for (i = 0; i < 50 && delete_module(); i++)
		usleep(100000);
	CHECK(access("/dev/nosec_exec", F_OK) != 0, "unloaded: device gone (%d)", i);
	CHECK(execve_nosecurity(FIX_PROBE, NULL, NULL) == -1 && errno == ENOSYS, "ENOSYS: %d", errno);
	CHECK(nosec_restrict_exec() == -1 && errno == ENOSYS, "prctl ENOSYS: %d", errno);
	CHECK(load_module() == 0, "reload: %d", errno);
	CHECK(stat_value("tasks") == 0 && stat_value("denied_execs") == 0 &&
	      stat_value("nosec_execs") == 0 && stat_value("killed_execs") == 0,
	      "reload starts clean");
	CHECK(nosec_exec_restricted() == 0, "not restricted after reload");
	return PASS;
}

static int t_no_stale_state(void)
{
	int i;

	/* The module's count of tasks with state (no stats natively). */
	if (!nosec_native) {
		long base = wait_tasks(0);

		CHECK(base == 0, "baseline %ld", base);
	}
	for (i = 0; i < 200; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			nosec_restrict_exec();
			if (i & 1)
				nosec_set_force(1);
			_exit(0);
		}
		CHECK(wait_status(pid) == 0, "child");
	}
	CHECK(nosec_native || wait_tasks(0) == 0,
	      "tasks %ld after 200 restricted exits", stat_value("tasks"));
	/* New tasks, possibly at reused addresses and pids, exec freely. */
	for (i = 0; i < 20; i++) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(child_execve_errno(FIX_PROBE));
		CHECK(wait_status(pid) == 0, "fresh task %d execs", i);
	}
	return PASS;
}

static int t_stats_counters(void)
{
	long denied = stat_value("denied_execs"), nosec = stat_value("nosec_execs");
	struct run r;

	CHECK(denied >= 0 && nosec >= 0 && stat_value("killed_execs") >= 0,
	      "stats readable");
	CHECK(run_prog(NOSEC, FIX_PROBE, NULL, &r) == 0, "nosec");
	CHECK(stat_value("nosec_execs") == nosec + 1, "nosec_execs %ld -> %ld", nosec, stat_value("nosec_execs"));
	CHECK(run_prog(PLAIN, FIX_PROBE, setup_restrict, &r) == EPERM, "denied");
	CHECK(stat_value("denied_execs") == denied + 1, "denied_execs %ld -> %ld", denied, stat_value("denied_execs"));
	return PASS;
}

static int storm_worker(int id)
{
	char *argv[] = { FIX_PROBE, NULL };

	if (id % 2 == 0)
		nosec_restrict_exec();
	if (id % 4 == 0)
		nosec_set_force(1);
	for (int i = 0; i < 60; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);

			dup2(null, 1);
			if (i % 2)
				execve_nosecurity(FIX_PROBE, argv, environ);
			else
				execve(FIX_PROBE, argv, environ);
			_exit(errno == EPERM ? 10 : 11);
		}
		int st = wait_status(pid);
		/* restricted, unforced, plain execve: must be EPERM */
		int want = (id % 4 == 2 && i % 2 == 0) ? 10 : 0;

		if (st != want)
			return 1;
	}
	return 0;
}

/*
 * Six workers exec every way at once; each result must be the right one,
 * and none may reach the last gate (killed_execs: an exec a hook should
 * have refused, or a nosecurity exec it should have kept in place).
 */
static int t_exec_storm_none_killed(void)
{
	long killed = stat_value("killed_execs");
	pid_t pids[6];
	int i, bad = 0;

	for (i = 0; i < 6; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			_exit(storm_worker(i));
	}
	for (i = 0; i < 6; i++)
		bad += wait_status(pids[i]) != 0;
	CHECK(bad == 0, "%d workers saw a wrong exec result", bad);
	if (nosec_native)
		return PASS;
	CHECK(stat_value("killed_execs") == killed, "killed %ld -> %ld", killed,
	      stat_value("killed_execs"));
	return PASS;
}

/* ---- a read check that never completes ---- */

#define STALL_DIR	"/tmp/stall"

/* Did @pid end within about @ms milliseconds?  Reaps it if so. */
static int ended_within(pid_t pid, int ms)
{
	for (int i = 0; i < ms / 10; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return 1;
		usleep(10000);
	}
	return 0;
}

static void stall_open(void *arg)
{
	(void)arg;
	open(STALL_DIR "/mnt/interp", O_RDONLY);
}

static void stall_nosec_exec(void *arg)
{
	char *argv[] = { "script", NULL };

	(void)arg;
	execve_nosecurity(STALL_DIR "/script", argv, environ);
}

/*
 * Run @fn in a child against a fresh FUSE server that never answers its
 * open; once the open waits, SIGKILL the child.  Return 1 if the child
 * ended before the server did, 0 if only the server's end released it,
 * -1 if the open never arrived.  The server is gone on return.
 */
static int killed_while_stalled(void (*fn)(void *))
{
	struct pollfd p = { .events = POLLIN };
	pid_t server, child;
	int killed = -1;

	server = fuse_stall_start(STALL_DIR "/mnt", &p.fd);
	if (server < 0)
		return -1;
	child = fork();
	if (child == 0) {
		fn(NULL);
		_exit(0);
	}
	if (poll(&p, 1, 20000) == 1) {
		usleep(200000);	/* into its wait */
		kill(child, SIGKILL);
		killed = ended_within(child, 3000);
	}
	kill(server, SIGKILL);
	wait_status(server);
	if (killed != 1) {
		kill(child, SIGKILL);
		ended_within(child, 10000);
	}
	umount2(STALL_DIR "/mnt", MNT_DETACH);
	close(p.fd);
	return killed;
}

/*
 * An interpreter on a FUSE file system whose server never answers the
 * read check's open for reading.  The nosecurity exec must stay as
 * killable as the caller's own open() of the file; where a kernel worker
 * makes the open (6.1's interpreters), SIGKILL ends the exec whatever the
 * worker waits for.  Once the server is gone, the worker is released and
 * the module unloads.
 */
static int t_stalled_read_check_killable(void)
{
	int fd = open("/nosec/kmod/fuse.ko", O_RDONLY | O_CLOEXEC), plain, nosec;
	long workers = stat_value("worker_read_checks");

	if (fd >= 0) {
		syscall(SYS_finit_module, fd, "", 0);	/* EEXIST is fine */
		close(fd);
	}
	SKIP_IF(access("/dev/fuse", F_OK), "no FUSE in this kernel");
	mkdir(STALL_DIR, 0755);
	mkdir(STALL_DIR "/mnt", 0755);
	fd = open(STALL_DIR "/script", O_WRONLY | O_CREAT | O_TRUNC, 0755);
	CHECK(fd >= 0 && dprintf(fd, "#!" STALL_DIR "/mnt/interp\n") > 0 && close(fd) == 0,
	      "script: %d", errno);
	plain = killed_while_stalled(stall_open);
	CHECK(plain >= 0, "the plain open never reached the server: %d", errno);
	nosec = killed_while_stalled(stall_nosec_exec);
	CHECK(nosec >= 0, "the read check's open never reached the server");
	printf("# SIGKILL ended: the caller's open %s, the nosecurity exec %s\n",
	       plain ? "yes" : "no (FUSE waits for a request it sent)", nosec ? "yes" : "no");
	if (!nosec_native && stat_value("worker_read_checks") > workers)
		CHECK(nosec == 1, "a worker made the read check: the caller must be killable");
	CHECK(nosec >= plain, "the nosecurity exec is less killable than an open");
	if (!nosec_native)
		CHECK(reload_with("") == 0, "the module unloads once the server is gone: %d",
		      errno);
	return PASS;
}

const struct test_case lifecycle_cases[] = {
	{ "stats_count_nosec_and_denied", t_stats_counters, 1,
	  .module_only = "the stats in debugfs" },
	{ "lifecycle_unload_refused_then_reload_clean", t_unload_refused_while_restricted, 1,
	  .module_only = "unloads and reloads the module" },
	{ "lifecycle_load_all_or_nothing", t_load_all_or_nothing, 1,
	  .module_only = "the fault-injection module's probe install" },
	{ "fail_closed_when_probes_miss", t_fail_closed_missed_probes, 1,
	  .module_only = "the module's probes, fault injection" },
	{ "fail_closed_fork_enomem", t_fork_enomem_fails_closed, 1,
	  .module_only = "the module's fork backstop, fault injection" },
	{ "no_stale_state_after_restricted_exits", t_no_stale_state, 1 },
	{ "exec_storm_none_killed", t_exec_storm_none_killed, 1, 400 },
	{ "stalled_read_check_killable", t_stalled_read_check_killable, 1 },
	{ NULL },
};
