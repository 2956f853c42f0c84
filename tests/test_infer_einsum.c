/*
 * test_infer_einsum.c - the type relations of the einsum family of ops.def
 * (core/plan/infer/infer_einsum.c): einsum, stft, dft.
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

/* ---- einsum, stft, dft ------------------------------------------------- */

#define AB "%a: Tensor[(2, 3), float32], %b: Tensor[(3, 4), float32]"

static void test_einsum(void **state)
{
	(void)state;
	expect_call_type(AB, "einsum((%a, %b), equation=\"ij,jk->ik\")", "Tensor[(2, 4), float32]");
	/* implicit output: the letters used once, in alphabetical order */
	expect_call_type(AB, "einsum((%a, %b), equation=\"ij,jk\")", "Tensor[(2, 4), float32]");
	expect_call_type(AB, "einsum((%a,), equation=\"ij->ji\")", "Tensor[(3, 2), float32]");
	expect_call_type("%s: Tensor[(3, 3), float32]", "einsum((%s,), equation=\"ii->i\")",
			 "Tensor[(3), float32]");
	expect_call_type("%s: Tensor[(3, 3), float32]", "einsum((%s,), equation=\"ii\")",
			 "float32");
	expect_call_type("%a: Tensor[(5, 2, 3), float32], %b: Tensor[(5, 3, 4), float32]",
			 "einsum((%a, %b), equation=\"bij,bjk->bik\")",
			 "Tensor[(5, 2, 4), float32]");
	/* the ellipsis broadcasts the unnamed dimensions */
	expect_call_type("%a: Tensor[(5, 2, 3), float32], %b: Tensor[(3, 4), float32]",
			 "einsum((%a, %b), equation=\"...ij,...jk->...ik\")",
			 "Tensor[(5, 2, 4), float32]");
	expect_call_type("%a: Tensor[(5, 1, 2, 3), float32], %b: Tensor[(6, 3, 4), float32]",
			 "einsum((%a, %b), equation=\"...ij,...jk\")",
			 "Tensor[(5, 6, 2, 4), float32]");
	expect_call_error(
		"%a: Tensor[(2, 3), float32], %b: Tensor[(4, 5), float32]",
		"einsum((%a, %b), equation=\"ij,jk->ik\")",
		"'einsum' equation \"ij,jk->ik\" does not match the operands (Tensor[(2, 3), "
		"float32], Tensor[(4, 5), float32])");
	expect_call_error(AB, "einsum((%a,), equation=\"ij->ik\")",
			  "'einsum' equation \"ij->ik\" is malformed for 1 operands");
	expect_call_error(AB, "einsum((%a,), equation=\"ij,jk->ik\")",
			  "'einsum' equation \"ij,jk->ik\" is malformed for 1 operands");
	expect_call_error(
		AB, "einsum((%a, %b), equation=\"ijk,jk->ik\")",
		"'einsum' equation \"ijk,jk->ik\" does not match the operands (Tensor[(2, 3), "
		"float32], Tensor[(3, 4), float32])");
}

static void test_stft_dft(void **state)
{
	(void)state;
	/* n_fft / 2 + 1 frequencies, (100 - 16) / 4 + 1 frames */
	expect_call_type("%x: Tensor[(1, 100), float32], %w: Tensor[(16), float32]",
			 "stft(%x, %w, n_fft=16, hop_length=4, win_length=16)",
			 "Tensor[(1, 9, 22, 2), float32]");
	expect_call_type("%x: Tensor[(100), float32], %w: Tensor[(16), float32]",
			 "stft(%x, %w, n_fft=16, hop_length=4, win_length=16, onesided=False)",
			 "Tensor[(16, 22, 2), float32]");
	expect_call_error("%x: Tensor[(10), float32], %w: Tensor[(16), float32]",
			  "stft(%x, %w, n_fft=16, hop_length=4, win_length=16)",
			  "'stft' signal Tensor[(10), float32] is shorter than n_fft 16");
	expect_call_type("%r: Tensor[(4, 8), float32], %i: Tensor[(4, 8), float32]",
			 "dft(%r, %i, inverse=True)",
			 "(Tensor[(4, 8), float32], Tensor[(4, 8), float32])");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_einsum),
		TEST(test_stft_dft),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
