/* procfs.c - procfs probes: files under /proc/systemtap/MODULE whose
 * read runs the file's .read probe and whose writes run its .write probe
 * (stapprobes(3stap), PROCFS).
 *
 * The files are created with the other probes (stp_probes_register) and
 * removed with them on every way the run ends (stp_probes_unregister):
 * proc_remove() waits for the file operations in progress and closes the
 * open files, so no handler of ours runs after it.  A probe body runs in
 * the reader's or writer's process through stp_run_handler(), like every
 * probe (preemption disabled, no sleeping); the buffers it fills are
 * allocated before, in process context.  c->entry_data points to the
 * operation's struct stp_procfs_io.
 *
 * /proc/systemtap itself is created when missing and left in place (it
 * holds no module memory): removing it is only safe when empty, which a
 * module cannot check without procfs internals.
 */
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/mutex.h>
#include "stp_internal.h"

/* One file: its .read probe and its first .write probe (either may be
 * NULL). */
struct stp_procfs_file {
	const char *name;
	const struct stp_probe_desc *rd, *wr;
	struct proc_dir_entry *pde;
};

/* What one read or one piece of a write gives a probe ($value). */
struct stp_procfs_io {
	char *buf;
	size_t len;                /* bytes in buf */
	size_t size;               /* bytes buf holds, NUL included */
	int write;
};

/* An open file: the text its .read probe gave, made on the first read. */
struct stp_procfs_open {
	struct mutex lock;
	int filled;
	struct stp_procfs_io io;
};

static struct stp_procfs_file *stp_pfiles;   /* [stp_module.nprobes] */
static int stp_npfiles;
static struct proc_dir_entry *stp_proc_dir;  /* systemtap/MODULE */

void stp_procfs_value(struct stp_context *c, char *dst, const char *loc)
{
	struct stp_procfs_io *io = c->entry_data;
	size_t n;

	dst[0] = '\0';
	if (!c->probe || c->probe->kind != STP_PROBE_PROCFS || !io) {
		stp_error(c, "$value outside a procfs probe", loc);
		return;
	}
	n = min_t(size_t, io->len, MAXSTRINGLEN - 1);
	memcpy(dst, io->buf, n);
	dst[n] = '\0';
}

void stp_procfs_set_value(struct stp_context *c, const char *s, int append,
			  const char *loc)
{
	struct stp_procfs_io *io = c->entry_data;
	size_t n;

	if (!c->probe || c->probe->kind != STP_PROBE_PROCFS || !io ||
	    io->write) {
		stp_error(c, "$value can only be set in a procfs .read probe",
			  loc);
		return;
	}
	if (!append)
		io->len = 0;
	n = min(strlen(s), io->size - 1 - io->len);
	memcpy(io->buf + io->len, s, n);
	io->len += n;
	io->buf[io->len] = '\0';
}

static int stp_procfs_open(struct inode *inode, struct file *file)
{
	struct stp_procfs_file *f = pde_data(inode);
	struct stp_procfs_open *o;

	if (!(file->f_mode & FMODE_READ) || !f->rd)
		return 0;
	o = kzalloc(sizeof(*o), GFP_KERNEL);
	if (!o)
		return -ENOMEM;
	o->io.size = (f->rd->procfs_maxsize > 0 ? f->rd->procfs_maxsize :
		      STP_PROCFS_BUFSIZE) + 1;
	o->io.buf = kzalloc(o->io.size, GFP_KERNEL);
	if (!o->io.buf) {
		kfree(o);
		return -ENOMEM;
	}
	mutex_init(&o->lock);
	file->private_data = o;
	return 0;
}

static int stp_procfs_release(struct inode *inode, struct file *file)
{
	struct stp_procfs_open *o = file->private_data;

	if (o) {
		kfree(o->io.buf);
		kfree(o);
	}
	return 0;
}

static ssize_t stp_procfs_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct stp_procfs_file *f = pde_data(file_inode(file));
	struct stp_procfs_open *o = file->private_data;
	ssize_t rc;

	if (!o)
		return -EINVAL;
	mutex_lock(&o->lock);
	if (!o->filled) {
		/* the probe runs once per open file, on its first read */
		stp_run_handler(f->rd, NULL, STP_STATE_RUNNING, f->rd->handler,
				&o->io, NULL);
		o->filled = 1;
	}
	rc = simple_read_from_buffer(ubuf, count, ppos, o->io.buf, o->io.len);
	mutex_unlock(&o->lock);
	return rc;
}

/* stp_procfs_run_writers - run every .write probe of file @f (several
 * may share one: input.char and input.line) with @io, in table order. */
static void stp_procfs_run_writers(const struct stp_procfs_file *f,
				   struct stp_procfs_io *io)
{
	const struct stp_probe_desc *p;

	for (p = f->wr; p < stp_module.probes + stp_module.nprobes; p++)
		if (p->kind == STP_PROBE_PROCFS && p->procfs_write &&
		    !strcmp(p->symbol, f->name))
			stp_run_handler(p, NULL, STP_STATE_RUNNING, p->handler,
					io, NULL);
}

static ssize_t stp_procfs_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct stp_procfs_file *f = pde_data(file_inode(file));
	struct stp_procfs_io io = { .write = 1, .size = MAXSTRINGLEN };
	size_t done = 0;

	if (!f->wr)
		return -EINVAL;
	io.buf = kmalloc(MAXSTRINGLEN, GFP_KERNEL);
	if (!io.buf)
		return -ENOMEM;
	/* one probe hit per MAXSTRINGLEN - 1 bytes */
	while (done < count) {
		io.len = min_t(size_t, count - done, MAXSTRINGLEN - 1);
		if (copy_from_user(io.buf, ubuf + done, io.len)) {
			kfree(io.buf);
			return done ? done : -EFAULT;
		}
		io.buf[io.len] = '\0';
		stp_procfs_run_writers(f, &io);
		done += io.len;
	}
	kfree(io.buf);
	*ppos += done;
	return done;
}

static const struct proc_ops stp_procfs_ops = {
	.proc_open = stp_procfs_open,
	.proc_release = stp_procfs_release,
	.proc_read = stp_procfs_read,
	.proc_write = stp_procfs_write,
	.proc_lseek = default_llseek,
};

/* stp_procfs_mode - the file's permissions: 0400 for a .read probe, 0200
 * for a .write probe, 0600 for both; with umask(U) 0444 & ~U, 0222 & ~U. */
static umode_t stp_procfs_mode(const struct stp_procfs_file *f)
{
	umode_t m = 0;

	if (f->rd)
		m |= f->rd->procfs_umask >= 0 ? 0444 & ~f->rd->procfs_umask : 0400;
	if (f->wr)
		m |= f->wr->procfs_umask >= 0 ? 0222 & ~f->wr->procfs_umask : 0200;
	return m;
}

/* stp_procfs_mkdir - /proc/systemtap/MODULE (and /proc/systemtap when
 * missing).  Returns 0 or -errno. */
static int stp_procfs_mkdir(void)
{
	struct proc_dir_entry *top = NULL;
	struct path path;
	char *name;

	if (kern_path("/proc/" STP_DEBUGFS_DIR, LOOKUP_DIRECTORY, &path) == 0) {
		path_put(&path);
		name = kasprintf(GFP_KERNEL, STP_DEBUGFS_DIR "/%s",
				 THIS_MODULE->name);
		if (!name)
			return -ENOMEM;
		stp_proc_dir = proc_mkdir(name, NULL);
		kfree(name);
	} else {
		top = proc_mkdir(STP_DEBUGFS_DIR, NULL);
		if (!top)
			return -ENOMEM;
		stp_proc_dir = proc_mkdir(THIS_MODULE->name, top);
	}
	return stp_proc_dir ? 0 : -EEXIST;
}

int stp_procfs_register(void)
{
	int i, j, rc;

	for (i = 0; i < stp_module.nprobes; i++)
		if (stp_module.probes[i].kind == STP_PROBE_PROCFS)
			break;
	if (i == stp_module.nprobes)
		return 0;
	stp_pfiles = kvcalloc(stp_module.nprobes, sizeof(*stp_pfiles),
			     GFP_KERNEL);
	if (!stp_pfiles)
		return -ENOMEM;
	for (i = 0; i < stp_module.nprobes; i++) {
		const struct stp_probe_desc *p = &stp_module.probes[i];

		if (p->kind != STP_PROBE_PROCFS || !p->symbol)
			continue;
		for (j = 0; j < stp_npfiles; j++)
			if (!strcmp(stp_pfiles[j].name, p->symbol))
				break;
		if (j == stp_npfiles)
			stp_pfiles[stp_npfiles++].name = p->symbol;
		if (p->procfs_write && !stp_pfiles[j].wr)
			stp_pfiles[j].wr = p;   /* the first; see run_writers */
		else
			stp_pfiles[j].rd = p;
	}
	rc = stp_procfs_mkdir();
	if (rc)
		goto fail;
	for (j = 0; j < stp_npfiles; j++) {
		struct stp_procfs_file *f = &stp_pfiles[j];

		f->pde = proc_create_data(f->name, stp_procfs_mode(f),
					  stp_proc_dir, &stp_procfs_ops, f);
		if (!f->pde) {
			rc = -ENOMEM;
			goto fail;
		}
	}
	return 0;
fail:
	stp_ctl_send_text(STP_MSG_ERROR, "ERROR: cannot create /proc/"
			  STP_DEBUGFS_DIR "/%s (rc %d)\n", THIS_MODULE->name,
			  rc);
	stp_procfs_unregister();
	return rc;
}

void stp_procfs_unregister(void)
{
	if (stp_proc_dir) {
		proc_remove(stp_proc_dir);   /* the files too; waits for users */
		stp_proc_dir = NULL;
	}
	kvfree(stp_pfiles);
	stp_pfiles = NULL;
	stp_npfiles = 0;
}
