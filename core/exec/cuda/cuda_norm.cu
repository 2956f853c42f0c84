/*
 * cuda_norm.cu - the CUDA kernels of the normalisations (nn.batch_norm in
 * its inference form, nn.layer_norm, nn.instance_norm, nn.group_norm) and
 * nn.log_softmax, computed as the CPU kernels do (cpu/cpu_norm.c): the
 * data seen as [outer, mid, c, inner], two-pass statistics in double.
 *
 * batch_norm is one thread per element; layer_norm one block per row and
 * instance/group norm one block per (outer, group), the block's threads
 * striding over the row and summing in shared memory; log_softmax one
 * thread per row, like softmax.
 */
#include "kernels_cuda.h"

/* The sum of every thread's v over the block (blockDim.x == THREADS, a
 * power of two), returned to all of them. */
__device__ static double block_sum(double v, double *shared)
{
	shared[threadIdx.x] = v;
	__syncthreads();
	for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
		if (threadIdx.x < half)
			shared[threadIdx.x] += shared[threadIdx.x + half];
		__syncthreads();
	}
	v = shared[0];
	__syncthreads();
	return v;
}

template <typename T>
__device__ static inline T norm_out(double x, double mean, double inv, const KernelNorm &kn,
				    const T *gamma, const T *beta, int64_t c)
{
	double y = (x - mean) * inv;
	if (kn.scale)
		y *= (double)gamma[c];
	if (kn.center)
		y += (double)beta[c];
	return (T)y;
}

template <typename T>
__global__ void batch_norm_kernel(const T *x, const T *gamma, const T *beta, const T *mean,
				  const T *var, T *y, int64_t n, KernelNorm kn)
{
	GRID_LOOP(e, n)
	{
		int64_t c = e / kn.inner % kn.c;
		double inv = 1.0 / sqrt((double)var[c] + kn.eps);
		y[e] = norm_out<T>((double)x[e], (double)mean[c], inv, kn, gamma, beta, c);
	}
}

/* One block per (outer, inner) row of c elements. */
template <typename T>
__global__ void layer_norm_kernel(const T *x, const T *gamma, const T *beta, T *y, int64_t rows,
				  KernelNorm kn)
{
	__shared__ double shared[THREADS];
	for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
		int64_t o = row / kn.inner, i = row % kn.inner;
		const T *xr = x + o * kn.c * kn.inner + i;
		T *yr = y + o * kn.c * kn.inner + i;
		double s = 0, mean, inv;
		for (int64_t c = threadIdx.x; c < kn.c; c += blockDim.x)
			s += (double)xr[c * kn.inner];
		mean = block_sum(s, shared) / (double)kn.c;
		s = 0;
		for (int64_t c = threadIdx.x; c < kn.c; c += blockDim.x) {
			double d = (double)xr[c * kn.inner] - mean;
			s += d * d;
		}
		inv = 1.0 / sqrt(block_sum(s, shared) / (double)kn.c + kn.eps);
		for (int64_t c = threadIdx.x; c < kn.c; c += blockDim.x)
			yr[c * kn.inner] = norm_out<T>((double)xr[c * kn.inner], mean, inv, kn,
						       gamma, beta, c);
	}
}

/* One block per (outer, group): its channels' elements over mid and inner. */
template <typename T>
__global__ void group_norm_kernel(const T *x, const T *gamma, const T *beta, T *y, int64_t rows,
				  KernelNorm kn)
{
	__shared__ double shared[THREADS];
	int64_t per = kn.c / kn.groups, count = kn.mid * per * kn.inner;
	for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
		int64_t o = row / kn.groups, g = row % kn.groups;
		double s = 0, mean = 0, inv = 0;
		for (int pass = 0; pass < 3; pass++) {
			for (int64_t j = threadIdx.x; j < count; j += blockDim.x) {
				int64_t i = j % kn.inner, t = j / kn.inner;
				int64_t c = g * per + t % per, m = t / per;
				int64_t k = ((o * kn.mid + m) * kn.c + c) * kn.inner + i;
				double v = (double)x[k];
				if (pass == 0)
					s += v;
				else if (pass == 1)
					s += (v - mean) * (v - mean);
				else
					y[k] = norm_out<T>(v, mean, inv, kn, gamma, beta, c);
			}
			if (pass == 0)
				mean = block_sum(s, shared) / (double)count;
			else if (pass == 1)
				inv = 1.0 / sqrt(block_sum(s, shared) / (double)count + kn.eps);
			s = 0;
		}
	}
}

static unsigned row_blocks(int64_t rows)
{
	return rows > 65535 ? 65535u : (unsigned)rows;
}

template <typename T> static bool norm_typed(CudaState *s, const KernelCall *kc, char **err)
{
	const KernelNorm &kn = kc->p.norm;
	const T *x = (const T *)kc->in[0].data, *gamma = (const T *)kc->in[1].data;
	const T *beta = (const T *)kc->in[2].data;
	T *y = (T *)kc->out[0].data;
	int64_t n = kc->out[0].count, rows;
	if (n == 0)
		return true;
	if (kc->op == OP_BATCH_NORM) {
		batch_norm_kernel<T><<<blocks_for(n), THREADS, 0, s->stream>>>(
			x, gamma, beta, (const T *)kc->in[3].data, (const T *)kc->in[4].data, y, n,
			kn);
		if (!launched(kc, err))
			return false;
		/* the moving statistics pass through */
		return cuda_ok(cudaMemcpyAsync(kc->out[1].data, kc->in[3].data, kc->out[1].nbytes,
					       cudaMemcpyDeviceToDevice, s->stream),
			       "cudaMemcpyAsync", err) &&
		       cuda_ok(cudaMemcpyAsync(kc->out[2].data, kc->in[4].data, kc->out[2].nbytes,
					       cudaMemcpyDeviceToDevice, s->stream),
			       "cudaMemcpyAsync", err);
	}
	if (kc->op == OP_LAYER_NORM) {
		rows = kn.outer * kn.inner;
		layer_norm_kernel<T>
			<<<row_blocks(rows), THREADS, 0, s->stream>>>(x, gamma, beta, y, rows, kn);
		return launched(kc, err);
	}
	rows = kn.outer * kn.groups; /* instance_norm, group_norm */
	group_norm_kernel<T>
		<<<row_blocks(rows), THREADS, 0, s->stream>>>(x, gamma, beta, y, rows, kn);
	return launched(kc, err);
}

static bool norm_run(CudaState *s, const KernelCall *kc, char **err)
{
	switch (kc->in[0].dtype) {
	case DT_FLOAT32:
		return norm_typed<float>(s, kc, err);
	case DT_FLOAT64:
		return norm_typed<double>(s, kc, err);
	case DT_FLOAT16:
	case DT_INT32:
	case DT_INT64:
	case DT_BOOL:
	case DT_INT8:
	case DT_UINT8:
	case DT_INT16:
	case DT_UINT16:
	case DT_UINT32:
	case DT_UINT64:
	case DT_BFLOAT16:
	case DT_COUNT:
		break;
	}
	return unsupported(kc, kc->in[0].dtype, err);
}

bool kernel_cuda_BATCH_NORM(CudaState *s, const KernelCall *kc, char **err)
{
	return norm_run(s, kc, err);
}

bool kernel_cuda_LAYER_NORM(CudaState *s, const KernelCall *kc, char **err)
{
	return norm_run(s, kc, err);
}

bool kernel_cuda_INSTANCE_NORM(CudaState *s, const KernelCall *kc, char **err)
{
	return norm_run(s, kc, err);
}

bool kernel_cuda_GROUP_NORM(CudaState *s, const KernelCall *kc, char **err)
{
	return norm_run(s, kc, err);
}

/* ---- log_softmax ---------------------------------------------------------- */

template <typename T>
__global__ void log_softmax_kernel(const T *x, T *y, int64_t rows, int64_t len, int64_t inner)
{
	GRID_LOOP(row, rows)
	{
		int64_t o = row / inner, i = row % inner;
		const T *xr = x + o * len * inner + i;
		T *yr = y + o * len * inner + i;
		double m = -INFINITY, sum = 0, lse;
		for (int64_t k = 0; k < len; k++)
			m = (double)xr[k * inner] > m ? (double)xr[k * inner] : m;
		for (int64_t k = 0; k < len; k++)
			sum += exp((double)xr[k * inner] - m);
		lse = m + log(sum);
		for (int64_t k = 0; k < len; k++)
			yr[k * inner] = (T)((double)xr[k * inner] - lse);
	}
}

bool kernel_cuda_LOG_SOFTMAX(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t rows = kc->p.axis.outer * kc->p.axis.inner;
	if (rows == 0)
		return true;
	switch (kc->in[0].dtype) {
	case DT_FLOAT32:
		log_softmax_kernel<float><<<blocks_for(rows), THREADS, 0, s->stream>>>(
			(const float *)kc->in[0].data, (float *)kc->out[0].data, rows,
			kc->p.axis.len, kc->p.axis.inner);
		return launched(kc, err);
	case DT_FLOAT64:
		log_softmax_kernel<double><<<blocks_for(rows), THREADS, 0, s->stream>>>(
			(const double *)kc->in[0].data, (double *)kc->out[0].data, rows,
			kc->p.axis.len, kc->p.axis.inner);
		return launched(kc, err);
	case DT_FLOAT16:
	case DT_INT32:
	case DT_INT64:
	case DT_BOOL:
	case DT_INT8:
	case DT_UINT8:
	case DT_INT16:
	case DT_UINT16:
	case DT_UINT32:
	case DT_UINT64:
	case DT_BFLOAT16:
	case DT_COUNT:
		break;
	}
	return unsupported(kc, kc->in[0].dtype, err);
}

/* ---- nn.l2_normalize, nn.lrn (as cpu_norm.c computes them) ----------------- */

__device__ static int64_t split_offset(const int64_t *shape, const int64_t *stride, uint32_t n,
				       int64_t idx)
{
	int64_t off = 0;
	for (int d = (int)n - 1; d >= 0; d--) {
		off += idx % shape[d] * stride[d];
		idx /= shape[d];
	}
	return off;
}

/* One thread per kept position. */
template <typename T>
__global__ void l2_normalize_kernel(const T *x, T *y, int64_t rows, KernelSplit sp)
{
	GRID_LOOP(k, rows)
	{
		int64_t base = split_offset(sp.kept_shape, sp.kept_stride, sp.nkept, k);
		double sum = 0, norm;
		for (int64_t r = 0; r < sp.red_count; r++) {
			double v = (double)
				x[base + split_offset(sp.red_shape, sp.red_stride, sp.nred, r)];
			sum += v * v;
		}
		norm = sqrt(isnan(sum) || sum > sp.eps ? sum : sp.eps);
		for (int64_t r = 0; r < sp.red_count; r++) {
			int64_t off = base + split_offset(sp.red_shape, sp.red_stride, sp.nred, r);
			y[off] = (T)((double)x[off] / norm);
		}
	}
}

bool kernel_cuda_L2_NORMALIZE(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t red = kc->p.split.red_count, rows = red ? kc->out[0].count / red : 0;
	if (rows == 0)
		return true;
	switch (kc->in[0].dtype) {
	case DT_FLOAT32:
		l2_normalize_kernel<float><<<blocks_for(rows), THREADS, 0, s->stream>>>(
			(const float *)kc->in[0].data, (float *)kc->out[0].data, rows, kc->p.split);
		return launched(kc, err);
	case DT_FLOAT64:
		l2_normalize_kernel<double><<<blocks_for(rows), THREADS, 0, s->stream>>>(
			(const double *)kc->in[0].data, (double *)kc->out[0].data, rows,
			kc->p.split);
		return launched(kc, err);
	case DT_FLOAT16:
	case DT_INT32:
	case DT_INT64:
	case DT_BOOL:
	case DT_INT8:
	case DT_UINT8:
	case DT_INT16:
	case DT_UINT16:
	case DT_UINT32:
	case DT_UINT64:
	case DT_BFLOAT16:
	case DT_COUNT:
		break;
	}
	return unsupported(kc, kc->in[0].dtype, err);
}

/* One thread per element. */
template <typename T> __global__ void lrn_kernel(const T *x, T *y, int64_t n, KernelLrn l)
{
	GRID_LOOP(e, n)
	{
		int64_t len = l.axis.len, inner = l.axis.inner;
		int64_t c = e / inner % len, first = c - l.size / 2;
		double sum = 0;
		for (int64_t w = first; w < first + l.size; w++)
			if (w >= 0 && w < len) {
				double v = (double)x[e + (w - c) * inner];
				sum += v * v;
			}
		y[e] = (T)((double)x[e] / pow(l.bias + l.alpha * sum / (double)l.size, l.beta));
	}
}

bool kernel_cuda_LRN(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->out[0].count;
	if (n == 0)
		return true;
	switch (kc->in[0].dtype) {
	case DT_FLOAT32:
		lrn_kernel<float><<<blocks_for(n), THREADS, 0, s->stream>>>(
			(const float *)kc->in[0].data, (float *)kc->out[0].data, n, kc->p.lrn);
		return launched(kc, err);
	case DT_FLOAT64:
		lrn_kernel<double><<<blocks_for(n), THREADS, 0, s->stream>>>(
			(const double *)kc->in[0].data, (double *)kc->out[0].data, n, kc->p.lrn);
		return launched(kc, err);
	case DT_FLOAT16:
	case DT_INT32:
	case DT_INT64:
	case DT_BOOL:
	case DT_INT8:
	case DT_UINT8:
	case DT_INT16:
	case DT_UINT16:
	case DT_UINT32:
	case DT_UINT64:
	case DT_BFLOAT16:
	case DT_COUNT:
		break;
	}
	return unsupported(kc, kc->in[0].dtype, err);
}
