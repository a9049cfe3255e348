# A script argument spliced into a probe point (`probe $1`, as SystemTap's
# general/varwatch does) replaces the parser's token array; the probe's
# location must not point into the replaced one.  MALLOC_PERTURB_ fills
# freed memory, so a use after free crashes here instead of by chance.
fail() { echo "parse-arg-splice: $*"; exit 1; }
out=$(MALLOC_PERTURB_=165 "$STAP" -p3 -e 'probe $1 { println(1) }' begin 2>&1) ||
    fail "stap -p3 with 'probe \$1' failed (rc $?): $(echo "$out" | tail -3)"
echo "$out" | grep -q '<input>:1:1' || fail "generated C lacks the probe's location <input>:1:1"
out=$(MALLOC_PERTURB_=165 "$STAP" -p3 -e 'probe $1.{$2,$3} { println(1) }' timer 's(1)' 'ms(10)' 2>&1) ||
    fail "stap -p3 with 'probe \$1.{\$2,\$3}' failed (rc $?): $(echo "$out" | tail -3)"
exit 0
