/*
 * test_infer_qnn.c - the type relations of the qnn family of ops.def
 * (core/plan/infer/infer_qnn.c): qnn.quantize, qnn.dequantize,
 * qnn.requantize, qnn.simulated_quantize, qnn.simulated_dequantize,
 * qnn.add, qnn.mul, qnn.subtract, qnn.tanh, qnn.exp, qnn.sqrt, qnn.rsqrt,
 * qnn.erf, qnn.sigmoid, qnn.hardswish, qnn.log, qnn.abs, qnn.softmax,
 * qnn.leaky_relu, qnn.avg_pool2d, qnn.concatenate, qnn.dense,
 * qnn.contrib_dense_pack, qnn.batch_matmul, qnn.conv2d,
 * qnn.conv2d_transpose.
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

/* ---- qnn.* ------------------------------------------------------------------ */

#define QP "%s: float32, %z: int32"
#define Q23 "%x: Tensor[(2, 3), int8], " QP
#define F23Q "%f: Tensor[(2, 3), float32], " QP
#define V3 ", %sv: Tensor[(3), float32], %zv: Tensor[(3), int32]"

static void test_qnn_quantize(void **state)
{
	(void)state;
	check_type(F23Q, "qnn.quantize(%f, %s, %z, out_dtype=\"int32\")", "Tensor[(2, 3), int32]");
	/* TVM's storage dtypes */
	check_type(F23Q, "qnn.quantize(%f, %s, %z, out_dtype=\"int8\")", "Tensor[(2, 3), int8]");
	check_type(F23Q, "qnn.quantize(%f, %s, %z, out_dtype=\"uint8\")", "Tensor[(2, 3), uint8]");
	check_type(F23Q, "qnn.quantize(%f, %s, %z, out_dtype=\"int16\")", "Tensor[(2, 3), int16]");
	check_type(F23Q, "qnn.quantize(%f, %s, %z, out_dtype=\"uint16\")",
		   "Tensor[(2, 3), uint16]");
	/* per channel, along the last axis by default */
	check_type(F23Q V3, "qnn.quantize(%f, %sv, %zv, out_dtype=\"int32\")",
		   "Tensor[(2, 3), int32]");
	check_type(F23Q V3, "qnn.quantize(%f, %sv, %zv, out_dtype=\"int32\", axis=1)",
		   "Tensor[(2, 3), int32]");
	/* scalar parameters: any axis */
	check_type(F23Q, "qnn.quantize(%f, %s, %z, out_dtype=\"int32\", axis=7)",
		   "Tensor[(2, 3), int32]");
	check_type(F23Q, "qnn.quantize(%f, %s, %z, out_dtype=\"int32\", axis=-9)",
		   "Tensor[(2, 3), int32]");
	check_error(F23Q, "qnn.quantize(%f, %z, %z, out_dtype=\"int32\", axis=9)",
		    "'qnn.quantize' expects the scale (argument 2) to be a float32 scalar or a "
		    "vector of 1, got int32");
	check_error(F23Q V3, "qnn.quantize(%f, %sv, %zv, out_dtype=\"int32\", axis=0)",
		    "'qnn.quantize' expects the scale (argument 2) to be a float32 scalar or a "
		    "vector of 2, got Tensor[(3), float32]");
	check_error(F23Q V3, "qnn.quantize(%f, %sv, %zv, out_dtype=\"int32\", axis=2)",
		    "'qnn.quantize' axis 2 is out of range for Tensor[(2, 3), float32]");
	check_error(F23Q, "qnn.quantize(%f, %s, %z)", "'qnn.quantize' needs out_dtype");
	check_error(F23Q, "qnn.quantize(%f, %s, %z, out_dtype=\"float32\")",
		    "'qnn.quantize' does not support out_dtype \"float32\" (TVM takes int8, "
		    "uint8, int16, uint16 or int32)");
	check_error(F23Q, "qnn.quantize(%f, %s, %z, out_dtype=\"uint32\")",
		    "'qnn.quantize' does not support out_dtype \"uint32\" (TVM takes int8, "
		    "uint8, int16, uint16 or int32)");
	check_error(Q23, "qnn.quantize(%x, %s, %z, out_dtype=\"int32\")",
		    "'qnn.quantize' expects a float32 tensor, got Tensor[(2, 3), int8]");
	check_error(F23Q, "qnn.quantize(%f, %z, %z, out_dtype=\"int32\")",
		    "'qnn.quantize' expects the scale (argument 2) to be a float32 scalar or a "
		    "vector of 3, got int32");
	check_parse_error(F23Q, "qnn.quantize(%f, %s)", 3,
			  "operator 'qnn.quantize' takes 3 arguments, got 2");
}

static void test_qnn_dequantize(void **state)
{
	(void)state;
	check_type(Q23, "qnn.dequantize(%x, %s, %z)", "Tensor[(2, 3), float32]");
	check_type(Q23, "qnn.dequantize(%x, %s, %z, out_dtype=\"float16\")",
		   "Tensor[(2, 3), float16]");
	check_type("%x: Tensor[(4), uint16], " QP, "qnn.dequantize(%x, %s, %z, axis=0)",
		   "Tensor[(4), float32]");
	check_type("%x: Tensor[(4), int32], " QP, "qnn.dequantize(%x, %s, %z)",
		   "Tensor[(4), float32]");
	check_error("%x: Tensor[(4), int64], " QP, "qnn.dequantize(%x, %s, %z, axis=0)",
		    "'qnn.dequantize' expects data of int8, uint8, int16, uint16 or int32, got "
		    "Tensor[(4), int64]");
	/* parameters of one element count as scalars */
	check_type(Q23 ", %s1: Tensor[(1), float32], %z1: Tensor[(1), int32]",
		   "qnn.dequantize(%x, %s1, %z1, axis=5)", "Tensor[(2, 3), float32]");
	check_type(Q23 V3, "qnn.dequantize(%x, %sv, %zv)", "Tensor[(2, 3), float32]");
	check_error(Q23, "qnn.dequantize(%x, %s, %z, out_dtype=\"int32\")",
		    "'qnn.dequantize' does not support out_dtype \"int32\"");
	check_error(F23Q, "qnn.dequantize(%f, %s, %z)",
		    "'qnn.dequantize' expects data of int8, uint8, int16, uint16 or int32, got "
		    "Tensor[(2, 3), float32]");
	/* TVM's AssignType lets a scalar stand beside a vector */
	check_type(Q23 V3, "qnn.dequantize(%x, %sv, %z)", "Tensor[(2, 3), float32]");
	check_error(Q23 V3 ", %z2: Tensor[(2), int32]", "qnn.dequantize(%x, %sv, %z2)",
		    "'qnn.dequantize' expects the zero point (argument 3) to be an int32 scalar "
		    "or a vector of 3, got Tensor[(2), int32]");
}

static void test_qnn_requantize(void **state)
{
	(void)state;
	check_type(Q23, "qnn.requantize(%x, %s, %z, %s, %z, out_dtype=\"int32\")",
		   "Tensor[(2, 3), int32]");
	/* the usual: an int32 accumulator back to int8 or uint8 */
	check_type("%x: Tensor[(2, 3), int32], " QP,
		   "qnn.requantize(%x, %s, %z, %s, %z, out_dtype=\"uint8\")",
		   "Tensor[(2, 3), uint8]");
	check_type("%x: Tensor[(2, 3), int16], " QP,
		   "qnn.requantize(%x, %s, %z, %s, %z, out_dtype=\"int8\")",
		   "Tensor[(2, 3), int8]");
	check_error("%x: Tensor[(2, 3), uint16], " QP,
		    "qnn.requantize(%x, %s, %z, %s, %z, out_dtype=\"int8\")",
		    "'qnn.requantize' expects data of int8, uint8, int16, int32 or int64, got "
		    "Tensor[(2, 3), uint16]");
	check_error(Q23, "qnn.requantize(%x, %s, %z, %s, %z, out_dtype=\"uint16\")",
		    "'qnn.requantize' does not support out_dtype \"uint16\" (TVM takes int8, "
		    "uint8, int16 or int32)");
	check_type("%x: Tensor[(2, 3), int64], " QP,
		   "qnn.requantize(%x, %s, %z, %s, %z, axis=0, rounding=\"UPWARD\", "
		   "compute_dtype=\"int64\", out_dtype=\"int32\")",
		   "Tensor[(2, 3), int32]");
	check_type(Q23 V3, "qnn.requantize(%x, %sv, %zv, %s, %z, out_dtype=\"int32\")",
		   "Tensor[(2, 3), int32]");
	/* requantize checks its axis even with scalar parameters */
	check_error(Q23, "qnn.requantize(%x, %s, %z, %s, %z, axis=2, out_dtype=\"int32\")",
		    "'qnn.requantize' axis 2 is out of range for Tensor[(2, 3), int8]");
	check_error(Q23 V3, "qnn.requantize(%x, %s, %z, %sv, %z, out_dtype=\"int32\")",
		    "'qnn.requantize' expects output_scale (argument 4) to be a float32 scalar, "
		    "got Tensor[(3), float32]");
	check_error(Q23, "qnn.requantize(%x, %s, %z, %s, %s, out_dtype=\"int32\")",
		    "'qnn.requantize' expects output_zero_point (argument 5) to be an int32 "
		    "scalar, got float32");
	check_error(Q23,
		    "qnn.requantize(%x, %s, %z, %s, %z, rounding=\"DOWN\", out_dtype=\"int32\")",
		    "'qnn.requantize' rounding must be \"UPWARD\" or \"TONEAREST\", got \"DOWN\"");
	check_error(Q23, "qnn.requantize(%x, %s, %z, %s, %z)", "'qnn.requantize' needs out_dtype");
}

static void test_qnn_simulated(void **state)
{
	(void)state;
	check_type(F23Q ", %dt: int32", "qnn.simulated_quantize(%f, %dt, %s, %z, axis=1)",
		   "Tensor[(2, 3), float32]");
	check_type(F23Q ", %dt: int32",
		   "qnn.simulated_dequantize(%f, %dt, %s, %z, out_dtype=\"float32\", axis=0)",
		   "Tensor[(2, 3), float32]");
	check_error(F23Q ", %dt: (int32,)", "qnn.simulated_quantize(%f, %dt, %s, %z)",
		    "'qnn.simulated_quantize' expects a tensor for argument 2, got "
		    "(int32,)");
}

static void test_qnn_binary(void **state)
{
	static const char *const ops[] = {"qnn.add", "qnn.mul", "qnn.subtract"};
	char body[160], want[200];
	(void)state;
	for (size_t i = 0; i < DP_COUNT(ops); i++) {
		snprintf(body, sizeof body, "%s(%%x, %%y, %%s, %%z, %%s, %%z, %%s, %%z)", ops[i]);
		check_type(Q23 ", %y: Tensor[(3), int8]", body, "Tensor[(2, 3), int8]");
		check_type("%x: Tensor[(4, 1, 3), int8], %y: Tensor[(5, 1), int8], " QP, body,
			   "Tensor[(4, 5, 3), int8]");
		snprintf(want, sizeof want,
			 "'%s' expects rhs (argument 2) of the dtype of lhs (argument 1): lhs is "
			 "int8, rhs is int64",
			 ops[i]);
		check_error(Q23 ", %y: Tensor[(3), int64]", body, want);
		snprintf(want, sizeof want,
			 "'%s' expects rhs (argument 2) of the dtype of lhs (argument 1): lhs is "
			 "int8, rhs is uint8",
			 ops[i]);
		check_error(Q23 ", %y: Tensor[(3), uint8]", body, want);
		snprintf(want, sizeof want,
			 "'%s' cannot broadcast Tensor[(2, 3), int8] and "
			 "Tensor[(2), int8]",
			 ops[i]);
		check_error(Q23 ", %y: Tensor[(2), int8]", body, want);
		snprintf(body, sizeof body,
			 "%s(%%x, %%y, %%sv, %%zv, %%s, %%z, %%s, %%z, lhs_axis=1, rhs_axis=0)",
			 ops[i]);
		check_type(Q23 V3 ", %y: Tensor[(3), int8]", body, "Tensor[(2, 3), int8]");
		snprintf(body, sizeof body,
			 "%s(%%x, %%y, %%sv, %%zv, %%s, %%z, %%s, %%z, lhs_axis=0)", ops[i]);
		snprintf(want, sizeof want,
			 "'%s' expects the scale (argument 3) to be a float32 scalar or a vector "
			 "of 2, got Tensor[(3), float32]",
			 ops[i]);
		check_error(Q23 V3 ", %y: Tensor[(3), int8]", body, want);
		snprintf(body, sizeof body, "%s(%%x, %%y, %%s, %%z, %%s, %%z, %%sv, %%z)", ops[i]);
		snprintf(want, sizeof want,
			 "'%s' expects output_scale (argument 7) to be a float32 scalar, got "
			 "Tensor[(3), float32]",
			 ops[i]);
		check_error(Q23 V3 ", %y: Tensor[(3), int8]", body, want);
	}
}

static void test_qnn_unary(void **state)
{
	static const char *const ops[] = {"qnn.tanh", "qnn.exp",       "qnn.sqrt",      "qnn.rsqrt",
					  "qnn.erf",  "qnn.sigmoid",   "qnn.hardswish", "qnn.log",
					  "qnn.abs",  "qnn.leaky_relu"};
	char body[96], want[200];
	(void)state;
	for (size_t i = 0; i < DP_COUNT(ops); i++) {
		snprintf(body, sizeof body, "%s(%%x, %%s, %%z, %%s, %%z)", ops[i]);
		check_type(Q23, body, "Tensor[(2, 3), int8]");
		check_type("%x: uint8, " QP, body, "uint8");
		snprintf(want, sizeof want,
			 "'%s' expects data of int8 or uint8, got Tensor[(2, 3), float32]", ops[i]);
		check_error("%x: Tensor[(2, 3), float32], " QP, body, want);
		snprintf(want, sizeof want,
			 "'%s' expects data of int8 or uint8, got Tensor[(2, 3), int32]", ops[i]);
		check_error("%x: Tensor[(2, 3), int32], " QP, body, want);
		snprintf(body, sizeof body, "%s(%%x, %%sv, %%z, %%s, %%z)", ops[i]);
		snprintf(want, sizeof want,
			 "'%s' expects the scale (argument 2) to be a float32 scalar, got "
			 "Tensor[(3), float32]",
			 ops[i]);
		check_error(Q23 V3, body, want);
	}
	/* softmax takes int8 only */
	check_type(Q23, "qnn.softmax(%x, %s, %z, %s, %z)", "Tensor[(2, 3), int8]");
	check_type(Q23, "qnn.softmax(%x, %s, %z, %s, %z, axis=0)", "Tensor[(2, 3), int8]");
	check_error(Q23, "qnn.softmax(%x, %s, %z, %s, %z, axis=2)",
		    "'qnn.softmax' axis 2 is out of range for Tensor[(2, 3), int8]");
	check_error("%x: Tensor[(2, 3), uint8], " QP, "qnn.softmax(%x, %s, %z, %s, %z)",
		    "'qnn.softmax' expects data of int8, got Tensor[(2, 3), uint8]");
	check_type(Q23, "qnn.leaky_relu(%x, %s, %z, %s, %z, alpha=0.1f)", "Tensor[(2, 3), int8]");
}

static void test_qnn_avg_pool2d(void **state)
{
	(void)state;
	check_type("%p: Tensor[(1, 3, 8, 8), int8], " QP,
		   "qnn.avg_pool2d(%p, %s, %z, %s, %z, pool_size=[2, 2], strides=[2, 2], "
		   "padding=[0, 0])",
		   "Tensor[(1, 3, 4, 4), int8]");
	check_type("%p: Tensor[(1, 3, 8, 8), int8], " QP,
		   "qnn.avg_pool2d(%p, %s, %z, %s, %z, pool_size=[3, 3], strides=[1, 1], "
		   "padding=[1, 1], count_include_pad=True)",
		   "Tensor[(1, 3, 8, 8), int8]");
	check_error("%p: Tensor[(1, 3, 8, 8), float32], " QP,
		    "qnn.avg_pool2d(%p, %s, %z, %s, %z, pool_size=[2, 2])",
		    "'qnn.avg_pool2d' expects data of int8 or uint8, got Tensor[(1, 3, 8, 8), "
		    "float32]");
}

static void test_qnn_concatenate(void **state)
{
	(void)state;
	check_type(Q23 ", %y: Tensor[(2, 5), int8]",
		   "qnn.concatenate((%x, %y), (%s, %s), (%z, %z), %s, %z, axis=1)",
		   "Tensor[(2, 8), int8]");
	check_type(Q23, "qnn.concatenate((%x, %x), (%s, %s), (%z, %z), %s, %z, axis=0)",
		   "Tensor[(4, 3), int8]");
	check_error(Q23, "qnn.concatenate((%x, %x), %s, (%z, %z), %s, %z, axis=0)",
		    "'qnn.concatenate' expects a tuple of input_scales, got float32");
	check_error(Q23, "qnn.concatenate((%x, %x), (%s, %s), (%z, %s), %s, %z, axis=0)",
		    "'qnn.concatenate' expects input_zero_points of int32 scalars, got "
		    "(int32, float32)");
	check_error(Q23, "qnn.concatenate((%x, %x), (%s, %s), (%z, %z), %z, %z, axis=0)",
		    "'qnn.concatenate' expects output_scale (argument 4) to be a float32 scalar, "
		    "got int32");
	/* mixed storage dtypes: named field by field, as the qnn operator */
	check_error(Q23 ", %u: Tensor[(2, 3), uint8]",
		    "qnn.concatenate((%x, %x, %u), (%s, %s, %s), (%z, %z, %z), %s, %z)",
		    "'qnn.concatenate' expects every field of data (argument 1) of one dtype: "
		    "field 0 is int8, field 2 is uint8");
	/* the float relation's errors are the qnn operator's */
	check_error(Q23 ", %y: Tensor[(2, 5), int8]",
		    "qnn.concatenate((%x, %y), (%s, %s), (%z, %z), %s, %z, axis=0)",
		    "'qnn.concatenate' fields 0 and 1 differ outside axis 0: Tensor[(2, 3), int8] "
		    "and Tensor[(2, 5), int8]");
}

#define DENSE_ARGS "%d: Tensor[(4, 8), int8], %w: Tensor[(16, 8), int8], " QP
#define BMM_ARGS "%a: Tensor[(2, 4, 8), int8], %b: Tensor[(2, 16, 8), int8], " QP

static void test_qnn_dense_batch_matmul(void **state)
{
	(void)state;
	check_type(DENSE_ARGS, "qnn.dense(%d, %w, %z, %z, %s, %s, units=16, out_dtype=\"int32\")",
		   "Tensor[(4, 16), int32]");
	check_type(DENSE_ARGS ", %ws: Tensor[(16), float32]",
		   "qnn.dense(%d, %w, %z, %z, %s, %ws, out_dtype=\"int64\")",
		   "Tensor[(4, 16), int64]");
	check_error(DENSE_ARGS ", %ws: Tensor[(8), float32]",
		    "qnn.dense(%d, %w, %z, %z, %s, %ws, out_dtype=\"int32\")",
		    "'qnn.dense' expects weight_scale (argument 6) to be a float32 scalar or a "
		    "vector of 16, got Tensor[(8), float32]");
	check_error(
		"%d: Tensor[(1, 3, 8, 8), int8], %w: Tensor[(16, 3, 3, 3), int8], " QP
		", %wz: Tensor[(3), int32]",
		"qnn.conv2d(%d, %w, %z, %wz, %s, %s, out_dtype=\"int32\")",
		"'qnn.conv2d' expects weight_zero_point (argument 4) to be an int32 scalar or a "
		"vector of 16, got Tensor[(3), int32]");
	check_error(DENSE_ARGS, "qnn.dense(%d, %w, %z, %z, %s, %s, units=16)",
		    "'qnn.dense' needs out_dtype");
	check_error(DENSE_ARGS, "qnn.dense(%d, %w, %s, %z, %s, %s, out_dtype=\"int32\")",
		    "'qnn.dense' expects input_zero_point (argument 3) to be an int32 scalar, got "
		    "float32");
	check_error("%d: Tensor[(4, 8), float32], %w: Tensor[(16, 8), float32], " QP,
		    "qnn.dense(%d, %w, %z, %z, %s, %s, out_dtype=\"int32\")",
		    "'qnn.dense' expects data of int8, uint8, int16 or uint16, got Tensor[(4, 8), "
		    "float32]");
	/* uint8 data by an int8 weight, as PyTorch quantizes */
	check_type("%d: Tensor[(4, 8), uint8], %w: Tensor[(16, 8), int8], " QP,
		   "qnn.dense(%d, %w, %z, %z, %s, %s, out_dtype=\"int32\")",
		   "Tensor[(4, 16), int32]");
	check_type("%d: Tensor[(4, 8), int16], %w: Tensor[(16, 8), uint8], " QP,
		   "qnn.dense(%d, %w, %z, %z, %s, %s, out_dtype=\"int64\")",
		   "Tensor[(4, 16), int64]");
	check_error("%d: Tensor[(4, 8), int8], %w: Tensor[(16, 8), int16], " QP,
		    "qnn.dense(%d, %w, %z, %z, %s, %s, out_dtype=\"int32\")",
		    "'qnn.dense' expects the weight of int8 or uint8, got Tensor[(16, 8), int16]");
	check_error(DENSE_ARGS, "qnn.dense(%d, %w, %z, %z, %s, %s, out_dtype=\"int16\")",
		    "'qnn.dense' does not support out_dtype \"int16\" (TVM takes int32 or int64)");
	/* TVM makes qnn.batch_matmul with transpose_b=True, which BatchMatmulAttrs'
	 * default (false) makes it print */
	check_type(BMM_ARGS,
		   "qnn.batch_matmul(%a, %b, %z, %z, %s, %s, out_dtype=\"int32\", "
		   "transpose_b=True)",
		   "Tensor[(2, 4, 16), int32]");
	check_type("%a: Tensor[(2, 4, 8), uint8], %b: Tensor[(2, 8, 16), int8], " QP,
		   "qnn.batch_matmul(%a, %b, %z, %z, %s, %s, out_dtype=\"int32\", "
		   "transpose_a=False, transpose_b=False)",
		   "Tensor[(2, 4, 16), int32]");
	check_error(BMM_ARGS, "qnn.batch_matmul(%a, %b, %z, %z, %s, %s, out_dtype=\"int64\")",
		    "'qnn.batch_matmul' does not support out_dtype \"int64\" (TVM takes int32)");
	check_error(
		"%a: Tensor[(2, 4, 8), int16], %b: Tensor[(2, 16, 8), int16], " QP,
		"qnn.batch_matmul(%a, %b, %z, %z, %s, %s, out_dtype=\"int32\")",
		"'qnn.batch_matmul' expects data of int8 or uint8, got Tensor[(2, 4, 8), int16]");
	check_error(BMM_ARGS ", %ws: Tensor[(16), float32]",
		    "qnn.batch_matmul(%a, %b, %z, %z, %s, %ws, out_dtype=\"int32\")",
		    "'qnn.batch_matmul' expects weight_scale (argument 6) to be a float32 scalar, "
		    "got Tensor[(16), float32]");
	/* mixed int8 data and a uint8 weight that do not fit: the qnn operator
	 * and both operands as written */
	check_error("%a: Tensor[(2, 4, 8), int8], %b: Tensor[(2, 16, 7), uint8], " QP,
		    "qnn.batch_matmul(%a, %b, %z, %z, %s, %s, out_dtype=\"int32\", "
		    "transpose_b=True)",
		    "'qnn.batch_matmul' reduction dimensions do not match: Tensor[(2, 4, 8), int8] "
		    "and Tensor[(2, 16, 7), uint8] (transpose_a=False, transpose_b=True)");
	check_error("%a: Tensor[(2, 4, 8), int8], %b: Tensor[(2, 4, 8), uint8], " QP,
		    "qnn.batch_matmul(%a, %b, %z, %z, %s, %s, out_dtype=\"int32\")",
		    "'qnn.batch_matmul' reduction dimensions do not match: Tensor[(2, 4, 8), int8] "
		    "and Tensor[(2, 4, 8), uint8] (transpose_a=False, transpose_b=False)");
	check_error("%d: Tensor[(4, 8), uint8], %w: Tensor[(16, 7), int8], " QP,
		    "qnn.dense(%d, %w, %z, %z, %s, %s, units=16, out_dtype=\"int32\")",
		    "'qnn.dense' expects weight of shape (units, 8), got Tensor[(16, 7), int8]");
}

static void test_qnn_contrib_dense_pack(void **state)
{
	(void)state;
	/* weight [N / n, K / k, n, k]: 64 units packed by 8 */
	check_type("%d: Tensor[(4, 32), int32], %w: Tensor[(8, 8, 8, 4), int32], " QP,
		   "qnn.contrib_dense_pack(%d, %w, %z, %z, %s, %s, units=64, out_dtype=\"int32\", "
		   "weight_layout=\"NC8n4c\")",
		   "Tensor[(4, 64), int32]");
	check_type("%d: Tensor[(?, 32), int32], %w: Tensor[(?, 8, 8, 4), int32], " QP,
		   "qnn.contrib_dense_pack(%d, %w, %z, %z, %s, %s, out_dtype=\"int64\")",
		   "Tensor[(?, ?), int64]");
	check_error("%d: Tensor[(4, 32), int32], %w: Tensor[(64, 32), int32], " QP,
		    "qnn.contrib_dense_pack(%d, %w, %z, %z, %s, %s, out_dtype=\"int32\")",
		    "'qnn.contrib_dense_pack' expects 2-D data and a 4-D weight, got "
		    "Tensor[(4, 32), int32] and Tensor[(64, 32), int32]");
	check_error("%d: Tensor[(4, 32), int32], %w: Tensor[(8, 8, 8, 4), int32], " QP,
		    "qnn.contrib_dense_pack(%d, %w, %z, %z, %s, %s)",
		    "'qnn.contrib_dense_pack' needs out_dtype");
}

static void test_qnn_conv2d(void **state)
{
	(void)state;
	check_type("%d: Tensor[(1, 3, 8, 8), int8], %w: Tensor[(16, 3, 3, 3), int8], " QP,
		   "qnn.conv2d(%d, %w, %z, %z, %s, %s, padding=[1, 1], channels=16, "
		   "kernel_size=[3, 3], out_dtype=\"int32\")",
		   "Tensor[(1, 16, 8, 8), int32]");
	check_type("%d: Tensor[(1, 3, 8, 8), int8], %w: Tensor[(16, 3, 3, 3), int8], " QP
		   ", %ws: Tensor[(16), float32]",
		   "qnn.conv2d(%d, %w, %z, %z, %s, %ws, strides=[2, 2], out_dtype=\"int64\")",
		   "Tensor[(1, 16, 3, 3), int64]");
	check_error("%d: Tensor[(1, 3, 8, 8), int8], %w: Tensor[(16, 3, 3, 3), int8], " QP,
		    "qnn.conv2d(%d, %w, %z, %z, %s, %s)", "'qnn.conv2d' needs out_dtype");
	check_type("%d: Tensor[(1, 16, 4, 4), uint8], %w: Tensor[(16, 8, 3, 3), int8], " QP,
		   "qnn.conv2d_transpose(%d, %w, %z, %z, %s, %s, strides=[2, 2], padding=[1, 1], "
		   "output_padding=[1, 1], channels=8, kernel_size=[3, 3], out_dtype=\"int32\")",
		   "Tensor[(1, 8, 8, 8), int32]");
	check_error("%d: Tensor[(1, 16, 4, 4), uint8], %w: Tensor[(16, 8, 3, 3), int8], " QP,
		    "qnn.conv2d_transpose(%d, %w, %z, %z, %s, %s, out_dtype=\"float32\")",
		    "'qnn.conv2d_transpose' does not support out_dtype \"float32\" (TVM takes "
		    "int16, int32 or int64)");
	/* int8 by int8 accumulates in int32; uint8 data, int8 weight too */
	check_type("%d: Tensor[(1, 3, 8, 8), uint8], %w: Tensor[(16, 3, 3, 3), int8], " QP,
		   "qnn.conv2d(%d, %w, %z, %z, %s, %s, out_dtype=\"int16\")",
		   "Tensor[(1, 16, 6, 6), int16]");
	check_error("%d: Tensor[(1, 3, 8, 8), int32], %w: Tensor[(16, 3, 3, 3), int8], " QP,
		    "qnn.conv2d(%d, %w, %z, %z, %s, %s, out_dtype=\"int32\")",
		    "'qnn.conv2d' expects data of int8, uint8 or int16, got Tensor[(1, 3, 8, 8), "
		    "int32]");
	check_error("%d: Tensor[(1, 3, 8, 8), int8], %w: Tensor[(16, 3, 3, 3), uint16], " QP,
		    "qnn.conv2d(%d, %w, %z, %z, %s, %s, out_dtype=\"int32\")",
		    "'qnn.conv2d' expects the weight of int8, uint8 or int16, got "
		    "Tensor[(16, 3, 3, 3), uint16]");
	check_error("%d: Tensor[(1, 3, 8, 8), int8], %w: Tensor[(16, 3, 3, 3), int8], " QP,
		    "qnn.conv2d(%d, %w, %z, %z, %s, %s, out_dtype=\"uint8\")",
		    "'qnn.conv2d' does not support out_dtype \"uint8\" (TVM takes int16, int32 or "
		    "int64)");
}

/* ---- round trip ------------------------------------------------------------ */

static void test_round_trip(void **state)
{
	static const char text[] =
		"#[version = \"0.0.5\"]\n"
		"def @main(%a: Tensor[(2, 3), float32], %s: Tensor[(1), int64]) {\n"
		"  %0 = vm.shape_of(%a, dtype=\"int32\");\n"
		"  %1 = annotation.checkpoint(%a);\n"
		"  %2 = debug(%1);\n"
		"  %3 = annotation.stop_fusion(%2);\n"
		"  %4 = annotation.checkpoint(%3);\n"
		"  %5 = annotation.cast_hint(%4, dtype=\"float16\");\n"
		"  %6 = annotation.bitpack_start(%5);\n"
		"  %7 = annotation.bitpack_end(%6);\n"
		"  %8 = annotation.compiler_begin(%7, compiler=\"ccompiler\");\n"
		"  %9 = annotation.compiler_end(%8, compiler=\"ccompiler\");\n"
		"  %10 = vm.shape_of(%9, dtype=\"int64\");\n"
		"  %11 = vm.reshape_tensor(%9, %s, newshape=[6]);\n"
		"  %12 = fn (%p: Tensor[(6), float32]) {\n"
		"    negative(%p)\n"
		"  };\n"
		"  %13 = (%11,);\n"
		"  %14 = vm.invoke_tvm_op(%12, %13, %13);\n"
		"  %15 = memory.kill(%10);\n"
		"  (%0, %14, %15)\n"
		"}\n"
		"\n"
		"def @qnn(%f: Tensor[(1, 3, 4, 4), float32], %s: float32, %z: "
		"int32, "
		"%v: Tensor[(3), float32], %w: Tensor[(3, 3, 1, 1), int8], %t: Tensor[(3, 3, 1, "
		"1), "
		"uint8], %d: Tensor[(2, 3), uint8], %e: Tensor[(1, 2, 3), int8]) {\n"
		"  %0 = qnn.quantize(%f, %v, %z, out_dtype=\"int32\", axis=1);\n"
		"  %1 = qnn.requantize(%0, %v, %z, %s, %z, axis=1, rounding=\"TONEAREST\", "
		"compute_dtype=\"int64\", out_dtype=\"int8\");\n"
		"  %2 = qnn.add(%1, %1, %v, %z, %s, %z, %s, %z, lhs_axis=1, rhs_axis=-1);\n"
		"  %3 = qnn.mul(%2, %2, %s, %z, %s, %z, %s, %z, lhs_axis=0, rhs_axis=0);\n"
		"  %4 = qnn.subtract(%3, %3, %s, %z, %s, %z, %s, %z, lhs_axis=2, rhs_axis=2);\n"
		"  %5 = qnn.tanh(%4, %s, %z, %s, %z);\n"
		"  %6 = qnn.exp(%5, %s, %z, %s, %z);\n"
		"  %7 = qnn.sqrt(%6, %s, %z, %s, %z);\n"
		"  %8 = qnn.rsqrt(%7, %s, %z, %s, %z);\n"
		"  %9 = qnn.erf(%8, %s, %z, %s, %z);\n"
		"  %10 = qnn.sigmoid(%9, %s, %z, %s, %z);\n"
		"  %11 = qnn.hardswish(%10, %s, %z, %s, %z);\n"
		"  %12 = qnn.log(%11, %s, %z, %s, %z);\n"
		"  %13 = qnn.abs(%12, %s, %z, %s, %z);\n"
		"  %14 = qnn.softmax(%13, %s, %z, %s, %z, axis=1);\n"
		"  %15 = qnn.leaky_relu(%14, %s, %z, %s, %z, alpha=0.2f);\n"
		"  %16 = qnn.avg_pool2d(%15, %s, %z, %s, %z, pool_size=[2, 2], strides=[2, 2], "
		"dilation=[1, 1], padding=[0, 0, 0, 0], layout=\"NCHW\", out_layout=\"\", "
		"ceil_mode=True, count_include_pad=True);\n"
		"  %17 = qnn.conv2d(%15, %w, %z, %z, %s, %v, strides=[1, 1], padding=[0, 0, 0, 0], "
		"dilation=[1, 1], groups=1, channels=3, kernel_size=[1, 1], data_layout=\"NCHW\", "
		"kernel_layout=\"OIHW\", out_layout=\"\", out_dtype=\"int64\");\n"
		"  %18 = qnn.conv2d_transpose(%15, %t, %z, %z, %s, %s, strides=[1, 1], "
		"padding=[0, 0, 0, 0], output_padding=[0, 0], dilation=[1, 1], groups=1, "
		"channels=3, kernel_size=[1, 1], data_layout=\"NCHW\", kernel_layout=\"IOHW\", "
		"out_layout=\"\", out_dtype=\"int32\");\n"
		"  %19 = (%15, %15);\n"
		"  %20 = (%s, %s);\n"
		"  %21 = (%z, %z);\n"
		"  %22 = qnn.concatenate(%19, %20, %21, %s, %z, axis=1);\n"
		"  %23 = qnn.dense(%d, %d, %z, %z, %s, %s, units=2, out_dtype=\"int64\");\n"
		"  %24 = qnn.batch_matmul(%e, %e, %z, %z, %s, %s, out_dtype=\"int32\", "
		"transpose_a=False, transpose_b=True);\n"
		"  %25 = qnn.dequantize(%22, %s, %z, out_dtype=\"float16\", axis=0);\n"
		"  %26 = qnn.simulated_quantize(%f, %z, %s, %z, axis=1);\n"
		"  %27 = qnn.simulated_dequantize(%26, %z, %s, %z, out_dtype=\"float32\", "
		"axis=1);\n"
		"  %28 = reshape(%e, newshape=[1, 1, 2, 3]);\n"
		"  %29 = qnn.contrib_dense_pack(%d, %28, %z, %z, %s, %s, units=2, "
		"out_dtype=\"int32\", weight_layout=\"NC2n3c\");\n"
		"  (%16, %17, %18, %23, %24, %25, %27, %29)\n"
		"}\n"
		"\n"
		"def @ethosu(%i: Tensor[(1, 8, 8, 3), int8], %j: Tensor[(1, 8, 8, 3), int8], "
		"%l: Tensor[(256), int8]) {\n"
		"  %0 = contrib.ethosu.identity(%i, %l, ifm_scale=0.5f, ifm_zero_point=1, "
		"ofm_scale=0.25f, ofm_zero_point=2, activation=\"LUT\", "
		"rounding_mode=\"NATURAL\");\n"
		"  %1 = contrib.ethosu.unary_elementwise(%0, %l, operator_type=\"ABS\", "
		"ifm_scale=1f, ifm_zero_point=0, ofm_scale=1f, ofm_zero_point=0, ofm_channels=3, "
		"activation=\"CLIP\", clip_min=-10, clip_max=10, rounding_mode=\"TRUNCATE\", "
		"ifm_layout=\"NHWC\", ofm_layout=\"NHWC\");\n"
		"  contrib.ethosu.binary_elementwise(%1, %j, %l, operator_type=\"SUB\", "
		"ifm_scale=1f, ifm_zero_point=0, ifm2_scale=1f, ifm2_zero_point=0, ofm_scale=1f, "
		"ofm_zero_point=0, ifm_channels=3, ifm2_channels=3, reversed_operands=True, "
		"activation=\"NONE\", clip_min=0, clip_max=0, rounding_mode=\"TFL\", "
		"ifm_layout=\"NHWC\", ifm2_layout=\"NHWC\", ofm_layout=\"NHCWB16\", "
		"ofm_dtype=\"int32\", use_rescale=True, rescale_scale=3, rescale_shift=1)\n"
		"}\n"
		"\n"
		"def @ethosu_window(%i: Tensor[(1, 8, 8, 3), uint8], %w: Tensor[(16, 3, 3, 3), "
		"uint8], "
		"%b: Tensor[(16, 10), uint8], %dw: Tensor[(3, 3, 3, 1), int8], %l: Tensor[(256), "
		"uint8]) {\n"
		"  %0 = contrib.ethosu.conv2d(%i, %w, %b, %l, ifm_scale=0.5f, ifm_zero_point=1, "
		"weight_zero_point=2, ofm_scale=0.25f, ofm_zero_point=3, kernel_shape=[3, 3], "
		"ofm_channels=16, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], "
		"activation=\"CLIP\", clip_min=-5, clip_max=5, rounding_mode=\"NATURAL\", "
		"upscale=\"ZEROS\", ifm_layout=\"NHWC\", ofm_layout=\"NHWC\");\n"
		"  %1 = contrib.ethosu.depthwise_conv2d(%i, %dw, %b, %l, ifm_scale=1f, "
		"ifm_zero_point=0, weight_zero_point=0, ofm_scale=1f, ofm_zero_point=0, "
		"kernel_shape=[3, 3], ofm_channels=3, strides=[2, 2], padding=[0, 0, 0, 0], "
		"dilation=[1, 1], activation=\"NONE\", clip_min=0, clip_max=0, "
		"rounding_mode=\"TFL\", upscale=\"NONE\", ifm_layout=\"NHWC\", "
		"ofm_layout=\"NHCWB16\", ofm_dtype=\"int32\");\n"
		"  %2 = contrib.ethosu.pooling(%i, %l, pooling_type=\"AVG\", ifm_scale=1f, "
		"ifm_zero_point=0, ofm_scale=1f, ofm_zero_point=0, pool_shape=[2, 2], "
		"ofm_channels=3, ofm_dtype=\"uint8\", strides=[2, 2], padding=[0, 0, 0, 0], "
		"activation=\"NONE\", clip_min=0, clip_max=0, rounding_mode=\"TFL\", "
		"upscale=\"NEAREST\", ifm_layout=\"NHWC\", ofm_layout=\"NHWC\");\n"
		"  (%0, %1, %2)\n"
		"}\n";
	StrBuf sb;
	src = source_from_string("t.relay", text, strlen(text));
	mod = parse_module(src, &devices, &diags);
	assert_non_null(mod);
	assert_int_equal(diags.count, 0);
	assert_true(infer_module(mod, &diags));
	strbuf_init(&sb);
	print_module(&sb, mod, NULL);
	if (strcmp(sb.data, text) != 0)
		print_error("printed:\n%s", sb.data);
	assert_string_equal(sb.data, text);
	strbuf_free(&sb);
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_qnn_quantize),
		TEST(test_qnn_dequantize),
		TEST(test_qnn_requantize),
		TEST(test_qnn_simulated),
		TEST(test_qnn_binary),
		TEST(test_qnn_unary),
		TEST(test_qnn_avg_pool2d),
		TEST(test_qnn_concatenate),
		TEST(test_qnn_dense_batch_matmul),
		TEST(test_qnn_contrib_dense_pack),
		TEST(test_qnn_conv2d),
		TEST(test_round_trip),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
