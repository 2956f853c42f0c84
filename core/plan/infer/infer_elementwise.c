/*
 * infer_elementwise.c - the type relations of the elementwise operators:
 * the binary ops with numpy broadcasting, nn.bias_add (a broadcast add
 * along one axis), the unary ops, clip and cast.
 *
 * A result equal to an operand's type is that operand's Type pointer, so a
 * chain of a million elementwise ops allocates no types at all.
 */
#include "infer_ops.h"

static Type *infer_broadcast(OpTypeContext *ctx)
{
	Type *a, *b, *r;
	DimBuf buf;
	int64_t *dims;
	uint32_t na, nb, n;
	if (!infer_tensor_pair(ctx, &a, &b) || !infer_same_dtype(ctx, a, b))
		return NULL;
	if (type_equal(a, b))
		return a;
	na = a->u.tensor.ndim;
	nb = b->u.tensor.ndim;
	n = na > nb ? na : nb;
	dims = dims_alloc(&buf, n);
	for (uint32_t k = 1; k <= n; k++) {
		int64_t da = k <= na ? a->u.tensor.dims[na - k] : 1;
		int64_t db = k <= nb ? b->u.tensor.dims[nb - k] : 1;
		if (!infer_broadcast_dim(da, db, &dims[n - k])) {
			infer_op_error(ctx, "cannot broadcast operands of '%s': %s and %s",
				       infer_op_name(ctx), infer_tname(ctx, a),
				       infer_tname(ctx, b));
			dims_release(&buf);
			return NULL;
		}
	}
	r = infer_result(ctx, a->u.tensor.dtype, n, dims, a, b);
	dims_release(&buf);
	return r;
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
