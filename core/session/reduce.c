/*
 * reduce.c - the module reducer (reduce.h): delta debugging, the same for
 * every input language; what a pass may change is the language's
 * (reduce_internal.h: reduce_relay.c, reduce_relax.c).
 *
 * The state between passes is a module text, the smallest found so far.
 * A pass has the language list its candidates over that text and searches
 * which of them it can apply: a trial is the text the language builds
 * with a chosen subset applied, loaded into a scratch session and handed
 * to the caller's test when it is smaller.
 */
#include "reduce.h"

#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "reduce_internal.h"
#include "session_relax.h"
#include "util.h"

typedef struct Reducer {
	Session *origin;
	const ReduceOptions *opts;
	const ReduceLang *lang;
	void *work;      /* the language's working state */
	bool need_types; /* the module as loaded type-checks */
	char *best;      /* the smallest text so far (owned) */
	size_t best_len;
	size_t best_bindings;
	double best_elements; /* of the entry function's inputs */
	size_t tests;
	bool stopped; /* interrupted */
} Reducer;

static const ReduceLang *language_of(const Session *s)
{
	return session_relax_active(s) ? &reduce_relax : &reduce_relay;
}

/* Whether text is a smaller module that still shows the property; it
 * becomes the best one then (text is taken either way). */
static bool try_text(Reducer *r, char *text, size_t len, bool first)
{
	Session c;
	bool ok;
	size_t bindings = 0;
	double elements = 0;
	if (interrupt_pending()) {
		r->stopped = true;
		free(text);
		return false;
	}
	ok = r->lang->load(r->origin, &c, text, len);
	if (ok) {
		r->lang->measure(&c, &bindings, &elements);
		ok = first || bindings < r->best_bindings ||
		     (bindings == r->best_bindings &&
		      (len < r->best_len || (len == r->best_len && elements < r->best_elements)));
	}
	if (ok && r->need_types && !first)
		ok = r->lang->type_checks(&c);
	if (ok) {
		r->tests++;
		ok = r->opts->test(r->opts->test_arg, &c);
		if (interrupt_pending()) { /* the test was cut short: no answer */
			r->stopped = true;
			ok = false;
		}
	}
	session_free(&c);
	if (!ok) {
		free(text);
		return false;
	}
	free(r->best);
	r->best = text;
	r->best_len = len;
	r->best_bindings = bindings;
	r->best_elements = elements;
	return true;
}

/* Delta debugging: chunks of the n candidates not yet applied, halved
 * from all of them down to one, each applied when the module still shows
 * the property. True when any was. */
static bool search(Reducer *r, size_t n)
{
	bool *chosen = xcalloc(n + 1, sizeof *chosen), *trial = xcalloc(n + 1, sizeof *trial);
	size_t *live = xmalloc((n + 1) * sizeof *live), nlive = n, size = n;
	bool any = false;
	for (size_t i = 0; i < n; i++)
		live[i] = i;
	while (nlive > 0 && !r->stopped) {
		size_t pos = 0;
		while (pos < nlive && !r->stopped) {
			size_t end = pos + size < nlive ? pos + size : nlive, len;
			char *text;
			memcpy(trial, chosen, n * sizeof *trial);
			for (size_t k = pos; k < end; k++)
				trial[live[k]] = true;
			text = r->lang->build(r->work, trial, n, &len);
			if (try_text(r, text, len, false)) {
				memcpy(chosen, trial, n * sizeof *chosen);
				memmove(live + pos, live + end, (nlive - end) * sizeof *live);
				nlive -= end - pos;
				any = true;
			} else {
				pos = end;
			}
		}
		if (size == 1)
			break;
		size = (size + 1) / 2;
	}
	free(live);
	free(trial);
	free(chosen);
	return any;
}

static bool run_pass(Reducer *r, size_t pass)
{
	ReduceStep step = {r->lang->passes[pass], r->best_bindings, 0, r->best_len, 0, 0};
	size_t n;
	bool any;
	if (!r->lang->work_load(r->work, r->best, r->best_len)) {
		/* Ctrl-C cuts the reload's parse short: the search stops there,
		 * interrupted, not finished */
		r->stopped = r->stopped || interrupt_pending();
		return false;
	}
	n = r->lang->list(r->work, pass);
	any = n > 0 && search(r, n);
	if (any && r->opts->progress) {
		step.bindings_after = r->best_bindings;
		step.bytes_after = r->best_len;
		step.tests = r->tests;
		r->opts->progress(r->opts->progress_arg, &step);
	}
	return any;
}

/* The module as loaded is the first best text: it must show the
 * property. */
static bool start(Reducer *r, Session *s, ReduceResult *res)
{
	StrBuf text;
	size_t len;
	strbuf_init(&text);
	if (!r->lang->start(s, &text, &res->bindings_before, &r->need_types)) {
		strbuf_free(&text);
		return false;
	}
	if (r->opts->progress) {
		ReduceStep first = {
			NULL, res->bindings_before, res->bindings_before, text.len, text.len, 0};
		r->opts->progress(r->opts->progress_arg, &first);
	}
	len = text.len;
	if (try_text(r, strbuf_detach(&text), len, true))
		return true;
	if (r->stopped)
		diag_error(&s->diags, NULL, (Pos){0, 0}, "interrupted");
	else
		diag_error(&s->diags, NULL, (Pos){0, 0},
			   "the module as loaded does not show %s: there is "
			   "nothing to keep while reducing",
			   r->opts->property ? r->opts->property : "the property");
	free(r->best);
	return false;
}

bool reduce_module(Session *s, const ReduceOptions *o, ReduceResult *res)
{
	Reducer r = {0};
	memset(res, 0, sizeof *res);
	session_clear_diags(s);
	r.origin = s;
	r.opts = o;
	r.lang = language_of(s);
	if (!start(&r, s, res))
		return false;
	r.work = r.lang->work_new(s, o);
	for (int round = 0; round < 16 && !r.stopped; round++) {
		bool any = false;
		for (size_t p = 0; p < r.lang->npasses && !r.stopped; p++)
			any |= run_pass(&r, p);
		if (!any)
			break;
	}
	r.lang->work_free(r.work);
	res->text = r.best;
	res->bindings_after = r.best_bindings;
	res->tests = r.tests;
	res->interrupted = r.stopped;
	return true;
}

void reduce_result_free(ReduceResult *r)
{
	free(r->text);
	r->text = NULL;
}

bool reduce_standalone(const Session *s, const char *text, StrBuf *out)
{
	return language_of(s)->standalone(s, text, out);
}
