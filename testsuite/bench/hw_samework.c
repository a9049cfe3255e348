/* hw_samework.c - the second baseline of probe-vs-handwritten
 * --same-work: a kprobe on vfs_read registered as hw_vfs_read.c's is,
 * whose pre_handler does the work of the stap hit path of `n++` (as of
 * runtime/stp_hit.h's path for a handler that cannot fail,
 * STP_HIT_NOERR: one per-CPU load and test of the word holding the
 * run's gate and the busy flag, then the per-CPU add).  It prices that
 * work on its own: stap's cost minus this one's is what the stap module
 * costs beyond its instructions.  The count is the read-only module
 * parameter `hits`. */
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>

/* stand-ins of stp_cpu_gate (0: the run's gate open, this CPU's context
 * free) and the script global's per-CPU counter */
static DEFINE_PER_CPU(u16, gate);
static DEFINE_PER_CPU(s64, cnt);
static atomic_t skipped;               /* hits not run (never, here) */

/* Runs in kprobe context on every vfs_read: no sleeping. */
static int sw_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (unlikely(this_cpu_read(gate))) {
		atomic_inc(&skipped);
		return 0;
	}
	this_cpu_inc(cnt);
	return 0;
}

static struct kprobe sw_kp = {
	.symbol_name = "vfs_read",
	.pre_handler = sw_pre,
};

static int sw_get_hits(char *buf, const struct kernel_param *kp)
{
	s64 s = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		s += per_cpu(cnt, cpu);
	return sysfs_emit(buf, "%lld\n", s);
}

static const struct kernel_param_ops sw_hits_ops = { .get = sw_get_hits };
module_param_cb(hits, &sw_hits_ops, NULL, 0444);

static int __init sw_init(void)
{
	return register_kprobe(&sw_kp);
}

static void __exit sw_exit(void)
{
	unregister_kprobe(&sw_kp);
}

module_init(sw_init);
module_exit(sw_exit);
MODULE_LICENSE("GPL");
