# A module holds the addresses of one kernel build: pass 3 records that
# kernel's build-id in .modinfo (stap_kernel_build_id: here, the lab 6.1
# kernel's DWARF vmlinux's note, as readelf reads it), and staprun refuses
# to insert the module into a kernel with another build-id (this host's,
# /sys/kernel/notes), with one line naming both, exit status 1 and nothing
# inserted (the check comes before the insertion, so this runs on the host).
set -eu
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
KVER=$(cat "$LAB/kver")
export SYSTEMTAP_DIR=$PWD/sysdir
want=$(readelf -n "$LAB/$KVER/usr/lib/debug/boot/vmlinux-$KVER" | sed -n 's/.*Build ID: //p')
[ -n "$want" ] || { echo "no build-id in the lab's vmlinux-$KVER"; exit 1; }
echo 'probe begin { println("hello") exit() }' > m.stp
"$STAP" -r "$KVER" --sysroot "$LAB/$KVER" -p4 -m m m.stp > /dev/null
got=$(modinfo -F stap_kernel_build_id m.ko)
[ "$got" = "$want" ] || { echo "stap_kernel_build_id '$got', expected '$want'"; exit 1; }
here=$(od -An -tx1 -v /sys/kernel/notes | tr -d ' \n' | grep -o '474e5500[0-9a-f]*' | cut -c9-48)
if [ "$here" = "$want" ]; then   # this host runs the lab's very build
    echo "this host's kernel is the lab's build: the refusal cannot be shown here"
    exit 0
fi
rc=0; "$STAPRUN" m.ko > out 2> err || rc=$?
cat out err
[ $rc = 1 ] || { echo "staprun exit status $rc, expected 1"; exit 1; }
grep -q "m.ko was built for the kernel whose build-id is $want; this kernel's is [0-9a-f]" err ||
    { echo "no build-id refusal"; exit 1; }
[ "$(wc -l < err)" = 1 ] && [ ! -s out ] || { echo "more output than the refusal"; exit 1; }
echo ok
