/*
 * test_infer_index.c - the type relations of the index family of ops.def
 * (core/plan/infer/infer_index.c): gather, gather_nd, scatter_elements,
 * scatter_nd, adv_index, sparse_to_dense, argwhere, strided_set,
 * sparse_fill_empty_rows, sparse_reshape.
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

/* ---- gather, scatter, indexing ----------------------------------------- */

#define D34 "%x: Tensor[(3, 4), float32]"

static void test_gather(void **state)
{
	(void)state;
	expect_call_type(D34 ", %i: Tensor[(3, 2), int64]", "gather(%x, %i, axis=1)",
			 "Tensor[(3, 2), float32]");
	expect_call_type(D34 ", %i: Tensor[(5, 4), int32]", "gather(%x, %i, axis=-2)",
			 "Tensor[(5, 4), float32]");
	expect_call_error(D34 ", %i: Tensor[(2, 2), int64]", "gather(%x, %i, axis=1)",
			  "'gather' indices Tensor[(2, 2), int64] do not match Tensor[(3, 4), "
			  "float32] outside axis 1");
	expect_call_error(D34 ", %i: Tensor[(3, 2), int64]", "gather(%x, %i)",
			  "'gather' needs an axis attribute");
	expect_call_error(D34 ", %i: Tensor[(3, 2), float32]", "gather(%x, %i, axis=0)",
			  "'gather' indices must be integers, got Tensor[(3, 2), float32]");
	expect_call_type(D34 ", %i: Tensor[(3, 2), int16]", "gather(%x, %i, axis=1)",
			 "Tensor[(3, 2), float32]");
	/* indices (M, Y...) pick the first M dimensions */
	expect_call_type("%x: Tensor[(2, 3, 4), float32], %i: Tensor[(2, 5), int64]",
			 "gather_nd(%x, %i)", "Tensor[(5, 4), float32]");
	expect_call_type("%x: Tensor[(2, 3, 4), float32], %i: Tensor[(3, 2, 2), int64]",
			 "gather_nd(%x, %i, index_rank=3)", "Tensor[(2, 2), float32]");
	expect_call_type("%x: Tensor[(2, 3, 4), float32], %i: Tensor[(1, 2), int64]",
			 "gather_nd(%x, %i, batch_dims=1)", "Tensor[(2, 4), float32]");
	expect_call_error("%x: Tensor[(2, 3, 4), float32], %i: Tensor[(4, 5), int64]",
			  "gather_nd(%x, %i)",
			  "'gather_nd' indices Tensor[(4, 5), int64] with batch_dims 0 do not fit "
			  "Tensor[(2, 3, 4), float32]");
	expect_call_error("%x: Tensor[(2, 3, 4), float32], %i: Tensor[(1, 3), int64]",
			  "gather_nd(%x, %i, batch_dims=1)",
			  "'gather_nd' batch dimension 0 differs: Tensor[(2, 3, 4), float32] and "
			  "Tensor[(1, 3), int64]");
}

static void test_scatter(void **state)
{
	(void)state;
	expect_call_type(D34 ", %i: Tensor[(2, 4), int32], %u: Tensor[(2, 4), float32]",
			 "scatter_elements(%x, %i, %u, axis=1, reduction=\"add\")",
			 "Tensor[(3, 4), float32]");
	expect_call_error(D34 ", %i: Tensor[(2, 4), int32], %u: Tensor[(2, 4), float32]",
			  "scatter_elements(%x, %i, %u, reduction=\"sub\")",
			  "'scatter_elements' has unknown reduction \"sub\"");
	expect_call_error(D34 ", %i: Tensor[(2, 4), int32], %u: Tensor[(2, 4), float32]",
			  "scatter_elements(%x, %i, %u, axis=2)",
			  "'scatter_elements' axis 2 is out of range for Tensor[(3, 4), float32]");
	expect_call_type(D34 ", %i: Tensor[(2, 5), int64], %u: Tensor[(5), float32]",
			 "scatter_nd(%x, %i, %u)", "Tensor[(3, 4), float32]");
	expect_call_type(D34 ", %i: Tensor[(1, 5), int64], %u: Tensor[(5, 4), float32]",
			 "scatter_nd(%x, %i, %u, mode=\"add\")", "Tensor[(3, 4), float32]");
	expect_call_error(D34 ", %i: Tensor[(1, 5), int64], %u: Tensor[(5, 3), float32]",
			  "scatter_nd(%x, %i, %u)",
			  "'scatter_nd' indices Tensor[(1, 5), int64] and updates Tensor[(5, 3), "
			  "float32] do not fit Tensor[(3, 4), float32]");
}

static void test_adv_index(void **state)
{
	(void)state;
	expect_call_type(
		"%x: Tensor[(5, 6, 7), float32], %i: Tensor[(2, 3), int64], %j: Tensor[(3), "
		"int64]",
		"adv_index((%x, %i, %j))", "Tensor[(2, 3, 7), float32]");
	expect_call_type("%x: Tensor[(5, 6), float32], %i: Tensor[(4), int64]",
			 "adv_index((%x, %i))", "Tensor[(4, 6), float32]");
	expect_call_error(
		"%x: Tensor[(5, 6), float32], %i: Tensor[(2), int64], %j: Tensor[(3), int64]",
		"adv_index((%x, %i, %j))",
		"'adv_index' cannot broadcast the index Tensor[(3), int64]");
	expect_call_error("%x: Tensor[(5), float32], %i: Tensor[(2), int64]",
			  "adv_index((%x, %i, %i))",
			  "'adv_index' has 2 indices for Tensor[(5), float32]");
}

/* ---- argwhere, unravel_index, strided_set, sparse, sliding_window ------ */

static void test_misc_indexing(void **state)
{
	(void)state;
	expect_call_type("%x: Tensor[(3, 4), bool]", "argwhere(%x)", "Tensor[(?, 2), int32]");
	expect_call_type(
		"%x: Tensor[(3, 4), float32], %v: Tensor[(1, 4), float32], %b: Tensor[(2), "
		"int64]",
		"strided_set(%x, %v, %b, %b, %b)", "Tensor[(3, 4), float32]");
	expect_call_type(
		"%i: Tensor[(5, 2), int64], %v: Tensor[(5), float32], %d: Tensor[(2), int64], "
		"%f: float32",
		"sparse_fill_empty_rows(%i, %v, %d, %f)",
		"(Tensor[(?, 2), int64], Tensor[(?), int64], Tensor[(?), int64])");
	expect_call_type(
		"%i: Tensor[(5, 2), int64], %p: Tensor[(2), int64], %n: Tensor[(3), int64]",
		"sparse_reshape(%i, %p, %n)", "(Tensor[(5, 3), int64], Tensor[(3), int64])");
	expect_call_error(
		"%i: Tensor[(5), int64], %p: Tensor[(2), int64], %n: Tensor[(3), int64]",
		"sparse_reshape(%i, %p, %n)",
		"'sparse_reshape' expects 2-D integer indices and 1-D integer shapes, got "
		"Tensor[(5), int64], Tensor[(2), int64] and Tensor[(3), int64]");
	/* TVM's documented example, and strides that do not divide */
	expect_call_type("%x: Tensor[(3, 4, 5), float32]",
			 "sliding_window(%x, axis=1, window_shape=[2, 3], strides=[1, 1])",
			 "Tensor[(3, 3, 3, 2, 3), float32]");
	expect_call_type("%x: Tensor[(2, 10, 8), float32]",
			 "sliding_window(%x, axis=1, window_shape=[3, 4], strides=[2, 2])",
			 "Tensor[(2, 4, 3, 3, 4), float32]");
	expect_call_error(
		"%x: Tensor[(2, 10, 8), float32]",
		"sliding_window(%x, axis=2, window_shape=[3, 4], strides=[2, 2])",
		"'sliding_window' window [3, 4] from axis 2 does not fit Tensor[(2, 10, 8), "
		"float32]");
	expect_call_error(
		"%x: Tensor[(2, 10, 8), float32]",
		"sliding_window(%x, axis=1, window_shape=[11], strides=[1])",
		"'sliding_window' window [11] with strides [1] does not fit Tensor[(2, 10, 8), "
		"float32]");
}

/* sparse_to_dense with a static output_shape, and its operands' ranks. */
static void test_sparse_to_dense(void **state)
{
	(void)state;
	expect_call_type("%i: Tensor[(5, 2), int64], %v: Tensor[(5), float32], %d: float32",
			 "sparse_to_dense(%i, %v, %d, output_shape=[3, 4])",
			 "Tensor[(3, 4), float32]");
	expect_call_error(
		"%i: Tensor[(5, 2), int64], %v: Tensor[(5), float32], %d: Tensor[(1), "
		"float32]",
		"sparse_to_dense(%i, %v, %d, output_shape=[3, 4])",
		"'sparse_to_dense' expects integer indices of rank at most 3, values of rank "
		"at most 2 and a scalar default, got Tensor[(5, 2), int64], Tensor[(5), "
		"float32] and Tensor[(1), float32]");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_gather),        TEST(test_scatter),         TEST(test_adv_index),
		TEST(test_misc_indexing), TEST(test_sparse_to_dense),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
