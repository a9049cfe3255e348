/* pybuild.h - pass 2: the CPython interpreters the python3 tapset traces
 * (elaborate/pybuild.c), internal to elaborate/.
 *
 * An interpreter is a file holding CPython's evaluation loop: a program
 * (/usr/bin/python3.11, python3.11d) or the shared library programs
 * embedding Python link with (libpython3.11.so.1.0).  A python3 probe
 * point derives in the interpreters it names (python3("PATH")...), else
 * in the -c/-x program when that is one or links one, else in the
 * system's (python3.11 in $PATH and libpython3.11.so.1.0 where it is
 * installed).  Each must be the CPython version the tapset is written
 * for and have DWARF: the probe addresses are its labels, and the
 * tapset's layout (the offsets and sizes STP_PY3_LAYOUT lists in
 * tapset/python3.stp) and _PyRuntime's address are read from it here,
 * per interpreter, into s->py_builds for codegen/python3_gen.c.
 */
#ifndef STP_PYBUILD_H
#define STP_PYBUILD_H

#include "session.h"
#include "parse/parse.h"

/* py_scope_push / py_scope_pop - the points expanded between them are
 * those of python3("@path")... (@path as written, @loc its place);
 * scopes nest, the innermost one counts. */
void py_scope_push(const char *path, const struct source_loc *loc);
void py_scope_pop(void);

/* py_named - 1 inside a python3("PATH") scope (its interpreter was
 * named), 0 for the -c/-x program's or the system's. */
int py_named(void);

/* py_interps - the interpreters point @pp derives in (see above), each
 * also recorded in s->py_builds, appended to @out as struct py_build *.
 * Returns their number, or -1 after a diagnostic at @pp (a named file
 * that is not there or no CPython of the tapset's version, no
 * interpreter at all, an interpreter without DWARF: its file, build-id
 * and the package with its debuginfo). */
int py_interps(struct session *s, struct probe_point *pp, struct vec *out);

/* py_layouts - after pass 2: when the resolved program uses the python3
 * tapset's C (a used function of a tapset file whose top-level C
 * defines STP_PY3_LAYOUT), read that list and, for every interpreter of
 * s->py_builds (the system's when no point named one), the values from
 * its DWARF, into s->py_fields and each build's values.  0, or -1 after
 * a diagnostic naming the interpreter and what its DWARF lacks. */
int py_layouts(struct session *s);

#endif
