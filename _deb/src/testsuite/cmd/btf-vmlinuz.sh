# BTF without debuginfo: a sysroot with only boot/ (vmlinuz, Debian's
# placeholder System.map) and lib/ of the lab kernel.  The BTF comes from
# the vmlinux unpacked from vmlinuz (LZ4) and is cached; with a real
# System.map the kprobe blacklist is read from the unpacked image too.
set -eu
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
KVER=$(cat "$LAB/kver")
export SYSTEMTAP_DIR=$PWD/sysdir
fail() { echo "$*"; exit 1; }
mkdir -p bare/boot full/boot
for f in "$LAB/$KVER"/boot/*; do ln -s "$f" bare/boot/; ln -s "$f" full/boot/; done
ln -s "$LAB/$KVER/lib" bare/lib
ln -s "$LAB/$KVER/lib" full/lib
rm full/boot/System.map-"$KVER"
cp "$LAB/$KVER/usr/lib/debug/boot/System.map-$KVER" full/boot/
[ ! -e bare/usr ] || fail "the bare sysroot has debuginfo"

exp='kernel.trace("sched:sched_process_exec") $p:struct task_struct* $old_pid:pid_t $bprm:struct linux_binprm*'
got=$("$STAP" -r "$KVER" --sysroot "$PWD/bare" -L 'kernel.trace("sched:sched_process_exec")' 2>err) || { cat err; fail "-L failed"; }
[ "$got" = "$exp" ] || fail "got '$got'"
btf=$(ls "$SYSTEMTAP_DIR"/cache/btf/"$KVER"-*.btf) || fail "BTF not cached"
# the cached blob is the kernel's .BTF: it starts with the BTF magic 0xeb9f
[ "$(od -An -tx1 -N2 "$btf" | tr -d ' ')" = 9feb ] || fail "cached BTF has no magic"
# a second run uses the cache, also when the unpacked image is not needed
got=$("$STAP" -r "$KVER" --sysroot "$PWD/bare" -L 'kernel.trace("sched:sched_process_exec")' 2>err) || { cat err; fail "-L (cached) failed"; }
[ "$got" = "$exp" ] || fail "cached: got '$got'"

# functions need a symbol table: the placeholder System.map is named
! "$STAP" -r "$KVER" --sysroot "$PWD/bare" -L 'kernel.function("vfs_read")' 2>err || fail "no symbols, yet -L worked"
grep -q "placeholder" err || { cat err; fail "no clear message about System.map"; }

# with System.map: BTF parameters, and the blacklist out of the image
got=$("$STAP" -r "$KVER" --sysroot "$PWD/full" -L 'kernel.function("vfs_read")' 2>err) || { cat err; fail "-L vfs_read failed"; }
[ "$got" = 'kernel.function("vfs_read") $file:struct file* $buf:char* $count:size_t $pos:loff_t*' ] || fail "got '$got'"
ls "$SYSTEMTAP_DIR"/cache/btf/"$KVER"-*.bin > /dev/null || fail "blacklist not cached"
! "$STAP" -r "$KVER" --sysroot "$PWD/full" -p2 -e 'probe kernel.function("do_int3") {}' 2>err || fail "blacklisted do_int3 accepted"
grep -q "matches no probeable function" err || { cat err; fail "do_int3: wrong error"; }
"$STAP" -r "$KVER" --sysroot "$PWD/full" -p2 -e 'probe kernel.function("vfs_read") {}' > /dev/null 2>err || { cat err; fail "vfs_read refused"; }
echo ok
