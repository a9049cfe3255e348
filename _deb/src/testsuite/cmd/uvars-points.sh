# process probe points and target variables resolved on the host
# (stap -l/-L, -p2): .inline instances, .exported functions (.dynsym),
# process(PID) of a process running here (its program read from
# /proc/PID/exe, with its DWARF: $PARAM, $LOCAL, members), @cast and @var
# with a PATH, and the errors.
set -eu
. "$srcdir/cmd/lib/want.sh"
mkdir -p bin
cat > lib.c <<'C'
__attribute__((noinline)) int lib_twice(int v) { return 2 * v; }
static __attribute__((noinline)) int lib_hidden(int v) { return v + 1; }
int lib_both(int v) { return lib_hidden(v); }
C
cat > prog.c <<'C'
#include <unistd.h>
struct pt { long x, y; };
struct pt origin = { 3, 4 };
volatile long odds;
static inline __attribute__((always_inline)) long odd(long v) { return v & 1; }
__attribute__((noinline, noipa)) long tick(struct pt *p, int t)
{
	long d = p->x * t;
	return d + p->y;
}
int main(int argc, char **argv)
{
	long i;
	for (i = 0; i < argc; i++)
		odds += odd(i) + tick(&origin, (int)i);
	if (argc > 1)
		pause();
	return 0;
}
C
gcc -shared -fPIC -O2 -g -o bin/libtw.so lib.c
gcc -O2 -g -o bin/prog prog.c
B=$PWD/bin
export PATH=$B:$PATH
want "process(\"$B/prog\").function(\"odd\").inline" -l 'process("prog").function("odd").inline'
want "process(\"$B/prog\").function(\"odd\").inline" -l 'process("prog").function("o*")'
want "process(\"$B/prog\").function(\"tick\").call \$p:struct pt* \$t:int \$d:long int" \
    -L 'process("prog").function("tick").call'
want "process(\"$B/libtw.so\").function(\"lib_both\").call
process(\"$B/libtw.so\").function(\"lib_twice\").call" \
    -l "process(\"$B/libtw.so\").function(\"lib_*\").exported"
want_err "no exported function of $B/prog matches \"tick\" (in its .dynsym)" \
    -p2 -e 'probe process("prog").function("tick").exported {}'
want_err "no inline instance of a function of $B/prog matches \"tick\"" \
    -p2 -e 'probe process("prog").function("tick").inline {}'
"$STAP" -p3 -e 'probe process("prog").function("tick") {
	println($p->x + $p->y + @cast($p, "pt", "prog")->y + @var("origin", "prog")->x)
	println(@cast($p, "struct pt", "'"$B"'/prog")->x, $$parms$)
}' > /dev/null 2> err || { cat err; fail "members/@cast/@var refused"; }
want_err "@cast: no type 'struct nope' in the DWARF of $B/prog" \
    -p3 -e 'probe process("prog").function("tick") { println(@cast($p, "struct nope", "prog")->x) }'
want_err "@var(\"nope\"): no global variable 'nope'" \
    -p2 -e 'probe process("prog").function("tick") { println(@var("nope", "prog")) }'
want_err "has no field 'z' (fields: x y)" \
    -p2 -e 'probe process("prog").function("tick") { println($p->z) }'
# process(PID): a process running prog here
"$B/prog" wait & pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
# until the child runs prog (a fixed pause can lose the race on a busy host:
# /proc/PID/exe is still the shell)
k=0
until [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$(readlink -f "$B/prog")" ]; do
    k=$((k + 1)); [ $k -lt 300 ] || fail "process $pid never ran $B/prog"
    sleep 0.1
done
"$STAP" -p2 -e "probe process($pid).function(\"tick\") { println(\$p->x + \$t) }" > p2 2> err ||
    { cat err; fail "process(PID) refused"; }
grep -qF "process(\"$B/prog\").function(\"tick\").call" p2 || { cat p2; fail "process(PID): not prog's tick"; }
kill $pid
# built for another machine: the program is found at module start
want "process(4321).function(\"tick\").return" -r 9.9.9-none -l 'process(4321).function("tick").return'
want_err "process(PID) probes built for another machine have no target variables" \
    -r 9.9.9-none -p2 -e 'probe process(4321).function("tick") { println($$parms) }'
want_err "wildcards need the program here" \
    -r 9.9.9-none -p2 -e 'probe process(4321).function("t*") { }'
cp bin/prog bin/nodw && strip -g bin/nodw
want_err "target variable '\$p': no DWARF for this function of the program" \
    -p2 -e 'probe process("nodw").function("tick") { println($p) }'
want_err "process(99999999): not a process id" -p2 -e 'probe process(99999999).begin {}'
echo ok
