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
