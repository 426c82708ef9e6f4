// SPDX-License-Identifier: GPL-2.0
/*
 * The nosecurity exec: what execve_nosecurity() keeps where a
 * plain execve() changes it (ids, capabilities, AT_SECURE, dumpability,
 * prctl state, keyrings), what it still checks (read access to the
 * program and its interpreters; the LSMs' verdicts: lsm_*.c), that
 * it fails exactly like execve(), the fexecve and execveat forms, that a
 * failure leaves no state, and the ioctl's bad input.  Every property is
 * checked side by side with a plain execve() of the same file in the same
 * run.
 */
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
#include "harness.h"
#include "common.h"

/* One property, as a plain execve and a nosecurity exec of @path leave it. */
struct side_by_side {
	const char *path;
	void (*setup)(void);
	const char *key;
	long plain, nosec;	/* expected values (docs/design.md) */
};

static int side_by_side(const struct side_by_side *c)
{
	struct run p, n;

	CHECK(run_prog(PLAIN, c->path, c->setup, &p) == 0, "plain %s ran: %d", c->path, p.exec_errno);
	CHECK(getl(&p, c->key) == c->plain, "plain execve: %s=%s, want %ld",
	      c->key, get(&p, c->key), c->plain);
	CHECK(run_prog(NOSEC, c->path, c->setup, &n) == 0, "nosec %s ran: %d", c->path, n.exec_errno);
	CHECK(getl(&n, c->key) == c->nosec, "nosecurity exec: %s=%s, want %ld",
	      c->key, get(&n, c->key), c->nosec);
	return PASS;
}

#define SIDE_BY_SIDE(...) side_by_side(&(struct side_by_side){ __VA_ARGS__ })

static int t_setuid_euid(void)
{
	struct run p, n;

	CHECK(run_prog(PLAIN, FIX_PROBE_SUID, NULL, &p) == 0, "plain ran");
	CHECK(id_field(&p, "uids", 1) == 0, "plain execve of setuid-root: euid %s", get(&p, "uids"));
	CHECK(run_prog(NOSEC, FIX_PROBE_SUID, NULL, &n) == 0, "nosec ran: errno %d", n.exec_errno);
	CHECK(!strcmp(get(&n, "uids"), "1000,1000,1000,1000"), "nosec uids %s", get(&n, "uids"));
	return PASS;
}

static int t_setuid_suid_fsuid(void)
{
	struct run p, n;

	CHECK(run_prog(PLAIN, FIX_PROBE_SUID, NULL, &p) == 0, "plain ran");
	CHECK(id_field(&p, "uids", 2) == 0 && id_field(&p, "uids", 3) == 0,
	      "plain: suid/fsuid := euid 0: %s", get(&p, "uids"));
	CHECK(run_prog(NOSEC, FIX_PROBE_SUID, NULL, &n) == 0, "nosec ran");
	CHECK(id_field(&n, "uids", 2) == TEST_UID && id_field(&n, "uids", 3) == TEST_UID,
	      "nosec suid/fsuid %s", get(&n, "uids"));
	return PASS;
}

static int t_setgid_egid(void)
{
	struct run p, n;

	CHECK(run_prog(PLAIN, FIX_PROBE_SGID, NULL, &p) == 0, "plain ran");
	CHECK(id_field(&p, "gids", 1) == 0, "plain setgid: egid %s", get(&p, "gids"));
	CHECK(run_prog(NOSEC, FIX_PROBE_SGID, NULL, &n) == 0, "nosec ran");
	CHECK(!strcmp(get(&n, "gids"), "1000,1000,1000,1000"), "nosec gids %s", get(&n, "gids"));
	return PASS;
}

/* ruid=euid=1000 but suid/fsuid 0 (and the same for gids): bit for bit. */
static void setup_split_ids(void)
{
	if (setgroups(0, NULL) || setresgid(TEST_GID, TEST_GID, 0) ||
	    setresuid(TEST_UID, TEST_UID, 0))
		_exit(98);
	setfsgid(0);
	setfsuid(0);
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

static int t_ids_bit_for_bit(void)
{
	struct run p, n;

	CHECK(run_prog(PLAIN, FIX_PROBE, setup_split_ids, &p) == 0, "plain ran");
	CHECK(!strcmp(get(&p, "uids"), "1000,1000,1000,1000"),
	      "plain execve resets suid/fsuid to euid: %s", get(&p, "uids"));
	CHECK(run_prog(NOSEC, FIX_PROBE, setup_split_ids, &n) == 0, "nosec ran");
	CHECK(!strcmp(get(&n, "uids"), "1000,1000,0,0"), "nosec uids %s", get(&n, "uids"));
	CHECK(!strcmp(get(&n, "gids"), "1000,1000,0,0"), "nosec gids %s", get(&n, "gids"));
	return PASS;
}

static int t_file_caps(void)
{
	struct run p, n;

	CHECK(run_prog(PLAIN, FIX_PROBE_CAPS, NULL, &p) == 0, "plain ran");
	CHECK(getx(&p, "capprm") == 1ULL << CAP_NET_RAW, "plain gains file caps: %s", get(&p, "capprm"));
	CHECK(run_prog(NOSEC, FIX_PROBE_CAPS, NULL, &n) == 0, "nosec ran");
	CHECK(getx(&n, "capprm") == 0 && getx(&n, "capeff") == 0,
	      "nosec caps %s/%s", get(&n, "capprm"), get(&n, "capeff"));
	return PASS;
}

#define CAPS_KEPT ((1ULL << CAP_NET_RAW) | (1ULL << CAP_CHOWN))

/* Root keeps CAP_NET_RAW and CAP_CHOWN over setuid; NET_RAW is ambient. */
static void setup_caps(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0 } };

	prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN, 0, 0, 0);
	prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0);
	if (setgroups(0, NULL) || setresgid(TEST_GID, TEST_GID, TEST_GID) ||
	    setresuid(TEST_UID, TEST_UID, TEST_UID))
		_exit(98);
	d[0].permitted = d[0].effective = d[0].inheritable = (__u32)CAPS_KEPT;
	if (syscall(SYS_capset, &h, d))
		_exit(97);
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_RAW, 0, 0))
		_exit(96);
	prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0);
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

static int t_caps_kept(void)
{
	struct run p, n;

	CHECK(run_prog(PLAIN, FIX_PROBE, setup_caps, &p) == 0, "plain ran: %d", p.exec_errno);
	CHECK(getx(&p, "capprm") == 1ULL << CAP_NET_RAW,
	      "plain execve recomputes permitted to the ambient set: %s", get(&p, "capprm"));
	CHECK(run_prog(NOSEC, FIX_PROBE, setup_caps, &n) == 0, "nosec ran");
	CHECK(getx(&n, "capprm") == CAPS_KEPT, "nosec permitted %s", get(&n, "capprm"));
	CHECK(getx(&n, "capeff") == CAPS_KEPT, "nosec effective %s", get(&n, "capeff"));
	CHECK(getx(&n, "capinh") == CAPS_KEPT, "nosec inheritable %s", get(&n, "capinh"));
	CHECK(getx(&n, "capamb") == 1ULL << CAP_NET_RAW, "nosec ambient %s", get(&n, "capamb"));
	CHECK(!(getx(&n, "capbnd") & (1ULL << CAP_SYS_ADMIN)) &&
	      getx(&n, "capbnd") == getx(&p, "capbnd"), "nosec bounding %s", get(&n, "capbnd"));
	return PASS;
}

static void setup_keepcaps(void)
{
	prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0);
}

static int t_securebits_keepcaps(void)
{
	/* SECURE_KEEP_CAPS is bit 4 */
	return SIDE_BY_SIDE(FIX_PROBE, setup_keepcaps, "securebits", 0, 1 << 4);
}

static int t_at_secure(void)
{
	return SIDE_BY_SIDE(FIX_PROBE_SUID, NULL, "at_secure", 1, 0);
}

/* A set-ID caller: real uid 1000, effective and saved uid 0. */
static void setup_split_euid(void)
{
	if (setgroups(0, NULL) || setresgid(TEST_GID, TEST_GID, TEST_GID) ||
	    setresuid(TEST_UID, 0, 0))
		_exit(98);
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

/*
 * A set-ID caller's helper must not trust its environment: a plain exec
 * of a plain file gives AT_SECURE 1 (euid differs from the real uid), and
 * so does a nosecurity one.
 */
static int t_at_secure_split_ids(void)
{
	return SIDE_BY_SIDE(FIX_PROBE, setup_split_euid, "at_secure", 1, 1);
}

/*
 * Real and effective uid 1000, saved and filesystem uid 0: a plain exec
 * resets them to 1000 (AT_SECURE 0); a nosecurity exec keeps them, so the
 * program could switch back: AT_SECURE 1.
 */
static int t_at_secure_split_saved_ids(void)
{
	return SIDE_BY_SIDE(FIX_PROBE, setup_split_ids, "at_secure", 0, 1);
}

/* ...nor is it more dumpable than a plain exec would leave it. */
static int t_dumpable_split_ids(void)
{
	return SIDE_BY_SIDE(FIX_PROBE, setup_split_euid, "dumpable", 0, 0);
}

/*
 * A non-root caller holding permitted capabilities beyond its ambient
 * set: a plain exec drops them (AT_SECURE 0), a nosecurity exec keeps
 * them, so it says AT_SECURE 1.
 */
static int t_at_secure_caps(void)
{
	return SIDE_BY_SIDE(FIX_PROBE, setup_caps, "at_secure", 0, 1);
}

static int t_dumpable_setuid(void)
{
	/* suid_dumpable is 0 by default */
	return SIDE_BY_SIDE(FIX_PROBE_SUID, NULL, "dumpable", 0, 1);
}

static void setup_undumpable(void)
{
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

static int t_dumpable_zero_kept(void)
{
	return SIDE_BY_SIDE(FIX_PROBE, setup_undumpable, "dumpable", 1, 0);
}

static void setup_pdeathsig(void)
{
	prctl(PR_SET_PDEATHSIG, SIGUSR1, 0, 0, 0);
}

static int t_pdeathsig(void)
{
	return SIDE_BY_SIDE(FIX_PROBE_SUID, setup_pdeathsig, "pdeathsig", 0, SIGUSR1);
}

static void setup_personality(void)
{
	personality(ADDR_NO_RANDOMIZE);
}

static int t_personality(void)
{
	return SIDE_BY_SIDE(FIX_PROBE_SUID, setup_personality, "personality", 0,
			    ADDR_NO_RANDOMIZE);
}

#define BIG_STACK (64ULL << 20)

static void setup_big_stack(void)
{
	struct rlimit rl = { BIG_STACK, RLIM_INFINITY };

	setrlimit(RLIMIT_STACK, &rl);
}

static int t_rlimit_stack(void)
{
	/* secureexec resets it to _STK_LIM, 8 MiB */
	return SIDE_BY_SIDE(FIX_PROBE_SUID, setup_big_stack, "stack", 8L << 20,
			    (long)BIG_STACK);
}

static void setup_keyrings(void)
{
	syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_THREAD_KEYRING, 1);
	syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_PROCESS_KEYRING, 1);
}

static int t_keyrings(void)
{
	struct run p, n;

	CHECK(run_prog(PLAIN, FIX_PROBE, setup_keyrings, &p) == 0, "plain ran");
	CHECK(getl(&p, "thread_keyring") < 0 && getl(&p, "process_keyring") < 0,
	      "plain execve drops thread/process keyrings: %s %s",
	      get(&p, "thread_keyring"), get(&p, "process_keyring"));
	CHECK(run_prog(NOSEC, FIX_PROBE, setup_keyrings, &n) == 0, "nosec ran");
	CHECK(getl(&n, "thread_keyring") > 0 && getl(&n, "process_keyring") > 0,
	      "nosec keyrings %s %s", get(&n, "thread_keyring"), get(&n, "process_keyring"));
	return PASS;
}

/* Read access: plain execve works, nosec fails with EACCES. */
static int read_required(const char *path)
{
	struct run p, n;

	CHECK(run_prog(PLAIN, path, NULL, &p) == 0, "plain execve of %s ran: errno %d", path, p.exec_errno);
	CHECK(run_prog(NOSEC, path, NULL, &n) == EACCES, "nosec of %s: errno %d", path, n.exec_errno);
	return PASS;
}

static int t_read_program(void)
{
	return read_required(FIX_PROBE_XONLY);
}

static int t_read_script(void)
{
	return read_required(FIX_SCRIPT_XONLY);
}

static int t_read_script_interp(void)
{
	return read_required(FIX_SCRIPT_XINTERP);
}

static int t_read_elf_interp(void)
{
	return read_required(FIX_DYNPROBE_XINTERP);
}

static int t_dynamic_and_script(void)
{
	struct run n;

	CHECK(run_prog(NOSEC, FIX_DYNPROBE, NULL, &n) == 0, "nosec dynamic: %d", n.exec_errno);
	CHECK(!strcmp(get(&n, "exe"), FIX_DYNPROBE), "exe %s", get(&n, "exe"));
	CHECK(run_prog(NOSEC, FIX_SCRIPT, NULL, &n) == 0, "nosec script: %d", n.exec_errno);
	CHECK(!strcmp(get(&n, "exe"), FIX_PROBE), "script runs its interpreter: %s", get(&n, "exe"));
	return PASS;
}

/* A nosecurity exec fails exactly like execve for each kind of error. */
static int same_error(const char *path, int want)
{
	struct run p, n;

	CHECK(run_prog(PLAIN, path, NULL, &p) == want, "execve(%s): errno %d, want %d", path, p.exec_errno, want);
	CHECK(run_prog(NOSEC, path, NULL, &n) == want, "nosec(%s): errno %d, want %d", path, n.exec_errno, want);
	return PASS;
}

static int t_err_enoent(void)
{
	return same_error(FIX "/does-not-exist", ENOENT);
}

static int t_err_enotdir(void)
{
	return same_error(FIX_PROBE "/x", ENOTDIR);
}

static int t_err_enoexec(void)
{
	return same_error(FIX_GARBAGE, ENOEXEC);
}

static int t_err_eacces_mode(void)
{
	return same_error(FIX_PROBE_NOEXEC_BIT, EACCES);
}

static int t_err_eloop(void)
{
	return same_error(FIX_LOOP, ELOOP);
}

static int t_err_noexec_mount(void)
{
	return same_error(FIX_NOEXEC_DIR "/probe", EACCES);
}

static int t_err_efault(void)
{

	CHECK(execve_nosecurity(BAD, NULL, NULL) == -1 && errno == EFAULT,
	      "bad path: errno %d", errno);
	CHECK(execve_nosecurity(FIX_PROBE, BAD, NULL) == -1 && errno == EFAULT,
	      "bad argv: errno %d", errno);
	CHECK(execve_nosecurity(FIX_PROBE, NULL, BAD) == -1 && errno == EFAULT,
	      "bad envp: errno %d", errno);
	return PASS;
}

static int t_err_e2big(void)
{
	size_t len = 200000;
	char *big = malloc(len + 1);
	char *argv[] = { FIX_PROBE, big, NULL };

	CHECK(big, "malloc");
	memset(big, 'x', len);
	big[len] = 0;
	CHECK(execve(FIX_PROBE, argv, environ) == -1 && errno == E2BIG, "execve: errno %d", errno);
	CHECK(execve_nosecurity(FIX_PROBE, argv, environ) == -1 && errno == E2BIG, "nosec: errno %d", errno);
	return PASS;
}

static int t_err_etxtbsy(void)
{
	const char *path = "/tmp/txtbsy";
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	int ret;

	CHECK(fd >= 0, "open: %d", errno);
	ret = same_error(path, ETXTBSY);
	close(fd);
	unlink(path);
	return ret;
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

static int t_ordinary_exec_rest(void)
{
	char key[16];
	struct run r;

	capture(exec_with_cloexec_fd, NULL, &r);
	CHECK(getl(&r, "end") == 1, "probe ran: %s", r.out);
	CHECK(getl(&r, "pid") == getl(&r, "pid_before"), "same pid: %s", r.out);
	snprintf(key, sizeof(key), "fd%ld", getl(&r, "fd_was"));
	CHECK(getl(&r, key) == 0, "close-on-exec fd closed: %s", r.out);
	CHECK(!strcmp(get(&r, "exe"), FIX_PROBE), "/proc/self/exe %s", get(&r, "exe"));
	CHECK(!strstr(r.out, "device_fd="), "the device fd leaked: %s", r.out);
	return PASS;
}

static void fexecve_suid(void *arg)
{
	char *argv[] = { "probe", NULL };
	int fd = open(FIX_PROBE_SUID, O_RDONLY);

	(void)arg;
	fexecve_nosecurity(fd, argv, environ);
	printf("exec_errno=%d\n", errno);
}

static int t_fexecve(void)
{
	struct run r;

	capture(fexecve_suid, NULL, &r);
	CHECK(getl(&r, "end") == 1, "fexecve_nosecurity ran: %s", r.out);
	CHECK(id_field(&r, "uids", 1) == TEST_UID, "euid via fd %s", get(&r, "uids"));
	return PASS;
}

static int t_execveat_dirfd(void)
{
	char *argv[] = { "probe", NULL };
	int dfd = open(FIX, O_RDONLY | O_DIRECTORY);
	pid_t pid;

	CHECK(dfd >= 0, "open dir");
	CHECK(execveat_nosecurity(dfd, "probe-xonly", argv, environ, 0) == -1 &&
	      errno == EACCES, "relative exec-only: errno %d", errno);
	CHECK(execveat_nosecurity(dfd, "probe", argv, environ, 0x4) == -1 &&
	      errno == EINVAL, "unknown flag: errno %d", errno);
	CHECK(execveat_nosecurity(dfd, "loop", argv, environ, AT_SYMLINK_NOFOLLOW) == -1 &&
	      errno == ELOOP, "AT_SYMLINK_NOFOLLOW: errno %d", errno);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		execveat_nosecurity(dfd, "probe", argv, environ, 0);
		_exit(99);
	}
	CHECK(wait_status(pid) == 0, "relative path ran");
	return PASS;
}

static int t_failure_leaves_no_state(void)
{
	long tasks = stat_value("tasks");
	struct run p;

	CHECK(execve_nosecurity(FIX_PROBE_XONLY, NULL, NULL) == -1 && errno == EACCES, "errno %d", errno);
	CHECK(execve_nosecurity(FIX "/nope", NULL, NULL) == -1 && errno == ENOENT, "errno %d", errno);
	CHECK(nosec_exec_restricted() == 0, "not restricted");
	CHECK(nosec_get_force() == 0, "not forced");
	/* The next plain execve is a normal, transitioning one. */
	CHECK(run_prog(PLAIN, FIX_PROBE_SUID, NULL, &p) == 0, "plain ran");
	CHECK(id_field(&p, "uids", 1) == 0, "plain exec after failed nosec: %s", get(&p, "uids"));
	/* The module's count of tasks with state; natively no stats. */
	CHECK(nosec_native || stat_value("tasks") == tasks, "tasks %ld -> %ld",
	      tasks, stat_value("tasks"));
	return PASS;
}

/*
 * The flag is the ABI: execveat(-1, "", ..., AT_EMPTY_PATH |
 * AT_EXECVE_NO_TRANSITION) is judged (EBADF) where it is known, and
 * changes nothing: no exec counted, no task left with state.
 */
static int t_flag_probe(void)
{
	char *argv[] = { "", NULL }, *envp[] = { NULL };
	long tasks = nosec_native ? 0 : stat_value("tasks");
	long execs = nosec_native ? 0 : stat_value("nosec_execs");

	CHECK(syscall(SYS_execveat, -1, "", argv, envp,
		      AT_EMPTY_PATH | AT_EXECVE_NO_TRANSITION) == -1 && errno == EBADF,
	      "probe: %d", errno);
	CHECK(syscall(SYS_execveat, -1, "", argv, envp, AT_EMPTY_PATH | 0x4) == -1 &&
	      errno == EINVAL, "an unknown flag beside it: %d", errno);
	CHECK(nosec_native || (stat_value("tasks") == tasks &&
			       stat_value("nosec_execs") == execs),
	      "tasks %ld -> %ld, nosec_execs %ld -> %ld", tasks, stat_value("tasks"),
	      execs, stat_value("nosec_execs"));
	return PASS;
}

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
	char *argv[] = { FIX_PROBE, NULL };

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
static int t_no_device_no_number(void)
{
	struct run r;

	CHECK(run_prog(NOSEC, FIX_PROBE, no_device_here, &r) == 0,
	      "nosecurity exec without the device: %d %s", r.exec_errno, r.out);
	CHECK(run_prog(PLAIN, FIX_PROBE_XONLY, no_device_here, &r) == 0,
	      "control: a plain exec of the exec-only file: %d", r.exec_errno);
	CHECK(refused(NOSEC, FIX_PROBE_XONLY, no_device_here, EACCES) == PASS,
	      "the read check");
	capture(restrict_all_without_device, NULL, &r);
	CHECK(getl(&r, "exec_errno") == ENODEV,
	      "NOSEC_EXEC_RESTRICT_ALL without the device: %s", r.out);
	return PASS;
}

static int t_ioctl_errors(void)
{
	struct nosec_execveat_args a = { .dirfd = AT_FDCWD };
	int fd = open("/dev/nosec_exec", O_RDWR | O_CLOEXEC);

	CHECK(fd >= 0, "open /dev/nosec_exec: %d", errno);
	CHECK(ioctl(fd, _IO(0xE7, 0x7f), 0) == -1 && errno == ENOTTY, "unknown ioctl: %d", errno);
	CHECK(ioctl(fd, NOSEC_IOC_EXECVEAT, BAD) == -1 && errno == EFAULT, "bad struct: %d", errno);
	a.pathname = (uintptr_t)FIX_PROBE;
	a.flags = 0x80000000u;
	CHECK(ioctl(fd, NOSEC_IOC_EXECVEAT, &a) == -1 && errno == EINVAL, "unknown flags: %d", errno);
	a.flags = 0;
	a.pathname = 0;
	CHECK(ioctl(fd, NOSEC_IOC_EXECVEAT, &a) == -1 && errno == EFAULT, "NULL path: %d", errno);
	close(fd);
	return PASS;
}

const struct test_case nosec_exec_cases[] = {
	{ "nosec_setuid_keeps_euid", t_setuid_euid },
	{ "nosec_setuid_keeps_suid_fsuid", t_setuid_suid_fsuid },
	{ "nosec_setgid_keeps_gids", t_setgid_egid },
	{ "nosec_ids_kept_bit_for_bit", t_ids_bit_for_bit, 1 },
	{ "nosec_file_caps_not_applied", t_file_caps },
	{ "nosec_caps_kept_all_sets", t_caps_kept, 1 },
	{ "nosec_securebits_keepcaps_kept", t_securebits_keepcaps },
	{ "nosec_at_secure_zero", t_at_secure },
	{ "nosec_at_secure_split_ids_like_plain", t_at_secure_split_ids, 1 },
	{ "nosec_dumpable_split_ids_like_plain", t_dumpable_split_ids, 1 },
	{ "nosec_at_secure_split_saved_ids", t_at_secure_split_saved_ids, 1 },
	{ "nosec_at_secure_caps_kept", t_at_secure_caps, 1 },
	{ "nosec_dumpable_kept_over_setuid", t_dumpable_setuid },
	{ "nosec_dumpable_zero_kept", t_dumpable_zero_kept },
	{ "nosec_pdeathsig_kept", t_pdeathsig },
	{ "nosec_personality_kept", t_personality },
	{ "nosec_rlimit_stack_kept", t_rlimit_stack },
	{ "nosec_keyrings_kept", t_keyrings },
	{ "nosec_read_required_program", t_read_program },
	{ "nosec_read_required_script", t_read_script },
	{ "nosec_read_required_script_interpreter", t_read_script_interp },
	{ "nosec_read_required_elf_interpreter", t_read_elf_interp },
	{ "nosec_dynamic_program_and_script_run", t_dynamic_and_script },
	{ "nosec_error_enoent", t_err_enoent },
	{ "nosec_error_enotdir", t_err_enotdir },
	{ "nosec_error_enoexec", t_err_enoexec },
	{ "nosec_error_eacces_no_x_bit", t_err_eacces_mode },
	{ "nosec_error_eloop", t_err_eloop },
	{ "nosec_error_noexec_mount", t_err_noexec_mount },
	{ "nosec_error_efault", t_err_efault },
	{ "nosec_error_e2big", t_err_e2big },
	{ "nosec_error_etxtbsy", t_err_etxtbsy },
	{ "nosec_ordinary_exec_rest", t_ordinary_exec_rest },
	{ "nosec_fexecve_by_fd", t_fexecve },
	{ "nosec_execveat_dirfd_flags", t_execveat_dirfd },
	{ "nosec_failure_leaves_no_state", t_failure_leaves_no_state },
	{ "nosec_flag_probe_ebadf_no_side_effect", t_flag_probe },
	{ "nosec_exec_without_device_or_syscall_number", t_no_device_no_number, 1 },
	{ "ioctl_bad_input", t_ioctl_errors,
	  .module_only = "the ioctl of /dev/nosec_exec" },
	{ NULL },
};
