/* get_file_rcu_ptrptr - get_file_rcu() takes the address of an __rcu
 * pointer to a file and returns the file with a reference, or NULL (6.7;
 * 6.1's get_file_rcu(file) only takes a reference).
 * @serves uprobes/file
 */
#include <linux/fs.h>
#include <linux/file.h>

_Static_assert(__builtin_types_compatible_p(typeof(&get_file_rcu),
		struct file *(*)(struct file __rcu **)), "get_file_rcu(&f)");
