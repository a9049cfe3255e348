# Pass 4's per-kernel artefacts (the runtime objects, kbuild's recorded
# commands and the precompiled headers in CACHE/runtime/KVER-HASH/, see
# translator/build/kbuild.c and pch.c) are found again for the same
# kernel, runtime, -D set and compiler, and are not when any of them
# changes: a -D setting, a changed runtime (-R a modified copy), another
# compiler (a wrapper of the same name first on $PATH, which the new
# build then runs), another kernel build tree.  The module cache misses
# on a changed compiler too.  Of all the runtime caches' precompiled
# headers (~45 MB each) only the three most recently used are kept.
set -eu
KVER=$(cat "${STAP_LAB_DIR:-/var/cache/stap-lab}/kver")
export SYSTEMTAP_DIR=$PWD/sysdir
script='probe begin { println(pid()) exit() }'
# rtdir ARGS...: build $script (-vv; a script built before is a module
# cache hit, without pass 4); the runtime cache directory into $d, "warm"
# or "cold" into $state, the module path into $ko
rtdir() {
    "$STAP" -p4 -vv "$@" -e "$script" > out 2> err || { cat err; exit 1; }
    ko=$(tail -n 1 out)
    state=$(sed -n 's/^stap: runtime objects: cached in .*/warm/p
                    s/^stap: runtime objects: compiling, to cache in .*/cold/p' err)
    d=$(sed -n 's/^stap: runtime objects: .* in \(.*\)$/\1/p' err)
}
for i in 1 2 3; do    # older headers of other caches: the oldest goes
    mkdir -p sysdir/cache/runtime/old$i
    echo x > sysdir/cache/runtime/old$i/stp_pch.h.gch
    touch -d "$((4 - i)) days ago" sysdir/cache/runtime/old$i/stp_pch.h.gch
done
STAP_PCH=wait rtdir -r "$KVER"
base=$d
[ ! -e sysdir/cache/runtime/old1/stp_pch.h.gch ] && [ -e sysdir/cache/runtime/old2/stp_pch.h.gch ] &&
    [ -e sysdir/cache/runtime/old3/stp_pch.h.gch ] || { ls -l sysdir/cache/runtime/*; echo "not the least recently used header pruned"; exit 1; }
[ "$state" = cold ] || { echo "first build: $state"; exit 1; }
baseko=$ko
[ -f "$base/fastbuild.recipe" ] || { echo "no recipe in $base"; exit 1; }
[ -f "$base/stp_pch.h.gch" ] || { echo "no precompiled header in $base"; exit 1; }
script='probe begin { println(pid() + 1) exit() }' rtdir -r "$KVER"
[ "$d" = "$base" ] && [ "$state" = warm ] || { echo "rebuild missed the runtime cache"; exit 1; }
grep -q 'precompiled headers)' err || { cat err; echo "the precompiled header was not used"; exit 1; }

export STAP_PCH=0   # the variants need no header of their own
rtdir -r "$KVER" -D MAXACTION=77
[ "$d" != "$base" ] && [ "$state" = cold ] || { echo "-D hit the runtime cache"; exit 1; }

cp -r "$P/share/systemtap/runtime" rt
echo '/* changed */' >> rt/string.c
rtdir -r "$KVER" -R "$PWD/rt"
[ "$d" != "$base" ] && [ "$state" = cold ] || { echo "a changed runtime hit the runtime cache"; exit 1; }

cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ "]*\).*/\1/p' "/lib/modules/$KVER/build/.config")
real=$(command -v "$cc")
mkdir bin
printf '#!/bin/sh\necho "$*" >> %s/cc.log\nexec %s "$@"\n' "$PWD" "$real" > "bin/$cc"
chmod +x "bin/$cc"
PATH=$PWD/bin:$PATH rtdir -r "$KVER"
[ "$d" != "$base" ] && [ "$state" = cold ] || { echo "another compiler hit the runtime cache"; exit 1; }
[ "$ko" != "$baseko" ] || { echo "another compiler hit the module cache"; exit 1; }
grep -q 'stp_runtime_unit' cc.log || { echo "kbuild did not run the new compiler"; exit 1; }
: > cc.log
script='probe begin { exit() }' PATH=$PWD/bin:$PATH rtdir -r "$KVER"
grep -q 'pass 4 with the recorded kbuild commands' err || { cat err; echo "no fast path with the new compiler"; exit 1; }
grep -q 'gen/script.c' cc.log || { echo "the fast path did not run the new compiler"; exit 1; }

. "$srcdir/cmd/lib/kbtree.sh"
copy_kbuild_tree kb "$KVER"
rtdir -r "$PWD/kb"
[ "$d" != "$base" ] && [ "$state" = cold ] || { echo "another kernel build tree hit the runtime cache"; exit 1; }
echo ok
