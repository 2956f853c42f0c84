/*
 * test_infer_norm.c - the type relations of the norm family of ops.def
 * (core/plan/infer/infer_norm.c): nn.batch_norm, nn.layer_norm,
 * nn.group_norm, nn.instance_norm, nn.l2_normalize, nn.lrn, nn.log_softmax.
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

/* ---- normalisations ------------------------------------------------------ */

#define BN_PARAMS(shape, c) "%x: " shape ", %g: " c ", %b: " c ", %m: " c ", %v: " c

static void test_batch_norm(void **state)
{
	(void)state;
	expect_type(BN_PARAMS(F32(2, 3, 4, 5), F32(3)), "nn.batch_norm(%x, %g, %b, %m, %v)",
		    "(" F32(2, 3, 4, 5) ", " F32(3) ", " F32(3) ")");
	expect_type(BN_PARAMS(F32(2, 3, 4, 5), F32(5)),
		    "nn.batch_norm(%x, %g, %b, %m, %v, axis=-1, epsilon=0.001f, center=False)",
		    "(" F32(2, 3, 4, 5) ", " F32(5) ", " F32(5) ")");
	expect_type(BN_PARAMS(F32(?, 3, 4, 4), F32(3)), "nn.batch_norm(%x, %g, %b, %m, %v)",
		    "(" F32(?, 3, 4, 4) ", " F32(3) ", " F32(3) ")");
}

static void test_batch_norm_errors(void **state)
{
	(void)state;
	expect_error("%x: " F32(2, 3, 4,
				5) ", %g: " F32(4) ", %b: " F32(3) ", %m: " F32(3) ", %v: " F32(3),
		     "nn.batch_norm(%x, %g, %b, %m, %v)",
		     "'nn.batch_norm' expects argument 2 of type Tensor[(3), float32] (the channel "
		     "axis of Tensor[(2, 3, 4, 5), float32]), got Tensor[(4), float32]");
	expect_error("%x: " F32(2, 3, 4, 5) ", %g: " F32(3) ", %b: " F32(3) ", %m: " F32(
			     3) ", %v: Tensor[(3), float64]",
		     "nn.batch_norm(%x, %g, %b, %m, %v)",
		     "'nn.batch_norm' expects argument 5 of type Tensor[(3), float32] (the channel "
		     "axis of Tensor[(2, 3, 4, 5), float32]), got Tensor[(3), float64]");
	expect_error(BN_PARAMS(F32(2, 3, 4, 5), F32(3)),
		     "nn.batch_norm(%x, %g, %b, %m, %v, axis=4)",
		     "'nn.batch_norm' axis 4 is out of range for Tensor[(2, 3, 4, 5), float32]");
}

static void test_layer_instance_group_norm(void **state)
{
	(void)state;
	expect_type("%x: " F32(2, 7, 16) ", %g: " F32(16) ", %b: " F32(16),
		    "nn.layer_norm(%x, %g, %b)", F32(2, 7, 16));
	expect_type("%x: " F32(2, 7, 16) ", %g: " F32(7) ", %b: " F32(7),
		    "nn.layer_norm(%x, %g, %b, axis=1, epsilon=1e-06f, scale=False)",
		    F32(2, 7, 16));
	expect_type("%x: " F32(2, 3, 5) ", %g: " F32(3) ", %b: " F32(3),
		    "nn.instance_norm(%x, %g, %b)", F32(2, 3, 5));
	expect_type("%x: " F32(2, 6, 4, 4) ", %g: " F32(6) ", %b: " F32(6),
		    "nn.group_norm(%x, %g, %b, num_groups=3)", F32(2, 6, 4, 4));
	expect_type("%x: " F32(2, 4, 4, 6) ", %g: " F32(6) ", %b: " F32(6),
		    "nn.group_norm(%x, %g, %b, num_groups=2, axis=-1)", F32(2, 4, 4, 6));
}

static void test_norm_errors(void **state)
{
	(void)state;
	expect_error(
		"%x: " F32(2, 7, 16) ", %g: " F32(7) ", %b: " F32(16), "nn.layer_norm(%x, %g, %b)",
		"'nn.layer_norm' expects argument 2 of type Tensor[(16), float32] (the channel "
		"axis of Tensor[(2, 7, 16), float32]), got Tensor[(7), float32]");
	expect_error("%x: " F32(2, 3) ", %g: " F32(3) ", %b: " F32(3),
		     "nn.instance_norm(%x, %g, %b)",
		     "'nn.instance_norm' expects data of at least 3 dimensions, got "
		     "Tensor[(2, 3), float32]");
	expect_error("%x: " F32(2, 6, 4, 4) ", %g: " F32(6) ", %b: " F32(6),
		     "nn.group_norm(%x, %g, %b, num_groups=4)",
		     "'nn.group_norm' data Tensor[(2, 6, 4, 4), float32] has 6 channels, not "
		     "divisible by num_groups=4");
	expect_error("%x: " F32(2, 6, 4, 4) ", %g: " F32(6) ", %b: " F32(6),
		     "nn.group_norm(%x, %g, %b)",
		     "'nn.group_norm' attribute num_groups=0 must be positive");
	expect_parse_error("%x: " F32(2, 6, 4, 4) ", %g: " F32(6) ", %b: " F32(6),
			   "nn.group_norm(%x, %g, %b, num_groups=2, epsilon=\"small\")",
			   "attribute 'epsilon' of 'nn.group_norm' expects a number, found a "
			   "string");
}

static void test_l2_normalize_lrn(void **state)
{
	(void)state;
	expect_type("%x: " F32(2, 3, 4), "nn.l2_normalize(%x, eps=1e-10f, axis=[1, 2])",
		    F32(2, 3, 4));
	expect_type("%x: " F32(1, 8, 5, 5), "nn.lrn(%x, size=3, axis=1, bias=1f, beta=0.5f)",
		    F32(1, 8, 5, 5));
	expect_error("%x: " F32(2, 3, 4), "nn.l2_normalize(%x, eps=1e-10f, axis=[3])",
		     "'nn.l2_normalize' axis 3 is out of range for Tensor[(2, 3, 4), float32]");
	expect_error("%x: " F32(1, 8, 5, 5), "nn.lrn(%x, size=0)",
		     "'nn.lrn' attribute size=0 must be positive");
	expect_error("%x: " F32(1, 8, 5, 5), "nn.lrn(%x, axis=-5)",
		     "'nn.lrn' axis -5 is out of range for Tensor[(1, 8, 5, 5), float32]");
}

/* ---- printing ------------------------------------------------------------- */

/* Every operator of the family with non-default attributes reads back as
 * printed [P1]. */
static void test_round_trip(void **state)
{
	(void)state;
	expect_round_trip(
		"#[version = \"0.0.5\"]\n"
		"def @main(%x: Tensor[(2, 4, 6, 6), float32], %c: Tensor[(4), float32], "
		"%w: Tensor[(8, 5), float32]) {\n"
		"  %0 = nn.batch_norm(%x, %c, %c, %c, %c, axis=1, epsilon=0.001f, center=False, "
		"scale=False);\n"
		"  %1 = %0.0;\n"
		"  %2 = nn.instance_norm(%1, %c, %c, axis=1, epsilon=0.001f, center=False, "
		"scale=False);\n"
		"  %3 = nn.group_norm(%2, %c, %c, num_groups=2, axis=1, epsilon=0.001f, "
		"center=False, scale=False);\n"
		"  %4 = nn.l2_normalize(%3, eps=1e-10f, axis=[1]);\n"
		"  %5 = nn.lrn(%4, size=3, axis=1, bias=1f, alpha=0.001f, beta=0.5f);\n"
		"  %6 = nn.pad(%5, 1f, pad_width=[[0, 0], [0, 0], [1, 1], [1, 1]], "
		"pad_mode=\"reflect\");\n"
		"  %7 = nn.dropout(%6, rate=0.25f);\n"
		"  %8 = %7.0;\n"
		"  %9 = nn.leaky_relu(%8, alpha=0.2f);\n"
		"  %10 = nn.prelu(%9, %c, axis=1);\n"
		"  %11 = nn.log_softmax(%10, axis=1);\n"
		"  %12 = nn.fast_softmax(%11, axis=1);\n"
		"  %13 = nn.upsampling(%12, scale_h=2f, scale_w=2f, layout=\"NCHW\", "
		"method=\"bilinear\", align_corners=True);\n"
		"  %14 = nn.space_to_depth(%13, block_size=2, layout=\"NCHW\", mode=\"CDR\");\n"
		"  %15 = nn.depth_to_space(%14, block_size=2, layout=\"NCHW\", mode=\"CDR\");\n"
		"  %16 = expand_dims(%15, axis=2);\n"
		"  %17 = nn.upsampling3d(%16, scale_d=2f, scale_h=0.5f, scale_w=0.5f, "
		"layout=\"NCDHW\", method=\"trilinear\", "
		"coordinate_transformation_mode=\"asymmetric\");\n"
		"  %18 = nn.layer_norm(%17, %c, %c, axis=1, epsilon=0.001f, center=False, "
		"scale=False);\n"
		"  %19 = nn.matmul(%18, %w, units=5, out_dtype=\"float32\", transpose_a=True, "
		"transpose_b=False);\n"
		"  nn.relu(%19)\n"
		"}\n");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_batch_norm),
		TEST(test_batch_norm_errors),
		TEST(test_layer_instance_group_norm),
		TEST(test_norm_errors),
		TEST(test_l2_normalize_lrn),
		TEST(test_round_trip),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
