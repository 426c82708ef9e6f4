/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The userspace API of the nosecurity exec and the exec ban (libnosec).
 *
 * The exec functions run a program like execve(2)/execveat(2)/fexecve(3),
 * with no security transition (no set-user/group-ID, no file capabilities,
 * no LSM label change, same dumpability, AT_SECURE as for a plain exec of
 * a plain file) and with read permission required on the program and its
 * interpreters.  They return only on failure: -1 with errno set.  ENOSYS
 * means the kernel knows neither AT_EXECVE_NO_TRANSITION nor the prctl
 * options below.
 */
#ifndef NOSEC_H
#define NOSEC_H

#ifndef NOSEC_KSELFTEST
/* In the source tree the ABI header sits beside this one, under uapi/. */
#if defined(__has_include) && __has_include("uapi/linux/nosec_exec.h")
#include "uapi/linux/nosec_exec.h"
#else
#include <linux/nosec_exec.h>
#endif
#else
/*
 * The kernel's uapi headers ($(KHDR_INCLUDES)): the prctl options in
 * <linux/prctl.h>, AT_EXECVE_NO_TRANSITION in <linux/fcntl.h>, taken
 * without its asm-generic part, whose definitions <fcntl.h> has.
 */
#include <linux/prctl.h>
#define _ASM_GENERIC_FCNTL_H
#include <linux/fcntl.h>
#endif

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

int execve_nosecurity(const char *pathname, char *const argv[],
		      char *const envp[]);
int execveat_nosecurity(int dirfd, const char *pathname, char *const argv[],
			char *const envp[], int flags);
int fexecve_nosecurity(int fd, char *const argv[], char *const envp[]);

/*
 * prctl(PR_RESTRICT_ME, PR_RESTRICT_EXEC): 0, or -1 with errno (EBUSY
 * while another thread, or a process sharing the memory, is not
 * restricted already, or while the caller traces a task).
 */
int nosec_restrict_exec(void);
/*
 * The same for every thread of the process at once (PR_RESTRICT_TSYNC),
 * or none: 0, or -1 with errno; on EBUSY, *blocker (if not NULL) is the
 * thread ID of a task in the way (a process sharing the memory, or a
 * tracee), else 0.
 */
int nosec_restrict_exec_all_threads(pid_t *blocker);
/* PR_GET_RESTRICT: 1 restricted, 0 not, -1 with errno. */
int nosec_exec_restricted(void);
/* PR_SET_FORCE_EXECVE_NOSECURITY: 0, or -1 with errno (EPERM unrestricted). */
int nosec_set_force(int on);
/* PR_GET_FORCE_EXECVE_NOSECURITY: 1, 0, or -1 with errno. */
int nosec_get_force(void);

#ifdef __cplusplus
}
#endif

#endif /* NOSEC_H */
