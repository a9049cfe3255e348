# The syscall tapsets follow each lab kernel line's own system call table.
#  - Regenerating them (tapset/linux/gen/gen-syscalls.py, from every
#    line's table, symbols and prototypes) gives the committed files: a new
#    line, or a line moved to a release whose table differs, fails here
#    until the tapsets are regenerated and committed.
#  - On each line, `syscall.*` resolves to one kprobe per system call of
#    that line's table (with its __x64_sys_ wrapper), no more: the calls
#    6.12 added (mseal, map_shadow_stack, futex_wake, cachestat, listmount,
#    lsm_get_self_attr ...) on 6.12 only, lookup_dcookie (gone in 6.12) on
#    6.1 only, and no message about the others.
#  - A 6.12-only call's variables come from its 6.12 prototype (mseal:
#    start, len, flags; futex_wait: uaddr, val, mask, flags, timespec_uaddr,
#    clockid), and resolve with -r 6.12 while with -r 6.1 the same script
#    probes nothing of them.
#  - kprobe.function() of a symbol the target kernel lacks is a pass-2
#    error naming the kernel (lookup_dcookie's wrapper on 6.12), and an
#    optional one (`?`) is dropped.
set -eu
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
top=$srcdir/..
K61=$(cat "$LAB/kver")
K612=$(cat "$LAB/lines/6.12-cloud")

# 1. the committed tapsets are what the lines' facts give
mkdir gen
python3 "$top/tapset/linux/gen/gen-syscalls.py" --lab "$LAB" --out gen > gen.log 2> gen.err ||
    { cat gen.err; echo "gen-syscalls.py failed"; exit 1; }
for f in syscalls.stp nd_syscalls.stp syscall_num.stp errno.stp; do
    diff -u "$top/tapset/linux/$f" "gen/$f" > d || { head -30 d; echo "tapset/linux/$f differs from what gen-syscalls.py makes of" \
               "the lab lines ($K61, $K612): regenerate it"; exit 1; }
done
cat gen.log

# the calls of one line: its table's entries with an __x64_sys_ wrapper
calls_of() {
    local kver=$1 tbl=/usr/src/linux-headers-$1/arch/x86/include/generated/asm/syscalls_64.h
    nm "$LAB/$kver/usr/lib/debug/boot/vmlinux-$kver" |
        awk '$3 ~ /^__x64_sys_/ { print substr($3, 11) }' | sort -u > "syms.$kver"
    sed -n 's/^__SYSCALL\(_NORETURN\)\{0,1\}([0-9]*, *sys_\([a-z0-9_]*\)).*/\2/p' "$tbl" |
        grep -vx ni_syscall | sort -u | comm -12 - "syms.$kver"
}

# 2. syscall.* on each line: exactly its own calls
for kver in "$K61" "$K612"; do
    calls_of "$kver" > "want.$kver"
    "$STAP" -r "$kver" --sysroot "$LAB/$kver" -p2 \
        -e 'global n; probe syscall.* { n[name]++ }' > "p2.$kver" 2> err ||
        { cat err; echo "$kver: syscall.* failed in pass 2"; exit 1; }
    [ ! -s err ] || { cat err; echo "$kver: pass 2 printed messages"; exit 1; }
    sed -n 's/^kprobe.function("__x64_sys_\([a-z0-9_]*\)").*/\1/p' "p2.$kver" | sort > "got.$kver"
    diff -u "want.$kver" "got.$kver" > d || { head -20 d; echo "$kver: syscall.* is not the kernel's table"; exit 1; }
    echo "$kver: syscall.* = $(wc -l < "got.$kver") system calls"
done
for c in mseal map_shadow_stack futex_wake futex_wait futex_requeue cachestat \
         fchmodat2 listmount statmount lsm_get_self_attr lsm_list_modules; do
    grep -qx "$c" "got.$K612" || { echo "$c missing on $K612"; exit 1; }
    ! grep -qx "$c" "got.$K61" || { echo "$c probed on $K61"; exit 1; }
done
grep -qx lookup_dcookie "got.$K61" || { echo "lookup_dcookie missing on $K61"; exit 1; }
! grep -qx lookup_dcookie "got.$K612" || { echo "lookup_dcookie probed on $K612"; exit 1; }

# 3. a 6.12-only call's variables, from its prototype
cat > new.stp <<'EOF'
probe syscall.mseal { printf("%s %x %d %d %s\n", name, start, len, flags, argstr) }
probe syscall.futex_wait {
	printf("%x %d %d %d %x %d %s\n", uaddr_uaddr, val, mask, flags,
	       timespec_uaddr, clockid, argstr)
}
probe syscall.map_shadow_stack.return { println(retstr) }
probe begin { exit() }
EOF
"$STAP" -r "$K612" --sysroot "$LAB/$K612" -p2 new.stp > new.612 2> err ||
    { cat err; echo "$K612: the 6.12 calls' variables do not resolve"; exit 1; }
for sym in mseal futex_wait map_shadow_stack; do
    grep -q "^kprobe.function(\"__x64_sys_$sym\")" new.612 ||
        { cat new.612; echo "$K612: no probe on $sym"; exit 1; }
done
"$STAP" -r "$K61" --sysroot "$LAB/$K61" -p2 new.stp > new.61 2> err ||
    { cat err; echo "$K61: a script naming 6.12 calls does not build"; exit 1; }
! grep -q '__x64_sys_' new.61 || { cat new.61; echo "$K61: probes a 6.12 call"; exit 1; }
"$STAP" -r "$K612" --sysroot "$LAB/$K612" -L syscall.mseal > L 2>&1 || { cat L; exit 1; }
grep -q 'syscall.mseal .*start:long .*len:long .*flags:long' L ||
    { cat L; echo "-L syscall.mseal lacks its prototype's variables"; exit 1; }

# 4. kprobe.function of a symbol the kernel lacks: pass 2 says so
rc=0
"$STAP" -r "$K612" --sysroot "$LAB/$K612" -p2 \
    -e 'probe kprobe.function("__x64_sys_lookup_dcookie") { }' > /dev/null 2> err || rc=$?
[ $rc = 1 ] || { cat err; echo "a missing symbol: status $rc, want 1"; exit 1; }
grep -q "kernel $K612 has no symbol __x64_sys_lookup_dcookie" err ||
    { cat err; echo "the error does not name the symbol and kernel"; exit 1; }
"$STAP" -r "$K612" --sysroot "$LAB/$K612" -p2 \
    -e 'probe kprobe.function("__x64_sys_lookup_dcookie") ?, kprobe.function("vfs_read") { }' \
    > opt 2> err || { cat err; echo "an optional missing symbol is not dropped"; exit 1; }
[ "$(grep -c '^kprobe.function' opt)" = 1 ] && grep -q 'kprobe.function("vfs_read")' opt ||
    { cat opt; echo "the optional point's probes are wrong"; exit 1; }
echo ok
