/* verify.c - signatures and root-placed modules (see verify.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "verify.h"

#include <cert.h>
#include <cryptohi.h>
#include <keyhi.h>
#include <nss.h>
#include <pk11pub.h>
#include <prerror.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

static int read_sig(const char *path, SECItem *sig)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	ssize_t n;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    st.st_size > 65536) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	sig->data = malloc(st.st_size);
	sig->len = st.st_size;
	n = sig->data ? read(fd, sig->data, st.st_size) : -1;
	close(fd);
	if (n != st.st_size) {
		errno = EIO;
		return -1;
	}
	return 0;
}

int verify_signature(const void *img, size_t len, const char *sgn_path,
		     const char **why)
{
	SECItem sig = { siBuffer, NULL, 0 };
	CERTCertList *certs;
	CERTCertListNode *node;
	int ok = 0, ncerts = 0;
	struct stat st;

	if (read_sig(sgn_path, &sig) != 0) {
		*why = errno == ENOENT ? "it has no signature file (MODULE.ko.sgn)"
				       : "its signature file cannot be read";
		return -1;
	}
	if (stat(STAPRUN_CERT_DB, &st) != 0 ||
	    NSS_Init("sql:" STAPRUN_CERT_DB) != SECSuccess) {
		*why = "no trusted signer: the certificate database "
			STAPRUN_CERT_DB " is missing (stap-authorize-signing-cert)";
		free(sig.data);
		return -1;
	}
	certs = PK11_ListCerts(PK11CertListAll, NULL);
	for (node = certs ? CERT_LIST_HEAD(certs) : NULL;
	     node && !CERT_LIST_END(node, certs) && !ok;
	     node = CERT_LIST_NEXT(node)) {
		SECKEYPublicKey *pub;

		if (CERT_CheckCertValidTimes(node->cert, PR_Now(), PR_FALSE) !=
		    secCertTimeValid)
			continue;
		ncerts++;
		pub = CERT_ExtractPublicKey(node->cert);
		if (!pub)
			continue;
		if (VFY_VerifyData(img, len, pub, &sig,
				   SEC_OID_PKCS1_SHA256_WITH_RSA_ENCRYPTION,
				   NULL) == SECSuccess)
			ok = 1;
		SECKEY_DestroyPublicKey(pub);
	}
	if (certs)
		CERT_DestroyCertList(certs);
	free(sig.data);
	if (ok)
		return 0;
	*why = ncerts ? "its signature does not verify against any trusted "
		"certificate: the module was changed after it was signed, or "
		"its signer is not trusted (stap-authorize-signing-cert)"
		      : "no trusted signer: the certificate database "
			STAPRUN_CERT_DB " holds no valid certificate";
	return -1;
}

int verify_blessed(int fd)
{
	char link[64], path[4096], dir[512];
	struct utsname u;
	struct stat st;
	ssize_t n;

	if (uname(&u) != 0 || fstat(fd, &st) != 0)
		return 0;
	if (st.st_uid != 0 || (st.st_mode & 022) || !S_ISREG(st.st_mode))
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = '\0';
	snprintf(dir, sizeof(dir), "/lib/modules/%s/systemtap/", u.release);
	if (strncmp(path, dir, strlen(dir)) == 0)
		return 1;
	/* merged /usr: /lib is /usr/lib */
	snprintf(dir, sizeof(dir), "/usr/lib/modules/%s/systemtap/", u.release);
	return strncmp(path, dir, strlen(dir)) == 0;
}
