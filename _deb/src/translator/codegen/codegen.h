/* codegen.h - pass 3, the whole interface: the resolved program as
 * module C.
 *
 * In:  the session after pass 2 (elaborate/elaborate.h): globals,
 *      functions, probes and derived probes, typed, and the resolved
 *      paths of target expressions.
 * Out: one C source compiled against runtime/stp_runtime.h: the script's
 *      globals, a function per probe body and script function, and the
 *      tables of probe points the runtime registers.
 */
#ifndef STP_CODEGEN_H
#define STP_CODEGEN_H

#include "session.h"

/* codegen - append the C source of the module for the elaborated session
 * @s to @out (compiled against runtime/stp_runtime.h).  Returns 0, or -1
 * after diagnostics for constructs that cannot be translated. */
int codegen(struct session *s, struct strbuf *out);

#endif
