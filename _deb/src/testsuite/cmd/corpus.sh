# SystemTap's own example collection (Debian's systemtap-doc) elaborates
# with our stap: every example at -p2, the fixed sample of
# testsuite/corpus/p4-list at -p4; no fewer than testsuite/corpus/thresholds
# says.  The figures and the most common reasons are printed.
set -u
"$srcdir/corpus/run" --prefix "$P" --out "$PWD/corpus" > summary 2>&1
cat summary
line2=$(grep '^corpus: p2 ' summary) || { echo "corpus: no -p2 figures"; exit 1; }
line4=$(grep '^corpus: p4 ' summary) || { echo "corpus: no -p4 figures"; exit 1; }
p2=$(echo "$line2" | sed -E 's|corpus: p2 ([0-9]+)/.*|\1|')
p2k=$(echo "$line2" | sed -E 's|.* kernel ([0-9]+)/.*|\1|')
p4=$(echo "$line4" | sed -E 's|corpus: p4 ([0-9]+)/.*|\1|')
want() { sed -n "s/^$1=//p" "$srcdir/corpus/thresholds"; }
fail=0
[ "$p2" -ge "$(want p2)" ] || { echo "corpus: -p2 passes $p2 < $(want p2)"; fail=1; }
[ "$p2k" -ge "$(want p2_kernel)" ] || { echo "corpus: kernel-only -p2 passes $p2k < $(want p2_kernel)"; fail=1; }
[ "$p4" -ge "$(want p4)" ] || { echo "corpus: -p4 passes $p4 < $(want p4)"; fail=1; }
exit $fail
