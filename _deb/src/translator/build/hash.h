/* hash.h - SHA-256 through NSS, for the module cache's keys. */
#ifndef STP_HASH_H
#define STP_HASH_H

#include <stddef.h>

struct stp_hash;

/* hash_new - start a SHA-256 computation.
 * Initialises NSS (without a database) on first use.
 * Returns a new context, or NULL (with a message on stderr) when NSS
 * cannot be initialised.  Not thread-safe. */
struct stp_hash *hash_new(void);

/* hash_add - add @len bytes at @data to @h.  A length prefix is hashed
 * first, so that "ab"+"c" and "a"+"bc" differ. */
void hash_add(struct stp_hash *h, const void *data, size_t len);

/* hash_add_str - hash_add() of a NUL-terminated string; NULL hashes as
 * the empty string with a distinct marker. */
void hash_add_str(struct stp_hash *h, const char *s);

/* hash_add_file - add the contents of the file at @path (a missing file
 * hashes as a marker, so that its later appearance changes the hash).
 * Returns 0, or -1 when the file exists but cannot be read. */
int hash_add_file(struct stp_hash *h, const char *path);

/* hash_finish - finish @h and free it; writes 64 lowercase hex digits and
 * a NUL into @hex (65 bytes). */
void hash_finish(struct stp_hash *h, char hex[65]);

#endif
