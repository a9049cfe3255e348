/* lines.c - the kernel's whole line table, for symfileline() and the
 * rest of tapset/linux/symlines.stp (codegen/klines_gen.c):
 * dbg_kernel_lines(). */
#include "dwarf_int.h"
#include "strmap.h"
#include "debuginfo/ksyms.h"

#include <stdlib.h>
#include <string.h>

static int cmp_row(const void *a, const void *b)
{
	const struct dbg_line *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

long dbg_kernel_lines(struct session *s, struct dbg_line **rows,
		      struct vec *files, uint64_t *printk_addr, char **why)
{
	struct dbg_provider *p = dbg_provider_for(s);
	struct dw_mod *m;
	struct strmap fmap = {0};
	struct dbg_line *r = NULL;
	Dwarf_Off off = 0, next;
	size_t hsize, n = 0, cap = 0, i, k;
	if (!p || strcmp(p->name, "dwarf")) {
		*why = xasprintf("source lines need the kernel's DWARF "
				 "(install linux-image-%s-dbg)",
				 s->kernel_release);
		return -1;
	}
	{
		struct ksyms *k = ksyms_for(s);
		if (!k || ksyms_addr(k, "_printk", printk_addr) < 0) {
			*why = xstrdup("the kernel's symbol _printk is "
				       "unknown: cannot place its line table");
			return -1;
		}
	}
	m = ((struct dw_prov *)p)->kernel;
	while (dwarf_nextcu(m->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Lines *lines;
		size_t nl;
		if (dwarf_offdie(m->dw, off + hsize, &cu) &&
		    dwarf_getsrclines(&cu, &lines, &nl) == 0)
			for (i = 0; i < nl; i++) {
				Dwarf_Line *ln = dwarf_onesrcline(lines, i);
				Dwarf_Addr a;
				int line;
				bool end = false;
				const char *src;
				struct strmap_ent *fe;
				int created;
				if (!ln || dwarf_lineaddr(ln, &a) ||
				    dwarf_lineno(ln, &line) ||
				    !(src = dwarf_linesrc(ln, NULL, NULL)))
					continue;
				/* a sequence's end: no line from there on */
				if (dwarf_lineendsequence(ln, &end) == 0 && end)
					line = 0;
				if (n == cap) {
					cap = cap ? 2 * cap : 65536;
					r = xrealloc(r, cap * sizeof(*r));
				}
				r[n].addr = a + m->bias;
				r[n].line = line > 0 ? (uint32_t)line : 0;
				r[n].seq = n;
				if (!line) {
					r[n].file = 0;
				} else {
					char *rel = dw_rel_path(&cu, src);
					fe = strmap_get(&fmap, rel, 1, &created);
					if (created) {
						fe->a = files->n;
						vec_push(files, rel);
					} else {
						free(rel);
					}
					r[n].file = (uint32_t)fe->a;
				}
				n++;
			}
		off = next;
	}
	strmap_free(&fmap);
	qsort(r, n, sizeof(*r), cmp_row);
	/* one row per address (the last one counts, but a sequence's end
	 * never hides the start of another), and none that does not change
	 * the line or file */
	for (i = k = 0; i < n; i++) {
		if (k && r[k - 1].addr == r[i].addr) {
			if (r[i].line || !r[k - 1].line)
				r[k - 1] = r[i];
			if (k > 1 && r[k - 2].line == r[k - 1].line &&
			    r[k - 2].file == r[k - 1].file)
				k--;
			continue;
		}
		if (k && r[k - 1].line == r[i].line &&
		    r[k - 1].file == r[i].file)
			continue;
		r[k++] = r[i];
	}
	*rows = r;
	return (long)k;
}
