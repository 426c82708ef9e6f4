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
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "nosec.h"
#include "fixtures.h"
#include "common.h"
#include "../kselftest_harness.h"
#include "ksft_nosec.h"

NOSEC_RELOAD_FIXTURE(failsafe);

#ifdef __x86_64__
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
#endif

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
	int e = run_prog(NOSEC_RAW, FIX_PROBE_SUID, setup_user, &r);
	int l = run_prog(NOSEC, FIX_PROBE_SUID, setup_user, &r);

	if (e != EINVAL || l != ENOSYS)
		printf("# nosec exec without its execveat hook: ioctl %d, library %d, out %s\n",
		       e, l, r.out);
	return e != EINVAL || l != ENOSYS;
}

#if defined(__x86_64__)
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
#elif defined(__aarch64__)
/*
 * The AArch32 entry: prog32 restricts itself and makes @call.  No prog32
 * here, or no AArch32: SKIP_HELPER.
 */
static int aarch32_denied(const char *call)
{
	struct run r;
	int ret = prog32_calls(setup_user, PR_RESTRICT_EXEC, FIX_PROBE, call, &r);

	if (ret != PASS)
		return ret;
	if (getl(&r, "errno1") != EPERM) {
		printf("# restricted AArch32 %s: %s\n", call, r.out);
		return 1;
	}
	return 0;
}

static int aarch32_execve_denied(void)
{
	return aarch32_denied("execve");
}

static int aarch32_execveat_denied(void)
{
	return aarch32_denied("execveat");
}
#endif

static int xonly_refused(void)
{
	struct run r;
	int e = run_prog(NOSEC, FIX_PROBE_XONLY, setup_user, &r);

	if (e != EACCES)
		printf("# exec-only program: %d\n", e);
	return e != EACCES;
}

/*
 * An exec-only PT_INTERP, its hook missing: refused by a hook the open
 * still meets (open_exec(), where the compiler kept it a call of its
 * own, as Clang does in bprm_open_interpreter() on 7.3), else killed at
 * the last gate.  Never run.
 */
static int xonly_interp_refused_or_killed(void)
{
	struct run r;
	int ret = run_prog(NOSEC, FIX_DYNPROBE_XINTERP, setup_user, &r);

	if (ret != EACCES && !killed_before_running(&r)) {
		printf("# exec-only PT_INTERP: %d, status %#x out %s\n", ret, r.status, r.out);
		return 1;
	}
	return 0;
}

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

/*
 * A script whose interpreter the caller may execute, not read: the
 * interpreter is the exec's file in the next round, and checked there.
 */
static int xonly_script_interp_refused(void)
{
	struct run r;
	int ret = run_prog(NOSEC, FIX_SCRIPT_XINTERP, setup_user, &r);

	if (ret != EACCES && !killed_before_running(&r)) {
		printf("# exec-only script interpreter: %d, status %#x out %s\n",
		       ret, r.status, r.out);
		return 1;
	}
	return 0;
}

/*
 * open_exec() opens a script's interpreter, and binfmt_elf's PT_INTERP
 * where the kernel has no bprm_open_interpreter() (which has its own
 * variant below).
 */
static int open_exec_missed_held(void)
{
	if (xonly_script_interp_refused())
		return 1;
	return kernel_has_symbol("bprm_open_interpreter") ? 0 :
	       xonly_interp_refused_or_killed();
}

/* binfmt_elf's PT_INTERP, where bprm_open_interpreter() opens it. */
static int bprm_open_interpreter_missed_held(void)
{
	SKIP_IF(!kernel_has_symbol("bprm_open_interpreter"),
		"no bprm_open_interpreter() here: open_exec() opens PT_INTERP");
	return xonly_interp_refused_or_killed();
}

/* The explicit call's and a forced exec's: neither runs. */
static int setuid_killed(void)
{
	static const enum how hows[] = { NOSEC, FORCED };
	struct run r;

	for (size_t i = 0; i < sizeof(hows) / sizeof(hows[0]); i++) {
		run_prog(hows[i], FIX_PROBE_SUID, setup_user, &r);
		if (!killed_before_running(&r)) {
			printf("# setuid program (%s): status %#x out %s\n",
			       hows[i] == FORCED ? "forced" : "explicit", r.status, r.out);
			return 1;
		}
	}
	return 0;
}

/* The explicit call's and a forced exec's: both run, without privilege. */
static int setuid_no_privilege(void)
{
	static const enum how hows[] = { NOSEC, FORCED };
	struct run r;

	for (size_t i = 0; i < sizeof(hows) / sizeof(hows[0]); i++) {
		if (run_prog(hows[i], FIX_PROBE_SUID, setup_user, &r) ||
		    strcmp(get(&r, "uids"), "1000,1000,1000,1000")) {
			printf("# setuid program (%s): %d uids %s\n",
			       hows[i] == FORCED ? "forced" : "explicit", r.exec_errno,
			       get(&r, "uids"));
			return 1;
		}
	}
	return restricted_execve_denied();
}

/*
 * commoncap's hook missing: it computes set-ID creds for the real file.
 * The explicit call replaces them with the caller's; a forced exec, whose
 * creds commoncap must compute as under no_new_privs, is refused.
 */
static int cap_missed_held(void)
{
	struct run r;
	int e;

	if (run_prog(NOSEC, FIX_PROBE_SUID, setup_user, &r) ||
	    strcmp(get(&r, "uids"), "1000,1000,1000,1000")) {
		printf("# setuid program: %d uids %s\n", r.exec_errno, get(&r, "uids"));
		return 1;
	}
	e = run_prog(FORCED, FIX_PROBE_SUID, setup_user, &r);
	if (e != EPERM) {
		printf("# forced setuid program: %d uids %s, want EPERM\n", e, get(&r, "uids"));
		return 1;
	}
	return 0;
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
	printf("exec_errno=%d\n", do_exec(NOSEC_RAW, FIX_PROBE, no_argv));
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

/*
 * One hook missing (the test build's test_miss): what it guards still
 * holds, and the hook's miss is counted.
 */
NOSEC_RELOAD_FIXTURE(missed_hook);

FIXTURE_VARIANT(missed_hook) {
	const char *hook;
	/* 0: what @hook guards holds without it; SKIP_HELPER: untestable here */
	int (*held)(void);
};

/* The exec ban: the other layer, then the last gate. */
#if defined(__x86_64__)
FIXTURE_VARIANT_ADD(missed_hook, x64_sys_execve) {
	.hook = SYSCALL_SYM("execve"),
	.held = restricted_execve_denied,
};

FIXTURE_VARIANT_ADD(missed_hook, x64_sys_execveat) {
	.hook = SYSCALL_SYM("execveat"),
	.held = restricted_execveat_denied,
};

FIXTURE_VARIANT_ADD(missed_hook, x64_sys_execveat_nosec) {
	.hook = SYSCALL_SYM("execveat"),
	.held = nosec_exec_refused_einval,
};

FIXTURE_VARIANT_ADD(missed_hook, ia32_compat_sys_execve) {
	.hook = COMPAT_SYSCALL_SYM("execve"),
	.held = int80_execve_denied,
};

FIXTURE_VARIANT_ADD(missed_hook, ia32_compat_sys_execveat) {
	.hook = COMPAT_SYSCALL_SYM("execveat"),
	.held = int80_execveat_denied,
};
#elif defined(__aarch64__)
FIXTURE_VARIANT_ADD(missed_hook, arm64_sys_execve) {
	.hook = SYSCALL_SYM("execve"),
	.held = restricted_execve_denied,
};

FIXTURE_VARIANT_ADD(missed_hook, arm64_sys_execveat) {
	.hook = SYSCALL_SYM("execveat"),
	.held = restricted_execveat_denied,
};

FIXTURE_VARIANT_ADD(missed_hook, arm64_sys_execveat_nosec) {
	.hook = SYSCALL_SYM("execveat"),
	.held = nosec_exec_refused_einval,
};

FIXTURE_VARIANT_ADD(missed_hook, arm64_compat_sys_execve) {
	.hook = COMPAT_SYSCALL_SYM("execve"),
	.held = aarch32_execve_denied,
};

FIXTURE_VARIANT_ADD(missed_hook, arm64_compat_sys_execveat) {
	.hook = COMPAT_SYSCALL_SYM("execveat"),
	.held = aarch32_execveat_denied,
};
#endif

FIXTURE_VARIANT_ADD(missed_hook, bprm_execve) {
	.hook = "bprm_execve",
	.held = forced_runs_restricted_denied,
};

/* The nosecurity exec: the last gate and the belt-and-braces check. */
FIXTURE_VARIANT_ADD(missed_hook, security_bprm_check) {
	.hook = "security_bprm_check",
	.held = xonly_refused,
};

FIXTURE_VARIANT_ADD(missed_hook, open_exec) {
	.hook = "open_exec",
	.held = open_exec_missed_held,
};

FIXTURE_VARIANT_ADD(missed_hook, bprm_open_interpreter) {
	.hook = "bprm_open_interpreter",
	.held = bprm_open_interpreter_missed_held,
};

FIXTURE_VARIANT_ADD(missed_hook, security_bprm_creds_from_file) {
	.hook = "security_bprm_creds_from_file",
	.held = setuid_killed,
};

FIXTURE_VARIANT_ADD(missed_hook, cap_bprm_creds_from_file) {
	.hook = "cap_bprm_creds_from_file",
	.held = cap_missed_held,
};

/* The last gate itself: the layers before it hold. */
FIXTURE_VARIANT_ADD(missed_hook, security_bprm_committing_creds) {
	.hook = "security_bprm_committing_creds",
	.held = setuid_no_privilege,
};

/* Inheritance: the fork backstop gives the child the flags. */
FIXTURE_VARIANT_ADD(missed_hook, security_task_alloc) {
	.hook = "security_task_alloc",
	.held = fork_restricted_child,
};

FIXTURE_VARIANT_ADD(missed_hook, cgroup_can_fork) {
	.hook = "cgroup_can_fork",
	.held = fork_restricted_child,
};

FIXTURE_VARIANT_ADD(missed_hook, security_task_free) {
	.hook = "security_task_free",
	.held = free_missed_no_stale_state,
};

TEST_F(missed_hook, fail_closed_every_missed_hook)
{
	char params[128];
	int held;

	MODULE_ONLY("the module's hooks, fault injection");

	snprintf(params, sizeof(params), "test_miss=%s", variant->hook);
	ASSERT_EQ(0, reload_fault(params)) TH_LOG("load with %s: %d", params, errno);
	held = variant->held();
	if (held == SKIP_HELPER)
		SKIP(return, "%s", skip_reason);
	ASSERT_EQ(0, held) TH_LOG("with %s missing", variant->hook);
	ASSERT_LE(1, stat_value("missed")) TH_LOG("%s: the hook never ran", variant->hook);
}

/* ---- a load step fails: nothing left behind ---- */

TEST_F(failsafe, load_every_failing_step_unwinds)
{
	static const struct {
		const char *param, *logged;
		const char *lsm_hook;	/* required only where its LSM is built */
	} steps[] = {
		{ "fail_probe=bprm_execve", "cannot probe bprm_execve" },
		{ "fail_probe=cgroup_can_fork", "cannot probe cgroup_can_fork" },
		{ "fail_step=plain_file", "cannot create the forced execs' stand-in file" },
		{ "fail_step=device", "cannot register /dev/nosec_exec" },
		{ "fail_step=ftrace", "cannot register the hooks with ftrace" },
#ifdef __x86_64__
		{ "fail_step=direct", "cannot probe security_task_prctl" },
#else
		/* arm64's prctl hook is a handler, not a direct call. */
		{ "fail_probe=security_task_prctl", "cannot probe security_task_prctl" },
#endif
		/* Where TOMOYO or SELinux is built in, its hook is no option. */
		{ "fail_probe=tomoyo_assign_domain", "cannot probe tomoyo_assign_domain",
		  "tomoyo_assign_domain" },
		{ "fail_probe=selinux_bprm_creds_for_exec",
		  "cannot probe selinux_bprm_creds_for_exec", "selinux_bprm_creds_for_exec" },
	};

	MODULE_ONLY("module load unwinding, fault injection");

	ASSERT_TRUE(wait_tasks(0) == 0 && unload_module() == 0) TH_LOG("unload: %d", errno);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		char marker[64];

		if (steps[i].lsm_hook && !kernel_has_symbol(steps[i].lsm_hook)) {
			printf("# no %s in this kernel: the hook is optional here\n",
			       steps[i].lsm_hook);
			continue;
		}

		snprintf(marker, sizeof(marker), "nosec_test: load step %zu", i);
		ASSERT_EQ(0, write_text("/dev/kmsg", marker)) TH_LOG("kmsg marker");
		ASSERT_EQ(-1, load_fault_module(steps[i].param))
			TH_LOG("%s must fail the load", steps[i].param);
		ASSERT_TRUE(log_says_after(marker, steps[i].logged))
			TH_LOG("%s: the log says '%s'", steps[i].param, steps[i].logged);
		ASSERT_NE(0, access("/dev/nosec_exec", F_OK))
			TH_LOG("%s left the device", steps[i].param);
		ASSERT_EQ(0, module_probes())
			TH_LOG("%s left %d hooks", steps[i].param, module_probes());
		ASSERT_ERRNO(ENOSYS, nosec_restrict_exec(), "%s: prctl still answers: %d",
			     steps[i].param, errno);
	}
	ASSERT_EQ(0, load_module()) TH_LOG("normal load after the failures: %d", errno);
}

#if defined(__x86_64__)
/* ---- IBT: no indirect branch to an address without endbr64 ---- */

/*
 * On a kernel built with X86_KERNEL_IBT, the guard checks at load that
 * every function reached by an indirect call starts with endbr64: the
 * ftrace callback and each hook's handler.  The hooks with a handler are
 * the functions ftrace shows calling nosec_hook_callback (the direct hook
 * has none): the count must be theirs plus the callback.
 */
TEST_F(failsafe, ibt_guard_checked_every_handler)
{
	MODULE_ONLY("the module's indirect-branch guard");

	long ibt = stat_value("ibt_kernel");
	long checked = stat_value("ibt_checked");
	int handlers = ftrace_sites_calling("nosec_hook_callback");

	ASSERT_TRUE(ibt == 0 || ibt == 1) TH_LOG("stats: ibt_kernel %ld", ibt);
	if (!ibt)
		SKIP(return, "%s", "kernel built without X86_KERNEL_IBT: no endbr64 to check");
	ASSERT_TRUE(handlers > 0) TH_LOG("no hook calls nosec_hook_callback: %d", handlers);
	printf("# %ld targets checked: %d handler hooks and the callback\n",
	       checked, handlers);
	ASSERT_EQ(handlers + 1, checked) TH_LOG("ibt_checked %ld, want %d", checked, handlers + 1);
}

/*
 * test_ibt_target names an address the guard checks as if the module
 * branched there indirectly.  A function's entry starts with endbr64 on a
 * kernel built with X86_KERNEL_IBT (__x64_sys_execve keeps its own: the
 * syscall table takes its address); 4 bytes in, no instruction does; and
 * the kernel seals (overwrites) the endbr64 of a function whose address
 * nothing takes, such as security_bprm_check.
 */
TEST_F(failsafe, ibt_guard_refuses_target_without_endbr)
{
	MODULE_ONLY("the module's indirect-branch guard, fault injection");

	const char *marker = "nosec_test: ibt guard";
	long ibt = stat_value("ibt_kernel");

	ASSERT_TRUE(ibt == 0 || ibt == 1) TH_LOG("stats: ibt_kernel %ld", ibt);
	if (!ibt)
		SKIP(return, "%s",
		     "kernel built without X86_KERNEL_IBT: the guard has nothing to refuse");
	ASSERT_TRUE(wait_tasks(0) == 0 && unload_module() == 0) TH_LOG("unload: %d", errno);
	ASSERT_TRUE(load_fault_module("test_ibt_target=__x64_sys_execve") == 0)
		TH_LOG("a function's entry must pass the guard: %d", errno);
	ASSERT_TRUE(wait_tasks(0) == 0 && unload_module() == 0) TH_LOG("unload: %d", errno);
	ASSERT_EQ(0, write_text("/dev/kmsg", marker)) TH_LOG("kmsg marker");
	ASSERT_TRUE(load_fault_module("test_ibt_target=__x64_sys_execve+4") == -1)
		TH_LOG("4 bytes into a function must fail the load");
	ASSERT_TRUE(log_says_after(marker, "__x64_sys_execve+4 at"))
		TH_LOG("the log names the target");
	ASSERT_TRUE(access("/dev/nosec_exec", F_OK) != 0 && module_probes() == 0)
		TH_LOG("the refused load left something");
	/* Sealed at boot: nothing takes its address. */
	ASSERT_EQ(0, write_text("/dev/kmsg", marker)) TH_LOG("kmsg marker");
	ASSERT_TRUE(load_fault_module("test_ibt_target=security_bprm_check") == -1)
		TH_LOG("a sealed function must fail the load");
	ASSERT_TRUE(log_says_after(marker, "security_bprm_check at"))
		TH_LOG("the log names the sealed target");
	ASSERT_EQ(0, load_module()) TH_LOG("normal load after the guard: %d", errno);
}
#elif defined(__aarch64__)
/* ---- BTI: no indirect branch to an address without a landing pad ---- */

/*
 * On a kernel built with ARM64_BTI_KERNEL, on a CPU with BTI, the guard
 * checks at load that every function reached by an indirect call starts
 * with a landing pad (bti c, bti jc, paciasp, pacibsp): the ftrace
 * callback, each hook's handler, and each hooked function, which the
 * module enters by a call.  Every hook here is a handler hook (none is
 * direct, as x86-64's prctl hook is): the functions ftrace shows calling
 * nosec_hook_callback, each counted twice, plus the callback.
 */
TEST_F(failsafe, bti_guard_checked_every_handler)
{
	MODULE_ONLY("the module's indirect-branch guard");

	long bti = stat_value("ibt_kernel");
	long checked = stat_value("ibt_checked");
	int handlers = ftrace_sites_calling("nosec_hook_callback");

	ASSERT_TRUE(bti == 0 || bti == 1) TH_LOG("stats: ibt_kernel %ld", bti);
	if (!bti)
		SKIP(return, "%s", "kernel or CPU without BTI: no landing pad to check");
	ASSERT_TRUE(handlers > 0) TH_LOG("no hook calls nosec_hook_callback: %d", handlers);
	printf("# %ld targets checked: %d handler hooks, their functions and the callback\n",
	       checked, handlers);
	ASSERT_EQ(2 * handlers + 1, checked)
		TH_LOG("ibt_checked %ld, want %d", checked, 2 * handlers + 1);
}

/*
 * test_ibt_target, as on x86-64: a function's entry has its landing pad
 * (the syscall table takes the wrapper's address); 4 bytes in, ftrace's
 * "mov x9, x30" is none.  arm64 seals nothing, so no third case.
 */
TEST_F(failsafe, bti_guard_refuses_target_without_pad)
{
	MODULE_ONLY("the module's indirect-branch guard, fault injection");

	const char *marker = "nosec_test: bti guard";
	long bti = stat_value("ibt_kernel");

	ASSERT_TRUE(bti == 0 || bti == 1) TH_LOG("stats: ibt_kernel %ld", bti);
	if (!bti)
		SKIP(return, "%s", "kernel or CPU without BTI: the guard has nothing to refuse");
	ASSERT_TRUE(wait_tasks(0) == 0 && unload_module() == 0) TH_LOG("unload: %d", errno);
	ASSERT_TRUE(load_fault_module("test_ibt_target=" SYSCALL_SYM("execve")) == 0)
		TH_LOG("a function's entry must pass the guard: %d", errno);
	ASSERT_TRUE(wait_tasks(0) == 0 && unload_module() == 0) TH_LOG("unload: %d", errno);
	ASSERT_EQ(0, write_text("/dev/kmsg", marker)) TH_LOG("kmsg marker");
	ASSERT_TRUE(load_fault_module("test_ibt_target=" SYSCALL_SYM("execve") "+4") == -1)
		TH_LOG("4 bytes into a function must fail the load");
	ASSERT_TRUE(log_says_after(marker, SYSCALL_SYM("execve") "+4 at"))
		TH_LOG("the log names the target");
	ASSERT_TRUE(access("/dev/nosec_exec", F_OK) != 0 && module_probes() == 0)
		TH_LOG("the refused load left something");
	ASSERT_EQ(0, load_module()) TH_LOG("normal load after the guard: %d", errno);
}
#endif

/* ---- root cannot switch the hooks off ---- */

TEST_F(failsafe, ftrace_sysctl_cannot_disable_hooks)
{
	MODULE_ONLY("the module's ftrace hooks (ftrace_enabled)");

	const char *knob = "/proc/sys/kernel/ftrace_enabled";
	int fd = open(knob, O_WRONLY);
	ssize_t n;

	ASSERT_TRUE(fd >= 0) TH_LOG("open %s: %d", knob, errno);
	/*
	 * EBUSY: the hooks' ops are permanent.  EOPNOTSUPP: the kernel no
	 * longer turns ftrace off by this knob at all (7.x).
	 */
	n = write(fd, "0\n", 2);
	ASSERT_TRUE(n < 0 && (errno == EBUSY || errno == EOPNOTSUPP))
		TH_LOG("ftrace_enabled=0 while loaded: %zd %d", n, errno);
	close(fd);
	ASSERT_TRUE(read_text(knob, "1\n")) TH_LOG("%s is not 1 after the write", knob);
	ASSERT_EQ(0, restricted_execve_denied()) TH_LOG("the ban still holds");
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

TEST_F(failsafe, exec_group_decides_who_may_nosec_exec)
{
	struct run r;
	int e;

	MODULE_ONLY("the exec_group parameter");

	ASSERT_TRUE(reload_with("exec_group=4242") == 0) TH_LOG("load with exec_group: %d", errno);
	EXPECT_EQ(EACCES, run_prog(NOSEC, FIX_PROBE, setup_user, &r)) TH_LOG("outside the group");
	e = run_prog(NOSEC, FIX_PROBE_SUID, setup_in_exec_group, &r);
	EXPECT_TRUE(e == 0 && !strcmp(get(&r, "uids"), "1000,1000,1000,1000"))
		TH_LOG("in the group: %d uids %s", e, get(&r, "uids"));
	/* Force mode is a nosecurity exec too: the same group decides. */
	EXPECT_EQ(EACCES, run_prog(FORCED, FIX_PROBE, setup_user, &r))
		TH_LOG("force mode outside the group");
	e = run_prog(FORCED, FIX_PROBE_SUID, setup_in_exec_group, &r);
	EXPECT_TRUE(e == 0 && !strcmp(get(&r, "uids"), "1000,1000,1000,1000"))
		TH_LOG("force mode in the group: %d uids %s", e, get(&r, "uids"));
	/* Loaded again without it (the teardown would too): everyone. */
	ASSERT_EQ(0, reload_with("")) TH_LOG("normal reload: %d", errno);
	ASSERT_EQ(0, run_prog(NOSEC, FIX_PROBE, setup_user, &r)) TH_LOG("default: everyone");
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
TEST_F(failsafe, exec_group_every_gid_and_bad_values)
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

	MODULE_ONLY("the exec_group parameter");

	ASSERT_TRUE(wait_tasks(0) == 0 && unload_module() == 0) TH_LOG("unload: %d", errno);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		ASSERT_EQ(0, write_text("/dev/kmsg", marker)) TH_LOG("kmsg marker");
		ASSERT_ERRNO(EINVAL, load_module_with(refused[i]), "%s must refuse the load: %d",
			     refused[i], errno);
		ASSERT_TRUE(log_says_after(marker, "not a group ID (0 to 4294967294) or -1"))
			TH_LOG("%s: the log says why", refused[i]);
		ASSERT_NE(0, access("/dev/nosec_exec", F_OK))
			TH_LOG("%s left the device", refused[i]);
	}
	ASSERT_TRUE(load_module_with("exec_group=-1") == 0) TH_LOG("-1: %d", errno);
	ASSERT_EQ(0, run_prog(NOSEC, FIX_PROBE, setup_user, &r))
		TH_LOG("-1 is everyone: %d", r.exec_errno);
	ASSERT_TRUE(reload_with("exec_group=4294967294") == 0) TH_LOG("2^32-2: %d", errno);
	snprintf(value, sizeof(value), "%u\n", HIGH_GROUP);
	ASSERT_TRUE(read_text("/sys/module/nosec_exec/parameters/exec_group", value))
		TH_LOG("the parameter reads back as %u", HIGH_GROUP);
	e = run_prog(NOSEC, FIX_PROBE, setup_user, &r);
	ASSERT_EQ(EACCES, e) TH_LOG("outside group %u: %d", HIGH_GROUP, e);
	e = run_prog(NOSEC, FIX_PROBE_SUID, setup_in_high_group, &r);
	ASSERT_TRUE(e == 0 && !strcmp(get(&r, "uids"), "1000,1000,1000,1000"))
		TH_LOG("in group %u: %d uids %s", HIGH_GROUP, e, get(&r, "uids"));
	ASSERT_TRUE(reload_with("exec_group=2147483648") == 0) TH_LOG("2^31: %d", errno);
	ASSERT_TRUE(read_text("/sys/module/nosec_exec/parameters/exec_group", "2147483648\n"))
		TH_LOG("the parameter reads back as 2147483648");
	ASSERT_EQ(0, reload_with("")) TH_LOG("normal reload: %d", errno);
	ASSERT_TRUE(read_text("/sys/module/nosec_exec/parameters/exec_group", "-1\n"))
		TH_LOG("default reads back as -1");
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

TEST_F(failsafe, shipped_module_has_no_test_knobs)
{
	char names[512];
	DIR *d;
	struct dirent *e;
	int n = 0;

	MODULE_ONLY("the shipped .ko, /sys/module/nosec_exec");

	ASSERT_EQ(0, module_file_params(MODULE_PATH, names, sizeof(names)))
		TH_LOG("read %s", MODULE_PATH);
	ASSERT_TRUE(!strcmp(names, "exec_group ")) TH_LOG("%s declares: %s", MODULE_PATH, names);
	ASSERT_EQ(0, module_file_params(FAULT_MODULE_PATH, names, sizeof(names)))
		TH_LOG("read %s", FAULT_MODULE_PATH);
	ASSERT_TRUE(strstr(names, "test_miss ") && strstr(names, "fail_step ") &&
		    strstr(names, "test_fork_enomem "))
		TH_LOG("the test build declares: %s", names);
	d = opendir("/sys/module/nosec_exec/parameters");
	ASSERT_NE(NULL, d) TH_LOG("the loaded module's parameters: %d", errno);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			ASSERT_TRUE(!strcmp(e->d_name, "exec_group"))
				TH_LOG("loaded module has %s", e->d_name);
			n++;
		}
	closedir(d);
	ASSERT_EQ(1, n) TH_LOG("%d parameters", n);
}

TEST_HARNESS_MAIN
