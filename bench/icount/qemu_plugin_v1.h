/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of QEMU's TCG plugin interface, version 1 (QEMU 7.2, Debian
 * 12's qemu-system-x86 and qemu-system-arm), that the counting plugin
 * uses.  Debian does not package QEMU's qemu-plugin.h, so these are
 * declared here, from the interface's documentation: the types and the
 * functions that QEMU exports to a plugin it loads with -plugin.
 */
#ifndef NOSEC_QEMU_PLUGIN_V1_H
#define NOSEC_QEMU_PLUGIN_V1_H

#include <stddef.h>
#include <stdint.h>

#define NOSEC_PLUGIN_EXPORT __attribute__((visibility("default")))

/* The plugin's own id, given to qemu_plugin_install(). */
typedef uint64_t qemu_plugin_id_t;

/* Opaque to the plugin. */
struct qemu_plugin_tb;
struct qemu_plugin_insn;

/*
 * What QEMU tells qemu_plugin_install() about itself: its first members,
 * the only ones read (target_name: "x86_64", "aarch64", ...).
 */
struct qemu_info_t {
	const char *target_name;
	struct {
		int min;
		int current;
	} version;
};

/* What a callback may do with the vCPU's registers: nothing, here. */
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

/* The one inline operation of version 1: *ptr += imm, 64 bits. */
enum qemu_plugin_op {
	QEMU_PLUGIN_INLINE_ADD_U64,
};

typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
					    void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);
int qemu_plugin_n_vcpus(void);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);

#endif /* NOSEC_QEMU_PLUGIN_V1_H */
