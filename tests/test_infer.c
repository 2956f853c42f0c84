/*
 * test_infer.c - unit tests of the `infer` phase's walk (core/plan/infer.c):
 * lets, free variables, constants, tuples and projections, if, closures and
 * recursion, globals in dependency order, independent and positioned
 * errors, re-inference of a clone, operators used as values, TVM's dtype
 * spellings, and the shared models and cases inferred end to end. The
 * operators these tests call are building blocks (tests/op-families
 * checks that); each family's relations are tested in test_infer_F.c.
 *
 * Most modules are built by hand with the ir.h constructors, so these tests
 * do not depend on the parser: each test declares parameters with prm(),
 * builds a body with call()/let()/..., wraps it in `def @main` and infers
 * (infer_fixture.h). Results are compared as printed Relay types and errors
 * as exact message text, positioned at the offending call.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "devices.h"
#include "infer.h"
#include "ir.h"
#include "parse.h"

#include "infer_fixture.h"

static void test_op_arity(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 5));
	Expr *e = FAIL(OP_ADD, ARGS(a), NOATTRS);
	check_built_error(e, "'add' expects 2 arguments, got 1");
}

/* ---- the walk ---------------------------------------------------------- */

/* Every node reachable from the module's globals has a type. */
static void check_all_typed(void)
{
	uint8_t *seen = calloc(m->nexprs / 8 + 1, 1);
	ExprVec order = {0};
	for (uint32_t g = 0; g < m->nglobals; g++)
		ir_postorder(m, m->globals[g].fn, true, seen, &order);
	for (size_t i = 0; i < order.count; i++)
		assert_non_null(order.items[i]->type);
	exprvec_free(&order);
	free(seen);
}

static void test_let_chain(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 5, 7)), *b = prm("b", T(DT_FLOAT32, 7));
	Expr *x = ir_var(m, next_pos(), "x", VAR_LET, NULL);
	Expr *y = ir_var(m, next_pos(), "y", VAR_LET, T(DT_FLOAT32, 5, 7));
	Expr *v1 = call(OP_ADD, ARGS(a, b), NOATTRS);
	Expr *v2 = call(OP_RELU, ARGS(x), NOATTRS);
	Expr *body = call(OP_MULTIPLY, ARGS(x, y), NOATTRS);
	Expr *inner = ir_let(m, y->pos, y, v2, body);
	Expr *outer = ir_let(m, x->pos, x, v1, inner);
	assert_true(run_main(outer));
	assert_ptr_equal(x->type, v1->type);
	check_built_type(y, "Tensor[(5, 7), float32]");
	check_built_type(outer, "Tensor[(5, 7), float32]");
	check_built_type(m->globals[0].fn, "fn (Tensor[(5, 7), float32], Tensor[(7), float32]) -> "
					   "Tensor[(5, 7), float32]");
	check_all_typed();
	assert_true(m->typed);
}

static void test_let_annotation_mismatch(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 5, 7));
	Expr *x = ir_var(m, next_pos(), "x", VAR_LET, T(DT_FLOAT32, 5, 8));
	Expr *v = call(OP_RELU, ARGS(a), NOATTRS);
	Expr *body = call(OP_EXP, ARGS(x), NOATTRS);
	Expr *let_ = ir_let(m, x->pos, x, v, body);
	assert_false(run_main(let_));
	check_built_error(x, "'%x' is annotated Tensor[(5, 8), float32] but its value has type "
			     "Tensor[(5, 7), float32]");
	assert_null(x->type);
	assert_null(body->type);
	assert_null(m->globals[0].fn->type);
}

static void test_param_without_annotation(void **state)
{
	Expr *a = prm("a", NULL), *b = prm("b", T(DT_FLOAT32, 3));
	Expr *e1 = call(OP_ADD, ARGS(a, b), NOATTRS);
	Expr *e2 = call(OP_EXP, ARGS(b), NOATTRS);
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2))));
	check_built_error(a, "parameter '%a' has no type annotation");
	assert_null(e1->type);
	check_built_type(e2, "Tensor[(3), float32]");
}

static void test_free_vars(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 3));
	Expr *f = ir_var(m, next_pos(), "f", VAR_FREE, T(DT_FLOAT32, 3));
	Expr *g = ir_var(m, next_pos(), "g", VAR_FREE, NULL);
	Expr *e1 = call(OP_ADD, ARGS(a, f), NOATTRS);
	Expr *e2 = call(OP_ADD, ARGS(a, g), NOATTRS);
	m->free_vars = malloc(2 * sizeof(Expr *));
	m->free_vars[0] = f;
	m->free_vars[1] = g;
	m->nfree_vars = 2;
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2))));
	check_built_error(g, "free variable '%g' has no type annotation");
	check_built_type(e1, "Tensor[(3), float32]");
	assert_null(e2->type);
}

static void test_constants(void **state)
{
	float data[6] = {0};
	int64_t shape[2] = {2, 3};
	Tensor t = {.dtype = DT_FLOAT32, .ndim = 2, .shape = shape, .data = data, .nbytes = 24};
	Expr *a = prm("a", T(DT_FLOAT32, 2, 3));
	Expr *c = ir_constant(m, next_pos(), &t, 0);
	Expr *e = call(OP_ADD, ARGS(a, c), NOATTRS);
	m->constants = malloc(sizeof(Expr *));
	m->constants[0] = c;
	m->nconstants = 1;
	assert_true(run_main(e));
	check_built_type(c, "Tensor[(2, 3), float32]");
	check_built_type(e, "Tensor[(2, 3), float32]");
}

static void test_tuple_projection(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 3)), *b = prm("b", T(DT_INT64, 2));
	Expr *t = ir_tuple(m, next_pos(), ARGS(a, b));
	Expr *p0 = ir_proj(m, next_pos(), t, 0), *p1 = ir_proj(m, next_pos(), t, 1);
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(p1, p0))));
	check_built_type(t, "(Tensor[(3), float32], Tensor[(2), int64])");
	assert_ptr_equal(p0->type, a->type);
	assert_ptr_equal(p1->type, b->type);
}

static void test_projection_out_of_range(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 3)), *b = prm("b", T(DT_INT64, 2));
	Expr *t = ir_tuple(m, next_pos(), ARGS(a, b));
	Expr *p = ir_proj(m, next_pos(), t, 2);
	Expr *q = ir_proj(m, next_pos(), a, 0);
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(p, q))));
	assert_int_equal(diags.count, 2);
	assert_string_equal(diags.items[0].message,
			    "tuple index 2 is out of range for (Tensor[(3), float32], "
			    "Tensor[(2), int64]) (2 fields)");
	assert_int_equal(diags.items[0].pos.line, p->pos.line);
	assert_string_equal(diags.items[1].message,
			    "cannot take field 0 of Tensor[(3), float32]: it is not a tuple");
}

static void test_if(void **state)
{
	Expr *c = prm("c", S(DT_BOOL)), *a = prm("a", T(DT_FLOAT32, 3));
	Expr *t = call(OP_EXP, ARGS(a), NOATTRS), *e = call(OP_NEGATIVE, ARGS(a), NOATTRS);
	Expr *i = ir_if(m, next_pos(), c, t, e);
	assert_true(run_main(i));
	assert_ptr_equal(i->type, a->type);
}

static void test_if_branch_mismatch(void **state)
{
	Expr *c = prm("c", S(DT_BOOL)), *a = prm("a", T(DT_FLOAT32, 3));
	Expr *b = prm("b", T(DT_FLOAT32, 4));
	Expr *i = ir_if(m, next_pos(), c, a, b);
	assert_false(run_main(i));
	check_built_error(i, "if branches have different types: Tensor[(3), float32] and "
			     "Tensor[(4), float32]");
	assert_null(i->type);
}

static void test_if_condition(void **state)
{
	Expr *c = prm("c", T(DT_BOOL, 1)), *a = prm("a", T(DT_FLOAT32, 3));
	Expr *i = ir_if(m, next_pos(), c, a, a);
	assert_false(run_main(i));
	check_built_error(c, "if condition must be bool, got Tensor[(1), bool]");
}

static void test_closure_call(void **state)
{
	Type *t = T(DT_FLOAT32, 5, 7);
	Expr *a = prm("a", t);
	Expr *x = ir_var(m, next_pos(), "x", VAR_PARAM, T(DT_FLOAT32, 5, 7));
	Expr *body = call(OP_RELU, ARGS(x), NOATTRS);
	Expr *fn = ir_fn(m, next_pos(), ARGS(x), NULL, body);
	Expr *f = ir_var(m, next_pos(), "f", VAR_LET, NULL);
	Expr *c = ir_call_expr(m, next_pos(), f, ARGS(a));
	Expr *l = ir_let(m, f->pos, f, fn, c);
	assert_true(run_main(l));
	check_built_type(fn, "fn (Tensor[(5, 7), float32]) -> Tensor[(5, 7), float32]");
	assert_ptr_equal(f->type, fn->type);
	check_built_type(c, "Tensor[(5, 7), float32]");
	check_all_typed();
}

static void test_closure_call_errors(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 5, 7)), *b = prm("b", T(DT_FLOAT32, 5, 8));
	Expr *x = ir_var(m, next_pos(), "x", VAR_PARAM, T(DT_FLOAT32, 5, 7));
	Expr *fn = ir_fn(m, next_pos(), ARGS(x), T(DT_FLOAT32, 5, 7), x);
	Expr *f = ir_var(m, next_pos(), "f", VAR_LET, NULL);
	Expr *c1 = ir_call_expr(m, next_pos(), f, ARGS(a, a));
	Expr *c2 = ir_call_expr(m, next_pos(), f, ARGS(b));
	Expr *c3 = ir_call_expr(m, next_pos(), a, ARGS(b));
	Expr *l = ir_let(m, f->pos, f, fn, ir_tuple(m, next_pos(), ARGS(c1, c2, c3)));
	assert_false(run_main(l));
	assert_int_equal(diags.count, 3);
	assert_string_equal(diags.items[0].message, "'%f' expects 1 argument, got 2");
	assert_int_equal(diags.items[0].pos.line, c1->pos.line);
	assert_string_equal(diags.items[1].message,
			    "argument 1 of '%f' has type Tensor[(5, 8), float32], expected "
			    "Tensor[(5, 7), float32]");
	assert_int_equal(diags.items[1].pos.line, b->pos.line);
	assert_string_equal(
		diags.items[2].message,
		"cannot call '%a' of type Tensor[(5, 7), float32]: it is not a function");
}

static void test_closure_return_mismatch(void **state)
{
	Expr *x = ir_var(m, next_pos(), "x", VAR_PARAM, T(DT_FLOAT32, 5, 7));
	Expr *fn = ir_fn(m, next_pos(), ARGS(x), T(DT_FLOAT32, 7), x);
	Expr *f = ir_var(m, next_pos(), "f", VAR_LET, NULL);
	Expr *l = ir_let(m, f->pos, f, fn, f);
	assert_false(run_main(l));
	check_built_error(fn,
			  "'fn@11:3' is declared to return Tensor[(7), float32] but its body has "
			  "type Tensor[(5, 7), float32]");
	/* the written signature stands */
	check_built_type(fn, "fn (Tensor[(5, 7), float32]) -> Tensor[(7), float32]");
}

static void test_recursive_closure(void **state)
{
	Expr *c = prm("c", S(DT_BOOL)), *a = prm("a", T(DT_FLOAT32, 3));
	Expr *n = ir_var(m, next_pos(), "n", VAR_PARAM, T(DT_FLOAT32, 3));
	Expr *f = ir_var(m, next_pos(), "f", VAR_LET, NULL);
	Expr *rec = ir_call_expr(m, next_pos(), f, ARGS(n));
	Expr *body = ir_if(m, next_pos(), c, n, rec);
	Expr *fn = ir_fn(m, next_pos(), ARGS(n), T(DT_FLOAT32, 3), body);
	Expr *use = ir_call_expr(m, next_pos(), f, ARGS(a));
	Expr *l = ir_let(m, f->pos, f, fn, use);
	assert_true(run_main(l));
	check_built_type(use, "Tensor[(3), float32]");
	check_all_typed();
}

static void test_recursive_closure_needs_annotation(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 3));
	Expr *n = ir_var(m, next_pos(), "n", VAR_PARAM, T(DT_FLOAT32, 3));
	Expr *f = ir_var(m, next_pos(), "f", VAR_LET, NULL);
	Expr *rec = ir_call_expr(m, next_pos(), f, ARGS(n));
	Expr *fn = ir_fn(m, next_pos(), ARGS(n), NULL, rec);
	Expr *use = ir_call_expr(m, next_pos(), f, ARGS(a));
	Expr *l = ir_let(m, f->pos, f, fn, use);
	assert_false(run_main(l));
	check_built_error(f, "'%f' is used in its own definition and needs a type annotation");
}

/* Adds `def @name(%p: Tensor[(3), float32]) [-> ret] { body(p) }`. */
static Expr *global_param;
static uint32_t add_global(const char *name, Type *ret, Expr *body)
{
	Expr *fn = ir_fn(m, next_pos(), &global_param, 1, ret, body);
	return ir_add_global(m, name, fn, fn->pos);
}

static Expr *global_ref(const char *name, int32_t index)
{
	Expr *g = ir_global_ref(m, next_pos(), name);
	g->u.global.index = index;
	return g;
}

static void test_globals_in_dependency_order(void **state)
{
	/* @main calls @g, defined after it and without a return type; @g
	 * calls @h, which has one. */
	Expr *mp = ir_var(m, next_pos(), "x", VAR_PARAM, T(DT_FLOAT32, 3));
	Expr *main_body = ir_call_expr(m, next_pos(), global_ref("g", 1), &mp, 1);
	Expr *main_fn = ir_fn(m, next_pos(), &mp, 1, NULL, main_body);
	Expr *g_body, *h_body;
	ir_add_global(m, "main", main_fn, main_fn->pos);
	global_param = ir_var(m, next_pos(), "p", VAR_PARAM, T(DT_FLOAT32, 3));
	g_body = ir_call_expr(m, next_pos(), global_ref("h", 2), &global_param, 1);
	g_body = ir_tuple(m, next_pos(), &g_body, 1);
	add_global("g", NULL, g_body);
	global_param = ir_var(m, next_pos(), "q", VAR_PARAM, T(DT_FLOAT32, 3));
	h_body = call(OP_SQRT, &global_param, 1, NOATTRS);
	add_global("h", T(DT_FLOAT32, 3), h_body);
	assert_true(infer_module(m, &diags));
	check_built_type(main_body, "(Tensor[(3), float32],)");
	check_built_type(main_fn, "fn (Tensor[(3), float32]) -> (Tensor[(3), float32],)");
	check_all_typed();
}

static void test_mutual_recursion_with_return_types(void **state)
{
	Expr *g_body, *h_body;
	global_param = ir_var(m, next_pos(), "p", VAR_PARAM, T(DT_FLOAT32, 3));
	g_body = ir_call_expr(m, next_pos(), global_ref("h", 1), &global_param, 1);
	add_global("g", T(DT_FLOAT32, 3), g_body);
	global_param = ir_var(m, next_pos(), "q", VAR_PARAM, T(DT_FLOAT32, 3));
	h_body = ir_call_expr(m, next_pos(), global_ref("g", 0), &global_param, 1);
	add_global("h", T(DT_FLOAT32, 3), h_body);
	assert_true(infer_module(m, &diags));
	check_all_typed();
}

static void test_recursion_without_return_type(void **state)
{
	Expr *ref, *body, *main_body, *mp, *main_fn;
	global_param = ir_var(m, next_pos(), "p", VAR_PARAM, T(DT_FLOAT32, 3));
	ref = global_ref("loop", 0);
	body = ir_call_expr(m, next_pos(), ref, &global_param, 1);
	add_global("loop", NULL, body);
	mp = ir_var(m, next_pos(), "x", VAR_PARAM, T(DT_FLOAT32, 3));
	main_body = ir_call_expr(m, next_pos(), global_ref("loop", 0), &mp, 1);
	main_fn = ir_fn(m, next_pos(), &mp, 1, NULL, main_body);
	ir_add_global(m, "main", main_fn, main_fn->pos);
	assert_false(infer_module(m, &diags));
	check_built_error(ref,
			  "cannot infer the type of recursive '@loop': declare its return type");
	assert_null(main_body->type);
}

static void test_global_return_mismatch(void **state)
{
	global_param = ir_var(m, next_pos(), "p", VAR_PARAM, T(DT_FLOAT32, 3));
	add_global("f", T(DT_FLOAT32, 4), global_param);
	assert_false(infer_module(m, &diags));
	check_built_error(m->globals[0].fn,
			  "'@f' is declared to return Tensor[(4), float32] but its body "
			  "has type Tensor[(3), float32]");
}

static void test_unknown_global(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 3));
	Expr *g = global_ref("nope", -1);
	Expr *c = ir_call_expr(m, next_pos(), g, ARGS(a));
	assert_false(run_main(c));
	check_built_error(g, "unknown global '@nope'");
}

static void test_independent_errors(void **state)
{
	/* two unrelated mistakes are both reported; what depends on them is
	 * skipped silently; what does not is still typed */
	Expr *a = prm("a", T(DT_FLOAT32, 5, 7)), *b = prm("b", T(DT_FLOAT32, 3, 7));
	Expr *w = prm("w", T(DT_FLOAT32, 10, 6));
	Expr *e1 = call(OP_ADD, ARGS(a, b), NOATTRS);
	Expr *e2 = call(OP_RELU, ARGS(e1), NOATTRS);
	Expr *e3 = call(OP_DENSE, ARGS(a, w), NOATTRS);
	Expr *e4 = call(OP_MULTIPLY, ARGS(e2, e3), NOATTRS);
	Expr *e5 = call(OP_SIGMOID, ARGS(b), NOATTRS);
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e4, e5))));
	assert_int_equal(diags.count, 2);
	assert_int_equal(diags.items[0].pos.line, e1->pos.line);
	assert_int_equal(diags.items[1].pos.line, e3->pos.line);
	assert_null(e2->type);
	assert_null(e4->type);
	check_built_type(e5, "Tensor[(3, 7), float32]");
}

static void test_positioned_diagnostic(void **state)
{
	const char *text = "def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(3, 7), float32]) {\n"
			   "  add(%a, %b)\n"
			   "}\n";
	SourceFile *src = source_from_string("t.relay", text, strlen(text));
	IrModule *mod = ir_module_new(src);
	Expr *a = ir_var(mod, (Pos){1, 11}, "a", VAR_PARAM,
			 type_tensor(ir_data_arena(mod), DT_FLOAT32, 2, (int64_t[]){5, 7}));
	Expr *b = ir_var(mod, (Pos){1, 40}, "b", VAR_PARAM,
			 type_tensor(ir_data_arena(mod), DT_FLOAT32, 2, (int64_t[]){3, 7}));
	Expr *e = ir_call_op(mod, (Pos){2, 3}, OP_ADD, ARGS(a, b), NULL, 0);
	StrBuf sb;
	ir_add_global(mod, "main", ir_fn(mod, (Pos){1, 1}, ARGS(a, b), NULL, e), (Pos){1, 1});
	assert_false(infer_module(mod, &diags));
	strbuf_init(&sb);
	diag_format(&sb, &diags.items[0]);
	assert_non_null(strstr(sb.data, "t.relay:2:3: error: cannot broadcast operands of 'add': "
					"Tensor[(5, 7), float32] and Tensor[(3, 7), float32]"));
	assert_non_null(strstr(sb.data, "  add(%a, %b)\n"));
	strbuf_free(&sb);
	ir_module_free(mod);
	source_release(src);
}

static void test_reinfer_clone(void **state)
{
	/* the phase infers a clone; inferring it again gives the same types */
	Expr *a = prm("a", T(DT_FLOAT32, 5, 7)), *b = prm("b", T(DT_FLOAT32, 7));
	Expr *e = call(OP_ADD, ARGS(a, b), NOATTRS);
	IrModule *c;
	assert_true(run_main(e));
	c = ir_module_clone(m);
	assert_true(infer_module(c, &diags));
	assert_true(c->typed);
	assert_string_equal(type_text(c->globals[0].fn->u.fn.body->type),
			    "Tensor[(5, 7), float32]");
	ir_module_free(c);
}

/* A chain of N graph bindings %i = add(%i-1, %b) infers in one pass without
 * allocating a type per node. */
static void test_million_bindings(void **state)
{
	enum { N = 1000000 };
	Expr *a = prm("a", T(DT_FLOAT32, 5, 7)), *b = prm("b", T(DT_FLOAT32, 5, 7));
	Expr *prev = a;
	size_t before;
	struct timespec t0, t1;
	double secs;
	for (uint32_t i = 0; i < N; i++)
		prev = ir_call_op(m, (Pos){i + 2, 3}, OP_ADD, ARGS(prev, b), NULL, 0);
	before = m->nodes.used_bytes + ir_data_arena(m)->used_bytes;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_true(run_main(prev));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
	print_message("infer of %d bindings: %.3f s\n", N, secs);
	assert_ptr_equal(prev->type, a->type);
	/* the fn node and its type are all infer allocated */
	assert_true(m->nodes.used_bytes + ir_data_arena(m)->used_bytes - before < 4096);
}

/* ---- the shared models and cases, parsed ------------------------------ */

#ifndef DEVPLAN_DATA_DIR
#define DEVPLAN_DATA_DIR "data"
#endif

/* A graph binding's type as TVM printed it: the last `/ * ty=T ... * /` on a
 * line `%name = ... * /;`. */
typedef struct PrintedType {
	char *name;
	char *type;
	bool ambiguous; /* the name is bound twice with different types */
} PrintedType;

typedef struct PrintedTypes {
	PrintedType *items;
	size_t count, cap;
} PrintedTypes;

static PrintedType *printed_find(PrintedTypes *pt, const char *name)
{
	for (size_t i = 0; i < pt->count; i++)
		if (strcmp(pt->items[i].name, name) == 0)
			return &pt->items[i];
	return NULL;
}

static void printed_collect(PrintedTypes *pt, const SourceFile *src)
{
	for (uint32_t l = 1; l <= src->nlines; l++) {
		size_t len;
		const char *line = source_line(src, l, &len), *end, *ty, *stop, *p;
		char *name, *type;
		PrintedType *old;
		while (len && (line[len - 1] == ' ' || line[len - 1] == '\r'))
			len--;
		while (len && *line == ' ') {
			line++;
			len--;
		}
		if (len < 4 || line[0] != '%' || memcmp(line + len - 3, "*/;", 3) != 0)
			continue;
		end = line + len;
		for (p = line + 1; p < end && *p != ' '; p++)
			;
		if (end - p < 3 || memcmp(p, " = ", 3) != 0)
			continue;
		name = strndup(line + 1, (size_t)(p - line - 1));
		ty = NULL;
		for (const char *q = p; q + 6 <= end; q++)
			if (memcmp(q, "/* ty=", 6) == 0)
				ty = q + 6;
		if (!ty) {
			free(name);
			continue;
		}
		for (stop = ty; stop + 3 <= end; stop++)
			if (memcmp(stop, " */", 3) == 0 ||
			    (stop + 6 <= end && memcmp(stop, " span=", 6) == 0))
				break;
		type = strndup(ty, (size_t)(stop - ty));
		old = printed_find(pt, name);
		if (old) {
			if (strcmp(old->type, type) != 0)
				old->ambiguous = true;
			free(name);
			free(type);
			continue;
		}
		if (pt->count == pt->cap) {
			pt->cap = pt->cap ? 2 * pt->cap : 64;
			pt->items = realloc(pt->items, pt->cap * sizeof(PrintedType));
		}
		pt->items[pt->count++] = (PrintedType){name, type, false};
	}
}

static void printed_free(PrintedTypes *pt)
{
	for (size_t i = 0; i < pt->count; i++) {
		free(pt->items[i].name);
		free(pt->items[i].type);
	}
	free(pt->items);
}

/* Parses and infers one file; compares every graph binding's type with the
 * one TVM printed. Returns the module (the caller frees it) and the number
 * of bindings compared. */
static IrModule *infer_file(const char *path, size_t *compared)
{
	DeviceTable devices;
	char *err = NULL;
	SourceFile *src = source_read(path, &err);
	IrModule *mod;
	PrintedTypes pt = {0};
	uint8_t *seen;
	ExprVec order = {0};
	if (!src)
		fail_msg("%s: %s", path, err);
	devices_init_default(&devices);
	mod = parse_module(src, &devices, &diags);
	devices_free(&devices);
	if (!mod || diags.errors)
		diag_print_all(stderr, &diags);
	assert_non_null(mod);
	if (!infer_module(mod, &diags)) {
		diag_print_all(stderr, &diags);
		fail_msg("%s: inference failed", path);
	}
	assert_true(mod->typed);
	printed_collect(&pt, src);
	seen = calloc(mod->nexprs / 8 + 1, 1);
	for (uint32_t g = 0; g < mod->nglobals; g++)
		ir_postorder(mod, mod->globals[g].fn, true, seen, &order);
	*compared = 0;
	for (size_t i = 0; i < order.count; i++) {
		Expr *e = order.items[i];
		PrintedType *want;
		assert_non_null(e->type);
		if (!e->name || e->kind == EXPR_VAR)
			continue;
		want = printed_find(&pt, e->name);
		if (!want || want->ambiguous)
			continue;
		if (strcmp(type_text(e->type), want->type) != 0)
			fail_msg("%s: %%%s has type %s, TVM printed %s", path, e->name,
				 type_text(e->type), want->type);
		(*compared)++;
	}
	exprvec_free(&order);
	free(seen);
	printed_free(&pt);
	source_release(src);
	return mod;
}

static void infer_directory(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *ent;
	size_t files = 0;
	if (!d)
		fail_msg("cannot open %s", dir);
	while ((ent = readdir(d)) != NULL) {
		size_t n = strlen(ent->d_name), compared;
		char path[4096];
		if (n < 6 || strcmp(ent->d_name + n - 6, ".relay") != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
		ir_module_free(infer_file(path, &compared));
		print_message("%s: %zu graph bindings match TVM's types\n", ent->d_name, compared);
		files++;
	}
	closedir(d);
	assert_true(files > 0);
}

static void test_shared_models(void **state)
{
	infer_directory(DEVPLAN_DATA_DIR "/models");
}

static void test_shared_cases(void **state)
{
	infer_directory(DEVPLAN_DATA_DIR "/cases");
}

static void test_model_result_types(void **state)
{
	static const struct {
		const char *file;
		const char *result;
	} models[] = {
		{"resnet18", "Tensor[(1, 1000), float32]"},
		{"vgg11", "Tensor[(1, 1000), float32]"},
		{"mobilenet", "Tensor[(1, 1000), float32]"},
		{"squeezenet", "Tensor[(1, 1000), float32]"},
		{"dcgan", "Tensor[(1, 3, 64, 64), float32]"},
		{"mlp", "Tensor[(1, 10), float32]"},
		{"lstm", "Tensor[(1, 32), float32]"},
	};
	for (size_t i = 0; i < DP_COUNT(models); i++) {
		char path[4096];
		size_t compared;
		IrModule *mod;
		int32_t g;
		snprintf(path, sizeof path, "%s/models/%s.relay", DEVPLAN_DATA_DIR, models[i].file);
		mod = infer_file(path, &compared);
		g = ir_find_global(mod, "main");
		assert_true(g >= 0);
		assert_string_equal(type_text(mod->globals[g].fn->u.fn.body->type),
				    models[i].result);
		ir_module_free(mod);
	}
}

/* An error in parsed text points at the call, with the line and a caret. */
static void test_parsed_error(void **state)
{
	const char *text = "#[version = \"0.0.5\"]\n"
			   "def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(3, 7), float32]) {\n"
			   "  %0 = add(%a, %b);\n"
			   "  %1 = nn.relu(%0);\n"
			   "  %2 = reshape(%a, newshape=[6, 6]);\n"
			   "  (%1, %2)\n"
			   "}\n";
	SourceFile *src = source_from_string("bad.relay", text, strlen(text));
	DeviceTable devices;
	IrModule *mod;
	StrBuf sb;
	devices_init_default(&devices);
	mod = parse_module(src, &devices, &diags);
	devices_free(&devices);
	assert_non_null(mod);
	assert_false(infer_module(mod, &diags));
	assert_int_equal(diags.count, 2);
	strbuf_init(&sb);
	diag_format(&sb, &diags.items[0]);
	diag_format(&sb, &diags.items[1]);
	assert_non_null(strstr(sb.data, "bad.relay:3:8: error: cannot broadcast operands of 'add': "
					"Tensor[(5, 7), float32] and Tensor[(3, 7), float32]\n"));
	assert_non_null(strstr(sb.data, "bad.relay:5:8: error: 'reshape' cannot reshape "
					"Tensor[(5, 7), float32] (35 elements) to newshape [6, 6] "
					"(36 elements)\n"));
	strbuf_free(&sb);
	ir_module_free(mod);
	source_release(src);
}

/* TVM's dtype spellings in types: int, uint and float are 32 bits; `_`
 * (TVM's IncompleteType) on a variable says nothing; vector dtypes load
 * but do not type, a clear error. */
static void test_tvm_dtype_spellings(void **state)
{
	(void)state;
	check_type("%a: int, %b: uint, %c: float", "(%a, %b, %c)", "(int32, uint32, float32)");
	check_type("%a: Tensor[(2), int]", "let %x: _ = %a; %x", "Tensor[(2), int32]");
	check_error_at("%a: int32", "let %x: int8x4 = %a; %x", 7,
		       "devplan does not type vector dtypes yet: int8x4");
	check_error_at("%a: int32", "let %x: Tensor[(2), uint1x4] = %a; %x", 7,
		       "devplan does not type vector dtypes yet: Tensor[(2), uint1x4]");
}

/* An operator used as a value takes its type from a call of it through a
 * let (TVM instantiates its type at each call: so does the relation
 * here); one that no call types is an error. */
static void test_operator_values(void **state)
{
	(void)state;
	check_type(
		"%a: Tensor[(2, 3), float32], %b: Tensor[(3), float32]",
		"let %f = add; (%f(%a, %b), %f(%b, %b), %f)",
		"(Tensor[(2, 3), float32], Tensor[(3), float32], "
		"fn (Tensor[(2, 3), float32], Tensor[(3), float32]) -> Tensor[(2, 3), float32])");
	check_error_at("%a: float32", "(%a, nn.relu)", 8,
		       "cannot infer the type of operator 'nn.relu' used as a value: devplan types "
		       "it where it is called, directly or through a let");
	check_error_at("%a: float32", "let %f = add; %f(%a)", 17,
		       "'add' expects 2 arguments, got 1");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_op_arity),
		TEST(test_let_chain),
		TEST(test_let_annotation_mismatch),
		TEST(test_param_without_annotation),
		TEST(test_free_vars),
		TEST(test_constants),
		TEST(test_tuple_projection),
		TEST(test_projection_out_of_range),
		TEST(test_if),
		TEST(test_if_branch_mismatch),
		TEST(test_if_condition),
		TEST(test_closure_call),
		TEST(test_closure_call_errors),
		TEST(test_closure_return_mismatch),
		TEST(test_recursive_closure),
		TEST(test_recursive_closure_needs_annotation),
		TEST(test_globals_in_dependency_order),
		TEST(test_mutual_recursion_with_return_types),
		TEST(test_recursion_without_return_type),
		TEST(test_global_return_mismatch),
		TEST(test_unknown_global),
		TEST(test_independent_errors),
		TEST(test_positioned_diagnostic),
		TEST(test_reinfer_clone),
		TEST(test_million_bindings),
		TEST(test_shared_models),
		TEST(test_shared_cases),
		TEST(test_model_result_types),
		TEST(test_parsed_error),
		TEST(test_tvm_dtype_spellings),
		TEST(test_operator_values),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
