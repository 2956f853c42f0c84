/*
 * infer_norm.c - the type relations of the norm family: the
 * normalisations (nn.batch_norm, nn.layer_norm, nn.group_norm,
 * nn.instance_norm, nn.l2_normalize, nn.lrn) and nn.log_softmax (their
 * kernels are cpu/cpu_norm.c and cuda/cuda_norm.cu).
 *
 * Each follows TVM 0.14's relation (src/relay/op/nn/nn.cc, nn.h) with its
 * attribute defaults, and turns what TVM checks with an assertion into a
 * positioned error; the per-channel parameters of the normalisations
 * (gamma, beta, the moving statistics) must be vectors as long as the
 * channel axis, of the data's dtype.
 */
#include "infer_ops.h"

#include <math.h>
#include <string.h>

/* ---- normalisations ------------------------------------------------------ */

/* The data (argument 1), its channel axis (attribute `axis`, default
 * dflt_axis) and the per-channel arguments 2..nvectors+1; *c is the
 * channel extent. The other attributes of the normalisations (epsilon,
 * center, scale) are checked for their kinds. */
static Type *norm_operands(OpTypeContext *ctx, int64_t dflt_axis, uint32_t nvectors, int64_t *c)
{
	Type *x = infer_tensor_arg(ctx, 0);
	int64_t axis;
	double epsilon;
	bool center, scale;
	if (!x || !infer_attr_int(ctx, "axis", dflt_axis, &axis, NULL) ||
	    !infer_attr_number(ctx, "epsilon", 1e-5, &epsilon) ||
	    !infer_attr_bool(ctx, "center", true, &center) ||
	    !infer_attr_bool(ctx, "scale", true, &scale))
		return NULL;
	if (x->u.tensor.ndim == 0) {
		infer_op_error(ctx, "'%s' expects data with a channel axis, got %s",
			       infer_op_name(ctx), infer_tname(ctx, x));
		return NULL;
	}
	if (!infer_normalize_axis(ctx, axis, x, &axis))
		return NULL;
	*c = x->u.tensor.dims[axis];
	for (uint32_t i = 1; i <= nvectors; i++)
		if (!infer_channel_vector(ctx, i, x, *c))
			return NULL;
	return x;
}

/* nn.batch_norm(data, gamma, beta, moving_mean, moving_var) -> (data, mean,
 * var), the last two vectors of the channel axis (default 1). */
Type *infer_op_BATCH_NORM(OpTypeContext *ctx)
{
	int64_t c;
	Type *x = norm_operands(ctx, 1, 4, &c), *fields[3];
	if (!x)
		return NULL;
	fields[0] = x;
	fields[1] = fields[2] =
		infer_result(ctx, x->u.tensor.dtype, 1, &c, ctx->arg_types[3], ctx->arg_types[1]);
	return type_tuple(ir_data_arena(ctx->module), 3, fields);
}

/* nn.layer_norm(data, gamma, beta): data's type; axis defaults to -1. */
Type *infer_op_LAYER_NORM(OpTypeContext *ctx)
{
	int64_t c;
	return norm_operands(ctx, -1, 2, &c);
}

/* nn.instance_norm(data, gamma, beta): data (at least 3-D) keeps its type. */
Type *infer_op_INSTANCE_NORM(OpTypeContext *ctx)
{
	int64_t c;
	Type *x = norm_operands(ctx, 1, 2, &c);
	if (x && x->u.tensor.ndim < 3) {
		infer_op_error(ctx,
			       "'nn.instance_norm' expects data of at least 3 dimensions, got %s",
			       infer_tname(ctx, x));
		return NULL;
	}
	return x;
}

/* nn.group_norm(data, gamma, beta): data's type; num_groups must divide
 * the channels. */
Type *infer_op_GROUP_NORM(OpTypeContext *ctx)
{
	int64_t c, groups;
	Type *x = norm_operands(ctx, 1, 2, &c);
	if (!x || !infer_attr_int(ctx, "num_groups", 0, &groups, NULL))
		return NULL;
	if (groups < 1) {
		infer_op_error(ctx, "'nn.group_norm' attribute num_groups=%lld must be positive",
			       (long long)groups);
		return NULL;
	}
	if (dim_known(c) && c % groups != 0) {
		infer_op_error(ctx,
			       "'nn.group_norm' data %s has %lld channels, not divisible by "
			       "num_groups=%lld",
			       infer_tname(ctx, x), (long long)c, (long long)groups);
		return NULL;
	}
	return x;
}

/* nn.l2_normalize: the data's type; every axis in range. */
Type *infer_op_L2_NORMALIZE(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	const AttrValue *axes;
	uint32_t n;
	bool given;
	double eps;
	int64_t axis;
	if (!x || !infer_attr_number(ctx, "eps", 0, &eps) ||
	    !infer_attr_list(ctx, "axis", &axes, &n, &given))
		return NULL;
	for (uint32_t i = 0; i < n; i++)
		if (!infer_normalize_axis(ctx, axes[i].u.i, x, &axis))
			return NULL;
	return x;
}

/* nn.lrn: the data's type; size (default 5) positive, axis (default 1) in
 * range. */
Type *infer_op_LRN(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	int64_t size, axis;
	double bias, alpha, beta;
	if (!x || !infer_attr_int(ctx, "size", 5, &size, NULL) ||
	    !infer_attr_int(ctx, "axis", 1, &axis, NULL) ||
	    !infer_attr_number(ctx, "bias", 2, &bias) ||
	    !infer_attr_number(ctx, "alpha", 1e-4, &alpha) ||
	    !infer_attr_number(ctx, "beta", 0.75, &beta) ||
	    !infer_normalize_axis(ctx, axis, x, &axis))
		return NULL;
	if (size < 1) {
		infer_op_error(ctx, "'nn.lrn' attribute size=%lld must be positive",
			       (long long)size);
		return NULL;
	}
	return x;
}

/* ---- activations, dropout, softmax ---------------------------------------- */

/* nn.log_softmax and nn.fast_softmax: the data's type; axis (default -1)
 * in range. */
static Type *softmax_like(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	int64_t axis;
	if (!x || !infer_attr_int(ctx, "axis", -1, &axis, NULL) ||
	    !infer_normalize_axis(ctx, axis, x, &axis))
		return NULL;
	return x;
}

Type *infer_op_LOG_SOFTMAX(OpTypeContext *ctx)
{
	return softmax_like(ctx);
}

/* ---- nn.matmul ------------------------------------------------------------- */

/* ---- nn.pad ---------------------------------------------------------------- */

/* ---- resampling -------------------------------------------------------------- */
