/* fuzz_front.c - libFuzzer target for passes 1 and 2 of stap.
 *
 * Each input is a script: it is parsed (pass 1) and, when it parses,
 * elaborated (pass 2) against the tapsets of the source tree (read once,
 * parsed again for every input since pass 2 annotates the tree).  Every
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
	s.guru = (size & 2) != 0;
	vec_push(&s.include_dirs, (void *)FUZZ_INCLUDE_DIR);
	s.user = parse_script(name, text, 0);
	if (s.user) {
		struct strbuf out = {0};
		pprint_file(&out, s.user);          /* the -p1 listing */
		if (load_tapsets(&s) == 0 && elaborate(&s) == 0)
			pprint_resolved(&out, &s);  /* the -p2 listing */
		free(out.s);
	}
	if ((size & 12) == 12) {
		/* stap -L on the first probe point of the script, in a fresh
		 * session as the driver does it */
		struct session l;
		struct stapfile *f;
		memset(&l, 0, sizeof(l));
		preproc_reset();
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
			if (load_tapsets(&l) == 0)
				list_probe_points(&l, &out);
			free(out.s);
		}
	}
	diag_quiet = 0;
	diag_reset();
	preproc_reset();
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
