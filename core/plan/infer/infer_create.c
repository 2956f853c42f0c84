/*
 * infer_create.c - the type relations of the transforms that create a
 * tensor from attributes and scalars: full, full_like, arange and
 * one_hot (zeros and ones live in infer_fill.c).
 *
 * They follow TVM 0.14's relations (src/relay/op/tensor/transform.cc).
 */
#include "infer_transforms.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool need_scalar(OpTypeContext *ctx, const Type *t, const char *what)
{
	if (t->u.tensor.ndim == 0)
		return true;
	infer_op_error(ctx, "'%s' %s must be a scalar, got %s", infer_op_name(ctx), what,
		       infer_tname(ctx, t));
	return false;
}

/* full(fill_value, shape, dtype=None): the shape, of dtype or else the
 * fill value's. */
Type *infer_op_FULL(OpTypeContext *ctx)
{
	Type *fill = infer_tensor_arg(ctx, 0), *r = NULL;
	const AttrValue *items;
	uint32_t n;
	bool present;
	DType dt;
	DimBuf buf;
	int64_t *dims;
	if (!fill || !infer_attr_list(ctx, "shape", &items, &n, &present) ||
	    !infer_attr_dtype(ctx, "dtype", fill->u.tensor.dtype, &dt) ||
	    !need_scalar(ctx, fill, "fill value"))
		return NULL;
	if (!present) {
		infer_op_error(ctx, "'full' needs a shape attribute");
		return NULL;
	}
	if (n > INFER_MAX_NDIM) {
		infer_op_error(ctx, "'full' shape has %u dimensions, more than %d", n,
			       INFER_MAX_NDIM);
		return NULL;
	}
	dims = dims_alloc(&buf, n);
	for (uint32_t i = 0; i < n; i++) {
		dims[i] = items[i].u.i;
		if (dims[i] < 0) {
			infer_op_error(ctx, "'full' shape %s has a negative dimension",
				       infer_list_text(ctx, items, n));
			goto done;
		}
	}
	if (dims_countable(ctx, n, dims))
		r = infer_result(ctx, dt, n, dims, NULL, NULL);
done:
	dims_release(&buf);
	return r;
}

/* full_like(data, fill_value): data's type; the fill value a scalar. */
Type *infer_op_FULL_LIKE(OpTypeContext *ctx)
{
	Type *data = infer_tensor_arg(ctx, 0), *fill;
	if (!data || !(fill = infer_tensor_arg(ctx, 1)) || !need_scalar(ctx, fill, "fill value"))
		return NULL;
	return data;
}

/* The value of a scalar constant of a float or integer dtype devplan
 * reads; false when it is not one. */
static bool constant_scalar(const Expr *c, double *out)
{
	const Tensor *t = &c->u.constant.tensor;
	if (t->ndim != 0 || !t->data)
		return false;
	if (t->dtype == DT_FLOAT32)
		*out = *(const float *)t->data;
	else if (t->dtype == DT_FLOAT64)
		*out = *(const double *)t->data;
	else if (t->dtype == DT_INT32)
		*out = *(const int32_t *)t->data;
	else if (t->dtype == DT_INT64)
		*out = (double)*(const int64_t *)t->data;
	else
		return false;
	return true;
}

/* A number attribute, or a constant (TVM prints arange's Expr fields as
 * meta[relay.Constant][i]): *known false when absent or None. */
static bool attr_number(OpTypeContext *ctx, const char *name, double *out, bool *known)
{
	const AttrValue *v = infer_attr_value(ctx, name);
	*known = v != NULL;
	if (!v)
		return true;
	if (v->kind == ATTR_CONSTANT) {
		const IrModule *m = ctx->module;
		if (v->u.constant >= 0 && (uint32_t)v->u.constant < m->nconstants &&
		    m->constants[v->u.constant] &&
		    constant_scalar(m->constants[v->u.constant], out))
			return true;
		infer_op_error(ctx, "'%s' attribute '%s' must be a scalar constant",
			       infer_op_name(ctx), name);
		return false;
	}
	if (v->kind == ATTR_FLOAT) {
		*out = v->u.f;
		return true;
	}
	if (v->kind == ATTR_INT) {
		*out = (double)v->u.i;
		return true;
	}
	infer_op_error(ctx, "'%s' attribute '%s' must be a number", infer_op_name(ctx), name);
	return false;
}

/* arange(start, stop, step, dtype="float32"): three scalars of the dtype;
 * ceil((stop - start) / step) elements when the start, stop and step
 * attributes hold the constants, else `?`. */
Type *infer_op_ARANGE(OpTypeContext *ctx)
{
	double start, stop, step, count;
	bool k0, k1, k2;
	DType dt;
	int64_t n;
	if (!infer_attr_dtype(ctx, "dtype", DT_FLOAT32, &dt) ||
	    !attr_number(ctx, "start", &start, &k0) || !attr_number(ctx, "stop", &stop, &k1) ||
	    !attr_number(ctx, "step", &step, &k2))
		return NULL;
	for (uint32_t i = 0; i < 3; i++) {
		Type *t = infer_tensor_arg(ctx, i);
		if (!t)
			return NULL;
		if (t->u.tensor.ndim != 0 || t->u.tensor.dtype != dt) {
			infer_op_error(ctx,
				       "'arange' expects %s scalars for start, stop and step, "
				       "got %s",
				       dtype_name(dt), infer_tname(ctx, t));
			return NULL;
		}
	}
	if (!k0 || !k1 || !k2)
		return unknown_tensor(ctx, dt, 1);
	count = step != 0 ? ceil((stop - start) / step) : 0;
	if (!(count > 0) || count > 9.2e18) {
		infer_op_error(ctx, "'arange' has an invalid start, stop and step: %g, %g, %g",
			       start, stop, step);
		return NULL;
	}
	n = (int64_t)count;
	return type_tensor(ir_data_arena(ctx->module), dt, 1, &n);
}

/* one_hot(indices, on_value, off_value, depth=1, axis=-1, dtype): a new
 * axis of `depth` at axis (-1: last); the dtype, which TVM's frontends
 * always give, defaults to on_value's. */
Type *infer_op_ONE_HOT(OpTypeContext *ctx)
{
	Type *idx = infer_tensor_arg(ctx, 0), *on, *off, *r;
	int64_t depth, axis, nd;
	DType dt;
	DimBuf buf;
	int64_t *dims;
	uint32_t k = 0;
	if (!idx || !(on = infer_tensor_arg(ctx, 1)) || !(off = infer_tensor_arg(ctx, 2)) ||
	    !infer_attr_int(ctx, "depth", 1, &depth, NULL) ||
	    !infer_attr_int(ctx, "axis", -1, &axis, NULL) ||
	    !infer_attr_dtype(ctx, "dtype", on->u.tensor.dtype, &dt))
		return NULL;
	nd = idx->u.tensor.ndim;
	if (on->u.tensor.ndim != 0 || off->u.tensor.ndim != 0) {
		infer_op_error(ctx,
			       "'one_hot' on_value and off_value must be scalars, got %s and %s",
			       infer_tname(ctx, on), infer_tname(ctx, off));
		return NULL;
	}
	if (depth <= 0) {
		infer_op_error(ctx, "'one_hot' depth %lld must be positive", (long long)depth);
		return NULL;
	}
	if (axis == -1)
		axis = nd;
	if (axis < 0 || axis > nd || nd >= INFER_MAX_NDIM) {
		infer_op_error(ctx, "'one_hot' axis %lld is out of range for %s", (long long)axis,
			       infer_tname(ctx, idx));
		return NULL;
	}
	dims = dims_alloc(&buf, (size_t)nd + 1);
	for (int64_t i = 0; i <= nd; i++)
		dims[i] = i == axis ? depth : idx->u.tensor.dims[k++];
	r = infer_result(ctx, dt, (uint32_t)nd + 1, dims, NULL, NULL);
	dims_release(&buf);
	return r;
}
