# Pass 4's fast path (translator/build/fastbuild.c: kbuild's recorded
# commands, no make, no modpost) builds a module equivalent to kbuild's
# for the same script: the same sections, the same undefined symbols with
# the same CRCs (__versions), the same modinfo, the same code; with the
# precompiled headers (translator/build/pch.c, STAP_PCH=wait builds them
# in the foreground) and without (STAP_PCH=0).  STAP_FAST_BUILD=0 forces
# kbuild; a compile error still shows the compiler's message.
set -eu
KVER=$(cat "${STAP_LAB_DIR:-/var/cache/stap-lab}/kver")
script='global n
probe kprobe.function("vfs_read") { n++; printf("%s %d\n", execname(), pid()) }
probe timer.s(1) { println(n) }
probe end { println(n) }'
# a kbuild run records the commands for this kernel and runtime (once),
# and precompiles the headers
export SYSTEMTAP_DIR=$PWD/sysdir
STAP_PCH=wait STAP_FAST_BUILD=0 "$STAP" -r "$KVER" -p4 --disable-cache -e "$script" > /dev/null
ls sysdir/cache/runtime/*/stp_pch.h.gch > /dev/null || { echo "no precompiled header"; exit 1; }
mkdir kb fast plain
(cd kb && STAP_FAST_BUILD=0 "$STAP" -r "$KVER" -p4 -vv -m eqmod -e "$script") > /dev/null 2> kb.err
(cd fast && "$STAP" -r "$KVER" -p4 -vv -m eqmod -e "$script") > /dev/null 2> fast.err
(cd plain && STAP_PCH=0 "$STAP" -r "$KVER" -p4 -vv -m eqmod -e "$script") > /dev/null 2> plain.err
grep -q 'pass 4 with kbuild: STAP_FAST_BUILD=0' kb.err || { cat kb.err; echo "kbuild was not forced"; exit 1; }
grep -q 'pass 4 with the recorded kbuild commands (no make, no modpost, precompiled headers)' fast.err ||
    { cat fast.err; echo "the fast path with precompiled headers was not taken"; exit 1; }
grep -q 'precompiled header was not used' fast.err && { cat fast.err; echo "the compiler rejected the precompiled header"; exit 1; }
grep -q 'pass 4 with the recorded kbuild commands (no make, no modpost)' plain.err ||
    { cat plain.err; echo "the fast path without precompiled headers was not taken"; exit 1; }
fail=0
cmp_of() {  # what: command...
    local what=$1 d; shift
    "$@" kb/eqmod.ko > kb.$what
    for d in fast plain; do
        "$@" $d/eqmod.ko > $d.$what
        if ! diff kb.$what $d.$what; then
            echo "fastbuild-equiv: $what differs ($d)"; fail=1
        fi
    done
}
modinfo_of() { modinfo "$1" | grep -v '^filename:'; }
versions_of() { modprobe --dump-modversions "$1" | sort; }
sections_of() { readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] \([^ ]*\) .*/\1/p' | sort; }
undefined_of() { nm -u "$1" | sort; }
# the code: every executable section, disassembled with its relocations
code_of() { objdump -d -r "$1" | tail -n +3; }
cmp_of modinfo modinfo_of
cmp_of versions versions_of
cmp_of sections sections_of
cmp_of undefined undefined_of
cmp_of code code_of
[ "$(wc -l < kb.versions)" -gt 50 ] || { echo "too few __versions entries"; fail=1; }
grep -q '^vermagic:' kb.modinfo || { echo "no vermagic"; fail=1; }
# a compile error: the compiler's message, exit status 1
if "$STAP" -r "$KVER" -p4 -g --disable-cache -e \
    'function f() %{ this is not C %} probe begin { f() }' > /dev/null 2> bad.err; then
    echo "fastbuild-equiv: a broken module built"; fail=1
fi
grep -q 'error:' bad.err || { cat bad.err; echo "no compiler message"; fail=1; }
exit $fail
