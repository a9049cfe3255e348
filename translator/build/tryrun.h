/* tryrun.h - pass 4: kbuild's compiler checks, two processes fewer each
 * (tryrun.c). */
#ifndef STP_TRYRUN_H
#define STP_TRYRUN_H

#include "util.h"

/* kbuild_tryrun_vars - when the kernel build tree @build defines kbuild's
 * try-run exactly as tryrun.c expects, make the directory @dir/.tmp_1 and
 * append to @argv the make variables (heap strings, the caller frees them)
 * TMPOUT=@dir/.tmp_1 and a try-run without mkdir and rm.  Returns the
 * number appended: 2, or 0 (another definition, none, or no directory),
 * and then make keeps kbuild's own.  Reads two small files; no locks. */
int kbuild_tryrun_vars(const char *build, const char *dir, struct vec *argv);

#endif
