/* colors.c - see colors.h. */
#include "colors.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the SGR parameters of "ERROR:" and "WARNING:", "" when not colored */
static char sgr_error[32], sgr_warning[32];

int colors_valid_when(const char *when)
{
	return !strcmp(when, "always") || !strcmp(when, "auto") ||
	       !strcmp(when, "never");
}

/* sgr_ok - @n bytes of @v are an SGR parameter list: digits and ';' */
static int sgr_ok(const char *v, size_t n)
{
	return n > 0 && n < sizeof(sgr_error) && strspn(v, "0123456789;") >= n;
}

/* parse_spec - fill the two colors from "key=SGR:key=SGR..."; -1 when
 * a key is unknown or a value not an SGR list (then no colors). */
static int parse_spec(const char *spec)
{
	static const char *const keys[] = { "error", "warning", "source",
					    "caret", "token" };
	char err[32] = "", warn[32] = "";
	const char *item = spec;

	if (!*spec)
		return -1;
	while (*item) {
		size_t len = strcspn(item, ":"), klen, k;
		const char *eq = memchr(item, '=', len);

		if (!eq)
			return -1;
		klen = eq - item;
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (strlen(keys[k]) == klen &&
			    !strncmp(keys[k], item, klen))
				break;
		if (k == sizeof(keys) / sizeof(keys[0]) ||
		    !sgr_ok(eq + 1, len - klen - 1))
			return -1;
		if (k <= 1)
			snprintf(k ? warn : err, sizeof(err), "%.*s",
				 (int)(len - klen - 1), eq + 1);
		item += len + (item[len] == ':');
	}
	memcpy(sgr_error, err, sizeof(err));
	memcpy(sgr_warning, warn, sizeof(warn));
	return 0;
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
	sgr_error[0] = sgr_warning[0] = 0;
	if (!on)
		return 0;
	spec = getenv("SYSTEMTAP_COLORS");
	if (!spec)
		spec = "error=01;31:warning=00;33";
	if (parse_spec(spec) < 0)
		sgr_error[0] = sgr_warning[0] = 0;
	return 0;
}

void colors_write(FILE *f, const char *text, size_t len)
{
	while (len) {
		const char *nl = memchr(text, '\n', len);
		size_t line = nl ? (size_t)(nl - text) + 1 : len, w = 0;
		const char *sgr = NULL;

		if (line >= 6 && !memcmp(text, "ERROR:", 6))
			sgr = sgr_error, w = 6;
		else if (line >= 8 && !memcmp(text, "WARNING:", 8))
			sgr = sgr_warning, w = 8;
		if (sgr && *sgr) {
			fprintf(f, "\033[%sm\033[K%.*s\033[m\033[K", sgr,
				(int)w, text);
			fwrite(text + w, 1, line - w, f);
		} else {
			fwrite(text, 1, line, f);
		}
		text += line;
		len -= line;
	}
}
