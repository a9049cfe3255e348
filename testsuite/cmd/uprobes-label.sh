# process("PATH").function("F").label("L")[.after] resolved on the host:
# the C labels of a function from the program's DWARF (stap -l), each at
# the label's address, or with .after at the first statement of the next
# line (the statement after `again:`'s line, `s += n;`, is `if (--n > 0)`):
# the addresses checked against the line table as gdb reads it.
set -eu
. "$srcdir/cmd/lib/want.sh"
cat > lp.c <<'C'
int work(int n)
{
	int s = 0;
again:	s += n;
	if (--n > 0)
		goto again;
done:
	return s;
}
int main(int argc, char **argv)
{
	(void)argv;
	return work(argc + 3) & 1;
}
C
gcc -O0 -g -o lp lp.c
P=$PWD/lp
want "process(\"$P\").function(\"work\").label(\"again\")
process(\"$P\").function(\"work\").label(\"done\")" \
    -l "process(\"$P\").function(\"work\").label(\"*\")"
want "process(\"$P\").function(\"work\").label(\"again\").after \$n:int \$s:int" \
    -L "process(\"$P\").function(\"w*\").label(\"ag*\").after"
want_err "no label of $P matches \"nope\" in a function matching \"work\"" \
    -p2 -e "probe process(\"$P\").function(\"work\").label(\"nope\") {}"
# the addresses the module registers, against gdb's line table
addr() {  # POINT: the link-time address its uprobe has
    "$STAP" -p3 -e "probe $1 { println(\$s) }" 2>err | sed -n 's/.*\.uvaddr = \(0x[0-9a-f]*\)UL.*/\1/p' ||
        { cat err; fail "stap -p3 $1 failed"; }
}
a=$(addr "process(\"$P\").function(\"work\").label(\"again\")")
b=$(addr "process(\"$P\").function(\"work\").label(\"again\").after")
[ -n "$a" ] && [ -n "$b" ] || fail "no address: '$a' '$b'"
if command -v gdb > /dev/null; then
    g=$(gdb -q -batch -ex 'info line lp.c:4' -ex 'info line lp.c:5' "$P" 2>/dev/null |
        sed -n 's/.* starts at address \(0x[0-9a-f]*\).*/\1/p' | tr '\n' ' ')
    [ "$g" = "$a $b " ] || fail "label at $a and after it at $b; gdb's lines 4 and 5 start at $g"
else
    [ $((b)) -gt $((a)) ] || fail ".after ($b) is not after the label ($a)"
fi
echo ok
