/*
 * test_infer_fill.c - the type relations of the fill family of ops.def
 * (core/plan/infer/infer_fill.c): zeros, ones, zeros_like, ones_like.
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
	check_built_type(e1, "Tensor[(1, 32), float32]");
	check_built_type(e2, "int64");
	check_built_type(e3, "Tensor[(3), float32]");
	assert_ptr_equal(e4->type, c->type);
	check_built_type(e5, "Tensor[(2), float32]");
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

/* zeros_like and ones_like: their operand's type, an unknown dimension
 * included. */
static void test_zeros_ones_like(void **state)
{
	static const OpKind ops[] = {OP_ZEROS_LIKE, OP_ONES_LIKE};
	Expr *a = prm("a", T(DT_FLOAT32, 2, ANY));
	Expr *fields[DP_COUNT(ops)];
	for (size_t i = 0; i < DP_COUNT(ops); i++)
		fields[i] = call(ops[i], ARGS(a), NOATTRS);
	assert_true(run_main(ir_tuple(m, next_pos(), fields, DP_COUNT(fields))));
	for (size_t i = 0; i < DP_COUNT(fields); i++)
		assert_ptr_equal(fields[i]->type, a->type);
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_zeros_ones_cast),
		TEST(test_zeros_cast_errors),
		TEST(test_zeros_ones_like),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
