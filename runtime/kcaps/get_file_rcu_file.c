/* get_file_rcu_file - get_file_rcu(file) takes a reference to a file
 * whose count may be zero, and says whether it did (6.1; 6.7 changed it,
 * see get_file_rcu_ptrptr).
 * @serves uprobes/file
 */
#include <linux/fs.h>
#include <linux/file.h>

static bool stp_kcap_get_file_rcu_file(struct file *f)
{
	_Static_assert(__builtin_types_compatible_p(typeof(get_file_rcu(f)),
						    bool), "get_file_rcu(file)");
	return get_file_rcu(f);
}
