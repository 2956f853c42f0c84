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

/* meshgrid: one grid per operand, ij or xy indexing. */
static void test_meshgrid(void **state)
{
	(void)state;
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

/* unravel_index: flat indices as coordinates in a shape. */
static void test_unravel_index(void **state)
{
	(void)state;
	expect_call_type("%i: Tensor[(5), int64], %s: Tensor[(3), int64]", "unravel_index(%i, %s)",
			 "Tensor[(3, 5), int64]");
	expect_call_type("%i: int32, %s: Tensor[(3), int32]", "unravel_index(%i, %s)",
			 "Tensor[(3), int32]");
	expect_call_error(
		"%i: Tensor[(5, 2), int64], %s: Tensor[(3), int64]", "unravel_index(%i, %s)",
		"'unravel_index' expects indices of rank at most 1 and a 1-D integer shape, "
		"got Tensor[(5, 2), int64] and Tensor[(3), int64]");
}

#define F32(...) "Tensor[(" #__VA_ARGS__ "), float32]"

/* nn.dilate, nn.space_to_batch_nd and nn.batch_to_space_nd: elements
 * spread apart, or blocks moved between the batch and spatial axes. */
static void test_dilate_space_batch(void **state)
{
	(void)state;
	expect_type("%x: " F32(3, 4), "nn.dilate(%x, strides=[2, 3])", F32(5, 10));
	expect_type("%x: " F32(3, 4), "nn.dilate(%x)", F32(3, 4));
	expect_type("%x: " F32(2, 3, 4), "nn.dilate(%x, strides=[1, 2, 1], dilation_value=1f)",
		    F32(2, 5, 4));
	expect_type("%x: " F32(1, 4, 4, 3),
		    "nn.space_to_batch_nd(%x, block_shape=[2, 2], paddings=[[0, 0], [0, 0]])",
		    F32(4, 2, 2, 3));
	expect_type("%x: " F32(1, 4, 4, 3),
		    "nn.space_to_batch_nd(%x, block_shape=[2, 2], paddings=[[1, 1], [0, 2]], "
		    "pad_value=1f)",
		    F32(4, 3, 3, 3));
	expect_type("%x: " F32(4, 2, 2, 3),
		    "nn.batch_to_space_nd(%x, block_shape=[2, 2], crops=[[0, 0], [0, 1]])",
		    F32(1, 4, 3, 3));
}

/* nn.dilate, nn.space_to_batch_nd and nn.batch_to_space_nd: the errors. */
static void test_dilate_space_batch_errors(void **state)
{
	(void)state;
	expect_error("%x: " F32(2, 3, 4), "nn.dilate(%x)",
		     "'nn.dilate' attribute strides=[1, 1] needs one value per dimension of "
		     "Tensor[(2, 3, 4), float32]");
	expect_error(
		"%x: " F32(1, 5, 4, 3),
		"nn.space_to_batch_nd(%x, block_shape=[2, 2], paddings=[[0, 0], [0, 0]])",
		"'nn.space_to_batch_nd' padded dimension 1 of Tensor[(1, 5, 4, 3), float32] is "
		"not a multiple of block 2");
	expect_error("%x: " F32(3, 2, 2, 3),
		     "nn.batch_to_space_nd(%x, block_shape=[2, 2], crops=[[0, 0], [0, 0]])",
		     "'nn.batch_to_space_nd' batch of Tensor[(3, 2, 2, 3), float32] is not a "
		     "multiple of the block size 4");
}

#define X35 "%x: Tensor[(3, 5), float32]"

/* searchsorted, invert_permutation and trilu, which rearrange or look up
 * without sorting. */
static void test_searchsorted_permutation_trilu(void **state)
{
	(void)state;
	expect_call_type("%s: Tensor[(3, 5), float32], %v: Tensor[(3, 2), float32]",
			 "searchsorted(%s, %v)", "Tensor[(3, 2), int32]");
	expect_call_type("%s: Tensor[(5), float32], %v: Tensor[(4, 2), float32]",
			 "searchsorted(%s, %v, right=True, dtype=\"int64\")",
			 "Tensor[(4, 2), int64]");
	expect_call_error("%s: Tensor[(3, 5), float32], %v: Tensor[(4, 2), float32]",
			  "searchsorted(%s, %v)",
			  "'searchsorted' values Tensor[(4, 2), float32] do not match the sorted "
			  "sequence Tensor[(3, 5), float32]");
	expect_call_type("%x: Tensor[(6), int32]", "invert_permutation(%x)", "Tensor[(6), int32]");
	expect_call_type(X35 ", %k: int64", "trilu(%x, %k, upper=False)",
			 "Tensor[(3, 5), float32]");
	expect_call_error(X35 ", %k: Tensor[(1), int64]", "trilu(%x, %k)",
			  "'trilu' k must be a scalar, got Tensor[(1), int64]");
}

/* reverse_sequence: each batch entry reversed up to its length. */
static void test_reverse_sequence(void **state)
{
	(void)state;
	expect_call_type("%x: Tensor[(4, 5, 6), float32], %l: Tensor[(4), int32]",
			 "reverse_sequence(%x, %l)", "Tensor[(4, 5, 6), float32]");
	expect_call_type("%x: Tensor[(4, 5, 6), float32], %l: Tensor[(6), int64]",
			 "reverse_sequence(%x, %l, seq_axis=0, batch_axis=2)",
			 "Tensor[(4, 5, 6), float32]");
	expect_call_error(
		"%x: Tensor[(4, 5, 6), float32], %l: Tensor[(5), int32]",
		"reverse_sequence(%x, %l)",
		"'reverse_sequence' seq_lengths must be 1-D integers as long as batch axis 0 "
		"of Tensor[(4, 5, 6), float32], got Tensor[(5), int32]");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_one_hot_masks),
		TEST(test_meshgrid),
		TEST(test_unravel_index),
		TEST(test_dilate_space_batch),
		TEST(test_dilate_space_batch_errors),
		TEST(test_searchsorted_permutation_trilu),
		TEST(test_reverse_sequence),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
