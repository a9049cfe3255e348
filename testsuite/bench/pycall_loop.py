# pycall_loop.py N ROUNDS: ROUNDS rounds of N calls of an empty Python
# function; prints "ns_per_call=T", T the median round's time per call
# (ns).  Each call passes the evaluation loop's resume_frame label twice:
# when f starts and when its caller resumes after it returns.
import sys
import time
def f():
    pass
n, rounds = int(sys.argv[1]), int(sys.argv[2])
times = []
for r in range(rounds):
    t0 = time.perf_counter_ns()
    for i in range(n):
        f()
    times.append((time.perf_counter_ns() - t0) / n)
times.sort()
print("ns_per_call=%d" % times[len(times) // 2])
