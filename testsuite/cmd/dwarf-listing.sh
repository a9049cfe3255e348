# stap -L / -p2 through the DWARF provider on the lab kernel's debuginfo:
# parameters with SystemTap's type spelling, wildcards over the whole
# kernel from the index, .inline/.exported, statements, modules.
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
KVER=6.1.0-56-cloud-amd64     # the expectations are this kernel's
R=(-r "$KVER" --sysroot "$LAB/$KVER")
export SYSTEMTAP_DIR=$PWD/stapdir
fail() { echo "$*"; exit 1; }

out=$("$STAP" "${R[@]}" -L 'kernel.function("vfs_read")') || fail "stap -L vfs_read failed"
[ "$out" = 'kernel.function("vfs_read@fs/read_write.c:450") $file:struct file* $buf:char* $count:size_t $pos:loff_t*' ] ||
    fail "unexpected -L vfs_read: $out"
[ -f "$SYSTEMTAP_DIR"/cache/dwarf/3b43fad5034874490492495d552c0af6a5fab235.sqlite ] ||
    fail "no index under $SYSTEMTAP_DIR/cache/dwarf: $(ls -R "$SYSTEMTAP_DIR")"

# the same from the warm index
out2=$("$STAP" "${R[@]}" -L 'kernel.function("vfs_read")') || fail "warm stap -L failed"
[ "$out2" = "$out" ] || fail "warm index lists differently: $out2"

n=$("$STAP" "${R[@]}" -l 'kernel.function("tcp_*")' | wc -l)
[ "$n" -gt 100 ] || fail "kernel.function(\"tcp_*\") lists $n probes"
"$STAP" "${R[@]}" -l 'kernel.function("tcp_*")' | grep -qx 'kernel.function("tcp_sendmsg@net/ipv4/tcp.c:1489")' ||
    fail "tcp_sendmsg not among tcp_*"
# inline instances are there by default, not with .call
"$STAP" "${R[@]}" -l 'kernel.function("tcp_ca_event")' | grep -q . || fail "no tcp_ca_event"
n=$("$STAP" "${R[@]}" -l 'kernel.function("tcp_ca_event").call' 2>/dev/null | wc -l)
[ "$n" = 0 ] || fail "tcp_ca_event (always inlined) has $n .call probes"

out=$("$STAP" "${R[@]}" -L 'kernel.function("tcp_ca_event").inline' | sort -u)
[ "$out" = 'kernel.function("tcp_ca_event@include/net/tcp.h:1186").inline $sk:struct sock* $event:enum tcp_ca_event const $icsk:struct inet_connection_sock const*' ] ||
    fail "unexpected -L tcp_ca_event.inline: $out"

out=$("$STAP" "${R[@]}" -L 'kernel.function("do_sys_open*")')
echo "$out" | grep -qx 'kernel.function("do_sys_openat2@fs/open.c:1304") $dfd:int $filename:char const\* $how:struct open_how\* $op:struct open_flags' ||
    fail "unexpected -L do_sys_open*: $out"

out=$("$STAP" "${R[@]}" -L 'kernel.statement("vfs_read@fs/read_write.c:468")')
[ "$out" = 'kernel.statement("vfs_read@fs/read_write.c:468") $file:struct file* $buf:char* $count:size_t $pos:loff_t* $ret:ssize_t' ] ||
    fail "unexpected -L statement: $out"

out=$("$STAP" "${R[@]}" -L 'module("af_key").function("pfkey_sendmsg")')
[ "$out" = 'module("af_key").function("pfkey_sendmsg@net/key/af_key.c:3691") $sock:struct socket* $msg:struct msghdr* $len:size_t' ] ||
    fail "unexpected -L module function: $out"

# -L over many inline instances of header functions: the variables of
# each come from its own DIEs (the walk of the whole CU per variable it
# replaced took 180 s here), the same lines as that walk gave
# (bounded in CPU seconds, not wall time, so a busy host cannot fail it)
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
cpu=$( { TIMEFORMAT='%3U %3S'; time "$STAP" "${R[@]}" -L 'kernel.function("*@include/linux/[a-f]*")' > "$tmp"; } 2>&1 )
sum=$(md5sum < "$tmp" | cut -d' ' -f1)
# (a wildcard leaves out the out-of-line copies the kernel built notrace:
# 5 of them here, elaborate/families/kernel.c)
[ "$sum" = 4f248bdc82332423bee8ec4ef5517f0f ] || fail "-L of include/linux/[a-f]* inlines differs (md5 $sum)"
secs=$(echo "$cpu" | tail -1 | awk '{ printf "%d", $1 + $2 }')
[ "$secs" -lt 30 ] || fail "-L of include/linux/[a-f]* used $secs s of CPU (limit 30)"

# three static functions of one name (inline copies, notrace): the rows
# of one probe set (codegen/kset_gen.c), kprobes at their addresses
# (_stext + offset: the kernel would resolve the name to the first);
# paths without "../"
"$STAP" "${R[@]}" -p3 -e 'probe kernel.function("BIT_initDStream").call {}' > bit.c
out=$("$srcdir/bench/kset-sites" --rows bit.c)
[ "$out" = 'stp_kset0 0xffffffff815b93a0 kprobe
stp_kset0 0xffffffff815c47a0 kprobe
stp_kset0 0xffffffff815ca110 kprobe' ] || fail "unexpected BIT_initDStream registrations: $out"
out=$("$STAP" "${R[@]}" -l 'kernel.function("BIT_initDStream").call')
[ "$out" = 'kernel.function("BIT_initDStream@lib/zstd/common/bitstream.h:258").call' ] ||
    fail "unexpected BIT_initDStream listing: $out"
exit 0
