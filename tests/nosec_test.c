// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_test - the nosec_exec test suite, run inside the QEMU guest as
 * root with the module loaded.  Fixtures are made as root; each case runs
 * in its own process, as the unprivileged TEST_UID unless it says
 * otherwise.  Every nosecurity property is checked side by side with a
 * plain execve() of the same file in the same run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/fsuid.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/klog.h>
#include <grp.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/keyctl.h>

#include "nosec.h"
#include "fixtures.h"
#include "harness.h"
#include "common.h"


/* ---- 1. execve_nosecurity: SPEC 1.1, side by side with execve ---- */

/* One property, as a plain execve and a nosecurity exec of @path leave it. */
struct side_by_side {
	const char *path;
	void (*setup)(void);
	const char *key;
	long plain, nosec;	/* expected values, from SPEC 1.1 */
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

static int t_apparmor_label(void)
{
	struct run p, n;

	SKIP_IF(!apparmor_loaded, "AppArmor or apparmor_parser not available in the guest");
	CHECK(run_prog(PLAIN, FIX_PROBE_AA, NULL, &p) == 0, "plain ran");
	CHECK(!strcmp(get(&p, "label"), "nosectest (complain)"), "plain label '%s'", get(&p, "label"));
	CHECK(run_prog(NOSEC, FIX_PROBE_AA, NULL, &n) == 0, "nosec ran");
	CHECK(!strcmp(get(&n, "label"), "unconfined"), "nosec label '%s'", get(&n, "label"));
	return PASS;
}

/* Move to AppArmor profile @profile, then to TEST_UID: 0, or -1 (errno set). */
static int apparmor_user_in(const char *profile)
{
	char cmd[64];
	int fd = open("/proc/self/attr/current", O_WRONLY), n;

	if (fd < 0)
		return -1;
	n = snprintf(cmd, sizeof(cmd), "changeprofile %s", profile);
	if (write(fd, cmd, n) != n) {
		close(fd);
		return -1;
	}
	close(fd);
	return drop_to_user();
}

/* An LSM that denies the exec still denies a nosecurity one. */
static int t_apparmor_denies(void)
{
	struct run p, n;

	SKIP_IF(!apparmor_loaded, "AppArmor or apparmor_parser not available in the guest");
	CHECK(apparmor_user_in("nosecdeny") == 0, "change_profile, drop to uid %d: %d",
	      TEST_UID, errno);
	CHECK(run_prog(PLAIN, FIX_PROBE_AA_DENIED, NULL, &p) == EACCES, "plain: %d", p.exec_errno);
	CHECK(run_prog(NOSEC, FIX_PROBE_AA_DENIED, NULL, &n) == EACCES, "nosec: %d", n.exec_errno);
	CHECK(run_prog(NOSEC, FIX_PROBE, NULL, &n) == 0, "allowed file: %d", n.exec_errno);
	CHECK(!strcmp(get(&n, "label"), "nosecdeny (enforce)"), "label '%s'", get(&n, "label"));
	return PASS;
}

/*
 * The read check is an open for reading by the caller, LSMs included: a
 * profile that may execute a file (Px) but not read it keeps a nosecurity
 * exec out, which would otherwise run it unconfined-by-the-target and let
 * the caller read its image.
 */
static int t_apparmor_read_checked_at_open(void)
{
	struct run p, n;
	int fd;

	SKIP_IF(!apparmor_loaded, "AppArmor or apparmor_parser not available in the guest");
	CHECK(apparmor_user_in("nosecxonly") == 0, "change_profile, drop to uid %d: %d",
	      TEST_UID, errno);
	CHECK(access(FIX_PROBE_AA_XONLY, R_OK) == 0, "DAC allows reading it");
	fd = open(FIX_PROBE_AA_XONLY, O_RDONLY);
	CHECK(fd == -1 && errno == EACCES, "the profile must deny open for read: %d %d", fd, errno);
	CHECK(run_prog(PLAIN, FIX_PROBE_AA_XONLY, NULL, &p) == 0, "plain: %d", p.exec_errno);
	CHECK(!strcmp(get(&p, "label"), "nosecxtarget (complain)"), "plain label '%s'",
	      get(&p, "label"));
	CHECK(run_prog(NOSEC, FIX_PROBE_AA_XONLY, NULL, &n) == EACCES, "nosec: %d %s",
	      n.exec_errno, n.out);
	CHECK(run_prog(FORCED, FIX_PROBE_AA_XONLY, NULL, &n) == EACCES, "forced: %d %s",
	      n.exec_errno, n.out);
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
	CHECK(stat_value("tasks") == tasks, "tasks %ld -> %ld", tasks, stat_value("tasks"));
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

/* ---- 2. PR_RESTRICT_ME / PR_GET_RESTRICT: SPEC 1.2 ---- */

static int t_restrict_args(void)
{
	CHECK(restrict_me(PR_RESTRICT_EXEC, 1, 0, 0) == -1 && errno == EINVAL, "arg3");
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 1, 0) == -1 && errno == EINVAL, "arg4");
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 1) == -1 && errno == EINVAL, "arg5");
	CHECK(restrict_me(4, 0, 0, 0) == -1 && errno == EINVAL, "unknown bit");
	CHECK(restrict_me(PR_RESTRICT_EXEC | 4, 0, 0, 0) == -1 && errno == EINVAL, "unknown bit with EXEC");
	CHECK(restrict_me(PR_RESTRICT_EXEC_NOSECURITY, 0, 0, 0) == -1 && errno == EINVAL,
	      "a further bit without PR_RESTRICT_EXEC");
	CHECK(restrict_me(0, 0, 0, 0) == 0, "arg2 0");
	CHECK(nosec_exec_restricted() == 0, "bad input changed nothing");
	CHECK(child_execve_errno(FIX "/nope") == ENOENT, "exec still allowed");
	return PASS;
}

static int t_restrict_denies_execve(void)
{
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict: %d", errno);
	CHECK(execve(FIX_PROBE, (char *[]){ FIX_PROBE, NULL }, environ) == -1 && errno == EPERM, "errno %d", errno);
	CHECK(execve(FIX "/does-not-exist", no_argv, environ) == -1 && errno == EPERM,
	      "nonexistent path: errno %d", errno);
	CHECK(execve(FIX_PROBE, BAD, NULL) == -1 && errno == EPERM,
	      "bad argv still EPERM: errno %d", errno);
	return PASS;
}

static int t_restrict_irrevocable(void)
{
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	CHECK(restrict_me(0, 0, 0, 0) == 0, "arg2 0");
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "again");
	CHECK(nosec_set_force(0) == 0, "force off");
	CHECK(nosec_exec_restricted() == 1, "still restricted");
	CHECK(execve(FIX_PROBE, no_argv, environ) == -1 && errno == EPERM, "errno %d", errno);
	return PASS;
}

static int t_get_restrict(void)
{
	unsigned long m = 99, z3 = 99, z4 = 99, z5 = 99;

	CHECK(prctl(PR_GET_RESTRICT, &m, &z3, &z4, &z5) == 0, "get");
	CHECK(m == 0 && z3 == 0 && z4 == 0 && z5 == 0, "%lu %lu %lu %lu", m, z3, z4, z5);
	CHECK(prctl(PR_GET_RESTRICT, 0, 0, 0, 0) == 0, "all NULL");
	CHECK(prctl(PR_GET_RESTRICT, BAD, 0, 0, 0) == -1 && errno == EFAULT, "bad arg2");
	CHECK(prctl(PR_GET_RESTRICT, &m, BAD, 0, 0) == -1 && errno == EFAULT, "bad arg3");
	CHECK(prctl(PR_GET_RESTRICT, &m, 0, 0, BAD) == -1 && errno == EFAULT, "bad arg5");
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	m = 0;
	z4 = 7;
	CHECK(prctl(PR_GET_RESTRICT, &m, 0, &z4, 0) == 0, "get");
	CHECK(m == PR_RESTRICT_EXEC && z4 == 0, "mask %lu z4 %lu", m, z4);
	return PASS;
}

static int t_ban_execveat(void)
{
	int fd = open(FIX_PROBE, O_RDONLY);
	int pfd = open(FIX_PROBE, O_PATH);
	char proc[64];

	CHECK(fd >= 0 && pfd >= 0, "open");
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	CHECK(syscall(SYS_execveat, AT_FDCWD, FIX_PROBE, NULL, NULL, 0) == -1 && errno == EPERM, "path %d", errno);
	CHECK(syscall(SYS_execveat, fd, "", NULL, NULL, AT_EMPTY_PATH) == -1 && errno == EPERM, "fd %d", errno);
	CHECK(syscall(SYS_execveat, pfd, "", NULL, NULL, AT_EMPTY_PATH) == -1 && errno == EPERM, "O_PATH %d", errno);
	CHECK(fexecve(fd, (char *[]){ "p", NULL }, environ) == -1 && errno == EPERM, "fexecve %d", errno);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	CHECK(execve(proc, no_argv, environ) == -1 && errno == EPERM, "/proc/self/fd: %d", errno);
	return PASS;
}

static int memfd_with_probe(void)
{
	int in = open(FIX_PROBE, O_RDONLY), fd = memfd_create("probe", MFD_CLOEXEC);
	char buf[65536];
	ssize_t n;

	if (in < 0 || fd < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(fd, buf, n) != n)
			return -1;
	close(in);
	return fd;
}

static int t_ban_memfd(void)
{
	int fd = memfd_with_probe();
	pid_t pid;

	CHECK(fd >= 0, "memfd");
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		fexecve(fd, (char *[]){ "p", NULL }, environ);
		_exit(99);
	}
	CHECK(wait_status(pid) == 0, "unrestricted memfd fexecve runs");
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	CHECK(fexecve(fd, (char *[]){ "p", NULL }, environ) == -1 && errno == EPERM, "memfd %d", errno);
	return PASS;
}

/* 32-bit entry points from this 64-bit program; the binary is static and
 * not PIE, so these live below 4 GiB. */
static char i32_path[] = FIX_PROBE;
static unsigned int i32_argv[2];


static int t_ban_int80(void)
{
	pid_t pid;

	i32_argv[0] = (unsigned int)(uintptr_t)i32_path;
	CHECK((uintptr_t)i32_path < 0xffffffffUL, "static data below 4 GiB");
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		int80(NR32_EXECVE, (long)i32_path, (long)i32_argv, 0, 0, 0);
		_exit(99);
	}
	CHECK(wait_status(pid) == 0, "unrestricted int $0x80 execve runs the probe");
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	CHECK(int80(NR32_EXECVE, (long)i32_path, (long)i32_argv, 0, 0, 0) == -EPERM, "int80 execve");
	CHECK(int80(NR32_EXECVEAT, AT_FDCWD, (long)i32_path, (long)i32_argv, 0, 0) == -EPERM,
	      "int80 execveat");
	return PASS;
}

static char i32_suid_path[] = FIX_PROBE_SUID;
static unsigned int i32_suid_argv[2];
static struct nosec_execveat_args i32_args;


/* The ioctl through the 32-bit entry: compat_ioctl, 32-bit argv. */
static void compat_ioctl_exec(void *arg)
{
	int fd = open("/dev/nosec_exec", O_RDWR | O_CLOEXEC);

	(void)arg;
	printf("exec_errno=%ld\n",
	       -int80(NR32_IOCTL, fd, NOSEC_IOC_EXECVEAT, (long)&i32_args, 0, 0));
}

static int t_nosec_compat_ioctl(void)
{
	struct run r;

	i32_suid_argv[0] = (unsigned int)(uintptr_t)i32_suid_path;
	i32_args.pathname = (uintptr_t)i32_suid_path;
	i32_args.argv = (uintptr_t)i32_suid_argv;
	i32_args.dirfd = AT_FDCWD;
	CHECK(capture(compat_ioctl_exec, NULL, &r) == 0, "32-bit ioctl exec: %s", r.out);
	CHECK(!strcmp(get(&r, "uids"), "1000,1000,1000,1000"), "uids %s", get(&r, "uids"));
	i32_args.flags = 0x4;
	CHECK(int80(NR32_IOCTL, open("/dev/nosec_exec", O_RDWR), NOSEC_IOC_EXECVEAT,
		    (long)&i32_args, 0, 0) == -EINVAL, "unknown flag through compat");
	return PASS;
}

static int t_ban_vfork(void)
{
	pid_t pid;

	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	pid = vfork();
	if (pid == 0) {
		execve(FIX_PROBE, (char *[]){ FIX_PROBE, NULL }, environ);
		_exit(errno);
	}
	CHECK(wait_status(pid) == EPERM, "vfork+exec");
	return PASS;
}

static int t_ban_posix_spawn(void)
{
	char *argv[] = { FIX_PROBE, NULL };
	pid_t pid;
	int ret;

	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	ret = posix_spawn(&pid, FIX_PROBE, NULL, NULL, argv, environ);
	CHECK(ret == EPERM, "posix_spawn: %d", ret);
	return PASS;
}

/* ---- 3. inheritance ---- */

static int t_inherit_fork(void)
{
	pid_t pid;

	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	pid = fork();
	if (pid == 0) {
		pid_t grand = fork();

		if (grand == 0)
			_exit(child_execve_errno(FIX_PROBE));
		_exit(wait_status(grand));
	}
	CHECK(wait_status(pid) == EPERM, "grandchild exec");
	return PASS;
}

static void *thread_exec(void *arg)
{
	(void)arg;
	execve(FIX "/nope", no_argv, environ);
	return (void *)(long)errno;
}

static void *thread_restrict(void *arg)
{
	(void)arg;
	return (void *)(long)restrict_me(PR_RESTRICT_EXEC, 0, 0, 0);
}

static int t_inherit_threads(void)
{
	pthread_t t;
	void *ret;

	/* Restriction is per task: a sibling thread that restricts itself
	 * does not restrict this one, like the seed and no_new_privs. */
	CHECK(pthread_create(&t, NULL, thread_restrict, NULL) == 0, "thread");
	pthread_join(t, &ret);
	CHECK(ret == 0, "thread restricts itself");
	CHECK(nosec_exec_restricted() == 0, "main thread not restricted");
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	CHECK(pthread_create(&t, NULL, thread_exec, NULL) == 0, "thread");
	pthread_join(t, &ret);
	CHECK((long)ret == EPERM, "thread created after: errno %ld", (long)ret);
	return PASS;
}

static void *thread_nosec_exec(void *arg)
{
	char *argv[] = { FIX_PROBE_SUID, NULL };

	(void)arg;
	execve_nosecurity(FIX_PROBE_SUID, argv, environ);
	return (void *)(long)errno;
}

/* A nosecurity exec from a non-leader thread takes over the process. */
static void restricted_thread_exec(void *arg)
{
	pthread_t t;
	void *ret;

	(void)arg;
	nosec_restrict_exec();
	printf("pid_before=%d\n", getpid());
	fflush(stdout);
	if (pthread_create(&t, NULL, thread_nosec_exec, NULL) == 0)
		pthread_join(t, &ret);
}

/* A nosecurity exec from a non-leader thread takes over the process. */
static int t_nosec_from_thread(void)
{
	struct run r;

	CHECK(capture(restricted_thread_exec, NULL, &r) == 0, "probe ran: %s", r.out);
	CHECK(getl(&r, "pid") == getl(&r, "pid_before"), "the process keeps its pid: %s", r.out);
	CHECK(id_field(&r, "uids", 1) == TEST_UID && getl(&r, "restrict") == 1,
	      "no privilege, still restricted: %s", r.out);
	return PASS;
}

struct clone3_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal;
	uint64_t stack, stack_size, tls, set_tid, set_tid_size, cgroup;
};

static int t_inherit_clone3(void)
{
	struct clone3_args args = { .exit_signal = SIGCHLD };
	long pid;

	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid == 0)
		_exit(child_execve_errno(FIX_PROBE));
	CHECK(pid > 0, "clone3: %d", errno);
	CHECK(wait_status(pid) == EPERM, "clone3 child exec");
	return PASS;
}

static int t_kept_across_nosec_exec(void)
{
	struct run n;

	CHECK(run_prog(NOSEC, FIX_PROBE, setup_restrict, &n) == 0, "restricted nosec exec ran: %d", n.exec_errno);
	CHECK(getl(&n, "restrict") == PR_RESTRICT_EXEC, "restrict after exec %s", get(&n, "restrict"));
	CHECK(getl(&n, "force") == 0, "force %s", get(&n, "force"));
	CHECK(run_prog(FORCED, FIX_PROBE, NULL, &n) == 0, "forced exec ran: %d", n.exec_errno);
	CHECK(getl(&n, "restrict") == PR_RESTRICT_EXEC && getl(&n, "force") == 1,
	      "forced: restrict %s force %s", get(&n, "restrict"), get(&n, "force"));
	return PASS;
}

/* ---- 4. PR_SET/GET_FORCE_EXECVE_NOSECURITY: SPEC 1.3 ---- */

static int t_force_args(void)
{
	CHECK(prctl(PR_SET_FORCE_EXECVE_NOSECURITY, 1, 0, 0, 0) == -1 && errno == EPERM, "unrestricted");
	CHECK(prctl(PR_SET_FORCE_EXECVE_NOSECURITY, 1, 1, 0, 0) == -1 && errno == EINVAL, "arg3");
	CHECK(prctl(PR_SET_FORCE_EXECVE_NOSECURITY, 1, 0, 1, 0) == -1 && errno == EINVAL, "arg4");
	CHECK(prctl(PR_SET_FORCE_EXECVE_NOSECURITY, 1, 0, 0, 1) == -1 && errno == EINVAL, "arg5");
	CHECK(prctl(PR_GET_FORCE_EXECVE_NOSECURITY, 0, 0, 0, 0) == 0, "get 0");
	CHECK(restrict_me(PR_RESTRICT_EXEC, 0, 0, 0) == 0, "restrict");
	CHECK(prctl(PR_SET_FORCE_EXECVE_NOSECURITY, 5, 0, 0, 0) == 0, "set");
	CHECK(prctl(PR_GET_FORCE_EXECVE_NOSECURITY, 0, 0, 0, 0) == 1, "get 1");
	CHECK(prctl(PR_SET_FORCE_EXECVE_NOSECURITY, 0, 0, 0, 0) == 0, "clear");
	CHECK(prctl(PR_GET_FORCE_EXECVE_NOSECURITY, 0, 0, 0, 0) == 0, "get 0 again");
	CHECK(execve(FIX_PROBE, no_argv, environ) == -1 && errno == EPERM, "force off: EPERM again");
	return PASS;
}

static int t_force_setuid(void)
{
	struct run f;

	CHECK(run_prog(FORCED, FIX_PROBE_SUID, NULL, &f) == 0, "forced ran: %d", f.exec_errno);
	CHECK(!strcmp(get(&f, "uids"), "1000,1000,1000,1000"), "uids %s", get(&f, "uids"));
	CHECK(getl(&f, "at_secure") == 0, "AT_SECURE %s", get(&f, "at_secure"));
	return PASS;
}

static int t_force_file_caps(void)
{
	struct run f;

	CHECK(run_prog(FORCED, FIX_PROBE_CAPS, NULL, &f) == 0, "forced ran");
	CHECK(getx(&f, "capprm") == 0, "caps %s", get(&f, "capprm"));
	return PASS;
}

static int t_force_script_and_read(void)
{
	struct run f;

	CHECK(run_prog(FORCED, FIX_SCRIPT, NULL, &f) == 0, "forced script ran: %d", f.exec_errno);
	CHECK(!strcmp(get(&f, "exe"), FIX_PROBE), "exe %s", get(&f, "exe"));
	CHECK(run_prog(FORCED, FIX_PROBE_XONLY, NULL, &f) == EACCES, "exec-only: %d", f.exec_errno);
	CHECK(run_prog(FORCED, FIX_SCRIPT_XINTERP, NULL, &f) == EACCES, "exec-only interp: %d", f.exec_errno);
	return PASS;
}

static void nosec_run_forced_shell(void *arg)
{
	char *argv[] = { "nosec-run", "--restrict", "--force", "/bin/sh", "-c",
			 "exec " FIX_PROBE_SUID, NULL };

	(void)arg;
	execve("/nosec/bin/nosec-run", argv, environ);
}

static int t_force_subprocess(void)
{
	struct run r;

	CHECK(capture(nosec_run_forced_shell, NULL, &r) == 0, "nosec-run: %s", r.out);
	CHECK(!strcmp(get(&r, "uids"), "1000,1000,1000,1000"), "uids %s", get(&r, "uids"));
	CHECK(getl(&r, "restrict") == 1 && getl(&r, "force") == 1, "flags %s", r.out);
	return PASS;
}

static int t_cli_errors(void)
{
	static const struct { const char *args[4]; int status; } cases[] = {
		{ { "--force", FIX_PROBE }, 125 },
		{ { "--bogus", FIX_PROBE }, 125 },
		{ { FIX "/nope" }, 127 },
		{ { "nope-not-in-path" }, 127 },
		{ { FIX_PROBE_XONLY }, 126 },
		{ { "" }, 127 },
		/* the forced route (a plain execve in a forced tree): the same */
		{ { "-rf", FIX "/nope" }, 127 },
		{ { "-rf", "nope-not-in-path" }, 127 },
		{ { "-rf", FIX_PROBE_XONLY }, 126 },
		{ { "-rf", "" }, 127 },
		{ { "--help" }, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *argv[6] = { "nosec-run" };
		pid_t pid;

		for (int j = 0; j < 4 && cases[i].args[j]; j++)
			argv[j + 1] = (char *)cases[i].args[j];
		pid = fork();
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);

			dup2(null, 1);
			dup2(null, 2);
			execve("/nosec/bin/nosec-run", argv, environ);
			_exit(99);
		}
		CHECK(wait_status(pid) == cases[i].status, "nosec-run %s: want %d",
		      cases[i].args[0], cases[i].status);
	}
	return PASS;
}

/*
 * nosec-run ARG FIX_PROBE (nosec-run alone when ARG is NULL), its stderr
 * on stdout, for capture().
 */
static void nosec_run_capture(void *arg)
{
	char *argv[] = { "nosec-run", arg, FIX_PROBE, NULL };

	dup2(1, 2);
	execve("/nosec/bin/nosec-run", argv, environ);
}

/* Usage errors name the problem and point to --help, without the usage. */
static int t_cli_usage_errors(void)
{
	static const char *const cases[][2] = {
		{ "--bogus", "nosec-run: unrecognized option '--bogus'\n" },
		{ "-z", "nosec-run: invalid option -- 'z'\n" },
		{ "--restrict=x", "nosec-run: option '--restrict' doesn't allow an argument\n" },
		{ "--force", "nosec-run: --force needs --restrict" },
		/* NULL ends argv there: nosec-run with no argument at all */
		{ NULL, "nosec-run: no program specified\n" },
	};
	struct run r;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int status = capture(nosec_run_capture, (void *)cases[i][0], &r);
		const char *what = cases[i][0] ? cases[i][0] : "(no argument)";

		CHECK(WEXITSTATUS(status) == 125, "%s: status %#x", what, status);
		CHECK(!strncmp(r.out, cases[i][1], strlen(cases[i][1])),
		      "%s said: %s", what, r.out);
		CHECK(strstr(r.out, "Try 'nosec-run --help' for more information.\n") &&
		      !strstr(r.out, "Usage:"), "%s said: %s", what, r.out);
	}
	return PASS;
}

/* nosec-run as TEST_UID, stderr on stdout, for capture(). */
static void nosec_run_capture_as_user(void *arg)
{
	if (drop_to_user())
		_exit(98);
	nosec_run_capture(arg);
}

/* A device the user may not open is named as the reason, status 125. */
static int t_cli_device_refused(void)
{
	struct run r;
	int status;

	CHECK(chmod("/dev/nosec_exec", 0600) == 0, "chmod: %d", errno);
	status = capture(nosec_run_capture_as_user, "--", &r);
	CHECK(chmod("/dev/nosec_exec", 0666) == 0, "chmod back: %d", errno);
	CHECK(WEXITSTATUS(status) == 125, "status %#x", status);
	CHECK(strstr(r.out, "cannot open /dev/nosec_exec: Permission denied") &&
	      !strstr(r.out, "cannot run"), "said: %s", r.out);
	status = capture(nosec_run_capture_as_user, "--", &r);
	CHECK(WEXITSTATUS(status) == 0, "mode 0666 again: status %#x: %s", status, r.out);
	return PASS;
}

/*
 * As TEST_UID, the setuid-root probe asked whether its euid is TEST_UID:
 * through nosec-run --restrict --force (arg "forced"), or plainly, the
 * control that shows the question can be answered no.
 */
static void suid_probe_as_user(void *arg)
{
	char uid[16];
	char *forced[] = { "nosec-run", "--restrict", "--force",
			   FIX_PROBE_SUID, "--euid", uid, NULL };
	char *plain[] = { FIX_PROBE_SUID, "--euid", uid, NULL };
	char **argv = !strcmp(arg, "forced") ? forced : plain;

	snprintf(uid, sizeof(uid), "%d", TEST_UID);
	if (drop_to_user())
		_exit(98);
	dup2(1, 2);
	execve(argv == forced ? "/nosec/bin/nosec-run" : FIX_PROBE_SUID,
	       argv, environ);
}

/*
 * A forced tree's execve() is the nosecurity route and needs no device:
 * nosec-run -rf works with the node refused (mode 0600) or hidden (a
 * private /dev), and the set-user-ID bit still gives nothing.
 */
static int t_cli_forced_needs_no_device(void)
{
	const char *dev = "/dev/nosec_exec", *hidden = "/dev/.nosec_exec";
	struct run r;
	int status;

	status = capture(suid_probe_as_user, "plain", &r);
	CHECK(WEXITSTATUS(status) == 3, "control: plain exec must gain euid 0: %#x", status);
	CHECK(chmod(dev, 0600) == 0, "chmod: %d", errno);
	status = capture(suid_probe_as_user, "forced", &r);
	CHECK(chmod(dev, 0666) == 0, "chmod back: %d", errno);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "mode 0600: status %#x: %s", status, r.out);
	CHECK(rename(dev, hidden) == 0, "hide: %d", errno);
	status = capture(suid_probe_as_user, "forced", &r);
	CHECK(rename(hidden, dev) == 0, "unhide: %d", errno);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "hidden: status %#x: %s", status, r.out);
	return PASS;
}

/*
 * As TEST_UID, under a seccomp filter that fails execve() with ENOSYS (as
 * systemd's SystemCallErrorNumber= may): nosec-run -rf, started with
 * execveat(), runs the probe with the forced execve().
 */
static void forced_run_execve_enosys(void *arg)
{
	char *argv[] = { "nosec-run", "--restrict", "--force", FIX_PROBE, NULL };

	(void)arg;
	if (drop_to_user() || deny_syscall(__NR_execve, ENOSYS))
		_exit(98);
	dup2(1, 2);
	syscall(__NR_execveat, AT_FDCWD, "/nosec/bin/nosec-run", argv, environ, 0);
}

/*
 * A forced exec that fails is the program's failure (126, the error's
 * words), never "module not loaded" or a device hint: the forced route
 * uses no device.
 */
static int t_cli_forced_failure_is_not_the_device(void)
{
	struct run r;
	int status = capture(forced_run_execve_enosys, NULL, &r);

	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 126, "status %#x: %s",
	      status, r.out);
	CHECK(strstr(r.out, "cannot run " FIX_PROBE ": Function not implemented") &&
	      !strstr(r.out, "/dev/nosec_exec") && !strstr(r.out, "module"),
	      "said: %s", r.out);
	return PASS;
}

static int t_cli_version(void)
{
	char want[64] = "", line[64];
	struct run r;
	FILE *f = fopen("/sys/module/nosec_exec/version", "r");

	/* The module's MODULE_VERSION comes from the same dkms.conf line. */
	CHECK(f && fgets(want, sizeof(want), f), "module version");
	fclose(f);
	want[strcspn(want, "\n")] = 0;
	snprintf(line, sizeof(line), "nosec-run (nosec_exec) %s\n", want);
	CHECK(WEXITSTATUS(capture(nosec_run_capture, "--version", &r)) == 0,
	      "exit status");
	CHECK(!strcmp(r.out, line), "printed '%s', want '%s'", r.out, line);
	return PASS;
}

/* ---- 5. lifecycle and stats (root) ---- */

static int t_cli_module_not_loaded(void)
{
	struct run r;
	int status;

	CHECK(wait_tasks(0) == 0 && unload_module() == 0, "unload: %d", errno);
	status = capture(nosec_run_capture, "--restrict", &r);
	CHECK(WEXITSTATUS(status) == 125, "--restrict: status %#x", status);
	CHECK(strstr(r.out, "nosec_exec module is not loaded") &&
	      strstr(r.out, "modprobe nosec_exec"), "--restrict said: %s", r.out);
	status = capture(nosec_run_capture, "--", &r);
	CHECK(WEXITSTATUS(status) == 125, "plain run: status %#x", status);
	CHECK(strstr(r.out, "nosec_exec module is not loaded"), "said: %s", r.out);
	CHECK(load_module() == 0, "reload: %d", errno);
	return PASS;
}

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
	      stat_value("nosec_execs") == 0 && stat_value("missed") == 0, "reload starts clean");
	CHECK(nosec_exec_restricted() == 0, "not restricted after reload");
	return PASS;
}

static int t_no_stale_state(void)
{
	long base = wait_tasks(0);
	int i;

	CHECK(base == 0, "baseline %ld", base);
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
	CHECK(wait_tasks(0) == 0, "tasks %ld after 200 restricted exits", stat_value("tasks"));
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

	CHECK(denied >= 0 && nosec >= 0 && stat_value("missed") >= 0, "stats readable");
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

static int t_exec_storm_missed(void)
{
	long missed = stat_value("missed");
	pid_t pids[6];
	int i, bad = 0;

	CHECK(missed == 0, "missed %ld before", missed);
	for (i = 0; i < 6; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			_exit(storm_worker(i));
	}
	for (i = 0; i < 6; i++)
		bad += wait_status(pids[i]) != 0;
	CHECK(bad == 0, "%d workers saw a wrong exec result", bad);
	CHECK(stat_value("missed") == 0, "missed %ld", stat_value("missed"));
	CHECK(stat_value("killed_execs") == 0, "killed %ld", stat_value("killed_execs"));
	return PASS;
}

const struct test_case spec_cases[] = {
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
	{ "nosec_apparmor_label_kept", t_apparmor_label },
	{ "nosec_lsm_can_still_deny", t_apparmor_denies, 1 },
	{ "nosec_read_checked_as_open_apparmor", t_apparmor_read_checked_at_open, 1 },
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
	{ "ioctl_bad_input", t_ioctl_errors },
	{ "restrict_me_argument_errors", t_restrict_args },
	{ "restrict_denies_execve_before_lookup", t_restrict_denies_execve },
	{ "restrict_is_irrevocable", t_restrict_irrevocable },
	{ "get_restrict_stores_and_efault", t_get_restrict },
	{ "restrict_denies_execveat_all_forms", t_ban_execveat },
	{ "restrict_denies_memfd_fexecve", t_ban_memfd },
	{ "restrict_denies_int80_execve_execveat", t_ban_int80 },
	{ "nosec_compat_ioctl_int80", t_nosec_compat_ioctl },
	{ "restrict_denies_vfork_exec", t_ban_vfork },
	{ "restrict_denies_posix_spawn", t_ban_posix_spawn },
	{ "restrict_inherited_fork_grandchild", t_inherit_fork },
	{ "restrict_per_thread_and_inherited_by_threads", t_inherit_threads },
	{ "restrict_inherited_clone3", t_inherit_clone3 },
	{ "nosec_exec_from_non_leader_thread", t_nosec_from_thread },
	{ "flags_kept_across_nosec_exec", t_kept_across_nosec_exec },
	{ "force_argument_errors_and_toggle", t_force_args },
	{ "force_setuid_target_no_privilege", t_force_setuid },
	{ "force_file_caps_target_no_caps", t_force_file_caps },
	{ "force_script_runs_read_enforced", t_force_script_and_read },
	{ "force_subprocess_execve_via_nosec_run", t_force_subprocess },
	{ "nosec_run_exit_codes", t_cli_errors },
	{ "nosec_run_version", t_cli_version },
	{ "nosec_run_usage_errors_point_to_help", t_cli_usage_errors },
	{ "nosec_run_names_a_refused_device", t_cli_device_refused, 1 },
	{ "nosec_run_forced_needs_no_device", t_cli_forced_needs_no_device, 1 },
	{ "nosec_run_forced_failure_is_not_the_device", t_cli_forced_failure_is_not_the_device, 1 },
	{ "nosec_run_module_not_loaded", t_cli_module_not_loaded, 1 },
	{ "stats_count_nosec_and_denied", t_stats_counters, 1 },
	{ "lifecycle_unload_refused_then_reload_clean", t_unload_refused_while_restricted, 1 },
	{ "lifecycle_load_all_or_nothing", t_load_all_or_nothing, 1 },
	{ "fail_closed_when_probes_miss", t_fail_closed_missed_probes, 1 },
	{ "fail_closed_fork_enomem", t_fork_enomem_fails_closed, 1 },
	{ "no_stale_state_after_restricted_exits", t_no_stale_state, 1 },
	{ "exec_storm_missed_zero", t_exec_storm_missed, 1, 400 },
	{ NULL },
};

static int run_case(const struct test_case *tc)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return FAIL;
	if (pid == 0) {
		setpgid(0, 0);
		alarm(tc->timeout ? tc->timeout : 120);
		if (!tc->as_root && drop_to_user()) {
			printf("# cannot drop to uid %d\n", TEST_UID);
			_exit(FAIL);
		}
		_exit(tc->fn());
	}
	setpgid(pid, pid);
	if (waitpid(pid, &status, 0) != pid)
		return FAIL;
	/*
	 * Nothing a case started outlives it: its process group is killed and
	 * every process that ends up ours (we are a subreaper) is reaped, so
	 * that no stray restricted task pins the module for the next case.
	 */
	kill(-pid, SIGKILL);
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	if (WIFSIGNALED(status)) {
		printf("# killed by signal %d\n", WTERMSIG(status));
		return FAIL;
	}
	return WEXITSTATUS(status) <= SKIP ? WEXITSTATUS(status) : FAIL;
}

/*
 * nosec_test [--stress] [NAME]: every case (with --stress, the stress
 * cases too), or those whose name contains NAME.
 */
int main(int argc, char *argv[])
{
	const struct test_case *suites[] = {
		spec_cases, restrict_all_cases, bypass_cases, scope_cases,
		watcher_cases, failsafe_cases, fuzz_cases, NULL, NULL, NULL,
	};
	int passed = 0, failed = 0, skipped = 0;
	const char *only = NULL;
	size_t n = 0, i = 0, nsuites = 7;

	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--stress"))
			suites[nsuites++] = stress_cases;
		else
			only = argv[a];
	}

	/* Last: TOMOYO's policy, once loaded, stays for the whole boot. */
	suites[nsuites++] = tomoyo_cases;
	setvbuf(stdout, NULL, _IOLBF, 0);
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	if (getuid() != 0) {
		fprintf(stderr, "nosec_test: run as root (it makes fixtures, then drops to uid %d)\n", TEST_UID);
		return 2;
	}
	if (make_fixtures("/nosec/tests"))
		return 2;
	for (size_t s = 0; s < nsuites; s++)
		for (const struct test_case *tc = suites[s]; tc->name; tc++)
			n++;
	printf("TAP version 13\n1..%zu\n", n);
	for (size_t s = 0; s < nsuites; s++) {
		for (const struct test_case *tc = suites[s]; tc->name; tc++) {
			int r;

			i++;
			if (only && !strstr(tc->name, only)) {
				printf("ok %zu %s # SKIP not selected\n", i, tc->name);
				skipped++;
				continue;
			}
			r = run_case(tc);
			if (r == PASS) {
				printf("ok %zu %s\n", i, tc->name);
				passed++;
			} else if (r == SKIP) {
				printf("ok %zu %s # SKIP\n", i, tc->name);
				skipped++;
			} else {
				printf("not ok %zu %s\n", i, tc->name);
				failed++;
			}
		}
	}
	if (skipped)
		printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
	else
		printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
