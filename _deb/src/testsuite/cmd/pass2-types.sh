# Pass 2 infers long and string types through assignments, function
# parameters, returns and printf formats (stap -p2 lists them).
out=$("$STAP" -p2 -e '
global count, last
function label(n) { return sprintf("n=%d", n) }
function twice(x) { return x * 2 }
probe begin { count = twice(21); last = label(count); s = last . "!"; printf("%s %d\n", s, count) }
probe end { printf("%d\n", y) }
') || { echo "stap -p2 failed"; exit 1; }
expect='# globals
count:long
last:string
# functions
twice:long (x:long)
label:string (n:long)
# probes
begin /* <- <input>:5:7 */
  # locals
  s:string
end /* <- <input>:6:7 */
  # locals
  y:long'
if [ "$out" != "$expect" ]; then
    echo "unexpected -p2 output:"; diff <(echo "$expect") <(echo "$out"); exit 1
fi
exit 0
