# SystemTap's general/py3example run as its .meta's test_installcheck
# says, in the lab: pyexample.stp built with that line's stap options
# (-g --suppress-time-limits, argument python3; plus -r/-p4 for the
# host-side build), and in the guest its -c command verbatim
# (/usr/bin/python3 -m HelperSDT pyexample.py 35, our HelperSDT from
# PYTHONPATH=$PYEXECDIR, PYEXECDIR = $P/lib/python3/dist-packages) under
# staprun -c.  The script's output: the Python stack at the entry of
# celsius_to_farenheit (it, main, <module> with their lines) and the
# line of its return; the program's own line; exit status 0.  Skipped
# (pass) when the example (systemtap-doc) is not installed.
set -eu
LAB=${STAP_LAB_DIR:-/var/cache/stap-lab}
KVER=$(cat "$LAB/kver")
ex=${STAP_EXAMPLES:-/usr/share/systemtap/examples}/general
[ -f "$ex/py3example.meta" ] && [ -f "$ex/pyexample.py" ] ||
    { echo "skip: no $ex/py3example.meta"; exit 0; }
line=$(sed -n 's/^test_installcheck: //p' "$ex/py3example.meta")
echo "installcheck: $line"
cmd=$(sed -n "s/^PYTHONPATH=\$PYEXECDIR stap -g --suppress-time-limits -c '\([^']*\)' pyexample.stp python3\$/\1/p" <<< "$line")
[ -n "$cmd" ] || { echo "the installcheck line is not the one this test knows"; exit 1; }
mkdir -p ex
cp "$ex/pyexample.py" "$ex/pyexample.stp" ex/
(cd ex && "$STAP" -r "$KVER" -p4 -m py3ex -g --suppress-time-limits pyexample.stp python3) ||
    { echo "stap -p4 failed"; exit 1; }
"$srcdir/lab/python3-root" pyroot
cat > ex/run.sh <<GUEST
ln -sf python3.11 /usr/bin/python3
cd /ex
PYEXECDIR=\$P/lib/python3/dist-packages
PYTHONPATH=\$PYEXECDIR staprun -c '$cmd' /ex/py3ex.ko
echo "exit \$?"
GUEST
"$srcdir/lab/boot" --prefix "$P" --timeout 200 --dir "$PWD/pyroot:/" --dir "$PWD/ex:/ex" \
    -- 'sh /ex/run.sh' > out 2> boot.err || { tail -20 boot.err; echo "lab boot failed"; exit 1; }
cat out
# the program's line and the script's lines may interleave: each kept in order
grep -qx '35 Celsius  is 95.0 Farenheit' out || { echo "no output of the program"; exit 1; }
grep -vx '35 Celsius  is 95.0 Farenheit' out > script.out
cat > want <<'W'
Traceback (most recent call first):
  File "pyexample.py", line 12, in celsius_to_farenheit
  File "pyexample.py", line 30, in main
  File "pyexample.py", line 34, in <module>
celsius_to_farenheit returning
exit 0
W
diff -u want script.out || { echo "unexpected output"; exit 1; }
exit 0
