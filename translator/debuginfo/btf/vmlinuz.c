/* vmlinuz.c - unpacking the kernel image for its .BTF and data (see
 * vmlinuz.h).
 *
 * An x86 bzImage has a setup header ("HdrS" at 0x202) whose
 * payload_offset/payload_length (0x248/0x24c) give the compressed
 * vmlinux, relative to the protected-mode code at (setup_sects + 1) * 512.
 * Its first bytes say how it is compressed; without a usable header the
 * image is searched for a known magic.  The result is the stripped ELF
 * vmlinux (section headers kept), possibly followed by relocations.
 */
#include "vmlinuz.h"
#include "util.h"

#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <lz4.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define LZ4_LEGACY_BLOCK (8u << 20)     /* decompressed bytes per block */

/* The image unpacked in this process, for the key it was unpacked for. */
static char *unpacked_key;
static unsigned char *unpacked;
static size_t unpacked_len;

/* forget_unpacked - util_on_reset */
static void forget_unpacked(void)
{
	unpacked_key = NULL;
	unpacked = NULL;
	unpacked_len = 0;
}

static uint32_t le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* unlz4_legacy - LZ4 legacy frames: the magic, then blocks of a
 * little-endian u32 compressed size and the data, until a size that
 * cannot be a block (the kernel appends the decompressed size) or EOF. */
static unsigned char *unlz4_legacy(const unsigned char *p, size_t n,
				   size_t *out_len, char **why)
{
	size_t pos = 4, len = 0, cap = 0;
	unsigned char *out = NULL;
	while (pos + 4 <= n) {
		uint32_t bs = le32(p + pos);
		int r;
		if (bs == 0x184c2102) {         /* a new frame: its magic */
			pos += 4;
			continue;
		}
		if (bs == 0 || bs > (uint32_t)LZ4_compressBound(LZ4_LEGACY_BLOCK) ||
		    pos + 4 + bs > n)
			break;
		if (cap - len < LZ4_LEGACY_BLOCK) {
			cap = cap ? 2 * cap : 64u << 20;
			out = xrealloc(out, cap);
		}
		r = LZ4_decompress_safe((const char *)p + pos + 4,
					(char *)out + len, bs, LZ4_LEGACY_BLOCK);
		if (r < 0) {
			*why = xasprintf("corrupt LZ4 block at offset %zu", pos);
			free(out);
			return NULL;
		}
		len += r;
		pos += 4 + bs;
	}
	*out_len = len;
	return out;
}

/* A growing output buffer for the streaming decompressors. */
struct outbuf {
	unsigned char *p;
	size_t cap;
};

/* room - grow @o (from 64 MiB, doubling) when @used fills it; returns
 * the bytes left after @used. */
static size_t room(struct outbuf *o, size_t used)
{
	if (used == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 64u << 20;
		o->p = xrealloc(o->p, o->cap);
	}
	return o->cap - used;
}

/* finish - the decompressed bytes (@len of them) when @ok, else NULL
 * with "corrupt @what data (error @err)" in *@why. */
static unsigned char *finish(struct outbuf *o, size_t len, size_t *out_len,
			     int ok, const char *what, int err, char **why)
{
	if (!ok) {
		*why = xasprintf("corrupt %s data (error %d)", what, err);
		free(o->p);
		return NULL;
	}
	*out_len = len;
	return o->p;
}

static unsigned char *ungzip(const unsigned char *p, size_t n,
			     size_t *out_len, char **why)
{
	z_stream z = {0};
	struct outbuf o = {0};
	int r;
	if (inflateInit2(&z, 15 + 32) != Z_OK) {
		*why = xstrdup("zlib cannot be initialised");
		return NULL;
	}
	z.next_in = (unsigned char *)p;
	z.avail_in = n;
	do {
		z.avail_out = room(&o, z.total_out);
		z.next_out = o.p + z.total_out;
		r = inflate(&z, Z_NO_FLUSH);
	} while (r == Z_OK);
	inflateEnd(&z);
	return finish(&o, z.total_out, out_len, r == Z_STREAM_END, "gzip", r,
		      why);
}

static unsigned char *unxz(const unsigned char *p, size_t n,
			   size_t *out_len, char **why)
{
	lzma_stream z = LZMA_STREAM_INIT;
	struct outbuf o = {0};
	lzma_ret r;
	if (lzma_stream_decoder(&z, UINT64_MAX, 0) != LZMA_OK) {
		*why = xstrdup("liblzma cannot be initialised");
		return NULL;
	}
	z.next_in = p;
	z.avail_in = n;
	do {
		z.avail_out = room(&o, z.total_out);
		z.next_out = o.p + z.total_out;
		r = lzma_code(&z, LZMA_FINISH);
	} while (r == LZMA_OK);
	lzma_end(&z);
	return finish(&o, z.total_out, out_len, r == LZMA_STREAM_END, "xz", r,
		      why);
}

static const struct {
	const char *name;
	unsigned char magic[6];
	int len;
	unsigned char *(*unpack)(const unsigned char *, size_t, size_t *,
				 char **);
} formats[] = {
	{ "LZ4", { 0x02, 0x21, 0x4c, 0x18 }, 4, unlz4_legacy },
	{ "gzip", { 0x1f, 0x8b, 0x08 }, 3, ungzip },
	{ "xz", { 0xfd, '7', 'z', 'X', 'Z', 0 }, 6, unxz },
	{ "zstd", { 0x28, 0xb5, 0x2f, 0xfd }, 4, NULL },
	{ "bzip2", { 'B', 'Z', 'h' }, 3, NULL },
	{ "LZO", { 0x89, 'L', 'Z', 'O', 0 }, 5, NULL },
};
#define NFORMATS (int)(sizeof(formats) / sizeof(formats[0]))

static int format_at(const unsigned char *p, size_t n)
{
	int f;
	for (f = 0; f < NFORMATS; f++)
		if (n >= (size_t)formats[f].len &&
		    !memcmp(p, formats[f].magic, formats[f].len))
			return f;
	return -1;
}

/* unpack_image - the ELF vmlinux inside the bzImage @img. */
static unsigned char *unpack_image(const unsigned char *img, size_t n,
				   size_t *out_len, char **why)
{
	size_t start = 0, len = 0, i;
	int f = -1;
	if (n > 0x250 && !memcmp(img + 0x202, "HdrS", 4)) {
		size_t setup = img[0x1f1] ? img[0x1f1] : 4;
		start = (setup + 1) * 512 + le32(img + 0x248);
		len = le32(img + 0x24c);
		if (start < n && len <= n - start)
			f = format_at(img + start, len);
	}
	/* no (usable) setup header: the first known magic */
	for (i = 0; f < 0 && i + 6 < n; i++)
		if ((f = format_at(img + i, n - i)) >= 0) {
			start = i;
			len = n - i;
		}
	if (f < 0) {
		*why = xstrdup("no compressed kernel found in it");
		return NULL;
	}
	if (!formats[f].unpack) {
		*why = xasprintf("%s-compressed kernels are not supported (LZ4, "
				 "gzip and xz are)", formats[f].name);
		return NULL;
	}
	return formats[f].unpack(img + start, len, out_len, why);
}

/* image_key - "KVER-SIZE-MTIME" of the image, or NULL if it is missing;
 * *@path gets the image's heap path either way. */
static char *image_key(struct session *s, char **path)
{
	struct stat st;
	*path = xasprintf("%s/boot/vmlinuz-%s", s->sysroot ? s->sysroot : "",
			  s->kernel_release);
	if (stat(*path, &st) != 0)
		return NULL;
	return xasprintf("%s-%lld-%lld", s->kernel_release,
			 (long long)st.st_size, (long long)st.st_mtime);
}

/* get_unpacked - the unpacked image of @key (at @path), from memory or
 * unpacked now.  Returns 0 or -1 with *@why. */
static int get_unpacked(const char *key, const char *path, char **why)
{
	unsigned char *img;
	size_t n;
	char *err = NULL;
	if (unpacked_key && !strcmp(unpacked_key, key))
		return 0;
	if (!(img = (unsigned char *)read_file(path, &n))) {
		*why = xasprintf("%s: %s", path, strerror(errno));
		return -1;
	}
	free(unpacked);
	free(unpacked_key);
	unpacked_key = NULL;
	util_on_reset(forget_unpacked);
	unpacked = unpack_image(img, n, &unpacked_len, &err);
	free(img);
	if (!unpacked) {
		*why = xasprintf("%s: %s", path, err);
		free(err);
		return -1;
	}
	if (unpacked_len < 64 || memcmp(unpacked, ELFMAG, SELFMAG) != 0) {
		*why = xasprintf("%s: the unpacked kernel is not an ELF file",
				 path);
		return -1;
	}
	unpacked_key = xstrdup(key);
	return 0;
}

/* section_bytes - the @len bytes at address @addr of the unpacked image's
 * initialised section containing them (@name: or the section so named,
 * when addr is 0); NULL if none. */
static const void *section_bytes(const char *name, uint64_t addr,
				 size_t *len)
{
	Elf *e;
	Elf_Scn *scn = NULL;
	size_t shstr;
	const void *ret = NULL;
	elf_version(EV_CURRENT);
	e = elf_memory((char *)unpacked, unpacked_len);
	if (!e || elf_getshdrstrndx(e, &shstr) != 0)
		goto out;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *sn;
		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_PROGBITS && sh.sh_type != SHT_NOTE) ||
		    sh.sh_offset + sh.sh_size > unpacked_len)
			continue;
		sn = elf_strptr(e, shstr, sh.sh_name);
		if (name && sn && !strcmp(sn, name)) {
			*len = sh.sh_size;
			ret = unpacked + sh.sh_offset;
			break;
		}
		if (!name && addr >= sh.sh_addr &&
		    addr + *len <= sh.sh_addr + sh.sh_size) {
			ret = unpacked + sh.sh_offset + (addr - sh.sh_addr);
			break;
		}
	}
out:
	if (e)
		elf_end(e);
	return ret;
}

/* cache_path - $SYSTEMTAP_DIR/cache/btf/KEY.SUFFIX (directory created),
 * or NULL when there is no cache directory. */
static char *cache_path(const char *key, const char *suffix)
{
	char *dir = cache_dir(), *btfdir, *p;
	if (!dir)
		return NULL;
	btfdir = xasprintf("%s/btf", dir);
	free(dir);
	if (mkdir(btfdir, 0755) != 0 && errno != EEXIST) {
		free(btfdir);
		return NULL;
	}
	p = xasprintf("%s/%s.%s", btfdir, key, suffix);
	free(btfdir);
	return p;
}

/* cache_put - write @len bytes to @path atomically (a temporary file
 * renamed); failures only lose the cache entry. */
static void cache_put(const char *path, const void *data, size_t len)
{
	char *tmp = xasprintf("%s.%d.tmp", path, (int)getpid());
	FILE *f = fopen(tmp, "we");
	if (f) {
		int ok = fwrite(data, 1, len, f) == len;
		if (fclose(f) == 0 && ok && rename(tmp, path) == 0) {
			free(tmp);
			return;
		}
	}
	unlink(tmp);
	free(tmp);
}

/* cached - the bytes of cache entry KEY.@suffix: from the cache file, or
 * taken out of the unpacked image (then stored): section @section when
 * @addr is 0, else the *@len bytes at @addr.  Returns them (heap, *@len
 * bytes) or NULL with *@why. */
static void *cached(struct session *s, const char *suffix,
		    const char *section, uint64_t addr, size_t *len,
		    char **why)
{
	char *path, *key = image_key(s, &path), *cpath = NULL;
	void *ret = NULL;
	const void *src;
	size_t n;
	if (!key) {
		*why = xasprintf("%s: %s", path, strerror(errno));
		goto out;
	}
	if ((cpath = cache_path(key, suffix)) &&
	    (ret = read_file(cpath, &n)) != NULL) {
		if (addr && n != *len) {
			free(ret);
			ret = NULL;
		} else {
			*len = n;
			goto out;
		}
	}
	if (get_unpacked(key, path, why) < 0)
		goto out;
	if (!(src = section_bytes(addr ? NULL : section, addr, len))) {
		*why = addr ? xasprintf("%s: no initialised data at 0x%llx",
					path, (unsigned long long)addr)
			    : !strcmp(section, ".BTF") ?
			      xasprintf("%s: the kernel has no .BTF section "
					"(CONFIG_DEBUG_INFO_BTF)", path)
			    : xasprintf("%s: the kernel has no %s section",
					path, section);
		goto out;
	}
	ret = xmalloc(*len ? *len : 1);
	memcpy(ret, src, *len);
	if (cpath)
		cache_put(cpath, ret, *len);
out:
	free(cpath);
	free(key);
	free(path);
	return ret;
}

void *vmlinuz_btf(struct session *s, size_t *len, char **why)
{
	*len = 0;
	return cached(s, "btf", ".BTF", 0, len, why);
}

int vmlinuz_read(struct session *s, uint64_t addr, size_t len, void *out,
		 char **why)
{
	char *suffix = xasprintf("%llx-%zu.bin", (unsigned long long)addr,
				 len);
	size_t n = len;
	void *data = cached(s, suffix, NULL, addr, &n, why);
	free(suffix);
	if (!data)
		return -1;
	memcpy(out, data, len);
	free(data);
	return 0;
}

void *vmlinuz_notes(struct session *s, size_t *len, char **why)
{
	*len = 0;
	return cached(s, "notes", ".notes", 0, len, why);
}
