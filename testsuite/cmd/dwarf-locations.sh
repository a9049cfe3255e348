# DWARF locations as C (stap -p3 on the lab kernel's debuginfo): register
# parameters, a stack local through DW_OP_fbreg and the CFA from the call
# frame information (rsp + 8 at a function's entry), a global through
# DW_OP_addr, an inline instance's parameter, and the error texts.
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
KVER=6.1.0-56-cloud-amd64     # the expectations are this kernel's
R=(-r "$KVER" --sysroot "$LAB/$KVER")
export SYSTEMTAP_DIR=$PWD/stapdir
fail() { echo "$*"; exit 1; }
has() { grep -qF -- "$2" <<< "$1" || fail "expected '$2' in: $(grep -F 'f->t' <<< "$1")"; }

c=$("$STAP" "${R[@]}" -p3 -e 'probe kernel.function("vfs_read") { println($file, $count) }') ||
    fail "stap -p3 vfs_read failed"
has "$c" 'stp_reg(c, 5)'      # rdi
has "$c" 'stp_reg(c, 1)'      # rdx

c=$("$STAP" "${R[@]}" -p3 -e 'probe kernel.function("do_sys_openat2") { println($op->open_flag) }') ||
    fail "stap -p3 do_sys_openat2 failed"
has "$c" '(s32)stp_read_kernel(c, (unsigned long)(((unsigned long)(((stp_reg(c, 7) + (unsigned long)8LL) + (unsigned long)-60LL)) + 0UL)), 4,'

c=$("$STAP" "${R[@]}" -p3 -e 'probe kernel.function("vfs_read") { println(@var("jiffies_64@kernel/time/timer.c")) }') ||
    fail "stap -p3 @var failed"
has "$c" 'stp_read_kernel(c, (unsigned long)(stp_kaddr(0xffffffff82a079c0ULL)), 8,'

c=$("$STAP" "${R[@]}" -p3 -e 'probe kernel.function("add_rchar").inline { println($amt) }') ||
    fail "stap -p3 add_rchar.inline failed"
# 8 instances in the probe table; the ones whose code is the same share
# a handler (codegen/share.c), and those of one handler are the rows of
# a probe set (codegen/kset_gen.c: one table entry, .nrows of them):
# every handler reads $amt from a register
entries=$(grep -c '^	  .handler = probe_0_d' <<< "$c")
sets=$(grep -c '^	\.nrows = ' <<< "$c")
rows=$(sed -n 's/^	\.nrows = \([0-9]*\),.*/\1/p' <<< "$c" | paste -sd+ | sed 's/^$/0/' | bc)
[ $((entries - sets + rows)) = 8 ] ||
    fail "add_rchar does not have 8 inline instances ($entries entries, $sets sets of $rows rows)"
nh=$(grep -c '^static void probe_0_d' <<< "$c")
[ "$nh" -ge 2 ] && [ "$(grep -c 'f->t0 = ((s64)(stp_reg(c, [0-9]*)));' <<< "$c")" = "$nh" ] ||
    fail "add_rchar's inline instances do not all read \$amt from a register"

err=$("$STAP" "${R[@]}" -p2 -e 'probe kernel.function("vfs_read") { println($ret) }' 2>&1) &&
    fail "\$ret at vfs_read's entry resolved"
has "$err" "cannot resolve '\$ret' in vfs_read: optimized out at this address"
err=$("$STAP" "${R[@]}" -p2 -e 'probe kernel.function("vfs_read") { println($nosuch) }' 2>&1) &&
    fail "\$nosuch resolved"
has "$err" "cannot resolve '\$nosuch' in vfs_read: not found; parameters: file buf count pos"
exit 0
