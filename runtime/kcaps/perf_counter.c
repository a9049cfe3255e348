/* perf_counter - kernel perf counters: perf_event_create_kernel_counter(
 * attr, cpu, task, overflow handler(event, sample data, regs), context),
 * perf_event_read_value(), perf_event_release_kernel() (6.1 and 6.12).
 * @serves perf/counter
 */
#include <linux/perf_event.h>

static void stp_kcap_perf_counter_fn(struct perf_event *e,
				     struct perf_sample_data *d,
				     struct pt_regs *regs)
{
}

static u64 stp_kcap_perf_counter(struct perf_event_attr *attr)
{
	u64 enabled, running, v;
	struct perf_event *e = perf_event_create_kernel_counter(attr, 0, NULL,
			stp_kcap_perf_counter_fn, NULL);

	v = perf_event_read_value(e, &enabled, &running);
	perf_event_release_kernel(e);
	return v;
}
