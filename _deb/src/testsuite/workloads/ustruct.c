/* ustruct: a workload for target variables of user-space probes
 * (lab/uprobes_vars): structs, pointers to them, arrays, strings and
 * globals, in a dynamically linked (PIE) program, so that static
 * addresses need the load bias.
 *
 * Usage: ustruct [N [WAITFILE]]
 *
 * Calls visit(&nodes[0], i, "t") for i = 1..N (default 100), with
 * nodes[0] = { id i, name "alpha", pos { i, 2i }, vals { 0, 10, 20, 30 },
 * next &nodes[1] } and nodes[1] = { id 7, name "beta", next NULL };
 * visit() increments the global `counter` and returns
 * 2 * pos.x + vals[i % 4] + next->id; after each, the inline odd(i).
 * Then mix(3, -5, "hello") once.
 * Prints "ustruct: N calls, sum S, counter C".  Exit status 0.
 * With WAITFILE, first waits (polling every 10 ms) until that file
 * exists: lab/uprobes_pid starts instances before the probes are up. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct point {
	long x, y;
};

struct node {
	int id;
	const char *name;
	struct point pos;
	long vals[4];
	struct node *next;
};

long counter;                   /* visit() calls so far */
long table[8] = { 0, 1, 4, 9, 16, 25, 36, 49 };
struct node nodes[2];
volatile long odds;             /* odd(i) summed */

__attribute__((noinline, noipa, used)) long visit(struct node *n, int i,
						    const char *tag)
{
	long local = n->pos.x * 2 + (tag[0] == 't');

	counter++;
	local += n->vals[i % 4] + n->next->id;
	return local - 1;       /* RET */
}

/* odd - inlined into main's loop, once per call of visit():
 * lab/uprobes_vars probes its inline instance */
static inline __attribute__((always_inline)) long odd(long v)
{
	return v & 1;
}

__attribute__((noinline, noipa, used)) long mix(int a, long b, const char *s)
{
	return a + b + s[0];
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 100, sum = 0, i;
	int k;

	if (argc > 2)
		while (access(argv[2], F_OK) != 0)
			usleep(10000);

	nodes[1].id = 7;
	nodes[1].name = "beta";
	nodes[0].name = "alpha";
	nodes[0].next = &nodes[1];
	for (k = 0; k < 4; k++)
		nodes[0].vals[k] = 10 * k;
	for (i = 1; i <= n; i++) {
		nodes[0].id = (int)i;
		nodes[0].pos.x = i;
		nodes[0].pos.y = 2 * i;
		sum += visit(&nodes[0], (int)i, "t");
		odds += odd(i);
	}
	sum += mix(3, -5, "hello");
	printf("ustruct: %ld calls, sum %ld, counter %ld\n", n, sum, counter);
	return 0;
}
