/* debuginfo.c - choosing the session's debuginfo provider (see
 * debuginfo.h). */
#include "debuginfo.h"
#include "util.h"

#include <stdlib.h>

struct dbg_provider *dbg_btf_for(struct session *s)
{
	char *why = NULL;
	if (s->btf_tried)
		return s->btf;
	s->btf_tried = 1;
	s->btf = dbg_btf_open(s, &why);
	if (!s->btf)
		diag_error(NULL, "no BTF for kernel %s: %s", s->kernel_release,
			   why ? why : "not found");
	free(why);
	return s->btf;
}

struct dbg_provider *dbg_provider_for(struct session *s)
{
	char *why_dwarf = NULL;
	if (s->dbg_tried)
		return s->dbg;
	s->dbg_tried = 1;
	if (!s->btf_only)
		s->dbg = dbg_dwarf_open(s, &why_dwarf);
	if (!s->dbg) {
		char *why_btf = NULL;
		s->dbg = s->btf_tried ? s->btf : dbg_btf_open(s, &why_btf);
		if (!s->btf_tried) {
			s->btf_tried = 1;
			s->btf = s->dbg;
		}
		if (!s->dbg)
			diag_error(NULL, "no debugging information for kernel "
				   "%s: %s; %s (install linux-image-%s-dbg for "
				   "DWARF: stap-prep)  [man error::dwarf]",
				   s->kernel_release,
				   why_dwarf ? why_dwarf : "DWARF not used (--btf)",
				   why_btf ? why_btf : "no BTF",
				   s->kernel_release);
		free(why_btf);
	}
	free(why_dwarf);
	return s->dbg;
}
