/* stack.c - kernel backtraces (ORC unwinder) and symbol names (kallsyms)
 * for the context tapsets: backtrace(), print_backtrace(), symname(),
 * symdata(), probefunc(), probemod(), addr(), uaddr(), task_backtrace().
 *
 * Everything here runs in probe context with preemption disabled: no
 * sleeping, no allocation.  The symbol text is formatted into a per-CPU
 * scratch buffer, which is safe because probe hits never nest on a CPU
 * (a hit inside a hit is skipped by stp_run_probe). */
#include <linux/module.h>
#include <linux/kallsyms.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <asm/unwind.h>
#include "stp_internal.h"

static DEFINE_PER_CPU(char[KSYM_SYMBOL_LEN], stp_sym_buf);

/* stp_sym - sprint_symbol (@offset) or sprint_symbol_no_offset of @addr
 * into this CPU's scratch buffer: "name+0x0/0x1a0 [mod]", "0x..." when
 * no symbol contains @addr.  Returns the buffer. */
static char *stp_sym(unsigned long addr, bool offset)
{
	char *b = *this_cpu_ptr(&stp_sym_buf);

	if (offset)
		sprint_symbol(b, addr);
	else
		sprint_symbol_no_offset(b, addr);
	return b;
}

/* stp_sym_found - @text (from stp_sym) names a symbol, not just the
 * address */
static bool stp_sym_found(const char *text)
{
	return !(text[0] == '0' && text[1] == 'x');
}

void stp_symname(char *dst, unsigned long addr)
{
	char *b = stp_sym(addr, false), *sp = strchr(b, ' ');

	if (sp)
		*sp = '\0';     /* drop " [mod]" */
	stp_strcpy(dst, b);
}

void stp_symdata(char *dst, unsigned long addr)
{
	char *b = stp_sym(addr, true);

	stp_strcpy(dst, b);
	if (stp_sym_found(b) && !strchr(b, ' '))
		stp_strcat(dst, " [kernel]");
}

void stp_symmod(char *dst, unsigned long addr)
{
	char *b = stp_sym(addr, false), *mod = strchr(b, '[');
	size_t len;

	dst[0] = '\0';
	if (!stp_sym_found(b))
		return;
	if (!mod) {
		stp_strcpy(dst, "kernel");
		return;
	}
	mod++;
	len = strcspn(mod, "] ");
	if (len >= MAXSTRINGLEN)
		len = MAXSTRINGLEN - 1;
	memcpy(dst, mod, len);
	dst[len] = '\0';
}

/* stp_walk - call @fn for at most MAXBACKTRACE frames of @task's kernel
 * stack: from @regs when given (kernel mode; first the address in them),
 * else from @task's saved state, or for current from here, skipping the
 * runtime's own leading frames. */
static void stp_walk(struct task_struct *task, struct pt_regs *regs,
		     stp_frame_fn fn, void *arg)
{
	struct unwind_state st;
	bool ours = !regs && task == current;
	int n = 0;

	if (regs && user_mode(regs))
		return;
	if (regs) {
		if (!fn(instruction_pointer(regs), arg))
			return;
		n++;
	}
	for (unwind_start(&st, task, regs, NULL);
	     !unwind_done(&st) && n < MAXBACKTRACE; unwind_next_frame(&st)) {
		unsigned long a = unwind_get_return_address(&st);

		if (!a)
			break;
		if (ours && within_module(a, THIS_MODULE))
			continue;
		ours = false;
		if (!fn(a, arg))
			return;
		n++;
	}
}

/* stp_stack_walk - stp_walk of the hit's stack (see stp_backtrace in
 * stp_runtime.h). */
static void stp_stack_walk(struct stp_context *c, stp_frame_fn fn, void *arg)
{
	stp_walk(current, c->regs, fn, arg);
}

struct stp_hex_out {
	char *dst;
	size_t len;
};

static bool stp_frame_hex(unsigned long addr, void *arg)
{
	struct stp_hex_out *o = arg;
	int w;

	/* "0x" + 16 digits, and a separating space */
	w = snprintf(o->dst + o->len, MAXSTRINGLEN - o->len, "%s0x%lx",
		     o->len ? " " : "", addr);
	if (o->len + w >= MAXSTRINGLEN) {
		o->dst[o->len] = '\0';  /* keep only whole addresses */
		return false;
	}
	o->len += w;
	return true;
}

void stp_backtrace(struct stp_context *c, char *dst)
{
	struct stp_hex_out o = { .dst = dst, .len = 0 };

	dst[0] = '\0';
	stp_stack_walk(c, stp_frame_hex, &o);
}

struct stp_frame_out {
	struct stp_context *c;
	char *dst;             /* NULL: print */
	bool fileline;         /* with " at FILE:LINE" where known */
	int n;                 /* frames so far */
};

/* stp_frame_line - " 0xffffffff81234567 : vfs_read+0x0/0x1a0 [kernel]\n"
 * (with o->fileline " ... at fs/read_write.c:450 [kernel]\n": the line of
 * the probed address itself for a hit's first frame, else of the call
 * before a return address) printed, or appended to o->dst (false when it
 * is full) */
static bool stp_frame_line(unsigned long addr, void *arg)
{
	struct stp_frame_out *o = arg;
	char *b = stp_sym(addr, true);
	bool found = stp_sym_found(b);
	bool mod = strchr(b, ' ') != NULL;
	unsigned long look = addr - (o->n++ || !o->c->regs);
	const char *file = NULL;
	u32 line = 0;

	if (o->fileline && found && !mod)
		line = stp_kline_at(look, &file);
	if (line) {
		stp_printf(o->c, " 0x%016lx : %s at %s:%u [kernel]\n", addr, b,
			   file, line);
		return true;
	}
	if (!o->dst) {
		stp_printf(o->c, " 0x%016lx : %s%s\n", addr, b,
			   found && !mod ? " [kernel]" : "");
		return true;
	}
	stp_sprintf_cat(o->dst, " 0x%016lx : %s%s\n", addr, b,
			found && !mod ? " [kernel]" : "");
	return strlen(o->dst) < MAXSTRINGLEN - 1;
}

void stp_task_backtrace(struct stp_context *c, char *dst,
			unsigned long task, const char *loc)
{
	struct stp_hex_out o = { .dst = dst, .len = 0 };
	struct task_struct *t;
	pid_t pid;

	dst[0] = '\0';
	if (task == (unsigned long)current) {
		stp_walk(current, NULL, stp_frame_hex, &o);
		return;
	}
	/* @task must be a live task: the one its pid names */
	pid = stp_read_kernel(c, task + offsetof(struct task_struct, pid),
			      sizeof(pid_t), loc);
	if (c->error)
		return;
	rcu_read_lock();
	t = pid > 0 ? pid_task(find_pid_ns(pid, &init_pid_ns), PIDTYPE_PID) :
		NULL;
	if ((unsigned long)t != task) {
		rcu_read_unlock();
		snprintf(c->error_buf, sizeof(c->error_buf),
			 "task_backtrace: 0x%lx is not a task", task);
		stp_error(c, c->error_buf, loc);
		return;
	}
	if (READ_ONCE(t->on_cpu)) {
		rcu_read_unlock();
		stp_error(c, "task_backtrace: the task is running on another "
			  "CPU", loc);
		return;
	}
	/* its stack is freed only after an RCU grace period */
	stp_walk(t, NULL, stp_frame_hex, &o);
	rcu_read_unlock();
}

void stp_print_backtrace(struct stp_context *c, char *dst)
{
	struct stp_frame_out o = { .c = c, .dst = dst };

	if (dst)
		dst[0] = '\0';
	stp_stack_walk(c, stp_frame_line, &o);
}

void stp_print_backtrace_fileline(struct stp_context *c)
{
	struct stp_frame_out o = { .c = c, .fileline = true };

	stp_stack_walk(c, stp_frame_line, &o);
}

void stp_each_addr(const char *s, stp_frame_fn fn, void *arg)
{
	char tok[24];
	int n = 0;

	while (*s && n < MAXBACKTRACE) {
		size_t len;
		unsigned long addr;

		s += strspn(s, " ");
		len = strcspn(s, " ");
		if (!len)
			break;
		if (len < sizeof(tok)) {
			memcpy(tok, s, len);
			tok[len] = '\0';
			if (!kstrtoul(tok, 0, &addr) && !fn(addr, arg))
				break;
		}
		s += len;
		n++;
	}
}

void stp_print_stack(struct stp_context *c, char *dst, const char *s)
{
	struct stp_frame_out o = { .c = c, .dst = dst };

	if (dst)
		dst[0] = '\0';
	stp_each_addr(s, stp_frame_line, &o);
}

unsigned long stp_probe_addr(struct stp_context *c)
{
	return c->regs ? instruction_pointer(c->regs) : 0;
}

unsigned long stp_probe_uaddr(struct stp_context *c)
{
	if (c->regs && user_mode(c->regs))
		return instruction_pointer(c->regs);
	if (!current->mm || (current->flags & PF_KTHREAD))
		return 0;
	return instruction_pointer(task_pt_regs(current));
}

/* stp_probe_kernel_ip - the hit's kernel-mode address, or 0 */
static unsigned long stp_probe_kernel_ip(struct stp_context *c)
{
	return c->regs && !user_mode(c->regs) ?
		instruction_pointer(c->regs) : 0;
}

void stp_probefunc(struct stp_context *c, char *dst)
{
	const struct stp_probe_desc *p = c->probe;
	const char *fn = stp_kset_function(c);
	unsigned long ip;

	if (fn) {       /* a probe set's row */
		stp_strcpy(dst, fn);
		return;
	}
	if (p && (p->kind == STP_PROBE_KPROBE || p->kind == STP_PROBE_UPROBE) &&
	    p->symbol) {     /* uprobes: the function of the program */
		const char *colon = strchr(p->symbol, ':');

		stp_strcpy(dst, colon ? colon + 1 : p->symbol);
		return;
	}
	dst[0] = '\0';
	ip = stp_probe_kernel_ip(c);
	if (ip)
		stp_symname(dst, ip);
}

void stp_probemod(struct stp_context *c, char *dst)
{
	const struct stp_probe_desc *p = c->probe;
	unsigned long ip;

	if (stp_kset_function(c)) {     /* sets are of the kernel only */
		stp_strcpy(dst, "kernel");
		return;
	}
	if (p && p->kind == STP_PROBE_KPROBE && p->symbol) {
		const char *colon = strchr(p->symbol, ':');
		size_t len = colon ? (size_t)(colon - p->symbol) : 0;

		if (!colon) {
			stp_strcpy(dst, "kernel");
			return;
		}
		if (len >= MAXSTRINGLEN)
			len = MAXSTRINGLEN - 1;
		memcpy(dst, p->symbol, len);
		dst[len] = '\0';
		return;
	}
	dst[0] = '\0';
	ip = stp_probe_kernel_ip(c);
	if (ip)
		stp_symmod(dst, ip);
}

struct stp_nth {
	s64 left;
	unsigned long addr;
};

static bool stp_frame_nth(unsigned long addr, void *arg)
{
	struct stp_nth *o = arg;

	if (o->left-- > 0)
		return true;
	o->addr = addr;
	return false;
}

unsigned long stp_stack_nth(struct stp_context *c, s64 n)
{
	struct stp_nth o = { .left = n, .addr = 0 };

	if (n >= 0)
		stp_stack_walk(c, stp_frame_nth, &o);
	return o.addr;
}
