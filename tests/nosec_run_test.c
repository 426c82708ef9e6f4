// SPDX-License-Identifier: GPL-2.0
/*
 * The nosec-run command: its exit statuses, --version, usage errors, the
 * messages for a refused device or a module not loaded, and a forced run
 * that needs no device and blames no device when the exec fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixtures.h"
#include "common.h"
#include "../kselftest_harness.h"
#include "ksft_nosec.h"

NOSEC_FIXTURE(nosec_run);

/* dkms.conf's PACKAGE_VERSION, from tests/Makefile. */
#ifndef NOSEC_VERSION
#define NOSEC_VERSION ""
#endif

TEST_F(nosec_run, nosec_run_exit_codes)
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

	AS_TEST_USER();

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
		ASSERT_EQ(cases[i].status, wait_status(pid))
			TH_LOG("nosec-run %s: want %d", cases[i].args[0], cases[i].status);
	}
}

/* Usage errors name the problem and point to --help, without the usage. */
TEST_F(nosec_run, nosec_run_usage_errors_point_to_help)
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

	AS_TEST_USER();

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int status = capture(nosec_run_capture, (void *)cases[i][0], &r);
		const char *what = cases[i][0] ? cases[i][0] : "(no argument)";

		ASSERT_EQ(125, WEXITSTATUS(status)) TH_LOG("%s: status %#x", what, status);
		ASSERT_TRUE(!strncmp(r.out, cases[i][1], strlen(cases[i][1])))
			TH_LOG("%s said: %s", what, r.out);
		ASSERT_TRUE(strstr(r.out, "Try 'nosec-run --help' for more information.\n") &&
			    !strstr(r.out, "Usage:"))
			TH_LOG("%s said: %s", what, r.out);
	}
}

/* nosec-run as TEST_UID, stderr on stdout, for capture(). */
static void nosec_run_capture_as_user(void *arg)
{
	if (drop_to_user())
		_exit(98);
	nosec_run_capture(arg);
}

/*
 * The device matters only to --restrict-all (NOSEC_EXEC_RESTRICT_ALL):
 * with a device the user may not open, a plain nosec-run runs (the flag
 * needs no device), and --restrict-all names the device as the reason,
 * status 125.
 */
TEST_F(nosec_run, nosec_run_names_a_refused_device)
{
	struct run plain, all;
	int s_plain, s_all;

	MODULE_ONLY("no /dev/nosec_exec to refuse");

	ASSERT_EQ(0, chmod("/dev/nosec_exec", 0600)) TH_LOG("chmod: %d", errno);
	s_plain = capture(nosec_run_capture_as_user, "--", &plain);
	s_all = capture(nosec_run_capture_as_user, "--restrict-all", &all);
	ASSERT_EQ(0, chmod("/dev/nosec_exec", 0666)) TH_LOG("chmod back: %d", errno);
	ASSERT_EQ(0, WEXITSTATUS(s_plain))
		TH_LOG("plain run, mode 0600: status %#x: %s", s_plain, plain.out);
	ASSERT_EQ(125, WEXITSTATUS(s_all)) TH_LOG("--restrict-all: status %#x", s_all);
	ASSERT_TRUE(strstr(all.out, "cannot open /dev/nosec_exec: Permission denied") &&
		    strstr(all.out, "--restrict-all needs the device") &&
		    !strstr(all.out, "cannot run"))
		TH_LOG("said: %s", all.out);
	s_all = capture(nosec_run_capture_as_user, "--restrict-all", &all);
	ASSERT_EQ(0, WEXITSTATUS(s_all)) TH_LOG("mode 0666 again: status %#x: %s", s_all, all.out);
}

/*
 * No /dev/nosec_exec here (the module's node renamed away; natively there
 * is none): a plain nosec-run runs, --restrict-all says what is missing
 * and why, status 125.
 */
TEST_F(nosec_run, nosec_run_without_device)
{
	const char *dev = "/dev/nosec_exec", *hidden = "/dev/.nosec_exec";
	struct run plain, all;
	int s_plain, s_all;

	ASSERT_TRUE(nosec_native || rename(dev, hidden) == 0) TH_LOG("hide: %d", errno);
	s_plain = capture(nosec_run_capture_as_user, "--", &plain);
	s_all = capture(nosec_run_capture_as_user, "--restrict-all", &all);
	ASSERT_TRUE(nosec_native || rename(hidden, dev) == 0) TH_LOG("unhide: %d", errno);
	ASSERT_EQ(0, WEXITSTATUS(s_plain)) TH_LOG("plain run: status %#x: %s", s_plain, plain.out);
	ASSERT_EQ(125, WEXITSTATUS(s_all)) TH_LOG("--restrict-all: status %#x: %s", s_all, all.out);
	ASSERT_NE(NULL, strstr(all.out, nosec_native ?
				"this kernel's own nosecurity exec has no such option" :
				"module is loaded, but /dev/nosec_exec is missing here"))
		TH_LOG("--restrict-all said: %s", all.out);
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
TEST_F(nosec_run, nosec_run_forced_needs_no_device)
{
	const char *dev = "/dev/nosec_exec", *hidden = "/dev/.nosec_exec";
	struct run r;
	int status;

	status = capture(suid_probe_as_user, "plain", &r);
	ASSERT_EQ(3, WEXITSTATUS(status))
		TH_LOG("control: plain exec must gain euid 0: %#x", status);
	if (nosec_native) {
		/* No device at all is the native kernel's normal state. */
		ASSERT_NE(0, access(dev, F_OK)) TH_LOG("native kernel with %s", dev);
		status = capture(suid_probe_as_user, "forced", &r);
		ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
			TH_LOG("no device: status %#x: %s", status, r.out);
		return;
	}
	ASSERT_EQ(0, chmod(dev, 0600)) TH_LOG("chmod: %d", errno);
	status = capture(suid_probe_as_user, "forced", &r);
	ASSERT_EQ(0, chmod(dev, 0666)) TH_LOG("chmod back: %d", errno);
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("mode 0600: status %#x: %s", status, r.out);
	ASSERT_EQ(0, rename(dev, hidden)) TH_LOG("hide: %d", errno);
	status = capture(suid_probe_as_user, "forced", &r);
	ASSERT_EQ(0, rename(hidden, dev)) TH_LOG("unhide: %d", errno);
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("hidden: status %#x: %s", status, r.out);
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
TEST_F(nosec_run, nosec_run_forced_failure_is_not_the_device)
{
	struct run r;
	int status = capture(forced_run_execve_enosys, NULL, &r);

	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 126)
		TH_LOG("status %#x: %s", status, r.out);
	ASSERT_TRUE(strstr(r.out, "cannot run " FIX_PROBE ": Function not implemented") &&
		    !strstr(r.out, "/dev/nosec_exec") && !strstr(r.out, "module"))
		TH_LOG("said: %s", r.out);
}

TEST_F(nosec_run, nosec_run_version)
{
	char want[64] = "", line[64];
	struct run r;
	FILE *f;

	AS_TEST_USER();

	if (nosec_native) {
		/* No module: the version this suite was built with. */
		snprintf(want, sizeof(want), "%s", NOSEC_VERSION);
		ASSERT_TRUE(want[0]) TH_LOG("no NOSEC_VERSION built in");
	} else {
		/* The module's MODULE_VERSION comes from the same dkms.conf line. */
		f = fopen("/sys/module/nosec_exec/version", "r");
		ASSERT_TRUE(f && fgets(want, sizeof(want), f)) TH_LOG("module version");
		fclose(f);
		want[strcspn(want, "\n")] = 0;
	}
	snprintf(line, sizeof(line), "nosec-run (nosec_exec) %s\n", want);
	ASSERT_EQ(0, WEXITSTATUS(capture(nosec_run_capture, "--version", &r)))
		TH_LOG("exit status");
	ASSERT_TRUE(!strcmp(r.out, line)) TH_LOG("printed '%s', want '%s'", r.out, line);
}

TEST_HARNESS_MAIN
