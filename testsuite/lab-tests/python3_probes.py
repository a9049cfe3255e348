import _thread
import gc
import os
import time
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
def c():
    os.write(1, b"c writes\n")
def b():
    c()
def a():
    b()
def boom(i):
    raise ValueError(i)
def gen():
    yield 1
    yield 2
def worker():
    os.write(1, b"thread writes\n")
    done.append(1)
gc.disable()
print(fib(15))
a()
gc.collect()
gc.collect()
try:
    import nosuchmodule
except ImportError:
    print("no module nosuchmodule")
for i in range(3):
    try:
        boom(i)
    except ValueError:
        pass
print(list(gen()))
done = []
_thread.start_new_thread(worker, ())
while not done:
    time.sleep(0.01)
