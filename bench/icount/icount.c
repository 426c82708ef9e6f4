// SPDX-License-Identifier: GPL-2.0
/*
 * icount.so - a QEMU TCG plugin that counts the guest instructions
 * executed between two markers (make bench).
 *
 * Every translation block adds its instruction count to one counter when
 * it runs (an inline add, no call).  A marker is an instruction that does
 * nothing and that compilers never emit (bench/icount/marker.h), told by
 * the guest's instruction bytes, for the architecture QEMU emulates:
 *
 *   x86_64   `nopl 0x4e53KKII(%rax)`: 0f 1f 80 and a 32-bit displacement
 *            whose top half is "NS"
 *   aarch64  `movk xzr, #0xKKII, lsl #48`: the 32-bit word 0xf2e0001f |
 *            0xKKII << 5 (MOVK, hw 3, destination the zero register)
 *
 * KK is what it marks, II an id the guest chose.  When one runs, the
 * plugin reads the counter:
 *
 *   KK 'B'  a window begins
 *   KK 'E'  it ends: the plugin writes "W II INSNS NS", the instructions
 *           executed between the two (neither marker counted) and the
 *           host's nanoseconds in between
 *   KK 'P'  profiling begins (only with profile=on)
 *   KK 'Q'  it ends: "P II VADDR INSNS" for every translation block that
 *           ran in between, by start address, then "P II end"
 *
 * The counter is the whole machine's: the bench boots one vCPU (bench/run
 * passes --smp 1; the plugin refuses to load with more, whose counter and
 * window all of them would share), so a window holds what the measured work cost, the
 * kernel included, and whatever else the kernel did meanwhile.  A count
 * is of instructions as TCG executes them: each iteration of an x86 REP
 * string instruction counts as one, and a block cut short by a fault is
 * counted whole.
 *
 * Arguments (-plugin icount.so,out=FILE[,profile=on]): out is where the
 * lines go (required); profile=on also calls into the plugin for every
 * translation block run, which makes the guest slower, so only profiling
 * boots use it.  The same plugin loads into qemu-system-x86_64 and
 * qemu-system-aarch64; it refuses any other target.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qemu_plugin_v1.h"

NOSEC_PLUGIN_EXPORT int qemu_plugin_version = 1;

#define X86_MARKER_MAGIC	0x4e53u		/* "NS" */
#define X86_MARKER_LEN		7		/* 0f 1f 80 disp32 */
/* movk xzr, #imm16, lsl #48: imm16 in bits 5..20, the rest fixed. */
#define A64_MARKER_MASK		0xffe0001fu
#define A64_MARKER_INSN		0xf2e0001fu
#define A64_MARKER_LEN		4

/* A marker as translated: what it says, and what its block runs after it. */
struct marker {
	uint8_t kind;
	uint8_t id;
	uint32_t after;	/* instructions of its block after it */
};

/* A translation block, when profiling: where it starts, what it ran. */
struct block {
	uint64_t vaddr;
	uint64_t n_insns;
	uint64_t runs_insns;
};

static uint64_t insns;		/* every instruction the guest ran */
static bool aarch64;		/* the target: aarch64, else x86_64 */
static FILE *out;
static bool profile;
static bool profiling;

static struct {
	bool open;
	uint8_t id;
	uint64_t insns;
	struct timespec at;
} window;

static struct block **blocks;
static size_t nr_blocks, max_blocks;

static uint64_t host_ns_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)(t.tv_sec - t0->tv_sec) * 1000000000u +
	       t.tv_nsec - t0->tv_nsec;
}

static int cmp_block(const void *a, const void *b)
{
	const struct block *x = *(struct block *const *)a;
	const struct block *y = *(struct block *const *)b;

	return (x->vaddr > y->vaddr) - (x->vaddr < y->vaddr);
}

/* Write what each block start ran since profiling began, then reset. */
static void profile_dump(uint8_t id)
{
	qsort(blocks, nr_blocks, sizeof(*blocks), cmp_block);
	for (size_t i = 0; i < nr_blocks;) {
		uint64_t vaddr = blocks[i]->vaddr, sum = 0;

		for (; i < nr_blocks && blocks[i]->vaddr == vaddr; i++) {
			sum += blocks[i]->runs_insns;
			blocks[i]->runs_insns = 0;
		}
		if (sum)
			fprintf(out, "P %u %#" PRIx64 " %" PRIu64 "\n", id,
				vaddr, sum);
	}
	fprintf(out, "P %u end\n", id);
}

static void marker_ran(unsigned int vcpu, void *data)
{
	const struct marker *m = data;
	uint64_t now = insns - m->after;

	(void)vcpu;
	switch (m->kind) {
	case 'B':
		window.open = true;
		window.id = m->id;
		window.insns = now;
		clock_gettime(CLOCK_MONOTONIC, &window.at);
		break;
	case 'E':
		if (!window.open || window.id != m->id) {
			fprintf(out, "X %u end without its begin\n", m->id);
			break;
		}
		/* The 'E' marker itself is not the window's. */
		fprintf(out, "W %u %" PRIu64 " %" PRIu64 "\n", m->id,
			now - 1 - window.insns, host_ns_since(&window.at));
		window.open = false;
		break;
	case 'P':
		profiling = profile;
		break;
	case 'Q':
		if (profiling)
			profile_dump(m->id);
		profiling = false;
		break;
	}
}

static void block_ran(unsigned int vcpu, void *data)
{
	struct block *b = data;

	(void)vcpu;
	if (profiling)
		b->runs_insns += b->n_insns;
}

/* The little-endian 32-bit value at @p. */
static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A marker's kind and id, or false when @insn is not one. */
static bool marker_of(const struct qemu_plugin_insn *insn, struct marker *m)
{
	const uint8_t *p = qemu_plugin_insn_data(insn);
	size_t len = qemu_plugin_insn_size(insn);
	uint32_t v;

	if (aarch64) {
		/* An A64 instruction is one little-endian word. */
		if (len != A64_MARKER_LEN)
			return false;
		v = le32(p);
		if ((v & A64_MARKER_MASK) != A64_MARKER_INSN)
			return false;
		v = v >> 5 & 0xffff;
	} else {
		if (len != X86_MARKER_LEN ||
		    p[0] != 0x0f || p[1] != 0x1f || p[2] != 0x80)
			return false;
		v = le32(p + 3);
		if (v >> 16 != X86_MARKER_MAGIC)
			return false;
	}
	m->kind = v >> 8 & 0xff;
	m->id = v & 0xff;
	return strchr("BEPQ", m->kind) && m->kind;
}

static void *must_alloc(size_t size)
{
	void *p = calloc(1, size);

	if (!p) {
		fprintf(stderr, "icount: out of memory\n");
		abort();
	}
	return p;
}

static void block_translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct marker m;

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &insns, n);
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		struct marker *copy;

		if (!marker_of(insn, &m))
			continue;
		copy = must_alloc(sizeof(*copy));
		*copy = m;
		copy->after = n - i - 1;
		qemu_plugin_register_vcpu_insn_exec_cb(insn, marker_ran,
						       QEMU_PLUGIN_CB_NO_REGS,
						       copy);
	}
	if (profile) {
		struct block *b = must_alloc(sizeof(*b));

		b->vaddr = qemu_plugin_tb_vaddr(tb);
		b->n_insns = n;
		if (nr_blocks == max_blocks) {
			max_blocks = max_blocks ? 2 * max_blocks : 65536;
			blocks = realloc(blocks, max_blocks * sizeof(*blocks));
			if (!blocks)
				abort();
		}
		blocks[nr_blocks++] = b;
		qemu_plugin_register_vcpu_tb_exec_cb(tb, block_ran,
						     QEMU_PLUGIN_CB_NO_REGS, b);
	}
}

static void plugin_exit(qemu_plugin_id_t id, void *data)
{
	(void)id;
	(void)data;
	fprintf(out, "T %" PRIu64 "\n", insns);
	fclose(out);
}

NOSEC_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					    const struct qemu_info_t *info,
					    int argc, char **argv)
{
	const char *path = NULL;

	/* The markers are the target's own instructions. */
	if (!strcmp(info->target_name, "aarch64")) {
		aarch64 = true;
	} else if (strcmp(info->target_name, "x86_64")) {
		fprintf(stderr, "icount: no markers for target %s "
			"(x86_64 and aarch64 only)\n", info->target_name);
		return -1;
	}
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			path = argv[i] + 4;
		else if (!strcmp(argv[i], "profile=on"))
			profile = true;
		else {
			fprintf(stderr, "icount: unknown argument %s\n", argv[i]);
			return -1;
		}
	}
	if (!path) {
		fprintf(stderr, "icount: out=FILE is required\n");
		return -1;
	}
	/* One counter, one open window: one vCPU (-smp 1). */
	if (qemu_plugin_n_vcpus() != 1) {
		fprintf(stderr, "icount: %d vCPUs; the counts need -smp 1\n",
			qemu_plugin_n_vcpus());
		return -1;
	}
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return -1;
	}
	setvbuf(out, NULL, _IOLBF, 0);
	qemu_plugin_register_vcpu_tb_trans_cb(id, block_translated);
	qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
	return 0;
}
