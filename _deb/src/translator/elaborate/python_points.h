/* python_points.h - pass 2: python3.module("M").function("F")[.call|.return]
 * probe points (python_points.c). */
#ifndef STP_PYTHON_POINTS_H
#define STP_PYTHON_POINTS_H

#include "session.h"
#include "parse/parse.h"

/* python_point_rewrite - if @pp (a point of probe @p) is a
 * python3.module(...).function(...) point, set *@out to a new probe (no
 * condition of @pp applied) on the tapset's Python frame probe with @p's
 * body behind the filter the point names, and return 1; 0 (*@out NULL)
 * for any other point; -1 after an error on a malformed one (a
 * non-string argument, a missing .function, an unknown suffix, a line
 * part, python2). */
int python_point_rewrite(struct session *s, struct probe *p,
			 struct probe_point *pp, struct probe **out);

#endif
