/* dwarf.c - placeholder until the libdw provider lands. */
#include "../dbginfo.h"
#include "../util.h"

struct dbg_provider *dbg_dwarf_open(struct session *s, char **why)
{
	*why = xstrdup("the DWARF provider is not built yet");
	return NULL;
}
