/*
 * test_infer_reduce.c - the type relations of the reduce family of ops.def
 * (core/plan/infer/infer_reduce.c): sum, mean, max, min, prod, all, any,
 * argmax, argmin, variance, collapse_sum_like, collapse_sum_to.
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
	check_built_type(e1, "Tensor[(2, 4), float32]");
	check_built_type(e2, "Tensor[(2, 1, 4), float32]");
	check_built_type(e3, "Tensor[(3), float32]");
	check_built_type(e4, "float32");
	check_built_type(e5, "Tensor[(1, 1, 1), float32]");
	check_built_type(e6, "Tensor[(3), float32]");
	/* TVM's GetReduceAxes: an empty axis list reduces every axis */
	check_built_type(e7, "float32");
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

static void test_collapse_sum(void **state)
{
	(void)state;
	expect_call_type("%x: Tensor[(2, 3, 4), float32], %y: Tensor[(3, 1), float32]",
			 "collapse_sum_like(%x, %y)", "Tensor[(3, 1), float32]");
	expect_call_error("%x: Tensor[(2, 3, 4), float32], %y: Tensor[(2, 4), float32]",
			  "collapse_sum_like(%x, %y)",
			  "'collapse_sum_like' cannot collapse Tensor[(2, 3, 4), float32] to "
			  "Tensor[(2, 4), float32]");
	expect_call_type("%x: Tensor[(2, 3, 4), float32], %s: Tensor[(2), int64]",
			 "collapse_sum_to(%x, %s, shape=[3, 1])", "Tensor[(3, 1), float32]");
	expect_call_type("%x: Tensor[(2, 3, 4), float32], %s: Tensor[(2), int64]",
			 "collapse_sum_to(%x, %s)", "Tensor[(?, ?), float32]");
	expect_call_error("%x: Tensor[(2, 3, 4), float32], %s: Tensor[(2), int64]",
			  "collapse_sum_to(%x, %s, shape=[2, 3])",
			  "'collapse_sum_to' cannot collapse Tensor[(2, 3, 4), float32] to "
			  "Tensor[(2, 3), float32]");
	expect_call_error("%x: Tensor[(2, 3, 4), float32], %s: Tensor[(2, 1), int64]",
			  "collapse_sum_to(%x, %s)",
			  "'collapse_sum_to' expects a 1-D integer shape of known length, got "
			  "Tensor[(2, 1), int64]");
}

/* ---- reductions -------------------------------------------------------- */

#define X234 "%x: Tensor[(2, 3, 4), float32]"

static void test_min_prod(void **state)
{
	static const char *const ops[] = {"min", "prod"};
	char body[96], want[160];
	(void)state;
	for (size_t i = 0; i < DP_COUNT(ops); i++) {
		/* no axis: every axis, a scalar */
		snprintf(body, sizeof body, "%s(%%x)", ops[i]);
		check_type(X234, body, "float32");
		snprintf(body, sizeof body, "%s(%%x, axis=[1])", ops[i]);
		check_type(X234, body, "Tensor[(2, 4), float32]");
		snprintf(body, sizeof body, "%s(%%x, axis=[-1])", ops[i]);
		check_type("%x: Tensor[(2, ?, 4), int64]", body, "Tensor[(2, ?), int64]");
		snprintf(body, sizeof body, "%s(%%x, axis=[0, 2], keepdims=True)", ops[i]);
		check_type(X234, body, "Tensor[(1, 3, 1), float32]");
		snprintf(body, sizeof body, "%s(%%x, axis=[1], exclude=True)", ops[i]);
		check_type(X234, body, "Tensor[(3), float32]");
		snprintf(body, sizeof body, "%s(%%x, axis=[1], keepdims=True, exclude=True)",
			 ops[i]);
		check_type(X234, body, "Tensor[(1, 3, 1), float32]");
		/* TVM's GetReduceAxes: an empty list is every axis, and exclude
		 * is then ignored */
		snprintf(body, sizeof body, "%s(%%x, axis=[])", ops[i]);
		check_type(X234, body, "float32");
		snprintf(body, sizeof body, "%s(%%x, axis=[], keepdims=True, exclude=True)",
			 ops[i]);
		check_type(X234, body, "Tensor[(1, 1, 1), float32]");
		snprintf(body, sizeof body, "%s(%%x, axis=[3])", ops[i]);
		snprintf(want, sizeof want,
			 "'%s' axis 3 is out of range for Tensor[(2, 3, 4), float32]", ops[i]);
		check_error(X234, body, want);
		snprintf(body, sizeof body, "%s(%%x, axis=[1, -2])", ops[i]);
		snprintf(want, sizeof want, "'%s' axis=[1, -2] names axis 1 twice", ops[i]);
		check_error(X234, body, want);
	}
	check_parse_error(X234, "prod(%x, keepdims=\"yes\")", 21,
			  "attribute 'keepdims' of 'prod' expects a boolean, found a string");
	check_parse_error(X234, "min(%x, axis=1.5f)", 16,
			  "attribute 'axis' of 'min' expects a list of integers, found a float");
	/* ReduceAttrs' axis is an Array<Integer>: TVM's parser refuses a bare int */
	check_parse_error(X234, "min(%x, axis=1)", 16,
			  "attribute 'axis' of 'min' expects a list of integers, found an integer");
}

static void test_all_any(void **state)
{
	static const char *const ops[] = {"all", "any"};
	char body[96], want[160];
	(void)state;
	for (size_t i = 0; i < DP_COUNT(ops); i++) {
		snprintf(body, sizeof body, "%s(%%b)", ops[i]);
		check_type("%b: Tensor[(2, 3), bool]", body, "bool");
		snprintf(body, sizeof body, "%s(%%b, axis=[1], keepdims=True)", ops[i]);
		check_type("%b: Tensor[(2, 3), bool]", body, "Tensor[(2, 1), bool]");
		snprintf(body, sizeof body, "%s(%%b, axis=[0])", ops[i]);
		check_type("%b: Tensor[(2, 3), bool]", body, "Tensor[(3), bool]");
		snprintf(body, sizeof body, "%s(%%x)", ops[i]);
		snprintf(want, sizeof want,
			 "'%s' expects a bool tensor, got Tensor[(2, 3, 4), float32]", ops[i]);
		check_error(X234, body, want);
	}
}

static void test_argmax_argmin(void **state)
{
	static const char *const ops[] = {"argmax", "argmin"};
	char body[128], want[160];
	(void)state;
	for (size_t i = 0; i < DP_COUNT(ops); i++) {
		/* the indices are int32, whatever the data's dtype */
		snprintf(body, sizeof body, "%s(%%x)", ops[i]);
		check_type(X234, body, "int32");
		snprintf(body, sizeof body, "%s(%%x, axis=[1])", ops[i]);
		check_type(X234, body, "Tensor[(2, 4), int32]");
		check_type("%x: Tensor[(5, 6), int64]", body, "Tensor[(5), int32]");
		snprintf(body, sizeof body,
			 "%s(%%x, axis=[2], keepdims=True, select_last_index=True)", ops[i]);
		check_type(X234, body, "Tensor[(2, 3, 1), int32]");
		snprintf(body, sizeof body, "%s(%%x, axis=[2], exclude=True)", ops[i]);
		check_type(X234, body, "Tensor[(4), int32]");
		snprintf(body, sizeof body, "%s(%%x, axis=[], exclude=True)", ops[i]);
		check_type(X234, body, "int32");
		snprintf(body, sizeof body, "%s(%%s)", ops[i]);
		snprintf(want, sizeof want, "'%s' expects a tensor of rank 1 or more, got float32",
			 ops[i]);
		check_error("%s: float32", body, want);
		snprintf(body, sizeof body, "%s(%%x, axis=[-4])", ops[i]);
		snprintf(want, sizeof want,
			 "'%s' axis -4 is out of range for Tensor[(2, 3, 4), float32]", ops[i]);
		check_error(X234, body, want);
	}
	check_parse_error(X234, "argmax(%x, select_last_index=[1])", 32,
			  "attribute 'select_last_index' of 'argmax' expects a boolean, found a "
			  "list");
}

static void test_variance(void **state)
{
	(void)state;
	check_type(X234 ", %m: Tensor[(2, 1, 4), float32]",
		   "variance(%x, %m, axis=[1], keepdims=True)", "Tensor[(2, 1, 4), float32]");
	check_type(X234 ", %m: Tensor[(2, 1, 4), float32]",
		   "variance(%x, %m, axis=[1], unbiased=True)", "Tensor[(2, 4), float32]");
	check_type(X234 ", %m: Tensor[(1, 1, 1), float32]", "variance(%x, %m)", "float32");
	check_type(X234 ", %m: Tensor[(1, 1, 1), float32]", "variance(%x, %m, axis=[])", "float32");
	check_type(X234 ", %m: Tensor[(1, 3, 1), float32]",
		   "variance(%x, %m, axis=[1], exclude=True)", "Tensor[(3), float32]");
	check_error(X234 ", %m: Tensor[(4), float32]", "variance(%x, %m, axis=[0, 1])",
		    "'variance' mean Tensor[(4), float32] does not have the rank of "
		    "Tensor[(2, 3, 4), float32]");
	check_error(X234 ", %m: Tensor[(2, 1, 4), float64]", "variance(%x, %m, axis=[1])",
		    "operands of 'variance' have different dtypes: Tensor[(2, 3, 4), float32] and "
		    "Tensor[(2, 1, 4), float64]");
	check_error("%s: float32, %m: float32", "variance(%s, %m)",
		    "'variance' expects a tensor of rank 1 or more, got float32");
	check_error(X234 ", %m: Tensor[(2, 1, 4), float32]", "variance(%x, %m, axis=[5])",
		    "'variance' axis 5 is out of range for Tensor[(2, 3, 4), float32]");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_reductions), TEST(test_reduction_errors), TEST(test_collapse_sum),
		TEST(test_min_prod),   TEST(test_all_any),          TEST(test_argmax_argmin),
		TEST(test_variance),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
