/* kbuild.h - pass 4: build the module with the kernel's own kbuild. */
#ifndef STP_KBUILD_H
#define STP_KBUILD_H

#include "session.h"

/* kbuild_dir_for - the kbuild directory for @release: @release itself when
 * it names a directory (a build tree), else /lib/modules/RELEASE/build.
 * Returns a heap string; does not check that it exists. */
char *kbuild_dir_for(const char *release);

/* kbuild_release_of - the kernel release a build tree was made for (its
 * include/config/kernel.release), heap; NULL if unknown. */
char *kbuild_release_of(const char *build_dir);

/* kbuild_compiler_id - what identifies the compiler kbuild runs for the
 * build tree @build: the command its .config's CONFIG_CC_VERSION_TEXT
 * names (its first word; "clang" for clang, "gcc" without the line),
 * found on $PATH, with its resolved path, size, modification time and
 * inode, so that an upgraded or another compiler differs.  Heap string;
 * "NAME (not found)" when it is not on $PATH. */
char *kbuild_compiler_id(const char *build);

/* kbuild_module - write @csource as the module's generated C in s->tmpdir,
 * add the runtime, and run `make -C KBUILD M=TMPDIR modules`.  On success
 * returns 0 and sets *ko to the path of TMPDIR/NAME.ko (heap).  On failure
 * prints the compiler's output and a one-line reason, returns -1. */
int kbuild_module(struct session *s, const char *csource, char **ko);

#endif
