# Functions and globals are found wherever they are declared, before or
# after their first use, across the -e script, the -E scripts and a
# script file (SystemTap joins them into one program before it resolves
# anything); a global first used as an array takes its declaration
# from later text.
set -eu
. "$srcdir/cmd/lib/want.sh"
want '# globals
a:long [long]
# functions
f:long ()
# probes
begin /* <- <input1>:1:7 */' -p2 -E 'probe begin { a[1] = 1; f() }' -e 'global a  function f() { println(a[1]) }'
want '# globals
a:long [long]
# functions
f:long ()
# probes
begin /* <- <input>:1:7 */' -p2 -e 'probe begin { a[1] = 1; f() }' -E 'global a  function f() { println(a[1]) }'
printf 'probe begin { b["k"] <<< 1; g() }\n' > s.stp
want '# globals
b:stats [string]
# functions
g:long ()
# probes
begin /* <- s.stp:1:7 */' -p2 s.stp -E 'function g() { println(@count(b["k"])) }  global b'
# the same with the declarations last in one file
want '# globals
c:string [long, string]
# functions
h:string (x:long)
# probes
end /* <- <input>:1:7 */' -p2 -e 'probe end { c[1, "x"] = h(2); println(c[1, "x"]) } function h(x) { return sprint(x) } global c'
echo ok
