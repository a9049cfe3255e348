# A wildcard's points that share a handler are the rows of one probe set
# (translator/codegen/kset_gen.c): at -p3, kernel.function("vfs_*").call
# is one table entry (.kset) whose table has a row for each point pass 2
# derives, at the function's own address (the lab's 6.1 has no endbr64:
# the __fentry__ call is the first instruction), every one through
# ftrace; the C has no per-point descriptor.  .return points are a set
# of their own.
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
KVER=6.1.0-56-cloud-amd64     # the expectations are this kernel's
R=(-r "$KVER" --sysroot "$LAB/$KVER")
VMLINUX=$LAB/$KVER/usr/lib/debug/boot/vmlinux-$KVER
export SYSTEMTAP_DIR=$PWD/stapdir
fail() { echo "$*"; exit 1; }

"$STAP" "${R[@]}" -p3 -e 'global n
probe kernel.function("vfs_*").call { n++ }
probe kernel.function("vfs_*").return { n-- }' > sets.c || fail "-p3 failed"
# (the points pass 2 derives: -l would list static functions of one name,
# file and line once)
listed=$("$STAP" "${R[@]}" -v -p2 -e 'probe kernel.function("vfs_*").call {}' 2>&1 >/dev/null |
         sed -n 's/^Pass 2: analyzed script: \([0-9]*\) probes.*/\1/p')
[ "${listed:-0}" -gt 50 ] || fail "kernel.function(\"vfs_*\").call derives ${listed:-no} points"
[ "$(grep -c '\.kset = &stp_kset' sets.c)" = 2 ] || fail "not two probe sets"
grep -q '\.symbol = ' sets.c && fail "a per-point descriptor is left"
"$srcdir/bench/kset-sites" --rows sets.c > rows
[ "$(grep -c '^stp_kset0 ' rows)" = "$listed" ] &&
    [ "$(grep -c '^stp_kset1 ' rows)" = "$listed" ] ||
    fail "rows: $(cut -d' ' -f1 rows | uniq -c | tr '\n' ' '), listed $listed"
grep -q ' kprobe$' rows && fail "an entry row not through ftrace"
vr=$(nm "$VMLINUX" | awk '$3 == "vfs_read" { print "0x" $1 }')
grep -qx "stp_kset[01] $vr ftrace" rows || fail "no row at vfs_read ($vr)"
[ "$(grep -c " $vr " rows)" = 2 ] || fail "vfs_read is not a row of both sets"
echo ok
