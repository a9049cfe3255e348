/* ftrace_ctx_bit - ftrace_test_recursion_trylock() returns the bit of the
 * context it ran in, TRACE_FTRACE_START plus a TRACE_CTX_* (NMI, IRQ,
 * SOFTIRQ, NORMAL, or TRANSITION when that context's bit was already
 * set), so that an ftrace callback learns whether it runs in an NMI
 * without reading preempt_count again (6.1 and 6.12).
 */
#include <linux/ftrace.h>
#include <linux/trace_recursion.h>

_Static_assert(TRACE_CTX_NMI == 0 && TRACE_CTX_TRANSITION == 4,
	       "context bits");

static int stp_kcap_ftrace_ctx_bit(void)
{
	return TRACE_FTRACE_START + trace_get_context_bit();
}
