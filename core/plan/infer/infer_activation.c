/*
 * infer_activation.c - the type relations of the activations with
 * attributes: nn.dropout (a tuple of the output and its mask),
 * nn.leaky_relu and nn.prelu, after TVM 0.14's src/relay/op/nn/nn.cc.
 */
#include "infer_ops.h"

/* nn.dropout(data) -> (data, mask), both of data's type; 0 <= rate <= 1. */
Type *infer_op_DROPOUT(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *fields[2];
	double rate;
	if (!x || !infer_attr_number(ctx, "rate", 0.5, &rate))
		return NULL;
	if (!(rate >= 0 && rate <= 1)) {
		infer_op_error(ctx, "'nn.dropout' attribute rate=%g must be between 0 and 1", rate);
		return NULL;
	}
	fields[0] = fields[1] = x;
	return type_tuple(ir_data_arena(ctx->module), 2, fields);
}

/* nn.leaky_relu: the data's type; alpha (default 0.25) at least 0, TVM's
 * lower bound. */
Type *infer_op_LEAKY_RELU(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	double alpha;
	if (!x || !infer_attr_number(ctx, "alpha", 0.25, &alpha))
		return NULL;
	if (!(alpha >= 0)) {
		infer_op_error(ctx, "'nn.leaky_relu' attribute alpha=%g must not be negative",
			       alpha);
		return NULL;
	}
	return x;
}

/* nn.prelu(data, alpha): alpha is the vector of data's axis (default 1). */
Type *infer_op_PRELU(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	int64_t axis;
	if (!x || !infer_attr_int(ctx, "axis", 1, &axis, NULL) ||
	    !infer_normalize_axis(ctx, axis, x, &axis) ||
	    !infer_channel_vector(ctx, 1, x, x->u.tensor.dims[axis]))
		return NULL;
	return x;
}
