# With -u nothing is elided, so the type conflicts SystemTap's elision of
# dead code hides (semantic/ok/lang_dead_code_types) are errors, each
# positioned; without -u the same script passes.
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
echo ok
