// SPDX-License-Identifier: GPL-2.0
/*
 * Callers' credentials the exec tests start from (creds.h).  A setup that
 * cannot build its state exits the child with 96-98, which the test sees
 * as a program that did not run.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <signal.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/fsuid.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/keyctl.h>

#include "common.h"
#include "creds.h"

/* Root keeps CAP_NET_RAW and CAP_CHOWN over setuid; NET_RAW is ambient. */
void setup_caps(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0 } };

	prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN, 0, 0, 0);
	prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0);
	if (setgroups(0, NULL) || setresgid(TEST_GID, TEST_GID, TEST_GID) ||
	    setresuid(TEST_UID, TEST_UID, TEST_UID))
		_exit(98);
	d[0].permitted = (__u32)CAPS_KEPT;
	d[0].effective = (__u32)CAPS_KEPT;
	d[0].inheritable = (__u32)CAPS_KEPT;
	if (syscall(SYS_capset, &h, d))
		_exit(97);
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_RAW, 0, 0))
		_exit(96);
	prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0);
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

/* SECURE_KEEP_CAPS set (securebits bit 4). */
void setup_keepcaps(void)
{
	prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0);
}

/* ruid=euid=1000 but suid/fsuid 0 (and the same for gids). */
void setup_split_ids(void)
{
	if (setgroups(0, NULL) || setresgid(TEST_GID, TEST_GID, 0) ||
	    setresuid(TEST_UID, TEST_UID, 0))
		_exit(98);
	setfsgid(0);
	setfsuid(0);
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

/* A set-ID caller: real uid 1000, effective and saved uid 0. */
void setup_split_euid(void)
{
	if (setgroups(0, NULL) || setresgid(TEST_GID, TEST_GID, TEST_GID) ||
	    setresuid(TEST_UID, 0, 0))
		_exit(98);
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

/*
 * Real and effective uid 1000, saved and filesystem uid 0; the gids all
 * 1000.  (Split gids make a plain exec itself AT_SECURE on newer kernels,
 * which test an egid against the caller's fsgid and groups.)
 */
void setup_split_saved_uids(void)
{
	if (setgroups(0, NULL) || setresgid(TEST_GID, TEST_GID, TEST_GID) ||
	    setresuid(TEST_UID, TEST_UID, 0))
		_exit(98);
	setfsuid(0);
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

void setup_undumpable(void)
{
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

void setup_pdeathsig(void)
{
	prctl(PR_SET_PDEATHSIG, SIGUSR1, 0, 0, 0);
}

/* A thread and a process keyring of the caller's own. */
void setup_keyrings(void)
{
	syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_THREAD_KEYRING, 1);
	syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_PROCESS_KEYRING, 1);
}

/* Root's permitted and effective sets, one capability less for each. */
static void root_caps_without(__u64 drop_permitted, __u64 drop_effective)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		_exit(98);
	for (int i = 0; i < 2; i++) {
		d[i].permitted &= ~(__u32)(drop_permitted >> (32 * i));
		d[i].effective &= ~(__u32)((drop_permitted | drop_effective) >> (32 * i));
	}
	if (syscall(SYS_capset, &h, d))
		_exit(97);
}

/*
 * Root that gave up CAP_NET_RAW (permitted and effective), its bounding
 * set untouched: a plain exec gives it back, under no_new_privs it does
 * not.
 */
void setup_root_dropped_net_raw(void)
{
	root_caps_without(1ULL << CAP_NET_RAW, 0);
}

/* Root with every capability permitted and none effective. */
void setup_root_no_effective(void)
{
	root_caps_without(0, ~0ULL);
}
