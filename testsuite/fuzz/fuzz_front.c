/* fuzz_front.c - libFuzzer target for passes 1 and 2 of stap.
 *
 * Each input is a script: it is parsed (pass 1) and, when it parses,
 * elaborated (pass 2) against the tapsets of the source tree (parsed
 * once per guru mode, before the first input; each input elaborates a
 * copy, since pass 2 annotates and rewrites the tree).  Every
 * block the translator allocates for one input is freed afterwards
 * (util_track / util_free_tracked), so leaks found by LeakSanitizer are
 * real ones in code that frees, and memory stays bounded.
 *
 * Built by `make fuzz` with clang -fsanitize=fuzzer,address -DSTP_FUZZ.
 */
#include "debuginfo/debuginfo.h"
#include "elaborate/elaborate.h"
#include "parse/parse.h"
#include "parse/preproc.h"
#include "session.h"

#include <sanitizer/lsan_interface.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_TAPSET_DIR
#define FUZZ_TAPSET_DIR "tapset"
#endif
/* a -I directory with a syscall-like tapset and a broken one */
#ifndef FUZZ_INCLUDE_DIR
#define FUZZ_INCLUDE_DIR "testsuite/semantic/ok/tapsets"
#endif

static char *fuzz_args[] = { "1", "two", "3" };

/* a fixed kernel configuration, so that runs are reproducible */
static const char *fuzz_config(const char *name, void *data)
{
	(void)data;
	if (!strcmp(name, "CONFIG_SMP") || !strcmp(name, "CONFIG_MODULES"))
		return "y";
	if (!strcmp(name, "CONFIG_HZ"))
		return "250";
	return NULL;
}

/* The tapset library as pass 1 leaves it, without and with guru mode:
 * parsed untracked, so it lives across inputs (what pass 1 drops of it,
 * tokens' strings the trees do not keep, is no leak to report). */
static struct session library[2];

static void load_library(struct pp_config *cfg, int guru)
{
	struct session *l = &library[guru];
	if (l->library.n)
		return;
	cfg->guru_mode = guru;
	parse_set_config(cfg);
	l->tapset_dir = getenv("FUZZ_TAPSET_DIR") ? getenv("FUZZ_TAPSET_DIR")
		: FUZZ_TAPSET_DIR;
	vec_push(&l->include_dirs, (void *)FUZZ_INCLUDE_DIR);
	diag_quiet = 1;
	__lsan_disable();
	load_tapset_macros(l);
	load_tapsets(l);
	__lsan_enable();
	diag_quiet = 0;
	diag_reset();
	source_reset();
}

/* copy_library - the library of guru mode @guru into @s, to elaborate */
static void copy_library(struct session *s, int guru)
{
	int i;
	for (i = 0; i < library[guru].library.n; i++)
		vec_push(&s->library, stapfile_copy(library[guru].library.items[i]));
	s->broken_tapsets = library[guru].broken_tapsets;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session s;
	struct pp_config cfg = {
		.kernel_release = "6.1.0-fuzz-amd64", .arch = "x86_64",
		.config_lookup = fuzz_config,
	};
	char *text, *name;
	if (size > 64 * 1024)
		return 0;
	load_library(&cfg, 0);
	load_library(&cfg, 1);
	util_reset_caches();   /* the macros: read again, tracked, below */
	cfg.guru_mode = (size & 2) != 0;
	util_track(1);
	memset(&s, 0, sizeof(s));
	text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	name = xstrdup("<fuzz>");
	/* diagnostics are printed for some inputs (run with -close_fd_mask=2),
	 * for all with FUZZ_VERBOSE set */
	diag_quiet = !getenv("FUZZ_VERBOSE") && !(size & 16);
	parse_set_config(&cfg);
	parse_set_args(3, fuzz_args);
	s.script_file = name;
	s.script_text = text;
	s.last_pass = 2;
	s.tapset_dir = getenv("FUZZ_TAPSET_DIR") ? getenv("FUZZ_TAPSET_DIR")
		: FUZZ_TAPSET_DIR;
	s.unoptimized = size & 1;
	s.guru = cfg.guru_mode;
	vec_push(&s.include_dirs, (void *)FUZZ_INCLUDE_DIR);
	load_tapset_macros(&s);
	s.user = parse_script(name, text, 0);
	if (s.user) {
		struct strbuf out = {0};
		pprint_file(&out, s.user);          /* the -p1 listing */
		copy_library(&s, s.guru);
		if (elaborate(&s) == 0)
			pprint_resolved(&out, &s);  /* the -p2 listing */
		free(out.s);
	}
	if ((size & 12) == 12) {
		/* stap -L on the first probe point of the script, in a fresh
		 * session as the driver does it */
		struct session l;
		struct stapfile *f;
		memset(&l, 0, sizeof(l));
		l.script_file = name;
		l.tapset_dir = s.tapset_dir;
		l.list_vars = 1;
		l.include_dirs = s.include_dirs;
		f = parse_script(name, text, 0);
		if (f && f->probes.n) {
			struct probe *p = f->probes.items[0];
			struct strbuf out = {0};
			char *pat = probe_point_str(p->points.items[0]);
			l.user = f;
			l.list_pattern = pat;
			copy_library(&l, s.guru);
			list_probe_points(&l, &out);
			free(out.s);
		}
	}
	diag_quiet = 0;
	diag_reset();
	util_reset_caches();
	source_reset();
	util_free_tracked();
	return 0;
}

/* The fuzz target covers passes 1-2 of the language: the kernel's
 * debugging information is absent, as on a machine without debuginfo or
 * BTF, so kernel.function/kernel.trace points end in their clean "no
 * debugging information" diagnostics. */
struct dbg_provider *dbg_dwarf_open(struct session *s, char **why)
{
	*why = xstrdup("not in the fuzz target");
	return NULL;
}

struct dbg_provider *dbg_btf_open(struct session *s, char **why)
{
	*why = xstrdup("not in the fuzz target");
	return NULL;
}

struct ksyms *ksyms_for(struct session *s)
{
	return NULL;
}

const char *ksyms_symbol_at(struct ksyms *k, uint64_t addr, uint64_t *off)
{
	return NULL;
}

int ksyms_addr(struct ksyms *k, const char *name, uint64_t *addr)
{
	return -1;
}

int dbg_find_tracepoints(struct session *s, const char *sys, const char *name,
			 struct vec *out)
{
	diag_error(NULL, "kernel.trace: no BTF in the fuzz target");
	return -1;
}
