# process(...) probe points resolved on the host (stap -l/-L, -p2): a
# program found in $PATH, its functions by wildcard with $PARAM from its
# DWARF, a statement of its line table, its SDT markers with their
# arguments, a shared library found through its RUNPATH, wildcards in
# PATH, and the errors naming what was searched.
set -eu
. "$srcdir/cmd/lib/want.sh"
mkdir -p bin
cat > lib.c <<'C'
__attribute__((noinline)) int lib_twice(int v) { return 2 * v; }
C
cat > prog.c <<'C'
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
int lib_twice(int v);
__extension__ unsigned short app_tick_semaphore __attribute__((section(".probes")));
__attribute__((noinline, noipa)) long step(long a, unsigned char b)
{
	return a + b;
}
int main(int argc, char **argv)
{
	long s = 0;
	int i;
	for (i = 0; i < argc; i++) {
		s += step(i, 3);
		STAP_PROBE2(app, tick, s, i);
	}
	return lib_twice((int)s) & 1;
}
C
gcc -shared -fPIC -O2 -g -o bin/libtw.so lib.c
gcc -O2 -g -o bin/prog prog.c -Lbin -ltw -Wl,-rpath,'$ORIGIN'
B=$PWD/bin
export PATH=$B:$PATH
want "process(\"$B/prog\").function(\"step\").call \$a:long int \$b:unsigned char" \
    -L 'process("prog").function("st?p")'
want "process(\"$B/prog\").provider(\"app\").mark(\"tick\") \$arg1:long \$arg2:long" \
    -L 'process("prog").mark("t*")'
want "process(\"$B/libtw.so\").function(\"lib_twice\").call \$v:int" \
    -L 'process("prog").library("libtw.so").function("lib_*")'
want "process(\"$B/libtw.so\").function(\"lib_twice\").call" \
    -l "process(\"$B/*\").function(\"lib_twice\")"
want "process(\"$B/prog\").plt(\"lib_twice\")" -l 'process("prog").plt("lib_*")'
line=$(grep -n 's += step' prog.c | cut -d: -f1)
want "process(\"$B/prog\").statement(\"main@$PWD/prog.c:$line\")" \
    -l "process(\"prog\").statement(\"main@prog.c:$line\")"
want_err "no program 'no-such-prog-zz' in \$PATH (searched $B:" \
    -p2 -e 'probe process("no-such-prog-zz").begin {}'
want_err "no library 'libnope.so' for $B/prog (searched $B:" \
    -p2 -e 'probe process("prog").library("libnope.so").function("*") {}'
want_err "no SDT marker of $B/prog matches provider \"app\" \"nope\"" \
    -p2 -e 'probe process("prog").provider("app").mark("nope") {}'
want_err "cannot resolve '\$nosuch' in step: not found; parameters: a b" \
    -p2 -e 'probe process("prog").function("step") { println($nosuch) }'
"$STAP" -p2 -e 'probe process("prog").function("step").return { println($a + @entry($b) + $return) }' \
    > /dev/null 2> err || { cat err; fail "\$a/@entry in .return refused"; }
want_err "no program matches $B/nothing*" \
    -p2 -e "probe process(\"$B/nothing*\").begin {}"
want_err "no program matching $B/* has" \
    -p2 -e "probe process(\"$B/*\").function(\"nothing_zz\") {}"
echo ok
