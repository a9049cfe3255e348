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

/* Runs on every call of the functions: any context, no sleeping. */
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
	.flags = FTRACE_OPS_FL_RECURSION,
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
	unsigned long delta = (unsigned long)&_printk - HW_ANCHOR, *ips;
	int i, rc, n = ARRAY_SIZE(HW_SITES);

	ips = kvmalloc_array(n, sizeof(*ips), GFP_KERNEL);
	if (!ips)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		ips[i] = HW_SITES[i] + delta;
	rc = ftrace_set_filter_ips(&hw_ops, ips, n, 0, 1);
	kvfree(ips);
	if (!rc)
		rc = register_ftrace_function(&hw_ops);
	if (rc)
		ftrace_free_filter(&hw_ops);
	pr_info("hw_ftrace_mass: %d sites, rc %d\n", n, rc);
	return rc;
}

static void __exit hw_exit(void)
{
	unregister_ftrace_function(&hw_ops);
	ftrace_free_filter(&hw_ops);
}

module_init(hw_init);
module_exit(hw_exit);
MODULE_LICENSE("GPL");
