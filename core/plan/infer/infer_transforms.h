/*
 * infer_transforms.h - what the relations of the transforms section of
 * ops.def (infer_transform.c, infer_index.c, infer_create.c, infer_scan.c,
 * infer_arrange.c, infer_reduce.c,
 * infer_dyn.c) share beyond infer_ops.h. Small and inline, so that the
 * family needs no block of its own in infer_ops.c.
 */
#ifndef DEVPLAN_INFER_TRANSFORMS_H
#define DEVPLAN_INFER_TRANSFORMS_H

#include "infer_ops.h"

/* A tensor of an integer dtype, signed or not, as indices must be (TVM's
 * is_int() || is_uint(); bool, TVM's uint1, is left out). */
static inline bool is_int_tensor(const Type *t)
{
	return dtype_is_integer(t->u.tensor.dtype);
}

/* Whether t is a non-empty tuple of tensors. */
static inline bool is_tensor_tuple(const Type *t)
{
	if (t->kind != TYPE_TUPLE || t->u.tuple.nfields == 0)
		return false;
	for (uint32_t j = 0; j < t->u.tuple.nfields; j++)
		if (t->u.tuple.fields[j]->kind != TYPE_TENSOR)
			return false;
	return true;
}

/* A tensor of `?` dimensions, in the module arena. */
static inline Type *unknown_tensor(OpTypeContext *ctx, DType dt, uint32_t ndim)
{
	DimBuf buf;
	int64_t *dims = dims_alloc(&buf, ndim);
	Type *r;
	for (uint32_t i = 0; i < ndim; i++)
		dims[i] = DIM_ANY;
	r = type_tensor(ir_data_arena(ctx->module), dt, ndim, dims);
	dims_release(&buf);
	return r;
}

/* Whether the known dims multiply within int64 (so that an absurd shape
 * attribute is an error, as zeros and ones make it); reports otherwise. */
static inline bool dims_countable(OpTypeContext *ctx, uint32_t n, const int64_t *dims)
{
	int64_t count = 1;
	for (uint32_t i = 0; i < n; i++)
		if (dim_known(dims[i]) && !checked_mul(count, dims[i], &count)) {
			infer_op_error(ctx, "'%s' result has more elements than int64 can count",
				       infer_op_name(ctx));
			return false;
		}
	return true;
}

#endif
