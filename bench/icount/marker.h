/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The markers the icount plugin reads (bench/icount/icount.c): an
 * instruction that does nothing on any x86-64 CPU, `nopl 0x4e53KKII(%rax)`,
 * with what it marks (KK) and an id (II) in its displacement.  Both are
 * part of the instruction, so they are constants: KIND and ID are two hex
 * digits each, as strings ("42", "0a").
 */
#ifndef NOSEC_BENCH_MARKER_H
#define NOSEC_BENCH_MARKER_H

#define NOSEC_MARK(kind, id) \
	__asm__ __volatile__("nopl 0x4e53" kind id "(%%rax)" ::: "memory")

#define NOSEC_MARK_BEGIN(id)		NOSEC_MARK("42", id)	/* 'B' */
#define NOSEC_MARK_END(id)		NOSEC_MARK("45", id)	/* 'E' */
#define NOSEC_MARK_PROFILE_ON(id)	NOSEC_MARK("50", id)	/* 'P' */
#define NOSEC_MARK_PROFILE_OFF(id)	NOSEC_MARK("51", id)	/* 'Q' */

#endif /* NOSEC_BENCH_MARKER_H */
