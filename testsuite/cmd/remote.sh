# stap --remote against a mixed fleet: two lab guests at once, one of each
# kernel line (6.1 and 6.12, single-CPU TCG), and three targets: the 6.1
# guest twice (as root@HOST:PORT and as HOST:PORT, two sessions of the same
# script side by side) and the 6.12 guest once.  Each guest (lab/boot
# --hostfwd: user-mode network, 127.0.0.1:PORT -> guest port 22) runs
# Debian's dropbear (testsuite/lab/ssh-guest) with a key generated here;
# the ssh client is the system's, through $SYSTEMTAP_SSH (a private config:
# batch mode, accept-new into a private known_hosts, user root).  A fourth
# --remote to a port nobody listens on must fail alone.  One build per
# kernel release: the cache (a fresh $SYSTEMTAP_DIR) then holds exactly two
# modules, one per release, each built against its own kernel's debuginfo.
# Checks: each target's lines, prefixed [TARGET], exactly (a begin line, a
# timer line, and in the end probe the number of sync()s run on that guest:
# 7 on the 6.1 one, seen by both its sessions, 4 on the 6.12 one); after
# SIGINT to stap every module is gone (/proc/modules over ssh) and so is
# every remote directory; exit status 1 with one failure line, for the dead
# target only; no Oops/BUG/WARNING in either guest's log.  No qemu survives:
# both guests run in process groups of their own, killed on every exit
# path, and lab/boot bounds them anyway.
set -eu
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
K1=$("$srcdir/lab/kver" cloud)        # 6.1
K2=$("$srcdir/lab/kver" 6.12-cloud)   # 6.12
command -v dropbear >/dev/null || [ -x /usr/sbin/dropbear ] ||
    { echo "dropbear (dropbear-bin) not installed: run testsuite/lab/install"; exit 1; }
command -v ssh >/dev/null || { echo "ssh (openssh-client) not installed"; exit 1; }
export SYSTEMTAP_DIR=$PWD/sysdir

# the host's view of the fleet: one root holding both kernels' files (as a
# build host with both lines' -dbg packages installed would)
mkdir sysroot
cp -rs "$LAB/$K1/." "$LAB/$K2/." sysroot/

# the guests' files: network modules (those not built in; .ko.xz unpacked), keys
ssh-keygen -q -t ed25519 -N '' -f id
dropbearkey -t ed25519 -f hostkey >/dev/null 2>&1
guest_files() {  # DIR KVER
    local m mods=$LAB/$2/lib/modules/$2
    mkdir "$1"
    for m in drivers/virtio/virtio drivers/virtio/virtio_ring drivers/virtio/virtio_pci_modern_dev \
             drivers/virtio/virtio_pci_legacy_dev drivers/virtio/virtio_pci net/core/failover \
             drivers/net/net_failover drivers/net/virtio_net; do
        if [ -f "$mods/kernel/$m.ko" ]; then
            cp "$mods/kernel/$m.ko" "$1/"
        elif [ -f "$mods/kernel/$m.ko.xz" ]; then
            xz -dc "$mods/kernel/$m.ko.xz" > "$1/${m##*/}.ko"
        elif ! grep -qx "kernel/$m.ko" "$mods/modules.builtin"; then
            echo "kernel $2: no $m module"; exit 1
        fi
    done
    cp id.pub "$1/authorized_keys"
    cp hostkey "$1/hostkey"
}
guest_files g1 "$K1"
guest_files g2 "$K2"
cat > ssh-config <<EOF
BatchMode yes
StrictHostKeyChecking accept-new
UserKnownHostsFile $PWD/known_hosts
IdentityFile $PWD/id
IdentitiesOnly yes
User root
ConnectTimeout 20
LogLevel ERROR
EOF
printf '#!/bin/sh\nexec ssh -F %s "$@"\n' "$PWD/ssh-config" > ssh
chmod +x ssh
export SYSTEMTAP_SSH=$PWD/ssh

# ports: free ones from the ephemeral range
free_port() {
    local p
    while :; do
        p=$((20000 + RANDOM % 20000))
        ss -Htln "sport = :$p" 2>/dev/null | grep -q . || { echo $p; return; }
    done
}
P1=$(free_port); P2=$(free_port)
while [ "$P2" = "$P1" ]; do P2=$(free_port); done
DEAD=$(free_port)
while [ "$DEAD" = "$P1" ] || [ "$DEAD" = "$P2" ]; do DEAD=$(free_port); done

pids=()
cleanup() {
    local p
    [ -z "${stap_pid:-}" ] || kill -TERM "$stap_pid" 2>/dev/null || true
    # lab/boot runs qemu under `timeout`, which has a process group of its
    # own: TERM it (it passes TERM on to qemu), then lab/boot's group
    for p in ${pids[@]+"${pids[@]}"}; do
        kill -TERM $(pgrep -P "$p") 2>/dev/null || true
        kill -TERM -- -"$p" 2>/dev/null || true
    done
    [ ${#pids[@]} = 0 ] || sleep 2
    for p in ${pids[@]+"${pids[@]}"}; do kill -KILL -- -"$p" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
boot() {  # PORT LINE GUESTDIR
    setsid "$srcdir/lab/boot" --line "$2" --smp 1 --timeout 900 --prefix "$P" --hostfwd "$1" \
        --file /usr/sbin/dropbear --file "$srcdir/lab/ssh-guest:/lab/ssh-guest" \
        --dir "$PWD/$3:/lab/ssh" -- 'sh /lab/ssh-guest /lab/ssh 880' \
        > "guest-$1.out" 2> "guest-$1.err" &
    pids+=($!)
}
boot "$P1" cloud g1
boot "$P2" 6.12-cloud g2
rsh() { local p=$1; shift; "$SYSTEMTAP_SSH" -p "$p" root@127.0.0.1 "$@"; }
for p in $P1 $P2; do
    k=0
    until rsh "$p" true 2>/dev/null; do
        k=$((k + 1))
        [ $k -lt 120 ] || { echo "guest $p: no ssh after 240 s"; cat "guest-$p.err"; exit 1; }
        sleep 2
    done
done

cat > remote.stp <<'EOF'
global syncs, ticks
probe begin { println("begin") }
probe timer.ms(100) { if (ticks++ == 0) println("ticking") }
probe kernel.function("ksys_sync") { syncs++ }
probe end { printf("syncs=%d\n", syncs) }
EOF
"$STAP" --sysroot "$PWD/sysroot" --remote=ssh://root@127.0.0.1:$P1 \
    --remote "root@127.0.0.1:$P2" --remote "127.0.0.1:$P1" \
    --remote=ssh://root@127.0.0.1:$DEAD remote.stp > out 2> err &
stap_pid=$!
H1="[root@127.0.0.1:$P1]" H2="[root@127.0.0.1:$P2]" H3="[127.0.0.1:$P1]"
lines_of() { awk -v h="$1 " 'index($0, h) == 1' out; }
# both builds (a fresh cache: each kernel's runtime too) run at once
k=0
until lines_of "$H1" | grep -qxF "$H1 ticking" && lines_of "$H2" | grep -qxF "$H2 ticking" &&
      lines_of "$H3" | grep -qxF "$H3 ticking"; do
    k=$((k + 1))
    if [ $k -ge 3000 ] || ! kill -0 $stap_pid 2>/dev/null; then
        echo "no 'ticking' from every target"; cat out err; exit 1
    fi
    sleep 0.2
done
# the scripts are running: the modules are loaded there (two on guest 1)
[ "$(rsh "$P1" cat /proc/modules | grep -c '^stap_')" = 2 ] ||
    { echo "guest $P1: not two stap_ modules"; rsh "$P1" cat /proc/modules; exit 1; }
[ "$(rsh "$P2" cat /proc/modules | grep -c '^stap_')" = 1 ] ||
    { echo "guest $P2: not one stap_ module"; rsh "$P2" cat /proc/modules; exit 1; }
[ "$(rsh "$P1" uname -r)" = "$K1" ] && [ "$(rsh "$P2" uname -r)" = "$K2" ] ||
    { echo "the guests do not run $K1 and $K2"; exit 1; }
rsh "$P1" 'i=0; while [ $i -lt 7 ]; do sync; i=$((i + 1)); done'
rsh "$P2" 'i=0; while [ $i -lt 4 ]; do sync; i=$((i + 1)); done'
kill -INT $stap_pid
k=0
while kill -0 $stap_pid 2>/dev/null; do
    k=$((k + 1))
    [ $k -lt 450 ] || { echo "stap did not end within 90 s of SIGINT"; cat out err; exit 1; }
    sleep 0.2
done
rc=0; wait $stap_pid || rc=$?
stap_pid=
echo "--- stdout"; cat out; echo "--- stderr"; cat err
[ $rc = 1 ] || { echo "exit status $rc, expected 1 (one target failed)"; exit 1; }
for h in "$H1 7" "$H2 4" "$H3 7"; do
    set -- $h
    printf '%s begin\n%s ticking\n%s syncs=%d\n' "$1" "$1" "$1" "$2" > want
    lines_of "$1" > got
    diff -u want got
done
[ "$(wc -l < out)" = 9 ] || { echo "unexpected lines on stdout"; exit 1; }
grep 'failed' err > failures || true
[ "$(wc -l < failures)" = 1 ] && grep -qF -- "--remote ssh://root@127.0.0.1:$DEAD failed" failures ||
    { echo "expected exactly one failure line, for port $DEAD"; exit 1; }
# one build per kernel release, side by side in the cache: two modules,
# one per release, each keyed by (and built for) its own kernel's build-id
find sysdir/cache -name 'stap_*.ko' | sort > cached
[ "$(wc -l < cached)" = 2 ] || { echo "expected 2 cached modules:"; cat cached; exit 1; }
for k in "$K1" "$K2"; do
    ko=
    while read -r f; do
        [ "$(modinfo -F vermagic "$f" | cut -d' ' -f1)" = "$k" ] && ko=$f
    done < cached
    [ -n "$ko" ] || { echo "no cached module for $k"; exit 1; }
    id=$(readelf -n "$LAB/$k/usr/lib/debug/boot/vmlinux-$k" | sed -n 's/.*Build ID: //p')
    [ -n "$id" ] && [ "$(modinfo -F stap_kernel_build_id "$ko")" = "$id" ] ||
        { echo "$ko: kernel build-id '$(modinfo -F stap_kernel_build_id "$ko")', expected '$id'"; exit 1; }
    echo "cache: $k (build-id $id): $ko"
done
# every module removed, every remote directory gone
for p in $P1 $P2; do
    if rsh "$p" cat /proc/modules | grep '^stap_'; then echo "guest $p: module left"; exit 1; fi
    if rsh "$p" 'ls -d /tmp/stapremote.*' 2>/dev/null; then echo "guest $p: directory left"; exit 1; fi
    rsh "$p" 'touch /tmp/lab-stop'
done
# the guests end cleanly (no Oops/BUG/WARNING in their kernel logs)
for i in 0 1; do
    grc=0; wait "${pids[$i]}" || grc=$?
    [ $grc = 0 ] || { echo "guest ${pids[$i]}: lab/boot exit status $grc"; cat guest-*.err; exit 1; }
done
pids=()
echo ok
