/* build.h - pass 4, the whole interface: build the module and keep it.
 *
 * In:  the module's C source (pass 3) and the session's kernel, options
 *      and script identity.
 * Out: a kernel module (.ko) built with the kernel's kbuild (kbuild.h),
 *      stored in and found again in the module cache (cache.h).
 */
#ifndef STP_BUILD_H
#define STP_BUILD_H

#include "cache.h"
#include "kbuild.h"

#endif
