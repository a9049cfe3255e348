/* verify.h - staprun: may a caller below stapdev load this module?
 * (staprun/verify.c) */
#ifndef STP_VERIFY_H
#define STP_VERIFY_H

#include <stddef.h>

/* The trusted signers' certificates: an NSS database, filled by
 * stap-authorize-signing-cert. */
#ifndef SYSCONFDIR
#define SYSCONFDIR "/usr/local/etc"
#endif
#define STAPRUN_CERT_DB SYSCONFDIR "/systemtap/staprun"

/* verify_signature - check the detached signature file @sgn_path (read as
 * the caller) over the module bytes @img (@len): it must verify (SHA-256
 * with RSA) with the public key of a certificate in STAPRUN_CERT_DB that
 * is valid now.  Returns 0, or -1 with *@why set to a static reason. */
int verify_signature(const void *img, size_t len, const char *sgn_path,
		     const char **why);

/* verify_blessed - 1 when the open module file @fd is one root placed in
 * /lib/modules/KVER/systemtap/ (KVER: the running kernel's release): the
 * file the descriptor names is there, owned by root and writable by
 * root only.  The descriptor (not a path looked up again) is checked. */
int verify_blessed(int fd);

#endif
