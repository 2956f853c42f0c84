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

/* ---- blocked layouts: nn.contrib_conv2d_NCHWc ----------------------------- */

/* A layout such as NCHW8c: primal axes (capitals, a permutation of NCHW)
 * and at most one block of each (a factor and its lowercase letter). */
typedef struct BlockedLayout {
	uint32_t n;        /* axes */
	char letter[8];    /* the primal letter of each axis */
	int64_t factor[8]; /* 0 for a primal axis, the block size of a sub-axis */
} BlockedLayout;

static bool blocked_layout_parse(const char *s, BlockedLayout *l)
{
	l->n = 0;
	while (*s) {
		int64_t factor = 0;
		while (*s >= '0' && *s <= '9' && factor < (1 << 20))
			factor = factor * 10 + (*s++ - '0');
		if (l->n == DP_COUNT(l->letter) || !*s || (factor && (*s < 'a' || *s > 'z')) ||
		    (!factor && (*s < 'A' || *s > 'Z')))
			return false;
		l->letter[l->n] = factor ? (char)(*s - 'a' + 'A') : *s;
		l->factor[l->n++] = factor;
		s++;
	}
	for (const char *p = "NCHW"; *p; p++) {
		int primal = 0, sub = 0;
		for (uint32_t i = 0; i < l->n; i++)
			if (l->letter[i] == *p)
				l->factor[i] ? sub++ : primal++;
		if (primal != 1 || sub > 1)
			return false;
	}
	for (uint32_t i = 0; i < l->n; i++)
		if (!strchr("NCHW", l->letter[i]))
			return false;
	return true;
}

/* The axis of primal letter c (sub = false) or of its block (sub = true),
 * -1 when there is none. */
static int blocked_axis(const BlockedLayout *l, char c, bool sub)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (l->letter[i] == c && (l->factor[i] != 0) == sub)
			return (int)i;
	return -1;
}

static bool blocked_layout_attr(OpTypeContext *ctx, const char *name, const char *dflt,
				BlockedLayout *l, const char **text)
{
	if (!infer_attr_string(ctx, name, text))
		return false;
	if (!*text || !**text)
		*text = dflt;
	if (blocked_layout_parse(*text, l))
		return true;
	infer_op_error(ctx, "'%s' does not support %s=\"%s\"", infer_op_name(ctx), name, *text);
	return false;
}

/* nn.contrib_conv2d_NCHWc and nn.contrib_depthwise_conv2d_NCHWc: data in a
 * blocked layout (NCHW8c: [N, C / 8, H, W, 8]), channels and kernel_size
 * required (the weight is blocked too); the output is in out_layout (the
 * data's when empty), its channels split by its block. */
static Type *infer_conv_nchwc(OpTypeContext *ctx)
{
	Type *x, *w;
	BlockedLayout in, out;
	const char *in_text, *out_text;
	int64_t ks[2], strides[2], dilation[2], pad[4], channels, groups, nchw[4], dims[8];
	bool has_ks, has_channels;
	DType out_dt;
	if (!infer_tensor_pair(ctx, &x, &w) ||
	    !blocked_layout_attr(ctx, "data_layout", "NCHW", &in, &in_text) ||
	    !blocked_layout_attr(ctx, "out_layout", in_text, &out, &out_text) ||
	    !infer_attr_pair(ctx, "kernel_size", 0, 1, ks, &has_ks) ||
	    !infer_attr_pair(ctx, "strides", 1, 1, strides, NULL) ||
	    !infer_attr_pair(ctx, "dilation", 1, 1, dilation, NULL) ||
	    !infer_attr_padding(ctx, pad) ||
	    !infer_attr_int(ctx, "channels", 0, &channels, &has_channels) ||
	    !infer_attr_int(ctx, "groups", 1, &groups, NULL) || !infer_same_dtype(ctx, x, w) ||
	    !infer_attr_dtype(ctx, "out_dtype", x->u.tensor.dtype, &out_dt))
		return NULL;
	if (!has_ks || !has_channels || channels < 1) {
		infer_op_error(ctx, "'%s' needs kernel_size and channels attributes",
			       infer_op_name(ctx));
		return NULL;
	}
	if (x->u.tensor.ndim != in.n) {
		infer_op_error(ctx, "'%s' expects %u-D data (%s), got %s", infer_op_name(ctx), in.n,
			       in_text, infer_tname(ctx, x));
		return NULL;
	}
	for (int k = 0; k < 4; k++) {
		int p = blocked_axis(&in, "NCHW"[k], false), b = blocked_axis(&in, "NCHW"[k], true);
		nchw[k] = x->u.tensor.dims[p];
		if (b >= 0 && !dim_match(x->u.tensor.dims[b], in.factor[b])) {
			infer_op_error(ctx, "'%s' data %s does not match data_layout=\"%s\"",
				       infer_op_name(ctx), infer_tname(ctx, x), in_text);
			return NULL;
		}
		if (b >= 0 && dim_known(nchw[k]) && !checked_mul(nchw[k], in.factor[b], &nchw[k])) {
			infer_op_error(ctx, "'%s' data %s is too large", infer_op_name(ctx),
				       infer_tname(ctx, x));
			return NULL;
		}
	}
	nchw[1] = channels;
	if (!infer_window_extent(ctx, "height", nchw[2], pad[0], pad[2], ks[0], dilation[0],
				 strides[0], false, &nchw[2]) ||
	    !infer_window_extent(ctx, "width", nchw[3], pad[1], pad[3], ks[1], dilation[1],
				 strides[1], false, &nchw[3]))
		return NULL;
	for (uint32_t i = 0; i < out.n; i++) {
		int64_t v = nchw[strchr("NCHW", out.letter[i]) - "NCHW"];
		int b = blocked_axis(&out, out.letter[i], true);
		if (out.factor[i]) {
			dims[i] = out.factor[i];
			continue;
		}
		if (b >= 0 && dim_known(v)) {
			if (v % out.factor[b] != 0) {
				infer_op_error(ctx, "'%s' output %c of %lld does not split by %lld",
					       infer_op_name(ctx), out.letter[i], (long long)v,
					       (long long)out.factor[b]);
				return NULL;
			}
			v /= out.factor[b];
		}
		dims[i] = v;
	}
	return infer_result(ctx, out_dt, out.n, dims, x, NULL);
}

Type *infer_op_CONTRIB_CONV2D_NCHWC(OpTypeContext *ctx)
{
	return infer_conv_nchwc(ctx);
}

Type *infer_op_CONTRIB_DEPTHWISE_CONV2D_NCHWC(OpTypeContext *ctx)
{
	return infer_conv_nchwc(ctx);
}

/* ---- bit-serial ------------------------------------------------------------ */

/* nn.bitpack(data): pack_axis shrinks by the bits of pack_type and a new
 * axis of `bits` is inserted at bit_axis (-1: last); the result is of
 * pack_type, which must be given and be an integer dtype (TVM's topi packs
 * into uint8 or uint32 usually). */
Type *infer_op_BITPACK(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *r;
	int64_t bits, pack_axis, bit_axis, pack_bits, *dims;
	const char *name;
	DType pt;
	uint32_t nd, o = 0;
	DimBuf buf;
	if (!x || !infer_attr_int(ctx, "bits", 1, &bits, NULL) ||
	    !infer_attr_int(ctx, "pack_axis", 1, &pack_axis, NULL) ||
	    !infer_attr_int(ctx, "bit_axis", -1, &bit_axis, NULL) ||
	    !infer_attr_string(ctx, "name", &name) ||
	    !infer_attr_dtype(ctx, "pack_type", DT_BOOL, &pt))
		return NULL;
	if (pt == DT_BOOL) {
		infer_op_error(ctx, "'nn.bitpack' needs a pack_type");
		return NULL;
	}
	if (!dtype_is_integer(pt)) {
		infer_op_error(ctx,
			       "'nn.bitpack' needs an integer pack_type (such as uint8 or uint32), "
			       "not %s",
			       dtype_name(pt));
		return NULL;
	}
	nd = x->u.tensor.ndim;
	pack_bits = (int64_t)dtype_size(pt) * 8;
	if (bit_axis < 0)
		bit_axis += nd + 1;
	if (bits < 1 || pack_axis < 0 || pack_axis >= nd || bit_axis < 0 || bit_axis > nd) {
		infer_op_error(ctx,
			       "'nn.bitpack' attributes bits, pack_axis or bit_axis are out of "
			       "range for %s",
			       infer_tname(ctx, x));
		return NULL;
	}
	dims = dims_alloc(&buf, nd + 1);
	for (uint32_t i = 0; i <= nd; i++) {
		if (i == bit_axis)
			dims[o++] = bits;
		if (i == nd)
			break;
		dims[o] = x->u.tensor.dims[i];
		if (i == pack_axis && dim_known(dims[o]))
			dims[o] /= pack_bits;
		o++;
	}
	r = type_tensor(ir_data_arena(ctx->module), pt, nd + 1, dims);
	dims_release(&buf);
	return r;
}

/* nn.bitserial_conv2d(data, weight): NCHW (or NHWC) data, channels
 * required, kernel_size default [3, 3]; the output is out_dtype (the data's
 * when unset) in the data's layout. */
Type *infer_op_BITSERIAL_CONV2D(OpTypeContext *ctx)
{
	Type *x, *w;
	int pos[4];
	int64_t ks[2], strides[2], pad[4], channels, abits, wbits, dims[4];
	bool has_channels, unipolar;
	DType out_dt, pack_dt;
	if (!infer_tensor_pair(ctx, &x, &w) ||
	    !infer_layout_axes(ctx, "data_layout", "NCHW", x, pos) ||
	    !infer_attr_pair(ctx, "kernel_size", 3, 1, ks, NULL) ||
	    !infer_attr_pair(ctx, "strides", 1, 1, strides, NULL) ||
	    !infer_attr_padding(ctx, pad) ||
	    !infer_attr_int(ctx, "channels", 0, &channels, &has_channels) ||
	    !infer_attr_int(ctx, "activation_bits", 1, &abits, NULL) ||
	    !infer_attr_int(ctx, "weight_bits", 1, &wbits, NULL) ||
	    !infer_attr_bool(ctx, "unipolar", true, &unipolar) ||
	    !infer_attr_dtype(ctx, "pack_dtype", x->u.tensor.dtype, &pack_dt) ||
	    !infer_attr_dtype(ctx, "out_dtype", x->u.tensor.dtype, &out_dt))
		return NULL;
	if (!has_channels || channels < 1) {
		infer_op_error(ctx, "'nn.bitserial_conv2d' needs a channels attribute");
		return NULL;
	}
	memcpy(dims, x->u.tensor.dims, sizeof dims);
	dims[pos[1]] = channels;
	if (!infer_window_extent(ctx, "height", dims[pos[2]], pad[0], pad[2], ks[0], 1, strides[0],
				 false, &dims[pos[2]]) ||
	    !infer_window_extent(ctx, "width", dims[pos[3]], pad[1], pad[3], ks[1], 1, strides[1],
				 false, &dims[pos[3]]))
		return NULL;
	return infer_result(ctx, out_dt, 4, dims, x, NULL);
}

/* nn.bitserial_dense(data[..., K], weight) -> [..., units], units
 * required. */
Type *infer_op_BITSERIAL_DENSE(OpTypeContext *ctx)
{
	Type *x, *w, *r;
	int64_t units, dbits, wbits, *dims;
	bool has_units, unipolar;
	DType out_dt, pack_dt;
	uint32_t nd;
	DimBuf buf;
	if (!infer_tensor_pair(ctx, &x, &w) ||
	    !infer_attr_int(ctx, "units", 0, &units, &has_units) ||
	    !infer_attr_int(ctx, "data_bits", 1, &dbits, NULL) ||
	    !infer_attr_int(ctx, "weight_bits", 1, &wbits, NULL) ||
	    !infer_attr_bool(ctx, "unipolar", true, &unipolar) ||
	    !infer_attr_dtype(ctx, "pack_dtype", x->u.tensor.dtype, &pack_dt) ||
	    !infer_attr_dtype(ctx, "out_dtype", x->u.tensor.dtype, &out_dt))
		return NULL;
	nd = x->u.tensor.ndim;
	if (!has_units || units < 0 || nd == 0) {
		infer_op_error(ctx, "'nn.bitserial_dense' needs a units attribute and data of at "
				    "least one dimension");
		return NULL;
	}
	dims = dims_alloc(&buf, nd);
	memcpy(dims, x->u.tensor.dims, nd * sizeof(int64_t));
	dims[nd - 1] = units;
	r = infer_result(ctx, out_dt, nd, dims, x, NULL);
	dims_release(&buf);
	return r;
}
