/* insn_count.c - a qemu TCG plugin that counts the guest instructions run
 * between two marks, for benches whose figures must not depend on the
 * host's load (bench/probe-vs-handwritten --insns).
 *
 * Usage: qemu-system-x86_64 ... -plugin insn_count.so,start=ADDR,end=ADDR,out=FILE
 *
 *   Counts every instruction the guest runs (all vCPUs, kernel and user;
 *   a translation block's instructions are counted when it starts).  Each
 *   time the guest runs the instruction at virtual address start (hex), the
 *   count is noted; each time it runs the one at end, the instructions
 *   since the last start are appended to FILE as a line "insns=N".  The
 *   marks are the entry points of two functions of a static, non-PIE
 *   guest program linked where nothing else in the guest runs
 *   (insn_loop.c), so that no other process hits them.
 *
 * qemu's plugin API (version 1, qemu 7.2) is declared here from its
 * documentation: Debian ships no header for it.  Built with
 * gcc -shared -fPIC; loaded only by single-threaded TCG (the lab's), so
 * the counter needs no atomics.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the part of qemu-plugin.h this plugin uses ---- */
typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;   /* (not read) */
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};
enum qemu_plugin_op {
	QEMU_PLUGIN_INLINE_ADD_U64,
};
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *udata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu, void *udata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *udata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *udata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);

#define EXPORT __attribute__((visibility("default")))
EXPORT int qemu_plugin_version = 1;
/* ---- */

static uint64_t total;          /* instructions run so far */
static uint64_t at_start;       /* total at the last start mark */
static bool started;
static uint64_t start_pc, end_pc;
static FILE *out;

/* the guest ran the start (udata 0) or end (udata 1) mark */
static void mark(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	if (!udata) {
		at_start = total;
		started = true;
	} else if (started) {
		fprintf(out, "insns=%" PRIu64 "\n", total - at_start);
		fflush(out);
		started = false;
	}
}

/* a new translation block: count its instructions each time it runs,
 * and watch for the marks in it */
static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &total, n);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t pc = qemu_plugin_insn_vaddr(insn);

		if (pc == start_pc || pc == end_pc)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark,
				QEMU_PLUGIN_CB_NO_REGS,
				(void *)(uintptr_t)(pc == end_pc));
	}
}

static void finished(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	fclose(out);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			       int argc, char **argv)
{
	const char *path = NULL;
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "start=", 6))
			start_pc = strtoull(argv[i] + 6, NULL, 16);
		else if (!strncmp(argv[i], "end=", 4))
			end_pc = strtoull(argv[i] + 4, NULL, 16);
		else if (!strncmp(argv[i], "out=", 4))
			path = argv[i] + 4;
	}
	if (!start_pc || !end_pc || !path) {
		fprintf(stderr, "insn_count: needs start=ADDR,end=ADDR,out=FILE\n");
		return -1;
	}
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
	qemu_plugin_register_atexit_cb(id, finished, NULL);
	return 0;
}
