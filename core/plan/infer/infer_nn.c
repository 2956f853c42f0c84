/*
 * infer_nn.c - the type relations of the matrix products (nn.dense,
 * nn.batch_matmul and nn.matmul, with their out_dtype) and of nn.softmax
 * and nn.fast_softmax.
 */
#include "infer_ops.h"

#include <string.h>

/* nn.dense(data[..., K], weight[N, K]) -> [..., N] */
Type *infer_op_DENSE(OpTypeContext *ctx)
{
	Type *d, *w, *r;
	int64_t units, k, n;
	bool has_units;
	DType out_dt;
	DimBuf buf;
	int64_t *dims;
	uint32_t nd;
	if (!infer_tensor_pair(ctx, &d, &w))
		return NULL;
	nd = d->u.tensor.ndim;
	if (nd == 0) {
		infer_op_error(ctx, "'nn.dense' expects data with at least one dimension, got %s",
			       infer_tname(ctx, d));
		return NULL;
	}
	if (!infer_attr_int(ctx, "units", 0, &units, &has_units))
		return NULL;
	k = d->u.tensor.dims[nd - 1];
	if (w->u.tensor.ndim != 2 || !dim_match(w->u.tensor.dims[1], k)) {
		infer_op_error(ctx, "'nn.dense' expects weight of shape (units, %s), got %s",
			       infer_dim_text(ctx, k), infer_tname(ctx, w));
		return NULL;
	}
	n = w->u.tensor.dims[0];
	if (has_units) {
		if (units < 0 || (dim_known(n) && n != units)) {
			infer_op_error(ctx,
				       "'nn.dense' attribute units=%lld does not match weight %s",
				       (long long)units, infer_tname(ctx, w));
			return NULL;
		}
		n = units;
	}
	if (!infer_same_dtype(ctx, d, w) ||
	    !infer_attr_dtype(ctx, "out_dtype", d->u.tensor.dtype, &out_dt))
		return NULL;
	dims = dims_alloc(&buf, nd);
	memcpy(dims, d->u.tensor.dims, nd * sizeof(int64_t));
	dims[nd - 1] = n;
	r = infer_result(ctx, out_dt, nd, dims, d, NULL);
	dims_release(&buf);
	return r;
}

/* nn.batch_matmul(x[B, M, K], y[B, K, N]) -> [B, M, N], with transpose_a
 * reading x as [B, K, M] and transpose_b y as [B, N, K], and a batch of 1
 * broadcasting. Both default to false, BatchMatmulAttrs' defaults: Python's
 * relay.nn.batch_matmul passes transpose_b=True, so TVM prints it, and text
 * without it means false. */
Type *infer_op_BATCH_MATMUL(OpTypeContext *ctx)
{
	Type *x, *y;
	bool ta, tb;
	int64_t dims[3], kx, ky;
	const int64_t *xd, *yd;
	DType out_dt;
	if (!infer_tensor_pair(ctx, &x, &y))
		return NULL;
	if (x->u.tensor.ndim != 3 || y->u.tensor.ndim != 3) {
		infer_op_error(ctx, "'nn.batch_matmul' expects 3-D operands, got %s and %s",
			       infer_tname(ctx, x), infer_tname(ctx, y));
		return NULL;
	}
	if (!infer_attr_bool(ctx, "transpose_a", false, &ta) ||
	    !infer_attr_bool(ctx, "transpose_b", false, &tb))
		return NULL;
	xd = x->u.tensor.dims;
	yd = y->u.tensor.dims;
	kx = ta ? xd[1] : xd[2];
	ky = tb ? yd[2] : yd[1];
	if (!dim_match(kx, ky)) {
		infer_op_error(ctx,
			       "'nn.batch_matmul' reduction dimensions do not match: %s and %s "
			       "(transpose_a=%s, transpose_b=%s)",
			       infer_tname(ctx, x), infer_tname(ctx, y), ta ? "True" : "False",
			       tb ? "True" : "False");
		return NULL;
	}
	if (!infer_broadcast_dim(xd[0], yd[0], &dims[0])) {
		infer_op_error(ctx,
			       "batch dimensions of 'nn.batch_matmul' do not broadcast: %s and %s",
			       infer_tname(ctx, x), infer_tname(ctx, y));
		return NULL;
	}
	dims[1] = ta ? xd[2] : xd[1];
	dims[2] = tb ? yd[1] : yd[2];
	if (!infer_same_dtype(ctx, x, y) ||
	    !infer_attr_dtype(ctx, "out_dtype", x->u.tensor.dtype, &out_dt))
		return NULL;
	return infer_result(ctx, out_dt, 3, dims, x, y);
}

Type *infer_op_SOFTMAX(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	int64_t axis;
	if (!x || !infer_attr_int(ctx, "axis", -1, &axis, NULL) ||
	    !infer_normalize_axis(ctx, axis, x, &axis))
		return NULL;
	return x;
}

Type *infer_op_FAST_SOFTMAX(OpTypeContext *ctx)
{
	return infer_op_SOFTMAX(ctx);
}

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
