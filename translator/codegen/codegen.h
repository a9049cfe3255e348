/* codegen.h - pass 3: translate the resolved program into module C. */
#ifndef STP_CODEGEN_H
#define STP_CODEGEN_H

#include "session.h"

/* codegen - append the C source of the module for the elaborated session
 * @s to @out (compiled against runtime/stp_runtime.h).  Returns 0, or -1
 * after diagnostics for constructs that cannot be translated. */
int codegen(struct session *s, struct strbuf *out);

#endif
