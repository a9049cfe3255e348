# The user-space symbol and unwind tables put into the module (stap -p3):
# the probed program's, a .library()'s program and library, each -d PATH,
# with --ldd their shared libraries (libc); none when the script uses no
# user-stack function and has no -d; a kernel module name for -d is
# accepted (kallsyms), a missing file is an error; --all-modules is
# accepted.  The CFI rows are exact: f's first instruction has CFA rsp+8.
set -eu
export SYSTEMTAP_DIR=$PWD/sysdir
fail() { echo "$*"; exit 1; }
mkdir -p bin
cat > lib.c <<'C'
__attribute__((noinline)) int lib_twice(int v) { return 2 * v; }
C
cat > prog.c <<'C'
int lib_twice(int v);
__attribute__((noinline, noipa)) long f(long a)
{
	volatile long buf[4];
	buf[1] = a;
	return lib_twice((int)buf[1]) + 1;
}
int main(int argc, char **argv)
{
	return (int)f(argc) & 1;
}
C
gcc -shared -fPIC -O2 -g -o bin/libut.so lib.c
gcc -O2 -g -o bin/utprog prog.c -Lbin -lut -Wl,-rpath,'$ORIGIN'
P=$PWD/bin/utprog L=$PWD/bin/libut.so
p3() { "$STAP" -p3 "$@" 2>err > out.c || { cat err; fail "stap $* failed"; }; }
files() { grep -o '^{"[^"]*", stp_usyms' out.c | sed 's/^{"//; s/", stp_usyms$//' | tr '\n' ' '; }

p3 -e "probe process(\"$P\").function(\"f\") { print_ubacktrace() }"
[ "$(files)" = "$P " ] || fail "probed program: got '$(files)'"
# f's entry: CFA = rsp + 8 (cfa_reg 1), rbp unchanged
off=$(readelf -sW "$P" | awk '$8 == "f" { print $2 }')
text=$(readelf -lW "$P" | awk '$1 == "LOAD" && / E / { print $2, $3 }')
set -- $text
foff=$(printf '0x%x' $(( 0x$off - $2 + $1 )))
grep -qx "{$foff,8,0,1,0}," out.c || fail "no CFA rsp+8 row at f ($foff)"
grep -q '^{"f\\0"$\|"f\\0"' out.c || fail "no symbol f"

p3 -e "probe process(\"$P\").library(\"libut.so\").function(\"lib_twice\") { println(usymname(uaddr())) }"
[ "$(files)" = "$L $P " ] || fail ".library: got '$(files)'"

p3 --ldd -e "probe process(\"$P\").function(\"f\") { println(ubacktrace()) }"
case " $(files)" in
*" $P $L "*libc.so.6*) ;;
*) fail "--ldd: got '$(files)'" ;;
esac

p3 -d "$L" -d ext4 -d kernel --all-modules -e 'probe begin { print_ubacktrace() }'
[ "$(files)" = "$L " ] || fail "-d: got '$(files)'"

p3 -e "probe process(\"$P\").function(\"f\") { println(pid()) }"
grep -q '\.usyms = NULL' out.c || fail "tables without a user-stack function"

! "$STAP" -p3 -d /nonexistent/prog -e 'probe begin { print_ubacktrace() }' \
	> /dev/null 2> err || fail "-d /nonexistent/prog succeeded"
grep -qF -- "-d /nonexistent/prog" err || { cat err; fail "no -d error"; }
echo ok
