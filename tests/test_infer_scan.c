/*
 * test_infer_scan.c - the type relations of the scan family of ops.def
 * (core/plan/infer/infer_scan.c): cumsum, cumprod, sort, argsort, topk,
 * unique.
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

/* ---- sorting ----------------------------------------------------------- */

#define X35 "%x: Tensor[(3, 5), float32]"

static void test_sort(void **state)
{
	(void)state;
	expect_call_type(X35, "sort(%x)", "Tensor[(3, 5), float32]");
	expect_call_type(X35, "argsort(%x, axis=0, is_ascend=False)", "Tensor[(3, 5), int32]");
	expect_call_type(X35, "argsort(%x, dtype=\"int64\")", "Tensor[(3, 5), int64]");
	expect_call_error(X35, "sort(%x, axis=2)",
			  "'sort' axis 2 is out of range for Tensor[(3, 5), float32]");
	/* topk: a (values, indices) tuple by default */
	expect_call_type(X35, "topk(%x, k=2)", "(Tensor[(3, 2), float32], Tensor[(3, 2), int32])");
	expect_call_type(X35, "topk(%x, k=2, axis=0, ret_type=\"values\")",
			 "Tensor[(2, 5), float32]");
	expect_call_type(X35, "topk(%x, k=0, ret_type=\"indices\", dtype=\"int64\")",
			 "Tensor[(3, 5), int64]");
	expect_call_error(
		X35, "topk(%x, k=2, ret_type=\"all\")",
		"'topk' ret_type must be \"both\", \"values\" or \"indices\", got \"all\"");
	expect_call_type("%x: Tensor[(7), int64]", "unique(%x)",
			 "(Tensor[(7), int64], Tensor[(7), int32], Tensor[(7), int32], Tensor[(1), "
			 "int32])");
	expect_call_type(
		"%x: Tensor[(7), float32]", "unique(%x, sorted=False, return_counts=True)",
		"(Tensor[(7), float32], Tensor[(7), int32], Tensor[(7), int32], Tensor[(1), "
		"int32], Tensor[(7), int32])");
	expect_call_error(X35, "unique(%x)",
			  "'unique' expects a 1-D tensor, got Tensor[(3, 5), float32]");
}

static void test_scan(void **state)
{
	(void)state;
	expect_call_type("%x: Tensor[(2, 3), int32]", "cumsum(%x, axis=1)",
			 "Tensor[(2, 3), int32]");
	expect_call_type("%x: Tensor[(2, 3), int32]", "cumsum(%x)", "Tensor[(6), int32]");
	expect_call_type("%x: Tensor[(2, 3), int32]",
			 "cumprod(%x, axis=0, dtype=\"int64\", "
			 "exclusive=True)",
			 "Tensor[(2, 3), int64]");
	expect_call_type("%x: Tensor[(?, 3), float32]", "cumprod(%x)", "Tensor[(?), float32]");
	expect_call_error("%x: Tensor[(2, 3), int32]", "cumsum(%x, axis=-3)",
			  "'cumsum' axis -3 is out of range for Tensor[(2, 3), int32]");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_sort),
		TEST(test_scan),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
