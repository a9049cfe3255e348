/* kmodfile.c - the file of a kernel module, whichever form the target
 * kernel ships it in (see kmodfile.h). */
#include "kmodfile.h"
#include "util.h"

#include <elfutils/libdwelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The compressions kmod and kbuild know (CONFIG_MODULE_COMPRESS_*). */
static const char *const packed[] = { ".xz", ".zst", ".gz" };

char *kmod_file(struct session *s, const char *rel)
{
	const char *root = s->sysroot ? s->sysroot : "";
	char *p = xasprintf("%s/lib/modules/%s/%s", root, s->kernel_release,
			    rel);
	char *base, *cut;
	size_t i;
	if (!access(p, R_OK))
		return p;
	free(p);
	/* "kernel/a/b.ko" as listed, or "kernel/a/b.ko.xz" on disk */
	base = xstrdup(rel);
	if ((cut = strstr(base, ".ko")))
		cut[3] = 0;
	p = xasprintf("%s/usr/lib/debug/lib/modules/%s/%s", root,
		      s->kernel_release, base);
	if (!access(p, R_OK)) {
		free(base);
		return p;
	}
	free(p);
	for (i = 0; i < sizeof(packed) / sizeof(packed[0]); i++) {
		p = xasprintf("%s/lib/modules/%s/%s%s", root,
			      s->kernel_release, base, packed[i]);
		if (!access(p, R_OK)) {
			free(base);
			return p;
		}
		free(p);
	}
	free(base);
	return NULL;
}

Elf *kmod_elf_begin(int fd)
{
	elf_version(EV_CURRENT);
	return dwelf_elf_begin(fd);
}
