# Which scalar globals are counters kept per CPU (translator/codegen/pcpu.c):
# only those every write of which is a statement G++/G--/G += E/G -= E, and
# that no probe both updates and reads.
c=$("$STAP" -p3 -e '
global hits, bytes, seen, reset, used
probe timer.ms(1) { hits++; bytes += 10; seen++; used += 1; x = used }
probe timer.ms(2) { if (seen > 5) reset = 0; reset++ }
probe end { println(hits, bytes, seen, reset) }') || exit 1
fail=0
for g in hits bytes seen; do
    echo "$c" | grep -q "DEFINE_PER_CPU(s64, g_${g}_pcpu)" ||
        { echo "pcpu-classify: $g should be per CPU"; fail=1; }
done
for g in reset used; do
    echo "$c" | grep -q "g_${g}_pcpu" &&
        { echo "pcpu-classify: $g must keep its lock"; fail=1; }
    echo "$c" | grep -q "/\* $g \*/" ||
        { echo "pcpu-classify: $g has no lock"; fail=1; }
done
echo "$c" | grep -q 'this_cpu_add(g_hits_pcpu, (s64)((u64)(1)))' ||
    { echo "pcpu-classify: hits++ is not a per-CPU add"; fail=1; }
# arrays: per CPU when only added to (and deleted or read elsewhere);
# not with a size or %, nor when the same probe reads them
c=$("$STAP" -p3 -e '
global calls, sized[10], seen, wrapped%
probe timer.ms(1) { calls[tid()]++; sized[1] += 2; seen[1]++; wrapped[2]++; x = seen[1] }
probe timer.s(1) { foreach (t in calls) println(calls[t]); delete calls; println(sized[1], wrapped[2]) }') || exit 1
echo "$c" | grep -q 'g_calls = {.*\.percpu = 1' ||
    { echo "pcpu-classify: calls should be per CPU"; fail=1; }
for g in sized seen wrapped; do
    echo "$c" | grep -q "g_$g = {.*percpu" &&
        { echo "pcpu-classify: $g must not be per CPU"; fail=1; }
done
echo "$c" | grep -q 'stp_map_add(c, &g_calls,' ||
    { echo "pcpu-classify: calls[tid()]++ is not stp_map_add"; fail=1; }
exit $fail
