/*
 * infer_nn_misc.c - the type relations of the rest of nn.*, planned
 * without kernels: the losses (nn.cross_entropy,
 * nn.cross_entropy_with_logits, nn.nll_loss), nn.fifo_buffer, the gradients (nn.max_pool2d_grad,
 * nn.avg_pool2d_grad, nn.conv2d_backward_weight), nn.correlation,
 * nn.deformable_conv2d and nn.contrib_dense_pack, after TVM 0.14's
 * src/relay/op/nn/.
 */
#include "infer_ops.h"

/* ---- padding and dilation ------------------------------------------------- */

/* ---- losses ------------------------------------------------------------------ */

/* nn.cross_entropy(x[N, K], y[N, K]) -> a scalar of x's dtype; so does
 * nn.cross_entropy_with_logits. */
static Type *infer_cross_entropy(OpTypeContext *ctx)
{
	Type *x, *y;
	if (!infer_tensor_pair(ctx, &x, &y))
		return NULL;
	if (x->u.tensor.ndim != 2 || y->u.tensor.ndim != 2 ||
	    !dim_match(x->u.tensor.dims[0], y->u.tensor.dims[0]) ||
	    !dim_match(x->u.tensor.dims[1], y->u.tensor.dims[1])) {
		infer_op_error(ctx,
			       "'%s' expects predictions and targets of one 2-D shape, got %s and "
			       "%s",
			       infer_op_name(ctx), infer_tname(ctx, x), infer_tname(ctx, y));
		return NULL;
	}
	return type_scalar(ir_data_arena(ctx->module), x->u.tensor.dtype);
}

Type *infer_op_CROSS_ENTROPY(OpTypeContext *ctx)
{
	return infer_cross_entropy(ctx);
}

Type *infer_op_CROSS_ENTROPY_WITH_LOGITS(OpTypeContext *ctx)
{
	return infer_cross_entropy(ctx);
}

/* nn.nll_loss(predictions[N, C, ...], targets[N, ...], weights[C]): targets'
 * shape with reduction "none", else a scalar, of the predictions' dtype. */
Type *infer_op_NLL_LOSS(OpTypeContext *ctx)
{
	static const char *const reductions[] = {"mean", "sum", "none", NULL};
	Type *p = infer_tensor_arg(ctx, 0), *t, *w;
	const char *reduction;
	int64_t ignore;
	if (!p || !(t = infer_tensor_arg(ctx, 1)) || !(w = infer_tensor_arg(ctx, 2)) ||
	    !infer_attr_choice(ctx, "reduction", "mean", reductions, &reduction) ||
	    !infer_attr_int(ctx, "ignore_index", -100, &ignore, NULL))
		return NULL;
	if (p->u.tensor.ndim < 2 || p->u.tensor.ndim != t->u.tensor.ndim + 1) {
		infer_op_error(ctx,
			       "'nn.nll_loss' expects predictions one dimension larger than "
			       "targets, got %s and %s",
			       infer_tname(ctx, p), infer_tname(ctx, t));
		return NULL;
	}
	if (w->u.tensor.ndim != 1 || !dim_match(w->u.tensor.dims[0], p->u.tensor.dims[1])) {
		infer_op_error(ctx,
			       "'nn.nll_loss' expects weights as long as the classes of %s, got %s",
			       infer_tname(ctx, p), infer_tname(ctx, w));
		return NULL;
	}
	if (!dtype_is_float(p->u.tensor.dtype) || p->u.tensor.dtype != w->u.tensor.dtype) {
		infer_op_error(
			ctx,
			"'nn.nll_loss' expects predictions and weights of one floating-point "
			"dtype, got %s and %s",
			infer_tname(ctx, p), infer_tname(ctx, w));
		return NULL;
	}
	if (!dtype_is_integer(t->u.tensor.dtype)) {
		infer_op_error(ctx, "'nn.nll_loss' expects integer targets, got %s",
			       infer_tname(ctx, t));
		return NULL;
	}
	if (strcmp(reduction, "none") == 0)
		return infer_result(ctx, p->u.tensor.dtype, t->u.tensor.ndim, t->u.tensor.dims,
				    NULL, NULL);
	return type_scalar(ir_data_arena(ctx->module), p->u.tensor.dtype);
}

/* ---- buffers and blocks ------------------------------------------------------ */

/* nn.fifo_buffer(input, buffer): the buffer's type; both of one rank,
 * equal but along axis, where the input is shorter. */
Type *infer_op_FIFO_BUFFER(OpTypeContext *ctx)
{
	Type *in, *buf;
	int64_t axis;
	if (!infer_tensor_pair(ctx, &in, &buf) || !infer_attr_int(ctx, "axis", 0, &axis, NULL) ||
	    !infer_normalize_axis(ctx, axis, buf, &axis))
		return NULL;
	if (in->u.tensor.ndim != buf->u.tensor.ndim)
		goto bad;
	for (uint32_t i = 0; i < in->u.tensor.ndim; i++) {
		int64_t a = in->u.tensor.dims[i], b = buf->u.tensor.dims[i];
		if ((int64_t)i == axis ? (dim_known(a) && dim_known(b) && a >= b)
				       : !dim_match(a, b))
			goto bad;
	}
	if (!infer_same_dtype(ctx, in, buf))
		return NULL;
	return buf;
bad:
	infer_op_error(ctx,
		       "'nn.fifo_buffer' expects an input like the buffer but shorter along axis "
		       "%lld, got %s and %s",
		       (long long)axis, infer_tname(ctx, in), infer_tname(ctx, buf));
	return NULL;
}

/* ---- gradients --------------------------------------------------------------- */

/* nn.max_pool2d_grad and nn.avg_pool2d_grad(out_grad, data): data's type,
 * with the pooling's attributes checked. */
static Type *infer_pool_grad(OpTypeContext *ctx)
{
	Type *g, *x;
	int pos[4];
	int64_t pool[2], strides[2], dilation[2], pad[4];
	bool ceil_mode;
	if (!infer_tensor_pair(ctx, &g, &x) || !infer_layout_axes(ctx, "layout", "NCHW", x, pos) ||
	    !infer_attr_pair(ctx, "pool_size", 1, 1, pool, NULL) ||
	    !infer_attr_pair(ctx, "strides", 1, 1, strides, NULL) ||
	    !infer_attr_pair(ctx, "dilation", 1, 1, dilation, NULL) ||
	    !infer_attr_padding(ctx, pad) ||
	    !infer_attr_bool(ctx, "ceil_mode", false, &ceil_mode) || !infer_same_dtype(ctx, g, x))
		return NULL;
	if (g->u.tensor.ndim != 4) {
		infer_op_error(ctx, "'%s' expects a 4-D output gradient, got %s",
			       infer_op_name(ctx), infer_tname(ctx, g));
		return NULL;
	}
	return x;
}

Type *infer_op_MAX_POOL2D_GRAD(OpTypeContext *ctx)
{
	return infer_pool_grad(ctx);
}

Type *infer_op_AVG_POOL2D_GRAD(OpTypeContext *ctx)
{
	bool count_include_pad;
	if (!infer_attr_bool(ctx, "count_include_pad", false, &count_include_pad))
		return NULL;
	return infer_pool_grad(ctx);
}

/* nn.conv2d_backward_weight(grad[N, O, H', W'], data[N, C, H, W]) ->
 * weight[O, C / groups, kh, kw] with kernel_size required; a depthwise
 * convolution (O = C = groups) takes I from channels / groups. As TVM's
 * frontend prints it, data_layout is the gradient's layout, kernel_layout
 * the data's (OIHW, the default, read as NCHW) and out_layout the
 * weight's, each a permutation of NCHW (OIHW). */
Type *infer_op_CONV2D_BACKWARD_WEIGHT(OpTypeContext *ctx)
{
	Type *g, *x;
	int64_t ks[2], strides[2], dilation[2], pad[4], groups, channels, dims[4], o, c;
	int pg[4], px[4], pw[4];
	const char *data_layout, *weight_layout;
	bool has_ks, has_channels;
	DType out_dt;
	if (!infer_tensor_pair(ctx, &g, &x))
		return NULL;
	if (g->u.tensor.ndim != 4 || x->u.tensor.ndim != 4) {
		infer_op_error(ctx,
			       "'nn.conv2d_backward_weight' expects a 4-D gradient and 4-D data, "
			       "got %s and %s",
			       infer_tname(ctx, g), infer_tname(ctx, x));
		return NULL;
	}
	if (!infer_layout_axes(ctx, "data_layout", "NCHW", g, pg) ||
	    !infer_attr_string(ctx, "kernel_layout", &data_layout) ||
	    !infer_attr_string(ctx, "out_layout", &weight_layout))
		return NULL;
	if (data_layout && strcmp(data_layout, "OIHW") == 0)
		memcpy(px, (const int[4]){0, 1, 2, 3}, sizeof px);
	else if (!infer_layout_axes(ctx, "kernel_layout", "NCHW", x, px))
		return NULL;
	if (!weight_layout || !*weight_layout)
		memcpy(pw, (const int[4]){0, 1, 2, 3}, sizeof pw);
	else if (!infer_layout_axes(ctx, "out_layout", "OIHW", x, pw))
		return NULL;
	if (!infer_attr_pair(ctx, "kernel_size", 0, 1, ks, &has_ks) ||
	    !infer_attr_pair(ctx, "strides", 1, 1, strides, NULL) ||
	    !infer_attr_pair(ctx, "dilation", 1, 1, dilation, NULL) ||
	    !infer_attr_padding(ctx, pad) || !infer_attr_int(ctx, "groups", 1, &groups, NULL) ||
	    !infer_attr_int(ctx, "channels", 0, &channels, &has_channels) ||
	    !infer_attr_dtype(ctx, "out_dtype", g->u.tensor.dtype, &out_dt))
		return NULL;
	if (!has_ks) {
		infer_op_error(ctx, "'nn.conv2d_backward_weight' needs a kernel_size attribute");
		return NULL;
	}
	if (groups < 1) {
		infer_op_error(ctx,
			       "'nn.conv2d_backward_weight' attribute groups=%lld must be positive",
			       (long long)groups);
		return NULL;
	}
	o = g->u.tensor.dims[pg[1]];
	c = x->u.tensor.dims[px[1]];
	if (dim_known(c) && c == o && c == groups) {
		if (!has_channels) {
			infer_op_error(ctx,
				       "'nn.conv2d_backward_weight' needs a channels attribute "
				       "for a depthwise convolution");
			return NULL;
		}
		c = channels;
	}
	dims[pw[0]] = o;
	dims[pw[1]] = dim_known(c) ? c / groups : DIM_ANY;
	dims[pw[2]] = ks[0];
	dims[pw[3]] = ks[1];
	return type_tensor(ir_data_arena(ctx->module), out_dt, 4, dims);
}

/* ---- correlation and deformable convolution ---------------------------------- */

/* nn.correlation(data1, data2 NCHW) -> [N, D * D, H', W'] with
 * D = 2 * (max_displacement / stride2) + 1 and
 * H' = ceil((H + pad - 2 * (max_displacement + (kernel_size - 1) / 2))
 * / stride1). */
Type *infer_op_CORRELATION(OpTypeContext *ctx)
{
	Type *a, *b;
	int64_t k, disp, s1, s2, pad[4], dims[4], border, radius, size;
	bool multiply;
	if (!infer_tensor_pair(ctx, &a, &b) || !infer_attr_int(ctx, "kernel_size", 1, &k, NULL) ||
	    !infer_attr_int(ctx, "max_displacement", 1, &disp, NULL) ||
	    !infer_attr_int(ctx, "stride1", 1, &s1, NULL) ||
	    !infer_attr_int(ctx, "stride2", 1, &s2, NULL) || !infer_attr_padding(ctx, pad) ||
	    !infer_attr_bool(ctx, "is_multiply", true, &multiply) ||
	    !infer_attr_layout(ctx, "layout", "NCHW", NULL) || !infer_same_dtype(ctx, a, b))
		return NULL;
	if (a->u.tensor.ndim != 4 || b->u.tensor.ndim != 4) {
		infer_op_error(ctx, "'nn.correlation' expects 4-D NCHW data, got %s and %s",
			       infer_tname(ctx, a), infer_tname(ctx, b));
		return NULL;
	}
	if (k < 1 || k % 2 == 0 || disp < 0 || s1 < 1 || s2 < 1 || disp > (1 << 20) ||
	    k > (1 << 20)) {
		infer_op_error(ctx, "'nn.correlation' needs an odd kernel_size, a non-negative "
				    "max_displacement and positive strides");
		return NULL;
	}
	border = disp + (k - 1) / 2;
	radius = disp / s2;
	size = 2 * radius + 1;
	dims[0] = a->u.tensor.dims[0];
	dims[1] = size * size;
	for (int i = 0; i < 2; i++) {
		int64_t d = (i == 0 ? a : b)->u.tensor.dims[2 + i], v;
		if (!dim_known(d)) {
			dims[2 + i] = DIM_ANY;
			continue;
		}
		if (!checked_add(d, pad[i], &v) || !checked_add(v, pad[i + 2], &v) ||
		    v - 2 * border < 1) {
			infer_op_error(ctx, "'nn.correlation' input %s is smaller than its border",
				       infer_tname(ctx, a));
			return NULL;
		}
		v -= 2 * border;
		dims[2 + i] = (v - 1) / s1 + 1;
	}
	return infer_result(ctx, a->u.tensor.dtype, 4, dims, a, NULL);
}

/* nn.deformable_conv2d(data NCHW, offset, weight OIHW) -> as nn.conv2d;
 * offset is [N, 2 * kh * kw * deformable_groups, H', W']. The layouts may
 * permute those letters (NHWC, HWIO), the offset in the data's and the
 * output in out_layout, or the data's when that is empty. */
Type *infer_op_DEFORMABLE_CONV2D(OpTypeContext *ctx)
{
	Type *d = infer_tensor_arg(ctx, 0), *off, *w;
	int64_t strides[2], dilation[2], pad[4], groups, dgroups, channels, nchw[4], dims[4], c, o,
		want, kh, kw;
	int pd[4], pw[4], po[4];
	const char *out_layout;
	bool has_channels;
	DType out_dt;
	if (!d || !(off = infer_tensor_arg(ctx, 1)) || !(w = infer_tensor_arg(ctx, 2)))
		return NULL;
	if (d->u.tensor.ndim != 4 || w->u.tensor.ndim != 4 || off->u.tensor.ndim != 4) {
		infer_op_error(ctx,
			       "'nn.deformable_conv2d' expects 4-D data, offset and weight (NCHW "
			       "and OIHW), got %s, %s and %s",
			       infer_tname(ctx, d), infer_tname(ctx, off), infer_tname(ctx, w));
		return NULL;
	}
	if (!infer_layout_axes(ctx, "data_layout", "NCHW", d, pd) ||
	    !infer_layout_axes(ctx, "kernel_layout", "OIHW", w, pw) ||
	    !infer_attr_string(ctx, "out_layout", &out_layout))
		return NULL;
	if (!out_layout || !*out_layout)
		memcpy(po, pd, sizeof po);
	else if (!infer_layout_axes(ctx, "out_layout", "NCHW", d, po))
		return NULL;
	if (!infer_attr_pair(ctx, "strides", 1, 1, strides, NULL) ||
	    !infer_attr_pair(ctx, "dilation", 1, 1, dilation, NULL) ||
	    !infer_attr_padding(ctx, pad) || !infer_attr_int(ctx, "groups", 1, &groups, NULL) ||
	    !infer_attr_int(ctx, "deformable_groups", 1, &dgroups, NULL) ||
	    !infer_attr_int(ctx, "channels", 0, &channels, &has_channels) ||
	    !infer_same_dtype(ctx, d, w) ||
	    !infer_attr_dtype(ctx, "out_dtype", d->u.tensor.dtype, &out_dt))
		return NULL;
	if (groups < 1 || dgroups < 1) {
		infer_op_error(ctx, "'nn.deformable_conv2d' groups and deformable_groups must be "
				    "positive");
		return NULL;
	}
	c = d->u.tensor.dims[pd[1]];
	o = w->u.tensor.dims[pw[0]];
	kh = w->u.tensor.dims[pw[2]];
	kw = w->u.tensor.dims[pw[3]];
	if (dim_known(c) && dim_known(w->u.tensor.dims[pw[1]]) &&
	    (c % groups != 0 || w->u.tensor.dims[pw[1]] != c / groups)) {
		infer_op_error(ctx,
			       "'nn.deformable_conv2d' channel mismatch: data %s, weight %s "
			       "(groups=%lld)",
			       infer_tname(ctx, d), infer_tname(ctx, w), (long long)groups);
		return NULL;
	}
	if (has_channels) {
		if (!dim_match(channels, o)) {
			infer_op_error(ctx,
				       "'nn.deformable_conv2d' attribute channels=%lld does not "
				       "match weight %s",
				       (long long)channels, infer_tname(ctx, w));
			return NULL;
		}
		o = channels;
	}
	/* the output in NCHW order first */
	nchw[0] = d->u.tensor.dims[pd[0]];
	nchw[1] = o;
	if (!infer_window_extent(ctx, "height", d->u.tensor.dims[pd[2]], pad[0], pad[2], kh,
				 dilation[0], strides[0], false, &nchw[2]) ||
	    !infer_window_extent(ctx, "width", d->u.tensor.dims[pd[3]], pad[1], pad[3], kw,
				 dilation[1], strides[1], false, &nchw[3]))
		return NULL;
	want = DIM_ANY;
	if (dim_known(kh) && dim_known(kw) &&
	    (!checked_mul(2, kh, &want) || !checked_mul(want, kw, &want) ||
	     !checked_mul(want, dgroups, &want)))
		want = DIM_ANY;
	/* the offsets in the data's layout */
	if (!dim_match(off->u.tensor.dims[pd[0]], nchw[0]) ||
	    !dim_match(off->u.tensor.dims[pd[1]], want) ||
	    !dim_match(off->u.tensor.dims[pd[2]], nchw[2]) ||
	    !dim_match(off->u.tensor.dims[pd[3]], nchw[3])) {
		int64_t shown[4];
		shown[pd[0]] = nchw[0];
		shown[pd[1]] = want;
		shown[pd[2]] = nchw[2];
		shown[pd[3]] = nchw[3];
		infer_op_error(ctx,
			       "'nn.deformable_conv2d' expects offsets of shape (%s, %s, %s, %s), "
			       "got %s",
			       infer_dim_text(ctx, shown[0]), infer_dim_text(ctx, shown[1]),
			       infer_dim_text(ctx, shown[2]), infer_dim_text(ctx, shown[3]),
			       infer_tname(ctx, off));
		return NULL;
	}
	for (int k = 0; k < 4; k++)
		dims[po[k]] = nchw[k];
	return infer_result(ctx, out_dt, 4, dims, d, NULL);
}

/* ---- packed dense ------------------------------------------------------------ */

/* nn.contrib_dense_pack(data[M, K], weight[N / n, K, n]) -> [M, N]. */
Type *infer_op_CONTRIB_DENSE_PACK(OpTypeContext *ctx)
{
	Type *d, *w;
	int64_t units, dims[2];
	bool has_units;
	const char *layout;
	DType out_dt;
	if (!infer_tensor_pair(ctx, &d, &w) ||
	    !infer_attr_int(ctx, "units", 0, &units, &has_units) ||
	    !infer_attr_string(ctx, "weight_layout", &layout) ||
	    !infer_attr_dtype(ctx, "out_dtype", d->u.tensor.dtype, &out_dt))
		return NULL;
	if (d->u.tensor.ndim != 2 || (w->u.tensor.ndim != 3 && w->u.tensor.ndim != 4) ||
	    !dim_match(w->u.tensor.dims[1], d->u.tensor.dims[1])) {
		infer_op_error(ctx,
			       "'nn.contrib_dense_pack' expects data [M, K] and packed weight "
			       "[N / n, K, n], got %s and %s",
			       infer_tname(ctx, d), infer_tname(ctx, w));
		return NULL;
	}
	dims[0] = d->u.tensor.dims[0];
	dims[1] = DIM_ANY;
	if (dim_known(w->u.tensor.dims[0]) && dim_known(w->u.tensor.dims[2]) &&
	    !checked_mul(w->u.tensor.dims[0], w->u.tensor.dims[2], &dims[1])) {
		infer_op_error(ctx, "'nn.contrib_dense_pack' output overflows");
		return NULL;
	}
	if (has_units && !dim_match(units, dims[1])) {
		infer_op_error(ctx,
			       "'nn.contrib_dense_pack' attribute units=%lld does not match "
			       "weight %s",
			       (long long)units, infer_tname(ctx, w));
		return NULL;
	}
	return infer_result(ctx, out_dt, 2, dims, d, NULL);
}

/* ---- sparse ------------------------------------------------------------------ */

/* The sparse matrix of a sparse op in CSR (data 1-D) or BSR (data 3-D
 * blocks [nnz, bs_r, bs_c]) form: arguments first..first+2 as data,
 * indices and indptr. *rows is the matrix's row count:
 * (len(indptr) - 1) times the block rows. */
static Type *sparse_matrix(OpTypeContext *ctx, uint32_t first, bool blocks_2d, int64_t *rows)
{
	Type *data = infer_tensor_arg(ctx, first), *indices, *indptr;
	uint32_t nd;
	int64_t n;
	if (!data || !(indices = infer_tensor_arg(ctx, first + 1)) ||
	    !(indptr = infer_tensor_arg(ctx, first + 2)))
		return NULL;
	nd = data->u.tensor.ndim;
	if (!(nd == 1 || nd == 3 || (blocks_2d && nd == 2)) || indices->u.tensor.ndim != 1 ||
	    indptr->u.tensor.ndim != 1) {
		infer_op_error(ctx,
			       "'%s' expects a sparse matrix as 1-D%s or 3-D data with 1-D indices "
			       "and index pointers, got %s, %s and %s",
			       infer_op_name(ctx), blocks_2d ? ", 2-D" : "", infer_tname(ctx, data),
			       infer_tname(ctx, indices), infer_tname(ctx, indptr));
		return NULL;
	}
	n = indptr->u.tensor.dims[0];
	if (dim_known(n) && n < 1) {
		infer_op_error(ctx, "'%s' expects a non-empty index pointer, got %s",
			       infer_op_name(ctx), infer_tname(ctx, indptr));
		return NULL;
	}
	*rows = dim_known(n) ? n - 1 : DIM_ANY;
	if (nd > 1 && (!dim_known(*rows) || !dim_known(data->u.tensor.dims[1]) ||
		       !checked_mul(*rows, data->u.tensor.dims[1], rows)))
		*rows = DIM_ANY;
	return data;
}

/* nn.sparse_dense(dense, sparse data, indices, indptr): dense [M, K] times
 * the sparse [N, K] transposed gives [M, N]; with sparse_lhs the sparse
 * [M, K] times the dense [N, K] transposed gives [M, N]. */
static Type *infer_sparse_dense(OpTypeContext *ctx)
{
	Type *dense = infer_tensor_arg(ctx, 0), *sparse;
	bool lhs;
	int64_t rows, dims[2];
	if (!dense || !infer_attr_bool(ctx, "sparse_lhs", false, &lhs) ||
	    !(sparse = sparse_matrix(ctx, 1, false, &rows)))
		return NULL;
	if (dense->u.tensor.ndim != 2) {
		infer_op_error(ctx, "'%s' expects 2-D dense data, got %s", infer_op_name(ctx),
			       infer_tname(ctx, dense));
		return NULL;
	}
	dims[0] = lhs ? rows : dense->u.tensor.dims[0];
	dims[1] = lhs ? dense->u.tensor.dims[0] : rows;
	return infer_result(ctx, dense->u.tensor.dtype, 2, dims, dense, NULL);
}

Type *infer_op_SPARSE_DENSE(OpTypeContext *ctx)
{
	return infer_sparse_dense(ctx);
}

Type *infer_op_INTERNAL_SPARSE_DENSE_PADDED(OpTypeContext *ctx)
{
	return infer_sparse_dense(ctx);
}

/* nn.sparse_transpose(data, indices, indptr) -> the three types, as a
 * square CSR matrix keeps its shape. */
Type *infer_op_SPARSE_TRANSPOSE(OpTypeContext *ctx)
{
	Type *fields[3];
	int64_t rows;
	if (!sparse_matrix(ctx, 0, false, &rows))
		return NULL;
	if (ctx->arg_types[0]->u.tensor.ndim != 1) {
		infer_op_error(ctx, "'nn.sparse_transpose' expects CSR data (1-D), got %s",
			       infer_tname(ctx, ctx->arg_types[0]));
		return NULL;
	}
	for (int i = 0; i < 3; i++)
		fields[i] = ctx->arg_types[i];
	return type_tuple(ir_data_arena(ctx->module), 3, fields);
}

/* nn.sparse_add(dense, data, indices, indptr): the dense operand's type;
 * the sparse values share its dtype. */
Type *infer_op_SPARSE_ADD(OpTypeContext *ctx)
{
	Type *dense = infer_tensor_arg(ctx, 0), *data;
	int64_t rows;
	if (!dense || !(data = sparse_matrix(ctx, 1, false, &rows)) ||
	    !infer_same_dtype(ctx, dense, data))
		return NULL;
	if (dense->u.tensor.ndim != 2 || data->u.tensor.ndim != 1 ||
	    !dim_match(dense->u.tensor.dims[0], rows)) {
		infer_op_error(ctx,
			       "'nn.sparse_add' expects a 2-D dense operand and a CSR matrix of "
			       "its rows, got %s and %s",
			       infer_tname(ctx, dense), infer_tname(ctx, data));
		return NULL;
	}
	return dense;
}

/* nn.sparse_conv2d(data, weight data, indices, indptr): a 1x1 (or 3x3)
 * convolution by a sparse weight of 2-D or 3-D blocks; the channel axis
 * (last for NHWC, the default, or second for NCHW) becomes the weight's
 * rows. */
Type *infer_op_SPARSE_CONV2D(OpTypeContext *ctx)
{
	static const char *const layouts[] = {"NHWC", "NCHW", NULL};
	Type *x = infer_tensor_arg(ctx, 0), *w;
	const char *layout;
	const AttrValue *ks;
	uint32_t nks;
	bool has_ks;
	int64_t rows, dims[4];
	if (!x || !infer_attr_choice(ctx, "layout", "NHWC", layouts, &layout) ||
	    !infer_attr_list(ctx, "kernel_size", &ks, &nks, &has_ks) ||
	    !(w = sparse_matrix(ctx, 1, true, &rows)))
		return NULL;
	if (x->u.tensor.ndim != 4 || w->u.tensor.ndim == 1) {
		infer_op_error(ctx,
			       "'nn.sparse_conv2d' expects 4-D data and block weights, got %s "
			       "and %s",
			       infer_tname(ctx, x), infer_tname(ctx, w));
		return NULL;
	}
	memcpy(dims, x->u.tensor.dims, sizeof dims);
	dims[strcmp(layout, "NHWC") == 0 ? 3 : 1] = rows;
	return infer_result(ctx, x->u.tensor.dtype, 4, dims, x, NULL);
}
