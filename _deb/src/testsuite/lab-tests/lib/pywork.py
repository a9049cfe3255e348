# lib/pywork.py - the Python workload of lab/ex_pyfuncs, lab/ex_pysyscalls
# and lab/python3_probes (the guest's /lab/tests/lib/pywork.py; run-tests
# copies lab-tests/lib there).  fib(15) calls fib 1973 times; c() writes
# "c writes" to fd 1 from b() from a() from the module's code, which also
# calls gc.collect() twice and imports a module that does not exist.
# Prints 610 and "no module nosuchmodule" (stdout buffered: at the exit).
import gc
import os
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
def c():
    os.write(1, b"c writes\n")
def b():
    c()
def a():
    b()
gc.disable()
print(fib(15))
a()
gc.collect()
gc.collect()
try:
    import nosuchmodule
except ImportError:
    print("no module nosuchmodule")
