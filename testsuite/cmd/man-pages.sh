# The reference man pages (man/gen/tapset-man, from the tapsets' doc
# comments) as installed in $P/share/man: every function
# `stap --dump-functions` lists has its function::NAME(3stap), every probe
# alias `stap --dump-probe-aliases` lists its probe::NAME(3stap) (but
# the tapsets' own, with a name component starting with "_"), and
# every error page a diagnostic of stap names ("[man error::pass2]") is
# there; `man -M $P/share/man` renders function::execname, probe::vfs.read,
# stapprobes, stapfuncs, tapset::vfs and error::pass2 with what they must
# say; and a failing pass ends with the name of its page.
set -eu
fail() { echo "FAIL: $*"; exit 1; }
M=$P/share/man
page() {  # page SECTION NAME: its file (compressed or not), or nothing
    local f
    for f in "$M/man$1/$2.$1stap" "$M/man$1/$2.$1stap.gz"; do
        [ -f "$f" ] && { echo "$f"; return 0; }
    done
    return 1
}
"$STAP" --dump-functions | sed 's/[:( ].*//' | grep -v '^_' | sort -u > funcs
"$STAP" -g --dump-functions | sed 's/[:( ].*//' | grep -v '^_' | sort -u > gfuncs
"$STAP" --dump-probe-aliases | sed 's/ = .*//; s/[ ,].*//' | grep -v '\(^\|\.\)_' | sort -u > aliases
[ "$(wc -l < funcs)" -gt 400 ] || fail "only $(wc -l < funcs) functions listed"
[ "$(wc -l < aliases)" -gt 1500 ] || fail "only $(wc -l < aliases) probe aliases listed"
missing=0
while read -r f; do
    page 3 "function::$f" > /dev/null || { echo "no page function::$f"; missing=$((missing + 1)); }
done < <(cat funcs gfuncs | sort -u)
while read -r a; do
    page 3 "probe::$a" > /dev/null || { echo "no page probe::$a"; missing=$((missing + 1)); }
done < aliases
[ $missing = 0 ] || fail "$missing functions or probe aliases without a page"
echo "pages: $(cat funcs gfuncs | sort -u | wc -l) functions, $(wc -l < aliases) probe aliases"

# the error pages the diagnostics name
# (the page names in its strings: "[man error::dwarf]", and "error::pass2"
# that the pass summaries put in "[man %s]")
strings "$STAP" | grep -o '\(error\|warning\)::[a-z0-9-]*' | sort -u > named
[ "$(wc -l < named)" -ge 5 ] || fail "stap names only $(wc -l < named) error pages"
while read -r e; do
    page 7 "$e" > /dev/null || fail "stap names [man $e], which has no page"
done < named

render() {  # render NAME: man's text of page NAME
    MANWIDTH=80 MAN_KEEP_FORMATTING= man -M "$M" "$1" 2>man.err | col -b
}
render function::execname > t
grep -q '^ *function::execname  *- ' t || fail "function::execname: $(head -5 t)"
grep -q 'execname:string()' t && grep -q '^CONTEXT' t || fail "function::execname lacks synopsis or context"
render function::user_string > t
grep -q 'user_string:string(addr:long, err_msg:string)' t || fail "function::user_string lacks its two-argument form"
grep -q '^ *err_msg' t || fail "function::user_string does not describe err_msg"
render probe::vfs.read > t
grep -q 'kernel.function("vfs_read")' t && grep -q '^ *bytes_to_read' t || fail "probe::vfs.read: $(head -20 t)"
render probe::syscall.openat.return > t
grep -q 'return from the openat system call' t && grep -q '^ *retstr' t || fail "probe::syscall.openat.return: $(head -12 t)"
render stapprobes > t
grep -q 'kernel.function(PATTERN)' t && grep -q 'probe::vfs.read' t || fail "stapprobes lacks the families or the aliases"
render stapfuncs > t
grep -q 'function::execname' t || fail "stapfuncs lacks execname"
render tapset::vfs > t
grep -q 'probe::vfs.read' t || fail "tapset::vfs lacks vfs.read"
render error::pass2 > t
grep -q 'error::pass2  *- ' t || fail "error::pass2: $(head -5 t)"
[ ! -s man.err ] || fail "man warned: $(cat man.err)"

# a failing pass names its page
rc=0; "$STAP" -p2 -e 'probe nosuch.point { }' 2> err || rc=$?
[ $rc = 1 ] && tail -n 1 err | grep -q '  \[man error::pass2\]$' || fail "pass 2 failure: $(cat err)"
rc=0; "$STAP" -p1 -e 'probe begin {' 2> err || rc=$?
[ $rc = 1 ] && tail -n 1 err | grep -q '  \[man error::pass1\]$' || fail "pass 1 failure: $(cat err)"
echo ok
