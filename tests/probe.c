// SPDX-License-Identifier: GPL-2.0
/*
 * probe - print the security state a program starts with, one key=value a
 * line, for the tests to compare a plain execve() with a nosecurity one.
 *
 * Usage: probe [FD...]   (each FD: report whether it is open)
 *        probe --euid N   (print nothing; exit 0 if the euid is N, else 3)
 *        probe --tracee PID ADDR   (as the tracer of the stopped PID: the
 *		errno of PTRACE_PEEKDATA and PTRACE_POKEDATA at ADDR, then of
 *		PTRACE_DETACH)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/keyctl.h>
#ifndef NOSEC_KSELFTEST
#include <linux/nosec_exec.h>
#endif

/* key=the first line of @path (empty when it cannot be read). */
static void first_line(const char *key, const char *path)
{
	char buf[512];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (n < 0)
		n = 0;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	if (fd >= 0)
		close(fd);
	printf("%s=%s\n", key, buf);
}

static void status_line(const char *key, const char *name)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(name);

		if (!strncmp(line, name, n) && line[n] == ':') {
			char *v = line + n + 1;

			v += strspn(v, " \t");
			v[strcspn(v, "\n")] = 0;
			/* tabs between the four ids become commas */
			for (char *p = v; *p; p++)
				if (*p == '\t')
					*p = ',';
			printf("%s=%s\n", key, v);
		}
	}
	fclose(f);
}

static void keyring(const char *key, int which)
{
	long id = syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, which, 0);

	printf("%s=%ld\n", key, id < 0 ? -errno : id);
}

/* What this program may still do to a tracee it was given by its caller. */
static int use_tracee(pid_t pid, unsigned long addr)
{
	long word;

	errno = 0;
	word = ptrace(PTRACE_PEEKDATA, pid, addr, 0);
	printf("peek=%d\n", errno);
	printf("poke=%d\n", ptrace(PTRACE_POKEDATA, pid, addr, word) ? errno : 0);
	printf("detach=%d\n", ptrace(PTRACE_DETACH, pid, 0, 0) ? errno : 0);
	printf("end=1\n");
	return 0;
}

int main(int argc, char *argv[])
{
	int mask;
	char buf[256];
	struct itimerval it;
	struct rlimit rl;
	ssize_t n;
	int fd, sig = -1;

	if (argc == 3 && !strcmp(argv[1], "--euid"))
		return geteuid() == (uid_t)atoi(argv[2]) ? 0 : 3;
	if (argc == 4 && !strcmp(argv[1], "--tracee"))
		return use_tracee(atoi(argv[2]), strtoul(argv[3], NULL, 0));
	printf("pid=%d\n", getpid());
	status_line("uids", "Uid");
	status_line("gids", "Gid");
	status_line("capinh", "CapInh");
	status_line("capprm", "CapPrm");
	status_line("capeff", "CapEff");
	status_line("capbnd", "CapBnd");
	status_line("capamb", "CapAmb");
	printf("securebits=%d\n", prctl(PR_GET_SECUREBITS));
	printf("at_secure=%lu\n", getauxval(AT_SECURE));
	printf("dumpable=%d\n", prctl(PR_GET_DUMPABLE));
	prctl(PR_GET_PDEATHSIG, &sig);
	printf("pdeathsig=%d\n", sig);
	printf("personality=%#x\n", personality(0xffffffff));
	getrlimit(RLIMIT_STACK, &rl);
	printf("stack=%llu\n", (unsigned long long)rl.rlim_cur);
	getrlimit(RLIMIT_CORE, &rl);
	printf("core=%llu\n", (unsigned long long)rl.rlim_cur);
	getitimer(ITIMER_REAL, &it);
	printf("itimer_real=%ld\n", (long)it.it_value.tv_sec);
	status_line("sigpnd", "SigPnd");
	status_line("shdpnd", "ShdPnd");
	status_line("sigblk", "SigBlk");
	first_line("label", "/proc/self/attr/current");
	/* An LSM's per-exec state (SELinux: setexeccon(), setfscreatecon()...) */
	first_line("exec_attr", "/proc/self/attr/exec");
	first_line("fscreate", "/proc/self/attr/fscreate");
	first_line("keycreate", "/proc/self/attr/keycreate");
	first_line("sockcreate", "/proc/self/attr/sockcreate");
	first_line("tomoyo_domain", "/sys/kernel/security/tomoyo/self_domain");
	keyring("thread_keyring", KEY_SPEC_THREAD_KEYRING);
	keyring("process_keyring", KEY_SPEC_PROCESS_KEYRING);
	mask = prctl(PR_GET_RESTRICT, 0, 0, 0, 0);
	if (mask >= 0)
		printf("restrict=%d\n", mask);
	else
		printf("restrict=-%d\n", errno);
	printf("force=%d\n", prctl(PR_GET_FORCE_EXECVE_NOSECURITY, 0, 0, 0, 0));
	/* May it signal its parent (a Landlock signal scope may say no)? */
	printf("kill_parent=%d\n", kill(getppid(), 0) ? errno : 0);
	n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	buf[n < 0 ? 0 : n] = 0;
	printf("exe=%s\n", buf);
#ifndef NOSEC_KSELFTEST
	/* Which fds point to the nosec device: none may leak into a program. */
#endif
	/* What every fd above stderr points to (fdpathN). */
	for (fd = 0; fd < 64; fd++) {
		char link[64];

		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, buf, sizeof(buf) - 1);
		if (n > 0) {
			buf[n] = 0;
#ifndef NOSEC_KSELFTEST
			if (strstr(buf, "nosec_exec"))
				printf("device_fd=%d\n", fd);
#endif
			if (fd > 2)
				printf("fdpath%d=%s\n", fd, buf);
		}
	}
	for (int i = 1; i < argc; i++)
		printf("fd%s=%d\n", argv[i],
		       fcntl(atoi(argv[i]), F_GETFD) >= 0);
	printf("end=1\n");
	return 0;
}
