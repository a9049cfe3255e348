/* regex.c - the matcher of `s =~ "re"`: a Pike VM (Thompson NFA
 * simulation with capture slots) running the programs the translator
 * compiles from literal POSIX extended regular expressions.
 *
 * Semantics: unanchored search; the overall match is POSIX
 * leftmost-longest (every NFA state of the earliest start is followed to
 * the end, the longest end wins).  Group offsets come from the thread of
 * highest priority (greedy quantifiers, left alternatives first) among
 * those ending there, so they may differ from POSIX's subexpression rules
 * in ambiguous cases.
 *
 * Threads of one position are deduplicated by instruction (marks), so a
 * list never holds more than re->len threads; the epsilon closure uses an
 * explicit stack instead of recursion. */
#include <linux/kernel.h>
#include <linux/string.h>
#include "stp_internal.h"

#define RX_RESTORE 0x80000000u   /* stack item: restore a capture slot */

/* rx_add - add the thread at @pc0 with captures @caps, and everything its
 * epsilon closure reaches at subject offset @pos, to @list (*@n threads;
 * @gen marks the instructions already in that list). */
static void rx_add(struct stp_rx_work *w, const struct stp_regex *re,
		   struct stp_rx_thread *list, int *n, u16 pc0,
		   const u16 *caps, u32 gen, size_t pos, size_t len)
{
	const struct stp_rx_insn *in;
	int sp = 0;
	u32 v;

	memcpy(w->cur, caps, sizeof(w->cur));
	w->stack[sp++] = pc0;
	while (sp) {
		v = w->stack[--sp];
		if (v & RX_RESTORE) {
			w->cur[(v >> 16) & 0xff] = v & 0xffff;
			continue;
		}
		if (v >= re->len || w->mark[v] == gen)
			continue;
		w->mark[v] = gen;
		in = &re->insns[v];
		switch (in->op) {
		case STP_RX_JMP:
			w->stack[sp++] = in->x;
			break;
		case STP_RX_SPLIT:
			w->stack[sp++] = in->y;
			w->stack[sp++] = in->x;
			break;
		case STP_RX_SAVE:
			if (in->arg >= STP_RX_NSLOTS)
				break;
			w->stack[sp++] = RX_RESTORE | (u32)in->arg << 16 |
					 w->cur[in->arg];
			w->cur[in->arg] = pos;
			w->stack[sp++] = v + 1;
			break;
		case STP_RX_BOL:
			if (pos == 0)
				w->stack[sp++] = v + 1;
			break;
		case STP_RX_EOL:
			if (pos == len)
				w->stack[sp++] = v + 1;
			break;
		default:
			list[*n].pc = v;
			memcpy(list[*n].caps, w->cur, sizeof(w->cur));
			(*n)++;
			break;
		}
	}
}

/* rx_consumes - instruction @in accepts byte @ch. */
static int rx_consumes(const struct stp_regex *re,
		       const struct stp_rx_insn *in, u8 ch)
{
	switch (in->op) {
	case STP_RX_CHAR:
		return ch == in->arg;
	case STP_RX_ANY:
		return 1;
	case STP_RX_CLASS:
		return (re->classes[in->x][ch >> 5] >> (ch & 31)) & 1;
	default:
		return 0;
	}
}

int stp_regex_match(struct stp_context *c, const struct stp_regex *re,
		    const char *s)
{
	struct stp_rx_work *w = &c->rx_work;
	struct stp_rx_thread *clist = w->list[0], *nlist = w->list[1], *tmp;
	u16 none[STP_RX_NSLOTS], best[STP_RX_NSLOTS];
	size_t len = strnlen(s, MAXSTRINGLEN - 1), pos;
	int nc = 0, nn, i, matched = 0;

	BUILD_BUG_ON(MAXSTRINGLEN >= STP_RX_NONE);
	c->rx_ngroups = -1;
	if (re->len > STP_RX_MAXINSNS)
		return 0;
	memset(none, 0xff, sizeof(none));
	memset(w->mark, 0, re->len * sizeof(w->mark[0]));
	for (pos = 0; ; pos++) {
		u8 ch = pos < len ? (u8)s[pos] : 0;
		/* a new thread per start offset until something matched;
		 * it has the lowest priority, so earlier starts win */
		if (!matched)
			rx_add(w, re, clist, &nc, 0, none, pos + 1, pos, len);
		nn = 0;
		for (i = 0; i < nc; i++) {
			struct stp_rx_thread *t = &clist[i];
			const struct stp_rx_insn *in = &re->insns[t->pc];
			if (matched && t->caps[0] > best[0])
				continue;
			if (in->op == STP_RX_MATCH) {
				if (!matched || t->caps[0] < best[0] ||
				    t->caps[1] > best[1]) {
					memcpy(best, t->caps, sizeof(best));
					matched = 1;
				}
			} else if (pos < len && rx_consumes(re, in, ch)) {
				rx_add(w, re, nlist, &nn, t->pc + 1, t->caps,
				       pos + 2, pos + 1, len);
			}
		}
		tmp = clist;
		clist = nlist;
		nlist = tmp;
		nc = nn;
		if (pos >= len || (matched && !nc))
			break;
	}
	if (!matched)
		return 0;
	if (s != c->rx_subject) {
		memmove(c->rx_subject, s, len);
		c->rx_subject[len] = '\0';
	}
	memcpy(c->rx_caps, best, sizeof(best));
	c->rx_ngroups = re->ngroups;
	return 1;
}
