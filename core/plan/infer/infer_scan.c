/*
 * infer_scan.c - the type relations of the scan family: the scans cumsum
 * and cumprod, and the transforms that order or deduplicate: sort,
 * argsort, topk (a tuple or one tensor, by ret_type) and unique (a tuple)
 * (the kernels are cpu/cpu_scan.c and cuda/cuda_scan.cu).
 * They follow TVM 0.14's relations (src/relay/op/algorithm/ and
 * src/relay/op/tensor/transform.cc) and the defaults of relay's Python
 * constructors where the attrs struct leaves a dtype unset (int32).
 */
#include "infer_transforms.h"

#include <string.h>

/* The axis attribute (default -1), made non-negative for t. */
static bool sort_axis(OpTypeContext *ctx, const Type *t, int64_t *axis)
{
	return infer_attr_int(ctx, "axis", -1, axis, NULL) &&
	       infer_normalize_axis(ctx, *axis, t, axis);
}

/* sort(x, axis=-1, is_ascend=True): x's type. */
Type *infer_op_SORT(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	int64_t axis;
	bool asc;
	if (!x || !sort_axis(ctx, x, &axis) || !infer_attr_bool(ctx, "is_ascend", true, &asc))
		return NULL;
	return x;
}

/* argsort(x, axis=-1, is_ascend=True, dtype="int32"): x's shape, of dtype. */
Type *infer_op_ARGSORT(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	int64_t axis;
	bool asc;
	DType dt;
	if (!x || !sort_axis(ctx, x, &axis) || !infer_attr_bool(ctx, "is_ascend", true, &asc) ||
	    !infer_attr_dtype(ctx, "dtype", DT_INT32, &dt))
		return NULL;
	return infer_result(ctx, dt, x->u.tensor.ndim, x->u.tensor.dims, x, NULL);
}

/* topk(x, k=1, axis=-1, ret_type="both", is_ascend=False, dtype="int32"):
 * the axis cut to k (k < 1 keeps it whole); values of x's dtype, indices
 * of dtype, as a tuple for "both". */
Type *infer_op_TOPK(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *values, *indices, *pair[2];
	int64_t k, axis;
	bool asc;
	DType dt;
	const char *ret;
	DimBuf buf;
	int64_t *dims;
	if (!x || !infer_attr_int(ctx, "k", 1, &k, NULL) || !sort_axis(ctx, x, &axis) ||
	    !infer_attr_bool(ctx, "is_ascend", false, &asc) ||
	    !infer_attr_dtype(ctx, "dtype", DT_INT32, &dt) ||
	    !infer_attr_string(ctx, "ret_type", &ret))
		return NULL;
	if (ret && strcmp(ret, "both") != 0 && strcmp(ret, "values") != 0 &&
	    strcmp(ret, "indices") != 0) {
		infer_op_error(ctx,
			       "'topk' ret_type must be \"both\", \"values\" or \"indices\", got "
			       "\"%s\"",
			       ret);
		return NULL;
	}
	dims = dims_alloc(&buf, x->u.tensor.ndim);
	memcpy(dims, x->u.tensor.dims, x->u.tensor.ndim * sizeof(int64_t));
	if (k >= 1)
		dims[axis] = k;
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

/* unique(x, sorted=True, return_counts=False) of a 1-D x: (unique, indices,
 * inverse_indices, num_unique[1], counts if return_counts), int32 but the
 * first. */
Type *infer_op_UNIQUE(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *fields[5], *idx;
	bool sorted, counts;
	int64_t one = 1;
	if (!x || !infer_attr_bool(ctx, "sorted", true, &sorted) ||
	    !infer_attr_bool(ctx, "return_counts", false, &counts))
		return NULL;
	if (x->u.tensor.ndim != 1) {
		infer_op_error(ctx, "'unique' expects a 1-D tensor, got %s", infer_tname(ctx, x));
		return NULL;
	}
	idx = infer_result(ctx, DT_INT32, 1, x->u.tensor.dims, x, NULL);
	fields[0] = x;
	fields[1] = idx;
	fields[2] = idx;
	fields[3] = type_tensor(ir_data_arena(ctx->module), DT_INT32, 1, &one);
	fields[4] = idx;
	return type_tuple(ir_data_arena(ctx->module), counts ? 5 : 4, fields);
}

/* cumsum/cumprod(x, axis=None, dtype=None, exclusive=False): x's shape, or
 * the flattened length without an axis; dtype or x's. */
static Type *scan_relation(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	int64_t axis, count;
	bool has_axis, exclusive;
	DType dt;
	if (!x || !infer_attr_int(ctx, "axis", 0, &axis, &has_axis) ||
	    !infer_attr_dtype(ctx, "dtype", x->u.tensor.dtype, &dt) ||
	    !infer_attr_bool(ctx, "exclusive", false, &exclusive))
		return NULL;
	if (has_axis) {
		if (!infer_normalize_axis(ctx, axis, x, &axis))
			return NULL;
		return infer_result(ctx, dt, x->u.tensor.ndim, x->u.tensor.dims, x, NULL);
	}
	if (!type_num_elements(x, &count))
		count = DIM_ANY;
	return infer_result(ctx, dt, 1, &count, x, NULL);
}

Type *infer_op_CUMSUM(OpTypeContext *ctx)
{
	return scan_relation(ctx);
}

Type *infer_op_CUMPROD(OpTypeContext *ctx)
{
	return scan_relation(ctx);
}
