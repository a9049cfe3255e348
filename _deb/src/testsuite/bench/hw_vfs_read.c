/* hw_vfs_read.c - the hand-written baseline of probe-vs-handwritten: a
 * kprobe on vfs_read whose handler only increments an atomic_t.  The
 * count is the read-only module parameter `hits`
 * (/sys/module/hw_vfs_read/parameters/hits). */
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/atomic.h>

static atomic_t hits = ATOMIC_INIT(0);

/* Runs in kprobe context on every vfs_read: no sleeping. */
static int hw_pre(struct kprobe *p, struct pt_regs *regs)
{
	atomic_inc(&hits);
	return 0;
}

static struct kprobe hw_kp = {
	.symbol_name = "vfs_read",
	.pre_handler = hw_pre,
};

static int hw_get_hits(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&hits));
}

static const struct kernel_param_ops hw_hits_ops = { .get = hw_get_hits };
module_param_cb(hits, &hw_hits_ops, NULL, 0444);

static int __init hw_init(void)
{
	return register_kprobe(&hw_kp);
}

static void __exit hw_exit(void)
{
	unregister_kprobe(&hw_kp);
}

module_init(hw_init);
module_exit(hw_exit);
MODULE_LICENSE("GPL");
