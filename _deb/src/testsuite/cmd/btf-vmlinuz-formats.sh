# vmlinuz compressed with gzip and xz (no setup header: the payload is
# found by its magic) gives the same BTF as the lab's LZ4 image; zstd is
# refused with a clear message.  Needs lz4, gzip, xz and python3.
set -eu
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
KVER=$(cat "$LAB/kver")
fail() { echo "$*"; exit 1; }
# the LZ4 payload named by the bzImage setup header, minus its size trailer
python3 - "$LAB/$KVER/boot/vmlinuz-$KVER" payload.lz4 <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
base = ((d[0x1f1] or 4) + 1) * 512
off, ln = struct.unpack('<II', d[0x248:0x250])
open(sys.argv[2], 'wb').write(d[base + off:base + off + ln - 4])
PY
lz4 -d -q payload.lz4 vmlinux.bin
exp='kernel.trace("sched:sched_process_exec") $p:struct task_struct* $old_pid:pid_t $bprm:struct linux_binprm*'
for z in gzip xz; do
    mkdir -p $z/boot
    { head -c 3000 /dev/zero; $z -1 -c vmlinux.bin; } > $z/boot/vmlinuz-$KVER
    got=$(SYSTEMTAP_DIR=$PWD/sd-$z "$STAP" -r "$KVER" --sysroot "$PWD/$z" -L 'kernel.trace("sched:sched_process_exec")' 2>err) || { cat err; fail "$z: -L failed"; }
    [ "$got" = "$exp" ] || fail "$z: got '$got'"
done
mkdir -p zstd/boot
{ head -c 3000 /dev/zero; printf '\050\265\057\375'; head -c 4096 /dev/zero; } > zstd/boot/vmlinuz-$KVER
! SYSTEMTAP_DIR=$PWD/sd-zstd "$STAP" -r "$KVER" --sysroot "$PWD/zstd" -L 'kernel.trace("sched:*")' 2>err || fail "zstd accepted"
grep -q "zstd-compressed kernels are not supported" err || { cat err; fail "zstd: no clear message"; }
echo ok
