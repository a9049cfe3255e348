# SystemTap's option parsing: options may follow the script name and its
# arguments (GNU getopt permutes), words after -- are script arguments
# even when they look like options; -d, --all-modules and --ldd are
# accepted.  Macro files (*.stpm) of an -I directory serve the script.
set -u
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p ts
cat > s.stp <<'STP'
probe begin { printf("%d %s %s\n", $#, @1, @2) }
STP
out=$("$STAP" s.stp a -p2 b 2>&1) || fail "options after the script: $out"
echo "$out" | grep -q '^begin' || fail "-p2 after the script not taken: $out"
out=$("$STAP" s.stp a -p1 b) || fail "-p1 after the script"
echo "$out" | grep -q 'printf("%d %s %s\\n", 2, "a", "b")' || fail "arguments: $out"
out=$("$STAP" -p1 s.stp -- -x -5) || fail "-- arguments"
echo "$out" | grep -q 'printf("%d %s %s\\n", 2, "-x", "-5")' || fail "-- arguments: $out"
out=$("$STAP" s.stp x y -p1 -d kernel --all-modules --ldd -d /bin/true) ||
    fail "-d / --all-modules / --ldd not accepted"
echo "$out" | grep -q '2, "x", "y"' || fail "-d arguments: $out"
# --skip-badvars is an option
"$STAP" -p1 --skip-badvars s.stp a b > /dev/null || fail "--skip-badvars"
# an -I directory's macro files
printf '@define twice(x) %%( (2 * (@x)) %%)\n' > ts/m.stpm
out=$("$STAP" -I ts -p1 -e 'probe begin { println(@twice(21)) }') || fail "-I macro"
echo "$out" | grep -q "println(2 \* 21)" || fail "-I macro expansion: $out"
# a script's own macros are not seen by the tapsets parsed after it
printf 'function uses_mine() { return @mine }\n' > ts/t.stp
err=$("$STAP" -I ts -p2 -e '@define mine %( 1 %) probe begin { println(uses_mine()) }' 2>&1) &&
    fail "a script macro leaked into a tapset: $err"
exit 0
