# With -u nothing is elided or folded, so the type conflicts SystemTap's
# elision of dead code and folding of constant conditions hide
# (semantic/ok/lang_dead_code_types, lang_fold_types) are errors, each
# positioned; without -u the same scripts pass.
set -eu
. "$srcdir/cmd/lib/want.sh"
f=$srcdir/semantic/ok/lang_dead_code_types.stp
cp "$f" t.stp
"$STAP" -p2 t.stp > /dev/null 2>&1 || fail "without -u it must pass"
want_err 't.stp:6:36: semantic error: assignment of a string to a long' -p2 -u t.stp
for e in 't.stp:8:19: semantic error: assignment of a long to a string' \
         't.stp:9:9: semantic error: the branches of ?: are a string and a long' \
         't.stp:10:3: semantic error: expected a long here, found a string'; do
    grep -qF "$e" err || { cat err; fail "no '$e'"; }
done
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
KVER=$(cat "$LAB/kver")
cp "$srcdir/semantic/ok/lang_fold_types.stp" f.stp
"$STAP" -p2 -r "$KVER" --sysroot "$LAB/$KVER" f.stp > /dev/null 2>&1 || fail "folding: without -u it must pass"
want_err 'f.stp:8:9: semantic error: the branches of ?: are a long and a string' -p2 -u -r "$KVER" --sysroot "$LAB/$KVER" f.stp
echo ok
