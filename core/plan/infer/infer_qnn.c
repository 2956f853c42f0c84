/*
 * infer_qnn.c - the type relations of the quantized operators (qnn.*), from
 * TVM's src/relay/qnn/op. A qnn operator takes its quantization parameters
 * as extra tensor arguments after its data: each scale a float32 and each
 * zero point an int32, either a scalar or, per channel, a vector as long as
 * the data's dimension `axis`. The result is the float operator's type with
 * the quantized dtype (or out_dtype).
 *
 * The dtypes are TVM's: each relation takes the storage dtypes its
 * ICHECKs name (int8 and uint8 mostly; int16, uint16, int32 where TVM
 * allows them) and gives the out_dtype TVM allows (int32 accumulators for
 * the products). Where TVM checks no dtype (the binary ops, concatenate,
 * contrib_dense_pack's inputs) any integer dtype is taken. The relations
 * that are a float operator's once the parameters are checked (dense,
 * batch_matmul, conv2d, conv2d_transpose, avg_pool2d, concatenate) call
 * that operator's relation; the products show it a weight of the data's
 * dtype, as TVM's data and weight may differ (uint8 data and an int8
 * weight), and qnn_float_relation tells its errors as the qnn operator's,
 * with the weight as written. Mixed dtypes where TVM wants one (the binary
 * ops' lhs and rhs, concatenate's fields) are named argument by argument.
 */
#include <stdio.h>

#include "infer_ops.h"

static Type *qnn_float_relation(OpTypeContext *ctx, OpTypeContext *inner, OpTypeRelation relation,
				OpKind float_op, const Type *shown, const Type *real);

/* TVM's dtype sets (the ICHECKs of src/relay/qnn/op) */
static const DType quantize_out[] = {DT_INT8, DT_UINT8, DT_INT16, DT_UINT16, DT_INT32};
static const DType requantize_in[] = {DT_INT8, DT_UINT8, DT_INT16, DT_INT32, DT_INT64};
static const DType requantize_out[] = {DT_INT8, DT_UINT8, DT_INT16, DT_INT32};
static const DType int8_or_uint8[] = {DT_INT8, DT_UINT8};
static const DType int8_only[] = {DT_INT8};
static const DType conv_in[] = {DT_INT8, DT_UINT8, DT_INT16};
static const DType wide_in[] = {DT_INT8, DT_UINT8, DT_INT16, DT_UINT16};
static const DType conv_out[] = {DT_INT16, DT_INT32, DT_INT64};
static const DType dense_out[] = {DT_INT32, DT_INT64};
static const DType int32_only[] = {DT_INT32};
static const DType any_integer[] = {DT_INT8,  DT_UINT8,  DT_INT16, DT_UINT16,
				    DT_INT32, DT_UINT32, DT_INT64, DT_UINT64};

/* x, the tensor `what`, is of one of the n dtypes of set. */
static bool qnn_dtype(OpTypeContext *ctx, const Type *x, const char *what, const DType *set,
		      size_t n)
{
	if (infer_dtype_in(x->u.tensor.dtype, set, n))
		return true;
	if (set == any_integer)
		infer_op_error(ctx, "'%s' expects a quantized (integer) tensor for %s, got %s",
			       infer_op_name(ctx), what, infer_tname(ctx, x));
	else
		infer_op_error(ctx, "'%s' expects %s of %s, got %s", infer_op_name(ctx), what,
			       infer_dtype_set_text(ctx, set, n), infer_tname(ctx, x));
	return false;
}

static const char *dtype_text(DType dt)
{
	return dt == DT_FLOAT32 ? "a float32" : "an int32";
}

/* Argument i, the parameter `what`: a tensor of dtype dt, a scalar or, when
 * len is not 0, a vector of len elements (DIM_ANY: of any length). TVM's
 * IsScalarType and AssignType. */
static bool qnn_param(OpTypeContext *ctx, uint32_t i, const char *what, DType dt, int64_t len)
{
	const Type *t = ctx->arg_types[i];
	if (t->kind == TYPE_TENSOR && t->u.tensor.dtype == dt &&
	    (t->u.tensor.ndim == 0 ||
	     (len != 0 && t->u.tensor.ndim == 1 && dim_match(t->u.tensor.dims[0], len))))
		return true;
	if (len == 0)
		infer_op_error(ctx, "'%s' expects %s (argument %u) to be %s scalar, got %s",
			       infer_op_name(ctx), what, i + 1, dtype_text(dt),
			       infer_tname(ctx, t));
	else
		infer_op_error(ctx,
			       "'%s' expects %s (argument %u) to be %s scalar or a vector of %s, "
			       "got %s",
			       infer_op_name(ctx), what, i + 1, dtype_text(dt),
			       infer_dim_text(ctx, len), infer_tname(ctx, t));
	return false;
}

/* The output scale and zero point at arguments i and i + 1: scalars. */
static bool qnn_output_params(OpTypeContext *ctx, uint32_t i)
{
	return qnn_param(ctx, i, "output_scale", DT_FLOAT32, 0) &&
	       qnn_param(ctx, i + 1, "output_zero_point", DT_INT32, 0);
}

static bool is_single(const Type *t)
{
	if (t->kind != TYPE_TENSOR)
		return false;
	for (uint32_t i = 0; i < t->u.tensor.ndim; i++)
		if (t->u.tensor.dims[i] != 1)
			return false;
	return true;
}

/* The scale and zero point of x at arguments i and i + 1, per channel along
 * the attribute axis_name (default -1; a negative one counts from the end,
 * and any names the only channel of a scalar x). A channel axis must name
 * a dimension of x unless both parameters are scalars (or, with
 * single_is_scalar, tensors of one element, as dequantize allows). */
static bool qnn_channel_params(OpTypeContext *ctx, const Type *x, uint32_t i, const char *axis_name,
			       bool single_is_scalar)
{
	const Type *scale = ctx->arg_types[i], *zero = ctx->arg_types[i + 1];
	int64_t axis, rank = x->u.tensor.ndim, len = 1;
	bool present, scalar;
	if (!infer_attr_int(ctx, axis_name, -1, &axis, &present))
		return false;
	if (axis < 0)
		axis = rank > 0 ? rank + axis : 0;
	scalar = scale->kind == TYPE_TENSOR && zero->kind == TYPE_TENSOR &&
		 ((scale->u.tensor.ndim == 0 && zero->u.tensor.ndim == 0) ||
		  (single_is_scalar && is_single(scale) && is_single(zero)));
	if (!scalar && (axis < 0 || axis >= (rank > 0 ? rank : 1))) {
		const AttrValue *v = infer_attr_value(ctx, axis_name);
		infer_op_error(ctx, "'%s' %s %lld is out of range for %s", infer_op_name(ctx),
			       axis_name, (long long)(v ? v->u.i : -1), infer_tname(ctx, x));
		return false;
	}
	/* scalar parameters fit any axis, even one out of range (then the
	 * length is 1, as for single ones) */
	if (axis >= 0 && axis < rank && !(single_is_scalar && scalar))
		len = x->u.tensor.dims[axis];
	return qnn_param(ctx, i, "the scale", DT_FLOAT32, len) &&
	       qnn_param(ctx, i + 1, "the zero point", DT_INT32, len);
}

/* A dtype attribute that must be given and be one of want (n of them). */
static bool qnn_out_dtype(OpTypeContext *ctx, const char *name, const DType *want, size_t n,
			  DType *out)
{
	if (!infer_attr_dtype(ctx, name, DT_COUNT, out))
		return false;
	if (infer_dtype_in(*out, want, n))
		return true;
	if (*out == DT_COUNT)
		infer_op_error(ctx, "'%s' needs %s", infer_op_name(ctx), name);
	else
		infer_op_error(ctx, "'%s' does not support %s \"%s\" (TVM takes %s)",
			       infer_op_name(ctx), name, dtype_name(*out),
			       infer_dtype_set_text(ctx, want, n));
	return false;
}

/* ---- quantize, dequantize, requantize ------------------------------------ */

/* qnn.quantize(data, output_scale, output_zero_point): float32 data to
 * out_dtype, int8, uint8, int16, uint16 or int32. */
Type *infer_op_QNN_QUANTIZE(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	DType dt;
	if (!x)
		return NULL;
	if (x->u.tensor.dtype != DT_FLOAT32) {
		infer_op_error(ctx, "'qnn.quantize' expects a float32 tensor, got %s",
			       infer_tname(ctx, x));
		return NULL;
	}
	if (!qnn_channel_params(ctx, x, 1, "axis", false) ||
	    !qnn_out_dtype(ctx, "out_dtype", INFER_DTYPES(quantize_out), &dt))
		return NULL;
	return infer_result(ctx, dt, x->u.tensor.ndim, x->u.tensor.dims, NULL, NULL);
}

/* qnn.dequantize(data, input_scale, input_zero_point): data of a dtype
 * quantize makes to out_dtype, float32 (TVM's Python default) or float16. */
Type *infer_op_QNN_DEQUANTIZE(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	DType dt;
	if (!x || !qnn_dtype(ctx, x, "data", INFER_DTYPES(quantize_out)) ||
	    !qnn_channel_params(ctx, x, 1, "axis", true) ||
	    !infer_attr_dtype(ctx, "out_dtype", DT_FLOAT32, &dt))
		return NULL;
	if (dt != DT_FLOAT32 && dt != DT_FLOAT16) {
		infer_op_error(ctx, "'qnn.dequantize' does not support out_dtype \"%s\"",
			       dtype_name(dt));
		return NULL;
	}
	return infer_result(ctx, dt, x->u.tensor.ndim, x->u.tensor.dims, NULL, NULL);
}

/* qnn.requantize(data, input_scale, input_zero_point, output_scale,
 * output_zero_point): int8, uint8, int16, int32 or int64 data (an
 * accumulator, usually) to out_dtype, int8, uint8, int16 or int32; the
 * input parameters may be per channel, and axis must name a dimension of
 * data even when they are not. */
Type *infer_op_QNN_REQUANTIZE(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	const char *rounding, *compute;
	int64_t axis, rank;
	bool present;
	DType dt;
	if (!x || !qnn_dtype(ctx, x, "data", INFER_DTYPES(requantize_in)) ||
	    !infer_attr_int(ctx, "axis", -1, &axis, &present) ||
	    !infer_attr_string(ctx, "rounding", &rounding) ||
	    !infer_attr_string(ctx, "compute_dtype", &compute))
		return NULL;
	rank = x->u.tensor.ndim;
	if (rank > 0 && (axis < -rank || axis >= rank)) {
		infer_op_error(ctx, "'qnn.requantize' axis %lld is out of range for %s",
			       (long long)axis, infer_tname(ctx, x));
		return NULL;
	}
	if (rounding && strcmp(rounding, "None") != 0 && strcmp(rounding, "UPWARD") != 0 &&
	    strcmp(rounding, "TONEAREST") != 0) {
		infer_op_error(ctx,
			       "'qnn.requantize' rounding must be \"UPWARD\" or \"TONEAREST\", "
			       "got \"%s\"",
			       rounding);
		return NULL;
	}
	if (!qnn_channel_params(ctx, x, 1, "axis", false) || !qnn_output_params(ctx, 3) ||
	    !qnn_out_dtype(ctx, "out_dtype", INFER_DTYPES(requantize_out), &dt))
		return NULL;
	return infer_result(ctx, dt, x->u.tensor.ndim, x->u.tensor.dims, x, NULL);
}

/* qnn.simulated_quantize(data, out_dtype, output_scale, output_zero_point)
 * and qnn.simulated_dequantize(data, in_dtype, input_scale,
 * input_zero_point): the dtype is a tensor argument, read at run time; the
 * result has data's type (TVM checks only that both are tensors). */
static Type *infer_simulated(OpTypeContext *ctx)
{
	Type *x = infer_tensor_arg(ctx, 0);
	int64_t axis;
	bool present;
	if (!x || !infer_tensor_arg(ctx, 1) || !infer_attr_int(ctx, "axis", -1, &axis, &present))
		return NULL;
	return x;
}

Type *infer_op_QNN_SIMULATED_QUANTIZE(OpTypeContext *ctx)
{
	return infer_simulated(ctx);
}

Type *infer_op_QNN_SIMULATED_DEQUANTIZE(OpTypeContext *ctx)
{
	DType dt;
	if (!infer_attr_dtype(ctx, "out_dtype", DT_FLOAT32, &dt))
		return NULL;
	return infer_simulated(ctx);
}

/* ---- element-wise --------------------------------------------------------- */

/* qnn.add, qnn.mul, qnn.subtract (lhs, rhs, lhs_scale, lhs_zero_point,
 * rhs_scale, rhs_zero_point, output_scale, output_zero_point): TVM's
 * QnnBroadcastRel, numpy broadcasting of two quantized tensors of one
 * dtype, each with its parameters per channel along lhs_axis, rhs_axis. */
static Type *infer_qnn_binary(OpTypeContext *ctx)
{
	Type *a, *b, *r;
	uint32_t na, nb, n;
	DimBuf buf;
	int64_t *dims;
	if (!infer_tensor_pair(ctx, &a, &b))
		return NULL;
	if (a->u.tensor.dtype != b->u.tensor.dtype) {
		/* TVM's BroadcastRel wants one dtype of both */
		infer_op_error(
			ctx,
			"'%s' expects rhs (argument 2) of the dtype of lhs (argument 1): lhs "
			"is %s, rhs is %s",
			infer_op_name(ctx), dtype_name(a->u.tensor.dtype),
			dtype_name(b->u.tensor.dtype));
		return NULL;
	}
	if (!qnn_dtype(ctx, a, "lhs", INFER_DTYPES(any_integer)) ||
	    !qnn_channel_params(ctx, a, 2, "lhs_axis", false) ||
	    !qnn_channel_params(ctx, b, 4, "rhs_axis", false) || !qnn_output_params(ctx, 6))
		return NULL;
	na = a->u.tensor.ndim;
	nb = b->u.tensor.ndim;
	n = na > nb ? na : nb;
	dims = dims_alloc(&buf, n);
	for (uint32_t i = 0; i < n; i++) {
		int64_t da = i < n - na ? 1 : a->u.tensor.dims[i - (n - na)];
		int64_t db = i < n - nb ? 1 : b->u.tensor.dims[i - (n - nb)];
		if (!infer_broadcast_dim(da, db, &dims[i])) {
			infer_op_error(ctx, "'%s' cannot broadcast %s and %s", infer_op_name(ctx),
				       infer_tname(ctx, a), infer_tname(ctx, b));
			dims_release(&buf);
			return NULL;
		}
	}
	r = infer_result(ctx, a->u.tensor.dtype, n, dims, a, b);
	dims_release(&buf);
	return r;
}

Type *infer_op_QNN_ADD(OpTypeContext *ctx)
{
	return infer_qnn_binary(ctx);
}

Type *infer_op_QNN_MUL(OpTypeContext *ctx)
{
	return infer_qnn_binary(ctx);
}

Type *infer_op_QNN_SUBTRACT(OpTypeContext *ctx)
{
	return infer_qnn_binary(ctx);
}

/* The unary ops, qnn.softmax and qnn.leaky_relu (data, scale, zero_point,
 * output_scale, output_zero_point): data of one of the n dtypes of set,
 * scalar parameters, data's type. */
static Type *infer_qnn_unary_of(OpTypeContext *ctx, const DType *set, size_t n)
{
	Type *x = infer_tensor_arg(ctx, 0);
	if (!x || !qnn_dtype(ctx, x, "data", set, n) ||
	    !qnn_param(ctx, 1, "the scale", DT_FLOAT32, 0) ||
	    !qnn_param(ctx, 2, "the zero point", DT_INT32, 0) || !qnn_output_params(ctx, 3))
		return NULL;
	return x;
}

/* TVM's QnnElementwiseUnaryFuncRel: int8 or uint8. */
static Type *infer_qnn_unary(OpTypeContext *ctx)
{
	return infer_qnn_unary_of(ctx, INFER_DTYPES(int8_or_uint8));
}

Type *infer_op_QNN_TANH(OpTypeContext *ctx)
{
	return infer_qnn_unary(ctx);
}

Type *infer_op_QNN_EXP(OpTypeContext *ctx)
{
	return infer_qnn_unary(ctx);
}

Type *infer_op_QNN_SQRT(OpTypeContext *ctx)
{
	return infer_qnn_unary(ctx);
}

Type *infer_op_QNN_RSQRT(OpTypeContext *ctx)
{
	return infer_qnn_unary(ctx);
}

Type *infer_op_QNN_ERF(OpTypeContext *ctx)
{
	return infer_qnn_unary(ctx);
}

Type *infer_op_QNN_SIGMOID(OpTypeContext *ctx)
{
	return infer_qnn_unary(ctx);
}

Type *infer_op_QNN_HARDSWISH(OpTypeContext *ctx)
{
	return infer_qnn_unary(ctx);
}

Type *infer_op_QNN_LOG(OpTypeContext *ctx)
{
	return infer_qnn_unary(ctx);
}

Type *infer_op_QNN_ABS(OpTypeContext *ctx)
{
	return infer_qnn_unary(ctx);
}

/* qnn.softmax: int8 data only. */
Type *infer_op_QNN_SOFTMAX(OpTypeContext *ctx)
{
	Type *x = infer_qnn_unary_of(ctx, INFER_DTYPES(int8_only));
	int64_t axis, normalized;
	bool present;
	if (!x || !infer_attr_int(ctx, "axis", -1, &axis, &present) ||
	    (x->u.tensor.ndim > 0 && !infer_normalize_axis(ctx, axis, x, &normalized)))
		return NULL;
	return x;
}

Type *infer_op_QNN_LEAKY_RELU(OpTypeContext *ctx)
{
	return infer_qnn_unary(ctx);
}

/* qnn.avg_pool2d(data, input_scale, input_zero_point, output_scale,
 * output_zero_point): nn.avg_pool2d's window of int8 or uint8 data. */
Type *infer_op_QNN_AVG_POOL2D(OpTypeContext *ctx)
{
	return infer_qnn_unary(ctx) ? qnn_float_relation(ctx, ctx, infer_op_AVG_POOL2D,
							 OP_AVG_POOL2D, NULL, NULL)
				    : NULL;
}

/* Appends to out the text with every occurrence of from but the first
 * `skip` replaced by to. */
static void replace_all(StrBuf *out, const char *text, const char *from, const char *to,
			unsigned skip)
{
	size_t n = strlen(from);
	const char *hit;
	while (n && (hit = strstr(text, from)) != NULL) {
		strbuf_append(out, text, (size_t)(hit - text));
		strbuf_puts(out, skip ? from : to);
		skip -= skip > 0;
		text = hit + n;
	}
	strbuf_puts(out, text);
}

/* The float operator's relation on inner (ctx's call, maybe shown other
 * argument types), its errors told as the qnn operator's: the float
 * operator's quoted name becomes the qnn one's, and the type shown for an
 * argument in its place (shown, a weight given the data's dtype) becomes
 * the argument's own (real). */
static Type *qnn_float_relation(OpTypeContext *ctx, OpTypeContext *inner, OpTypeRelation relation,
				OpKind float_op, const Type *shown, const Type *real)
{
	DiagList scratch, *outer = ctx->diags;
	Type *r;
	char from[96], to[96];
	snprintf(from, sizeof from, "'%s'", op_info(float_op)->name);
	snprintf(to, sizeof to, "'%s'", infer_op_name(ctx));
	diag_init(&scratch);
	inner->diags = &scratch;
	r = relation(inner);
	inner->diags = outer;
	for (size_t i = 0; i < scratch.count; i++) {
		const Diag *d = &scratch.items[i];
		StrBuf named, typed;
		strbuf_init(&named);
		strbuf_init(&typed);
		replace_all(&named, d->message, from, to, 0);
		if (shown && real && shown != real) {
			/* data that looks like the shown weight is named first */
			const char *text = infer_tname(ctx, shown);
			replace_all(&typed, named.data ? named.data : "", text,
				    infer_tname(ctx, real),
				    strcmp(infer_tname(ctx, ctx->arg_types[0]), text) == 0);
		} else
			strbuf_puts(&typed, named.data ? named.data : "");
		diag_add(outer, d->severity, d->src, d->pos, "%s", typed.data);
		strbuf_free(&named);
		strbuf_free(&typed);
	}
	diag_free(&scratch);
	return r;
}

/* qnn.concatenate(data, input_scales, input_zero_points, output_scale,
 * output_zero_point): a tuple of scalar parameters per field of data. */
Type *infer_op_QNN_CONCATENATE(OpTypeContext *ctx)
{
	static const char *const what[] = {"input_scales", "input_zero_points"};
	for (uint32_t i = 1; i < 3; i++) {
		const Type *t = ctx->arg_types[i];
		DType dt = i == 1 ? DT_FLOAT32 : DT_INT32;
		if (t->kind != TYPE_TUPLE) {
			infer_op_error(ctx, "'qnn.concatenate' expects a tuple of %s, got %s",
				       what[i - 1], infer_tname(ctx, t));
			return NULL;
		}
		for (uint32_t f = 0; f < t->u.tuple.nfields; f++) {
			const Type *p = t->u.tuple.fields[f];
			if (p->kind != TYPE_TENSOR || p->u.tensor.dtype != dt || p->u.tensor.ndim) {
				infer_op_error(ctx,
					       "'qnn.concatenate' expects %s of %s scalars, got %s",
					       what[i - 1], dtype_name(dt), infer_tname(ctx, t));
				return NULL;
			}
		}
	}
	if (!qnn_output_params(ctx, 3))
		return NULL;
	if (ctx->arg_types[0]->kind == TYPE_TUPLE) {
		const Type *t = ctx->arg_types[0];
		for (uint32_t f = 1; f < t->u.tuple.nfields; f++) {
			const Type *a = t->u.tuple.fields[0], *b = t->u.tuple.fields[f];
			if (a->kind == TYPE_TENSOR && b->kind == TYPE_TENSOR &&
			    a->u.tensor.dtype != b->u.tensor.dtype) {
				infer_op_error(
					ctx,
					"'qnn.concatenate' expects every field of data "
					"(argument 1) of one dtype: field 0 is %s, field %u is "
					"%s",
					dtype_name(a->u.tensor.dtype), f,
					dtype_name(b->u.tensor.dtype));
				return NULL;
			}
		}
	}
	return qnn_float_relation(ctx, ctx, infer_op_CONCATENATE, OP_CONCATENATE, NULL, NULL);
}

/* ---- products and convolutions -------------------------------------------- */

/* How a product's weight scale and zero point may come per channel. */
typedef enum QnnChannels {
	QNN_SCALAR,       /* scalars only (batch_matmul) */
	QNN_WEIGHT_DIM_0, /* a vector of the weight's first dimension (dense, conv2d OIHW) */
	QNN_ANY_LENGTH,   /* a vector (conv2d_transpose, whose channels TVM counts by layout) */
} QnnChannels;

/* What a product takes and gives: TVM's dtype sets for its data, its
 * weight and its out_dtype. */
typedef struct QnnProduct {
	QnnChannels channels;
	const DType *data;
	size_t ndata;
	const DType *weight;
	size_t nweight;
	const DType *out;
	size_t nout;
} QnnProduct;

/* The common arguments of dense, batch_matmul, conv2d and
 * conv2d_transpose (data, weight, input_zero_point, weight_zero_point,
 * input_scale, weight_scale): data and weight of the dtypes of q (not
 * necessarily one), a scalar input zero point and scale, a weight scale and
 * zero point per output channel as q->channels says, and out_dtype, one of
 * q->out. Then the float operator's relation types the call, shown a weight
 * of data's dtype (it wants them alike, TVM's qnn ops do not). */
static Type *qnn_product(OpTypeContext *ctx, const QnnProduct *q, OpTypeRelation relation,
			 OpKind float_op)
{
	Type *d, *w, *args[6];
	OpTypeContext inner;
	DType dt;
	int64_t len = 0;
	if (!infer_tensor_pair(ctx, &d, &w) || !qnn_dtype(ctx, d, "data", q->data, q->ndata) ||
	    !qnn_dtype(ctx, w, "the weight", q->weight, q->nweight))
		return NULL;
	if (q->channels == QNN_WEIGHT_DIM_0)
		len = w->u.tensor.ndim > 0 ? w->u.tensor.dims[0] : DIM_ANY;
	else if (q->channels == QNN_ANY_LENGTH)
		len = DIM_ANY;
	if (!qnn_param(ctx, 2, "input_zero_point", DT_INT32, 0) ||
	    !qnn_param(ctx, 4, "input_scale", DT_FLOAT32, 0) ||
	    !qnn_param(ctx, 3, "weight_zero_point", DT_INT32, len) ||
	    !qnn_param(ctx, 5, "weight_scale", DT_FLOAT32, len) ||
	    !qnn_out_dtype(ctx, "out_dtype", q->out, q->nout, &dt))
		return NULL;
	DP_ASSERT(ctx->call->u.call.nargs == 6); /* ops.def: exactly six arguments */
	inner = *ctx;
	for (uint32_t i = 0; i < 6; i++)
		args[i] = ctx->arg_types[i];
	if (w->u.tensor.dtype != d->u.tensor.dtype)
		args[1] = type_tensor(ir_data_arena(ctx->module), d->u.tensor.dtype,
				      w->u.tensor.ndim, w->u.tensor.dims);
	inner.arg_types = args;
	return qnn_float_relation(ctx, &inner, relation, float_op, args[1], w);
}

/* qnn.dense: int8, uint8, int16 or uint16 data, an int8 or uint8 weight,
 * int32 or int64 out. */
Type *infer_op_QNN_DENSE(OpTypeContext *ctx)
{
	static const QnnProduct q = {QNN_WEIGHT_DIM_0, INFER_DTYPES(wide_in),
				     INFER_DTYPES(int8_or_uint8), INFER_DTYPES(dense_out)};
	return qnn_product(ctx, &q, infer_op_DENSE, OP_DENSE);
}

/* qnn.contrib_dense_pack(data, weight, ...): TVM's QnnDensePackRel, the
 * dense of 2-D data by a weight packed as [N / n, K / k, n, k] (weight_layout
 * "NC8n" and the like), of out_dtype; TVM checks neither the dtypes nor the
 * parameters here. */
Type *infer_op_QNN_CONTRIB_DENSE_PACK(OpTypeContext *ctx)
{
	Type *d, *w;
	const char *layout;
	int64_t units, n;
	bool present;
	DType dt;
	if (!infer_tensor_pair(ctx, &d, &w) || !infer_attr_int(ctx, "units", 0, &units, &present) ||
	    !infer_attr_string(ctx, "weight_layout", &layout) ||
	    !qnn_out_dtype(ctx, "out_dtype", INFER_DTYPES(dense_out), &dt))
		return NULL;
	if (d->u.tensor.ndim != 2 || w->u.tensor.ndim != 4) {
		infer_op_error(ctx,
			       "'qnn.contrib_dense_pack' expects 2-D data and a 4-D weight, got %s "
			       "and %s",
			       infer_tname(ctx, d), infer_tname(ctx, w));
		return NULL;
	}
	n = DIM_ANY;
	if (dim_known(w->u.tensor.dims[0]) && dim_known(w->u.tensor.dims[2]) &&
	    !checked_mul(w->u.tensor.dims[0], w->u.tensor.dims[2], &n)) {
		infer_op_error(ctx, "'qnn.contrib_dense_pack' weight %s is too large",
			       infer_tname(ctx, w));
		return NULL;
	}
	return infer_result(ctx, dt, 2, (int64_t[]){d->u.tensor.dims[0], n}, NULL, NULL);
}

/* qnn.batch_matmul: int8 or uint8 operands, int32 out. */
Type *infer_op_QNN_BATCH_MATMUL(OpTypeContext *ctx)
{
	static const QnnProduct q = {QNN_SCALAR, INFER_DTYPES(int8_or_uint8),
				     INFER_DTYPES(int8_or_uint8), INFER_DTYPES(int32_only)};
	return qnn_product(ctx, &q, infer_op_BATCH_MATMUL, OP_BATCH_MATMUL);
}

/* qnn.conv2d: int8, uint8 or int16 data and weight, int16, int32 or int64
 * out. */
Type *infer_op_QNN_CONV2D(OpTypeContext *ctx)
{
	static const QnnProduct q = {QNN_WEIGHT_DIM_0, INFER_DTYPES(conv_in), INFER_DTYPES(conv_in),
				     INFER_DTYPES(conv_out)};
	return qnn_product(ctx, &q, infer_op_CONV2D, OP_CONV2D);
}

/* qnn.conv2d_transpose: int8, uint8, int16 or uint16 data, an int8 or uint8
 * weight, int16, int32 or int64 out. */
Type *infer_op_QNN_CONV2D_TRANSPOSE(OpTypeContext *ctx)
{
	static const QnnProduct q = {QNN_ANY_LENGTH, INFER_DTYPES(wide_in),
				     INFER_DTYPES(int8_or_uint8), INFER_DTYPES(conv_out)};
	return qnn_product(ctx, &q, infer_op_CONV2D_TRANSPOSE, OP_CONV2D_TRANSPOSE);
}
