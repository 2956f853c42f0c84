/*
 * infer_reduce.c - the type relations of the reductions sum, mean and max
 * (TVM's axis, keepdims and exclude).
 */
#include "infer_ops.h"

#include <stdlib.h>
#include <string.h>

/* sum/mean/max: axis absent or None reduces every axis (TVM ignores
 * exclude then); otherwise the listed axes, or all others with exclude. */
static Type *infer_reduce(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *r;
	const AttrValue *items;
	uint32_t n, ndim, nout = 0;
	bool present, keepdims, exclude;
	uint8_t *reduce;
	DimBuf buf;
	int64_t *dims;
	if (!x || !infer_attr_list(ctx, "axis", &items, &n, &present) ||
	    !infer_attr_bool(ctx, "keepdims", false, &keepdims) ||
	    !infer_attr_bool(ctx, "exclude", false, &exclude))
		return NULL;
	ndim = x->u.tensor.ndim;
	reduce = xcalloc(ndim ? ndim : 1, 1);
	if (!present) {
		memset(reduce, 1, ndim);
	} else {
		for (uint32_t i = 0; i < n; i++) {
			int64_t axis;
			if (!infer_normalize_axis(ctx, items[i].u.i, x, &axis)) {
				free(reduce);
				return NULL;
			}
			if (reduce[axis]) {
				infer_op_error(ctx, "'%s' axis=%s names axis %lld twice",
					       infer_op_name(ctx), infer_list_text(ctx, items, n),
					       (long long)axis);
				free(reduce);
				return NULL;
			}
			reduce[axis] = 1;
		}
		if (exclude)
			for (uint32_t i = 0; i < ndim; i++)
				reduce[i] = !reduce[i];
	}
	dims = dims_alloc(&buf, ndim);
	for (uint32_t i = 0; i < ndim; i++) {
		if (!reduce[i])
			dims[nout++] = x->u.tensor.dims[i];
		else if (keepdims)
			dims[nout++] = 1;
	}
	r = infer_result(ctx, x->u.tensor.dtype, nout, dims, x, NULL);
	dims_release(&buf);
	free(reduce);
	return r;
}

Type *infer_op_SUM(OpTypeContext *ctx)
{
	return infer_reduce(ctx);
}

Type *infer_op_MEAN(OpTypeContext *ctx)
{
	return infer_reduce(ctx);
}

Type *infer_op_MAX(OpTypeContext *ctx)
{
	return infer_reduce(ctx);
}
