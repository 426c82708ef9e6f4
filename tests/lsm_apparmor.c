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
#include <unistd.h>

#include "nosec.h"
#include "fixtures.h"
#include "harness.h"
#include "common.h"

#define APPARMOR_CASE_START()						\
	do {								\
		LSM_CASE_START("apparmor");				\
		CHECK(apparmor_loaded, "AppArmor is active, but the test "	\
		      "profiles did not load (apparmor_parser in the guest?)"); \
	} while (0)

/* Move to AppArmor profile @profile, then to TEST_UID: PASS or FAIL. */
static int apparmor_user_in(const char *profile)
{
	char cmd[64];
	int fd = open("/proc/self/attr/current", O_WRONLY), n;

	CHECK(fd >= 0, "open /proc/self/attr/current: %s", strerror(errno));
	n = snprintf(cmd, sizeof(cmd), "changeprofile %s", profile);
	CHECK(write(fd, cmd, n) == n, "change_profile to %s: %s", profile,
	      strerror(errno));
	close(fd);
	CHECK(drop_to_user() == 0, "drop to uid %d: %s", TEST_UID, strerror(errno));
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
static int t_apparmor_attached_refused(void)
{
	long before;

	APPARMOR_CASE_START();
	before = stat_value("lsm_refused");
	CHECK_PASS(runs_as(PLAIN, FIX_PROBE_AA, NULL, "nosectest (complain)"));
	CHECK_PASS(refused(NOSEC, FIX_PROBE_AA, NULL, EPERM));
	CHECK_PASS(refused(FORCED, FIX_PROBE_AA, NULL, EPERM));
	if (!nosec_native)
		CHECK(stat_value("lsm_refused") == before + 2, "lsm_refused %ld -> %ld",
		      before, stat_value("lsm_refused"));
	return PASS;
}

/* Px, with and without m on the program: refused either way. */
static int t_apparmor_px_refused(void)
{
	static const char *const px[] = { FIX_PROBE_AA_PXM, FIX_PROBE_AA_PXNOM };

	APPARMOR_CASE_START();
	CHECK_PASS(apparmor_user_in("nosecpx"));
	CHECK(map_exec_errno(FIX_PROBE_AA_PXM) == 0, "m: the caller may map it");
	CHECK(map_exec_errno(FIX_PROBE_AA_PXNOM) == EACCES,
	      "no m: the caller may not map it: %d", map_exec_errno(FIX_PROBE_AA_PXNOM));
	for (int i = 0; i < 2; i++) {
		CHECK_PASS(runs_as(PLAIN, px[i], NULL, "nosecxtarget (complain)"));
		CHECK_PASS(refused(NOSEC, px[i], NULL, EPERM));
		CHECK_PASS(refused(FORCED, px[i], NULL, EPERM));
	}
	return PASS;
}

/* Cx: the child profile is another domain, refused. */
static int t_apparmor_cx_refused(void)
{
	APPARMOR_CASE_START();
	CHECK_PASS(apparmor_user_in("nosecpx"));
	CHECK_PASS(runs_as(PLAIN, FIX_PROBE_AA_CX, NULL, "nosecpx//sub (complain)"));
	return refused(NOSEC, FIX_PROBE_AA_CX, NULL, EPERM);
}

/* ix without m: in place, so judged as a plain exec, which runs it. */
static int t_apparmor_ix_without_m_runs(void)
{
	APPARMOR_CASE_START();
	CHECK_PASS(apparmor_user_in("nosecpx"));
	CHECK(map_exec_errno(FIX_PROBE_AA_IXNOM) == EACCES, "the caller may map it: %d",
	      map_exec_errno(FIX_PROBE_AA_IXNOM));
	CHECK_PASS(runs_as(PLAIN, FIX_PROBE_AA_IXNOM, NULL, "nosecpx (enforce)"));
	CHECK_PASS(runs_as(NOSEC, FIX_PROBE_AA_IXNOM, NULL, "nosecpx (enforce)"));
	return runs_as(FORCED, FIX_PROBE_AA_IXNOM, NULL, "nosecpx (enforce)");
}

/*
 * Px to the caller's own profile: no move, so it runs; and the rule asks
 * for a scrubbed environment (AT_SECURE), which the nosecurity exec keeps
 * as a plain exec does.
 */
static int t_apparmor_px_to_own_profile(void)
{
	struct run p, n;

	APPARMOR_CASE_START();
	CHECK_PASS(apparmor_user_in("nosecpx"));
	CHECK(run_prog(PLAIN, FIX_PROBE_AA_PXSELF, NULL, &p) == 0, "plain: %d", p.exec_errno);
	CHECK(!strcmp(get(&p, "label"), "nosecpx (enforce)") && getl(&p, "at_secure") == 1,
	      "plain: label '%s', AT_SECURE %s", get(&p, "label"), get(&p, "at_secure"));
	CHECK(run_prog(NOSEC, FIX_PROBE_AA_PXSELF, NULL, &n) == 0, "nosec: %d", n.exec_errno);
	CHECK(!strcmp(get(&n, "label"), "nosecpx (enforce)") && getl(&n, "at_secure") == 1,
	      "nosec: label '%s', AT_SECURE %s", get(&n, "label"), get(&n, "at_secure"));
	return PASS;
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
static int t_apparmor_pending_onexec(void)
{
	struct run n;

	APPARMOR_CASE_START();
	CHECK_PASS(apparmor_user_in("nosecpx"));
	CHECK_PASS(runs_as(PLAIN, FIX_PROBE, onexec_target, "nosecxtarget (complain)"));
	CHECK_PASS(refused(NOSEC, FIX_PROBE, onexec_target, EPERM));
	CHECK(run_prog(NOSEC, FIX_PROBE, onexec_own, &n) == 0, "nosec, own profile: %d",
	      n.exec_errno);
	CHECK(!strcmp(get(&n, "label"), "nosecpx (enforce)"), "label '%s'", get(&n, "label"));
	CHECK(!*get(&n, "exec_attr"), "change_onexec survived the exec: '%s'",
	      get(&n, "exec_attr"));
	return PASS;
}

/* An LSM that denies the exec still denies a nosecurity one. */
static int t_apparmor_denies(void)
{
	APPARMOR_CASE_START();
	CHECK_PASS(apparmor_user_in("nosecdeny"));
	CHECK_PASS(refused(PLAIN, FIX_PROBE_AA_DENIED, NULL, EACCES));
	CHECK_PASS(refused(NOSEC, FIX_PROBE_AA_DENIED, NULL, EACCES));
	return runs_as(NOSEC, FIX_PROBE, NULL, "nosecdeny (enforce)");
}

/*
 * The read check is an open for reading by the caller, LSMs included: a
 * profile that may execute a file in place (ix) but not read it runs it
 * by a plain exec (whose own open AppArmor lets through) and keeps a
 * nosecurity exec out (EACCES).
 */
static int t_apparmor_read_checked_at_open(void)
{
	int fd;

	APPARMOR_CASE_START();
	CHECK_PASS(apparmor_user_in("nosecxonly"));
	CHECK(access(FIX_PROBE_AA_XONLY, R_OK) == 0, "DAC allows reading it");
	fd = open(FIX_PROBE_AA_XONLY, O_RDONLY);
	CHECK(fd == -1 && errno == EACCES, "the profile must deny open for read: %d %d", fd, errno);
	CHECK_PASS(runs_as(PLAIN, FIX_PROBE_AA_XONLY, NULL, "nosecxonly (enforce)"));
	CHECK_PASS(refused(NOSEC, FIX_PROBE_AA_XONLY, NULL, EACCES));
	return refused(FORCED, FIX_PROBE_AA_XONLY, NULL, EACCES);
}

const struct test_case lsm_apparmor_cases[] = {
	{ "apparmor_attached_profile_refused", t_apparmor_attached_refused, 1 },
	{ "apparmor_px_refused_with_or_without_m", t_apparmor_px_refused, 1 },
	{ "apparmor_cx_refused", t_apparmor_cx_refused, 1 },
	{ "apparmor_ix_without_m_runs", t_apparmor_ix_without_m_runs, 1 },
	{ "apparmor_pending_onexec", t_apparmor_pending_onexec, 1 },
	{ "apparmor_px_to_own_profile_keeps_at_secure", t_apparmor_px_to_own_profile, 1 },
	{ "nosec_lsm_can_still_deny", t_apparmor_denies, 1 },
	{ "nosec_read_checked_as_open_apparmor", t_apparmor_read_checked_at_open, 1 },
	{ NULL },
};
