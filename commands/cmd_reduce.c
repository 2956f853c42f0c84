/*
 * cmd_reduce.c - `reduce PREDICATE [-o FILE]`: the smallest module that
 * still shows a conflict, an error, a failing compare, enough copies, or
 * whatever a script tests (core/session/reduce.c does the search; this file
 * says what each predicate means for one candidate).
 *
 * Every predicate plans the candidate in its own scratch session, as far
 * as it needs: `conflict` up to check (on a Relax module, up to colocate,
 * keeping the two seeds' kinds), the others to the end; `copies` counts a
 * Relax module's R.to_vdevice calls. `script`
 * runs a devplan script in that session, in batch, its output discarded:
 * exit status 0 means the candidate is interesting, as `llvm-reduce
 * --test` reads its test's status.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dispatch.h"
#include "file_read.h"
#include "file_write.h"
#include "interrupt.h"
#include "reduce.h"
#include "relax_explain.h"
#include "session_relax.h"

typedef enum PredicateKind {
	PRED_CONFLICT,     /* value: the conflicting value's name (with %), or NULL */
	PRED_ERROR,        /* value: the text a phase's error must contain */
	PRED_COMPARE_FAIL, /* compare reports FAIL */
	PRED_COPIES,       /* at least `count` device_copy calls once planned */
	PRED_SCRIPT,       /* value: the script whose status decides */
} PredicateKind;

typedef struct Predicate {
	PredicateKind kind;
	char *value; /* owned */
	long count;
	CmdContext *ctx; /* the command's, for the script's depth */
	/* PRED_CONFLICT: whether a copy resolves the conflict (for Relax: the
	 * kinds of its two seeds), learned from the module as loaded (the
	 * first candidate), which every smaller one must keep: a conflict
	 * that a copy resolves must not turn into two pins of one value, an
	 * error under every policy, or back; two hints' conflict must not
	 * turn into a hint's and a parameter annotation's */
	int resolvable; /* -1 until learned */
} Predicate;

static const char *const predicate_names[] = {"conflict", "error", "compare-fail", "copies",
					      "script"};

/* Runs every phase; false when one failed or was interrupted. */
static bool plan_all(Session *c)
{
	if (session_relax_active(c))
		return session_relax_step(c, SIZE_MAX);
	return session_step(c, pipeline_count);
}

static bool count_copy(Expr *e, void *arg)
{
	if (ir_is_op(e, OP_DEVICE_COPY))
		(*(long *)arg)++;
	return true;
}

/* A Relax seed's kind: its explicit kind (RX_SEED_*), or 0 for a hint
 * input. */
static int seed_kind_code(const RxRealize *r, const RxSeed *seed)
{
	return seed->round == 1 ? r->explicit_kind[seed->var] : 0;
}

/* The kinds of a Relax conflict's two seeds as one number: its first
 * seed's and the first one's on another vdevice, in either order (a seed
 * that becomes a parameter comes first in TVM's order). */
static int relax_seed_pair(const RxRealize *r, const RxConflict *k)
{
	for (size_t i = 1; i < k->nseeds; i++)
		if (k->seeds[i].vdevice != k->seeds[0].vdevice) {
			int a = seed_kind_code(r, &k->seeds[0]),
			    b = seed_kind_code(r, &k->seeds[i]);
			return a < b ? a * 8 + b : b * 8 + a; /* in either order */
		}
	return -1;
}

static bool relax_class_has(const RxRealize *r, const RxConflict *k, const char *name)
{
	for (size_t i = 0; i < k->nvars; i++)
		if (strcmp(r->in->vars[k->vars[i]]->name, name) == 0)
			return true;
	return false;
}

/* A conflict of a Relax module: a co-location class that seeds on two
 * vdevices reach (known once colocate has run; policy error stops after
 * it), with the seeds' kinds of the module as loaded. */
static bool relax_has_conflict(Session *c, Predicate *p)
{
	const RxRealize *r;
	RxConflict *k;
	size_t n;
	bool found = false;
	session_relax_step(c, RX_PHASE_COLOCATE + 1);
	r = &c->relax->realize;
	if (r->done <= RX_PHASE_COLOCATE)
		return false;
	n = relax_conflicts(r, &k);
	for (size_t i = 0; i < n && !found; i++) {
		int pair = relax_seed_pair(r, &k[i]);
		if (pair < 0 || (p->value && !relax_class_has(r, &k[i], p->value + 1)))
			continue;
		if (p->resolvable < 0)
			p->resolvable = pair;
		found = pair == p->resolvable;
	}
	relax_conflicts_free(k, n);
	return found;
}

static long relax_count_copies(const RxExpr *e)
{
	long n = 0;
	if (!e)
		return 0;
	if (e->kind == RX_EXPR_CALL && e->callee == RX_CALL_OP && e->name &&
	    strcmp(e->name, "R.to_vdevice") == 0)
		n++;
	for (uint32_t i = 0; i < e->nitems; i++)
		n += relax_count_copies(e->items[i]);
	return n;
}

static long relax_block_copies(const RxBlock *b)
{
	long n = 0;
	for (uint32_t i = 0; b && i < b->nstmts; i++)
		n += relax_count_copies(b->stmts[i]->value) +
		     relax_block_copies(b->stmts[i]->then_block) +
		     relax_block_copies(b->stmts[i]->else_block);
	return n;
}

/* device_copy calls of the planned module; R.to_vdevice ones of a
 * planned Relax module. */
static long planned_copies(Session *c)
{
	long copies = 0;
	if (session_relax_active(c)) {
		const RxModule *m = session_relax_module(c, -1);
		for (uint32_t f = 0; f < m->nfuncs; f++)
			if (m->funcs[f]->kind == RX_FUNC_RELAX)
				copies += relax_block_copies(m->funcs[f]->body);
		return copies;
	}
	ir_module_visit(session_current(c), count_copy, &copies);
	return copies;
}

static bool has_conflict(Session *c, Predicate *p)
{
	int check;
	if (session_relax_active(c))
		return relax_has_conflict(c, p);
	check = pipeline_find_flags(PHASE_REPORTS_CONFLICTS);
	session_step(c, (size_t)check + 1); /* under `policy error`, check fails */
	if (!c->trace)
		return false;
	for (size_t i = 0; i < c->trace->nconflicts; i++) {
		const PlanConflict *k = &c->trace->conflicts[i];
		int resolvable = k->home != IR_NO_DEVICE;
		if (p->value && strcmp(k->value_name, p->value) != 0)
			continue;
		if (p->resolvable < 0)
			p->resolvable = resolvable;
		if (resolvable == p->resolvable)
			return true;
	}
	return false;
}

static bool has_error(Session *c, const char *text)
{
	if (plan_all(c) || interrupt_pending())
		return false;
	for (size_t i = 0; i < c->diags.count; i++)
		if (c->diags.items[i].severity == DIAG_ERROR &&
		    strstr(c->diags.items[i].message, text))
			return true;
	return false;
}

static bool interesting(void *arg, Session *c)
{
	Predicate *p = arg;
	switch (p->kind) {
	case PRED_CONFLICT:
		return has_conflict(c, p);
	case PRED_ERROR:
		return has_error(c, p->value);
	case PRED_COPIES:
		return plan_all(c) && planned_copies(c) >= p->count;
	case PRED_COMPARE_FAIL: {
		char *argv[] = {"compare", NULL};
		StrBuf out;
		bool fail;
		if (!plan_all(c))
			return false;
		strbuf_init(&out);
		fail = cmd_capture(p->ctx, c, 1, argv, &out) != 0 && out.data &&
		       strstr(out.data, "compare: FAIL");
		strbuf_free(&out);
		return fail;
	}
	case PRED_SCRIPT: { /* run as `source` runs it */
		char *argv[] = {"source", p->value, NULL};
		StrBuf out;
		bool ok;
		strbuf_init(&out);
		ok = cmd_capture(p->ctx, c, 2, argv, &out) == 0;
		strbuf_free(&out);
		return ok;
	}
	}
	return false;
}

typedef struct Progress {
	CmdContext *ctx;
	const char *what; /* the predicate in words */
	size_t pins;
} Progress;

static void progress(void *arg, const ReduceStep *step)
{
	Progress *p = arg;
	CmdContext *ctx = p->ctx;
	if (!step->pass) {
		fprintf(ctx->out, "reducing %zu bindings while the module shows %s\n",
			step->bindings_before, p->what);
		if (p->pins)
			fprintf(ctx->out,
				"  (the %zu pin%s written into the module as annotations)\n",
				p->pins, p->pins == 1 ? "" : "s");
		fflush(ctx->out);
		return;
	}
	fprintf(ctx->out, "  %-7s %zu -> %zu binding%s, %zu -> %zu bytes (%zu test%s so far)\n",
		step->pass, step->bindings_before, step->bindings_after,
		step->bindings_after == 1 ? "" : "s", step->bytes_before, step->bytes_after,
		step->tests, step->tests == 1 ? "" : "s");
	fflush(ctx->out);
}

static bool relax_has_var(const Session *s, const char *name)
{
	const RxModule *m = session_relax_module(s, RX_PHASE_COLLECT);
	for (uint32_t v = 0; v < m->nvars; v++)
		if (strcmp(m->vars[v]->name, name) == 0)
			return true;
	return false;
}

/* PREDICATE words (argv[1..argc-1], -o FILE taken out) into p. */
static bool parse_predicate(CmdContext *ctx, int argc, char **argv, Predicate *p)
{
	int kind = argc > 1 ? prefix_match(argv[1], predicate_names,
					   sizeof predicate_names / sizeof predicate_names[0],
					   sizeof predicate_names[0])
			    : -1;
	char *end;
	if (argc < 2)
		return cmd_error(ctx, "reduce needs a predicate: conflict [%%x], error TEXT, "
				      "compare-fail, copies >= N or script FILE"),
		       false;
	if (kind == PREFIX_AMBIGUOUS) {
		StrBuf names;
		strbuf_init(&names);
		prefix_candidates(&names, argv[1], predicate_names,
				  sizeof predicate_names / sizeof predicate_names[0],
				  sizeof predicate_names[0]);
		cmd_error(ctx, "ambiguous predicate '%s': %s", argv[1], names.data);
		strbuf_free(&names);
		return false;
	}
	if (kind < 0)
		return cmd_error(ctx,
				 "unknown predicate '%s': conflict [%%x], error TEXT, "
				 "compare-fail, copies >= N or script FILE",
				 argv[1]),
		       false;
	p->kind = (PredicateKind)kind;
	switch (p->kind) {
	case PRED_CONFLICT:
		if (argc > 3)
			return cmd_error(ctx, "'reduce conflict' takes at most one value"), false;
		if (argc == 3) {
			if (argv[2][0] != '%' || !argv[2][1])
				return cmd_error(ctx, "'%s' is not a value: name one as %%x",
						 argv[2]),
				       false;
			if (session_relax_active(ctx->session)) {
				if (!relax_has_var(ctx->session, argv[2] + 1))
					return cmd_error(ctx, "no variable '%s' in the module",
							 argv[2] + 1),
					       false;
			} else if (!ir_find_value(session_version(ctx->session, -1), argv[2] + 1)) {
				StrBuf hint;
				strbuf_init(&hint);
				ir_suggest_names(session_version(ctx->session, -1), argv[2], &hint);
				cmd_error(ctx, "no value '%s' in the module%s", argv[2],
					  hint.data ? hint.data : "");
				strbuf_free(&hint);
				return false;
			}
			p->value = xstrdup(argv[2]);
		}
		return true;
	case PRED_ERROR: {
		StrBuf text;
		if (argc < 3)
			return cmd_error(ctx,
					 "'reduce error' needs the TEXT the error must contain"),
			       false;
		strbuf_init(&text);
		for (int i = 2; i < argc; i++) {
			if (i > 2)
				strbuf_putc(&text, ' ');
			strbuf_puts(&text, argv[i]);
		}
		p->value = strbuf_detach(&text);
		return true;
	}
	case PRED_COMPARE_FAIL:
		if (argc > 2)
			return cmd_error(ctx, "'reduce compare-fail' takes no arguments"), false;
		return true;
	case PRED_COPIES: {
		const char *n = NULL;
		if (argc == 4 && strcmp(argv[2], ">=") == 0)
			n = argv[3];
		else if (argc == 3 && strncmp(argv[2], ">=", 2) == 0)
			n = argv[2] + 2;
		if (!n)
			return cmd_error(ctx, "usage: reduce copies >= N"), false;
		p->count = strtol(n, &end, 10);
		if (!*n || *end || p->count < 1 || p->count > 1000000000L)
			return cmd_error(ctx, "'%s' is not a number of copies (1 or more)", n),
			       false;
		return true;
	}
	case PRED_SCRIPT: {
		char *err;
		int fd;
		if (argc != 3)
			return cmd_error(ctx, "usage: reduce script FILE"), false;
		/* read again for every candidate: a regular file, not a FIFO */
		p->value = commands_input_path(ctx, argv[2]);
		fd = file_open_read(p->value, FILE_REGULAR, NULL, &err);
		if (fd < 0) {
			cmd_error(ctx, "%s", err);
			free(err);
			free(p->value);
			p->value = NULL;
			return false;
		}
		close(fd);
		return true;
	}
	}
	return false;
}

/* Takes `-o FILE` out of argv; false after reporting a bad one. */
static bool take_output(CmdContext *ctx, int *argc, char **argv, const char **path)
{
	int j = 0;
	*path = NULL;
	for (int i = 0; i < *argc; i++) {
		if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) {
			if (i + 1 >= *argc)
				return cmd_error(ctx, "%s needs a FILE", argv[i]), false;
			if (*path)
				return cmd_error(ctx, "only one -o FILE"), false;
			*path = argv[++i];
			continue;
		}
		argv[j++] = argv[i];
	}
	*argc = j;
	argv[j] = NULL;
	return true;
}

static void describe(const Predicate *p, StrBuf *out)
{
	switch (p->kind) {
	case PRED_CONFLICT:
		if (p->value)
			strbuf_printf(out, "a conflict on %s", p->value);
		else
			strbuf_puts(out, "a conflict");
		break;
	case PRED_ERROR:
		strbuf_printf(out, "an error containing \"%s\"", p->value);
		break;
	case PRED_COMPARE_FAIL:
		strbuf_puts(out, "a failing compare");
		break;
	case PRED_COPIES:
		strbuf_printf(out, "at least %ld copies", p->count);
		break;
	case PRED_SCRIPT:
		strbuf_printf(out, "script '%s' succeeding", p->value);
		break;
	}
}

int cmd_reduce(CmdContext *ctx, int argc, char **argv)
{
	Session *s = ctx->session;
	Predicate p = {.ctx = ctx, .resolvable = -1};
	ReduceOptions o = {0};
	ReduceResult r;
	const char *path;
	char *err = NULL;
	StrBuf what;
	int status = 0;
	size_t pins;
	Progress prog;
	if (!take_output(ctx, &argc, argv, &path) || !parse_predicate(ctx, argc, argv, &p)) {
		free(p.value);
		return 1;
	}
	if (path && !file_check(path, &err)) {
		cmd_error(ctx, "%s", err);
		free(err);
		free(p.value);
		return 1;
	}
	session_pins(s, &pins);
	strbuf_init(&what);
	describe(&p, &what);
	prog = (Progress){ctx, what.data, pins};
	o.property = what.data;
	o.test = interesting;
	o.test_arg = &p;
	o.progress = progress;
	o.progress_arg = &prog;
	o.keep = p.kind == PRED_CONFLICT && p.value ? p.value + 1 : NULL;
	if (!reduce_module(s, &o, &r)) {
		cmd_print_diags(ctx, &s->diags);
		session_clear_diags(s);
		strbuf_free(&what);
		free(p.value);
		return 1;
	}
	strbuf_free(&what);
	if (r.interrupted)
		fprintf(ctx->out,
			"interrupted: the smallest module so far has %zu binding%s (of %zu), "
			"after %zu tests\n",
			r.bindings_after, r.bindings_after == 1 ? "" : "s", r.bindings_before,
			r.tests);
	else
		fprintf(ctx->out, "reduced %zu bindings to %zu in %zu tests\n", r.bindings_before,
			r.bindings_after, r.tests);
	if (path) {
		StrBuf file;
		bool ok, pending = interrupt_pending();
		strbuf_init(&file);
		/* after Ctrl-C the module so far is written all the same: the
		 * flag would stop the parse that adds its #[metadata] section */
		interrupt_clear();
		ok = reduce_standalone(s, r.text, &file);
		if (pending)
			interrupt_request();
		if (!ok) {
			status = cmd_error(ctx, "the reduced module does not load again");
		} else if (file_write_all(path, file.data, file.len, &err)) {
			fprintf(ctx->out, "wrote '%s'\n", path);
		} else {
			status = cmd_error(ctx, "%s", err);
			free(err);
		}
		strbuf_free(&file);
	} else if (r.interrupted) {
		fputs(r.text, ctx->out); /* what Ctrl-C leaves the user, in full */
	} else {
		StrBuf sb = {.data = r.text, .len = strlen(r.text), .cap = strlen(r.text) + 1};
		status = cmd_write(ctx, &sb);
	}
	reduce_result_free(&r);
	free(p.value);
	return status || r.interrupted;
}

/* reduce PREDICATE [-o FILE]: the predicates first, then what each takes
 * (a %value, `>=`, a script FILE); a file after -o. */
void cmd_complete_reduce(const Session *s, int argc, char **argv, const char *word,
			 CmdCandidates *out)
{
	const char *prev = argv[argc - 1];
	int at = 0, kind;
	if (strcmp(prev, "-o") == 0 || strcmp(prev, "--output") == 0) {
		out->files = true;
		return;
	}
	/* the predicate is the first word that is not -o FILE */
	for (int i = 1; i < argc && !at; i++) {
		if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0)
			i++;
		else
			at = i;
	}
	if (!at) {
		for (size_t k = 0; k < DP_COUNT(predicate_names); k++)
			cmd_candidates_add(out, word, predicate_names[k]);
		cmd_candidates_add(out, word, "-o");
		return;
	}
	kind = prefix_match(argv[at], predicate_names, DP_COUNT(predicate_names),
			    sizeof predicate_names[0]);
	if (at + 1 == argc && word[0] != '-') { /* the predicate's own argument */
		if (kind == PRED_CONFLICT) {
			cmd_complete_module_names(s, word[0] ? word : "%", out);
		} else if (kind == PRED_COPIES) {
			cmd_candidates_add(out, word, ">=");
		} else if (kind == PRED_SCRIPT) {
			out->files = true;
			return;
		}
	}
	cmd_candidates_add(out, word, "-o");
}
