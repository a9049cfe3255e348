/* tvar.c - target variables (see tvar.h). */
#include "tvar.h"
#include "dbginfo.h"

#include <stdlib.h>

void tvar_list(struct session *s, struct derived_probe *d, struct strbuf *out)
{
	struct vec names = {0};
	int which, i;
	if (!d->fn)
		return;
	for (which = DBG_PARAMS; which <= DBG_LOCALS; which++) {
		d->fn->prov->list_vars(d->fn->prov, d->fn, which, &names);
		for (i = 0; i < names.n; i++) {
			struct dbg_location l = {0};
			char *why = NULL;
			const char *n = names.items[i];
			if (d->fn->prov->lookup_var(d->fn->prov, d->fn, n, "\"\"",
						    &l, &why) == 0)
				strbuf_printf(out, " $%s:%s", n, l.type->name);
			free(why);
		}
		names.n = 0;
	}
	free(names.items);
}
