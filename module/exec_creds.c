// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - the credentials of a nosecurity exec, one rule per call
 * (SPEC §1.1, docs/design.md "Credentials per call"):
 *
 * - the explicit call (AT_EXECVE_NO_TRANSITION, the ioctl) keeps the
 *   caller's ids, capabilities, securebits and keyrings bit for bit: its
 *   caller asked, for itself, as in 2010;
 * - a forced exec (force mode turning a plain execve() into one) gets what
 *   a plain exec of the same file would give under no_new_privs, as if the
 *   file had no set-ID bits and no file capabilities: commoncap computes it
 *   against a stand-in file without either, every gain clipped to what the
 *   caller holds.
 *
 * The hooks that call these are in exec_nosec.c; the last gate there asks
 * nosec_creds_as_checked() before the creds commit.
 */
#include <linux/binfmts.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/key.h>
#include <linux/security.h>
#include <linux/shmem_fs.h>

#include "compat.h"
#include "task.h"
#include "exec.h"
#include "hooks.h"

/*
 * The file commoncap computes a forced exec's creds against: an empty
 * shmem file on the kernel-internal mount, so that it has neither set-ID
 * bits nor file capabilities (get_file_caps() does not even read a file
 * on a mount outside the task's namespace).  Made at load, read-only
 * after.  A shmem file, not an anonymous inode with operations of the
 * module's own: its last fput() runs when rmmod returns to userspace,
 * after the module's memory is gone, and must find nothing of it.
 */
static struct file *nosec_plain_file;

/**
 * nosec_forced_creds_start() - make the file forced execs are judged as
 *
 * Return: 0, or a negative errno (-ENOMEM).
 */
int nosec_forced_creds_start(void)
{
	struct file *file;

	file = shmem_file_setup("nosec_exec_plain_file", 0,
				NOSEC_SHMEM_NO_FLAGS);
	if (IS_ERR(file))
		return PTR_ERR(file);
	nosec_plain_file = file;
	return 0;
}

/**
 * nosec_forced_creds_stop() - drop the file nosec_forced_creds_start() made
 *
 * At unload, when no exec can be inside the hooks any more, or when a load
 * fails after nosec_forced_creds_start().
 */
void nosec_forced_creds_stop(void)
{
	fput(nosec_plain_file);
	nosec_plain_file = NULL;
}

/**
 * nosec_creds_compute_forced() - a forced exec's creds, by commoncap
 * @bprm: the exec, at commoncap's bprm_creds_from_file hook
 *
 * What a plain exec of a file without set-ID bits or file capabilities
 * gives under no_new_privs: the set-ID ids bprm_fill_uid() put in
 * @bprm's creds go back to the caller's (as under no_new_privs it never
 * puts them), with the personality bits it would clear; then commoncap
 * runs against the stand-in file with LSM_UNSAFE_NO_NEW_PRIVS, for this
 * one call, so that every gain is clipped to what the caller holds.  It
 * also clears KEEP_CAPS, sets the saved and filesystem ids to the
 * effective ones, computes AT_SECURE; prepare_exec_creds() has already
 * dropped the thread and process keyrings.
 *
 * Return: commoncap's answer; on success the exec is marked
 * %NOSEC_TASK_CAPS_COMPUTED for the last gate.
 */
int nosec_creds_compute_forced(struct linux_binprm *bprm)
{
	const struct cred *old = current_cred();
	unsigned int unsafe = bprm->unsafe;
	int ret;

	bprm->cred->euid = old->euid;
	bprm->cred->egid = old->egid;
	bprm->per_clear = 0;
	bprm->unsafe |= LSM_UNSAFE_NO_NEW_PRIVS;
	ret = (int)nosec_hook_call(NOSEC_HOOK_CAP_CREDS_FROM_FILE,
				   (unsigned long)bprm,
				   (unsigned long)nosec_plain_file);
	bprm->unsafe = unsafe;
	if (ret)
		return ret;
	return nosec_task_set_flags(NOSEC_TASK_CAPS_COMPUTED);
}

/*
 * AT_SECURE for a program that runs with @cred, the caller's: at least
 * what a plain exec of a plain file (no set-ID bit, no file capabilities)
 * gives.  Set when the effective ids differ from the real ones (the
 * caller is itself set-ID, commoncap's rule); when the saved or
 * filesystem ids do (a plain exec would reset them to the effective ids,
 * this one keeps them, so the program could switch back); or when a task
 * whose real uid is not root holds permitted capabilities beyond its
 * ambient set (a plain exec would drop them, this one keeps them).
 */
static bool nosec_plain_secureexec(const struct cred *cred)
{
	kuid_t root_uid = make_kuid(cred->user_ns, 0);

	if (!uid_eq(cred->euid, cred->uid) || !uid_eq(cred->suid, cred->uid) ||
	    !uid_eq(cred->fsuid, cred->uid) || !gid_eq(cred->egid, cred->gid) ||
	    !gid_eq(cred->sgid, cred->gid) || !gid_eq(cred->fsgid, cred->gid))
		return true;
	return !uid_eq(cred->uid, root_uid) &&
	       !cap_issubset(cred->cap_permitted, cred->cap_ambient);
}

/**
 * nosec_creds_keep_caller() - an explicit call's creds: the caller's
 * @bprm: the exec, once every LSM computed its creds for an exec in place
 * @t: current's entry
 *
 * Into @bprm's creds, put back every id, capability set, the securebits
 * (SECURE_KEEP_CAPS included), the thread and process keyrings of the
 * caller; what the LSMs keep in the creds' security blob stays as they
 * computed it.  AT_SECURE as an LSM asked, or as nosec_plain_secureexec()
 * says; no personality bit cleared; the caller's dumpability noted for the
 * last gate.
 */
void nosec_creds_keep_caller(struct linux_binprm *bprm, struct nosec_task *t)
{
	const struct cred *old = current_cred();
	struct cred *new = bprm->cred;

	new->uid = old->uid;
	new->euid = old->euid;
	new->suid = old->suid;
	new->fsuid = old->fsuid;
	new->gid = old->gid;
	new->egid = old->egid;
	new->sgid = old->sgid;
	new->fsgid = old->fsgid;
	new->securebits = old->securebits;
	new->cap_inheritable = old->cap_inheritable;
	new->cap_permitted = old->cap_permitted;
	new->cap_effective = old->cap_effective;
	new->cap_bset = old->cap_bset;
	new->cap_ambient = old->cap_ambient;
#ifdef CONFIG_KEYS
	key_put(new->thread_keyring);
	new->thread_keyring = key_get(old->thread_keyring);
	key_put(new->process_keyring);
	new->process_keyring = key_get(old->process_keyring);
#endif
	bprm->secureexec |= nosec_plain_secureexec(new);
	bprm->per_clear = 0;
	t->saved_dumpable = nosec_current_dumpable();
}

/*
 * Are @new's thread and process keyrings the caller's (@old's), or, where
 * @may_drop, none (a plain exec drops them)?  Never one the caller lacked.
 */
static bool nosec_keyrings_kept(const struct cred *new,
				const struct cred *old, bool may_drop)
{
#ifdef CONFIG_KEYS
	return (new->thread_keyring == old->thread_keyring ||
		(may_drop && !new->thread_keyring)) &&
	       (new->process_keyring == old->process_keyring ||
		(may_drop && !new->process_keyring));
#else
	return true;
#endif
}

/* The explicit call's rule: nothing differs from the caller's. */
static bool nosec_creds_unchanged(const struct cred *new,
				  const struct cred *old)
{
	return uid_eq(new->uid, old->uid) && uid_eq(new->euid, old->euid) &&
	       uid_eq(new->suid, old->suid) && uid_eq(new->fsuid, old->fsuid) &&
	       gid_eq(new->gid, old->gid) && gid_eq(new->egid, old->egid) &&
	       gid_eq(new->sgid, old->sgid) && gid_eq(new->fsgid, old->fsgid) &&
	       new->securebits == old->securebits &&
	       cap_issubset(new->cap_permitted, old->cap_permitted) &&
	       cap_issubset(new->cap_effective, old->cap_effective) &&
	       cap_issubset(new->cap_inheritable, old->cap_inheritable) &&
	       cap_issubset(new->cap_ambient, old->cap_ambient) &&
	       cap_issubset(new->cap_bset, old->cap_bset) &&
	       nosec_keyrings_kept(new, old, false);
}

/* Is @id one the caller already had as its real or effective uid? */
static bool nosec_uid_held(kuid_t id, const struct cred *old)
{
	return uid_eq(id, old->uid) || uid_eq(id, old->euid);
}

static bool nosec_gid_held(kgid_t id, const struct cred *old)
{
	return gid_eq(id, old->gid) || gid_eq(id, old->egid);
}

/*
 * The forced rule, checked whatever computed it: the real ids stay, the
 * effective ones are the caller's real or effective ones and the saved
 * and filesystem ids follow them, no securebit is set that was clear, no
 * capability is held that the caller did not permit, no keyring appears.
 * What a plain exec under no_new_privs gives always passes.
 */
static bool nosec_forced_creds_no_gain(const struct cred *new,
				       const struct cred *old)
{
	return uid_eq(new->uid, old->uid) && gid_eq(new->gid, old->gid) &&
	       nosec_uid_held(new->euid, old) &&
	       uid_eq(new->suid, new->euid) && uid_eq(new->fsuid, new->euid) &&
	       nosec_gid_held(new->egid, old) &&
	       gid_eq(new->sgid, new->egid) && gid_eq(new->fsgid, new->egid) &&
	       !(new->securebits & ~old->securebits) &&
	       cap_issubset(new->cap_permitted, old->cap_permitted) &&
	       cap_issubset(new->cap_effective, old->cap_permitted) &&
	       cap_issubset(new->cap_inheritable, old->cap_inheritable) &&
	       cap_issubset(new->cap_ambient, old->cap_ambient) &&
	       cap_issubset(new->cap_bset, old->cap_bset) &&
	       nosec_keyrings_kept(new, old, true);
}

/**
 * nosec_creds_as_checked() - are a nosecurity exec's creds its rule's?
 * @bprm: the exec, at the last gate
 * @flags: NOSEC_TASK_* bits of current, a nosecurity exec
 *
 * Return: true when the creds passed the checks of this exec's hooks
 * (%NOSEC_TASK_CREDS_CHECKED; a forced exec's computed by commoncap,
 * %NOSEC_TASK_CAPS_COMPUTED) and still follow its rule: the caller's
 * unchanged for the explicit call, no gain over the caller's for a
 * forced exec.
 */
bool nosec_creds_as_checked(const struct linux_binprm *bprm, unsigned int flags)
{
	if (!(flags & NOSEC_TASK_CREDS_CHECKED))
		return false;
	if (nosec_exec_forced(flags))
		return (flags & NOSEC_TASK_CAPS_COMPUTED) &&
		       nosec_forced_creds_no_gain(bprm->cred, current_cred());
	return nosec_creds_unchanged(bprm->cred, current_cred());
}

/* How much a dumpability value keeps out: OWNER least, OFF most. */
static int nosec_dumpable_strictness(int dumpable)
{
	if (dumpable == NOSEC_DUMPABLE_OWNER)
		return 0;
	return dumpable == NOSEC_DUMPABLE_ROOT ? 1 : 2;
}

/**
 * nosec_creds_commit_dumpable() - an explicit call's dumpability
 * @t: current's entry, at the last gate of an explicit call
 *
 * The caller's dumpability, unless begin_new_exec() just chose a stricter
 * one (a caller whose own ids are split): never more dumpable than a
 * plain exec.  A forced exec keeps what the plain rules chose.
 */
void nosec_creds_commit_dumpable(const struct nosec_task *t)
{
	int now = nosec_current_dumpable();

	if (nosec_dumpable_strictness(t->saved_dumpable) >
	    nosec_dumpable_strictness(now))
		nosec_current_set_dumpable(t->saved_dumpable);
}
