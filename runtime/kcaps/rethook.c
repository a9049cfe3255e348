/* rethook - function-return hooks (CONFIG_RETHOOK) whose handler is
 * handler(node, data, ret_addr, regs) and whose pool rethook_alloc(data,
 * handler, node size, count) makes (6.12; 6.1 has rethook with
 * rethook_add_node() and a handler without ret_addr).
 */
#if __has_include(<linux/rethook.h>)
#include <linux/rethook.h>
#endif

#ifndef CONFIG_RETHOOK
#error "no rethook"
#endif

_Static_assert(__builtin_types_compatible_p(typeof(&rethook_alloc),
		struct rethook *(*)(void *, rethook_handler_t, int, int)),
	"rethook_alloc(data, handler, size, num)");
_Static_assert(__builtin_types_compatible_p(rethook_handler_t,
		void (*)(struct rethook_node *, void *, unsigned long,
			 struct pt_regs *)), "rethook handler");
