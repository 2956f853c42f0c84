/*
 * infer_window_nd.c - the type relations of the sliding-window operators
 * of rank 1 and 3 (nn.conv1d, nn.conv3d, their transposes, nn.max_pool1d/3d,
 * nn.avg_pool1d/3d) and of the global and adaptive poolings of every rank.
 *
 * One relation per kind serves every rank, with the extents of
 * infer_window.c (infer_window_extent, infer_transpose_extent), so that
 * rank 1, 2 and 3 agree on padding, dilation and ceil_mode. Convolutions
 * take any permutation of their default layouts (NCW/OIW, NCDHW/OIDHW,
 * IOW and IODHW for the transposes), the output in out_layout or the
 * data's; poolings any permutation of NCW, NCHW or NCDHW, as TVM's
 * relations find the spatial axes by letter.
 */
#include "infer_ops.h"

enum { WINDOW_MAX_RANK = 3 };

/* The name of spatial dimension i of a rank-`rank` window. */
static const char *spatial_name(uint32_t rank, uint32_t i)
{
	static const char *const names[] = {"depth", "height", "width"};
	return names[WINDOW_MAX_RANK - rank + i];
}

/* The default layouts of a rank-`rank` convolution. */
static const char *const conv_data_layouts[] = {NULL, "NCW", "NCHW", "NCDHW"};
static const char *const conv_kernel_layouts[] = {NULL, "OIW", "OIHW", "OIDHW"};
static const char *const conv_transpose_layouts[] = {NULL, "IOW", "IOHW", "IODHW"};

/* out_layout must be absent, "" or the data's layout. */
static bool same_out_layout(OpTypeContext *ctx, const char *data_attr, const char *dflt)
{
	const char *data, *out;
	if (!infer_attr_string(ctx, data_attr, &data) ||
	    !infer_attr_string(ctx, "out_layout", &out))
		return false;
	if (!data || !*data)
		data = dflt;
	if (!out || !*out || strcmp(out, data) == 0)
		return true;
	infer_op_error(ctx, "'%s' supports only out_layout=\"%s\", got \"%s\"", infer_op_name(ctx),
		       data, out);
	return false;
}

/* ---- convolutions ------------------------------------------------------ */

/* A convolution of rank 1 or 3, plain or transposed: data N, C, spatial...;
 * weight O, I / groups, kernel... (plain) or I, O / groups, kernel...
 * (transposed), in the order data_layout and kernel_layout give (a
 * transposed one's kernel_layout may also be the plain default, read as
 * its own); the output in out_layout, or the data's when that is empty. */
static Type *infer_conv_nd(OpTypeContext *ctx, uint32_t rank, bool transposed)
{
	Type *d, *w;
	int64_t strides[WINDOW_MAX_RANK], dilation[WINDOW_MAX_RANK], out_pad[WINDOW_MAX_RANK],
		ks[WINDOW_MAX_RANK], pad[2 * WINDOW_MAX_RANK], groups, channels, c, o,
		dims[WINDOW_MAX_RANK + 2];
	int pd[WINDOW_MAX_RANK + 2], pw[WINDOW_MAX_RANK + 2], po[WINDOW_MAX_RANK + 2];
	bool has_channels, has_ks;
	const char *kernel_layout =
		transposed ? conv_transpose_layouts[rank] : conv_kernel_layouts[rank];
	const char *kl, *ol;
	DType out_dt;
	if (!infer_tensor_pair(ctx, &d, &w))
		return NULL;
	if (d->u.tensor.ndim != rank + 2 || w->u.tensor.ndim != rank + 2) {
		infer_op_error(ctx, "'%s' expects %u-D data and weight (%s and %s), got %s and %s",
			       infer_op_name(ctx), rank + 2, conv_data_layouts[rank], kernel_layout,
			       infer_tname(ctx, d), infer_tname(ctx, w));
		return NULL;
	}
	if (!infer_layout_axes(ctx, "data_layout", conv_data_layouts[rank], d, pd) ||
	    !infer_attr_string(ctx, "kernel_layout", &kl) ||
	    !infer_attr_string(ctx, "out_layout", &ol))
		return NULL;
	if (transposed && kl && strcmp(kl, conv_kernel_layouts[rank]) == 0) {
		for (uint32_t i = 0; i < rank + 2; i++)
			pw[i] = (int)i;
	} else if (!infer_layout_axes(ctx, "kernel_layout", kernel_layout, w, pw)) {
		return NULL;
	}
	if (!ol || !*ol)
		memcpy(po, pd, sizeof po);
	else if (!infer_layout_axes(ctx, "out_layout", conv_data_layouts[rank], d, po))
		return NULL;
	if (!infer_attr_dims(ctx, "strides", rank, 1, 1, strides, NULL) ||
	    !infer_attr_dims(ctx, "dilation", rank, 1, 1, dilation, NULL) ||
	    !infer_attr_dims(ctx, "output_padding", rank, 0, 0, out_pad, NULL) ||
	    !infer_attr_dims(ctx, "kernel_size", rank, 0, 0, ks, &has_ks) ||
	    !infer_attr_padding_nd(ctx, rank, pad) ||
	    !infer_attr_int(ctx, "groups", 1, &groups, NULL) ||
	    !infer_attr_int(ctx, "channels", 0, &channels, &has_channels))
		return NULL;
	if (groups < 1) {
		infer_op_error(ctx, "'%s' attribute groups=%lld must be positive",
			       infer_op_name(ctx), (long long)groups);
		return NULL;
	}
	c = d->u.tensor.dims[pd[1]];
	if (dim_known(c) && c % groups != 0) {
		infer_op_error(ctx, "'%s' data %s has %lld channels, not divisible by groups=%lld",
			       infer_op_name(ctx), infer_tname(ctx, d), (long long)c,
			       (long long)groups);
		return NULL;
	}
	if (transposed) {
		if (!dim_match(c, w->u.tensor.dims[pw[0]])) {
			infer_op_error(
				ctx,
				"'%s' channel mismatch: data %s has %lld channels, weight %s "
				"expects %lld",
				infer_op_name(ctx), infer_tname(ctx, d), (long long)c,
				infer_tname(ctx, w), (long long)w->u.tensor.dims[pw[0]]);
			return NULL;
		}
		o = w->u.tensor.dims[pw[1]];
		if (dim_known(o) && !checked_mul(o, groups, &o)) {
			infer_op_error(ctx, "'%s' output channels overflow", infer_op_name(ctx));
			return NULL;
		}
	} else {
		int64_t per_group = w->u.tensor.dims[pw[1]];
		o = w->u.tensor.dims[pw[0]];
		if (dim_known(c) && dim_known(per_group) && per_group != c / groups) {
			infer_op_error(
				ctx,
				"'%s' channel mismatch: data %s has %lld channels, weight %s "
				"expects %lld per group (groups=%lld)",
				infer_op_name(ctx), infer_tname(ctx, d), (long long)c,
				infer_tname(ctx, w), (long long)per_group, (long long)groups);
			return NULL;
		}
		if (dim_known(o) && o % groups != 0) {
			infer_op_error(ctx,
				       "'%s' weight %s has %lld output channels, not divisible by "
				       "groups=%lld",
				       infer_op_name(ctx), infer_tname(ctx, w), (long long)o,
				       (long long)groups);
			return NULL;
		}
	}
	if (has_channels) {
		if (channels < 0 || !dim_match(channels, o)) {
			infer_op_error(ctx, "'%s' attribute channels=%lld does not match weight %s",
				       infer_op_name(ctx), (long long)channels,
				       infer_tname(ctx, w));
			return NULL;
		}
		o = channels;
	}
	for (uint32_t i = 0; has_ks && i < rank; i++)
		if (!dim_match(ks[i], w->u.tensor.dims[pw[2 + i]])) {
			infer_op_error(ctx, "'%s' attribute kernel_size does not match weight %s",
				       infer_op_name(ctx), infer_tname(ctx, w));
			return NULL;
		}
	dims[po[0]] = d->u.tensor.dims[pd[0]];
	dims[po[1]] = o;
	for (uint32_t i = 0; i < rank; i++) {
		const char *which = spatial_name(rank, i);
		int64_t in = d->u.tensor.dims[pd[2 + i]], k = w->u.tensor.dims[pw[2 + i]];
		if (transposed ? !infer_transpose_extent(ctx, which, in, pad[i], pad[rank + i], k,
							 dilation[i], strides[i], out_pad[i],
							 &dims[po[2 + i]])
			       : !infer_window_extent(ctx, which, in, pad[i], pad[rank + i], k,
						      dilation[i], strides[i], false,
						      &dims[po[2 + i]]))
			return NULL;
	}
	if (!infer_same_dtype(ctx, d, w) ||
	    !infer_attr_dtype(ctx, "out_dtype", d->u.tensor.dtype, &out_dt))
		return NULL;
	return infer_result(ctx, out_dt, rank + 2, dims, d, NULL);
}

/* nn.conv1d: data NCW, weight OIW. TVM 0.14's relation compares the
 * weight's I with all of C whatever the groups; this one takes I = C /
 * groups, as nn.conv2d does and as grouped conv1d computes. */
Type *infer_op_CONV1D(OpTypeContext *ctx)
{
	return infer_conv_nd(ctx, 1, false);
}

/* nn.conv3d: data NCDHW, weight OIDHW. */
Type *infer_op_CONV3D(OpTypeContext *ctx)
{
	return infer_conv_nd(ctx, 3, false);
}

/* nn.conv1d_transpose: data NCW, weight IOW (OIW accepted, as for 2-D). */
Type *infer_op_CONV1D_TRANSPOSE(OpTypeContext *ctx)
{
	return infer_conv_nd(ctx, 1, true);
}

/* nn.conv3d_transpose: data NCDHW, weight IODHW (OIDHW accepted). */
Type *infer_op_CONV3D_TRANSPOSE(OpTypeContext *ctx)
{
	return infer_conv_nd(ctx, 3, true);
}

/* ---- poolings ---------------------------------------------------------- */

static const char *const pool_layouts[] = {NULL, "NCW", "NCHW", "NCDHW"};

/* A max or average pooling of rank 1 or 3 over `layout` (a permutation of
 * NCW or NCDHW): pool_size is required. */
static Type *infer_pool_nd(OpTypeContext *ctx, uint32_t rank, bool average)
{
	Type *x = infer_tensor_arg(ctx, 0);
	int pos[WINDOW_MAX_RANK + 2];
	int64_t pool[WINDOW_MAX_RANK], strides[WINDOW_MAX_RANK], dilation[WINDOW_MAX_RANK],
		pad[2 * WINDOW_MAX_RANK], dims[WINDOW_MAX_RANK + 2];
	bool has_pool, ceil_mode, count_include_pad;
	if (!x || !infer_layout_axes(ctx, "layout", pool_layouts[rank], x, pos) ||
	    !same_out_layout(ctx, "layout", pool_layouts[rank]) ||
	    !infer_attr_dims(ctx, "pool_size", rank, 1, 1, pool, &has_pool) ||
	    !infer_attr_dims(ctx, "strides", rank, 1, 1, strides, NULL) ||
	    !infer_attr_dims(ctx, "dilation", rank, 1, 1, dilation, NULL) ||
	    !infer_attr_padding_nd(ctx, rank, pad) ||
	    !infer_attr_bool(ctx, "ceil_mode", false, &ceil_mode) ||
	    (average && !infer_attr_bool(ctx, "count_include_pad", false, &count_include_pad)))
		return NULL;
	if (!has_pool) {
		infer_op_error(ctx, "'%s' needs a pool_size attribute", infer_op_name(ctx));
		return NULL;
	}
	memcpy(dims, x->u.tensor.dims, (rank + 2) * sizeof(int64_t));
	for (uint32_t i = 0; i < rank; i++) {
		int at = pos[2 + i];
		if (!infer_window_extent(ctx, spatial_name(rank, i), dims[at], pad[i],
					 pad[rank + i], pool[i], dilation[i], strides[i], ceil_mode,
					 &dims[at]))
			return NULL;
	}
	return infer_result(ctx, x->u.tensor.dtype, rank + 2, dims, x, NULL);
}

Type *infer_op_MAX_POOL1D(OpTypeContext *ctx)
{
	return infer_pool_nd(ctx, 1, false);
}

Type *infer_op_MAX_POOL3D(OpTypeContext *ctx)
{
	return infer_pool_nd(ctx, 3, false);
}

Type *infer_op_AVG_POOL1D(OpTypeContext *ctx)
{
	return infer_pool_nd(ctx, 1, true);
}

Type *infer_op_AVG_POOL3D(OpTypeContext *ctx)
{
	return infer_pool_nd(ctx, 3, true);
}

/* nn.global_max_pool2d: H and W of NCHW (or a permutation) become 1. */
Type *infer_op_GLOBAL_MAX_POOL2D(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	int pos[4];
	int64_t dims[4];
	if (!x || !infer_layout_axes(ctx, "layout", "NCHW", x, pos) ||
	    !same_out_layout(ctx, "layout", "NCHW"))
		return NULL;
	memcpy(dims, x->u.tensor.dims, sizeof dims);
	dims[pos[2]] = dims[pos[3]] = 1;
	return infer_result(ctx, x->u.tensor.dtype, 4, dims, x, NULL);
}

/* An adaptive pooling of rank 1, 2 or 3: output_size gives the spatial
 * extents (one for all or one each); absent, None or [] keeps the input's,
 * as TVM's AdaptivePool{1,2,3}DRel do with an empty output_size. */
static Type *infer_adaptive_pool(OpTypeContext *ctx, uint32_t rank)
{
	Type *x = infer_tensor_arg(ctx, 0);
	int pos[WINDOW_MAX_RANK + 2];
	int64_t dims[WINDOW_MAX_RANK + 2];
	const AttrValue *size;
	uint32_t n;
	bool given;
	if (!x || !infer_layout_axes(ctx, "layout", pool_layouts[rank], x, pos) ||
	    !same_out_layout(ctx, "layout", pool_layouts[rank]) ||
	    !infer_attr_list(ctx, "output_size", &size, &n, &given))
		return NULL;
	if (n > 1 && n != rank) {
		if (rank == 1)
			infer_op_error(ctx, "'%s' attribute output_size=%s must have 0 or 1 values",
				       infer_op_name(ctx), infer_list_text(ctx, size, n));
		else
			infer_op_error(ctx,
				       "'%s' attribute output_size=%s must have 0, 1 or %u values",
				       infer_op_name(ctx), infer_list_text(ctx, size, n), rank);
		return NULL;
	}
	memcpy(dims, x->u.tensor.dims, (rank + 2) * sizeof(int64_t));
	for (uint32_t i = 0; i < n && i < rank; i++)
		if (size[i].u.i < 1) {
			infer_op_error(ctx, "'%s' attribute output_size=%s must be positive",
				       infer_op_name(ctx), infer_list_text(ctx, size, n));
			return NULL;
		}
	for (uint32_t i = 0; n && i < rank; i++)
		dims[pos[2 + i]] = size[n == 1 ? 0 : i].u.i;
	return infer_result(ctx, x->u.tensor.dtype, rank + 2, dims, x, NULL);
}

Type *infer_op_ADAPTIVE_AVG_POOL1D(OpTypeContext *ctx)
{
	return infer_adaptive_pool(ctx, 1);
}

Type *infer_op_ADAPTIVE_AVG_POOL2D(OpTypeContext *ctx)
{
	return infer_adaptive_pool(ctx, 2);
}

Type *infer_op_ADAPTIVE_AVG_POOL3D(OpTypeContext *ctx)
{
	return infer_adaptive_pool(ctx, 3);
}

Type *infer_op_ADAPTIVE_MAX_POOL1D(OpTypeContext *ctx)
{
	return infer_adaptive_pool(ctx, 1);
}

Type *infer_op_ADAPTIVE_MAX_POOL2D(OpTypeContext *ctx)
{
	return infer_adaptive_pool(ctx, 2);
}

Type *infer_op_ADAPTIVE_MAX_POOL3D(OpTypeContext *ctx)
{
	return infer_adaptive_pool(ctx, 3);
}
