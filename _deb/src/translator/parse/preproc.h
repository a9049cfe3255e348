/* preproc.h - the token-level preprocessor of pass 1: conditionals
 *   %( CONDITION %? TOKENS [%: TOKENS] %)
 * and macros
 *   @define NAME %( BODY %)      @define NAME(a, b) %( ... @a ... %)
 * invoked as @NAME or @NAME(args).
 */
#ifndef STP_PREPROC_H
#define STP_PREPROC_H

#include "lexer.h"
#include "parse.h"

/* preprocess: copy the tokens of 'in' (ending with T_EOF) to 'out',
 * resolving conditionals against *cfg (argc/argv are the script
 * arguments, for $#, @# and $N/@N in conditions) and expanding macros.  A
 * file sees the macros it defines and those of the tapset library's macro
 * files (kept by preproc_keep_macros); its own shadow the library's.
 * Returns 0, or -1 after reporting errors with diag_error. */
int preprocess(const struct tokvec *in, struct tokvec *out, int argc,
	       char **argv, const struct pp_config *cfg);

/* preproc_keep_macros: make every macro of the last preprocessed file
 * visible to every later file (the tapset library's *.stpm files). */
void preproc_keep_macros(void);

/* preproc_reset: forget every macro defined so far (their memory is not
 * freed; the fuzz harness frees it). */
void preproc_reset(void);

/* pp_config_defaults: fill the NULL fields of *cfg with defaults taken
 * from uname(2) ("kernel" runtime, config read from /boot/config-REL). */
void pp_config_defaults(struct pp_config *cfg);

#endif
