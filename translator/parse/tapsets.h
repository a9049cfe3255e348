/* tapsets.h - finding and parsing the tapset library (pass 1). */
#ifndef STP_TAPSETS_H
#define STP_TAPSETS_H

#include "session.h"

/* load_tapsets - parse the tapset files (*.stp) of s->tapset_dir and of
 * each -I directory, with their linux/, ARCH/ and linux/ARCH/
 * subdirectories, into s->library.  Files that do not parse are left out
 * quietly (their path and text go to s->broken_tapsets, see
 * tapset_explain_missing).  Returns 0, or -1 when the tapset directory
 * is missing. */
int load_tapsets(struct session *s);

/* load_tapset_macros - preprocess the macro files (*.stpm) of the same
 * directories, in the same order, keeping their @define macros for every
 * file parsed later (the user's script and the *.stp tapsets).  Call it
 * before parsing the script; later calls do nothing.  A macro file that
 * does not parse is left out (its errors shown with -vv). */
void load_tapset_macros(struct session *s);

/* tapset_files - the paths (heap) of every file load_tapset_macros and
 * load_tapsets would read, in their order, onto @paths: for the module
 * cache's key before pass 1 (build/cache.c). */
void tapset_files(struct session *s, struct vec *paths);

/* tapset_explain_missing - after an error for the missing function or
 * probe alias @name (@what is "function" or "probe"), look for it in the
 * tapset files left out because they do not parse; for each that seems
 * to define it, print a note and that file's parse errors.  Without -g,
 * also a note for each tapset that defines it in guru mode only.  Returns
 * the number of such files. */
int tapset_explain_missing(struct session *s, const char *what,
			   const char *name);

#endif
