/*
 * test_infer_nn_contrib.c - the type relations of the nn_contrib family of
 * ops.def (core/plan/infer/infer_nn_contrib.c):
 * nn.contrib_conv2d_winograd_weight_transform,
 * nn.contrib_conv3d_winograd_weight_transform,
 * nn.contrib_conv2d_winograd_nnpack_weight_transform,
 * nn.contrib_conv2d_gemm_weight_transform,
 * nn.contrib_conv2d_winograd_without_weight_transform,
 * nn.contrib_conv3d_winograd_without_weight_transform,
 * nn.contrib_conv2d_gemm_without_weight_transform, nn.contrib_conv2d_NCHWc,
 * nn.contrib_depthwise_conv2d_NCHWc, nn.bitpack, nn.bitserial_conv2d,
 * nn.bitserial_dense.
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

/* ---- nn.contrib_* ------------------------------------------------------------ */

static void test_contrib(void **state)
{
	(void)state;
	expect_type("%w: " F32(8, 4, 3, 3),
		    "nn.contrib_conv2d_winograd_weight_transform(%w, tile_size=4)",
		    F32(6, 6, 8, 4));
	expect_type("%w: " F32(8, 4, 3, 3, 3),
		    "nn.contrib_conv3d_winograd_weight_transform(%w, tile_size=4)",
		    F32(6, 6, 6, 8, 4));
	expect_type("%w: " F32(8, 4, 1, 3, 3),
		    "nn.contrib_conv3d_winograd_weight_transform(%w, tile_size=4)",
		    F32(6, 6, 1, 8, 4));
	expect_type("%w: " F32(8, 4, 3, 3),
		    "nn.contrib_conv2d_winograd_nnpack_weight_transform(%w, "
		    "convolution_algorithm=0, out_dtype=\"float64\")",
		    "Tensor[(8, 4, 8, 8), float64]");
	expect_type("%w: " F32(3, 3, 4, 8),
		    "nn.contrib_conv2d_gemm_weight_transform(%w, tile_rows=4, tile_cols=16)",
		    F32(2, 4, 4, 16));
	expect_type("%d: " F32(1, 4, 8, 8) ", %w: " F32(6, 6, 8, 4),
		    "nn.contrib_conv2d_winograd_without_weight_transform(%d, %w, tile_size=4, "
		    "padding=[1, 1], channels=8, kernel_size=[3, 3])",
		    F32(1, 8, 8, 8));
	expect_type("%d: " F32(1, 4, 8, 8, 8) ", %w: " F32(6, 6, 6, 8, 4),
		    "nn.contrib_conv3d_winograd_without_weight_transform(%d, %w, tile_size=4, "
		    "channels=8, kernel_size=[3, 3, 3])",
		    F32(1, 8, 6, 6, 6));
	expect_type("%d: " F32(1, 8, 8, 4) ", %w: " F32(2, 4, 4, 16),
		    "nn.contrib_conv2d_gemm_without_weight_transform(%d, %w, channels=8, "
		    "kernel_size=[3, 3], data_layout=\"NHWC\", kernel_layout=\"HWIO\")",
		    F32(1, 6, 6, 8));
	expect_error("%w: " F32(8, 4, 3, 3), "nn.contrib_conv2d_winograd_weight_transform(%w)",
		     "'nn.contrib_conv2d_winograd_weight_transform' needs a positive tile_size "
		     "attribute");
	expect_error("%d: " F32(1, 4, 8, 8) ", %w: " F32(6, 6, 8, 4),
		     "nn.contrib_conv2d_winograd_without_weight_transform(%d, %w, tile_size=4, "
		     "kernel_size=[3, 3])",
		     "'nn.contrib_conv2d_winograd_without_weight_transform' needs kernel_size and "
		     "channels attributes");
	expect_error("%w: " F32(3, 4, 8),
		     "nn.contrib_conv2d_gemm_weight_transform(%w, tile_rows=4, tile_cols=16)",
		     "'nn.contrib_conv2d_gemm_weight_transform' expects a 4-D HWIO weight, got "
		     "Tensor[(3, 4, 8), float32]");
}

static void test_blocked_and_bitserial(void **state)
{
	(void)state;
	expect_type("%d: " F32(1, 2, 8, 8, 4) ", %w: " F32(4, 2, 3, 3, 4, 4),
		    "nn.contrib_conv2d_NCHWc(%d, %w, padding=[1, 1], channels=16, "
		    "kernel_size=[3, 3], data_layout=\"NCHW4c\", kernel_layout=\"OIHW4i4o\")",
		    F32(1, 4, 8, 8, 4));
	expect_type("%d: " F32(1, 2, 8, 8, 4) ", %w: " F32(4, 2, 3, 3, 4, 4),
		    "nn.contrib_conv2d_NCHWc(%d, %w, padding=[1, 1], channels=16, "
		    "kernel_size=[3, 3], data_layout=\"NCHW4c\", kernel_layout=\"OIHW4i4o\", "
		    "out_layout=\"NCHW8c\")",
		    F32(1, 2, 8, 8, 8));
	expect_type("%d: " F32(1, 2, 8, 8, 4) ", %w: " F32(2, 1, 3, 3, 1, 4),
		    "nn.contrib_depthwise_conv2d_NCHWc(%d, %w, groups=8, channels=8, "
		    "kernel_size=[3, 3], data_layout=\"NCHW4c\", kernel_layout=\"OIHW1i4o\")",
		    F32(1, 2, 6, 6, 4));
	expect_type("%x: " F32(4, 64), "nn.bitpack(%x, bits=3, pack_type=\"int32\")",
		    "Tensor[(4, 2, 3), int32]");
	expect_type("%x: " F32(4, 64), "nn.bitpack(%x, bits=3, bit_axis=1, pack_type=\"int64\")",
		    "Tensor[(4, 3, 1), int64]");
	expect_type("%x: " F32(1, 4, 8, 8) ", %w: " F32(8, 4, 3, 3),
		    "nn.bitserial_conv2d(%x, %w, channels=8)", F32(1, 8, 6, 6));
	expect_type("%x: " F32(1, 8, 8, 4) ", %w: " F32(1, 1, 4, 8),
		    "nn.bitserial_conv2d(%x, %w, channels=8, kernel_size=[1, 1], "
		    "data_layout=\"NHWC\", out_dtype=\"int32\")",
		    "Tensor[(1, 8, 8, 8), int32]");
	expect_type("%x: " F32(2, 64) ", %w: " F32(16, 2), "nn.bitserial_dense(%x, %w, units=16)",
		    F32(2, 16));
	expect_error("%d: " F32(1, 2, 8, 8, 4) ", %w: " F32(4, 2, 3, 3, 4, 4),
		     "nn.contrib_conv2d_NCHWc(%d, %w, channels=16, kernel_size=[3, 3], "
		     "data_layout=\"NCHW4d\")",
		     "'nn.contrib_conv2d_NCHWc' does not support data_layout=\"NCHW4d\"");
	expect_error("%d: " F32(1, 2, 8, 8, 3) ", %w: " F32(4, 2, 3, 3, 4, 4),
		     "nn.contrib_conv2d_NCHWc(%d, %w, channels=16, kernel_size=[3, 3], "
		     "data_layout=\"NCHW4c\")",
		     "'nn.contrib_conv2d_NCHWc' data Tensor[(1, 2, 8, 8, 3), float32] does not "
		     "match data_layout=\"NCHW4c\"");
	expect_error("%d: " F32(1, 2, 8, 8, 4) ", %w: " F32(4, 2, 3, 3, 4, 4),
		     "nn.contrib_conv2d_NCHWc(%d, %w, channels=16, kernel_size=[3, 3], "
		     "data_layout=\"NCHW4c\", out_layout=\"NCHW3c\")",
		     "'nn.contrib_conv2d_NCHWc' output C of 16 does not split by 3");
	/* TVM's usual pack types: 64 channels are 8 uint8 words, 2 uint32 */
	expect_type("%x: " F32(4, 64), "nn.bitpack(%x, bits=2, pack_type=\"uint8\")",
		    "Tensor[(4, 8, 2), uint8]");
	expect_type("%x: " F32(4, 64), "nn.bitpack(%x, pack_type=\"uint32\")",
		    "Tensor[(4, 2, 1), uint32]");
	expect_type("%x: " F32(4, 64), "nn.bitpack(%x, pack_type=\"int16\")",
		    "Tensor[(4, 4, 1), int16]");
	expect_error("%x: " F32(4, 64), "nn.bitpack(%x, pack_type=\"uint4\")",
		     "'nn.bitpack' has unknown pack_type \"uint4\"");
	expect_error("%x: " F32(4, 64), "nn.bitpack(%x, pack_type=\"bfloat16\")",
		     "'nn.bitpack' needs an integer pack_type (such as uint8 or uint32), not "
		     "bfloat16");
	expect_error("%x: " F32(4, 64), "nn.bitpack(%x)", "'nn.bitpack' needs a pack_type");
	expect_error("%x: " F32(1, 4, 8, 8) ", %w: " F32(8, 4, 3, 3), "nn.bitserial_conv2d(%x, %w)",
		     "'nn.bitserial_conv2d' needs a channels attribute");
	expect_error("%x: " F32(2, 64) ", %w: " F32(16, 2), "nn.bitserial_dense(%x, %w)",
		     "'nn.bitserial_dense' needs a units attribute and data of at least one "
		     "dimension");
}

/* The nn.contrib_* operators, every attribute given. */
static void test_round_trip_contrib(void **state)
{
	(void)state;
	expect_round_trip(
		"#[version = \"0.0.5\"]\n"
		"def @main(%d: Tensor[(1, 4, 8, 8), float32], %w: Tensor[(8, 4, 3, 3), float32], "
		"%v: Tensor[(1, 4, 8, 8, 8), float32], %u: Tensor[(8, 4, 3, 3, 3), float32], "
		"%h: Tensor[(3, 3, 4, 8), float32], %b: Tensor[(1, 2, 8, 8, 4), float32], "
		"%k: Tensor[(2, 2, 3, 3, 4, 4), float32]) {\n"
		"  %0 = nn.contrib_conv2d_winograd_weight_transform(%w, tile_size=2);\n"
		"  %1 = nn.contrib_conv2d_winograd_without_weight_transform(%d, %0, tile_size=2, "
		"strides=[1, 1], padding=[1, 1], dilation=[1, 1], groups=1, channels=8, "
		"kernel_size=[3, 3], data_layout=\"NCHW\", kernel_layout=\"OIHW\", "
		"out_layout=\"\", "
		"out_dtype=\"float32\");\n"
		"  %2 = nn.contrib_conv3d_winograd_weight_transform(%u, tile_size=2);\n"
		"  %3 = nn.contrib_conv3d_winograd_without_weight_transform(%v, %2, tile_size=2, "
		"strides=[1, 1, 1], padding=[0, 0, 0], dilation=[1, 1, 1], groups=1, channels=8, "
		"kernel_size=[3, 3, 3], data_layout=\"NCDHW\", kernel_layout=\"OIDHW\", "
		"out_layout=\"NCDHW\", out_dtype=\"float32\");\n"
		"  %4 = nn.contrib_conv2d_winograd_nnpack_weight_transform(%w, "
		"convolution_algorithm=1, out_dtype=\"float32\");\n"
		"  %5 = nn.contrib_conv2d_gemm_weight_transform(%h, tile_rows=4, tile_cols=16);\n"
		"  %6 = transpose(%d, axes=[0, 2, 3, 1]);\n"
		"  %7 = nn.contrib_conv2d_gemm_without_weight_transform(%6, %5, strides=[1, 1], "
		"padding=[0, 0], dilation=[1, 1], groups=1, channels=8, kernel_size=[3, 3], "
		"data_layout=\"NHWC\", kernel_layout=\"HWIO\", out_layout=\"NHWC\", "
		"out_dtype=\"float32\");\n"
		"  %8 = nn.contrib_conv2d_NCHWc(%b, %k, strides=[1, 1], padding=[1, 1], "
		"dilation=[1, 1], groups=1, channels=8, kernel_size=[3, 3], "
		"data_layout=\"NCHW4c\", kernel_layout=\"OIHW4i4o\", out_layout=\"NCHW8c\", "
		"out_dtype=\"float32\");\n"
		"  %9 = nn.contrib_depthwise_conv2d_NCHWc(%b, %k, strides=[2, 2], padding=[0, 0], "
		"dilation=[1, 1], groups=8, channels=8, kernel_size=[3, 3], "
		"data_layout=\"NCHW4c\", kernel_layout=\"OIHW1i4o\", out_layout=\"\", "
		"out_dtype=\"float32\");\n"
		"  %10 = reshape(%d, newshape=[4, 64]);\n"
		"  %11 = nn.bitpack(%10, bits=2, pack_axis=1, bit_axis=0, pack_type=\"int32\", "
		"name=\"Pack\");\n"
		"  %12 = nn.bitserial_conv2d(%d, %w, strides=[1, 1], padding=[1, 1], channels=8, "
		"kernel_size=[3, 3], activation_bits=2, weight_bits=2, data_layout=\"NCHW\", "
		"kernel_layout=\"OIHW\", pack_dtype=\"int32\", out_dtype=\"int32\", "
		"unipolar=False);\n"
		"  %13 = nn.bitserial_dense(%10, %w, units=4, data_bits=2, weight_bits=2, "
		"pack_dtype=\"int32\", out_dtype=\"float32\", unipolar=False);\n"
		"  (%1, %3, %4, %7, %8, %9, %11, %12, %13)\n"
		"}\n");
	assert_string_equal(
		infer_type_name(mod, mod->globals[0].fn->u.fn.body->type),
		"(" F32(1, 8, 8, 8) ", " F32(1, 8, 6, 6, 6) ", " F32(8, 4, 8, 8) ", " F32(
			1, 6, 6,
			8) ", " F32(1, 1, 8, 8,
				    8) ", " F32(1, 2, 3, 3,
						4) ", Tensor[(2, 4, 2), int32], Tensor[(1, 8, 8, "
						   "8), int32], " F32(4, 4) ")");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_contrib),
		TEST(test_blocked_and_bitserial),
		TEST(test_round_trip_contrib),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
