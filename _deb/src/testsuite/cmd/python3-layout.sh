# tapset/python3.stp hard-codes CPython 3.11's layouts (the STP_PY3_*
# offsets, _PyRuntime's address) and names lines of Python/ceval.c: check
# them all against the installed /usr/bin/python3.11 and its debuginfo
# (python3.11-dbg, by build-id) with a libdw reader, and that stap
# resolves the probes there.  Skipped (pass) when python3.11-dbg is not
# installed.
set -eu
export SYSTEMTAP_DIR=$PWD/sysdir
fail() { echo "$*"; exit 1; }
py=/usr/bin/python3.11
tapset=$srcdir/../tapset/python3.stp
bid=$(readelf -n $py 2>/dev/null | sed -n 's/.*Build ID: //p')
dbg=/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug
[ -n "$bid" ] && [ -f "$dbg" ] || { echo "skip: no debuginfo for $py"; exit 0; }
cat > layout.c <<'C'
/* layout DEBUGFILE ARG...: for each ARG "TYPE" print its size, for
 * "TYPE:MEMBER.MEMBER" the member's offset, for "label:NAME" the line of
 * C label NAME (any function); "?" when not found. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
static Dwarf_Die found;
static int ok;
static void walk(Dwarf_Die *d, const char *name, int label)
{
	Dwarf_Die c;
	do {
		int t = dwarf_tag(d);
		const char *n = dwarf_diename(d);
		Dwarf_Attribute a;
		if (ok)
			return;
		if (n && !strcmp(n, name) &&
		    (label ? t == DW_TAG_label && dwarf_attr(d, DW_AT_decl_line, &a) :
		     (t == DW_TAG_structure_type || t == DW_TAG_typedef) &&
		     !dwarf_hasattr(d, DW_AT_declaration))) {
			found = *d;
			ok = 1;
			return;
		}
		if ((t == DW_TAG_compile_unit || t == DW_TAG_subprogram ||
		     t == DW_TAG_lexical_block) && dwarf_child(d, &c) == 0)
			walk(&c, name, label);
	} while (dwarf_siblingof(d, d) == 0);
}
static int strip(Dwarf_Die *d)
{
	Dwarf_Attribute a;
	while (dwarf_tag(d) == DW_TAG_typedef || dwarf_tag(d) == DW_TAG_const_type)
		if (!dwarf_attr(d, DW_AT_type, &a) || !dwarf_formref_die(&a, d))
			return -1;
	return 0;
}
static long member(Dwarf_Die *t, const char *path)
{
	char name[128];
	const char *dot = strchr(path, '.');
	size_t n = dot ? (size_t)(dot - path) : strlen(path);
	Dwarf_Die c;
	snprintf(name, sizeof(name), "%.*s", (int)n, path);
	if (strip(t) || dwarf_child(t, &c))
		return -1;
	do {
		Dwarf_Attribute a;
		Dwarf_Word off = 0;
		const char *cn = dwarf_diename(&c);
		if (dwarf_tag(&c) != DW_TAG_member || !cn || strcmp(cn, name))
			continue;
		if (dwarf_attr(&c, DW_AT_data_member_location, &a))
			dwarf_formudata(&a, &off);
		if (!dot)
			return off;
		if (!dwarf_attr(&c, DW_AT_type, &a) || !dwarf_formref_die(&a, &c))
			return -1;
		long rest = member(&c, dot + 1);
		return rest < 0 ? -1 : (long)off + rest;
	} while (dwarf_siblingof(&c, &c) == 0);
	return -1;
}
int main(int argc, char **argv)
{
	Dwarf *dw = dwarf_begin(open(argv[1], O_RDONLY), DWARF_C_READ);
	int i;
	for (i = 2; i < argc; i++) {
		char ty[128];
		const char *colon = strchr(argv[i], ':');
		int label = !strncmp(argv[i], "label:", 6);
		Dwarf_Off off = 0, next;
		size_t hs;
		snprintf(ty, sizeof(ty), "%.*s", colon ? (int)(colon - argv[i]) : 127, argv[i]);
		ok = 0;
		while (!ok && dwarf_nextcu(dw, off, &next, &hs, NULL, NULL, NULL) == 0) {
			Dwarf_Die cu;
			if (dwarf_offdie(dw, off + hs, &cu))
				walk(&cu, label ? colon + 1 : ty, label);
			off = next;
		}
		if (!ok) {
			printf("?\n");
		} else if (label) {
			Dwarf_Attribute a;
			Dwarf_Word l = 0;
			dwarf_formudata(dwarf_attr(&found, DW_AT_decl_line, &a), &l);
			printf("%lu\n", (unsigned long)l);
		} else if (colon) {
			printf("%ld\n", member(&found, colon + 1));
		} else {
			strip(&found);
			printf("%d\n", dwarf_bytesize(&found));
		}
	}
	return 0;
}
C
gcc -O1 -o layout layout.c -ldw || fail "cannot build the libdw reader"
# macro of the tapset, then what it stands for
checks="
STP_PY3_RT_INTERP_HEAD _PyRuntimeState:interpreters.head
STP_PY3_IS_NEXT PyInterpreterState:next
STP_PY3_IS_THREADS_HEAD PyInterpreterState:threads.head
STP_PY3_TS_NEXT PyThreadState:next
STP_PY3_TS_CFRAME PyThreadState:cframe
STP_PY3_TS_NATIVE_TID PyThreadState:native_thread_id
STP_PY3_CF_CURRENT _PyCFrame:current_frame
STP_PY3_IF_CODE _PyInterpreterFrame:f_code
STP_PY3_IF_PREVIOUS _PyInterpreterFrame:previous
STP_PY3_IF_PREV_INSTR _PyInterpreterFrame:prev_instr
STP_PY3_CO_FIRSTLINENO PyCodeObject:co_firstlineno
STP_PY3_CO_FILENAME PyCodeObject:co_filename
STP_PY3_CO_NAME PyCodeObject:co_name
STP_PY3_CO_QUALNAME PyCodeObject:co_qualname
STP_PY3_OB_TYPE PyObject:ob_type
STP_PY3_TP_NAME PyTypeObject:tp_name
STP_PY3_TP_FLAGS PyTypeObject:tp_flags
STP_PY3_TUPLE_ITEM PyTupleObject:ob_item
STP_PY3_LIST_ITEM PyListObject:ob_item
STP_PY3_LONG_DIGIT PyLongObject:ob_digit
STP_PY3_FLOAT_VAL PyFloatObject:ob_fval
STP_PY3_CELL_REF PyCellObject:ob_ref
STP_PY3_CO_FLAGS PyCodeObject:co_flags
STP_PY3_CO_ARGCOUNT PyCodeObject:co_argcount
STP_PY3_CO_KWONLYARGCOUNT PyCodeObject:co_kwonlyargcount
STP_PY3_CO_NLOCALSPLUS PyCodeObject:co_nlocalsplus
STP_PY3_CO_LOCALSPLUSNAMES PyCodeObject:co_localsplusnames
STP_PY3_IF_GLOBALS _PyInterpreterFrame:f_globals
STP_PY3_IF_LOCALSPLUS _PyInterpreterFrame:localsplus
STP_PY3_DICT_KEYS PyDictObject:ma_keys
STP_PY3_DICT_VALUES PyDictObject:ma_values
STP_PY3_DK_LOG2_INDEX_BYTES _dictkeysobject:dk_log2_index_bytes
STP_PY3_DK_KIND _dictkeysobject:dk_kind
STP_PY3_DK_NENTRIES _dictkeysobject:dk_nentries
STP_PY3_DK_INDICES _dictkeysobject:dk_indices
STP_PY3_DKE_SIZE PyDictKeyEntry
STP_PY3_DKE_KEY PyDictKeyEntry:me_key
STP_PY3_DKE_VALUE PyDictKeyEntry:me_value
STP_PY3_DUE_SIZE PyDictUnicodeEntry
STP_PY3_DUE_VALUE PyDictUnicodeEntry:me_value
STP_PY3_CO_LINETABLE PyCodeObject:co_linetable
STP_PY3_CO_CODE PyCodeObject:co_code_adaptive
STP_PY3_BYTES_SIZE PyVarObject:ob_size
STP_PY3_BYTES_DATA PyBytesObject:ob_sval
STP_PY3_STR_LENGTH PyASCIIObject:length
STP_PY3_STR_STATE PyASCIIObject:state
STP_PY3_ASCII_SIZE PyASCIIObject
STP_PY3_UTF8_LENGTH PyCompactUnicodeObject:utf8_length
STP_PY3_UTF8 PyCompactUnicodeObject:utf8
STP_PY3_COMPACT_SIZE PyCompactUnicodeObject
"
args=() macros=()
while read -r m what; do
    [ -n "$m" ] || continue
    macros+=("$m") args+=("$what")
done <<< "$checks"
mapfile -t got < <(./layout "$dbg" "${args[@]}" label:resume_frame label:TARGET_RETURN_VALUE label:exit_unwind)
for i in "${!macros[@]}"; do
    want=$(sed -n "s/^#define ${macros[$i]}  *\([0-9]*\).*/\1/p" "$tapset")
    [ -n "$want" ] || fail "${macros[$i]} not in the tapset"
    [ "${got[$i]}" = "$want" ] || fail "${macros[$i]} is $want, ${args[$i]} is ${got[$i]}"
done
n=${#macros[@]}
# the labels the probe lines follow: resume_frame: + 1, TARGET(RETURN_VALUE) + 3, exit_unwind: + 1
[ "${got[$n]}" = 1721 ] || fail "resume_frame: at line ${got[$n]}, not 1721"
[ "${got[$((n + 1))]}" = 2428 ] || fail "TARGET_RETURN_VALUE at line ${got[$((n + 1))]}, not 2428"
[ "${got[$((n + 2))]}" = 5821 ] || fail "exit_unwind: at line ${got[$((n + 2))]}, not 5821"
want=$(sed -n 's/^#define STP_PY3_RUNTIME *\(0x[0-9a-f]*\).*/\1/p' "$tapset")
sym=$(nm -D $py | awk '$3 == "_PyRuntime" {print "0x" $1}' | sed 's/0x0*/0x/')
[ "$sym" = "$want" ] || fail "_PyRuntime is at $sym, the tapset says $want"
readelf -h $py | grep -q 'EXEC (Executable file)' || fail "$py is PIE: _PyRuntime moves"
# stap resolves the aliases' statements from that debuginfo
out=$("$STAP" -p2 -e 'probe python3.function.* { println(funcname) }' 2>err) ||
    { cat err; fail "stap -p2 of python3.function.* failed"; }
for p in 1722 2431 5822; do
    grep -q "_PyEval_EvalFrameDefault@[./]*Python/ceval.c:$p\")" <<< "$out" || fail "no probe at ceval.c:$p in: $out"
done
# the unicode dict entry's key comes first (the tapset reads it at 0)
[ "$(./layout "$dbg" PyDictUnicodeEntry:me_key)" = 0 ] || fail "PyDictUnicodeEntry.me_key is not at 0"
"$STAP" -p2 -e 'probe python3.function.entry { println(funcname, filename, lineno) }
probe python3.gc.start { println(generation) } probe python3.import.find_load.done { println(module, found) }' > /dev/null 2> err ||
    { cat err; fail "stap -p2 of the python3 aliases failed"; }
exit 0
