/*
 * test_infer_elementwise.c - the type relations of the elementwise family
 * of ops.def (core/plan/infer/infer_elementwise.c): add, subtract,
 * multiply, divide, maximum, minimum, negative, exp, log, sqrt, tanh,
 * sigmoid, nn.relu, nn.bias_add, clip, cast, erf, acos, acosh, asin, asinh,
 * atan, atanh, cos, cosh, sin, sinh, tan, rsqrt, log2, log10, fast_exp,
 * fast_tanh, fast_erf, abs, ceil, floor, round, sign, trunc, isnan, isinf,
 * isfinite, logical_not, bitwise_not, logical_and, logical_or, logical_xor,
 * bitwise_and, bitwise_or, bitwise_xor, left_shift, right_shift, equal,
 * not_equal, less, less_equal, greater, greater_equal, power, mod,
 * floor_divide, floor_mod, trunc_divide, trunc_mod, cast_like,
 * fixed_point_multiply, fixed_point_multiply_per_axis.
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

/* ---- elementwise ------------------------------------------------------- */

static void test_add_broadcast(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 5, 1)), *b = prm("b", T(DT_FLOAT32, 7));
	Expr *e = OK(OP_ADD, ARGS(a, b), NOATTRS);
	check_built_type(e, "Tensor[(5, 7), float32]");
	assert_true(m->typed);
}

static void test_binary_ops(void **state)
{
	static const OpKind ops[] = {OP_ADD,    OP_SUBTRACT, OP_MULTIPLY,
				     OP_DIVIDE, OP_MAXIMUM,  OP_MINIMUM};
	Expr *a = prm("a", T(DT_FLOAT32, 2, 3, 4)), *b = prm("b", T(DT_FLOAT32, 3, 1));
	Expr *calls[DP_COUNT(ops)];
	Expr *fields[DP_COUNT(ops)];
	Expr *tuple;
	for (size_t i = 0; i < DP_COUNT(ops); i++)
		fields[i] = calls[i] = call(ops[i], ARGS(a, b), NOATTRS);
	tuple = ir_tuple(m, next_pos(), fields, DP_COUNT(ops));
	assert_true(run_main(tuple));
	for (size_t i = 0; i < DP_COUNT(ops); i++) {
		check_built_type(calls[i], "Tensor[(2, 3, 4), float32]");
		/* equal to the first operand's type: no new Type */
		assert_ptr_equal(calls[i]->type, a->type);
	}
}

static void test_broadcast_reuses_pointer(void **state)
{
	Type *t = T(DT_FLOAT32, 5, 7);
	Expr *a = prm("a", t), *b = prm("b", T(DT_FLOAT32, 5, 7)), *c = prm("c", T(DT_FLOAT32, 7));
	Expr *e1 = call(OP_ADD, ARGS(b, a), NOATTRS);
	Expr *e2 = call(OP_MULTIPLY, ARGS(c, e1), NOATTRS);
	assert_true(run_main(e2));
	assert_ptr_equal(e1->type, b->type);
	assert_ptr_equal(e2->type, b->type);
}

static void test_broadcast_any(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, ANY, 7)), *b = prm("b", T(DT_FLOAT32, 5, 1));
	Expr *c = prm("c", T(DT_FLOAT32, 1, 7)), *d = prm("d", T(DT_FLOAT32, ANY));
	Expr *e1 = call(OP_ADD, ARGS(a, b), NOATTRS);
	Expr *e2 = call(OP_ADD, ARGS(a, c), NOATTRS);
	Expr *e3 = call(OP_ADD, ARGS(d, c), NOATTRS);
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3))));
	check_built_type(e1, "Tensor[(5, 7), float32]");
	check_built_type(e2, "Tensor[(?, 7), float32]");
	check_built_type(e3, "Tensor[(1, 7), float32]");
}

static void test_broadcast_error(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 5, 7)), *b = prm("b", T(DT_FLOAT32, 3, 7));
	Expr *e = FAIL(OP_ADD, ARGS(a, b), NOATTRS);
	check_built_error(e, "cannot broadcast operands of 'add': Tensor[(5, 7), float32] and "
			     "Tensor[(3, 7), float32]");
	assert_null(e->type);
}

static void test_dtype_mismatch(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 5, 7)), *b = prm("b", T(DT_INT32, 5, 7));
	Expr *e = FAIL(OP_SUBTRACT, ARGS(a, b), NOATTRS);
	check_built_error(
		e, "operands of 'subtract' have different dtypes: Tensor[(5, 7), float32] and "
		   "Tensor[(5, 7), int32]");
}

static void test_binary_on_tuple(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 5)),
	     *t = prm("t", type_tuple(ir_data_arena(m), 1, &a->type));
	Expr *e = FAIL(OP_MAXIMUM, ARGS(a, t), NOATTRS);
	check_built_error(e, "'maximum' expects tensor operands, got Tensor[(5), float32] and "
			     "(Tensor[(5), float32],)");
}

static void test_unary_ops(void **state)
{
	static const OpKind ops[] = {OP_NEGATIVE, OP_EXP,     OP_LOG, OP_SQRT,
				     OP_TANH,     OP_SIGMOID, OP_RELU};
	Expr *a = prm("a", T(DT_FLOAT32, 2, ANY));
	Expr *fields[DP_COUNT(ops) + 1];
	for (size_t i = 0; i < DP_COUNT(ops); i++)
		fields[i] = call(ops[i], ARGS(a), NOATTRS);
	fields[DP_COUNT(ops)] =
		call(OP_CLIP, ARGS(a), ATTRS(attr_float("a_min", 0), attr_float("a_max", 6)));
	assert_true(run_main(ir_tuple(m, next_pos(), fields, DP_COUNT(fields))));
	for (size_t i = 0; i < DP_COUNT(fields); i++)
		assert_ptr_equal(fields[i]->type, a->type);
}

static void test_unary_needs_float(void **state)
{
	Expr *a = prm("a", T(DT_INT32, 5));
	Expr *ok = call(OP_NEGATIVE, ARGS(a), NOATTRS);
	Expr *bad = call(OP_EXP, ARGS(ok), NOATTRS);
	assert_false(run_main(bad));
	check_built_error(bad, "'exp' expects a floating-point tensor, got Tensor[(5), int32]");
	check_built_type(ok, "Tensor[(5), int32]");
}

/* ---- bias_add, softmax, reductions ------------------------------------- */

static void test_bias_add(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 64, 56, 56)), *b = prm("b", T(DT_FLOAT32, 64));
	Expr *y = prm("y", T(DT_FLOAT32, 1, 128)), *c = prm("c", T(DT_FLOAT32, 128));
	Expr *e1 = call(OP_BIAS_ADD, ARGS(x, b), NOATTRS);
	Expr *e2 = call(OP_BIAS_ADD, ARGS(y, c), ATTRS(attr_int("axis", -1)));
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2))));
	assert_ptr_equal(e1->type, x->type);
	assert_ptr_equal(e2->type, y->type);
}

static void test_bias_add_mismatch(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 64, 56, 56)), *b = prm("b", T(DT_FLOAT32, 56));
	Expr *e = FAIL(OP_BIAS_ADD, ARGS(x, b), NOATTRS);
	check_built_error(e, "'nn.bias_add' bias Tensor[(56), float32] does not match axis 1 of "
			     "Tensor[(1, 64, 56, 56), float32]");
}

static void test_bias_add_axis_range(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 64)), *b = prm("b", T(DT_FLOAT32, 64));
	Expr *e = FAIL(OP_BIAS_ADD, ARGS(x, b), ATTRS(attr_int("axis", 2)));
	check_built_error(e, "'nn.bias_add' axis 2 is out of range for Tensor[(1, 64), float32]");
}

#define F23 "%a: Tensor[(2, 3), float32]"
#define AB_BCAST "%a: Tensor[(4, 1, 3), float32], %b: Tensor[(5, 1), float32]"

static void test_unary_float(void **state)
{
	static const char *const ops[] = {"acos",      "acosh",   "asin", "asinh", "atan",
					  "atanh",     "cos",     "cosh", "sin",   "sinh",
					  "tan",       "rsqrt",   "log2", "log10", "fast_exp",
					  "fast_tanh", "fast_erf"};
	char body[64], want[128];
	(void)state;
	for (size_t i = 0; i < DP_COUNT(ops); i++) {
		snprintf(body, sizeof body, "%s(%%a)", ops[i]);
		check_type(F23, body, "Tensor[(2, 3), float32]");
		check_type("%a: Tensor[(?, 1, 8), float16]", body, "Tensor[(?, 1, 8), float16]");
		check_type("%a: float64", body, "float64");
		snprintf(want, sizeof want,
			 "'%s' expects a floating-point tensor, got Tensor[(4), int32]", ops[i]);
		check_error("%a: Tensor[(4), int32]", body, want);
	}
}

static void test_unary_any_dtype(void **state)
{
	static const char *const ops[] = {"abs", "ceil", "floor", "round", "sign", "trunc"};
	char body[64];
	(void)state;
	for (size_t i = 0; i < DP_COUNT(ops); i++) {
		snprintf(body, sizeof body, "%s(%%a)", ops[i]);
		check_type(F23, body, "Tensor[(2, 3), float32]");
		check_type("%a: Tensor[(7), int64]", body, "Tensor[(7), int64]");
	}
}

/* clip keeps x's type, uint64 too, whatever its bounds (TVM's ClipAttrs
 * doubles, 2^63 and 2^64 among them); a bound must be a number. */
static void test_clip_bounds(void **state)
{
	(void)state;
	check_type("%u: Tensor[(4), uint64]",
		   "clip(%u, a_min=9.223372036854776e+18f, a_max=1.8446744073709552e+19f)",
		   "Tensor[(4), uint64]");
	check_type("%u: Tensor[(4), uint64]", "clip(%u, a_min=0, a_max=9223372036854775807)",
		   "Tensor[(4), uint64]");
	check_parse_error("%u: Tensor[(4), uint64]", "clip(%u, a_min=0f, a_max=\"big\")", 28,
			  "attribute 'a_max' of 'clip' expects a number, found a string");
	/* an integer literal past int64, as TVM's tokenizer refuses it */
	check_parse_error("%u: Tensor[(4), uint64]",
			  "clip(%u, a_min=0, a_max=18446744073709551615)", 27,
			  "integer '18446744073709551615' is out of range");
}

/* isnan, isinf, isfinite: x's shape, bool */
static void test_unary_tests(void **state)
{
	static const char *const ops[] = {"isnan", "isinf", "isfinite"};
	char body[64], want[160];
	(void)state;
	for (size_t i = 0; i < DP_COUNT(ops); i++) {
		snprintf(body, sizeof body, "%s(%%a)", ops[i]);
		check_type(F23, body, "Tensor[(2, 3), bool]");
		check_type("%a: Tensor[(?), float16]", body, "Tensor[(?), bool]");
		check_type("%a: Tensor[(3), bool]", body, "Tensor[(3), bool]");
		snprintf(want, sizeof want,
			 "'%s' expects a tensor for argument 1, got fn (Tensor[(2), float32]) -> "
			 "Tensor[(2), float32]",
			 ops[i]);
		check_error("%a: fn (Tensor[(2), float32]) -> Tensor[(2), float32]", body, want);
	}
}

static void test_binary_arithmetic(void **state)
{
	static const char *const ops[] = {"mod", "floor_divide", "floor_mod", "trunc_divide",
					  "trunc_mod"};
	char body[64], want[160];
	(void)state;
	for (size_t i = 0; i < DP_COUNT(ops); i++) {
		snprintf(body, sizeof body, "%s(%%a, %%b)", ops[i]);
		check_type(AB_BCAST, body, "Tensor[(4, 5, 3), float32]");
		check_type("%a: Tensor[(6), int64], %b: int64", body, "Tensor[(6), int64]");
		snprintf(want, sizeof want,
			 "operands of '%s' have different dtypes: Tensor[(6), int64] and "
			 "Tensor[(6), int32]",
			 ops[i]);
		check_error("%a: Tensor[(6), int64], %b: Tensor[(6), int32]", body, want);
		snprintf(want, sizeof want,
			 "cannot broadcast operands of '%s': Tensor[(6), int64] and Tensor[(5), "
			 "int64]",
			 ops[i]);
		check_error("%a: Tensor[(6), int64], %b: Tensor[(5), int64]", body, want);
	}
}

static void test_logical(void **state)
{
	static const char *const ops[] = {"logical_and", "logical_or", "logical_xor"};
	char body[64], want[160];
	(void)state;
	for (size_t i = 0; i < DP_COUNT(ops); i++) {
		snprintf(body, sizeof body, "%s(%%a, %%b)", ops[i]);
		check_type("%a: Tensor[(2, 1), bool], %b: Tensor[(3), bool]", body,
			   "Tensor[(2, 3), bool]");
		snprintf(want, sizeof want,
			 "'%s' expects bool operands, got Tensor[(3), int32] and Tensor[(3), "
			 "int32]",
			 ops[i]);
		check_error("%a: Tensor[(3), int32], %b: Tensor[(3), int32]", body, want);
	}
	check_type("%a: Tensor[(2, ?), bool]", "logical_not(%a)", "Tensor[(2, ?), bool]");
	check_error(F23, "logical_not(%a)",
		    "'logical_not' expects bool operands, got Tensor[(2, 3), float32]");
}

static void test_bitwise(void **state)
{
	static const char *const ops[] = {"bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
					  "right_shift"};
	char body[64], want[160];
	(void)state;
	for (size_t i = 0; i < DP_COUNT(ops); i++) {
		snprintf(body, sizeof body, "%s(%%a, %%b)", ops[i]);
		check_type("%a: Tensor[(2, 1), int32], %b: Tensor[(4), int32]", body,
			   "Tensor[(2, 4), int32]");
		check_type("%a: Tensor[(3), int64], %b: int64", body, "Tensor[(3), int64]");
		check_type("%a: Tensor[(3), bool], %b: Tensor[(3), bool]", body,
			   "Tensor[(3), bool]");
		snprintf(want, sizeof want,
			 "'%s' expects integer or bool operands, got Tensor[(2, 3), float32] and "
			 "Tensor[(2, 3), float32]",
			 ops[i]);
		check_error(F23 ", %b: Tensor[(2, 3), float32]", body, want);
	}
	check_type("%a: Tensor[(5), int64]", "bitwise_not(%a)", "Tensor[(5), int64]");
	/* every integer dtype: TVM packs bits into uint8 and uint32 */
	check_type("%a: Tensor[(5), uint8]", "bitwise_not(%a)", "Tensor[(5), uint8]");
	check_type("%a: Tensor[(5), uint32], %b: Tensor[(5), uint32]", "bitwise_and(%a, %b)",
		   "Tensor[(5), uint32]");
	check_type("%a: Tensor[(5), int8], %b: int8", "right_shift(%a, %b)", "Tensor[(5), int8]");
	check_error("%a: Tensor[(5), bfloat16]", "bitwise_not(%a)",
		    "'bitwise_not' expects integer or bool operands, got Tensor[(5), bfloat16]");
	check_error("%a: Tensor[(5), float16]", "bitwise_not(%a)",
		    "'bitwise_not' expects integer or bool operands, got Tensor[(5), float16]");
}

/* ---- comparisons ------------------------------------------------------- */

static void test_comparisons(void **state)
{
	static const char *const ops[] = {"equal",      "not_equal", "less",
					  "less_equal", "greater",   "greater_equal"};
	char body[64], want[128];
	(void)state;
	for (size_t i = 0; i < DP_COUNT(ops); i++) {
		snprintf(body, sizeof body, "%s(%%a, %%b)", ops[i]);
		check_type(AB_BCAST, body, "Tensor[(4, 5, 3), bool]");
		check_type("%a: Tensor[(2, 3), int64], %b: Tensor[(2, 3), int64]", body,
			   "Tensor[(2, 3), bool]");
		check_type("%a: Tensor[(?, 3), int32], %b: int32", body, "Tensor[(?, 3), bool]");
		snprintf(want, sizeof want,
			 "cannot broadcast operands of '%s': Tensor[(2, 3), float32] and "
			 "Tensor[(4), float32]",
			 ops[i]);
		check_error(F23 ", %b: Tensor[(4), float32]", body, want);
		snprintf(want, sizeof want,
			 "operands of '%s' have different dtypes: Tensor[(2, 3), float32] and "
			 "Tensor[(2, 3), int32]",
			 ops[i]);
		check_error(F23 ", %b: Tensor[(2, 3), int32]", body, want);
	}
	/* a comparison of bools is a bool of the same shape */
	check_type("%a: Tensor[(3), bool], %b: Tensor[(3), bool]", "equal(%a, %b)",
		   "Tensor[(3), bool]");
}

/* ---- binary arithmetic ------------------------------------------------- */

static void test_power(void **state)
{
	(void)state;
	check_type(AB_BCAST, "power(%a, %b)", "Tensor[(4, 5, 3), float32]");
	check_type("%a: Tensor[(1, 3), float16], %b: float16", "power(%a, %b)",
		   "Tensor[(1, 3), float16]");
	check_error(F23 ", %b: Tensor[(3), float64]", "power(%a, %b)",
		    "operands of 'power' have different dtypes: Tensor[(2, 3), float32] and "
		    "Tensor[(3), float64]");
	check_error(F23 ", %b: Tensor[(2, 2), float32]", "power(%a, %b)",
		    "cannot broadcast operands of 'power': Tensor[(2, 3), float32] and "
		    "Tensor[(2, 2), float32]");
}

/* ---- casts and fixed-point arithmetic ---------------------------------- */

/* cast and its Python alias astype take every dtype TVM programs use */
static void test_cast_dtypes(void **state)
{
	static const char *const names[] = {"int8",   "uint8",    "int16",   "uint16", "uint32",
					    "uint64", "bfloat16", "float16", "bool"};
	(void)state;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char call[64], want[64];
		snprintf(call, sizeof call, "cast(%%a, dtype=\"%s\")", names[i]);
		snprintf(want, sizeof want, "Tensor[(2, 3), %s]", names[i]);
		check_type(F23, call, want);
	}
	check_type("%a: Tensor[(4), int8]", "cast(%a, dtype=\"int32\")", "Tensor[(4), int32]");
	check_error(F23, "cast(%a, dtype=\"int4\")", "'cast' has unknown dtype \"int4\"");
}

static void test_cast_like(void **state)
{
	(void)state;
	check_type(F23 ", %b: Tensor[(7), int64]", "cast_like(%a, %b)", "Tensor[(2, 3), int64]");
	check_type(F23 ", %b: float16", "cast_like(%a, %b)", "Tensor[(2, 3), float16]");
	check_type(F23 ", %b: Tensor[(9, 9), float32]", "cast_like(%a, %b)",
		   "Tensor[(2, 3), float32]");
	check_error(F23 ", %b: (int32,)", "cast_like(%a, %b)",
		    "'cast_like' expects tensor operands, got Tensor[(2, 3), float32] and "
		    "(int32,)");
}

static void test_fixed_point_multiply(void **state)
{
	(void)state;
	check_type("%i: Tensor[(4), int32]",
		   "fixed_point_multiply(%i, multiplier=1073741824, shift=-1)",
		   "Tensor[(4), int32]");
	check_error("%i: Tensor[(4), int32]", "fixed_point_multiply(%i, multiplier=5)",
		    "'fixed_point_multiply' needs a shift attribute");
	check_error("%i: Tensor[(4), int32]",
		    "fixed_point_multiply(%i, multiplier=4294967296, shift=0)",
		    "'fixed_point_multiply' attribute multiplier=4294967296 does not fit in int32");
	check_type("%x: Tensor[(1, 8, 4, 4), int32], %m: Tensor[(8), int32], %l: Tensor[(8), "
		   "int32], %r: Tensor[(8), int32]",
		   "fixed_point_multiply_per_axis(%x, %m, %l, %r, is_lshift_required=True, "
		   "axes=[1])",
		   "Tensor[(1, 8, 4, 4), int32]");
	check_error("%x: Tensor[(1, 8, 4, 4), int32], %m: Tensor[(8), int32], %l: Tensor[(8), "
		    "int32], %r: Tensor[(8), int32]",
		    "fixed_point_multiply_per_axis(%x, %m, %l, %r, axes=[4])",
		    "'fixed_point_multiply_per_axis' axis 4 is out of range for Tensor[(1, 8, 4, "
		    "4), int32]");
	check_error("%x: Tensor[(8), int32], %m: (Tensor[(8), int32],)",
		    "fixed_point_multiply_per_axis(%x, %m, %m, %m, axes=[0])",
		    "'fixed_point_multiply_per_axis' expects a tensor for argument 2, got "
		    "(Tensor[(8), int32],)");
}

/* The calls of rw_bert_base.relay (tests/data/models/realworld) that use
 * this family, with the types TVM printed for them. */
static void test_bert_calls(void **state)
{
	static const char params[] = "%input_1: Tensor[(1, 128), int64], %c: Tensor[(1, 128), "
				     "int64], %x: Tensor[(1, 128, 768), float32]";
	(void)state;
	check_type(params, "less(%input_1, 0i64)", "Tensor[(1, 128), bool]");
	check_type(params, "where(less(%input_1, 0i64), %c, %input_1)", "Tensor[(1, 128), int64]");
	check_type(params, "power(%x, 2f)", "Tensor[(1, 128, 768), float32]");
	check_type(params, "copy(%x)", "Tensor[(1, 128, 768), float32]");
}

/* ---- print(parse(text)) == text ---------------------------------------- */

static void test_round_trip(void **state)
{
	static const char text[] =
		"#[version = \"0.0.5\"]\n"
		"def @main(%a: Tensor[(2, 3), float32], %b: Tensor[(3), float32]) {\n"
		"  %0 = copy(%a);\n"
		"  %1 = power(%0, %b);\n"
		"  %2 = equal(%1, %b);\n"
		"  %3 = not_equal(%1, %b);\n"
		"  %4 = less(%1, %b);\n"
		"  %5 = less_equal(%1, %b);\n"
		"  %6 = greater(%1, %b);\n"
		"  %7 = greater_equal(%1, %b);\n"
		"  %8 = where(%2, %a, %b);\n"
		"  %9 = acos(%8);\n"
		"  %10 = acosh(%9);\n"
		"  %11 = asin(%10);\n"
		"  %12 = asinh(%11);\n"
		"  %13 = atan(%12);\n"
		"  %14 = atanh(%13);\n"
		"  %15 = cos(%14);\n"
		"  %16 = cosh(%15);\n"
		"  %17 = sin(%16);\n"
		"  %18 = sinh(%17);\n"
		"  %19 = tan(%18);\n"
		"  %20 = rsqrt(%19);\n"
		"  %21 = log2(%20);\n"
		"  %22 = log10(%21);\n"
		"  %23 = fast_exp(%22);\n"
		"  %24 = fast_tanh(%23);\n"
		"  %25 = fast_erf(%24);\n"
		"  %26 = abs(%25);\n"
		"  %27 = ceil(%26);\n"
		"  %28 = floor(%27);\n"
		"  %29 = round(%28);\n"
		"  %30 = sign(%29);\n"
		"  %31 = trunc(%30);\n"
		"  %32 = mod(%31, %b);\n"
		"  %33 = floor_divide(%32, %b);\n"
		"  %34 = floor_mod(%33, %b);\n"
		"  %35 = trunc_divide(%34, %b);\n"
		"  %36 = trunc_mod(%35, %b);\n"
		"  %37 = isnan(%36);\n"
		"  %38 = isinf(%36);\n"
		"  %39 = isfinite(%36);\n"
		"  %40 = logical_and(%37, %38);\n"
		"  %41 = logical_or(%40, %39);\n"
		"  %42 = logical_xor(%41, %2);\n"
		"  %43 = logical_not(%42);\n"
		"  %44 = bitwise_and(%43, %3);\n"
		"  %45 = bitwise_or(%44, %4);\n"
		"  %46 = bitwise_xor(%45, %5);\n"
		"  %47 = bitwise_not(%46);\n"
		"  %48 = left_shift(%47, %6);\n"
		"  %49 = right_shift(%48, %7);\n"
		"  (%49, %36)\n"
		"}\n"
		"\n"
		"def @reductions(%x: Tensor[(2, 3, 4), float32], %m: Tensor[(2, 1, 4), float32], "
		"%i: Tensor[(8, 4), int32]) {\n"
		"  %0 = min(%x, axis=[1], keepdims=True);\n"
		"  %1 = prod(%x, axis=[0, 2], exclude=True);\n"
		"  %2 = argmax(%x, axis=[2], keepdims=True, select_last_index=True, "
		"exclude=False);\n"
		"  %3 = argmin(%x, axis=[-1], select_last_index=True);\n"
		"  %4 = variance(%x, %m, axis=[1], keepdims=True, exclude=False, unbiased=True);\n"
		"  %5 = greater(%x, %4);\n"
		"  %6 = all(%5, axis=[0], keepdims=True);\n"
		"  %7 = any(%5, axis=[1], exclude=True);\n"
		"  %8 = cast_like(%3, %1);\n"
		"  %9 = reinterpret(%i, dtype=\"float32\");\n"
		"  %10 = fixed_point_multiply(%i, multiplier=1073741824, shift=-1);\n"
		"  %11 = fixed_point_multiply_per_axis(%i, %10, %10, %10, is_lshift_required=True, "
		"is_rshift_required=False, axes=[1]);\n"
		"  (%0, %2, %6, %7, %8, %9, %11)\n"
		"}\n";
	StrBuf sb;
	(void)state;
	src = source_from_string("t.relay", text, strlen(text));
	mod = parse_module(src, &devices, &diags);
	assert_non_null(mod);
	assert_int_equal(diags.count, 0);
	assert_true(infer_module(mod, &diags));
	strbuf_init(&sb);
	print_module(&sb, mod, NULL);
	assert_string_equal(sb.data, text);
	strbuf_free(&sb);
}

/* erf, a unary operator of floating-point tensors like exp. */
static void test_erf(void **state)
{
	(void)state;
	check_type(F23, "erf(%a)", "Tensor[(2, 3), float32]");
	check_type("%a: Tensor[(?, 1, 8), float16]", "erf(%a)", "Tensor[(?, 1, 8), float16]");
	check_error("%a: Tensor[(4), int32]", "erf(%a)",
		    "'erf' expects a floating-point tensor, got Tensor[(4), int32]");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_add_broadcast),
		TEST(test_binary_ops),
		TEST(test_broadcast_reuses_pointer),
		TEST(test_broadcast_any),
		TEST(test_broadcast_error),
		TEST(test_dtype_mismatch),
		TEST(test_binary_on_tuple),
		TEST(test_unary_ops),
		TEST(test_unary_needs_float),
		TEST(test_bias_add),
		TEST(test_bias_add_mismatch),
		TEST(test_bias_add_axis_range),
		TEST(test_unary_float),
		TEST(test_unary_any_dtype),
		TEST(test_clip_bounds),
		TEST(test_unary_tests),
		TEST(test_binary_arithmetic),
		TEST(test_logical),
		TEST(test_bitwise),
		TEST(test_comparisons),
		TEST(test_power),
		TEST(test_cast_dtypes),
		TEST(test_cast_like),
		TEST(test_fixed_point_multiply),
		TEST(test_bert_calls),
		TEST(test_round_trip),
		TEST(test_erf),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
