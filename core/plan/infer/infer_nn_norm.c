/*
 * infer_nn_norm.c - the type relations of the nn.* operators that keep the
 * data's layout: the normalisations (nn.batch_norm, nn.layer_norm,
 * nn.group_norm, nn.instance_norm, nn.l2_normalize, nn.lrn), the
 * activations with a parameter (nn.leaky_relu, nn.prelu), nn.dropout, the
 * softmax variants, nn.matmul, nn.pad and the resamplings (nn.upsampling,
 * nn.upsampling3d, nn.depth_to_space, nn.space_to_depth).
 *
 * Each follows TVM 0.14's relation (src/relay/op/nn/nn.cc, pad.cc,
 * upsampling.cc, nn.h) with its attribute defaults, and turns what TVM
 * checks with an assertion into a positioned error; the per-channel
 * parameters of the normalisations (gamma, beta, the moving statistics)
 * must be vectors as long as the channel axis, of the data's dtype.
 */
#include "infer_ops.h"

#include <math.h>
#include <string.h>

/* ---- normalisations ------------------------------------------------------ */

/* Argument i must be the vector Tensor[(c), dtype of x]; `?` matches. */
static bool channel_vector(OpTypeContext *ctx, uint32_t i, const Type *x, int64_t c)
{
	Type *v = infer_tensor_arg(ctx, i);
	if (!v)
		return false;
	if (v->u.tensor.ndim == 1 && dim_match(v->u.tensor.dims[0], c) &&
	    v->u.tensor.dtype == x->u.tensor.dtype)
		return true;
	infer_op_error(
		ctx, "'%s' expects argument %u of type %s (the channel axis of %s), got %s",
		infer_op_name(ctx), i + 1,
		infer_tname(ctx, type_tensor(ir_data_arena(ctx->module), x->u.tensor.dtype, 1, &c)),
		infer_tname(ctx, x), infer_tname(ctx, v));
	return false;
}

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
		if (!channel_vector(ctx, i, x, *c))
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
	    !channel_vector(ctx, 1, x, x->u.tensor.dims[axis]))
		return NULL;
	return x;
}

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

Type *infer_op_FAST_SOFTMAX(OpTypeContext *ctx)
{
	return softmax_like(ctx);
}

/* ---- nn.matmul ------------------------------------------------------------- */

/* nn.matmul(a[..., M, K], b[K, N]) -> [..., M, N]; transpose_a reads a as
 * [..., K, M], transpose_b b as [N, K] (both default false, unlike
 * nn.dense); units, when given, is N. MatmulAttrs' auto_scheduler_rewritten_layout
 * and meta_schedule_original_shape are members but not TVM_ATTR_FIELDs, so
 * no text can set them. */
Type *infer_op_MATMUL(OpTypeContext *ctx)
{
	Type *a, *b, *r;
	bool ta, tb, has_units;
	int64_t units, k, kb, n, *dims;
	uint32_t nd;
	DType out_dt;
	DimBuf buf;
	if (!infer_tensor_pair(ctx, &a, &b) || !infer_attr_bool(ctx, "transpose_a", false, &ta) ||
	    !infer_attr_bool(ctx, "transpose_b", false, &tb) ||
	    !infer_attr_int(ctx, "units", 0, &units, &has_units))
		return NULL;
	nd = a->u.tensor.ndim;
	if (nd < (ta ? 2u : 1u)) {
		infer_op_error(ctx,
			       "'nn.matmul' expects a first operand of at least %u dimensions, "
			       "got %s",
			       ta ? 2u : 1u, infer_tname(ctx, a));
		return NULL;
	}
	k = a->u.tensor.dims[ta ? nd - 2 : nd - 1];
	if (b->u.tensor.ndim != 2) {
		infer_op_error(ctx, "'nn.matmul' expects a 2-D second operand, got %s",
			       infer_tname(ctx, b));
		return NULL;
	}
	kb = b->u.tensor.dims[tb ? 1 : 0];
	n = b->u.tensor.dims[tb ? 0 : 1];
	if (!dim_match(k, kb)) {
		infer_op_error(ctx,
			       "'nn.matmul' reduction dimensions do not match: %s and %s "
			       "(transpose_a=%s, transpose_b=%s)",
			       infer_tname(ctx, a), infer_tname(ctx, b), ta ? "True" : "False",
			       tb ? "True" : "False");
		return NULL;
	}
	if (has_units) {
		if (units < 0 || !dim_match(n, units)) {
			infer_op_error(ctx, "'nn.matmul' attribute units=%lld does not match %s",
				       (long long)units, infer_tname(ctx, b));
			return NULL;
		}
		n = units;
	}
	if (!infer_same_dtype(ctx, a, b) ||
	    !infer_attr_dtype(ctx, "out_dtype", a->u.tensor.dtype, &out_dt))
		return NULL;
	dims = dims_alloc(&buf, nd);
	memcpy(dims, a->u.tensor.dims, nd * sizeof(int64_t));
	if (ta)
		dims[nd - 2] = a->u.tensor.dims[nd - 1];
	dims[nd - 1] = n;
	r = infer_result(ctx, out_dt, nd, dims, a, NULL);
	dims_release(&buf);
	return r;
}

/* ---- nn.pad ---------------------------------------------------------------- */

/* nn.pad(data, pad_value): pad_width holds one [before, after] pair per
 * dimension of data (negative widths crop); pad_mode is constant (default),
 * edge or reflect; pad_value is a scalar. */
Type *infer_op_PAD(OpTypeContext *ctx)
{
	static const char *const modes[] = {"constant", "edge", "reflect", NULL};
	Type *x = infer_tensor_arg(ctx, 0), *v, *r;
	const AttrValue *pw = infer_attr_value(ctx, "pad_width");
	const char *mode;
	uint32_t nd;
	int64_t *dims;
	DimBuf buf;
	if (!x || !(v = infer_tensor_arg(ctx, 1)) ||
	    !infer_attr_choice(ctx, "pad_mode", "constant", modes, &mode))
		return NULL;
	if (v->u.tensor.ndim != 0) {
		infer_op_error(ctx, "'nn.pad' expects a scalar pad value, got %s",
			       infer_tname(ctx, v));
		return NULL;
	}
	nd = x->u.tensor.ndim;
	if (!pw || pw->kind != ATTR_LIST || pw->u.list.n != nd) {
		infer_op_error(ctx, "'nn.pad' needs a pad_width of %u [before, after] pairs for %s",
			       nd, infer_tname(ctx, x));
		return NULL;
	}
	dims = dims_alloc(&buf, nd);
	for (uint32_t i = 0; i < nd; i++) {
		const AttrValue *pair = &pw->u.list.items[i];
		int64_t d = x->u.tensor.dims[i], grown;
		if (pair->kind != ATTR_LIST || pair->u.list.n != 2 ||
		    pair->u.list.items[0].kind != ATTR_INT ||
		    pair->u.list.items[1].kind != ATTR_INT) {
			infer_op_error(ctx,
				       "'nn.pad' pad_width item %u must be a pair [before, after] "
				       "of integers",
				       i);
			dims_release(&buf);
			return NULL;
		}
		dims[i] = d;
		if (!dim_known(d))
			continue;
		if (!checked_add(d, pair->u.list.items[0].u.i, &grown) ||
		    !checked_add(grown, pair->u.list.items[1].u.i, &grown) || grown < 0) {
			infer_op_error(ctx, "'nn.pad' pads dimension %u of %s to an invalid extent",
				       i, infer_tname(ctx, x));
			dims_release(&buf);
			return NULL;
		}
		dims[i] = grown;
	}
	r = infer_result(ctx, x->u.tensor.dtype, nd, dims, x, NULL);
	dims_release(&buf);
	return r;
}

/* ---- resampling -------------------------------------------------------------- */

/* round(d * scale), TVM's output extent of an upsampling; `?` stays. */
static bool scaled_extent(OpTypeContext *ctx, const char *which, int64_t d, double scale,
			  int64_t *out)
{
	double v;
	if (!dim_known(d)) {
		*out = DIM_ANY;
		return true;
	}
	v = round((double)d * scale);
	if (!(v >= 0 && v < 9.0e18)) {
		infer_op_error(ctx, "'%s' output %s overflows", infer_op_name(ctx), which);
		return false;
	}
	*out = (int64_t)v;
	return true;
}

/* A scale attribute: a positive number, 1 when absent. */
static bool scale_attr(OpTypeContext *ctx, const char *name, double *out)
{
	if (!infer_attr_number(ctx, name, 1, out))
		return false;
	if (*out > 0 && isfinite(*out))
		return true;
	infer_op_error(ctx, "'%s' attribute %s=%g must be positive", infer_op_name(ctx), name,
		       *out);
	return false;
}

/* nn.upsampling: NCHW (or a permutation of it) with H and W scaled. */
Type *infer_op_UPSAMPLING(OpTypeContext *ctx)
{
	static const char *const methods[] = {"nearest_neighbor", "bilinear", "bicubic", NULL};
	Type *x = infer_tensor_arg(ctx, 0);
	int pos[4];
	double sh, sw;
	bool align;
	const char *method;
	int64_t dims[4];
	if (!x || !infer_layout_axes(ctx, "layout", "NCHW", x, pos) ||
	    !scale_attr(ctx, "scale_h", &sh) || !scale_attr(ctx, "scale_w", &sw) ||
	    !infer_attr_choice(ctx, "method", "nearest_neighbor", methods, &method) ||
	    !infer_attr_bool(ctx, "align_corners", false, &align))
		return NULL;
	memcpy(dims, x->u.tensor.dims, sizeof dims);
	if (!scaled_extent(ctx, "height", dims[pos[2]], sh, &dims[pos[2]]) ||
	    !scaled_extent(ctx, "width", dims[pos[3]], sw, &dims[pos[3]]))
		return NULL;
	return infer_result(ctx, x->u.tensor.dtype, 4, dims, x, NULL);
}

/* nn.upsampling3d: NCDHW (or a permutation of it) with D, H and W scaled. */
Type *infer_op_UPSAMPLING3D(OpTypeContext *ctx)
{
	static const char *const methods[] = {"nearest_neighbor", "trilinear", NULL};
	static const char *const modes[] = {"half_pixel", "align_corners", "asymmetric", NULL};
	Type *x = infer_tensor_arg(ctx, 0);
	int pos[5];
	double sd, sh, sw;
	const char *method, *mode;
	int64_t dims[5];
	if (!x || !infer_layout_axes(ctx, "layout", "NCDHW", x, pos) ||
	    !scale_attr(ctx, "scale_d", &sd) || !scale_attr(ctx, "scale_h", &sh) ||
	    !scale_attr(ctx, "scale_w", &sw) ||
	    !infer_attr_choice(ctx, "method", "nearest_neighbor", methods, &method) ||
	    !infer_attr_choice(ctx, "coordinate_transformation_mode", "half_pixel", modes, &mode))
		return NULL;
	memcpy(dims, x->u.tensor.dims, sizeof dims);
	if (!scaled_extent(ctx, "depth", dims[pos[2]], sd, &dims[pos[2]]) ||
	    !scaled_extent(ctx, "height", dims[pos[3]], sh, &dims[pos[3]]) ||
	    !scaled_extent(ctx, "width", dims[pos[4]], sw, &dims[pos[4]]))
		return NULL;
	return infer_result(ctx, x->u.tensor.dtype, 5, dims, x, NULL);
}

/* The data, block size and layout of nn.depth_to_space and
 * nn.space_to_depth; dims gets the data's shape. */
static Type *subpixel_operands(OpTypeContext *ctx, int *pos, int64_t *block, int64_t dims[4])
{
	static const char *const modes[] = {"DCR", "CDR", NULL};
	Type *x = infer_tensor_arg(ctx, 0);
	const char *mode;
	if (!x || !infer_layout_axes(ctx, "layout", "NCHW", x, pos) ||
	    !infer_attr_int(ctx, "block_size", 1, block, NULL) ||
	    !infer_attr_choice(ctx, "mode", "DCR", modes, &mode))
		return NULL;
	if (*block < 1 || *block > (1 << 20)) {
		infer_op_error(ctx, "'%s' attribute block_size=%lld must be positive",
			       infer_op_name(ctx), (long long)*block);
		return NULL;
	}
	memcpy(dims, x->u.tensor.dims, 4 * sizeof(int64_t));
	return x;
}

/* nn.depth_to_space: (N, C / b^2, H * b, W * b) in NCHW terms. */
Type *infer_op_DEPTH_TO_SPACE(OpTypeContext *ctx)
{
	int pos[4];
	int64_t b, dims[4], *c;
	Type *x = subpixel_operands(ctx, pos, &b, dims);
	if (!x)
		return NULL;
	c = &dims[pos[1]];
	if (dim_known(*c) && *c % (b * b) != 0) {
		infer_op_error(ctx,
			       "'nn.depth_to_space' data %s has %lld channels, not divisible by "
			       "block_size^2=%lld",
			       infer_tname(ctx, x), (long long)*c, (long long)(b * b));
		return NULL;
	}
	if (dim_known(*c))
		*c /= b * b;
	for (int k = 2; k < 4; k++)
		if (dim_known(dims[pos[k]]) && !checked_mul(dims[pos[k]], b, &dims[pos[k]])) {
			infer_op_error(ctx, "'nn.depth_to_space' output overflows");
			return NULL;
		}
	return infer_result(ctx, x->u.tensor.dtype, 4, dims, x, NULL);
}

/* nn.space_to_depth: (N, C * b^2, H / b, W / b) in NCHW terms, dividing
 * down as TVM does. */
Type *infer_op_SPACE_TO_DEPTH(OpTypeContext *ctx)
{
	int pos[4];
	int64_t b, dims[4];
	Type *x = subpixel_operands(ctx, pos, &b, dims);
	if (!x)
		return NULL;
	if (dim_known(dims[pos[1]]) && !checked_mul(dims[pos[1]], b * b, &dims[pos[1]])) {
		infer_op_error(ctx, "'nn.space_to_depth' output overflows");
		return NULL;
	}
	for (int k = 2; k < 4; k++)
		if (dim_known(dims[pos[k]]))
			dims[pos[k]] /= b;
	return infer_result(ctx, x->u.tensor.dtype, 4, dims, x, NULL);
}
