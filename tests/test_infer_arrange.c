/*
 * test_infer_arrange.c - the type relations of the arrange family of
 * ops.def (core/plan/infer/infer_arrange.c): reverse_sequence,
 * sequence_mask, matrix_set_diag, unravel_index, meshgrid, searchsorted,
 * invert_permutation, trilu, nn.dilate, nn.space_to_batch_nd,
 * nn.batch_to_space_nd.
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

static void test_one_hot_masks(void **state)
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
	expect_call_type("%x: Tensor[(5, 2, 3), float32], %l: Tensor[(2), int32]",
			 "sequence_mask(%x, %l)", "Tensor[(5, 2, 3), float32]");
	expect_call_type("%x: Tensor[(5, 2, 3), float32], %l: Tensor[(5), int32]",
			 "sequence_mask(%x, %l, mask_value=-1f, axis=1)",
			 "Tensor[(5, 2, 3), float32]");
	expect_call_error("%x: Tensor[(5, 2, 3), float32], %l: Tensor[(5), int32]",
			  "sequence_mask(%x, %l, axis=2)",
			  "'sequence_mask' axis must be 0 or 1, got 2");
	expect_call_error(
		"%x: Tensor[(5, 2, 3), float32], %l: Tensor[(5), int32]", "sequence_mask(%x, %l)",
		"'sequence_mask' valid_length must be 1-D as long as axis 1 of Tensor[(5, 2, "
		"3), float32], got Tensor[(5), int32]");
	expect_call_type("%x: Tensor[(2, 3, 4), float32], %d: Tensor[(2, 3), float32]",
			 "matrix_set_diag(%x, %d)", "Tensor[(2, 3, 4), float32]");
	expect_call_type("%x: Tensor[(2, 3, 4), float32], %d: Tensor[(2, 3, 4), float32]",
			 "matrix_set_diag(%x, %d, k1=-1, k2=1, super_diag_right_align=False)",
			 "Tensor[(2, 3, 4), float32]");
	expect_call_error("%x: Tensor[(2, 3, 4), float32], %d: Tensor[(2, 3), float32]",
			  "matrix_set_diag(%x, %d, k1=1, k2=0)",
			  "'matrix_set_diag' k2 0 is less than k1 1");
	expect_call_error("%x: Tensor[(2, 3, 4), float32], %d: Tensor[(2, 4), float32]",
			  "matrix_set_diag(%x, %d)",
			  "'matrix_set_diag' diagonal Tensor[(2, 4), float32] does not fit "
			  "Tensor[(2, 3, 4), float32] with k1=0, k2=0");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_one_hot_masks),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
