/* vmlinuz.h - what the translator takes out of a compressed kernel image
 * (SYSROOT/boot/vmlinuz-KVER) when no debuginfo vmlinux is installed: its
 * .BTF section, and bytes of its initialised data (the kprobe blacklist).
 *
 * The image is unpacked at most once per process (x86 bzImage: the
 * payload named by the setup header, LZ4 legacy frames, gzip or xz), and
 * what was taken out is cached under $SYSTEMTAP_DIR/cache/btf/ in files
 * named KVER-<image size>-<image mtime>..., so later runs never unpack.
 */
#ifndef STP_VMLINUZ_H
#define STP_VMLINUZ_H

#include "session.h"
#include <stddef.h>
#include <stdint.h>

/* vmlinuz_btf - the raw .BTF bytes of s->kernel_release's vmlinuz (heap,
 * *@len bytes).  NULL with a heap message in *@why when there is no
 * image, its compression is unsupported or it has no .BTF.  May take
 * a second or two (unpacking) on a cache miss. */
void *vmlinuz_btf(struct session *s, size_t *len, char **why);

/* vmlinuz_read - copy the @len bytes at link-time address @addr of the
 * vmlinux inside vmlinuz into @out.  Returns 0, or -1 with a heap message
 * in *@why (no image, range not in an initialised section). */
int vmlinuz_read(struct session *s, uint64_t addr, size_t len, void *out,
		 char **why);

/* vmlinuz_notes - the .notes section of s->kernel_release's vmlinux
 * (its build-id among them), heap, *@len bytes; NULL with *@why. */
void *vmlinuz_notes(struct session *s, size_t *len, char **why);

#endif
