/* script.c - hand-written stand-in for translator output, used to test the
 * runtime.  Build with -DSCENARIO=N:
 *   1 hello:   probe begin { println("hello, world"); exit() }
 *   2 timer:   global ticks
 *              probe timer.ms(100) { if (ticks < 5) ticks++; if (ticks == 5) exit() }
 *              probe end { printf("ticks=%d\n", ticks) }
 *   3 kprobe:  global reads, rets
 *              probe kernel.function("vfs_read") { if (execname() == "reader") reads++ }
 *              probe kernel.function("vfs_read").return { if (execname() == "reader") rets++ }
 *              probe end { printf("reads=%d rets=%d\n", reads, rets) }   (ended by SIGINT)
 *   4 divzero: probe begin { println("before"); x = 10; y = 0; println(x / y); println("not reached") }
 *              probe end { println("end ran") }
 *   5 bulk:    global t, r
 *              probe begin { println("begin") }
 *              probe timer.ms(10) { t++; for (i = 0; i < 100; i++) printf("t %d %d %s\n", t, i, PAD)
 *                                   if (t == 100) exit() }
 *              probe kernel.function("vfs_read") { if (execname() == "reader") printf("r %d\n", ++r) }
 *              probe end { printf("end t=%d r=%d\n", t, r) }
 *   6 badprobe: probe kernel.function("no_such_function_xyz") { }   (start fails)
 *              probe kernel.function("no_such_function_abc")? { }  (optional)
 *              probe begin { warn("begin of badprobe must not run") }
 *   7 sched:   global w, wr, k
 *              probe kernel.function("try_to_wake_up") { w++; if (w % 500 == 0) printf("w %d\n", w)
 *                                                       if (w == 5000) { warn("5000 wakeups"); exit() } }
 *              probe kernel.function("try_to_wake_up").return { wr++ }
 *              probe timer.ms(1) { k++ }
 *              probe end { printf("end w>=5000:%d wr>0:%d k>0:%d\n", w >= 5000, wr > 0, k > 0) }
 *   8 timererr: global k
 *              probe timer.ms(10) { k++; printf("k %d\n", k); if (k == 3) println(1 / (k - 3)) }
 *              probe end { printf("end k=%d\n", k) }
 *   9 bigend:  probe begin { println("begin") }
 *              probe end { for (i = 1; i <= 40000; i++) printf("e %d %s\n", i, PAD) }
 */
#include "stp_runtime.h"

#ifndef SCENARIO
#define SCENARIO 1

#endif

#define EXECNAME_IS(s) (strncmp(current->comm, (s), TASK_COMM_LEN) == 0)
#define PAD "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz"

#if SCENARIO == 1
static void probe_0_begin(struct stp_context *c)
{
	if (stp_action(c, 2, "hello.stp:1:15"))
		return;
	stp_print_str(c, "hello, world\n");
	stp_request_exit();
}
static const struct stp_probe_desc probes[] = {
	{ .kind = STP_PROBE_BEGIN, .pp = "begin", .loc = "hello.stp:1:1",
	  .handler = probe_0_begin },
};
const struct stp_module_desc stp_module = {
	.script_name = "hello.stp", .probes = probes, .nprobes = 1,
};

#elif SCENARIO == 2
static s64 g_ticks;
static struct stp_global_lock locks[1];
static void init_globals(void) { g_ticks = 0; }
static const struct stp_lock_req timer_locks[] = { { &locks[0], 1 } };
static const struct stp_lock_req end_locks[] = { { &locks[0], 0 } };

static void probe_0_timer(struct stp_context *c)
{
	if (!stp_lock_globals(c, timer_locks, 1))
		return;
	if (stp_action(c, 3, "timer.stp:2:22"))
		goto out;
	if (g_ticks < 5)
		g_ticks++;
	if (g_ticks == 5)
		stp_request_exit();
out:
	stp_unlock_globals(timer_locks, 1);
}
static void probe_1_end(struct stp_context *c)
{
	if (!stp_lock_globals(c, end_locks, 1))
		return;
	stp_printf(c, "ticks=%lld\n", (long long)g_ticks);
	stp_unlock_globals(end_locks, 1);
}
static const struct stp_probe_desc probes[] = {
	{ .kind = STP_PROBE_TIMER, .pp = "timer.ms(100)", .loc = "timer.stp:2:1",
	  .handler = probe_0_timer, .period_ns = 100000000ULL },
	{ .kind = STP_PROBE_END, .pp = "end", .loc = "timer.stp:3:1",
	  .handler = probe_1_end },
};
const struct stp_module_desc stp_module = {
	.script_name = "timer.stp", .probes = probes, .nprobes = 2,
	.init_globals = init_globals, .locks = locks, .nlocks = 1,
};

#elif SCENARIO == 3
static s64 g_reads, g_rets;
static struct stp_global_lock locks[2];
static const struct stp_lock_req l_reads[] = { { &locks[0], 1 } };
static const struct stp_lock_req l_rets[] = { { &locks[1], 1 } };
static const struct stp_lock_req l_end[] = { { &locks[0], 0 }, { &locks[1], 0 } };

static void probe_0_kprobe(struct stp_context *c)
{
	if (!EXECNAME_IS("reader"))   /* a real translator would lock first */
		return;
	if (!stp_lock_globals(c, l_reads, 1))
		return;
	g_reads++;
	stp_unlock_globals(l_reads, 1);
}
static void probe_1_kretprobe(struct stp_context *c)
{
	if (!EXECNAME_IS("reader") || !c->regs)
		return;
	if (!stp_lock_globals(c, l_rets, 1))
		return;
	g_rets++;
	stp_unlock_globals(l_rets, 1);
}
static void probe_2_end(struct stp_context *c)
{
	if (!stp_lock_globals(c, l_end, 2))
		return;
	stp_printf(c, "reads=%lld rets=%lld\n", (long long)g_reads,
		   (long long)g_rets);
	stp_unlock_globals(l_end, 2);
}
static const struct stp_probe_desc probes[] = {
	{ .kind = STP_PROBE_KPROBE, .pp = "kernel.function(\"vfs_read\")",
	  .loc = "kp.stp:2:1", .handler = probe_0_kprobe, .symbol = "vfs_read" },
	{ .kind = STP_PROBE_KPROBE, .pp = "kernel.function(\"vfs_read\").return",
	  .loc = "kp.stp:3:1", .handler = probe_1_kretprobe, .symbol = "vfs_read",
	  .is_return = 1 },
	{ .kind = STP_PROBE_END, .pp = "end", .loc = "kp.stp:4:1",
	  .handler = probe_2_end },
};
const struct stp_module_desc stp_module = {
	.script_name = "kp.stp", .probes = probes, .nprobes = 3,
	.locks = locks, .nlocks = 2,
};

#elif SCENARIO == 4
struct probe_0_locals { s64 x, y; char tmp[MAXSTRINGLEN]; };
static void probe_0_begin(struct stp_context *c)
{
	struct probe_0_locals *l = stp_frame_push(c, sizeof(*l), "div.stp:1:1");
	s64 q;

	if (!l)
		return;
	stp_print_str(c, "before\n");
	l->x = 10;
	l->y = 0;
	q = stp_div(c, l->x, l->y, "div.stp:1:60");
	if (c->error)
		goto out;
	stp_long_to_str(l->tmp, q);
	stp_strcat(l->tmp, "\n");
	stp_print_str(c, l->tmp);
	stp_print_str(c, "not reached\n");
out:
	stp_frame_pop(c, sizeof(*l));
}
static void probe_1_end(struct stp_context *c)
{
	stp_print_str(c, "end ran\n");
}
static const struct stp_probe_desc probes[] = {
	{ .kind = STP_PROBE_BEGIN, .pp = "begin", .loc = "div.stp:1:1",
	  .handler = probe_0_begin },
	{ .kind = STP_PROBE_END, .pp = "end", .loc = "div.stp:2:1",
	  .handler = probe_1_end },
};
const struct stp_module_desc stp_module = {
	.script_name = "div.stp", .probes = probes, .nprobes = 2,
};


#elif SCENARIO == 5
static s64 g_t, g_r;
static struct stp_global_lock locks[2];
static const struct stp_lock_req l_t[] = { { &locks[0], 1 } };
static const struct stp_lock_req l_r[] = { { &locks[1], 1 } };
static const struct stp_lock_req l_end[] = { { &locks[0], 0 }, { &locks[1], 0 } };

static void probe_0_begin(struct stp_context *c)
{
	stp_print_str(c, "begin\n");
}
static void probe_1_timer(struct stp_context *c)
{
	int i;

	if (!stp_lock_globals(c, l_t, 1))
		return;
	if (g_t < 100) {
		g_t++;
		for (i = 0; i < 100; i++) {
			if (stp_action(c, 1, "bulk.stp:3:40"))
				break;
			stp_printf(c, "t %lld %d %s\n", (long long)g_t, i, PAD);
		}
		if (g_t == 100)
			stp_request_exit();
	}
	stp_unlock_globals(l_t, 1);
}
static void probe_2_kprobe(struct stp_context *c)
{
	char buf[MAXSTRINGLEN];

	if (!EXECNAME_IS("reader"))
		return;
	if (!stp_lock_globals(c, l_r, 1))
		return;
	stp_sprintf(buf, "r %lld", (long long)++g_r);
	stp_unlock_globals(l_r, 1);
	stp_strcat(buf, "\n");
	stp_print_str(c, buf);
}
static void probe_3_end(struct stp_context *c)
{
	if (!stp_lock_globals(c, l_end, 2))
		return;
	stp_printf(c, "end t=%lld r=%lld\n", (long long)g_t, (long long)g_r);
	stp_unlock_globals(l_end, 2);
}
static const struct stp_probe_desc probes[] = {
	{ .kind = STP_PROBE_BEGIN, .pp = "begin", .loc = "bulk.stp:1:1",
	  .handler = probe_0_begin },
	{ .kind = STP_PROBE_TIMER, .pp = "timer.ms(10)", .loc = "bulk.stp:2:1",
	  .handler = probe_1_timer, .period_ns = 10000000ULL },
	{ .kind = STP_PROBE_KPROBE, .pp = "kernel.function(\"vfs_read\")",
	  .loc = "bulk.stp:4:1", .handler = probe_2_kprobe, .symbol = "vfs_read" },
	{ .kind = STP_PROBE_END, .pp = "end", .loc = "bulk.stp:5:1",
	  .handler = probe_3_end },
};
const struct stp_module_desc stp_module = {
	.script_name = "bulk.stp", .probes = probes, .nprobes = 4,
	.locks = locks, .nlocks = 2,
};

#elif SCENARIO == 6
static void probe_nop(struct stp_context *c) { }
static void probe_2_begin(struct stp_context *c)
{
	stp_warn("begin of badprobe must not run");
}
static const struct stp_probe_desc probes[] = {
	{ .kind = STP_PROBE_KPROBE, .pp = "kernel.function(\"no_such_function_abc\")?",
	  .loc = "bad.stp:2:1", .handler = probe_nop,
	  .symbol = "no_such_function_abc", .optional = 1 },
	{ .kind = STP_PROBE_KPROBE, .pp = "kernel.function(\"no_such_function_xyz\")",
	  .loc = "bad.stp:1:1", .handler = probe_nop,
	  .symbol = "no_such_function_xyz" },
	{ .kind = STP_PROBE_BEGIN, .pp = "begin", .loc = "bad.stp:3:1",
	  .handler = probe_2_begin },
};
const struct stp_module_desc stp_module = {
	.script_name = "bad.stp", .probes = probes, .nprobes = 3,
};

#elif SCENARIO == 7
static s64 g_w, g_wr, g_k;
static struct stp_global_lock locks[3];
static const struct stp_lock_req l_w[] = { { &locks[0], 1 } };
static const struct stp_lock_req l_wr[] = { { &locks[1], 1 } };
static const struct stp_lock_req l_k[] = { { &locks[2], 1 } };
static const struct stp_lock_req l_end[] = { { &locks[0], 0 }, { &locks[1], 0 }, { &locks[2], 0 } };

static void probe_0_ttwu(struct stp_context *c)
{
	if (!stp_lock_globals(c, l_w, 1))
		return;
	g_w++;
	if (stp_mod(c, g_w, 500, "sched.stp:1:60") == 0)
		stp_printf(c, "w %lld\n", (long long)g_w);
	if (g_w == 5000) {
		stp_warn("5000 wakeups");
		stp_request_exit();
	}
	stp_unlock_globals(l_w, 1);
}
static void probe_1_ttwu_ret(struct stp_context *c)
{
	if (!stp_lock_globals(c, l_wr, 1))
		return;
	g_wr++;
	stp_unlock_globals(l_wr, 1);
}
static void probe_2_timer(struct stp_context *c)
{
	if (!stp_lock_globals(c, l_k, 1))
		return;
	g_k++;
	stp_unlock_globals(l_k, 1);
}
static void probe_3_end(struct stp_context *c)
{
	if (!stp_lock_globals(c, l_end, 3))
		return;
	stp_printf(c, "end w>=5000:%d wr>0:%d k>0:%d\n", g_w >= 5000, g_wr > 0,
		   g_k > 0);
	stp_unlock_globals(l_end, 3);
}
static const struct stp_probe_desc probes[] = {
	{ .kind = STP_PROBE_KPROBE, .pp = "kernel.function(\"try_to_wake_up\")",
	  .loc = "sched.stp:1:1", .handler = probe_0_ttwu, .symbol = "try_to_wake_up" },
	{ .kind = STP_PROBE_KPROBE, .pp = "kernel.function(\"try_to_wake_up\").return",
	  .loc = "sched.stp:2:1", .handler = probe_1_ttwu_ret,
	  .symbol = "try_to_wake_up", .is_return = 1, .maxactive = 64 },
	{ .kind = STP_PROBE_TIMER, .pp = "timer.ms(1)", .loc = "sched.stp:3:1",
	  .handler = probe_2_timer, .period_ns = 1000000ULL },
	{ .kind = STP_PROBE_END, .pp = "end", .loc = "sched.stp:4:1",
	  .handler = probe_3_end },
};
const struct stp_module_desc stp_module = {
	.script_name = "sched.stp", .probes = probes, .nprobes = 4,
	.locks = locks, .nlocks = 3,
};

#elif SCENARIO == 8
static s64 g_k;
static struct stp_global_lock locks[1];
static const struct stp_lock_req l_k[] = { { &locks[0], 1 } };
static const struct stp_lock_req l_end[] = { { &locks[0], 0 } };

static void probe_0_timer(struct stp_context *c)
{
	s64 q;

	if (!stp_lock_globals(c, l_k, 1))
		return;
	g_k++;
	stp_printf(c, "k %lld\n", (long long)g_k);
	if (g_k == 3) {
		q = stp_div(c, 1, g_k - 3, "timererr.stp:1:70");
		if (c->error)
			goto out;
		stp_printf(c, "%lld\n", (long long)q);
	}
out:
	stp_unlock_globals(l_k, 1);
}
static void probe_1_end(struct stp_context *c)
{
	if (!stp_lock_globals(c, l_end, 1))
		return;
	stp_printf(c, "end k=%lld\n", (long long)g_k);
	stp_unlock_globals(l_end, 1);
}
static const struct stp_probe_desc probes[] = {
	{ .kind = STP_PROBE_TIMER, .pp = "timer.ms(10)", .loc = "timererr.stp:1:1",
	  .handler = probe_0_timer, .period_ns = 10000000ULL },
	{ .kind = STP_PROBE_END, .pp = "end", .loc = "timererr.stp:2:1",
	  .handler = probe_1_end },
};
const struct stp_module_desc stp_module = {
	.script_name = "timererr.stp", .probes = probes, .nprobes = 2,
	.locks = locks, .nlocks = 1,
};

#elif SCENARIO == 9
static void probe_0_begin(struct stp_context *c)
{
	stp_print_str(c, "begin\n");
	stp_request_exit();
}
static void probe_1_end(struct stp_context *c)
{
	int i;

	for (i = 1; i <= 40000; i++)
		stp_printf(c, "e %d %s\n", i, PAD);
}
static const struct stp_probe_desc probes[] = {
	{ .kind = STP_PROBE_BEGIN, .pp = "begin", .loc = "bigend.stp:1:1",
	  .handler = probe_0_begin },
	{ .kind = STP_PROBE_END, .pp = "end", .loc = "bigend.stp:2:1",
	  .handler = probe_1_end },
};
const struct stp_module_desc stp_module = {
	.script_name = "bigend.stp", .probes = probes, .nprobes = 2,
};
#endif
