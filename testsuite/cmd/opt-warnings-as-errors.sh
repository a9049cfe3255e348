# stap -W: a warning of pass 1-2 makes stap fail with status 1 (printed
# as a warning, then the failed pass); without -W the same script passes;
# -w -W: no warnings, so nothing fails.
set -u
fail() { echo "FAIL: $*"; exit 1; }
S='probe begin { x = 1; exit() }'
"$STAP" -p2 -e "$S" > /dev/null 2>&1 || fail "the script fails without -W"
rc=0; err=$("$STAP" -W -p2 -e "$S" 2>&1 >/dev/null) || rc=$?
[ "$rc" = 1 ] || fail "-W: status $rc, not 1: $err"
printf '%s\n' "$err" | grep -qx "<input>:1:15: warning: local variable 'x' is assigned but never read" ||
	fail "-W: the warning is not shown: $err"
printf '%s\n' "$err" | tail -1 | grep -qx 'Pass 2 (elaboration) failed: 1 warning, errors under -W  \[man error::pass2\]' ||
	fail "-W: no failed-pass line: $err"
out=$("$STAP" -W -p2 -e "$S" 2>/dev/null) && fail "-W printed the -p2 listing: $out"
[ -z "$out" ] || fail "-W: output on failure: $out"
# -W after the script name, as getopt permutes
printf '%s\n' "$S" > s.stp
"$STAP" s.stp -p2 -W > /dev/null 2>&1 && fail "-W after the script not taken"
# -w suppresses the warning: nothing to fail on
"$STAP" -w -W -p2 -e "$S" > /dev/null 2>&1 || fail "-w -W failed"
# a warning-free script passes under -W
"$STAP" -W -p2 -e 'probe begin { exit() }' > /dev/null || fail "-W failed a clean script"
exit 0
