# stap --remote against two lab guests at once.  Each guest (lab/boot
# --hostfwd: user-mode network, 127.0.0.1:PORT -> guest port 22) runs
# Debian's dropbear (testsuite/lab/ssh-guest) with a key generated here;
# the ssh client is the system's, through $SYSTEMTAP_SSH (a private config:
# batch mode, accept-new into a private known_hosts).  A third --remote to a
# port nobody listens on must fail alone.  One build serves both guests
# (same kernel).  Checks: each guest's lines, prefixed [HOST], exactly (a
# begin line, a timer line, and in the end probe the number of sync()s run
# on that guest: 7 on one, 4 on the other); after SIGINT to stap every
# module is gone (/proc/modules over ssh) and so is the remote directory;
# exit status 1 with one failure line, for the dead target only.  No qemu
# survives: both guests run in process groups of their own, killed on
# every exit path, and lab/boot bounds them anyway.
set -eu
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
KVER=$(cat "$LAB/kver")
MODS=$LAB/$KVER/lib/modules/$KVER/kernel
command -v dropbear >/dev/null || [ -x /usr/sbin/dropbear ] ||
    { echo "dropbear (dropbear-bin) not installed: run testsuite/lab/install"; exit 1; }
command -v ssh >/dev/null || { echo "ssh (openssh-client) not installed"; exit 1; }
export SYSTEMTAP_DIR=$PWD/sysdir

# the guests' files: network modules, keys
mkdir g
for m in drivers/virtio/virtio drivers/virtio/virtio_ring drivers/virtio/virtio_pci_modern_dev \
         drivers/virtio/virtio_pci_legacy_dev drivers/virtio/virtio_pci net/core/failover \
         drivers/net/net_failover drivers/net/virtio_net; do
    cp "$MODS/$m.ko" g/
done
ssh-keygen -q -t ed25519 -N '' -f id
cp id.pub g/authorized_keys
dropbearkey -t ed25519 -f g/hostkey >/dev/null 2>&1
cat > ssh-config <<EOF
BatchMode yes
StrictHostKeyChecking accept-new
UserKnownHostsFile $PWD/known_hosts
IdentityFile $PWD/id
IdentitiesOnly yes
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
for p in $P1 $P2; do
    setsid "$srcdir/lab/boot" --timeout 240 --prefix "$P" --hostfwd "$p" \
        --file /usr/sbin/dropbear --file "$srcdir/lab/ssh-guest:/lab/ssh-guest" \
        --dir "$PWD/g:/lab/ssh" -- 'sh /lab/ssh-guest /lab/ssh 220' \
        > "guest-$p.out" 2> "guest-$p.err" &
    pids+=($!)
done
rsh() { local p=$1; shift; "$SYSTEMTAP_SSH" -p "$p" root@127.0.0.1 "$@"; }
for p in $P1 $P2; do
    k=0
    until rsh "$p" true 2>/dev/null; do
        k=$((k + 1))
        [ $k -lt 60 ] || { echo "guest $p: no ssh after 120 s"; cat "guest-$p.err"; exit 1; }
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
"$STAP" --sysroot "$LAB/$KVER" --remote=ssh://root@127.0.0.1:$P1 \
    --remote "root@127.0.0.1:$P2" --remote=ssh://root@127.0.0.1:$DEAD \
    remote.stp > out 2> err &
stap_pid=$!
H1="[root@127.0.0.1:$P1]" H2="[root@127.0.0.1:$P2]"
k=0
until grep -qF "$H1 ticking" out && grep -qF "$H2 ticking" out; do
    k=$((k + 1))
    if [ $k -ge 900 ] || ! kill -0 $stap_pid 2>/dev/null; then
        echo "no 'ticking' from both guests"; cat out err; exit 1
    fi
    sleep 0.2
done
# the scripts are running on both: the modules are loaded there
for p in $P1 $P2; do
    rsh "$p" cat /proc/modules | grep -q '^stap_' || { echo "guest $p: no stap_ module"; exit 1; }
done
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
printf '%s begin\n%s ticking\n%s syncs=7\n' "$H1" "$H1" "$H1" > want1
printf '%s begin\n%s ticking\n%s syncs=4\n' "$H2" "$H2" "$H2" > want2
grep -F "$H1 " out > got1 || true
grep -F "$H2 " out > got2 || true
diff -u want1 got1
diff -u want2 got2
[ "$(wc -l < out)" = 6 ] || { echo "unexpected lines on stdout"; exit 1; }
grep 'failed' err > failures || true
[ "$(wc -l < failures)" = 1 ] && grep -qF -- "--remote ssh://root@127.0.0.1:$DEAD failed" failures ||
    { echo "expected exactly one failure line, for port $DEAD"; exit 1; }
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
