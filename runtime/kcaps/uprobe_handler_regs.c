/* uprobe_handler_regs - the uprobe consumer's handlers are
 * handler(consumer, regs) and ret_handler(consumer, func, regs) (6.1 and
 * 6.12; 6.13 added a data argument).
 * @serves uprobes/handler
 */
#include <linux/uprobes.h>

_Static_assert(__builtin_types_compatible_p(
	typeof(((struct uprobe_consumer *)0)->handler),
	int (*)(struct uprobe_consumer *, struct pt_regs *)), "handler");
_Static_assert(__builtin_types_compatible_p(
	typeof(((struct uprobe_consumer *)0)->ret_handler),
	int (*)(struct uprobe_consumer *, unsigned long, struct pt_regs *)),
	"ret_handler");
