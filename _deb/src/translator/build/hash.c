/* hash.c - SHA-256 through NSS (PK11 digest contexts). */
#include "hash.h"

#include <nss.h>
#include <pk11pub.h>
#include <secoidt.h>

#include <stdint.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct stp_hash {
	PK11Context *ctx;
};

struct stp_hash *hash_new(void)
{
	struct stp_hash *h;

	if (!NSS_IsInitialized() && NSS_NoDB_Init(NULL) != SECSuccess) {
		fprintf(stderr, "stap: cannot initialise NSS for hashing\n");
		return NULL;
	}
	h = calloc(1, sizeof(*h));
	if (!h)
		return NULL;
	h->ctx = PK11_CreateDigestContext(SEC_OID_SHA256);
	if (!h->ctx || PK11_DigestBegin(h->ctx) != SECSuccess) {
		fprintf(stderr, "stap: NSS has no SHA-256 digest\n");
		if (h->ctx)
			PK11_DestroyContext(h->ctx, PR_TRUE);
		free(h);
		return NULL;
	}
	return h;
}

static void add_raw(struct stp_hash *h, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len) {
		unsigned int n = len > (1u << 30) ? (1u << 30) : (unsigned int)len;

		PK11_DigestOp(h->ctx, p, n);
		p += n;
		len -= n;
	}
}

void hash_add(struct stp_hash *h, const void *data, size_t len)
{
	uint64_t n = len;

	add_raw(h, &n, sizeof(n));
	add_raw(h, data, len);
}

void hash_add_str(struct stp_hash *h, const char *s)
{
	if (!s) {
		hash_add(h, "\0(null)", 7);
		return;
	}
	hash_add(h, s, strlen(s));
}

int hash_add_file(struct stp_hash *h, const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char buf[65536];
	uint64_t total = 0;
	size_t n;

	if (!f) {
		hash_add(h, "\0(missing)", 10);
		return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
	}
	/* mark the start; the total length ends the file's contribution */
	hash_add(h, "\0(file)", 7);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		add_raw(h, buf, n);
		total += n;
	}
	add_raw(h, &total, sizeof(total));
	n = ferror(f);
	fclose(f);
	return n ? -1 : 0;
}

void hash_finish(struct stp_hash *h, char hex[65])
{
	unsigned char d[32];
	unsigned int len = 0;
	int i;

	PK11_DigestFinal(h->ctx, d, &len, sizeof(d));
	PK11_DestroyContext(h->ctx, PR_TRUE);
	free(h);
	for (i = 0; i < 32; i++)
		sprintf(hex + 2 * i, "%02x", i < (int)len ? d[i] : 0);
	hex[64] = '\0';
}
