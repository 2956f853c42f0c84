/*
 * test_infer_nn.c - the type relations of the nn.*, image.*, vision.* and
 * random.* operators that devplan plans without kernels (ops.def's
 * OP_PLAN lines of that family, core/plan/infer/infer_norm.c,
 * infer_activation.c and infer_window.c).
 *
 * Every case is a module in Relay text, parsed and inferred: the expected
 * result types are written by hand from TVM 0.14's documented semantics,
 * errors as exact message text at the call's position. A module calling
 * every operator with non-default attributes prints back as it was read.
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
#include "infer.h"
#include "ir.h"
#include "parse.h"
#include "print.h"

/* ---- fixture ----------------------------------------------------------- */

static DeviceTable devices;
static DiagList diags;
static IrModule *m;

static int setup(void **state)
{
	(void)state;
	devices_init_default(&devices);
	diag_init(&diags);
	m = NULL;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ir_module_free(m);
	diag_free(&diags);
	devices_free(&devices);
	return 0;
}

/* ---- helpers ----------------------------------------------------------- */

static IrModule *parse_text(const char *text)
{
	SourceFile *src = source_from_string("nn.relay", text, strlen(text));
	IrModule *mod = parse_module(src, &devices, &diags);
	if (!mod || diags.errors) {
		diag_print_all(stderr, &diags);
		fprintf(stderr, "--- text that did not parse:\n%s", text);
	}
	source_release(src);
	assert_non_null(mod);
	assert_int_equal(diags.errors, 0);
	return mod;
}

/* Parses `def @main(PARAMS) { BODY }` (the body's call on line 2, column
 * 3) and infers it; returns whether inference succeeded. */
static bool infer_main(const char *params, const char *body)
{
	char text[4096];
	bool ok;
	snprintf(text, sizeof text, "def @main(%s) {\n  %s\n}\n", params, body);
	m = parse_text(text);
	ok = infer_module(m, &diags);
	return ok;
}

/* @main's result has type `want`. */
static void expect_type(const char *params, const char *body, const char *want)
{
	int32_t g;
	if (!infer_main(params, body))
		diag_print_all(stderr, &diags);
	assert_int_equal(diags.errors, 0);
	g = ir_find_global(m, "main");
	assert_true(g >= 0);
	assert_string_equal(infer_type_name(m, m->globals[g].fn->u.fn.body->type), want);
	ir_module_free(m);
	m = NULL;
}

/* Inference fails with exactly this one error, at the call. */
static void expect_error(const char *params, const char *body, const char *want)
{
	bool ok = infer_main(params, body);
	if (ok || diags.count != 1)
		diag_print_all(stderr, &diags);
	assert_false(ok);
	assert_int_equal(diags.count, 1);
	assert_string_equal(diags.items[0].message, want);
	assert_int_equal(diags.items[0].pos.line, 2);
	assert_int_equal(diags.items[0].pos.col, 3);
	ir_module_free(m);
	m = NULL;
	diag_free(&diags);
	diag_init(&diags);
}

/* The parser rejects the module with this first error (an attribute of
 * the wrong kind for the operator's schema). */
static void expect_parse_error(const char *params, const char *body, const char *want)
{
	char text[4096];
	SourceFile *src;
	snprintf(text, sizeof text, "def @main(%s) {\n  %s\n}\n", params, body);
	src = source_from_string("nn.relay", text, strlen(text));
	m = parse_module(src, &devices, &diags);
	source_release(src);
	assert_true(diags.errors > 0);
	assert_string_equal(diags.items[0].message, want);
	ir_module_free(m);
	m = NULL;
	diag_free(&diags);
	diag_init(&diags);
}

/* print(parse(text)) == text, and the module infers. */
static void expect_round_trip(const char *text)
{
	StrBuf sb;
	m = parse_text(text);
	strbuf_init(&sb);
	print_module(&sb, m, NULL);
	assert_string_equal(sb.data, text);
	strbuf_free(&sb);
	if (!infer_module(m, &diags))
		diag_print_all(stderr, &diags);
	assert_int_equal(diags.errors, 0);
}

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
	expect_type("%x: " F32(2, 10), "nn.fast_softmax(%x, axis=0)", F32(2, 10));
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
	expect_error("%x: " F32(2, 10), "nn.fast_softmax(%x, axis=-3)",
		     "'nn.fast_softmax' axis -3 is out of range for Tensor[(2, 10), float32]");
}

/* ---- nn.matmul ------------------------------------------------------------- */

static void test_matmul(void **state)
{
	(void)state;
	expect_type("%a: " F32(2, 5, 8) ", %b: " F32(8, 3), "nn.matmul(%a, %b)", F32(2, 5, 3));
	expect_type("%a: " F32(2, 5, 8) ", %b: " F32(3, 8), "nn.matmul(%a, %b, transpose_b=True)",
		    F32(2, 5, 3));
	expect_type("%a: " F32(2, 8, 5) ", %b: " F32(8, 3),
		    "nn.matmul(%a, %b, units=3, out_dtype=\"float64\", transpose_a=True)",
		    "Tensor[(2, 5, 3), float64]");
	expect_type("%a: " F32(?, 8) ", %b: " F32(8, ?), "nn.matmul(%a, %b)", F32(?, ?));
	expect_error("%a: " F32(2, 5, 8) ", %b: " F32(7, 3), "nn.matmul(%a, %b)",
		     "'nn.matmul' reduction dimensions do not match: Tensor[(2, 5, 8), float32] "
		     "and Tensor[(7, 3), float32] (transpose_a=False, transpose_b=False)");
	expect_error("%a: " F32(2, 5, 8) ", %b: " F32(2, 8, 3), "nn.matmul(%a, %b)",
		     "'nn.matmul' expects a 2-D second operand, got Tensor[(2, 8, 3), float32]");
	expect_error("%a: " F32(5, 8) ", %b: " F32(8, 3), "nn.matmul(%a, %b, units=4)",
		     "'nn.matmul' attribute units=4 does not match Tensor[(8, 3), float32]");
}

/* ---- nn.pad ---------------------------------------------------------------- */

static void test_pad(void **state)
{
	(void)state;
	expect_type("%x: " F32(1, 3, 4, 4),
		    "nn.pad(%x, 0f, pad_width=[[0, 0], [0, 0], [1, 2], [3, 4]])", F32(1, 3, 7, 11));
	expect_type("%x: " F32(2, 5),
		    "nn.pad(%x, 1f, pad_width=[[0, 0], [-1, 0]], pad_mode=\"edge\")", F32(2, 4));
	expect_type("%x: " F32(?, 5), "nn.pad(%x, 0f, pad_width=[[1, 1], [2, 2]])", F32(?, 9));
	expect_error("%x: " F32(1, 3, 4, 4), "nn.pad(%x, 0f, pad_width=[[0, 0], [1, 1], [1, 1]])",
		     "'nn.pad' needs a pad_width of 4 [before, after] pairs for "
		     "Tensor[(1, 3, 4, 4), float32]");
	expect_error("%x: " F32(2, 5), "nn.pad(%x, 0f, pad_width=[[0, 0], [1, 1, 1]])",
		     "'nn.pad' pad_width item 1 must be a pair [before, after] of integers");
	expect_error("%x: " F32(2, 5),
		     "nn.pad(%x, 0f, pad_width=[[0, 0], [1, 1]], pad_mode=\"wrap\")",
		     "'nn.pad' attribute pad_mode=\"wrap\" must be \"constant\", \"edge\" or "
		     "\"reflect\"");
	expect_error("%x: " F32(2, 5), "nn.pad(%x, 0f, pad_width=[[0, 0], [-3, -3]])",
		     "'nn.pad' pads dimension 1 of Tensor[(2, 5), float32] to an invalid extent");
	expect_error("%x: " F32(2, 5) ", %v: " F32(1), "nn.pad(%x, %v, pad_width=[[0, 0], [1, 1]])",
		     "'nn.pad' expects a scalar pad value, got Tensor[(1), float32]");
}

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
	expect_type("%x: " F32(1, 8, 2, 3), "nn.depth_to_space(%x, block_size=2)", F32(1, 2, 4, 6));
	expect_type("%x: " F32(1, 2, 3, 8),
		    "nn.depth_to_space(%x, block_size=2, layout=\"NHWC\", mode=\"CDR\")",
		    F32(1, 4, 6, 2));
	expect_type("%x: " F32(1, 2, 4, 6), "nn.space_to_depth(%x, block_size=2)", F32(1, 8, 2, 3));
}

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
	expect_error("%x: " F32(1, 6, 2, 3), "nn.depth_to_space(%x, block_size=2)",
		     "'nn.depth_to_space' data Tensor[(1, 6, 2, 3), float32] has 6 channels, not "
		     "divisible by block_size^2=4");
	expect_error("%x: " F32(1, 2, 4, 6), "nn.space_to_depth(%x, block_size=0)",
		     "'nn.space_to_depth' attribute block_size=0 must be positive");
}

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

/* ---- random.* ------------------------------------------------------------- */

#define KEY "Tensor[(10), uint64]"

static void test_random(void **state)
{
	(void)state;
	expect_type("%k: " KEY, "random.threefry_generate(%k, out_shape=[3, 4])",
		    "(" KEY ", Tensor[(3, 4), uint64])");
	/* TVM's relation assigns the key its type */
	expect_type("%k: Tensor[(?), uint64]", "random.threefry_split(%k)", "(" KEY ", " KEY ")");
	expect_type("%k: " KEY, "random.threefry_split(%k)", "(" KEY ", " KEY ")");
	expect_type("%k: " KEY, "random.uniform(%k, 0f, 1f, out_shape=[2, 5])",
		    "(" KEY ", " F32(2, 5) ")");
	expect_type("%k: " KEY,
		    "random.normal(%k, 0f64, 1f64, out_shape=[7], out_dtype=\"float64\")",
		    "(" KEY ", Tensor[(7), float64])");
	expect_type("%k: " KEY ", %p: " F32(4, 6), "random.multinomial(%k, %p, num_samples=3)",
		    "(" KEY ", " I32(4, 3) ")");
	expect_type("%k: " KEY ", %p: " F32(6), "random.multinomial(%k, %p)",
		    "(" KEY ", " I32(1) ")");
}

static void test_random_errors(void **state)
{
	(void)state;
	expect_error("%k: Tensor[(8), uint64]", "random.threefry_split(%k)",
		     "'random.threefry_split' expects a Threefry key Tensor[(10), uint64], got "
		     "Tensor[(8), uint64]");
	expect_error("%k: " I64(10), "random.threefry_split(%k)",
		     "'random.threefry_split' expects a Threefry key Tensor[(10), uint64], got "
		     "Tensor[(10), int64]");
	expect_error("%k: " F32(10), "random.threefry_generate(%k, out_shape=[3])",
		     "'random.threefry_generate' expects a Threefry key Tensor[(10), uint64], got "
		     "Tensor[(10), float32]");
	expect_error("%k: " KEY, "random.threefry_generate(%k)",
		     "'random.threefry_generate' needs an out_shape attribute");
	expect_error("%k: " KEY, "random.uniform(%k, 0f, 1f, out_shape=[2], out_dtype=\"int32\")",
		     "'random.uniform' generates only float32 or float64 values");
	expect_error("%k: " KEY, "random.normal(%k, 0f, 1f64, out_shape=[2])",
		     "'random.normal' expects a float32 scalar for argument 3, got "
		     "float64");
	expect_error("%k: " KEY ", %p: " F32(4, 6), "random.multinomial(%k, %p, num_samples=-1)",
		     "'random.multinomial' attribute num_samples=-1 must not be negative");
}

/* ---- the rest of nn.* ------------------------------------------------------- */

static void test_nn_misc(void **state)
{
	(void)state;
	expect_type("%x: " F32(2, 3),
		    "nn.mirror_pad(%x, mode=\"REFLECT\", pad_width=[[1, 1], [2, 0]])", F32(4, 5));
	expect_type("%x: " F32(3, 4), "nn.dilate(%x, strides=[2, 3])", F32(5, 10));
	expect_type("%x: " F32(3, 4), "nn.dilate(%x)", F32(3, 4));
	expect_type("%x: " F32(2, 3, 4), "nn.dilate(%x, strides=[1, 2, 1], dilation_value=1f)",
		    F32(2, 5, 4));
	expect_type("%x: " F32(4, 10) ", %y: " F32(4, 10), "nn.cross_entropy(%x, %y)", "float32");
	expect_type("%x: " F32(4, 10) ", %y: " F32(4, 10), "nn.cross_entropy_with_logits(%x, %y)",
		    "float32");
	expect_type("%p: " F32(4, 10) ", %t: Tensor[(4), uint8], %w: " F32(10),
		    "nn.nll_loss(%p, %t, %w)", "float32");
	expect_type("%p: " F32(4, 10) ", %t: " I64(4) ", %w: " F32(10), "nn.nll_loss(%p, %t, %w)",
		    "float32");
	expect_type("%p: " F32(4, 10, 5) ", %t: " I64(4, 5) ", %w: " F32(10),
		    "nn.nll_loss(%p, %t, %w, reduction=\"none\", ignore_index=0)", F32(4, 5));
	expect_type("%i: " F32(1, 2, 3) ", %b: " F32(1, 10, 3), "nn.fifo_buffer(%i, %b, axis=1)",
		    F32(1, 10, 3));
	expect_type("%x: " F32(1, 4, 4, 3),
		    "nn.space_to_batch_nd(%x, block_shape=[2, 2], paddings=[[0, 0], [0, 0]])",
		    F32(4, 2, 2, 3));
	expect_type("%x: " F32(1, 4, 4, 3),
		    "nn.space_to_batch_nd(%x, block_shape=[2, 2], paddings=[[1, 1], [0, 2]], "
		    "pad_value=1f)",
		    F32(4, 3, 3, 3));
	expect_type("%x: " F32(4, 2, 2, 3),
		    "nn.batch_to_space_nd(%x, block_shape=[2, 2], crops=[[0, 0], [0, 1]])",
		    F32(1, 4, 3, 3));
	expect_type("%g: " F32(1, 3, 2, 2) ", %x: " F32(1, 3, 4, 4),
		    "nn.max_pool2d_grad(%g, %x, pool_size=[2, 2], strides=[2, 2])",
		    F32(1, 3, 4, 4));
	expect_type("%g: " F32(1, 3, 2, 2) ", %x: " F32(1, 3, 4, 4),
		    "nn.avg_pool2d_grad(%g, %x, pool_size=[2, 2], strides=[2, 2], "
		    "count_include_pad=True)",
		    F32(1, 3, 4, 4));
	expect_type("%g: " F32(1, 8, 6, 6) ", %x: " F32(1, 4, 8, 8),
		    "nn.conv2d_backward_weight(%g, %x, kernel_size=[3, 3])", F32(8, 4, 3, 3));
	expect_type("%g: " F32(1, 8, 6, 6) ", %x: " F32(1, 4, 8, 8),
		    "nn.conv2d_backward_weight(%g, %x, groups=2, kernel_size=[3, 3])",
		    F32(8, 2, 3, 3));
	expect_type("%g: " F32(1, 4, 6, 6) ", %x: " F32(1, 4, 8, 8),
		    "nn.conv2d_backward_weight(%g, %x, groups=4, channels=4, kernel_size=[3, 3])",
		    F32(4, 1, 3, 3));
	/* channels last: the gradient's and the data's layouts, the weight in
	 * out_layout */
	expect_type("%g: " F32(1, 6, 6, 8) ", %x: " F32(1, 8, 8, 4),
		    "nn.conv2d_backward_weight(%g, %x, kernel_size=[3, 2], data_layout=\"NHWC\", "
		    "kernel_layout=\"NHWC\", out_layout=\"HWIO\")",
		    F32(3, 2, 4, 8));
	expect_type("%a: " F32(1, 3, 10, 10) ", %b: " F32(1, 3, 10, 10),
		    "nn.correlation(%a, %b, kernel_size=1, max_displacement=2, stride1=1, "
		    "stride2=1, padding=[2, 2])",
		    F32(1, 25, 10, 10));
	expect_type("%a: " F32(1, 3, 10, 10) ", %b: " F32(1, 3, 10, 10), "nn.correlation(%a, %b)",
		    F32(1, 9, 8, 8));
	expect_type("%d: " F32(1, 4, 8, 8) ", %o: " F32(1, 18, 6, 6) ", %w: " F32(6, 4, 3, 3),
		    "nn.deformable_conv2d(%d, %o, %w)", F32(1, 6, 6, 6));
	expect_type("%d: " F32(1, 4, 8, 8) ", %o: " F32(1, 36, 8, 8) ", %w: " F32(6, 4, 3, 3),
		    "nn.deformable_conv2d(%d, %o, %w, padding=[1, 1], deformable_groups=2)",
		    F32(1, 6, 8, 8));
	/* channels last: the offsets in the data's layout, the result in
	 * out_layout or the data's */
	expect_type("%d: " F32(1, 8, 8, 4) ", %o: " F32(1, 6, 6, 18) ", %w: " F32(3, 3, 4, 5),
		    "nn.deformable_conv2d(%d, %o, %w, data_layout=\"NHWC\", "
		    "kernel_layout=\"HWIO\")",
		    F32(1, 6, 6, 5));
	expect_type("%d: " F32(1, 8, 8, 4) ", %o: " F32(1, 6, 6, 18) ", %w: " F32(3, 3, 4, 5),
		    "nn.deformable_conv2d(%d, %o, %w, data_layout=\"NHWC\", "
		    "kernel_layout=\"HWIO\", out_layout=\"NCHW\")",
		    F32(1, 5, 6, 6));
	expect_type("%d: " F32(2, 16) ", %w: " F32(4, 16, 8), "nn.contrib_dense_pack(%d, %w)",
		    F32(2, 32));
}

static void test_nn_misc_errors(void **state)
{
	(void)state;
	expect_error("%x: " F32(2, 3), "nn.mirror_pad(%x, pad_width=[[1, 1], [-1, 0]])",
		     "'nn.mirror_pad' pad_width item 1 must not be negative");
	expect_error("%x: " F32(2, 3), "nn.mirror_pad(%x, pad_width=[[1, 1]])",
		     "'nn.mirror_pad' needs a pad_width of 2 [before, after] pairs");
	expect_error("%x: " F32(2, 3, 4), "nn.dilate(%x)",
		     "'nn.dilate' attribute strides=[1, 1] needs one value per dimension of "
		     "Tensor[(2, 3, 4), float32]");
	expect_error("%x: " F32(4, 10) ", %y: " F32(4, 9), "nn.cross_entropy(%x, %y)",
		     "'nn.cross_entropy' expects predictions and targets of one 2-D shape, got "
		     "Tensor[(4, 10), float32] and Tensor[(4, 9), float32]");
	expect_error("%p: " F32(4, 10) ", %t: " F32(4) ", %w: " F32(10), "nn.nll_loss(%p, %t, %w)",
		     "'nn.nll_loss' expects integer targets, got Tensor[(4), float32]");
	expect_error("%p: " F32(4, 10) ", %t: Tensor[(4), bool], %w: " F32(10),
		     "nn.nll_loss(%p, %t, %w)",
		     "'nn.nll_loss' expects integer targets, got Tensor[(4), bool]");
	expect_error("%p: " F32(4, 10) ", %t: " I64(4) ", %w: " F32(9), "nn.nll_loss(%p, %t, %w)",
		     "'nn.nll_loss' expects weights as long as the classes of "
		     "Tensor[(4, 10), float32], got Tensor[(9), float32]");
	expect_error("%i: " F32(1, 10, 3) ", %b: " F32(1, 10, 3), "nn.fifo_buffer(%i, %b, axis=1)",
		     "'nn.fifo_buffer' expects an input like the buffer but shorter along axis 1, "
		     "got Tensor[(1, 10, 3), float32] and Tensor[(1, 10, 3), float32]");
	expect_error(
		"%x: " F32(1, 5, 4, 3),
		"nn.space_to_batch_nd(%x, block_shape=[2, 2], paddings=[[0, 0], [0, 0]])",
		"'nn.space_to_batch_nd' padded dimension 1 of Tensor[(1, 5, 4, 3), float32] is "
		"not a multiple of block 2");
	expect_error("%x: " F32(3, 2, 2, 3),
		     "nn.batch_to_space_nd(%x, block_shape=[2, 2], crops=[[0, 0], [0, 0]])",
		     "'nn.batch_to_space_nd' batch of Tensor[(3, 2, 2, 3), float32] is not a "
		     "multiple of the block size 4");
	expect_error("%g: " F32(1, 8, 6, 6) ", %x: " F32(1, 4, 8, 8),
		     "nn.conv2d_backward_weight(%g, %x)",
		     "'nn.conv2d_backward_weight' needs a kernel_size attribute");
	expect_error(
		"%a: " F32(1, 3, 10, 10) ", %b: " F32(1, 3, 10, 10),
		"nn.correlation(%a, %b, kernel_size=2)",
		"'nn.correlation' needs an odd kernel_size, a non-negative max_displacement and "
		"positive strides");
	expect_error("%d: " F32(1, 4, 8, 8) ", %o: " F32(1, 18, 8, 8) ", %w: " F32(6, 4, 3, 3),
		     "nn.deformable_conv2d(%d, %o, %w)",
		     "'nn.deformable_conv2d' expects offsets of shape (1, 18, 6, 6), got "
		     "Tensor[(1, 18, 8, 8), float32]");
	expect_error("%d: " F32(2, 16) ", %w: " F32(4, 15, 8), "nn.contrib_dense_pack(%d, %w)",
		     "'nn.contrib_dense_pack' expects data [M, K] and packed weight [N / n, K, n], "
		     "got Tensor[(2, 16), float32] and Tensor[(4, 15, 8), float32]");
}

/* ---- sparse ------------------------------------------------------------------ */

#define CSR(nnz, rows) "Tensor[(" #nnz "), float32], %i: " I32(nnz) ", %p: " I32(rows)

static void test_sparse(void **state)
{
	(void)state;
	expect_type("%x: " F32(3, 8) ", %d: " CSR(10, 5), "nn.sparse_dense(%x, %d, %i, %p)",
		    F32(3, 4));
	expect_type("%x: " F32(3, 8) ", %d: " F32(6, 2, 4) ", %i: " I32(6) ", %p: " I32(3),
		    "nn.sparse_dense(%x, %d, %i, %p)", F32(3, 4));
	expect_type("%x: " F32(5, 8) ", %d: " CSR(10, 5),
		    "nn.sparse_dense(%x, %d, %i, %p, sparse_lhs=True)", F32(4, 5));
	expect_type("%x: " F32(3, 8) ", %d: " CSR(10, 5),
		    "nn.internal.sparse_dense_padded(%x, %d, %i, %p)", F32(3, 4));
	expect_type("%d: " CSR(10, 5), "nn.sparse_transpose(%d, %i, %p)",
		    "(" F32(10) ", " I32(10) ", " I32(5) ")");
	expect_type("%x: " F32(4, 6) ", %d: " CSR(5, 5), "nn.sparse_add(%x, %d, %i, %p)",
		    F32(4, 6));
	expect_type("%x: " F32(1, 8, 8, 16) ", %d: " F32(6, 4, 1) ", %i: " I32(6) ", %p: " I32(9),
		    "nn.sparse_conv2d(%x, %d, %i, %p)", F32(1, 8, 8, 32));
	expect_type("%x: " F32(1, 16, 8, 8) ", %d: " F32(6, 2) ", %i: " I32(6) ", %p: " I32(5),
		    "nn.sparse_conv2d(%x, %d, %i, %p, layout=\"NCHW\", kernel_size=[1, 1])",
		    F32(1, 8, 8, 8));
	expect_error("%x: " F32(3, 8) ", %d: " F32(10, 2) ", %i: " I32(10) ", %p: " I32(5),
		     "nn.sparse_dense(%x, %d, %i, %p)",
		     "'nn.sparse_dense' expects a sparse matrix as 1-D or 3-D data with 1-D "
		     "indices and index pointers, got Tensor[(10, 2), float32], "
		     "Tensor[(10), int32] and Tensor[(5), int32]");
	expect_error("%x: Tensor[(4, 6), float64], %d: " CSR(5, 5), "nn.sparse_add(%x, %d, %i, %p)",
		     "operands of 'nn.sparse_add' have different dtypes: Tensor[(4, 6), float64] "
		     "and Tensor[(5), float32]");
	expect_error(
		"%x: " F32(3, 6) ", %d: " CSR(5, 5), "nn.sparse_add(%x, %d, %i, %p)",
		"'nn.sparse_add' expects a 2-D dense operand and a CSR matrix of its rows, got "
		"Tensor[(3, 6), float32] and Tensor[(5), float32]");
	expect_error("%x: " F32(1, 8, 8, 16) ", %d: " CSR(10, 5),
		     "nn.sparse_conv2d(%x, %d, %i, %p, layout=\"HWCN\")",
		     "'nn.sparse_conv2d' attribute layout=\"HWCN\" must be \"NHWC\" or \"NCHW\"");
}

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
	assert_string_equal(infer_type_name(m, m->globals[0].fn->u.fn.body->type),
			    "(" F32(1, 6, 1) ", " F32(1, 2, 1, 1, 1) ", " F32(1, 3, 1, 1) ", " F32(
				    1, 3, 1, 1) ")");
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
	assert_string_equal(infer_type_name(m, m->globals[0].fn->u.fn.body->type),
			    "(" F32(1, 3, 2, 2, 2) ", " F32(2, 3, 2, 2) ", " F32(1, 3, 4, 5) ")");
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
		infer_type_name(m, m->globals[0].fn->u.fn.body->type),
		"(" F32(1, 20, 6) ", (" I64(1, 60, 2) ", " F32(1, 60) ", " I64(1) "), (" F32(1, 8, 4) ", " F32(
			1,
			8) ", " F32(1,
				    8) ", " I32(1) "), " F32(2, 3, 2,
							     2) ", " F32(2, 3, 3,
									 3) ", " F32(1, 12, 2,
										     2) ", " F32(10,
												 5) ")");
}

/* The random.* operators threading one key, every attribute given. */
static void test_round_trip_random(void **state)
{
	(void)state;
	expect_round_trip(
		"#[version = \"0.0.5\"]\n"
		"def @main(%k: Tensor[(10), uint64], %p: Tensor[(2, 3), float32]) {\n"
		"  %0 = random.threefry_split(%k);\n"
		"  %1 = %0.0;\n"
		"  %2 = random.threefry_generate(%1, out_shape=[4]);\n"
		"  %3 = %2.0;\n"
		"  %4 = random.uniform(%3, -1f64, 1f64, out_shape=[2, 2], "
		"out_dtype=\"float64\");\n"
		"  %5 = %4.0;\n"
		"  %6 = random.normal(%5, 0f, 2f, out_shape=[3], out_dtype=\"float32\");\n"
		"  %7 = %6.0;\n"
		"  random.multinomial(%7, %p, num_samples=5)\n"
		"}\n");
	assert_string_equal(infer_type_name(m, m->globals[0].fn->u.fn.body->type),
			    "(" KEY ", " I32(2, 5) ")");
}

/* The rest of nn.*, every attribute given. */
static void test_round_trip_nn_misc(void **state)
{
	(void)state;
	expect_round_trip(
		"#[version = \"0.0.5\"]\n"
		"def @main(%x: Tensor[(1, 4, 8, 8), float32], %o: Tensor[(1, 18, 6, 8), float32], "
		"%w: Tensor[(4, 4, 3, 3), float32], %t: Tensor[(1, 8, 8), int64], "
		"%c: Tensor[(4), float32], %p: Tensor[(2, 16, 8), float32], "
		"%d: Tensor[(20), float32], %i: Tensor[(20), int32], %r: Tensor[(17), int32], "
		"%e: Tensor[(20, 1), float32]) {\n"
		"  %0 = nn.mirror_pad(%x, mode=\"REFLECT\", pad_width=[[0, 0], [0, 0], [0, 0], [1, "
		"1]]);\n"
		"  %1 = nn.deformable_conv2d(%0, %o, %w, strides=[1, 1], padding=[0, 0], "
		"dilation=[1, 1], deformable_groups=1, groups=1, channels=4, kernel_size=[3, 3], "
		"data_layout=\"NCHW\", kernel_layout=\"OIHW\", out_layout=\"\", "
		"out_dtype=\"float32\");\n"
		"  %2 = nn.correlation(%1, %x, kernel_size=3, max_displacement=1, stride1=1, "
		"stride2=1, padding=[2, 2], is_multiply=False, layout=\"NCHW\");\n"
		"  %3 = nn.max_pool2d_grad(%x, %x, pool_size=[1, 1], strides=[1, 1], "
		"dilation=[1, 1], padding=[0, 0], layout=\"NCHW\", out_layout=\"\", "
		"ceil_mode=False);\n"
		"  %4 = nn.avg_pool2d_grad(%3, %x, pool_size=[1, 1], strides=[1, 1], "
		"dilation=[1, 1], padding=[0, 0], layout=\"NCHW\", out_layout=\"\", "
		"ceil_mode=False, "
		"count_include_pad=True);\n"
		"  %5 = nn.conv2d_backward_weight(%4, %x, strides=[1, 1], padding=[1, 1], "
		"dilation=[1, 1], groups=1, channels=4, kernel_size=[3, 3], data_layout=\"NCHW\", "
		"kernel_layout=\"NCHW\", out_layout=\"OIHW\", out_dtype=\"float32\");\n"
		"  %6 = nn.space_to_batch_nd(%x, block_shape=[2, 2], paddings=[[0, 0], [0, 0]], "
		"pad_value=0f);\n"
		"  %7 = nn.batch_to_space_nd(%6, block_shape=[2, 2], crops=[[0, 0], [0, 0]]);\n"
		"  %8 = nn.dilate(%7, strides=[1, 1, 2, 2], dilation_value=1f);\n"
		"  %9 = nn.nll_loss(%x, %t, %c, reduction=\"sum\", ignore_index=-1);\n"
		"  %10 = reshape(%x, newshape=[32, 8]);\n"
		"  %11 = nn.cross_entropy(%10, %10);\n"
		"  %12 = nn.cross_entropy_with_logits(%10, %10);\n"
		"  %13 = nn.fifo_buffer(%x, %0, axis=3);\n"
		"  %14 = reshape(%x, newshape=[16, 16]);\n"
		"  %15 = nn.contrib_dense_pack(%14, %p, units=16, out_dtype=\"float32\", "
		"weight_layout=\"NC4n\");\n"
		"  %16 = nn.sparse_dense(%14, %d, %i, %r, sparse_lhs=False);\n"
		"  %17 = nn.internal.sparse_dense_padded(%14, %d, %i, %r, sparse_lhs=True);\n"
		"  %18 = nn.sparse_transpose(%d, %i, %r);\n"
		"  %19 = nn.sparse_add(%14, %d, %i, %r);\n"
		"  %20 = nn.sparse_conv2d(%x, %e, %i, %r, layout=\"NCHW\", kernel_size=[1, 1]);\n"
		"  (%2, %5, %8, %9, %11, %12, %13, %15, %16, %17, %18, %19, %20)\n"
		"}\n");
	assert_string_equal(
		infer_type_name(m, m->globals[0].fn->u.fn.body->type),
		"(" F32(1, 9, 6, 8) ", " F32(4, 4, 3, 3) ", " F32(
			1, 4, 15,
			15) ", float32, "
			    "float32, "
			    "float32, " F32(1, 4, 8, 10) ", " F32(16, 16) ", " F32(16, 16) ", " F32(
				    16, 16) ", "
					    "(" F32(20) ", " I32(20) ", " I32(17) "), " F32(
						    16, 16) ", " F32(1, 16, 8, 8) ")");
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
		infer_type_name(m, m->globals[0].fn->u.fn.body->type),
		"(" F32(1, 8, 8, 8) ", " F32(1, 8, 6, 6, 6) ", " F32(8, 4, 8, 8) ", " F32(
			1, 6, 6,
			8) ", " F32(1, 1, 8, 8,
				    8) ", " F32(1, 2, 3, 3,
						4) ", Tensor[(2, 4, 2), int32], Tensor[(1, 8, 8, "
						   "8), int32], " F32(4, 4) ")");
}

#define TEST(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(test_batch_norm),
		TEST(test_batch_norm_errors),
		TEST(test_layer_instance_group_norm),
		TEST(test_norm_errors),
		TEST(test_l2_normalize_lrn),
		TEST(test_activations),
		TEST(test_activation_errors),
		TEST(test_matmul),
		TEST(test_pad),
		TEST(test_resampling),
		TEST(test_resampling_errors),
		TEST(test_dyn_nn),
		TEST(test_conv_nd),
		TEST(test_conv_nd_errors),
		TEST(test_pool_nd),
		TEST(test_pool_nd_errors),
		TEST(test_adaptive_pool),
		TEST(test_image),
		TEST(test_image_errors),
		TEST(test_vision),
		TEST(test_vision_errors),
		TEST(test_random),
		TEST(test_random_errors),
		TEST(test_nn_misc),
		TEST(test_nn_misc_errors),
		TEST(test_sparse),
		TEST(test_contrib),
		TEST(test_blocked_and_bitserial),
		TEST(test_unknown_dims_and_tuples),
		TEST(test_round_trip),
		TEST(test_round_trip_contrib),
		TEST(test_round_trip_nn_misc),
		TEST(test_round_trip_random),
		TEST(test_round_trip_vision),
		TEST(test_round_trip_image),
		TEST(test_round_trip_windows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
