// SPDX-License-Identifier: GPL-2.0
/*
 * Fail closed: every hook that can miss has a
 * backstop, every load step that can fail leaves nothing behind, root
 * cannot switch the hooks off with the ftrace_enabled sysctl, and the
 * administrator decides who may perform a nosecurity exec.  Every case
 * here reloads the module and runs as root; the execs run as TEST_UID.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "nosec.h"
#include "fixtures.h"
#include "harness.h"
#include "common.h"

/* 32-bit entry points from this static, non-PIE program: below 4 GiB. */
static char miss32_path[] = FIX_PROBE;
static unsigned int miss32_argv[2];

static void restricted_int80(void *arg)
{
	long nr = *(long *)arg;

	setup_user_restricted();
	miss32_argv[0] = (unsigned int)(uintptr_t)miss32_path;
	if (nr == NR32_EXECVE)
		printf("exec_errno=%ld\n",
		       -int80(NR32_EXECVE, (long)miss32_path, (long)miss32_argv, 0, 0, 0));
	else
		printf("exec_errno=%ld\n",
		       -int80(NR32_EXECVEAT, AT_FDCWD, (long)miss32_path,
			      (long)miss32_argv, 0, 0));
}

/* Each check runs with one hook missing every hit; 0 when it held. */
static int restricted_execve_denied(void)
{
	struct run r;
	int e = run_prog(PLAIN, FIX_PROBE, setup_user_restricted, &r);

	if (e != EPERM)
		printf("# restricted execve: %d, status %#x\n", e, r.status);
	return e != EPERM;
}

static void restricted_execveat(void *arg)
{
	char *argv[] = { FIX_PROBE, NULL };

	(void)arg;
	setup_user_restricted();
	syscall(__NR_execveat, AT_FDCWD, FIX_PROBE, argv, environ, 0);
	printf("exec_errno=%d\n", errno);
}

static int restricted_execveat_denied(void)
{
	struct run r;

	capture(restricted_execveat, NULL, &r);
	if (getl(&r, "exec_errno") != EPERM) {
		printf("# restricted execveat: %s\n", r.out);
		return 1;
	}
	return 0;
}

/*
 * The flag reaches the kernel's execveat() unseen: EINVAL, never a plain
 * exec; the library, asking whether the kernel knows the flag, gets
 * EINVAL too and says ENOSYS.
 */
static int nosec_exec_refused_einval(void)
{
	struct run r;
	int e = run_prog(NOSEC_IOCTL, FIX_PROBE_SUID, setup_user, &r);
	int l = run_prog(NOSEC, FIX_PROBE_SUID, setup_user, &r);

	if (e != EINVAL || l != ENOSYS)
		printf("# nosec exec without its execveat hook: ioctl %d, library %d, out %s\n",
		       e, l, r.out);
	return e != EINVAL || l != ENOSYS;
}

static int int80_denied(long nr)
{
	struct run r;

	capture(restricted_int80, &nr, &r);
	if (getl(&r, "exec_errno") != EPERM) {
		printf("# restricted int $0x80 %ld: %s\n", nr, r.out);
		return 1;
	}
	return 0;
}

static int int80_execve_denied(void)
{
	return int80_denied(NR32_EXECVE);
}

static int int80_execveat_denied(void)
{
	return int80_denied(NR32_EXECVEAT);
}

static int xonly_refused(void)
{
	struct run r;
	int e = run_prog(NOSEC, FIX_PROBE_XONLY, setup_user, &r);

	if (e != EACCES)
		printf("# exec-only program: %d\n", e);
	return e != EACCES;
}

static int xonly_interp_killed(void)
{
	struct run r;

	run_prog(NOSEC, FIX_DYNPROBE_XINTERP, setup_user, &r);
	if (!killed_before_running(&r)) {
		printf("# exec-only PT_INTERP: status %#x out %s\n", r.status, r.out);
		return 1;
	}
	return 0;
}

static int setuid_killed(void)
{
	struct run r;

	run_prog(NOSEC, FIX_PROBE_SUID, setup_user, &r);
	if (!killed_before_running(&r)) {
		printf("# setuid program: status %#x out %s\n", r.status, r.out);
		return 1;
	}
	return 0;
}

static int setuid_no_privilege(void)
{
	struct run r;

	if (run_prog(NOSEC, FIX_PROBE_SUID, setup_user, &r) ||
	    strcmp(get(&r, "uids"), "1000,1000,1000,1000")) {
		printf("# setuid program: %d uids %s\n", r.exec_errno, get(&r, "uids"));
		return 1;
	}
	return restricted_execve_denied();
}

/*
 * bprm_execve() is only reached by execs the syscall layer lets through:
 * a forced exec reaches it (and must stay without privilege) while a
 * restricted plain one is still refused.
 */
static int forced_runs_restricted_denied(void)
{
	struct run r;

	if (run_prog(FORCED, FIX_PROBE_SUID, setup_user, &r) ||
	    strcmp(get(&r, "uids"), "1000,1000,1000,1000")) {
		printf("# forced setuid program: %d uids %s\n", r.exec_errno, get(&r, "uids"));
		return 1;
	}
	return restricted_execve_denied();
}

/* A restricted parent's fork: a restricted child, or no child. */
static int restricted_fork_result(void)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		pid_t child;

		setup_user_restricted();
		child = fork();
		if (child == 0)
			_exit(child_execve_errno(FIX_PROBE) == EPERM ? 0 : 1);
		if (child < 0)
			_exit(errno == ENOMEM ? 10 : 11);
		_exit(wait_status(child) == 0 ? 20 : 21);
	}
	st = wait_status(pid);
	return st;
}

static int fork_restricted_child(void)
{
	int st = restricted_fork_result();

	if (st != 20)
		printf("# restricted fork: %d\n", st);
	return st != 20;
}

/*
 * The free hook misses: entries of exited tasks stay (tasks > 0), but no
 * new task ever inherits them, and unloading frees them.  The entries are
 * armings a seccomp filter kept from being consumed: they hold no module
 * reference.
 */
static void arm_and_exit(void *arg)
{
	(void)arg;
	setup_user();
	if (deny_execveat(EHOSTDOWN))
		_exit(97);
	/* The ioctl arms; the filter keeps its execveat from consuming it. */
	printf("exec_errno=%d\n", do_exec(NOSEC_IOCTL, FIX_PROBE, no_argv));
}

static int free_missed_no_stale_state(void)
{
	struct run r;
	int i;

	for (i = 0; i < 20; i++) {
		capture(arm_and_exit, NULL, &r);
		if (getl(&r, "exec_errno") != EHOSTDOWN) {
			printf("# arming child: %s\n", r.out);
			return 1;
		}
	}
	usleep(200000);
	if (stat_value("tasks") < 1) {
		printf("# the free hook was not missed: tasks %ld\n", stat_value("tasks"));
		return 1;
	}
	/* New tasks, some at the freed addresses, exec plainly. */
	for (i = 0; i < 40; i++) {
		if (run_prog(PLAIN, FIX_PROBE_SUID, setup_user, &r) ||
		    id_field(&r, "uids", 1) != 0) {
			printf("# new task %d: %d uids %s\n", i, r.exec_errno, get(&r, "uids"));
			return 1;
		}
	}
	return 0;
}

static const struct {
	const char *hook;
	int (*held)(void);
} missed_hooks[] = {
	/* The exec ban: the other layer, then the last gate. */
	{ "__x64_sys_execve", restricted_execve_denied },
	{ "__x64_sys_execveat", restricted_execveat_denied },
	{ "__x64_sys_execveat", nosec_exec_refused_einval },
	{ "__ia32_compat_sys_execve", int80_execve_denied },
	{ "__ia32_compat_sys_execveat", int80_execveat_denied },
	{ "bprm_execve", forced_runs_restricted_denied },
	/* The nosecurity exec: the last gate and the belt-and-braces check. */
	{ "security_bprm_check", xonly_refused },
	{ "open_exec", xonly_interp_killed },
	{ "security_bprm_creds_from_file", setuid_killed },
	/* The last gate itself: the layers before it hold. */
	{ "security_bprm_committing_creds", setuid_no_privilege },
	/* Inheritance: the fork backstop gives the child the flags. */
	{ "security_task_alloc", fork_restricted_child },
	{ "cgroup_can_fork", fork_restricted_child },
	{ "security_task_free", free_missed_no_stale_state },
};

static int t_every_missed_hook_fails_closed(void)
{
	int ret = PASS;

	for (size_t i = 0; i < sizeof(missed_hooks) / sizeof(missed_hooks[0]); i++) {
		char params[128];
		long missed;

		snprintf(params, sizeof(params), "test_miss=%s", missed_hooks[i].hook);
		/* Not reload_with(): a missed free leaves entries behind. */
		CHECK(unload_module() == 0 && load_fault_module(params) == 0,
		      "load with %s: %d", params, errno);
		if (missed_hooks[i].held()) {
			printf("# with %s missing\n", missed_hooks[i].hook);
			ret = FAIL;
			break;
		}
		missed = stat_value("missed");
		if (missed < 1) {
			printf("# %s: missed %ld: the hook never ran\n", missed_hooks[i].hook,
			       missed);
			ret = FAIL;
			break;
		}
	}
	CHECK(unload_module() == 0 && load_module() == 0, "normal reload: %d", errno);
	return ret;
}

/* ---- a load step fails: nothing left behind ---- */

/* Is @name a function of the running kernel (/proc/kallsyms)? */
static int kernel_has_symbol(const char *name)
{
	char line[256];
	FILE *f = fopen("/proc/kallsyms", "r");
	size_t n = strlen(name);
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f)) {
		char *sym = strrchr(line, ' ');

		found = sym && !strncmp(sym + 1, name, n) && sym[1 + n] == '\n';
	}
	if (f)
		fclose(f);
	return found;
}

/* Does the kernel log say @text after the last @marker? */
static int log_says_after(const char *marker, const char *text)
{
	static char log[1 << 17];
	int n = klogctl(3, log, sizeof(log) - 1);
	char *p, *last = NULL;

	if (n <= 0)
		return 0;
	log[n] = 0;
	for (p = strstr(log, marker); p; p = strstr(p + 1, marker))
		last = p;
	return last && strstr(last, text) != NULL;
}

static int t_every_load_step_unwinds(void)
{
	static const struct {
		const char *param, *logged;
		const char *lsm_hook;	/* required only where its LSM is built */
	} steps[] = {
		{ "fail_probe=bprm_execve", "cannot probe bprm_execve" },
		{ "fail_probe=cgroup_can_fork", "cannot probe cgroup_can_fork" },
		{ "fail_step=device", "cannot register /dev/nosec_exec" },
		{ "fail_step=ftrace", "cannot register the hooks with ftrace" },
		{ "fail_step=direct", "cannot probe security_task_prctl" },
		/* Where TOMOYO or SELinux is built in, its hook is no option. */
		{ "fail_probe=tomoyo_assign_domain", "cannot probe tomoyo_assign_domain",
		  "tomoyo_assign_domain" },
		{ "fail_probe=selinux_bprm_creds_for_exec",
		  "cannot probe selinux_bprm_creds_for_exec", "selinux_bprm_creds_for_exec" },
	};

	CHECK(wait_tasks(0) == 0 && unload_module() == 0, "unload: %d", errno);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		char marker[64];

		if (steps[i].lsm_hook && !kernel_has_symbol(steps[i].lsm_hook)) {
			printf("# no %s in this kernel: the hook is optional here\n",
			       steps[i].lsm_hook);
			continue;
		}

		snprintf(marker, sizeof(marker), "nosec_test: load step %zu", i);
		CHECK(write_text("/dev/kmsg", marker) == 0, "kmsg marker");
		CHECK(load_fault_module(steps[i].param) == -1, "%s must fail the load",
		      steps[i].param);
		CHECK(log_says_after(marker, steps[i].logged), "%s: the log says '%s'",
		      steps[i].param, steps[i].logged);
		CHECK(access("/dev/nosec_exec", F_OK) != 0, "%s left the device",
		      steps[i].param);
		CHECK(module_probes() == 0, "%s left %d hooks", steps[i].param,
		      module_probes());
		CHECK(nosec_restrict_exec() == -1 && errno == ENOSYS,
		      "%s: prctl still answers: %d", steps[i].param, errno);
	}
	CHECK(load_module() == 0, "normal load after the failures: %d", errno);
	return PASS;
}

/* ---- IBT: no indirect branch to an address without endbr64 ---- */

/*
 * On a kernel built with X86_KERNEL_IBT, the guard checks at load that
 * every function reached by an indirect call starts with endbr64: the
 * ftrace callback and each hook's handler.  The hooks with a handler are
 * the functions ftrace shows calling nosec_hook_callback (the direct hook
 * has none): the count must be theirs plus the callback.
 */
static int t_ibt_guard_checked_every_handler(void)
{
	long ibt = stat_value("ibt_kernel");
	long checked = stat_value("ibt_checked");
	int handlers = ftrace_sites_calling("nosec_hook_callback");

	CHECK(ibt == 0 || ibt == 1, "stats: ibt_kernel %ld", ibt);
	SKIP_IF(!ibt, "kernel built without X86_KERNEL_IBT: no endbr64 to check");
	CHECK(handlers > 0, "no hook calls nosec_hook_callback: %d", handlers);
	printf("# %ld targets checked: %d handler hooks and the callback\n",
	       checked, handlers);
	CHECK(checked == handlers + 1, "ibt_checked %ld, want %d", checked,
	      handlers + 1);
	return PASS;
}

/*
 * test_ibt_target names an address the guard checks as if the module
 * branched there indirectly.  A function's entry starts with endbr64 on a
 * kernel built with X86_KERNEL_IBT (__x64_sys_execve keeps its own: the
 * syscall table takes its address); 4 bytes in, no instruction does; and
 * the kernel seals (overwrites) the endbr64 of a function whose address
 * nothing takes, such as security_bprm_check.
 */
static int t_ibt_guard(void)
{
	const char *marker = "nosec_test: ibt guard";
	long ibt = stat_value("ibt_kernel");

	CHECK(ibt == 0 || ibt == 1, "stats: ibt_kernel %ld", ibt);
	SKIP_IF(!ibt, "kernel built without X86_KERNEL_IBT: the guard has nothing to refuse");
	CHECK(wait_tasks(0) == 0 && unload_module() == 0, "unload: %d", errno);
	CHECK(load_fault_module("test_ibt_target=__x64_sys_execve") == 0,
	      "a function's entry must pass the guard: %d", errno);
	CHECK(wait_tasks(0) == 0 && unload_module() == 0, "unload: %d", errno);
	CHECK(write_text("/dev/kmsg", marker) == 0, "kmsg marker");
	CHECK(load_fault_module("test_ibt_target=__x64_sys_execve+4") == -1,
	      "4 bytes into a function must fail the load");
	CHECK(log_says_after(marker, "__x64_sys_execve+4 at"),
	      "the log names the target");
	CHECK(access("/dev/nosec_exec", F_OK) != 0 && module_probes() == 0,
	      "the refused load left something");
	/* Sealed at boot: nothing takes its address. */
	CHECK(write_text("/dev/kmsg", marker) == 0, "kmsg marker");
	CHECK(load_fault_module("test_ibt_target=security_bprm_check") == -1,
	      "a sealed function must fail the load");
	CHECK(log_says_after(marker, "security_bprm_check at"),
	      "the log names the sealed target");
	CHECK(load_module() == 0, "normal load after the guard: %d", errno);
	return PASS;
}

/* ---- root cannot switch the hooks off ---- */

static int t_ftrace_sysctl_cannot_disable(void)
{
	const char *knob = "/proc/sys/kernel/ftrace_enabled";
	int fd = open(knob, O_WRONLY);
	ssize_t n;

	CHECK(fd >= 0, "open %s: %d", knob, errno);
	n = write(fd, "0\n", 2);
	CHECK(n == -1 && errno == EBUSY, "ftrace_enabled=0 while loaded: %zd %d", n, errno);
	close(fd);
	CHECK(restricted_execve_denied() == 0, "the ban still holds");
	return PASS;
}

/* ---- who may perform a nosecurity exec ---- */

#define EXEC_GROUP 4242

static void setup_in_exec_group(void)
{
	gid_t g = EXEC_GROUP;

	if (setgroups(1, &g) || setresgid(TEST_GID, TEST_GID, TEST_GID) ||
	    setresuid(TEST_UID, TEST_UID, TEST_UID))
		_exit(98);
}

static int t_exec_group_policy(void)
{
	struct run r;
	int ret = PASS, e;

	CHECK(reload_with("exec_group=4242") == 0, "load with exec_group: %d", errno);
	e = run_prog(NOSEC, FIX_PROBE, setup_user, &r);
	if (e != EACCES) {
		printf("# outside the group: %d\n", e);
		ret = FAIL;
	}
	e = run_prog(NOSEC, FIX_PROBE_SUID, setup_in_exec_group, &r);
	if (e || strcmp(get(&r, "uids"), "1000,1000,1000,1000")) {
		printf("# in the group: %d uids %s\n", e, get(&r, "uids"));
		ret = FAIL;
	}
	/* Force mode is a nosecurity exec too: the same group decides. */
	e = run_prog(FORCED, FIX_PROBE, setup_user, &r);
	if (e != EACCES) {
		printf("# force mode outside the group: %d\n", e);
		ret = FAIL;
	}
	e = run_prog(FORCED, FIX_PROBE_SUID, setup_in_exec_group, &r);
	if (e || strcmp(get(&r, "uids"), "1000,1000,1000,1000")) {
		printf("# force mode in the group: %d uids %s\n", e, get(&r, "uids"));
		ret = FAIL;
	}
	CHECK(reload_with("") == 0, "normal reload: %d", errno);
	CHECK(run_prog(NOSEC, FIX_PROBE, setup_user, &r) == 0, "default: everyone");
	return ret;
}

/* A group ID beyond 2^31: valid, and must work as any other. */
#define HIGH_GROUP 4294967294U

static void setup_in_high_group(void)
{
	gid_t g = HIGH_GROUP;

	if (setgroups(1, &g) || setresgid(TEST_GID, TEST_GID, TEST_GID) ||
	    setresuid(TEST_UID, TEST_UID, TEST_UID))
		_exit(98);
}

/* exec_group: -1 is everyone; any gid works; anything else refuses the load. */
static int t_exec_group_values(void)
{
	static const char *const refused[] = {
		"exec_group=-2", "exec_group=-2147483648", "exec_group=abc",
		"exec_group=4294967295", "exec_group=4294967296", "exec_group=",
		"exec_group=12x",
	};
	const char *marker = "nosec_test: exec_group values";
	char value[32];
	struct run r;
	int e;

	CHECK(wait_tasks(0) == 0 && unload_module() == 0, "unload: %d", errno);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		CHECK(write_text("/dev/kmsg", marker) == 0, "kmsg marker");
		CHECK(load_module_with(refused[i]) == -1 && errno == EINVAL,
		      "%s must refuse the load: %d", refused[i], errno);
		CHECK(log_says_after(marker, "not a group ID (0 to 4294967294) or -1"),
		      "%s: the log says why", refused[i]);
		CHECK(access("/dev/nosec_exec", F_OK) != 0, "%s left the device", refused[i]);
	}
	CHECK(load_module_with("exec_group=-1") == 0, "-1: %d", errno);
	CHECK(run_prog(NOSEC, FIX_PROBE, setup_user, &r) == 0, "-1 is everyone: %d",
	      r.exec_errno);
	CHECK(reload_with("exec_group=4294967294") == 0, "2^32-2: %d", errno);
	snprintf(value, sizeof(value), "%u\n", HIGH_GROUP);
	CHECK(read_text("/sys/module/nosec_exec/parameters/exec_group", value),
	      "the parameter reads back as %u", HIGH_GROUP);
	e = run_prog(NOSEC, FIX_PROBE, setup_user, &r);
	CHECK(e == EACCES, "outside group %u: %d", HIGH_GROUP, e);
	e = run_prog(NOSEC, FIX_PROBE_SUID, setup_in_high_group, &r);
	CHECK(e == 0 && !strcmp(get(&r, "uids"), "1000,1000,1000,1000"),
	      "in group %u: %d uids %s", HIGH_GROUP, e, get(&r, "uids"));
	CHECK(reload_with("exec_group=2147483648") == 0, "2^31: %d", errno);
	CHECK(read_text("/sys/module/nosec_exec/parameters/exec_group", "2147483648\n"),
	      "the parameter reads back as 2147483648");
	CHECK(reload_with("") == 0, "normal reload: %d", errno);
	CHECK(read_text("/sys/module/nosec_exec/parameters/exec_group", "-1\n"),
	      "default reads back as -1");
	return PASS;
}

/*
 * What ships has no test switch: the module the suite loads
 * as nosec_exec.ko, built as make, DKMS and the package build it, has
 * exec_group and no other parameter, in its file and once loaded; the
 * knobs are in the test build only.
 */
static int module_file_params(const char *path, char *names, size_t size)
{
	static char image[8 << 20];
	const char *tag = "parm=";	/* MODULE_PARM_DESC: "parm=NAME:TEXT" */
	size_t len = 0, tlen = strlen(tag);
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((n = read(fd, image + len, sizeof(image) - len)) > 0)
		len += n;
	close(fd);
	names[0] = 0;
	for (size_t i = 0; i + tlen < len; i++) {
		if (memcmp(image + i, tag, tlen))
			continue;
		strncat(names, image + i + tlen, strcspn(image + i + tlen, ":"));
		strncat(names, " ", size - strlen(names) - 1);
	}
	return 0;
}

static int t_shipped_module_no_test_knobs(void)
{
	char names[512];
	DIR *d;
	struct dirent *e;
	int n = 0;

	CHECK(module_file_params(MODULE_PATH, names, sizeof(names)) == 0, "read %s", MODULE_PATH);
	CHECK(!strcmp(names, "exec_group "), "%s declares: %s", MODULE_PATH, names);
	CHECK(module_file_params(FAULT_MODULE_PATH, names, sizeof(names)) == 0,
	      "read %s", FAULT_MODULE_PATH);
	CHECK(strstr(names, "test_miss ") && strstr(names, "fail_step ") &&
	      strstr(names, "test_fork_enomem "), "the test build declares: %s", names);
	d = opendir("/sys/module/nosec_exec/parameters");
	CHECK(d, "the loaded module's parameters: %d", errno);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			CHECK(!strcmp(e->d_name, "exec_group"), "loaded module has %s", e->d_name);
			n++;
		}
	closedir(d);
	CHECK(n == 1, "%d parameters", n);
	return PASS;
}

const struct test_case failsafe_cases[] = {
	{ "fail_closed_every_missed_hook", t_every_missed_hook_fails_closed, 1, 300,
	  .module_only = "the module's hooks, fault injection" },
	{ "load_every_failing_step_unwinds", t_every_load_step_unwinds, 1,
	  .module_only = "module load unwinding, fault injection" },
	{ "ibt_guard_checked_every_handler", t_ibt_guard_checked_every_handler, 1,
	  .module_only = "the module's indirect-branch guard" },
	{ "ibt_guard_refuses_target_without_endbr", t_ibt_guard, 1,
	  .module_only = "the module's indirect-branch guard, fault injection" },
	/* Natively the write would succeed and switch function tracing off. */
	{ "ftrace_sysctl_cannot_disable_hooks", t_ftrace_sysctl_cannot_disable, 1,
	  .module_only = "the module's ftrace hooks (ftrace_enabled)" },
	{ "exec_group_decides_who_may_nosec_exec", t_exec_group_policy, 1,
	  .module_only = "the exec_group parameter" },
	{ "exec_group_every_gid_and_bad_values", t_exec_group_values, 1,
	  .module_only = "the exec_group parameter" },
	{ "shipped_module_has_no_test_knobs", t_shipped_module_no_test_knobs, 1,
	  .module_only = "the shipped .ko, /sys/module/nosec_exec" },
	{ NULL },
};
