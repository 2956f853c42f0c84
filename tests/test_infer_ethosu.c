/*
 * test_infer_ethosu.c - the type relations of the ethosu family of ops.def
 * (core/plan/infer/infer_ethosu.c): contrib.ethosu.identity,
 * contrib.ethosu.unary_elementwise, contrib.ethosu.binary_elementwise,
 * contrib.ethosu.conv2d, contrib.ethosu.depthwise_conv2d,
 * contrib.ethosu.pooling.
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

/* ---- contrib.ethosu.* ------------------------------------------------------- */

#define IFM "%i: Tensor[(1, 8, 8, 3), int8], %l: Tensor[(256), int8]"

static void test_ethosu_identity(void **state)
{
	(void)state;
	check_type(IFM,
		   "contrib.ethosu.identity(%i, %l, ifm_scale=0.5f, ifm_zero_point=1, "
		   "ofm_scale=0.25f, ofm_zero_point=2)",
		   "Tensor[(1, 8, 8, 3), int8]");
	check_type("%i: Tensor[(5), uint8], %l: Tensor[(256), uint8]",
		   "contrib.ethosu.identity(%i, %l)", "Tensor[(5), uint8]");
	check_error("%i: Tensor[(1, 1, 8, 8, 3), int8], %l: Tensor[(256), int8]",
		    "contrib.ethosu.identity(%i, %l)",
		    "'contrib.ethosu.identity' expects an ifm of at most 4 dimensions, got "
		    "Tensor[(1, 1, 8, 8, 3), int8]");
	check_error("%i: Tensor[(1, 8, 8, 3), float32], %l: Tensor[(256), int8]",
		    "contrib.ethosu.identity(%i, %l)",
		    "'contrib.ethosu.identity' expects an ifm of int8 or uint8, got "
		    "Tensor[(1, 8, 8, 3), float32]");
	check_error("%i: Tensor[(1, 8, 8, 3), int32], %l: Tensor[(256), int32]",
		    "contrib.ethosu.identity(%i, %l)",
		    "'contrib.ethosu.identity' expects an ifm of int8 or uint8, got "
		    "Tensor[(1, 8, 8, 3), int32]");
}

static void test_ethosu_unary_elementwise(void **state)
{
	(void)state;
	check_type(IFM,
		   "contrib.ethosu.unary_elementwise(%i, %l, operator_type=\"ABS\", "
		   "ofm_channels=3)",
		   "Tensor[(1, 8, 8, 3), int8]");
	check_type("%i: Tensor[(1, 8, 8, 3), int32], %l: Tensor[(256), int8]",
		   "contrib.ethosu.unary_elementwise(%i, %l, operator_type=\"CLZ\", "
		   "ofm_channels=20, ofm_layout=\"NHCWB16\")",
		   "Tensor[(1, 8, 2, 8, 16), int32]");
	check_type("%i: Tensor[(1, 8, 1, 8, 16), int8], %l: Tensor[(256), int8]",
		   "contrib.ethosu.unary_elementwise(%i, %l, operator_type=\"ABS\", "
		   "ofm_channels=16, ifm_layout=\"NHCWB16\", ofm_layout=\"NHWC\")",
		   "Tensor[(1, 8, 8, 16), int8]");
	check_error("%i: Tensor[(1, 8, 8, 3), int8], %l: Tensor[(256), int8]",
		    "contrib.ethosu.unary_elementwise(%i, %l, operator_type=\"CLZ\", "
		    "ofm_channels=3)",
		    "'contrib.ethosu.unary_elementwise' CLZ expects an ifm of int32, got "
		    "Tensor[(1, 8, 8, 3), int8]");
	check_error("%i: Tensor[(1, 8, 8, 3), int32], %l: Tensor[(256), int8]",
		    "contrib.ethosu.unary_elementwise(%i, %l, operator_type=\"ABS\", "
		    "ofm_channels=3)",
		    "'contrib.ethosu.unary_elementwise' ABS expects an ifm of int8 or uint8, got "
		    "Tensor[(1, 8, 8, 3), int32]");
	check_error(IFM,
		    "contrib.ethosu.unary_elementwise(%i, %l, operator_type=\"NEG\", "
		    "ofm_channels=3)",
		    "'contrib.ethosu.unary_elementwise' operator_type must be \"ABS\" or \"CLZ\", "
		    "got \"NEG\"");
	check_error(IFM, "contrib.ethosu.unary_elementwise(%i, %l, operator_type=\"ABS\")",
		    "'contrib.ethosu.unary_elementwise' needs ofm_channels");
	check_error(IFM, "contrib.ethosu.unary_elementwise(%i, %l, ofm_channels=3)",
		    "'contrib.ethosu.unary_elementwise' needs operator_type");
	check_error(IFM,
		    "contrib.ethosu.unary_elementwise(%i, %l, operator_type=\"ABS\", "
		    "ofm_channels=3, ifm_layout=\"NCHW\")",
		    "'contrib.ethosu.unary_elementwise' ifm_layout must be \"NHWC\" or "
		    "\"NHCWB16\", got \"NCHW\"");
	check_error(IFM,
		    "contrib.ethosu.unary_elementwise(%i, %l, operator_type=\"ABS\", "
		    "ofm_channels=3, ifm_layout=\"NHCWB16\")",
		    "'contrib.ethosu.unary_elementwise' expects a 5-D NHCWB16 ifm, got "
		    "Tensor[(1, 8, 8, 3), int8]");
}

#define IFM2 IFM ", %j: Tensor[(1, 8, 8, 3), int8]"

static void test_ethosu_binary_elementwise(void **state)
{
	(void)state;
	check_type(IFM2,
		   "contrib.ethosu.binary_elementwise(%i, %j, %l, operator_type=\"ADD\", "
		   "ifm_channels=3, ifm2_channels=3, ofm_dtype=\"int32\")",
		   "Tensor[(1, 8, 8, 3), int32]");
	check_type(IFM2,
		   "contrib.ethosu.binary_elementwise(%i, %j, %l, operator_type=\"MUL\", "
		   "ifm_channels=3, ofm_dtype=\"int16\", ofm_layout=\"NHCWB16\")",
		   "Tensor[(1, 8, 1, 8, 16), int16]");
	check_type("%i: Tensor[(1, 8, 8, 3), int32], %j: Tensor[(1, 8, 8, 3), int32], "
		   "%l: Tensor[(256), int8]",
		   "contrib.ethosu.binary_elementwise(%i, %j, %l, operator_type=\"SHL\", "
		   "ifm_channels=3, ofm_dtype=\"int32\")",
		   "Tensor[(1, 8, 8, 3), int32]");
	check_type("%i: Tensor[(1, 8, 8, 3), int32], %j: Tensor[(1, 8, 8, 3), int32], "
		   "%l: Tensor[(256), int8]",
		   "contrib.ethosu.binary_elementwise(%i, %j, %l, operator_type=\"SHR\", "
		   "ifm_channels=3, ofm_dtype=\"uint8\")",
		   "Tensor[(1, 8, 8, 3), uint8]");
	check_type(IFM2,
		   "contrib.ethosu.binary_elementwise(%i, %j, %l, operator_type=\"MIN\", "
		   "ifm_channels=3, ofm_dtype=\"int8\")",
		   "Tensor[(1, 8, 8, 3), int8]");
	check_error(IFM2,
		    "contrib.ethosu.binary_elementwise(%i, %j, %l, operator_type=\"SHR\", "
		    "ifm_channels=3, ofm_dtype=\"int32\")",
		    "'contrib.ethosu.binary_elementwise' SHR expects an ifm of int32, got "
		    "Tensor[(1, 8, 8, 3), int8]");
	check_error("%i: Tensor[(1, 8, 8, 3), uint16], %j: Tensor[(1, 8, 8, 3), uint16], "
		    "%l: Tensor[(256), int8]",
		    "contrib.ethosu.binary_elementwise(%i, %j, %l, operator_type=\"ADD\", "
		    "ifm_channels=3, ofm_dtype=\"int32\")",
		    "'contrib.ethosu.binary_elementwise' ADD expects an ifm of int8, uint8, int16 "
		    "or int32, got Tensor[(1, 8, 8, 3), uint16]");
	check_error(IFM2,
		    "contrib.ethosu.binary_elementwise(%i, %j, %l, operator_type=\"ADD\", "
		    "ifm_channels=3, ofm_dtype=\"int64\")",
		    "'contrib.ethosu.binary_elementwise' ADD does not support ofm_dtype \"int64\" "
		    "for Tensor[(1, 8, 8, 3), int8]");
	check_error(IFM2,
		    "contrib.ethosu.binary_elementwise(%i, %j, %l, operator_type=\"MAX\", "
		    "ifm_channels=3, ofm_dtype=\"int64\")",
		    "'contrib.ethosu.binary_elementwise' MAX does not support ofm_dtype \"int64\" "
		    "for Tensor[(1, 8, 8, 3), int8]");
	check_error(IFM2,
		    "contrib.ethosu.binary_elementwise(%i, %j, %l, operator_type=\"ADD\", "
		    "ifm_channels=3)",
		    "'contrib.ethosu.binary_elementwise' needs ofm_dtype");
	check_error(IFM ", %j: Tensor[(1, 8, 8, 3), uint8]",
		    "contrib.ethosu.binary_elementwise(%i, %j, %l, operator_type=\"ADD\", "
		    "ifm_channels=3, ofm_dtype=\"int32\")",
		    "operands of 'contrib.ethosu.binary_elementwise' have different dtypes: "
		    "Tensor[(1, 8, 8, 3), int8] and Tensor[(1, 8, 8, 3), uint8]");
	check_error(IFM2,
		    "contrib.ethosu.binary_elementwise(%i, %j, %l, operator_type=\"DIV\", "
		    "ifm_channels=3, ofm_dtype=\"int32\")",
		    "'contrib.ethosu.binary_elementwise' operator_type must be \"ADD\", \"SUB\", "
		    "\"MUL\", \"MIN\", \"MAX\", \"SHR\" or \"SHL\", got \"DIV\"");
}

#define CONV IFM ", %w: Tensor[(16, 3, 3, 3), int8], %b: Tensor[(16, 10), uint8]"
#define CONV_CALL "contrib.ethosu.conv2d(%i, %w, %b, %l, kernel_shape=[3, 3], ofm_channels=16"

static void test_ethosu_conv2d(void **state)
{
	(void)state;
	check_type(CONV, CONV_CALL ", padding=[1, 1, 1, 1])", "Tensor[(1, 8, 8, 16), int8]");
	check_type(CONV, CONV_CALL ", strides=[2, 2])", "Tensor[(1, 3, 3, 16), int8]");
	check_type(CONV, CONV_CALL ", dilation=[2, 2])", "Tensor[(1, 4, 4, 16), int8]");
	check_type(CONV, CONV_CALL ", upscale=\"NEAREST\")", "Tensor[(1, 14, 14, 16), int8]");
	check_type(CONV, CONV_CALL ", padding=[1, 1, 1, 1], ofm_layout=\"NHCWB16\")",
		   "Tensor[(1, 8, 1, 8, 16), int8]");
	check_type("%i: Tensor[(1, 8, 1, 8, 16), int8], %l: Tensor[(256), int8], "
		   "%w: Tensor[(16, 3, 3, 3), uint8], %b: Tensor[(16, 10), uint8]",
		   CONV_CALL ", ifm_layout=\"NHCWB16\")", "Tensor[(1, 6, 6, 16), int8]");
	check_error(IFM ", %w: Tensor[(8, 3, 3, 3), int8], %b: Tensor[(8, 10), uint8]",
		    CONV_CALL ")",
		    "'contrib.ethosu.conv2d' expects a weight of shape (16, 3, 3, _), got "
		    "Tensor[(8, 3, 3, 3), int8]");
	check_error(IFM ", %w: Tensor[(16, 3, 3, 3), int8], %b: Tensor[(16, 5), uint8]",
		    CONV_CALL ")",
		    "'contrib.ethosu.conv2d' expects a scale_bias of shape (16, 10), got "
		    "Tensor[(16, 5), uint8]");
	check_error(IFM ", %w: Tensor[(16, 3, 3, 3), int8], %b: Tensor[(16, 10), int8]",
		    CONV_CALL ")",
		    "'contrib.ethosu.conv2d' expects a scale_bias of uint8, got "
		    "Tensor[(16, 10), int8]");
	check_error(IFM ", %w: Tensor[(16, 3, 3, 3), int16], %b: Tensor[(16, 10), uint8]",
		    CONV_CALL ")",
		    "'contrib.ethosu.conv2d' expects a weight of int8 or uint8, got "
		    "Tensor[(16, 3, 3, 3), int16]");
	check_error(CONV, "contrib.ethosu.conv2d(%i, %w, %b, %l, ofm_channels=16)",
		    "'contrib.ethosu.conv2d' needs kernel_shape");
	check_error(CONV, CONV_CALL ", upscale=\"BILINEAR\")",
		    "'contrib.ethosu.conv2d' upscale must be \"NONE\", \"ZEROS\" or \"NEAREST\", "
		    "got \"BILINEAR\"");
	check_error(CONV, CONV_CALL ", padding=[9223372036854775807, 0, 0, 0])",
		    "'contrib.ethosu.conv2d' window of Tensor[(1, 8, 8, 3), int8] is too large");
	check_error(CONV, CONV_CALL ", dilation=[5, 5])",
		    "'contrib.ethosu.conv2d' kernel_shape 3x3 is larger than the padded ifm "
		    "Tensor[(1, 8, 8, 3), int8]");
}

static void test_ethosu_depthwise_conv2d(void **state)
{
	(void)state;
	check_type(IFM ", %w: Tensor[(3, 3, 3, 1), int8], %b: Tensor[(3, 10), uint8]",
		   "contrib.ethosu.depthwise_conv2d(%i, %w, %b, %l, kernel_shape=[3, 3], "
		   "ofm_channels=3, ofm_dtype=\"int32\")",
		   "Tensor[(1, 6, 6, 3), int32]");
	check_type(IFM ", %w: Tensor[(3, 3, 3, 1), uint8], %b: Tensor[(3, 10), uint8]",
		   "contrib.ethosu.depthwise_conv2d(%i, %w, %b, %l, kernel_shape=[3, 3], "
		   "ofm_channels=3, ofm_dtype=\"int16\")",
		   "Tensor[(1, 6, 6, 3), int16]");
	check_error(IFM ", %w: Tensor[(3, 3, 3, 1), int8], %b: Tensor[(3, 10), uint8]",
		    "contrib.ethosu.depthwise_conv2d(%i, %w, %b, %l, kernel_shape=[3, 3], "
		    "ofm_channels=3)",
		    "'contrib.ethosu.depthwise_conv2d' needs ofm_dtype");
	check_error(IFM ", %w: Tensor[(3, 3, 3, 1), int8], %b: Tensor[(3, 10), uint8]",
		    "contrib.ethosu.depthwise_conv2d(%i, %w, %b, %l, kernel_shape=[3, 3], "
		    "ofm_channels=3, ofm_dtype=\"float32\")",
		    "'contrib.ethosu.depthwise_conv2d' does not support ofm_dtype \"float32\"");
}

static void test_ethosu_pooling(void **state)
{
	(void)state;
	check_type(IFM,
		   "contrib.ethosu.pooling(%i, %l, pooling_type=\"MAX\", pool_shape=[2, 2], "
		   "strides=[2, 2], ofm_channels=3, ofm_dtype=\"int8\")",
		   "Tensor[(1, 4, 4, 3), int8]");
	check_error(IFM,
		    "contrib.ethosu.pooling(%i, %l, pooling_type=\"MAX\", pool_shape=[2, 2], "
		    "strides=[2, 2], ofm_channels=3, ofm_dtype=\"int32\")",
		    "'contrib.ethosu.pooling' MAX does not support ofm_dtype \"int32\" for "
		    "Tensor[(1, 8, 8, 3), int8]");
	check_error("%i: Tensor[(1, 8, 8, 3), int32], %l: Tensor[(256), int8]",
		    "contrib.ethosu.pooling(%i, %l, pooling_type=\"MAX\", pool_shape=[2, 2], "
		    "ofm_channels=3, ofm_dtype=\"int32\")",
		    "'contrib.ethosu.pooling' MAX expects an ifm of uint8, int8 or int16, got "
		    "Tensor[(1, 8, 8, 3), int32]");
	check_type("%i: Tensor[(1, 8, 8, 3), int32], %l: Tensor[(256), int8]",
		   "contrib.ethosu.pooling(%i, %l, pooling_type=\"SUM\", pool_shape=[1, 1], "
		   "ofm_channels=1, ofm_dtype=\"int32\")",
		   "Tensor[(1, 8, 8, 1), int32]");
	check_error(IFM,
		    "contrib.ethosu.pooling(%i, %l, pooling_type=\"AVG\", pool_shape=[2, 2], "
		    "ofm_channels=3, ofm_dtype=\"int64\")",
		    "'contrib.ethosu.pooling' AVG does not support ofm_dtype \"int64\" for "
		    "Tensor[(1, 8, 8, 3), int8]");
	check_error(
		IFM,
		"contrib.ethosu.pooling(%i, %l, pool_shape=[2, 2], ofm_channels=3, "
		"ofm_dtype=\"int32\")",
		"'contrib.ethosu.pooling' pooling_type must be \"AVG\", \"MAX\" or \"SUM\", got "
		"none");
	check_error(IFM,
		    "contrib.ethosu.pooling(%i, %l, pooling_type=\"MAX\", pool_shape=[9, 9], "
		    "ofm_channels=3, ofm_dtype=\"int8\")",
		    "'contrib.ethosu.pooling' pool_shape 9x9 is larger than the padded ifm "
		    "Tensor[(1, 8, 8, 3), int8]");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_ethosu_identity),           TEST(test_ethosu_unary_elementwise),
		TEST(test_ethosu_binary_elementwise), TEST(test_ethosu_conv2d),
		TEST(test_ethosu_depthwise_conv2d),   TEST(test_ethosu_pooling),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
