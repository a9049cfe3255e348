/* ustack.c - user-space stacks and symbols (see stp_ustack.h):
 * ubacktrace(), print_ubacktrace(), usymname(), usymdata(), umodname(),
 * ucallers(), print_usyms() of tapset/linux/ucontext.stp.
 *
 * The unwinder starts from the task's user registers (the probe's own in
 * uprobe handlers, else the ones saved at its entry into the kernel) and
 * for each frame looks the address up in the table of its binary: a rule
 * gives the CFA from rsp or rbp, the return address at CFA-8 and where
 * the caller's rbp is (the translator's digest of the binary's .eh_frame
 * CFI).  Without a rule (a binary without tables, the vdso, a JIT) it
 * follows the frame-pointer chain.  At most MAXBACKTRACE frames; the walk
 * stops at a zero return address, a read fault, or a stack pointer that
 * does not grow.
 *
 * All of it runs in probe context with preemption disabled: the task's
 * mmap lock is only tried (mmap_read_trylock, never in NMI context; with
 * interrupts disabled it is dropped from an irq_work, see stp_udefer),
 * user memory read with copy_from_user_nofault, text formatted
 * in a per-CPU scratch buffer (probe hits never nest on a CPU). */
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/fs.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/irq_work.h>
#include <linux/sched/task_stack.h>
#include "stp_internal.h"

#define STP_UPATH_LEN 256

static struct inode **stp_uinodes;     /* [nfiles], NULL: not found */

struct stp_uscratch {
	char line[MAXSTRINGLEN];
	char path[STP_UPATH_LEN];
};
static DEFINE_PER_CPU(struct stp_uscratch, stp_uscratch);

/* A read lock of the mmap lock taken with interrupts disabled is dropped
 * from an irq_work, once they are enabled again: mmap_read_unlock may
 * wake a waiting writer, and the code a probe interrupted may hold the
 * scheduler's locks that wakeup needs.  One pending unlock per CPU; while
 * it is pending, later calls on that CPU with interrupts disabled use
 * that lock when it is their task's mm (calls of the same hit), else
 * resolve nothing. */
struct stp_udefer {
	struct irq_work work;
	struct mm_struct *mm;
};
static DEFINE_PER_CPU(struct stp_udefer, stp_udefer);

static void stp_udefer_fn(struct irq_work *w)
{
	struct stp_udefer *d = container_of(w, struct stp_udefer, work);
	struct mm_struct *mm = d->mm;

	d->mm = NULL;
	if (mm)
		mmap_read_unlock(mm);
}

void stp_usyms_init(void)
{
	const struct stp_usyms_desc *u = stp_module.usyms;
	int i;

	for_each_possible_cpu(i)
		init_irq_work(&per_cpu_ptr(&stp_udefer, i)->work,
			      stp_udefer_fn);
	if (!u || u->nfiles <= 0)
		return;
	stp_uinodes = kcalloc(u->nfiles, sizeof(*stp_uinodes), GFP_KERNEL);
	if (!stp_uinodes)
		return;
	for (i = 0; i < u->nfiles; i++) {
		struct path p;
		struct inode *inode;

		if (kern_path(u->files[i].path, LOOKUP_FOLLOW, &p))
			continue;
		inode = d_inode(p.dentry);
		if (inode && S_ISREG(inode->i_mode))
			stp_uinodes[i] = igrab(inode);
		path_put(&p);
	}
}

void stp_usyms_exit(void)
{
	const struct stp_usyms_desc *u = stp_module.usyms;
	int i;

	/* the probes are gone: no unlock is queued any more */
	for_each_possible_cpu(i)
		irq_work_sync(&per_cpu_ptr(&stp_udefer, i)->work);
	if (!stp_uinodes)
		return;
	for (i = 0; i < u->nfiles; i++)
		if (stp_uinodes[i])
			iput(stp_uinodes[i]);
	kfree(stp_uinodes);
	stp_uinodes = NULL;
}

/* The current task's address space, read-locked for one operation. */
struct stp_umap {
	struct mm_struct *mm;   /* NULL: not locked, nothing resolves */
	bool borrowed;          /* the lock is this CPU's pending one */
};

static void stp_umap_lock(struct stp_umap *m)
{
	struct mm_struct *mm = current->mm;

	m->mm = NULL;
	m->borrowed = false;
	if (in_nmi() || !mm || (current->flags & PF_KTHREAD))
		return;
	if (irqs_disabled() && this_cpu_ptr(&stp_udefer)->mm) {
		/* held until interrupts are enabled: still ours to use when
		 * it is this mm's (an earlier call of the same hit) */
		if (this_cpu_ptr(&stp_udefer)->mm == mm) {
			m->mm = mm;
			m->borrowed = true;
		}
		return;
	}
	if (mmap_read_trylock(mm))
		m->mm = mm;
}

static void stp_umap_unlock(struct stp_umap *m)
{
	if (!m->mm || m->borrowed) {
		m->mm = NULL;
		return;
	}
	if (irqs_disabled()) {
		struct stp_udefer *d = this_cpu_ptr(&stp_udefer);

		d->mm = m->mm;
		irq_work_queue(&d->work);
	} else
		mmap_read_unlock(m->mm);
	m->mm = NULL;
}

/* Where an address is: the file mapped there, the offset in it, and
 * that file's tables (NULL when the module has none). */
struct stp_uloc {
	struct file *file;
	unsigned long off;
	const struct stp_ufile *f;
};

static bool stp_uresolve(struct stp_umap *m, unsigned long addr,
			 struct stp_uloc *l)
{
	const struct stp_usyms_desc *u = stp_module.usyms;
	struct vm_area_struct *vma;
	struct inode *inode;
	int i;

	l->file = NULL;
	l->f = NULL;
	if (!m->mm)
		return false;
	vma = find_vma(m->mm, addr);
	if (!vma || addr < vma->vm_start || !vma->vm_file)
		return false;
	l->file = vma->vm_file;
	l->off = addr - vma->vm_start + (vma->vm_pgoff << PAGE_SHIFT);
	inode = file_inode(vma->vm_file);
	if (stp_uinodes)
		for (i = 0; i < u->nfiles; i++)
			if (stp_uinodes[i] == inode) {
				l->f = &u->files[i];
				break;
			}
	return true;
}

/* stp_usym_find - the symbol of @f containing file offset @off */
static const struct stp_usym *stp_usym_find(const struct stp_ufile *f,
					    unsigned long off)
{
	u32 lo = 0, hi = f->nsyms;
	const struct stp_usym *s;

	while (lo < hi) {       /* first symbol above off */
		u32 mid = lo + (hi - lo) / 2;

		if (f->syms[mid].off <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &f->syms[lo - 1];
	if (off < (unsigned long)s->off + s->size ||
	    (!s->size && off == s->off))
		return s;
	return NULL;
}

/* stp_ucfi_find - the unwind rule of @f at file offset @off, or NULL */
static const struct stp_ucfi *stp_ucfi_find(const struct stp_ufile *f,
					    unsigned long off)
{
	u32 lo = 0, hi = f->ncfi;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (f->cfi[mid].off <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || !f->cfi[lo - 1].cfa_reg)
		return NULL;
	return &f->cfi[lo - 1];
}

/* stp_uregs - the user registers the stack starts from, or NULL */
static struct pt_regs *stp_uregs(struct stp_context *c)
{
	if (c->regs && user_mode(c->regs))
		return c->regs;
	if (!current->mm || (current->flags & PF_KTHREAD))
		return NULL;
	return task_pt_regs(current);
}

static bool stp_uget(unsigned long addr, unsigned long *v)
{
	return !copy_from_user_nofault(v, (const void __user *)addr,
				       sizeof(*v));
}

/* stp_uwalk - the user stack's addresses into @pcs (at most @max);
 * returns how many */
static int stp_uwalk(struct stp_context *c, struct stp_umap *m,
		     unsigned long *pcs, int max)
{
	struct pt_regs *regs = stp_uregs(c);
	unsigned long ip, sp, bp;
	int n = 0;

	if (!regs)
		return 0;
	ip = regs->ip;
	sp = regs->sp;
	bp = regs->bp;
	while (n < max) {
		/* return addresses point after the call: look up the call */
		unsigned long look = n ? ip - 1 : ip, ra, nsp;
		const struct stp_ucfi *r = NULL;
		struct stp_uloc l;

		pcs[n++] = ip;
		if (n >= max)
			break;
		if (stp_uresolve(m, look, &l) && l.f)
			r = stp_ucfi_find(l.f, l.off);
		if (r) {
			unsigned long cfa = (r->cfa_reg == 1 ? sp : bp) +
					    (long)r->cfa_off;

			if (!stp_uget(cfa - 8, &ra))
				break;
			if (r->rbp_rule == 1 &&
			    !stp_uget(cfa + (long)r->rbp_off, &bp))
				break;
			nsp = cfa;
		} else {        /* frame pointers */
			unsigned long nbp;

			if (!bp || bp < sp || (bp & 7) ||
			    !stp_uget(bp, &nbp) || !stp_uget(bp + 8, &ra))
				break;
			nsp = bp + 16;
			bp = nbp;
		}
		if (!ra || nsp <= sp)
			break;
		sp = nsp;
		ip = ra;
	}
	return n;
}

/* stp_upath - the path of @l's file: the table's, else the last four
 * components of its name ("usr/lib/x86_64-linux-gnu/libc.so.6") in this
 * CPU's scratch buffer, as vsprintf's %pD4 reads them (RCU, lockless:
 * d_path could spin on rename_lock held by the very code a kprobe
 * interrupted); "" when none */
static const char *stp_upath(const struct stp_uloc *l)
{
	char *b;

	if (l->f)
		return l->f->path;
	if (!l->file)
		return "";
	b = this_cpu_ptr(&stp_uscratch)->path;
	snprintf(b, STP_UPATH_LEN, "%pD4", l->file);
	return b;
}

static const struct stp_uline *stp_uline_find(const struct stp_ufile *f,
					      unsigned long off);

/* stp_uframe - the text of the frame at @addr (looked up at @look) into
 * @b: the print_ubacktrace line (@style STP_UFRAME_FULL), "func+0xOFF\n"
 * (STP_UFRAME_BRIEF), or the full line with " at FILE:LINE" before the
 * path when the line is known (STP_UFRAME_FILELINE) */
static void stp_uframe(struct stp_umap *m, unsigned long addr,
		       unsigned long look, int style, char *b)
{
	int brief = style == STP_UFRAME_BRIEF;
	const struct stp_usym *s = NULL;
	const struct stp_uline *ln;
	struct stp_uloc l;
	bool in_file = stp_uresolve(m, look, &l);

	if (in_file && l.f)
		s = stp_usym_find(l.f, l.off);
	if (s) {
		unsigned long off = l.off + (addr - look) - s->off;

		if (brief)
			snprintf(b, MAXSTRINGLEN, "%s+0x%lx\n",
				 l.f->names + s->name, off);
		else if (style == STP_UFRAME_FILELINE &&
			 (ln = stp_uline_find(l.f, l.off)))
			snprintf(b, MAXSTRINGLEN, " 0x%016lx : %s+0x%lx/0x%x at %s:%u [%s]\n",
				 addr, l.f->names + s->name, off, s->size,
				 l.f->srcs + ln->file, ln->line, l.f->path);
		else
			snprintf(b, MAXSTRINGLEN, " 0x%016lx : %s+0x%lx/0x%x [%s]\n",
				 addr, l.f->names + s->name, off, s->size,
				 l.f->path);
	} else if (brief)
		snprintf(b, MAXSTRINGLEN, "0x%lx\n", addr);
	else if (in_file)
		snprintf(b, MAXSTRINGLEN, " 0x%016lx [%s+0x%lx]\n", addr,
			 stp_upath(&l), l.off + (addr - look));
	else
		snprintf(b, MAXSTRINGLEN, " 0x%016lx\n", addr);
}

/* stp_uemit - print @line, or append it to @dst; false when @dst is full */
static bool stp_uemit(struct stp_context *c, char *dst, const char *line)
{
	size_t have, len = strlen(line);

	if (!dst) {
		stp_printf(c, "%s", line);
		return true;
	}
	have = strlen(dst);
	if (have + len >= MAXSTRINGLEN)
		return false;
	memcpy(dst + have, line, len + 1);
	return true;
}

void stp_print_ubacktrace(struct stp_context *c, char *dst, int style)
{
	unsigned long pcs[MAXBACKTRACE];
	char *b = this_cpu_ptr(&stp_uscratch)->line;
	struct stp_umap m;
	int i, n;

	if (dst)
		dst[0] = '\0';
	stp_umap_lock(&m);
	n = stp_uwalk(c, &m, pcs, MAXBACKTRACE);
	for (i = 0; i < n; i++) {
		stp_uframe(&m, pcs[i], i ? pcs[i] - 1 : pcs[i], style, b);
		if (!stp_uemit(c, dst, b))
			break;
	}
	stp_umap_unlock(&m);
}

/* stp_uhex - @n addresses as "0x... 0x..." into @dst (whole ones only) */
static void stp_uhex(char *dst, const unsigned long *pcs, int n)
{
	size_t len = 0;
	int i, w;

	dst[0] = '\0';
	for (i = 0; i < n; i++) {
		w = snprintf(dst + len, MAXSTRINGLEN - len, "%s0x%lx",
			     len ? " " : "", pcs[i]);
		if (len + w >= MAXSTRINGLEN) {
			dst[len] = '\0';
			return;
		}
		len += w;
	}
}

void stp_ucallers(struct stp_context *c, char *dst, s64 n)
{
	unsigned long pcs[MAXBACKTRACE];
	struct stp_umap m;
	int got, max = n < 0 || n >= MAXBACKTRACE ? MAXBACKTRACE : (int)n + 1;

	stp_umap_lock(&m);
	got = stp_uwalk(c, &m, pcs, max);
	stp_umap_unlock(&m);
	stp_uhex(dst, pcs, got);
}

void stp_ubacktrace(struct stp_context *c, char *dst)
{
	stp_ucallers(c, dst, -1);
}

struct stp_usyms_out {
	struct stp_context *c;
	char *dst;             /* NULL: print */
	struct stp_umap *m;
	char *line;            /* this CPU's scratch line */
};

/* stp_usyms_line - @addr's frame line printed, or appended to o->dst
 * (false when it is full) */
static bool stp_usyms_line(unsigned long addr, void *arg)
{
	struct stp_usyms_out *o = arg;

	stp_uframe(o->m, addr, addr, 0, o->line);
	return stp_uemit(o->c, o->dst, o->line);
}

void stp_print_usyms(struct stp_context *c, char *dst, const char *s)
{
	struct stp_umap m;
	struct stp_usyms_out o = {
		.c = c, .dst = dst, .m = &m,
		.line = this_cpu_ptr(&stp_uscratch)->line,
	};

	if (dst)
		dst[0] = '\0';
	stp_umap_lock(&m);
	stp_each_addr(s, stp_usyms_line, &o);
	stp_umap_unlock(&m);
}

/* stp_usym_at - the symbol at @addr and where it is, or NULL */
static const struct stp_usym *stp_usym_at(struct stp_umap *m,
					  unsigned long addr,
					  struct stp_uloc *l)
{
	if (!stp_uresolve(m, addr, l) || !l->f)
		return NULL;
	return stp_usym_find(l->f, l->off);
}

/* stp_usym_text - usymname() (@data false: "name") or usymdata() ("name+
 * 0xOFF/0xSIZE [path]") of @addr into @dst, "0x..." without a symbol */
static void stp_usym_text(char *dst, unsigned long addr, bool data)
{
	struct stp_umap m;
	struct stp_uloc l;
	const struct stp_usym *s;

	stp_umap_lock(&m);
	s = stp_usym_at(&m, addr, &l);
	if (s && !data)
		strscpy(dst, l.f->names + s->name, MAXSTRINGLEN);
	else if (s)
		snprintf(dst, MAXSTRINGLEN, "%s+0x%lx/0x%x [%s]",
			 l.f->names + s->name, l.off - s->off, s->size,
			 l.f->path);
	else
		snprintf(dst, MAXSTRINGLEN, "0x%lx", addr);
	stp_umap_unlock(&m);
}

void stp_usymname(struct stp_context *c, char *dst, unsigned long addr)
{
	stp_usym_text(dst, addr, false);
}

void stp_usymdata(struct stp_context *c, char *dst, unsigned long addr)
{
	stp_usym_text(dst, addr, true);
}

/* stp_uline_find - the line table row of @f holding file offset @off,
 * NULL when @f has no lines or the row says "unknown" (line 0: after the
 * end of a sequence) */
static const struct stp_uline *stp_uline_find(const struct stp_ufile *f,
					      unsigned long off)
{
	u32 lo = 0, hi;

	if (!f || !f->lines)
		return NULL;
	hi = f->nlines;
	while (lo < hi) {       /* first row above the offset */
		u32 mid = lo + (hi - lo) / 2;

		if (f->lines[mid].off <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && f->lines[lo - 1].line ? &f->lines[lo - 1] : NULL;
}

void stp_usymfileline(struct stp_context *c, char *dst, unsigned long addr)
{
	const struct stp_uline *ln;
	struct stp_umap m;
	struct stp_uloc l;

	snprintf(dst, MAXSTRINGLEN, "0x%lx", addr);
	stp_umap_lock(&m);
	if (stp_uresolve(&m, addr, &l) && (ln = stp_uline_find(l.f, l.off)))
		snprintf(dst, MAXSTRINGLEN, "%s:%u", l.f->srcs + ln->file, ln->line);
	stp_umap_unlock(&m);
}

void stp_umodname(struct stp_context *c, char *dst, unsigned long addr,
		  const char *loc)
{
	struct stp_umap m;
	struct stp_uloc l;

	dst[0] = '\0';
	stp_umap_lock(&m);
	if (stp_uresolve(&m, addr, &l))
		strscpy(dst, stp_upath(&l), MAXSTRINGLEN);
	stp_umap_unlock(&m);
	if (!dst[0]) {
		snprintf(c->error_buf, sizeof(c->error_buf),
			 "umodname: no file is mapped at 0x%lx", addr);
		stp_error(c, c->error_buf, loc);
	}
}

unsigned long stp_umodbase(struct stp_context *c, unsigned long addr,
			   const char *loc)
{
	struct vm_area_struct *vma;
	unsigned long base = 0;
	struct stp_umap m;
	bool mapped = false;

	stp_umap_lock(&m);
	if (m.mm) {
		vma = find_vma(m.mm, addr);
		if (vma && addr >= vma->vm_start && vma->vm_file) {
			struct inode *inode = file_inode(vma->vm_file);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 1, 0)
			VMA_ITERATOR(vmi, m.mm, 0);
#define STP_EACH_VMA(v) for_each_vma(vmi, v)
#else
#define STP_EACH_VMA(v) for (v = m.mm->mmap; v; v = v->vm_next)
#endif

			mapped = true;
			/* the lowest mapping of the file's offset 0 */
			STP_EACH_VMA(vma)
				if (vma->vm_file && !vma->vm_pgoff &&
				    file_inode(vma->vm_file) == inode) {
					base = vma->vm_start;
					break;
				}
#undef STP_EACH_VMA
		}
	}
	stp_umap_unlock(&m);
	if (!base) {
		if (!m.mm && !mapped && (in_nmi() || !current->mm))
			snprintf(c->error_buf, sizeof(c->error_buf),
				 "no user address space here to look up 0x%lx", addr);
		else
			snprintf(c->error_buf, sizeof(c->error_buf),
				 "no file is mapped at user address 0x%lx", addr);
		stp_error(c, c->error_buf, loc);
	}
	return base;
}
