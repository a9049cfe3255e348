# stap --example NAME: the example script NAME (with or without .stp, or
# DIR/NAME) from the installed examples (PREFIX/share/systemtap/examples),
# else from SystemTap's (/usr/share/doc/systemtap/examples); script
# arguments follow it; an unknown name is a one-line error.
set -u
fail() { echo "FAIL: $*"; exit 1; }
ex=$P/share/systemtap/examples
[ -f "$ex/opensnoop.stp" ] || fail "examples not installed in $ex"
for n in opensnoop.stp opensnoop; do
	out=$("$STAP" -p1 --example $n) || fail "--example $n"
	[ "$out" = "$("$STAP" -p1 "$ex/opensnoop.stp")" ] || fail "--example $n: not opensnoop.stp"
done
"$STAP" -p2 --example opensnoop > /dev/null || fail "--example opensnoop -p2"
# arguments after the name are the script's
out=$("$STAP" -p1 --example opensnoop.stp a b 2>&1) || fail "--example with arguments: $out"
# SystemTap's examples when ours lack the name
sys=/usr/share/doc/systemtap/examples
if [ -f $sys/tutorial/hello-world.stp ]; then
	out=$("$STAP" -p1 --example hello-world) || fail "--example hello-world"
	[ "$out" = "$("$STAP" -p1 $sys/tutorial/hello-world.stp)" ] || fail "hello-world: $out"
	"$STAP" -p1 --example tutorial/hello-world.stp > /dev/null || fail "--example DIR/NAME"
fi
for n in no-such-example ../examples/opensnoop.stp ''; do
	rc=0; err=$("$STAP" -p1 --example "$n" 2>&1) || rc=$?
	[ "$rc" = 1 ] || fail "--example '$n': status $rc"
	[ "$err" = "stap: --example $n: no example script of that name in $ex or $sys" ] ||
		fail "--example '$n': $err"
done
rc=0; err=$("$STAP" -p1 --example opensnoop -e 'probe begin {}' 2>&1) || rc=$?
[ "$rc" = 1 ] && [ "$err" = "stap: --example opensnoop and -e: give one script" ] ||
	fail "--example with -e: $rc $err"
exit 0
