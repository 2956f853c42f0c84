/*
 * infer_shape.c - the type relations of the transforms that index, slice,
 * measure, broadcast or repeat a tensor: take, shape_of, ndarray_size,
 * strided_slice, reshape_like, broadcast_to(_like), collapse_sum_like/_to,
 * stack, tile, repeat, reverse, reverse_sequence, slice_like,
 * sliding_window and the scans cumsum and cumprod (whose relation TVM keeps
 * with the transforms).
 *
 * Each follows TVM 0.14's relation (src/relay/op/tensor/transform.c and
 * unary.cc) and its attribute defaults (include/tvm/relay/attrs/
 * transform.h); where TVM stops on an ICHECK, devplan reports a positioned
 * error instead. Unknown (`?`) dimensions pass every check and give `?`
 * where the result depends on them.
 */
#include "infer_transforms.h"

#include <stdlib.h>
#include <string.h>

/* Whether broadcasting `from` against (ndim, dims) gives (ndim, dims)
 * itself: `from` has no more dimensions and each of them, right-aligned,
 * is 1, equal, or unknown on either side. */
static bool infer_broadcasts_to(const Type *from, uint32_t ndim, const int64_t *dims)
{
	uint32_t fn = from->u.tensor.ndim;
	if (fn > ndim)
		return false;
	for (uint32_t i = 0; i < fn; i++) {
		int64_t f = from->u.tensor.dims[fn - 1 - i], d = dims[ndim - 1 - i];
		if (f != 1 && !dim_match(f, d))
			return false;
	}
	return true;
}

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

/* A `shape` attribute's dims; false after reporting a negative one. */
static bool shape_attr_dims(OpTypeContext *ctx, const AttrValue *items, uint32_t n, int64_t *dims)
{
	for (uint32_t i = 0; i < n; i++) {
		dims[i] = items[i].u.i;
		if (dims[i] < 0) {
			infer_op_error(ctx, "'%s' shape %s has a negative dimension",
				       infer_op_name(ctx), infer_list_text(ctx, items, n));
			return false;
		}
	}
	return true;
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
	if (shape_attr_dims(ctx, items, n, dims) && dims_countable(ctx, n, dims))
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
	else if (!shape_attr_dims(ctx, items, n, dims))
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

/* reverse_sequence(x, seq_lengths, seq_axis=1, batch_axis=0): x's type;
 * seq_lengths a 1-D integer tensor as long as the batch axis. */
Type *infer_op_REVERSE_SEQUENCE(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *len;
	int64_t seq_axis, batch_axis;
	if (!x || !(len = infer_tensor_arg(ctx, 1)) ||
	    !infer_attr_int(ctx, "seq_axis", 1, &seq_axis, NULL) ||
	    !infer_attr_int(ctx, "batch_axis", 0, &batch_axis, NULL) ||
	    !infer_normalize_axis(ctx, batch_axis, x, &batch_axis) ||
	    !infer_normalize_axis(ctx, seq_axis, x, &seq_axis))
		return NULL;
	if (len->u.tensor.ndim != 1 || !is_int_tensor(len) ||
	    !dim_match(len->u.tensor.dims[0], x->u.tensor.dims[batch_axis])) {
		infer_op_error(ctx,
			       "'reverse_sequence' seq_lengths must be 1-D integers as long as "
			       "batch axis %lld of %s, got %s",
			       (long long)batch_axis, infer_tname(ctx, x), infer_tname(ctx, len));
		return NULL;
	}
	return x;
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
