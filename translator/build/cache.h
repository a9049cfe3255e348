/* cache.h - the module cache: built modules kept under
 * $SYSTEMTAP_DIR/cache (default ~/.systemtap/cache), keyed by a SHA-256
 * of everything that can change the module (see cache_key()), indexed
 * (size, last use) in the sqlite3 database cache/index.db, bounded by
 * the size in cache/cache_mb_limit (MB; created with the default, 256,
 * when missing): least recently used modules are evicted.
 *
 * Layout: cache/<first 2 hex digits>/stap_<32 hex digits>.ko.  A module's
 * kernel name (the kbuild object) is that file's base name; staprun -R
 * inserts it under stap_<32 hex digits>_<pid>.
 *
 * Concurrency: files are published with rename(), so a reader sees a
 * whole module or none; index updates run in sqlite transactions with a
 * busy timeout, so any number of stap processes may use one cache.
 */
#ifndef STP_CACHE_H
#define STP_CACHE_H

#include "session.h"

#define CACHE_DEFAULT_MB 256
#define CACHE_NAME_HEX 32       /* hex digits of the hash in module names */

/* cache_key - compute the cache key of @s after pass 2 into @hex (65
 * bytes: 64 hex digits + NUL).  Hashed: the translator version and its
 * executable's contents, the script (and -E ones), its arguments, every
 * tapset file loaded (-I ones included), the runtime sources' contents,
 * the kernel release, the kernel build's identity (see kernel_identity()
 * in cache.c), the compiler, the architecture, and the options that
 * reach passes 2-4 (-g, -D, -u, --btf, --skip-badvars, --privilege...).
 * Returns 0 or -1 (message). */
int cache_key(struct session *s, char hex[65]);

/* cache_early_key - the key of @s before pass 1, into @hex: what
 * cache_key hashes but the parsed tapsets, plus the text of every tapset
 * and macro file pass 1 would read (tapset_files), the sysroot and the
 * identity of what pass 2 would read the kernel from (the debuginfo
 * vmlinux's build-id, else the BTF image's size and time).  Returns 0, or
 * -1 (no such identity, or a file could not be read: do not use it). */
int cache_early_key(struct session *s, char hex[65]);

/* cache_early_lookup - the cached module an earlier run recorded for
 * early key @early (cache_lookup of its key: a malloc'd path), or NULL. */
char *cache_early_lookup(const char *early);

/* cache_early_record - record that early key @early stands for the
 * module of key @hex (64 hex digits).  Errors are only reported with -v. */
void cache_early_record(const char *early, const char *hex);

/* cache_module_name - "stap_<first CACHE_NAME_HEX hex digits of @hex>",
 * malloc'd: the kernel name a cached module is built with. */
char *cache_module_name(const char *hex);

/* cache_lookup - the cached module for @hex, if its file exists: returns
 * its malloc'd path and records the use (last_used = now) in the index;
 * NULL on a miss.  Never fails: index errors are only reported with -v. */
char *cache_lookup(const char *hex);

/* cache_store - copy the built module @ko into the cache under @hex
 * (atomically), record it in the index, then evict least recently used
 * modules until the cache fits its size limit (never the new one).
 * Returns the malloc'd cached path, or NULL with a message. */
char *cache_store(const char *hex, const char *ko);

/* cache_clean - the --clean-cache action: drop index rows whose file is
 * gone, index files not in the index, and evict down to the size limit.
 * Returns 0 or -1 (message). */
int cache_clean(void);

#endif
