# stap -E SCRIPT: another script in addition to FILE or -e (repeatable):
# its probes, functions and globals join the main script's, its
# diagnostics name it <inputN>; -E alone is the script.
set -u
fail() { echo "FAIL: $*"; exit 1; }
out=$("$STAP" -p2 -e 'probe begin { println(f()) }' \
	-E 'function f() { return g++ } global g' -E 'probe timer.s(1) { exit() }') ||
	fail "-e with two -E: $out"
want='# globals
g:long
# functions
f:long ()
exit:long ()
# probes
begin /* <- <input>:1:7 */
timer.s(1) /* <- <input2>:1:7 */'
[ "$out" = "$want" ] || fail "-p2 listing with -E: $out"
# with a script file
printf 'probe begin { println(1) }\n' > s.stp
out=$("$STAP" -p2 s.stp -E 'probe end { println(2) }') || fail "FILE with -E: $out"
printf '%s\n' "$out" | grep -qx 'end /\* <- <input1>:1:7 \*/' || fail "-E probe missing: $out"
printf '%s\n' "$out" | grep -qx 'begin /\* <- s.stp:1:7 \*/' || fail "FILE probe missing: $out"
# -E alone
out=$("$STAP" -p2 -E 'probe end { println(2) }') || fail "-E alone: $out"
[ "$out" = '# probes
end /* <- <input1>:1:7 */' ] || fail "-E alone: $out"
# -p1 prints both
out=$("$STAP" -p1 -e 'probe begin {}' -E 'probe end {}') || fail "-p1 with -E"
[ "$(printf '%s\n' "$out" | grep -c '^probe ')" = 2 ] || fail "-p1 with -E: $out"
# a parse error in the -E script names it
rc=0; err=$("$STAP" -p1 -e 'probe begin {}' -E 'probe end { 1 + }' 2>&1) || rc=$?
[ "$rc" = 1 ] || fail "bad -E: status $rc"
printf '%s\n' "$err" | head -1 | grep -q '^<input1>:1:17: parse error: ' ||
	fail "bad -E: $err"
# a conflict between the two: one global name declared twice
"$STAP" -p2 -e 'global g probe begin { g = 1; exit() }' -E 'global g' \
	> /dev/null 2>&1 && fail "a global declared in -e and -E accepted"
exit 0
