/* proc_ops - /proc files are made with proc_create_data() from a struct
 * proc_ops (proc_open, proc_read, proc_write, proc_lseek, proc_release)
 * and removed with proc_remove() (5.6 on: 6.1 and 6.12).
 * @serves procfs/files
 */
#include <linux/proc_fs.h>
#include <linux/fs.h>

static const struct proc_ops stp_kcap_proc_ops = {
	.proc_open = NULL,
	.proc_read = NULL,
	.proc_write = NULL,
	.proc_lseek = NULL,
	.proc_release = NULL,
};

static void stp_kcap_proc_ops_fn(struct proc_dir_entry *dir)
{
	proc_remove(proc_create_data("x", 0444, dir, &stp_kcap_proc_ops, NULL));
	proc_remove(proc_mkdir("y", dir));
}
