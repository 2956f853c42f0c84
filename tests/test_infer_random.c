/*
 * test_infer_random.c - the type relations of the random family of ops.def
 * (core/plan/infer/infer_random.c): random.threefry_generate,
 * random.threefry_split, random.uniform, random.normal, random.multinomial.
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

#define F32(...) "Tensor[(" #__VA_ARGS__ "), float32]"

#define I32(...) "Tensor[(" #__VA_ARGS__ "), int32]"
#define I64(...) "Tensor[(" #__VA_ARGS__ "), int64]"

/* ---- random.* ------------------------------------------------------------- */

#define KEY "Tensor[(10), uint64]"

static void test_random(void **state)
{
	(void)state;
	expect_type("%k: " KEY, "random.threefry_generate(%k, out_shape=[3, 4])",
		    "(" KEY ", Tensor[(3, 4), uint64])");
	/* TVM's relation assigns the key its type */
	expect_type("%k: Tensor[(?), uint64]", "random.threefry_split(%k)", "(" KEY ", " KEY ")");
	expect_type("%k: " KEY, "random.threefry_split(%k)", "(" KEY ", " KEY ")");
	expect_type("%k: " KEY, "random.uniform(%k, 0f, 1f, out_shape=[2, 5])",
		    "(" KEY ", " F32(2, 5) ")");
	expect_type("%k: " KEY,
		    "random.normal(%k, 0f64, 1f64, out_shape=[7], out_dtype=\"float64\")",
		    "(" KEY ", Tensor[(7), float64])");
	expect_type("%k: " KEY ", %p: " F32(4, 6), "random.multinomial(%k, %p, num_samples=3)",
		    "(" KEY ", " I32(4, 3) ")");
	expect_type("%k: " KEY ", %p: " F32(6), "random.multinomial(%k, %p)",
		    "(" KEY ", " I32(1) ")");
}

static void test_random_errors(void **state)
{
	(void)state;
	expect_error("%k: Tensor[(8), uint64]", "random.threefry_split(%k)",
		     "'random.threefry_split' expects a Threefry key Tensor[(10), uint64], got "
		     "Tensor[(8), uint64]");
	expect_error("%k: " I64(10), "random.threefry_split(%k)",
		     "'random.threefry_split' expects a Threefry key Tensor[(10), uint64], got "
		     "Tensor[(10), int64]");
	expect_error("%k: " F32(10), "random.threefry_generate(%k, out_shape=[3])",
		     "'random.threefry_generate' expects a Threefry key Tensor[(10), uint64], got "
		     "Tensor[(10), float32]");
	expect_error("%k: " KEY, "random.threefry_generate(%k)",
		     "'random.threefry_generate' needs an out_shape attribute");
	expect_error("%k: " KEY, "random.uniform(%k, 0f, 1f, out_shape=[2], out_dtype=\"int32\")",
		     "'random.uniform' generates only float32 or float64 values");
	expect_error("%k: " KEY, "random.normal(%k, 0f, 1f64, out_shape=[2])",
		     "'random.normal' expects a float32 scalar for argument 3, got "
		     "float64");
	expect_error("%k: " KEY ", %p: " F32(4, 6), "random.multinomial(%k, %p, num_samples=-1)",
		     "'random.multinomial' attribute num_samples=-1 must not be negative");
}

/* The random.* operators threading one key, every attribute given. */
static void test_round_trip_random(void **state)
{
	(void)state;
	expect_round_trip(
		"#[version = \"0.0.5\"]\n"
		"def @main(%k: Tensor[(10), uint64], %p: Tensor[(2, 3), float32]) {\n"
		"  %0 = random.threefry_split(%k);\n"
		"  %1 = %0.0;\n"
		"  %2 = random.threefry_generate(%1, out_shape=[4]);\n"
		"  %3 = %2.0;\n"
		"  %4 = random.uniform(%3, -1f64, 1f64, out_shape=[2, 2], "
		"out_dtype=\"float64\");\n"
		"  %5 = %4.0;\n"
		"  %6 = random.normal(%5, 0f, 2f, out_shape=[3], out_dtype=\"float32\");\n"
		"  %7 = %6.0;\n"
		"  random.multinomial(%7, %p, num_samples=5)\n"
		"}\n");
	assert_string_equal(infer_type_name(mod, mod->globals[0].fn->u.fn.body->type),
			    "(" KEY ", " I32(2, 5) ")");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_random),
		TEST(test_random_errors),
		TEST(test_round_trip_random),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
