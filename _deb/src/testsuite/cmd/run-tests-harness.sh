# run-tests judges lab tests and always ends with its "N passed, N failed"
# line, whatever the failures.  (A lab test whose stdout differed from its
# .expect while its stderr was empty once made run-tests exit in the middle
# under set -e: CI saw no summary and none of the tests after it.)
#
# Hermetic: a copy of run-tests in a scratch source tree with three lab
# tests, a stand-in stap that "builds" each module, and a stand-in
# lab/boot that answers with the guest's result protocol (see lab_run_sh
# in run-tests) without booting anything.
fail() { echo "run-tests-harness: $*"; exit 1; }
src=$PWD/src lab=$PWD/labdir pre=$PWD/prefix
mkdir -p "$src/lab-tests" "$src/lab" "$lab/fakekver" "$pre/bin"
cp "$srcdir/run-tests" "$src/"
echo fakekver > "$lab/kver"
for t in same differs noisy; do
    echo 'probe begin { exit() }' > "$src/lab-tests/$t.stp"
    echo right > "$src/lab-tests/$t.expect"
done
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
grep -qx 'PASS: lab/same' log || fail "lab/same did not pass: $(cat log)"
grep -q '^FAIL: lab/differs (stdout differs' log || fail "lab/differs not failed: $(cat log)"
grep -q '^FAIL: lab/noisy (exit status 1)' log || fail "lab/noisy not failed: $(cat log)"
[ "$(tail -n 1 log)" = "1 passed, 2 failed" ] || fail "last line: $(tail -n 1 log)"
exit 0
