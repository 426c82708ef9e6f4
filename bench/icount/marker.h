/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The markers the icount plugin reads (bench/icount/icount.c): an
 * instruction that does nothing and that no compiler emits, with what it
 * marks (KK) and an id (II) in its immediate:
 *
 *   x86-64  `nopl 0x4e53KKII(%rax)`: a multi-byte NOP whose 32-bit
 *           displacement's top half is "NS"
 *   arm64   `movk xzr, #0xKKII, lsl #48` (0xf2e0001f | 0xKKII << 5): a
 *           move-keep into the zero register, whose write is discarded;
 *           compilers never name xzr as a MOVK's destination, so the
 *           opcode, the shift and the register are the magic
 *
 * Both are part of the instruction, so they are constants: KIND and ID
 * are two hex digits each, as strings ("42", "0a").
 */
#ifndef NOSEC_BENCH_MARKER_H
#define NOSEC_BENCH_MARKER_H

#if defined(__x86_64__)
#define NOSEC_MARK(kind, id) \
	__asm__ __volatile__("nopl 0x4e53" kind id "(%%rax)" ::: "memory")
#elif defined(__aarch64__)
#define NOSEC_MARK(kind, id) \
	__asm__ __volatile__("movk xzr, #0x" kind id ", lsl #48" ::: "memory")
#else
#error "bench markers: x86-64 and arm64 only"
#endif

#define NOSEC_MARK_BEGIN(id)		NOSEC_MARK("42", id)	/* 'B' */
#define NOSEC_MARK_END(id)		NOSEC_MARK("45", id)	/* 'E' */
#define NOSEC_MARK_PROFILE_ON(id)	NOSEC_MARK("50", id)	/* 'P' */
#define NOSEC_MARK_PROFILE_OFF(id)	NOSEC_MARK("51", id)	/* 'Q' */

#endif /* NOSEC_BENCH_MARKER_H */
