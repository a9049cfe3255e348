/* kcaps.h - pass 4: what the target kernel offers, asked by compiling
 * the probes of runtime/kcaps/ (kcaps.c), inside build/: kbuild.c uses it.
 *
 * The first kbuild run for a kernel (a cold runtime cache) compiles every
 * probe in one -fsyntax-only run of the kernel's compiler with kbuild's own
 * flags, before the runtime, and writes runtime/KCAPS_FOUND (#define
 * STP_HAVE_NAME 1 for each probe that compiled), which the runtime reads
 * (runtime/stp_kcaps.h) and the runtime cache keeps beside its objects.
 */
#ifndef STP_KCAPS_H
#define STP_KCAPS_H

#include "session.h"

#define KCAPS_FOUND "stp_kcaps_found.h"   /* the answers (generated) */
#define KCAPS_PROBES "stp_kcaps_probes.c" /* every probe, one file */
#define KCAPS_AWK "stp_kcaps.awk"         /* gcc's messages -> answers */
#define KCAPS_LOG "stp_kcaps.log"         /* gcc's messages */

/* kcaps_sources - from the probes in @runtime_dir/kcaps, the text of
 * KCAPS_PROBES (*@probes) and KCAPS_AWK (*@awk), the Kbuild rule (*@rule)
 * that makes $(obj)/runtime/KCAPS_FOUND from them (the caller makes the
 * objects depend on it), and in *@poison every macro through which the
 * runtime learns what the kernel offers: STP_HAVE_NAME of each probe and
 * each macro @runtime_dir/stp_kcaps.h defines, each after a space (the
 * runtime's files that use none compile before the probes have run, with
 * these names poisoned: kbuild.c's runtime units).  All heap strings.
 * Returns the number of probes (0: none, nothing set), or -1 with a
 * message. */
int kcaps_sources(const char *runtime_dir, char **probes, char **awk,
		  char **rule, char **poison);

/* kcaps_check - whether the kernel whose answers are the text @found
 * (KCAPS_FOUND; NULL: unknown, nothing is checked) offers what the
 * session's probes need (the "@serves FEATURE/PART" lines of the probes in
 * s->runtime_dir/kcaps).  Returns 0, or -1 after one message on stderr
 * naming what is missing, the kernel and the kernel lines known to work;
 * @compiler_failed adds that -v shows the compiler's messages. */
int kcaps_check(struct session *s, const char *found, int compiler_failed);

#endif
