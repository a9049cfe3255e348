/* uprobe_handle - uprobe_register() returns the struct uprobe * that
 * uprobe_unregister_nosync() takes, and uprobe_unregister_sync() waits for
 * the handlers of every consumer unregistered so (6.12; 6.1 has
 * uprobe_refctr instead).
 * @serves uprobes/register
 */
#include <linux/uprobes.h>

_Static_assert(__builtin_types_compatible_p(typeof(&uprobe_register),
		struct uprobe *(*)(struct inode *, loff_t, loff_t,
				   struct uprobe_consumer *)), "uprobe_register");
_Static_assert(__builtin_types_compatible_p(typeof(&uprobe_unregister_nosync),
		void (*)(struct uprobe *, struct uprobe_consumer *)),
	"uprobe_unregister_nosync");
_Static_assert(__builtin_types_compatible_p(typeof(&uprobe_unregister_sync),
		void (*)(void)), "uprobe_unregister_sync");
