/*
 * test_infer_nn.c - the type relations of the nn family of ops.def
 * (core/plan/infer/infer_nn.c): nn.dense, nn.batch_matmul, nn.softmax,
 * nn.fast_softmax, nn.matmul.
 *
 * Each case infers a module whose @main calls the operators and compares
 * the result type, printed, with one written by hand from TVM 0.14's
 * relation (src/relay/op), or the error, its message and position, with the
 * one devplan must report. The cases are written in the four forms of
 * infer_fixture.h (Relay text after a prelude, plain text, one call, or
 * built with ir.h). tests/op-families checks that the operators these tests
 * are about are of this family.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "devices.h"
#include "diag.h"
#include "infer.h"
#include "ir.h"
#include "parse.h"
#include "print.h"

#include "infer_fixture.h"

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
	check_built_type(e1, "Tensor[(1, 128), float32]");
	check_built_type(e2, "Tensor[(2, 3, 128), float32]");
	check_built_type(e3, "Tensor[(1, 10), float32]");
	check_built_type(e4, "Tensor[(1, 128), float64]");
}

static void test_dense_mismatch(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 784)), *w = prm("w", T(DT_FLOAT32, 128, 783));
	Expr *e = FAIL(OP_DENSE, ARGS(x, w), ATTRS(attr_int("units", 128)));
	check_built_error(e, "'nn.dense' expects weight of shape (units, 784), got "
			     "Tensor[(128, 783), float32]");
}

static void test_dense_units_mismatch(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 784)), *w = prm("w", T(DT_FLOAT32, 128, 784));
	Expr *e = FAIL(OP_DENSE, ARGS(x, w), ATTRS(attr_int("units", 64)));
	check_built_error(e, "'nn.dense' attribute units=64 does not match weight "
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
	check_built_type(e1, "Tensor[(2, 3, 5), float32]");
	check_built_type(e2, "Tensor[(6, 3, 5), float32]");
	check_built_type(e3, "Tensor[(2, 3, 5), float32]");
	check_built_type(e4, "Tensor[(2, 3, 5), float32]");
}

static void test_batch_matmul_mismatch(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 2, 3, 4)), *y = prm("y", T(DT_FLOAT32, 2, 5, 4));
	Expr *e = FAIL(OP_BATCH_MATMUL, ARGS(x, y), NOATTRS);
	check_built_error(e, "'nn.batch_matmul' reduction dimensions do not match: "
			     "Tensor[(2, 3, 4), float32] and Tensor[(2, 5, 4), float32] "
			     "(transpose_a=False, transpose_b=False)");
}

static void test_batch_matmul_batch(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 2, 3, 4)), *y = prm("y", T(DT_FLOAT32, 3, 4, 5));
	Expr *e = FAIL(OP_BATCH_MATMUL, ARGS(x, y), NOATTRS);
	check_built_error(e, "batch dimensions of 'nn.batch_matmul' do not broadcast: "
			     "Tensor[(2, 3, 4), float32] and Tensor[(3, 4, 5), float32]");
}

static void test_softmax(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 1000));
	Expr *e1 = call(OP_SOFTMAX, ARGS(x), NOATTRS);
	Expr *e2 = call(OP_SOFTMAX, ARGS(x), ATTRS(attr_int("axis", 0)));
	Expr *e3 = call(OP_SOFTMAX, ARGS(x), ATTRS(attr_int("axis", -3)));
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3))));
	check_built_error(e3,
			  "'nn.softmax' axis -3 is out of range for Tensor[(1, 1000), float32]");
	assert_ptr_equal(e1->type, x->type);
	assert_ptr_equal(e2->type, x->type);
}

static void test_bad_attribute_kind(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 5, 7));
	Expr *e = FAIL(OP_SOFTMAX, ARGS(a), ATTRS(attr_str("axis", "last")));
	check_built_error(e, "'nn.softmax' attribute 'axis' must be an integer");
}

#define F32(...) "Tensor[(" #__VA_ARGS__ "), float32]"

/* ---- nn.matmul ------------------------------------------------------------- */

static void test_matmul(void **state)
{
	(void)state;
	expect_type("%a: " F32(2, 5, 8) ", %b: " F32(8, 3), "nn.matmul(%a, %b)", F32(2, 5, 3));
	expect_type("%a: " F32(2, 5, 8) ", %b: " F32(3, 8), "nn.matmul(%a, %b, transpose_b=True)",
		    F32(2, 5, 3));
	expect_type("%a: " F32(2, 8, 5) ", %b: " F32(8, 3),
		    "nn.matmul(%a, %b, units=3, out_dtype=\"float64\", transpose_a=True)",
		    "Tensor[(2, 5, 3), float64]");
	expect_type("%a: " F32(?, 8) ", %b: " F32(8, ?), "nn.matmul(%a, %b)", F32(?, ?));
	expect_error("%a: " F32(2, 5, 8) ", %b: " F32(7, 3), "nn.matmul(%a, %b)",
		     "'nn.matmul' reduction dimensions do not match: Tensor[(2, 5, 8), float32] "
		     "and Tensor[(7, 3), float32] (transpose_a=False, transpose_b=False)");
	expect_error("%a: " F32(2, 5, 8) ", %b: " F32(2, 8, 3), "nn.matmul(%a, %b)",
		     "'nn.matmul' expects a 2-D second operand, got Tensor[(2, 8, 3), float32]");
	expect_error("%a: " F32(5, 8) ", %b: " F32(8, 3), "nn.matmul(%a, %b, units=4)",
		     "'nn.matmul' attribute units=4 does not match Tensor[(8, 3), float32]");
}

/* nn.fast_softmax, the softmax TVM approximates for speed: its type is its
 * operand's. */
static void test_fast_softmax(void **state)
{
	(void)state;
	expect_type("%x: " F32(2, 10), "nn.fast_softmax(%x, axis=0)", F32(2, 10));
}

/* nn.fast_softmax's axis out of range. */
static void test_fast_softmax_errors(void **state)
{
	(void)state;
	expect_error("%x: " F32(2, 10), "nn.fast_softmax(%x, axis=-3)",
		     "'nn.fast_softmax' axis -3 is out of range for Tensor[(2, 10), float32]");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_dense),
		TEST(test_dense_mismatch),
		TEST(test_dense_units_mismatch),
		TEST(test_batch_matmul),
		TEST(test_batch_matmul_mismatch),
		TEST(test_batch_matmul_batch),
		TEST(test_softmax),
		TEST(test_bad_attribute_kind),
		TEST(test_matmul),
		TEST(test_fast_softmax),
		TEST(test_fast_softmax_errors),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
