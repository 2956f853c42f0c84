/*
 * prepare_qnn.c - decoding the attributes of the quantized operators: their channel axes, requantize's rounding
 * and compute dtype, the binary operators' broadcasting plans and the
 * matrix products' and qnn.conv2d's shapes.
 *
 * One kernel_prepare_ID per operator of the family in ops.def (a missing
 * one does not link: kernels.c's table is generated from ops.def);
 * prepare.h says what they share.
 */
#include "prepare.h"

/* qnn.add, qnn.subtract, qnn.mul: the broadcasting plan and each
 * operand's channel axis; mul with per-channel scales needs lhs_axis and
 * rhs_axis to agree, as TVM's lowering does. */
static bool prepare_qnn_binary(KernelCall *kc, const Expr *call, char **err)
{
	KernelQnn *q = &kc->p.qnn;
	const KernelTensor *out = &kc->out[0];
	const int64_t *shapes[2] = {kc->in[0].shape, kc->in[1].shape};
	uint32_t nds[2] = {kc->in[0].ndim, kc->in[1].ndim}, k;
	int64_t *shape = xmalloc((out->ndim + 1) * sizeof(int64_t));
	int64_t *st[2] = {xmalloc((out->ndim + 1) * sizeof(int64_t)),
			  xmalloc((out->ndim + 1) * sizeof(int64_t))};
	static const char *const axis_names[2] = {"lhs_axis", "rhs_axis"};
	int64_t axes[2];
	k = kernel_broadcast_plan(out->shape, out->ndim, shapes, nds, shape, st);
	if (k <= KERNEL_QNN_MAX_NDIM) {
		q->ndim = k;
		for (uint32_t i = 0; i < k; i++) {
			q->shape[i] = shape[i];
			q->stride[0][i] = st[0][i];
			q->stride[1][i] = st[1][i];
		}
	}
	free(shape);
	free(st[0]);
	free(st[1]);
	if (k > KERNEL_QNN_MAX_NDIM) {
		*err = xasprintf("'%s' broadcasts over more than %d dimensions", kc->name,
				 KERNEL_QNN_MAX_NDIM);
		return false;
	}
	for (int side = 0; side < 2; side++) {
		const KernelTensor *x = &kc->in[side];
		int64_t axis = attr_int(call, axis_names[side], -1);
		axes[side] = axis;
		q->side_len[side] = 1;
		q->side_inner[side] = 1;
		if (x->ndim > 0 && normalize_axis(axis, x->ndim, &axis)) {
			KernelAxis a;
			split_axis(x, axis, &a);
			q->side_len[side] = a.len;
			q->side_inner[side] = a.inner;
		}
		q->side_scalar[side] =
			kc->in[2 + 2 * side].ndim == 0 && kc->in[3 + 2 * side].ndim == 0;
	}
	q->scalar_scale = kc->in[2].ndim == 0 && kc->in[4].ndim == 0;
	if (kc->op == OP_QNN_MUL && !q->scalar_scale && axes[0] != axes[1]) {
		*err = xasprintf(
			"'%s' with per-channel scales needs lhs_axis and rhs_axis to agree "
			"(TVM lowers no other)",
			kc->name);
		return false;
	}
	return true;
}

/* qnn.quantize, qnn.dequantize, qnn.requantize: the channel axis of the
 * data (a scalar's only channel), requantize's rounding and compute dtype
 * (None: TVM's RequantizeConfig defaults, UPWARD and int64). */
static bool prepare_qnn(KernelCall *kc, const Expr *call, char **err)
{
	static const char *const roundings[] = {"UPWARD", "TONEAREST", NULL};
	static const char *const computes[] = {"int64", "float32", "float64", NULL};
	KernelQnn *q = &kc->p.qnn;
	const KernelTensor *x = &kc->in[0];
	int64_t axis = attr_int(call, "axis", -1);
	q->len = 1;
	q->inner = 1;
	if (x->ndim > 0 && normalize_axis(axis, x->ndim, &axis)) {
		KernelAxis a;
		split_axis(x, axis, &a);
		q->len = a.len;
		q->inner = a.inner;
	}
	if (kc->op == OP_QNN_REQUANTIZE) {
		const char *r = attr_string(call, "rounding", "None");
		const char *c = attr_string(call, "compute_dtype", "None");
		q->rounding = strcmp(r, "None") == 0 ? KERNEL_QNN_UPWARD : name_index(r, roundings);
		q->compute = strcmp(c, "None") == 0 ? KERNEL_QNN_INT64 : name_index(c, computes);
		if (q->rounding < 0 || q->compute < 0) {
			*err = xasprintf("'%s' does not support rounding \"%s\" with compute_dtype "
					 "\"%s\"",
					 kc->name, r, c);
			return false;
		}
		q->scalar_scale = kc->in[1].ndim == 0;
		q->out_int32 = kc->out[0].dtype == DT_INT32;
	}
	return true;
}

KERNEL_PREPARE_VIA(QNN_QUANTIZE, prepare_qnn)
KERNEL_PREPARE_VIA(QNN_DEQUANTIZE, prepare_qnn)
KERNEL_PREPARE_VIA(QNN_REQUANTIZE, prepare_qnn)

KERNEL_PREPARE_VIA(QNN_ADD, prepare_qnn_binary)
KERNEL_PREPARE_VIA(QNN_SUBTRACT, prepare_qnn_binary)
KERNEL_PREPARE_VIA(QNN_MUL, prepare_qnn_binary)

static bool decode_qnn_tanh(KernelCall *kc, const Expr *call, char **err)
{
	return true; /* scalar parameters, read by the kernel */
}

KERNEL_PREPARE_VIA(QNN_TANH, decode_qnn_tanh)
KERNEL_PREPARE_VIA(QNN_EXP, decode_qnn_tanh)
KERNEL_PREPARE_VIA(QNN_SQRT, decode_qnn_tanh)
KERNEL_PREPARE_VIA(QNN_RSQRT, decode_qnn_tanh)
KERNEL_PREPARE_VIA(QNN_ERF, decode_qnn_tanh)
KERNEL_PREPARE_VIA(QNN_SIGMOID, decode_qnn_tanh)
KERNEL_PREPARE_VIA(QNN_HARDSWISH, decode_qnn_tanh)
KERNEL_PREPARE_VIA(QNN_LOG, decode_qnn_tanh)
KERNEL_PREPARE_VIA(QNN_ABS, decode_qnn_tanh)

static bool decode_qnn_leaky_relu(KernelCall *kc, const Expr *call, char **err)
{
	kc->p.alpha = attr_number(call, "alpha", 0.25);
	return true;
}

KERNEL_PREPARE_VIA(QNN_LEAKY_RELU, decode_qnn_leaky_relu)

/* qnn.dense and qnn.batch_matmul: the shapes of nn.dense and
 * nn.batch_matmul (prepare_nn.c); the kernel reads the zero points and
 * scales from the operands. */
static bool decode_qnn_dense(KernelCall *kc, const Expr *call, char **err)
{
	kc->p.qnn.matmul = prepare_dense_matmul(kc);
	return true;
}

KERNEL_PREPARE_VIA(QNN_DENSE, decode_qnn_dense)

static bool decode_qnn_batch_matmul(KernelCall *kc, const Expr *call, char **err)
{
	kc->p.qnn.matmul = prepare_batch_matmul(kc, call);
	return true;
}

KERNEL_PREPARE_VIA(QNN_BATCH_MATMUL, decode_qnn_batch_matmul)

static bool decode_qnn_conv2d(KernelCall *kc, const Expr *call, char **err)
{
	/* conv2d's window, then moved into the qnn member of the union */
	WindowOp wo = {0};
	KernelWindow w;
	(void)prepare_window_op(OP_CONV2D, &wo);
	if (!prepare_window_layouts(kc, call, &wo, err))
		return false;
	if (!prepare_window_attrs(kc, call, &wo))
		return prepare_bad(kc, err);
	w = kc->p.window;
	memset(&kc->p, 0, sizeof kc->p);
	kc->p.qnn.window = w;
	return true;
}

KERNEL_PREPARE_VIA(QNN_CONV2D, decode_qnn_conv2d)
