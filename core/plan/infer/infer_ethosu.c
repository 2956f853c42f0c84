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
 * The dtypes are those of TVM's CheckDataType calls: feature maps and
 * weights of int8 or uint8 (int16 and int32 where an operator takes them),
 * a scale_bias of uint8.
 */
#include "infer_ops.h"

static const DType int8_or_uint8[] = {DT_INT8, DT_UINT8};
static const DType uint8_only[] = {DT_UINT8};
static const DType int32_only[] = {DT_INT32};
static const DType arithmetic[] = {DT_INT8, DT_UINT8, DT_INT16, DT_INT32};
static const DType shift_right_out[] = {DT_UINT8, DT_INT8, DT_INT32};
static const DType depthwise_out[] = {DT_UINT8, DT_INT8, DT_INT16, DT_INT32};
static const DType pool_in[] = {DT_UINT8, DT_INT8, DT_INT16};
static const DType sum_pool_in[] = {DT_UINT8, DT_INT8, DT_INT16, DT_INT32};

/* t, the tensor `what` (prefixed by the operator_type when there is one),
 * is of one of the n dtypes of set. */
static bool ethosu_dtype(OpTypeContext *ctx, const Type *t, const char *op, const char *what,
			 const DType *set, size_t n)
{
	if (infer_dtype_in(t->u.tensor.dtype, set, n))
		return true;
	infer_op_error(ctx, "'%s' %s%sexpects %s of %s, got %s", infer_op_name(ctx), op ? op : "",
		       op ? " " : "", what, infer_dtype_set_text(ctx, set, n), infer_tname(ctx, t));
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
	if (!ifm || !ethosu_dtype(ctx, ifm, NULL, "an ifm", INFER_DTYPES(int8_or_uint8)))
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

/* contrib.ethosu.unary_elementwise(ifm, lut): ABS of an int8 or uint8 ifm
 * or CLZ (count leading zeros) of an int32 one, ofm_channels channels. */
Type *infer_op_CONTRIB_ETHOSU_UNARY_ELEMENTWISE(OpTypeContext *ctx)
{
	Type *ifm = infer_tensor_arg(ctx, 0);
	const char *op;
	if (!ifm || !(op = ethosu_operator_type(ctx)))
		return NULL;
	if (strcmp(op, "CLZ") == 0) {
		if (!ethosu_dtype(ctx, ifm, op, "an ifm", INFER_DTYPES(int32_only)))
			return NULL;
	} else if (strcmp(op, "ABS") == 0) {
		if (!ethosu_dtype(ctx, ifm, op, "an ifm", INFER_DTYPES(int8_or_uint8)))
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
 * (which must be given), ifm_channels channels. ADD, SUB and MUL take and
 * give int8, uint8, int16 or int32; MIN and MAX int8 or uint8, ofm_dtype
 * the ifm's; the shifts an int32 ifm, SHR giving int8, uint8 or int32 and
 * SHL int32. */
Type *infer_op_CONTRIB_ETHOSU_BINARY_ELEMENTWISE(OpTypeContext *ctx)
{
	Type *ifm, *ifm2;
	const char *op;
	const DType *in, *out_set;
	size_t nin, nout;
	DType out;
	if (!infer_tensor_pair(ctx, &ifm, &ifm2) || !infer_same_dtype(ctx, ifm, ifm2) ||
	    !(op = ethosu_operator_type(ctx)) ||
	    !infer_attr_dtype(ctx, "ofm_dtype", DT_COUNT, &out))
		return NULL;
	if (out == DT_COUNT) {
		infer_op_error(ctx, "'contrib.ethosu.binary_elementwise' needs ofm_dtype");
		return NULL;
	}
	if (strcmp(op, "ADD") == 0 || strcmp(op, "SUB") == 0 || strcmp(op, "MUL") == 0) {
		in = out_set = arithmetic;
		nin = nout = DP_COUNT(arithmetic);
	} else if (strcmp(op, "MIN") == 0 || strcmp(op, "MAX") == 0) {
		in = int8_or_uint8;
		nin = DP_COUNT(int8_or_uint8);
		out_set = &ifm->u.tensor.dtype;
		nout = 1;
	} else if (strcmp(op, "SHR") == 0 || strcmp(op, "SHL") == 0) {
		bool right = strcmp(op, "SHR") == 0;
		in = int32_only;
		nin = 1;
		out_set = right ? shift_right_out : int32_only;
		nout = right ? DP_COUNT(shift_right_out) : 1;
	} else {
		infer_op_error(ctx,
			       "'contrib.ethosu.binary_elementwise' operator_type must be \"ADD\", "
			       "\"SUB\", \"MUL\", \"MIN\", \"MAX\", \"SHR\" or \"SHL\", got \"%s\"",
			       op);
		return NULL;
	}
	if (!ethosu_dtype(ctx, ifm, op, "an ifm", in, nin))
		return NULL;
	if (!infer_dtype_in(out, out_set, nout)) {
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

/* The weight of a convolution: int8 or uint8, OHWI with O = ofm_channels
 * and H, W = kernel_shape (TVM assigns it that shape). */
static bool ethosu_weight(OpTypeContext *ctx, const Type *weight, const int64_t kernel[2])
{
	int64_t c;
	bool present;
	if (!ethosu_dtype(ctx, weight, NULL, "a weight", INFER_DTYPES(int8_or_uint8)) ||
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

/* contrib.ethosu.conv2d(ifm, weight, scale_bias, lut): an int8 or uint8
 * ifm through an OHWI weight; scale_bias is uint8 (O, 10); the ofm has the
 * ifm's dtype. */
Type *infer_op_CONTRIB_ETHOSU_CONV2D(OpTypeContext *ctx)
{
	Type *ifm, *weight, *bias, *r;
	int64_t kernel[2];
	if (!infer_tensor_pair(ctx, &ifm, &weight) || !(bias = infer_tensor_arg(ctx, 2)) ||
	    !ethosu_dtype(ctx, ifm, NULL, "an ifm", INFER_DTYPES(int8_or_uint8)) ||
	    !ethosu_dtype(ctx, bias, NULL, "a scale_bias", INFER_DTYPES(uint8_only)) ||
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
 * conv2d, one filter per channel, giving ofm_dtype (required: int8, uint8,
 * int16 or int32). */
Type *infer_op_CONTRIB_ETHOSU_DEPTHWISE_CONV2D(OpTypeContext *ctx)
{
	Type *ifm, *weight, *bias, *r;
	int64_t kernel[2];
	DType out;
	if (!infer_tensor_pair(ctx, &ifm, &weight) || !(bias = infer_tensor_arg(ctx, 2)) ||
	    !ethosu_dtype(ctx, ifm, NULL, "an ifm", INFER_DTYPES(int8_or_uint8)) ||
	    !ethosu_dtype(ctx, bias, NULL, "a scale_bias", INFER_DTYPES(uint8_only)) ||
	    !infer_attr_dtype(ctx, "ofm_dtype", DT_COUNT, &out))
		return NULL;
	if (!infer_dtype_in(out, INFER_DTYPES(depthwise_out))) {
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

/* contrib.ethosu.pooling(ifm, lut): AVG or MAX over pool_shape of an int8,
 * uint8 or int16 ifm, SUM of one of those or int32, giving ofm_dtype
 * (required): the ifm's for AVG and MAX, int32 for SUM. */
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
	if (!(sum ? ethosu_dtype(ctx, ifm, type, "an ifm", INFER_DTYPES(sum_pool_in))
		  : ethosu_dtype(ctx, ifm, type, "an ifm", INFER_DTYPES(pool_in))))
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
