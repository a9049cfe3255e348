/* klines_gen.c - the kernel's line table in the module (struct
 * stp_klines_desc, runtime/stp_runtime.h and klines.c) for symfileline(),
 * symfile() and symline(): put in only when a used function's embedded
 * C says it needs it with the comment pragma:lines, as SystemTap's.
 * About 2 million rows (vmlinux's .debug_line, one per change of line
 * or file), ~6 MB as deltas; the kernel's modules get none. */
#include "codegen_int.h"
#include "debuginfo/debuginfo.h"

#include <stdlib.h>
#include <string.h>

#define EVERY 64        /* STP_KLINES_EVERY */

static void put_uleb(struct strbuf *b, uint64_t v)
{
	do {
		unsigned char c = v & 0x7f;
		v >>= 7;
		if (v)
			c |= 0x80;
		strbuf_addn(b, (char *)&c, 1);
	} while (v);
}

static void put_sleb(struct strbuf *b, int64_t v)
{
	for (;;) {
		unsigned char c = v & 0x7f;
		v >>= 7;
		if ((v == 0 && !(c & 0x40)) || (v == -1 && (c & 0x40))) {
			strbuf_addn(b, (char *)&c, 1);
			return;
		}
		c |= 0x80;
		strbuf_addn(b, (char *)&c, 1);
	}
}

/* emit_bytes - @n bytes as a C string literal, 3-digit octal escapes for
 * all but plain letters, digits and spaces, 64 bytes a line */
static void emit_bytes(struct strbuf *o, const unsigned char *p, size_t n)
{
	size_t i;

	strbuf_add(o, "\"");
	for (i = 0; i < n; i++) {
		unsigned char c = p[i];
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == ' ')
			strbuf_addn(o, (char *)&c, 1);
		else
			strbuf_printf(o, "\\%03o", c);
		if (i % 64 == 63 && i + 1 < n)
			strbuf_add(o, "\"\n\"");
	}
	strbuf_add(o, "\"");
}

int gen_klines(struct session *s, struct strbuf *o)
{
	struct dbg_line *r = NULL;
	struct vec files = {0};
	struct strbuf st = {0};
	uint64_t anchor;
	char *why = NULL;
	long n, i;
	size_t pos = 0;

	if (!uses_pragma(s, "pragma:lines"))
		return 0;
	if ((n = dbg_kernel_lines(s, &r, &files, &anchor, &why)) < 0) {
		diag_error(NULL, "symfileline(): %s", why);
		free(why);
		return -1;
	}
	if (n == 0 || r[n - 1].addr - r[0].addr > 0xffffffffULL) {
		diag_error(NULL, "symfileline(): the kernel's line table is "
			   "empty or spans more than 4 GiB");
		free(r);
		return -1;
	}
	strbuf_add(o, "/* the kernel's line table (klines_gen.c) */\n"
		   "static const u32 stp_klines_ck[] = {\n");
	for (i = 0; i < n; i++) {
		if (i % EVERY == 0) {
			strbuf_printf(o, "%llu,%zu,%u,%u,\n",
				      (unsigned long long)(r[i].addr - r[0].addr),
				      st.len, r[i].line, r[i].file);
			continue;
		}
		put_uleb(&st, r[i].addr - r[i - 1].addr);
		put_sleb(&st, 2 * ((int64_t)r[i].line - r[i - 1].line) +
			 (r[i].file != r[i - 1].file));
		if (r[i].file != r[i - 1].file)
			put_uleb(&st, r[i].file);
	}
	strbuf_add(o, "};\nstatic const u8 stp_klines_stream[] =\n");
	emit_bytes(o, (const unsigned char *)strbuf_str(&st), st.len);
	strbuf_add(o, ";\nstatic const u32 stp_klines_src_off[] = {\n");
	for (i = 0; i < files.n; i++) {
		strbuf_printf(o, "%zu,\n", pos);
		pos += strlen(files.items[i]) + 1;
	}
	strbuf_add(o, "0};\nstatic const char stp_klines_srcs[] =\n");
	for (i = 0; i < files.n; i++) {
		char *q = c_quote(files.items[i], strlen(files.items[i]));
		strbuf_printf(o, "%.*s\\0\"\n", (int)strlen(q) - 1, q);
		free(q);
		free(files.items[i]);
	}
	strbuf_printf(o, "\"\";\nstatic const struct stp_klines_desc "
		      "stp_klines = {\n\t.base = %#llxULL, .anchor = %#llxULL,"
		      "\n\t.stream = stp_klines_stream, .ck = stp_klines_ck, "
		      ".nck = %ld, .nrows = %ld,\n\t.srcs = stp_klines_srcs, "
		      ".src_off = stp_klines_src_off, .nsrcs = %d,\n};\n",
		      (unsigned long long)r[0].addr,
		      (unsigned long long)anchor, (n + EVERY - 1) / EVERY, n,
		      files.n);
	if (stp_verbose)
		fprintf(stderr, "stap: the kernel's line table: %ld rows, %d "
			"files, %zu bytes\n", n, files.n, st.len);
	free(strbuf_detach(&st));
	free(files.items);
	free(r);
	return 1;
}
