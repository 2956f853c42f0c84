/*
 * test_relax_order.c - [P4] for Relax: devplan's copy policy is order-free.
 *
 * Any valid reordering of a module's bindings (a topological order of the
 * uses within each run of bindings, a dataflow block's and a branch's
 * included) must give the same plan under `set policy copy`: every
 * variable on the same vdevice, the same R.to_vdevice calls, the same
 * printed module up to the order of its lines, or the same error. The
 * property is checked on every module of the committed Relax corpus
 * (tests/data/relax*), each with several seeded random reorderings, so it
 * covers TVM's own test modules, the generated random ones and the models.
 * TVM's own order (`set policy tvm`) is not order-free and is not checked
 * here; tests/check-relax holds it to TVM's printed output.
 *
 * CMocka cuts a long failure message short: with DEVPLAN_ORDER_DUMP set,
 * the two plans of the first difference are written to /tmp/order-want
 * and /tmp/order-got for diff.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "relax_parse.h"
#include "relax_print.h"
#include "relax_realize.h"
#include "util.h"

enum { REORDERINGS = 4 };

/* A small deterministic generator (the reorderings are reproducible). */
static uint32_t next_random(uint64_t *state)
{
	*state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*state >> 33);
}

/* Marks in used[] every variable e reads. */
static void mark_uses(const RxExpr *e, unsigned char *used)
{
	if (!e)
		return;
	if (e->kind == RX_EXPR_VAR && e->var)
		used[e->var->id] = 1;
	for (uint32_t i = 0; i < e->nitems; i++)
		mark_uses(e->items[i], used);
	for (uint32_t i = 0; i < e->nkwargs; i++)
		mark_uses(e->kwargs[i], used);
}

static bool movable(const RxStmt *s)
{
	return s->kind == RX_STMT_BIND || s->kind == RX_STMT_MATCH;
}

/* Whether s reads a variable that one of run[0..n) binds. */
static bool depends_on_any(const RxStmt *s, RxStmt **run, uint32_t n, unsigned char *used,
			   uint32_t nvars)
{
	bool found = false;
	memset(used, 0, nvars);
	mark_uses(s->value, used);
	for (uint32_t i = 0; i < n && !found; i++)
		found = run[i] && run[i]->var && used[run[i]->var->id];
	return found;
}

/* Puts the run of movable statements run[0..n) in a random topological
 * order: at each step one statement, chosen at random, among those whose
 * operands are all bound already. */
static void shuffle_run(RxStmt **run, uint32_t n, uint64_t *state, unsigned char *used,
			uint32_t nvars)
{
	RxStmt **left = malloc(n * sizeof *left);
	uint32_t *ready = malloc(n * sizeof *ready);
	assert_non_null(left);
	assert_non_null(ready);
	memcpy(left, run, n * sizeof *left);
	for (uint32_t placed = 0; placed < n; placed++) {
		uint32_t nready = 0;
		for (uint32_t i = 0; i < n; i++)
			if (left[i] && !depends_on_any(left[i], left, n, used, nvars))
				ready[nready++] = i;
		assert_true(nready > 0);
		uint32_t pick = ready[next_random(state) % nready];
		run[placed] = left[pick];
		left[pick] = NULL;
	}
	free(left);
	free(ready);
}

static void shuffle_block(RxBlock *b, uint64_t *state, unsigned char *used, uint32_t nvars)
{
	if (!b)
		return;
	for (uint32_t i = 0; i < b->nstmts;) {
		RxStmt *s = b->stmts[i];
		if (!movable(s)) {
			shuffle_block(s->then_block, state, used, nvars);
			shuffle_block(s->else_block, state, used, nvars);
			i++;
			continue;
		}
		uint32_t end = i;
		while (end < b->nstmts && movable(b->stmts[end]))
			end++;
		shuffle_run(b->stmts + i, end - i, state, used, nvars);
		i = end;
	}
}

static void shuffle_module(RxModule *m, uint64_t seed)
{
	uint64_t state = seed;
	unsigned char *used = malloc(m->nvars ? m->nvars : 1);
	assert_non_null(used);
	for (uint32_t f = 0; f < m->nfuncs; f++)
		if (m->funcs[f]->kind == RX_FUNC_RELAX)
			shuffle_block(m->funcs[f]->body, &state, used, m->nvars);
	free(used);
}

static int compare_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The printed text with its lines sorted: equal for two orders of the
 * same bindings that plan alike. */
static char *sorted_lines(char *text)
{
	size_t n = 0, cap = 64;
	char **lines = malloc(cap * sizeof *lines);
	StrBuf sb;
	assert_non_null(lines);
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (n == cap) {
			cap *= 2;
			lines = realloc(lines, cap * sizeof *lines);
			assert_non_null(lines);
		}
		lines[n++] = line;
	}
	qsort(lines, n, sizeof *lines, compare_lines);
	strbuf_init(&sb);
	for (size_t i = 0; i < n; i++)
		strbuf_printf(&sb, "%s\n", lines[i]);
	free(lines);
	return strbuf_detach(&sb);
}

/* Writes e with every variable by its name (the canonical ones given). */
static void canonical_expr(StrBuf *sb, const RxExpr *e)
{
	if (!e) {
		strbuf_printf(sb, "_");
		return;
	}
	switch (e->kind) {
	case RX_EXPR_VAR:
		strbuf_printf(sb, "%s", e->var ? e->var->name : "?");
		return;
	case RX_EXPR_GETITEM:
		canonical_expr(sb, e->items[0]);
		strbuf_printf(sb, "[%lld]", (long long)e->index);
		return;
	case RX_EXPR_LITERAL:
		strbuf_printf(sb, "literal");
		return;
	case RX_EXPR_GLOBAL:
	case RX_EXPR_CALL:
	case RX_EXPR_TUPLE:
		strbuf_printf(sb, "%s(",
			      e->kind == RX_EXPR_TUPLE ? "tuple"
			      : e->name                ? e->name
						       : "?");
		for (uint32_t i = 0; i < e->nitems; i++) {
			canonical_expr(sb, e->items[i]);
			strbuf_printf(sb, ",");
		}
		if (e->kind == RX_EXPR_CALL && e->vdevice >= 0)
			strbuf_printf(sb, "->%d", e->vdevice);
		strbuf_printf(sb, ")");
	}
}

/* The variables the realisation made (ids past the input's) are named
 * by their definition, not by the order in which they were made: a fresh
 * name's counter follows the text, which a reordering changes. */
static void rename_fresh(RxBlock *b, uint32_t first_new, char ***names, size_t *n)
{
	if (!b)
		return;
	for (uint32_t i = 0; i < b->nstmts; i++) {
		RxStmt *s = b->stmts[i];
		rename_fresh(s->then_block, first_new, names, n);
		rename_fresh(s->else_block, first_new, names, n);
		if (s->kind != RX_STMT_BIND || !s->var || s->var->id < first_new)
			continue;
		StrBuf sb;
		strbuf_init(&sb);
		strbuf_printf(&sb, "<");
		canonical_expr(&sb, s->value);
		strbuf_printf(&sb, ">");
		*names = realloc(*names, (*n + 1) * sizeof **names);
		assert_non_null(*names);
		(*names)[(*n)++] = strbuf_detach(&sb);
		s->var->name = (*names)[*n - 1];
	}
}

/* The copy policy's plan of m: each variable's vdevice by id, then the
 * realised module's lines in sorted order, or the first error. */
static char *copy_plan(const RxModule *m)
{
	DiagList diags;
	RxRealize r;
	StrBuf sb;
	bool ok = true;
	diag_init(&diags);
	relax_realize_init(&r, m);
	r.copy_policy = true;
	while (ok && r.done < RX_PHASE_COUNT)
		ok = relax_realize_step(&r, &diags);
	strbuf_init(&sb);
	if (!ok) {
		for (size_t i = 0; i < diags.count; i++)
			if (diags.items[i].severity == DIAG_ERROR) {
				strbuf_printf(&sb, "error: %s\n", diags.items[i].message);
				break;
			}
	} else {
		StrBuf text;
		/* each variable's vdevice, by name (sorted with the lines) */
		for (uint32_t v = 0; v < m->nvars; v++)
			strbuf_printf(&sb, "%s=%d\n", m->vars[v]->name, r.known[v]);
		RxModule *out = (RxModule *)relax_realize_current(&r);
		char **names = NULL;
		size_t nnames = 0;
		for (uint32_t f = 0; f < out->nfuncs; f++)
			rename_fresh(out->funcs[f]->body, m->nvars, &names, &nnames);
		strbuf_init(&text);
		relax_print_module(&text, out);
		for (size_t i = 0; i < nnames; i++)
			free(names[i]);
		free(names);
		char *raw = strbuf_detach(&text);
		strbuf_printf(&sb, "%s", raw);
		free(raw);
		raw = strbuf_detach(&sb);
		strbuf_init(&sb);
		char *sorted = sorted_lines(raw);
		strbuf_printf(&sb, "%s", sorted);
		free(sorted);
		free(raw);
	}
	relax_realize_free(&r);
	diag_free(&diags);
	return strbuf_detach(&sb);
}

/* moved: reorderings that put some binding elsewhere (a property that
 * never moves anything proves nothing) */
typedef struct Totals {
	int modules, reorderings, moved;
} Totals;

/* The copy plan of text read back as path: variable ids follow the text's
 * order, as they would for a user's reordered file. */
static char *reread_plan(const char *path, const char *text, DiagList *diags)
{
	SourceFile *src = source_from_string(path, text, strlen(text));
	RxModule *m = relax_parse(src, diags);
	if (!m)
		fail_msg("%s: the printed module does not read back:\n%s", path, text);
	char *plan = copy_plan(m);
	relax_module_free(m);
	source_release(src);
	return plan;
}

static void check_file(const char *path, Totals *t)
{
	char *err = NULL;
	SourceFile *src = source_read(path, &err);
	DiagList diags;
	if (!src) {
		fail_msg("%s: %s", path, err ? err : "unreadable");
		return;
	}
	diag_init(&diags);
	RxModule *m = relax_parse(src, &diags);
	if (!m) { /* the corpus holds no malformed module */
		fail_msg("%s does not parse", path);
		return;
	}
	StrBuf sb0;
	strbuf_init(&sb0);
	relax_print_module(&sb0, m);
	char *printed = strbuf_detach(&sb0);
	/* through the printer too, which names shadowed variables apart */
	char *want = reread_plan(path, printed, &diags);
	free(printed);
	for (int k = 1; k <= REORDERINGS; k++) {
		char *before = NULL;
		StrBuf sb;
		strbuf_init(&sb);
		relax_print_module(&sb, m);
		before = strbuf_detach(&sb);
		shuffle_module(m, (uint64_t)k * 0x9e3779b97f4a7c15ULL);
		strbuf_init(&sb);
		relax_print_module(&sb, m);
		char *after = strbuf_detach(&sb);
		if (strcmp(before, after) != 0)
			t->moved++;
		char *got = reread_plan(path, after, &diags);
		if (strcmp(want, got) != 0 && getenv("DEVPLAN_ORDER_DUMP")) {
			FILE *f = fopen("/tmp/order-want", "w");
			fputs(want, f);
			fclose(f);
			f = fopen("/tmp/order-got", "w");
			fputs(got, f);
			fclose(f);
		}
		if (strcmp(want, got) != 0)
			fail_msg("%s: reordering %d plans differently under copy:\n--- "
				 "original order\n%s\n--- reordered\n%s\n--- reordered module\n%s",
				 path, k, want, got, after);
		free(got);
		free(after);
		free(before);
		t->reorderings++;
	}
	t->modules++;
	free(want);
	relax_module_free(m);
	diag_free(&diags);
	source_release(src);
}

static bool is_module_file(const char *name)
{
	size_t n = strlen(name);
	return n > 3 && strcmp(name + n - 3, ".py") == 0 &&
	       !(n > 10 && strcmp(name + n - 10, ".expect.py") == 0);
}

static void check_dir(const char *dir, Totals *t)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	assert_non_null(d);
	while ((e = readdir(d)))
		if (is_module_file(e->d_name)) {
			if (n == cap) {
				cap = cap ? cap * 2 : 64;
				names = realloc(names, cap * sizeof *names);
				assert_non_null(names);
			}
			names[n++] = xasprintf("%s/%s", dir, e->d_name);
		}
	closedir(d);
	qsort(names, n, sizeof *names, compare_lines);
	for (size_t i = 0; i < n; i++) {
		check_file(names[i], t);
		free(names[i]);
	}
	free(names);
}

static void test_corpus_order_free(void **state)
{
	static const char *const dirs[] = {"relax", "relax-gen", "relax-handwritten",
					   "relax-models"};
	Totals t = {0};
	(void)state;
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		char *dir = xasprintf("%s/%s", DEVPLAN_DATA_DIR, dirs[i]);
		check_dir(dir, &t);
		free(dir);
	}
	print_message("%d modules, %d reorderings, %d of them moved a binding\n", t.modules,
		      t.reorderings, t.moved);
	assert_true(t.modules >= 150);
	/* most modules have bindings that can move */
	assert_true(t.moved * 2 > t.reorderings);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_order_free),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
