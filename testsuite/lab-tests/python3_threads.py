# python3_threads' workload: two threads of Python code write at once.
# The main thread writes "m" 50 times from m_write() called by m_loop()
# from the module; a second thread writes "t" 50 times from t_write()
# called by t_loop(), its outermost frame.  os.write() lets the other
# thread run Python code while one is in the system call, and each waits
# for the other to have started, so the writes interleave.
import _thread
import os
import time
started = []
def t_write():
    os.write(1, b"t\n")
def t_loop():
    started.append("t")
    while "m" not in started:
        time.sleep(0.001)
    for i in range(50):
        t_write()
    started.append("t done")
def m_write():
    os.write(1, b"m\n")
def m_loop():
    started.append("m")
    while "t" not in started:
        time.sleep(0.001)
    for i in range(50):
        m_write()
_thread.start_new_thread(t_loop, ())
m_loop()
while "t done" not in started:
    time.sleep(0.001)
