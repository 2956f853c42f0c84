/*
 * infer_ethosu.c - the type relations of the Arm Ethos-U operators
 * (contrib.ethosu.*) that TVM's microNPU backend puts in a Relay graph,
 * from src/relay/op/contrib/ethosu: identity, unary_elementwise and
 * binary_elementwise. Each takes its input feature maps (ifm, ifm2) and a
 * look-up table (lut, used when activation="LUT"); the quantization is in
 * the attributes. A feature map is NHWC, or NHCWB16 (channels in bricks
 * of 16: N, H, C / 16, W, 16).
 *
 * As in infer_qnn.c, devplan has no int8, uint8 or int16 yet: the integer
 * dtypes it has (int32, int64) stand in for them where TVM wants one.
 * The convolutions and the pooling are still to come.
 */
#include "infer_ops.h"

/* A quantized feature map: int32 or int64 standing in for int8 and uint8. */
static bool ethosu_quantized(OpTypeContext *ctx, const Type *t, const char *what)
{
	if (t->u.tensor.dtype == DT_INT32 || t->u.tensor.dtype == DT_INT64)
		return true;
	infer_op_error(ctx, "'%s' expects a quantized (integer) tensor for %s, got %s",
		       infer_op_name(ctx), what, infer_tname(ctx, t));
	return false;
}

/* A layout attribute, "NHWC" (the default) or "NHCWB16"; sets *brick for
 * the latter. */
static bool ethosu_layout(OpTypeContext *ctx, const char *name, bool *brick)
{
	const char *s;
	if (!infer_attr_string(ctx, name, &s))
		return false;
	*brick = s && strcmp(s, "NHCWB16") == 0;
	if (!s || *brick || strcmp(s, "NHWC") == 0)
		return true;
	infer_op_error(ctx, "'%s' %s must be \"NHWC\" or \"NHCWB16\", got \"%s\"",
		       infer_op_name(ctx), name, s);
	return false;
}

/* TVM's EthosuInferElementwiseOutputShape: the ifm's N, H, W with
 * `channels` channels (the attribute channels_attr, which must be given),
 * laid out as ofm_layout says, of dtype dt. */
static Type *ethosu_elementwise(OpTypeContext *ctx, const Type *ifm, const char *channels_attr,
				DType dt)
{
	bool in_brick, out_brick, present;
	int64_t c, dims[5];
	const int64_t *d = ifm->u.tensor.dims;
	if (!ethosu_layout(ctx, "ifm_layout", &in_brick) ||
	    !ethosu_layout(ctx, "ofm_layout", &out_brick) ||
	    !infer_attr_int(ctx, channels_attr, 0, &c, &present))
		return NULL;
	if (!present) {
		infer_op_error(ctx, "'%s' needs %s", infer_op_name(ctx), channels_attr);
		return NULL;
	}
	if (c <= 0) {
		infer_op_error(ctx, "'%s' %s=%lld must be positive", infer_op_name(ctx),
			       channels_attr, (long long)c);
		return NULL;
	}
	if (ifm->u.tensor.ndim != (in_brick ? 5u : 4u)) {
		infer_op_error(ctx, "'%s' expects a %s ifm, got %s", infer_op_name(ctx),
			       in_brick ? "5-D NHCWB16" : "4-D NHWC", infer_tname(ctx, ifm));
		return NULL;
	}
	dims[0] = d[0];
	dims[1] = d[1];
	dims[2] = in_brick ? d[3] : d[2];
	if (!out_brick) {
		dims[3] = c;
		return infer_result(ctx, dt, 4, dims, (Type *)ifm, NULL);
	}
	dims[3] = dims[2];
	dims[2] = 1 + (c - 1) / 16;
	dims[4] = 16;
	return infer_result(ctx, dt, 5, dims, (Type *)ifm, NULL);
}

/* contrib.ethosu.identity(ifm, lut): the ifm's type; at most 4-D. */
Type *infer_op_CONTRIB_ETHOSU_IDENTITY(OpTypeContext *ctx)
{
	Type *ifm = infer_tensor_arg(ctx, 0);
	if (!ifm || !ethosu_quantized(ctx, ifm, "ifm"))
		return NULL;
	if (ifm->u.tensor.ndim > 4) {
		infer_op_error(ctx,
			       "'contrib.ethosu.identity' expects an ifm of at most 4 dimensions, "
			       "got %s",
			       infer_tname(ctx, ifm));
		return NULL;
	}
	return ifm;
}

/* operator_type, which must be given, as a string. */
static const char *ethosu_operator_type(OpTypeContext *ctx)
{
	const char *s;
	if (!infer_attr_string(ctx, "operator_type", &s))
		return NULL;
	if (!s)
		infer_op_error(ctx, "'%s' needs operator_type", infer_op_name(ctx));
	return s;
}

/* contrib.ethosu.unary_elementwise(ifm, lut): ABS of a quantized ifm or
 * CLZ (count leading zeros) of an int32 one, ofm_channels channels. */
Type *infer_op_CONTRIB_ETHOSU_UNARY_ELEMENTWISE(OpTypeContext *ctx)
{
	Type *ifm = infer_tensor_arg(ctx, 0);
	const char *op;
	if (!ifm || !(op = ethosu_operator_type(ctx)))
		return NULL;
	if (strcmp(op, "CLZ") == 0) {
		if (ifm->u.tensor.dtype != DT_INT32) {
			infer_op_error(
				ctx,
				"'contrib.ethosu.unary_elementwise' CLZ expects an int32 ifm, "
				"got %s",
				infer_tname(ctx, ifm));
			return NULL;
		}
	} else if (strcmp(op, "ABS") == 0) {
		if (!ethosu_quantized(ctx, ifm, "ifm"))
			return NULL;
	} else {
		infer_op_error(
			ctx,
			"'contrib.ethosu.unary_elementwise' operator_type must be \"ABS\" or "
			"\"CLZ\", got \"%s\"",
			op);
		return NULL;
	}
	return ethosu_elementwise(ctx, ifm, "ofm_channels", ifm->u.tensor.dtype);
}

/* contrib.ethosu.binary_elementwise(ifm, ifm2, lut): ADD, SUB, MUL, MIN,
 * MAX, SHR or SHL of two feature maps of one dtype, giving ofm_dtype
 * (which must be given; MIN and MAX keep the ifm's, the shifts work on
 * int32), ifm_channels channels. */
Type *infer_op_CONTRIB_ETHOSU_BINARY_ELEMENTWISE(OpTypeContext *ctx)
{
	Type *ifm, *ifm2;
	const char *op;
	DType out;
	bool ok;
	if (!infer_tensor_pair(ctx, &ifm, &ifm2) || !infer_same_dtype(ctx, ifm, ifm2) ||
	    !(op = ethosu_operator_type(ctx)) ||
	    !infer_attr_dtype(ctx, "ofm_dtype", DT_COUNT, &out))
		return NULL;
	if (out == DT_COUNT) {
		infer_op_error(ctx, "'contrib.ethosu.binary_elementwise' needs ofm_dtype");
		return NULL;
	}
	if (strcmp(op, "ADD") == 0 || strcmp(op, "SUB") == 0 || strcmp(op, "MUL") == 0 ||
	    strcmp(op, "MIN") == 0 || strcmp(op, "MAX") == 0) {
		bool minmax = strcmp(op, "MIN") == 0 || strcmp(op, "MAX") == 0;
		if (!ethosu_quantized(ctx, ifm, "ifm"))
			return NULL;
		ok = minmax ? out == ifm->u.tensor.dtype : (out == DT_INT32 || out == DT_INT64);
	} else if (strcmp(op, "SHR") == 0 || strcmp(op, "SHL") == 0) {
		if (ifm->u.tensor.dtype != DT_INT32) {
			infer_op_error(
				ctx,
				"'contrib.ethosu.binary_elementwise' %s expects an int32 ifm, "
				"got %s",
				op, infer_tname(ctx, ifm));
			return NULL;
		}
		ok = strcmp(op, "SHR") == 0 ? (out == DT_INT32 || out == DT_INT64)
					    : out == DT_INT32;
	} else {
		infer_op_error(ctx,
			       "'contrib.ethosu.binary_elementwise' operator_type must be \"ADD\", "
			       "\"SUB\", \"MUL\", \"MIN\", \"MAX\", \"SHR\" or \"SHL\", got \"%s\"",
			       op);
		return NULL;
	}
	if (!ok) {
		infer_op_error(ctx,
			       "'contrib.ethosu.binary_elementwise' %s does not support ofm_dtype "
			       "\"%s\" for %s",
			       op, dtype_name(out), infer_tname(ctx, ifm));
		return NULL;
	}
	return ethosu_elementwise(ctx, ifm, "ifm_channels", out);
}
