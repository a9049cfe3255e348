/* python3_gen.c - pass 3: the CPython interpreters of the python3
 * tapset (s->py_builds, elaborate/pybuild.c) as C, before the tapset's
 * own C, which reads them:
 *
 *   STP_PY3_NBUILDS, STP_PY3_NVALUES
 *   struct stp_py3_build { path, runtime, v[] }   one per interpreter:
 *       its path in the target, _PyRuntime's link-time address, and
 *       the values of the tapset's STP_PY3_LAYOUT list in its order
 *   stp_py3_files[]   each one as a struct stp_umapped (its path, where its
 *       build-id is), for stp_py3_bias(c, b, &bias): interpreter b's
 *       load bias in the current process (stp_umapped_bias)
 */
#include "codegen_int.h"

#include <stdlib.h>
#include <string.h>

void gen_python3(struct session *s, struct strbuf *o)
{
	int i, j;
	if (!s->py_fields.n)
		return;
	strbuf_printf(o, "/* the CPython interpreters of the python3 tapset, "
		      "from their DWARF (python3_gen.c) */\n"
		      "#define STP_PY3_NBUILDS %d\n#define STP_PY3_NVALUES %d\n"
		      "struct stp_py3_build {\n\tconst char *path;\n"
		      "\tunsigned long runtime;\n\tlong v[STP_PY3_NVALUES];\n};\n"
		      "static const struct stp_py3_build stp_py3_builds[] = {\n",
		      s->py_builds.n, s->py_fields.n);
	for (i = 0; i < s->py_builds.n; i++) {
		struct py_build *b = s->py_builds.items[i];
		char *q = c_quote(b->target, strlen(b->target));
		strbuf_printf(o, "\t{ %s, %#llxUL, {", q,
			      (unsigned long long)b->runtime);
		for (j = 0; j < s->py_fields.n; j++)
			strbuf_printf(o, "%s%lld", j ? ", " : " ",
				      (long long)b->values[j]);
		strbuf_add(o, " } },\n");
		free(q);
	}
	strbuf_add(o, "};\n\nstatic const struct stp_umapped stp_py3_files[] = {\n");
	for (i = 0; i < s->py_builds.n; i++) {
		struct py_build *b = s->py_builds.items[i];
		char *q = c_quote(b->target, strlen(b->target));
		const char *id = b->build_id && b->id_vaddr ? b->build_id : "";
		strbuf_printf(o, "\t{ STP_UMAPPED_PATH(%s), %#llxUL, %d, %#llxUL,\n\t  "
			      "(const unsigned char *)\"", q,
			      (unsigned long long)b->vaddr0, b->fixed,
			      (unsigned long long)b->id_vaddr);
		for (j = 0; id[j] && id[j + 1]; j += 2)
			strbuf_printf(o, "\\x%c%c", id[j], id[j + 1]);
		strbuf_printf(o, "\", %d },\n", (int)strlen(id) / 2);
		free(q);
	}
	strbuf_add(o, "};\n\n/* stp_py3_bias - interpreter @b's load bias in the "
		   "current process */\nstatic int stp_py3_bias(struct "
		   "stp_context *c, int b, unsigned long *bias)\n{\n\t"
		   "return stp_umapped_bias(c, &stp_py3_files[b], bias);\n}\n\n");
}
