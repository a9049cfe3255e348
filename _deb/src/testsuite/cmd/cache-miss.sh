# Anything that changes the module misses the cache: a changed tapset
# (SYSTEMTAP_TAPSET pointing at a modified copy), a different kernel build
# (a copy of the kbuild tree whose utsversion.h, its build stamp, differs:
# stap -r DIR), a -D setting, a script argument.
set -eu
KVER=$(cat "${STAP_LAB_DIR:-/var/cache/stap-lab}/kver")
export SYSTEMTAP_DIR=$PWD/sysdir
script='probe begin { println(pid()) exit() }'
build() { "$STAP" -p4 "$@" -e "$script" | tail -n 1; }
base=$(build -r "$KVER")
[ "$(build -r "$KVER")" = "$base" ] || { echo "rerun missed"; exit 1; }

cp -r "$P/share/systemtap/tapset" tapset
echo '// changed' >> tapset/linux/context.stp
t=$(SYSTEMTAP_TAPSET=$PWD/tapset build -r "$KVER")
[ "$t" != "$base" ] || { echo "changed tapset hit the cache"; exit 1; }

[ "$(build -r "$KVER" -D MAXACTION=77)" != "$base" ] || { echo "-D hit"; exit 1; }

. "$srcdir/cmd/lib/kbtree.sh"
copy_kbuild_tree kb "$KVER"
echo '/* rebuilt */' >> kb/include/generated/utsversion.h
k=$(build -r "$PWD/kb")
[ -f "$k" ] || { echo "no module built against the copied tree"; exit 1; }
[ "$k" != "$base" ] || { echo "changed kernel build hit the cache"; exit 1; }
echo ok
