/* hrtimer_setup - an hrtimer is set up with its callback by
 * hrtimer_setup(timer, fn, clock, mode) (6.13; 6.1 and 6.12 use
 * hrtimer_init() and set ->function).
 */
#include <linux/hrtimer.h>

_Static_assert(__builtin_types_compatible_p(typeof(&hrtimer_setup),
		void (*)(struct hrtimer *, enum hrtimer_restart (*)(struct hrtimer *),
			 clockid_t, enum hrtimer_mode)), "hrtimer_setup");
