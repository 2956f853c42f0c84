/*
 * infer_arrange.c - the type relations of the arrange family, the
 * operators that place each output element by index arithmetic:
 * nn.dilate, sequence_mask, reverse_sequence, trilu, matrix_set_diag,
 * meshgrid, searchsorted, invert_permutation, unravel_index,
 * nn.space_to_batch_nd and nn.batch_to_space_nd (their kernels are
 * cpu/cpu_arrange.c and cuda/cuda_arrange.cu).
 * They follow TVM 0.14's relations (src/relay/op/tensor/transform.cc,
 * src/relay/op/algorithm/ and src/relay/op/nn/) with its attribute
 * defaults; an ICHECK there is a positioned error here.
 */
#include "infer_transforms.h"

#include <stdlib.h>
#include <string.h>

/* searchsorted(sorted_sequence, values, right=False, dtype="int32"):
 * values' shape, of dtype; a multi-dimensional sequence matches values
 * on every axis but the last. */
Type *infer_op_SEARCHSORTED(OpTypeContext *ctx)
{
	Type *seq = infer_tensor_arg(ctx, 0), *v;
	bool right;
	DType dt;
	if (!seq || !(v = infer_tensor_arg(ctx, 1)) ||
	    !infer_attr_bool(ctx, "right", false, &right) ||
	    !infer_attr_dtype(ctx, "dtype", DT_INT32, &dt))
		return NULL;
	if (v->u.tensor.ndim == 0)
		goto mismatch;
	if (seq->u.tensor.ndim > 1) {
		if (seq->u.tensor.ndim != v->u.tensor.ndim)
			goto mismatch;
		for (uint32_t i = 0; i + 1 < v->u.tensor.ndim; i++)
			if (!dim_match(seq->u.tensor.dims[i], v->u.tensor.dims[i]))
				goto mismatch;
	}
	return infer_result(ctx, dt, v->u.tensor.ndim, v->u.tensor.dims, v, NULL);
mismatch:
	infer_op_error(ctx, "'searchsorted' values %s do not match the sorted sequence %s",
		       infer_tname(ctx, v), infer_tname(ctx, seq));
	return NULL;
}

/* invert_permutation(x): x's type. */
Type *infer_op_INVERT_PERMUTATION(OpTypeContext *ctx)
{
	return infer_tensor_arg(ctx, 0);
}

/* trilu(x, k, upper=True): x's type; k a scalar. */
Type *infer_op_TRILU(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *k;
	bool upper;
	if (!x || !(k = infer_tensor_arg(ctx, 1)) || !infer_attr_bool(ctx, "upper", true, &upper))
		return NULL;
	if (k->u.tensor.ndim != 0) {
		infer_op_error(ctx, "'trilu' k must be a scalar, got %s", infer_tname(ctx, k));
		return NULL;
	}
	return x;
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

/* sequence_mask(data, valid_length, mask_value=0, axis=0): data's type;
 * valid_length 1-D over the batch axis 1 - axis. */
Type *infer_op_SEQUENCE_MASK(OpTypeContext *ctx)
{
	Type *data = infer_tensor_arg(ctx, 0), *len;
	int64_t axis;
	const AttrValue *v;
	if (!data || !(len = infer_tensor_arg(ctx, 1)) ||
	    !infer_attr_int(ctx, "axis", 0, &axis, NULL))
		return NULL;
	v = infer_attr_value(ctx, "mask_value");
	if (v && v->kind != ATTR_FLOAT && v->kind != ATTR_INT) {
		infer_op_error(ctx, "'sequence_mask' attribute 'mask_value' must be a number");
		return NULL;
	}
	if (axis != 0 && axis != 1) {
		infer_op_error(ctx, "'sequence_mask' axis must be 0 or 1, got %lld",
			       (long long)axis);
		return NULL;
	}
	if (data->u.tensor.ndim < 2) {
		infer_op_error(ctx, "'sequence_mask' expects at least two dimensions, got %s",
			       infer_tname(ctx, data));
		return NULL;
	}
	if (len->u.tensor.ndim != 1 ||
	    !dim_match(len->u.tensor.dims[0], data->u.tensor.dims[1 - axis])) {
		infer_op_error(ctx,
			       "'sequence_mask' valid_length must be 1-D as long as axis %lld of "
			       "%s, got %s",
			       (long long)(1 - axis), infer_tname(ctx, data),
			       infer_tname(ctx, len));
		return NULL;
	}
	return data;
}

/* matrix_set_diag(input, diagonal, k1=0, k2=0, ...): input's type; the
 * diagonal holds diagonals k1..k2 of the innermost matrices, each as long
 * as the longest of them. */
Type *infer_op_MATRIX_SET_DIAG(OpTypeContext *ctx)
{
	Type *in = infer_tensor_arg(ctx, 0), *diag;
	int64_t k1, k2, rows, cols, len;
	uint32_t in_n, dn;
	bool b;
	if (!in || !(diag = infer_tensor_arg(ctx, 1)) || !infer_same_dtype(ctx, in, diag) ||
	    !infer_attr_int(ctx, "k1", 0, &k1, NULL) || !infer_attr_int(ctx, "k2", 0, &k2, NULL) ||
	    !infer_attr_bool(ctx, "super_diag_right_align", true, &b) ||
	    !infer_attr_bool(ctx, "sub_diag_right_align", false, &b))
		return NULL;
	if (k2 < k1) {
		infer_op_error(ctx, "'matrix_set_diag' k2 %lld is less than k1 %lld", (long long)k2,
			       (long long)k1);
		return NULL;
	}
	in_n = in->u.tensor.ndim;
	dn = diag->u.tensor.ndim;
	if (in_n < 2 || dn < 1 || dn > in_n)
		goto mismatch;
	rows = in->u.tensor.dims[in_n - 2];
	cols = in->u.tensor.dims[in_n - 1];
	if ((dim_known(rows) && rows <= -k1) || (dim_known(cols) && cols <= k2)) {
		infer_op_error(ctx, "'matrix_set_diag' diagonals %lld to %lld are outside %s",
			       (long long)k1, (long long)k2, infer_tname(ctx, in));
		return NULL;
	}
	for (uint32_t i = 0; i + 2 < dn; i++)
		if (!dim_match(in->u.tensor.dims[i], diag->u.tensor.dims[i]))
			goto mismatch;
	if (k1 != k2) {
		if (dn < 2 || !dim_match(diag->u.tensor.dims[dn - 2], k2 - k1 + 1))
			goto mismatch;
	} else if (dn >= 2 && !dim_match(in->u.tensor.dims[dn - 2], diag->u.tensor.dims[dn - 2])) {
		goto mismatch;
	}
	if (dim_known(rows) && dim_known(cols)) {
		int64_t a = rows + (k2 > 0 ? k2 : 0), c = cols + (k1 < 0 ? -k1 : 0);
		len = a <= c ? a : c;
		if (!dim_match(diag->u.tensor.dims[dn - 1], len))
			goto mismatch;
	}
	return in;
mismatch:
	infer_op_error(ctx, "'matrix_set_diag' diagonal %s does not fit %s with k1=%lld, k2=%lld",
		       infer_tname(ctx, diag), infer_tname(ctx, in), (long long)k1, (long long)k2);
	return NULL;
}

/* unravel_index(indices, shape): (len(shape), len(indices)) of indices'
 * dtype, the second dimension dropped for a scalar index. */
Type *infer_op_UNRAVEL_INDEX(OpTypeContext *ctx)
{
	Type *idx = infer_tensor_arg(ctx, 0), *shape;
	int64_t dims[2];
	if (!idx || !(shape = infer_tensor_arg(ctx, 1)) || !infer_need_int_indices(ctx, idx))
		return NULL;
	if (!is_int_tensor(shape) || shape->u.tensor.ndim != 1 || idx->u.tensor.ndim > 1) {
		infer_op_error(ctx,
			       "'unravel_index' expects indices of rank at most 1 and a 1-D "
			       "integer shape, got %s and %s",
			       infer_tname(ctx, idx), infer_tname(ctx, shape));
		return NULL;
	}
	dims[0] = shape->u.tensor.dims[0];
	dims[1] = idx->u.tensor.ndim ? idx->u.tensor.dims[0] : 0;
	return infer_result(ctx, idx->u.tensor.dtype, idx->u.tensor.ndim ? 2 : 1, dims, NULL, NULL);
}

/* meshgrid((t0, t1, ...), indexing="ij"): scalars or 1-D tensors of one
 * dtype; a tuple of as many grids, each shaped by their lengths (the first
 * two swapped for "xy"). */
Type *infer_op_MESHGRID(OpTypeContext *ctx)
{
	Type *t = ctx->arg_types[0], *grid, *r;
	const char *indexing;
	uint32_t nf;
	DimBuf buf;
	int64_t *dims;
	Type **fields;
	if (!is_tensor_tuple(t)) {
		infer_op_error(ctx, "'meshgrid' expects a non-empty tuple of tensors, got %s",
			       infer_tname(ctx, t));
		return NULL;
	}
	if (!infer_attr_string(ctx, "indexing", &indexing))
		return NULL;
	if (indexing && strcmp(indexing, "ij") != 0 && strcmp(indexing, "xy") != 0) {
		infer_op_error(ctx, "'meshgrid' indexing must be \"ij\" or \"xy\", got \"%s\"",
			       indexing);
		return NULL;
	}
	nf = t->u.tuple.nfields;
	if (nf > INFER_MAX_NDIM) {
		infer_op_error(ctx, "'meshgrid' of more than %d tensors", INFER_MAX_NDIM);
		return NULL;
	}
	dims = dims_alloc(&buf, nf);
	for (uint32_t j = 0; j < nf; j++) {
		const Type *f = t->u.tuple.fields[j];
		if (f->u.tensor.dtype != t->u.tuple.fields[0]->u.tensor.dtype ||
		    f->u.tensor.ndim > 1) {
			infer_op_error(ctx,
				       "'meshgrid' expects scalars or 1-D tensors of one dtype, "
				       "got %s",
				       infer_tname(ctx, t));
			dims_release(&buf);
			return NULL;
		}
		dims[j] = f->u.tensor.ndim ? f->u.tensor.dims[0] : 1;
	}
	if (indexing && strcmp(indexing, "xy") == 0 && nf >= 2) {
		int64_t d = dims[0];
		dims[0] = dims[1];
		dims[1] = d;
	}
	grid = infer_result(ctx, t->u.tuple.fields[0]->u.tensor.dtype, nf, dims, NULL, NULL);
	dims_release(&buf);
	fields = xmalloc(nf * sizeof(Type *));
	for (uint32_t j = 0; j < nf; j++)
		fields[j] = grid;
	r = type_tuple(ir_data_arena(ctx->module), nf, fields);
	free(fields);
	return r;
}

/* nn.dilate(data): one stride per dimension (default [1, 1]); each extent
 * d becomes (d - 1) * stride + 1. */
Type *infer_op_DILATE(OpTypeContext *ctx)
{
	static const AttrValue two_ones[2] = {{.kind = ATTR_INT, .u.i = 1},
					      {.kind = ATTR_INT, .u.i = 1}};
	Type *x = infer_tensor_arg(ctx, 0), *r;
	const AttrValue *strides;
	uint32_t n;
	bool given;
	double value;
	DimBuf buf;
	int64_t *dims;
	if (!x || !infer_attr_list(ctx, "strides", &strides, &n, &given) ||
	    !infer_attr_number(ctx, "dilation_value", 0, &value))
		return NULL;
	if (!given) {
		strides = two_ones;
		n = 2;
	}
	if (n != x->u.tensor.ndim) {
		infer_op_error(ctx,
			       "'nn.dilate' attribute strides=%s needs one value per dimension "
			       "of %s",
			       infer_list_text(ctx, strides, n), infer_tname(ctx, x));
		return NULL;
	}
	dims = dims_alloc(&buf, n);
	for (uint32_t i = 0; i < n; i++) {
		int64_t d = x->u.tensor.dims[i], s = strides[i].u.i;
		if (s < 1) {
			infer_op_error(ctx, "'nn.dilate' attribute strides=%s must be positive",
				       infer_list_text(ctx, strides, n));
			dims_release(&buf);
			return NULL;
		}
		dims[i] = d;
		if (dim_known(d) && d > 0 &&
		    (!checked_mul(d - 1, s, &dims[i]) || !checked_add(dims[i], 1, &dims[i]))) {
			infer_op_error(ctx, "'nn.dilate' output overflows");
			dims_release(&buf);
			return NULL;
		}
	}
	r = infer_result(ctx, x->u.tensor.dtype, n, dims, x, NULL);
	dims_release(&buf);
	return r;
}

/* The block_shape attribute (default [1, 1]) of an M-block op on x: M
 * positive values, M < rank of x. Returns M, or 0 after an error. */
static uint32_t block_shape(OpTypeContext *ctx, const Type *x, const AttrValue **blocks,
			    int64_t *product)
{
	static const AttrValue two_ones[2] = {{.kind = ATTR_INT, .u.i = 1},
					      {.kind = ATTR_INT, .u.i = 1}};
	uint32_t n;
	bool given;
	if (!infer_attr_list(ctx, "block_shape", blocks, &n, &given))
		return 0;
	if (!given) {
		*blocks = two_ones;
		n = 2;
	}
	if (n == 0 || n >= x->u.tensor.ndim || n > INFER_MAX_NDIM) {
		infer_op_error(ctx,
			       "'%s' attribute block_shape=%s needs fewer values than %s has "
			       "dimensions",
			       infer_op_name(ctx), infer_list_text(ctx, *blocks, n),
			       infer_tname(ctx, x));
		return 0;
	}
	*product = 1;
	for (uint32_t i = 0; i < n; i++)
		if ((*blocks)[i].u.i < 1 || !checked_mul(*product, (*blocks)[i].u.i, product)) {
			infer_op_error(ctx, "'%s' attribute block_shape=%s must be positive",
				       infer_op_name(ctx), infer_list_text(ctx, *blocks, n));
			return 0;
		}
	return n;
}

/* nn.space_to_batch_nd(data[N, S1..SM, rest]) -> [N * prod(block),
 * (S_i + pad_before + pad_after) / block_i, rest]; padded extents must
 * divide. */
Type *infer_op_SPACE_TO_BATCH_ND(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *r = NULL;
	const AttrValue *blocks;
	int64_t product, before[INFER_MAX_NDIM], after[INFER_MAX_NDIM], *dims;
	double pad_value;
	uint32_t m, nd;
	DimBuf buf;
	if (!x || !infer_attr_number(ctx, "pad_value", 0, &pad_value) ||
	    !(m = block_shape(ctx, x, &blocks, &product)) ||
	    !infer_attr_pairs(ctx, "paddings", m, before, after))
		return NULL;
	nd = x->u.tensor.ndim;
	dims = dims_alloc(&buf, nd);
	memcpy(dims, x->u.tensor.dims, nd * sizeof(int64_t));
	if (dim_known(dims[0]) && !checked_mul(dims[0], product, &dims[0])) {
		infer_op_error(ctx, "'nn.space_to_batch_nd' output overflows");
		goto done;
	}
	for (uint32_t i = 0; i < m; i++) {
		int64_t d = dims[i + 1], b = blocks[i].u.i;
		if (!dim_known(d))
			continue;
		if (before[i] < 0 || after[i] < 0 || !checked_add(d, before[i], &d) ||
		    !checked_add(d, after[i], &d) || d % b != 0) {
			infer_op_error(ctx,
				       "'nn.space_to_batch_nd' padded dimension %u of %s is not a "
				       "multiple of block %lld",
				       i + 1, infer_tname(ctx, x), (long long)b);
			goto done;
		}
		dims[i + 1] = d / b;
	}
	r = infer_result(ctx, x->u.tensor.dtype, nd, dims, x, NULL);
done:
	dims_release(&buf);
	return r;
}

/* nn.batch_to_space_nd(data[N, S1..SM, rest]) -> [N / prod(block),
 * S_i * block_i - crop_before - crop_after, rest]. */
Type *infer_op_BATCH_TO_SPACE_ND(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0), *r = NULL;
	const AttrValue *blocks;
	int64_t product, before[INFER_MAX_NDIM], after[INFER_MAX_NDIM], *dims;
	uint32_t m, nd;
	DimBuf buf;
	if (!x || !(m = block_shape(ctx, x, &blocks, &product)) ||
	    !infer_attr_pairs(ctx, "crops", m, before, after))
		return NULL;
	nd = x->u.tensor.ndim;
	dims = dims_alloc(&buf, nd);
	memcpy(dims, x->u.tensor.dims, nd * sizeof(int64_t));
	if (dim_known(dims[0])) {
		if (dims[0] % product != 0) {
			infer_op_error(
				ctx,
				"'nn.batch_to_space_nd' batch of %s is not a multiple of the "
				"block size %lld",
				infer_tname(ctx, x), (long long)product);
			goto done;
		}
		dims[0] /= product;
	}
	for (uint32_t i = 0; i < m; i++) {
		int64_t d = dims[i + 1];
		if (!dim_known(d))
			continue;
		if (!checked_mul(d, blocks[i].u.i, &d) || !checked_sub(d, before[i], &d) ||
		    !checked_sub(d, after[i], &d) || d < 0) {
			infer_op_error(ctx,
				       "'nn.batch_to_space_nd' crops of dimension %u of %s are "
				       "invalid",
				       i + 1, infer_tname(ctx, x));
			goto done;
		}
		dims[i + 1] = d;
	}
	r = infer_result(ctx, x->u.tensor.dtype, nd, dims, x, NULL);
done:
	dims_release(&buf);
	return r;
}
