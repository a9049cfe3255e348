/* btf.c - placeholder until the libbpf provider lands. */
#include "../dbginfo.h"
#include "../util.h"

struct dbg_provider *dbg_btf_open(struct session *s, char **why)
{
	*why = xstrdup("the BTF provider is not built yet");
	return NULL;
}
