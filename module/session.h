/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nosec_exec - a restricted task's own session keyring (session.c)
 */
#ifndef _NOSEC_EXEC_SESSION_H
#define _NOSEC_EXEC_SESSION_H

#include <linux/types.h>

struct cred;
struct key;
struct nosec_task;
struct nosec_session_work;
struct task_struct;

/**
 * struct nosec_session - a restriction's new session keyring, prepared
 * @keyring: the keyring
 * @cred: current's creds with it, until committed
 * @spares: one task_work for each other task that will get it
 */
struct nosec_session {
	struct key *keyring;
	struct cred *cred;
	struct nosec_session_work *spares;
};

#ifdef CONFIG_KEYS
int nosec_session_prepare(struct nosec_session *s, unsigned int works);
int nosec_session_add_works(struct nosec_session *s, unsigned int works);
void nosec_session_give(struct nosec_session *s, struct task_struct *task,
			struct nosec_task *t);
void nosec_session_commit(struct nosec_session *s);
void nosec_session_abort(struct nosec_session *s);
void nosec_session_fork(struct task_struct *child);
int nosec_session_renew(void);
#else
/* No keyrings: nothing to share, nothing to renew. */
static inline int nosec_session_prepare(struct nosec_session *s,
					unsigned int works)
{
	return 0;
}

static inline int nosec_session_add_works(struct nosec_session *s,
					  unsigned int works)
{
	return 0;
}

static inline void nosec_session_give(struct nosec_session *s,
				      struct task_struct *task,
				      struct nosec_task *t)
{
}

static inline void nosec_session_commit(struct nosec_session *s)
{
}

static inline void nosec_session_abort(struct nosec_session *s)
{
}

static inline void nosec_session_fork(struct task_struct *child)
{
}

static inline int nosec_session_renew(void)
{
	return 0;
}
#endif

#endif /* _NOSEC_EXEC_SESSION_H */
