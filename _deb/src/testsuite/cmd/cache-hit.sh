# A rerun of a script is a cache hit: passes 3-4 skipped (-v says so),
# the same cached module path printed as the last stdout line, and the
# index database beside it; --poison-cache rebuilds, --disable-cache
# bypasses, -m NAME keeps the exact name outside the cache,
# --clean-cache alone evicts down to cache_mb_limit.
set -eu
KVER=$(cat "${STAP_LAB_DIR:-/var/cache/stap-lab}/kver")
export SYSTEMTAP_DIR=$PWD/sysdir
script='probe begin { println("cache") exit() }'
p1=$("$STAP" -r "$KVER" -p4 -v -e "$script" 2> err1 | tail -n 1)
p2=$("$STAP" -r "$KVER" -p4 -v -e "$script" 2> err2 | tail -n 1)
cat err1 err2
[ -f "$p1" ] || { echo "no module at '$p1'"; exit 1; }
case $p1 in "$SYSTEMTAP_DIR"/cache/*/stap_*.ko) ;; *) echo "bad path $p1"; exit 1 ;; esac
[ "$p1" = "$p2" ] || { echo "different paths: $p1 $p2"; exit 1; }
grep -q "Pass 4: compiled" err1 || { echo "first run did not build"; exit 1; }
grep -q "using cached" err2 || { echo "second run was not a hit"; exit 1; }
! grep -q "Pass 4: compiled" err2 || { echo "second run built"; exit 1; }
[ -f "$SYSTEMTAP_DIR/cache/index.db" ] || { echo "no index"; exit 1; }
[ -f "$SYSTEMTAP_DIR/cache/cache_mb_limit" ] || { echo "no limit file"; exit 1; }
# stdout holds only the path
[ "$("$STAP" -r "$KVER" -p4 -e "$script" | wc -l)" = 1 ] || { echo "extra stdout"; exit 1; }
"$STAP" -r "$KVER" -p4 -v --poison-cache -e "$script" 2> err3 >/dev/null
grep -q "Pass 4: compiled" err3 || { echo "--poison-cache did not rebuild"; exit 1; }
out=$("$STAP" -r "$KVER" -p4 --disable-cache -m nocache -e "$script")
[ "$out" = nocache.ko ] && [ -f nocache.ko ] || { echo "-m: got '$out'"; exit 1; }
# a second script, then a limit of 0 MB: --clean-cache evicts them all
"$STAP" -r "$KVER" -p4 -e 'probe begin { println("other") exit() }' >/dev/null
[ "$(find "$SYSTEMTAP_DIR/cache" -name '*.ko' | wc -l)" = 2 ] || { echo "want 2 modules"; exit 1; }
echo 0 > "$SYSTEMTAP_DIR/cache/cache_mb_limit"
"$STAP" --clean-cache
n=$(find "$SYSTEMTAP_DIR/cache" -name '*.ko' | wc -l)
[ "$n" = 0 ] || { echo "$n modules left after --clean-cache with limit 0"; exit 1; }
echo ok
