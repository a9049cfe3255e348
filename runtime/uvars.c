/* uvars.c - what target variables of user-space programs need beyond
 * memory.c: the load bias of a program or library in the current process
 * (@var and static variables of process probes), user strings in pretty
 * printing, and guru-mode writes of user memory.  Context: any; nothing
 * here sleeps (the memory map is read only when its lock is free). */
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/fs.h>
#include <linux/dcache.h>
#include <linux/namei.h>
#include <linux/uaccess.h>
#include <linux/sched/mm.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/delay.h>
#include "stp_internal.h"

#define STP_UB_CACHE 16
#define STP_UPATHS_MAX 64

/* stp_module.upaths resolved at module start: inodes held (igrab) until
 * stp_uvars_unregister; compared only, never dereferenced by probes. */
static struct inode *stp_upath_inodes[STP_UPATHS_MAX];
static int stp_nupaths;

int stp_uvars_register(void)
{
	int i;

	for (i = 0; stp_module.upaths && stp_module.upaths[i] &&
		    i < STP_UPATHS_MAX; i++) {
		struct path p;
		struct inode *inode = NULL;

		/* a file that is not there now is looked for by d_path */
		if (!kern_path(stp_module.upaths[i], LOOKUP_FOLLOW, &p)) {
			inode = igrab(d_inode(p.dentry));
			path_put(&p);
		}
		stp_upath_inodes[i] = inode;
	}
	smp_store_release(&stp_nupaths, i);
	return 0;
}

void stp_uvars_unregister(void)
{
	int i, n = stp_nupaths;

	WRITE_ONCE(stp_nupaths, 0);
	for (i = 0; i < n; i++) {
		if (stp_upath_inodes[i])
			iput(stp_upath_inodes[i]);
		stp_upath_inodes[i] = NULL;
	}
}

/* Files already matched by path: their inodes, compared only. */
static struct {
	const char *path;
	struct inode *inode;
} stp_ub_cache[STP_UB_CACHE];

/* stp_ub_is - is @file the file @path names?  The file of a uprobe
 * registered on @path or of stp_module.upaths (resolved at module start,
 * symlinks followed),
 * else through the cache, else by d_path (which takes no sleeping lock;
 * it sees the file's real path, so a path through a symlink fails). */
static int stp_ub_is(struct file *file, const char *path)
{
	struct inode *inode = file_inode(file), *known;
	char buf[256], *p;
	int i, free_slot = -1;

	known = stp_uprobes_inode(path);
	for (i = 0; !known && i < smp_load_acquire(&stp_nupaths); i++)
		if (!strcmp(stp_module.upaths[i], path))
			known = READ_ONCE(stp_upath_inodes[i]);
	if (known)
		return known == inode;

	for (i = 0; i < STP_UB_CACHE; i++) {
		if (READ_ONCE(stp_ub_cache[i].path) == path &&
		    READ_ONCE(stp_ub_cache[i].inode) == inode)
			return 1;
		if (!READ_ONCE(stp_ub_cache[i].path) && free_slot < 0)
			free_slot = i;
	}
	p = d_path(&file->f_path, buf, sizeof(buf));
	if (IS_ERR(p) || strcmp(p, path))
		return 0;
	if (free_slot >= 0) {
		WRITE_ONCE(stp_ub_cache[free_slot].inode, inode);
		WRITE_ONCE(stp_ub_cache[free_slot].path, path);
	}
	return 1;
}

/* stp_ubias_at_probe - when the current hit is a uprobe of file @path at
 * a known link-time address (not a return probe: its registers are those
 * of the return), the load bias is the breakpoint's address, which the
 * kernel puts in the instruction pointer for the handlers, less that
 * link-time address: no memory map walk, no lock.  0 and *@bias, or -1. */
static int stp_ubias_at_probe(struct stp_context *c, const char *path,
			      unsigned long *bias)
{
	const struct stp_probe_desc *p = c->probe;

	if (!p || p->kind != STP_PROBE_UPROBE || p->is_return || !p->uvaddr ||
	    !p->path || !c->regs || !user_mode(c->regs) ||
	    (p->path != path && strcmp(p->path, path)))
		return -1;
	*bias = instruction_pointer(c->regs) - p->uvaddr;
	return 0;
}

/* A memory map's lock taken by another thread (an mmap() of its) is
 * tried again this many times, STP_UB_WAIT_US apart, before a walk gives
 * up: a probe waits at most some 100 us. */
#define STP_UB_TRIES 50
#define STP_UB_WAIT_US 2

/* stp_ubias_walk - stp_ubias_find() by a walk of the memory map: 0, -1
 * when @path is not mapped, -2 when it cannot tell (no user process, an
 * interrupt, the map's lock taken all along) */
static int stp_ubias_walk(const char *path, unsigned long vaddr0,
			  unsigned long *bias)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	int found = -1, tries = 0;

	if (in_interrupt() || !mm || (current->flags & PF_KTHREAD))
		return -2;
	while (!mmap_read_trylock(mm)) {
		if (++tries >= STP_UB_TRIES)
			return -2;
		udelay(STP_UB_WAIT_US);
	}
	for (vma = find_vma(mm, 0); vma; vma = find_vma(mm, vma->vm_end)) {
		if (!vma->vm_file || vma->vm_pgoff ||
		    !stp_ub_is(vma->vm_file, path))
			continue;
		*bias = vma->vm_start - vaddr0;
		found = 0;
		break;
	}
	mmap_read_unlock(mm);
	return found;
}

/**
 * stp_ubias_find - the load bias of file @path (absolute, as the target
 * machine names it) in the current process into *@bias: the start of its
 * mapping of file offset 0 less @vaddr0 (the page-aligned p_vaddr of its
 * first PT_LOAD), so that a link-time address plus the bias is the
 * run-time address; in a uprobe of @path, from the probe's address.
 * Returns 0, or -1 without an error when the file is not mapped, there
 * is no user process (kernel threads, interrupts) or its memory map is
 * busy.  Context: any; never sleeps (mmap_read_trylock).
 */
int stp_ubias_find(struct stp_context *c, const char *path,
		   unsigned long vaddr0, unsigned long *bias)
{
	if (!stp_ubias_at_probe(c, path, bias))
		return 0;
	return stp_ubias_walk(path, vaddr0, bias) ? -1 : 0;
}

/* stp_umapped_at - whether @f's build-id is in the current process's
 * memory at its link-time address plus @bias (a fault-tolerant read) */
static int stp_umapped_at(const struct stp_umapped *f, unsigned long bias)
{
	unsigned char id[64];

	if (!f->id_len || f->id_len > (int)sizeof(id) ||
	    copy_from_user_nofault(id, (const void __user *)(f->id_vaddr + bias),
				   f->id_len))
		return 0;
	return !memcmp(id, f->id, f->id_len);
}

/* What stp_umapped_bias() found, by file and memory map: read and
 * written without a lock, so an entry may be torn or stale.  A bias is
 * used only after stp_umapped_at() finds the file there, which makes it
 * right; "not mapped" only while the memory map has as many areas as
 * then (mapping a file adds some) and the same mmap_base (another
 * process's memory map at the same address has another, with ASLR). */
#define STP_UF_CACHE 64
static struct {
	const struct stp_umapped *f;
	struct mm_struct *mm;
	unsigned long bias;        /* ~0UL: not mapped */
	unsigned long mmap_base;
	int map_count;
} stp_uf_cache[STP_UF_CACHE];

int stp_umapped_bias(struct stp_context *c, const struct stp_umapped *f,
		     unsigned long *bias)
{
	struct mm_struct *mm = current->mm;
	unsigned int slot = hash_long((unsigned long)mm ^ (unsigned long)f,
				      ilog2(STP_UF_CACHE));
	unsigned long b;
	int rc;

	if (!mm || (current->flags & PF_KTHREAD))
		return -1;
	if (!stp_ubias_at_probe(c, f->path, bias)) {
		rc = 0;         /* known for the process's kernel probes too */
		if (READ_ONCE(stp_uf_cache[slot].f) != f ||
		    READ_ONCE(stp_uf_cache[slot].mm) != mm ||
		    READ_ONCE(stp_uf_cache[slot].bias) != *bias)
			goto remember;
		return 0;
	}
	if (f->fixed && stp_umapped_at(f, 0)) {
		*bias = 0;
		return 0;
	}
	if (READ_ONCE(stp_uf_cache[slot].f) == f &&
	    READ_ONCE(stp_uf_cache[slot].mm) == mm) {
		b = READ_ONCE(stp_uf_cache[slot].bias);
		if (b != ~0UL && stp_umapped_at(f, b)) {
			*bias = b;
			return 0;
		}
		if (b == ~0UL &&
		    READ_ONCE(stp_uf_cache[slot].map_count) == READ_ONCE(mm->map_count) &&
		    READ_ONCE(stp_uf_cache[slot].mmap_base) == READ_ONCE(mm->mmap_base))
			return -1;
	}
	rc = stp_ubias_walk(f->path, f->vaddr0, bias);
	if (rc == -2 || (rc == 0 && f->id_len && !stp_umapped_at(f, *bias)))
		return -1;      /* not known: no entry */
remember:
	WRITE_ONCE(stp_uf_cache[slot].f, f);
	WRITE_ONCE(stp_uf_cache[slot].mm, mm);
	WRITE_ONCE(stp_uf_cache[slot].bias, rc ? ~0UL : *bias);
	WRITE_ONCE(stp_uf_cache[slot].mmap_base, READ_ONCE(mm->mmap_base));
	WRITE_ONCE(stp_uf_cache[slot].map_count, READ_ONCE(mm->map_count));
	return rc;
}

/**
 * stp_ubias - stp_ubias_find() for @var and static variables of
 * programs: records at @loc why it cannot tell ("PATH is not mapped in
 * this process", a busy memory map, no process) and returns 0 then.
 * Context: any; never sleeps.
 */
unsigned long stp_ubias(struct stp_context *c, const char *path,
			unsigned long vaddr0, const char *loc)
{
	unsigned long bias = 0;
	int rc;

	if (c->error)
		return 0;
	if (!stp_ubias_at_probe(c, path, &bias))
		return bias;
	rc = stp_ubias_walk(path, vaddr0, &bias);
	if (!rc)
		return bias;
	if (rc == -1) {
		snprintf(c->error_buf, sizeof(c->error_buf),
			 "%s is not mapped in this process", path);
		stp_error(c, c->error_buf, loc);
	} else if (in_interrupt()) {    /* no memory map walk in interrupts */
		stp_error(c, "a program's variable cannot be read in "
			  "interrupt context", loc);
	} else if (!current->mm || (current->flags & PF_KTHREAD)) {
		stp_error(c, "no user process here for a program's variable",
			  loc);
	} else {
		stp_error(c, "the process's memory map is busy", loc);
	}
	return 0;
}

/**
 * stp_tv_ustr - as stp_tv_kstr() for a string in the current task's user
 * memory.
 */
void stp_tv_ustr(struct stp_context *c, char *dst, unsigned long addr,
		 long max)
{
	stp_tv_str(dst, addr, max, 1);
}

/**
 * stp_write_user - as stp_write_kernel() for the current task's user
 * memory ("user write fault at 0xADDR").
 */
void stp_write_user(struct stp_context *c, unsigned long addr, int size,
		    u64 v, const char *loc)
{
	if (copy_to_user_nofault((void __user *)addr, &v, size) &&
	    !c->error) {
		snprintf(c->error_buf, sizeof(c->error_buf),
			 "user write fault at 0x%lx", addr);
		stp_error(c, c->error_buf, loc);
	}
}
