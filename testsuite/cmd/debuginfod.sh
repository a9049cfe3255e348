# debuginfod: debuginfo by build-id from a debuginfod server instead of
# -dbg packages.  Debian's own server (the debuginfod package) runs on
# 127.0.0.1 in a network namespace of its own (unshare -n: nothing else
# is reachable) and indexes the lab's linux-image-KVER-dbg and
# python3.11-dbg .debs (kept by lab/install in $LAB/debs).  The sysroot is
# a copy of the lab's without usr/lib/debug, with /usr/bin/python3.11
# added: no DWARF anywhere in it.  With DEBUGINFOD_URLS naming the server:
#  - a DWARF-only kernel script ($file->f_path->dentry->d_name->name,
#    which BTF cannot serve: -p2 without the server fails) builds a
#    module (-p4), the vmlinux coming into $DEBUGINFOD_CACHE_PATH
#    (the client cache) by its build-id, and nothing is said on stderr
#    that is not a terminal;
#  - a module's variables resolve, its debuginfo fetched by the build-id
#    of its .ko in the sysroot;
#  - the python3 probes (statement probes in python3.11's ceval.c, which
#    need its line table: they fail without the server) build, with a
#    progress line ("downloading the debuginfo of") on a terminal
#    (script(1));
#  - the first DWARF index of a file says so on a terminal, not
#    otherwise, nor under -w;
#  - a second run downloads nothing (the cache);
#  - a program whose build-id the server does not have is a clear error
#    naming the server and the build-id.
set -eu
fail() { echo "FAIL: $*"; [ -f "$PWD/server.log" ] && tail -n 20 "$PWD/server.log"; exit 1; }
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
KVER=$(cat "$LAB/kver")
[ "$(id -u)" = 0 ] || fail "needs root (unshare -n)"
command -v debuginfod > /dev/null || fail "no debuginfod server: run testsuite/lab/install"
kdeb=$(ls "$LAB"/debs/linux-image-"$KVER"-dbg_*.deb 2>/dev/null | head -n 1)
pv=$(dpkg-query -W -f='${Version}' python3.11-dbg | sed 's/:/%3a/')
pdeb=$(ls "$LAB"/debs/python3.11-dbg_"$pv"_*.deb 2>/dev/null | head -n 1)
[ -n "$kdeb" ] && [ -n "$pdeb" ] || fail "no .debs in $LAB/debs: run testsuite/lab/install"

# everything below in a network namespace with only the loopback device
if [ -z "${DEBUGINFOD_TEST_NETNS:-}" ]; then
    exec unshare -n env DEBUGINFOD_TEST_NETNS=1 bash "$0"
fi
ip link set lo up

mkdir -p debs
ln -sf "$kdeb" "$pdeb" debs/
debuginfod -L -Z '.deb=dpkg-deb --fsys-tarfile' -p 8002 -d "$PWD/db.sqlite" \
    --disable-source-scan -t0 -g0 -c2 "$PWD/debs" > server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null' EXIT

# metrics LINE-PATTERN: the server's metrics matching it
metrics() {
    local m
    m=$(exec 3<>/dev/tcp/127.0.0.1/8002 &&
        printf 'GET /metrics HTTP/1.0\r\n\r\n' >&3 && cat <&3) 2>/dev/null || return 1
    echo "$m" | grep -a "$1"
}
# indexed when both archives were scanned and no scan is pending
i=0
until [ "$(metrics '^scanned_files_total' | awk '{ n += $NF } END { print n + 0 }')" = 2 ] &&
      metrics '^thread_work_pending{role="scan"} 0' > /dev/null &&
      metrics '^thread_busy{role="scan"} 0' > /dev/null; do
    kill -0 $server 2>/dev/null || fail "debuginfod exited"
    i=$((i + 1)); [ $i -lt 900 ] || fail "debuginfod did not index the .debs in 900 s"
    sleep 1
done
echo "server indexed the .debs in $i s"

# the sysroot: the lab's /boot and /lib/modules (hard links when the file
# system allows) and python3.11, no /usr/lib/debug
root=$PWD/sysroot
mkdir -p "$root/usr/bin"
cp -al "$LAB/$KVER/boot" "$LAB/$KVER/lib" "$root/" 2>/dev/null ||
    cp -a "$LAB/$KVER/boot" "$LAB/$KVER/lib" "$root/"
cp /usr/bin/python3.11 "$root/usr/bin/"
[ ! -e "$root/usr/lib/debug" ] || fail "the sysroot has usr/lib/debug"
K=(-r "$KVER" --sysroot "$root")
export SYSTEMTAP_DIR=$PWD/stapdir DEBUGINFOD_CACHE_PATH=$PWD/cache
url=http://127.0.0.1:8002

kscript='probe kernel.function("vfs_read") {
	printf("%s\n", kernel_string($file->f_path->dentry->d_name->name))
	exit()
}'
pscript='probe python3.function.entry { printf("%s %s\n", funcname, filename) }'

# without the server neither builds
rc=0; "$STAP" "${K[@]}" -p2 -e "$kscript" > /dev/null 2> err || rc=$?
[ $rc = 1 ] || fail "the kernel script built without DWARF (status $rc)"
grep -q 'man error::dwarf' err || fail "no DWARF: $(cat err)"
rc=0; "$STAP" "${K[@]}" -p2 -e "$pscript" > /dev/null 2> err || rc=$?
[ $rc = 1 ] || fail "the python3 probes built without python3.11's DWARF (status $rc)"

# the kernel script, stderr not a terminal
t0=$(date +%s)
DEBUGINFOD_URLS=$url "$STAP" "${K[@]}" -p4 -m dfk -e "$kscript" > out 2> err ||
    fail "kernel script with the server: $(cat err)"
[ -s dfk.ko ] || fail "no dfk.ko"
! grep -q 'downloading' err || fail "a progress line with stderr not a terminal: $(cat err)"
vm=$(find cache -path '*/debuginfo' -size +100M | head -n 1)
[ -n "$vm" ] || fail "no vmlinux debuginfo in the client cache: $(find cache | head)"
id=$(readelf -n "$vm" | sed -n 's/.*Build ID: //p')
[ "$(basename "$(dirname "$vm")")" = "$id" ] || fail "cache entry $vm is not named by its build-id $id"
echo "kernel script: built in $(( $(date +%s) - t0 )) s, vmlinux $(du -m "$vm" | cut -f1) MB in the cache"

# a module's function by its source file (DWARF only: the module's BTF
# knows its parameters, not its files): its debuginfo by the build-id of
# the sysroot's brd.ko
mscript='probe module("brd").function("brd_do_bvec@drivers/block/brd.c") { printf("%d %d\n", $len, $sector) }'
rc=0; "$STAP" "${K[@]}" -p2 -e "$mscript" > /dev/null 2> err || rc=$?
[ $rc = 1 ] || fail "the module script resolved without the module's DWARF (status $rc)"
DEBUGINFOD_URLS=$url "$STAP" "${K[@]}" -p2 -e "$mscript" > out 2> err ||
    fail "module script with the server: $(cat err)"
grep -q 'module("brd").function("brd_do_bvec@drivers/block/brd.c:[0-9]*")' out ||
    fail "module script: $(cat out)"
bid=$(readelf -n "$root/lib/modules/$KVER/kernel/drivers/block/brd.ko" | sed -n 's/.*Build ID: //p')
[ -s "cache/$bid/debuginfo" ] || fail "no cache/$bid/debuginfo (brd.ko's)"

# the python3 probes, on a terminal
t0=$(date +%s)
DEBUGINFOD_URLS=$url script -qefc "$STAP ${K[*]} -p4 -m dfp -e '$pscript'" /dev/null > tty.out 2>&1 ||
    fail "python3 probes with the server: $(tr '\r' '\n' < tty.out | tail -n 20)"
[ -s dfp.ko ] || fail "no dfp.ko"
tr '\r' '\n' < tty.out | grep -q "^stap: downloading the debuginfo of $root/usr/bin/python3.11 from $url" ||
    fail "no progress line on the terminal: $(tr '\r' '\n' < tty.out | head)"
tr '\r' '\n' < tty.out | grep -q "^stap: downloading the debuginfo of .*: done in [0-9.]* s" ||
    fail "the progress line did not end: $(tr '\r' '\n' < tty.out | head)"
# the first DWARF index of the program says so on the terminal too
tr '\r' '\n' < tty.out | grep -q "^stap: indexing the DWARF of $root/usr/bin/python3.11 (once; kept in the cache): done in [0-9.]* s" ||
    fail "no index progress line on the terminal: $(tr '\r' '\n' < tty.out | head)"
! grep -q 'indexing' err || fail "an index progress line with stderr not a terminal: $(cat err)"
echo "python3 probes: built in $(( $(date +%s) - t0 )) s"
# -w: not a word of progress, even on a terminal (a fresh index)
DEBUGINFOD_URLS=$url SYSTEMTAP_DIR=$PWD/stapdir-w script -qefc "$STAP -w ${K[*]} -p2 -e '$pscript'" /dev/null > tty-w.out 2>&1 ||
    fail "-w run: $(tr '\r' '\n' < tty-w.out | tail)"
! grep -q 'indexing\|downloading' tty-w.out || fail "progress lines under -w: $(tr '\r' '\n' < tty-w.out | head)"

# again: everything from the cache (no download, no progress line)
DEBUGINFOD_URLS=$url script -qefc "$STAP ${K[*]} -p2 -e '$pscript'" /dev/null > tty2.out 2>&1 ||
    fail "second run: $(tr '\r' '\n' < tty2.out | tail)"
! grep -q downloading tty2.out || fail "the second run downloaded again"

# what the server does not have
cat > prog.c <<'EOF'
int main(int argc, char **argv) { return argc > 5; }
EOF
gcc -O2 -o prog prog.c -Wl,--build-id=0x0123456789abcdef0123456789abcdef01234567
rc=0
DEBUGINFOD_URLS=$url "$STAP" -p2 -e "probe process(\"$PWD/prog\").statement(\"main@prog.c:1\") { println(\$argc) }" \
    > /dev/null 2> err || rc=$?
[ $rc = 1 ] || fail "a probe needing prog's DWARF built (status $rc)"
grep -q "the debuginfod server(s) $url have no debuginfo for .*prog (build-id 0123456789abcdef0123456789abcdef01234567)" err ||
    fail "the error does not say the server has nothing: $(cat err)"
echo ok
