/* build.h - pass 4, the whole interface: build the module and keep it.
 *
 * In:  the module's C source (pass 3) and the session's kernel, options
 *      and script identity.
 * Out: a kernel module (.ko) built with the kernel's kbuild (kbuild.h),
 *      stored in and found again in the module cache (cache.h).
 */
#ifndef STP_BUILD_H
#define STP_BUILD_H

#include "cache.h"
#include "kbuild.h"

/* strip_module - remove the debugging information from the built module
 * @ko (strip.c: objcopy --strip-debug, run in s->tmpdir).  Returns 0, or
 * -1 (the module is left as it was; -v says so). */
int strip_module(struct session *s, const char *ko);

/* ---- signing (sign.c) ---- */

/* sign_default_db - the signer's NSS database of SystemTap's layout,
 * ~/.systemtap/ssl/server (a static string, or a malloc'd one). */
const char *sign_default_db(void);

/* sign_module - write @ko.sgn: the detached signature (SHA-256 with RSA,
 * DER bytes as NSS's SGN_ functions give them) of the file @ko by the
 * private key of the certificate "stap-server" in the NSS database @db
 * (made by stap-gen-cert).  staprun verifies it against the certificates
 * in its trusted database (stap-authorize-signing-cert).  Returns 0, or
 * -1 with a message. */
int sign_module(const char *db, const char *ko);

/* sign_module_kernel - append to the module file @ko the kernel's own
 * module signature (a detached PKCS#7 over the file, SHA-256, then the
 * module_signature trailer and "~Module signature appended~"), made with
 * the kernel's scripts/sign-file of s->kernel_build from @keycert,
 * "KEYFILE,CERTFILE" (PEM or DER).  Returns 0, or -1 with a message. */
int sign_module_kernel(struct session *s, const char *keycert, const char *ko);

#endif
