# The python3 tapset on every CPython 3.11 here, from each one's DWARF
# (translator/elaborate/pybuild.c): the system's /usr/bin/python3.11 and
# libpython3.11.so.1.0 by default, Debian's debug build python3.11d named
# with python3("PATH") or found as stap -c's program, a program linking
# the library named for it.  Checks that
#   - tapset/python3.stp holds no constant of one build: no literal
#     address, no line number of Python/ceval.c, no statement probe by
#     line, no struct offset (and that this check fails on the tapset of
#     88ed362, which had them all);
#   - each interpreter derives exactly one entry probe (the label
#     resume_frame), two return probes (after TARGET_RETURN_VALUE's line,
#     exit_unwind) and the gc/import markers;
#   - every value of the tapset's STP_PY3_LAYOUT list that stap puts in
#     the module for each interpreter, and _PyRuntime's address, are what
#     gdb reads from the same DWARF (when gdb is installed);
#   - an interpreter without debuginfo is one error naming the file, its
#     build-id and the package (python3.11-dbg), also when it is the
#     python3.11 a default lookup in $PATH finds.
# Skipped (pass) when python3.11-dbg is not installed.
set -eu
. "$srcdir/cmd/lib/want.sh"
tapset=$srcdir/../tapset/python3.stp
py=/usr/bin/python3.11 pyd=/usr/bin/python3.11d
lib=/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0
bid=$(readelf -n $py 2>/dev/null | sed -n 's/.*Build ID: //p')
[ -n "$bid" ] && [ -f "/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug" ] &&
    [ -x $pyd ] && [ -f $lib ] || { echo "skip: python3.11-dbg or libpython3.11 not installed"; exit 0; }

# ---- no constant of one build in the tapset
constants() {  # FILE: print each constant of one build it holds
    python3 - "$1" <<'PY3'
import re, sys
allowed = re.compile(r'#define STP_PY3_(MAX_[A-Z]+|MATCH_LEN|TPF_[A-Z]+|CO_VAR[A-Z]+|BT_[A-Z]+)\s')
for line in open(sys.argv[1]):
    code = re.sub(r'//.*|/\*.*?(\*/|$)|^\s*\*.*', '', line.rstrip('\n'))
    if re.search(r'0x[0-9a-fA-F]{6,}', line):           # comments too
        print('address:', line.strip())
    if re.search(r'ceval\.c[:+ ]*[0-9]|\.statement\(', line):
        print('line probe:', line.strip())
    for n in re.findall(r'(?<![\w.])([0-9]{4,})(?![\w.])', code):
        if n not in ('1023', '1024'):
            print('number', n + ':', line.strip())
    if re.match(r'#define STP_PY3_\w+\s+[0-9]', code) and not allowed.match(code):
        print('layout constant:', line.strip())
PY3
}
found=$(constants "$tapset")
[ -z "$found" ] || fail "tapset/python3.stp holds constants of one build:
$found"
if git -C "$srcdir/.." cat-file -e 88ed362:tapset/python3.stp 2>/dev/null; then
    git -C "$srcdir/.." show 88ed362:tapset/python3.stp > old.stp
    old=$(constants old.stp)
    for k in address: "line probe:" "number 1722" "number 2431" "number 5822" "layout constant:"; do
        grep -qF "$k" <<< "$old" || fail "the constants check misses '$k' in 88ed362's tapset"
    done
fi

# ---- the probes each interpreter derives
points='probe python3.function.entry, python3.function.return, python3.gc.start,
    python3.import.find_load.done {}'
derived() {  # STAP-ARGS...: the derived points of $points, one a line
    "$STAP" -p2 "$@" > p2.out 2>err || { cat err; fail "stap -p2 $* failed"; }
    sed -n 's:^\(process(.*)\) /\*.*:\1:p' p2.out | sed 's/, process(/\nprocess(/g'
}
expect_points() {  # FILE...: the points $points derives in these files
    local f
    for f in "$@"; do
        for l in 'label("resume_frame")' 'label("TARGET_RETURN_VALUE").after' 'label("exit_unwind")'; do
            echo "process(\"$f\").function(\"_PyEval_EvalFrameDefault\").$l"
        done
        echo "process(\"$f\").provider(\"python\").mark(\"gc__start\")"
        echo "process(\"$f\").provider(\"python\").mark(\"import__find__load__done\")"
    done | sort
}
check_points() {  # WHAT FILES STAP-ARGS...
    local what=$1 files=$2; shift 2
    got=$(derived "$@" | sort)
    # shellcheck disable=SC2086
    [ "$got" = "$(expect_points $files)" ] || fail "$what: derived
$got
want
$(expect_points $files)"
}
check_points "default" "$py $lib" -e "$points"
check_points "python3(\"python3.11d\")" "$pyd" -e "${points//python3./python3(\"python3.11d\").}"
check_points "python3(\"libpython3.11.so.1.0\")" "$lib" \
    -e "${points//python3./python3(\"libpython3.11.so.1.0\").}"
echo 'print(1)' > t.py
check_points "-c python3.11d" "$pyd" -c "$pyd t.py" -e "$points"
# a program linking the library: the library is its interpreter
printf 'void Py_Initialize(void);\nint main(void) { Py_Initialize(); return 0; }\n' > emb.c
gcc -o emb emb.c -l:libpython3.11.so.1.0
check_points "python3(\"./emb\")" "$lib" -e "${points//python3./python3(\"$PWD/emb\").}"
check_points "-c ./emb" "$lib" -c "$PWD/emb" -e "$points"

want 'python3("python3.11d").function.entry frame:long filename:string funcname:string lineno:long
python3("python3.11d").function.return frame:long filename:string funcname:string lineno:long' \
    -L 'python3("python3.11d").function.*'

# ---- the layout: stap's values against gdb's reading of the same DWARF
if command -v gdb > /dev/null; then
    entries=$(sed -n 's/^[ \t]*\(OFF\|SIZE\|BIT\)(\([A-Z0-9_]*\), "\([^"]*\)"\(, "\([^"]*\)"\)\{0,1\}).*/\1 \2 \3 \5/p' "$tapset")
    [ "$(wc -l <<< "$entries")" -ge 40 ] || fail "cannot read STP_PY3_LAYOUT: $entries"
    "$STAP" -p3 -e "${points//python3./python3(\"python3.11d\").}
        probe python3.function.entry { println(python3_backtrace()) }" > d.c 2>err ||
        { cat err; fail "stap -p3 failed"; }
    "$STAP" -p3 -e 'probe python3.function.entry { println(python3_backtrace()) }' > s.c 2>err ||
        { cat err; fail "stap -p3 failed"; }
    for f in $py $lib $pyd; do
        c=s.c; [ $f = $pyd ] && c=d.c
        row=$(sed -n "s|^\t{ \"$f\", \(0x[0-9a-f]*\)UL, { \(.*\) } },|\1 \2|p" $c)
        [ -n "$row" ] || fail "no stp_py3_builds row for $f in the generated C"
        read -r rt vals <<< "${row//,/}"
        # one "NAME VALUE" line each; ptype /o for the bit-fields
        args=(-ex 'printf "RUNTIME %#lx\n", (long)&_PyRuntime')
        bits=()
        while read -r kind name type member; do
            case $kind in
            OFF) args+=(-ex "printf \"$name %ld\\n\", (long)&(($type *)0)->$member") ;;
            SIZE) args+=(-ex "printf \"$name %ld\\n\", (long)sizeof($type)") ;;
            BIT) bits+=("$type") ;;
            esac
        done <<< "$entries"
        for t in $(printf '%s\n' "${bits[@]}" | sort -u); do args+=(-ex "ptype /o $t"); done
        gdb -q -batch "${args[@]}" $f > gdb.out 2>/dev/null || true
        want_rt=$(sed -n 's/^RUNTIME //p' gdb.out)
        [ "$want_rt" = "$rt" ] || fail "$f: _PyRuntime at $rt, gdb says $want_rt"
        i=0
        for v in $vals; do
            i=$((i + 1))
            read -r kind name type member <<< "$(sed -n "${i}p" <<< "$entries")"
            if [ "$kind" = BIT ]; then
                # ptype /o: "/*  32: 5  |  4 */  unsigned int compact : 1;"
                want=$(awk -v m="${member##*.}" '$0 ~ ("[ \t]" m " : [0-9]+;") {
                    split($2, a, ":"); print a[1] * 8 + $3; exit }' gdb.out)
            else
                want=$(sed -n "s/^$name \([0-9]*\)$/\1/p" gdb.out)
            fi
            [ "$v" = "$want" ] || fail "$f: $name ($type${member:+.$member}) is $v in the module, gdb says '$want'"
        done
    done
else
    echo "note: no gdb, the layout is not compared"
fi

# ---- no debuginfo: one error naming the file, its build-id, the package
mkdir -p nodbg
python3 - "$py" nodbg/python3.11 <<'PY'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
# the NT_GNU_BUILD_ID note: namesz 4, descsz 20, type 3, "GNU", the id
i = d.find(b'\4\0\0\0\x14\0\0\0\3\0\0\0GNU\0', 0, 8192)
d[i + 16] ^= 0xff                      # a build-id no debuginfo has
open(sys.argv[2], 'wb').write(d)
PY
chmod +x nodbg/python3.11
nbid=$(readelf -n nodbg/python3.11 | sed -n 's/.*Build ID: //p')
[ -n "$nbid" ] && [ "$nbid" != "$bid" ] || fail "cannot make a python3.11 without debuginfo"
for how in named default; do
    if [ $how = named ]; then
        ! "$STAP" -p2 -e "probe python3(\"$PWD/nodbg/python3.11\").function.entry { println(funcname) }
            probe syscall.write { println(python3_backtrace()) }" > /dev/null 2> err ||
            fail "no debuginfo: stap succeeded"
    else
        ! PATH=$PWD/nodbg:$PATH "$STAP" -p2 -e 'probe python3.function.entry { println(funcname) }' \
            > /dev/null 2> err || fail "no debuginfo ($how): stap succeeded"
    fi
    for w in "$PWD/nodbg/python3.11 has no debuginfo" "build-id $nbid" "apt-get install python3.11-dbg"; do
        grep -qF "$w" err || { cat err; fail "no debuginfo ($how): no '$w'"; }
    done
    [ "$(grep -c 'error: ' err)" = 1 ] || { cat err; fail "no debuginfo ($how): not one error"; }
done
exit 0
