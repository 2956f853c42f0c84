/*
 * cpu_qnn.c - the CPU kernels of the quantized operators: qnn.quantize,
 * qnn.dequantize and qnn.requantize, element by element with
 * kernel_qnn.h's arithmetic (TVM 0.14's canonicalization). The data's
 * integer dtypes load as int64 and store wrapping (the arithmetic has
 * already saturated them); the scales are float32 and the zero points
 * int32 tensors, per channel along the axis or one for all.
 */
#include "kernel_qnn.h"
#include "kernels_cpu.h"

typedef struct QnnJob {
	const KernelCall *kc;
	int64_t lo, hi; /* the output dtype's range */
} QnnJob;

static void quantize_range(void *ctx, int64_t begin, int64_t end)
{
	const QnnJob *job = ctx;
	const KernelCall *kc = job->kc;
	const KernelQnn *q = &kc->p.qnn;
	const float *x = kc->in[0].data, *scale = kc->in[1].data;
	const int32_t *zero = kc->in[2].data;
	for (int64_t i = begin; i < end; i++) {
		float s = scale[qnn_param_index(q, i, kc->in[1].count)];
		int32_t z = zero[qnn_param_index(q, i, kc->in[2].count)];
		dtype_store_int(kc->out[0].data, kc->out[0].dtype, i,
				qnn_quantize(x[i], s, z, job->lo, job->hi));
	}
}

static void dequantize_range(void *ctx, int64_t begin, int64_t end)
{
	const QnnJob *job = ctx;
	const KernelCall *kc = job->kc;
	const KernelQnn *q = &kc->p.qnn;
	const float *scale = kc->in[1].data;
	const int32_t *zero = kc->in[2].data;
	for (int64_t i = begin; i < end; i++) {
		float s = scale[qnn_param_index(q, i, kc->in[1].count)];
		int32_t z = zero[qnn_param_index(q, i, kc->in[2].count)];
		float v = qnn_dequantize(dtype_load_int(kc->in[0].data, kc->in[0].dtype, i), s, z);
		if (kc->out[0].dtype == DT_FLOAT16)
			v = qnn_clip_half(v);
		dtype_store_double(kc->out[0].data, kc->out[0].dtype, i, v);
	}
}

static void requantize_range(void *ctx, int64_t begin, int64_t end)
{
	const QnnJob *job = ctx;
	const KernelCall *kc = job->kc;
	const KernelQnn *q = &kc->p.qnn;
	const float *scale = kc->in[1].data, *out_scale = kc->in[3].data;
	const int32_t *zero = kc->in[2].data, *out_zero = kc->in[4].data;
	for (int64_t i = begin; i < end; i++) {
		float s = scale[qnn_param_index(q, i, kc->in[1].count)];
		int32_t z = zero[qnn_param_index(q, i, kc->in[2].count)];
		dtype_store_int(kc->out[0].data, kc->out[0].dtype, i,
				qnn_requantize(q,
					       dtype_load_int(kc->in[0].data, kc->in[0].dtype, i),
					       s, z, out_scale[0], out_zero[0], job->lo, job->hi));
	}
}

/* qnn.add, qnn.subtract, qnn.mul (lhs, rhs, lhs_scale, lhs_zero_point,
 * rhs_scale, rhs_zero_point, output_scale, output_zero_point) */
static void binary_range(void *ctx, int64_t begin, int64_t end)
{
	const QnnJob *job = ctx;
	const KernelCall *kc = job->kc;
	const KernelQnn *q = &kc->p.qnn;
	const KernelTensor *in = kc->in;
	const float *sa = in[2].data, *sb = in[4].data, *so = in[6].data;
	const int32_t *za = in[3].data, *zb = in[5].data, *zo = in[7].data;
	for (int64_t i = begin; i < end; i++) {
		int64_t ia = qnn_operand_index(q, 0, i), ib = qnn_operand_index(q, 1, i);
		/* mul's per-channel scales both follow lhs's channel, as TVM's */
		int64_t ja = kc->op == OP_QNN_MUL ? ia : ib;
		dtype_store_int(kc->out[0].data, kc->out[0].dtype, i,
				qnn_binary(q, kc->op, dtype_load_int(in[0].data, in[0].dtype, ia),
					   sa[qnn_side_param(q, 0, ia, in[2].count)],
					   za[qnn_side_param(q, 0, ia, in[3].count)],
					   dtype_load_int(in[1].data, in[1].dtype, ib),
					   sb[qnn_side_param(q, kc->op == OP_QNN_MUL ? 0 : 1, ja,
							     in[4].count)],
					   zb[qnn_side_param(q, 1, ib, in[5].count)], so[0], zo[0],
					   job->lo, job->hi));
	}
}

static bool qnn_run(const KernelCall *kc, KernelRangeFn fn)
{
	QnnJob job = {kc, 0, 0};
	qnn_range(kc->out[0].dtype, &job.lo, &job.hi);
	kernel_parallel_for(kc->out[0].count, GRAIN_ELEMENTWISE, fn, &job);
	return true;
}

bool kernel_cpu_QNN_QUANTIZE(const KernelCall *kc, char **err)
{
	if (kc->in[0].dtype != DT_FLOAT32)
		return cpu_unsupported(kc, kc->in[0].dtype, err);
	return qnn_run(kc, quantize_range);
}

bool kernel_cpu_QNN_DEQUANTIZE(const KernelCall *kc, char **err)
{
	(void)err;
	return qnn_run(kc, dequantize_range);
}

bool kernel_cpu_QNN_REQUANTIZE(const KernelCall *kc, char **err)
{
	(void)err;
	return qnn_run(kc, requantize_range);
}

bool kernel_cpu_QNN_ADD(const KernelCall *kc, char **err)
{
	(void)err;
	return qnn_run(kc, binary_range);
}

bool kernel_cpu_QNN_SUBTRACT(const KernelCall *kc, char **err)
{
	(void)err;
	return qnn_run(kc, binary_range);
}

bool kernel_cpu_QNN_MUL(const KernelCall *kc, char **err)
{
	(void)err;
	return qnn_run(kc, binary_range);
}

/* qnn.dense, qnn.batch_matmul, qnn.conv2d (data, weight, input_zero_point,
 * weight_zero_point, input_scale, weight_scale): the scales only type the
 * result; the sums wrap to out_dtype. */
static void product_range(void *ctx, int64_t begin, int64_t end)
{
	const QnnJob *job = ctx;
	const KernelCall *kc = job->kc;
	const KernelTensor *in = kc->in;
	int32_t zx = ((const int32_t *)in[2].data)[0];
	const int32_t *zw = in[3].data;
	for (int64_t e = begin; e < end; e++) {
		int64_t v =
			kc->op == OP_QNN_CONV2D
				? qnn_conv2d_at(&kc->p.qnn.window, in[0].data, in[0].dtype,
						in[1].data, in[1].dtype, zx, zw, in[3].count, e)
				: qnn_matmul_at(&kc->p.qnn.matmul, in[0].data, in[0].dtype,
						in[1].data, in[1].dtype, zx, zw, in[3].count, e);
		dtype_store_int(kc->out[0].data, kc->out[0].dtype, e, v);
	}
}

bool kernel_cpu_QNN_DENSE(const KernelCall *kc, char **err)
{
	(void)err;
	kernel_parallel_for(kc->out[0].count, 64, product_range, &(QnnJob){kc, 0, 0});
	return true;
}

bool kernel_cpu_QNN_BATCH_MATMUL(const KernelCall *kc, char **err)
{
	(void)err;
	kernel_parallel_for(kc->out[0].count, 64, product_range, &(QnnJob){kc, 0, 0});
	return true;
}

bool kernel_cpu_QNN_CONV2D(const KernelCall *kc, char **err)
{
	(void)err;
	kernel_parallel_for(kc->out[0].count, 64, product_range, &(QnnJob){kc, 0, 0});
	return true;
}

/* The unary operators (data, scale, zero_point, output_scale,
 * output_zero_point). */
static void unary_range(void *ctx, int64_t begin, int64_t end)
{
	const QnnJob *job = ctx;
	const KernelCall *kc = job->kc;
	const KernelTensor *in = kc->in;
	float s = ((const float *)in[1].data)[0], so = ((const float *)in[3].data)[0];
	int32_t z = ((const int32_t *)in[2].data)[0], zo = ((const int32_t *)in[4].data)[0];
	for (int64_t i = begin; i < end; i++)
		dtype_store_int(kc->out[0].data, kc->out[0].dtype, i,
				qnn_unary(kc->op, dtype_load_int(in[0].data, in[0].dtype, i), s, z,
					  so, zo, job->lo, job->hi));
}

#define QNN_UNARY_CPU(id)                                      \
	bool kernel_cpu_##id(const KernelCall *kc, char **err) \
	{                                                      \
		(void)err;                                     \
		return qnn_run(kc, unary_range);               \
	}
QNN_UNARY_CPU(QNN_TANH)
QNN_UNARY_CPU(QNN_EXP)
QNN_UNARY_CPU(QNN_SQRT)
QNN_UNARY_CPU(QNN_RSQRT)
QNN_UNARY_CPU(QNN_ERF)
QNN_UNARY_CPU(QNN_SIGMOID)
QNN_UNARY_CPU(QNN_HARDSWISH)
QNN_UNARY_CPU(QNN_LOG)
QNN_UNARY_CPU(QNN_ABS)
#undef QNN_UNARY_CPU

static void leaky_relu_range(void *ctx, int64_t begin, int64_t end)
{
	const QnnJob *job = ctx;
	const KernelCall *kc = job->kc;
	const KernelTensor *in = kc->in;
	float s = ((const float *)in[1].data)[0], so = ((const float *)in[3].data)[0];
	int32_t z = ((const int32_t *)in[2].data)[0], zo = ((const int32_t *)in[4].data)[0];
	for (int64_t i = begin; i < end; i++)
		dtype_store_int(kc->out[0].data, kc->out[0].dtype, i,
				qnn_leaky_relu(kc->p.alpha,
					       dtype_load_int(in[0].data, in[0].dtype, i), s, z, so,
					       zo, job->lo, job->hi));
}

bool kernel_cpu_QNN_LEAKY_RELU(const KernelCall *kc, char **err)
{
	(void)err;
	return qnn_run(kc, leaky_relu_range);
}
