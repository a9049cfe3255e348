"""HelperSDT: run a Python script for stap's python3.module(...) probes.

    python3 -m HelperSDT SCRIPT [ARG...]

runs SCRIPT as the program's __main__ (sys.argv = [SCRIPT, ARG...],
sys.path[0] its directory), exactly as `python3 SCRIPT ARG...` would.
It needs to do nothing more: stap's python3.module("M").function("F")
probes find the interpreter's frames by themselves (tapset/python3.stp),
so this package exists for command lines written for SystemTap, whose
HelperSDT registered breakpoints through a C extension.  Installed in
PYEXECDIR (PREFIX/lib/python3/dist-packages); run it with
PYTHONPATH=PYEXECDIR unless PREFIX is /usr.  SystemTap's backtrace
functions stop at the first frame of a file under a HelperSDT/
directory, so the script's <module> frame is called from this package's
frame directly (no runpy frames between).
"""

import os
import sys
import types


def run(argv):
    """Run argv[0] with arguments argv[1:] as __main__; return its exit
    status as sys.exit would take it (None when it ends normally)."""
    path = argv[0]
    with open(path, "rb") as f:
        source = f.read()
    code = compile(source, path, "exec")
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__builtins__ = __builtins__
    sys.modules["__main__"] = main
    sys.argv[:] = argv
    sys.path[0] = os.path.dirname(os.path.abspath(path))
    exec(code, main.__dict__)
