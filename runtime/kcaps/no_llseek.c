/* no_llseek - file operations name no_llseek for a file that cannot seek
 * (6.1; 6.12 removed it: an llseek of NULL refuses seeks there).
 */
#include <linux/fs.h>

static const struct file_operations stp_kcap_no_llseek = {
	.llseek = no_llseek,
};
