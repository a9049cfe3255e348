# The DWARF index: two stap runs building it at once both succeed and
# leave one index and no temporary file; an index of another format
# version, or a file that is no database, is rebuilt.
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
KVER=6.1.0-56-cloud-amd64
R=(-r "$KVER" --sysroot "$LAB/$KVER")
export SYSTEMTAP_DIR=$PWD/stapdir
IDX=$SYSTEMTAP_DIR/cache/dwarf/3b43fad5034874490492495d552c0af6a5fab235.sqlite
WANT='kernel.function("vfs_read@fs/read_write.c:450")'
fail() { echo "$*"; exit 1; }

"$STAP" "${R[@]}" -l 'kernel.function("vfs_read")' > out1 2> err1 &
p1=$!
"$STAP" "${R[@]}" -l 'kernel.function("vfs_read")' > out2 2> err2 &
p2=$!
wait $p1 || { cat err1; fail "first concurrent run failed"; }
wait $p2 || { cat err2; fail "second concurrent run failed"; }
[ "$(cat out1)" = "$WANT" ] && [ "$(cat out2)" = "$WANT" ] ||
    fail "concurrent runs listed: $(cat out1 out2)"
[ "$(ls "$SYSTEMTAP_DIR/cache/dwarf")" = "$(basename "$IDX")" ] ||
    fail "cache/dwarf holds: $(ls "$SYSTEMTAP_DIR/cache/dwarf")"

# index_builds - 1 if this run (re)built the index, else 0
index_builds() {
    "$STAP" "${R[@]}" -v -l 'kernel.function("vfs_read")' 2>&1 >/dev/null |
        grep -c '^DWARF index of'
}
[ "$(index_builds)" = 0 ] || fail "a warm run rebuilt the index"
printf 'not a database' > "$IDX"
[ "$(index_builds)" = 1 ] || fail "a broken index was not rebuilt"
[ "$(index_builds)" = 0 ] || fail "the rebuilt index was not kept"
exit 0
