/* nfserr_opnotsupp - enum nfs_stat names NFSERR_OPNOTSUPP (45, NFSv2/v3's
 * "operation not supported"): 6.1; 6.12 dropped it (nfsderror() names 45
 * only where the kernel still does).
 */
#include <linux/types.h>	/* linux/nfs.h (6.1) needs u32, __be32 */
#include <linux/nfs.h>

static const int stp_kcap_nfserr_opnotsupp = NFSERR_OPNOTSUPP;
