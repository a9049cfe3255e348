# Statistics in a local variable pass pass 2 (as in SystemTap); pass 3
# keeps statistics in globals only and says so at the local.
set -eu
. "$srcdir/cmd/lib/want.sh"
want_err "<input>:1:15: error: statistics in local variable 'x' are not translated yet: declare 'global x'" \
    -p3 -e 'probe begin { x <<< 1; println(@count(x)) }'
grep -qF '                  ^' err || { cat err; fail "no caret"; }
echo ok
