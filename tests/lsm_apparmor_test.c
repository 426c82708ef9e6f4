// SPDX-License-Identifier: GPL-2.0
/*
 * AppArmor: a nosecurity exec is judged as an exec that stays in the
 * caller's profile.  Where AppArmor would move it (a profile attached to
 * the program, Px, Cx, a pending change_onexec) it is refused with EPERM,
 * whatever the caller may map: AppArmor has no rule for running such a
 * program in place.  Where it would not (ix), it runs as a plain exec
 * does, m or no m; read access is checked as an open for reading.  The
 * profiles are in fixtures.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "nosec.h"
#include "fixtures.h"
#include "common.h"
#include "../kselftest_harness.h"
#include "ksft_nosec.h"

NOSEC_FIXTURE(lsm_apparmor);

#define APPARMOR_CASE_START()						\
	do {								\
		LSM_TEST_START("apparmor");				\
		ASSERT_EQ(0, load_apparmor_profile())			\
			TH_LOG("AppArmor is active, but the test profiles did" \
			       " not load (apparmor_parser in the guest?)"); \
	} while (0)

/* Move to AppArmor profile @profile, then to TEST_UID: PASS or FAIL. */
static int apparmor_user_in(const char *profile)
{
	char cmd[64];
	int fd = open("/proc/self/attr/current", O_WRONLY), n;

	REQUIRE(fd >= 0, "open /proc/self/attr/current: %s", strerror(errno));
	n = snprintf(cmd, sizeof(cmd), "changeprofile %s", profile);
	REQUIRE(write(fd, cmd, n) == n, "change_profile to %s: %s", profile,
		strerror(errno));
	close(fd);
	REQUIRE(drop_to_user() == 0, "drop to uid %d: %s", TEST_UID, strerror(errno));
	return PASS;
}

/* May the caller map @path executable itself?  0, or the errno. */
static int map_exec_errno(const char *path)
{
	int fd = open(path, O_RDONLY), err = 0;
	void *p;

	if (fd < 0)
		return errno;
	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		err = errno;
	else
		munmap(p, 4096);
	close(fd);
	return err;
}

/* An unconfined caller (root, to read the stats), a program with a
 * profile attached: refused. */
TEST_F(lsm_apparmor, apparmor_attached_profile_refused)
{
	long before;

	APPARMOR_CASE_START();
	before = stat_value("lsm_refused");
	ASSERT_PASS(runs_as(PLAIN, FIX_PROBE_AA, NULL, "nosectest (complain)"));
	ASSERT_PASS(refused(NOSEC, FIX_PROBE_AA, NULL, EPERM));
	ASSERT_PASS(refused(FORCED, FIX_PROBE_AA, NULL, EPERM));
	if (!nosec_native) {
		ASSERT_EQ(before + 2, stat_value("lsm_refused"))
			TH_LOG("lsm_refused %ld -> %ld", before, stat_value("lsm_refused"));
	}
}

/* Px, with and without m on the program: refused either way. */
TEST_F(lsm_apparmor, apparmor_px_refused_with_or_without_m)
{
	static const char *const px[] = { FIX_PROBE_AA_PXM, FIX_PROBE_AA_PXNOM };

	APPARMOR_CASE_START();
	ASSERT_PASS(apparmor_user_in("nosecpx"));
	ASSERT_EQ(0, map_exec_errno(FIX_PROBE_AA_PXM)) TH_LOG("m: the caller may map it");
	ASSERT_EQ(EACCES, map_exec_errno(FIX_PROBE_AA_PXNOM))
		TH_LOG("no m: the caller may not map it: %d", map_exec_errno(FIX_PROBE_AA_PXNOM));
	for (int i = 0; i < 2; i++) {
		ASSERT_PASS(runs_as(PLAIN, px[i], NULL, "nosecxtarget (complain)"));
		ASSERT_PASS(refused(NOSEC, px[i], NULL, EPERM));
		ASSERT_PASS(refused(FORCED, px[i], NULL, EPERM));
	}
}

#ifndef AT_EXECVE_CHECK
#define AT_EXECVE_CHECK		0x10000
#endif

/* execveat(AT_EXECVE_CHECK | @flags) of @path: 0 or the errno. */
static int check_errno(const char *path, int flags)
{
	char *argv[] = { (char *)path, NULL };

	if (syscall(SYS_execveat, AT_FDCWD, path, argv, environ,
		    AT_EXECVE_CHECK | flags))
		return errno;
	return 0;
}

/*
 * AT_EXECVE_CHECK (6.14) answers as the exec would: the nosecurity check
 * of a Px program is refused (AppArmor would move it), of an ix one not;
 * the plain checks pass both.
 */
TEST_F(lsm_apparmor, apparmor_check_answers_as_the_exec)
{
	APPARMOR_CASE_START();
	ASSERT_PASS(apparmor_user_in("nosecpx"));
	if (check_errno(FIX_PROBE_AA_PXM, 0) == EINVAL)
		SKIP(return, "no AT_EXECVE_CHECK in this kernel");
	ASSERT_EQ(0, check_errno(FIX_PROBE_AA_PXM, 0));
	ASSERT_EQ(EPERM, check_errno(FIX_PROBE_AA_PXM, AT_EXECVE_NO_TRANSITION));
	ASSERT_EQ(0, check_errno(FIX_PROBE_AA_IXNOM, 0));
	ASSERT_EQ(0, check_errno(FIX_PROBE_AA_IXNOM, AT_EXECVE_NO_TRANSITION));
}

/* Cx: the child profile is another domain, refused. */
TEST_F(lsm_apparmor, apparmor_cx_refused)
{
	APPARMOR_CASE_START();
	ASSERT_PASS(apparmor_user_in("nosecpx"));
	ASSERT_PASS(runs_as(PLAIN, FIX_PROBE_AA_CX, NULL, "nosecpx//sub (complain)"));
	ASSERT_PASS(refused(NOSEC, FIX_PROBE_AA_CX, NULL, EPERM));
}

/* ix without m: in place, so judged as a plain exec, which runs it. */
TEST_F(lsm_apparmor, apparmor_ix_without_m_runs)
{
	APPARMOR_CASE_START();
	ASSERT_PASS(apparmor_user_in("nosecpx"));
	ASSERT_EQ(EACCES, map_exec_errno(FIX_PROBE_AA_IXNOM))
		TH_LOG("the caller may map it: %d", map_exec_errno(FIX_PROBE_AA_IXNOM));
	ASSERT_PASS(runs_as(PLAIN, FIX_PROBE_AA_IXNOM, NULL, "nosecpx (enforce)"));
	ASSERT_PASS(runs_as(NOSEC, FIX_PROBE_AA_IXNOM, NULL, "nosecpx (enforce)"));
	ASSERT_PASS(runs_as(FORCED, FIX_PROBE_AA_IXNOM, NULL, "nosecpx (enforce)"));
}

/*
 * Px to the caller's own profile: no move, so it runs; and the rule asks
 * for a scrubbed environment (AT_SECURE), which the nosecurity exec keeps
 * as a plain exec does.
 */
TEST_F(lsm_apparmor, apparmor_px_to_own_profile_keeps_at_secure)
{
	struct run p, n;

	APPARMOR_CASE_START();
	ASSERT_PASS(apparmor_user_in("nosecpx"));
	ASSERT_EQ(0, run_prog(PLAIN, FIX_PROBE_AA_PXSELF, NULL, &p))
		TH_LOG("plain: %d", p.exec_errno);
	ASSERT_TRUE(!strcmp(get(&p, "label"), "nosecpx (enforce)") && getl(&p, "at_secure") == 1)
		TH_LOG("plain: label '%s', AT_SECURE %s", get(&p, "label"), get(&p, "at_secure"));
	ASSERT_EQ(0, run_prog(NOSEC, FIX_PROBE_AA_PXSELF, NULL, &n))
		TH_LOG("nosec: %d", n.exec_errno);
	ASSERT_TRUE(!strcmp(get(&n, "label"), "nosecpx (enforce)") && getl(&n, "at_secure") == 1)
		TH_LOG("nosec: label '%s', AT_SECURE %s", get(&n, "label"), get(&n, "at_secure"));
}

static void onexec_target(void)
{
	write_text("/proc/self/attr/exec", "exec nosecxtarget");
}

static void onexec_own(void)
{
	write_text("/proc/self/attr/exec", "exec nosecpx");
}

/*
 * A pending change_onexec to another profile: refused, as the move it
 * asks for; one to the caller's own profile runs and is consumed.
 */
TEST_F(lsm_apparmor, apparmor_pending_onexec)
{
	struct run n;

	APPARMOR_CASE_START();
	ASSERT_PASS(apparmor_user_in("nosecpx"));
	ASSERT_PASS(runs_as(PLAIN, FIX_PROBE, onexec_target, "nosecxtarget (complain)"));
	ASSERT_PASS(refused(NOSEC, FIX_PROBE, onexec_target, EPERM));
	ASSERT_EQ(0, run_prog(NOSEC, FIX_PROBE, onexec_own, &n))
		TH_LOG("nosec, own profile: %d", n.exec_errno);
	ASSERT_TRUE(!strcmp(get(&n, "label"), "nosecpx (enforce)"))
		TH_LOG("label '%s'", get(&n, "label"));
	ASSERT_TRUE(!*get(&n, "exec_attr"))
		TH_LOG("change_onexec survived the exec: '%s'", get(&n, "exec_attr"));
}

/* An LSM that denies the exec still denies a nosecurity one. */
TEST_F(lsm_apparmor, nosec_lsm_can_still_deny)
{
	APPARMOR_CASE_START();
	ASSERT_PASS(apparmor_user_in("nosecdeny"));
	ASSERT_PASS(refused(PLAIN, FIX_PROBE_AA_DENIED, NULL, EACCES));
	ASSERT_PASS(refused(NOSEC, FIX_PROBE_AA_DENIED, NULL, EACCES));
	ASSERT_PASS(runs_as(NOSEC, FIX_PROBE, NULL, "nosecdeny (enforce)"));
}

/*
 * The read check is an open for reading by the caller, LSMs included: a
 * profile that may execute a file in place (ix) but not read it runs it
 * by a plain exec (whose own open AppArmor lets through) and keeps a
 * nosecurity exec out (EACCES).
 */
TEST_F(lsm_apparmor, nosec_read_checked_as_open_apparmor)
{
	int fd;

	APPARMOR_CASE_START();
	ASSERT_PASS(apparmor_user_in("nosecxonly"));
	ASSERT_EQ(0, access(FIX_PROBE_AA_XONLY, R_OK)) TH_LOG("DAC allows reading it");
	fd = open(FIX_PROBE_AA_XONLY, O_RDONLY);
	ASSERT_ERRNO(EACCES, fd, "the profile must deny open for read: %d %d", fd, errno);
	ASSERT_PASS(runs_as(PLAIN, FIX_PROBE_AA_XONLY, NULL, "nosecxonly (enforce)"));
	ASSERT_PASS(refused(NOSEC, FIX_PROBE_AA_XONLY, NULL, EACCES));
	ASSERT_PASS(refused(FORCED, FIX_PROBE_AA_XONLY, NULL, EACCES));
}

TEST_HARNESS_MAIN
