/* strip.c - the module without its debugging information.
 *
 * The runtime's DWARF and its relocations are some 1.8 MB of every
 * module, more than a whole-kernel probe set's tables: the kernel never
 * loads them, the module cache keeps them for nobody, and modules get
 * copied to every machine of a fleet.  Stripped as distributions strip
 * their kernels' modules (objcopy --strip-debug); -k keeps the build
 * directory with the unstripped objects. */
#include "build.h"
#include "fastbuild.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int strip_module(struct session *s, const char *ko)
{
	struct strbuf cmd = {0};
	char *log = xasprintf("%s/strip.log", s->tmpdir);
	const char *p;
	int rc;
	strbuf_add(&cmd, "objcopy --strip-debug '");
	for (p = ko; *p; p++)           /* the path in single quotes */
		strbuf_add(&cmd, *p == '\'' ? "'\\''" : (char[]){ *p, 0 });
	strbuf_add(&cmd, "'");
	rc = fastbuild_run_sh(strbuf_str(&cmd), s->tmpdir, log);
	if (rc != 0 && stp_verbose)
		fprintf(stderr, "stap: objcopy --strip-debug failed (see %s): "
			"the module keeps its debug information\n", log);
	free(cmd.s);
	free(log);
	return rc ? -1 : 0;
}
