// SPDX-License-Identifier: GPL-2.0
/*
 * Fixtures the cases need, made as root before the cases drop to the
 * unprivileged test uid.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/elf.h>

#include "fixtures.h"


/**
 * copy_file() - copy @from to @to, owned by root, with @mode
 *
 * Return: 0, or -1 (errno set).
 */
int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	ssize_t n;
	int in, out, ret = -1;

	in = open(from, O_RDONLY);
	if (in < 0)
		return -1;
	unlink(to);
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (out < 0)
		goto out_close_in;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			goto out_close_out;
	if (n == 0 && fchown(out, 0, 0) == 0 && fchmod(out, mode) == 0)
		ret = 0;
out_close_out:
	close(out);
out_close_in:
	close(in);
	return ret;
}

/**
 * write_file() - a new file @path holding @text, with @mode
 *
 * Return: 0, or -1 (errno set).
 */
int write_file(const char *path, const char *text, mode_t mode)
{
	int fd, ok;

	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	ok = ok && fchmod(fd, mode) == 0;
	close(fd);
	return ok ? 0 : -1;
}

/*
 * A chain of @n scripts named @name-1..@name-n ending in probe; script
 * @xonly (1-based, 0 for none) is execute-only.
 */
static int make_chain(const char *name, int n, int xonly)
{
	char path[128], text[160];

	for (int i = 1; i <= n; i++) {
		snprintf(path, sizeof(path), FIX "/%s-%d", name, i);
		if (i < n)
			snprintf(text, sizeof(text), "#!" FIX "/%s-%d\n", name, i + 1);
		else
			snprintf(text, sizeof(text), "#!" FIX_PROBE "\n");
		if (write_file(path, text, i == xonly ? 0711 : 0755))
			return -1;
	}
	return 0;
}

/* security.capability, VFS_CAP_REVISION_2: permitted CAP_NET_RAW, +e. */
static int set_file_caps(const char *path)
{
	struct vfs_cap_data cap = {
		.magic_etc = VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE,
	};

	cap.data[0].permitted = 1u << CAP_NET_RAW;
	return setxattr(path, "security.capability", &cap, XATTR_CAPS_SZ_2, 0);
}

#ifndef NOSEC_KSELFTEST
/**
 * load_apparmor_profile() - load (or replace) the test profiles
 *
 * They name fixture files by path (FIX), so they hold in every test's
 * mount namespace.  The AppArmor tests' setup calls it.
 *
 * Context: as root, after make_fixture_files().
 * Return: 0, or -1 (no apparmor_parser, no AppArmor, or it failed).
 */
int load_apparmor_profile(void)
{
	const char *prof = FIX "/nosectest.aa";
	int status;
	pid_t pid;

	if (access("/sbin/apparmor_parser", X_OK) ||
	    access("/sys/kernel/security/apparmor/.replace", W_OK))
		return -1;
	/*
	 * nosectest: a plain exec of probe-aa moves to it.  nosecdeny:
	 * allows everything but executing probe-aa-denied.  nosecxonly:
	 * may execute probe-aa-xonly in place (ix), but not read it
	 * (AppArmor checks files at open, DAC would allow).  nosecpx:
	 * Px with and without m, Cx, ix without m, change_onexec, Px to
	 * itself.
	 */
	if (write_file(prof, "profile nosectest " FIX_PROBE_AA
		       " flags=(complain) {\n}\n"
		       "profile nosecdeny {\n  file,\n  capability,\n"
		       "  signal,\n  unix,\n  deny " FIX_PROBE_AA_DENIED " x,\n"
		       "  " FIX_PROBE " ix,\n}\n"
		       "profile nosecxtarget flags=(complain) {\n}\n"
		       "profile nosecpx {\n  /** rwmlk,\n  capability,\n"
		       "  signal,\n  unix,\n  " FIX_PROBE " ix,\n"
		       "  " FIX_PROBE_AA_PXM " Px -> nosecxtarget,\n"
		       "  " FIX_PROBE_AA_PXNOM " Px -> nosecxtarget,\n"
		       "  deny " FIX_PROBE_AA_PXNOM " m,\n"
		       "  " FIX_PROBE_AA_CX " Cx -> sub,\n"
		       "  " FIX_PROBE_AA_IXNOM " ix,\n"
		       "  deny " FIX_PROBE_AA_IXNOM " m,\n"
		       "  " FIX_PROBE_AA_PXSELF " Px -> nosecpx,\n"
		       "  change_profile -> nosecxtarget,\n"
		       "  change_profile -> nosecpx,\n"
		       "  profile sub flags=(complain) {\n  }\n}\n"
		       "profile nosecxonly {\n  /** rwmlk,\n  capability,\n"
		       "  signal,\n  unix,\n  deny " FIX_PROBE_AA_XONLY " r,\n"
		       "  " FIX_PROBE_AA_XONLY " ix,\n}\n", 0644))
		return -1;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execl("/sbin/apparmor_parser", "apparmor_parser", "-r", prof,
		      (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* @to: a new name for the file @from (a hard link). */
static int link_file(const char *from, const char *to)
{
	unlink(to);
	return link(from, to);
}
#endif

/**
 * elf_interp() - the ELF interpreter (PT_INTERP) of the program @path
 * @path: a dynamically linked program of this architecture
 * @buf: where the interpreter's path goes
 * @size: its size
 *
 * dynprobe's is the C library's dynamic loader, whatever the architecture.
 *
 * Return: 0, or -1 (errno set; ENOEXEC when @path names none).
 */
static int elf_interp(const char *path, char *buf, size_t size)
{
#if __SIZEOF_POINTER__ == 8
	struct elf64_hdr eh;
	struct elf64_phdr ph;
#else
	struct elf32_hdr eh;
	struct elf32_phdr ph;
#endif
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1;

	if (fd < 0)
		return -1;
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_phentsize != sizeof(ph))
		goto out;
	for (int i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)) != (ssize_t)sizeof(ph))
			break;
		if (ph.p_type != PT_INTERP)
			continue;
		if (ph.p_filesz > 1 && ph.p_filesz <= size &&
		    pread(fd, buf, ph.p_filesz, ph.p_offset) == (ssize_t)ph.p_filesz &&
		    !buf[ph.p_filesz - 1])
			ret = 0;
		break;
	}
out:
	close(fd);
	if (ret)
		errno = ENOEXEC;
	return ret;
}

#define TRY(expr)							\
	do {								\
		if ((expr) < 0) {					\
			fprintf(stderr, "fixture: %s: %s\n", #expr,	\
				strerror(errno));			\
			return -1;					\
		}							\
	} while (0)

/**
 * make_fixture_files() - create every fixture file under FIX
 * @tests_dir: where probe and dynprobe binaries are
 *
 * Nothing outside FIX: a kselftest fixture calls it in a mount namespace
 * of its own, with a fresh tmpfs on FIX, for each test.
 *
 * Return: 0, or -1 with a message on stderr.
 */
int make_fixture_files(const char *tests_dir)
{
	char probe[256], dyn[256], dynx[256], ld_so[256];
#ifdef NOSEC_KSELFTEST
	char prog32[256];
#endif

	snprintf(probe, sizeof(probe), "%s/probe", tests_dir);
	snprintf(dyn, sizeof(dyn), "%s/dynprobe", tests_dir);
	snprintf(dynx, sizeof(dynx), "%s/dynprobe-xinterp", tests_dir);

	mkdir(FIX, 0755);
	TRY(chmod(FIX, 0755));
	TRY(copy_file(probe, FIX_PROBE, 0755));
	TRY(copy_file(probe, FIX_PROBE_SUID, 04755));
	TRY(copy_file(probe, FIX_PROBE_SGID, 02755));
	TRY(copy_file(probe, FIX_PROBE_CAPS, 0755));
	TRY(set_file_caps(FIX_PROBE_CAPS));
	TRY(copy_file(probe, FIX_PROBE_XONLY, 0711));
	TRY(copy_file(probe, FIX_INTERP_XONLY, 0711));
#ifndef NOSEC_KSELFTEST
	/*
	 * The probes that only a path-based LSM (AppArmor, TOMOYO) tells
	 * apart: links to FIX_PROBE, one copy for them all.  A copy of the
	 * static probe costs about as much as a short test under TCG.
	 */
	TRY(link_file(FIX_PROBE, FIX_PROBE_AA));
	TRY(link_file(FIX_PROBE, FIX_PROBE_TOMOYO));
	TRY(link_file(FIX_PROBE, FIX_PROBE_TOMOYO_NOREAD));
	TRY(link_file(FIX_PROBE, FIX_TOMOYO_TRIGGER));
	TRY(link_file(FIX_PROBE, FIX_TOMOYO_LOADER));
	TRY(link_file(FIX_PROBE, FIX_PROBE_AA_DENIED));
	TRY(link_file(FIX_PROBE, FIX_PROBE_AA_XONLY));
	TRY(link_file(FIX_PROBE, FIX_PROBE_AA_PXM));
	TRY(link_file(FIX_PROBE, FIX_PROBE_AA_PXNOM));
	TRY(link_file(FIX_PROBE, FIX_PROBE_AA_CX));
	TRY(link_file(FIX_PROBE, FIX_PROBE_AA_IXNOM));
	TRY(link_file(FIX_PROBE, FIX_PROBE_AA_PXSELF));
#endif
	TRY(copy_file(probe, FIX_PROBE_NOEXEC_BIT, 0644));
	TRY(write_file(FIX_SCRIPT, "#!" FIX_PROBE "\n", 0755));
	TRY(write_file(FIX_SCRIPT_XINTERP, "#!" FIX_INTERP_XONLY "\n", 0755));
	TRY(write_file(FIX_SCRIPT_XONLY, "#!" FIX_PROBE "\n", 0711));
	TRY(write_file(FIX_GARBAGE, "this is not a program\n", 0755));
	TRY(copy_file(dyn, FIX_DYNPROBE, 0755));
	TRY(copy_file(dynx, FIX_DYNPROBE_XINTERP, 0755));
	TRY(elf_interp(dyn, ld_so, sizeof(ld_so)));
	TRY(copy_file(ld_so, FIX_LD_XONLY, 0711));
	TRY(make_chain("chain5", 5, 0));
	TRY(make_chain("chain6", 6, 0));
	TRY(make_chain("chainx3", 3, 2));
	TRY(write_file(FIX_MISC_PLAIN, "binfmt_misc test file\n", 0755));
	TRY(write_file(FIX_MISC_CREDS, "binfmt_misc test file\n", 04755));
	TRY(write_file(FIX_MISC_XINTERP, "binfmt_misc test file\n", 0755));
	unlink(FIX_LOOP);
	TRY(symlink(FIX_LOOP, FIX_LOOP));
	mkdir(FIX_NOEXEC_DIR, 0755);
	TRY(mount("tmpfs", FIX_NOEXEC_DIR, "tmpfs", MS_NOEXEC, "mode=0755"));
	TRY(copy_file(probe, FIX_NOEXEC_DIR "/probe", 0755));
#ifdef NOSEC_KSELFTEST
	/* TEST_UID runs it: from here, whoever may reach the tests' directory. */
	snprintf(prog32, sizeof(prog32), "%s/prog32", tests_dir);
	if (access(prog32, F_OK) == 0)
		TRY(copy_file(prog32, FIX_PROG32, 0755));
#endif
	return 0;
}
