/* ast.h - the abstract syntax tree of a SystemTap script.
 *
 * Pass 1 (parse.c) builds it, pass 2 (elaborate.c) resolves symbols and
 * fills in the types, pass 3 (codegen.c) walks the resolved tree.  Nodes
 * are allocated once and never freed (the translator is short-lived).
 */
#ifndef STP_AST_H
#define STP_AST_H

#include <stdint.h>
#include "util.h"

/* Script value types.  TYPE_UNKNOWN until pass 2 infers one. */
enum stp_type {
	TYPE_UNKNOWN = 0,
	TYPE_LONG,
	TYPE_STRING,
	TYPE_STATS,
};
const char *type_name(enum stp_type t);   /* "long", "string", ... */

/* The largest bit shift of @variance(s, SHIFT): values are kept shifted
 * left by SHIFT bits while the variance is accumulated, and the squares
 * of shifted values must still fit in 64 bits. */
#define STAT_MAX_SHIFT 31

/* Operators, shared by binary, unary and assignment expressions. */
enum stp_op {
	OP_NONE = 0,
	/* binary arithmetic / bitwise on longs */
	OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD,
	OP_SHL, OP_SHR, OP_BAND, OP_BOR, OP_BXOR,
	/* logical, short-circuit */
	OP_LAND, OP_LOR,
	/* string concatenation "." */
	OP_CONCAT,
	/* comparisons, on two longs or two strings */
	OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
	/* regular expression match (strings) */
	OP_MATCH, OP_NMATCH,
	/* unary */
	OP_NEG, OP_PLUS, OP_NOT, OP_BNOT,
	/* increments: E_INCDEC */
	OP_PREINC, OP_PREDEC, OP_POSTINC, OP_POSTDEC,
};
const char *op_text(enum stp_op op);     /* "+", "<=", "++", ... */

struct sym;
struct functiondecl;

enum expr_kind {
	E_NUM,        /* num */
	E_STR,        /* str (unescaped bytes, NUL-terminated) */
	E_SYM,        /* name: a local, global or parameter; sym set by pass 2 */
	E_INDEX,      /* base[args...]: base is an E_SYM naming an array */
	E_BINARY,     /* a op b */
	E_UNARY,      /* op a */
	E_INCDEC,     /* ++a, a--, ... (op says which); a is an lvalue */
	E_ASSIGN,     /* a = b, or a op= b when op != OP_NONE (a .= b: OP_CONCAT) */
	E_TERNARY,    /* a ? b : c */
	E_CALL,       /* name(args...): script, tapset or builtin function */
	E_PRINT,      /* print family: name is "print", "println", "printf",
	               * "sprintf", "sprint", "sprintln", "printd", "printdln",
	               * "sprintd"...; args; for printf-style the format is
	               * args[0] */
	E_IN,         /* [args...] in base: membership; base is the array */
	E_STATOP,     /* @count(a) etc.: name is "count","sum","min","max",
	               * "avg","variance"; a is the aggregate expression */
	E_HIST,       /* @hist_log(a) / @hist_linear(a, lo, hi, step): name is
	               * "hist_log" or "hist_linear", args after a */
	E_STATS_ADD,  /* a <<< b */
	E_TARGET,     /* $name / @var("...") with a chain of components */
	E_ENTRY,      /* @entry(a) */
	E_DEFINED,    /* @defined(a); name "probewrite": @probewrite(a) */
	E_CAST,       /* @cast(a, "type", "module"); name NULL: an autocast
	               * a->field... on a script expression a whose C type
	               * pass 2 finds (tvar.c) */
	E_WILD,       /* '*': a key of an array slice (delete a[*, k],
	               * [*, k] in a, foreach (... in a[*, k])) */
	E_PERF,       /* @perf("NAME"): str is NAME; pass 2 sets num to the
	               * counter's number (its perf...counter("NAME") probe) */
};

/* One element of a target-variable chain: ->field, [index] or .field. */
struct target_component {
	int is_index;          /* 1: [index]; 0: ->name */
	const char *name;
	struct expr *index;
	struct source_loc loc;
};

struct expr {
	enum expr_kind kind;
	struct source_loc loc;
	enum stp_type type;    /* pass 2 */
	enum stp_op op;
	int64_t num;           /* E_NUM */
	const char *str;       /* E_STR bytes */
	size_t str_len;        /* E_STR length (may contain escapes like \0) */
	const char *name;      /* E_SYM, E_CALL, E_PRINT, E_STATOP, E_HIST,
	                        * E_TARGET ("$foo", "$$parms", "@var"), E_CAST type */
	struct expr *a, *b, *c;
	struct vec args;       /* struct expr *: call/print arguments, index keys */
	struct vec components; /* struct target_component *: E_TARGET/E_CAST chain */
	struct sym *sym;       /* pass 2: what E_SYM/E_INDEX/E_IN base names */
	struct functiondecl *func; /* pass 2: the callee of an E_CALL */
	const char *module;    /* E_CAST / @var module string, or NULL */
};

enum stmt_kind {
	S_BLOCK,      /* { stmts } */
	S_EXPR,       /* e; */
	S_IF,         /* if (cond) then [else els] */
	S_WHILE,      /* while (cond) body */
	S_FOR,        /* for (init; cond; step) body; each part may be NULL */
	S_FOREACH,    /* foreach ([keys] in array [limit e]) body */
	S_BREAK,
	S_CONTINUE,
	S_NEXT,
	S_RETURN,     /* return [e]; */
	S_DELETE,     /* delete e; */
	S_TRY,        /* try body catch [(var)] els */
	S_NULL,       /* ; */
};

struct stmt {
	enum stmt_kind kind;
	struct source_loc loc;
	struct vec stmts;          /* S_BLOCK: struct stmt * */
	struct expr *e;            /* S_EXPR, S_RETURN, S_DELETE, S_IF/S_WHILE/S_FOR cond */
	struct expr *init, *step;  /* S_FOR (expressions, may be NULL) */
	struct stmt *body, *els;   /* S_IF then/else, loops, S_TRY body/catch */
	/* S_FOREACH */
	struct vec keys;           /* struct expr * (E_SYM) bound to the keys */
	struct expr *value;        /* E_SYM bound to the value (v = [k] in a) or NULL */
	struct expr *array;        /* the array (E_SYM) */
	int sort_key;              /* 0: none; 1..N: key N; -1: the value */
	int sort_dir;              /* +1 ascending, -1 descending, 0 none */
	const char *sort_aggr;     /* statistics arrays: the aggregate the
	                            * value sort uses ("count", "sum", "min",
	                            * "max", "avg"; a@sum), or NULL */
	struct expr *limit;        /* or NULL */
	struct vec slice;          /* foreach (... in array[k1, *, ...]): the
	                            * slice's keys (E_WILD for '*'), or empty */
	const char *catch_var;     /* S_TRY: name of the catch variable or NULL */
	struct sym *catch_sym;     /* pass 2 */
};

/* A component of a probe point: name, optional (argument) */
struct pp_component {
	const char *name;      /* may contain * and ** wildcards */
	struct expr *arg;      /* E_NUM or E_STR literal, or NULL */
};

struct probe_point {
	struct source_loc loc;
	struct vec components; /* struct pp_component * */
	int optional;          /* trailing ? */
	int sufficient;        /* trailing ! */
	struct expr *cond;     /* if (EXPR) or NULL */
};
/* probe_point_str: the canonical text "kprobe.function(\"vfs_read\").return" */
char *probe_point_str(const struct probe_point *pp);

struct probe {
	struct source_loc loc;
	struct vec points;     /* struct probe_point * */
	struct stmt *body;     /* a S_BLOCK */
	/* pass 2: */
	struct vec locals;     /* struct sym *: locals of the body */
	struct probe_point *user_point;  /* the point as the script wrote it,
	                                  * when this probe is an alias
	                                  * expansion of it (else NULL) */
	const char *alias_chain;         /* "syscall.open <- syscall.*" ... */
	int listed;                      /* 1 + its index in s->probes, or 0 */
	int direct;                      /* derived probes run this body */
};

/* probe NAME = POINTS { prologue }  or  probe NAME += POINTS { epilogue } */
struct probe_alias {
	struct source_loc loc;
	struct probe_point *name;  /* the alias being defined */
	struct vec points;         /* struct probe_point *: what it expands to */
	struct stmt *body;
	int epilogue;              /* 1 for += */
};

enum sym_kind {
	SYM_GLOBAL,
	SYM_LOCAL,
	SYM_PARAM,
};

/* A named variable: a global, a local of a probe or function, or a
 * function parameter.  Types start TYPE_UNKNOWN or as declared. */
struct sym {
	enum sym_kind kind;
	const char *name;
	struct source_loc loc;
	enum stp_type type;        /* scalar type, or the value type of an array */
	int arity;                 /* 0: scalar; >0: array with this many keys */
	enum stp_type key_types[9];
	int index;                 /* position among its kind in its scope */
	/* globals only */
	struct expr *init;         /* initial value (literal) or NULL */
	int64_t maxsize;           /* [SIZE] or 0 */
	int wrap;                  /* % */
	int is_private;
	int written, read;         /* pass 2: seen as lvalue / rvalue */
	int deleted;               /* pass 2: named by 'delete NAME' */
	int live;                  /* pass 2: used by code that is kept */
	int pcpu;                  /* pass 3: a counter kept per CPU
	                            * (codegen/pcpu.c) */
	struct source_loc type_loc;    /* pass 2: where the type was settled */
	struct source_loc key_loc[9];  /* pass 2: where each key type was */
	struct source_loc read_loc;    /* pass 2: first read */
	struct source_loc use_loc;     /* pass 2: first use (as a scalar or
	                                * array, which fixes the arity) */
};

/* the name prefix of the functions made for `%{ C %}` expressions */
#define EMBEDDED_EXPR_PREFIX "__embedded_expr_"

struct functiondecl {
	struct source_loc loc;
	const char *name;
	enum stp_type ret;         /* declared (name:type) or inferred */
	struct vec params;         /* struct sym * (SYM_PARAM), declared types */
	struct stmt *body;         /* script body, or NULL for embedded C */
	const char *embedded_c;    /* %{ ... %} body, or NULL */
	int is_private;
	int priority;              /* `function f():N`: the order among the
	                            * overloads of f (lower first) */
	int has_priority;          /* N given; else 0 in the user's script,
	                            * 1 in tapsets */
	/* pass 2: */
	struct vec overloads;      /* the first overload of a call: every
	                            * overload it may pass on to by `next`,
	                            * itself first (struct functiondecl *);
	                            * empty when not overloaded */
	int overload_ix;           /* 0, or which same-named function of
	                            * this arity it is (its C name) */
	struct vec locals;         /* struct sym * */
	int used;                  /* resolved (called from somewhere) */
	int reachable;             /* called, directly or not, from a probe */
	struct source_loc ret_loc; /* where the return type was settled */
	int purity[2];             /* warnings.c, [1]: run-time errors count
	                            * as effects: 0 unknown, 1 pure (no effect
	                            * outside its own locals), 2 not, 3 being
	                            * decided */
};

/* One parsed file (a script or a tapset) */
struct stapfile {
	const char *name;
	struct vec globals;        /* struct sym * */
	struct vec functions;      /* struct functiondecl * */
	struct vec probes;         /* struct probe * */
	struct vec aliases;        /* struct probe_alias * */
	struct vec embeds;         /* const char *: top-level %{ %} blocks */
	struct vec embed_locs;     /* struct source_loc *: where each is */
	int is_tapset;
};

/* ast_walk_expr / ast_walk_stmt - call @fn on @e (or every expression of
 * @st and the statements in it), then on its operands, arguments and
 * [index] components, depth first; @fn sets *@skip to leave the
 * expression's operands out.  Foreach key and value bindings are not
 * visited (they are written, not evaluated). */
typedef void (*ast_expr_fn)(void *arg, struct expr *e, int *skip);
void ast_walk_expr(struct expr *e, ast_expr_fn fn, void *arg);
void ast_walk_stmt(struct stmt *st, ast_expr_fn fn, void *arg);

/* expr_copy / stmt_copy - deep copies of a tree (NULL gives NULL), with
 * the pass-2 fields (sym, func, type) cleared, so that one parsed body can
 * be resolved separately in several probes (alias expansion). */
struct expr *expr_copy(const struct expr *e);
struct stmt *stmt_copy(const struct stmt *s);

/* stapfile_copy - a deep copy of parsed file @f (its globals, functions,
 * probes and aliases, every tree in them; names, embedded C and the
 * tokens' strings are shared), as pass 1 left it: pass 2 may annotate
 * and rewrite the copy while @f stays as parsed (the fuzz target parses
 * the tapset library once and elaborates a copy per input). */
struct stapfile *stapfile_copy(const struct stapfile *f);

#endif
