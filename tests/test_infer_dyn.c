/*
 * test_infer_dyn.c - the type relations of the dyn family of ops.def
 * (core/plan/infer/infer_dyn.c): dyn.reshape, dyn.broadcast_to,
 * dyn.strided_slice, dyn.tile, dyn.topk, dyn.full, dyn.zeros, dyn.ones,
 * dyn.squeeze, dyn.expand_dims, dyn.one_hot, dyn.sparse_to_dense.
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

/* ---- dyn.* and sparse_to_dense ----------------------------------------- */

#define DX "%x: Tensor[(2, 3, 4), float32], %s3: Tensor[(3), int64], %s2: Tensor[(2), int32]"

static void test_dyn(void **state)
{
	(void)state;
	expect_call_type(DX, "dyn.reshape(%x, %s2)", "Tensor[(?, ?), float32]");
	expect_call_error(
		DX ", %q: Tensor[(?), int64]", "dyn.reshape(%x, %q)",
		"'dyn.reshape' newshape must be a 1-D integer tensor of known length, got "
		"Tensor[(?), int64]");
	expect_call_type(DX ", %s4: Tensor[(4), int64]", "dyn.broadcast_to(%x, %s4)",
			 "Tensor[(?, ?, ?, ?), float32]");
	expect_call_error(
		DX, "dyn.broadcast_to(%x, %s2)",
		"'dyn.broadcast_to' cannot broadcast Tensor[(2, 3, 4), float32] to rank 2");
	/* the sliced leading axes are unknown, the rest kept */
	expect_call_type(DX, "dyn.strided_slice(%x, %s2, %s2, %s2)", "Tensor[(?, ?, 4), float32]");
	expect_call_type(DX, "dyn.tile(%x, %s2)", "Tensor[(?, ?, ?), float32]");
	expect_call_type("%x: Tensor[(2), float32], %s3: Tensor[(3), int64]", "dyn.tile(%x, %s3)",
			 "Tensor[(?, ?, ?), float32]");
	expect_call_type(DX ", %k: int32", "dyn.topk(%x, %k, axis=1)",
			 "(Tensor[(2, ?, 4), float32], Tensor[(2, ?, 4), int32])");
	expect_call_type(DX ", %k: Tensor[(1), int64]",
			 "dyn.topk(%x, %k, ret_type=\"indices\", dtype=\"int64\")",
			 "Tensor[(2, 3, ?), int64]");
	expect_call_error(DX ", %k: Tensor[(2), int64]", "dyn.topk(%x, %k)",
			  "'dyn.topk' k must be a scalar or a tensor of shape (1), got Tensor[(2), "
			  "int64]");
	expect_call_type(DX ", %v: int32", "dyn.full(%v, %s3)", "Tensor[(?, ?, ?), int32]");
	expect_call_type(DX ", %v: int32", "dyn.full(%v, %s2, dtype=\"float16\")",
			 "Tensor[(?, ?), float16]");
	expect_call_type(DX, "dyn.zeros(%s3)", "Tensor[(?, ?, ?), float32]");
	expect_call_type(DX, "dyn.ones(%s2, dtype=\"int64\")", "Tensor[(?, ?), int64]");
	expect_call_error(DX ", %f: Tensor[(3), float32]", "dyn.zeros(%f)",
			  "'dyn.zeros' shape must be a 1-D integer tensor of known length, got "
			  "Tensor[(3), float32]");
	expect_call_type(DX, "dyn.squeeze(%x, %s2)", "Tensor[(?), float32]");
	expect_call_error(DX ", %s4: Tensor[(4), int64]", "dyn.squeeze(%x, %s4)",
			  "'dyn.squeeze' cannot squeeze 4 axes of Tensor[(2, 3, 4), float32]");
	expect_call_type(DX ", %a: int64", "dyn.expand_dims(%x, %a)",
			 "Tensor[(?, ?, ?, ?), float32]");
	expect_call_type(DX ", %a: int64", "dyn.expand_dims(%x, %a, num_newaxis=2)",
			 "Tensor[(?, ?, ?, ?, ?), float32]");
	expect_call_error(DX, "dyn.expand_dims(%x, %s2)",
			  "'dyn.expand_dims' axis must be a scalar, got Tensor[(2), int32]");
	expect_call_type("%i: Tensor[(2, 3), int32], %on: float32, %off: float32, %d: int32",
			 "dyn.one_hot(%i, %on, %off, %d, axis=1)", "Tensor[(2, ?, 3), float32]");
	expect_call_type("%i: Tensor[(2, 3), int32], %on: float32, %off: float32, %d: int32",
			 "dyn.one_hot(%i, %on, %off, %d, dtype=\"int32\")",
			 "Tensor[(2, 3, ?), int32]");
	expect_call_type("%i: Tensor[(5, 2), int64], %v: Tensor[(5), float32], %d: float32, %o: "
			 "Tensor[(2), int64]",
			 "dyn.sparse_to_dense(%i, %v, %d, %o)", "Tensor[(?, ?), float32]");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_dyn),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
