/*
 * infer_window.c - the type relations of the window family, the operators
 * that slide a window over 1-, 2- or 3-D data (their kernels are
 * cpu/cpu_window.c and cuda/cuda_window.cu): nn.conv2d (weight OIHW),
 * nn.conv2d_transpose (weight IOHW) and the 2-D poolings, in any layout
 * that permutes those letters (NHWC, HWIO...), as TVM's relations convert
 * it, the output in out_layout, or the data's layout when that is empty;
 * then the ranks 1 and 3 (nn.conv1d, nn.conv3d, their transposes,
 * nn.max_pool1d/3d, nn.avg_pool1d/3d) and the global and adaptive
 * poolings of every rank. One relation per kind serves ranks 1 and 3,
 * with the extents of rank 2 (infer_window_extent,
 * infer_transpose_extent), so that every rank agrees on padding, dilation
 * and ceil_mode; those convolutions take any permutation of their default
 * layouts (NCW/OIW, NCDHW/OIDHW, IOW and IODHW for the transposes),
 * poolings any permutation of NCW, NCHW or NCDHW, as TVM's relations find
 * the spatial axes by letter.
 *
 * Every output extent goes through the checked arithmetic of infer_ops.h,
 * so absurd padding, strides or dilation are errors, never overflow; an
 * unknown input extent gives an unknown output extent.
 */
#include "infer_ops.h"

/* One spatial extent of a convolution or pooling window:
 * (in + pad_before + pad_after - dilation * (kernel - 1) - 1) / stride + 1,
 * rounding up with ceil_mode. `?` in, `?` out. */
bool infer_window_extent(OpTypeContext *ctx, const char *which, int64_t in, int64_t pad_a,
			 int64_t pad_b, int64_t kernel, int64_t dilation, int64_t stride,
			 bool ceil_mode, int64_t *out)
{
	int64_t padded, span, num;
	if (!dim_known(in) || !dim_known(kernel)) {
		*out = DIM_ANY;
		return true;
	}
	if (kernel == 0) {
		infer_op_error(ctx, "'%s' has an empty window in %s", infer_op_name(ctx), which);
		return false;
	}
	if (!checked_add(in, pad_a, &padded) || !checked_add(padded, pad_b, &padded) ||
	    !checked_mul(dilation, kernel - 1, &span) || !checked_add(span, 1, &span)) {
		infer_op_error(ctx, "'%s' output %s overflows", infer_op_name(ctx), which);
		return false;
	}
	if (span > padded) {
		infer_op_error(ctx,
			       "'%s' window of %lld (dilated) is larger than the padded input "
			       "%s of %lld",
			       infer_op_name(ctx), (long long)span, which, (long long)padded);
		return false;
	}
	num = padded - span;
	if (ceil_mode)
		num = num / stride + (num % stride != 0);
	else
		num = num / stride;
	*out = num + 1;
	return true;
}

/* Where N, C, H and W (or O, I, H and W) sit in the layout attribute
 * `name` of the 4-D x: pos[k] is the axis of dflt[k]. An absent or empty
 * attribute is `fallback` (the default, or the data's layout for an
 * out_layout). */
static bool layout_axes(OpTypeContext *ctx, const char *name, const char *dflt, const int *fallback,
			const Type *x, int pos[4])
{
	const char *s;
	if (!infer_attr_string(ctx, name, &s))
		return false;
	if (fallback && (!s || !*s)) {
		memcpy(pos, fallback, 4 * sizeof(int));
		return true;
	}
	return infer_layout_axes(ctx, name, dflt, x, pos);
}

static const int nchw_axes[4] = {0, 1, 2, 3};

/* The 4-D data and weight of a convolution. */
static bool conv_operands(OpTypeContext *ctx, const char *layouts, Type **d, Type **w)
{
	if (!infer_tensor_pair(ctx, d, w))
		return false;
	if ((*d)->u.tensor.ndim == 4 && (*w)->u.tensor.ndim == 4)
		return true;
	infer_op_error(ctx, "'%s' expects 4-D data and weight (%s), got %s and %s",
		       infer_op_name(ctx), layouts, infer_tname(ctx, *d), infer_tname(ctx, *w));
	return false;
}

/* channels and kernel_size, when given, must agree with the weight. */
static bool conv_check_attrs(OpTypeContext *ctx, const Type *w, int64_t *out_channels, int64_t kh,
			     int64_t kw)
{
	int64_t channels, ks[2];
	bool has_channels, has_ks;
	if (!infer_attr_int(ctx, "channels", 0, &channels, &has_channels) ||
	    !infer_attr_pair(ctx, "kernel_size", 0, 0, ks, &has_ks))
		return false;
	if (has_channels) {
		if (channels < 0 || !dim_match(channels, *out_channels)) {
			infer_op_error(ctx, "'%s' attribute channels=%lld does not match weight %s",
				       infer_op_name(ctx), (long long)channels,
				       infer_tname(ctx, w));
			return false;
		}
		*out_channels = channels;
	}
	if (has_ks && (!dim_match(ks[0], kh) || !dim_match(ks[1], kw))) {
		infer_op_error(ctx,
			       "'%s' attribute kernel_size=[%lld, %lld] does not match weight %s",
			       infer_op_name(ctx), (long long)ks[0], (long long)ks[1],
			       infer_tname(ctx, w));
		return false;
	}
	return true;
}

/* nn.conv2d: data NCHW, weight OIHW with I = C / groups (or their
 * permutations). */
Type *infer_op_CONV2D(OpTypeContext *ctx)
{
	Type *d, *w;
	int64_t strides[2], dilation[2], pad[4], groups, dims[4], c, o, i_per_group, h, wd, kh, kw;
	int pd[4], pw[4], po[4];
	DType out_dt;
	if (!conv_operands(ctx, "NCHW and OIHW", &d, &w) ||
	    !layout_axes(ctx, "data_layout", "NCHW", nchw_axes, d, pd) ||
	    !layout_axes(ctx, "kernel_layout", "OIHW", nchw_axes, w, pw) ||
	    !layout_axes(ctx, "out_layout", "NCHW", pd, d, po) ||
	    !infer_attr_pair(ctx, "strides", 1, 1, strides, NULL) ||
	    !infer_attr_pair(ctx, "dilation", 1, 1, dilation, NULL) ||
	    !infer_attr_padding(ctx, pad) || !infer_attr_int(ctx, "groups", 1, &groups, NULL))
		return NULL;
	if (groups < 1) {
		infer_op_error(ctx, "'nn.conv2d' attribute groups=%lld must be positive",
			       (long long)groups);
		return NULL;
	}
	c = d->u.tensor.dims[pd[1]];
	h = d->u.tensor.dims[pd[2]];
	wd = d->u.tensor.dims[pd[3]];
	o = w->u.tensor.dims[pw[0]];
	i_per_group = w->u.tensor.dims[pw[1]];
	kh = w->u.tensor.dims[pw[2]];
	kw = w->u.tensor.dims[pw[3]];
	if (dim_known(c) && c % groups != 0) {
		infer_op_error(
			ctx, "'nn.conv2d' data %s has %lld channels, not divisible by groups=%lld",
			infer_tname(ctx, d), (long long)c, (long long)groups);
		return NULL;
	}
	if (dim_known(c) && dim_known(i_per_group) && i_per_group != c / groups) {
		int64_t expects;
		if (!checked_mul(i_per_group, groups, &expects))
			expects = INT64_MAX;
		infer_op_error(ctx,
			       "'nn.conv2d' channel mismatch: data %s has %lld channels, "
			       "weight %s expects %lld (groups=%lld)",
			       infer_tname(ctx, d), (long long)c, infer_tname(ctx, w),
			       (long long)expects, (long long)groups);
		return NULL;
	}
	if (dim_known(o) && o % groups != 0) {
		infer_op_error(ctx,
			       "'nn.conv2d' weight %s has %lld output channels, not divisible by "
			       "groups=%lld",
			       infer_tname(ctx, w), (long long)o, (long long)groups);
		return NULL;
	}
	if (!conv_check_attrs(ctx, w, &o, kh, kw))
		return NULL;
	dims[po[0]] = d->u.tensor.dims[pd[0]];
	dims[po[1]] = o;
	if (!infer_window_extent(ctx, "height", h, pad[0], pad[2], kh, dilation[0], strides[0],
				 false, &dims[po[2]]) ||
	    !infer_window_extent(ctx, "width", wd, pad[1], pad[3], kw, dilation[1], strides[1],
				 false, &dims[po[3]]))
		return NULL;
	if (!infer_same_dtype(ctx, d, w) ||
	    !infer_attr_dtype(ctx, "out_dtype", d->u.tensor.dtype, &out_dt))
		return NULL;
	return infer_result(ctx, out_dt, 4, dims, d, NULL);
}

/* One spatial extent of a transposed convolution:
 * (in - 1) * stride - pad_before - pad_after + dilation * (kernel - 1)
 * + output_padding + 1. */
bool infer_transpose_extent(OpTypeContext *ctx, const char *which, int64_t in, int64_t pad_a,
			    int64_t pad_b, int64_t kernel, int64_t dilation, int64_t stride,
			    int64_t out_pad, int64_t *out)
{
	int64_t v, span;
	if (!dim_known(in) || !dim_known(kernel)) {
		*out = DIM_ANY;
		return true;
	}
	if (!checked_mul(in - 1, stride, &v) || !checked_sub(v, pad_a, &v) ||
	    !checked_sub(v, pad_b, &v) || !checked_mul(dilation, kernel - 1, &span) ||
	    !checked_add(v, span, &v) || !checked_add(v, out_pad, &v) || !checked_add(v, 1, &v)) {
		infer_op_error(ctx, "'%s' output %s overflows", infer_op_name(ctx), which);
		return false;
	}
	if (v < 0) {
		infer_op_error(ctx, "'%s' output %s would be %lld", infer_op_name(ctx), which,
			       (long long)v);
		return false;
	}
	*out = v;
	return true;
}

/* nn.conv2d_transpose: data NCHW, weight (in_channels, out_channels /
 * groups, kh, kw) as TVM lays it out (IOHW; older TVM printed that shape as
 * kernel_layout="OIHW", which is read as IOHW too), or their permutations. */
Type *infer_op_CONV2D_TRANSPOSE(OpTypeContext *ctx)
{
	Type *d, *w;
	int64_t strides[2], dilation[2], out_pad[2], pad[4], groups, dims[4], c, o, kh, kw;
	int pd[4], pw[4], po[4];
	const char *kl;
	DType out_dt;
	if (!conv_operands(ctx, "NCHW and IOHW", &d, &w) ||
	    !layout_axes(ctx, "data_layout", "NCHW", nchw_axes, d, pd) ||
	    !infer_attr_string(ctx, "kernel_layout", &kl))
		return NULL;
	if (kl && strcmp(kl, "OIHW") == 0)
		memcpy(pw, nchw_axes, sizeof pw);
	else if (!layout_axes(ctx, "kernel_layout", "IOHW", nchw_axes, w, pw))
		return NULL;
	if (!layout_axes(ctx, "out_layout", "NCHW", pd, d, po) ||
	    !infer_attr_pair(ctx, "strides", 1, 1, strides, NULL) ||
	    !infer_attr_pair(ctx, "dilation", 1, 1, dilation, NULL) ||
	    !infer_attr_pair(ctx, "output_padding", 0, 0, out_pad, NULL) ||
	    !infer_attr_padding(ctx, pad) || !infer_attr_int(ctx, "groups", 1, &groups, NULL))
		return NULL;
	if (groups < 1) {
		infer_op_error(ctx, "'nn.conv2d_transpose' attribute groups=%lld must be positive",
			       (long long)groups);
		return NULL;
	}
	c = d->u.tensor.dims[pd[1]];
	kh = w->u.tensor.dims[pw[2]];
	kw = w->u.tensor.dims[pw[3]];
	if (!dim_match(c, w->u.tensor.dims[pw[0]])) {
		infer_op_error(ctx,
			       "'nn.conv2d_transpose' channel mismatch: data %s has %lld "
			       "channels, weight %s expects %lld",
			       infer_tname(ctx, d), (long long)c, infer_tname(ctx, w),
			       (long long)w->u.tensor.dims[pw[0]]);
		return NULL;
	}
	if (dim_known(c) && c % groups != 0) {
		infer_op_error(ctx,
			       "'nn.conv2d_transpose' data %s has %lld channels, not divisible "
			       "by groups=%lld",
			       infer_tname(ctx, d), (long long)c, (long long)groups);
		return NULL;
	}
	o = w->u.tensor.dims[pw[1]];
	if (dim_known(o) && !checked_mul(o, groups, &o)) {
		infer_op_error(ctx, "'nn.conv2d_transpose' output channels overflow");
		return NULL;
	}
	if (!conv_check_attrs(ctx, w, &o, kh, kw))
		return NULL;
	dims[po[0]] = d->u.tensor.dims[pd[0]];
	dims[po[1]] = o;
	if (!infer_transpose_extent(ctx, "height", d->u.tensor.dims[pd[2]], pad[0], pad[2], kh,
				    dilation[0], strides[0], out_pad[0], &dims[po[2]]) ||
	    !infer_transpose_extent(ctx, "width", d->u.tensor.dims[pd[3]], pad[1], pad[3], kw,
				    dilation[1], strides[1], out_pad[1], &dims[po[3]]))
		return NULL;
	if (!infer_same_dtype(ctx, d, w) ||
	    !infer_attr_dtype(ctx, "out_dtype", d->u.tensor.dtype, &out_dt))
		return NULL;
	return infer_result(ctx, out_dt, 4, dims, d, NULL);
}

/* The 4-D input of a pooling op and where N, C, H and W sit in it
 * (`layout`); the output is in out_layout, or the input's layout when
 * that is empty (pos_out). */
static Type *pool_input(OpTypeContext *ctx, int pos[4], int pos_out[4])
{
	Type *x = infer_tensor_arg(ctx, 0);
	if (!x)
		return NULL;
	if (x->u.tensor.ndim != 4) {
		infer_op_error(ctx, "'%s' expects 4-D NCHW data, got %s", infer_op_name(ctx),
			       infer_tname(ctx, x));
		return NULL;
	}
	if (!layout_axes(ctx, "layout", "NCHW", nchw_axes, x, pos) ||
	    !layout_axes(ctx, "out_layout", "NCHW", pos, x, pos_out))
		return NULL;
	return x;
}

static Type *infer_pool(OpTypeContext *ctx)
{
	int p[4], po[4];
	Type *x = pool_input(ctx, p, po);
	int64_t pool[2], strides[2], dilation[2], pad[4], dims[4];
	bool has_pool, ceil_mode;
	if (!x || !infer_attr_pair(ctx, "pool_size", 1, 1, pool, &has_pool) ||
	    !infer_attr_pair(ctx, "strides", 1, 1, strides, NULL) ||
	    !infer_attr_pair(ctx, "dilation", 1, 1, dilation, NULL) ||
	    !infer_attr_padding(ctx, pad) || !infer_attr_bool(ctx, "ceil_mode", false, &ceil_mode))
		return NULL;
	if (!has_pool) {
		infer_op_error(ctx, "'%s' needs a pool_size attribute", infer_op_name(ctx));
		return NULL;
	}
	dims[po[0]] = x->u.tensor.dims[p[0]];
	dims[po[1]] = x->u.tensor.dims[p[1]];
	if (!infer_window_extent(ctx, "height", x->u.tensor.dims[p[2]], pad[0], pad[2], pool[0],
				 dilation[0], strides[0], ceil_mode, &dims[po[2]]) ||
	    !infer_window_extent(ctx, "width", x->u.tensor.dims[p[3]], pad[1], pad[3], pool[1],
				 dilation[1], strides[1], ceil_mode, &dims[po[3]]))
		return NULL;
	return infer_result(ctx, x->u.tensor.dtype, 4, dims, x, NULL);
}

Type *infer_op_MAX_POOL2D(OpTypeContext *ctx)
{
	return infer_pool(ctx);
}

Type *infer_op_AVG_POOL2D(OpTypeContext *ctx)
{
	bool count_include_pad;
	if (!infer_attr_bool(ctx, "count_include_pad", false, &count_include_pad))
		return NULL;
	return infer_pool(ctx);
}

Type *infer_op_GLOBAL_AVG_POOL2D(OpTypeContext *ctx)
{
	int p[4], po[4];
	Type *x = pool_input(ctx, p, po);
	int64_t dims[4];
	if (!x)
		return NULL;
	dims[po[0]] = x->u.tensor.dims[p[0]];
	dims[po[1]] = x->u.tensor.dims[p[1]];
	dims[po[2]] = dims[po[3]] = 1;
	return infer_result(ctx, x->u.tensor.dtype, 4, dims, x, NULL);
}

/* ---- rank 1 and 3, global and adaptive poolings ---------------------------- */

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
