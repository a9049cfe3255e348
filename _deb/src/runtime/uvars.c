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

/**
 * stp_ubias - the load bias of file @path (absolute, as the target machine
 * names it) in the current process: the start of its mapping of file
 * offset 0 less @vaddr0 (the page-aligned p_vaddr of its first PT_LOAD),
 * so that a link-time address plus the bias is the run-time address.
 * Records "PATH is not mapped in this process" (or that its memory map is
 * busy) at @loc and returns 0 when it cannot tell.  Context: any; never
 * sleeps (mmap_read_trylock).
 */
unsigned long stp_ubias(struct stp_context *c, const char *path,
			unsigned long vaddr0, const char *loc)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	unsigned long bias = 0;
	int found = 0;

	if (c->error)
		return 0;
	if (in_interrupt()) {   /* no memory map walk in interrupts */
		stp_error(c, "a program's variable cannot be read in "
			  "interrupt context", loc);
		return 0;
	}
	if (!mm || (current->flags & PF_KTHREAD)) {
		stp_error(c, "no user process here for a program's variable",
			  loc);
		return 0;
	}
	if (!mmap_read_trylock(mm)) {
		stp_error(c, "the process's memory map is busy", loc);
		return 0;
	}
	for (vma = find_vma(mm, 0); vma; vma = find_vma(mm, vma->vm_end)) {
		if (!vma->vm_file || vma->vm_pgoff ||
		    !stp_ub_is(vma->vm_file, path))
			continue;
		bias = vma->vm_start - vaddr0;
		found = 1;
		break;
	}
	mmap_read_unlock(mm);
	if (!found) {
		snprintf(c->error_buf, sizeof(c->error_buf),
			 "%s is not mapped in this process", path);
		stp_error(c, c->error_buf, loc);
	}
	return bias;
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
