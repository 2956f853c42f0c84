/*
 * infer_reduce.c - the type relations of the reductions (TVM's axis,
 * keepdims and exclude): sum, mean, max, min and prod keep the dtype, all
 * and any reduce bool, argmax and argmin give int32 indices, and variance
 * reduces its data around a mean of the same rank; collapse_sum_like and
 * collapse_sum_to sum x down to a shape that broadcasts to it.
 *
 * An empty axis list reduces every axis, as TVM's GetReduceAxes (and the
 * kernels of sum, mean and max) do.
 */
#include "infer_transforms.h"

#include <stdlib.h>
#include <string.h>

/* x reduced as the call's axis, keepdims and exclude say, of dtype dt: axis
 * absent, None or [] reduces every axis (TVM ignores exclude then); otherwise
 * the listed axes, or all others with exclude. */
static Type *reduce_type(OpTypeContext *ctx, Type *x, DType dt)
{
	Type *r;
	const AttrValue *items;
	uint32_t n, ndim, nout = 0;
	bool present, keepdims, exclude;
	uint8_t *reduce;
	DimBuf buf;
	int64_t *dims;
	if (!infer_attr_list(ctx, "axis", &items, &n, &present) ||
	    !infer_attr_bool(ctx, "keepdims", false, &keepdims) ||
	    !infer_attr_bool(ctx, "exclude", false, &exclude))
		return NULL;
	ndim = x->u.tensor.ndim;
	reduce = xcalloc(ndim ? ndim : 1, 1);
	if (!present || n == 0) {
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
	r = infer_result(ctx, dt, nout, dims, x, NULL);
	dims_release(&buf);
	free(reduce);
	return r;
}

/* sum, mean, max, min, prod: TVM's ReduceRel, x's dtype. */
static Type *infer_reduce(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	return x ? reduce_type(ctx, x, x->u.tensor.dtype) : NULL;
}

/* all, any: a reduction of bool (TVM's tir reducers all and any want it). */
static Type *infer_reduce_bool(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	if (!x)
		return NULL;
	if (x->u.tensor.dtype != DT_BOOL) {
		infer_op_error(ctx, "'%s' expects a bool tensor, got %s", infer_op_name(ctx),
			       infer_tname(ctx, x));
		return NULL;
	}
	return reduce_type(ctx, x, DT_BOOL);
}

/* A tensor of rank 1 or more (argmax, argmin and variance check it, as
 * TVM's relations do). */
static bool has_rank(OpTypeContext *ctx, const Type *x)
{
	if (x->u.tensor.ndim > 0)
		return true;
	infer_op_error(ctx, "'%s' expects a tensor of rank 1 or more, got %s", infer_op_name(ctx),
		       infer_tname(ctx, x));
	return false;
}

/* argmax, argmin: TVM's GenericReduceRel with ArgReduceAttrs; the indices
 * have the dtype of the shape's dimensions, int32 in modules TVM prints.
 * select_last_index only chooses among equal elements. */
static Type *infer_arg_reduce(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	bool last;
	if (!x || !has_rank(ctx, x) || !infer_attr_bool(ctx, "select_last_index", false, &last))
		return NULL;
	return reduce_type(ctx, x, DT_INT32);
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

Type *infer_op_MIN(OpTypeContext *ctx)
{
	return infer_reduce(ctx);
}

Type *infer_op_PROD(OpTypeContext *ctx)
{
	return infer_reduce(ctx);
}

Type *infer_op_ALL(OpTypeContext *ctx)
{
	return infer_reduce_bool(ctx);
}

Type *infer_op_ANY(OpTypeContext *ctx)
{
	return infer_reduce_bool(ctx);
}

Type *infer_op_ARGMAX(OpTypeContext *ctx)
{
	return infer_arg_reduce(ctx);
}

Type *infer_op_ARGMIN(OpTypeContext *ctx)
{
	return infer_arg_reduce(ctx);
}

/* variance(data, mean): TVM's VarianceRel. mean (data's mean over the same
 * axes, usually with keepdims) has data's rank; the result is data reduced,
 * of data's dtype. unbiased only changes the divisor. */
Type *infer_op_VARIANCE(OpTypeContext *ctx)
{
	Type *x, *mean;
	bool unbiased;
	if (!infer_tensor_pair(ctx, &x, &mean) || !has_rank(ctx, x) ||
	    !infer_same_dtype(ctx, x, mean) || !infer_attr_bool(ctx, "unbiased", false, &unbiased))
		return NULL;
	if (mean->u.tensor.ndim != x->u.tensor.ndim) {
		infer_op_error(ctx, "'variance' mean %s does not have the rank of %s",
			       infer_tname(ctx, mean), infer_tname(ctx, x));
		return NULL;
	}
	return reduce_type(ctx, x, x->u.tensor.dtype);
}

/* collapse_sum_like(x, like): like's type, of x's dtype, which must
 * broadcast to x (x is summed down to it). */
Type *infer_op_COLLAPSE_SUM_LIKE(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *like;
	if (!x || !(like = infer_tensor_arg(ctx, 1)) || !infer_same_dtype(ctx, x, like))
		return NULL;
	if (!infer_broadcasts_to(like, x->u.tensor.ndim, x->u.tensor.dims)) {
		infer_op_error(ctx, "'collapse_sum_like' cannot collapse %s to %s",
			       infer_tname(ctx, x), infer_tname(ctx, like));
		return NULL;
	}
	return like;
}

/* collapse_sum_to(x, shape_tensor, shape=None): the shape attribute (TVM
 * records it when the shape operand is a constant), else as many `?` as
 * shape_tensor has elements; x's dtype; it must broadcast to x. */
Type *infer_op_COLLAPSE_SUM_TO(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *shape, *r = NULL;
	const AttrValue *items;
	uint32_t n;
	bool present;
	DimBuf buf;
	int64_t *dims;
	if (!x || !(shape = infer_tensor_arg(ctx, 1)) ||
	    !infer_attr_list(ctx, "shape", &items, &n, &present))
		return NULL;
	if (shape->u.tensor.ndim != 1 || !is_int_tensor(shape) ||
	    (!present && !dim_known(shape->u.tensor.dims[0]))) {
		infer_op_error(ctx,
			       "'collapse_sum_to' expects a 1-D integer shape of known length, "
			       "got %s",
			       infer_tname(ctx, shape));
		return NULL;
	}
	if (!present && shape->u.tensor.dims[0] > INFER_MAX_NDIM) {
		infer_op_error(ctx, "'collapse_sum_to' shape has more than %d dimensions",
			       INFER_MAX_NDIM);
		return NULL;
	}
	if (!present)
		n = (uint32_t)shape->u.tensor.dims[0];
	else if (dim_known(shape->u.tensor.dims[0]) && shape->u.tensor.dims[0] != n) {
		infer_op_error(ctx, "'collapse_sum_to' shape %s does not match the operand %s",
			       infer_list_text(ctx, items, n), infer_tname(ctx, shape));
		return NULL;
	}
	dims = dims_alloc(&buf, n);
	if (!present)
		for (uint32_t i = 0; i < n; i++)
			dims[i] = DIM_ANY;
	else if (!infer_shape_attr_dims(ctx, items, n, dims))
		goto done;
	r = infer_result(ctx, x->u.tensor.dtype, n, dims, x, NULL);
	if (!infer_broadcasts_to(r, x->u.tensor.ndim, x->u.tensor.dims)) {
		infer_op_error(ctx, "'collapse_sum_to' cannot collapse %s to %s",
			       infer_tname(ctx, x), infer_tname(ctx, r));
		r = NULL;
	}
done:
	dims_release(&buf);
	return r;
}
