/* parse.h - pass 1, the whole interface: parse a script or tapset.
 *
 * In:  script text (a file, stap -e, the tapset library's files), the
 *      script arguments and the facts preprocessor conditions test.
 * Out: a struct stapfile per file (ast.h): globals, functions, probes
 *      and aliases, every node with its source location.  Also the
 *      sub-languages later passes read from string literals: printf
 *      formats (printf_fmt.h) and regular expressions (regex_comp.h); the
 *      AST printer (pprint.h) and the tapset library loader (tapsets.h).
 */
#ifndef STP_PARSE_H
#define STP_PARSE_H

#include "ast.h"
#include "pprint.h"
#include "printf_fmt.h"
#include "regex_comp.h"
#include "tapsets.h"

/* parse_script: lex, preprocess and parse 'text', the contents of
 * 'filename' ("<input>" for stap -e).  The text is registered with
 * source_register so that diagnostics can quote it; it must stay alive.
 * is_tapset is stored in the result.
 * Returns the parsed file, or NULL after printing one or more
 * diagnostics with diag_error (the caller decides the exit status). */
struct stapfile *parse_script(const char *filename, const char *text,
			      int is_tapset);

/* parse_set_args: remember the script's command-line arguments, used to
 * expand $1..$N (as numbers) and @1..@N (as strings), $# and @# (their
 * count).  argv is kept, not copied.  Returns 0. */
int parse_set_args(int argc, char **argv);

/* Facts the %( ... %? ... %: ... %) preprocessor conditions test.  Any
 * NULL field gets a default (from uname(2), or /boot/config-RELEASE for
 * CONFIG_* lookups). */
struct pp_config {
	const char *kernel_release;   /* kernel_vr, e.g. "6.1.0-18-amd64";
	                               * kernel_v is its numeric prefix */
	const char *arch;             /* e.g. "x86_64", "arm64", "i386" */
	const char *runtime;          /* "kernel" by default */
	const char *stap_version;     /* systemtap_v, default "5.0" */
	const char *privilege;        /* systemtap_privilege, "stapdev" */
	int guru_mode;                /* guru_mode */
	/* config_lookup: the value of a CONFIG_* option ("y", "m", a
	 * string or number) or NULL if unset.  data is passed along. */
	const char *(*config_lookup)(const char *name, void *data);
	void *config_data;
};

/* parse_set_config: use *cfg (copied) for later preprocessor
 * conditions.  Passing NULL restores the defaults. */
void parse_set_config(const struct pp_config *cfg);

#endif
