/* tapsets.h - finding and parsing the tapset library (pass 1). */
#ifndef STP_TAPSETS_H
#define STP_TAPSETS_H

#include "session.h"

/* load_tapsets - parse every tapset file under s->tapset_dir and the -I
 * directories into s->library.  Returns 0, or -1 when the tapset
 * directory is missing. */
int load_tapsets(struct session *s);

#endif
