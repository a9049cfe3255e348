# SystemTap options this stap does not take give a one-line error naming
# the option (exit 1, no usage dump); -a accepts only x86_64.
set -u
fail() { echo "FAIL: $*"; exit 1; }
S='probe begin { exit() }'
"$STAP" -a x86_64 -p1 -e "$S" > /dev/null || fail "-a x86_64 refused"
check() {	# expected-text option...
	want=$1; shift
	err=$("$STAP" "$@" -p1 -e "$S" 2>&1 >/dev/null) && fail "$* accepted"
	[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "$*: not one line: $err"
	case $err in *"$want"*) ;; *) fail "$*: $err" ;; esac
}
check 'only x86_64' -a arm64
exit 0
