#!/bin/sh
# run.sh STAP - run the pass-1 test cases in this directory.
#   NAME.stp + NAME.p1 : stdout of "STAP -p1 NAME.stp" must equal NAME.p1
#                        and the exit status must be 0;
#   NAME.stp + NAME.err: the exit status must be 1 and every line of
#                        NAME.err must appear (as a fixed substring) in
#                        the stderr.
# Prints one line per failure and a summary; exits 1 if anything failed.
stap=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")" || exit 1
pass=0 fail=0
tmp=${TMPDIR:-/tmp}/stp-parse-$$
for f in *.stp; do
	n=${f%.stp}
	"$stap" -p1 "$f" >"$tmp.out" 2>"$tmp.err"
	rc=$?
	ok=1
	if [ -f "$n.p1" ]; then
		[ $rc -eq 0 ] && cmp -s "$tmp.out" "$n.p1" || ok=0
	elif [ -f "$n.err" ]; then
		[ $rc -eq 1 ] || ok=0
		while IFS= read -r line; do
			grep -qF -- "$line" "$tmp.err" || ok=0
		done <"$n.err"
	else
		ok=0
	fi
	if [ $ok -eq 1 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $n (exit $rc)"
	fi
done
rm -f "$tmp.out" "$tmp.err"
echo "parse tests: $pass passed, $fail failed"
[ $fail -eq 0 ]
