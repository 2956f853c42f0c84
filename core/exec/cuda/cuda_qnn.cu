/*
 * cuda_qnn.cu - the CUDA kernels of the quantized operators, one element
 * per thread with kernel_qnn.h's arithmetic (as cpu_qnn.c computes it):
 * qnn.quantize, qnn.dequantize, qnn.requantize, qnn.add, qnn.subtract and
 * qnn.mul, the unary operators (qnn.tanh, exp, sqrt, rsqrt, erf, sigmoid,
 * hardswish, log, abs), qnn.leaky_relu, and qnn.dense, qnn.batch_matmul and qnn.conv2d, one output
 * element's integer sum per thread. The parameters are read
 * on the device, requantize's multipliers derived there per element.
 */
#include "kernels_cuda.h"

#include "kernel_qnn.h"

__global__ void quantize_kernel(const float *x, const float *scale, int64_t nscale,
				const int32_t *zero, int64_t nzero, void *out, DType ot, int64_t n,
				KernelQnn q, int64_t lo, int64_t hi)
{
	GRID_LOOP(i, n)
	{
		float s = scale[qnn_param_index(&q, i, nscale)];
		int32_t z = zero[qnn_param_index(&q, i, nzero)];
		dtype_store_int(out, ot, i, qnn_quantize(x[i], s, z, lo, hi));
	}
}

__global__ void dequantize_kernel(const void *x, DType xt, const float *scale, int64_t nscale,
				  const int32_t *zero, int64_t nzero, void *out, DType ot,
				  int64_t n, KernelQnn q)
{
	GRID_LOOP(i, n)
	{
		float s = scale[qnn_param_index(&q, i, nscale)];
		int32_t z = zero[qnn_param_index(&q, i, nzero)];
		float v = qnn_dequantize(dtype_load_int(x, xt, i), s, z);
		if (ot == DT_FLOAT16)
			((__half *)out)[i] = __float2half_rn(qnn_clip_half(v));
		else
			((float *)out)[i] = v;
	}
}

__global__ void requantize_kernel(const void *x, DType xt, const float *scale, int64_t nscale,
				  const int32_t *zero, int64_t nzero, const float *out_scale,
				  const int32_t *out_zero, void *out, DType ot, int64_t n,
				  KernelQnn q, int64_t lo, int64_t hi)
{
	GRID_LOOP(i, n)
	{
		float s = scale[qnn_param_index(&q, i, nscale)];
		int32_t z = zero[qnn_param_index(&q, i, nzero)];
		dtype_store_int(out, ot, i,
				qnn_requantize(&q, dtype_load_int(x, xt, i), s, z, out_scale[0],
					       out_zero[0], lo, hi));
	}
}

/* KernelCall's inputs, for the binary kernel's arguments. */
struct QnnBinaryArgs {
	const void *a, *b;
	DType at, bt;
	const float *sa, *sb, *so;
	const int32_t *za, *zb, *zo;
	int64_t nsa, nza, nsb, nzb;
};

__global__ void binary_kernel(QnnBinaryArgs g, void *out, DType ot, int64_t n, OpKind op,
			      KernelQnn q, int64_t lo, int64_t hi)
{
	GRID_LOOP(i, n)
	{
		int64_t ia = qnn_operand_index(&q, 0, i), ib = qnn_operand_index(&q, 1, i);
		bool mul = op == OP_QNN_MUL;
		dtype_store_int(
			out, ot, i,
			qnn_binary(&q, op, dtype_load_int(g.a, g.at, ia),
				   g.sa[qnn_side_param(&q, 0, ia, g.nsa)],
				   g.za[qnn_side_param(&q, 0, ia, g.nza)],
				   dtype_load_int(g.b, g.bt, ib),
				   g.sb[qnn_side_param(&q, mul ? 0 : 1, mul ? ia : ib, g.nsb)],
				   g.zb[qnn_side_param(&q, 1, ib, g.nzb)], g.so[0], g.zo[0], lo,
				   hi));
	}
}

static bool binary_run(CudaState *s, const KernelCall *kc, char **err)
{
	const KernelTensor *in = kc->in;
	int64_t n = kc->out[0].count, lo, hi;
	QnnBinaryArgs g = {in[0].data,
			   in[1].data,
			   in[0].dtype,
			   in[1].dtype,
			   (const float *)in[2].data,
			   (const float *)in[4].data,
			   (const float *)in[6].data,
			   (const int32_t *)in[3].data,
			   (const int32_t *)in[5].data,
			   (const int32_t *)in[7].data,
			   in[2].count,
			   in[3].count,
			   in[4].count,
			   in[5].count};
	if (n == 0)
		return true;
	qnn_range(kc->out[0].dtype, &lo, &hi);
	binary_kernel<<<blocks_for(n), THREADS, 0, s->stream>>>(
		g, kc->out[0].data, kc->out[0].dtype, n, kc->op, kc->p.qnn, lo, hi);
	return launched(kc, err);
}

bool kernel_cuda_QNN_ADD(CudaState *s, const KernelCall *kc, char **err)
{
	return binary_run(s, kc, err);
}

bool kernel_cuda_QNN_SUBTRACT(CudaState *s, const KernelCall *kc, char **err)
{
	return binary_run(s, kc, err);
}

bool kernel_cuda_QNN_MUL(CudaState *s, const KernelCall *kc, char **err)
{
	return binary_run(s, kc, err);
}

bool kernel_cuda_QNN_QUANTIZE(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->out[0].count, lo, hi;
	if (kc->in[0].dtype != DT_FLOAT32)
		return unsupported(kc, kc->in[0].dtype, err);
	if (n == 0)
		return true;
	qnn_range(kc->out[0].dtype, &lo, &hi);
	quantize_kernel<<<blocks_for(n), THREADS, 0, s->stream>>>(
		(const float *)kc->in[0].data, (const float *)kc->in[1].data, kc->in[1].count,
		(const int32_t *)kc->in[2].data, kc->in[2].count, kc->out[0].data, kc->out[0].dtype,
		n, kc->p.qnn, lo, hi);
	return launched(kc, err);
}

bool kernel_cuda_QNN_DEQUANTIZE(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->out[0].count;
	if (kc->out[0].dtype != DT_FLOAT32 && kc->out[0].dtype != DT_FLOAT16)
		return unsupported(kc, kc->out[0].dtype, err);
	if (n == 0)
		return true;
	dequantize_kernel<<<blocks_for(n), THREADS, 0, s->stream>>>(
		kc->in[0].data, kc->in[0].dtype, (const float *)kc->in[1].data, kc->in[1].count,
		(const int32_t *)kc->in[2].data, kc->in[2].count, kc->out[0].data, kc->out[0].dtype,
		n, kc->p.qnn);
	return launched(kc, err);
}

bool kernel_cuda_QNN_REQUANTIZE(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->out[0].count, lo, hi;
	if (n == 0)
		return true;
	qnn_range(kc->out[0].dtype, &lo, &hi);
	requantize_kernel<<<blocks_for(n), THREADS, 0, s->stream>>>(
		kc->in[0].data, kc->in[0].dtype, (const float *)kc->in[1].data, kc->in[1].count,
		(const int32_t *)kc->in[2].data, kc->in[2].count, (const float *)kc->in[3].data,
		(const int32_t *)kc->in[4].data, kc->out[0].data, kc->out[0].dtype, n, kc->p.qnn,
		lo, hi);
	return launched(kc, err);
}

__global__ void product_kernel(const void *x, DType xt, const void *w, DType wt, const int32_t *zx,
			       const int32_t *zw, int64_t nzw, void *out, DType ot, int64_t n,
			       bool conv, KernelQnn q)
{
	GRID_LOOP(e, n)
	{
		long long v = conv ? qnn_conv2d_at(&q.window, x, xt, w, wt, zx[0], zw, nzw, e)
				   : qnn_matmul_at(&q.matmul, x, xt, w, wt, zx[0], zw, nzw, e);
		dtype_store_int(out, ot, e, v);
	}
}

static bool product_run(CudaState *s, const KernelCall *kc, char **err)
{
	const KernelTensor *in = kc->in;
	int64_t n = kc->out[0].count;
	if (n == 0)
		return true;
	product_kernel<<<blocks_for(n), THREADS, 0, s->stream>>>(
		in[0].data, in[0].dtype, in[1].data, in[1].dtype, (const int32_t *)in[2].data,
		(const int32_t *)in[3].data, in[3].count, kc->out[0].data, kc->out[0].dtype, n,
		kc->op == OP_QNN_CONV2D, kc->p.qnn);
	return launched(kc, err);
}

bool kernel_cuda_QNN_DENSE(CudaState *s, const KernelCall *kc, char **err)
{
	return product_run(s, kc, err);
}

bool kernel_cuda_QNN_BATCH_MATMUL(CudaState *s, const KernelCall *kc, char **err)
{
	return product_run(s, kc, err);
}

bool kernel_cuda_QNN_CONV2D(CudaState *s, const KernelCall *kc, char **err)
{
	return product_run(s, kc, err);
}

__global__ void unary_kernel(const void *x, DType xt, const float *s, const int32_t *z,
			     const float *so, const int32_t *zo, void *out, DType ot, int64_t n,
			     OpKind op, int64_t lo, int64_t hi)
{
	GRID_LOOP(i, n)
	dtype_store_int(out, ot, i,
			qnn_unary(op, dtype_load_int(x, xt, i), s[0], z[0], so[0], zo[0], lo, hi));
}

static bool unary_run(CudaState *s, const KernelCall *kc, char **err)
{
	const KernelTensor *in = kc->in;
	int64_t n = kc->out[0].count, lo, hi;
	if (n == 0)
		return true;
	qnn_range(kc->out[0].dtype, &lo, &hi);
	unary_kernel<<<blocks_for(n), THREADS, 0, s->stream>>>(
		in[0].data, in[0].dtype, (const float *)in[1].data, (const int32_t *)in[2].data,
		(const float *)in[3].data, (const int32_t *)in[4].data, kc->out[0].data,
		kc->out[0].dtype, n, kc->op, lo, hi);
	return launched(kc, err);
}

#define QNN_UNARY_CUDA(id)                                                    \
	bool kernel_cuda_##id(CudaState *s, const KernelCall *kc, char **err) \
	{                                                                     \
		return unary_run(s, kc, err);                                 \
	}
QNN_UNARY_CUDA(QNN_TANH)
QNN_UNARY_CUDA(QNN_EXP)
QNN_UNARY_CUDA(QNN_SQRT)
QNN_UNARY_CUDA(QNN_RSQRT)
QNN_UNARY_CUDA(QNN_ERF)
QNN_UNARY_CUDA(QNN_SIGMOID)
QNN_UNARY_CUDA(QNN_HARDSWISH)
QNN_UNARY_CUDA(QNN_LOG)
QNN_UNARY_CUDA(QNN_ABS)
#undef QNN_UNARY_CUDA

__global__ void leaky_relu_kernel(const void *x, DType xt, const float *s, const int32_t *z,
				  const float *so, const int32_t *zo, void *out, DType ot,
				  int64_t n, double alpha, int64_t lo, int64_t hi)
{
	GRID_LOOP(i, n)
	dtype_store_int(
		out, ot, i,
		qnn_leaky_relu(alpha, dtype_load_int(x, xt, i), s[0], z[0], so[0], zo[0], lo, hi));
}

bool kernel_cuda_QNN_LEAKY_RELU(CudaState *s, const KernelCall *kc, char **err)
{
	const KernelTensor *in = kc->in;
	int64_t n = kc->out[0].count, lo, hi;
	if (n == 0)
		return true;
	qnn_range(kc->out[0].dtype, &lo, &hi);
	leaky_relu_kernel<<<blocks_for(n), THREADS, 0, s->stream>>>(
		in[0].data, in[0].dtype, (const float *)in[1].data, (const int32_t *)in[2].data,
		(const float *)in[3].data, (const int32_t *)in[4].data, kc->out[0].data,
		kc->out[0].dtype, n, kc->p.alpha, lo, hi);
	return launched(kc, err);
}
