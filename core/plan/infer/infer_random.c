/*
 * infer_random.c - the type relations of the random.* operators, after
 * TVM 0.14's src/relay/op/random/kernel.cc: each takes a Threefry key and
 * returns the next key with its random values.
 *
 * A key is TVM's ThreefryKeyType, Tensor[(10), uint64], and
 * threefry_generate's random bits are uint64 too.
 */
#include "infer_ops.h"

/* Argument i as a Threefry key. */
static Type *key_arg(OpTypeContext *ctx, uint32_t i)
{
	Type *k = infer_tensor_arg(ctx, i);
	if (!k)
		return NULL;
	if (k->u.tensor.ndim == 1 && dim_match(k->u.tensor.dims[0], 10) &&
	    k->u.tensor.dtype == DT_UINT64)
		return type_tensor(ir_data_arena(ctx->module), DT_UINT64, 1, (int64_t[]){10});
	infer_op_error(ctx, "'%s' expects a Threefry key Tensor[(10), uint64], got %s",
		       infer_op_name(ctx), infer_tname(ctx, k));
	return NULL;
}

/* The out_shape attribute: required, each extent non-negative. */
static Type *out_shape_tensor(OpTypeContext *ctx, DType dt)
{
	const AttrValue *items;
	uint32_t n;
	bool given;
	DimBuf buf;
	int64_t *dims;
	Type *t;
	if (!infer_attr_list(ctx, "out_shape", &items, &n, &given))
		return NULL;
	if (!given) {
		infer_op_error(ctx, "'%s' needs an out_shape attribute", infer_op_name(ctx));
		return NULL;
	}
	if (n > INFER_MAX_NDIM) {
		infer_op_error(ctx, "'%s' attribute out_shape has too many dimensions",
			       infer_op_name(ctx));
		return NULL;
	}
	dims = dims_alloc(&buf, n);
	for (uint32_t i = 0; i < n; i++) {
		if (items[i].u.i < 0) {
			infer_op_error(ctx, "'%s' attribute out_shape=%s must not be negative",
				       infer_op_name(ctx), infer_list_text(ctx, items, n));
			dims_release(&buf);
			return NULL;
		}
		dims[i] = items[i].u.i;
	}
	t = type_tensor(ir_data_arena(ctx->module), dt, n, dims);
	dims_release(&buf);
	return t;
}

static Type *pair(OpTypeContext *ctx, Type *a, Type *b)
{
	Type *fields[2] = {a, b};
	return type_tuple(ir_data_arena(ctx->module), 2, fields);
}

/* random.threefry_generate(key) -> (key, bits[out_shape]). */
Type *infer_op_THREEFRY_GENERATE(OpTypeContext *ctx)
{
	Type *k = key_arg(ctx, 0), *bits;
	if (!k || !(bits = out_shape_tensor(ctx, DT_UINT64)))
		return NULL;
	return pair(ctx, k, bits);
}

/* random.threefry_split(key) -> (key, key). */
Type *infer_op_THREEFRY_SPLIT(OpTypeContext *ctx)
{
	Type *k = key_arg(ctx, 0);
	return k ? pair(ctx, k, k) : NULL;
}

/* random.uniform and random.normal(key, a, b) -> (key, out_dtype[out_shape]);
 * a and b (low and high, or mean and scale) are scalars of out_dtype
 * (float32 by default, float64 the other choice). */
static Type *infer_distribution(OpTypeContext *ctx)
{
	Type *k = key_arg(ctx, 0), *values;
	DType dt;
	if (!k || !infer_attr_dtype(ctx, "out_dtype", DT_FLOAT32, &dt))
		return NULL;
	if (dt != DT_FLOAT32 && dt != DT_FLOAT64) {
		infer_op_error(ctx, "'%s' generates only float32 or float64 values",
			       infer_op_name(ctx));
		return NULL;
	}
	for (uint32_t i = 1; i <= 2; i++) {
		Type *p = infer_tensor_arg(ctx, i);
		if (!p)
			return NULL;
		if (p->u.tensor.ndim != 0 || p->u.tensor.dtype != dt) {
			infer_op_error(ctx, "'%s' expects a %s scalar for argument %u, got %s",
				       infer_op_name(ctx), dtype_name(dt), i + 1,
				       infer_tname(ctx, p));
			return NULL;
		}
	}
	if (!(values = out_shape_tensor(ctx, dt)))
		return NULL;
	return pair(ctx, k, values);
}

Type *infer_op_UNIFORM(OpTypeContext *ctx)
{
	return infer_distribution(ctx);
}

Type *infer_op_NORMAL(OpTypeContext *ctx)
{
	return infer_distribution(ctx);
}

/* random.multinomial(key, probs[..., K]) -> (key, int32[..., num_samples]). */
Type *infer_op_MULTINOMIAL(OpTypeContext *ctx)
{
	Type *k = key_arg(ctx, 0), *probs, *r;
	int64_t samples, *dims;
	uint32_t nd;
	DimBuf buf;
	if (!k || !(probs = infer_tensor_arg(ctx, 1)) ||
	    !infer_attr_int(ctx, "num_samples", 1, &samples, NULL))
		return NULL;
	nd = probs->u.tensor.ndim;
	if (nd == 0) {
		infer_op_error(ctx,
			       "'random.multinomial' expects probabilities of at least one "
			       "dimension, got %s",
			       infer_tname(ctx, probs));
		return NULL;
	}
	if (samples < 0) {
		infer_op_error(ctx,
			       "'random.multinomial' attribute num_samples=%lld must not be "
			       "negative",
			       (long long)samples);
		return NULL;
	}
	dims = dims_alloc(&buf, nd);
	memcpy(dims, probs->u.tensor.dims, nd * sizeof(int64_t));
	dims[nd - 1] = samples;
	r = type_tensor(ir_data_arena(ctx->module), DT_INT32, nd, dims);
	dims_release(&buf);
	return pair(ctx, k, r);
}
