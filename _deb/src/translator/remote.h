/* remote.h - stap --remote: run a script on other hosts (driver side).
 *
 * `stap --remote=URL` (repeatable) builds the script once per distinct
 * kernel release of the targets (each build is an ordinary `stap -r KVER
 * -p4` of this same stap, so it goes through the module cache), copies the
 * module to each target over ssh, runs staprun there and streams the output
 * back.  URL is `ssh://[USER@]HOST[:PORT]`, `[USER@]HOST` or `direct:` /
 * `direct://` (this machine, without ssh). */
#ifndef STAP_REMOTE_H
#define STAP_REMOTE_H

#include "session.h"

/* remote_add - record a --remote URL; returns 0, or -1 (with a message on
 * stderr) when @url is malformed or its scheme unknown. */
int remote_add(const char *url);

/* remote_set_prefix - --remote-prefix: prefix each line with "N: ", N the
 * target's index (0 for the first --remote). */
void remote_set_prefix(void);

/* remote_active - 1 when at least one --remote was given. */
int remote_active(void);

/* remote_main - run the whole session on the --remote targets.  @s holds
 * the parsed options, @argc/@argv the original command line (rerun, minus
 * the --remote options, for each build).  Returns stap's exit status: 0
 * when every target ran the script to a clean end, else 1 with one line
 * per failed target on stderr.  Blocks until all targets are done; SIGINT,
 * SIGTERM and SIGHUP stop every target (their modules are removed). */
int remote_main(struct session *s, int argc, char **argv);

#endif
