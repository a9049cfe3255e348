# stap -i: commands on stdin build a script item by item (each checked by
# the parser when added; an unfinished { goes on on the next lines), list
# numbers them, delete/save/load/sample edit the list, set/show the
# options of the runs, run runs this stap with the command line's options
# (less -i) and those set; no prompt when stdin is not a terminal.
set -u
fail() { echo "FAIL: $*"; exit 1; }
cat > cmds <<'EOF2'
add probe begin { println("hi")
  exit() }
add global g = 1
add probe end { 1 + }
list
set last_pass 2
show last_pass
run
delete 2
list
!!
save saved.stp
delete all
list
load saved.stp
list
set last_pass 9
show nosuch
bogus
delete 7
quit
add global never
EOF2
out=$("$STAP" -i -u < cmds 2>err) || fail "status $?: $(cat err)"
want='not added
1: probe begin { println("hi")
  exit() }
2: global g = 1
last_pass: 2
# globals
g:long
# functions
exit:long ()
# probes
begin /* <- TMP:1:7 */
1: probe begin { println("hi")
  exit() }
list
1: probe begin { println("hi")
  exit() }
1: probe begin { println("hi")
  exit() }
last_pass takes 1 to 5
no option '"'"'nosuch'"'"' (see show)
unknown command '"'"'bogus'"'"' (see help)
usage: delete N|all (N: 1 to 1, see list)'
got=$(printf '%s\n' "$out" | sed 's|/[^ ]*/stapi[A-Za-z0-9]*\.stp|TMP|')
[ "$got" = "$want" ] || fail "output:
$got"
# the bad add: its parse error, and not added
grep -q '^<add>:1:17: parse error: ' err || fail "bad add: $(cat err)"
[ "$(cat saved.stp)" = 'probe begin { println("hi")
  exit() }' ] || fail "saved: $(cat saved.stp)"
# -u of the command line reached the run: g (unused) was kept above
# -i with a script: one line, status 1
rc=0; err=$("$STAP" -i -e 'probe begin {}' 2>&1 < /dev/null) || rc=$?
[ "$rc" = 1 ] && [ "$err" = "stap: -i takes no script, -l, -L or --dump-* (load FILE at its prompt)" ] ||
	fail "-i -e: $rc $err"
# --interactive, -i in a cluster of options, help
out=$(printf 'set last_pass 1\nadd probe begin { }\nrun\n' | "$STAP" -wi --interactive) || fail "-wi --interactive"
[ "$out" = 'probe begin
{
}' ] || fail "-wi: $out"
printf 'help\n' | "$STAP" -i | grep -q '^run             -- Run the current script\.$' || fail "help"
# sample NAME: an installed example
out=$(printf 'sample opensnoop\nlist\n' | "$STAP" -i) || fail "sample"
printf '%s\n' "$out" | head -1 | grep -q '^1: ' || fail "sample: $out"
exit 0
