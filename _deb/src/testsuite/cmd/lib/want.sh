# cmd/lib/want.sh - sourced by cmd tests that check stap's answers
# (`. "$srcdir/cmd/lib/want.sh"`; run-tests runs only cmd/*.sh, not
# this): stap's state kept in the scratch directory, and
#   fail MESSAGE...            print MESSAGE, exit 1
#   want EXPECTED STAP-ARGS... stap succeeds and its stdout is exactly
#                              EXPECTED (its stderr in ./err)
#   want_err TEXT STAP-ARGS... stap fails and its stderr has TEXT
export SYSTEMTAP_DIR=$PWD/sysdir
fail() { echo "$*"; exit 1; }
want() {
    local exp=$1; shift
    local got; got=$("$STAP" "$@" 2>err) || { cat err; fail "stap $* failed"; }
    [ "$got" = "$exp" ] || fail "stap $*: got '$got', want '$exp'"
}
want_err() {
    local exp=$1; shift
    ! "$STAP" "$@" > /dev/null 2> err || fail "stap $* succeeded"
    grep -qF -- "$exp" err || { cat err; fail "stap $*: no '$exp'"; }
}
