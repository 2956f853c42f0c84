/*
 * infer_transform.c - the type relations of the operators that move data
 * without computing: reshape (with TVM's special values), transpose,
 * concatenate, split, expand_dims, squeeze and nn.batch_flatten, and the
 * two annotations on_device and device_copy, whose type is their operand's.
 */
#include "infer_ops.h"

#include <stdlib.h>
#include <string.h>

/*
 * reshape(x, newshape): TVM's special values. 0 copies the next input
 * dimension (a literal 0 with allowzero), -1 is inferred from the element
 * count, -2 copies all remaining dimensions, -3 merges the next two, and
 * -4 splits the next one into the two values that follow it (one may be -1).
 */
static Type *reshape_relation(OpTypeContext *ctx, bool reverse)
{
	Type *x = infer_tensor_arg(ctx, 0), *r = NULL;
	const AttrValue *items;
	uint32_t n, ndim, src = 0, nout = 0;
	int64_t infer_at = -1, product = 1, total = 0;
	bool present, allowzero, unknown = false, total_known;
	const int64_t *xd;
	DimBuf buf;
	int64_t *out;
	const char *shape_text;
	int64_t *reversed_dims = NULL;
	AttrValue *reversed_items = NULL;
	if (!x || !infer_attr_list(ctx, "newshape", &items, &n, &present) ||
	    !infer_attr_bool(ctx, "allowzero", false, &allowzero))
		return NULL;
	if (!present) {
		infer_op_error(ctx, "'%s' needs a newshape attribute", infer_op_name(ctx));
		return NULL;
	}
	ndim = x->u.tensor.ndim;
	xd = x->u.tensor.dims;
	shape_text = NULL;
	out = dims_alloc(&buf, (size_t)n + ndim + 1);
	if (reverse) {
		/* contrib_reverse_reshape: the same rules from the right */
		int64_t *rx = xmalloc((ndim + 1) * sizeof(int64_t));
		AttrValue *ri = xmalloc((n + 1) * sizeof(AttrValue));
		for (uint32_t i = 0; i < ndim; i++)
			rx[i] = xd[ndim - 1 - i];
		for (uint32_t i = 0; i < n; i++)
			ri[i] = items[n - 1 - i];
		shape_text = infer_list_text(ctx, items, n);
		reversed_dims = rx;
		reversed_items = ri;
		xd = rx;
		items = ri;
	}
#define RESHAPE_FAIL(fmt, ...)                                                     \
	do {                                                                       \
		infer_op_error(ctx, "'%s' " fmt, infer_op_name(ctx), __VA_ARGS__); \
		goto done;                                                         \
	} while (0)
#define SHAPE_TEXT() (shape_text ? shape_text : (shape_text = infer_list_text(ctx, items, n)))
	for (uint32_t i = 0; i < n; i++) {
		int64_t v = items[i].u.i;
		if (v > 0) {
			out[nout++] = v;
			src++;
		} else if (v == 0) {
			if (allowzero) {
				out[nout++] = 0;
			} else {
				if (src >= ndim)
					RESHAPE_FAIL("newshape %s copies dimension %u of %s, "
						     "which has only %u",
						     SHAPE_TEXT(), src, infer_tname(ctx, x), ndim);
				out[nout++] = xd[src];
			}
			src++;
		} else if (v == -1) {
			if (infer_at >= 0)
				RESHAPE_FAIL("newshape %s has more than one -1", SHAPE_TEXT());
			infer_at = nout;
			out[nout++] = DIM_ANY;
			src++;
		} else if (v == -2) {
			while (src < ndim)
				out[nout++] = xd[src++];
		} else if (v == -3) {
			if (src + 1 >= ndim)
				RESHAPE_FAIL("newshape %s merges dimensions past the end "
					     "of %s",
					     SHAPE_TEXT(), infer_tname(ctx, x));
			if (!dim_known(xd[src]) || !dim_known(xd[src + 1]))
				out[nout] = DIM_ANY;
			else if (!checked_mul(xd[src], xd[src + 1], &out[nout]))
				RESHAPE_FAIL("merged dimension of %s overflows",
					     infer_tname(ctx, x));
			nout++;
			src += 2;
		} else if (v == -4) {
			int64_t d, d1, d2, prod;
			if (i + 2 >= n)
				RESHAPE_FAIL("newshape %s: -4 must be followed by two "
					     "values",
					     SHAPE_TEXT());
			if (src >= ndim)
				RESHAPE_FAIL("newshape %s splits a dimension past the end "
					     "of %s",
					     SHAPE_TEXT(), infer_tname(ctx, x));
			d = xd[src++];
			d1 = items[i + 1].u.i;
			d2 = items[i + 2].u.i;
			i += 2;
			if (d1 < -1 || d2 < -1 || d1 == 0 || d2 == 0 || (d1 == -1 && d2 == -1))
				RESHAPE_FAIL("newshape %s has an invalid split %lld, %lld",
					     SHAPE_TEXT(), (long long)d1, (long long)d2);
			if (!dim_known(d)) {
				out[nout++] = d1 == -1 ? DIM_ANY : d1;
				out[nout++] = d2 == -1 ? DIM_ANY : d2;
				continue;
			}
			if (d1 == -1)
				d1 = d % d2 == 0 ? d / d2 : -1;
			if (d2 == -1)
				d2 = d % d1 == 0 ? d / d1 : -1;
			if (d1 < 0 || d2 < 0 || !checked_mul(d1, d2, &prod) || prod != d)
				RESHAPE_FAIL("newshape %s cannot split dimension %lld of %s",
					     SHAPE_TEXT(), (long long)d, infer_tname(ctx, x));
			out[nout++] = d1;
			out[nout++] = d2;
		} else {
			RESHAPE_FAIL("newshape %s has invalid value %lld", SHAPE_TEXT(),
				     (long long)v);
		}
	}
	for (uint32_t i = 0; i < nout; i++) {
		if ((int64_t)i == infer_at)
			continue;
		if (!dim_known(out[i]))
			unknown = true;
		else if (!checked_mul(product, out[i], &product))
			RESHAPE_FAIL("newshape %s has more elements than int64 can count",
				     SHAPE_TEXT());
	}
	total_known = type_num_elements(x, &total);
	if (infer_at >= 0) {
		if (unknown || !total_known) {
			out[infer_at] = DIM_ANY;
		} else if (product == 0 || total % product != 0) {
			RESHAPE_FAIL("cannot reshape %s (%lld elements) to newshape %s",
				     infer_tname(ctx, x), (long long)total, SHAPE_TEXT());
		} else {
			out[infer_at] = total / product;
		}
	} else if (!unknown && total_known && product != total) {
		RESHAPE_FAIL("cannot reshape %s (%lld elements) to newshape %s (%lld "
			     "elements)",
			     infer_tname(ctx, x), (long long)total, SHAPE_TEXT(),
			     (long long)product);
	}
	if (nout > INFER_MAX_NDIM)
		RESHAPE_FAIL("result has %u dimensions, more than %d", nout, INFER_MAX_NDIM);
	if (reverse)
		for (uint32_t i = 0; i < nout / 2; i++) {
			int64_t d = out[i];
			out[i] = out[nout - 1 - i];
			out[nout - 1 - i] = d;
		}
	r = infer_result(ctx, x->u.tensor.dtype, nout, out, x, NULL);
done:
#undef RESHAPE_FAIL
#undef SHAPE_TEXT
	free(reversed_dims);
	free(reversed_items);
	dims_release(&buf);
	return r;
}

Type *infer_op_RESHAPE(OpTypeContext *ctx)
{
	return reshape_relation(ctx, false);
}

/* contrib_reverse_reshape(x, newshape): reshape's special values applied
 * from the right (x's dims and newshape reversed, the result reversed
 * back), as TVM's InferNewShape with reverse. */
Type *infer_op_CONTRIB_REVERSE_RESHAPE(OpTypeContext *ctx)
{
	return reshape_relation(ctx, true);
}

/* transpose(x, axes): a permutation of the axes; absent or [] reverses. */
Type *infer_op_TRANSPOSE(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *r = NULL;
	const AttrValue *items;
	uint32_t n, ndim;
	bool present;
	uint8_t *used;
	DimBuf buf;
	int64_t *dims;
	if (!x || !infer_attr_list(ctx, "axes", &items, &n, &present))
		return NULL;
	ndim = x->u.tensor.ndim;
	dims = dims_alloc(&buf, ndim);
	if (!present || n == 0) {
		for (uint32_t i = 0; i < ndim; i++)
			dims[i] = x->u.tensor.dims[ndim - 1 - i];
		r = infer_result(ctx, x->u.tensor.dtype, ndim, dims, x, NULL);
		dims_release(&buf);
		return r;
	}
	if (n != ndim) {
		infer_op_error(ctx, "'transpose' axes=%s do not match the %u dimensions of %s",
			       infer_list_text(ctx, items, n), ndim, infer_tname(ctx, x));
		dims_release(&buf);
		return NULL;
	}
	used = xcalloc(ndim, 1);
	for (uint32_t i = 0; i < n; i++) {
		int64_t axis;
		if (!infer_normalize_axis(ctx, items[i].u.i, x, &axis))
			goto done;
		if (used[axis]) {
			infer_op_error(ctx, "'transpose' axes=%s is not a permutation",
				       infer_list_text(ctx, items, n));
			goto done;
		}
		used[axis] = 1;
		dims[i] = x->u.tensor.dims[axis];
	}
	r = infer_result(ctx, x->u.tensor.dtype, ndim, dims, x, NULL);
done:
	free(used);
	dims_release(&buf);
	return r;
}

/* concatenate((t0, t1, ...), axis): equal ranks and dtypes, equal dims off
 * the axis, summed along it. */
Type *infer_op_CONCATENATE(OpTypeContext *ctx)
{
	Type *t = ctx->arg_types[0], *first, *r;
	int64_t axis;
	uint32_t ndim, nf;
	DimBuf buf;
	int64_t *dims;
	if (t->kind != TYPE_TUPLE || t->u.tuple.nfields == 0)
		goto not_tensors;
	for (uint32_t j = 0; j < t->u.tuple.nfields; j++)
		if (t->u.tuple.fields[j]->kind != TYPE_TENSOR)
			goto not_tensors;
	nf = t->u.tuple.nfields;
	first = t->u.tuple.fields[0];
	ndim = first->u.tensor.ndim;
	if (!infer_attr_int(ctx, "axis", 0, &axis, NULL) ||
	    !infer_normalize_axis(ctx, axis, first, &axis))
		return NULL;
	if (nf == 1)
		return first;
	dims = dims_alloc(&buf, ndim);
	memcpy(dims, first->u.tensor.dims, ndim * sizeof(int64_t));
	for (uint32_t j = 1; j < nf; j++) {
		const Type *f = t->u.tuple.fields[j];
		if (f->u.tensor.ndim != ndim || f->u.tensor.dtype != first->u.tensor.dtype) {
			infer_op_error(ctx,
				       "'concatenate' fields 0 and %u differ in rank or dtype: "
				       "%s and %s",
				       j, infer_tname(ctx, first), infer_tname(ctx, f));
			goto fail;
		}
		for (uint32_t i = 0; i < ndim; i++) {
			int64_t d = f->u.tensor.dims[i];
			if ((int64_t)i == axis) {
				if (!dim_known(dims[i]) || !dim_known(d))
					dims[i] = DIM_ANY;
				else if (!checked_add(dims[i], d, &dims[i])) {
					infer_op_error(ctx,
						       "'concatenate' result along axis %lld "
						       "overflows",
						       (long long)axis);
					goto fail;
				}
			} else if (!dim_match(dims[i], d)) {
				infer_op_error(ctx,
					       "'concatenate' fields 0 and %u differ outside "
					       "axis %lld: %s and %s",
					       j, (long long)axis, infer_tname(ctx, first),
					       infer_tname(ctx, f));
				goto fail;
			} else if (!dim_known(dims[i])) {
				dims[i] = d;
			}
		}
	}
	r = infer_result(ctx, first->u.tensor.dtype, ndim, dims, first, NULL);
	dims_release(&buf);
	return r;
fail:
	dims_release(&buf);
	return NULL;
not_tensors:
	infer_op_error(ctx, "'concatenate' expects a non-empty tuple of tensors, got %s",
		       infer_tname(ctx, t));
	return NULL;
}

/* nn.batch_flatten(x[N, ...]) -> [N, prod(...)] */
Type *infer_op_BATCH_FLATTEN(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	int64_t dims[2], rest = 1;
	if (!x)
		return NULL;
	if (x->u.tensor.ndim == 0) {
		infer_op_error(ctx, "'nn.batch_flatten' expects at least one dimension, got %s",
			       infer_tname(ctx, x));
		return NULL;
	}
	/* a zero dimension makes the product 0 whatever else is unknown */
	for (uint32_t i = 1; i < x->u.tensor.ndim && rest != 0; i++)
		if (x->u.tensor.dims[i] == 0)
			rest = 0;
	for (uint32_t i = 1; i < x->u.tensor.ndim && rest != 0; i++) {
		int64_t d = x->u.tensor.dims[i];
		if (!dim_known(d) || !dim_known(rest))
			rest = DIM_ANY;
		else if (!checked_mul(rest, d, &rest)) {
			infer_op_error(ctx,
				       "'nn.batch_flatten' of %s has more elements than int64 "
				       "can count",
				       infer_tname(ctx, x));
			return NULL;
		}
	}
	dims[0] = x->u.tensor.dims[0];
	dims[1] = rest;
	return infer_result(ctx, x->u.tensor.dtype, 2, dims, x, NULL);
}

/* expand_dims(x, axis, num_newaxis=1): axis in [-ndim-1, ndim]. */
Type *infer_op_EXPAND_DIMS(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *r;
	int64_t axis, num, ndim;
	bool has_axis;
	DimBuf buf;
	int64_t *dims;
	uint32_t k = 0;
	if (!x || !infer_attr_int(ctx, "axis", 0, &axis, &has_axis) ||
	    !infer_attr_int(ctx, "num_newaxis", 1, &num, NULL))
		return NULL;
	ndim = x->u.tensor.ndim;
	if (!has_axis) {
		infer_op_error(ctx, "'expand_dims' needs an axis attribute");
		return NULL;
	}
	if (axis < -ndim - 1 || axis > ndim) {
		infer_op_error(ctx, "'expand_dims' axis %lld is out of range for %s",
			       (long long)axis, infer_tname(ctx, x));
		return NULL;
	}
	if (num < 0 || num > INFER_MAX_NDIM - ndim) {
		infer_op_error(ctx, "'expand_dims' num_newaxis=%lld must be between 0 and %lld",
			       (long long)num, (long long)(INFER_MAX_NDIM - ndim));
		return NULL;
	}
	if (axis < 0)
		axis += ndim + 1;
	if (num == 0)
		return x;
	dims = dims_alloc(&buf, (size_t)(ndim + num));
	for (int64_t i = 0; i < ndim; i++) {
		if (i == axis)
			for (int64_t j = 0; j < num; j++)
				dims[k++] = 1;
		dims[k++] = x->u.tensor.dims[i];
	}
	if (axis == ndim)
		for (int64_t j = 0; j < num; j++)
			dims[k++] = 1;
	r = infer_result(ctx, x->u.tensor.dtype, k, dims, x, NULL);
	dims_release(&buf);
	return r;
}

/* squeeze(x, axis): the listed axes, each of size 1, or every axis of size 1
 * when absent. */
Type *infer_op_SQUEEZE(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *r = NULL;
	const AttrValue *items;
	uint32_t n, ndim, k = 0;
	bool present;
	uint8_t *drop;
	DimBuf buf;
	int64_t *dims;
	if (!x || !infer_attr_list(ctx, "axis", &items, &n, &present))
		return NULL;
	ndim = x->u.tensor.ndim;
	drop = xcalloc(ndim ? ndim : 1, 1);
	dims = dims_alloc(&buf, ndim);
	if (!present) {
		for (uint32_t i = 0; i < ndim; i++)
			drop[i] = x->u.tensor.dims[i] == 1;
	} else {
		for (uint32_t i = 0; i < n; i++) {
			int64_t axis;
			if (!infer_normalize_axis(ctx, items[i].u.i, x, &axis))
				goto done;
			if (dim_known(x->u.tensor.dims[axis]) && x->u.tensor.dims[axis] != 1) {
				infer_op_error(ctx,
					       "'squeeze' cannot squeeze axis %lld of %s: its size "
					       "is %lld",
					       (long long)axis, infer_tname(ctx, x),
					       (long long)x->u.tensor.dims[axis]);
				goto done;
			}
			drop[axis] = 1;
		}
	}
	for (uint32_t i = 0; i < ndim; i++)
		if (!drop[i])
			dims[k++] = x->u.tensor.dims[i];
	r = infer_result(ctx, x->u.tensor.dtype, k, dims, x, NULL);
done:
	dims_release(&buf);
	free(drop);
	return r;
}

/* split(x, indices_or_sections, axis): N equal sections, or cuts at the
 * listed indices; a tuple of the pieces. */
Type *infer_op_SPLIT(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *r = NULL;
	const AttrValue *v;
	int64_t axis, d;
	uint32_t ndim, nfields;
	Type **fields = NULL;
	DimBuf buf;
	int64_t *dims;
	if (!x || !infer_attr_int(ctx, "axis", 0, &axis, NULL) ||
	    !infer_normalize_axis(ctx, axis, x, &axis))
		return NULL;
	v = infer_attr_value(ctx, "indices_or_sections");
	if (!v) {
		infer_op_error(ctx, "'split' needs an indices_or_sections attribute");
		return NULL;
	}
	ndim = x->u.tensor.ndim;
	d = x->u.tensor.dims[axis];
	dims = dims_alloc(&buf, ndim);
	memcpy(dims, x->u.tensor.dims, ndim * sizeof(int64_t));
	if (v->kind == ATTR_INT) {
		int64_t sections = v->u.i;
		Type *field;
		if (sections < 1 || sections > INFER_MAX_FIELDS) {
			infer_op_error(ctx, "'split' needs between 1 and %d sections, got %lld",
				       INFER_MAX_FIELDS, (long long)sections);
			goto done;
		}
		if (dim_known(d) && d % sections != 0) {
			infer_op_error(ctx,
				       "'split' cannot divide axis %lld of %s into %lld equal "
				       "sections",
				       (long long)axis, infer_tname(ctx, x), (long long)sections);
			goto done;
		}
		dims[axis] = dim_known(d) ? d / sections : DIM_ANY;
		field = infer_result(ctx, x->u.tensor.dtype, ndim, dims, x, NULL);
		nfields = (uint32_t)sections;
		fields = xmalloc(nfields * sizeof(Type *));
		for (uint32_t i = 0; i < nfields; i++)
			fields[i] = field;
	} else if (v->kind == ATTR_LIST) {
		uint32_t n = v->u.list.n;
		int64_t begin = 0;
		const AttrValue *items = v->u.list.items;
		if (n >= INFER_MAX_FIELDS) {
			infer_op_error(ctx, "'split' into more than %d pieces", INFER_MAX_FIELDS);
			goto done;
		}
		for (uint32_t i = 0; i < n; i++)
			if (items[i].kind != ATTR_INT) {
				infer_op_error(ctx,
					       "'split' attribute 'indices_or_sections' must be "
					       "an integer or a list of integers");
				goto done;
			}
		nfields = n + 1;
		fields = xmalloc(nfields * sizeof(Type *));
		for (uint32_t i = 0; i <= n; i++) {
			int64_t end = i < n ? items[i].u.i : d;
			if (i < n && (end < begin || (dim_known(d) && end > d))) {
				infer_op_error(ctx,
					       "'split' indices %s are not increasing within "
					       "axis %lld of %s",
					       infer_list_text(ctx, items, n), (long long)axis,
					       infer_tname(ctx, x));
				goto done;
			}
			dims[axis] = dim_known(end) ? end - begin : DIM_ANY;
			fields[i] =
				i > 0 && tensor_is(fields[i - 1], x->u.tensor.dtype, ndim, dims)
					? fields[i - 1]
					: infer_result(ctx, x->u.tensor.dtype, ndim, dims, x, NULL);
			begin = end;
		}
	} else {
		infer_op_error(ctx, "'split' attribute 'indices_or_sections' must be an integer or "
				    "a list of integers");
		goto done;
	}
	r = type_tuple(ir_data_arena(ctx->module), nfields, fields);
done:
	free(fields);
	dims_release(&buf);
	return r;
}

/* The annotations are not computations: any value, its own type. */
Type *infer_op_ON_DEVICE(OpTypeContext *ctx)
{
	return ctx->arg_types[0];
}

Type *infer_op_DEVICE_COPY(OpTypeContext *ctx)
{
	return ctx->arg_types[0];
}
