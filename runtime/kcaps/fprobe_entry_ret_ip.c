/* fprobe_entry_ret_ip - an fprobe's entry handler is entry(fp, entry_ip,
 * ret_ip, regs, entry_data) and returns int (non-zero: no exit handler
 * for this call), its exit handler exit(fp, entry_ip, ret_ip, regs,
 * entry_data) (6.12; 6.1's take no ret_ip and return void; later kernels
 * pass ftrace_regs).
 */
#if __has_include(<linux/fprobe.h>)
#include <linux/fprobe.h>
#endif

_Static_assert(__builtin_types_compatible_p(
	typeof(((struct fprobe *)0)->entry_handler),
	int (*)(struct fprobe *, unsigned long, unsigned long,
		struct pt_regs *, void *)), "fprobe entry handler");
_Static_assert(__builtin_types_compatible_p(
	typeof(((struct fprobe *)0)->exit_handler),
	void (*)(struct fprobe *, unsigned long, unsigned long,
		 struct pt_regs *, void *)), "fprobe exit handler");
