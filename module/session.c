// SPDX-License-Identifier: GPL-2.0
/*
 * nosec_exec - a restricted task's session keyring is its own.
 *
 * A child shares its parent's session keyring and possesses it: a key the
 * child adds there is found, and read, by the parent's next programs,
 * set-ID ones included.  So a restriction gives the task a new, empty
 * session keyring, as keyctl(KEYCTL_JOIN_SESSION_KEYRING, NULL) would:
 * the caller of PR_RESTRICT_ME before the call returns; with
 * PR_RESTRICT_TSYNC every other thread before it next returns to user
 * space (a task_work), and a task such a thread was making meanwhile
 * before it first runs (nosec_session_fork()); a NOSEC_EXEC_RESTRICT_ALL
 * exec before its new program runs.  What the tree makes afterwards
 * inherits the tree's keyring.  And a restricted task gains possession
 * of no key it does not possess: it may not link one into its keyrings,
 * nor search (or join by name) a keyring it does not possess, which would
 * give it the parent's session keyring again by its serial or its name.
 * The uid's own keyrings (@u, @us) stay shared, as its files do
 * (docs/security.md, "Where the promise ends").
 */
#include <linux/cred.h>
#include <linux/key.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/task_work.h>

#include "task.h"
#include "hooks.h"
#include "session.h"
#include "stats.h"

#ifdef CONFIG_KEYS

/**
 * struct nosec_session_work - a new session keyring for another task
 * @cb: the task_work; the task runs it before it next returns to user space
 * @keyring: the keyring, a reference of its own
 * @next: the next spare, while the work is not queued
 */
struct nosec_session_work {
	struct callback_head cb;
	struct key *keyring;
	struct nosec_session_work *next;
};

/* A new, empty session keyring for current's user, as the kernel makes one. */
static struct key *nosec_session_keyring_alloc(void)
{
	const struct cred *cred = current_cred();

	return keyring_alloc("_ses", cred->uid, cred->gid, cred,
			     KEY_POS_ALL | KEY_USR_VIEW | KEY_USR_READ,
			     KEY_ALLOC_QUOTA_OVERRUN, NULL, NULL);
}

/* current's creds, with @keyring as their session keyring; NULL: no memory. */
static struct cred *nosec_session_creds(struct key *keyring)
{
	struct cred *new = prepare_creds();

	if (!new)
		return NULL;
	key_put(new->session_keyring);
	new->session_keyring = key_get(keyring);
	return new;
}

/* Install @keyring as current's session keyring; 0 or -ENOMEM. */
static int nosec_session_install(struct key *keyring)
{
	struct cred *new = nosec_session_creds(keyring);

	if (!new)
		return -ENOMEM;
	return commit_creds(new);
}

/*
 * The task_work: the keyring its restriction gave it, before the task
 * runs user code again; without memory for its creds, it never does.
 */
static void nosec_session_work_run(struct callback_head *cb)
{
	struct nosec_session_work *w = container_of(cb, struct nosec_session_work, cb);
	struct nosec_task *t = nosec_task_current();

	if (t)
		key_put(xchg(&t->new_session, NULL));
	if (nosec_session_install(w->keyring)) {
		atomic_long_inc(&nosec_stats.fork_enomem);
		force_sig(SIGKILL);
	}
	key_put(w->keyring);
	kfree(w);
}

static struct nosec_session_work *nosec_session_work_alloc(struct key *keyring,
							   gfp_t gfp)
{
	struct nosec_session_work *w = kzalloc(sizeof(*w), gfp);

	if (!w)
		return NULL;
	init_task_work(&w->cb, nosec_session_work_run);
	w->keyring = key_get(keyring);
	return w;
}

static void nosec_session_work_free(struct nosec_session_work *w)
{
	key_put(w->keyring);
	kfree(w);
}

/**
 * nosec_session_prepare() - what a restriction's new session keyring needs
 * @s: filled in
 * @works: how many other tasks will get it (nosec_session_give())
 *
 * Context: process context (allocates, sleeps).  Nothing is installed.
 *
 * Return: 0, or -ENOMEM (or the keyring's error); then @s holds nothing.
 */
int nosec_session_prepare(struct nosec_session *s, unsigned int works)
{
	memset(s, 0, sizeof(*s));
	s->keyring = nosec_session_keyring_alloc();
	if (IS_ERR(s->keyring)) {
		int ret = PTR_ERR(s->keyring);

		s->keyring = NULL;
		return ret;
	}
	s->cred = nosec_session_creds(s->keyring);
	if (!s->cred)
		goto out_abort;
	return nosec_session_add_works(s, works);

out_abort:
	nosec_session_abort(s);
	return -ENOMEM;
}

/**
 * nosec_session_add_works() - room for more tasks to get the keyring
 * @s: prepared (nosec_session_prepare())
 * @works: how many more
 *
 * Context: process context.
 *
 * Return: 0, or -ENOMEM, after which @s holds nothing.
 */
int nosec_session_add_works(struct nosec_session *s, unsigned int works)
{
	while (works--) {
		struct nosec_session_work *w =
			nosec_session_work_alloc(s->keyring, GFP_KERNEL);

		if (!w) {
			nosec_session_abort(s);
			return -ENOMEM;
		}
		w->next = s->spares;
		s->spares = w;
	}
	return 0;
}

/**
 * nosec_session_give() - @task gets the keyring before it next runs user code
 * @s: prepared, with a spare left
 * @task: another thread of current's group, being restricted; its entry
 *	@t
 * @t: @task's entry
 *
 * Context: under the task table's lock (restrict.c); neither sleeps nor
 * fails.  The pending keyring is recorded in the entry first, for a task
 * that @task is making meanwhile (nosec_session_fork()).
 */
void nosec_session_give(struct nosec_session *s, struct task_struct *task,
			struct nosec_task *t)
{
	struct nosec_session_work *w = s->spares;

	s->spares = w->next;
	key_put(xchg(&t->new_session, key_get(s->keyring)));
	/* A task that exits runs its works on the way out: no failure. */
	if (task_work_add(task, &w->cb, TWA_SIGNAL))
		nosec_session_work_free(w);
}

/**
 * nosec_session_commit() - current gets the keyring; the rest is freed
 * @s: prepared, or empty (then nothing happens)
 *
 * Context: process context.  Cannot fail.
 */
void nosec_session_commit(struct nosec_session *s)
{
	if (s->cred)
		commit_creds(s->cred);
	s->cred = NULL;
	nosec_session_abort(s);
}

/**
 * nosec_session_abort() - free what @s holds and nothing was given
 * @s: prepared, or emptied
 */
void nosec_session_abort(struct nosec_session *s)
{
	while (s->spares) {
		struct nosec_session_work *w = s->spares;

		s->spares = w->next;
		nosec_session_work_free(w);
	}
	if (s->cred)
		abort_creds(s->cred);
	s->cred = NULL;
	key_put(s->keyring);
	s->keyring = NULL;
}

/**
 * nosec_session_fork() - a child made by a thread whose keyring is pending
 * @child: the new task, restricted, not yet run
 *
 * Context: cgroup_post_fork() (task_life.c), atomic.  A thread that
 * PR_RESTRICT_TSYNC restricted while it was making @child copied its old
 * creds into @child: @child gets the new keyring before it first runs,
 * or, without memory for that, never runs.
 */
void nosec_session_fork(struct task_struct *child)
{
	struct nosec_task *t = nosec_task_current();
	struct nosec_session_work *w;
	struct key *keyring;

	/* Pairs with nosec_session_give()'s order: keyring, then flags. */
	smp_rmb();
	keyring = t ? READ_ONCE(t->new_session) : NULL;
	if (!keyring)
		return;
	w = nosec_session_work_alloc(keyring, GFP_ATOMIC);
	if (!w || task_work_add(child, &w->cb, TWA_RESUME)) {
		if (w)
			nosec_session_work_free(w);
		atomic_long_inc(&nosec_stats.fork_enomem);
		send_sig(SIGKILL, child, 1);
	}
}

/**
 * nosec_session_renew() - current gets a new session keyring now
 *
 * Context: process context, after an exec that restricted current
 * (NOSEC_EXEC_RESTRICT_ALL) and before its new program runs.
 *
 * Return: 0, or the error; the caller must not let the program run then.
 */
int nosec_session_renew(void)
{
	struct key *keyring = nosec_session_keyring_alloc();
	int ret;

	if (IS_ERR(keyring))
		return PTR_ERR(keyring);
	ret = nosec_session_install(keyring);
	key_put(keyring);
	return ret;
}

static int nosec_key_permission_denied(key_ref_t key_ref,
				       const struct cred *cred,
				       enum key_need_perm need_perm)
{
	atomic_long_inc(&nosec_stats.scope_denied);
	return -EACCES;
}

/**
 * nosec_key_permission_pre() - no possession gained by a restricted task
 * @regs: registers at the entry of security_key_permission() (the key
 *	with its possession bit, the creds, what is asked)
 *
 * Linking a key, or searching a keyring (KEYCTL_JOIN_SESSION_KEYRING by
 * name searches for one), that the task does not possess is redirected to
 * fail with EACCES; so is any use of a key by a thread whose new session
 * keyring still waits in its task_work (PR_RESTRICT_TSYNC restricted it
 * in the middle of a call: an add_key() whose payload was being copied
 * would put the key in the old one).
 */
static void nosec_key_permission_pre(struct ftrace_regs *regs)
{
	key_ref_t key_ref = (key_ref_t)nosec_hook_arg(regs, 0);
	enum key_need_perm need = (enum key_need_perm)nosec_hook_arg(regs, 2);
	struct nosec_task *t = nosec_task_current();
	bool gains = (need == KEY_NEED_LINK || need == KEY_NEED_SEARCH) &&
		     !is_key_possessed(key_ref);

	if (!t || !(atomic_read(&t->flags) & NOSEC_TASK_RESTRICTED))
		return;
	if (gains || READ_ONCE(t->new_session))
		nosec_hook_redirect(regs, nosec_key_permission_denied);
}

#endif /* CONFIG_KEYS */

/* The session keyring's hook. */
const struct nosec_hook_spec nosec_session_hooks[] = {
#ifdef CONFIG_KEYS
	NOSEC_HOOK_IF_BUILT(NOSEC_HOOK_KEY_PERMISSION, IS_ENABLED(CONFIG_SECURITY),
			    "security_key_permission",
			    nosec_key_permission_pre, "redirect",
			    "session: no key linked or searched that is not possessed"),
#endif
	{}
};
