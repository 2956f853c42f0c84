/*
 * infer_elementwise.c - the type relations of the elementwise operators:
 * the binary ops with numpy broadcasting (arithmetic of one dtype, and the
 * comparisons, whose result is bool), nn.bias_add (a broadcast add
 * along one axis), the unary ops, clip, the casts (cast, cast_like) and the fixed-point multiplications.
 *
 * A result equal to an operand's type is that operand's Type pointer, so a
 * chain of a million elementwise ops allocates no types at all.
 */
#include "infer_ops.h"

/* add, power, floor_mod...: two tensors of one dtype, broadcast. */
static Type *infer_broadcast(OpTypeContext *ctx)
{
	Type *a, *b;
	if (!infer_tensor_pair(ctx, &a, &b) || !infer_same_dtype(ctx, a, b))
		return NULL;
	return infer_broadcast_types(ctx, a, b, a->u.tensor.dtype);
}

/* Which dtypes a logical or bitwise op takes (TVM's tir: logical ops want
 * bool, bitwise ops and shifts integers, bool counting as a one-bit
 * unsigned integer). */
static bool dtype_logical(DType dt)
{
	return dt == DT_BOOL;
}

static bool dtype_bitwise(DType dt)
{
	return dt == DT_BOOL || dtype_is_integer(dt);
}

/* A broadcasting op whose operands must satisfy ok(dtype), named `what`. */
static Type *infer_broadcast_of(OpTypeContext *ctx, bool (*ok)(DType), const char *what)
{
	Type *a, *b;
	if (!infer_tensor_pair(ctx, &a, &b) || !infer_same_dtype(ctx, a, b))
		return NULL;
	if (!ok(a->u.tensor.dtype)) {
		infer_op_error(ctx, "'%s' expects %s operands, got %s and %s", infer_op_name(ctx),
			       what, infer_tname(ctx, a), infer_tname(ctx, b));
		return NULL;
	}
	return infer_broadcast_types(ctx, a, b, a->u.tensor.dtype);
}

/* A unary op whose operand must satisfy ok(dtype), named `what`. */
static Type *infer_unary_of(OpTypeContext *ctx, bool (*ok)(DType), const char *what)
{
	Type *x = infer_tensor_arg(ctx, 0);
	if (x && !ok(x->u.tensor.dtype)) {
		infer_op_error(ctx, "'%s' expects %s operands, got %s", infer_op_name(ctx), what,
			       infer_tname(ctx, x));
		return NULL;
	}
	return x;
}

/* isnan, isinf, isfinite: TVM's IdentityCompRel, x's shape as bool. */
static Type *infer_unary_test(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	if (!x)
		return NULL;
	return infer_result(ctx, DT_BOOL, x->u.tensor.ndim, x->u.tensor.dims, x, NULL);
}

/* equal, less...: TVM's BroadcastCompRel, the broadcast shape as bool. */
static Type *infer_compare(OpTypeContext *ctx)
{
	Type *a, *b;
	if (!infer_tensor_pair(ctx, &a, &b) || !infer_same_dtype(ctx, a, b))
		return NULL;
	return infer_broadcast_types(ctx, a, b, DT_BOOL);
}

Type *infer_op_ADD(OpTypeContext *ctx)
{
	return infer_broadcast(ctx);
}

Type *infer_op_SUBTRACT(OpTypeContext *ctx)
{
	return infer_broadcast(ctx);
}

Type *infer_op_MULTIPLY(OpTypeContext *ctx)
{
	return infer_broadcast(ctx);
}

Type *infer_op_DIVIDE(OpTypeContext *ctx)
{
	return infer_broadcast(ctx);
}

Type *infer_op_MAXIMUM(OpTypeContext *ctx)
{
	return infer_broadcast(ctx);
}

Type *infer_op_MINIMUM(OpTypeContext *ctx)
{
	return infer_broadcast(ctx);
}

Type *infer_op_POWER(OpTypeContext *ctx)
{
	return infer_broadcast(ctx);
}

Type *infer_op_EQUAL(OpTypeContext *ctx)
{
	return infer_compare(ctx);
}

Type *infer_op_NOT_EQUAL(OpTypeContext *ctx)
{
	return infer_compare(ctx);
}

Type *infer_op_LESS(OpTypeContext *ctx)
{
	return infer_compare(ctx);
}

Type *infer_op_LESS_EQUAL(OpTypeContext *ctx)
{
	return infer_compare(ctx);
}

Type *infer_op_GREATER(OpTypeContext *ctx)
{
	return infer_compare(ctx);
}

Type *infer_op_GREATER_EQUAL(OpTypeContext *ctx)
{
	return infer_compare(ctx);
}

Type *infer_op_MOD(OpTypeContext *ctx)
{
	return infer_broadcast(ctx);
}

Type *infer_op_FLOOR_DIVIDE(OpTypeContext *ctx)
{
	return infer_broadcast(ctx);
}

Type *infer_op_FLOOR_MOD(OpTypeContext *ctx)
{
	return infer_broadcast(ctx);
}

Type *infer_op_TRUNC_DIVIDE(OpTypeContext *ctx)
{
	return infer_broadcast(ctx);
}

Type *infer_op_TRUNC_MOD(OpTypeContext *ctx)
{
	return infer_broadcast(ctx);
}

Type *infer_op_LOGICAL_AND(OpTypeContext *ctx)
{
	return infer_broadcast_of(ctx, dtype_logical, "bool");
}

Type *infer_op_LOGICAL_OR(OpTypeContext *ctx)
{
	return infer_broadcast_of(ctx, dtype_logical, "bool");
}

Type *infer_op_LOGICAL_XOR(OpTypeContext *ctx)
{
	return infer_broadcast_of(ctx, dtype_logical, "bool");
}

Type *infer_op_BITWISE_AND(OpTypeContext *ctx)
{
	return infer_broadcast_of(ctx, dtype_bitwise, "integer or bool");
}

Type *infer_op_BITWISE_OR(OpTypeContext *ctx)
{
	return infer_broadcast_of(ctx, dtype_bitwise, "integer or bool");
}

Type *infer_op_BITWISE_XOR(OpTypeContext *ctx)
{
	return infer_broadcast_of(ctx, dtype_bitwise, "integer or bool");
}

Type *infer_op_LEFT_SHIFT(OpTypeContext *ctx)
{
	return infer_broadcast_of(ctx, dtype_bitwise, "integer or bool");
}

Type *infer_op_RIGHT_SHIFT(OpTypeContext *ctx)
{
	return infer_broadcast_of(ctx, dtype_bitwise, "integer or bool");
}

Type *infer_op_LOGICAL_NOT(OpTypeContext *ctx)
{
	return infer_unary_of(ctx, dtype_logical, "bool");
}

Type *infer_op_BITWISE_NOT(OpTypeContext *ctx)
{
	return infer_unary_of(ctx, dtype_bitwise, "integer or bool");
}

Type *infer_op_ACOS(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_ACOSH(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_ASIN(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_ASINH(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_ATAN(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_ATANH(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_COS(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_COSH(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_SIN(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_SINH(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_TAN(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_RSQRT(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_LOG2(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_LOG10(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_FAST_EXP(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_FAST_TANH(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_FAST_ERF(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_ABS(OpTypeContext *ctx)
{
	return infer_unary(ctx, false);
}

Type *infer_op_CEIL(OpTypeContext *ctx)
{
	return infer_unary(ctx, false);
}

Type *infer_op_FLOOR(OpTypeContext *ctx)
{
	return infer_unary(ctx, false);
}

Type *infer_op_ROUND(OpTypeContext *ctx)
{
	return infer_unary(ctx, false);
}

Type *infer_op_SIGN(OpTypeContext *ctx)
{
	return infer_unary(ctx, false);
}

Type *infer_op_TRUNC(OpTypeContext *ctx)
{
	return infer_unary(ctx, false);
}

Type *infer_op_ISNAN(OpTypeContext *ctx)
{
	return infer_unary_test(ctx);
}

Type *infer_op_ISINF(OpTypeContext *ctx)
{
	return infer_unary_test(ctx);
}

Type *infer_op_ISFINITE(OpTypeContext *ctx)
{
	return infer_unary_test(ctx);
}

Type *infer_op_NEGATIVE(OpTypeContext *ctx)
{
	return infer_unary(ctx, false);
}

Type *infer_op_EXP(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_ERF(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_LOG(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_SQRT(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_TANH(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_SIGMOID(OpTypeContext *ctx)
{
	return infer_unary(ctx, true);
}

Type *infer_op_RELU(OpTypeContext *ctx)
{
	return infer_unary(ctx, false);
}

/* clip(x, a_min, a_max): the bounds are numbers; the type is x's. */
Type *infer_op_CLIP(OpTypeContext *ctx)
{
	static const char *const bounds[] = {"a_min", "a_max"};
	for (size_t i = 0; i < DP_COUNT(bounds); i++) {
		const AttrValue *v = infer_attr_value(ctx, bounds[i]);
		if (v && v->kind != ATTR_FLOAT && v->kind != ATTR_INT) {
			infer_op_error(ctx, "'clip' attribute '%s' must be a number", bounds[i]);
			return NULL;
		}
	}
	return infer_unary(ctx, false);
}

/* nn.bias_add(x, bias[C]) with C = x.shape[axis]; the type is x's. */
Type *infer_op_BIAS_ADD(OpTypeContext *ctx)
{
	Type *x, *bias;
	int64_t axis;
	if (!infer_tensor_pair(ctx, &x, &bias) || !infer_attr_int(ctx, "axis", 1, &axis, NULL) ||
	    !infer_normalize_axis(ctx, axis, x, &axis))
		return NULL;
	if (bias->u.tensor.ndim != 1 ||
	    !dim_match(bias->u.tensor.dims[0], x->u.tensor.dims[axis])) {
		infer_op_error(ctx, "'nn.bias_add' bias %s does not match axis %lld of %s",
			       infer_tname(ctx, bias), (long long)axis, infer_tname(ctx, x));
		return NULL;
	}
	if (!infer_same_dtype(ctx, x, bias))
		return NULL;
	return x;
}

Type *infer_op_CAST(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	const char *s;
	DType dt;
	if (!x || !infer_attr_string(ctx, "dtype", &s))
		return NULL;
	if (!s || !*s) {
		infer_op_error(ctx, "'cast' needs a dtype attribute");
		return NULL;
	}
	if (!infer_attr_dtype(ctx, "dtype", x->u.tensor.dtype, &dt))
		return NULL;
	return infer_result(ctx, dt, x->u.tensor.ndim, x->u.tensor.dims, x, NULL);
}

/* cast_like(data, dtype_like): TVM's CastLikeRel, data's shape in
 * dtype_like's dtype. */
Type *infer_op_CAST_LIKE(OpTypeContext *ctx)
{
	Type *x, *like;
	if (!infer_tensor_pair(ctx, &x, &like))
		return NULL;
	return infer_result(ctx, like->u.tensor.dtype, x->u.tensor.ndim, x->u.tensor.dims, x, like);
}

/* fixed_point_multiply(x, multiplier, shift): TVM's IdentityRel; both
 * attributes are required (FixedPointMultiplyAttrs has no defaults). */
Type *infer_op_FIXED_POINT_MULTIPLY(OpTypeContext *ctx)
{
	static const char *const names[] = {"multiplier", "shift"};
	for (size_t i = 0; i < DP_COUNT(names); i++) {
		int64_t v;
		bool present;
		if (!infer_attr_int(ctx, names[i], 0, &v, &present))
			return NULL;
		if (!present) {
			infer_op_error(ctx, "'fixed_point_multiply' needs a %s attribute",
				       names[i]);
			return NULL;
		}
		if (v < INT32_MIN || v > INT32_MAX) {
			infer_op_error(ctx,
				       "'fixed_point_multiply' attribute %s=%lld does not fit in "
				       "int32",
				       names[i], (long long)v);
			return NULL;
		}
	}
	return infer_unary(ctx, false);
}

/* fixed_point_multiply_per_axis(x, fp_multiplier, left_shift, right_shift):
 * TVM's FixedPointMultiplyPerAxisRel, x's type once all four are tensors;
 * axes, the axes of x the multipliers run along, must be axes of x. */
Type *infer_op_FIXED_POINT_MULTIPLY_PER_AXIS(OpTypeContext *ctx)
{
	Type *x = NULL;
	const AttrValue *items;
	uint32_t n;
	bool present, flag;
	for (uint32_t i = 0; i < 4; i++) {
		Type *t = infer_tensor_arg(ctx, i);
		if (!t)
			return NULL;
		if (i == 0)
			x = t;
	}
	if (!infer_attr_bool(ctx, "is_lshift_required", false, &flag) ||
	    !infer_attr_bool(ctx, "is_rshift_required", false, &flag) ||
	    !infer_attr_list(ctx, "axes", &items, &n, &present))
		return NULL;
	for (uint32_t i = 0; i < n; i++) {
		int64_t axis;
		if (!infer_normalize_axis(ctx, items[i].u.i, x, &axis))
			return NULL;
	}
	return x;
}
