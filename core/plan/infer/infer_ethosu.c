/*
 * infer_ethosu.c - the type relations of the Arm Ethos-U operators
 * (contrib.ethosu.*) that TVM's microNPU backend puts in a Relay graph,
 * from src/relay/op/contrib/ethosu: identity, unary_elementwise,
 * binary_elementwise, conv2d, depthwise_conv2d and pooling. Each takes its
 * input feature maps (ifm, ifm2), the convolutions a weight (OHWI) and a
 * packed scale and bias, and a look-up table (lut, used when
 * activation="LUT"); the quantization is in the attributes. A feature map is NHWC, or NHCWB16 (channels in bricks
 * of 16: N, H, C / 16, W, 16).
 *
 * As in infer_qnn.c, devplan has no int8, uint8 or int16 yet: the integer
 * dtypes it has (int32, int64) stand in for them where TVM wants one
 * (the scale and bias's uint8 too).
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

/* TVM's EthosuInferKernelOutput (after EthosuInferUpscaledInput when
 * upscale is "ZEROS" or "NEAREST", which doubles the height and width):
 * the ifm's N and its H and W through a window of the attribute
 * window_attr (required) with strides, padding and, when has_dilation,
 * dilation; ofm_channels (required) channels, laid out as ofm_layout
 * says, of dtype dt. */
static Type *ethosu_window(OpTypeContext *ctx, const Type *ifm, const char *window_attr,
			   bool has_dilation, DType dt, int64_t *kernel)
{
	bool in_brick, out_brick, present;
	const char *upscale;
	int64_t c, strides[2], dilation[2] = {1, 1}, pad[4], h, w, dims[5];
	const int64_t *d = ifm->u.tensor.dims;
	if (!ethosu_layout(ctx, "ifm_layout", &in_brick) ||
	    !ethosu_layout(ctx, "ofm_layout", &out_brick) ||
	    !infer_attr_int(ctx, "ofm_channels", 0, &c, &present))
		return NULL;
	if (!present) {
		infer_op_error(ctx, "'%s' needs ofm_channels", infer_op_name(ctx));
		return NULL;
	}
	if (c <= 0) {
		infer_op_error(ctx, "'%s' ofm_channels=%lld must be positive", infer_op_name(ctx),
			       (long long)c);
		return NULL;
	}
	if (!infer_attr_pair(ctx, window_attr, 1, 1, kernel, &present))
		return NULL;
	if (!present) {
		infer_op_error(ctx, "'%s' needs %s", infer_op_name(ctx), window_attr);
		return NULL;
	}
	if (!infer_attr_pair(ctx, "strides", 1, 1, strides, &present) ||
	    (has_dilation && !infer_attr_pair(ctx, "dilation", 1, 1, dilation, &present)) ||
	    !infer_attr_padding(ctx, pad) || !infer_attr_string(ctx, "upscale", &upscale))
		return NULL;
	if (upscale && strcmp(upscale, "NONE") != 0 && strcmp(upscale, "ZEROS") != 0 &&
	    strcmp(upscale, "NEAREST") != 0) {
		infer_op_error(ctx,
			       "'%s' upscale must be \"NONE\", \"ZEROS\" or \"NEAREST\", got "
			       "\"%s\"",
			       infer_op_name(ctx), upscale);
		return NULL;
	}
	if (ifm->u.tensor.ndim != (in_brick ? 5u : 4u)) {
		infer_op_error(ctx, "'%s' expects a %s ifm, got %s", infer_op_name(ctx),
			       in_brick ? "5-D NHCWB16" : "4-D NHWC", infer_tname(ctx, ifm));
		return NULL;
	}
	h = d[1];
	w = in_brick ? d[3] : d[2];
	for (int i = 0; i < 2; i++) {
		int64_t *x = i == 0 ? &h : &w, extent, span;
		if (!dim_known(*x))
			continue;
		if ((upscale && strcmp(upscale, "NONE") != 0 && !checked_mul(*x, 2, x)) ||
		    !checked_mul(kernel[i] - 1, dilation[i], &span) ||
		    !checked_add(span, 1, &span) || !checked_add(*x, pad[i], &extent) ||
		    !checked_add(extent, pad[i + 2], &extent)) {
			infer_op_error(ctx, "'%s' window of %s is too large", infer_op_name(ctx),
				       infer_tname(ctx, ifm));
			return NULL;
		}
		if (extent < span) {
			infer_op_error(ctx, "'%s' %s %lldx%lld is larger than the padded ifm %s",
				       infer_op_name(ctx), window_attr, (long long)kernel[0],
				       (long long)kernel[1], infer_tname(ctx, ifm));
			return NULL;
		}
		*x = (extent - span) / strides[i] + 1;
	}
	dims[0] = d[0];
	dims[1] = h;
	if (!out_brick) {
		dims[2] = w;
		dims[3] = c;
		return infer_result(ctx, dt, 4, dims, (Type *)ifm, NULL);
	}
	dims[2] = 1 + (c - 1) / 16;
	dims[3] = w;
	dims[4] = 16;
	return infer_result(ctx, dt, 5, dims, (Type *)ifm, NULL);
}

/* The weight of a convolution: quantized, OHWI with O = ofm_channels and
 * H, W = kernel_shape (TVM assigns it that shape). */
static bool ethosu_weight(OpTypeContext *ctx, const Type *weight, const int64_t kernel[2])
{
	int64_t c;
	bool present;
	if (!ethosu_quantized(ctx, weight, "weight") ||
	    !infer_attr_int(ctx, "ofm_channels", 0, &c, &present))
		return false;
	if (weight->u.tensor.ndim == 4 && dim_match(weight->u.tensor.dims[0], c) &&
	    dim_match(weight->u.tensor.dims[1], kernel[0]) &&
	    dim_match(weight->u.tensor.dims[2], kernel[1]))
		return true;
	infer_op_error(ctx, "'%s' expects a weight of shape (%lld, %lld, %lld, _), got %s",
		       infer_op_name(ctx), (long long)c, (long long)kernel[0], (long long)kernel[1],
		       infer_tname(ctx, weight));
	return false;
}

/* contrib.ethosu.conv2d(ifm, weight, scale_bias, lut): a quantized ifm
 * through an OHWI weight; scale_bias is (O, 10); the ofm has the ifm's
 * dtype. */
Type *infer_op_CONTRIB_ETHOSU_CONV2D(OpTypeContext *ctx)
{
	Type *ifm, *weight, *bias, *r;
	int64_t kernel[2];
	if (!infer_tensor_pair(ctx, &ifm, &weight) || !(bias = infer_tensor_arg(ctx, 2)) ||
	    !ethosu_quantized(ctx, ifm, "ifm") || !ethosu_quantized(ctx, bias, "scale_bias") ||
	    !(r = ethosu_window(ctx, ifm, "kernel_shape", true, ifm->u.tensor.dtype, kernel)) ||
	    !ethosu_weight(ctx, weight, kernel))
		return NULL;
	if (bias->u.tensor.ndim != 2 ||
	    !dim_match(bias->u.tensor.dims[0], weight->u.tensor.dims[0]) ||
	    !dim_match(bias->u.tensor.dims[1], 10)) {
		infer_op_error(ctx,
			       "'contrib.ethosu.conv2d' expects a scale_bias of shape (%s, 10), "
			       "got %s",
			       infer_dim_text(ctx, weight->u.tensor.dims[0]),
			       infer_tname(ctx, bias));
		return NULL;
	}
	return r;
}

/* contrib.ethosu.depthwise_conv2d(ifm, weight, scale_bias, lut): as
 * conv2d, one filter per channel, giving ofm_dtype (required). */
Type *infer_op_CONTRIB_ETHOSU_DEPTHWISE_CONV2D(OpTypeContext *ctx)
{
	Type *ifm, *weight, *bias, *r;
	int64_t kernel[2];
	DType out;
	if (!infer_tensor_pair(ctx, &ifm, &weight) || !(bias = infer_tensor_arg(ctx, 2)) ||
	    !ethosu_quantized(ctx, ifm, "ifm") || !ethosu_quantized(ctx, bias, "scale_bias") ||
	    !infer_attr_dtype(ctx, "ofm_dtype", DT_COUNT, &out))
		return NULL;
	if (out != DT_INT32 && out != DT_INT64) {
		if (out == DT_COUNT)
			infer_op_error(ctx, "'contrib.ethosu.depthwise_conv2d' needs ofm_dtype");
		else
			infer_op_error(
				ctx,
				"'contrib.ethosu.depthwise_conv2d' does not support ofm_dtype "
				"\"%s\"",
				dtype_name(out));
		return NULL;
	}
	if (!(r = ethosu_window(ctx, ifm, "kernel_shape", true, out, kernel)) ||
	    !ethosu_weight(ctx, weight, kernel))
		return NULL;
	return r;
}

/* contrib.ethosu.pooling(ifm, lut): AVG, MAX or SUM over pool_shape,
 * giving ofm_dtype (required): the ifm's for AVG and MAX, int32 for SUM. */
Type *infer_op_CONTRIB_ETHOSU_POOLING(OpTypeContext *ctx)
{
	Type *ifm = infer_tensor_arg(ctx, 0);
	const char *type;
	int64_t pool[2];
	DType out;
	bool sum;
	if (!ifm || !infer_attr_string(ctx, "pooling_type", &type) ||
	    !infer_attr_dtype(ctx, "ofm_dtype", DT_COUNT, &out))
		return NULL;
	if (!type ||
	    (strcmp(type, "AVG") != 0 && strcmp(type, "MAX") != 0 && strcmp(type, "SUM") != 0)) {
		infer_op_error(ctx,
			       "'contrib.ethosu.pooling' pooling_type must be \"AVG\", \"MAX\" "
			       "or \"SUM\", got %s%s%s",
			       type ? "\"" : "", type ? type : "none", type ? "\"" : "");
		return NULL;
	}
	sum = strcmp(type, "SUM") == 0;
	if (!ethosu_quantized(ctx, ifm, "ifm"))
		return NULL;
	if (out == DT_COUNT) {
		infer_op_error(ctx, "'contrib.ethosu.pooling' needs ofm_dtype");
		return NULL;
	}
	if (sum ? out != DT_INT32 : out != ifm->u.tensor.dtype) {
		infer_op_error(
			ctx, "'contrib.ethosu.pooling' %s does not support ofm_dtype \"%s\" for %s",
			type, dtype_name(out), infer_tname(ctx, ifm));
		return NULL;
	}
	return ethosu_window(ctx, ifm, "pool_shape", false, out, pool);
}
