/* share.c - one C handler for the probe points whose bodies generate the
 * same code.
 *
 * A wildcard through an alias (`syscall.*.return`) gives one probe per
 * point, each with its alias's body; once the locals the script does not
 * read are pruned, those bodies usually generate identical C.  Instead of
 * a C function per point, the first handler of each distinct text is
 * emitted and the others' entries in the probe table point at it: the
 * table of probe descriptors carries what differs (symbol, pp, location).
 *
 * Two handlers are the same when their text is identical once the
 * handler's own name is replaced by a placeholder and the column-0
 * comment lines (which name the probe point) are dropped.
 */
#include "codegen_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct share_ent {
	char *canon;                 /* the text, normalized */
	char *name;                  /* the handler emitted for it */
	unsigned long hash;
};

static struct share_ent *ents;
static int nents, cap_ents;

struct share_alias {
	char *name, *to;
};
static struct share_alias *aliases;
static int naliases, cap_aliases;

static int ident_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		(ch >= '0' && ch <= '9') || ch == '_';
}

/* canon - @text without its column-0 comment lines, with handler @name
 * (as a token not followed by a digit) replaced by "@H" (heap). */
static char *canon(const char *text, const char *name)
{
	struct strbuf b = {0};
	size_t nl = strlen(name);
	const char *p = text;
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p + 1) : strlen(p);
		if (len >= 2 && p[0] == '/' && p[1] == '*' &&
		    len >= 4 && p[len - (eol ? 2 : 1)] == '/' &&
		    p[len - (eol ? 3 : 2)] == '*') {
			p += len;       /* a one-line comment */
			continue;
		}
		while (len) {
			if (len >= nl && !strncmp(p, name, nl) &&
			    (p == text || !ident_char(p[-1])) &&
			    !(p[nl] >= '0' && p[nl] <= '9')) {
				strbuf_add(&b, "@H");
				p += nl;
				len -= nl;
				continue;
			}
			strbuf_addc(&b, *p++);
			len--;
		}
	}
	return strbuf_detach(&b);
}

static unsigned long hash_str(const char *s)
{
	unsigned long h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

const char *share_handler(const char *text, const char *name)
{
	char *c = canon(text, name);
	unsigned long h = hash_str(c);
	int i;
	for (i = 0; i < nents; i++)
		if (ents[i].hash == h && !strcmp(ents[i].canon, c)) {
			free(c);
			if (naliases == cap_aliases) {
				cap_aliases = cap_aliases ? 2 * cap_aliases : 64;
				aliases = realloc(aliases, cap_aliases *
						  sizeof(*aliases));
				if (!aliases)
					abort();
			}
			aliases[naliases].name = xstrdup(name);
			aliases[naliases].to = ents[i].name;
			naliases++;
			return ents[i].name;
		}
	if (nents == cap_ents) {
		cap_ents = cap_ents ? 2 * cap_ents : 64;
		ents = realloc(ents, cap_ents * sizeof(*ents));
		if (!ents)
			abort();
	}
	ents[nents].canon = c;
	ents[nents].name = xstrdup(name);
	ents[nents].hash = h;
	nents++;
	return NULL;
}

char *share_resolve(char *name)
{
	int i;
	for (i = 0; i < naliases; i++)
		if (!strcmp(aliases[i].name, name)) {
			free(name);
			return xstrdup(aliases[i].to);
		}
	return name;
}

int share_count(void)
{
	return nents;
}

/* used - whether @body names frame field @field as a whole token. */
static int used(const char *body, const char *field)
{
	size_t n = strlen(field);
	const char *p = body;
	while ((p = strstr(p, field))) {
		if (!ident_char(p[n]))
			return 1;       /* (conservative: any such text) */
		p += n;
	}
	return 0;
}

int frame_used_locals(struct strbuf *frame, struct vec *v, const char *body)
{
	int i, n = 0;
	for (i = 0; i < v->n; i++) {
		struct sym *y = v->items[i];
		char *name = xasprintf("l_%s", y->name);
		char *ref = xasprintf("f->%s", name);
		/* a local the body never names is never read: no field, and
		 * nothing to zero on each hit */
		if (used(body, ref)) {
			char *d = frame_decl(y, name);
			strbuf_printf(frame, "\t%s;\n", d);
			free(d);
			n++;
		}
		free(ref);
		free(name);
	}
	return n;
}

int names_frame(const char *body)
{
	const char *p;
	for (p = body; *p; p++)
		if (*p == 'f' && (p == body || !ident_char(p[-1])) &&
		    !ident_char(p[1]))
			return 1;
	return 0;
}

/* starts - whether @p starts with @s */
static int starts(const char *p, const char *s)
{
	return !strncmp(p, s, strlen(s));
}

/* skip_literal - if @p starts a C string or character literal or a
 * comment, its last character (NULL when it does not end); else @p */
static const char *skip_literal(const char *p)
{
	if (*p == '"' || *p == '\'') {
		char q = *p;
		for (p++; *p && *p != q; p++)
			if (*p == '\\' && p[1])
				p++;
		return *p ? p : NULL;
	}
	if (starts(p, "/*")) {
		const char *e = strstr(p + 2, "*/");
		return e ? e + 1 : NULL;
	}
	return p;
}

#define ACTION_CALL "stp_action(c, "

int light_body(const char *body)
{
	const char *p, *q;
	for (p = body; *p; p++) {
		if ((q = skip_literal(p)) != p) {
			if (!q)
				return 0;
			p = q;
			continue;
		}
		if (*p != 'c' || (p > body && ident_char(p[-1])) ||
		    ident_char(p[1]))
			continue;
		/* the context: counting statements, recording or testing
		 * an error, nothing else */
		if ((p - body >= 11 && starts(p - 11, ACTION_CALL)) ||
		    (p - body >= 10 && starts(p - 10, "stp_error(c, ")) ||
		    (starts(p, "c->error") && !ident_char(p[8])))
			continue;
		return 0;
	}
	return 1;
}

#define ACTION_IN "stp_action_in(c, &actions, "

long light_statements(const char *body)
{
	const char *p, *q;
	long n = 0;
	for (p = body; *p; p++) {
		if ((q = skip_literal(p)) != p) {
			if (!q)
				return -1;
			p = q;
			continue;
		}
		if (p > body && ident_char(p[-1]))
			continue;
		if (starts(p, "stp_error(c, ") ||
		    (starts(p, "c->error") && !ident_char(p[8])))
			return -1;
		if (starts(p, ACTION_IN)) {
			char *end;
			long k = strtol(p + strlen(ACTION_IN), &end, 10);
			if (end == p + strlen(ACTION_IN) || *end != ',' ||
			    k < 0 || n > LONG_MAX - k)
				return -1;
			n += k;
			p = end;
		}
	}
	return n;
}

const char *hit_mode(const struct derived_probe *d)
{
	static char buf[80];
	if (!d->light)
		return "0";
	if (!d->light_bound)
		return "STP_HIT_LIGHT";
	snprintf(buf, sizeof(buf), "STP_HIT_LIGHT | "
		 "(%d <= MAXACTION ? STP_HIT_NOERR : 0)", d->light_bound - 1);
	return buf;
}

void light_actions(struct strbuf *body)
{
	char *text = strbuf_detach(body);
	const char *p, *q;
	for (p = text; *p; p++) {
		if ((q = skip_literal(p)) != p) {
			q = q ? q : p + strlen(p) - 1;
			strbuf_addn(body, p, q - p + 1);
			p = q;
		} else if (starts(p, ACTION_CALL) &&
			   (p == text || !ident_char(p[-1]))) {
			strbuf_add(body, ACTION_IN);
			p += strlen(ACTION_CALL) - 1;
		} else {
			strbuf_addc(body, *p);
		}
	}
	free(text);
}
