/*
 * test_infer_window.c - the type relations of the window family of ops.def
 * (core/plan/infer/infer_window.c): nn.conv2d, nn.max_pool2d,
 * nn.avg_pool2d, nn.global_avg_pool2d, nn.conv2d_transpose, nn.conv1d,
 * nn.conv3d, nn.conv1d_transpose, nn.conv3d_transpose, nn.max_pool1d,
 * nn.max_pool3d, nn.avg_pool1d, nn.avg_pool3d, nn.global_max_pool2d,
 * nn.adaptive_avg_pool1d, nn.adaptive_avg_pool2d, nn.adaptive_avg_pool3d,
 * nn.adaptive_max_pool1d, nn.adaptive_max_pool2d, nn.adaptive_max_pool3d.
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

/* ---- convolution and pooling ------------------------------------------- */

static void test_conv2d(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 3, 224, 224)),
	     *w = prm("w", T(DT_FLOAT32, 64, 3, 7, 7));
	Expr *y = prm("y", T(DT_FLOAT32, 1, 32, 112, 112)),
	     *dw = prm("dw", T(DT_FLOAT32, 32, 1, 3, 3));
	Expr *s = prm("s", T(DT_FLOAT32, 1, 3, 10, 10)), *k = prm("k", T(DT_FLOAT32, 4, 3, 3, 3));
	Expr *e1 = call(OP_CONV2D, ARGS(x, w),
			ATTRS(LIST("strides", 2, 2), LIST("padding", 3, 3, 3, 3),
			      attr_int("channels", 64), LIST("kernel_size", 7, 7)));
	Expr *e2 = call(OP_CONV2D, ARGS(y, dw),
			ATTRS(LIST("padding", 1, 1, 1, 1), attr_int("groups", 32),
			      attr_int("channels", 32), LIST("kernel_size", 3, 3)));
	Expr *e3 = call(OP_CONV2D, ARGS(s, k), ATTRS(LIST("dilation", 2, 2)));
	Expr *e4 = call(OP_CONV2D, ARGS(s, k),
			ATTRS(LIST("padding", 1, 2), LIST("strides", 2),
			      attr_str("data_layout", "NCHW"), attr_str("kernel_layout", "OIHW"),
			      attr_str("out_layout", ""), attr_str("out_dtype", "")));
	Expr *e5 = call(OP_CONV2D, ARGS(s, k), ATTRS(LIST("padding", 1, 0, 0, 0)));
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4, e5))));
	check_built_type(e1, "Tensor[(1, 64, 112, 112), float32]");
	assert_ptr_equal(e2->type, y->type);
	check_built_type(e3, "Tensor[(1, 4, 6, 6), float32]");
	check_built_type(e4, "Tensor[(1, 4, 5, 6), float32]");
	check_built_type(e5, "Tensor[(1, 4, 9, 8), float32]");
}

static void test_conv2d_channels(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 3, 224, 224)),
	     *w = prm("w", T(DT_FLOAT32, 64, 4, 3, 3));
	Expr *e = FAIL(OP_CONV2D, ARGS(x, w), NOATTRS);
	check_built_error(
		e, "'nn.conv2d' channel mismatch: data Tensor[(1, 3, 224, 224), float32] has 3 "
		   "channels, weight Tensor[(64, 4, 3, 3), float32] expects 4 (groups=1)");
}

static void test_conv2d_errors(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 3, 8, 8)), *w = prm("w", T(DT_FLOAT32, 16, 3, 3, 3));
	Expr *big = prm("big", T(DT_FLOAT32, 16, 3, 11, 11)), *v = prm("v", T(DT_FLOAT32, 3, 8));
	Expr *e1 = call(OP_CONV2D, ARGS(x, w), ATTRS(attr_int("channels", 8)));
	Expr *e2 = call(OP_CONV2D, ARGS(x, w), ATTRS(LIST("kernel_size", 5, 5)));
	Expr *e3 = call(OP_CONV2D, ARGS(x, big), NOATTRS);
	Expr *e4 = call(OP_CONV2D, ARGS(x, w), ATTRS(LIST("strides", 0, 1)));
	Expr *e5 = call(OP_CONV2D, ARGS(x, w), ATTRS(attr_str("data_layout", "NCHW4c")));
	Expr *e6 = call(OP_CONV2D, ARGS(x, w), ATTRS(attr_int("groups", 2)));
	Expr *e7 = call(OP_CONV2D, ARGS(v, w), NOATTRS);
	Expr *e8 = call(OP_CONV2D, ARGS(x, w), ATTRS(LIST("padding", INT64_MAX, 0)));
	Expr *e9 = call(OP_CONV2D, ARGS(x, w), ATTRS(LIST("padding", 1, 2, 3)));
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4, e5, e6, e7, e8, e9))));
	assert_int_equal(diags.count, 9);
	assert_string_equal(diags.items[0].message,
			    "'nn.conv2d' attribute channels=8 does not match weight "
			    "Tensor[(16, 3, 3, 3), float32]");
	assert_string_equal(diags.items[1].message,
			    "'nn.conv2d' attribute kernel_size=[5, 5] does not match weight "
			    "Tensor[(16, 3, 3, 3), float32]");
	assert_string_equal(diags.items[2].message,
			    "'nn.conv2d' window of 11 (dilated) is larger than the padded input "
			    "height of 8");
	assert_string_equal(diags.items[3].message,
			    "'nn.conv2d' attribute strides=[0, 1] must be at least 1");
	assert_string_equal(diags.items[4].message,
			    "'nn.conv2d' does not support data_layout=\"NCHW4c\" (a permutation "
			    "of NCHW is expected)");
	assert_string_equal(diags.items[5].message,
			    "'nn.conv2d' data Tensor[(1, 3, 8, 8), float32] has 3 channels, not "
			    "divisible by groups=2");
	assert_string_equal(diags.items[6].message,
			    "'nn.conv2d' expects 4-D data and weight (NCHW and OIHW), got "
			    "Tensor[(3, 8), float32] and Tensor[(16, 3, 3, 3), float32]");
	assert_string_equal(diags.items[7].message, "'nn.conv2d' output height overflows");
	assert_string_equal(diags.items[8].message,
			    "'nn.conv2d' attribute padding=[1, 2, 3] must have 1, 2 or 4 values");
	for (size_t i = 0; i < diags.count; i++)
		assert_int_equal(diags.items[i].pos.line, e1->pos.line + i);
}

static void test_conv2d_transpose(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 1024, 4, 4));
	Expr *w = prm("w", T(DT_FLOAT32, 1024, 512, 4, 4));
	Expr *g = prm("g", T(DT_FLOAT32, 1024, 8, 3, 3));
	Expr *e1 = call(OP_CONV2D_TRANSPOSE, ARGS(x, w),
			ATTRS(attr_int("channels", 512), LIST("kernel_size", 4, 4),
			      LIST("strides", 2, 2), LIST("padding", 1, 1, 1, 1)));
	Expr *e2 = call(OP_CONV2D_TRANSPOSE, ARGS(x, w),
			ATTRS(LIST("strides", 2, 2), LIST("padding", 1, 1, 1, 1),
			      LIST("output_padding", 1, 1), attr_str("kernel_layout", "OIHW")));
	Expr *e3 = call(OP_CONV2D_TRANSPOSE, ARGS(x, g),
			ATTRS(attr_int("groups", 4), attr_int("channels", 32)));
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3))));
	check_built_type(e1, "Tensor[(1, 512, 8, 8), float32]");
	check_built_type(e2, "Tensor[(1, 512, 9, 9), float32]");
	check_built_type(e3, "Tensor[(1, 32, 6, 6), float32]");
}

static void test_conv2d_transpose_errors(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 512, 4, 4));
	Expr *w = prm("w", T(DT_FLOAT32, 1024, 512, 4, 4));
	Expr *k = prm("k", T(DT_FLOAT32, 512, 3, 1, 1));
	Expr *e1 = call(OP_CONV2D_TRANSPOSE, ARGS(x, w), NOATTRS);
	Expr *e2 = call(OP_CONV2D_TRANSPOSE, ARGS(x, k), ATTRS(LIST("padding", 3, 3)));
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2))));
	assert_int_equal(diags.count, 2);
	assert_string_equal(diags.items[0].message,
			    "'nn.conv2d_transpose' channel mismatch: data "
			    "Tensor[(1, 512, 4, 4), float32] has 512 channels, weight "
			    "Tensor[(1024, 512, 4, 4), float32] expects 1024");
	assert_string_equal(diags.items[1].message,
			    "'nn.conv2d_transpose' output height would be -2");
}

static void test_pooling(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 64, 112, 112)),
	     *y = prm("y", T(DT_FLOAT32, 1, 8, 7, 7));
	Expr *e1 = call(
		OP_MAX_POOL2D, ARGS(x),
		ATTRS(LIST("pool_size", 3, 3), LIST("strides", 2, 2), LIST("padding", 1, 1, 1, 1)));
	Expr *e2 = call(OP_MAX_POOL2D, ARGS(x),
			ATTRS(LIST("pool_size", 3, 3), LIST("strides", 2, 2),
			      attr_bool("ceil_mode", true)));
	Expr *e3 =
		call(OP_MAX_POOL2D, ARGS(x), ATTRS(LIST("pool_size", 3, 3), LIST("strides", 2, 2)));
	Expr *e4 =
		call(OP_AVG_POOL2D, ARGS(y), ATTRS(LIST("pool_size", 2, 2), LIST("strides", 2, 2)));
	Expr *e5 = call(OP_AVG_POOL2D, ARGS(y),
			ATTRS(LIST("pool_size", 2), LIST("strides", 2, 2),
			      attr_bool("ceil_mode", true), attr_bool("count_include_pad", false),
			      attr_str("layout", "NCHW")));
	Expr *e6 = call(OP_GLOBAL_AVG_POOL2D, ARGS(x), NOATTRS);
	Expr *e7 = call(OP_MAX_POOL2D, ARGS(x), ATTRS(LIST("pool_size", 1, 1)));
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4, e5, e6, e7))));
	check_built_type(e1, "Tensor[(1, 64, 56, 56), float32]");
	check_built_type(e2, "Tensor[(1, 64, 56, 56), float32]");
	check_built_type(e3, "Tensor[(1, 64, 55, 55), float32]");
	check_built_type(e4, "Tensor[(1, 8, 3, 3), float32]");
	check_built_type(e5, "Tensor[(1, 8, 4, 4), float32]");
	check_built_type(e6, "Tensor[(1, 64, 1, 1), float32]");
	assert_ptr_equal(e7->type, x->type);
}

/* Other layouts than NCHW (and OIHW, IOHW), as TVM's relations convert
 * them: the extents are read where the layout puts them and the output is
 * in out_layout, or the data's layout when it is empty. */
static void test_window_layouts(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 8, 8, 3)),
	     *hwio = prm("hwio", T(DT_FLOAT32, 3, 3, 3, 16));
	Expr *t = prm("t", T(DT_FLOAT32, 3, 3, 6, 3));
	Expr *e1 = call(OP_CONV2D, ARGS(x, hwio),
			ATTRS(LIST("strides", 2, 1), LIST("padding", 1, 1),
			      attr_str("data_layout", "NHWC"), attr_str("kernel_layout", "HWIO")));
	Expr *e2 = call(OP_CONV2D, ARGS(x, hwio),
			ATTRS(attr_str("data_layout", "NHWC"), attr_str("kernel_layout", "HWIO"),
			      attr_str("out_layout", "NCHW")));
	Expr *e3 = call(OP_CONV2D_TRANSPOSE, ARGS(x, t),
			ATTRS(LIST("strides", 2, 2), attr_str("data_layout", "NHWC"),
			      attr_str("kernel_layout", "HWOI")));
	Expr *e4 = call(
		OP_MAX_POOL2D, ARGS(x),
		ATTRS(LIST("pool_size", 2, 2), LIST("strides", 2, 2), attr_str("layout", "NHWC")));
	Expr *e5 = call(OP_AVG_POOL2D, ARGS(x),
			ATTRS(LIST("pool_size", 3, 1), attr_str("layout", "NHWC"),
			      attr_str("out_layout", "NCHW")));
	Expr *e6 = call(OP_GLOBAL_AVG_POOL2D, ARGS(x), ATTRS(attr_str("layout", "NHWC")));
	Expr *e7 = call(OP_CONV2D, ARGS(x, hwio),
			ATTRS(attr_str("data_layout", "NHWC"), attr_str("kernel_layout", "OIHW")));
	(void)state;
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4, e5, e6, e7))));
	check_built_type(e1, "Tensor[(1, 4, 8, 16), float32]");
	check_built_type(e2, "Tensor[(1, 16, 6, 6), float32]");
	check_built_type(e3, "Tensor[(1, 17, 17, 6), float32]");
	check_built_type(e4, "Tensor[(1, 4, 4, 3), float32]");
	check_built_type(e5, "Tensor[(1, 3, 6, 8), float32]");
	check_built_type(e6, "Tensor[(1, 1, 1, 3), float32]");
	/* an HWIO weight read as OIHW: a 3x16 kernel */
	assert_int_equal(diags.count, 1);
	assert_string_equal(diags.items[0].message,
			    "'nn.conv2d' window of 16 (dilated) is larger than the padded input "
			    "width of 8");
}

static void test_pooling_errors(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 64, 4, 4)), *v = prm("v", T(DT_FLOAT32, 64, 4, 4));
	Expr *e1 = call(OP_MAX_POOL2D, ARGS(x), NOATTRS);
	Expr *e2 = call(OP_AVG_POOL2D, ARGS(x), ATTRS(LIST("pool_size", 5, 5)));
	Expr *e3 = call(OP_GLOBAL_AVG_POOL2D, ARGS(v), NOATTRS);
	Expr *e4 = call(OP_MAX_POOL2D, ARGS(x),
			ATTRS(LIST("pool_size", 2, 2), attr_str("layout", "NCHW4c")));
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4))));
	assert_int_equal(diags.count, 4);
	assert_string_equal(diags.items[0].message, "'nn.max_pool2d' needs a pool_size attribute");
	assert_string_equal(diags.items[1].message,
			    "'nn.avg_pool2d' window of 5 (dilated) is larger than the padded input "
			    "height of 4");
	assert_string_equal(diags.items[2].message,
			    "'nn.global_avg_pool2d' expects 4-D NCHW data, got "
			    "Tensor[(64, 4, 4), float32]");
	assert_string_equal(diags.items[3].message,
			    "'nn.max_pool2d' does not support layout=\"NCHW4c\" (a permutation of "
			    "NCHW is expected)");
}

#define F32(...) "Tensor[(" #__VA_ARGS__ "), float32]"

/* ---- convolutions and poolings of rank 1 and 3 ----------------------------- */

static void test_conv_nd(void **state)
{
	(void)state;
	expect_type("%d: " F32(1, 4, 10) ", %w: " F32(8, 4, 3), "nn.conv1d(%d, %w)", F32(1, 8, 8));
	expect_type("%d: " F32(1, 4, 10) ", %w: " F32(8, 4, 3),
		    "nn.conv1d(%d, %w, strides=[2], padding=[1, 2], dilation=[2])", F32(1, 8, 5));
	expect_type("%d: " F32(1, 4, 10) ", %w: " F32(8, 2, 3), "nn.conv1d(%d, %w, groups=2)",
		    F32(1, 8, 8));
	expect_type("%d: " F32(?, 4, ?) ", %w: " F32(8, 4, 3), "nn.conv1d(%d, %w)", F32(?, 8, ?));
	/* channels last, as TVM's relations convert the layouts; the output in
	 * out_layout, or the data's */
	expect_type("%d: " F32(1, 10, 4) ", %w: " F32(3, 4, 8),
		    "nn.conv1d(%d, %w, data_layout=\"NWC\", kernel_layout=\"WIO\")", F32(1, 8, 8));
	expect_type("%d: " F32(1, 10, 4) ", %w: " F32(3, 4, 6),
		    "nn.conv1d(%d, %w, data_layout=\"NWC\", kernel_layout=\"WIO\", "
		    "out_layout=\"NCW\")",
		    F32(1, 6, 8));
	expect_type("%d: " F32(1, 8, 8, 6, 2) ", %w: " F32(3, 3, 1, 2, 4),
		    "nn.conv3d(%d, %w, data_layout=\"NDHWC\", kernel_layout=\"DHWIO\")",
		    F32(1, 6, 6, 6, 4));
	expect_type("%d: " F32(1, 10, 4) ", %w: " F32(3, 6, 4),
		    "nn.conv1d_transpose(%d, %w, strides=[2], data_layout=\"NWC\", "
		    "kernel_layout=\"WOI\")",
		    F32(1, 21, 6));
	expect_type("%d: " F32(1, 4, 4, 3, 2) ", %w: " F32(2, 2, 2, 5, 2),
		    "nn.conv3d_transpose(%d, %w, data_layout=\"NDHWC\", kernel_layout=\"DHWOI\")",
		    F32(1, 5, 5, 4, 5));
	expect_type("%d: " F32(1, 2, 8, 8, 8) ", %w: " F32(4, 2, 3, 3, 3),
		    "nn.conv3d(%d, %w, padding=[1])", F32(1, 4, 8, 8, 8));
	expect_type("%d: " F32(1, 2, 8, 8, 8) ", %w: " F32(4, 2, 3, 3, 3),
		    "nn.conv3d(%d, %w, strides=[1, 2, 2], padding=[0, 1, 1])", F32(1, 4, 6, 4, 4));
	expect_type("%d: " F32(1, 4, 5) ", %w: " F32(4, 3, 3),
		    "nn.conv1d_transpose(%d, %w, strides=[2], padding=[1], output_padding=[1])",
		    F32(1, 3, 10));
	expect_type("%d: " F32(1, 4, 5) ", %w: " F32(4, 3, 3),
		    "nn.conv1d_transpose(%d, %w, groups=2)", F32(1, 6, 7));
	expect_type("%d: " F32(1, 2, 4, 4, 4) ", %w: " F32(2, 5, 2, 2, 2),
		    "nn.conv3d_transpose(%d, %w, strides=[2])", F32(1, 5, 8, 8, 8));
}

static void test_conv_nd_errors(void **state)
{
	(void)state;
	expect_error("%d: " F32(1, 4, 10) ", %w: " F32(8, 4, 3, 3), "nn.conv1d(%d, %w)",
		     "'nn.conv1d' expects 3-D data and weight (NCW and OIW), got "
		     "Tensor[(1, 4, 10), float32] and Tensor[(8, 4, 3, 3), float32]");
	expect_error("%d: " F32(1, 4, 10) ", %w: " F32(8, 4, 3),
		     "nn.conv1d(%d, %w, data_layout=\"NCW4c\")",
		     "'nn.conv1d' does not support data_layout=\"NCW4c\" (a permutation of NCW "
		     "is expected)");
	expect_error("%d: " F32(1, 4, 10) ", %w: " F32(8, 3, 3), "nn.conv1d(%d, %w)",
		     "'nn.conv1d' channel mismatch: data Tensor[(1, 4, 10), float32] has 4 "
		     "channels, weight Tensor[(8, 3, 3), float32] expects 3 per group (groups=1)");
	expect_error("%d: " F32(1, 4, 2) ", %w: " F32(8, 4, 3), "nn.conv1d(%d, %w)",
		     "'nn.conv1d' window of 3 (dilated) is larger than the padded input width "
		     "of 2");
	expect_error("%d: " F32(1, 2, 8, 8, 8) ", %w: " F32(4, 2, 3, 3, 3),
		     "nn.conv3d(%d, %w, padding=[1, 1, 1, 1])",
		     "'nn.conv3d' attribute padding=[1, 1, 1, 1] must have 1, 3 or 6 values");
	expect_error("%d: " F32(1, 2, 8, 8, 8) ", %w: " F32(4, 2, 3, 3, 3),
		     "nn.conv3d(%d, %w, channels=5)",
		     "'nn.conv3d' attribute channels=5 does not match weight "
		     "Tensor[(4, 2, 3, 3, 3), float32]");
	expect_error(
		"%d: " F32(1, 3, 4, 4, 4) ", %w: " F32(2, 5, 2, 2, 2),
		"nn.conv3d_transpose(%d, %w)",
		"'nn.conv3d_transpose' channel mismatch: data Tensor[(1, 3, 4, 4, 4), float32] "
		"has 3 channels, weight Tensor[(2, 5, 2, 2, 2), float32] expects 2");
	expect_error("%d: " F32(1, 4, 5) ", %w: " F32(4, 3, 3),
		     "nn.conv1d_transpose(%d, %w, groups=3)",
		     "'nn.conv1d_transpose' data Tensor[(1, 4, 5), float32] has 4 channels, not "
		     "divisible by groups=3");
}

static void test_pool_nd(void **state)
{
	(void)state;
	expect_type("%x: " F32(1, 3, 10), "nn.max_pool1d(%x, pool_size=[3], strides=[2])",
		    F32(1, 3, 4));
	expect_type("%x: " F32(1, 3, 10),
		    "nn.max_pool1d(%x, pool_size=[3], strides=[2], ceil_mode=True)", F32(1, 3, 5));
	expect_type("%x: " F32(1, 10, 3), "nn.max_pool1d(%x, pool_size=[2], layout=\"NWC\")",
		    F32(1, 9, 3));
	expect_type("%x: " F32(1, 3, 10), "nn.avg_pool1d(%x, pool_size=[2], padding=[1])",
		    F32(1, 3, 11));
	expect_type("%x: " F32(1, 2, 8, 8, 8), "nn.max_pool3d(%x, pool_size=[3])",
		    F32(1, 2, 6, 6, 6));
	expect_type("%x: " F32(1, 2, 8, 8, 8),
		    "nn.avg_pool3d(%x, pool_size=[2, 2, 2], strides=[2, 2, 2], "
		    "padding=[0, 0, 0, 1, 1, 1], count_include_pad=True)",
		    F32(1, 2, 4, 4, 4));
	expect_type("%x: " F32(1, 3, 7, 7), "nn.global_max_pool2d(%x)", F32(1, 3, 1, 1));
	expect_type("%x: " F32(1, 7, 7, 3), "nn.global_max_pool2d(%x, layout=\"NHWC\")",
		    F32(1, 1, 1, 3));
}

static void test_pool_nd_errors(void **state)
{
	(void)state;
	expect_error("%x: " F32(1, 3, 10), "nn.max_pool1d(%x)",
		     "'nn.max_pool1d' needs a pool_size attribute");
	expect_error("%x: " F32(1, 2, 8, 8, 8), "nn.max_pool3d(%x, pool_size=[2, 2])",
		     "'nn.max_pool3d' attribute pool_size=[2, 2] must have 1 or 3 values");
	expect_error("%x: " F32(1, 3, 10), "nn.max_pool1d(%x, pool_size=[2], out_layout=\"NWC\")",
		     "'nn.max_pool1d' supports only out_layout=\"NCW\", got \"NWC\"");
	expect_error("%x: " F32(1, 2, 8, 8), "nn.avg_pool3d(%x, pool_size=[2])",
		     "'nn.avg_pool3d' expects 5-D data (NCDHW), got Tensor[(1, 2, 8, 8), float32]");
	expect_error("%x: " F32(1, 3, 10), "nn.avg_pool1d(%x, pool_size=[2], layout=\"NCHW\")",
		     "'nn.avg_pool1d' does not support layout=\"NCHW\" (a permutation of NCW is "
		     "expected)");
	expect_error("%x: " F32(1, 3, 2), "nn.avg_pool1d(%x, pool_size=[3])",
		     "'nn.avg_pool1d' window of 3 (dilated) is larger than the padded input width "
		     "of 2");
}

static void test_adaptive_pool(void **state)
{
	(void)state;
	expect_type("%x: " F32(1, 3, 10), "nn.adaptive_avg_pool1d(%x, output_size=[5])",
		    F32(1, 3, 5));
	expect_type("%x: " F32(1, 3, 10), "nn.adaptive_max_pool1d(%x)", F32(1, 3, 10));
	expect_type("%x: " F32(1, 3, 7, 9), "nn.adaptive_avg_pool2d(%x, output_size=[1])",
		    F32(1, 3, 1, 1));
	expect_type("%x: " F32(1, 3, 7, 9), "nn.adaptive_avg_pool2d(%x, output_size=[2, 3])",
		    F32(1, 3, 2, 3));
	expect_type("%x: " F32(1, 7, 9, 3),
		    "nn.adaptive_max_pool2d(%x, output_size=[3, 3], layout=\"NHWC\")",
		    F32(1, 3, 3, 3));
	expect_type("%x: " F32(1, 2, 4, 6, 8), "nn.adaptive_max_pool3d(%x, output_size=[2, 3, 4])",
		    F32(1, 2, 2, 3, 4));
	expect_type("%x: " F32(1, 2, 4, 6, 8), "nn.adaptive_avg_pool3d(%x, output_size=[1])",
		    F32(1, 2, 1, 1, 1));
	expect_error("%x: " F32(1, 3, 7, 9), "nn.adaptive_avg_pool2d(%x, output_size=[1, 2, 3])",
		     "'nn.adaptive_avg_pool2d' attribute output_size=[1, 2, 3] must have 0, 1 or 2 "
		     "values");
	/* TVM's AdaptivePool*Rel: no output_size (absent, None or []) keeps
	 * the input's spatial extents */
	expect_type("%x: " F32(1, 3, 7, 9), "nn.adaptive_avg_pool2d(%x, output_size=None)",
		    F32(1, 3, 7, 9));
	expect_type("%x: " F32(1, 7, 9, 3),
		    "nn.adaptive_max_pool2d(%x, output_size=[], layout=\"NHWC\")", F32(1, 7, 9, 3));
	expect_type("%x: " F32(1, 2, 4, 6, 8), "nn.adaptive_avg_pool3d(%x, output_size=None)",
		    F32(1, 2, 4, 6, 8));
	expect_type("%x: " F32(1, 2, 4, 6, 8), "nn.adaptive_max_pool3d(%x)", F32(1, 2, 4, 6, 8));
	expect_type("%x: " F32(1, 3, 10), "nn.adaptive_avg_pool1d(%x, output_size=[])",
		    F32(1, 3, 10));
	expect_error(
		"%x: " F32(1, 3, 10), "nn.adaptive_avg_pool1d(%x, output_size=[2, 3])",
		"'nn.adaptive_avg_pool1d' attribute output_size=[2, 3] must have 0 or 1 values");
	expect_error("%x: " F32(1, 3, 10), "nn.adaptive_max_pool1d(%x, output_size=[0])",
		     "'nn.adaptive_max_pool1d' attribute output_size=[0] must be positive");
	expect_error("%x: " F32(1, 3, 10), "nn.adaptive_avg_pool3d(%x)",
		     "'nn.adaptive_avg_pool3d' expects 5-D data (NCDHW), got "
		     "Tensor[(1, 3, 10), float32]");
}

/* Unknown extents stay unknown where the result depends on them, and a
 * tuple where a tensor belongs is a positioned error. */
static void test_unknown_dims_and_tuples(void **state)
{
	(void)state;
	expect_type("%d: " F32(?, 2, ?, 8, 8) ", %w: " F32(4, 2, 3, 3, 3), "nn.conv3d(%d, %w)",
		    F32(?, 4, ?, 6, 6));
	expect_type("%x: " F32(1, 3, ?, 6), "nn.upsampling(%x, scale_h=2f, scale_w=2f)",
		    F32(1, 3, ?, 12));
	expect_type("%x: " F32(?, 3, ?, ?), "image.resize2d(%x, size=[4, 4])", F32(?, 3, 4, 4));
	expect_type("%x: " F32(1, 3, ?, 5), "vision.multibox_prior(%x)", F32(1, ?, 4));
	expect_type("%x: " F32(1, ?, 10), "nn.max_pool1d(%x, pool_size=[2], strides=[2])",
		    F32(1, ?, 5));
	expect_error("%x: " F32(2, 5), "nn.pad((%x, %x), 0f, pad_width=[[0, 0], [1, 1]])",
		     "'nn.pad' expects a tensor for argument 1, got (Tensor[(2, 5), float32], "
		     "Tensor[(2, 5), float32])");
	expect_error("%x: " F32(2, 5), "nn.batch_norm(%x, (%x,), %x, %x, %x, axis=0)",
		     "'nn.batch_norm' expects a tensor for argument 2, got "
		     "(Tensor[(2, 5), float32],)");
}

/* The convolutions and poolings of every rank, every attribute given. */
static void test_round_trip_windows(void **state)
{
	(void)state;
	expect_round_trip(
		"#[version = \"0.0.5\"]\n"
		"def @main(%x: Tensor[(1, 4, 10), float32], %w1: Tensor[(8, 2, 3), float32], "
		"%v: Tensor[(1, 2, 8, 8, 8), float32], %w3: Tensor[(4, 2, 3, 3, 3), float32], "
		"%t1: Tensor[(8, 3, 2), float32], %t3: Tensor[(4, 2, 2, 2, 2), float32], "
		"%y: Tensor[(1, 3, 7, 7), float32]) {\n"
		"  %0 = nn.conv1d(%x, %w1, strides=[2], padding=[1, 1], dilation=[1], groups=2, "
		"channels=8, kernel_size=[3], data_layout=\"NCW\", kernel_layout=\"OIW\", "
		"out_layout=\"NCW\", out_dtype=\"float32\");\n"
		"  %1 = nn.conv1d_transpose(%0, %t1, channels=6, kernel_size=[2], strides=[2], "
		"padding=[0, 0], output_padding=[1], dilation=[1], groups=2, data_layout=\"NCW\", "
		"kernel_layout=\"IOW\", out_layout=\"\", out_dtype=\"float32\");\n"
		"  %2 = nn.max_pool1d(%1, pool_size=[2], strides=[2], dilation=[1], padding=[0, "
		"1], "
		"layout=\"NCW\", out_layout=\"NCW\", ceil_mode=True);\n"
		"  %3 = nn.avg_pool1d(%2, pool_size=[2], strides=[1], dilation=[2], padding=[1], "
		"layout=\"NCW\", out_layout=\"\", ceil_mode=False, count_include_pad=True);\n"
		"  %4 = nn.adaptive_avg_pool1d(%3, output_size=[3], layout=\"NCW\", "
		"out_layout=\"NCW\");\n"
		"  %5 = nn.adaptive_max_pool1d(%4, output_size=[1], layout=\"NCW\", "
		"out_layout=\"NCW\");\n"
		"  %6 = nn.conv3d(%v, %w3, strides=[1, 2, 2], padding=[1, 1, 1], "
		"dilation=[1, 1, 1], groups=1, channels=4, kernel_size=[3, 3, 3], "
		"data_layout=\"NCDHW\", kernel_layout=\"OIDHW\", out_layout=\"\", "
		"out_dtype=\"float32\");\n"
		"  %7 = nn.conv3d_transpose(%6, %t3, channels=2, kernel_size=[2, 2, 2], "
		"strides=[1, 2, 2], padding=[0, 0, 0], output_padding=[0, 1, 1], "
		"dilation=[1, 1, 1], groups=1, data_layout=\"NCDHW\", kernel_layout=\"IODHW\", "
		"out_layout=\"NCDHW\", out_dtype=\"float32\");\n"
		"  %8 = nn.max_pool3d(%7, pool_size=[3, 3, 3], strides=[2, 2, 2], "
		"dilation=[1, 1, 1], padding=[1, 1, 1], layout=\"NCDHW\", out_layout=\"NCDHW\", "
		"ceil_mode=True);\n"
		"  %9 = nn.avg_pool3d(%8, pool_size=[2, 2, 2], strides=[1, 1, 1], "
		"dilation=[1, 1, 1], padding=[0, 0, 0, 1, 1, 1], layout=\"NCDHW\", "
		"out_layout=\"NCDHW\", ceil_mode=False, count_include_pad=True);\n"
		"  %10 = nn.adaptive_avg_pool3d(%9, output_size=[2, 3, 4], layout=\"NCDHW\", "
		"out_layout=\"NCDHW\");\n"
		"  %11 = nn.adaptive_max_pool3d(%10, output_size=[1], layout=\"NCDHW\", "
		"out_layout=\"\");\n"
		"  %12 = nn.global_max_pool2d(%y, layout=\"NCHW\", out_layout=\"NCHW\");\n"
		"  %13 = nn.adaptive_avg_pool2d(%y, output_size=[2, 2], layout=\"NCHW\", "
		"out_layout=\"NCHW\");\n"
		"  %14 = nn.adaptive_max_pool2d(%13, output_size=[1], layout=\"NCHW\", "
		"out_layout=\"NCHW\");\n"
		"  (%5, %11, %12, %14)\n"
		"}\n");
	assert_string_equal(infer_type_name(mod, mod->globals[0].fn->u.fn.body->type),
			    "(" F32(1, 6, 1) ", " F32(1, 2, 1, 1, 1) ", " F32(1, 3, 1, 1) ", " F32(
				    1, 3, 1, 1) ")");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_conv2d),
		TEST(test_conv2d_channels),
		TEST(test_conv2d_errors),
		TEST(test_conv2d_transpose),
		TEST(test_conv2d_transpose_errors),
		TEST(test_pooling),
		TEST(test_window_layouts),
		TEST(test_pooling_errors),
		TEST(test_conv_nd),
		TEST(test_conv_nd_errors),
		TEST(test_pool_nd),
		TEST(test_pool_nd_errors),
		TEST(test_adaptive_pool),
		TEST(test_unknown_dims_and_tuples),
		TEST(test_round_trip_windows),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
