/* stp_kcaps.h - what the target kernel offers: the one place where the
 * runtime learns how this kernel differs from others.
 *
 * Each STP_HAVE_NAME is defined (to 1) when the probe runtime/kcaps/NAME.c
 * compiled against this kernel's headers: stap compiles them all on its
 * first build for a kernel and keeps the answers, stp_kcaps_found.h, with
 * that kernel's runtime objects (translator/build/kcaps.c).  The runtime
 * tests these names, never a kernel version; where kernels differ, the
 * alternatives stand side by side in the one file that uses them.  What
 * each capability means, and on which kernels it holds, is said at the top
 * of its probe file.  Probes marked "@serves FEATURE/PART" are those a
 * script's probes need: when none serving a part compiled, pass 4 stops
 * with a message naming the part instead of compiling.
 *
 * Adding a difference: runtime/kcaps/NAME.c, and #ifdef STP_HAVE_NAME
 * where it is used (runtime/kcaps/README).
 */
#ifndef STP_KCAPS_H
#define STP_KCAPS_H

#include "stp_kcaps_found.h"

/* file_operations.llseek for a file that cannot seek: no_llseek where the
 * kernel has it; without it (6.12) a NULL llseek refuses seeks. */
#ifdef STP_HAVE_NO_LLSEEK
#define STP_NO_LLSEEK no_llseek
#else
#define STP_NO_LLSEEK NULL
#endif

/* uprobes can be registered: the consumer's shape and one of the
 * registration APIs are known (uprobes.c). */
#if (defined(STP_HAVE_UPROBE_HANDLE) || defined(STP_HAVE_UPROBE_REFCTR)) && \
    (defined(STP_HAVE_UPROBE_FILTER_CTX) || defined(STP_HAVE_UPROBE_FILTER_MM)) && \
    defined(STP_HAVE_UPROBE_HANDLER_REGS) && \
    (defined(STP_HAVE_GET_FILE_RCU_PTRPTR) || defined(STP_HAVE_GET_FILE_RCU_FILE))
#define STP_CAN_UPROBES 1
#endif

#endif
