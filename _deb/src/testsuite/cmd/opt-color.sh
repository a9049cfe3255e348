# stap --color[=WHEN] / -C WHEN: colored diagnostics (SGR escapes) always,
# never, or auto (only when stderr is a terminal); colors from
# SYSTEMTAP_COLORS (KEY=SGR:..., keys error, warning, source, caret,
# token), the defaults when unset, none when empty or invalid; always and
# never are passed on to staprun.
set -u
fail() { echo "FAIL: $*"; exit 1; }
E=$(printf '\033')
S='probe begin { y; exit() }'
diag() { "$STAP" "$@" -p2 -e "$S" 2>&1 >/dev/null; }
# --color alone is always; the default colors
err=$(unset SYSTEMTAP_COLORS; diag --color)
printf '%s\n' "$err" | grep -qF "<input>:1:15: ${E}[00;33m${E}[Kwarning:${E}[m${E}[K local variable 'y'" ||
	fail "--color: warning: $err"
printf '%s\n' "$err" | grep -qF "<input>:1:15: ${E}[01;31m${E}[Ksemantic error:${E}[m${E}[K cannot tell" ||
	fail "--color: error: $err"
printf '%s\n' "$err" | grep -qxF "    ${E}[00;34m${E}[K$S${E}[m${E}[K" ||
	fail "--color: source line: $err"
printf '%s\n' "$err" | grep -qxF "                  ${E}[01m${E}[K^${E}[m${E}[K" ||
	fail "--color: caret: $err"
# SYSTEMTAP_COLORS: only the keys given are colored
err=$(SYSTEMTAP_COLORS='error=07:caret=4;1' diag --color=always)
printf '%s\n' "$err" | grep -qF "${E}[07m${E}[Ksemantic error:" || fail "custom error color: $err"
printf '%s\n' "$err" | grep -qF "${E}[4;1m${E}[K^" || fail "custom caret color: $err"
printf '%s\n' "$err" | grep -qF "1:15: warning: " || fail "warning colored without a key: $err"
# empty or invalid: no color at all
for c in '' 'error=red' 'nokey=1' 'error'; do
	err=$(SYSTEMTAP_COLORS=$c diag --colour=always)
	case $err in *"$E"*) fail "SYSTEMTAP_COLORS='$c' colored: $err" ;; esac
done
# never, and auto with stderr not a terminal: plain
for o in --color=never '-C never' --color=auto '-C auto' ''; do
	err=$(diag $o)
	case $err in *"$E"*) fail "'$o' colored: $err" ;; esac
	printf '%s\n' "$err" | grep -q "1:15: semantic error: cannot tell" || fail "'$o': $err"
done
err=$(diag -C always)
case $err in *"${E}[01;31m"*) ;; *) fail "-C always not colored: $err" ;; esac
# auto on a terminal (script(1) gives one): colored
if command -v script > /dev/null; then
	err=$(TERM=xterm script -qec "$STAP -p2 -e '$S'" /dev/null)
	case $err in *"${E}[01;31m"*) ;; *) fail "auto on a tty not colored: $err" ;; esac
	err=$(TERM=dumb script -qec "$STAP -p2 -e '$S'" /dev/null)
	case $err in *"$E"*) fail "auto on a dumb tty colored: $err" ;; esac
fi
# a bad WHEN: one line, status 1
rc=0; err=$(diag --color=sometimes) || rc=$?
[ "$rc" = 1 ] && [ "$err" = "stap: --color takes always, auto or never, not 'sometimes'" ] ||
	fail "bad --color: $rc $err"
# always and never go on to staprun (-C WHEN: the module's ERROR: and
# WARNING:, see lab/staprun_color); auto is staprun's default, on the same
# stderr.  A fake staprun ($SYSTEMTAP_STAPRUN) records its arguments.
KVER=$(cat "${STAP_LAB_DIR:-/var/cache/stap-lab}/kver")
printf '#!/bin/sh\necho "$*" > args\n' > fake-staprun
chmod +x fake-staprun
for o in --color=always:always '-C never':never --color=auto: :; do
	rm -f args
	SYSTEMTAP_STAPRUN=$PWD/fake-staprun "$STAP" -r "$KVER" ${o%:*} \
		-e 'probe begin { exit() }' > /dev/null 2> err ||
		fail "'${o%:*}' with a fake staprun: $(cat err)"
	case " $(cat args 2>/dev/null) ",${o#*:} in
	*" -C always "*,always | *" -C never "*,never) ;;
	*" -C "*,) fail "'${o%:*}' passed -C: $(cat args)" ;;
	*,) [ -e args ] || fail "'${o%:*}': staprun not run" ;;
	*) fail "'${o%:*}' did not pass -C ${o#*:}: $(cat args 2>/dev/null)" ;;
	esac
done
exit 0
