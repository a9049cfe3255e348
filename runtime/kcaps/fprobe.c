/* fprobe - fprobes (ftrace-based function entry and exit probes,
 * CONFIG_FPROBE) registered by address with register_fprobe_ips() and
 * removed with unregister_fprobe() (the 6.12 cloud kernel; 6.1's is built
 * without them).
 */
#include <linux/ftrace.h>
#if __has_include(<linux/fprobe.h>)
#include <linux/fprobe.h>
#endif

#ifndef CONFIG_FPROBE
#error "no fprobes"
#endif

_Static_assert(__builtin_types_compatible_p(typeof(&register_fprobe_ips),
		int (*)(struct fprobe *, unsigned long *, int)),
	"register_fprobe_ips");
_Static_assert(__builtin_types_compatible_p(typeof(&unregister_fprobe),
		int (*)(struct fprobe *)), "unregister_fprobe");
