/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * nosec_exec - exec without a security transition, and an irrevocable
 * exec ban, for Linux 6.1, 6.12 and 7.3 as a loadable module.
 *
 * This is the ABI between the nosec_exec module and userspace.
 *
 * prctl option numbers: the 2010 series used 35-38, which upstream has
 * since given to PR_SET_MM, PR_SET/GET_CHILD_SUBREAPER and
 * PR_SET_NO_NEW_PRIVS.  Upstream uses 1-81 plus the magic values
 * 0x59616d61 ("Yama"), 0x53564d41 ("SVMA") and 0x41555856 ("AUXV").  The
 * options below are the ASCII magic "nos" followed by 1..4
 * (0x6e6f7301-0x6e6f7304), which collide with none of them.
 *
 * ioctl magic: 0xE7, which Documentation/userspace-api/ioctl/ioctl-number.rst
 * (6.1) lists for no driver.
 */
#ifndef _UAPI_LINUX_NOSEC_EXEC_H
#define _UAPI_LINUX_NOSEC_EXEC_H

#include <linux/types.h>
#include <linux/ioctl.h>

/*
 * prctl(PR_RESTRICT_ME, mask, how, int *blocker, 0): irrevocably add the
 * restrictions in @mask to the calling task and every task it creates
 * afterwards.  All or nothing: while another task shares the caller's
 * memory (another thread, io_uring's threads included, or a process made
 * with CLONE_VM) without carrying the restrictions already, or the caller
 * traces a task that does not, the call fails with EBUSY and changes
 * nothing; if @blocker is not NULL, the thread ID of one such task is
 * stored there.  @how: 0, or PR_RESTRICT_TSYNC.
 */
#define PR_RESTRICT_ME			0x6e6f7301
/* Restriction bit: execve() and execveat() fail with EPERM. */
# define PR_RESTRICT_EXEC		(1UL << 0)
/*
 * Restriction bit: the nosecurity exec fails with EPERM too, and force
 * mode cannot be turned on: the task runs no new program at all.  Only
 * with PR_RESTRICT_EXEC, in the same call or set before.
 */
# define PR_RESTRICT_EXEC_NOSECURITY	(1UL << 1)
/* Every restriction bit this ABI version knows. */
# define PR_RESTRICT_ALL		(PR_RESTRICT_EXEC | \
					 PR_RESTRICT_EXEC_NOSECURITY)
/*
 * @how: restrict every thread of the calling process at once, or none
 * (EBUSY when a thread traces a task outside the restriction, or a
 * process outside the thread group shares its memory).
 */
# define PR_RESTRICT_TSYNC		(1UL << 0)

/*
 * prctl(PR_GET_RESTRICT, 0, 0, 0, 0): returns the caller's restriction
 * mask (0 when unrestricted), as PR_GET_NO_NEW_PRIVS returns its bit;
 * EINVAL if an unused argument is not 0.
 */
#define PR_GET_RESTRICT			0x6e6f7302

/*
 * prctl(PR_SET_FORCE_EXECVE_NOSECURITY, on, 0, 0, 0): make every execve()
 * and execveat() of the task behave as if AT_EXECVE_NO_TRANSITION were
 * passed.  Requires PR_RESTRICT_EXEC; @on is 0 or 1.
 */
#define PR_SET_FORCE_EXECVE_NOSECURITY	0x6e6f7303
/*
 * prctl(PR_GET_FORCE_EXECVE_NOSECURITY, 0, 0, 0, 0): returns 0 or 1;
 * EINVAL if an unused argument is not 0.
 */
#define PR_GET_FORCE_EXECVE_NOSECURITY	0x6e6f7304

/*
 * The execveat() flag of the nosecurity exec: run the program in the
 * caller's security context, with no set-user/group-ID, no file
 * capabilities and no LSM transition, read access required.  The value of
 * our kernel series (upstream/), where it is the whole ABI; the module
 * accepts the same call.  A per-syscall AT_ value (include/uapi/linux/
 * fcntl.h): 0x200 is what faccessat(), unlinkat() and name_to_handle_at()
 * give their own flag.  A kernel that knows neither answers EINVAL.
 */
#ifndef AT_EXECVE_NO_TRANSITION
#define AT_EXECVE_NO_TRANSITION		0x200
#endif

/* Name of the misc device, under /dev. */
#define NOSEC_EXEC_DEVICE_NAME		"nosec_exec"

/* Flags of struct nosec_execveat_args, with the values execveat() uses. */
#define NOSEC_EXEC_SYMLINK_NOFOLLOW	0x100	/* AT_SYMLINK_NOFOLLOW */
#define NOSEC_EXEC_EMPTY_PATH		0x1000	/* AT_EMPTY_PATH */
/*
 * Not an execveat() flag: when the exec succeeds, the new program starts
 * with PR_RESTRICT_EXEC | PR_RESTRICT_EXEC_NOSECURITY, so that it and
 * everything it starts can run no other program.  Set as the exec passes
 * its point of no return: a failed exec leaves the caller unrestricted.
 * The execveat() the ioctl turns into carries it beside
 * AT_EXECVE_NO_TRANSITION; on any other call the bit fails with EINVAL.
 */
#define NOSEC_EXEC_RESTRICT_ALL		0x40000000
#define NOSEC_EXEC_FLAGS_ALL		(NOSEC_EXEC_SYMLINK_NOFOLLOW | \
					 NOSEC_EXEC_EMPTY_PATH | \
					 NOSEC_EXEC_RESTRICT_ALL)

/**
 * struct nosec_execveat_args - argument of %NOSEC_IOC_EXECVEAT
 * @pathname: user pointer to the program's NUL-terminated path; resolved
 *	relative to @dirfd like execveat(); "" with %NOSEC_EXEC_EMPTY_PATH
 *	runs the file @dirfd refers to.
 * @argv: user pointer to the NULL-terminated argument vector (may be 0).
 * @envp: user pointer to the NULL-terminated environment (may be 0).
 * @dirfd: directory file descriptor, or AT_FDCWD (-100) for the path form.
 * @flags: %NOSEC_EXEC_* flags; any other bit is rejected with EINVAL.
 *
 * Pointers are 64 bits wide for every caller, 32-bit ones included; the
 * structure has no implicit padding.
 */
struct nosec_execveat_args {
	__u64 pathname;
	__u64 argv;
	__u64 envp;
	__s32 dirfd;
	__u32 flags;
};

/*
 * Run a program like execveat(), with no security transition: no
 * set-user/group-ID, no file capabilities, no LSM label change, the same
 * dumpability, AT_SECURE only when the caller's own ids are split or it
 * holds capabilities as a non-root user; read permission is required on
 * the program and on every interpreter.  The ioctl turns itself into an
 * execveat() syscall (fifth argument or'ed with AT_EXECVE_NO_TRANSITION),
 * which seccomp, audit and ptrace see as such: the call a program makes
 * itself on the series, or on the module without the device.  On success the call does
 * not return: the new program starts.  On failure it returns -1 with errno
 * set and the task is left as it was.
 */
#define NOSEC_IOC_EXECVEAT	_IOW(0xE7, 0x01, struct nosec_execveat_args)

#endif /* _UAPI_LINUX_NOSEC_EXEC_H */
