/*
 * test_infer_activation.c - the type relations of the activation family of
 * ops.def (core/plan/infer/infer_activation.c): nn.dropout, nn.leaky_relu,
 * nn.prelu.
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

/* ---- activations, dropout, softmax ---------------------------------------- */

static void test_activations(void **state)
{
	(void)state;
	expect_type("%x: " F32(4, 5), "nn.dropout(%x, rate=0.2f)",
		    "(" F32(4, 5) ", " F32(4, 5) ")");
	expect_type("%x: " F32(4, 5), "nn.leaky_relu(%x, alpha=0.1f)", F32(4, 5));
	expect_type("%x: " F32(1, 4, 6, 6) ", %a: " F32(4), "nn.prelu(%x, %a)", F32(1, 4, 6, 6));
	expect_type("%x: " F32(1, 4, 6, 7) ", %a: " F32(7), "nn.prelu(%x, %a, axis=3)",
		    F32(1, 4, 6, 7));
	expect_type("%x: " F32(2, 10), "nn.log_softmax(%x)", F32(2, 10));
}

static void test_activation_errors(void **state)
{
	(void)state;
	expect_error("%x: " F32(4, 5), "nn.dropout(%x, rate=1.5f)",
		     "'nn.dropout' attribute rate=1.5 must be between 0 and 1");
	expect_error("%x: " F32(4, 5), "nn.leaky_relu(%x, alpha=-1f)",
		     "'nn.leaky_relu' attribute alpha=-1 must not be negative");
	expect_error("%x: " F32(1, 4, 6, 6) ", %a: " F32(5), "nn.prelu(%x, %a)",
		     "'nn.prelu' expects argument 2 of type Tensor[(4), float32] (the channel axis "
		     "of Tensor[(1, 4, 6, 6), float32]), got Tensor[(5), float32]");
	expect_error("%x: " F32(2, 10), "nn.log_softmax(%x, axis=2)",
		     "'nn.log_softmax' axis 2 is out of range for Tensor[(2, 10), float32]");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_activations),
		TEST(test_activation_errors),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
