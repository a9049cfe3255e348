/* hw_ftrace_mass.c - the hand-written baseline of bench/mass-register and
 * bench/probe-vs-handwritten: one ftrace_ops attached to the call sites
 * listed in hw_ftrace_sites.h (HW_SITES[], link-time addresses; HW_ANCHOR
 * the link-time address of _printk, for the KASLR offset), whose callback
 * counts hits per CPU, as the least a module can do per hit.  insmod
 * attaches them all (one ftrace_set_filter_ips, one
 * register_ftrace_function), rmmod detaches them; the hit count is the
 * read-only module parameter `hits`. */
#include <linux/module.h>
#include <linux/ftrace.h>
#include <linux/trace_recursion.h>
#include <linux/slab.h>
#include <linux/percpu.h>
#include "hw_ftrace_sites.h"

static DEFINE_PER_CPU(unsigned long, hw_hits);
static unsigned long *hw_ips;
static int hw_n, chunk = 4096;
module_param(chunk, int, 0444);

/* Runs on every call of the functions: any context, no sleeping.  It
 * takes ftrace's recursion guard itself, so the ops has no
 * FTRACE_OPS_FL_RECURSION (that flag asks ftrace for a second guard
 * around the callback, as stap's probe sets do not either). */
static void hw_fn(unsigned long ip, unsigned long parent_ip,
		  struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);

	if (bit < 0)
		return;
	this_cpu_inc(hw_hits);
	ftrace_test_recursion_unlock(bit);
}

static struct ftrace_ops hw_ops = {
	.func = hw_fn,
};

static int hw_get_hits(char *buf, const struct kernel_param *kp)
{
	unsigned long n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += per_cpu(hw_hits, cpu);
	return sysfs_emit(buf, "%lu\n", n);
}

static const struct kernel_param_ops hw_hits_ops = { .get = hw_get_hits };
module_param_cb(hits, &hw_hits_ops, NULL, 0444);

static int __init hw_init(void)
{
	unsigned long delta = (unsigned long)&_printk - HW_ANCHOR;
	int i, rc = 0, step;

	hw_n = ARRAY_SIZE(HW_SITES);
	step = chunk > 0 ? chunk : hw_n;
	hw_ips = kvmalloc_array(hw_n, sizeof(*hw_ips), GFP_KERNEL);
	if (!hw_ips)
		return -ENOMEM;
	for (i = 0; i < hw_n; i++)
		hw_ips[i] = HW_SITES[i] + delta;
	for (i = 0; i < hw_n && !rc; i += step) {
		rc = ftrace_set_filter_ips(&hw_ops, hw_ips + i,
					   min(step, hw_n - i), 0, i == 0);
		if (!rc && i == 0)
			rc = register_ftrace_function(&hw_ops);
		cond_resched();
	}
	if (rc) {
		if (i > step)
			unregister_ftrace_function(&hw_ops);
		ftrace_free_filter(&hw_ops);
		kvfree(hw_ips);
	}
	pr_info("hw_ftrace_mass: %d sites, rc %d\n", hw_n, rc);
	return rc;
}

static void __exit hw_exit(void)
{
	int step = chunk > 0 ? chunk : hw_n, i;

	for (i = (hw_n - 1) / step * step; i > 0; i -= step) {
		ftrace_set_filter_ips(&hw_ops, hw_ips + i,
				      min(step, hw_n - i), 1, 0);
		cond_resched();
	}
	unregister_ftrace_function(&hw_ops);
	ftrace_free_filter(&hw_ops);
	kvfree(hw_ips);
}

module_init(hw_init);
module_exit(hw_exit);
MODULE_LICENSE("GPL");
