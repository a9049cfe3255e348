/* bd_partno - struct block_device has the partition number as a field,
 * bd_partno (6.1; 6.10 moved it into bd_flags, see bdev_partno_fn).
 */
#include <linux/blk_types.h>

static u8 stp_kcap_bd_partno(struct block_device *b)
{
	return b->bd_partno;
}
