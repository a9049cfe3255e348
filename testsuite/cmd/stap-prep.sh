# stap-prep for the lab kernel, with -n (installs nothing: the test must
# not change the host): its headers are there (lab/install put them), so
# only its -dbg package is wanted, by name, and the exit status says
# something is missing; twice the same (idempotent); with DEBUGINFOD_URLS
# set nothing is wanted and the status is 0; a kernel apt does not know
# is an error naming the packages; -q keeps only errors.
set -eu
fail() { echo "FAIL: $*"; exit 1; }
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
KVER=$(cat "$LAB/kver")
prep=$P/bin/stap-prep
dbg_installed=0
[ -r "/usr/lib/debug/boot/vmlinux-$KVER" ] && dbg_installed=1

rc=0; "$prep" -n -r "$KVER" > out1 2>&1 || rc=$?
grep -qx "stap-prep: headers for $KVER: present (/lib/modules/$KVER/build)" out1 ||
    fail "headers not reported present: $(cat out1)"
if [ $dbg_installed = 1 ]; then
    [ $rc = 0 ] && grep -qx "stap-prep: DWARF for $KVER: present" out1 || fail "status $rc: $(cat out1)"
else
    [ $rc = 1 ] && grep -qx "stap-prep: would install: linux-image-$KVER-dbg" out1 ||
        fail "-dbg not wanted (status $rc): $(cat out1)"
fi
rc2=0; "$prep" -n -r "$KVER" > out2 2>&1 || rc2=$?
[ $rc2 = $rc ] && cmp -s out1 out2 || fail "a second run differs: $(cat out2)"

rc=0; DEBUGINFOD_URLS=http://127.0.0.1:9 "$prep" -n -r "$KVER" > out 2>&1 || rc=$?
[ $rc = 0 ] || fail "with DEBUGINFOD_URLS: status $rc: $(cat out)"
[ $dbg_installed = 1 ] || grep -q "by build-id from DEBUGINFOD_URLS (http://127.0.0.1:9)" out ||
    fail "with DEBUGINFOD_URLS: $(cat out)"
! grep -q 'would install' out || fail "with DEBUGINFOD_URLS it wants: $(cat out)"

rc=0; "$prep" -n -r 0.0.1-nosuch > out 2>&1 || rc=$?
[ $rc = 1 ] || fail "unknown kernel: status $rc"
grep -q "no linux-headers-0.0.1-nosuch in apt's sources" out &&
    grep -q "no linux-image-0.0.1-nosuch-dbg in apt's sources" out || fail "unknown kernel: $(cat out)"

rc=0; "$prep" -q -n -r "$KVER" > out 2>&1 || rc=$?
! grep -q 'present' out || fail "-q printed: $(cat out)"
rc=0; "$prep" --bogus > out 2>&1 || rc=$?
[ $rc = 2 ] || fail "a bad option: status $rc"
echo ok
