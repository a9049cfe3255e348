# python3_probes' workload: lib/pywork.py's first (fib, a/b/c, gc,
# import), run by exec in a module frame of its own code (no import
# machinery between it and this file's <module>), then exceptions, a
# generator and a second thread's Python stack.  (Its functions' lines
# differ from pywork.py's: the script sorts them by line.)
import _thread
import gc
import os
import time
gc.disable()    # reading and compiling pywork.py must not collect
w = "/lab/tests/lib/pywork.py"
exec(compile(open(w).read(), w, "exec"))
def boom(i):
    raise ValueError(i)
def gen():
    yield 1
    yield 2
def worker():
    os.write(1, b"thread writes\n")
    done.append(1)
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
