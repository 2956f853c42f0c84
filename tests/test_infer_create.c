/*
 * test_infer_create.c - the type relations of the create family of ops.def
 * (core/plan/infer/infer_create.c): one_hot, full, full_like, arange.
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

/* ---- creation ---------------------------------------------------------- */

static void test_create(void **state)
{
	(void)state;
	expect_call_type("%v: float32", "full(%v, shape=[2, 3])", "Tensor[(2, 3), float32]");
	expect_call_type("%v: float32", "full(%v, shape=[2, 3], dtype=\"int32\")",
			 "Tensor[(2, 3), int32]");
	expect_call_type("%v: int64", "full(%v, shape=[])", "int64");
	expect_call_error("%v: Tensor[(2), float32]", "full(%v, shape=[2])",
			  "'full' fill value must be a scalar, got Tensor[(2), float32]");
	expect_call_error("%v: float32", "full(%v)", "'full' needs a shape attribute");
	expect_call_error("%v: float32", "full(%v, shape=[4294967296, 4294967296])",
			  "'full' result has more elements than int64 can count");
	expect_call_type("%x: Tensor[(2, 3), int64], %v: int64", "full_like(%x, %v)",
			 "Tensor[(2, 3), int64]");
	expect_call_error("%x: Tensor[(2, 3), int64], %v: Tensor[(1), int64]", "full_like(%x, %v)",
			  "'full_like' fill value must be a scalar, got Tensor[(1), int64]");
	/* ceil((10 - 0) / 2) and ceil((5 - 0) / 2) */
	expect_call_type("", "arange(0f, 10f, 2f, start=0f, stop=10f, step=2f)",
			 "Tensor[(5), float32]");
	expect_call_type("", "arange(0, 5, 2, start=0, stop=5, step=2, dtype=\"int32\")",
			 "Tensor[(3), int32]");
	expect_call_type("%a: float32", "arange(%a, 10f, 1f)", "Tensor[(?), float32]");
	expect_call_error("", "arange(0f, 10f, 2f, start=10f, stop=0f, step=2f)",
			  "'arange' has an invalid start, stop and step: 10, 0, 2");
	expect_call_error("", "arange(0f, 10f, 2f, dtype=\"int32\")",
			  "'arange' expects int32 scalars for start, stop and step, got float32");
}

/* one_hot: the new axis of depth entries, its dtype, and its errors. */
static void test_one_hot(void **state)
{
	(void)state;
	expect_call_type("%i: Tensor[(2, 3), int32], %on: float32, %off: float32",
			 "one_hot(%i, %on, %off, depth=4)", "Tensor[(2, 3, 4), float32]");
	expect_call_type("%i: Tensor[(2, 3), int32], %on: float32, %off: float32",
			 "one_hot(%i, %on, %off, depth=4, axis=0, dtype=\"int64\")",
			 "Tensor[(4, 2, 3), int64]");
	expect_call_error("%i: Tensor[(2, 3), int32], %on: float32, %off: float32",
			  "one_hot(%i, %on, %off, depth=0)", "'one_hot' depth 0 must be positive");
	expect_call_error("%i: Tensor[(2, 3), int32], %on: float32, %off: float32",
			  "one_hot(%i, %on, %off, depth=2, axis=3)",
			  "'one_hot' axis 3 is out of range for Tensor[(2, 3), int32]");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_create),
		TEST(test_one_hot),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
