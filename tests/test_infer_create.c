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
	expect_call_type("%a: Tensor[(3), int32], %b: Tensor[(4), int32]", "meshgrid((%a, %b))",
			 "(Tensor[(3, 4), int32], Tensor[(3, 4), int32])");
	expect_call_type(
		"%a: Tensor[(3), int32], %b: Tensor[(4), int32], %c: int32",
		"meshgrid((%a, %b, %c), indexing=\"xy\")",
		"(Tensor[(4, 3, 1), int32], Tensor[(4, 3, 1), int32], Tensor[(4, 3, 1), int32])");
	expect_call_error(
		"%a: Tensor[(3, 1), int32]", "meshgrid((%a,))",
		"'meshgrid' expects scalars or 1-D tensors of one dtype, got (Tensor[(3, 1), "
		"int32],)");
	expect_call_error("%a: Tensor[(3), int32]", "meshgrid((%a,), indexing=\"yx\")",
			  "'meshgrid' indexing must be \"ij\" or \"xy\", got \"yx\"");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_create),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
