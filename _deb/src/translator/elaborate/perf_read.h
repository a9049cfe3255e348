/* perf_read.h - binding @perf("NAME") to perf counters (pass 2). */
#ifndef STP_PERF_READ_H
#define STP_PERF_READ_H

#include "session.h"

/* perf_reads_resolve - bind every @perf("NAME") in the bodies of the
 * probes to the counter perf...counter("NAME") defines (its number in
 * the expression's num) and set the perf_reads mask of each derived
 * probe of that body.  Errors (at the @perf): no such counter; a body
 * with @perf derived for anything but a process probe with registers
 * (process("PATH").function/.statement/.mark/.plt, .return included):
 * the counter is read at the hit in the probed task, before the body,
 * where reading may sleep. */
void perf_reads_resolve(struct session *s);

#endif
