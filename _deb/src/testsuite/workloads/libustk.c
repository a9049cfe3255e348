/* libustk: a shared library (run-tests builds it as libustk.so) for the
 * dynamic workload ustk and lab/ustack.  ustk_leaf(y) = 3y; noinline and
 * noipa so that it stays one real function called through the PLT. */
__attribute__((noinline, noipa, used)) long ustk_leaf(long y)
{
	volatile long t = y;

	return t * 3;
}
