"""python3 -m HelperSDT SCRIPT [ARG...]: see __init__.py."""

import sys

from HelperSDT import run

if len(sys.argv) < 2:
    sys.stderr.write("usage: python3 -m HelperSDT SCRIPT [ARG...]\n")
    sys.exit(2)
run(sys.argv[1:])
