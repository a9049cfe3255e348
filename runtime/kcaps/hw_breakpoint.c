/* hw_breakpoint - kernel data breakpoints: register_wide_hw_breakpoint(
 * attr, handler(event, sample data, regs), context) and
 * unregister_wide_hw_breakpoint() (6.1 and 6.12).
 * @serves hwbkpt/register
 */
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

static void stp_kcap_hw_breakpoint_fn(struct perf_event *e,
				      struct perf_sample_data *d,
				      struct pt_regs *regs)
{
}

static void stp_kcap_hw_breakpoint(struct perf_event_attr *attr)
{
	struct perf_event * __percpu *bp = register_wide_hw_breakpoint(attr,
			stp_kcap_hw_breakpoint_fn, NULL);

	unregister_wide_hw_breakpoint(bp);
}
