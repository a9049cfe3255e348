/* never.c - the never probe point: its body is resolved, type-checked and
 * compiled like any other, but the runtime never runs it (useful with
 * optional points: `probe foo ?, never { }`). */
#include "family.h"

static int match_never(struct session *s, struct probe *p,
		       struct probe_point *pp)
{
	if (pp_comp(pp, 0)->arg) {
		diag_error(&pp->loc, "'never' takes no argument");
		return -1;
	}
	if (extra_components(pp, 1) < 0)
		return -1;
	new_derived(s, DP_NEVER, p, pp);
	return 0;
}

static const char *const never_forms[] = { "never", NULL };

const struct family family_never = { "never", match_never, never_forms };
