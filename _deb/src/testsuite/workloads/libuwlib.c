/* libuwlib: a shared library (run-tests builds it as libuwlib.so) for the
 * dynamic workload uwdyn and lab/uprobes_lib.  uwlib_add(x) = x + 7; it
 * is exported, noinline and noipa so that it stays one real function.
 * uwlib_calls counts its calls (lab/uprobes_libvar reads it with @var). */
long uwlib_calls;

__attribute__((noinline, noipa, used)) long uwlib_add(long x)
{
	uwlib_calls++;
	return x + 7;
}
