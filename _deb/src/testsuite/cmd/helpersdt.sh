# Our HelperSDT (python/HelperSDT, installed in PYEXECDIR =
# $P/lib/python3/dist-packages): `python3 -m HelperSDT SCRIPT ARG...` runs
# SCRIPT as `python3 SCRIPT ARG...` would (__name__ "__main__", sys.argv,
# sys.path[0] its directory, its exit status), its <module> frame called
# straight from a frame of a file under HelperSDT/ (where SystemTap's
# python_print_backtrace stops); with no script, a usage line and status 2.
set -eu
py=/usr/bin/python3.11
pyexec=$P/lib/python3/dist-packages
[ -f "$pyexec/HelperSDT/__init__.py" ] && [ -f "$pyexec/HelperSDT/__main__.py" ] ||
    { echo "HelperSDT is not installed in $pyexec"; exit 1; }
mkdir -p sub
cat > sub/s.py <<'PY'
import os, sys
f = sys._getframe()
print(__name__, sys.argv, sys.path[0] == os.path.dirname(os.path.abspath(__file__)))
print(f.f_code.co_name, "called from", os.path.basename(os.path.dirname(f.f_back.f_code.co_filename)))
sys.exit(3)
PY
rc=0 d=$PWD
out=$(cd / && PYTHONPATH=$pyexec $py -m HelperSDT "$d/sub/s.py" a 'b c') || rc=$?
echo "$out"
[ "$rc" = 3 ] || { echo "exit status $rc, not the script's 3"; exit 1; }
want="__main__ ['$d/sub/s.py', 'a', 'b c'] True
<module> called from HelperSDT"
[ "$out" = "$want" ] || { echo "expected:"; echo "$want"; exit 1; }
rc=0
PYTHONPATH=$pyexec $py -m HelperSDT > out 2> err || rc=$?
[ "$rc" = 2 ] && grep -q '^usage: python3 -m HelperSDT SCRIPT' err ||
    { echo "no script: status $rc"; cat err; exit 1; }
exit 0
