# stap --remote's driver without guests: $SYSTEMTAP_SSH is a fake ssh that
# records its options and runs the command here with the host's uname
# (host "armhost" says aarch64) and a fake staprun that prints its
# arguments and waits for SIGINT.  Checks: URL parsing (-l USER, -p PORT),
# one build for two targets of the same kernel, --remote-prefix "N: ",
# -G passed after the module and -R for a cached module, a target of
# another machine failing alone (one stderr line, exit 1), SIGINT reaching
# every staprun (through a second session) and the remote directories
# removed; a bad URL scheme and -r with --remote refused.
set -eu
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
KVER=$(cat "$LAB/kver")
export SYSTEMTAP_DIR=$PWD/sysdir
mkdir fakebin rtmp
cat > fakebin/uname <<EOF
#!/bin/sh
case \$1 in
-r) echo $KVER ;;
-m) [ "\$FAKE_HOST" = armhost ] && echo aarch64 || echo x86_64 ;;
esac
EOF
cat > fakebin/staprun <<'EOF'
#!/bin/bash
echo "$FAKE_HOST: staprun $(echo "$*" | sed 's/stap_[0-9a-f]*\.ko/MOD.ko/')"
trap 'echo "$FAKE_HOST: stopped"; exit 0' INT
touch "$TOP/started-$FAKE_HOST"
while :; do sleep 0.05; done
EOF
cat > ssh <<EOF
#!/bin/bash
# fake ssh: -T -o BatchMode=yes [-p PORT] [-l USER] -- HOST COMMAND
opts=()
while [ "\$1" != -- ]; do opts+=("\$1"); shift; done
shift
echo "\${opts[*]} \$1" >> $PWD/ssh.log
export FAKE_HOST=\$1 TMPDIR=$PWD/rtmp TOP=$PWD PATH=$PWD/fakebin:\$PATH
exec sh -c "\$2"
EOF
chmod +x fakebin/* ssh
export SYSTEMTAP_SSH=$PWD/ssh

# refused up front
if "$STAP" --remote=libvirt://dom -e 'probe begin {}' 2> err1; then exit 1; fi
grep -q 'unknown scheme' err1 || { cat err1; exit 1; }
if "$STAP" -r "$KVER" --remote=h1 -e 'probe begin {}' 2> err2; then exit 1; fi
grep -q 'exclude' err2 || { cat err2; exit 1; }

"$STAP" -v --sysroot "$LAB/$KVER" --remote-prefix --remote=ssh://alice@h1:2222 \
    --remote h2 --remote=armhost -G stp_bufsize=4 \
    -e 'probe begin { println("x") }' > out 2> err &
pid=$!
k=0
until [ -e started-h1 ] && [ -e started-h2 ]; do
    k=$((k + 1))
    if [ $k -ge 1500 ] || ! kill -0 $pid 2>/dev/null; then
        echo "the fake stapruns did not start"; cat out err; exit 1
    fi
    sleep 0.2
done
kill -INT $pid
rc=0; wait $pid || rc=$?
echo "--- out"; cat out; echo "--- err"; cat err; echo "--- ssh.log"; cat ssh.log
[ $rc = 1 ] || { echo "exit status $rc, expected 1"; exit 1; }
cat > want <<'EOF'
0: h1: staprun -v -R ./MOD.ko stp_bufsize=4
0: h1: stopped
1: h2: staprun -v -R ./MOD.ko stp_bufsize=4
1: h2: stopped
EOF
sort out | diff -u want -
[ "$(grep -c '^Pass 4: compiled' err)" = 1 ] || { echo "not exactly one build"; exit 1; }
grep 'failed' err > failures || true
[ "$(wc -l < failures)" = 1 ] &&
    grep -qx 'stap: --remote armhost failed: machine aarch64 differs from this one.s (x86_64)' failures ||
    { echo "expected one failure line, for armhost"; exit 1; }
# user and port of ssh://alice@h1:2222; BatchMode always
grep -qx -- '-T -o BatchMode=yes -p 2222 -l alice h1' ssh.log || { echo "h1's ssh options"; exit 1; }
grep -qx -- '-T -o BatchMode=yes h2' ssh.log || { echo "h2's ssh options"; exit 1; }
[ -z "$(ls rtmp)" ] || { echo "remote directories left:"; ls rtmp; exit 1; }
echo ok
