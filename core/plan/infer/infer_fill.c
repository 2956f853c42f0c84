/*
 * infer_fill.c - the type relations of the operators that make a filled
 * tensor: zeros and ones from their shape and dtype attributes, zeros_like
 * and ones_like from their operand.
 */
#include "infer_ops.h"

Type *infer_op_ZEROS_LIKE(OpTypeContext *ctx)
{
	return infer_unary(ctx, false);
}

Type *infer_op_ONES_LIKE(OpTypeContext *ctx)
{
	return infer_unary(ctx, false);
}

/* zeros/ones(shape, dtype): a fresh tensor type. */
static Type *infer_filled(OpTypeContext *ctx)
{
	const AttrValue *items;
	uint32_t n;
	bool present;
	DType dt;
	DimBuf buf;
	int64_t *dims, count = 1;
	Type *r = NULL;
	if (!infer_attr_list(ctx, "shape", &items, &n, &present) ||
	    !infer_attr_dtype(ctx, "dtype", DT_FLOAT32, &dt))
		return NULL;
	if (!present) {
		infer_op_error(ctx, "'%s' needs a shape attribute", infer_op_name(ctx));
		return NULL;
	}
	if (n > INFER_MAX_NDIM) {
		infer_op_error(ctx, "'%s' shape has %u dimensions, more than %d",
			       infer_op_name(ctx), n, INFER_MAX_NDIM);
		return NULL;
	}
	dims = dims_alloc(&buf, n);
	for (uint32_t i = 0; i < n; i++) {
		dims[i] = items[i].u.i;
		if (dims[i] < 0) {
			infer_op_error(ctx, "'%s' shape %s has a negative dimension",
				       infer_op_name(ctx), infer_list_text(ctx, items, n));
			goto done;
		}
		if (!checked_mul(count, dims[i], &count)) {
			infer_op_error(ctx, "'%s' shape %s has more elements than int64 can count",
				       infer_op_name(ctx), infer_list_text(ctx, items, n));
			goto done;
		}
	}
	r = type_tensor(ir_data_arena(ctx->module), dt, n, dims);
done:
	dims_release(&buf);
	return r;
}

Type *infer_op_ZEROS(OpTypeContext *ctx)
{
	return infer_filled(ctx);
}

Type *infer_op_ONES(OpTypeContext *ctx)
{
	return infer_filled(ctx);
}
