# A first build for a kernel compiles the runtime as two units
# (translator/build/kbuild.c's runtime_units): the first holds the files
# that use none of the kernel probes' macros (STP_HAVE_NAME of every
# runtime/kcaps/NAME.c, and what runtime/stp_kcaps.h defines) and does not
# wait for the probes; the second holds the rest and does.  A runtime file
# that starts to use such a macro moves to the second unit by itself (a
# modified copy of the runtime, -R); one that uses it where the scan cannot
# see (a macro pasted together) is a compile error in the first unit, which
# poisons the names, never a silent "not offered".
KVER=$(cat "${STAP_LAB_DIR:-/var/cache/stap-lab}/kver")
export SYSTEMTAP_DIR=$PWD/sysdir
fail() { echo "runtime-units: $*"; exit 1; }
# build NAME [ARGS]: a first build (-k), its directory in $d
build() {
    rm -rf sysdir
    "$STAP" -r "$KVER" -p4 -k "${@:2}" -e "probe begin { println(\"$1\") exit() }" \
        > out 2> err$1 || return 1
    d=$(sed -n 's/^Keeping temporary directory "\(.*\)"$/\1/p' err$1)
}
# unit N FILE: whether runtime unit N of $d includes FILE
unit() { grep -qx "#include \"$2\"" "$d/runtime/stp_runtime_unit$1.c"; }
# waits N: whether unit N's object waits for the probes' answers
waits() { grep -q "stp_runtime_unit$1\.o.*: .*stp_kcaps_found\.h" "$d/Kbuild"; }

build plain || { cat errplain; fail "the first build failed"; }
unit 1 map.c && unit 2 uprobes.c && unit 2 kset.c ||
    fail "map.c not in unit 1, or uprobes.c or kset.c not in unit 2"
grep -q '^#pragma GCC poison .*STP_HAVE_UPROBE_HANDLE.* STP_CAN_UPROBES' \
    "$d/runtime/stp_runtime_unit1.c" || fail "unit 1 does not poison the probes' macros"
! waits 1 && waits 2 || fail "unit 1 waits for the probes, or unit 2 does not"
grep -q 'gen/script\.o.*: .*stp_kcaps_found\.h' "$d/Kbuild" || fail "the script does not wait for the probes"
rm -rf "$d"

# map.c starts to ask for relay: it moves to unit 2 and still builds
cp -r "$(dirname "$STAP")/../share/systemtap/runtime" rt
printf '#ifdef STP_HAVE_RELAY\nint stp_units_test_relay = 1;\n#endif\n' >> rt/map.c
build moved -R "$PWD/rt" || { cat errmoved; fail "the build with map.c asking for relay failed"; }
unit 2 map.c || fail "map.c, now asking for relay, stayed in unit 1"
nm "$d"/*.ko | grep -q stp_units_test_relay || fail "map.c's STP_HAVE_RELAY was not defined"
rm -rf "$d"

# a use the scan cannot see fails to compile in unit 1
cp "$(dirname "$STAP")/../share/systemtap/runtime/map.c" rt/map.c
printf '#define STP_UNITS_CAT(a, b) a##b\n#if STP_UNITS_CAT(STP_HAVE_, RELAY)\n#endif\n' >> rt/map.c
build hidden -R "$PWD/rt" && fail "a pasted STP_HAVE_ name in unit 1 compiled"
grep -q 'poisoned' errhidden || { cat errhidden; fail "no poisoned-name error"; }
exit 0
