/* stat.c - script statistics: per-CPU accumulation, merging, the
 * @count/@sum/... operators and histogram printing, for statistics
 * globals (struct stp_map, one part per CPU) and statistics in a
 * probe's or function's local variable (one struct stp_stat in its
 * frame). */
#include <linux/module.h>
#include <linux/math64.h>
#include "map_int.h"

#define STP_HIST_WIDTH 50          /* columns of the histogram bar */
#define STP_HIST_ELISION 2         /* zero rows kept around non-zero ones */

size_t stp_stat_size(const struct stp_map *m)
{
	return sizeof(struct stp_stat) + m->hist.buckets * sizeof(s64);
}

void stp_stat_reset(const struct stp_map *m, struct stp_stat *s)
{
	memset(s, 0, stp_stat_size(m));
}

void stp_stat_merge_moments(struct stp_stat *dst, const struct stp_stat *src)
{
	if (src->count == 0)
		return;
	if (dst->count == 0 || src->min < dst->min)
		dst->min = src->min;
	if (dst->count == 0 || src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
	dst->acc_a += src->count * src->avg * src->avg;
	dst->acc_b += src->count * src->avg;
	dst->acc_s2 += (src->count - 1) * src->var;
}

void stp_stat_merge(const struct stp_map *m, struct stp_stat *dst,
		    const struct stp_stat *src)
{
	int i;

	if (src->count == 0)
		return;
	stp_stat_merge_moments(dst, src);
	for (i = 0; i < m->hist.buckets; i++)
		dst->hist[i] += src->hist[i];
}

/* stp_hist_bucket - the bucket of @v in histogram @h. */
static int stp_hist_bucket(const struct stp_hist *h, s64 v)
{
	if (h->type == STP_HIST_LOG) {
		if (v == 0)
			return STP_HIST_LOG_BUCKET0;
		if (v > 0)
			return STP_HIST_LOG_BUCKET0 + 1 + ilog2((u64)v);
		return STP_HIST_LOG_BUCKET0 - 1 - ilog2(v == S64_MIN ?
						      (u64)S64_MAX : (u64)-v);
	}
	if (v < h->start)
		return 0;
	v = div64_s64(v - h->start, h->interval) + 1;
	return v > h->buckets - 2 ? h->buckets - 1 : (int)v;
}

void stp_stat_accumulate(struct stp_stat *s, s64 v, int var_shift)
{
	/* the variance is accumulated over v << var_shift (wrapping) */
	s64 x = (s64)((u64)v << var_shift);

	if (s->count == 0) {
		s->min = s->max = s->sum = v;
		s->avg = x;
		s->count = 1;
		s->m2 = s->var = 0;
	} else {
		s64 delta = x - s->avg;

		if (v < s->min)
			s->min = v;
		if (v > s->max)
			s->max = v;
		s->count++;
		s->sum += v;
		/* Welford's running mean and second moment, in integers */
		s->avg += div64_s64(delta, s->count);
		s->m2 += delta * (x - s->avg);
		s->var = div64_s64(s->m2, s->count - 1);
	}
}

void stp_stat_add_value(struct stp_stat *s, const struct stp_hist *h,
			int var_shift, s64 v)
{
	stp_stat_accumulate(s, v, var_shift);
	if (h && h->type != STP_HIST_NONE)
		s->hist[stp_hist_bucket(h, v)]++;
}

int stp_stat_add(struct stp_context *c, struct stp_map *m,
		 const union stp_key *keys, s64 v, const char *loc)
{
	struct stp_htab *t = m->pcpu[smp_processor_id()];
	struct stp_mentry *e = stp_htab_find(t, keys);

	if (!e)
		e = stp_htab_insert(t, keys);
	if (!e) {
		stp_map_overflow(c, m, loc);
		return -1;
	}
	stp_stat_add_value((void *)stp_ent_ptr(t, e, t->val_off), &m->hist,
			   m->var_shift, v);
	return 0;
}

/* stp_stat_gather - merge the CPUs' parts of @keys into m->scratch. */
static struct stp_stat *stp_stat_gather(struct stp_map *m,
					const union stp_key *keys)
{
	unsigned int cpu;

	stp_stat_reset(m, m->scratch);
	for_each_possible_cpu(cpu) {
		struct stp_htab *t = m->pcpu[cpu];
		struct stp_mentry *e = stp_htab_find(t, keys);

		if (e)
			stp_stat_merge(m, m->scratch,
				       (void *)stp_ent_ptr(t, e, t->val_off));
	}
	return m->scratch;
}

s64 stp_stat_value(struct stp_context *c, const struct stp_stat *st,
		   int var_shift, int op, const char *loc)
{
	s64 n = st->count;

	if (op == STP_STAT_COUNT)
		return n;
	if (op == STP_STAT_SUM)
		return st->sum;
	if (n == 0) {
		stp_error(c, "empty aggregate", loc);
		return 0;
	}
	switch (op) {
	case STP_STAT_MIN:
		return st->min;
	case STP_STAT_MAX:
		return st->max;
	case STP_STAT_AVG:
		return div64_s64(st->sum, n);
	case STP_STAT_VARIANCE: {
		/* total variance over the CPUs' parts: (S1 + S2) / (n - 1)
		 * with avg the merged mean, S1 = sum of count*(avg_i-avg)^2
		 * (expanded over the accumulators), S2 = sum of
		 * (count_i-1)*var_i */
		int sh = var_shift;
		s64 avg = div64_s64((s64)((u64)st->sum << sh), n), v;

		if (n < 2)
			return 0;
		v = div64_s64(st->acc_a - 2 * avg * st->acc_b + avg * avg * n +
			      st->acc_s2, n - 1);
		/* undo the shift of both factors (var_shift <= 31) */
		return v >> (2 * sh);
	}
	}
	return 0;
}

s64 stp_stat_sort_value(const struct stp_map *m, const struct stp_stat *st,
			int op)
{
	switch (op) {
	case STP_STAT_SUM:
		return st->sum;
	case STP_STAT_MIN:
		return st->min;
	case STP_STAT_MAX:
		return st->max;
	case STP_STAT_AVG:
		return st->count ? div64_s64(st->sum, st->count) : 0;
	default:
		return st->count;
	}
}

s64 stp_stat_op(struct stp_context *c, struct stp_map *m,
		const union stp_key *keys, int op, const char *loc)
{
	return stp_stat_value(c, stp_stat_gather(m, keys), m->var_shift, op,
			      loc);
}

s64 stp_stat_local_op(struct stp_context *c, const struct stp_stat *s,
		      int var_shift, int op, const char *loc)
{
	/* the merge of one part: what stp_stat_value reads */
	struct stp_stat one = { 0 };

	stp_stat_merge_moments(&one, s);
	return stp_stat_value(c, &one, var_shift, op, loc);
}

/* stp_val_space - characters of the decimal text of @v. */
static int stp_val_space(s64 v)
{
	int n = 1;
	u64 u = v < 0 ? -(u64)v : (u64)v;

	if (v < 0)
		n++;
	while (u > 9) {
		u /= 10;
		n++;
	}
	return n;
}

static s64 stp_log_bucket_value(int i)
{
	if (i == STP_HIST_LOG_BUCKET0)
		return 0;
	if (i > STP_HIST_LOG_BUCKET0)
		return (s64)(1ULL << (i - STP_HIST_LOG_BUCKET0 - 1));
	return -(s64)(1ULL << (STP_HIST_LOG_BUCKET0 - 1 - i));
}

/* Where a histogram goes: this hit's output (@dst NULL) or the end of
 * the script string @dst (sprint; truncated at MAXSTRINGLEN). */
struct stp_hist_out {
	struct stp_context *c;
	char *dst;
};

static __printf(2, 3) void stp_hist_printf(struct stp_hist_out *o,
					   const char *fmt, ...)
{
	char buf[80];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (o->dst)
		stp_strcat(o->dst, buf);
	else
		stp_print_str(o->c, buf);
}

/* stp_hist_repeat - @n times the character @ch. */
static void stp_hist_repeat(struct stp_hist_out *o, char ch, int n)
{
	char buf[STP_HIST_WIDTH + 1];

	n = clamp(n, 0, STP_HIST_WIDTH);
	memset(buf, ch, n);
	buf[n] = '\0';
	stp_hist_printf(o, "%s", buf);
}

/* stp_hist_print - print histogram @h of @st:
 *
 *   value |-------------------------------------------------- count
 *       1 |@@@@                                                4
 *       2 |@@                                                  2
 *
 * rows from two empty buckets below the lowest used one to two above the
 * highest, runs of more than 2*ELISION empty rows replaced by "~". */
static void stp_hist_print(struct stp_hist_out *o, const struct stp_hist *h,
			   const struct stp_stat *st)
{
	int low = -1, high = 0, i, j, k, val_space, cnt_space, eliding = 0;
	int under = 0, over = 0;
	s64 max = 0, scale = 1;

	for (i = 0; i < h->buckets; i++) {
		if (st->hist[i] > 0) {
			if (low < 0)
				low = i;
			high = i;
		}
		if (st->hist[i] > max)
			max = st->hist[i];
	}
	if (low < 0)
		low = 0;
	for (i = 0; i < 2; i++) {
		if (h->type == STP_HIST_LOG) {
			if (low != STP_HIST_LOG_BUCKET0 && low > 0)
				low--;
		} else if (low > 0) {
			low--;
		}
		if (high < h->buckets - 1)
			high++;
	}
	if (h->type == STP_HIST_LINEAR) {
		if (low == 0 && st->hist[0] == 0)
			low++;
		if (high == h->buckets - 1 && st->hist[high] == 0)
			high--;
		under = low == 0;
		over = high == h->buckets - 1;
	}
	if (max > STP_HIST_WIDTH)
		scale = div64_s64(max + STP_HIST_WIDTH - 1, STP_HIST_WIDTH);
	cnt_space = stp_val_space(max);
	if (h->type == STP_HIST_LINEAR) {
		/* (SystemTap sizes it by the highest row's index) */
		val_space = max(stp_val_space(h->start) + under,
				stp_val_space(h->start + h->interval * high) + over);
	} else {
		val_space = max(stp_val_space(stp_log_bucket_value(high)),
				stp_val_space(stp_log_bucket_value(low)));
	}
	val_space = max(val_space, 5);

	stp_hist_printf(o, "%*s |", val_space, "value");
	stp_hist_repeat(o, '-', STP_HIST_WIDTH);
	stp_hist_printf(o, " count\n");
	for (i = low; i <= high; i++) {
		const char *prefix = "";
		s64 val, bar;
		int elide = 1;

		for (k = i - STP_HIST_ELISION; k <= i + STP_HIST_ELISION; k++)
			if (k >= low && k <= high && st->hist[k] != 0)
				elide = 0;
		if (elide) {
			eliding = 1;
			continue;
		}
		if (eliding) {
			stp_hist_printf(o, "%*s ~\n", val_space, "");
			eliding = 0;
		}
		if (h->type == STP_HIST_LINEAR) {
			if (i == 0) {
				val = h->start;
				prefix = "<";
			} else if (i == h->buckets - 1) {
				val = h->start + (s64)(i - 2) * h->interval;
				prefix = ">";
			} else {
				val = h->start + (s64)(i - 1) * h->interval;
			}
		} else {
			val = stp_log_bucket_value(i);
		}
		stp_hist_printf(o, "%*s%lld |", val_space - stp_val_space(val),
				prefix, val);
		bar = div64_s64(st->hist[i], scale);
		stp_hist_repeat(o, '@', bar);
		stp_hist_printf(o, "%*lld\n",
				(int)(STP_HIST_WIDTH - bar + 1 + cnt_space),
				st->hist[i]);
	}
	stp_hist_printf(o, "\n");
}

void stp_stat_print_hist(struct stp_context *c, struct stp_map *m,
			 const union stp_key *keys, const char *loc)
{
	stp_stat_sprint_hist(c, m, keys, NULL, loc);
}

void stp_stat_sprint_hist(struct stp_context *c, struct stp_map *m,
			  const union stp_key *keys, char *dst,
			  const char *loc)
{
	stp_stat_hist_print(c, stp_stat_gather(m, keys), &m->hist, dst, loc);
}

void stp_stat_hist_print(struct stp_context *c, const struct stp_stat *st,
			 const struct stp_hist *h, char *dst, const char *loc)
{
	struct stp_hist_out o = { .c = c, .dst = dst };

	if (st->count == 0) {
		stp_error(c, "empty aggregate", loc);
		return;
	}
	if (!h || h->type == STP_HIST_NONE)
		return;
	stp_hist_print(&o, h, st);
}
