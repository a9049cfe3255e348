/* interactive.c - stap -i: build a script incrementally at a prompt.
 *
 * The script is a list of items (top-level declarations: probes,
 * functions, globals), each checked by the parser when added.  Commands:
 *
 *   add TEXT        add TEXT (one or more declarations; an unfinished
 *                   { ... } goes on on the next lines)
 *   delete N|all    delete item N (as numbered by list), or every item
 *   list            print the items, numbered
 *   load FILE       add the script FILE as one item
 *   sample NAME     add the example script NAME (as --example finds it)
 *   save FILE       write the script to FILE
 *   edit            edit the script with $EDITOR (default vi); it comes
 *                   back as one item
 *   run             run the script: stap with the command line's options
 *                   and those set here
 *   set NAME VALUE  set an option of the runs; show [NAME] prints them
 *   help [CMD]      the commands; !! repeats the last one; quit
 *
 * The prompt "stap> " is printed when standard input is a terminal.
 */
#include "interactive.h"
#include "opts_misc.h"
#include "parse/parse.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static struct vec items;          /* char *: the script's items */
static struct vec base_args;      /* char *: the command line's options */

/* The options "set" changes, with the stap option each gives. */
static struct opt {
	const char *name, *flag, *help;
	int is_bool;                  /* 0/1 value; else a number or text */
	char *value;                  /* NULL: not set */
} opts[] = {
	{ "keep_tmpdir", "-k", "keep the temporary directory (0/1)", 1, NULL },
	{ "last_pass", "-p", "stop after pass N (1-5)", 0, NULL },
	{ "verbose", "-v", "verbosity (0-5)", 0, NULL },
	{ "guru_mode", "-g", "guru mode (0/1)", 1, NULL },
	{ "suppress_warnings", "-w", "no warnings (0/1)", 1, NULL },
	{ "panic_warnings", "-W", "warnings are errors (0/1)", 1, NULL },
	{ "unoptimized", "-u", "keep unused code (0/1)", 1, NULL },
	{ "target_pid", "-x", "target() is PID", 0, NULL },
	{ "cmd", "-c", "run CMD, end with it", 0, NULL },
	{ "output_file", "-o", "send the output to FILE", 0, NULL },
};
#define NOPTS (sizeof(opts) / sizeof(opts[0]))

static const struct cmd_help {
	const char *name, *usage, *help;
} cmds[] = {
	{ "!!", "!!", "Repeat the last command." },
	{ "add", "add TEXT", "Add a global, probe or function." },
	{ "delete", "delete N|all", "Delete a script item, or all." },
	{ "edit", "edit", "Edit the current script ($EDITOR)." },
	{ "help", "help [CMD]", "Print command help." },
	{ "list", "list", "Display the current script." },
	{ "load", "load FILE", "Load a script from a file into the session." },
	{ "quit", "quit", "Quit systemtap." },
	{ "run", "run", "Run the current script." },
	{ "sample", "sample NAME", "Load an example script (as --example)." },
	{ "save", "save FILE", "Save the script to a file." },
	{ "set", "set NAME VALUE", "Set an option value." },
	{ "show", "show [NAME]", "Show option values." },
};

/* script_text - the items, one after the other (heap string). */
static char *script_text(void)
{
	struct strbuf b = {0};
	int i;
	for (i = 0; i < items.n; i++)
		strbuf_printf(&b, "%s\n", (char *)items.items[i]);
	return strbuf_detach(&b);
}

/* add_item - add @text after the parser accepts it alone; 0 or -1 after
 * its diagnostics. */
static int add_item(const char *text, const char *name)
{
	char *t = xstrdup(text);
	size_t n = strlen(t);
	int errs = diag_error_count();
	while (n && strchr(" \t\n", t[n - 1]))
		t[--n] = '\0';
	if (!parse_script(name, t, 0) || diag_error_count() != errs) {
		diag_rewind(errs);
		printf("not added\n");
		return -1;
	}
	vec_push(&items, t);
	return 0;
}

/* depth - the { } nesting left open at the end of @s (strings, comments
 * and embedded C skipped). */
static int depth(const char *s)
{
	int d = 0;
	for (; *s; s++) {
		if (*s == '"') {
			for (s++; *s && *s != '"'; s++)
				if (*s == '\\' && s[1])
					s++;
			if (!*s)
				break;
		} else if (*s == '#' || (*s == '/' && s[1] == '/')) {
			while (*s && *s != '\n')
				s++;
			if (!*s)
				break;
		} else if (*s == '/' && s[1] == '*') {
			const char *e = strstr(s + 2, "*/");
			if (!e)
				return d + 1;
			s = e + 1;
		} else if (*s == '%' && s[1] == '{') {
			const char *e = strstr(s + 2, "%}");
			if (!e)
				return d + 1;
			s = e + 1;
		} else if (*s == '{')
			d++;
		else if (*s == '}')
			d--;
	}
	return d;
}

static char *read_line(const char *prompt)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	if (isatty(0)) {
		fputs(prompt, stdout);
		fflush(stdout);
	}
	n = getline(&line, &cap, stdin);
	if (n < 0) {
		free(line);
		return NULL;
	}
	if (n && line[n - 1] == '\n')
		line[n - 1] = '\0';
	return line;
}

static struct opt *find_opt(const char *name)
{
	size_t i;
	for (i = 0; i < NOPTS; i++)
		if (!strcmp(opts[i].name, name))
			return &opts[i];
	return NULL;
}

static void cmd_set(char *args)
{
	char *name = strtok(args, " \t"), *val = strtok(NULL, "");
	struct opt *o = name ? find_opt(name) : NULL;
	if (!o || !val) {
		printf("usage: set NAME VALUE (NAME: see show)\n");
		return;
	}
	while (*val == ' ' || *val == '\t')
		val++;
	if (o->is_bool && strcmp(val, "0") && strcmp(val, "1")) {
		printf("%s takes 0 or 1\n", o->name);
		return;
	}
	if (!strcmp(o->name, "last_pass") &&
	    (strlen(val) != 1 || *val < '1' || *val > '5')) {
		printf("last_pass takes 1 to 5\n");
		return;
	}
	if (!strcmp(o->name, "verbose") &&
	    (strlen(val) != 1 || *val < '0' || *val > '5')) {
		printf("verbose takes 0 to 5\n");
		return;
	}
	free(o->value);
	o->value = xstrdup(val);
}

static void cmd_show(const char *name)
{
	size_t i;
	for (i = 0; i < NOPTS; i++) {
		if (*name && strcmp(name, opts[i].name))
			continue;
		printf("%s: %s\n", opts[i].name, opts[i].value ? opts[i].value :
		       opts[i].is_bool ? "0" : "");
		if (*name)
			return;
	}
	if (*name)
		printf("no option '%s' (see show)\n", name);
}

/* run_stap - run this stap with the command line's options, the options
 * set, and the script in file @path; returns its exit status. */
static int run_stap(const char *path)
{
	struct vec argv = {0};
	size_t i;
	int k, st;
	pid_t pid;
	vec_push(&argv, "stap");
	for (k = 0; k < base_args.n; k++)
		vec_push(&argv, base_args.items[k]);
	for (i = 0; i < NOPTS; i++) {
		struct opt *o = &opts[i];
		if (!o->value)
			continue;
		if (!strcmp(o->name, "verbose")) {
			for (k = 0; k < atoi(o->value); k++)
				vec_push(&argv, "-v");
		} else if (o->is_bool) {
			if (!strcmp(o->value, "1"))
				vec_push(&argv, (char *)o->flag);
		} else {
			vec_push(&argv, (char *)o->flag);
			vec_push(&argv, o->value);
		}
	}
	vec_push(&argv, (char *)path);
	vec_push(&argv, NULL);
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		printf("cannot fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		execv("/proc/self/exe", (char **)argv.items);
		fprintf(stderr, "stap: cannot run stap: %s\n", strerror(errno));
		_exit(127);
	}
	/* Ctrl-C ends the run, not the session */
	signal(SIGINT, SIG_IGN);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	signal(SIGINT, SIG_DFL);
	free(argv.items);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* with_script - write the script to a temporary file and call @fn on its
 * path; returns fn's value (-1 if the file cannot be written). */
static int with_script(int (*fn)(const char *path))
{
	const char *td = getenv("TMPDIR");
	char *path = xasprintf("%s/stapiXXXXXX.stp", td && *td ? td : "/tmp");
	char *text = script_text();
	int fd = mkstemps(path, 4), rc = -1;
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	if (f && fputs(text, f) >= 0 && fclose(f) == 0)
		rc = fn(path);
	else {
		printf("cannot write %s: %s\n", path, strerror(errno));
		if (f)
			fclose(f);
	}
	if (fd >= 0)
		unlink(path);
	free(text);
	free(path);
	return rc;
}

static int edit_file(const char *path)
{
	const char *ed = getenv("VISUAL");
	char *cmd, *text;
	if (!ed || !*ed)
		ed = getenv("EDITOR");
	cmd = xasprintf("%s '%s'", ed && *ed ? ed : "vi", path);
	if (system(cmd) != 0) {
		printf("the editor failed: the script is unchanged\n");
		free(cmd);
		return -1;
	}
	free(cmd);
	text = read_file(path, NULL);
	if (!text)
		return -1;
	items.n = 0;
	if (text[strspn(text, " \t\n")])
		add_item(text, "<edit>");
	return 0;
}

static int run_file(const char *path)
{
	int rc = run_stap(path);
	if (rc)
		printf("run failed (status %d)\n", rc);
	return rc;
}

static void cmd_help(const char *name)
{
	size_t i;
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!*name || !strcmp(name, cmds[i].name))
			printf("%-15s -- %s\n", cmds[i].usage, cmds[i].help);
	if (*name && !strcmp(name, "set"))
		for (i = 0; i < NOPTS; i++)
			printf("  %-17s %s\n", opts[i].name, opts[i].help);
}

/* command - run one command line; returns 1 to quit. */
static int command(char *line)
{
	char *cmd = line + strspn(line, " \t"), *args;
	size_t n = strcspn(cmd, " \t");
	args = cmd + n;
	if (*args)
		*args++ = '\0';
	args += strspn(args, " \t");
	if (!*cmd)
		return 0;
	if (!strcmp(cmd, "quit") || !strcmp(cmd, "exit"))
		return 1;
	if (!strcmp(cmd, "help"))
		cmd_help(args);
	else if (!strcmp(cmd, "list")) {
		int i;
		for (i = 0; i < items.n; i++)
			printf("%d: %s\n", i + 1, (char *)items.items[i]);
	} else if (!strcmp(cmd, "add")) {
		struct strbuf b = {0};
		char *more;
		strbuf_add(&b, args);
		while (depth(strbuf_str(&b)) > 0 && (more = read_line("> "))) {
			strbuf_printf(&b, "\n%s", more);
			free(more);
		}
		if (!b.len)
			printf("usage: add TEXT\n");
		else
			add_item(strbuf_str(&b), "<add>");
		free(b.s);
	} else if (!strcmp(cmd, "delete")) {
		char *end;
		long k = strtol(args, &end, 10);
		if (!strcmp(args, "all"))
			items.n = 0;
		else if (!*args || *end || k < 1 || k > items.n)
			printf("usage: delete N|all (N: 1 to %d, see list)\n",
			       items.n);
		else {
			free(items.items[k - 1]);
			memmove(&items.items[k - 1], &items.items[k],
				(items.n - k) * sizeof(void *));
			items.n--;
		}
	} else if (!strcmp(cmd, "load") || !strcmp(cmd, "sample")) {
		char *path = !*args ? NULL : cmd[0] == 'l' ? xstrdup(args) :
			opts_find_example(args);
		char *text = path ? read_file(path, NULL) : NULL;
		if (!*args)
			printf("usage: %s\n", cmd[0] == 'l' ? "load FILE" :
			       "sample NAME");
		else if (!text && path)
			printf("cannot read %s: %s\n", path, strerror(errno));
		else if (text)
			add_item(text, path);
		free(path);
	} else if (!strcmp(cmd, "save")) {
		char *text = script_text();
		FILE *f = *args ? fopen(args, "w") : NULL;
		if (!*args)
			printf("usage: save FILE\n");
		else if (!f || fputs(text, f) < 0 || fclose(f) != 0)
			printf("cannot write %s: %s\n", args, strerror(errno));
		free(text);
	} else if (!strcmp(cmd, "edit"))
		with_script(edit_file);
	else if (!strcmp(cmd, "run")) {
		if (!items.n)
			printf("no script: add something first\n");
		else
			with_script(run_file);
	} else if (!strcmp(cmd, "set"))
		cmd_set(args);
	else if (!strcmp(cmd, "show"))
		cmd_show(args);
	else
		printf("unknown command '%s' (see help)\n", cmd);
	fflush(stdout);
	return 0;
}

int interactive_main(struct session *s, int argc, char **argv,
		     const char *shortopts)
{
	char *line, *last = NULL;
	int i;
	(void)s;
	/* the command line's options, -i and --interactive left out */
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--interactive") || !strcmp(a, "-i"))
			continue;
		if (a[0] == '-' && a[1] && a[1] != '-') {
			/* a cluster of short options: drop its 'i's up to the
			 * first option that takes an argument (the rest of the
			 * word, or the next word) */
			struct strbuf b = {0};
			const char *p, *q;
			int takes_next = 0;
			strbuf_addc(&b, '-');
			for (p = a + 1; *p; p++) {
				if (*p == 'i')
					continue;
				strbuf_addc(&b, *p);
				q = *p == ':' ? NULL : strchr(shortopts, *p);
				if (q && q[1] == ':') {
					strbuf_add(&b, p + 1);
					takes_next = !p[1];
					break;
				}
			}
			if (b.len > 1)
				vec_push(&base_args, strbuf_detach(&b));
			if (takes_next && i + 1 < argc)
				vec_push(&base_args, argv[++i]);
			continue;
		}
		vec_push(&base_args, (char *)a);
	}
	while ((line = read_line("stap> "))) {
		int quit;
		if (!strcmp(line + strspn(line, " \t"), "!!")) {
			free(line);
			if (!last) {
				printf("no last command\n");
				continue;
			}
			line = xstrdup(last);
			printf("%s\n", line);
		} else if (line[strspn(line, " \t")]) {
			free(last);
			last = xstrdup(line);
		}
		quit = command(line);
		free(line);
		if (quit)
			break;
	}
	free(last);
	return 0;
}
