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
exit $fail
