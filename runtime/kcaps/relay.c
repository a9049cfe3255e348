/* relay - the relay transport as the runtime uses it: relay_open() with
 * callbacks that put the per-CPU buffer files in debugfs, relay_write(),
 * relay_buf_full(), relay_close() (6.1 and 6.12).
 * @serves runtime/relay
 */
#include <linux/relay.h>
#include <linux/debugfs.h>

static struct dentry *stp_kcap_relay_create(const char *name,
		struct dentry *parent, umode_t mode, struct rchan_buf *buf,
		int *is_global)
{
	return debugfs_create_file(name, mode, parent, buf,
				   &relay_file_operations);
}

static int stp_kcap_relay_start(struct rchan_buf *buf, void *subbuf,
				void *prev_subbuf, size_t prev_padding)
{
	return !relay_buf_full(buf);
}

static const struct rchan_callbacks stp_kcap_relay_cb = {
	.subbuf_start = stp_kcap_relay_start,
	.create_buf_file = stp_kcap_relay_create,
	.remove_buf_file = (int (*)(struct dentry *))NULL,
};

static void stp_kcap_relay(struct dentry *dir)
{
	struct rchan *c = relay_open("x", dir, 4096, 4, &stp_kcap_relay_cb, NULL);

	relay_write(c, "x", 1);
	relay_close(c);
	debugfs_remove(debugfs_lookup("x", NULL));
}
