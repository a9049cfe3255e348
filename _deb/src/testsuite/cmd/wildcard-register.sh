# Mass kprobe registration and the wildcard warning, at the runtime level.
# The debuginfo providers leave the functions kprobes refuse out of a
# kernel.function("PATTERN") expansion, so a real pattern rarely has a
# failure to show.  Here the probe table of a pattern is made from stap's
# own output instead: one kprobe.function probe per text symbol of the lab
# kernel matching do_* and notify_* (from the debuginfo vmlinux, names
# with '.' left out, refused ones included), whose table entries get the
# `.wildcard = 1, .pattern = ...` that codegen emits for a pattern's
# derived probes (testsuite/lab/wildcard-module).  Some of those symbols
# are on the kprobe blacklist (do_int3, notify_die, ...) or in refused
# sections.  In one lab boot:
#  - the wildcard module starts: one WARNING per pattern, the run goes on
#    (a vfs_read probe counts reader's 1000 reads), and ends cleanly;
#  - the same kind of failure without the wildcard mark (do_int3 after a
#    registered vfs_read probe) is an error naming the probe, exit status 1,
#    and the partly registered probes are removed (no guest complaint).
set -eu
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
KVER=$(cat "$LAB/kver")
VMLINUX=$LAB/$KVER/usr/lib/debug/boot/vmlinux-$KVER
[ -r "$VMLINUX" ] || { echo "no $VMLINUX"; exit 1; }
nm "$VMLINUX" | awk '$2 ~ /^[tT]$/ && $3 !~ /\./ { print $3 }' | sort -u > syms
grep -E '^do_' syms > do.syms
grep -E '^notify_' syms > notify.syms
grep -qx do_int3 do.syms && grep -qx notify_die notify.syms ||
    { echo "the blacklisted symbols are missing"; exit 1; }
{
    echo 'global n'
    echo 'probe begin { println("tracing") }'
    echo 'probe kprobe.function("vfs_read") { if (execname() == "reader") n++ }'
    for s in $(cat notify.syms do.syms); do
        echo "probe kprobe.function(\"$s\") { }"
    done
    echo 'probe end { printf("reads>=1000:%d\n", n >= 1000) }'
} > wild.stp
nw=$(STAP=$STAP "$srcdir/lab/wildcard-module" wild wild.stp \
     'notify_=kernel.function("notify_*")' 'do_=kernel.function("do_*")' \
     -- -D MAXSKIPPED=1000000)
ndo=$(wc -l < do.syms); nno=$(wc -l < notify.syms)
[ "$nw" -eq $((ndo + nno)) ] || { echo "marked $nw of $((ndo + nno))"; exit 1; }
"$STAP" -r "$KVER" -p4 -m strict -e '
probe begin { println("not reached") }
probe kprobe.function("vfs_read") { }
probe kprobe.function("do_int3") { }' > /dev/null
gcc -static -O2 -o reader "$srcdir/workloads/reader.c"
cat > guest.sh <<'EOF'
staprun /tmp/wild.ko > wild.out 2> wild.err &
pid=$!
i=0
until grep -qx tracing wild.out 2>/dev/null; do
    kill -0 $pid 2>/dev/null || break
    i=$((i + 1)); [ $i -lt 1200 ] || break
    sleep 0.1
done
/tmp/reader 1000
kill -INT $pid 2>/dev/null
wait $pid
echo "wild rc=$?"
cat wild.out
grep 'probes of' wild.err
staprun /tmp/strict.ko > strict.out 2> strict.err
echo "strict rc=$?"
cat strict.out
grep -c 'ERROR: probe kprobe.function("do_int3") registration failed (rc -22)' strict.err
EOF
"$srcdir/lab/boot" --prefix "$P" --timeout 280 --file wild.ko:/tmp/wild.ko \
    --file strict.ko:/tmp/strict.ko --file reader:/tmp/reader \
    --file guest.sh:/tmp/guest.sh -- sh /tmp/guest.sh > out 2> err ||
    { echo "lab boot failed ($?)"; cat out; tail -30 err; exit 1; }
cat out
grep -qx 'wild rc=0' out
grep -qx tracing out
grep -qx 'reads>=1000:1' out
[ "$(grep -c 'probes of' out)" -eq 2 ]
grep -Eqx "WARNING: [1-9][0-9]* of $nno probes of kernel.function\(\"notify_\*\"\) could not be registered \(first: notify_die rc -22\)" out
grep -Eqx "WARNING: [1-9][0-9]* of $ndo probes of kernel.function\(\"do_\*\"\) could not be registered \(first: do_[A-Za-z_0-9]+ rc -[0-9]+\)" out
grep -qx 'strict rc=1' out
! grep -q 'not reached' out
grep -A1 -x 'strict rc=1' out | tail -1 | grep -qx 1
echo OK
