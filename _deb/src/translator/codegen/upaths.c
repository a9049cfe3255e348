/* upaths.c - pass 3: the table of user-space files whose load bias the
 * generated code asks for (stp_ubias(c, "PATH", ...): static variables
 * and @var of programs and libraries), so that the runtime resolves each
 * PATH to its inode at module start (runtime/uvars.c) and knows the file
 * in a process's memory map whatever symlinks PATH goes through. */
#include "codegen_int.h"

#include <stdlib.h>
#include <string.h>

#define UBIAS_CALL "stp_ubias(c, \""

void gen_upaths(struct strbuf *o)
{
	struct vec seen = {0};
	struct strbuf t = {0};
	const char *p = strbuf_str(o);
	int i;
	while ((p = strstr(p, UBIAS_CALL))) {
		const char *q = p + strlen(UBIAS_CALL), *e = q;
		char *lit;
		int dup = 0;
		while (*e && *e != '"')
			e += e[0] == '\\' && e[1] ? 2 : 1;
		lit = xstrndup(q, e - q);
		for (i = 0; i < seen.n && !dup; i++)
			dup = !strcmp(seen.items[i], lit);
		if (dup)
			free(lit);
		else
			vec_push(&seen, lit);
		p = e;
	}
	strbuf_add(&t, "static const char *const stp_upaths[] = {");
	for (i = 0; i < seen.n; i++) {
		strbuf_printf(&t, " \"%s\",", (const char *)seen.items[i]);
		free(seen.items[i]);
	}
	strbuf_add(&t, " NULL };\n\n");
	strbuf_add(o, strbuf_str(&t));
	free(t.s);
	free(seen.items);
}
