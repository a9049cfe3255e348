/* mm_rss_percpu - mm_struct.rss_stat is an array of struct percpu_counter,
 * one per MM_* counter (6.2 on: 6.12); without it the counters are the
 * atomic_long_t count[] of struct mm_rss_stat (6.1).
 */
#include <linux/mm_types.h>
#include <linux/percpu_counter.h>

_Static_assert(__builtin_types_compatible_p(
		       typeof(((struct mm_struct *)0)->rss_stat[0]),
		       struct percpu_counter),
	       "rss_stat is not an array of percpu_counter");
