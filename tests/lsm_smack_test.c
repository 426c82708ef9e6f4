// SPDX-License-Identifier: GPL-2.0
/*
 * Smack (built by the series' kernel, not by Debian's): a SMACK64EXEC
 * label on a program moves a plain exec to that label; a nosecurity exec
 * may not move, and Smack refuses it (EPERM).  Without the label, the
 * program runs in the caller's label.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "nosec.h"
#include "fixtures.h"
#include "common.h"
#include "../kselftest_harness.h"
#include "ksft_nosec.h"

NOSEC_FIXTURE(lsm_smack);

#define SMACKFS		"/sys/fs/smackfs"
#define SMACK_DIR	"/tmp/nosec-smack"
#define SMACK_EXEC	SMACK_DIR "/exec"	/* SMACK64EXEC=nosecexec */
#define SMACK_PLAIN	SMACK_DIR "/plain"	/* no SMACK64EXEC */

/* The files, and a rule that lets the program write its output back. */
static int smack_ready(void)
{
	static const char rule[] = "nosecexec _ rwxa";

	if (access(SMACKFS "/load2", W_OK) &&
	    mount("smackfs", SMACKFS, "smackfs", 0, NULL))
		return -1;
	if (write_text(SMACKFS "/load2", rule))
		return -1;
	mkdir(SMACK_DIR, 0755);
	if (copy_file(FIX_PROBE, SMACK_EXEC, 0755) ||
	    copy_file(FIX_PROBE, SMACK_PLAIN, 0755))
		return -1;
	return setxattr(SMACK_EXEC, "security.SMACK64EXEC", "nosecexec",
			strlen("nosecexec"), 0);
}

TEST_F(lsm_smack, smack64exec_refused)
{
	LSM_TEST_START("smack");
	ASSERT_EQ(0, smack_ready()) TH_LOG("Smack rule and files: %s", strerror(errno));
	ASSERT_EQ(0, drop_to_user()) TH_LOG("drop to uid %d", TEST_UID);
	ASSERT_PASS(runs_as(PLAIN, SMACK_EXEC, NULL, "nosecexec"));
	ASSERT_PASS(refused(NOSEC, SMACK_EXEC, NULL, EPERM));
	ASSERT_PASS(refused(FORCED, SMACK_EXEC, NULL, EPERM));
	ASSERT_PASS(runs_as(NOSEC, SMACK_PLAIN, NULL, "_"));
}

TEST_HARNESS_MAIN
