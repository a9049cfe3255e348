/* uprobe_refctr - uprobe_register_refctr(inode, offset, ref_ctr_offset,
 * consumer) returns 0 or an error and uprobe_unregister(inode, offset,
 * consumer) waits for the consumer's handlers (6.1; gone in 6.12, see
 * uprobe_handle).
 * @serves uprobes/register
 */
#include <linux/uprobes.h>

_Static_assert(__builtin_types_compatible_p(typeof(&uprobe_register_refctr),
		int (*)(struct inode *, loff_t, loff_t, struct uprobe_consumer *)),
	"uprobe_register_refctr");
_Static_assert(__builtin_types_compatible_p(typeof(&uprobe_unregister),
		void (*)(struct inode *, loff_t, struct uprobe_consumer *)),
	"uprobe_unregister");
