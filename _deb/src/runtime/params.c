/* params.c - module parameters for script globals (stap -G). */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include "stp_internal.h"

/* Parse @val into the s64 at kp->arg.  Process context (module load). */
static int stp_param_set_s64(const char *val, const struct kernel_param *kp)
{
	return kstrtoll(val, 0, (s64 *)kp->arg);
}

static int stp_param_get_s64(char *buf, const struct kernel_param *kp)
{
	return sprintf(buf, "%lld\n", *(s64 *)kp->arg);
}

const struct kernel_param_ops stp_param_ops_s64 = {
	.set = stp_param_set_s64,
	.get = stp_param_get_s64,
};
