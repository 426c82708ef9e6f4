// SPDX-License-Identifier: GPL-2.0
/*
 * nosec-run - run a program through execve_nosecurity(), optionally after
 * restricting exec (and forcing nosecurity exec) for it and its children.
 *
 * Exit status, as env(1): 125 nosec-run itself failed, 126 PROGRAM was
 * found but could not be run, 127 PROGRAM was not found.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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

static void usage(void)
{
	printf("Usage:\n"
	       " %s [options] [--] <program> [<argument>...]\n"
	       "\n"
	       "Run a program through execve_nosecurity(): it starts with the\n"
	       "caller's own credentials; no set-user/group-ID bit, no file\n"
	       "capability, no LSM transition, AT_SECURE as for a plain\n"
	       "exec of a plain file.\n"
	       "\n"
	       "Options:\n"
	       " -r, --restrict  forbid execve() for the program and its children\n"
	       "                 (PR_RESTRICT_ME, PR_RESTRICT_EXEC; irrevocable)\n"
	       " -f, --force     turn their execve() calls into\n"
	       "                 execve_nosecurity() instead (needs --restrict)\n"
	       " -t, --all-threads\n"
	       "                 with --restrict: restrict every thread of this\n"
	       "                 process at once (PR_RESTRICT_TSYNC); it starts\n"
	       "                 none, but a preloaded library may have\n"
	       " -R, --restrict-all\n"
	       "                 let the program and its children run no other\n"
	       "                 program at all: execve() and execve_nosecurity()\n"
	       "                 fail (PR_RESTRICT_EXEC_NOSECURITY; irrevocable)\n"
	       "\n"
	       " -h, --help      display this help\n"
	       " -V, --version   display version\n"
	       "\n"
	       "Exit status: the program's; 125 if %s itself failed,\n"
	       "126 if the program could not be run, 127 if it was not found.\n"
	       "\n"
	       "For more details see nosec-run(1).\n", prog, prog);
}

/* A usage error: say what is wrong and where help is, nothing more. */
static int usage_error(const char *what, const char *arg)
{
	if (what)
		fprintf(stderr, "%s: %s%s%s\n", prog, what, arg ? " " : "",
			arg ? arg : "");
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
	return EXIT_RUN_FAILED;
}

/* What getopt_long() rejected, in its own words (opterr is off). */
static void bad_option(const char *arg)
{
	if (!strncmp(arg, "--", 2) && optopt)	/* --restrict=x */
		fprintf(stderr, "%s: option '%.*s' doesn't allow an argument\n",
			prog, (int)strcspn(arg, "="), arg);
	else if (!strncmp(arg, "--", 2))
		fprintf(stderr, "%s: unrecognized option '%s'\n", prog, arg);
	else
		fprintf(stderr, "%s: invalid option -- '%c'\n", prog, optopt);
}

/*
 * Is the kernel locked down (Secure Boot, or lockdown= on its command
 * line)?  Then it loads only modules signed by a key it trusts.
 */
static int kernel_locked_down(void)
{
	char mode[128] = "";
	FILE *f = fopen("/sys/kernel/security/lockdown", "r");

	if (!f)
		return 0;
	if (!fgets(mode, sizeof(mode), f))
		mode[0] = '\0';
	fclose(f);
	return strstr(mode, "[integrity]") || strstr(mode, "[confidentiality]");
}

/* ENOSYS: the kernel knows no AT_EXECVE_NO_TRANSITION and no prctl option. */
static void module_not_loaded(void)
{
	fprintf(stderr,
		"%s: this kernel has no nosecurity exec: the nosec_exec module is not loaded\n"
		"%s: load it with: modprobe nosec_exec (or insmod nosec_exec.ko)\n",
		prog, prog);
	if (!kernel_locked_down())
		return;
	fprintf(stderr,
		"%s: this kernel is locked down (Secure Boot, or lockdown=): it loads only modules signed by a key it trusts;\n"
		"%s: if modprobe says \"Key was rejected by service\", enroll DKMS's key once:\n"
		"%s: mokutil --import /var/lib/dkms/mok.pub, reboot, confirm in MokManager\n"
		"%s: (see nosec_exec(4), Secure Boot)\n",
		prog, prog, prog, prog);
}

/* Is the nosec_exec module loaded (not the series' own flag)? */
static int module_loaded(void)
{
	return access("/sys/module/nosec_exec", F_OK) == 0;
}

/*
 * ENODEV, for --restrict-all: the kernel knows the flag, but the module's
 * device, which alone offers NOSEC_EXEC_RESTRICT_ALL, is not here.
 */
static void no_device_here(void)
{
	if (!module_loaded()) {
		fprintf(stderr,
			"%s: --restrict-all needs the nosec_exec module's /dev/%s;\n"
			"%s: this kernel's own nosecurity exec has no such option (use --restrict)\n",
			prog, NOSEC_EXEC_DEVICE_NAME, prog);
		return;
	}
	fprintf(stderr,
		"%s: the nosec_exec module is loaded, but /dev/%s is missing here;\n"
		"%s: --restrict-all needs it (a private /dev? bind the node in, e.g. bwrap --dev-bind /dev/%s /dev/%s)\n",
		prog, NOSEC_EXEC_DEVICE_NAME, prog,
		NOSEC_EXEC_DEVICE_NAME, NOSEC_EXEC_DEVICE_NAME);
}

/*
 * EACCES or EPERM from the device itself, not from the program: its mode,
 * an LSM or a device cgroup keeps this user from opening it.
 */
static int device_refused(void)
{
	const char *dev = "/dev/" NOSEC_EXEC_DEVICE_NAME;
	int fd = open(dev, O_RDWR | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno != EACCES && errno != EPERM)
		return 0;
	fprintf(stderr,
		"%s: cannot open %s: %s\n"
		"%s: --restrict-all needs the device (its mode, the module's exec_group,\n"
		"%s: an LSM or a device cgroup refuses it here; see nosec_exec(4))\n",
		prog, dev, strerror(errno), prog, prog);
	return 1;
}

/*
 * EACCES: the module's exec_group, when it is set and this process is not
 * in it, keeps this user from nosecurity execs.
 */
static int exec_group_refused(void)
{
	FILE *f = fopen("/sys/module/nosec_exec/parameters/exec_group", "r");
	long gid = -1;
	int n;

	if (!f)
		return 0;
	n = fscanf(f, "%ld", &gid);
	fclose(f);
	if (n != 1 || gid < 0 || (gid_t)gid == getegid() ||
	    group_member((gid_t)gid))
		return 0;
	fprintf(stderr,
		"%s: nosecurity execs are allowed only to the members of group %ld\n"
		"%s: (the nosec_exec module's exec_group; see nosec_exec(4))\n",
		prog, gid, prog);
	return 1;
}

static int exit_code_for(int err)
{
	return err == ENOENT || err == ENOTDIR ? EXIT_NOT_FOUND :
						 EXIT_CANNOT_RUN;
}

/* How nosec-run execs the program. */
enum run_how {
	RUN_FLAG,	/* execve_nosecurity(): AT_EXECVE_NO_TRANSITION */
	RUN_FORCED,	/* a plain execve() in a forced tree */
	RUN_LAST,	/* the device, and the program can exec nothing */
};

/*
 * One exec of @path: execveat() with AT_EXECVE_NO_TRANSITION, or, in a
 * forced tree, a plain execve() that the kernel turns into the nosecurity
 * exec.  Neither needs the module's device: a private /dev without the
 * node (bwrap --dev, PrivateDevices=) is no obstacle.  main() has checked
 * that force is on.  For --restrict-all, the device's
 * NOSEC_EXEC_RESTRICT_ALL: the program starts with every exec denied, and
 * a failed exec leaves nosec-run able to try the next PATH entry.
 */
static void exec_one(const char *path, char *const argv[], int how)
{
	if (how == RUN_FORCED)
		execve(path, argv, environ);
	else
		execveat_nosecurity(AT_FDCWD, path, argv, environ,
				    how == RUN_LAST ? NOSEC_EXEC_RESTRICT_ALL : 0);
}

/* Like execvp(): search PATH when @file has no slash. */
static int run_program(const char *file, char *const argv[], int how)
{
	const char *path = getenv("PATH");
	int err = ENOENT;
	char buf[4096];

	if (!*file)	/* as execvp(): no such file, not EACCES from a dir */
		return ENOENT;
	if (strchr(file, '/')) {
		exec_one(file, argv, how);
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
		exec_one(buf, argv, how);
		if (errno == ENOSYS || errno == ENODEV)
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
		{ "restrict-all", no_argument, NULL, 'R' },
		{ "all-threads", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int restrict_exec = 0, force = 0, all = 0, threads = 0, c, err;
	pid_t blocker = 0;

	opterr = 0;	/* the messages below name "nosec-run", not argv[0] */

	while ((c = getopt_long(argc, argv, "+rfRthV", options, NULL)) != -1) {
		switch (c) {
		case 'r':
			restrict_exec = 1;
			break;
		case 'f':
			force = 1;
			break;
		case 'R':
			restrict_exec = 1;
			all = 1;
			break;
		case 't':
			threads = 1;
			break;
		case 'h':
			usage();
			return 0;
		case 'V':
			printf("%s (nosec_exec) %s\n", prog, NOSEC_VERSION);
			return 0;
		default:
			bad_option(argv[optind - 1]);
			return usage_error(NULL, NULL);
		}
	}
	if (optind >= argc)
		return usage_error("no program specified", NULL);
	if (force && all)
		return usage_error("--restrict-all and --force exclude each other:",
				   "a tree that runs nothing new has no exec to force");
	if (force && !restrict_exec)
		return usage_error("--force needs --restrict:",
				   "forced execs exist only in a restricted tree");
	if (threads && !restrict_exec)
		return usage_error("--all-threads needs --restrict:",
				   "it says which threads PR_RESTRICT_ME restricts");
	if (restrict_exec &&
	    (threads ? nosec_restrict_exec_all_threads(&blocker) :
		       nosec_restrict_exec()) < 0) {
		if (errno == ENOSYS)
			module_not_loaded();
		else if (errno == EBUSY && blocker)
			fprintf(stderr, "%s: prctl(PR_RESTRICT_ME): task %d shares this process's memory, or this process traces it: a restriction is all or nothing\n",
				prog, (int)blocker);
		else if (errno == EBUSY)
			fprintf(stderr, "%s: prctl(PR_RESTRICT_ME): another thread or process shares this process's memory, or this process traces one: a restriction is all or nothing (--all-threads restricts every thread)\n",
				prog);
		else
			fprintf(stderr, "%s: prctl(PR_RESTRICT_ME): %s\n",
				prog, strerror(errno));
		return EXIT_RUN_FAILED;
	}
	if (force && nosec_set_force(1) < 0) {
		fprintf(stderr, "%s: prctl(PR_SET_FORCE_EXECVE_NOSECURITY): %s%s\n",
			prog, strerror(errno), errno == EACCES ?
			" (not a member of the module's exec_group; see nosec_exec(4))" : "");
		return EXIT_RUN_FAILED;
	}
	/*
	 * Fail closed: the plain execve() of the forced route only when the
	 * module says this task is both restricted and forced.
	 */
	errno = 0;
	if (force && (nosec_exec_restricted() != 1 || nosec_get_force() != 1)) {
		fprintf(stderr, "%s: the module does not report this task restricted and forced%s%s\n",
			prog, errno ? ": " : "", errno ? strerror(errno) : "");
		return EXIT_RUN_FAILED;
	}

	err = run_program(argv[optind], &argv[optind],
			  force ? RUN_FORCED : all ? RUN_LAST : RUN_FLAG);
	if (!force && err == ENOSYS) {
		module_not_loaded();
		return EXIT_RUN_FAILED;
	}
	if (all && err == ENODEV) {
		no_device_here();
		return EXIT_RUN_FAILED;
	}
	if (all && (err == EACCES || err == EPERM) && device_refused())
		return EXIT_RUN_FAILED;
	if (!force && err == EACCES && exec_group_refused())
		return EXIT_RUN_FAILED;
	fprintf(stderr, "%s: cannot run %s: %s\n", prog, argv[optind],
		strerror(err));
	return exit_code_for(err);
}
