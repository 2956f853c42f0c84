/*
 * infer_index.c - the type relations of the transforms that read or write
 * a tensor at computed positions: gather, gather_nd, scatter_elements,
 * scatter_nd, adv_index, sparse_to_dense, argwhere, strided_set and the sparse
 * helpers sparse_fill_empty_rows and sparse_reshape.
 *
 * They follow TVM 0.14's relations (src/relay/op/tensor/transform.cc) with
 * its attribute defaults; an ICHECK there is a positioned error here.
 */
#include "infer_transforms.h"

#include <stdlib.h>
#include <string.h>

/* A string attribute that must be absent or one of the NULL-terminated
 * choices. */
static bool attr_choice(OpTypeContext *ctx, const char *name, const char *const *choices)
{
	const char *s;
	if (!infer_attr_string(ctx, name, &s))
		return false;
	if (!s)
		return true;
	for (const char *const *c = choices; *c; c++)
		if (strcmp(s, *c) == 0)
			return true;
	infer_op_error(ctx, "'%s' has unknown %s \"%s\"", infer_op_name(ctx), name, s);
	return false;
}

/* gather(data, indices, axis): indices of data's rank, equal off the axis;
 * the result is shaped like indices, of data's dtype. */
Type *infer_op_GATHER(OpTypeContext *ctx)
{
	Type *data = infer_tensor_arg(ctx, 0), *idx;
	int64_t axis;
	bool present;
	uint32_t ndim;
	if (!data || !(idx = infer_tensor_arg(ctx, 1)) || !infer_need_int_indices(ctx, idx) ||
	    !infer_attr_int(ctx, "axis", 0, &axis, &present))
		return NULL;
	if (!present) {
		infer_op_error(ctx, "'gather' needs an axis attribute");
		return NULL;
	}
	if (!infer_normalize_axis(ctx, axis, data, &axis))
		return NULL;
	ndim = data->u.tensor.ndim;
	if (idx->u.tensor.ndim != ndim)
		goto mismatch;
	for (uint32_t i = 0; i < ndim; i++) {
		int64_t d = idx->u.tensor.dims[i];
		if ((int64_t)i == axis ? d == 0 : !dim_match(d, data->u.tensor.dims[i]))
			goto mismatch;
	}
	return infer_result(ctx, data->u.tensor.dtype, ndim, idx->u.tensor.dims, data, NULL);
mismatch:
	infer_op_error(ctx, "'gather' indices %s do not match %s outside axis %lld",
		       infer_tname(ctx, idx), infer_tname(ctx, data), (long long)axis);
	return NULL;
}

/* gather_nd(data, indices, batch_dims=0, index_rank=None): indices
 * (M, Y...) index the first M dimensions after the batch ones; the result
 * is (Y..., data[batch_dims + M:]). */
Type *infer_op_GATHER_ND(OpTypeContext *ctx)
{
	Type *data = infer_tensor_arg(ctx, 0), *idx, *r;
	int64_t batch_dims, index_rank, m, nd, ni;
	bool has_rank;
	DimBuf buf;
	int64_t *dims;
	uint32_t k = 0;
	if (!data || !(idx = infer_tensor_arg(ctx, 1)) || !infer_need_int_indices(ctx, idx) ||
	    !infer_attr_int(ctx, "batch_dims", 0, &batch_dims, NULL) ||
	    !infer_attr_int(ctx, "index_rank", 0, &index_rank, &has_rank))
		return NULL;
	nd = data->u.tensor.ndim;
	ni = idx->u.tensor.ndim;
	if (ni == 0 || !dim_known(idx->u.tensor.dims[0])) {
		infer_op_error(ctx,
			       "'gather_nd' needs indices with a known first dimension, got %s",
			       infer_tname(ctx, idx));
		return NULL;
	}
	m = idx->u.tensor.dims[0];
	if (has_rank && index_rank != m) {
		infer_op_error(ctx, "'gather_nd' index_rank %lld differs from the indices %s",
			       (long long)index_rank, infer_tname(ctx, idx));
		return NULL;
	}
	if (batch_dims < 0 || batch_dims >= ni || m > nd - batch_dims) {
		infer_op_error(ctx, "'gather_nd' indices %s with batch_dims %lld do not fit %s",
			       infer_tname(ctx, idx), (long long)batch_dims,
			       infer_tname(ctx, data));
		return NULL;
	}
	for (int64_t i = 0; i < batch_dims; i++)
		if (!dim_match(data->u.tensor.dims[i], idx->u.tensor.dims[i + 1])) {
			infer_op_error(ctx, "'gather_nd' batch dimension %lld differs: %s and %s",
				       (long long)i, infer_tname(ctx, data), infer_tname(ctx, idx));
			return NULL;
		}
	dims = dims_alloc(&buf, (size_t)(ni - 1 + nd - m - batch_dims));
	for (int64_t i = 1; i < ni; i++)
		dims[k++] = idx->u.tensor.dims[i];
	for (int64_t i = m + batch_dims; i < nd; i++)
		dims[k++] = data->u.tensor.dims[i];
	r = infer_result(ctx, data->u.tensor.dtype, k, dims, data, NULL);
	dims_release(&buf);
	return r;
}

/* scatter_elements(data, indices, updates, axis=0, reduction="update"):
 * data's type; integer indices. */
Type *infer_op_SCATTER_ELEMENTS(OpTypeContext *ctx)
{
	static const char *const reductions[] = {"update", "add", "mul", "mean",
						 "min",    "max", NULL};
	Type *data = infer_tensor_arg(ctx, 0), *idx, *upd;
	int64_t axis;
	if (!data || !(idx = infer_tensor_arg(ctx, 1)) || !(upd = infer_tensor_arg(ctx, 2)) ||
	    !infer_need_int_indices(ctx, idx) || !infer_attr_int(ctx, "axis", 0, &axis, NULL) ||
	    !infer_normalize_axis(ctx, axis, data, &axis) ||
	    !attr_choice(ctx, "reduction", reductions))
		return NULL;
	return data;
}

/* scatter_nd(data, indices, updates, mode="update"): indices (M, Y...)
 * and updates (Y..., data[M:]); data's type. */
Type *infer_op_SCATTER_ND(OpTypeContext *ctx)
{
	static const char *const modes[] = {"update", "add", "mul", "min", "max", NULL};
	Type *data = infer_tensor_arg(ctx, 0), *idx, *upd;
	int64_t m, nd, k;
	if (!data || !(idx = infer_tensor_arg(ctx, 1)) || !(upd = infer_tensor_arg(ctx, 2)) ||
	    !infer_need_int_indices(ctx, idx) || !attr_choice(ctx, "mode", modes))
		return NULL;
	if (idx->u.tensor.ndim == 0 || !dim_known(idx->u.tensor.dims[0])) {
		infer_op_error(ctx,
			       "'scatter_nd' needs indices with a known first dimension, got %s",
			       infer_tname(ctx, idx));
		return NULL;
	}
	m = idx->u.tensor.dims[0];
	nd = data->u.tensor.ndim;
	k = idx->u.tensor.ndim - 1;
	if (m > nd || upd->u.tensor.ndim != k + nd - m)
		goto mismatch;
	for (int64_t i = 0; i < k; i++)
		if (!dim_match(idx->u.tensor.dims[i + 1], upd->u.tensor.dims[i]))
			goto mismatch;
	for (int64_t i = m; i < nd; i++)
		if (!dim_match(upd->u.tensor.dims[i - m + k], data->u.tensor.dims[i]))
			goto mismatch;
	return data;
mismatch:
	infer_op_error(ctx, "'scatter_nd' indices %s and updates %s do not fit %s",
		       infer_tname(ctx, idx), infer_tname(ctx, upd), infer_tname(ctx, data));
	return NULL;
}

/* adv_index((data, i0, i1, ...)): the index tensors broadcast together,
 * then data's dimensions past the indexed ones. */
Type *infer_op_ADV_INDEX(OpTypeContext *ctx)
{
	Type *t = ctx->arg_types[0], *data, *r = NULL;
	uint32_t nf, nd, bn = 0, k = 0;
	DimBuf buf;
	int64_t *dims;
	if (!is_tensor_tuple(t) || t->u.tuple.nfields < 2) {
		infer_op_error(ctx,
			       "'adv_index' expects a tuple of a tensor and its indices, got %s",
			       infer_tname(ctx, t));
		return NULL;
	}
	nf = t->u.tuple.nfields;
	data = t->u.tuple.fields[0];
	nd = data->u.tensor.ndim;
	if (nf - 1 > nd) {
		infer_op_error(ctx, "'adv_index' has %u indices for %s", nf - 1,
			       infer_tname(ctx, data));
		return NULL;
	}
	for (uint32_t j = 1; j < nf; j++)
		if (t->u.tuple.fields[j]->u.tensor.ndim > bn)
			bn = t->u.tuple.fields[j]->u.tensor.ndim;
	dims = dims_alloc(&buf, bn + nd - (nf - 1));
	for (uint32_t i = 0; i < bn; i++)
		dims[i] = 1;
	for (uint32_t j = 1; j < nf; j++) {
		const Type *f = t->u.tuple.fields[j];
		uint32_t fn = f->u.tensor.ndim;
		for (uint32_t i = 0; i < fn; i++) {
			int64_t *d = &dims[bn - fn + i];
			if (!infer_broadcast_dim(*d, f->u.tensor.dims[i], d)) {
				infer_op_error(ctx, "'adv_index' cannot broadcast the index %s",
					       infer_tname(ctx, f));
				goto done;
			}
		}
	}
	k = bn;
	for (uint32_t i = nf - 1; i < nd; i++)
		dims[k++] = data->u.tensor.dims[i];
	r = infer_result(ctx, data->u.tensor.dtype, k, dims, data, NULL);
done:
	dims_release(&buf);
	return r;
}

/* sparse_to_dense(indices, values, default_value, output_shape): the
 * output_shape, of values' dtype; integer indices of rank at most 3, values
 * of rank at most 2, a scalar default (TVM's checks). */
Type *infer_op_SPARSE_TO_DENSE(OpTypeContext *ctx)
{
	Type *idx = infer_tensor_arg(ctx, 0), *values, *dflt, *r = NULL;
	const AttrValue *items;
	uint32_t n;
	bool present;
	DimBuf buf;
	int64_t *dims;
	if (!idx || !(values = infer_tensor_arg(ctx, 1)) || !(dflt = infer_tensor_arg(ctx, 2)) ||
	    !infer_attr_list(ctx, "output_shape", &items, &n, &present))
		return NULL;
	if (!is_int_tensor(idx) || idx->u.tensor.ndim > 3 || values->u.tensor.ndim > 2 ||
	    dflt->u.tensor.ndim != 0) {
		infer_op_error(
			ctx,
			"'sparse_to_dense' expects integer indices of rank at most 3, values "
			"of rank at most 2 and a scalar default, got %s, %s and %s",
			infer_tname(ctx, idx), infer_tname(ctx, values), infer_tname(ctx, dflt));
		return NULL;
	}
	if (!present || n > INFER_MAX_NDIM) {
		infer_op_error(ctx, "'sparse_to_dense' needs an output_shape of at most %d values",
			       INFER_MAX_NDIM);
		return NULL;
	}
	dims = dims_alloc(&buf, n);
	for (uint32_t i = 0; i < n; i++) {
		dims[i] = items[i].u.i;
		if (dims[i] < 0) {
			infer_op_error(ctx,
				       "'sparse_to_dense' output_shape %s has a negative "
				       "dimension",
				       infer_list_text(ctx, items, n));
			goto done;
		}
	}
	if (dims_countable(ctx, n, dims))
		r = infer_result(ctx, values->u.tensor.dtype, n, dims, NULL, NULL);
done:
	dims_release(&buf);
	return r;
}

/* argwhere(x): the coordinates of the non-zero elements, (?, ndim) int32. */
Type *infer_op_ARGWHERE(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	int64_t dims[2];
	if (!x)
		return NULL;
	dims[0] = DIM_ANY;
	dims[1] = x->u.tensor.ndim;
	return type_tensor(ir_data_arena(ctx->module), DT_INT32, 2, dims);
}

/* strided_set(data, v, begin, end, strides): data's type. */
Type *infer_op_STRIDED_SET(OpTypeContext *ctx)
{
	Type *data = infer_tensor_arg(ctx, 0);
	for (uint32_t i = 1; data && i < 5; i++)
		if (!infer_tensor_arg(ctx, i))
			return NULL;
	return data;
}

/* sparse_fill_empty_rows(sparse_indices, sparse_values, dense_shape,
 * default_value): (new indices (?, ndims), new values (?), empty-row
 * indicator (?)), all int64 as TVM types them. */
Type *infer_op_SPARSE_FILL_EMPTY_ROWS(OpTypeContext *ctx)
{
	Type *idx = infer_tensor_arg(ctx, 0), *fields[3];
	int64_t dims[2];
	for (uint32_t i = 1; idx && i < 4; i++)
		if (!infer_tensor_arg(ctx, i))
			return NULL;
	if (!idx)
		return NULL;
	if (idx->u.tensor.ndim != 2) {
		infer_op_error(ctx, "'sparse_fill_empty_rows' expects 2-D sparse indices, got %s",
			       infer_tname(ctx, idx));
		return NULL;
	}
	dims[0] = DIM_ANY;
	dims[1] = idx->u.tensor.dims[1];
	fields[0] = type_tensor(ir_data_arena(ctx->module), DT_INT64, 2, dims);
	fields[1] = unknown_tensor(ctx, DT_INT64, 1);
	fields[2] = fields[1];
	return type_tuple(ir_data_arena(ctx->module), 3, fields);
}

/* sparse_reshape(sparse_indices, prev_shape, new_shape): (indices
 * (N, len(new_shape)) of their dtype, new_shape's type). */
Type *infer_op_SPARSE_RESHAPE(OpTypeContext *ctx)
{
	Type *idx = infer_tensor_arg(ctx, 0), *prev, *next, *fields[2];
	int64_t dims[2];
	if (!idx || !(prev = infer_tensor_arg(ctx, 1)) || !(next = infer_tensor_arg(ctx, 2)))
		return NULL;
	if (!is_int_tensor(idx) || !is_int_tensor(prev) || !is_int_tensor(next) ||
	    idx->u.tensor.ndim != 2 || prev->u.tensor.ndim != 1 || next->u.tensor.ndim != 1) {
		infer_op_error(ctx,
			       "'sparse_reshape' expects 2-D integer indices and 1-D integer "
			       "shapes, got %s, %s and %s",
			       infer_tname(ctx, idx), infer_tname(ctx, prev),
			       infer_tname(ctx, next));
		return NULL;
	}
	dims[0] = idx->u.tensor.dims[0];
	dims[1] = next->u.tensor.dims[0];
	fields[0] = infer_result(ctx, idx->u.tensor.dtype, 2, dims, idx, NULL);
	fields[1] = next;
	return type_tuple(ir_data_arena(ctx->module), 2, fields);
}
