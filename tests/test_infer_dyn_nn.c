/*
 * test_infer_dyn_nn.c - the type relations of the dyn_nn family of ops.def
 * (core/plan/infer/infer_dyn_nn.c): dyn.nn.pad, dyn.nn.upsampling,
 * dyn.nn.upsampling3d, dyn.image.resize2d.
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

/* The dyn.* forms: the run-time operands decide the spatial dimensions
 * (every one for pad), which are unknown; the rest are the data's. */
static void test_dyn_nn(void **state)
{
	(void)state;
	expect_type("%x: " F32(1, 3, 4, 6) ", %w: Tensor[(4, 2), int64], %v: float32",
		    "dyn.nn.pad(%x, %w, %v)", "Tensor[(?, ?, ?, ?), float32]");
	expect_type("%x: " F32(2, 3, 4, 6) ", %h: float32, %s: float32",
		    "dyn.nn.upsampling(%x, %h, %s, layout=\"NHWC\", method=\"bilinear\")",
		    "Tensor[(2, ?, ?, 6), float32]");
	expect_type("%x: " F32(1, 2, 3, 4, 5) ", %d: float32, %h: float32, %w: float32",
		    "dyn.nn.upsampling3d(%x, %d, %h, %w)", "Tensor[(1, 2, ?, ?, ?), float32]");
	expect_type("%x: " F32(1, 3, 4, 6) ", %s: Tensor[(2), int64], %r: Tensor[(4), float32]",
		    "dyn.image.resize2d(%x, %s, %r, out_dtype=\"float16\")",
		    "Tensor[(1, 3, ?, ?), float16]");
	expect_error("%x: " F32(1, 3, 4, 6) ", %w: Tensor[(3, 2), int64], %v: float32",
		     "dyn.nn.pad(%x, %w, %v)",
		     "'dyn.nn.pad' pad_width must be an integer tensor of shape (4, 2), got "
		     "Tensor[(3, 2), int64]");
	expect_error("%x: " F32(1, 3, 4, 6) ", %s: Tensor[(3), int64], %r: Tensor[(4), float32]",
		     "dyn.image.resize2d(%x, %s, %r)",
		     "'dyn.image.resize2d' size must be a 2-element integer tensor, got "
		     "Tensor[(3), int64]");
	expect_error("%x: " F32(2, 3, 4, 6) ", %h: Tensor[(2), float32], %s: float32",
		     "dyn.nn.upsampling(%x, %h, %s)",
		     "'dyn.nn.upsampling' scale_h must be a scalar, got Tensor[(2), float32]");
	expect_round_trip("#[version = \"0.0.5\"]\n"
			  "def @main(%x: Tensor[(1, 3, 4, 6), float32], %w: Tensor[(4, 2), int64], "
			  "%v: float32, %s: Tensor[(2), int64], %r: Tensor[(4), "
			  "float32]) {\n"
			  "  %0 = dyn.nn.pad(%x, %w, %v, pad_mode=\"edge\");\n"
			  "  dyn.image.resize2d(%0, %s, %r, layout=\"NCHW\", method=\"cubic\", "
			  "coordinate_transformation_mode=\"align_corners\", "
			  "rounding_method=\"round\", cubic_alpha=-0.5f, cubic_exclude=1, "
			  "extrapolation_value=1f, out_dtype=\"float32\")\n"
			  "}\n");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_dyn_nn),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
