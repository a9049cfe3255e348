/* coverage.c - stap -q (or SYSTEMTAP_COVERAGE set): after pass 2, count
 * in a database which probe points, probe locals, functions and globals
 * of the scripts and tapsets went into the module.  As SystemTap does:
 * the SQLite file $SYSTEMTAP_DIR/KVER.db (default ~/.systemtap/KVER.db),
 * table
 *   counts (file text, line integer, col integer, type text, name text,
 *           parent text, compiled integer, executed integer)
 * with a unique index "tokens" on (file, line, col, type, name).  Each run
 * adds 1 to "compiled" of every element it compiled (type "probe": a
 * point of the script or of an alias expanded; "local": a probe's local,
 * parent its point; "function"; "global") and inserts with 0 the
 * functions and globals resolved but then left out as unused; "executed"
 * stays 0 (nothing counts executions). */
#include "elaborate.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct cov {
	sqlite3 *db;
	sqlite3_stmt *ins, *upd;
	struct vec seen;   /* char *: elements counted in this run */
};

/* count - add @compiled (0 or 1) to the element of @type and @name at
 * @loc (once per run: a point several probes share counts once). */
static void count(struct cov *c, const struct source_loc *loc,
		  const char *type, const char *name, const char *parent,
		  int compiled)
{
	char *key;
	int i;

	if (!loc || !loc->file)
		return;
	key = xasprintf("%s:%d:%d:%s:%s", loc->file, loc->line, loc->col,
			type, name);
	for (i = 0; i < c->seen.n; i++)
		if (!strcmp(c->seen.items[i], key)) {
			free(key);
			return;
		}
	vec_push(&c->seen, key);
	sqlite3_bind_text(c->ins, 1, loc->file, -1, SQLITE_STATIC);
	sqlite3_bind_int(c->ins, 2, loc->line);
	sqlite3_bind_int(c->ins, 3, loc->col);
	sqlite3_bind_text(c->ins, 4, type, -1, SQLITE_STATIC);
	sqlite3_bind_text(c->ins, 5, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(c->ins, 6, parent, -1, SQLITE_STATIC);
	sqlite3_step(c->ins);
	sqlite3_reset(c->ins);
	if (!compiled)
		return;
	sqlite3_bind_text(c->upd, 1, loc->file, -1, SQLITE_STATIC);
	sqlite3_bind_int(c->upd, 2, loc->line);
	sqlite3_bind_int(c->upd, 3, loc->col);
	sqlite3_bind_text(c->upd, 4, type, -1, SQLITE_STATIC);
	sqlite3_bind_text(c->upd, 5, name, -1, SQLITE_STATIC);
	sqlite3_step(c->upd);
	sqlite3_reset(c->upd);
}

static void count_point(struct cov *c, const struct probe_point *pp)
{
	char *t = probe_point_str(pp);
	count(c, &pp->loc, "probe", t, "", 1);
	free(t);
}

static int in_vec(const struct vec *v, const void *p)
{
	int i;
	for (i = 0; i < v->n; i++)
		if (v->items[i] == p)
			return 1;
	return 0;
}

/* count_program - the counts of the resolved program of @s. */
static void count_program(struct cov *c, struct session *s)
{
	int i, j, f;

	for (i = 0; i < s->derived.n; i++)
		count_point(c, ((struct derived_probe *)s->derived.items[i])->point);
	for (i = 0; i < s->aliases_used.n; i++) {
		struct probe_alias *a = s->aliases_used.items[i];
		for (j = 0; j < a->points.n; j++)
			count_point(c, a->points.items[j]);
	}
	for (i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		struct probe_point *up = p->user_point ? p->user_point :
			p->points.n ? p->points.items[0] : NULL;
		char *parent = up ? probe_point_str(up) : xstrdup("");
		if (p->user_point)
			count_point(c, p->user_point);
		for (j = 0; j < p->locals.n; j++) {
			struct sym *y = p->locals.items[j];
			count(c, &y->loc, "local", y->name, parent, 1);
		}
		free(parent);
	}
	for (i = 0; i < s->functions.n; i++) {
		struct functiondecl *fn = s->functions.items[i];
		count(c, &fn->loc, "function", fn->name, "", 1);
	}
	for (i = 0; i < s->globals.n; i++) {
		struct sym *g = s->globals.items[i];
		count(c, &g->loc, "global", g->name, "", 1);
	}
	/* resolved, then left out as unused */
	for (f = -1; f < s->library.n; f++) {
		struct stapfile *sf = f < 0 ? s->user : s->library.items[f];
		for (j = 0; j < sf->functions.n; j++) {
			struct functiondecl *fn = sf->functions.items[j];
			if (fn->used && !in_vec(&s->functions, fn))
				count(c, &fn->loc, "function", fn->name, "", 0);
		}
		for (j = 0; f < 0 && j < sf->globals.n; j++) {
			struct sym *g = sf->globals.items[j];
			if (!in_vec(&s->globals, g))
				count(c, &g->loc, "global", g->name, "", 0);
		}
	}
}

/* has - 1 if the database has a @kind ("table", "index") named @name. */
static int has(sqlite3 *db, const char *kind, const char *name)
{
	sqlite3_stmt *st;
	int found = 0;
	if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE "
			       "type=?1 AND name=?2", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

int coverage_update(struct session *s)
{
	const char *base = getenv("SYSTEMTAP_DIR"), *home = getenv("HOME");
	char *dir, *path;
	struct cov c = {0};
	int i, rc = -1;

	dir = base && *base ? xstrdup(base) :
		xasprintf("%s/.systemtap", home && *home ? home : "/tmp");
	path = xasprintf("%s/%s.db", dir, s->kernel_release);
	if (mkdir_p(dir) != 0) {
		fprintf(stderr, "stap: -q: cannot create %s: %s\n", dir,
			strerror(errno));
		goto out;
	}
	if (sqlite3_open(path, &c.db) != SQLITE_OK)
		goto fail;
	sqlite3_busy_timeout(c.db, 10000);   /* concurrent runs */
	if (sqlite3_exec(c.db, "begin immediate", NULL, NULL, NULL) != SQLITE_OK)
		goto fail;
	if (!has(c.db, "table", "counts") &&
	    sqlite3_exec(c.db, "create table counts (file text, line integer, "
			 "col integer, type text, name text, parent text, "
			 "compiled integer, executed integer)", NULL, NULL,
			 NULL) != SQLITE_OK)
		goto fail;
	if (!has(c.db, "index", "tokens") &&
	    sqlite3_exec(c.db, "create unique index tokens on counts (file, "
			 "line, col, type, name)", NULL, NULL, NULL) != SQLITE_OK)
		goto fail;
	if (sqlite3_prepare_v2(c.db, "insert or ignore into counts values "
			       "(?1, ?2, ?3, ?4, ?5, ?6, 0, 0)", -1, &c.ins,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(c.db, "update counts set compiled=compiled+1 "
			       "where file=?1 and line=?2 and col=?3 and "
			       "type=?4 and name=?5", -1, &c.upd,
			       NULL) != SQLITE_OK)
		goto fail;
	count_program(&c, s);
	if (sqlite3_exec(c.db, "commit", NULL, NULL, NULL) != SQLITE_OK)
		goto fail;
	rc = 0;
	goto out;
fail:
	fprintf(stderr, "stap: -q: cannot update the coverage database %s: "
		"%s\n", path, c.db ? sqlite3_errmsg(c.db) : "cannot open");
out:
	sqlite3_finalize(c.ins);
	sqlite3_finalize(c.upd);
	if (c.db)
		sqlite3_close(c.db);
	for (i = 0; i < c.seen.n; i++)
		free(c.seen.items[i]);
	free(c.seen.items);
	free(path);
	free(dir);
	return rc;
}
