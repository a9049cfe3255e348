/* pch.h - a precompiled header of the kernel and runtime headers for the
 * fast path's compiles (pch.c), inside build/: fastbuild.c uses it. */
#ifndef STP_PCH_H
#define STP_PCH_H

#include "session.h"

/* The compile commands of a recipe rewritten to use the precompiled
 * header.  Strings keep the recipe's @DIR@ and @MOD@ placeholders. */
struct pch_plan {
	char *header;       /* the text of CACHE/stp_pch.h */
	char *cc_script;    /* gen/script.c with the header (+ the recipe's
	                     * objtool step) */
	char *cc_mod;       /* NAME.mod.c with the header, or NULL when the
	                     * recipe's NAME.mod.c flags differ */
	char *cc_pch;       /* compiles stp_pch.h into the .gch */
	char *defines;      /* the per-file -D macros as #define lines, with
	                     * @BASE@ for KBUILD_BASENAME's value */
};

/* pch_plan_make - derive @p from the recorded commands @cc_script and
 * @cc_mod (placeholders kept), NAME.mod.c's recorded @modc_head, the
 * kernel build tree @kbuild (the commands' working directory) and the
 * runtime cache directory @cache.  Returns 0, or -1 when a command is
 * not of the shape kbuild writes (then the plain commands are used). */
int pch_plan_make(struct pch_plan *p, const char *cc_script,
		  const char *cc_mod, const char *modc_head,
		  const char *kbuild, const char *cache);

void pch_plan_free(struct pch_plan *p);

/* pch_ready - 1 if @cache holds the compiled header, else 0. */
int pch_ready(const char *cache);

/* pch_touch - mark @cache's header as just used (its modification time:
 * pch_build keeps the PCH_KEEP most recently used of all caches). */
void pch_touch(const char *cache);

/* pch_write_defines - write @dir/gen/@file (PCH_NAMES_SCRIPT or
 * PCH_NAMES_MOD, which @p's commands include): @p's per-file macros for
 * module @mod, KBUILD_BASENAME being "@base" (@base may contain @MOD@).
 * Returns its path (heap) or NULL. */
#define PCH_NAMES_SCRIPT "stp_names_script.h"
#define PCH_NAMES_MOD "stp_names_mod.h"
char *pch_write_defines(const struct pch_plan *p, const char *dir,
			const char *mod, const char *base, const char *file);

/* pch_build - compile @p's header into @cache/stp_pch.h.gch with the
 * runtime headers of @rtdir (a directory of .h files) in the kernel
 * build tree @kbuild.  STAP_PCH=wait: here and now; otherwise in a
 * detached background process so that no stap waits for it (the next
 * build uses it once it is there).  At most one build at a time per
 * cache (a lock file); a failed build is not retried (stp_pch.failed).
 * Makes room first: of all the runtime caches beside @cache, only the
 * most recently used headers are kept (three in all, ~45 MB each).
 * Only errors of the foreground build are reported (-vv). */
void pch_build(const struct pch_plan *p, const char *cache, const char *rtdir,
	       const char *kbuild);

#endif
