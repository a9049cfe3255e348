# run-tests judges lab tests and always ends with its "N passed, N failed"
# line, whatever the failures; on each kernel line of lab/lines, named
# by the line's group (lab/NAME, lab-6.12/NAME).  (A lab test whose stdout differed from its
# .expect while its stderr was empty once made run-tests exit in the middle
# under set -e: CI saw no summary and none of the tests after it.)
# NAME.GROUP.expect, where it exists, is that line's expected output.
#
# Hermetic: a copy of run-tests in a scratch source tree with three lab
# tests, a stand-in stap that "builds" each module, and a stand-in
# lab/boot that answers with the guest's result protocol (see lab_run_sh
# in run-tests) without booting anything.
fail() { echo "run-tests-harness: $*"; exit 1; }
src=$PWD/src lab=$PWD/labdir pre=$PWD/prefix
mkdir -p "$src/lab-tests" "$src/lab" "$lab/fakekver" "$lab/fakekver612" "$lab/lines" "$pre/bin"
cp "$srcdir/run-tests" "$src/"
cp "$srcdir/lab/lines" "$srcdir/lab/kver" "$src/lab/"
echo fakekver > "$lab/kver"
echo fakekver612 > "$lab/lines/6.12-cloud"
for t in same differs noisy perline; do
    echo 'probe begin { exit() }' > "$src/lab-tests/$t.stp"
    echo right > "$src/lab-tests/$t.expect"
done
echo six > "$src/lab-tests/perline.lab-6.12.expect"
# stap -r K --sysroot S -p4 -m MOD ... : an empty MOD.ko
cat > "$pre/bin/stap" <<'EOF'
#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = -m ] && { : > "$2.ko"; exit 0; }; shift; done
exit 1
EOF
# lab/boot: each test's results as the guest's run.sh prints them
cat > "$src/lab/boot" <<'EOF'
#!/bin/bash
for a; do case $a in *:/lab/tests) stage=${a%:/lab/tests} ;; esac; done
for t in $(sed -n 's/^tests="\(.*\)"$/\1/p' "$stage/run.sh"); do
    echo "lab-batch: running $t" >&2
    case $t in
        same) out=right err= st=0 ;;
        differs) out=wrong err= st=0 ;;            # stdout differs, no stderr
        noisy) out= err=$(seq 1 5000) st=1 ;;       # fails, long stderr
        perline) out=six err= st=0 ;;               # 6.12's own .expect
    esac
    echo "lab-result: $t $st"
    echo "leftover:"
    echo "stdout:"
    [ -z "$out" ] || echo "$out" | base64
    echo "stderr:"
    [ -z "$err" ] || echo "$err" | base64
    echo "lab-result-end: $t"
done
exit 0
EOF
chmod +x "$pre/bin/stap" "$src/lab/boot"
rc=0
STAP_LAB_DIR=$lab bash "$src/run-tests" --prefix "$pre" --out "$PWD/out" > log 2>&1 || rc=$?
[ $rc = 1 ] || fail "exit status $rc, expected 1: $(tail -5 log)"
for g in lab lab-6.12; do
    grep -qx "PASS: $g/same" log || fail "$g/same did not pass: $(cat log)"
    grep -q "^FAIL: $g/differs (stdout differs" log || fail "$g/differs not failed: $(cat log)"
    grep -q "^FAIL: $g/noisy (exit status 1)" log || fail "$g/noisy not failed: $(cat log)"
done
grep -q "^FAIL: lab/perline (stdout differs from perline.expect" log ||
    fail "lab/perline not judged by perline.expect: $(cat log)"
grep -qx "PASS: lab-6.12/perline" log ||
    fail "lab-6.12/perline not judged by perline.lab-6.12.expect: $(cat log)"
grep -q 'booting the lab (fakekver612' log || fail "the 6.12 line's kernel was not booted: $(cat log)"
[ "$(tail -n 1 log)" = "3 passed, 5 failed" ] || fail "last line: $(tail -n 1 log)"
exit 0
