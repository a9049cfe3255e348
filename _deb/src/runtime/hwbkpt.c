/* hwbkpt.c - kernel.data probes: STP_PROBE_HWBKPT entries of the probe
 * table, one wide hardware breakpoint (a debug register on every CPU)
 * each, through the kernel's hw_breakpoint layer.
 *
 * The probe runs from the debug exception after the watched access (the
 * breakpoint traps after the instruction), with that exception's
 * registers, through stp_run_probe() like every probe.  A symbol's
 * address comes from the translator as a link-time address, with the
 * link-time address of _printk: their difference from the running
 * _printk is the KASLR displacement.  A probe that cannot be registered
 * (all debug registers taken, a misaligned address, no hardware
 * breakpoints) is an error naming it, unless it is optional ("?").
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/printk.h>
#include <linux/perf_event.h>
#include <linux/hw_breakpoint.h>
#include "stp_internal.h"

/* Run-time state of one kernel.data probe. */
struct stp_hw_rt {
	const struct stp_probe_desc *p;
	struct perf_event *__percpu *bp;   /* NULL: not registered */
};

static struct stp_hw_rt *stp_hws;
static int stp_nhws;

/* stp_hw_handler - a watched access: runs the probe.  Context: the debug
 * exception (NMI-like); does not sleep. */
static void stp_hw_handler(struct perf_event *bp,
			   struct perf_sample_data *data, struct pt_regs *regs)
{
	const struct stp_probe_desc *p = bp->overflow_handler_context;

	stp_run_probe(p, regs, STP_STATE_RUNNING);
}

/* stp_hw_addr - the run-time address a kernel.data probe watches */
static unsigned long stp_hw_addr(const struct stp_probe_desc *p)
{
	if (!p->symbol)
		return p->offset;
	return p->offset + ((unsigned long)&_printk - p->hw_anchor);
}

static int stp_hw_len(int len)
{
	switch (len) {
	case 1: return HW_BREAKPOINT_LEN_1;
	case 2: return HW_BREAKPOINT_LEN_2;
	case 4: return HW_BREAKPOINT_LEN_4;
	default: return HW_BREAKPOINT_LEN_8;
	}
}

int stp_hwbkpt_register(void)
{
	int i, n = 0, rc;

	for (i = 0; i < stp_module.nprobes; i++)
		n += stp_module.probes[i].kind == STP_PROBE_HWBKPT;
	if (!n)
		return 0;
	stp_hws = kcalloc(n, sizeof(*stp_hws), GFP_KERNEL);
	if (!stp_hws)
		return -ENOMEM;
	for (i = 0; i < stp_module.nprobes; i++) {
		const struct stp_probe_desc *p = &stp_module.probes[i];
		struct stp_hw_rt *h;
		struct perf_event_attr attr;
		struct perf_event *__percpu *bp;

		if (p->kind != STP_PROBE_HWBKPT)
			continue;
		h = &stp_hws[stp_nhws++];
		h->p = p;
		hw_breakpoint_init(&attr);
		attr.bp_addr = stp_hw_addr(p);
		attr.bp_len = stp_hw_len(p->hw_len);
		attr.bp_type = p->hw_rw ? HW_BREAKPOINT_RW : HW_BREAKPOINT_W;
		bp = register_wide_hw_breakpoint(&attr, stp_hw_handler,
						 (void *)p);
		if (!IS_ERR_OR_NULL(bp)) {
			h->bp = bp;
			continue;
		}
		rc = bp ? PTR_ERR(bp) : -EINVAL;
		if (p->optional)
			continue;
		stp_ctl_send_text(STP_MSG_ERROR,
			"ERROR: probe %s registration failed (rc %d: %s) near %s\n",
			p->pp ? p->pp : "?", rc,
			rc == -ENOSPC ? "no free debug register" :
			rc == -EINVAL ? "address or length not usable for a "
					"hardware breakpoint" :
			"no hardware breakpoint", p->loc ? p->loc : "?");
		stp_hwbkpt_unregister();
		return rc;
	}
	return 0;
}

void stp_hwbkpt_unregister(void)
{
	int i;

	for (i = 0; i < stp_nhws; i++)
		if (stp_hws[i].bp) {
			unregister_wide_hw_breakpoint(stp_hws[i].bp);
			stp_hws[i].bp = NULL;
		}
	kfree(stp_hws);
	stp_hws = NULL;
	stp_nhws = 0;
}
