# The code of SystemTap's Beginners Guide (Debian's systemtap-doc, read
# at run time by testsuite/guide/run: scripts, stap command lines,
# fragments wrapped in a probe) elaborates with our stap for the lab
# kernel: no fewer blocks pass -p2 than testsuite/guide/thresholds says,
# and every failure has its written reason.
set -u
"$srcdir/guide/run" --prefix "$P" --out "$PWD/guide" > summary 2>&1
cat summary
line=$(grep '^guide: p2 ' summary) || { echo "guide: no -p2 figures"; exit 1; }
p2=$(echo "$line" | sed -E 's|guide: p2 ([0-9]+)/.*|\1|')
want=$(sed -n 's/^p2=//p' "$srcdir/guide/thresholds")
fail=0
[ "$p2" -ge "$want" ] || { echo "guide: -p2 passes $p2 < $want"; fail=1; }
if sed -n '/^failing, unexplained:/,/^guide:/p' summary | grep -q '^  '; then
    echo "guide: failures without a reason in testsuite/guide/reasons"
    fail=1
fi
exit $fail
