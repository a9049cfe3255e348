/* hw_uprobe.c - the hand-written baseline of uprobe-cost: a uprobe on
 * file `path` at file offset `offset` (module parameters) whose handler
 * only increments an atomic_t.  The count is the read-only module
 * parameter `hits` (/sys/module/hw_uprobe/parameters/hits). */
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/uprobes.h>
#include <linux/atomic.h>

static char *path;
module_param(path, charp, 0444);
static unsigned long offset;
module_param(offset, ulong, 0444);

static atomic_t hits = ATOMIC_INIT(0);
static struct inode *hw_inode;

/* Runs in the probed task on every hit: no sleeping. */
static int hw_handler(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	atomic_inc(&hits);
	return 0;
}

static struct uprobe_consumer hw_uc = { .handler = hw_handler };

static int hw_get_hits(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&hits));
}

static const struct kernel_param_ops hw_hits_ops = { .get = hw_get_hits };
module_param_cb(hits, &hw_hits_ops, NULL, 0444);

static int __init hw_init(void)
{
	struct path p;
	int rc;

	if (!path)
		return -EINVAL;
	rc = kern_path(path, LOOKUP_FOLLOW, &p);
	if (rc)
		return rc;
	hw_inode = igrab(d_inode(p.dentry));
	path_put(&p);
	if (!hw_inode)
		return -ENOENT;
	rc = uprobe_register(hw_inode, offset, &hw_uc);
	if (rc)
		iput(hw_inode);
	return rc;
}

static void __exit hw_exit(void)
{
	uprobe_unregister(hw_inode, offset, &hw_uc);
	iput(hw_inode);
}

module_init(hw_init);
module_exit(hw_exit);
MODULE_LICENSE("GPL");
