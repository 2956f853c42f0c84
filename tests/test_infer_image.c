/*
 * test_infer_image.c - the type relations of the image family of ops.def
 * (core/plan/infer/infer_image.c): nn.upsampling, nn.upsampling3d,
 * image.resize1d, image.resize2d, image.resize3d, image.crop_and_resize,
 * image.dilation2d, image.affine_grid, image.grid_sample.
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

/* ---- resampling -------------------------------------------------------------- */

static void test_resampling(void **state)
{
	(void)state;
	expect_type("%x: " F32(1, 3, 4, 6), "nn.upsampling(%x, scale_h=2f, scale_w=1.5f)",
		    F32(1, 3, 8, 9));
	expect_type(
		"%x: " F32(1, 4, 6, 3),
		"nn.upsampling(%x, scale_h=2f, scale_w=2f, layout=\"NHWC\", method=\"bilinear\", "
		"align_corners=True)",
		F32(1, 8, 12, 3));
	expect_type(
		"%x: " F32(1, 2, 3, 4, 5),
		"nn.upsampling3d(%x, scale_d=2f, scale_h=2f, scale_w=0.6f, method=\"trilinear\")",
		F32(1, 2, 6, 8, 3));
}

static void test_resampling_errors(void **state)
{
	(void)state;
	expect_error("%x: " F32(1, 3, 4, 6), "nn.upsampling(%x, layout=\"NCH\")",
		     "'nn.upsampling' does not support layout=\"NCH\" (a permutation of NCHW is "
		     "expected)");
	expect_error("%x: " F32(1, 3, 4), "nn.upsampling(%x)",
		     "'nn.upsampling' expects 4-D data (NCHW), got Tensor[(1, 3, 4), float32]");
	expect_error("%x: " F32(1, 3, 4, 6), "nn.upsampling(%x, method=\"linear\")",
		     "'nn.upsampling' attribute method=\"linear\" must be \"nearest_neighbor\", "
		     "\"bilinear\" or \"bicubic\"");
	expect_error("%x: " F32(1, 3, 4, 6), "nn.upsampling(%x, scale_h=0f)",
		     "'nn.upsampling' attribute scale_h=0 must be positive");
	expect_error("%x: " F32(1, 2, 3, 4, 5), "nn.upsampling3d(%x, method=\"bilinear\")",
		     "'nn.upsampling3d' attribute method=\"bilinear\" must be \"nearest_neighbor\" "
		     "or \"trilinear\"");
}

/* ---- image.* ----------------------------------------------------------------- */

static void test_image(void **state)
{
	(void)state;
	expect_type("%x: " F32(1, 3, 10), "image.resize1d(%x, size=[20])", F32(1, 3, 20));
	expect_type("%x: " F32(1, 3, 4, 6), "image.resize2d(%x, size=[8, 12])", F32(1, 3, 8, 12));
	expect_type("%x: " F32(1, 4, 6, 3),
		    "image.resize2d(%x, size=[2, 3], roi=[0f, 0f, 1f, 1f], layout=\"NHWC\", "
		    "method=\"nearest_neighbor\", "
		    "coordinate_transformation_mode=\"tf_crop_and_resize\", out_dtype=\"float64\")",
		    "Tensor[(1, 2, 3, 3), float64]");
	expect_type("%x: " F32(1, 2, 4, 4, 4), "image.resize3d(%x, size=[8, 8, 2])",
		    F32(1, 2, 8, 8, 2));
	expect_type("%x: " F32(2, 3, 16, 16) ", %b: " F32(5, 4) ", %i: Tensor[(5), int32]",
		    "image.crop_and_resize(%x, %b, %i, crop_size=[7, 7])", F32(5, 3, 7, 7));
	expect_type("%d: " F32(1, 3, 8, 8) ", %w: " F32(3, 3, 3), "image.dilation2d(%d, %w)",
		    F32(1, 3, 6, 6));
	expect_type("%d: " F32(1, 3, 8, 8) ", %w: " F32(3, 3, 3),
		    "image.dilation2d(%d, %w, strides=[2, 2], padding=[1, 1], dilations=[2, 2])",
		    F32(1, 3, 3, 3));
	/* channels last, as TVM's relation converts the layouts */
	expect_type("%d: " F32(1, 8, 8, 3) ", %w: " F32(3, 2, 3),
		    "image.dilation2d(%d, %w, data_layout=\"NHWC\", kernel_layout=\"HWI\")",
		    F32(1, 6, 7, 3));
	expect_type("%x: " F32(4, 2, 3), "image.affine_grid(%x, target_shape=[16, 32])",
		    F32(4, 2, 16, 32));
	expect_type("%x: " F32(1, 3, 8, 8) ", %g: " F32(1, 2, 5, 6), "image.grid_sample(%x, %g)",
		    F32(1, 3, 5, 6));
	expect_type("%x: " F32(1, 3, 4, 4, 4) ", %g: " F32(1, 3, 2, 3, 4),
		    "image.grid_sample(%x, %g, layout=\"NCDHW\")", F32(1, 3, 2, 3, 4));
}

static void test_image_errors(void **state)
{
	(void)state;
	expect_error("%x: " F32(1, 3, 4, 6), "image.resize2d(%x)",
		     "'image.resize2d' needs a size attribute of 2 values");
	expect_error("%x: " F32(1, 3, 4, 6), "image.resize2d(%x, size=[8, 8], roi=[0f, 0f])",
		     "'image.resize2d' attribute roi must have 4 values");
	expect_error("%x: " F32(1, 3, 4, 6), "image.resize2d(%x, size=[8, 8], method=\"area\")",
		     "'image.resize2d' attribute method=\"area\" must be \"nearest_neighbor\", "
		     "\"linear\" or \"cubic\"");
	expect_error("%x: " F32(1, 3, 4, 6), "image.resize1d(%x, size=[8])",
		     "'image.resize1d' expects 3-D data (NCW), got Tensor[(1, 3, 4, 6), float32]");
	expect_parse_error("%x: " F32(1, 3, 4, 6),
			   "image.resize2d(%x, size=[8, 8], roi=[0f, \"a\", 1f, 1f])",
			   "attribute 'roi' of 'image.resize2d' expects a list of numbers, found a "
			   "list holding a string");
	expect_error("%x: " F32(2, 3, 16, 16) ", %b: " F32(5, 3) ", %i: Tensor[(5), int32]",
		     "image.crop_and_resize(%x, %b, %i, crop_size=[7, 7])",
		     "'image.crop_and_resize' expects boxes of shape (B, 4), got "
		     "Tensor[(5, 3), float32]");
	expect_error("%x: " F32(2, 3, 16, 16) ", %b: " F32(5, 4) ", %i: Tensor[(4), int32]",
		     "image.crop_and_resize(%x, %b, %i, crop_size=[7, 7])",
		     "'image.crop_and_resize' expects box indices of shape (5), got "
		     "Tensor[(4), int32]");
	expect_error("%d: " F32(1, 3, 8, 8) ", %w: " F32(4, 3, 3), "image.dilation2d(%d, %w)",
		     "'image.dilation2d' channel mismatch: data Tensor[(1, 3, 8, 8), float32] and "
		     "weight Tensor[(4, 3, 3), float32]");
	expect_error("%x: " F32(4, 3, 3), "image.affine_grid(%x, target_shape=[16, 32])",
		     "'image.affine_grid' expects affine matrices of shape (B, 2, 3), got "
		     "Tensor[(4, 3, 3), float32]");
	expect_error("%x: " F32(4, 2, 3), "image.affine_grid(%x)",
		     "'image.affine_grid' needs a target_shape attribute of 2 values");
	expect_error("%x: " F32(1, 3, 8, 8) ", %g: " F32(1, 3, 5, 6), "image.grid_sample(%x, %g)",
		     "'image.grid_sample' expects a grid of shape (1, 2, ...) for "
		     "Tensor[(1, 3, 8, 8), float32], got Tensor[(1, 3, 5, 6), float32]");
	expect_error("%x: " F32(1, 3, 8, 8) ", %g: " F32(1, 2, 5, 6),
		     "image.grid_sample(%x, %g, padding_mode=\"wrap\")",
		     "'image.grid_sample' attribute padding_mode=\"wrap\" must be \"zeros\", "
		     "\"border\" or \"reflection\"");
}

/* The image.* operators, every attribute given. */
static void test_round_trip_image(void **state)
{
	(void)state;
	expect_round_trip(
		"#[version = \"0.0.5\"]\n"
		"def @main(%x: Tensor[(1, 3, 8, 8), float32], %b: Tensor[(2, 4), float32], "
		"%i: Tensor[(2), int32], %w: Tensor[(3, 2, 2), float32], "
		"%a: Tensor[(1, 2, 3), float32]) {\n"
		"  %0 = image.resize2d(%x, size=[16, 16], roi=[0f, 0f, 0.5f, 0.5f], "
		"layout=\"NCHW\", method=\"cubic\", "
		"coordinate_transformation_mode=\"align_corners\", "
		"rounding_method=\"floor\", cubic_alpha=-0.75f, cubic_exclude=1, "
		"extrapolation_value=1f, out_dtype=\"float32\");\n"
		"  %1 = reshape(%0, newshape=[1, 3, 256]);\n"
		"  %2 = image.resize1d(%1, size=[64], roi=[0f, 1f], layout=\"NCW\", "
		"method=\"nearest_neighbor\", coordinate_transformation_mode=\"asymmetric\", "
		"rounding_method=\"ceil\", cubic_alpha=-0.5f, cubic_exclude=0, "
		"extrapolation_value=0f, out_dtype=\"float32\");\n"
		"  %3 = reshape(%2, newshape=[1, 3, 4, 4, 4]);\n"
		"  %4 = image.resize3d(%3, size=[2, 2, 2], roi=[0f, 0f, 0f, 1f, 1f, 1f], "
		"layout=\"NCDHW\", method=\"linear\", "
		"coordinate_transformation_mode=\"pytorch_half_pixel\", "
		"rounding_method=\"round_prefer_ceil\", cubic_alpha=-0.5f, cubic_exclude=0, "
		"extrapolation_value=0f, out_dtype=\"float32\");\n"
		"  %5 = image.crop_and_resize(%x, %b, %i, crop_size=[4, 4], layout=\"NCHW\", "
		"method=\"nearest_neighbor\", extrapolation_value=1f, out_dtype=\"float32\");\n"
		"  %6 = image.dilation2d(%5, %w, strides=[2, 2], padding=[1, 1, 0, 0], "
		"dilations=[1, 1], data_layout=\"NCHW\", kernel_layout=\"IHW\", "
		"out_dtype=\"float32\");\n"
		"  %7 = image.affine_grid(%a, target_shape=[4, 5]);\n"
		"  %8 = image.grid_sample(%x, %7, method=\"nearest\", layout=\"NCHW\", "
		"padding_mode=\"border\", align_corners=False);\n"
		"  (%4, %6, %8)\n"
		"}\n");
	assert_string_equal(infer_type_name(mod, mod->globals[0].fn->u.fn.body->type),
			    "(" F32(1, 3, 2, 2, 2) ", " F32(2, 3, 2, 2) ", " F32(1, 3, 4, 5) ")");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_resampling),   TEST(test_resampling_errors), TEST(test_image),
		TEST(test_image_errors), TEST(test_round_trip_image),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
