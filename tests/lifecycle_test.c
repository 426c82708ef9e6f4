// SPDX-License-Identifier: GPL-2.0
/*
 * The module's life (as root; each test reloads it, NOSEC_RELOAD_FIXTURE):
 * an unload refused while a task is restricted and a clean reload, a
 * load that is all or nothing, failing closed when probes miss or a
 * restricted fork cannot allocate, a nosecurity exec whose read check
 * waits on a FUSE server that never answers, and nosec-run's message
 * when the module is not loaded.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nosec.h"
#include "fixtures.h"
#include "fuse_server.h"
#include "common.h"
#include "../kselftest_harness.h"
#include "ksft_nosec.h"

NOSEC_RELOAD_FIXTURE(lifecycle);

TEST_F(lifecycle, lifecycle_load_all_or_nothing)
{
	const char *marker = "nosec_test: load all or nothing";

	MODULE_ONLY("the fault-injection module's probe install");

	ASSERT_EQ(6, module_probes()) TH_LOG("probes while loaded: %d", module_probes());
	ASSERT_TRUE(wait_tasks(0) == 0 && unload_module() == 0) TH_LOG("unload: %d", errno);
	ASSERT_EQ(0, module_probes())
		TH_LOG("unload removes every probe: %d left", module_probes());
	ASSERT_EQ(0, write_text("/dev/kmsg", marker)) TH_LOG("kmsg marker");
	ASSERT_TRUE(load_fault_module("fail_probe=security_task_alloc") == -1)
		TH_LOG("injected failure must fail the load");
	ASSERT_NE(0, access("/dev/nosec_exec", F_OK)) TH_LOG("no device after a failed load");
	ASSERT_EQ(0, module_probes()) TH_LOG("failed load left %d probes", module_probes());
	ASSERT_TRUE(log_says_after(marker, "cannot probe security_task_alloc"))
		TH_LOG("the log names the symbol");
	/* The prctl hook fails last, with the others already live. */
	ASSERT_EQ(0, write_text("/dev/kmsg", marker)) TH_LOG("kmsg marker");
	ASSERT_TRUE(load_fault_module("fail_probe=security_task_prctl") == -1)
		TH_LOG("injected prctl hook failure must fail the load");
	ASSERT_EQ(0, module_probes()) TH_LOG("failed late load left %d probes", module_probes());
	ASSERT_TRUE(log_says_after(marker, "cannot probe security_task_prctl"))
		TH_LOG("the log names the prctl hook");
	ASSERT_EQ(0, load_module()) TH_LOG("normal load after the failure: %d", errno);
	ASSERT_TRUE(module_probes() == 6 && access("/dev/nosec_exec", F_OK) == 0)
		TH_LOG("loaded again");
}

TEST_F(lifecycle, fail_closed_when_probes_miss)
{
	struct run r;

	MODULE_ONLY("the module's probes, fault injection");

	/* The first two layers of the exec ban miss: the third refuses. */
	ASSERT_EQ(0, reload_fault("test_miss=" SYSCALL_SYM("execve") ","
				     SYSCALL_SYM("execveat") ",bprm_execve"))
		TH_LOG("load with missing ban probes: %d", errno);
	ASSERT_EQ(EPERM, run_prog(PLAIN, FIX_PROBE, setup_user_restricted, &r))
		TH_LOG("restricted execve, two layers missed: status %#x", r.status);
	ASSERT_EQ(0, stat_value("killed_execs"));
	/* All three miss: the last gate kills the exec. */
	ASSERT_EQ(0, reload_fault("test_miss=" SYSCALL_SYM("execve") ","
				     SYSCALL_SYM("execveat") ",bprm_execve,security_bprm_check"))
		TH_LOG("load with missing ban probes: %d", errno);
	ASSERT_EQ(-1, run_prog(PLAIN, FIX_PROBE, setup_user_restricted, &r));
	ASSERT_TRUE(killed_before_running(&r))
		TH_LOG("restricted execve with the ban missed: status %#x out %s", r.status, r.out);
	ASSERT_EQ(1, stat_value("killed_execs"));
	ASSERT_LE(2, stat_value("missed"));
	/* The per-file read check misses: the final one still refuses. */
	ASSERT_EQ(0, reload_fault("test_miss=security_bprm_check")) TH_LOG("reload");
	ASSERT_EQ(EACCES, run_prog(NOSEC, FIX_PROBE_XONLY, setup_user, &r))
		TH_LOG("exec-only program, bprm_check missed");
	/*
	 * The interpreter read check misses (binfmt_elf opens PT_INTERP with
	 * open_exec(), or through bprm_open_interpreter() on kernels that
	 * have it): would_dump's mark kills it.
	 */
	ASSERT_EQ(0, reload_fault("test_miss=open_exec,bprm_open_interpreter")) TH_LOG("reload");
	ASSERT_EQ(-1, run_prog(NOSEC, FIX_DYNPROBE_XINTERP, setup_user, &r));
	ASSERT_TRUE(killed_before_running(&r))
		TH_LOG("exec-only PT_INTERP, open_exec missed: status %#x", r.status);
	/* The cred swap misses: a setuid program never runs privileged. */
	ASSERT_EQ(0, reload_fault("test_miss=security_bprm_creds_from_file")) TH_LOG("reload");
	ASSERT_EQ(-1, run_prog(NOSEC, FIX_PROBE_SUID, setup_user, &r));
	ASSERT_TRUE(killed_before_running(&r))
		TH_LOG("setuid program, cred swap missed: status %#x out %s", r.status, r.out);
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

TEST_F(lifecycle, fail_closed_fork_enomem)
{
	long before;
	pid_t pid;
	int st;

	MODULE_ONLY("the module's fork backstop, fault injection");

	ASSERT_EQ(0, reload_fault("")) TH_LOG("load the test build: %d", errno);
	before = stat_value("fork_enomem");
	ASSERT_EQ(0, set_param("test_fork_enomem", "1")) TH_LOG("set knob: %d", errno);
	pid = fork();
	if (pid == 0) {
		setup_user();
		_exit(fork_errno_when_restricted());
	}
	st = wait_status(pid);
	ASSERT_EQ(0, set_param("test_fork_enomem", "0")) TH_LOG("clear knob");
	ASSERT_EQ(ENOMEM, st) TH_LOG("restricted fork with the allocation failing: %d", st);
	ASSERT_EQ(before + 1, stat_value("fork_enomem"))
		TH_LOG("fork_enomem %ld", stat_value("fork_enomem"));
	/* An unrestricted task forks normally under the same knob. */
	ASSERT_EQ(0, set_param("test_fork_enomem", "1")) TH_LOG("set knob");
	pid = fork();
	if (pid == 0)
		_exit(0);
	st = wait_status(pid);
	ASSERT_EQ(0, set_param("test_fork_enomem", "0")) TH_LOG("clear knob");
	ASSERT_TRUE(pid > 0 && st == 0) TH_LOG("unrestricted fork: %d", st);
	ASSERT_EQ(0, reload_with("")) TH_LOG("back to the real module: %d", errno);
}

TEST_F(lifecycle, lifecycle_unload_refused_then_reload_clean)
{
	int pfd[2], ret = PASS, i;
	pid_t pid;
	char c;

	MODULE_ONLY("unloads and reloads the module");

	ASSERT_EQ(0, wait_tasks(0)) TH_LOG("baseline 0 tasks");
	ASSERT_EQ(0, pipe(pfd)) TH_LOG("pipe");
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
	ASSERT_EQ(0, wait_status(pid)) TH_LOG("child still restricted after refused unload");
	ASSERT_EQ(PASS, ret) TH_LOG("unload refused");
	ASSERT_EQ(0, wait_tasks(0)) TH_LOG("tasks back to 0");
	for (i = 0; i < 50 && delete_module(); i++)
		usleep(100000);
	ASSERT_NE(0, access("/dev/nosec_exec", F_OK)) TH_LOG("unloaded: device gone (%d)", i);
	ASSERT_ERRNO(ENOSYS, execve_nosecurity(FIX_PROBE, NULL, NULL), "ENOSYS: %d", errno);
	ASSERT_ERRNO(ENOSYS, nosec_restrict_exec(), "prctl ENOSYS: %d", errno);
	ASSERT_EQ(0, load_module()) TH_LOG("reload: %d", errno);
	ASSERT_TRUE(stat_value("tasks") == 0 && stat_value("denied_execs") == 0 &&
		    stat_value("nosec_execs") == 0 && stat_value("killed_execs") == 0)
		TH_LOG("reload starts clean");
	ASSERT_EQ(0, nosec_exec_restricted()) TH_LOG("not restricted after reload");
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
TEST_F(lifecycle, stalled_read_check_killable)
{
	int fd = open("/nosec/kmod/fuse.ko", O_RDONLY | O_CLOEXEC), plain, nosec;
	long workers = stat_value("worker_read_checks");

	if (fd >= 0) {
		syscall(SYS_finit_module, fd, "", 0);	/* EEXIST is fine */
		close(fd);
	}
	if (access("/dev/fuse", F_OK))
		SKIP(return, "%s", "no FUSE in this kernel");
	mkdir(STALL_DIR, 0755);
	mkdir(STALL_DIR "/mnt", 0755);
	fd = open(STALL_DIR "/script", O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ASSERT_TRUE(fd >= 0 && dprintf(fd, "#!" STALL_DIR "/mnt/interp\n") > 0 && close(fd) == 0)
		TH_LOG("script: %d", errno);
	plain = killed_while_stalled(stall_open);
	ASSERT_TRUE(plain >= 0) TH_LOG("the plain open never reached the server: %d", errno);
	nosec = killed_while_stalled(stall_nosec_exec);
	ASSERT_TRUE(nosec >= 0) TH_LOG("the read check's open never reached the server");
	printf("# SIGKILL ended: the caller's open %s, the nosecurity exec %s\n",
	       plain ? "yes" : "no (FUSE waits for a request it sent)", nosec ? "yes" : "no");
	if (!nosec_native && stat_value("worker_read_checks") > workers) {
		ASSERT_EQ(1, nosec)
			TH_LOG("a worker made the read check: the caller must be killable");
	}
	ASSERT_TRUE(nosec >= plain) TH_LOG("the nosecurity exec is less killable than an open");
	if (!nosec_native) {
		ASSERT_EQ(0, reload_with(""))
			TH_LOG("the module unloads once the server is gone: %d", errno);
	}
}

TEST_F(lifecycle, nosec_run_module_not_loaded)
{
	struct run r;
	int status;

	MODULE_ONLY("unloads and reloads the module");

	ASSERT_TRUE(wait_tasks(0) == 0 && unload_module() == 0) TH_LOG("unload: %d", errno);
	status = capture(nosec_run_capture, "--restrict", &r);
	ASSERT_EQ(125, WEXITSTATUS(status)) TH_LOG("--restrict: status %#x", status);
	ASSERT_TRUE(strstr(r.out, "nosec_exec module is not loaded") &&
		    strstr(r.out, "modprobe nosec_exec"))
		TH_LOG("--restrict said: %s", r.out);
	status = capture(nosec_run_capture, "--", &r);
	ASSERT_EQ(125, WEXITSTATUS(status)) TH_LOG("plain run: status %#x", status);
	ASSERT_NE(NULL, strstr(r.out, "nosec_exec module is not loaded")) TH_LOG("said: %s", r.out);
	status = capture(nosec_run_capture, "--restrict-all", &r);
	ASSERT_EQ(125, WEXITSTATUS(status)) TH_LOG("--restrict-all: status %#x", status);
	ASSERT_NE(NULL, strstr(r.out, "nosec_exec module is not loaded")) TH_LOG("said: %s", r.out);
	ASSERT_EQ(0, load_module()) TH_LOG("reload: %d", errno);
}

TEST_HARNESS_MAIN
