/* lexer.c - turn a script or tapset file into tokens. */
#include <ctype.h>
#include <string.h>
#include "lexer.h"

void tokvec_push(struct tokvec *v, const struct token *t)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 64;
		v->t = xrealloc(v->t, (size_t)v->cap * sizeof(*v->t));
	}
	v->t[v->n++] = *t;
}

int tok_is(const struct token *t, const char *s)
{
	/* the first byte first: most tokens differ there (pass 1 asks
	 * this of every token of every tapset) */
	return (t->type == T_OP || t->type == T_IDENT) &&
	       t->text[0] == s[0] && strcmp(t->text, s) == 0;
}

char *tok_describe(const struct token *t)
{
	switch (t->type) {
	case T_EOF: return xstrdup("end of input");
	case T_IDENT: return xasprintf("'%s'", t->text);
	case T_NUM: return xasprintf("number %llu", (unsigned long long)t->unum);
	case T_STR: return xasprintf("string \"%.20s%s\"", t->text,
				     t->len > 20 ? "..." : "");
	case T_OP: return xasprintf("'%s'", t->text);
	case T_EMBEDDED: return xstrdup("embedded code '%{'");
	case T_ARG: return xasprintf("'%s'", t->text);
	}
	return xstrdup("?");
}

/* Lexer state over one file. */
struct lexer {
	const char *file, *text;
	int pos, line, col;
	int errors;
	struct tokvec *out;
};

static int peekc(struct lexer *lx, int k)
{
	int i;
	for (i = 0; i < k; i++)
		if (!lx->text[lx->pos + i])
			return 0;
	return (unsigned char)lx->text[lx->pos + k];
}

static void advance(struct lexer *lx)
{
	if (!lx->text[lx->pos])
		return;
	if (lx->text[lx->pos] == '\n') {
		lx->line++;
		lx->col = 1;
	} else {
		lx->col++;
	}
	lx->pos++;
}

static void lex_error(struct lexer *lx, struct source_loc *loc,
		      const char *msg)
{
	diag_error(loc, "%s", msg);
	lx->errors++;
}

static const char *const ops[] = {
	"<<<", "<<=", ">>=",
	"==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=", "*=",
	"/=", "%=", "&=", "|=", "^=", ".=", "<<", ">>", "->", "=~", "!~",
	"%(", "%?", "%:", "%)", "$#", "@#",
	"+", "-", "*", "/", "%", "<", ">", "=", "!", "~", "&", "|", "^",
	".", "?", ":", ",", ";", "(", ")", "{", "}", "[", "]",
	NULL,
};

/* Parse a string literal starting at the opening quote. */
static void lex_string(struct lexer *lx, struct token *t)
{
	struct strbuf b = { 0 };
	advance(lx);
	for (;;) {
		int c = peekc(lx, 0);
		if (c == 0 || c == '\n') {
			lex_error(lx, &t->loc, "unterminated string literal");
			break;
		}
		if (c == '"') {
			advance(lx);
			break;
		}
		if (c != '\\') {
			strbuf_addc(&b, (char)c);
			advance(lx);
			continue;
		}
		advance(lx);
		c = peekc(lx, 0);
		switch (c) {
		case 'n': strbuf_addc(&b, '\n'); advance(lx); break;
		case 't': strbuf_addc(&b, '\t'); advance(lx); break;
		case 'r': strbuf_addc(&b, '\r'); advance(lx); break;
		case 'a': strbuf_addc(&b, '\a'); advance(lx); break;
		case 'b': strbuf_addc(&b, '\b'); advance(lx); break;
		case 'f': strbuf_addc(&b, '\f'); advance(lx); break;
		case 'v': strbuf_addc(&b, '\v'); advance(lx); break;
		case '\\': case '"': case '\'': case '?':
			strbuf_addc(&b, (char)c); advance(lx); break;
		case '\n':  /* line continuation */
			advance(lx); break;
		case 'x': {
			int v = 0, n = 0;
			advance(lx);
			while (n < 2 && isxdigit(peekc(lx, 0))) {
				int d = peekc(lx, 0);
				v = v * 16 + (isdigit(d) ? d - '0' : tolower(d) - 'a' + 10);
				advance(lx);
				n++;
			}
			if (!n) {
				struct source_loc l = { lx->file, lx->line, lx->col };
				lex_error(lx, &l, "\\x used with no following hex digits");
			}
			strbuf_addn(&b, (char[]){ (char)v }, 1);
			break;
		}
		default:
			if (c >= '0' && c <= '7') {
				int v = 0, n = 0;
				while (n < 3 && peekc(lx, 0) >= '0' && peekc(lx, 0) <= '7') {
					v = v * 8 + peekc(lx, 0) - '0';
					advance(lx);
					n++;
				}
				strbuf_addn(&b, (char[]){ (char)v }, 1);
			} else if (c == 0) {
				/* reported as unterminated on the next loop */
			} else {
				/* unknown escape: keep it (regular expressions) */
				strbuf_addc(&b, '\\');
				strbuf_addc(&b, (char)c);
				advance(lx);
			}
		}
	}
	t->type = T_STR;
	t->len = b.len;
	t->text = strbuf_detach(&b);
}

/* Parse a number: decimal, 0octal or 0xhex; checks 64-bit overflow. */
static void lex_number(struct lexer *lx, struct token *t)
{
	int base = 10, overflow = 0, bad = 0;
	uint64_t v = 0;
	int start = lx->pos;
	if (peekc(lx, 0) == '0' && (peekc(lx, 1) == 'x' || peekc(lx, 1) == 'X')) {
		base = 16;
		advance(lx);
		advance(lx);
		if (!isxdigit(peekc(lx, 0)))
			bad = 1;
	} else if (peekc(lx, 0) == '0') {
		base = 8;
	}
	while (isalnum(peekc(lx, 0)) || peekc(lx, 0) == '_') {
		int c = peekc(lx, 0), d;
		if (isdigit(c))
			d = c - '0';
		else if (isxdigit(c))
			d = tolower(c) - 'a' + 10;
		else
			d = 99;
		if (d >= base)
			bad = 1;
		else if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			overflow = 1;
		else
			v = v * (uint64_t)base + (uint64_t)d;
		advance(lx);
	}
	t->type = T_NUM;
	t->text = xstrndup(lx->text + start, (size_t)(lx->pos - start));
	t->len = strlen(t->text);
	t->unum = v;
	if (bad) {
		diag_error(&t->loc, "malformed number '%s'", t->text);
		lx->errors++;
	} else if (overflow) {
		diag_error(&t->loc, "number '%s' does not fit in 64 bits", t->text);
		lx->errors++;
	}
}

static int ident_start(int c)
{
	return isalpha(c) || c == '_' || c == '$' || c == '@';
}

static int ident_char(int c)
{
	return isalnum(c) || c == '_' || c == '$';
}

int lex_file(const char *file, const char *text, struct tokvec *out)
{
	struct lexer lx = { file, text, 0, 1, 1, 0, out };
	struct token t;
	int want = out->n + (int)(strlen(text) / 5) + 64;

	/* room for the tokens at once (about one per 5 bytes of a tapset)
	 * rather than copies of a growing array */
	if (want > out->cap) {
		out->cap = want;
		out->t = xrealloc(out->t, (size_t)want * sizeof(*out->t));
	}

	for (;;) {
		int c = peekc(&lx, 0);
		memset(&t, 0, sizeof(t));
		t.loc.file = file;
		t.loc.line = lx.line;
		t.loc.col = lx.col;
		t.off = lx.pos;
		if (c == 0) {
			t.type = T_EOF;
			t.text = "";
			t.end = lx.pos;
			tokvec_push(out, &t);
			break;
		}
		if (isspace(c)) {
			advance(&lx);
			continue;
		}
		if (c == '#' || (c == '/' && peekc(&lx, 1) == '/')) {
			while (peekc(&lx, 0) && peekc(&lx, 0) != '\n')
				advance(&lx);
			continue;
		}
		if (c == '/' && peekc(&lx, 1) == '*') {
			advance(&lx);
			advance(&lx);
			while (peekc(&lx, 0) && !(peekc(&lx, 0) == '*' && peekc(&lx, 1) == '/'))
				advance(&lx);
			if (!peekc(&lx, 0)) {
				lex_error(&lx, &t.loc, "unterminated comment");
				continue;
			}
			advance(&lx);
			advance(&lx);
			continue;
		}
		if (c == '%' && peekc(&lx, 1) == '{') {
			int start;
			advance(&lx);
			advance(&lx);
			start = lx.pos;
			while (peekc(&lx, 0) && !(peekc(&lx, 0) == '%' && peekc(&lx, 1) == '}'))
				advance(&lx);
			t.type = T_EMBEDDED;
			t.text = xstrndup(text + start, (size_t)(lx.pos - start));
			t.len = strlen(t.text);
			if (!peekc(&lx, 0)) {
				lex_error(&lx, &t.loc, "unterminated embedded code: missing '%}'");
			} else {
				advance(&lx);
				advance(&lx);
			}
		} else if (c == '"') {
			lex_string(&lx, &t);
		} else if (isdigit(c)) {
			lex_number(&lx, &t);
		} else if ((c == '$' || c == '@') && isdigit(peekc(&lx, 1))) {
			int start = lx.pos;
			uint64_t n = 0;
			advance(&lx);
			while (isdigit(peekc(&lx, 0))) {
				if (n < 100000000)
					n = n * 10 + (uint64_t)(peekc(&lx, 0) - '0');
				advance(&lx);
			}
			t.type = T_ARG;
			t.unum = n;
			t.text = xstrndup(text + start, (size_t)(lx.pos - start));
			t.len = strlen(t.text);
		} else if (ident_start(c) && !((c == '$' || c == '@') && peekc(&lx, 1) == '#')) {
			int start = lx.pos;
			advance(&lx);
			while (ident_char(peekc(&lx, 0)))
				advance(&lx);
			t.type = T_IDENT;
			t.text = xstrndup(text + start, (size_t)(lx.pos - start));
			t.len = strlen(t.text);
		} else {
			int i;
			for (i = 0; ops[i]; i++) {
				size_t n;
				if (ops[i][0] != c)
					continue;
				n = strlen(ops[i]);
				if (strncmp(text + lx.pos, ops[i], n) == 0)
					break;
			}
			if (!ops[i]) {
				diag_error(&t.loc, isprint(c) ? "unexpected character '%c'"
					   : "unexpected character (byte %d)", c);
				lx.errors++;
				advance(&lx);
				continue;
			}
			t.type = T_OP;
			t.text = ops[i];
			t.len = strlen(ops[i]);
			for (size_t k = 0; k < t.len; k++)
				advance(&lx);
		}
		t.end = lx.pos;
		tokvec_push(out, &t);
	}
	return lx.errors ? -1 : 0;
}
