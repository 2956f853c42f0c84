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
		store_int(kc->out[0].data, kc->out[0].dtype, i,
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
		float v = qnn_dequantize(load_int(kc->in[0].data, kc->in[0].dtype, i), s, z);
		if (kc->out[0].dtype == DT_FLOAT16)
			v = qnn_clip_half(v);
		store_double(kc->out[0].data, kc->out[0].dtype, i, v);
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
		store_int(kc->out[0].data, kc->out[0].dtype, i,
			  qnn_requantize(q, load_int(kc->in[0].data, kc->in[0].dtype, i), s, z,
					 out_scale[0], out_zero[0], job->lo, job->hi));
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
