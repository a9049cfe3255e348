# python3_module's workload: tick() 37 times, K.m() 5 times, tock() 11
# times (tock(3) writes), boom() 2 times (left by an exception); prints
# what it computed and its arguments; then mix() once, whose variables
# hold values of most types.
import os
import sys
class K:
    def m(self, i):
        return i * 2
def tick(i):
    return i + 1
def tock(i):
    if i == 3:
        os.write(1, b"")
    return i
def boom():
    raise ValueError("boom")
n = 0
for i in range(37):
    n = tick(n)
k = K()
s = sum(k.m(i) for i in range(5))
for i in range(11):
    tock(i)
for i in range(2):
    try:
        boom()
    except ValueError:
        pass
print(n, s, sys.argv[1:])
G = "glob"
def mix(a, s, t, *rest, **kw):
    f = -2.5
    big = 2 ** 70
    l = [None, True, False, (1,)]
    d = {"k": [1, 2]}
    return a
mix(-7, "x\u00e9", (1, "two", 3.25), 4, 5, key="v")
