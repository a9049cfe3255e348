# kbuild's compiler feature checks (cc-option and the like, some thirty
# compiler runs before the first compile) are answered once per compiler
# and command line (translator/build/kbuild_cc.c, stap-kbuild-cc): a first
# build for a kernel whose checks an earlier build asked (another build of
# one kernel line, or this kernel with its runtime cache gone) runs none of
# them and compiles with the same flags; a compiler that changed asks
# again.  The compiler kbuild runs (the kernel's: gcc-12 on Debian 12)
# is one first on $PATH that logs its runs; the checks counted are those
# on an empty input (/dev/null).  The one check that compiles from stdin
# (gcov's prefer-atomic, two compiles) is not asked at all: kbuild.c
# gives kbuild no gcov flags, and each check runs in the one directory
# stap made, without try-run's mkdir and rm (translator/build/tryrun.c),
# with the flags kbuild's own try-run gives.  A kernel update changes the kernel tree's
# path in -fmacro-prefix-map, which the answers do not depend on.
KVER=6.1.0-56-cloud-amd64
export SYSTEMTAP_DIR=$PWD/stapdir
cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ "]*\).*/\1/p' "/lib/modules/$KVER/build/.config")
real=$(command -v "$cc")
mkdir -p bin
printf '#!/bin/sh\necho "$*" >> %s/gcc.log\nexec %s "$@"\n' "$PWD" "$real" > "bin/$cc"
chmod +x "bin/$cc"
export PATH=$PWD/bin:$PATH
fail() { echo "kbuild-checks: $*"; exit 1; }
# build N: a first build for the kernel (the runtime cache emptied; a
# script of its own: no module cache hit), kept (-k) in directory dN;
# the checks the compiler ran into checksN
build() {
    rm -rf stapdir/cache/runtime gcc.log
    "$STAP" -r "$KVER" -p4 -k -m hello_checks \
        -e "probe begin { println(\"hello $1\"); exit() }" > /dev/null 2> err$1 ||
        { cat err$1; fail "build $1 failed"; }
    local n dir
    n=$(grep -c ' /dev/null .*/\.tmp_[0-9]*/' gcc.log) || :
    dir=$(sed -n 's/^Keeping temporary directory "\(.*\)"$/\1/p' err$1)
    eval "checks$1=\$n d$1=\$dir"
}
# cmd DIR: the command that compiled the script's C, DIR left out
cmd() { head -1 "$1/gen/.script.o.cmd" | sed "s|$1|DIR|g"; }

build 1
[ "$checks1" -ge 20 ] || fail "the first build ran $checks1 checks, expected 20 or more"
kept=$(ls stapdir/cache/kbuild-cc | wc -l)
[ "$kept" = "$checks1" ] || fail "$checks1 checks ran, $kept answers kept"
grep -q "stap-kbuild-cc $cc " "$d1/gen/.script.o.cmd" ||
    fail "kbuild did not compile through stap-kbuild-cc"
! grep -q -- ' -x c - ' gcc.log || fail "a check compiled from stdin: $(grep -- ' -x c - ' gcc.log)"
grep ' /dev/null ' gcc.log | grep -v "$d1/\.tmp_1/tmp" | grep -q . &&
    fail "a check ran outside $d1/.tmp_1: $(grep ' /dev/null ' gcc.log | grep -v "$d1/\.tmp_1/tmp" | head -1)"
# kbuild's own try-run (no TMPOUT, no try-run given) compiles the script
# with the same flags
front=$(grep -o '[^ ]*/stap-kbuild-cc' "$d1/gen/.script.o.cmd" | head -1)
ours=$(cmd "$d1")
rm -f "$d1/gen/script.o"
STAP_KBUILD_CC_CACHE=$PWD/stapdir/cache/kbuild-cc make -C "/lib/modules/$KVER/build" \
    M="$d1" "CC=$front $cc" CFLAGS_GCOV= modules > own.log 2>&1 ||
    { tail own.log; fail "kbuild with its own try-run failed"; }
[ -f "$d1/gen/script.o" ] || fail "kbuild with its own try-run did not compile the script"
[ "$ours" = "$(cmd "$d1")" ] ||
    fail "the flags differ from kbuild's own try-run's: $(diff <(echo "$ours") <(cmd "$d1"))"
build 2
[ "$checks2" = 0 ] || fail "the second build ran $checks2 checks, expected none"
# a check asked with another kernel tree's path map is known
mkdir -p .tmp_1 .tmp_2
map() {
    STAP_KBUILD_CC_CACHE=$PWD/stapdir/cache/kbuild-cc "$front" "$cc" -Werror \
        "-fmacro-prefix-map=$1=" -c -x c /dev/null -o "$PWD/.tmp_$2/tmp.o"
}
rm -f gcc.log
map /usr/src/linux-headers-6.1.0-56-common/ 1 || fail "a path map check failed"
map /usr/src/linux-headers-6.1.0-99-common/ 2 || fail "a path map check failed"
[ "$(wc -l < gcc.log)" = 1 ] || fail "a path map's check ran $(wc -l < gcc.log) times, expected once"
[ "$(cmd "$d1")" = "$(cmd "$d2")" ] || fail "the flags differ: $(diff <(cmd "$d1") <(cmd "$d2"))"
touch -d '2001-01-01' "bin/$cc"     # another compiler: asked again
build 3
[ "$checks3" = "$checks1" ] ||
    fail "after the compiler changed: $checks3 checks, expected $checks1"
[ "$(cmd "$d1")" = "$(cmd "$d3")" ] || fail "the flags differ after the compiler changed"
rm -rf "$d1" "$d2" "$d3"
exit 0
