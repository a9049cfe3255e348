/* hw_samework.c - the second baseline of probe-vs-handwritten
 * --same-work: a kprobe on vfs_read registered as hw_vfs_read.c's is,
 * whose pre_handler does the work of the stap hit path of `n++` (as of
 * runtime/stp_hit.h's light path: the session-state load and compare,
 * the per-CPU busy test, set and clear, the load of the per-CPU context
 * pointer and a store through it, the per-CPU add).  It prices that work
 * on its own: stap's cost minus this one's is what the stap module
 * costs beyond its instructions.  The count is the read-only module
 * parameter `hits`. */
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/slab.h>

/* stand-ins of stp_gate (the value of RUNNING), stp_busy, stp_cpu_ptr
 * (each CPU's 16 KiB buffer) and the script global's per-CPU counter */
static unsigned long gate = 2;
static DEFINE_PER_CPU(unsigned long, busy);
static DEFINE_PER_CPU(void **, ptr);
static DEFINE_PER_CPU(s64, cnt);
static atomic_t skipped;               /* hits inside hits (never, here) */

/* Runs in kprobe context on every vfs_read: no sleeping. */
static int sw_pre(struct kprobe *p, struct pt_regs *regs)
{
	void **c;

	if (READ_ONCE(gate) != 2)
		return 0;
	if (unlikely(this_cpu_read(busy))) {
		atomic_inc(&skipped);
		return 0;
	}
	this_cpu_write(busy, 1);
	barrier();
	c = this_cpu_read(ptr);
	c[0x407] = NULL;        /* c->error = NULL, at the same offset */
	this_cpu_inc(cnt);
	barrier();
	this_cpu_write(busy, 0);
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

static void sw_free(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		kfree(per_cpu(ptr, cpu));
}

static int __init sw_init(void)
{
	int cpu, rc = -ENOMEM;

	for_each_possible_cpu(cpu) {
		per_cpu(ptr, cpu) = kzalloc(0x4000, GFP_KERNEL);
		if (!per_cpu(ptr, cpu))
			goto fail;
	}
	rc = register_kprobe(&sw_kp);
	if (rc == 0)
		return 0;
fail:
	sw_free();
	return rc;
}

static void __exit sw_exit(void)
{
	unregister_kprobe(&sw_kp);
	sw_free();
}

module_init(sw_init);
module_exit(sw_exit);
MODULE_LICENSE("GPL");
