/* bdev_partno_fn - the partition number of a block device is
 * bdev_partno(bdev) (6.10: 6.12; 6.1 has the field, see bd_partno).
 */
#include <linux/blkdev.h>

_Static_assert(__builtin_types_compatible_p(typeof(&bdev_partno),
		u8 (*)(const struct block_device *)), "bdev_partno");
