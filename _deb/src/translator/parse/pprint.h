/* pprint.h - print a parsed script back as text (stap -p1). */
#ifndef STP_PPRINT_H
#define STP_PPRINT_H

#include "ast.h"

/* pprint_file: append the whole of f to out: embedded C blocks, globals,
 * functions, probe aliases, then probes, with 2-space indentation.  The
 * output parses back to an identical tree (pass-2 fields ignored). */
void pprint_file(struct strbuf *out, const struct stapfile *f);

/* pprint_expr: append e to out; a top-level expression (top != 0) is not
 * parenthesised, nested compound ones are. */
void pprint_expr(struct strbuf *out, const struct expr *e, int top);

/* pprint_stmt: append s to out at indentation level 'indent' (2 spaces
 * each), ending with a newline. */
void pprint_stmt(struct strbuf *out, const struct stmt *s, int indent);

/* pprint_string: append the n bytes of s as a double-quoted string
 * literal, escaping quotes, backslashes and non-printable bytes. */
void pprint_string(struct strbuf *out, const char *s, size_t n);

#endif
