/* kretprobe_rethook - kretprobes return through rethook
 * (CONFIG_KRETPROBE_ON_RETHOOK: the 6.12 cloud kernel; 6.1's uses the
 * kretprobe trampoline of its own).
 */
#include <linux/kprobes.h>

#ifndef CONFIG_KRETPROBE_ON_RETHOOK
#error "kretprobes without rethook"
#endif
