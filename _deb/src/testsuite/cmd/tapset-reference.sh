# SystemTap's tapset reference (systemtap-doc's tapsets/API-*.html, one
# page per function::NAME or probe::NAME, named by its <title>) against
# our library: every documented function (stap --dump-functions, which
# lists guru-only ones without -g too, as SystemTap's does) and probe alias
# (stap --dump-probe-aliases) we lack must be listed in
# tapset-reference.exclude as "NAME: reason", and every name listed there
# must still be documented and still be missing (a ratchet: remove the
# line when the name arrives).
set -u
doc=/usr/share/doc/systemtap-doc/tapsets
ex=$srcdir/cmd/tapset-reference.exclude
fail() { echo "FAIL: $*"; exit 1; }
[ -d "$doc" ] || fail "no $doc (the systemtap-doc package; quickstart installs it)"
grep -ho '<title>[^<]*</title>' "$doc"/API-*.html |
    sed 's:<title>\(.*\)</title>:\1:' | sort -u > titles
sed -n 's/^function:://p' titles > doc-functions
sed -n 's/^probe:://p' titles > doc-probes
nf=$(wc -l < doc-functions) np=$(wc -l < doc-probes)
[ "$nf" -ge 400 ] && [ "$np" -ge 290 ] ||
    fail "only $nf functions and $np probes in $doc"
"$STAP" --dump-functions > f.out 2> err ||
    { cat err; fail "stap --dump-functions"; }
sed 's/[:(].*//' f.out | sort -u > our-functions
"$STAP" --dump-probe-aliases > p.out 2> err || { cat err; fail "stap --dump-probe-aliases"; }
sed 's/ *=.*//' p.out | sort -u > our-probes
[ "$(wc -l < our-functions)" -ge 400 ] && [ "$(wc -l < our-probes)" -ge 300 ] ||
    fail "our dumps are short: $(wc -l < our-functions) functions, $(wc -l < our-probes) aliases"
{ comm -23 doc-functions our-functions; comm -23 doc-probes our-probes; } | sort -u > missing
sort -u doc-functions doc-probes > documented

# the exclusion file: "NAME: reason", comments and blank lines aside
bad=$(grep -v -e '^#' -e '^$' "$ex" | grep -v -E '^[A-Za-z_][A-Za-z0-9_.]*: [^ ].{9,}$')
[ -z "$bad" ] || fail "$ex: lines not of the form 'NAME: reason (10+ characters)':
$bad"
grep -v -e '^#' -e '^$' "$ex" | sed 's/:.*//' | sort > excluded
dups=$(uniq -d excluded)
[ -z "$dups" ] || fail "$ex lists twice: $dups"
rc=0
for n in $(comm -23 missing excluded); do
    echo "documented but missing, and not in tapset-reference.exclude: $n"; rc=1
done
for n in $(comm -23 excluded documented); do
    echo "excluded but not in SystemTap's tapset reference: $n"; rc=1
done
for n in $(comm -12 excluded documented | comm -23 - missing); do
    echo "excluded but now present (remove its line from tapset-reference.exclude): $n"; rc=1
done
[ "$rc" = 0 ] || exit 1
echo "$nf functions, $np probes documented; $(wc -l < missing) missing, all excluded"
