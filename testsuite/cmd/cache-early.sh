# The module cache is consulted before pass 1 (build/cache.c,
# cache_early_key): a rerun of a DWARF script gets its module without
# parsing or reading debuginfo (-v: "Pass 1-4: using cached", no "Pass 2"
# line), and whatever could change the module misses: an edited tapset
# file (an -I directory's), -D, --privilege, the kernel's debuginfo (the
# sysroot's debuginfo vmlinux taken away: BTF then).  A script probing a
# kernel module (whose debuginfo the key leaves out) is never served
# before pass 2.
set -eu
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
KVER=$(cat "$LAB/kver")
export SYSTEMTAP_DIR=$PWD/sysdir
# a sysroot of links to the lab's, whose debuginfo vmlinux can be taken away
mkdir -p sr/usr/lib/debug/boot
ln -s "$LAB/$KVER/boot" sr/boot
ln -s "$LAB/$KVER/lib" sr/lib
ln -s "$LAB/$KVER/usr/lib/debug/lib" sr/usr/lib/debug/lib
# (the symbols: the debug directory's System.map; /boot's is a stub)
ln -s "$LAB/$KVER/usr/lib/debug/boot/System.map-$KVER" sr/usr/lib/debug/boot/
dbg=sr/usr/lib/debug/boot/vmlinux-$KVER
ln -s "$LAB/$KVER/usr/lib/debug/boot/vmlinux-$KVER" "$dbg"
mkdir inc
echo 'function early_n() { return 7 }' > inc/early.stp
script='global c
probe kernel.function("vfs_read") { c <<< $count }
probe end { println(@count(c), early_n()) }'
# run ARGS...: stap -p4 of the script; the module's path on stdout
run() { "$STAP" -v -r "$KVER" --sysroot "$PWD/sr" -p4 -I inc "$@" -e "$script" 2> err | tail -n 1; }
early() { grep -q '^Pass 1-4: using cached' err && ! grep -q '^Pass 2:' err; }
missed() { ! grep -q '^Pass 1-4: using cached' err && grep -q '^Pass 2:' err; }
fail() { echo "$*"; cat err; exit 1; }

base=$(run)
missed || fail "first build: not a build"
[ "$(run)" = "$base" ] && early || fail "rerun: not served before pass 1"

echo '// edited' >> inc/early.stp
t=$(run)
missed || fail "edited tapset file served early"
[ "$t" != "$base" ] || fail "edited tapset file: the same module"
[ "$(run)" = "$t" ] && early || fail "edited tapset, rerun: not early"

[ "$(run -D MAXACTION=77)" != "$t" ] && missed || fail "-D served early"

# (pass 2 then reads BTF; the C it makes may well be the same)
mv "$dbg" vmlinux.link
run > /dev/null
missed || fail "debuginfo gone: served early"
mv vmlinux.link "$dbg"
[ "$(run)" = "$t" ] && early || fail "debuginfo back: not early"

# --privilege: a script an unprivileged user may run
script='probe begin { println(early_n()) exit() }'
u=$(run)
[ "$(run --privilege=stapusr)" != "$u" ] && missed || fail "--privilege served early"
[ "$(run)" = "$u" ] && early || fail "privilege: rerun not early"

# a kernel module's function: pass 2 every time
script='probe module("brd").function("brd_submit_bio") { println(early_n()) }'
m=$(run)
[ "$(run)" = "$m" ] && missed || fail "a module probe served before pass 2"
echo ok
