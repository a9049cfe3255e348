/* fastbuild.h - pass 4 from kbuild's recorded commands (fastbuild.c),
 * inside build/: kbuild.c tries it before running make. */
#ifndef STP_FASTBUILD_H
#define STP_FASTBUILD_H

#include "session.h"

/* fastbuild_module - build s->module_name.ko in s->tmpdir (whose
 * gen/script.c is written) from the commands recorded in runtime cache
 * directory @cache, linking the @nobjs runtime objects @rt_objs (paths).
 * Returns 0 with *@ko set (heap), or 1 when the fast path cannot vouch
 * for this build (no recipe yet, a symbol modpost must check, a failed
 * command, STAP_FAST_BUILD=0): the caller runs kbuild, -v says why.
 * Runs the compiler and linker as child processes; not thread-safe. */
int fastbuild_module(struct session *s, const char *cache,
		     const char *const *rt_objs, int nobjs, char **ko);

/* fastbuild_record - after kbuild built module @mod in @dir, record the
 * commands it ran and NAME.mod.c's fixed parts into @cache (once: an
 * existing recipe is kept; written atomically).  Failures only say so
 * with -vv. */
void fastbuild_record(const char *dir, const char *mod, const char *cache);

/* fastbuild_pch - start precompiling the headers of @cache's recorded
 * compiles (pch.h), after kbuild recorded them; s->tmpdir/runtime holds
 * the runtime's headers.  Nothing when they are or cannot be. */
void fastbuild_pch(struct session *s, const char *cache);

/* fastbuild_specialize - recipe text @s with @DIR@ and @MOD@ replaced by
 * @dir and @mod (heap). */
char *fastbuild_specialize(const char *s, const char *dir, const char *mod);

/* fastbuild_run_sh - sh -c @cmd in directory @cwd, its output appended
 * to the file @log; returns its exit status (0: success), -1 when it
 * cannot be run.  Waits for it. */
int fastbuild_run_sh(const char *cmd, const char *cwd, const char *log);

#endif
