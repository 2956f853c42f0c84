/*
 * infer_nn_contrib.c - the type relations of nn.contrib_*: the weight
 * transforms of the Winograd, NNPACK and GEMM convolutions and the
 * convolutions that take such a transformed weight, after TVM 0.14's
 * src/relay/op/nn/convolution.cc.
 *
 * A convolution "without weight transform" cannot read its kernel from the
 * transformed weight, so kernel_size and channels are required, as in
 * TVM; its data layout may be any permutation of NCHW (NCDHW), the output
 * keeping it.
 */
#include "infer_ops.h"

/* ---- weight transforms --------------------------------------------------- */

static Type *weight_arg(OpTypeContext *ctx, uint32_t nd, const char *layout)
{
	Type *w = infer_tensor_arg(ctx, 0);
	if (!w)
		return NULL;
	if (w->u.tensor.ndim == nd)
		return w;
	infer_op_error(ctx, "'%s' expects a %u-D %s weight, got %s", infer_op_name(ctx), nd, layout,
		       infer_tname(ctx, w));
	return NULL;
}

/* A positive int attribute, required when dflt is 0. */
static bool positive_attr(OpTypeContext *ctx, const char *name, int64_t dflt, int64_t *out)
{
	bool given;
	if (!infer_attr_int(ctx, name, dflt, out, &given))
		return false;
	if (*out >= 1 && *out <= (1 << 20))
		return true;
	infer_op_error(ctx, "'%s' needs a positive %s attribute", infer_op_name(ctx), name);
	return false;
}

/* tile + k - 1, `?` for `?`. */
static int64_t tiled(int64_t tile, int64_t k)
{
	return dim_known(k) && k <= INT64_MAX - tile ? tile + k - 1 : DIM_ANY;
}

/* nn.contrib_conv2d_winograd_weight_transform(weight OIHW) ->
 * [t + kh - 1, t + kw - 1, O, I]. */
Type *infer_op_CONTRIB_CONV2D_WINOGRAD_WEIGHT_TRANSFORM(OpTypeContext *ctx)
{
	Type *w = weight_arg(ctx, 4, "OIHW");
	int64_t t, dims[4];
	if (!w || !positive_attr(ctx, "tile_size", 0, &t))
		return NULL;
	dims[0] = tiled(t, w->u.tensor.dims[2]);
	dims[1] = tiled(t, w->u.tensor.dims[3]);
	dims[2] = w->u.tensor.dims[0];
	dims[3] = w->u.tensor.dims[1];
	return infer_result(ctx, w->u.tensor.dtype, 4, dims, w, NULL);
}

/* nn.contrib_conv3d_winograd_weight_transform(weight OIDHW): a kernel depth
 * between 3 and 7 is transformed too, [t + kd - 1, t + kh - 1, t + kw - 1,
 * O, I]; otherwise [t + kh - 1, t + kw - 1, kd, O, I]. */
Type *infer_op_CONTRIB_CONV3D_WINOGRAD_WEIGHT_TRANSFORM(OpTypeContext *ctx)
{
	Type *w = weight_arg(ctx, 5, "OIDHW");
	int64_t t, kd, dims[5];
	if (!w || !positive_attr(ctx, "tile_size", 0, &t))
		return NULL;
	kd = w->u.tensor.dims[2];
	if (!dim_known(kd)) {
		dims[0] = dims[1] = dims[2] = DIM_ANY;
	} else if (kd > 2 && kd < 8) {
		dims[0] = tiled(t, kd);
		dims[1] = tiled(t, w->u.tensor.dims[3]);
		dims[2] = tiled(t, w->u.tensor.dims[4]);
	} else {
		dims[0] = tiled(t, w->u.tensor.dims[3]);
		dims[1] = tiled(t, w->u.tensor.dims[4]);
		dims[2] = kd;
	}
	dims[3] = w->u.tensor.dims[0];
	dims[4] = w->u.tensor.dims[1];
	return infer_result(ctx, w->u.tensor.dtype, 5, dims, w, NULL);
}

/* nn.contrib_conv2d_winograd_nnpack_weight_transform(weight OIHW) ->
 * [O, I, 8, 8] of out_dtype. */
Type *infer_op_CONTRIB_CONV2D_WINOGRAD_NNPACK_WEIGHT_TRANSFORM(OpTypeContext *ctx)
{
	Type *w = weight_arg(ctx, 4, "OIHW");
	int64_t algorithm, dims[4];
	DType out_dt;
	if (!w || !infer_attr_int(ctx, "convolution_algorithm", 0, &algorithm, NULL) ||
	    !infer_attr_dtype(ctx, "out_dtype", w->u.tensor.dtype, &out_dt))
		return NULL;
	dims[0] = w->u.tensor.dims[0];
	dims[1] = w->u.tensor.dims[1];
	dims[2] = dims[3] = 8;
	return infer_result(ctx, out_dt, 4, dims, w, NULL);
}

/* x rounded up to a multiple of m; `?` for `?` or overflow. */
static int64_t round_up(int64_t x, int64_t m)
{
	int64_t r;
	if (!dim_known(x) || !checked_add(x, (m - x % m) % m, &r))
		return DIM_ANY;
	return r;
}

/* nn.contrib_conv2d_gemm_weight_transform(weight HWIO) -> [N' / n, K' / k,
 * n, k] where K = H * W * I padded to a multiple of 4 k and N = O padded
 * to a multiple of n (tile_rows n, tile_cols k). */
Type *infer_op_CONTRIB_CONV2D_GEMM_WEIGHT_TRANSFORM(OpTypeContext *ctx)
{
	Type *w = weight_arg(ctx, 4, "HWIO");
	int64_t n, k, kk = DIM_ANY, nn, dims[4];
	const int64_t *wd;
	if (!w || !positive_attr(ctx, "tile_rows", 0, &n) ||
	    !positive_attr(ctx, "tile_cols", 0, &k))
		return NULL;
	wd = w->u.tensor.dims;
	if (dim_known(wd[0]) && dim_known(wd[1]) && dim_known(wd[2]) &&
	    (!checked_mul(wd[0], wd[1], &kk) || !checked_mul(kk, wd[2], &kk))) {
		infer_op_error(ctx, "'%s' weight %s is too large", infer_op_name(ctx),
			       infer_tname(ctx, w));
		return NULL;
	}
	kk = round_up(kk, 4 * k);
	nn = round_up(wd[3], n);
	dims[0] = dim_known(nn) ? nn / n : DIM_ANY;
	dims[1] = dim_known(kk) ? kk / k : DIM_ANY;
	dims[2] = n;
	dims[3] = k;
	return infer_result(ctx, w->u.tensor.dtype, 4, dims, w, NULL);
}

/* ---- convolutions of a transformed weight ------------------------------- */

/* A convolution of rank 2 or 3 whose kernel and output channels come from
 * kernel_size and channels: data in `data_layout` (a permutation of
 * dflt_layout), output in the same layout. */
static Type *infer_conv_known_kernel(OpTypeContext *ctx, uint32_t rank, const char *dflt_layout)
{
	static const char *const names[] = {"depth", "height", "width"};
	Type *x, *w;
	int pos[5];
	int64_t ks[3], strides[3], dilation[3], pad[6], channels, groups, dims[5];
	bool has_ks, has_channels;
	const char *out;
	DType out_dt;
	if (!infer_tensor_pair(ctx, &x, &w) ||
	    !infer_layout_axes(ctx, "data_layout", dflt_layout, x, pos) ||
	    !infer_attr_string(ctx, "out_layout", &out) ||
	    !infer_attr_dims(ctx, "kernel_size", rank, 0, 1, ks, &has_ks) ||
	    !infer_attr_dims(ctx, "strides", rank, 1, 1, strides, NULL) ||
	    !infer_attr_dims(ctx, "dilation", rank, 1, 1, dilation, NULL) ||
	    !infer_attr_padding_nd(ctx, rank, pad) ||
	    !infer_attr_int(ctx, "channels", 0, &channels, &has_channels) ||
	    !infer_attr_int(ctx, "groups", 1, &groups, NULL) || !infer_same_dtype(ctx, x, w) ||
	    !infer_attr_dtype(ctx, "out_dtype", x->u.tensor.dtype, &out_dt))
		return NULL;
	if (out && *out) {
		const char *data;
		if (!infer_attr_string(ctx, "data_layout", &data))
			return NULL;
		if (strcmp(out, data && *data ? data : dflt_layout) != 0) {
			infer_op_error(ctx, "'%s' supports only out_layout equal to data_layout",
				       infer_op_name(ctx));
			return NULL;
		}
	}
	if (!has_ks || !has_channels || channels < 1) {
		infer_op_error(ctx, "'%s' needs kernel_size and channels attributes",
			       infer_op_name(ctx));
		return NULL;
	}
	memcpy(dims, x->u.tensor.dims, (rank + 2) * sizeof(int64_t));
	dims[pos[1]] = channels;
	for (uint32_t i = 0; i < rank; i++) {
		int at = pos[2 + i];
		if (!infer_window_extent(ctx, names[3 - rank + i], dims[at], pad[i], pad[rank + i],
					 ks[i], dilation[i], strides[i], false, &dims[at]))
			return NULL;
	}
	return infer_result(ctx, out_dt, rank + 2, dims, x, NULL);
}

Type *infer_op_CONTRIB_CONV2D_WINOGRAD_WITHOUT_WEIGHT_TRANSFORM(OpTypeContext *ctx)
{
	int64_t t;
	if (!positive_attr(ctx, "tile_size", 0, &t))
		return NULL;
	return infer_conv_known_kernel(ctx, 2, "NCHW");
}

Type *infer_op_CONTRIB_CONV3D_WINOGRAD_WITHOUT_WEIGHT_TRANSFORM(OpTypeContext *ctx)
{
	int64_t t;
	if (!positive_attr(ctx, "tile_size", 0, &t))
		return NULL;
	return infer_conv_known_kernel(ctx, 3, "NCDHW");
}

/* nn.contrib_conv2d_gemm_without_weight_transform: TVM converts its data to
 * NHWC, so data_layout is usually NHWC. */
Type *infer_op_CONTRIB_CONV2D_GEMM_WITHOUT_WEIGHT_TRANSFORM(OpTypeContext *ctx)
{
	return infer_conv_known_kernel(ctx, 2, "NCHW");
}
