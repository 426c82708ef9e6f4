// SPDX-License-Identifier: GPL-2.0
/*
 * SELinux, enforcing: a nosecurity exec is judged as an exec that stays
 * in the caller's domain (execute_no_trans), carries no per-exec SELinux
 * state into the program, and fires none of a transition's side effects.
 * Run by make check-lsm in a guest booted with SELinux, with the policy
 * of tests/selinux/nosec_test.conf (compiled on the host) at
 * SELINUX_POLICY; every case loads it if no policy is loaded yet.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "nosec.h"
#include "fixtures.h"
#include "common.h"
#include "../kselftest_harness.h"
#include "ksft_nosec.h"

NOSEC_FIXTURE(lsm_selinux);

#define SELINUX_POLICY	"/extra/nosec_test.policy"
#define SELINUXFS	"/sys/fs/selinux"
#define SE_DIR		"/tmp/nosec-se"
#define SE_F		SE_DIR "/f"	/* A may run it only by moving to B */
#define SE_G		SE_DIR "/g"	/* A moves to B, or runs it in place */
#define SE_H		SE_DIR "/h"	/* no transition; B may enter on it */
#define SE_K		SE_DIR "/k"	/* A moves to B2, bounded by A */
#define SE_S		SE_DIR "/s"	/* A may not read it */
#define CTX_A		"u:r:nosec_a_t"
#define CTX_B		"u:r:nosec_b_t"
#define CTX_B2		"u:r:nosec_b2_t"
#define SE_FD		10	/* where a case keeps SE_S open */

static int label(const char *path, const char *type)
{
	char ctx[64];

	snprintf(ctx, sizeof(ctx), "u:object_r:%s", type);
	return setxattr(path, "security.selinux", ctx, strlen(ctx) + 1, 0);
}

/* The policy loaded and enforcing once per boot; the files labelled. */
static int selinux_ready(void)
{
	static const struct {
		const char *path, *type;
	} files[] = {
		{ SE_F, "nosec_f_exec_t" }, { SE_G, "nosec_g_exec_t" },
		{ SE_H, "nosec_h_exec_t" }, { SE_K, "nosec_k_exec_t" },
	};
	char buf[16] = "";
	int fd;

	if (access(SELINUXFS "/enforce", F_OK) &&
	    mount("selinuxfs", SELINUXFS, "selinuxfs", 0, NULL))
		return -1;
	/* The policy's classes appear under class/ once it is loaded. */
	if (access(SELINUXFS "/class/process", F_OK)) {
		int in = open(SELINUX_POLICY, O_RDONLY);
		static char policy[1 << 20];
		ssize_t n = in < 0 ? -1 : read(in, policy, sizeof(policy));

		if (in >= 0)
			close(in);
		if (n <= 0) {
			printf("# no policy at %s\n", SELINUX_POLICY);
			return -1;
		}
		fd = open(SELINUXFS "/load", O_WRONLY);
		if (fd < 0 || write(fd, policy, n) != n) {
			printf("# loading the policy: %s\n", strerror(errno));
			return -1;
		}
		close(fd);
	}
	if (write_text(SELINUXFS "/enforce", "1"))
		return -1;
	fd = open(SELINUXFS "/enforce", O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) < 1 || buf[0] != '1')
		return -1;
	close(fd);
	if (access(SE_DIR, F_OK)) {
		if (mkdir(SE_DIR, 0755) ||
		    mount("tmpfs", SE_DIR, "tmpfs", 0, "mode=0755"))
			return -1;
	}
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (copy_file(FIX_PROBE, files[i].path, 0755) ||
		    label(files[i].path, files[i].type))
			return -1;
	if (write_file(SE_S, "secret\n", 0644) || label(SE_S, "nosec_s_t"))
		return -1;
	return 0;
}

/* Move from kernel_t into nosec_a_t (SELinux keeps kernel_t as the
 * "osid"), then to TEST_UID unless @as_root. */
static int enter_a_as(int as_root)
{
	if (write_text("/proc/self/attr/current", CTX_A))
		return -1;
	return as_root ? 0 : drop_to_user();
}

static int enter_a(void)
{
	return enter_a_as(0);
}

#define SELINUX_CASE_START()						\
	do {								\
		LSM_TEST_START("selinux");				\
		ASSERT_EQ(0, selinux_ready())				\
			TH_LOG("SELinux policy and files: %s", strerror(errno)); \
	} while (0)

/* A may run F only by moving to B: the nosecurity exec is refused. */
TEST_F(lsm_selinux, selinux_transition_only_refused)
{
	SELINUX_CASE_START();
	ASSERT_EQ(0, enter_a()) TH_LOG("enter " CTX_A ": %s", strerror(errno));
	ASSERT_PASS(runs_as(PLAIN, SE_F, NULL, CTX_B));
	ASSERT_PASS(refused(NOSEC, SE_F, NULL, EACCES));
	ASSERT_PASS(refused(FORCED, SE_F, NULL, EACCES));
}

/* A may run G in place (execute_no_trans): it does, in A. */
TEST_F(lsm_selinux, selinux_execute_no_trans_in_place)
{
	SELINUX_CASE_START();
	ASSERT_EQ(0, enter_a()) TH_LOG("enter " CTX_A ": %s", strerror(errno));
	ASSERT_PASS(runs_as(PLAIN, SE_G, NULL, CTX_B));
	ASSERT_PASS(runs_as(NOSEC, SE_G, NULL, CTX_A));
	ASSERT_PASS(runs_as(FORCED, SE_G, NULL, CTX_A));
}

/*
 * A moves to B2 on K, a transition SELinux allows even under no_new_privs
 * (B2 is bounded by A), and A may run K in place (execute_no_trans).  The
 * module, which can only ask SELinux as under no_new_privs, sees the
 * label change and refuses; the series tells SELinux the exec may not
 * transition, and SELinux judges it in place: it runs in A.
 */
TEST_F(lsm_selinux, selinux_bounded_transition)
{
	long before;

	SELINUX_CASE_START();
	before = stat_value("lsm_refused");
	/* As root, to read the module's stats afterwards. */
	ASSERT_EQ(0, enter_a_as(1)) TH_LOG("enter " CTX_A ": %s", strerror(errno));
	ASSERT_PASS(runs_as(PLAIN, SE_K, NULL, CTX_B2));
	if (nosec_native)
		{
			ASSERT_PASS(runs_as(NOSEC, SE_K, NULL, CTX_A));
			return;
		}
	ASSERT_PASS(refused(NOSEC, SE_K, NULL, EPERM));
	ASSERT_EQ(before + 1, stat_value("lsm_refused"))
		TH_LOG("lsm_refused %ld -> %ld", before, stat_value("lsm_refused"));
}

static void setexeccon_b(void)
{
	write_text("/proc/self/attr/exec", CTX_B);
}

static void setexeccon_a_and_create_contexts(void)
{
	write_text("/proc/self/attr/exec", CTX_A);
	write_text("/proc/self/attr/fscreate", "u:object_r:nosec_q_t");
	write_text("/proc/self/attr/sockcreate", CTX_A);
	write_text("/proc/self/attr/keycreate", CTX_A);
}

/*
 * A pending setexeccon() to another context: the nosecurity exec fails
 * (SELinux's rule for an exec context under no_new_privs), the plain one
 * moves.  One naming the caller's own context is consumed, and so are
 * the create contexts: none reaches the program.
 */
TEST_F(lsm_selinux, selinux_pending_exec_context)
{
	struct run n;

	SELINUX_CASE_START();
	ASSERT_EQ(0, enter_a()) TH_LOG("enter " CTX_A ": %s", strerror(errno));
	ASSERT_PASS(runs_as(PLAIN, SE_H, setexeccon_b, CTX_B));
	ASSERT_PASS(refused(NOSEC, SE_H, setexeccon_b, EPERM));
	ASSERT_EQ(0, run_prog(NOSEC, SE_H, setexeccon_a_and_create_contexts, &n))
		TH_LOG("nosec, own context pending: %d", n.exec_errno);
	ASSERT_TRUE(!strcmp(get(&n, "label"), CTX_A)) TH_LOG("label '%s'", get(&n, "label"));
	ASSERT_TRUE(!*get(&n, "exec_attr") && !*get(&n, "fscreate") && !*get(&n, "sockcreate") &&
		    !*get(&n, "keycreate"))
		TH_LOG("per-exec state reached the program: exec '%s' fscreate '%s' "
		       "sockcreate '%s' keycreate '%s'",
		       get(&n, "exec_attr"), get(&n, "fscreate"), get(&n, "sockcreate"),
		       get(&n, "keycreate"));
}

static void arm_side_effects(void)
{
	struct rlimit core = { 1 << 20, RLIM_INFINITY };
	struct itimerval it = { .it_value = { .tv_sec = 1000 } };
	sigset_t usr1;

	setrlimit(RLIMIT_CORE, &core);
	prctl(PR_SET_PDEATHSIG, SIGUSR2);
	setitimer(ITIMER_REAL, &it, NULL);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	kill(getpid(), SIGUSR1);
}

/* What SELinux would undo at a transition, all still there. */
static int side_effects_absent(const struct run *r, const char *how)
{
	REQUIRE(!strcmp(get(r, "label"), CTX_A), "%s: label '%s'", how, get(r, "label"));
	REQUIRE(getl(r, "core") == 1 << 20, "%s: soft RLIMIT_CORE %s", how, get(r, "core"));
	REQUIRE(getl(r, "pdeathsig") == SIGUSR2, "%s: pdeathsig %s", how, get(r, "pdeathsig"));
	REQUIRE(getl(r, "itimer_real") > 900, "%s: ITIMER_REAL %s", how, get(r, "itimer_real"));
	REQUIRE(getx(r, "sigblk") & (1ULL << (SIGUSR1 - 1)), "%s: SigBlk %s", how,
		get(r, "sigblk"));
	REQUIRE((getx(r, "sigpnd") | getx(r, "shdpnd")) & (1ULL << (SIGUSR1 - 1)),
		"%s: SIGUSR1 no longer pending (%s %s)", how, get(r, "sigpnd"),
		get(r, "shdpnd"));
	REQUIRE(!strcmp(get(r, "fdpath10"), SE_S), "%s: fd %d now '%s'", how, SE_FD,
		get(r, "fdpath10"));
	return PASS;
}

/*
 * A caller that entered its domain by a transition (SELinux keeps the
 * one it came from, kernel_t, as osid; kernel_t -> A has no rlimitinh or
 * siginh): a nosecurity exec, like a plain exec in place, flushes no
 * descriptor (one to a file A may not read), resets no soft rlimit,
 * flushes no signal or itimer and keeps the parent-death signal.
 */
TEST_F(lsm_selinux, selinux_no_transition_side_effects)
{
	struct run p, n;
	int fd;

	SELINUX_CASE_START();
	fd = open(SE_S, O_RDONLY);
	ASSERT_TRUE(fd >= 0 && dup2(fd, SE_FD) == SE_FD)
		TH_LOG("open " SE_S ": %s", strerror(errno));
	ASSERT_EQ(0, enter_a()) TH_LOG("enter " CTX_A ": %s", strerror(errno));
	ASSERT_ERRNO(EACCES, open(SE_S, O_RDONLY), "A must not be able to open " SE_S ": %s",
		     strerror(errno));
	ASSERT_EQ(0, run_prog(PLAIN, SE_H, arm_side_effects, &p)) TH_LOG("plain: %d", p.exec_errno);
	ASSERT_PASS(side_effects_absent(&p, "plain exec in place"));
	ASSERT_EQ(0, run_prog(NOSEC, SE_H, arm_side_effects, &n)) TH_LOG("nosec: %d", n.exec_errno);
	ASSERT_PASS(side_effects_absent(&n, "nosecurity exec"));
}

TEST_HARNESS_MAIN
