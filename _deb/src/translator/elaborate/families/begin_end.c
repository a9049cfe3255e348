/* begin_end.c - the begin, begin(N), end, end(N), error and error(N)
 * probe points: run once at module start or end, in order of N (default
 * 0, may be negative), then of appearance.  error probes run at the end
 * of a run that errors ended (more than MAXERRORS), and end probes then
 * do not (see stapprobes(3stap)). */
#include "family.h"

#include <stdlib.h>
#include <string.h>

/* begin, begin(N), end, end(N) */
static int match_begin_end(struct session *s, struct probe *p,
			   struct probe_point *pp)
{
	struct pp_component *c = pp_comp(pp, 0);
	struct derived_probe *d;
	int64_t order = 0;
	if (num_arg(c, pp, &order, 0) < 0 || extra_components(pp, 1) < 0)
		return -1;
	d = new_derived(s, pp_is(c, "begin") ? DP_BEGIN :
			pp_is(c, "end") ? DP_END : DP_ERROR, p, pp);
	d->order = order;
	return 0;
}

static const char *const begin_forms[] = {
	"begin", "begin(NUMBER)", NULL,
};

static const char *const end_forms[] = {
	"end", "end(NUMBER)", NULL,
};

const struct family family_begin = { "begin", match_begin_end, begin_forms };
const struct family family_end = { "end", match_begin_end, end_forms };

static const char *const error_forms[] = {
	"error", "error(NUMBER)", NULL,
};

const struct family family_error = { "error", match_begin_end, error_forms };
