/* tracepoints.c - placeholder until kernel.trace lands. */
#include "../elaborate.h"
#include "../util.h"

int match_kernel_trace(struct session *s, struct probe *p,
		       struct probe_point *pp)
{
	diag_error(&pp->loc, "kernel.trace is not built yet");
	return -1;
}
