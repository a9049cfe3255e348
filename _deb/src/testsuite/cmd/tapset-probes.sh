# A tapset file's own probes (not its aliases) join the program when the
# script uses the file -- one of its globals, functions or alias names --
# and only then; also through another included file's probes.
set -u
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p ts
cat > ts/a.stp <<'STP'
global a_count
probe begin(-5) { a_count = 7; b_helper() }
STP
cat > ts/b.stp <<'STP'
function b_helper() { return 1 }
global b_seen
probe end(5) { b_seen = 1 }
STP
cat > ts/c.stp <<'STP'
probe c_alias = begin { }
probe begin(-6) { }
STP
out=$("$STAP" -I ts -p2 -e 'probe begin { println(a_count) }') || fail "a: $out"
echo "$out" | grep -q 'begin(-5) .*ts/a.stp' || fail "a.stp's probe missing: $out"
echo "$out" | grep -q 'end(5) .*ts/b.stp' || fail "b.stp's probe (used by a.stp's) missing: $out"
echo "$out" | grep -q 'begin(-6)' && fail "c.stp's probe included: $out"
out=$("$STAP" -I ts -p2 -e 'probe c_alias { }') || fail "c: $out"
echo "$out" | grep -q 'begin(-6) .*ts/c.stp' || fail "c.stp's probe missing: $out"
out=$("$STAP" -I ts -p2 -e 'probe begin { println(1) }') || fail "none: $out"
echo "$out" | grep -q 'ts/' && fail "a tapset probe without use: $out"
# argv[] is filled by argv.stp's begin probe, which runs first
out=$("$STAP" -p2 -e 'probe begin { println(argv[1]) }' x) || fail "argv: $out"
echo "$out" | grep -q 'begin(-1000000000) .*argv.stp' || fail "argv.stp's probe: $out"
exit 0
