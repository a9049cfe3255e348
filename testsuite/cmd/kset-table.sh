# A wildcard's points that share a handler are the rows of one probe set
# (translator/codegen/kset_gen.c): at -p3, kernel.function("vfs_*").call
# is one table entry (.kset) whose table has a row for each point pass 2
# derives, at the function's own address (the lab's 6.1 has no endbr64:
# the __fentry__ call is the first instruction), every one through
# ftrace; the C has no per-point descriptor.  .return points are a set
# of their own.  On 6.12, a static function in init text (freed after
# boot) that shares its name with probeable ones (alloc_pgt_page: three
# of them) is no row: only the two in .text are.
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

K2=$("$srcdir/lab/kver" 6.12-cloud)
V2=$LAB/$K2/usr/lib/debug/boot/vmlinux-$K2
"$STAP" -r "$K2" --sysroot "$LAB/$K2" -p3 -e 'probe kernel.function("alloc_pgt_page").call {}' \
    > pgt.c || fail "6.12: -p3 of alloc_pgt_page failed"
"$srcdir/bench/kset-sites" --rows pgt.c | awk '{ print $2 }' | sort > pgt.rows
# the rows are the __fentry__ call sites (after endbr64 on 6.12): the
# functions' addresses + 4, outside [_sinittext, _einittext)
nm "$V2" | awk '
    $3 == "_sinittext" { lo = $1 } $3 == "_einittext" { hi = $1 }
    $3 == "alloc_pgt_page" { a[++n] = $1 }
    END { for (i = 1; i <= n; i++) if (a[i] < lo || a[i] >= hi) print a[i] }' |
    while read -r a; do printf '0x%x\n' $((0x$a + 4)); done | sort > pgt.want
[ "$(wc -l < pgt.want)" = 2 ] || fail "6.12: expected two alloc_pgt_page in .text: $(cat pgt.want)"
diff -u pgt.want pgt.rows || fail "6.12: alloc_pgt_page rows are not the two in .text"
echo ok
