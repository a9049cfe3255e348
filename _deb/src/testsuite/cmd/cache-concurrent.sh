# Several stap processes filling one cache at once (the same script and
# different ones): all succeed, the same script gets one module, no
# temporary files are left (once the background build of the
# precompiled headers, translator/build/pch.c, is done: one, whose lock
# stp_pch.lock goes when it ends), and the index stays usable.
set -eu
KVER=$(cat "${STAP_LAB_DIR:-/var/cache/stap-lab}/kver")
export SYSTEMTAP_DIR=$PWD/sysdir
pids=()
for i in 1 2 3; do
    "$STAP" -r "$KVER" -p4 -e 'probe begin { println("same") exit() }' > same$i 2> err_s$i & pids+=($!)
    "$STAP" -r "$KVER" -p4 -e "probe begin { println(\"d$i\") exit() }" > diff$i 2> err_d$i & pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || { cat err_*; echo "a build failed"; exit 1; }; done
[ "$(cat same1)" = "$(cat same2)" ] && [ "$(cat same2)" = "$(cat same3)" ] || { echo "paths differ"; exit 1; }
n=$(find "$SYSTEMTAP_DIR/cache" -name '*.ko' | wc -l)
[ "$n" = 4 ] || { echo "want 4 modules, found $n"; exit 1; }
for i in $(seq 1200); do
    find "$SYSTEMTAP_DIR/cache" -name stp_pch.lock | grep -q . || break
    sleep 0.1
done
[ "$(find "$SYSTEMTAP_DIR/cache" -name stp_pch.h.gch | wc -l)" = 1 ] || { echo "want one precompiled header"; exit 1; }
! find "$SYSTEMTAP_DIR/cache" -name '*.tmp*' | grep -q . || { echo "temporary files left"; exit 1; }
"$STAP" -r "$KVER" -p4 -v -e 'probe begin { println("same") exit() }' 2> err >/dev/null
grep -q "using cached" err || { echo "no hit after the concurrent builds"; exit 1; }
echo ok
