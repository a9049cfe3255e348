/* colors.c - see colors.h. */
#include "colors.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the SGR parameters of "ERROR:" and "WARNING:", "" when not colored */
static char sgr[COLOR_NKEYS][COLOR_SGR_MAX];

int colors_valid_when(const char *when)
{
	return !strcmp(when, "always") || !strcmp(when, "auto") ||
	       !strcmp(when, "never");
}

/* sgr_ok - @n bytes of @v are an SGR parameter list: digits and ';' */
static int sgr_ok(const char *v, size_t n)
{
	return n > 0 && n < COLOR_SGR_MAX && strspn(v, "0123456789;") >= n;
}

int colors_parse(const char *spec, char sgr[COLOR_NKEYS][COLOR_SGR_MAX])
{
	static const char *const keys[COLOR_NKEYS] = { "error", "warning",
						       "source", "caret",
						       "token" };
	const char *item = spec;
	size_t k;

	memset(sgr, 0, COLOR_NKEYS * COLOR_SGR_MAX);
	if (!*spec)
		return -1;
	while (*item) {
		size_t len = strcspn(item, ":"), klen;
		const char *eq = memchr(item, '=', len);

		if (!eq)
			goto bad;
		klen = eq - item;
		for (k = 0; k < COLOR_NKEYS; k++)
			if (strlen(keys[k]) == klen &&
			    !strncmp(keys[k], item, klen))
				break;
		if (k == COLOR_NKEYS || !sgr_ok(eq + 1, len - klen - 1))
			goto bad;
		snprintf(sgr[k], COLOR_SGR_MAX, "%.*s", (int)(len - klen - 1),
			 eq + 1);
		item += len + (item[len] == ':');
	}
	return 0;
bad:
	memset(sgr, 0, COLOR_NKEYS * COLOR_SGR_MAX);
	return -1;
}

int colors_setup(const char *when)
{
	const char *term = getenv("TERM"), *spec;
	int on;

	if (!when)
		when = "auto";
	if (!colors_valid_when(when))
		return -1;
	on = !strcmp(when, "always") ||
	     (!strcmp(when, "auto") && isatty(2) && term &&
	      strcmp(term, "dumb"));
	memset(sgr, 0, sizeof(sgr));
	if (!on)
		return 0;
	spec = getenv("SYSTEMTAP_COLORS");
	colors_parse(spec ? spec : "error=01;31:warning=00;33", sgr);
	return 0;
}

void colors_write(FILE *f, const char *text, size_t len)
{
	while (len) {
		const char *nl = memchr(text, '\n', len);
		size_t line = nl ? (size_t)(nl - text) + 1 : len, w = 0;
		const char *c = NULL;

		if (line >= 6 && !memcmp(text, "ERROR:", 6))
			c = sgr[COLOR_ERROR], w = 6;
		else if (line >= 8 && !memcmp(text, "WARNING:", 8))
			c = sgr[COLOR_WARNING], w = 8;
		if (c && *c) {
			fprintf(f, "\033[%sm\033[K%.*s\033[m\033[K", c,
				(int)w, text);
			fwrite(text + w, 1, line - w, f);
		} else {
			fwrite(text, 1, line, f);
		}
		text += line;
		len -= line;
	}
}
