/*
 * test_infer.c - unit tests of the `infer` phase: the walk (core/plan/infer.c)
 * and every operator's type relation (core/plan/infer/).
 *
 * Modules are built by hand with the ir.h constructors, so these tests do
 * not depend on the parser: each test declares parameters with prm(),
 * builds a body with call()/let()/..., wraps it in `def @main` and infers.
 * Results are compared as printed Relay types and errors as exact message
 * text, positioned at the offending call. When the parser is linked in,
 * the shared models and cases are also parsed and inferred end to end.
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

/* ---- fixture ----------------------------------------------------------- */

static IrModule *m;
static DiagList diags;
static Expr *params[64];
static uint32_t nparams;
static uint32_t next_line;

static int setup(void **state)
{
	(void)state;
	m = ir_module_new(NULL);
	diag_init(&diags);
	nparams = 0;
	next_line = 10;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ir_module_free(m);
	diag_free(&diags);
	return 0;
}

/* ---- builders ---------------------------------------------------------- */

#define ANY DIM_ANY
#define NDIMS(...) ((uint32_t)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
#define T(dt, ...) type_tensor(ir_data_arena(m), dt, NDIMS(__VA_ARGS__), (int64_t[]){__VA_ARGS__})
#define S(dt) type_scalar(ir_data_arena(m), dt)
#define ARGS(...) \
	(Expr *[]){__VA_ARGS__}, (uint32_t)(sizeof((Expr *[]){__VA_ARGS__}) / sizeof(Expr *))
#define ATTRS(...) (Attr[]){__VA_ARGS__}, (uint32_t)(sizeof((Attr[]){__VA_ARGS__}) / sizeof(Attr))
#define NOATTRS NULL, 0
#define LIST(name, ...) attr_list_of(name, NDIMS(__VA_ARGS__), (int64_t[]){__VA_ARGS__})

static Pos next_pos(void)
{
	return (Pos){next_line++, 3};
}

/* A parameter of @main. */
static Expr *prm(const char *name, Type *t)
{
	Expr *p = ir_var(m, next_pos(), name, VAR_PARAM, t);
	assert_true(nparams < 64);
	params[nparams++] = p;
	return p;
}

static Attr attr_int(const char *name, int64_t v)
{
	Attr a = {.name = name, .value = {.kind = ATTR_INT, .u.i = v}};
	return a;
}

static Attr attr_float(const char *name, double v)
{
	Attr a = {.name = name, .value = {.kind = ATTR_FLOAT, .u.f = v}};
	return a;
}

static Attr attr_bool(const char *name, bool v)
{
	Attr a = {.name = name, .value = {.kind = ATTR_BOOL, .u.b = v}};
	return a;
}

static Attr attr_str(const char *name, const char *v)
{
	Attr a = {.name = name, .value = {.kind = ATTR_STRING, .u.s = v}};
	return a;
}

static Attr attr_none(const char *name)
{
	Attr a = {.name = name, .value = {.kind = ATTR_NONE}};
	return a;
}

static Attr attr_list_of(const char *name, uint32_t n, const int64_t *vals)
{
	Attr a = {.name = name, .value = {.kind = ATTR_LIST}};
	AttrValue *items = arena_array(ir_data_arena(m), n, sizeof(AttrValue));
	for (uint32_t i = 0; i < n; i++) {
		items[i].kind = ATTR_INT;
		items[i].u.i = vals[i];
	}
	a.value.u.list.n = n;
	a.value.u.list.items = items;
	return a;
}

static Expr *call(OpKind op, Expr *const *args, uint32_t nargs, const Attr *attrs, uint32_t nattrs)
{
	return ir_call_op(m, next_pos(), op, args, nargs, attrs, nattrs);
}

/* Wraps body in `def @main(params) { body }` and infers the module. */
static bool run_main(Expr *body)
{
	Expr *fn = ir_fn(m, (Pos){1, 1}, params, nparams, NULL, body);
	ir_add_global(m, "main", fn, (Pos){1, 1});
	return infer_module(m, &diags);
}

static const char *type_text(const Type *t)
{
	static char buf[512];
	StrBuf sb;
	strbuf_init(&sb);
	type_print(&sb, t);
	snprintf(buf, sizeof buf, "%s", sb.data ? sb.data : "");
	strbuf_free(&sb);
	return buf;
}

static void check_type(const Expr *e, const char *want)
{
	assert_string_equal(type_text(e->type), want);
}

/* Exactly one error, with this text, at this expression's position. */
static void check_error(const Expr *at, const char *want)
{
	if (diags.count != 1)
		diag_print_all(stderr, &diags);
	assert_int_equal(diags.count, 1);
	assert_int_equal(diags.errors, 1);
	assert_string_equal(diags.items[0].message, want);
	if (at) {
		assert_int_equal(diags.items[0].pos.line, at->pos.line);
		assert_int_equal(diags.items[0].pos.col, at->pos.col);
	}
	assert_false(m->typed);
}

/* Infers `op(args)` in @main; returns the call. */
static Expr *infer_call(bool expect_ok, OpKind op, Expr *const *args, uint32_t nargs,
			const Attr *attrs, uint32_t nattrs)
{
	Expr *e = call(op, args, nargs, attrs, nattrs);
	bool ok = run_main(e);
	if (ok != expect_ok)
		diag_print_all(stderr, &diags);
	assert_int_equal(ok, expect_ok);
	return e;
}

#define OK(op, args, attrs) infer_call(true, op, args, attrs)
#define FAIL(op, args, attrs) infer_call(false, op, args, attrs)

/* ---- elementwise ------------------------------------------------------- */

static void test_add_broadcast(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 5, 1)), *b = prm("b", T(DT_FLOAT32, 7));
	Expr *e = OK(OP_ADD, ARGS(a, b), NOATTRS);
	check_type(e, "Tensor[(5, 7), float32]");
	assert_true(m->typed);
}

static void test_binary_ops(void **state)
{
	static const OpKind ops[] = {OP_ADD,    OP_SUBTRACT, OP_MULTIPLY,
				     OP_DIVIDE, OP_MAXIMUM,  OP_MINIMUM};
	Expr *a = prm("a", T(DT_FLOAT32, 2, 3, 4)), *b = prm("b", T(DT_FLOAT32, 3, 1));
	Expr *calls[DP_COUNT(ops)];
	Expr *fields[DP_COUNT(ops)];
	Expr *tuple;
	for (size_t i = 0; i < DP_COUNT(ops); i++)
		fields[i] = calls[i] = call(ops[i], ARGS(a, b), NOATTRS);
	tuple = ir_tuple(m, next_pos(), fields, DP_COUNT(ops));
	assert_true(run_main(tuple));
	for (size_t i = 0; i < DP_COUNT(ops); i++) {
		check_type(calls[i], "Tensor[(2, 3, 4), float32]");
		/* equal to the first operand's type: no new Type */
		assert_ptr_equal(calls[i]->type, a->type);
	}
}

static void test_broadcast_reuses_pointer(void **state)
{
	Type *t = T(DT_FLOAT32, 5, 7);
	Expr *a = prm("a", t), *b = prm("b", T(DT_FLOAT32, 5, 7)), *c = prm("c", T(DT_FLOAT32, 7));
	Expr *e1 = call(OP_ADD, ARGS(b, a), NOATTRS);
	Expr *e2 = call(OP_MULTIPLY, ARGS(c, e1), NOATTRS);
	assert_true(run_main(e2));
	assert_ptr_equal(e1->type, b->type);
	assert_ptr_equal(e2->type, b->type);
}

static void test_broadcast_any(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, ANY, 7)), *b = prm("b", T(DT_FLOAT32, 5, 1));
	Expr *c = prm("c", T(DT_FLOAT32, 1, 7)), *d = prm("d", T(DT_FLOAT32, ANY));
	Expr *e1 = call(OP_ADD, ARGS(a, b), NOATTRS);
	Expr *e2 = call(OP_ADD, ARGS(a, c), NOATTRS);
	Expr *e3 = call(OP_ADD, ARGS(d, c), NOATTRS);
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3))));
	check_type(e1, "Tensor[(5, 7), float32]");
	check_type(e2, "Tensor[(?, 7), float32]");
	check_type(e3, "Tensor[(1, 7), float32]");
}

static void test_broadcast_error(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 5, 7)), *b = prm("b", T(DT_FLOAT32, 3, 7));
	Expr *e = FAIL(OP_ADD, ARGS(a, b), NOATTRS);
	check_error(e, "cannot broadcast operands of 'add': Tensor[(5, 7), float32] and "
		       "Tensor[(3, 7), float32]");
	assert_null(e->type);
}

static void test_dtype_mismatch(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 5, 7)), *b = prm("b", T(DT_INT32, 5, 7));
	Expr *e = FAIL(OP_SUBTRACT, ARGS(a, b), NOATTRS);
	check_error(e, "operands of 'subtract' have different dtypes: Tensor[(5, 7), float32] and "
		       "Tensor[(5, 7), int32]");
}

static void test_binary_on_tuple(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 5)),
	     *t = prm("t", type_tuple(ir_data_arena(m), 1, &a->type));
	Expr *e = FAIL(OP_MAXIMUM, ARGS(a, t), NOATTRS);
	check_error(e, "'maximum' expects tensor operands, got Tensor[(5), float32] and "
		       "(Tensor[(5), float32],)");
}

static void test_unary_ops(void **state)
{
	static const OpKind ops[] = {OP_NEGATIVE, OP_EXP,  OP_LOG,        OP_SQRT,     OP_TANH,
				     OP_SIGMOID,  OP_RELU, OP_ZEROS_LIKE, OP_ONES_LIKE};
	Expr *a = prm("a", T(DT_FLOAT32, 2, ANY));
	Expr *fields[DP_COUNT(ops) + 1];
	for (size_t i = 0; i < DP_COUNT(ops); i++)
		fields[i] = call(ops[i], ARGS(a), NOATTRS);
	fields[DP_COUNT(ops)] =
		call(OP_CLIP, ARGS(a), ATTRS(attr_float("a_min", 0), attr_float("a_max", 6)));
	assert_true(run_main(ir_tuple(m, next_pos(), fields, DP_COUNT(fields))));
	for (size_t i = 0; i < DP_COUNT(fields); i++)
		assert_ptr_equal(fields[i]->type, a->type);
}

static void test_unary_needs_float(void **state)
{
	Expr *a = prm("a", T(DT_INT32, 5));
	Expr *ok = call(OP_NEGATIVE, ARGS(a), NOATTRS);
	Expr *bad = call(OP_EXP, ARGS(ok), NOATTRS);
	assert_false(run_main(bad));
	check_error(bad, "'exp' expects a floating-point tensor, got Tensor[(5), int32]");
	check_type(ok, "Tensor[(5), int32]");
}

/* ---- matrix products --------------------------------------------------- */

static void test_dense(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 784)), *w = prm("w", T(DT_FLOAT32, 128, 784));
	Expr *x3 = prm("x3", T(DT_FLOAT32, 2, 3, 784)), *wa = prm("wa", T(DT_FLOAT32, ANY, 784));
	Expr *e1 = call(OP_DENSE, ARGS(x, w), ATTRS(attr_int("units", 128)));
	Expr *e2 =
		call(OP_DENSE, ARGS(x3, w), ATTRS(attr_none("units"), attr_str("out_dtype", "")));
	Expr *e3 = call(OP_DENSE, ARGS(x, wa), ATTRS(attr_int("units", 10)));
	Expr *e4 = call(OP_DENSE, ARGS(x, w), ATTRS(attr_str("out_dtype", "float64")));
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4))));
	check_type(e1, "Tensor[(1, 128), float32]");
	check_type(e2, "Tensor[(2, 3, 128), float32]");
	check_type(e3, "Tensor[(1, 10), float32]");
	check_type(e4, "Tensor[(1, 128), float64]");
}

static void test_dense_mismatch(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 784)), *w = prm("w", T(DT_FLOAT32, 128, 783));
	Expr *e = FAIL(OP_DENSE, ARGS(x, w), ATTRS(attr_int("units", 128)));
	check_error(e, "'nn.dense' expects weight of shape (units, 784), got "
		       "Tensor[(128, 783), float32]");
}

static void test_dense_units_mismatch(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 784)), *w = prm("w", T(DT_FLOAT32, 128, 784));
	Expr *e = FAIL(OP_DENSE, ARGS(x, w), ATTRS(attr_int("units", 64)));
	check_error(e, "'nn.dense' attribute units=64 does not match weight "
		       "Tensor[(128, 784), float32]");
}

static void test_batch_matmul(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 2, 3, 4)), *y = prm("y", T(DT_FLOAT32, 2, 5, 4));
	Expr *x1 = prm("x1", T(DT_FLOAT32, 1, 3, 4)), *y6 = prm("y6", T(DT_FLOAT32, 6, 5, 4));
	Expr *yn = prm("yn", T(DT_FLOAT32, 2, 4, 5)), *xt = prm("xt", T(DT_FLOAT32, 2, 4, 3));
	/* transpose_b defaults to false, as BatchMatmulAttrs has it */
	Expr *e1 = call(OP_BATCH_MATMUL, ARGS(x, y), ATTRS(attr_bool("transpose_b", true)));
	Expr *e2 = call(OP_BATCH_MATMUL, ARGS(x1, y6), ATTRS(attr_bool("transpose_b", true)));
	Expr *e3 = call(OP_BATCH_MATMUL, ARGS(x, yn), NOATTRS);
	Expr *e4 = call(OP_BATCH_MATMUL, ARGS(xt, y),
			ATTRS(attr_bool("transpose_a", true), attr_bool("transpose_b", true)));
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4))));
	check_type(e1, "Tensor[(2, 3, 5), float32]");
	check_type(e2, "Tensor[(6, 3, 5), float32]");
	check_type(e3, "Tensor[(2, 3, 5), float32]");
	check_type(e4, "Tensor[(2, 3, 5), float32]");
}

static void test_batch_matmul_mismatch(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 2, 3, 4)), *y = prm("y", T(DT_FLOAT32, 2, 5, 4));
	Expr *e = FAIL(OP_BATCH_MATMUL, ARGS(x, y), NOATTRS);
	check_error(e, "'nn.batch_matmul' reduction dimensions do not match: "
		       "Tensor[(2, 3, 4), float32] and Tensor[(2, 5, 4), float32] "
		       "(transpose_a=False, transpose_b=False)");
}

static void test_batch_matmul_batch(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 2, 3, 4)), *y = prm("y", T(DT_FLOAT32, 3, 4, 5));
	Expr *e = FAIL(OP_BATCH_MATMUL, ARGS(x, y), NOATTRS);
	check_error(e, "batch dimensions of 'nn.batch_matmul' do not broadcast: "
		       "Tensor[(2, 3, 4), float32] and Tensor[(3, 4, 5), float32]");
}

/* ---- bias_add, softmax, reductions ------------------------------------- */

static void test_bias_add(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 64, 56, 56)), *b = prm("b", T(DT_FLOAT32, 64));
	Expr *y = prm("y", T(DT_FLOAT32, 1, 128)), *c = prm("c", T(DT_FLOAT32, 128));
	Expr *e1 = call(OP_BIAS_ADD, ARGS(x, b), NOATTRS);
	Expr *e2 = call(OP_BIAS_ADD, ARGS(y, c), ATTRS(attr_int("axis", -1)));
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2))));
	assert_ptr_equal(e1->type, x->type);
	assert_ptr_equal(e2->type, y->type);
}

static void test_bias_add_mismatch(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 64, 56, 56)), *b = prm("b", T(DT_FLOAT32, 56));
	Expr *e = FAIL(OP_BIAS_ADD, ARGS(x, b), NOATTRS);
	check_error(e, "'nn.bias_add' bias Tensor[(56), float32] does not match axis 1 of "
		       "Tensor[(1, 64, 56, 56), float32]");
}

static void test_bias_add_axis_range(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 64)), *b = prm("b", T(DT_FLOAT32, 64));
	Expr *e = FAIL(OP_BIAS_ADD, ARGS(x, b), ATTRS(attr_int("axis", 2)));
	check_error(e, "'nn.bias_add' axis 2 is out of range for Tensor[(1, 64), float32]");
}

static void test_softmax(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 1000));
	Expr *e1 = call(OP_SOFTMAX, ARGS(x), NOATTRS);
	Expr *e2 = call(OP_SOFTMAX, ARGS(x), ATTRS(attr_int("axis", 0)));
	Expr *e3 = call(OP_SOFTMAX, ARGS(x), ATTRS(attr_int("axis", -3)));
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3))));
	check_error(e3, "'nn.softmax' axis -3 is out of range for Tensor[(1, 1000), float32]");
	assert_ptr_equal(e1->type, x->type);
	assert_ptr_equal(e2->type, x->type);
}

static void test_reductions(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 2, 3, 4));
	Expr *e1 = call(OP_SUM, ARGS(x), ATTRS(attr_int("axis", 1)));
	Expr *e2 = call(OP_SUM, ARGS(x), ATTRS(attr_int("axis", 1), attr_bool("keepdims", true)));
	Expr *e3 = call(OP_MEAN, ARGS(x), ATTRS(LIST("axis", 1), attr_bool("exclude", true)));
	Expr *e4 = call(OP_MAX, ARGS(x), NOATTRS);
	Expr *e5 = call(OP_MAX, ARGS(x), ATTRS(attr_none("axis"), attr_bool("keepdims", true)));
	Expr *e6 = call(OP_MEAN, ARGS(x), ATTRS(LIST("axis", 0, -1)));
	Expr *e7 = call(OP_SUM, ARGS(x), ATTRS(LIST("axis")));
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4, e5, e6, e7))));
	check_type(e1, "Tensor[(2, 4), float32]");
	check_type(e2, "Tensor[(2, 1, 4), float32]");
	check_type(e3, "Tensor[(3), float32]");
	check_type(e4, "float32");
	check_type(e5, "Tensor[(1, 1, 1), float32]");
	check_type(e6, "Tensor[(3), float32]");
	/* TVM's GetReduceAxes: an empty axis list reduces every axis */
	check_type(e7, "float32");
}

static void test_reduction_errors(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 2, 3, 4));
	Expr *e1 = call(OP_SUM, ARGS(x), ATTRS(LIST("axis", 1, -2)));
	Expr *e2 = call(OP_MEAN, ARGS(x), ATTRS(attr_int("axis", 3)));
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2))));
	assert_int_equal(diags.count, 2);
	assert_string_equal(diags.items[0].message, "'sum' axis=[1, -2] names axis 1 twice");
	assert_string_equal(diags.items[1].message,
			    "'mean' axis 3 is out of range for Tensor[(2, 3, 4), float32]");
}

/* ---- reshape, transpose, concatenate ----------------------------------- */

static void test_reshape(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 16384)), *y = prm("y", T(DT_FLOAT32, 2, 3, 4));
	Expr *z = prm("z", T(DT_FLOAT32, 6, 4)), *u = prm("u", T(DT_FLOAT32, ANY, 4));
	Expr *e1 = call(OP_RESHAPE, ARGS(x), ATTRS(LIST("newshape", -1, 1024, 4, 4)));
	Expr *e2 = call(OP_RESHAPE, ARGS(y), ATTRS(LIST("newshape", 0, -1)));
	Expr *e3 = call(OP_RESHAPE, ARGS(y), ATTRS(LIST("newshape", 2, -2)));
	Expr *e4 = call(OP_RESHAPE, ARGS(y), ATTRS(LIST("newshape", -3, 4)));
	Expr *e5 = call(OP_RESHAPE, ARGS(z), ATTRS(LIST("newshape", -4, 2, -1, 4)));
	Expr *e6 = call(OP_RESHAPE, ARGS(u), ATTRS(LIST("newshape", -1)));
	Expr *e7 = call(OP_RESHAPE, ARGS(y), ATTRS(LIST("newshape", 24)));
	Expr *e8 = call(OP_RESHAPE, ARGS(y), ATTRS(LIST("newshape", 0, 0, 0)));
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4, e5, e6, e7, e8))));
	check_type(e1, "Tensor[(1, 1024, 4, 4), float32]");
	check_type(e2, "Tensor[(2, 12), float32]");
	check_type(e3, "Tensor[(2, 3, 4), float32]");
	check_type(e4, "Tensor[(6, 4), float32]");
	check_type(e5, "Tensor[(2, 3, 4), float32]");
	check_type(e6, "Tensor[(?), float32]");
	check_type(e7, "Tensor[(24), float32]");
	assert_ptr_equal(e8->type, y->type);
}

static void test_reshape_count_mismatch(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 5, 7));
	Expr *e = FAIL(OP_RESHAPE, ARGS(x), ATTRS(LIST("newshape", 6, 6)));
	check_error(e, "'reshape' cannot reshape Tensor[(5, 7), float32] (35 elements) to "
		       "newshape [6, 6] (36 elements)");
}

static void test_reshape_errors(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 5, 7));
	Expr *e1 = call(OP_RESHAPE, ARGS(x), ATTRS(LIST("newshape", -1, -1)));
	Expr *e2 = call(OP_RESHAPE, ARGS(x), ATTRS(LIST("newshape", -1, 6)));
	Expr *e3 = call(OP_RESHAPE, ARGS(x), ATTRS(LIST("newshape", 0, 0, 0)));
	Expr *e4 = call(OP_RESHAPE, ARGS(x), ATTRS(LIST("newshape", -5)));
	Expr *e5 = call(OP_RESHAPE, ARGS(x), NOATTRS);
	Expr *e6 = call(OP_RESHAPE, ARGS(x), ATTRS(LIST("newshape", INT64_MAX, INT64_MAX, 2)));
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4, e5, e6))));
	assert_int_equal(diags.count, 6);
	assert_string_equal(diags.items[0].message,
			    "'reshape' newshape [-1, -1] has more than one -1");
	assert_string_equal(diags.items[1].message,
			    "'reshape' cannot reshape Tensor[(5, 7), float32] (35 elements) to "
			    "newshape [-1, 6]");
	assert_string_equal(diags.items[2].message,
			    "'reshape' newshape [0, 0, 0] copies dimension 2 of "
			    "Tensor[(5, 7), float32], which has only 2");
	assert_string_equal(diags.items[3].message, "'reshape' newshape [-5] has invalid value -5");
	assert_string_equal(diags.items[4].message, "'reshape' needs a newshape attribute");
	assert_string_equal(diags.items[5].message,
			    "'reshape' newshape [9223372036854775807, 9223372036854775807, 2] has "
			    "more elements than int64 can count");
}

static void test_transpose(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 2, 3, 4));
	Expr *e1 = call(OP_TRANSPOSE, ARGS(x), NOATTRS);
	Expr *e2 = call(OP_TRANSPOSE, ARGS(x), ATTRS(LIST("axes", 0, 2, 1)));
	Expr *e3 = call(OP_TRANSPOSE, ARGS(x), ATTRS(LIST("axes", -1, 0, 1)));
	Expr *e4 = call(OP_TRANSPOSE, ARGS(x), ATTRS(LIST("axes", 0, 1, 2)));
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4))));
	check_type(e1, "Tensor[(4, 3, 2), float32]");
	check_type(e2, "Tensor[(2, 4, 3), float32]");
	check_type(e3, "Tensor[(4, 2, 3), float32]");
	assert_ptr_equal(e4->type, x->type);
}

static void test_transpose_errors(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 2, 3, 4));
	Expr *e1 = call(OP_TRANSPOSE, ARGS(x), ATTRS(LIST("axes", 0, 2, 2)));
	Expr *e2 = call(OP_TRANSPOSE, ARGS(x), ATTRS(LIST("axes", 1, 0)));
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2))));
	assert_int_equal(diags.count, 2);
	assert_string_equal(diags.items[0].message,
			    "'transpose' axes=[0, 2, 2] is not a permutation");
	assert_string_equal(diags.items[1].message,
			    "'transpose' axes=[1, 0] do not match the 3 dimensions of "
			    "Tensor[(2, 3, 4), float32]");
}

static void test_concatenate(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 1, 2, 3)), *b = prm("b", T(DT_FLOAT32, 1, 5, 3));
	Expr *c = prm("c", T(DT_FLOAT32, 1, 2, 4)), *d = prm("d", T(DT_FLOAT32, ANY, 2, ANY));
	Expr *e1 = call(OP_CONCATENATE, ARGS(ir_tuple(m, next_pos(), ARGS(a, b))),
			ATTRS(attr_int("axis", 1)));
	Expr *e2 = call(OP_CONCATENATE, ARGS(ir_tuple(m, next_pos(), ARGS(a, c, a))),
			ATTRS(attr_int("axis", -1)));
	Expr *e3 = call(OP_CONCATENATE, ARGS(ir_tuple(m, next_pos(), ARGS(d, a))), NOATTRS);
	Expr *e4 = call(OP_CONCATENATE, ARGS(ir_tuple(m, next_pos(), ARGS(a))), NOATTRS);
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4))));
	check_type(e1, "Tensor[(1, 7, 3), float32]");
	check_type(e2, "Tensor[(1, 2, 10), float32]");
	check_type(e3, "Tensor[(?, 2, 3), float32]");
	assert_ptr_equal(e4->type, a->type);
}

static void test_concatenate_errors(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 1, 2, 3)), *b = prm("b", T(DT_FLOAT32, 1, 5, 3));
	Expr *c = prm("c", T(DT_FLOAT32, 1, 2));
	Expr *e1 = call(OP_CONCATENATE, ARGS(ir_tuple(m, next_pos(), ARGS(a, b))),
			ATTRS(attr_int("axis", 2)));
	Expr *e2 = call(OP_CONCATENATE, ARGS(ir_tuple(m, next_pos(), ARGS(a, c))), NOATTRS);
	Expr *e3 = call(OP_CONCATENATE, ARGS(a), NOATTRS);
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3))));
	assert_int_equal(diags.count, 3);
	assert_string_equal(diags.items[0].message,
			    "'concatenate' fields 0 and 1 differ outside axis 2: "
			    "Tensor[(1, 2, 3), float32] and Tensor[(1, 5, 3), float32]");
	assert_string_equal(diags.items[1].message,
			    "'concatenate' fields 0 and 1 differ in rank or dtype: "
			    "Tensor[(1, 2, 3), float32] and Tensor[(1, 2), float32]");
	assert_string_equal(diags.items[2].message,
			    "'concatenate' expects a non-empty tuple of tensors, got "
			    "Tensor[(1, 2, 3), float32]");
}

/* ---- convolution and pooling ------------------------------------------- */

static void test_conv2d(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 3, 224, 224)),
	     *w = prm("w", T(DT_FLOAT32, 64, 3, 7, 7));
	Expr *y = prm("y", T(DT_FLOAT32, 1, 32, 112, 112)),
	     *dw = prm("dw", T(DT_FLOAT32, 32, 1, 3, 3));
	Expr *s = prm("s", T(DT_FLOAT32, 1, 3, 10, 10)), *k = prm("k", T(DT_FLOAT32, 4, 3, 3, 3));
	Expr *e1 = call(OP_CONV2D, ARGS(x, w),
			ATTRS(LIST("strides", 2, 2), LIST("padding", 3, 3, 3, 3),
			      attr_int("channels", 64), LIST("kernel_size", 7, 7)));
	Expr *e2 = call(OP_CONV2D, ARGS(y, dw),
			ATTRS(LIST("padding", 1, 1, 1, 1), attr_int("groups", 32),
			      attr_int("channels", 32), LIST("kernel_size", 3, 3)));
	Expr *e3 = call(OP_CONV2D, ARGS(s, k), ATTRS(LIST("dilation", 2, 2)));
	Expr *e4 = call(OP_CONV2D, ARGS(s, k),
			ATTRS(LIST("padding", 1, 2), LIST("strides", 2),
			      attr_str("data_layout", "NCHW"), attr_str("kernel_layout", "OIHW"),
			      attr_str("out_layout", ""), attr_str("out_dtype", "")));
	Expr *e5 = call(OP_CONV2D, ARGS(s, k), ATTRS(LIST("padding", 1, 0, 0, 0)));
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4, e5))));
	check_type(e1, "Tensor[(1, 64, 112, 112), float32]");
	assert_ptr_equal(e2->type, y->type);
	check_type(e3, "Tensor[(1, 4, 6, 6), float32]");
	check_type(e4, "Tensor[(1, 4, 5, 6), float32]");
	check_type(e5, "Tensor[(1, 4, 9, 8), float32]");
}

static void test_conv2d_channels(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 3, 224, 224)),
	     *w = prm("w", T(DT_FLOAT32, 64, 4, 3, 3));
	Expr *e = FAIL(OP_CONV2D, ARGS(x, w), NOATTRS);
	check_error(e, "'nn.conv2d' channel mismatch: data Tensor[(1, 3, 224, 224), float32] has 3 "
		       "channels, weight Tensor[(64, 4, 3, 3), float32] expects 4 (groups=1)");
}

static void test_conv2d_errors(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 3, 8, 8)), *w = prm("w", T(DT_FLOAT32, 16, 3, 3, 3));
	Expr *big = prm("big", T(DT_FLOAT32, 16, 3, 11, 11)), *v = prm("v", T(DT_FLOAT32, 3, 8));
	Expr *e1 = call(OP_CONV2D, ARGS(x, w), ATTRS(attr_int("channels", 8)));
	Expr *e2 = call(OP_CONV2D, ARGS(x, w), ATTRS(LIST("kernel_size", 5, 5)));
	Expr *e3 = call(OP_CONV2D, ARGS(x, big), NOATTRS);
	Expr *e4 = call(OP_CONV2D, ARGS(x, w), ATTRS(LIST("strides", 0, 1)));
	Expr *e5 = call(OP_CONV2D, ARGS(x, w), ATTRS(attr_str("data_layout", "NCHW4c")));
	Expr *e6 = call(OP_CONV2D, ARGS(x, w), ATTRS(attr_int("groups", 2)));
	Expr *e7 = call(OP_CONV2D, ARGS(v, w), NOATTRS);
	Expr *e8 = call(OP_CONV2D, ARGS(x, w), ATTRS(LIST("padding", INT64_MAX, 0)));
	Expr *e9 = call(OP_CONV2D, ARGS(x, w), ATTRS(LIST("padding", 1, 2, 3)));
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4, e5, e6, e7, e8, e9))));
	assert_int_equal(diags.count, 9);
	assert_string_equal(diags.items[0].message,
			    "'nn.conv2d' attribute channels=8 does not match weight "
			    "Tensor[(16, 3, 3, 3), float32]");
	assert_string_equal(diags.items[1].message,
			    "'nn.conv2d' attribute kernel_size=[5, 5] does not match weight "
			    "Tensor[(16, 3, 3, 3), float32]");
	assert_string_equal(diags.items[2].message,
			    "'nn.conv2d' window of 11 (dilated) is larger than the padded input "
			    "height of 8");
	assert_string_equal(diags.items[3].message,
			    "'nn.conv2d' attribute strides=[0, 1] must be at least 1");
	assert_string_equal(diags.items[4].message,
			    "'nn.conv2d' does not support data_layout=\"NCHW4c\" (a permutation "
			    "of NCHW is expected)");
	assert_string_equal(diags.items[5].message,
			    "'nn.conv2d' data Tensor[(1, 3, 8, 8), float32] has 3 channels, not "
			    "divisible by groups=2");
	assert_string_equal(diags.items[6].message,
			    "'nn.conv2d' expects 4-D data and weight (NCHW and OIHW), got "
			    "Tensor[(3, 8), float32] and Tensor[(16, 3, 3, 3), float32]");
	assert_string_equal(diags.items[7].message, "'nn.conv2d' output height overflows");
	assert_string_equal(diags.items[8].message,
			    "'nn.conv2d' attribute padding=[1, 2, 3] must have 1, 2 or 4 values");
	for (size_t i = 0; i < diags.count; i++)
		assert_int_equal(diags.items[i].pos.line, e1->pos.line + i);
}

static void test_conv2d_transpose(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 1024, 4, 4));
	Expr *w = prm("w", T(DT_FLOAT32, 1024, 512, 4, 4));
	Expr *g = prm("g", T(DT_FLOAT32, 1024, 8, 3, 3));
	Expr *e1 = call(OP_CONV2D_TRANSPOSE, ARGS(x, w),
			ATTRS(attr_int("channels", 512), LIST("kernel_size", 4, 4),
			      LIST("strides", 2, 2), LIST("padding", 1, 1, 1, 1)));
	Expr *e2 = call(OP_CONV2D_TRANSPOSE, ARGS(x, w),
			ATTRS(LIST("strides", 2, 2), LIST("padding", 1, 1, 1, 1),
			      LIST("output_padding", 1, 1), attr_str("kernel_layout", "OIHW")));
	Expr *e3 = call(OP_CONV2D_TRANSPOSE, ARGS(x, g),
			ATTRS(attr_int("groups", 4), attr_int("channels", 32)));
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3))));
	check_type(e1, "Tensor[(1, 512, 8, 8), float32]");
	check_type(e2, "Tensor[(1, 512, 9, 9), float32]");
	check_type(e3, "Tensor[(1, 32, 6, 6), float32]");
}

static void test_conv2d_transpose_errors(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 512, 4, 4));
	Expr *w = prm("w", T(DT_FLOAT32, 1024, 512, 4, 4));
	Expr *k = prm("k", T(DT_FLOAT32, 512, 3, 1, 1));
	Expr *e1 = call(OP_CONV2D_TRANSPOSE, ARGS(x, w), NOATTRS);
	Expr *e2 = call(OP_CONV2D_TRANSPOSE, ARGS(x, k), ATTRS(LIST("padding", 3, 3)));
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2))));
	assert_int_equal(diags.count, 2);
	assert_string_equal(diags.items[0].message,
			    "'nn.conv2d_transpose' channel mismatch: data "
			    "Tensor[(1, 512, 4, 4), float32] has 512 channels, weight "
			    "Tensor[(1024, 512, 4, 4), float32] expects 1024");
	assert_string_equal(diags.items[1].message,
			    "'nn.conv2d_transpose' output height would be -2");
}

static void test_pooling(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 64, 112, 112)),
	     *y = prm("y", T(DT_FLOAT32, 1, 8, 7, 7));
	Expr *e1 = call(
		OP_MAX_POOL2D, ARGS(x),
		ATTRS(LIST("pool_size", 3, 3), LIST("strides", 2, 2), LIST("padding", 1, 1, 1, 1)));
	Expr *e2 = call(OP_MAX_POOL2D, ARGS(x),
			ATTRS(LIST("pool_size", 3, 3), LIST("strides", 2, 2),
			      attr_bool("ceil_mode", true)));
	Expr *e3 =
		call(OP_MAX_POOL2D, ARGS(x), ATTRS(LIST("pool_size", 3, 3), LIST("strides", 2, 2)));
	Expr *e4 =
		call(OP_AVG_POOL2D, ARGS(y), ATTRS(LIST("pool_size", 2, 2), LIST("strides", 2, 2)));
	Expr *e5 = call(OP_AVG_POOL2D, ARGS(y),
			ATTRS(LIST("pool_size", 2), LIST("strides", 2, 2),
			      attr_bool("ceil_mode", true), attr_bool("count_include_pad", false),
			      attr_str("layout", "NCHW")));
	Expr *e6 = call(OP_GLOBAL_AVG_POOL2D, ARGS(x), NOATTRS);
	Expr *e7 = call(OP_MAX_POOL2D, ARGS(x), ATTRS(LIST("pool_size", 1, 1)));
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4, e5, e6, e7))));
	check_type(e1, "Tensor[(1, 64, 56, 56), float32]");
	check_type(e2, "Tensor[(1, 64, 56, 56), float32]");
	check_type(e3, "Tensor[(1, 64, 55, 55), float32]");
	check_type(e4, "Tensor[(1, 8, 3, 3), float32]");
	check_type(e5, "Tensor[(1, 8, 4, 4), float32]");
	check_type(e6, "Tensor[(1, 64, 1, 1), float32]");
	assert_ptr_equal(e7->type, x->type);
}

/* Other layouts than NCHW (and OIHW, IOHW), as TVM's relations convert
 * them: the extents are read where the layout puts them and the output is
 * in out_layout, or the data's layout when it is empty. */
static void test_window_layouts(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 8, 8, 3)),
	     *hwio = prm("hwio", T(DT_FLOAT32, 3, 3, 3, 16));
	Expr *t = prm("t", T(DT_FLOAT32, 3, 3, 6, 3));
	Expr *e1 = call(OP_CONV2D, ARGS(x, hwio),
			ATTRS(LIST("strides", 2, 1), LIST("padding", 1, 1),
			      attr_str("data_layout", "NHWC"), attr_str("kernel_layout", "HWIO")));
	Expr *e2 = call(OP_CONV2D, ARGS(x, hwio),
			ATTRS(attr_str("data_layout", "NHWC"), attr_str("kernel_layout", "HWIO"),
			      attr_str("out_layout", "NCHW")));
	Expr *e3 = call(OP_CONV2D_TRANSPOSE, ARGS(x, t),
			ATTRS(LIST("strides", 2, 2), attr_str("data_layout", "NHWC"),
			      attr_str("kernel_layout", "HWOI")));
	Expr *e4 = call(
		OP_MAX_POOL2D, ARGS(x),
		ATTRS(LIST("pool_size", 2, 2), LIST("strides", 2, 2), attr_str("layout", "NHWC")));
	Expr *e5 = call(OP_AVG_POOL2D, ARGS(x),
			ATTRS(LIST("pool_size", 3, 1), attr_str("layout", "NHWC"),
			      attr_str("out_layout", "NCHW")));
	Expr *e6 = call(OP_GLOBAL_AVG_POOL2D, ARGS(x), ATTRS(attr_str("layout", "NHWC")));
	Expr *e7 = call(OP_CONV2D, ARGS(x, hwio),
			ATTRS(attr_str("data_layout", "NHWC"), attr_str("kernel_layout", "OIHW")));
	(void)state;
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4, e5, e6, e7))));
	check_type(e1, "Tensor[(1, 4, 8, 16), float32]");
	check_type(e2, "Tensor[(1, 16, 6, 6), float32]");
	check_type(e3, "Tensor[(1, 17, 17, 6), float32]");
	check_type(e4, "Tensor[(1, 4, 4, 3), float32]");
	check_type(e5, "Tensor[(1, 3, 6, 8), float32]");
	check_type(e6, "Tensor[(1, 1, 1, 3), float32]");
	/* an HWIO weight read as OIHW: a 3x16 kernel */
	assert_int_equal(diags.count, 1);
	assert_string_equal(diags.items[0].message,
			    "'nn.conv2d' window of 16 (dilated) is larger than the padded input "
			    "width of 8");
}

static void test_pooling_errors(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 64, 4, 4)), *v = prm("v", T(DT_FLOAT32, 64, 4, 4));
	Expr *e1 = call(OP_MAX_POOL2D, ARGS(x), NOATTRS);
	Expr *e2 = call(OP_AVG_POOL2D, ARGS(x), ATTRS(LIST("pool_size", 5, 5)));
	Expr *e3 = call(OP_GLOBAL_AVG_POOL2D, ARGS(v), NOATTRS);
	Expr *e4 = call(OP_MAX_POOL2D, ARGS(x),
			ATTRS(LIST("pool_size", 2, 2), attr_str("layout", "NCHW4c")));
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4))));
	assert_int_equal(diags.count, 4);
	assert_string_equal(diags.items[0].message, "'nn.max_pool2d' needs a pool_size attribute");
	assert_string_equal(diags.items[1].message,
			    "'nn.avg_pool2d' window of 5 (dilated) is larger than the padded input "
			    "height of 4");
	assert_string_equal(diags.items[2].message,
			    "'nn.global_avg_pool2d' expects 4-D NCHW data, got "
			    "Tensor[(64, 4, 4), float32]");
	assert_string_equal(diags.items[3].message,
			    "'nn.max_pool2d' does not support layout=\"NCHW4c\" (a permutation of "
			    "NCHW is expected)");
}

/* ---- flatten, expand_dims, squeeze, split ------------------------------ */

static void test_batch_flatten(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 512, 7, 7)), *y = prm("y", T(DT_FLOAT32, 2, ANY, 3));
	Expr *z = prm("z", T(DT_FLOAT32, 2, 0, ANY));
	Expr *big = prm("big", T(DT_FLOAT32, 1, INT64_MAX, 2));
	Expr *e1 = call(OP_BATCH_FLATTEN, ARGS(x), NOATTRS);
	Expr *e2 = call(OP_BATCH_FLATTEN, ARGS(y), NOATTRS);
	Expr *e3 = call(OP_BATCH_FLATTEN, ARGS(z), NOATTRS);
	Expr *e4 = call(OP_BATCH_FLATTEN, ARGS(big), NOATTRS);
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4))));
	check_error(e4, "'nn.batch_flatten' of Tensor[(1, 9223372036854775807, 2), float32] has "
			"more elements than int64 can count");
	check_type(e1, "Tensor[(1, 25088), float32]");
	check_type(e2, "Tensor[(2, ?), float32]");
	check_type(e3, "Tensor[(2, 0), float32]");
}

static void test_expand_dims(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 64));
	Expr *e1 = call(OP_EXPAND_DIMS, ARGS(x),
			ATTRS(attr_int("axis", 1), attr_int("num_newaxis", 2)));
	Expr *e2 = call(OP_EXPAND_DIMS, ARGS(x), ATTRS(attr_int("axis", -1)));
	Expr *e3 = call(OP_EXPAND_DIMS, ARGS(x), ATTRS(attr_int("axis", 0)));
	Expr *e4 = call(OP_EXPAND_DIMS, ARGS(x), ATTRS(attr_int("axis", -2)));
	Expr *e5 = call(OP_EXPAND_DIMS, ARGS(x),
			ATTRS(attr_int("axis", 0), attr_int("num_newaxis", 0)));
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4, e5))));
	check_type(e1, "Tensor[(64, 1, 1), float32]");
	check_type(e2, "Tensor[(64, 1), float32]");
	check_type(e3, "Tensor[(1, 64), float32]");
	check_type(e4, "Tensor[(1, 64), float32]");
	assert_ptr_equal(e5->type, x->type);
}

static void test_expand_dims_errors(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 64));
	Expr *e1 = call(OP_EXPAND_DIMS, ARGS(x), ATTRS(attr_int("axis", 2)));
	Expr *e2 = call(OP_EXPAND_DIMS, ARGS(x),
			ATTRS(attr_int("axis", 0), attr_int("num_newaxis", INT64_MAX)));
	Expr *e3 = call(OP_EXPAND_DIMS, ARGS(x), NOATTRS);
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3))));
	assert_int_equal(diags.count, 3);
	assert_string_equal(diags.items[0].message,
			    "'expand_dims' axis 2 is out of range for Tensor[(64), float32]");
	assert_string_equal(
		diags.items[1].message,
		"'expand_dims' num_newaxis=9223372036854775807 must be between 0 and 1023");
	assert_string_equal(diags.items[2].message, "'expand_dims' needs an axis attribute");
}

static void test_squeeze(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 5, 1)), *y = prm("y", T(DT_FLOAT32, 1, ANY));
	Expr *e1 = call(OP_SQUEEZE, ARGS(x), NOATTRS);
	Expr *e2 = call(OP_SQUEEZE, ARGS(x), ATTRS(LIST("axis", 2)));
	Expr *e3 = call(OP_SQUEEZE, ARGS(x), ATTRS(attr_none("axis")));
	Expr *e4 = call(OP_SQUEEZE, ARGS(y), ATTRS(LIST("axis", -1)));
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4))));
	check_type(e1, "Tensor[(5), float32]");
	check_type(e2, "Tensor[(1, 5), float32]");
	check_type(e3, "Tensor[(5), float32]");
	check_type(e4, "Tensor[(1), float32]");
}

static void test_squeeze_error(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 5, 1));
	Expr *e = FAIL(OP_SQUEEZE, ARGS(x), ATTRS(LIST("axis", 0, 1)));
	check_error(e, "'squeeze' cannot squeeze axis 1 of Tensor[(1, 5, 1), float32]: its size "
		       "is 5");
}

static void test_split(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 128)), *y = prm("y", T(DT_FLOAT32, 10));
	Expr *z = prm("z", T(DT_FLOAT32, 2, ANY));
	Expr *e1 = call(OP_SPLIT, ARGS(x),
			ATTRS(attr_int("indices_or_sections", 4), attr_int("axis", 1)));
	Expr *e2 = call(OP_SPLIT, ARGS(y), ATTRS(LIST("indices_or_sections", 2, 5)));
	Expr *e3 = call(OP_SPLIT, ARGS(z),
			ATTRS(LIST("indices_or_sections", 3), attr_int("axis", -1)));
	Expr *e4 = call(OP_SPLIT, ARGS(y), ATTRS(LIST("indices_or_sections", 5, 5)));
	Expr *p = ir_proj(m, next_pos(), e1, 3);
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4, p))));
	check_type(e1,
		   "(Tensor[(1, 32), float32], Tensor[(1, 32), float32], Tensor[(1, 32), float32], "
		   "Tensor[(1, 32), float32])");
	check_type(e2, "(Tensor[(2), float32], Tensor[(3), float32], Tensor[(5), float32])");
	check_type(e3, "(Tensor[(2, 3), float32], Tensor[(2, ?), float32])");
	check_type(e4, "(Tensor[(5), float32], Tensor[(0), float32], Tensor[(5), float32])");
	check_type(p, "Tensor[(1, 32), float32]");
	/* equal sections share one field type */
	assert_ptr_equal(e1->type->u.tuple.fields[0], e1->type->u.tuple.fields[3]);
}

static void test_split_errors(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 10));
	Expr *e1 = call(OP_SPLIT, ARGS(x),
			ATTRS(attr_int("indices_or_sections", 3), attr_int("axis", 1)));
	Expr *e2 = call(OP_SPLIT, ARGS(x),
			ATTRS(LIST("indices_or_sections", 6, 2), attr_int("axis", 1)));
	Expr *e3 = call(OP_SPLIT, ARGS(x), ATTRS(attr_int("indices_or_sections", 0)));
	Expr *e4 = call(OP_SPLIT, ARGS(x),
			ATTRS(LIST("indices_or_sections", 11), attr_int("axis", 1)));
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4))));
	assert_int_equal(diags.count, 4);
	assert_string_equal(diags.items[0].message,
			    "'split' cannot divide axis 1 of Tensor[(1, 10), float32] into 3 equal "
			    "sections");
	assert_string_equal(diags.items[1].message,
			    "'split' indices [6, 2] are not increasing within axis 1 of "
			    "Tensor[(1, 10), float32]");
	assert_string_equal(diags.items[2].message,
			    "'split' needs between 1 and 65536 sections, got 0");
	assert_string_equal(diags.items[3].message,
			    "'split' indices [11] are not increasing within axis 1 of "
			    "Tensor[(1, 10), float32]");
}

/* ---- zeros, ones, cast, annotations ------------------------------------ */

static void test_zeros_ones_cast(void **state)
{
	Expr *c = prm("c", T(DT_INT32, 3));
	Expr *e1 =
		call(OP_ZEROS, NULL, 0, ATTRS(LIST("shape", 1, 32), attr_str("dtype", "float32")));
	Expr *e2 = call(OP_ONES, NULL, 0, ATTRS(LIST("shape"), attr_str("dtype", "int64")));
	Expr *e3 = call(OP_CAST, ARGS(c), ATTRS(attr_str("dtype", "float32")));
	Expr *e4 = call(OP_CAST, ARGS(c), ATTRS(attr_str("dtype", "int32")));
	Expr *e5 = call(OP_ZEROS, NULL, 0, ATTRS(LIST("shape", 2)));
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4, e5))));
	check_type(e1, "Tensor[(1, 32), float32]");
	check_type(e2, "int64");
	check_type(e3, "Tensor[(3), float32]");
	assert_ptr_equal(e4->type, c->type);
	check_type(e5, "Tensor[(2), float32]");
}

static void test_zeros_cast_errors(void **state)
{
	Expr *c = prm("c", T(DT_INT32, 3));
	Expr *e1 = call(OP_ZEROS, NULL, 0, ATTRS(LIST("shape", 1, -32)));
	Expr *e2 = call(OP_ONES, NULL, 0,
			ATTRS(LIST("shape", INT64_MAX, INT64_MAX), attr_str("dtype", "float32")));
	Expr *e3 = call(OP_CAST, ARGS(c), ATTRS(attr_str("dtype", "float8")));
	Expr *e4 = call(OP_CAST, ARGS(c), NOATTRS);
	Expr *e5 = call(OP_ONES, NULL, 0, ATTRS(attr_str("dtype", "int64")));
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4, e5))));
	assert_int_equal(diags.count, 5);
	assert_string_equal(diags.items[0].message,
			    "'zeros' shape [1, -32] has a negative dimension");
	assert_string_equal(diags.items[1].message,
			    "'ones' shape [9223372036854775807, 9223372036854775807] has more "
			    "elements than int64 can count");
	assert_string_equal(diags.items[2].message, "'cast' has unknown dtype \"float8\"");
	assert_string_equal(diags.items[3].message, "'cast' needs a dtype attribute");
	assert_string_equal(diags.items[4].message, "'ones' needs a shape attribute");
}

static void test_annotations(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 5, 7)), *b = prm("b", T(DT_FLOAT32, 5, 7));
	Expr *t = ir_tuple(m, next_pos(), ARGS(a, b));
	Expr *e1 = call(OP_ON_DEVICE, ARGS(a), NOATTRS);
	Expr *e2 = call(OP_DEVICE_COPY, ARGS(e1), NOATTRS);
	Expr *e3 = call(OP_ON_DEVICE, ARGS(t), NOATTRS);
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e2, e3))));
	assert_ptr_equal(e1->type, a->type);
	assert_ptr_equal(e2->type, a->type);
	assert_ptr_equal(e3->type, t->type);
}

static void test_op_arity(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 5));
	Expr *e = FAIL(OP_ADD, ARGS(a), NOATTRS);
	check_error(e, "'add' expects 2 arguments, got 1");
}

static void test_bad_attribute_kind(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 5, 7));
	Expr *e = FAIL(OP_SOFTMAX, ARGS(a), ATTRS(attr_str("axis", "last")));
	check_error(e, "'nn.softmax' attribute 'axis' must be an integer");
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
	check_type(y, "Tensor[(5, 7), float32]");
	check_type(outer, "Tensor[(5, 7), float32]");
	check_type(m->globals[0].fn, "fn (Tensor[(5, 7), float32], Tensor[(7), float32]) -> "
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
	check_error(x, "'%x' is annotated Tensor[(5, 8), float32] but its value has type "
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
	check_error(a, "parameter '%a' has no type annotation");
	assert_null(e1->type);
	check_type(e2, "Tensor[(3), float32]");
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
	check_error(g, "free variable '%g' has no type annotation");
	check_type(e1, "Tensor[(3), float32]");
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
	check_type(c, "Tensor[(2, 3), float32]");
	check_type(e, "Tensor[(2, 3), float32]");
}

static void test_tuple_projection(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 3)), *b = prm("b", T(DT_INT64, 2));
	Expr *t = ir_tuple(m, next_pos(), ARGS(a, b));
	Expr *p0 = ir_proj(m, next_pos(), t, 0), *p1 = ir_proj(m, next_pos(), t, 1);
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(p1, p0))));
	check_type(t, "(Tensor[(3), float32], Tensor[(2), int64])");
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
	check_error(i, "if branches have different types: Tensor[(3), float32] and "
		       "Tensor[(4), float32]");
	assert_null(i->type);
}

static void test_if_condition(void **state)
{
	Expr *c = prm("c", T(DT_BOOL, 1)), *a = prm("a", T(DT_FLOAT32, 3));
	Expr *i = ir_if(m, next_pos(), c, a, a);
	assert_false(run_main(i));
	check_error(c, "if condition must be bool, got Tensor[(1), bool]");
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
	check_type(fn, "fn (Tensor[(5, 7), float32]) -> Tensor[(5, 7), float32]");
	assert_ptr_equal(f->type, fn->type);
	check_type(c, "Tensor[(5, 7), float32]");
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
	check_error(fn, "'fn@11:3' is declared to return Tensor[(7), float32] but its body has "
			"type Tensor[(5, 7), float32]");
	/* the written signature stands */
	check_type(fn, "fn (Tensor[(5, 7), float32]) -> Tensor[(7), float32]");
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
	check_type(use, "Tensor[(3), float32]");
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
	check_error(f, "'%f' is used in its own definition and needs a type annotation");
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
	check_type(main_body, "(Tensor[(3), float32],)");
	check_type(main_fn, "fn (Tensor[(3), float32]) -> (Tensor[(3), float32],)");
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
	check_error(ref, "cannot infer the type of recursive '@loop': declare its return type");
	assert_null(main_body->type);
}

static void test_global_return_mismatch(void **state)
{
	global_param = ir_var(m, next_pos(), "p", VAR_PARAM, T(DT_FLOAT32, 3));
	add_global("f", T(DT_FLOAT32, 4), global_param);
	assert_false(infer_module(m, &diags));
	check_error(m->globals[0].fn,
		    "'@f' is declared to return Tensor[(4), float32] but its body "
		    "has type Tensor[(3), float32]");
}

static void test_unknown_global(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 3));
	Expr *g = global_ref("nope", -1);
	Expr *c = ir_call_expr(m, next_pos(), g, ARGS(a));
	assert_false(run_main(c));
	check_error(g, "unknown global '@nope'");
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
	check_type(e5, "Tensor[(3, 7), float32]");
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

/* ---- runner ------------------------------------------------------------ */

#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(test_add_broadcast),
		TEST(test_binary_ops),
		TEST(test_broadcast_reuses_pointer),
		TEST(test_broadcast_any),
		TEST(test_broadcast_error),
		TEST(test_dtype_mismatch),
		TEST(test_binary_on_tuple),
		TEST(test_unary_ops),
		TEST(test_unary_needs_float),
		TEST(test_dense),
		TEST(test_dense_mismatch),
		TEST(test_dense_units_mismatch),
		TEST(test_batch_matmul),
		TEST(test_batch_matmul_mismatch),
		TEST(test_batch_matmul_batch),
		TEST(test_bias_add),
		TEST(test_bias_add_mismatch),
		TEST(test_bias_add_axis_range),
		TEST(test_softmax),
		TEST(test_reductions),
		TEST(test_reduction_errors),
		TEST(test_reshape),
		TEST(test_reshape_count_mismatch),
		TEST(test_reshape_errors),
		TEST(test_transpose),
		TEST(test_transpose_errors),
		TEST(test_concatenate),
		TEST(test_concatenate_errors),
		TEST(test_conv2d),
		TEST(test_conv2d_channels),
		TEST(test_conv2d_errors),
		TEST(test_conv2d_transpose),
		TEST(test_conv2d_transpose_errors),
		TEST(test_pooling),
		TEST(test_window_layouts),
		TEST(test_pooling_errors),
		TEST(test_batch_flatten),
		TEST(test_expand_dims),
		TEST(test_expand_dims_errors),
		TEST(test_squeeze),
		TEST(test_squeeze_error),
		TEST(test_split),
		TEST(test_split_errors),
		TEST(test_zeros_ones_cast),
		TEST(test_zeros_cast_errors),
		TEST(test_annotations),
		TEST(test_op_arity),
		TEST(test_bad_attribute_kind),
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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
