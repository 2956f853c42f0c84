/*
 * reduce_relax.c - `reduce` on a Relax module: reduce.c's search over the
 * candidates of core/relax/relax_reduce.c.
 *
 * Texts are TVMScript as relax_print_module prints it (TVM 0.27's
 * mod.script()), so the reduced module is a file TVM reads as it is. A
 * trial parses the smallest text afresh, applies the chosen candidates to
 * that module and prints it: the parse is deterministic, so the variable
 * ids and function indexes a candidate names are the listing's.
 */
#include <stdlib.h>
#include <string.h>

#include "reduce_internal.h"
#include "relax_parse.h"
#include "relax_print.h"
#include "relax_reduce.h"
#include "session_relax.h"
#include "util.h"

typedef struct RelaxWork {
	const char *name; /* what positions in a candidate are reported as */
	char *text;       /* the working module's text (owned) */
	size_t len;
	RxCandidate *cands; /* the pass's (malloc'ed) */
	size_t ncands;
} RelaxWork;

/* text parsed as a Relax module, with the source it points into. */
static RxModule *parse_text(const char *name, const char *text, size_t len, SourceFile **src)
{
	DiagList diags;
	RxModule *m;
	*src = source_from_string(name, text, len);
	diag_init(&diags);
	m = relax_parse(*src, &diags);
	diag_free(&diags);
	if (!m) {
		source_release(*src);
		*src = NULL;
	}
	return m;
}

static bool relax_scratch_load(const Session *origin, Session *c, const char *text, size_t len)
{
	const char *name = session_module_name(origin);
	SourceFile *src = source_from_string(name, text, len);
	bool ok;
	session_init_like(c, origin);
	pins_clear(&c->pins);
	ok = session_load_source(c, src, name) && session_relax_active(c);
	source_release(src);
	return ok;
}

static void relax_measure(Session *c, size_t *bindings, double *elements)
{
	*bindings = relax_reduce_count_bindings(session_relax_module(c, RX_PHASE_COLLECT));
	*elements = 0;
}

static bool relax_type_checks(Session *c)
{
	(void)c; /* the loader checks what it reads */
	return true;
}

static bool relax_start(Session *s, StrBuf *text, size_t *bindings, bool *need_types)
{
	const RxModule *m = session_relax_module(s, RX_PHASE_COLLECT); /* as loaded */
	relax_print_module(text, m);
	*bindings = relax_reduce_count_bindings(m);
	*need_types = false;
	return true;
}

static void *relax_work_new(const Session *origin, const ReduceOptions *o)
{
	RelaxWork *w = xcalloc(1, sizeof *w);
	(void)o;
	w->name = session_module_name(origin);
	return w;
}

static void relax_work_free(void *work)
{
	RelaxWork *w = work;
	free(w->cands);
	free(w->text);
	free(w);
}

static bool relax_work_load(void *work, const char *text, size_t len)
{
	RelaxWork *w = work;
	free(w->text);
	w->text = xmalloc(len + 1);
	memcpy(w->text, text, len);
	w->text[len] = '\0';
	w->len = len;
	return true;
}

static size_t relax_list(void *work, size_t pass)
{
	RelaxWork *w = work;
	SourceFile *src;
	RxModule *m = parse_text(w->name, w->text, w->len, &src);
	free(w->cands);
	w->cands = NULL;
	w->ncands = 0;
	if (!m)
		return 0;
	w->ncands = relax_reduce_candidates(m, (RxReducePass)pass, &w->cands);
	relax_module_free(m);
	source_release(src);
	return w->ncands;
}

static char *relax_build(void *work, const bool *chosen, size_t n, size_t *len)
{
	RelaxWork *w = work;
	SourceFile *src;
	RxModule *m = parse_text(w->name, w->text, w->len, &src);
	StrBuf out;
	strbuf_init(&out);
	if (m) {
		relax_reduce_apply(m, w->cands, chosen, n < w->ncands ? n : w->ncands);
		relax_print_module(&out, m);
		relax_module_free(m);
		source_release(src);
	}
	*len = out.len;
	if (!out.data) /* nothing printed: a text that does not load */
		strbuf_puts(&out, "");
	return strbuf_detach(&out);
}

/* The printed module is the file TVM reads, once it parses again. */
static bool relax_standalone(const Session *s, const char *text, StrBuf *out)
{
	SourceFile *src;
	RxModule *m = parse_text(session_module_name(s), text, strlen(text), &src);
	if (!m)
		return false;
	relax_module_free(m);
	source_release(src);
	strbuf_puts(out, text);
	return true;
}

const ReduceLang reduce_relax = {
	.passes = relax_reduce_pass_names,
	.npasses = RX_REDUCE_PASSES,
	.start = relax_start,
	.load = relax_scratch_load,
	.measure = relax_measure,
	.type_checks = relax_type_checks,
	.work_new = relax_work_new,
	.work_load = relax_work_load,
	.list = relax_list,
	.build = relax_build,
	.work_free = relax_work_free,
	.standalone = relax_standalone,
};
