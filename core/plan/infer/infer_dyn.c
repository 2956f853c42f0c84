/*
 * infer_dyn.c - the type relations of the dyn.* transforms, whose shape
 * arguments are tensors known only at run time: dyn.reshape,
 * dyn.broadcast_to, dyn.strided_slice, dyn.tile, dyn.topk, dyn.full,
 * dyn.zeros, dyn.ones, dyn.squeeze, dyn.expand_dims, dyn.one_hot and
 * dyn.sparse_to_dense.
 *
 * As in TVM 0.14 (src/relay/op/dyn/), the rank of the result is static
 * (the length of a 1-D shape operand, which must be known) and the
 * dimensions that depend on the run-time values are `?`.
 */
#include "infer_transforms.h"

#include <string.h>

/* The static length of argument i, a 1-D integer tensor (a shape, reps,
 * axes...); false after reporting. */
static bool static_length(OpTypeContext *ctx, uint32_t i, const char *what, uint32_t *n)
{
	Type *t = infer_tensor_arg(ctx, i);
	if (!t)
		return false;
	if (t->u.tensor.ndim != 1 || !is_int_tensor(t) || !dim_known(t->u.tensor.dims[0]) ||
	    t->u.tensor.dims[0] > INFER_MAX_NDIM) {
		infer_op_error(ctx, "'%s' %s must be a 1-D integer tensor of known length, got %s",
			       infer_op_name(ctx), what, infer_tname(ctx, t));
		return false;
	}
	*n = (uint32_t)t->u.tensor.dims[0];
	return true;
}

/* dyn.reshape(x, newshape, allowzero=False): as many `?` as newshape has
 * elements. */
Type *infer_op_DYN_RESHAPE(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	uint32_t n;
	bool allowzero;
	if (!x || !infer_attr_bool(ctx, "allowzero", false, &allowzero) ||
	    !static_length(ctx, 1, "newshape", &n))
		return NULL;
	return unknown_tensor(ctx, x->u.tensor.dtype, n);
}

/* dyn.broadcast_to(x, shape): rank len(shape), x's dtype. */
Type *infer_op_DYN_BROADCAST_TO(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	uint32_t n;
	if (!x || !static_length(ctx, 1, "shape", &n))
		return NULL;
	if (n < x->u.tensor.ndim) {
		infer_op_error(ctx, "'dyn.broadcast_to' cannot broadcast %s to rank %u",
			       infer_tname(ctx, x), n);
		return NULL;
	}
	return unknown_tensor(ctx, x->u.tensor.dtype, n);
}

/* dyn.strided_slice(x, begin, end, strides, slice_mode="end", ...): the
 * first len(begin) dimensions `?`, the rest x's. */
Type *infer_op_DYN_STRIDED_SLICE(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *r;
	uint32_t nb, ne, ns;
	DimBuf buf;
	int64_t *dims;
	if (!x || !static_length(ctx, 1, "begin", &nb) || !static_length(ctx, 2, "end", &ne) ||
	    !static_length(ctx, 3, "strides", &ns))
		return NULL;
	if (nb > x->u.tensor.ndim) {
		infer_op_error(ctx, "'dyn.strided_slice' begin has %u values for %s", nb,
			       infer_tname(ctx, x));
		return NULL;
	}
	dims = dims_alloc(&buf, x->u.tensor.ndim);
	for (uint32_t i = 0; i < x->u.tensor.ndim; i++)
		dims[i] = i < nb ? DIM_ANY : x->u.tensor.dims[i];
	r = infer_result(ctx, x->u.tensor.dtype, x->u.tensor.ndim, dims, x, NULL);
	dims_release(&buf);
	return r;
}

/* dyn.tile(x, reps): rank max(ndim, len(reps)), all `?`. */
Type *infer_op_DYN_TILE(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	uint32_t n;
	if (!x || !static_length(ctx, 1, "reps", &n))
		return NULL;
	return unknown_tensor(ctx, x->u.tensor.dtype, n > x->u.tensor.ndim ? n : x->u.tensor.ndim);
}

/* dyn.topk(x, k, axis=-1, ret_type="both", is_ascend=False, dtype="int32"):
 * as topk, the axis `?`; k a scalar or a 1-element tensor. */
Type *infer_op_DYN_TOPK(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *k, *values, *indices, *pair[2];
	int64_t axis;
	bool asc;
	DType dt;
	const char *ret;
	DimBuf buf;
	int64_t *dims;
	if (!x || !(k = infer_tensor_arg(ctx, 1)) ||
	    !infer_attr_int(ctx, "axis", -1, &axis, NULL) ||
	    !infer_normalize_axis(ctx, axis, x, &axis) ||
	    !infer_attr_bool(ctx, "is_ascend", false, &asc) ||
	    !infer_attr_dtype(ctx, "dtype", DT_INT32, &dt) ||
	    !infer_attr_string(ctx, "ret_type", &ret))
		return NULL;
	if (k->u.tensor.ndim > 1 || (k->u.tensor.ndim == 1 && !dim_match(k->u.tensor.dims[0], 1))) {
		infer_op_error(ctx,
			       "'dyn.topk' k must be a scalar or a tensor of shape (1), got %s",
			       infer_tname(ctx, k));
		return NULL;
	}
	if (ret && strcmp(ret, "both") != 0 && strcmp(ret, "values") != 0 &&
	    strcmp(ret, "indices") != 0) {
		infer_op_error(ctx,
			       "'dyn.topk' ret_type must be \"both\", \"values\" or \"indices\", "
			       "got \"%s\"",
			       ret);
		return NULL;
	}
	dims = dims_alloc(&buf, x->u.tensor.ndim);
	memcpy(dims, x->u.tensor.dims, x->u.tensor.ndim * sizeof(int64_t));
	dims[axis] = DIM_ANY;
	values = infer_result(ctx, x->u.tensor.dtype, x->u.tensor.ndim, dims, x, NULL);
	indices = infer_result(ctx, dt, x->u.tensor.ndim, dims, values, NULL);
	dims_release(&buf);
	if (ret && strcmp(ret, "values") == 0)
		return values;
	if (ret && strcmp(ret, "indices") == 0)
		return indices;
	pair[0] = values;
	pair[1] = indices;
	return type_tuple(ir_data_arena(ctx->module), 2, pair);
}

/* dyn.full(fill_value, shape, dtype=None): rank len(shape), dtype or the
 * fill value's. */
Type *infer_op_DYN_FULL(OpTypeContext *ctx)
{
	Type *fill = infer_tensor_arg(ctx, 0);
	uint32_t n;
	DType dt;
	if (!fill || !infer_attr_dtype(ctx, "dtype", fill->u.tensor.dtype, &dt) ||
	    !static_length(ctx, 1, "shape", &n))
		return NULL;
	if (fill->u.tensor.ndim != 0) {
		infer_op_error(ctx, "'dyn.full' fill value must be a scalar, got %s",
			       infer_tname(ctx, fill));
		return NULL;
	}
	return unknown_tensor(ctx, dt, n);
}

/* dyn.zeros/dyn.ones(shape, dtype="float32"): rank len(shape). */
static Type *dyn_filled(OpTypeContext *ctx)
{
	uint32_t n;
	DType dt;
	if (!infer_attr_dtype(ctx, "dtype", DT_FLOAT32, &dt) || !static_length(ctx, 0, "shape", &n))
		return NULL;
	return unknown_tensor(ctx, dt, n);
}

Type *infer_op_DYN_ZEROS(OpTypeContext *ctx)
{
	return dyn_filled(ctx);
}

Type *infer_op_DYN_ONES(OpTypeContext *ctx)
{
	return dyn_filled(ctx);
}

/* dyn.squeeze(x, axes): rank ndim - len(axes), all `?`. */
Type *infer_op_DYN_SQUEEZE(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	uint32_t n;
	if (!x || !static_length(ctx, 1, "axes", &n))
		return NULL;
	if (n > x->u.tensor.ndim) {
		infer_op_error(ctx, "'dyn.squeeze' cannot squeeze %u axes of %s", n,
			       infer_tname(ctx, x));
		return NULL;
	}
	return unknown_tensor(ctx, x->u.tensor.dtype, x->u.tensor.ndim - n);
}

/* dyn.expand_dims(x, axis, num_newaxis=1): rank ndim + num_newaxis, all
 * `?`; axis a scalar. */
Type *infer_op_DYN_EXPAND_DIMS(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *axis;
	int64_t num;
	if (!x || !(axis = infer_tensor_arg(ctx, 1)) ||
	    !infer_attr_int(ctx, "num_newaxis", 1, &num, NULL))
		return NULL;
	if (axis->u.tensor.ndim != 0) {
		infer_op_error(ctx, "'dyn.expand_dims' axis must be a scalar, got %s",
			       infer_tname(ctx, axis));
		return NULL;
	}
	if (num < 0 || num > INFER_MAX_NDIM - (int64_t)x->u.tensor.ndim) {
		infer_op_error(ctx, "'dyn.expand_dims' num_newaxis=%lld must be between 0 and %lld",
			       (long long)num, (long long)(INFER_MAX_NDIM - x->u.tensor.ndim));
		return NULL;
	}
	return unknown_tensor(ctx, x->u.tensor.dtype, x->u.tensor.ndim + (uint32_t)num);
}

/* dyn.one_hot(indices, on_value, off_value, depth, axis=-1, dtype): as
 * one_hot with a run-time depth: that axis `?`. */
Type *infer_op_DYN_ONE_HOT(OpTypeContext *ctx)
{
	Type *idx = infer_tensor_arg(ctx, 0), *on, *off, *depth, *r;
	int64_t axis, nd;
	DType dt;
	DimBuf buf;
	int64_t *dims;
	uint32_t k = 0;
	if (!idx || !(on = infer_tensor_arg(ctx, 1)) || !(off = infer_tensor_arg(ctx, 2)) ||
	    !(depth = infer_tensor_arg(ctx, 3)) || !infer_attr_int(ctx, "axis", -1, &axis, NULL) ||
	    !infer_attr_dtype(ctx, "dtype", on->u.tensor.dtype, &dt))
		return NULL;
	nd = idx->u.tensor.ndim;
	if (on->u.tensor.ndim != 0 || off->u.tensor.ndim != 0 || depth->u.tensor.ndim != 0) {
		infer_op_error(ctx, "'dyn.one_hot' on_value, off_value and depth must be scalars");
		return NULL;
	}
	if (axis == -1)
		axis = nd;
	if (axis < 0 || axis > nd || nd >= INFER_MAX_NDIM) {
		infer_op_error(ctx, "'dyn.one_hot' axis %lld is out of range for %s",
			       (long long)axis, infer_tname(ctx, idx));
		return NULL;
	}
	dims = dims_alloc(&buf, (size_t)nd + 1);
	for (int64_t i = 0; i <= nd; i++)
		dims[i] = i == axis ? DIM_ANY : idx->u.tensor.dims[k++];
	r = infer_result(ctx, dt, (uint32_t)nd + 1, dims, NULL, NULL);
	dims_release(&buf);
	return r;
}

/* dyn.sparse_to_dense(indices, values, default_value, output_shape): rank
 * len(output_shape), values' dtype; indices integers of rank at most 3,
 * values of rank at most 2, default_value a scalar (TVM's checks). */
Type *infer_op_DYN_SPARSE_TO_DENSE(OpTypeContext *ctx)
{
	Type *idx = infer_tensor_arg(ctx, 0), *values, *dflt;
	uint32_t n;
	if (!idx || !(values = infer_tensor_arg(ctx, 1)) || !(dflt = infer_tensor_arg(ctx, 2)) ||
	    !static_length(ctx, 3, "output_shape", &n))
		return NULL;
	if (!is_int_tensor(idx) || idx->u.tensor.ndim > 3 || values->u.tensor.ndim > 2 ||
	    dflt->u.tensor.ndim != 0) {
		infer_op_error(ctx,
			       "'dyn.sparse_to_dense' expects integer indices of rank at most 3, "
			       "values of rank at most 2 and a scalar default, got %s, %s and %s",
			       infer_tname(ctx, idx), infer_tname(ctx, values),
			       infer_tname(ctx, dflt));
		return NULL;
	}
	return unknown_tensor(ctx, values->u.tensor.dtype, n);
}
