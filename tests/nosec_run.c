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
#include "harness.h"
#include "common.h"

/* dkms.conf's PACKAGE_VERSION, from tests/Makefile. */
#ifndef NOSEC_VERSION
#define NOSEC_VERSION ""
#endif

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

/*
 * The device matters only to --restrict-all (NOSEC_EXEC_RESTRICT_ALL):
 * with a device the user may not open, a plain nosec-run runs (the flag
 * needs no device), and --restrict-all names the device as the reason,
 * status 125.
 */
static int t_cli_device_refused(void)
{
	struct run plain, all;
	int s_plain, s_all;

	CHECK(chmod("/dev/nosec_exec", 0600) == 0, "chmod: %d", errno);
	s_plain = capture(nosec_run_capture_as_user, "--", &plain);
	s_all = capture(nosec_run_capture_as_user, "--restrict-all", &all);
	CHECK(chmod("/dev/nosec_exec", 0666) == 0, "chmod back: %d", errno);
	CHECK(WEXITSTATUS(s_plain) == 0, "plain run, mode 0600: status %#x: %s",
	      s_plain, plain.out);
	CHECK(WEXITSTATUS(s_all) == 125, "--restrict-all: status %#x", s_all);
	CHECK(strstr(all.out, "cannot open /dev/nosec_exec: Permission denied") &&
	      strstr(all.out, "--restrict-all needs the device") &&
	      !strstr(all.out, "cannot run"), "said: %s", all.out);
	s_all = capture(nosec_run_capture_as_user, "--restrict-all", &all);
	CHECK(WEXITSTATUS(s_all) == 0, "mode 0666 again: status %#x: %s", s_all, all.out);
	return PASS;
}

/*
 * No /dev/nosec_exec here (the module's node renamed away; natively there
 * is none): a plain nosec-run runs, --restrict-all says what is missing
 * and why, status 125.
 */
static int t_cli_no_device(void)
{
	const char *dev = "/dev/nosec_exec", *hidden = "/dev/.nosec_exec";
	struct run plain, all;
	int s_plain, s_all;

	CHECK(nosec_native || rename(dev, hidden) == 0, "hide: %d", errno);
	s_plain = capture(nosec_run_capture_as_user, "--", &plain);
	s_all = capture(nosec_run_capture_as_user, "--restrict-all", &all);
	CHECK(nosec_native || rename(hidden, dev) == 0, "unhide: %d", errno);
	CHECK(WEXITSTATUS(s_plain) == 0, "plain run: status %#x: %s", s_plain, plain.out);
	CHECK(WEXITSTATUS(s_all) == 125, "--restrict-all: status %#x: %s", s_all, all.out);
	CHECK(strstr(all.out, nosec_native ?
		      "this kernel's own nosecurity exec has no such option" :
		      "module is loaded, but /dev/nosec_exec is missing here"),
	      "--restrict-all said: %s", all.out);
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
	if (nosec_native) {
		/* No device at all is the native kernel's normal state. */
		CHECK(access(dev, F_OK) != 0, "native kernel with %s", dev);
		status = capture(suid_probe_as_user, "forced", &r);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "no device: status %#x: %s", status, r.out);
		return PASS;
	}
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
	FILE *f;

	if (nosec_native) {
		/* No module: the version this suite was built with. */
		snprintf(want, sizeof(want), "%s", NOSEC_VERSION);
		CHECK(want[0], "no NOSEC_VERSION built in");
	} else {
		/* The module's MODULE_VERSION comes from the same dkms.conf line. */
		f = fopen("/sys/module/nosec_exec/version", "r");
		CHECK(f && fgets(want, sizeof(want), f), "module version");
		fclose(f);
		want[strcspn(want, "\n")] = 0;
	}
	snprintf(line, sizeof(line), "nosec-run (nosec_exec) %s\n", want);
	CHECK(WEXITSTATUS(capture(nosec_run_capture, "--version", &r)) == 0,
	      "exit status");
	CHECK(!strcmp(r.out, line), "printed '%s', want '%s'", r.out, line);
	return PASS;
}

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
	status = capture(nosec_run_capture, "--restrict-all", &r);
	CHECK(WEXITSTATUS(status) == 125, "--restrict-all: status %#x", status);
	CHECK(strstr(r.out, "nosec_exec module is not loaded"), "said: %s", r.out);
	CHECK(load_module() == 0, "reload: %d", errno);
	return PASS;
}

const struct test_case nosec_run_cases[] = {
	{ "nosec_run_exit_codes", t_cli_errors },
	{ "nosec_run_version", t_cli_version },
	{ "nosec_run_usage_errors_point_to_help", t_cli_usage_errors },
	{ "nosec_run_names_a_refused_device", t_cli_device_refused, 1,
	  .module_only = "no /dev/nosec_exec to refuse" },
	{ "nosec_run_without_device", t_cli_no_device, 1 },
	{ "nosec_run_forced_needs_no_device", t_cli_forced_needs_no_device, 1 },
	{ "nosec_run_forced_failure_is_not_the_device", t_cli_forced_failure_is_not_the_device, 1 },
	{ "nosec_run_module_not_loaded", t_cli_module_not_loaded, 1,
	  .module_only = "unloads and reloads the module" },
	{ NULL },
};
