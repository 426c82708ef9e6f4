// SPDX-License-Identifier: GPL-2.0
/*
 * nosec-run - run a program through execve_nosecurity(), optionally after
 * restricting exec (and forcing nosecurity exec) for it and its children.
 *
 * Exit status, as env(1): 125 nosec-run itself failed, 126 PROGRAM was
 * found but could not be run, 127 PROGRAM was not found.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nosec.h"

#ifndef NOSEC_VERSION
#define NOSEC_VERSION "unknown"
#endif

#define EXIT_RUN_FAILED		125
#define EXIT_CANNOT_RUN		126
#define EXIT_NOT_FOUND		127

extern char **environ;

static const char *prog = "nosec-run";

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: %s [--restrict] [--force] [--] PROGRAM [ARGS...]\n"
		"Run PROGRAM with execve_nosecurity(): no set-user/group-ID,\n"
		"no file capabilities, no LSM transition, AT_SECURE=0.\n"
		"\n"
		"  -r, --restrict  forbid execve() for PROGRAM and its children\n"
		"                  (PR_RESTRICT_ME, PR_RESTRICT_EXEC; irrevocable)\n"
		"  -f, --force     turn their execve() calls into\n"
		"                  execve_nosecurity() (needs --restrict)\n"
		"  -h, --help      show this help and exit\n"
		"  -V, --version   show the version and exit\n"
		"\n"
		"Exit status: PROGRAM's, or 125 if nosec-run failed, 126 if\n"
		"PROGRAM could not be run, 127 if it was not found.\n",
		prog);
}

static void module_not_loaded(void)
{
	fprintf(stderr,
		"%s: the nosec_exec module is not loaded (no /dev/%s);\n"
		"%s: load it with: modprobe nosec_exec (or insmod nosec_exec.ko)\n",
		prog, NOSEC_EXEC_DEVICE_NAME, prog);
}

static int exit_code_for(int err)
{
	return err == ENOENT || err == ENOTDIR ? EXIT_NOT_FOUND :
						 EXIT_CANNOT_RUN;
}

/* Like execvp(): search PATH when @file has no slash. */
static int run_program(const char *file, char *const argv[])
{
	const char *path = getenv("PATH");
	int err = ENOENT;
	char buf[4096];

	if (strchr(file, '/')) {
		execve_nosecurity(file, argv, environ);
		return errno;
	}
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");
		int n;

		n = snprintf(buf, sizeof(buf), "%.*s%s%s", (int)len, path,
			     len ? "/" : "", file);
		path += len + (path[len] == ':');
		if (n < 0 || (size_t)n >= sizeof(buf))
			continue;
		execve_nosecurity(buf, argv, environ);
		if (errno == ENOSYS)
			return errno;
		/* As execvp(): remember EACCES, keep looking. */
		if (errno == EACCES)
			err = EACCES;
		else if (errno != ENOENT && errno != ENOTDIR)
			return errno;
	}
	return err;
}

int main(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "restrict", no_argument, NULL, 'r' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int restrict_exec = 0, force = 0, c, err;

	while ((c = getopt_long(argc, argv, "+rfhV", options, NULL)) != -1) {
		switch (c) {
		case 'r':
			restrict_exec = 1;
			break;
		case 'f':
			force = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("%s (nosec_exec) %s\n", prog, NOSEC_VERSION);
			return 0;
		default:
			usage(stderr);
			return EXIT_RUN_FAILED;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "%s: missing PROGRAM\n", prog);
		usage(stderr);
		return EXIT_RUN_FAILED;
	}
	if (force && !restrict_exec) {
		fprintf(stderr, "%s: --force needs --restrict\n", prog);
		return EXIT_RUN_FAILED;
	}
	if (restrict_exec && nosec_restrict_exec() < 0) {
		if (errno == ENOSYS)
			module_not_loaded();
		else
			fprintf(stderr, "%s: prctl(PR_RESTRICT_ME): %s\n",
				prog, strerror(errno));
		return EXIT_RUN_FAILED;
	}
	if (force && nosec_set_force(1) < 0) {
		fprintf(stderr, "%s: prctl(PR_SET_FORCE_EXECVE_NOSECURITY): %s\n",
			prog, strerror(errno));
		return EXIT_RUN_FAILED;
	}

	err = run_program(argv[optind], &argv[optind]);
	if (err == ENOSYS) {
		module_not_loaded();
		return EXIT_RUN_FAILED;
	}
	fprintf(stderr, "%s: cannot run %s: %s\n", prog, argv[optind],
		strerror(err));
	return exit_code_for(err);
}
