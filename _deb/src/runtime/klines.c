/* klines.c - source file and line of a kernel address (symfileline(),
 * symfile(), symline()) from the kernel's line table, which the
 * translator puts into the module for scripts that call them
 * (codegen/klines_gen.c; struct stp_klines_desc in stp_runtime.h).
 *
 * The table is by link-time address: a run-time address is moved back by
 * the kernel's KASLR offset (that of _printk).  Rows are a byte stream of
 * deltas with a checkpoint every STP_KLINES_EVERY rows; a lookup is a
 * binary search of the checkpoints and at most that many rows decoded.
 * Nothing here sleeps, allocates or takes a lock. */
#include <linux/kernel.h>
#include <linux/printk.h>
#include "stp_internal.h"

static u64 stp_kl_uleb(const u8 **p)
{
	u64 v = 0;
	int shift = 0;
	u8 b;

	do {
		b = *(*p)++;
		if (shift < 64)
			v |= (u64)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	return v;
}

static s64 stp_kl_sleb(const u8 **p)
{
	s64 v = 0;
	int shift = 0;
	u8 b;

	do {
		b = *(*p)++;
		if (shift < 64)
			v |= (s64)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (shift < 64 && (b & 0x40))
		v |= -((s64)1 << shift);
	return v;
}

/* stp_kline_at - see stp_internal.h. */
u32 stp_kline_at(unsigned long addr, const char **file)
{
	const struct stp_klines_desc *k = stp_module.klines;
	const u32 *ck;
	const u8 *p;
	u64 target, a;
	u32 lo, hi, line, f, i, last;

	*file = NULL;
	if (!k || !k->nck)
		return 0;
	target = addr - ((unsigned long)&_printk - k->anchor);
	if (target < k->base || target - k->base > 0xffffffffULL)
		return 0;
	target -= k->base;
	lo = 0;
	hi = k->nck;            /* the last checkpoint at or before target */
	while (hi - lo > 1) {
		u32 mid = lo + (hi - lo) / 2;

		if (k->ck[4 * mid] <= target)
			lo = mid;
		else
			hi = mid;
	}
	ck = &k->ck[4 * lo];
	if (ck[0] > target)
		return 0;
	a = ck[0];
	p = k->stream + ck[1];
	line = ck[2];
	f = ck[3];
	last = min_t(u32, STP_KLINES_EVERY - 1,
		     k->nrows - 1 - lo * STP_KLINES_EVERY);
	for (i = 0; i < last; i++) {
		const u8 *q = p;
		u64 na = a + stp_kl_uleb(&q);
		s64 v;

		if (na > target)
			break;
		v = stp_kl_sleb(&q);
		line += (s32)(v >> 1);
		if (v & 1)
			f = (u32)stp_kl_uleb(&q);
		a = na;
		p = q;
	}
	/* past the table's last row (a sequence end): unknown */
	if (!line || f >= k->nsrcs)
		return 0;
	*file = k->srcs + k->src_off[f];
	return line;
}

/**
 * stp_ksymfileline - see stp_runtime.h.
 */
void stp_ksymfileline(char *dst, unsigned long addr, int what)
{
	const char *file;
	u32 line = stp_kline_at(addr, &file);

	if (!line)
		snprintf(dst, MAXSTRINGLEN, "0x%lx", addr);
	else if (what == STP_KLINE_FILE)
		snprintf(dst, MAXSTRINGLEN, "%s", file);
	else if (what == STP_KLINE_LINE)
		snprintf(dst, MAXSTRINGLEN, "%u", line);
	else
		snprintf(dst, MAXSTRINGLEN, "%s:%u", file, line);
}
