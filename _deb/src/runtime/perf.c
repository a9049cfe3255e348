/* perf.c - timer.profile and perf.* probes: one kernel perf event per
 * online CPU whose overflow handler runs the probe with the interrupted
 * registers (kernel or user mode).  CPUs brought online during the run
 * get no event. */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/cpu.h>
#include <linux/err.h>
#include <linux/perf_event.h>
#include "stp_internal.h"

void stp_perf_overflow(struct perf_event *ev,
			      struct perf_sample_data *data,
			      struct pt_regs *regs)
{
	const struct stp_probe_desc *p = ev->overflow_handler_context;

	stp_run_probe(p, regs, STP_STATE_RUNNING);
}

int stp_perf_register(const struct stp_probe_desc *p,
		      struct perf_event ***evsp)
{
	struct perf_event_attr attr;
	struct perf_event **evs;
	int cpu, rc = 0;

	if (!p->sample)
		return -EINVAL;
	evs = kcalloc(nr_cpu_ids, sizeof(*evs), GFP_KERNEL);
	if (!evs)
		return -ENOMEM;
	memset(&attr, 0, sizeof(attr));
	attr.type = p->perf_type;
	attr.size = sizeof(attr);
	attr.config = p->perf_config;
	attr.pinned = 1;
	if (p->perf_freq) {
		attr.freq = 1;
		attr.sample_freq = p->sample;
	} else {
		attr.sample_period = p->sample;
	}
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct perf_event *ev;

		ev = perf_event_create_kernel_counter(&attr, cpu, NULL,
						      stp_perf_overflow,
						      (void *)p);
		if (IS_ERR(ev)) {
			rc = PTR_ERR(ev);
			break;
		}
		evs[cpu] = ev;
	}
	cpus_read_unlock();
	if (rc) {
		stp_perf_unregister(evs);
		return rc;
	}
	*evsp = evs;
	return 0;
}

void stp_perf_unregister(struct perf_event **evs)
{
	unsigned int cpu;

	if (!evs)
		return;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (evs[cpu])
			perf_event_release_kernel(evs[cpu]);
	kfree(evs);
}
