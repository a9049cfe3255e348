# stap -l / -L list probe points; -w silences warnings; -u keeps unused
# code; pass 1 reports several errors with a summary.
set -u
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p ts
cat > ts/demo.stp <<'STP'
probe demo.open = begin { name = "open"; flags = 3 }
probe demo.close = end { name = "close" }
probe demo.close.return += end { ret = 0 }
function demo_helper:string (x:long) { return sprintf("%d", x) }
STP
out=$("$STAP" -I ts -l 'demo.*') || fail "-l demo.* failed"
[ "$out" = "demo.close
demo.open" ] || fail "-l demo.* printed: $out"
out=$("$STAP" -I ts -l 'demo.**') || fail "-l demo.** failed"
[ "$(echo "$out" | wc -l)" = 3 ] || fail "-l demo.** printed: $out"
out=$("$STAP" -I ts -L 'demo.open') || fail "-L failed"
[ "$out" = "demo.open name:string flags:long" ] || fail "-L printed: $out"
out=$("$STAP" -l 'timer.m*') || fail "-l timer.m* failed"
echo "$out" | grep -qx 'timer.ms(NUMBER)' || fail "-l timer.m* printed: $out"
out=$("$STAP" -l 'kprobe.function("vfs_read")') || fail "-l kprobe failed"
[ "$out" = 'kprobe.function("vfs_read")' ] || fail "-l kprobe printed: $out"
"$STAP" -l 'nosuch.*' > /dev/null 2>&1 && fail "-l nosuch.* succeeded"
# alias use from an -I tapset, and the expanded body in -p2
out=$("$STAP" -I ts -p2 -e 'probe demo.open { printf("%s %d\n", name, flags) }') || fail "-p2 alias"
echo "$out" | grep -q 'name = "open";' || fail "-p2 lacks the prologue: $out"
# -w: no warnings at all
err=$("$STAP" -w -p2 -e 'function unused() { } probe begin { x = 1 }' 2>&1 >/dev/null) || fail "-w run failed"
[ -z "$err" ] || fail "-w still warns: $err"
err=$("$STAP" -p2 -e 'function unused() { } probe begin { x = 1 }' 2>&1 >/dev/null)
echo "$err" | grep -q "eliding unused function 'unused'" || fail "no unused warning: $err"
# -w also silences the script's warnings: staprun -w (a fake staprun,
# $SYSTEMTAP_STAPRUN, records its arguments)
KVER=$(cat "${STAP_LAB_DIR:-/var/cache/stap-lab}/kver")
printf '#!/bin/sh\necho "$*" > args\n' > fake-staprun
chmod +x fake-staprun
SYSTEMTAP_STAPRUN=$PWD/fake-staprun "$STAP" -r "$KVER" -w -e 'probe begin { exit() }' \
	> /dev/null 2>&1 || fail "-w with a fake staprun failed"
case " $(cat args) " in *" -w "*) ;; *) fail "-w not passed to staprun: $(cat args)" ;; esac
# -u keeps the unused function in the -p2 listing
out=$("$STAP" -u -p2 -e 'function unused() { return 1 } probe begin { }' 2>/dev/null)
echo "$out" | grep -q '^unused:long' || fail "-u dropped the function: $out"
out=$("$STAP" -p2 -e 'function unused() { return 1 } probe begin { }' 2>/dev/null)
echo "$out" | grep -q '^unused' && fail "the unused function was kept: $out"
# several parse errors, then one summary line, exit 1
err=$("$STAP" -p1 -e 'probe begin { x = 1 + } probe end { y = ) } global 3' 2>&1)
[ $? = 1 ] || fail "parse errors: exit status not 1"
[ "$(echo "$err" | grep -c 'parse error:')" = 3 ] || fail "not 3 parse errors: $err"
[ "$(echo "$err" | tail -n 1)" = "Pass 1 (parse) failed: 3 errors  [man error::pass1]" ] || fail "summary: $err"
# tapset subdirectories: linux/, the architecture's, linux/ARCH; not others
if [ "$(uname -m)" = x86_64 ]; then
    mkdir -p ta/linux/x86_64 ta/x86_64 ta/arm64 ta/other
    echo 'function f_l() { return 1 }' > ta/linux/l.stp
    echo 'function f_lx() { return 1 }' > ta/linux/x86_64/lx.stp
    echo 'function f_x() { return 1 }' > ta/x86_64/x.stp
    echo 'function f_arm() { return 1 }' > ta/arm64/a.stp
    echo 'function f_o() { return 1 }' > ta/other/o.stp
    for f in f_l f_lx f_x; do
        "$STAP" -p2 -I ta -e "probe begin { $f() }" > /dev/null 2>&1 || fail "$f not found"
    done
    for f in f_arm f_o; do
        "$STAP" -p2 -I ta -e "probe begin { $f() }" > /dev/null 2>&1 && fail "$f found"
    done
fi
exit 0
