// SPDX-License-Identifier: GPL-2.0
/*
 * The nosecurity exec: what execve_nosecurity() keeps where a
 * plain execve() changes it (ids, capabilities, AT_SECURE, dumpability,
 * prctl state, keyrings), what it still checks (read access to the
 * program and its interpreters; the LSMs' verdicts: lsm_*.c), that
 * it fails exactly like execve(), the fexecve and execveat forms, and
 * that a failure leaves no state.  Every property is checked side by side
 * with a plain execve() of the same file in the same run.
 */
#ifndef NOSEC_KSELFTEST
/* The module's: its ioctl's bad input, and the exec without its device. */
#endif
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/keyctl.h>

#include "nosec.h"
#include "fixtures.h"
#include "common.h"
#include "creds.h"
#include "../kselftest_harness.h"
#include "ksft_nosec.h"

NOSEC_FIXTURE(nosec_exec);

/*
 * One property, as a plain execve and a nosecurity exec of @path leave
 * it: one variant a property.
 */
NOSEC_FIXTURE(side_by_side);

FIXTURE_VARIANT(side_by_side) {
	const char *path;
	void (*setup)(void);	/* in the child, before the exec */
	const char *key;	/* what probe prints */
	long plain, nosec;	/* its value after each */
	bool as_root;		/* else as TEST_UID; @setup may drop itself */
};

TEST_F(nosec_exec, nosec_setuid_keeps_euid)
{
	struct run p, n;

	AS_TEST_USER();

	ASSERT_EQ(0, run_prog(PLAIN, FIX_PROBE_SUID, NULL, &p)) TH_LOG("plain ran");
	ASSERT_EQ(0, id_field(&p, "uids", 1))
		TH_LOG("plain execve of setuid-root: euid %s", get(&p, "uids"));
	ASSERT_EQ(0, run_prog(NOSEC, FIX_PROBE_SUID, NULL, &n))
		TH_LOG("nosec ran: errno %d", n.exec_errno);
	ASSERT_TRUE(!strcmp(get(&n, "uids"), "1000,1000,1000,1000"))
		TH_LOG("nosec uids %s", get(&n, "uids"));
}

TEST_F(nosec_exec, nosec_setuid_keeps_suid_fsuid)
{
	struct run p, n;

	AS_TEST_USER();

	ASSERT_EQ(0, run_prog(PLAIN, FIX_PROBE_SUID, NULL, &p)) TH_LOG("plain ran");
	ASSERT_TRUE(id_field(&p, "uids", 2) == 0 && id_field(&p, "uids", 3) == 0)
		TH_LOG("plain: suid/fsuid := euid 0: %s", get(&p, "uids"));
	ASSERT_EQ(0, run_prog(NOSEC, FIX_PROBE_SUID, NULL, &n)) TH_LOG("nosec ran");
	ASSERT_TRUE(id_field(&n, "uids", 2) == TEST_UID && id_field(&n, "uids", 3) == TEST_UID)
		TH_LOG("nosec suid/fsuid %s", get(&n, "uids"));
}

TEST_F(nosec_exec, nosec_setgid_keeps_gids)
{
	struct run p, n;

	AS_TEST_USER();

	ASSERT_EQ(0, run_prog(PLAIN, FIX_PROBE_SGID, NULL, &p)) TH_LOG("plain ran");
	ASSERT_EQ(0, id_field(&p, "gids", 1)) TH_LOG("plain setgid: egid %s", get(&p, "gids"));
	ASSERT_EQ(0, run_prog(NOSEC, FIX_PROBE_SGID, NULL, &n)) TH_LOG("nosec ran");
	ASSERT_TRUE(!strcmp(get(&n, "gids"), "1000,1000,1000,1000"))
		TH_LOG("nosec gids %s", get(&n, "gids"));
}

TEST_F(nosec_exec, nosec_ids_kept_bit_for_bit)
{
	struct run p, n;

	ASSERT_EQ(0, run_prog(PLAIN, FIX_PROBE, setup_split_ids, &p)) TH_LOG("plain ran");
	ASSERT_TRUE(!strcmp(get(&p, "uids"), "1000,1000,1000,1000"))
		TH_LOG("plain execve resets suid/fsuid to euid: %s", get(&p, "uids"));
	ASSERT_EQ(0, run_prog(NOSEC, FIX_PROBE, setup_split_ids, &n)) TH_LOG("nosec ran");
	ASSERT_TRUE(!strcmp(get(&n, "uids"), "1000,1000,0,0"))
		TH_LOG("nosec uids %s", get(&n, "uids"));
	ASSERT_TRUE(!strcmp(get(&n, "gids"), "1000,1000,0,0"))
		TH_LOG("nosec gids %s", get(&n, "gids"));
}

TEST_F(nosec_exec, nosec_file_caps_not_applied)
{
	struct run p, n;

	AS_TEST_USER();

	ASSERT_EQ(0, run_prog(PLAIN, FIX_PROBE_CAPS, NULL, &p)) TH_LOG("plain ran");
	ASSERT_TRUE(getx(&p, "capprm") == 1ULL << CAP_NET_RAW)
		TH_LOG("plain gains file caps: %s", get(&p, "capprm"));
	ASSERT_EQ(0, run_prog(NOSEC, FIX_PROBE_CAPS, NULL, &n)) TH_LOG("nosec ran");
	ASSERT_TRUE(getx(&n, "capprm") == 0 && getx(&n, "capeff") == 0)
		TH_LOG("nosec caps %s/%s", get(&n, "capprm"), get(&n, "capeff"));
}

TEST_F(nosec_exec, nosec_caps_kept_all_sets)
{
	struct run p, n;

	ASSERT_EQ(0, run_prog(PLAIN, FIX_PROBE, setup_caps, &p))
		TH_LOG("plain ran: %d", p.exec_errno);
	ASSERT_TRUE(getx(&p, "capprm") == 1ULL << CAP_NET_RAW)
		TH_LOG("plain execve recomputes permitted to the ambient set: %s",
		       get(&p, "capprm"));
	ASSERT_EQ(0, run_prog(NOSEC, FIX_PROBE, setup_caps, &n)) TH_LOG("nosec ran");
	ASSERT_EQ(CAPS_KEPT, getx(&n, "capprm")) TH_LOG("nosec permitted %s", get(&n, "capprm"));
	ASSERT_EQ(CAPS_KEPT, getx(&n, "capeff")) TH_LOG("nosec effective %s", get(&n, "capeff"));
	ASSERT_EQ(CAPS_KEPT, getx(&n, "capinh")) TH_LOG("nosec inheritable %s", get(&n, "capinh"));
	ASSERT_TRUE(getx(&n, "capamb") == 1ULL << CAP_NET_RAW)
		TH_LOG("nosec ambient %s", get(&n, "capamb"));
	ASSERT_TRUE(!(getx(&n, "capbnd") & (1ULL << CAP_SYS_ADMIN)) &&
		    getx(&n, "capbnd") == getx(&p, "capbnd"))
		TH_LOG("nosec bounding %s", get(&n, "capbnd"));
}

static void setup_personality(void)
{
	personality(ADDR_NO_RANDOMIZE);
}

#define BIG_STACK (64ULL << 20)

static void setup_big_stack(void)
{
	struct rlimit rl = { BIG_STACK, RLIM_INFINITY };

	setrlimit(RLIMIT_STACK, &rl);
}

/* SECURE_KEEP_CAPS is bit 4 */
FIXTURE_VARIANT_ADD(side_by_side, nosec_securebits_keepcaps_kept) {
	.path = FIX_PROBE,
	.setup = setup_keepcaps,
	.key = "securebits",
	.plain = 0,
	.nosec = 1 << 4,
};

FIXTURE_VARIANT_ADD(side_by_side, nosec_at_secure_zero) {
	.path = FIX_PROBE_SUID,
	.setup = NULL,
	.key = "at_secure",
	.plain = 1,
	.nosec = 0,
};

/*
 * A set-ID caller's helper must not trust its environment: a plain exec
 * of a plain file gives AT_SECURE 1 (euid differs from the real uid), and
 * so does a nosecurity one.
 */
FIXTURE_VARIANT_ADD(side_by_side, nosec_at_secure_split_ids_like_plain) {
	.path = FIX_PROBE,
	.setup = setup_split_euid,
	.key = "at_secure",
	.plain = 1,
	.nosec = 1,
	.as_root = true,
};

/*
 * Real and effective uid 1000, saved and filesystem uid 0: a plain exec
 * resets them to 1000 (AT_SECURE 0); a nosecurity exec keeps them, so the
 * program could switch back: AT_SECURE 1.
 */
FIXTURE_VARIANT_ADD(side_by_side, nosec_at_secure_split_saved_ids) {
	.path = FIX_PROBE,
	.setup = setup_split_saved_uids,
	.key = "at_secure",
	.plain = 0,
	.nosec = 1,
	.as_root = true,
};

/* Nor does a set-ID caller end more dumpable than a plain exec leaves it. */
FIXTURE_VARIANT_ADD(side_by_side, nosec_dumpable_split_ids_like_plain) {
	.path = FIX_PROBE,
	.setup = setup_split_euid,
	.key = "dumpable",
	.plain = 0,
	.nosec = 0,
	.as_root = true,
};

/*
 * A non-root caller holding permitted capabilities beyond its ambient
 * set: a plain exec drops them (AT_SECURE 0), a nosecurity exec keeps
 * them, so it says AT_SECURE 1.
 */
FIXTURE_VARIANT_ADD(side_by_side, nosec_at_secure_caps_kept) {
	.path = FIX_PROBE,
	.setup = setup_caps,
	.key = "at_secure",
	.plain = 0,
	.nosec = 1,
	.as_root = true,
};

/* suid_dumpable is 0 by default */
FIXTURE_VARIANT_ADD(side_by_side, nosec_dumpable_kept_over_setuid) {
	.path = FIX_PROBE_SUID,
	.setup = NULL,
	.key = "dumpable",
	.plain = 0,
	.nosec = 1,
};

FIXTURE_VARIANT_ADD(side_by_side, nosec_dumpable_zero_kept) {
	.path = FIX_PROBE,
	.setup = setup_undumpable,
	.key = "dumpable",
	.plain = 1,
	.nosec = 0,
};

FIXTURE_VARIANT_ADD(side_by_side, nosec_pdeathsig_kept) {
	.path = FIX_PROBE_SUID,
	.setup = setup_pdeathsig,
	.key = "pdeathsig",
	.plain = 0,
	.nosec = SIGUSR1,
};

FIXTURE_VARIANT_ADD(side_by_side, nosec_personality_kept) {
	.path = FIX_PROBE_SUID,
	.setup = setup_personality,
	.key = "personality",
	.plain = 0,
	.nosec = ADDR_NO_RANDOMIZE,
};

/* secureexec resets it to _STK_LIM, 8 MiB */
FIXTURE_VARIANT_ADD(side_by_side, nosec_rlimit_stack_kept) {
	.path = FIX_PROBE_SUID,
	.setup = setup_big_stack,
	.key = "stack",
	.plain = 8L << 20,
	.nosec = (long)BIG_STACK,
};

TEST_F(side_by_side, plain_then_nosec)
{
	struct run p, n;

	if (!variant->as_root)
		AS_TEST_USER();
	ASSERT_EQ(0, run_prog(PLAIN, variant->path, variant->setup, &p))
		TH_LOG("plain %s ran: %d", variant->path, p.exec_errno);
	ASSERT_EQ(variant->plain, getl(&p, variant->key))
		TH_LOG("plain execve: %s=%s", variant->key, get(&p, variant->key));
	ASSERT_EQ(0, run_prog(NOSEC, variant->path, variant->setup, &n))
		TH_LOG("nosec %s ran: %d", variant->path, n.exec_errno);
	ASSERT_EQ(variant->nosec, getl(&n, variant->key))
		TH_LOG("nosecurity exec: %s=%s", variant->key, get(&n, variant->key));
}

TEST_F(nosec_exec, nosec_keyrings_kept)
{
	struct run p, n;

	AS_TEST_USER();

	ASSERT_EQ(0, run_prog(PLAIN, FIX_PROBE, setup_keyrings, &p)) TH_LOG("plain ran");
	ASSERT_TRUE(getl(&p, "thread_keyring") < 0 && getl(&p, "process_keyring") < 0)
		TH_LOG("plain execve drops thread/process keyrings: %s %s",
		       get(&p, "thread_keyring"), get(&p, "process_keyring"));
	ASSERT_EQ(0, run_prog(NOSEC, FIX_PROBE, setup_keyrings, &n)) TH_LOG("nosec ran");
	ASSERT_TRUE(getl(&n, "thread_keyring") > 0 && getl(&n, "process_keyring") > 0)
		TH_LOG("nosec keyrings %s %s", get(&n, "thread_keyring"),
		       get(&n, "process_keyring"));
}

/*
 * Read access: a plain execve of @path runs, a nosecurity exec fails with
 * EACCES (the program, a script, its interpreter, or an ELF interpreter
 * is executable but not readable).
 */
NOSEC_FIXTURE(read_required);

FIXTURE_VARIANT(read_required) {
	const char *path;
};

FIXTURE_VARIANT_ADD(read_required, nosec_read_required_program) {
	.path = FIX_PROBE_XONLY,
};

FIXTURE_VARIANT_ADD(read_required, nosec_read_required_script) {
	.path = FIX_SCRIPT_XONLY,
};

FIXTURE_VARIANT_ADD(read_required, nosec_read_required_script_interpreter) {
	.path = FIX_SCRIPT_XINTERP,
};

FIXTURE_VARIANT_ADD(read_required, nosec_read_required_elf_interpreter) {
	.path = FIX_DYNPROBE_XINTERP,
};

TEST_F(read_required, plain_runs_nosec_eacces)
{
	struct run p, n;

	AS_TEST_USER();
	ASSERT_EQ(0, run_prog(PLAIN, variant->path, NULL, &p))
		TH_LOG("plain execve of %s: errno %d", variant->path, p.exec_errno);
	ASSERT_EQ(EACCES, run_prog(NOSEC, variant->path, NULL, &n))
		TH_LOG("nosec of %s: errno %d", variant->path, n.exec_errno);
}

TEST_F(nosec_exec, nosec_dynamic_program_and_script_run)
{
	struct run n;

	AS_TEST_USER();

	ASSERT_EQ(0, run_prog(NOSEC, FIX_DYNPROBE, NULL, &n))
		TH_LOG("nosec dynamic: %d", n.exec_errno);
	ASSERT_TRUE(!strcmp(get(&n, "exe"), FIX_DYNPROBE)) TH_LOG("exe %s", get(&n, "exe"));
	ASSERT_EQ(0, run_prog(NOSEC, FIX_SCRIPT, NULL, &n))
		TH_LOG("nosec script: %d", n.exec_errno);
	ASSERT_TRUE(!strcmp(get(&n, "exe"), FIX_PROBE))
		TH_LOG("script runs its interpreter: %s", get(&n, "exe"));
}

/* A nosecurity exec fails exactly like execve for each kind of error. */
NOSEC_FIXTURE(same_error);

FIXTURE_VARIANT(same_error) {
	const char *path;
	int err;
};

FIXTURE_VARIANT_ADD(same_error, nosec_error_enoent) {
	.path = FIX "/does-not-exist",
	.err = ENOENT,
};

FIXTURE_VARIANT_ADD(same_error, nosec_error_enotdir) {
	.path = FIX_PROBE "/x",
	.err = ENOTDIR,
};

FIXTURE_VARIANT_ADD(same_error, nosec_error_enoexec) {
	.path = FIX_GARBAGE,
	.err = ENOEXEC,
};

FIXTURE_VARIANT_ADD(same_error, nosec_error_eacces_no_x_bit) {
	.path = FIX_PROBE_NOEXEC_BIT,
	.err = EACCES,
};

FIXTURE_VARIANT_ADD(same_error, nosec_error_eloop) {
	.path = FIX_LOOP,
	.err = ELOOP,
};

FIXTURE_VARIANT_ADD(same_error, nosec_error_noexec_mount) {
	.path = FIX_NOEXEC_DIR "/probe",
	.err = EACCES,
};

TEST_F(same_error, nosec_errno_like_plain)
{
	struct run p, n;

	AS_TEST_USER();
	ASSERT_EQ(variant->err, run_prog(PLAIN, variant->path, NULL, &p))
		TH_LOG("execve(%s)", variant->path);
	ASSERT_EQ(variant->err, run_prog(NOSEC, variant->path, NULL, &n))
		TH_LOG("nosec(%s)", variant->path);
}

/* Kept as a helper: the ETXTBSY test compares them on a file it writes. */
static int same_error(const char *path, int want)
{
	struct run p, n;

	REQUIRE(run_prog(PLAIN, path, NULL, &p) == want, "execve(%s): errno %d, want %d", path,
		p.exec_errno, want);
	REQUIRE(run_prog(NOSEC, path, NULL, &n) == want, "nosec(%s): errno %d, want %d", path,
		n.exec_errno, want);
	return PASS;
}

TEST_F(nosec_exec, nosec_error_efault)
{
	AS_TEST_USER();


	ASSERT_ERRNO(EFAULT, execve_nosecurity(BAD, NULL, NULL), "bad path: errno %d", errno);
	ASSERT_ERRNO(EFAULT, execve_nosecurity(FIX_PROBE, BAD, NULL), "bad argv: errno %d", errno);
	ASSERT_ERRNO(EFAULT, execve_nosecurity(FIX_PROBE, NULL, BAD), "bad envp: errno %d", errno);
}

TEST_F(nosec_exec, nosec_error_e2big)
{
	AS_TEST_USER();

	size_t len = 200000;
	char *big = malloc(len + 1);
	char *const argv[] = { FIX_PROBE, big, NULL };

	ASSERT_TRUE(big != NULL) TH_LOG("malloc");
	memset(big, 'x', len);
	big[len] = 0;
	ASSERT_ERRNO(E2BIG, execve(FIX_PROBE, argv, environ), "execve: errno %d", errno);
	ASSERT_ERRNO(E2BIG, execve_nosecurity(FIX_PROBE, argv, environ), "nosec: errno %d", errno);
}

TEST_F(nosec_exec, nosec_error_etxtbsy)
{
	AS_TEST_USER();

	const char *path = "/tmp/txtbsy";
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	int ret;

	ASSERT_TRUE(fd >= 0) TH_LOG("open: %d", errno);
	ret = same_error(path, ETXTBSY);
	close(fd);
	unlink(path);
	ASSERT_PASS(ret);
}

static void exec_with_cloexec_fd(void *arg)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	char fdarg[16], *argv[] = { FIX_PROBE, fdarg, NULL };

	(void)arg;
	snprintf(fdarg, sizeof(fdarg), "%d", fd);
	printf("fd_was=%d\npid_before=%d\n", fd, getpid());
	fflush(stdout);
	execve_nosecurity(FIX_PROBE, argv, environ);
}

TEST_F(nosec_exec, nosec_ordinary_exec_rest)
{
	char key[16];
	struct run r;

	AS_TEST_USER();

	capture(exec_with_cloexec_fd, NULL, &r);
	ASSERT_EQ(1, getl(&r, "end")) TH_LOG("probe ran: %s", r.out);
	ASSERT_EQ(getl(&r, "pid_before"), getl(&r, "pid")) TH_LOG("same pid: %s", r.out);
	snprintf(key, sizeof(key), "fd%ld", getl(&r, "fd_was"));
	ASSERT_EQ(0, getl(&r, key)) TH_LOG("close-on-exec fd closed: %s", r.out);
	ASSERT_TRUE(!strcmp(get(&r, "exe"), FIX_PROBE)) TH_LOG("/proc/self/exe %s", get(&r, "exe"));
#ifndef NOSEC_KSELFTEST
	ASSERT_TRUE(!strstr(r.out, "device_fd=")) TH_LOG("the device fd leaked: %s", r.out);
#endif
}

static void fexecve_suid(void *arg)
{
	char *const argv[] = { "probe", NULL };
	int fd = open(FIX_PROBE_SUID, O_RDONLY);

	(void)arg;
	fexecve_nosecurity(fd, argv, environ);
	printf("exec_errno=%d\n", errno);
}

TEST_F(nosec_exec, nosec_fexecve_by_fd)
{
	struct run r;

	AS_TEST_USER();

	capture(fexecve_suid, NULL, &r);
	ASSERT_EQ(1, getl(&r, "end")) TH_LOG("fexecve_nosecurity ran: %s", r.out);
	ASSERT_EQ(TEST_UID, id_field(&r, "uids", 1)) TH_LOG("euid via fd %s", get(&r, "uids"));
}

TEST_F(nosec_exec, nosec_execveat_dirfd_flags)
{
	AS_TEST_USER();

	char *const argv[] = { "probe", NULL };
	int dfd = open(FIX, O_RDONLY | O_DIRECTORY);
	pid_t pid;

	ASSERT_TRUE(dfd >= 0) TH_LOG("open dir");
	ASSERT_ERRNO(EACCES, execveat_nosecurity(dfd, "probe-xonly", argv, environ, 0),
		     "relative exec-only: errno %d", errno);
	ASSERT_ERRNO(EINVAL, execveat_nosecurity(dfd, "probe", argv, environ, 0x4),
		     "unknown flag: errno %d", errno);
	ASSERT_ERRNO(ELOOP, execveat_nosecurity(dfd, "loop", argv, environ, AT_SYMLINK_NOFOLLOW),
		     "AT_SYMLINK_NOFOLLOW: errno %d", errno);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		execveat_nosecurity(dfd, "probe", argv, environ, 0);
		_exit(99);
	}
	ASSERT_EQ(0, wait_status(pid)) TH_LOG("relative path ran");
}

TEST_F(nosec_exec, nosec_failure_leaves_no_state)
{
	AS_TEST_USER();

#ifndef NOSEC_KSELFTEST
	long tasks = stat_value("tasks");
#endif
	struct run p;

	ASSERT_ERRNO(EACCES, execve_nosecurity(FIX_PROBE_XONLY, NULL, NULL), "errno %d", errno);
	ASSERT_ERRNO(ENOENT, execve_nosecurity(FIX "/nope", NULL, NULL), "errno %d", errno);
	ASSERT_EQ(0, nosec_exec_restricted()) TH_LOG("not restricted");
	ASSERT_EQ(0, nosec_get_force()) TH_LOG("not forced");
	/* The next plain execve is a normal, transitioning one. */
	ASSERT_EQ(0, run_prog(PLAIN, FIX_PROBE_SUID, NULL, &p)) TH_LOG("plain ran");
	ASSERT_EQ(0, id_field(&p, "uids", 1))
		TH_LOG("plain exec after failed nosec: %s", get(&p, "uids"));
#ifndef NOSEC_KSELFTEST
	/* The module's count of tasks with state; natively no stats. */
	ASSERT_TRUE(nosec_native || stat_value("tasks") == tasks)
		TH_LOG("tasks %ld -> %ld", tasks, stat_value("tasks"));
#endif
}

/*
 * The flag is the ABI: execveat(-1, "", ..., AT_EMPTY_PATH |
 * AT_EXECVE_NO_TRANSITION) is judged (EBADF) where it is known, and
 * changes nothing.
 */
#ifndef NOSEC_KSELFTEST
/* On the module: no exec counted, no task left with state. */
#endif
TEST_F(nosec_exec, nosec_flag_probe_ebadf_no_side_effect)
{
	AS_TEST_USER();

	char *const argv[] = { "", NULL }, *const envp[] = { NULL };
#ifndef NOSEC_KSELFTEST
	long tasks = nosec_native ? 0 : stat_value("tasks");
	long execs = nosec_native ? 0 : stat_value("nosec_execs");
#endif

	ASSERT_ERRNO(EBADF,
		     syscall(SYS_execveat, -1, "", argv, envp,
			     AT_EMPTY_PATH | AT_EXECVE_NO_TRANSITION),
		     "probe: %d", errno);
	ASSERT_ERRNO(EINVAL, syscall(SYS_execveat, -1, "", argv, envp, AT_EMPTY_PATH | 0x4),
		     "an unknown flag beside it: %d", errno);
#ifndef NOSEC_KSELFTEST
	ASSERT_TRUE(nosec_native ||
		    (stat_value("tasks") == tasks && stat_value("nosec_execs") == execs))
		TH_LOG("tasks %ld -> %ld, nosec_execs %ld -> %ld", tasks, stat_value("tasks"),
		       execs, stat_value("nosec_execs"));
#endif
}

#ifndef NOSEC_KSELFTEST	/* the module: its device, its ioctl, its old numbers */
/*
 * Where the device is not (a tmpfs over /dev, as bwrap --dev and
 * PrivateDevices= give), as TEST_UID, under a filter that fails the two
 * system call numbers an earlier ABI used (463, 464: setxattrat and
 * getxattrat since 6.13) with ENOTSUP.
 */
static void no_device_here(void)
{
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("tmpfs", "/dev", "tmpfs", 0, NULL))
		_exit(96);
	setup_user();
	if (deny_syscall(463, ENOTSUP) || deny_syscall(464, ENOTSUP))
		_exit(97);
}

static void restrict_all_without_device(void *arg)
{
	char *const argv[] = { FIX_PROBE, NULL };

	(void)arg;
	no_device_here();
	execveat_nosecurity(AT_FDCWD, FIX_PROBE, argv, environ,
			    NOSEC_EXEC_RESTRICT_ALL);
	printf("exec_errno=%d\n", errno);
}

/*
 * No device, no number: execve_nosecurity() is execveat() with the flag
 * and nothing else, so it runs where /dev/nosec_exec is not; the read
 * check refusing an exec-only file that a plain exec runs shows it is
 * the nosecurity exec.  Only NOSEC_EXEC_RESTRICT_ALL, the module's own
 * (the ioctl), fails there, with ENODEV.
 */
TEST_F(nosec_exec, nosec_exec_without_device_or_syscall_number)
{
	struct run r;

	ASSERT_EQ(0, run_prog(NOSEC, FIX_PROBE, no_device_here, &r))
		TH_LOG("nosecurity exec without the device: %d %s", r.exec_errno, r.out);
	ASSERT_EQ(0, run_prog(PLAIN, FIX_PROBE_XONLY, no_device_here, &r))
		TH_LOG("control: a plain exec of the exec-only file: %d", r.exec_errno);
	ASSERT_EQ(PASS, refused(NOSEC, FIX_PROBE_XONLY, no_device_here, EACCES))
		TH_LOG("the read check");
	capture(restrict_all_without_device, NULL, &r);
	ASSERT_EQ(ENODEV, getl(&r, "exec_errno"))
		TH_LOG("NOSEC_EXEC_RESTRICT_ALL without the device: %s", r.out);
}

TEST_F(nosec_exec, ioctl_bad_input)
{
	MODULE_ONLY("the ioctl of /dev/nosec_exec");
	AS_TEST_USER();

	struct nosec_execveat_args a = { .dirfd = AT_FDCWD };
	int fd = open("/dev/nosec_exec", O_RDWR | O_CLOEXEC);

	ASSERT_TRUE(fd >= 0) TH_LOG("open /dev/nosec_exec: %d", errno);
	ASSERT_ERRNO(ENOTTY, ioctl(fd, _IO(0xE7, 0x7f), 0), "unknown ioctl: %d", errno);
	ASSERT_ERRNO(EFAULT, ioctl(fd, NOSEC_IOC_EXECVEAT, BAD), "bad struct: %d", errno);
	a.pathname = (uintptr_t)FIX_PROBE;
	a.flags = 0x80000000u;
	ASSERT_ERRNO(EINVAL, ioctl(fd, NOSEC_IOC_EXECVEAT, &a), "unknown flags: %d", errno);
	a.flags = 0;
	a.pathname = 0;
	ASSERT_ERRNO(EFAULT, ioctl(fd, NOSEC_IOC_EXECVEAT, &a), "NULL path: %d", errno);
	/*
	 * A bad dirfd, with a relative path: EBADF, as from execveat.  On
	 * arm64 the ioctl returns the dirfd to make its svc run again as
	 * execveat; a restart code (-512..-516) would be acted on by the
	 * signal code, so the ioctl itself refuses those.
	 */
	static const int bad_dirfd[] = { -1, -512, -514, -516, -4095 };

	a.pathname = (uintptr_t)"probe";
	for (size_t i = 0; i < ARRAY_SIZE(bad_dirfd); i++) {
		a.dirfd = bad_dirfd[i];
		ASSERT_ERRNO(EBADF, ioctl(fd, NOSEC_IOC_EXECVEAT, &a),
			     "dirfd %d: %d", a.dirfd, errno);
	}
	/* An absolute path: execveat ignores the dirfd, the ioctl too. */
	char *const argv[] = { FIX_PROBE, "--euid", "1000", NULL };
	int st;
	pid_t pid = fork();

	ASSERT_TRUE(pid >= 0) TH_LOG("fork: %d", errno);
	if (pid == 0) {
		a.dirfd = -1;
		a.pathname = (uintptr_t)FIX_PROBE;
		a.argv = (uintptr_t)argv;
		a.envp = (uintptr_t)environ;
		ioctl(fd, NOSEC_IOC_EXECVEAT, &a);
		_exit(100 + errno % 100);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0)) TH_LOG("waitpid: %d", errno);
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0)
		TH_LOG("dirfd -1, absolute path: status %#x (100 + errno: not run)", st);
	close(fd);
}
#endif	/* NOSEC_KSELFTEST */

TEST_HARNESS_MAIN
