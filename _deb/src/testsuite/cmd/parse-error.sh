# stap -p1 reports a syntax error with its position and exits 1.
err=$("$STAP" -p1 -e 'probe begin { x = 1 + }' 2>&1 >/dev/null) && rc=0 || rc=$?
echo "$err"
[ "$rc" = 1 ] || { echo "parse-error: exit status $rc, expected 1"; exit 1; }
case $err in
    *'<input>:1:23'*) exit 0 ;;
    *) echo "parse-error: stderr lacks <input>:1:23"; exit 1 ;;
esac
