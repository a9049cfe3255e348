/* sign.c - stap --sign-module: a detached signature MODULE.ko.sgn made
 * with the signer's key in an NSS database (SystemTap's stap-server
 * layout: the certificate and key named "stap-server" in
 * ~/.systemtap/ssl/server, made by stap-gen-cert).  staprun checks it
 * against its trusted certificates (staprun/verify.c). */
#include "build.h"

#include <cert.h>
#include <cryptohi.h>
#include <keyhi.h>
#include <nss.h>
#include <pk11pub.h>
#include <prerror.h>
#include <secmod.h>

#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIGNER_NICK "stap-server"

const char *sign_default_db(void)
{
	const char *home = getenv("HOME");
	return home ? xasprintf("%s/.systemtap/ssl/server", home)
		    : "/root/.systemtap/ssl/server";
}

static int fail(const char *what, const char *arg)
{
	fprintf(stderr, "stap: signing: %s %s: %s\n", what, arg,
		PR_ErrorToName(PR_GetError()) ? PR_ErrorToName(PR_GetError())
					      : "unknown NSS error");
	return -1;
}

int sign_module(const char *db, const char *ko)
{
	char *spec, *out, buf[65536];
	PK11SlotInfo *m;
	CERTCertificate *cert;
	SECKEYPrivateKey *key;
	SGNContext *sg;
	SECItem sig = { 0 };
	FILE *f, *o;
	size_t n;
	int rc = -1;

	if (!NSS_IsInitialized() && NSS_NoDB_Init(NULL) != SECSuccess)
		return fail("cannot initialize NSS for", ko);
	spec = xasprintf("configdir='sql:%s' tokenDescription='stap signer' "
			 "flags=readOnly", db);
	m = SECMOD_OpenUserDB(spec);
	free(spec);
	if (!m)
		return fail("cannot open the NSS database", db);
	cert = NULL;
	{
		CERTCertList *l = PK11_ListCertsInSlot(m);
		CERTCertListNode *nd;

		for (nd = l ? CERT_LIST_HEAD(l) : NULL;
		     nd && !CERT_LIST_END(nd, l) && !cert; nd = CERT_LIST_NEXT(nd)) {
			const char *nick = nd->cert->nickname;
			const char *c = nick ? strrchr(nick, ':') : NULL;
			if (nick && !strcmp(c ? c + 1 : nick, SIGNER_NICK))
				cert = CERT_DupCertificate(nd->cert);
		}
		if (l)
			CERT_DestroyCertList(l);
	}
	if (!cert)
		return fail("no certificate " SIGNER_NICK " in", db);
	key = PK11_FindPrivateKeyFromCert(m, cert, NULL);
	if (!key)
		return fail("no private key of " SIGNER_NICK " in", db);
	f = fopen(ko, "rb");
	if (!f) {
		fprintf(stderr, "stap: signing: cannot read %s: %s\n", ko,
			strerror(errno));
		return -1;
	}
	sg = SGN_NewContext(SEC_OID_PKCS1_SHA256_WITH_RSA_ENCRYPTION, key);
	if (!sg || SGN_Begin(sg) != SECSuccess) {
		fclose(f);
		return fail("cannot start signing", ko);
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (SGN_Update(sg, (unsigned char *)buf, n) != SECSuccess)
			break;
	fclose(f);
	if (SGN_End(sg, &sig) != SECSuccess) {
		SGN_DestroyContext(sg, PR_TRUE);
		return fail("cannot sign", ko);
	}
	SGN_DestroyContext(sg, PR_TRUE);
	out = xasprintf("%s.sgn", ko);
	o = fopen(out, "wb");
	if (o && fwrite(sig.data, 1, sig.len, o) == sig.len && fclose(o) == 0)
		rc = 0;
	else
		fprintf(stderr, "stap: signing: cannot write %s: %s\n", out,
			strerror(errno));
	SECITEM_FreeItem(&sig, PR_FALSE);
	SECKEY_DestroyPrivateKey(key);
	CERT_DestroyCertificate(cert);
	free(out);
	return rc;
}

int sign_module_kernel(struct session *s, const char *keycert, const char *ko)
{
	const char *comma = strchr(keycert, ',');
	char *key, *tool;
	int status = -1, rc = -1;
	pid_t pid;

	if (!comma || comma == keycert || !comma[1]) {
		fprintf(stderr, "stap: --sign-kernel wants KEYFILE,CERTFILE, "
			"not '%s'\n", keycert);
		return -1;
	}
	key = xasprintf("%.*s", (int)(comma - keycert), keycert);
	tool = xasprintf("%s/scripts/sign-file", s->kernel_build);
	if (access(tool, X_OK) != 0) {
		fprintf(stderr, "stap: --sign-kernel: the kernel's %s is "
			"missing: %s\n", tool, strerror(errno));
		goto out;
	}
	pid = fork();
	if (pid == 0) {
		execl(tool, "sign-file", "sha256", key, comma + 1, ko,
		      (char *)NULL);
		_exit(127);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid &&
	    WIFEXITED(status) && WEXITSTATUS(status) == 0)
		rc = 0;
	else
		fprintf(stderr, "stap: --sign-kernel: %s sha256 %s %s %s "
			"failed (its messages are above)\n", tool, key,
			comma + 1, ko);
out:
	free(key);
	free(tool);
	return rc;
}
