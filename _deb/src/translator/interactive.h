/* interactive.h - stap -i: see interactive.c. */
#ifndef INTERACTIVE_H
#define INTERACTIVE_H

#include "session.h"

/* interactive_main - the -i prompt: read commands on stdin until quit or
 * end of input, building a script and running it with this stap (its
 * options from @argv, less -i; @shortopts: main's getopt string, to tell
 * which short options take an argument).  Returns the exit status (0). */
int interactive_main(struct session *s, int argc, char **argv,
		     const char *shortopts);

#endif
