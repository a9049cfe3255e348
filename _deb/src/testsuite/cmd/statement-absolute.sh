# kernel.statement(ADDR).absolute, and its kprobe.statement(ADDR).absolute
# spelling (stapprobes): guru mode only; the address (link-time,
# from the kernel's symbol table) is registered as its function symbol +
# offset, so the module works under any KASLR offset.
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
KVER=6.1.0-56-cloud-amd64
R=(-r "$KVER" --sysroot "$LAB/$KVER")
export SYSTEMTAP_DIR=$PWD/stapdir
fail() { echo "$*"; exit 1; }

vmlinux=$LAB/$KVER/usr/lib/debug/boot/vmlinux-$KVER
base=$(nm "$vmlinux" | awk '$2 == "T" && $3 == "vfs_read" { print $1; exit }')
[ -n "$base" ] || fail "no vfs_read in $vmlinux"
addr=$(printf '0x%x' $((0x$base + 4)))

out=$("$STAP" "${R[@]}" -g -p3 -e "probe kernel.statement($addr).absolute { println(pp()) }") ||
    fail "stap -g -p3 of statement($addr).absolute failed"
echo "$out" | grep -q '\.symbol = "vfs_read", \.offset = 4,' ||
    fail "not registered at vfs_read+4: $(echo "$out" | grep -n symbol)"

out=$("$STAP" "${R[@]}" -g -p3 -e "probe kprobe.statement($addr).absolute { println(pp()) }") ||
    fail "stap -g -p3 of kprobe.statement($addr).absolute failed"
echo "$out" | grep -q '\.symbol = "vfs_read", \.offset = 4,' ||
    fail "kprobe: not registered at vfs_read+4: $(echo "$out" | grep -n symbol)"

err=$("$STAP" "${R[@]}" -p2 -e "probe kprobe.statement($addr).absolute {}" 2>&1) &&
    fail "kprobe.statement: accepted without -g"
echo "$err" | grep -q 'kprobe.statement(ADDR).absolute is allowed in guru mode (-g) only' ||
    fail "unexpected error: $err"

err=$("$STAP" "${R[@]}" -p2 -e "probe kernel.statement($addr).absolute {}" 2>&1) &&
    fail "accepted without -g"
echo "$err" | grep -q 'allowed in guru mode (-g) only' || fail "unexpected error: $err"

err=$("$STAP" "${R[@]}" -g -p2 -e 'probe kernel.statement(0x10).absolute {}' 2>&1) &&
    fail "accepted an address outside the kernel"
echo "$err" | grep -q 'no kernel function contains address 0x10' || fail "unexpected error: $err"
exit 0
