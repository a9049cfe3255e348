# stap --target-namespaces=PID: passed to staprun as -N PID (a fake
# staprun, $SYSTEMTAP_STAPRUN, records its arguments); a PID that is not a
# number is a one-line error of stap.  staprun -N checks PID (a number,
# an existing process) before inserting anything.  (The namespaces the
# ns_*() functions then see: lab test tapset_target_ns.)
set -eu
fail() { echo "FAIL: $*"; exit 1; }
KVER=$(cat "${STAP_LAB_DIR:-/var/cache/stap-lab}/kver")
export SYSTEMTAP_DIR=$PWD/sysdir
cat > fake-staprun <<'EOS'
#!/bin/sh
echo "$*" > args
EOS
chmod +x fake-staprun
S='probe begin { println(ns_pid()); exit() }'
SYSTEMTAP_STAPRUN=$PWD/fake-staprun "$STAP" -r "$KVER" --target-namespaces=4321 -e "$S" ||
	fail "stap --target-namespaces=4321 failed"
case " $(cat args) " in
*" -N 4321 "*/stap_*.ko" "*) ;;
*) fail "no -N 4321 before the module: $(cat args)" ;;
esac
for bad in x1 0 -3 ''; do
	rc=0; err=$("$STAP" -p2 --target-namespaces="$bad" -e "$S" 2>&1) || rc=$?
	[ "$rc" = 1 ] && [ "$err" = "stap: --target-namespaces takes a process id, not '$bad'" ] ||
		fail "--target-namespaces='$bad': $rc $err"
done
# staprun -N, on a real module (nothing is inserted: the checks come first)
"$STAP" -r "$KVER" -p4 -m tns -e "$S" > /dev/null || fail "-p4"
rc=0; err=$("$STAPRUN" -N 12ab tns.ko 2>&1) || rc=$?
[ "$rc" = 1 ] && [ "$err" = "staprun: -N takes a process id, not '12ab'" ] || fail "staprun -N 12ab: $rc $err"
rc=0; err=$("$STAPRUN" -N 999999999 tns.ko 2>&1) || rc=$?
[ "$rc" = 1 ] && [ "$err" = "staprun: -N 999999999: no process 999999999" ] ||
	fail "staprun -N 999999999: $rc $err"
exit 0
