/*
 * test_infer_vision.c - the type relations of the vision family of ops.def
 * (core/plan/infer/infer_vision.c): vision.multibox_prior,
 * vision.multibox_transform_loc, vision.get_valid_counts,
 * vision.non_max_suppression, vision.all_class_non_max_suppression,
 * vision.regular_non_max_suppression, vision.roi_align, vision.roi_pool,
 * vision.yolo_reorg, vision.proposal.
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

/* ---- vision.* ------------------------------------------------------------- */

#define I32(...) "Tensor[(" #__VA_ARGS__ "), int32]"
#define I64(...) "Tensor[(" #__VA_ARGS__ "), int64]"

static void test_vision(void **state)
{
	(void)state;
	expect_type("%x: " F32(1, 3, 4, 5),
		    "vision.multibox_prior(%x, sizes=[1f, 0.5f], ratios=[1f, 2f, 0.5f])",
		    F32(1, 80, 4));
	expect_type("%x: " F32(1, 3, 4, 5), "vision.multibox_prior(%x)", F32(1, 20, 4));
	expect_type("%c: " F32(1, 3, 80) ", %l: " F32(1, 320) ", %a: " F32(1, 80, 4),
		    "vision.multibox_transform_loc(%c, %l, %a)", "(" F32(1, 80, 6) ", " I32(1) ")");
	expect_type("%d: " F32(2, 100, 6), "vision.get_valid_counts(%d, 0.5f)",
		    "(" I32(2) ", " F32(2, 100, 6) ", " I32(2, 100) ")");
	expect_type("%d: " F32(2, 100, 6) ", %v: " I32(2) ", %i: " I32(2, 100),
		    "vision.non_max_suppression(%d, %v, %i, -1, 0.5f)",
		    "(" I32(2, 100) ", " I32(2, 1) ")");
	expect_type("%d: " F32(2, 100, 6) ", %v: " I32(2) ", %i: " I32(2, 100),
		    "vision.non_max_suppression(%d, %v, %i, -1, 0.5f, return_indices=False)",
		    F32(2, 100, 6));
	expect_type("%b: " F32(1, 50, 4) ", %s: " F32(1, 3, 50),
		    "vision.all_class_non_max_suppression(%b, %s, 10, 0.5f, 0.1f)",
		    "(" I64(150, 3) ", " I64(1) ")");
	expect_type("%b: " F32(1, 50, 4) ", %s: " F32(1, 3, 50),
		    "vision.all_class_non_max_suppression(%b, %s, 10, 0.5f, 0.1f, "
		    "output_format=\"tensorflow\")",
		    "(" I64(1, 150, 2) ", " F32(1, 150) ", " I64(1) ")");
	expect_type("%b: " F32(1, 50, 4) ", %s: " F32(1, 50, 3),
		    "vision.regular_non_max_suppression(%b, %s, max_detections=10)",
		    "(" F32(1, 10, 4) ", " F32(1, 10) ", " F32(1, 10) ", " I32(1) ")");
	expect_type("%d: " F32(1, 8, 16, 16) ", %r: " F32(4, 5),
		    "vision.roi_align(%d, %r, pooled_size=[7, 7], spatial_scale=0.0625f)",
		    F32(4, 8, 7, 7));
	expect_type("%d: " F32(1, 16, 16, 8) ", %r: " F32(4, 5),
		    "vision.roi_pool(%d, %r, pooled_size=[2, 3], layout=\"NHWC\")",
		    F32(4, 2, 3, 8));
	expect_type("%x: " F32(1, 4, 6, 6), "vision.yolo_reorg(%x, stride=2)", F32(1, 16, 3, 3));
	expect_type("%c: " F32(1, 6, 4, 4) ", %b: " F32(1, 12, 4, 4) ", %i: " F32(1, 3),
		    "vision.proposal(%c, %b, %i, rpn_post_nms_top_n=100)", F32(100, 5));
	expect_type("%c: " F32(2, 6, 4, 4) ", %b: " F32(2, 12, 4, 4) ", %i: " F32(2, 3),
		    "vision.proposal(%c, %b, %i)", F32(600, 5));
}

static void test_vision_errors(void **state)
{
	(void)state;
	expect_error("%c: " F32(1, 3, 80) ", %l: " F32(1, 300) ", %a: " F32(1, 80, 4),
		     "vision.multibox_transform_loc(%c, %l, %a)",
		     "'vision.multibox_transform_loc' anchors do not match: class probabilities "
		     "Tensor[(1, 3, 80), float32], location predictions Tensor[(1, 300), float32], "
		     "anchors Tensor[(1, 80, 4), float32]");
	expect_error("%c: " F32(1, 3, 80) ", %l: " F32(1, 320) ", %a: " F32(1, 80, 4),
		     "vision.multibox_transform_loc(%c, %l, %a, variances=[0.1f])",
		     "'vision.multibox_transform_loc' attribute variances must have 4 values");
	expect_error("%x: " F32(3, 4, 5), "vision.multibox_prior(%x)",
		     "'vision.multibox_prior' expects 4-D data, got Tensor[(3, 4, 5), float32]");
	expect_error("%d: " F32(2, 100, 6) ", %v: " I32(2, 1) ", %i: " I32(2, 100),
		     "vision.non_max_suppression(%d, %v, %i, -1, 0.5f)",
		     "'vision.non_max_suppression' expects 1-D valid counts, got "
		     "Tensor[(2, 1), int32]");
	expect_error(
		"%b: " F32(1, 50, 4) ", %s: " F32(1, 3, 50),
		"vision.all_class_non_max_suppression(%b, %s, 10, 0.5f, 0.1f, "
		"output_format=\"mxnet\")",
		"'vision.all_class_non_max_suppression' attribute output_format=\"mxnet\" must "
		"be \"onnx\" or \"tensorflow\"");
	expect_error("%b: " F32(1, 50, 4) ", %s: " F32(1, 50, 3),
		     "vision.regular_non_max_suppression(%b, %s)",
		     "'vision.regular_non_max_suppression' needs a non-negative max_detections "
		     "attribute");
	expect_error("%d: " F32(1, 8, 16, 16) ", %r: " F32(4, 5), "vision.roi_align(%d, %r)",
		     "'vision.roi_align' needs a pooled_size attribute of 2 positive values");
	expect_error("%d: " F32(1, 8, 16, 16) ", %r: " F32(4, 5),
		     "vision.roi_pool(%d, %r, pooled_size=[7, 7], layout=\"NCWH\")",
		     "'vision.roi_pool' attribute layout=\"NCWH\" must be \"NCHW\" or \"NHWC\"");
	expect_error("%x: " F32(1, 4, 6, 6), "vision.yolo_reorg(%x, stride=0)",
		     "'vision.yolo_reorg' attribute stride=0 must be positive");
	expect_error("%c: " F32(1, 6, 4, 4) ", %b: " F32(1, 12, 4, 4) ", %i: " F32(1, 4),
		     "vision.proposal(%c, %b, %i)",
		     "'vision.proposal' expects image info of shape (B, 3), got "
		     "Tensor[(1, 4), float32]");
}

/* The vision.* operators, every attribute given. */
static void test_round_trip_vision(void **state)
{
	(void)state;
	expect_round_trip(
		"#[version = \"0.0.5\"]\n"
		"def @main(%x: Tensor[(1, 3, 4, 5), float32], %c: Tensor[(1, 3, 20), float32], "
		"%l: Tensor[(1, 80), float32], %s: Tensor[(1, 3, 20), float32], "
		"%r: Tensor[(2, 5), float32], %p: Tensor[(1, 6, 4, 5), float32], "
		"%q: Tensor[(1, 12, 4, 5), float32], %i: Tensor[(1, 3), float32]) {\n"
		"  %0 = vision.multibox_prior(%x, sizes=[1f], ratios=[1f], steps=[0.25f, 0.2f], "
		"offsets=[0.5f, 0.5f], clip=True);\n"
		"  %1 = vision.multibox_transform_loc(%c, %l, %0, clip=False, threshold=0.1f, "
		"variances=[0.1f, 0.1f, 0.2f, 0.2f], keep_background=True);\n"
		"  %2 = %1.0;\n"
		"  %3 = vision.get_valid_counts(%2, 0.2f, id_index=0, score_index=1);\n"
		"  %4 = %3.1;\n"
		"  %5 = %3.0;\n"
		"  %6 = %3.2;\n"
		"  %7 = vision.non_max_suppression(%4, %5, %6, 10, 0.5f, force_suppress=True, "
		"top_k=5, coord_start=2, score_index=1, id_index=0, return_indices=False, "
		"invalid_to_bottom=True);\n"
		"  %8 = reshape(%0, newshape=[1, 20, 4]);\n"
		"  %9 = vision.all_class_non_max_suppression(%8, %s, 10, 0.5f, 0.1f, "
		"output_format=\"tensorflow\");\n"
		"  %10 = transpose(%s, axes=[0, 2, 1]);\n"
		"  %11 = vision.regular_non_max_suppression(%8, %10, max_detections_per_class=5, "
		"max_detections=8, num_classes=3, iou_threshold=0.5f, score_threshold=0.1f);\n"
		"  %12 = vision.roi_align(%x, %r, pooled_size=[2, 2], spatial_scale=0.5f, "
		"sample_ratio=2, layout=\"NCHW\", mode=\"max\");\n"
		"  %13 = vision.roi_pool(%x, %r, pooled_size=[3, 3], spatial_scale=0.5f, "
		"layout=\"NCHW\");\n"
		"  %14 = vision.yolo_reorg(%x, stride=2);\n"
		"  %15 = vision.proposal(%p, %q, %i, scales=[8f, 16f], ratios=[1f], "
		"feature_stride=8, threshold=0.6f, rpn_pre_nms_top_n=100, rpn_post_nms_top_n=10, "
		"rpn_min_size=4, iou_loss=True);\n"
		"  (%7, %9, %11, %12, %13, %14, %15)\n"
		"}\n");
	assert_string_equal(
		infer_type_name(mod, mod->globals[0].fn->u.fn.body->type),
		"(" F32(1, 20, 6) ", (" I64(1, 60, 2) ", " F32(1, 60) ", " I64(1) "), (" F32(1, 8, 4) ", " F32(
			1,
			8) ", " F32(1,
				    8) ", " I32(1) "), " F32(2, 3, 2,
							     2) ", " F32(2, 3, 3,
									 3) ", " F32(1, 12, 2,
										     2) ", " F32(10,
												 5) ")");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_vision),
		TEST(test_vision_errors),
		TEST(test_round_trip_vision),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
