/*
 * infer_transform.c - the type relations of the transform family, the
 * operators that move data without computing (their kernels are
 * cpu/cpu_transform.c and cuda/cuda_transform.cu): reshape (with TVM's
 * special values), reshape_like, contrib_reverse_reshape, transpose,
 * concatenate, split, stack, expand_dims, squeeze, nn.batch_flatten, the
 * two annotations on_device and device_copy and copy, whose type is their
 * operand's; where (a three-way broadcast) and reinterpret; the index
 * views take, strided_slice, broadcast_to(_like), tile, repeat, reverse,
 * slice_like, nn.pad, nn.mirror_pad, nn.depth_to_space and
 * nn.space_to_depth; shape_of and ndarray_size; sliding_window; and
 * layout_transform, with the small parser of TVM's layout strings it
 * needs, auto_scheduler_layout_transform and
 * meta_schedule_layout_transform.
 * Each follows TVM 0.14's relation (src/relay/op/tensor/transform.cc and
 * unary.cc) and its attribute defaults (include/tvm/relay/attrs/
 * transform.h); where TVM stops on an ICHECK, devplan reports a positioned
 * error instead. Unknown (`?`) dimensions pass every check and give `?`
 * where the result depends on them.
 *
 * A layout is a sequence of axes, each an upper-case letter (a primal axis:
 * N, C, H, W...) or a factor and a lower-case letter (a subordinate axis:
 * the `16c` of NCHW16c, an inner split of C). Each primal axis appears
 * once, a subordinate one at most once and only beside its primal. As in
 * TVM's BijectiveLayout, the two layouts must have the same primal axes;
 * each primal extent is the source's (times its subordinate factor there)
 * divided by the destination's factor, and a subordinate axis is its
 * factor. A split that does not divide is an error here (TVM's floordiv
 * would drop the remainder).
 */
#include "infer_transforms.h"

#include <stdlib.h>
#include <string.h>

/* The element count of reshape's result out (nout dimensions, the -1 at
 * infer_at still DIM_ANY) against x's: fills in the -1 from it, or reports
 * a count that differs and returns false. *shape_text caches newshape
 * (items, n) as text. */
static bool reshape_count_elements(OpTypeContext *ctx, const Type *x, int64_t *out, uint32_t nout,
				   int64_t infer_at, const AttrValue *items, uint32_t n,
				   const char **shape_text)
{
	int64_t product = 1, total = 0;
	bool unknown = false, total_known;
#define COUNT_FAIL(fmt, ...)                                                       \
	do {                                                                       \
		infer_op_error(ctx, "'%s' " fmt, infer_op_name(ctx), __VA_ARGS__); \
		return false;                                                      \
	} while (0)
#define RESHAPE_TEXT() (*shape_text ? *shape_text : (*shape_text = infer_list_text(ctx, items, n)))
	for (uint32_t i = 0; i < nout; i++) {
		if ((int64_t)i == infer_at)
			continue;
		if (!dim_known(out[i]))
			unknown = true;
		else if (!checked_mul(product, out[i], &product))
			COUNT_FAIL("newshape %s has more elements than int64 can count",
				   RESHAPE_TEXT());
	}
	total_known = type_num_elements(x, &total);
	if (infer_at >= 0) {
		if (unknown || !total_known) {
			out[infer_at] = DIM_ANY;
		} else if (product == 0 || total % product != 0) {
			COUNT_FAIL("cannot reshape %s (%lld elements) to newshape %s",
				   infer_tname(ctx, x), (long long)total, RESHAPE_TEXT());
		} else {
			out[infer_at] = total / product;
		}
	} else if (!unknown && total_known && product != total) {
		COUNT_FAIL("cannot reshape %s (%lld elements) to newshape %s (%lld "
			   "elements)",
			   infer_tname(ctx, x), (long long)total, RESHAPE_TEXT(),
			   (long long)product);
	}
#undef COUNT_FAIL
#undef RESHAPE_TEXT
	return true;
}

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
	int64_t infer_at = -1;
	bool present, allowzero;
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
	if (!reshape_count_elements(ctx, x, out, nout, infer_at, items, n, &shape_text))
		goto done;
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

/* nn.pad(data, pad_value): pad_width holds one [before, after] pair per
 * dimension of data (negative widths crop); pad_mode is constant (default),
 * edge or reflect; pad_value is a scalar. */
Type *infer_op_PAD(OpTypeContext *ctx)
{
	static const char *const modes[] = {"constant", "edge", "reflect", NULL};
	Type *x = infer_tensor_arg(ctx, 0), *v, *r;
	const AttrValue *pw = infer_attr_value(ctx, "pad_width");
	const char *mode;
	uint32_t nd;
	int64_t *dims;
	DimBuf buf;
	if (!x || !(v = infer_tensor_arg(ctx, 1)) ||
	    !infer_attr_choice(ctx, "pad_mode", "constant", modes, &mode))
		return NULL;
	if (v->u.tensor.ndim != 0) {
		infer_op_error(ctx, "'nn.pad' expects a scalar pad value, got %s",
			       infer_tname(ctx, v));
		return NULL;
	}
	nd = x->u.tensor.ndim;
	if (!pw || pw->kind != ATTR_LIST || pw->u.list.n != nd) {
		infer_op_error(ctx, "'nn.pad' needs a pad_width of %u [before, after] pairs for %s",
			       nd, infer_tname(ctx, x));
		return NULL;
	}
	dims = dims_alloc(&buf, nd);
	for (uint32_t i = 0; i < nd; i++) {
		const AttrValue *pair = &pw->u.list.items[i];
		int64_t d = x->u.tensor.dims[i], grown;
		if (pair->kind != ATTR_LIST || pair->u.list.n != 2 ||
		    pair->u.list.items[0].kind != ATTR_INT ||
		    pair->u.list.items[1].kind != ATTR_INT) {
			infer_op_error(ctx,
				       "'nn.pad' pad_width item %u must be a pair [before, after] "
				       "of integers",
				       i);
			dims_release(&buf);
			return NULL;
		}
		dims[i] = d;
		if (!dim_known(d))
			continue;
		if (!checked_add(d, pair->u.list.items[0].u.i, &grown) ||
		    !checked_add(grown, pair->u.list.items[1].u.i, &grown) || grown < 0) {
			infer_op_error(ctx, "'nn.pad' pads dimension %u of %s to an invalid extent",
				       i, infer_tname(ctx, x));
			dims_release(&buf);
			return NULL;
		}
		dims[i] = grown;
	}
	r = infer_result(ctx, x->u.tensor.dtype, nd, dims, x, NULL);
	dims_release(&buf);
	return r;
}

/* The data, block size and layout of nn.depth_to_space and
 * nn.space_to_depth; dims gets the data's shape. */
static Type *subpixel_operands(OpTypeContext *ctx, int *pos, int64_t *block, int64_t dims[4])
{
	static const char *const modes[] = {"DCR", "CDR", NULL};
	Type *x = infer_tensor_arg(ctx, 0);
	const char *mode;
	if (!x || !infer_layout_axes(ctx, "layout", "NCHW", x, pos) ||
	    !infer_attr_int(ctx, "block_size", 1, block, NULL) ||
	    !infer_attr_choice(ctx, "mode", "DCR", modes, &mode))
		return NULL;
	if (*block < 1 || *block > (1 << 20)) {
		infer_op_error(ctx, "'%s' attribute block_size=%lld must be positive",
			       infer_op_name(ctx), (long long)*block);
		return NULL;
	}
	memcpy(dims, x->u.tensor.dims, 4 * sizeof(int64_t));
	return x;
}

/* nn.depth_to_space: (N, C / b^2, H * b, W * b) in NCHW terms. */
Type *infer_op_DEPTH_TO_SPACE(OpTypeContext *ctx)
{
	int pos[4];
	int64_t b, dims[4], *c;
	Type *x = subpixel_operands(ctx, pos, &b, dims);
	if (!x)
		return NULL;
	c = &dims[pos[1]];
	if (dim_known(*c) && *c % (b * b) != 0) {
		infer_op_error(ctx,
			       "'nn.depth_to_space' data %s has %lld channels, not divisible by "
			       "block_size^2=%lld",
			       infer_tname(ctx, x), (long long)*c, (long long)(b * b));
		return NULL;
	}
	if (dim_known(*c))
		*c /= b * b;
	for (int k = 2; k < 4; k++)
		if (dim_known(dims[pos[k]]) && !checked_mul(dims[pos[k]], b, &dims[pos[k]])) {
			infer_op_error(ctx, "'nn.depth_to_space' output overflows");
			return NULL;
		}
	return infer_result(ctx, x->u.tensor.dtype, 4, dims, x, NULL);
}

/* nn.space_to_depth: (N, C * b^2, H / b, W / b) in NCHW terms, dividing
 * down as TVM does. */
Type *infer_op_SPACE_TO_DEPTH(OpTypeContext *ctx)
{
	int pos[4];
	int64_t b, dims[4];
	Type *x = subpixel_operands(ctx, pos, &b, dims);
	if (!x)
		return NULL;
	if (dim_known(dims[pos[1]]) && !checked_mul(dims[pos[1]], b * b, &dims[pos[1]])) {
		infer_op_error(ctx, "'nn.space_to_depth' output overflows");
		return NULL;
	}
	for (int k = 2; k < 4; k++)
		if (dim_known(dims[pos[k]]))
			dims[pos[k]] /= b;
	return infer_result(ctx, x->u.tensor.dtype, 4, dims, x, NULL);
}

/* nn.mirror_pad(data): pad_width one non-negative [before, after] pair per
 * dimension; mode SYMMETRIC (default) or REFLECT. */
Type *infer_op_MIRROR_PAD(OpTypeContext *ctx)
{
	static const char *const modes[] = {"SYMMETRIC", "REFLECT", NULL};
	Type *x = infer_tensor_arg(ctx, 0), *r = NULL;
	const char *mode;
	uint32_t nd;
	DimBuf before, after, out;
	int64_t *b, *a, *dims;
	if (!x || !infer_attr_choice(ctx, "mode", "SYMMETRIC", modes, &mode))
		return NULL;
	nd = x->u.tensor.ndim;
	b = dims_alloc(&before, nd);
	a = dims_alloc(&after, nd);
	dims = dims_alloc(&out, nd);
	if (!infer_attr_pairs(ctx, "pad_width", nd, b, a))
		goto done;
	for (uint32_t i = 0; i < nd; i++) {
		int64_t d = x->u.tensor.dims[i];
		if (b[i] < 0 || a[i] < 0) {
			infer_op_error(ctx,
				       "'nn.mirror_pad' pad_width item %u must not be negative", i);
			goto done;
		}
		dims[i] = d;
		if (dim_known(d) &&
		    (!checked_add(d, b[i], &dims[i]) || !checked_add(dims[i], a[i], &dims[i]))) {
			infer_op_error(ctx, "'nn.mirror_pad' output overflows");
			goto done;
		}
	}
	r = infer_result(ctx, x->u.tensor.dtype, nd, dims, x, NULL);
done:
	dims_release(&before);
	dims_release(&after);
	dims_release(&out);
	return r;
}

/* where(condition, x, y): TVM's WhereRel. x and y share a dtype and
 * broadcast together, then with the condition; the condition may be of any
 * dtype (a non-zero element selects x). */
Type *infer_op_WHERE(OpTypeContext *ctx)
{
	Type *c = infer_tensor_arg(ctx, 0), *x, *y, *xy;
	if (!c || !(x = infer_tensor_arg(ctx, 1)) || !(y = infer_tensor_arg(ctx, 2)) ||
	    !infer_same_dtype(ctx, x, y) ||
	    !(xy = infer_broadcast_types(ctx, x, y, x->u.tensor.dtype)))
		return NULL;
	return infer_broadcast_types(ctx, c, xy, xy->u.tensor.dtype);
}

/* copy: TVM's IdentityRel, any dtype. */
Type *infer_op_COPY(OpTypeContext *ctx)
{
	return infer_unary(ctx, false);
}

/* reinterpret(x, dtype): TVM's CastRel; the bits are kept, so both dtypes
 * must have one element size (tir's reinterpret checks it). */
Type *infer_op_REINTERPRET(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	const char *s;
	DType dt;
	if (!x || !infer_attr_string(ctx, "dtype", &s))
		return NULL;
	if (!s || !*s) {
		infer_op_error(ctx, "'reinterpret' needs a dtype attribute");
		return NULL;
	}
	if (!infer_attr_dtype(ctx, "dtype", x->u.tensor.dtype, &dt))
		return NULL;
	if (dtype_size(dt) != dtype_size(x->u.tensor.dtype)) {
		infer_op_error(ctx,
			       "'reinterpret' cannot reinterpret %s as %s: elements of %zu and "
			       "%zu bytes",
			       infer_tname(ctx, x), dtype_name(dt), dtype_size(x->u.tensor.dtype),
			       dtype_size(dt));
		return NULL;
	}
	return infer_result(ctx, dt, x->u.tensor.ndim, x->u.tensor.dims, x, NULL);
}

/* ---- indexing, slicing, measuring, broadcasting, repeating ----------------- */

/*
 * take(data, indices, axis=None, batch_dims=0, mode="clip"): without an axis
 * the flattened data indexed, shaped like indices; with one, data's axis
 * replaced by indices' dimensions past the batch dimensions.
 */
Type *infer_op_TAKE(OpTypeContext *ctx)
{
	Type *data = infer_tensor_arg(ctx, 0), *idx, *r;
	int64_t axis, batch_dims, nd, ni;
	bool has_axis;
	const char *mode;
	DimBuf buf;
	int64_t *dims;
	uint32_t k = 0;
	if (!data || !(idx = infer_tensor_arg(ctx, 1)) ||
	    !infer_attr_int(ctx, "axis", 0, &axis, &has_axis) ||
	    !infer_attr_int(ctx, "batch_dims", 0, &batch_dims, NULL) ||
	    !infer_attr_string(ctx, "mode", &mode))
		return NULL;
	if (!is_int_tensor(idx)) {
		infer_op_error(ctx, "'take' indices must be integers, got %s",
			       infer_tname(ctx, idx));
		return NULL;
	}
	if (mode && strcmp(mode, "clip") != 0 && strcmp(mode, "wrap") != 0 &&
	    strcmp(mode, "fast") != 0) {
		infer_op_error(ctx,
			       "'take' mode must be \"clip\", \"wrap\" or \"fast\", got \"%s\"",
			       mode);
		return NULL;
	}
	if (!has_axis)
		return infer_result(ctx, data->u.tensor.dtype, idx->u.tensor.ndim,
				    idx->u.tensor.dims, NULL, NULL);
	nd = data->u.tensor.ndim;
	ni = idx->u.tensor.ndim;
	if (!infer_normalize_axis(ctx, axis, data, &axis))
		return NULL;
	/* TVM's relation adds ndim(indices) to the axis for a negative
	 * batch_dims, a slip its kernel (topi::take) does not make: this
	 * follows the kernel. */
	if (batch_dims < 0)
		batch_dims += ni;
	if (batch_dims < 0 || batch_dims > ni || batch_dims > axis) {
		infer_op_error(ctx,
			       "'take' batch_dims %lld must be between 0 and the axis %lld and at "
			       "most the rank of %s",
			       (long long)batch_dims, (long long)axis, infer_tname(ctx, idx));
		return NULL;
	}
	for (int64_t i = 0; i < batch_dims; i++)
		if (!dim_match(data->u.tensor.dims[i], idx->u.tensor.dims[i])) {
			infer_op_error(ctx, "'take' batch dimension %lld differs: %s and %s",
				       (long long)i, infer_tname(ctx, data), infer_tname(ctx, idx));
			return NULL;
		}
	dims = dims_alloc(&buf, (size_t)(nd - 1 + ni - batch_dims));
	for (int64_t i = 0; i < axis; i++)
		dims[k++] = data->u.tensor.dims[i];
	for (int64_t i = batch_dims; i < ni; i++)
		dims[k++] = idx->u.tensor.dims[i];
	for (int64_t i = axis + 1; i < nd; i++)
		dims[k++] = data->u.tensor.dims[i];
	r = infer_result(ctx, data->u.tensor.dtype, k, dims, data, NULL);
	dims_release(&buf);
	return r;
}

/* shape_of(x, dtype="int32"): the 1-D tensor of x's rank. */
Type *infer_op_SHAPE_OF(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	DType dt;
	int64_t n;
	if (!x || !infer_attr_dtype(ctx, "dtype", DT_INT32, &dt))
		return NULL;
	n = x->u.tensor.ndim;
	return type_tensor(ir_data_arena(ctx->module), dt, 1, &n);
}

/* ndarray_size(x, dtype="int32"): x's element count, a scalar. */
Type *infer_op_NDARRAY_SIZE(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	DType dt;
	if (!x || !infer_attr_dtype(ctx, "dtype", DT_INT32, &dt))
		return NULL;
	return type_scalar(ir_data_arena(ctx->module), dt);
}

/*
 * strided_slice(x, begin, end, strides=[1], axes=None, slice_mode="end"):
 * per sliced axis ceil(|end - begin| / |stride|) after canonicalising both
 * ends (op_slice_canonical). Without axes the lists cover the leading axes and
 * the rest are taken whole; with axes the four lists match. In "size" mode
 * end is a size from begin (negative: to the end) and strides are ignored.
 */
Type *infer_op_STRIDED_SLICE(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *r = NULL;
	const AttrValue *begin, *end, *strides, *axes;
	uint32_t nb, ne, ns, na, ndim, n;
	bool has_begin, has_end, has_strides, has_axes, size_mode = false;
	const char *mode;
	DimBuf buf;
	int64_t *dims;
	if (!x || !infer_attr_list(ctx, "begin", &begin, &nb, &has_begin) ||
	    !infer_attr_list(ctx, "end", &end, &ne, &has_end) ||
	    !infer_attr_list(ctx, "strides", &strides, &ns, &has_strides) ||
	    !infer_attr_list(ctx, "axes", &axes, &na, &has_axes) ||
	    !infer_attr_string(ctx, "slice_mode", &mode))
		return NULL;
	if (!has_begin || !has_end) {
		infer_op_error(ctx, "'strided_slice' needs begin and end attributes");
		return NULL;
	}
	if (mode && strcmp(mode, "size") == 0)
		size_mode = true;
	else if (mode && strcmp(mode, "end") != 0) {
		infer_op_error(ctx,
			       "'strided_slice' slice_mode must be \"end\" or \"size\", got \"%s\"",
			       mode);
		return NULL;
	}
	ndim = x->u.tensor.ndim;
	if (has_axes) {
		if (nb != na || ne != na || (has_strides && ns != na)) {
			infer_op_error(ctx,
				       "'strided_slice' axes, begin, end and strides must have "
				       "the same length");
			return NULL;
		}
		n = na;
	} else {
		if (nb > ndim || ne > ndim || ns > ndim) {
			infer_op_error(ctx,
				       "'strided_slice' begin, end and strides must have at most "
				       "the %u dimensions of %s",
				       ndim, infer_tname(ctx, x));
			return NULL;
		}
		n = ndim;
	}
	dims = dims_alloc(&buf, ndim);
	memcpy(dims, x->u.tensor.dims, ndim * sizeof(int64_t));
	for (uint32_t i = 0; i < n; i++) {
		int64_t axis = i, stride, b, e, d, interval;
		if (has_axes && !infer_normalize_axis(ctx, axes[i].u.i, x, &axis))
			goto done;
		/* TVM pads a short strides list with 1s */
		stride = size_mode || i >= ns ? 1 : strides[i].u.i;
		if (stride == 0) {
			infer_op_error(ctx, "'strided_slice' stride of axis %lld is 0",
				       (long long)axis);
			goto done;
		}
		b = i < nb ? begin[i].u.i : stride > 0 ? 0 : INT64_MAX;
		if (i >= ne)
			e = stride < 0 ? 0 : INT64_MAX;
		else if (size_mode)
			e = end[i].u.i < 0                   ? INT64_MAX
			    : checked_add(b, end[i].u.i, &e) ? e
							     : INT64_MAX;
		else
			e = end[i].u.i;
		d = x->u.tensor.dims[axis];
		if (!dim_known(d)) {
			dims[axis] = DIM_ANY;
			continue;
		}
		b = op_slice_canonical(b, d, stride);
		e = op_slice_canonical(e, d, stride);
		if (stride < 0 ? e > b : b > e) {
			infer_op_error(ctx,
				       "'strided_slice' begin %lld and end %lld are invalid for "
				       "axis %lld of %s",
				       (long long)(i < nb ? begin[i].u.i : b),
				       (long long)(i < ne ? end[i].u.i : e), (long long)axis,
				       infer_tname(ctx, x));
			goto done;
		}
		interval = b > e ? b - e : e - b;
		stride = stride < 0 ? (stride == INT64_MIN ? INT64_MAX : -stride) : stride;
		dims[axis] = interval / stride + (interval % stride != 0);
	}
	r = infer_result(ctx, x->u.tensor.dtype, ndim, dims, x, NULL);
done:
	dims_release(&buf);
	return r;
}

/* reshape_like(x, like, lhs_begin=0, lhs_end=None, rhs_begin=0,
 * rhs_end=None): x's dims [lhs_begin, lhs_end) replaced by like's
 * [rhs_begin, rhs_end); the element counts must agree. */
Type *infer_op_RESHAPE_LIKE(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *like, *r;
	int64_t lb, le, rb, re, xn, ln, total, count = 1;
	bool known = true;
	DimBuf buf;
	int64_t *dims;
	uint32_t k = 0;
	if (!x || !(like = infer_tensor_arg(ctx, 1)))
		return NULL;
	xn = x->u.tensor.ndim;
	ln = like->u.tensor.ndim;
	if (!infer_attr_int(ctx, "lhs_begin", 0, &lb, NULL) ||
	    !infer_attr_int(ctx, "lhs_end", xn, &le, NULL) ||
	    !infer_attr_int(ctx, "rhs_begin", 0, &rb, NULL) ||
	    !infer_attr_int(ctx, "rhs_end", ln, &re, NULL))
		return NULL;
	lb += lb < 0 ? xn : 0;
	le += le < 0 ? xn : 0;
	rb += rb < 0 ? ln : 0;
	re += re < 0 ? ln : 0;
	if (lb < 0 || lb > le || le > xn || rb < 0 || rb > re || re > ln) {
		infer_op_error(ctx,
			       "'reshape_like' ranges [%lld, %lld) of %s and [%lld, %lld) of %s "
			       "are invalid",
			       (long long)lb, (long long)le, infer_tname(ctx, x), (long long)rb,
			       (long long)re, infer_tname(ctx, like));
		return NULL;
	}
	dims = dims_alloc(&buf, (size_t)(lb + re - rb + xn - le));
	for (int64_t i = 0; i < lb; i++)
		dims[k++] = x->u.tensor.dims[i];
	for (int64_t i = rb; i < re; i++)
		dims[k++] = like->u.tensor.dims[i];
	for (int64_t i = le; i < xn; i++)
		dims[k++] = x->u.tensor.dims[i];
	for (uint32_t i = 0; i < k && known; i++)
		known = dim_known(dims[i]) && checked_mul(count, dims[i], &count);
	if (known && type_num_elements(x, &total) && total != count) {
		infer_op_error(ctx, "'reshape_like' cannot reshape %s to %lld elements",
			       infer_tname(ctx, x), (long long)count);
		r = NULL;
	} else {
		r = infer_result(ctx, x->u.tensor.dtype, k, dims, x, like);
	}
	dims_release(&buf);
	return r;
}

/* The tensor (dt, dims) when x broadcasts to it; else an error. */
static Type *broadcast_result(OpTypeContext *ctx, const Type *x, DType dt, uint32_t ndim,
			      const int64_t *dims, Type *like)
{
	Type *r = infer_result(ctx, dt, ndim, dims, like, NULL);
	if (!infer_broadcasts_to(x, ndim, dims)) {
		infer_op_error(ctx, "'%s' cannot broadcast %s to %s", infer_op_name(ctx),
			       infer_tname(ctx, x), infer_tname(ctx, r));
		return NULL;
	}
	return r;
}

/* broadcast_to(x, shape): the shape, x's dtype; x must broadcast to it. */
Type *infer_op_BROADCAST_TO(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *r = NULL;
	const AttrValue *items;
	uint32_t n;
	bool present;
	DimBuf buf;
	int64_t *dims;
	if (!x || !infer_attr_list(ctx, "shape", &items, &n, &present))
		return NULL;
	if (!present) {
		infer_op_error(ctx, "'broadcast_to' needs a shape attribute");
		return NULL;
	}
	if (n > INFER_MAX_NDIM) {
		infer_op_error(ctx, "'broadcast_to' shape has %u dimensions, more than %d", n,
			       INFER_MAX_NDIM);
		return NULL;
	}
	dims = dims_alloc(&buf, n);
	if (infer_shape_attr_dims(ctx, items, n, dims) && dims_countable(ctx, n, dims))
		r = broadcast_result(ctx, x, x->u.tensor.dtype, n, dims, x);
	dims_release(&buf);
	return r;
}

/* broadcast_to_like(x, like): like's type, of x's dtype; x must broadcast
 * to it. */
Type *infer_op_BROADCAST_TO_LIKE(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *like;
	if (!x || !(like = infer_tensor_arg(ctx, 1)) || !infer_same_dtype(ctx, x, like))
		return NULL;
	return broadcast_result(ctx, x, like->u.tensor.dtype, like->u.tensor.ndim,
				like->u.tensor.dims, like);
}

/* stack((t0, t1, ...), axis=0): equal ranks, dtypes and dims; a new axis of
 * the field count at axis, in [-ndim-1, ndim]. */
Type *infer_op_STACK(OpTypeContext *ctx)
{
	Type *t = ctx->arg_types[0], *first, *r;
	int64_t axis, ndim;
	uint32_t nf, k = 0;
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
	if (!infer_attr_int(ctx, "axis", 0, &axis, NULL))
		return NULL;
	if (axis < -ndim - 1 || axis > ndim) {
		infer_op_error(ctx, "'stack' axis %lld is out of range for %s", (long long)axis,
			       infer_tname(ctx, first));
		return NULL;
	}
	if (ndim >= INFER_MAX_NDIM) {
		infer_op_error(ctx, "'stack' result has more than %d dimensions", INFER_MAX_NDIM);
		return NULL;
	}
	axis += axis < 0 ? ndim + 1 : 0;
	dims = dims_alloc(&buf, (size_t)ndim + 1);
	for (int64_t i = 0; i < ndim; i++) {
		if (i == axis)
			dims[k++] = nf;
		dims[k++] = first->u.tensor.dims[i];
	}
	if (axis == ndim)
		dims[k++] = nf;
	for (uint32_t j = 1; j < nf; j++) {
		const Type *f = t->u.tuple.fields[j];
		bool same = f->u.tensor.ndim == ndim && f->u.tensor.dtype == first->u.tensor.dtype;
		for (int64_t i = 0; same && i < ndim; i++) {
			int64_t *d = &dims[i < axis ? i : i + 1];
			if (!dim_match(*d, f->u.tensor.dims[i]))
				same = false;
			else if (!dim_known(*d))
				*d = f->u.tensor.dims[i];
		}
		if (!same) {
			infer_op_error(ctx, "'stack' fields 0 and %u differ: %s and %s", j,
				       infer_tname(ctx, first), infer_tname(ctx, f));
			dims_release(&buf);
			return NULL;
		}
	}
	r = infer_result(ctx, first->u.tensor.dtype, k, dims, NULL, NULL);
	dims_release(&buf);
	return r;
not_tensors:
	infer_op_error(ctx, "'stack' expects a non-empty tuple of tensors, got %s",
		       infer_tname(ctx, t));
	return NULL;
}

/* tile(x, reps): x and reps right-aligned, the shorter padded with 1s;
 * each dimension multiplied by its repetition. */
Type *infer_op_TILE(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *r = NULL;
	const AttrValue *reps;
	uint32_t n, ndim, out_ndim;
	bool present;
	DimBuf buf;
	int64_t *dims;
	if (!x || !infer_attr_list(ctx, "reps", &reps, &n, &present))
		return NULL;
	if (!present) {
		infer_op_error(ctx, "'tile' needs a reps attribute");
		return NULL;
	}
	if (n > INFER_MAX_NDIM) {
		infer_op_error(ctx, "'tile' reps has more than %d values", INFER_MAX_NDIM);
		return NULL;
	}
	ndim = x->u.tensor.ndim;
	out_ndim = ndim > n ? ndim : n;
	dims = dims_alloc(&buf, out_ndim);
	for (uint32_t i = 0; i < out_ndim; i++) {
		int64_t d = i + ndim >= out_ndim ? x->u.tensor.dims[i + ndim - out_ndim] : 1;
		int64_t rep = i + n >= out_ndim ? reps[i + n - out_ndim].u.i : 1;
		if (rep <= 0) {
			infer_op_error(ctx, "'tile' reps %s must be positive",
				       infer_list_text(ctx, reps, n));
			goto done;
		}
		if (!dim_known(d))
			dims[i] = DIM_ANY;
		else if (!checked_mul(d, rep, &dims[i])) {
			infer_op_error(ctx, "'tile' of %s overflows", infer_tname(ctx, x));
			goto done;
		}
	}
	r = infer_result(ctx, x->u.tensor.dtype, out_ndim, dims, x, NULL);
done:
	dims_release(&buf);
	return r;
}

/* repeat(x, repeats, axis): the axis multiplied by repeats (at least 1). */
Type *infer_op_REPEAT(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *r = NULL;
	int64_t repeats, axis;
	bool has_repeats;
	DimBuf buf;
	int64_t *dims;
	if (!x || !infer_attr_int(ctx, "repeats", 1, &repeats, &has_repeats) ||
	    !infer_attr_int(ctx, "axis", 0, &axis, NULL))
		return NULL;
	if (!has_repeats || repeats < 1) {
		infer_op_error(ctx, "'repeat' needs repeats of at least 1");
		return NULL;
	}
	if (!infer_normalize_axis(ctx, axis, x, &axis))
		return NULL;
	dims = dims_alloc(&buf, x->u.tensor.ndim);
	memcpy(dims, x->u.tensor.dims, x->u.tensor.ndim * sizeof(int64_t));
	if (dim_known(dims[axis]) && !checked_mul(dims[axis], repeats, &dims[axis]))
		infer_op_error(ctx, "'repeat' of %s overflows", infer_tname(ctx, x));
	else
		r = infer_result(ctx, x->u.tensor.dtype, x->u.tensor.ndim, dims, x, NULL);
	dims_release(&buf);
	return r;
}

/* reverse(x, axis): x's own type; the axis must be in range. */
Type *infer_op_REVERSE(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	int64_t axis;
	bool present;
	if (!x || !infer_attr_int(ctx, "axis", 0, &axis, &present))
		return NULL;
	if (!present) {
		infer_op_error(ctx, "'reverse' needs an axis attribute");
		return NULL;
	}
	return infer_normalize_axis(ctx, axis, x, &axis) ? x : NULL;
}

/* slice_like(x, like, axes=None): x cut to like's dims on the given axes
 * (every axis like has, when absent); like may not be larger. */
Type *infer_op_SLICE_LIKE(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *like, *r = NULL;
	const AttrValue *axes;
	uint32_t n, ndim, ln;
	bool present;
	DimBuf buf;
	int64_t *dims;
	if (!x || !(like = infer_tensor_arg(ctx, 1)) ||
	    !infer_attr_list(ctx, "axes", &axes, &n, &present))
		return NULL;
	ndim = x->u.tensor.ndim;
	ln = like->u.tensor.ndim;
	if (present && n == 0) {
		infer_op_error(ctx, "'slice_like' axes cannot be empty");
		return NULL;
	}
	dims = dims_alloc(&buf, ndim);
	memcpy(dims, x->u.tensor.dims, ndim * sizeof(int64_t));
	for (uint32_t i = 0; i < (present ? n : ndim < ln ? ndim : ln); i++) {
		int64_t axis = i, d;
		if (present && !infer_normalize_axis(ctx, axes[i].u.i, x, &axis))
			goto done;
		if (axis >= ln) {
			infer_op_error(ctx, "'slice_like' axis %lld exceeds the rank of %s",
				       (long long)axis, infer_tname(ctx, like));
			goto done;
		}
		d = like->u.tensor.dims[axis];
		if (dim_known(d) && dim_known(dims[axis]) && d > dims[axis]) {
			infer_op_error(ctx, "'slice_like' axis %lld of %s exceeds %s",
				       (long long)axis, infer_tname(ctx, like),
				       infer_tname(ctx, x));
			goto done;
		}
		dims[axis] = d;
	}
	r = infer_result(ctx, x->u.tensor.dtype, ndim, dims, x, NULL);
done:
	dims_release(&buf);
	return r;
}

/* sliding_window(x, axis, window_shape, strides): x's dims before axis,
 * then per windowed dim the window count (d - w + s) / s, then the
 * window shape. */
Type *infer_op_SLIDING_WINDOW(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *r = NULL;
	const AttrValue *win, *strides;
	uint32_t nw, ns, k = 0;
	int64_t axis, ndim;
	bool has_win, has_strides, has_axis;
	DimBuf buf;
	int64_t *dims;
	if (!x || !infer_attr_int(ctx, "axis", 0, &axis, &has_axis) ||
	    !infer_attr_list(ctx, "window_shape", &win, &nw, &has_win) ||
	    !infer_attr_list(ctx, "strides", &strides, &ns, &has_strides))
		return NULL;
	ndim = x->u.tensor.ndim;
	if (!has_axis || !has_win || !has_strides || nw != ns) {
		infer_op_error(ctx,
			       "'sliding_window' needs an axis and window_shape and strides of "
			       "one length");
		return NULL;
	}
	if (!infer_normalize_axis(ctx, axis, x, &axis))
		return NULL;
	if (axis + nw > ndim) {
		infer_op_error(ctx, "'sliding_window' window %s from axis %lld does not fit %s",
			       infer_list_text(ctx, win, nw), (long long)axis, infer_tname(ctx, x));
		return NULL;
	}
	dims = dims_alloc(&buf, (size_t)axis + 2 * nw);
	for (int64_t i = 0; i < axis; i++)
		dims[k++] = x->u.tensor.dims[i];
	for (uint32_t i = 0; i < nw; i++) {
		int64_t d = x->u.tensor.dims[axis + i], w = win[i].u.i, s = strides[i].u.i;
		if (w < 1 || s < 1 || (dim_known(d) && w > d)) {
			infer_op_error(ctx,
				       "'sliding_window' window %s with strides %s does not fit %s",
				       infer_list_text(ctx, win, nw),
				       infer_list_text(ctx, strides, ns), infer_tname(ctx, x));
			goto done;
		}
		dims[k++] = dim_known(d) ? (d - w + s) / s : DIM_ANY;
	}
	for (uint32_t i = 0; i < nw; i++)
		dims[k++] = win[i].u.i;
	r = infer_result(ctx, x->u.tensor.dtype, k, dims, x, NULL);
done:
	dims_release(&buf);
	return r;
}

/* ---- layouts --------------------------------------------------------------- */

enum { LAYOUT_AXES = 26 };

typedef struct Layout {
	uint32_t n;                     /* axes in the string */
	char axis[INFER_MAX_NDIM];      /* each axis's letter as written */
	int64_t factor[INFER_MAX_NDIM]; /* a subordinate's factor; 0 primal */
	int64_t split[LAYOUT_AXES];     /* per primal letter: its subordinate's
					    factor, 1 when it has none */
	bool has_primal[LAYOUT_AXES];
} Layout;

/* Parses s into *l; false after reporting what is wrong with it. */
static bool layout_parse(OpTypeContext *ctx, const char *name, const char *s, Layout *l)
{
	bool sub_seen[LAYOUT_AXES] = {0};
	memset(l, 0, sizeof *l);
	for (int i = 0; i < LAYOUT_AXES; i++)
		l->split[i] = 1;
	for (const char *p = s; *p;) {
		int64_t f = 0;
		bool digits = false;
		while (*p >= '0' && *p <= '9') {
			if (!checked_mul(f, 10, &f) || !checked_add(f, *p - '0', &f))
				goto bad;
			digits = true;
			p++;
		}
		if (l->n >= INFER_MAX_NDIM)
			goto bad;
		if (*p >= 'A' && *p <= 'Z' && !digits) {
			if (l->has_primal[*p - 'A'])
				goto bad;
			l->has_primal[*p - 'A'] = true;
		} else if (*p >= 'a' && *p <= 'z' && digits && f > 0) {
			if (sub_seen[*p - 'a'])
				goto bad;
			sub_seen[*p - 'a'] = true;
			l->split[*p - 'a'] = f;
		} else {
			goto bad;
		}
		l->axis[l->n] = *p;
		l->factor[l->n++] = digits ? f : 0;
		p++;
	}
	for (int i = 0; i < LAYOUT_AXES; i++)
		if (sub_seen[i] && !l->has_primal[i])
			goto bad;
	return true;
bad:
	infer_op_error(ctx, "'%s' %s \"%s\" is not a layout", infer_op_name(ctx), name, s);
	return false;
}

/* layout_transform(x, src_layout, dst_layout): x's shape in src_layout
 * rearranged into dst_layout. */
Type *infer_op_LAYOUT_TRANSFORM(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *r = NULL;
	const char *src_name, *dst_name;
	Layout *src, *dst;
	int64_t extent[LAYOUT_AXES];
	DimBuf buf;
	int64_t *dims = NULL;
	if (!x || !infer_attr_string(ctx, "src_layout", &src_name) ||
	    !infer_attr_string(ctx, "dst_layout", &dst_name))
		return NULL;
	if (!src_name || !dst_name) {
		infer_op_error(ctx,
			       "'layout_transform' needs src_layout and dst_layout attributes");
		return NULL;
	}
	src = xmalloc(2 * sizeof(Layout));
	dst = src + 1;
	if (!layout_parse(ctx, "src_layout", src_name, src) ||
	    !layout_parse(ctx, "dst_layout", dst_name, dst))
		goto done;
	if (memcmp(src->has_primal, dst->has_primal, sizeof src->has_primal) != 0) {
		infer_op_error(ctx, "'layout_transform' cannot convert from \"%s\" to \"%s\"",
			       src_name, dst_name);
		goto done;
	}
	if (src->n != x->u.tensor.ndim) {
		infer_op_error(ctx, "'layout_transform' src_layout \"%s\" does not match %s",
			       src_name, infer_tname(ctx, x));
		goto done;
	}
	for (int i = 0; i < LAYOUT_AXES; i++)
		extent[i] = 1;
	/* the full extent of each primal axis in the source */
	for (uint32_t i = 0; i < src->n; i++) {
		char a = src->axis[i];
		int64_t d = x->u.tensor.dims[i], *e = &extent[(a | 0x20) - 'a'];
		if (src->factor[i] && dim_known(d) && d != src->factor[i]) {
			infer_op_error(ctx,
				       "'layout_transform' axis %u of %s is not the %lld of \"%s\"",
				       i, infer_tname(ctx, x), (long long)src->factor[i], src_name);
			goto done;
		}
		if (!dim_known(*e) || !dim_known(d))
			*e = DIM_ANY;
		else if (!checked_mul(*e, d, e)) {
			infer_op_error(ctx, "'layout_transform' of %s overflows",
				       infer_tname(ctx, x));
			goto done;
		}
	}
	dims = dims_alloc(&buf, dst->n);
	for (uint32_t i = 0; i < dst->n; i++) {
		char a = dst->axis[i];
		int64_t e = extent[(a | 0x20) - 'a'], f = dst->split[(a | 0x20) - 'a'];
		if (dst->factor[i])
			dims[i] = dst->factor[i];
		else if (!dim_known(e))
			dims[i] = DIM_ANY;
		else if (e % f != 0) {
			infer_op_error(
				ctx, "'layout_transform' cannot split axis %c of %s (%lld) by %lld",
				a, infer_tname(ctx, x), (long long)e, (long long)f);
			goto done;
		} else
			dims[i] = e / f;
	}
	r = infer_result(ctx, x->u.tensor.dtype, dst->n, dims, x, NULL);
done:
	if (dims)
		dims_release(&buf);
	free(src);
	return r;
}

/* auto_scheduler_layout_transform(x, src_layout, dst_layout): the extents
 * written in dst_layout, an auto-scheduler layout of extents each followed
 * by an axis name ("1N2C112H112W16c" is (1, 2, 112, 112, 16)). */
Type *infer_op_AUTO_SCHEDULER_LAYOUT_TRANSFORM(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *r;
	const char *src, *dst;
	DimBuf buf;
	int64_t *dims;
	uint32_t n = 0;
	if (!x || !infer_attr_string(ctx, "src_layout", &src) ||
	    !infer_attr_string(ctx, "dst_layout", &dst))
		return NULL;
	if (!dst) {
		infer_op_error(ctx,
			       "'auto_scheduler_layout_transform' needs a dst_layout attribute");
		return NULL;
	}
	dims = dims_alloc(&buf, strlen(dst) / 2 + 1);
	for (const char *p = dst; *p;) {
		int64_t f = 0;
		const char *q = p;
		while (*q >= '0' && *q <= '9')
			if (!checked_mul(f, 10, &f) || !checked_add(f, *q++ - '0', &f))
				goto bad;
		if (q == p || !((*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z')))
			goto bad;
		while ((*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z'))
			q++;
		dims[n++] = f;
		p = q;
	}
	r = infer_result(ctx, x->u.tensor.dtype, n, dims, x, NULL);
	dims_release(&buf);
	return r;
bad:
	infer_op_error(ctx, "'auto_scheduler_layout_transform' dst_layout \"%s\" is not a layout",
		       dst);
	dims_release(&buf);
	return NULL;
}

/* meta_schedule_layout_transform(x, index_map=meta[IndexMap][i]): TVM's
 * MetaScheduleLayoutTransformRel maps x's shape through a TIR index map,
 * which lives in the #[metadata] section as TIR expressions devplan does
 * not evaluate. The result type is the one TVM printed after the call
 * (op_type_is_printed); the relation checks what it can: a tensor of x's
 * dtype, and an index map given. */
Type *infer_op_META_SCHEDULE_LAYOUT_TRANSFORM(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	Type *printed = ctx->call->type;
	if (!x)
		return NULL;
	if (!ir_attr(ctx->call, "index_map") ||
	    ir_attr(ctx->call, "index_map")->value.kind != ATTR_META) {
		infer_op_error(ctx, "'meta_schedule_layout_transform' needs an index_map "
				    "(meta[IndexMap][i])");
		return NULL;
	}
	if (!printed) {
		infer_op_error(ctx,
			       "'meta_schedule_layout_transform' needs its result type printed "
			       "after the call (/* ty=... */): devplan cannot apply the index map");
		return NULL;
	}
	if (printed->kind != TYPE_TENSOR || printed->u.tensor.dtype != x->u.tensor.dtype) {
		infer_op_error(ctx,
			       "'meta_schedule_layout_transform' is printed to give %s, not a "
			       "tensor of its data's dtype %s",
			       infer_tname(ctx, printed), dtype_name(x->u.tensor.dtype));
		return NULL;
	}
	return printed;
}
