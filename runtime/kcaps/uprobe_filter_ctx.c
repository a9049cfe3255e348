/* uprobe_filter_ctx - the uprobe consumer's filter is
 * filter(consumer, enum uprobe_filter_ctx, mm) (6.1; 6.12 dropped the
 * ctx: uprobe_filter_mm).
 * @serves uprobes/filter
 */
#include <linux/uprobes.h>

_Static_assert(__builtin_types_compatible_p(
	typeof(((struct uprobe_consumer *)0)->filter),
	bool (*)(struct uprobe_consumer *, enum uprobe_filter_ctx,
		 struct mm_struct *)), "filter with ctx");
