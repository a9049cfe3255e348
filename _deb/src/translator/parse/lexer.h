/* lexer.h - the tokenizer of pass 1.
 *
 * A whole file is turned into an array of tokens at once; the
 * preprocessor (preproc.c) and the parser (parse.c) then work on arrays,
 * which gives them unlimited look-ahead.
 */
#ifndef STP_LEXER_H
#define STP_LEXER_H

#include <stdint.h>
#include "util.h"

enum tok_type {
	T_EOF,
	T_IDENT,     /* names and keywords; also "$foo", "$$vars$", "@count" */
	T_NUM,       /* unum holds the value (64-bit, unsigned) */
	T_STR,       /* text/len: the unescaped bytes */
	T_OP,        /* text: the operator ("<<<", "%(", "$#", ...) */
	T_EMBEDDED,  /* %{ ... %}: text is the raw code between the markers */
	T_ARG,       /* $N or @N: num is N, text is "$N" / "@N" */
};

struct token {
	enum tok_type type;
	const char *text;      /* NUL-terminated (T_STR may contain NULs) */
	size_t len;            /* length of text */
	uint64_t unum;         /* T_NUM value, T_ARG number */
	struct source_loc loc;
	int off, end;          /* byte offsets of the token in its file */
};

/* A growable array of tokens (by value).  Zero-initialise before use. */
struct tokvec {
	struct token *t;
	int n, cap;
};
/* tokvec_push: append a copy of *t. */
void tokvec_push(struct tokvec *v, const struct token *t);

/* lex_file: tokenize 'text' (the contents of 'file'), appending the
 * tokens to out, always ending with one T_EOF token.  Returns 0 on
 * success, or -1 after reporting lexical errors (unterminated strings or
 * comments, bad characters, number overflow) with diag_error; tokens
 * are still appended up to the point of each error. */
int lex_file(const char *file, const char *text, struct tokvec *out);

/* tok_is: 1 if t is an operator or identifier token with exactly this
 * text, else 0. */
int tok_is(const struct token *t, const char *s);

/* tok_describe: a short human description of t for error messages, e.g.
 * "'}'", "identifier 'foo'", "number 12", "string \"x\"", "end of input".
 * Returns a new heap string. */
char *tok_describe(const struct token *t);

#endif
