/* uprobe_filter_mm - the uprobe consumer's filter is filter(consumer, mm)
 * (6.12; 6.1 has uprobe_filter_ctx).
 * @serves uprobes/filter
 */
#include <linux/uprobes.h>

_Static_assert(__builtin_types_compatible_p(
	typeof(((struct uprobe_consumer *)0)->filter),
	bool (*)(struct uprobe_consumer *, struct mm_struct *)),
	"filter(consumer, mm)");
