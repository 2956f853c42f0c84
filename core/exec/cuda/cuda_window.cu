/*
 * cuda_window.cu - the CUDA kernels of the operators that slide a window
 * over NCHW data: the convolutions and the poolings.
 *
 * nn.conv2d is a matrix product on cuBLAS: for each image, the input's
 * windows are unrolled into a [c / groups * kh * kw, oh * ow] matrix
 * (im2col, skipped for a 1x1 convolution with unit stride and no padding,
 * whose input already is that matrix) and multiplied by the weights seen
 * as [groups][o / groups, c / groups * kh * kw], one strided-batched GEMM
 * over the groups. A depthwise convolution (one input and one output
 * channel per group) would be thousands of 1-row products, so it, the
 * transposed convolution and the poolings are direct kernels with one
 * thread per output element.
 */
#include "kernels_cuda.h"

template <typename T, typename A>
__global__ void conv2d_kernel(const T *x, const T *w, T *y, KernelWindow p)
{
	int64_t n = p.n * p.o * p.oh * p.ow, cg = p.c / p.groups, og = p.o / p.groups;
	GRID_LOOP(i, n)
	{
		int64_t ox = i % p.ow, oy = i / p.ow % p.oh, o = i / (p.ow * p.oh) % p.o,
			b = i / (p.ow * p.oh * p.o), g = o / og;
		A acc = 0;
		for (int64_t ci = 0; ci < cg; ci++) {
			const T *xc = x + ((b * p.c + g * cg + ci) * p.h) * p.w;
			const T *wc = w + ((o * cg + ci) * p.kh) * p.kw;
			for (int64_t ky = 0; ky < p.kh; ky++) {
				int64_t iy = oy * p.stride[0] - p.pad[0] + ky * p.dilation[0];
				if (iy < 0 || iy >= p.h)
					continue;
				for (int64_t kx = 0; kx < p.kw; kx++) {
					int64_t ix =
						ox * p.stride[1] - p.pad[1] + kx * p.dilation[1];
					if (ix >= 0 && ix < p.w)
						acc += (A)xc[iy * p.w + ix] * (A)wc[ky * p.kw + kx];
				}
			}
		}
		y[i] = (T)acc;
	}
}

/* The transposed convolution gathered per output element: input pixel iy
 * reaches oy = iy * stride - pad + ky * dilation. */
template <typename T, typename A>
__global__ void conv2d_transpose_kernel(const T *x, const T *w, T *y, KernelWindow p)
{
	int64_t n = p.n * p.o * p.oh * p.ow, cg = p.c / p.groups, og = p.o / p.groups;
	GRID_LOOP(i, n)
	{
		int64_t ox = i % p.ow, oy = i / p.ow % p.oh, o = i / (p.ow * p.oh) % p.o,
			b = i / (p.ow * p.oh * p.o), g = o / og, oc = o % og;
		A acc = 0;
		for (int64_t ci = 0; ci < cg; ci++) {
			int64_t c = g * cg + ci;
			const T *xc = x + ((b * p.c + c) * p.h) * p.w;
			const T *wc = w + ((c * og + oc) * p.kh) * p.kw;
			for (int64_t ky = 0; ky < p.kh; ky++) {
				int64_t ty = oy + p.pad[0] - ky * p.dilation[0];
				if (ty < 0 || ty % p.stride[0] != 0 || ty / p.stride[0] >= p.h)
					continue;
				for (int64_t kx = 0; kx < p.kw; kx++) {
					int64_t tx = ox + p.pad[1] - kx * p.dilation[1];
					if (tx < 0 || tx % p.stride[1] != 0 ||
					    tx / p.stride[1] >= p.w)
						continue;
					acc += (A)xc[ty / p.stride[0] * p.w + tx / p.stride[1]] *
					       (A)wc[ky * p.kw + kx];
				}
			}
		}
		y[i] = (T)acc;
	}
}

template <typename T>
__global__ void pool_kernel(const T *x, T *y, KernelWindow p, bool is_max, T lowest)
{
	int64_t n = p.n * p.c * p.oh * p.ow;
	GRID_LOOP(i, n)
	{
		int64_t ox = i % p.ow, oy = i / p.ow % p.oh, plane = i / (p.ow * p.oh);
		const T *xp = x + plane * p.h * p.w;
		double acc = is_max ? -INFINITY : 0;
		int64_t count = 0;
		bool any = false;
		for (int64_t ky = 0; ky < p.kh; ky++) {
			int64_t iy = oy * p.stride[0] - p.pad[0] + ky * p.dilation[0];
			bool row_in = iy >= 0 && iy < p.h;
			bool row_pad = iy >= -p.pad[0] && iy < p.h + p.pad_end[0];
			for (int64_t kx = 0; kx < p.kw; kx++) {
				int64_t ix = ox * p.stride[1] - p.pad[1] + kx * p.dilation[1];
				bool in = row_in && ix >= 0 && ix < p.w;
				if (in) {
					double v = (double)xp[iy * p.w + ix];
					any = true;
					if (is_max)
						acc = (v > acc || v != v) ? v : acc;
					else
						acc += v;
				}
				if (p.count_include_pad
					    ? row_pad && ix >= -p.pad[1] && ix < p.w + p.pad_end[1]
					    : in)
					count++;
			}
		}
		if (is_max)
			y[i] = any ? (T)acc : lowest;
		else
			y[i] = (T)(count ? acc / (double)count : 0);
	}
}

template <typename T>
__global__ void global_avg_kernel(const T *x, T *y, int64_t planes, int64_t size)
{
	GRID_LOOP(p, planes)
	{
		double sum = 0;
		for (int64_t i = 0; i < size; i++)
			sum += (double)Elem<T>::load(x[p * size + i]);
		y[p] = from_double<T>(size ? sum / (double)size : NAN);
	}
}

/* Launches one of the two convolution kernels, whose float32 and float64
 * instances share a signature, over the output's elements. */
static bool conv_run(CudaState *s, const KernelCall *kc, char **err,
		     void (*f32)(const float *, const float *, float *, KernelWindow),
		     void (*f64)(const double *, const double *, double *, KernelWindow))
{
	int64_t n = kc->out[0].count;
	if (n == 0)
		return true;
	switch (kc->in[0].dtype) {
	case DT_FLOAT32:
		f32<<<blocks_for(n), THREADS, 0, s->stream>>>(
			(const float *)kc->in[0].data, (const float *)kc->in[1].data,
			(float *)kc->out[0].data, kc->p.window);
		return launched(kc, err);
	case DT_FLOAT64:
		f64<<<blocks_for(n), THREADS, 0, s->stream>>>(
			(const double *)kc->in[0].data, (const double *)kc->in[1].data,
			(double *)kc->out[0].data, kc->p.window);
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

/* col[(ci * kh + ky) * kw + kx][oy * ow + ox] for every channel of the
 * image's groups: ncol = c * kh * kw rows of oh * ow, 0 where the window
 * hangs over the padding. */
template <typename T> __global__ void im2col_kernel(const T *x, T *col, KernelWindow p)
{
	int64_t npix = p.oh * p.ow, n = p.c * p.kh * p.kw * npix;
	GRID_LOOP(i, n)
	{
		int64_t pix = i % npix, row = i / npix;
		int64_t ox = pix % p.ow, oy = pix / p.ow;
		int64_t kx = row % p.kw, ky = row / p.kw % p.kh, ci = row / (p.kw * p.kh);
		int64_t iy = oy * p.stride[0] - p.pad[0] + ky * p.dilation[0];
		int64_t ix = ox * p.stride[1] - p.pad[1] + kx * p.dilation[1];
		col[i] = (iy >= 0 && iy < p.h && ix >= 0 && ix < p.w)
				 ? x[(ci * p.h + iy) * p.w + ix]
				 : (T)0;
	}
}

static cublasStatus_t gemm_batched(cublasHandle_t h, int m, int n, int k, const float *a, int lda,
				   long long sa, const float *b, int ldb, long long sb, float *c,
				   int ldc, long long sc, int batch)
{
	const float one = 1, zero = 0;
	return cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, lda, sa, b,
					 ldb, sb, &zero, c, ldc, sc, batch);
}

static cublasStatus_t gemm_batched(cublasHandle_t h, int m, int n, int k, const double *a, int lda,
				   long long sa, const double *b, int ldb, long long sb, double *c,
				   int ldc, long long sc, int batch)
{
	const double one = 1, zero = 0;
	return cublasDgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, lda, sa, b,
					 ldb, sb, &zero, c, ldc, sc, batch);
}

/* y[b][g] = w[g] * col(x[b])[g] per image: in cuBLAS's column-major terms
 * y^T (npix x og) = col^T (npix x kg) * w^T (kg x og). */
template <typename T> static bool conv2d_gemm(CudaState *s, const KernelCall *kc, char **err)
{
	const KernelWindow &p = kc->p.window;
	int64_t npix = p.oh * p.ow, cg = p.c / p.groups, og = p.o / p.groups;
	int64_t kg = cg * p.kh * p.kw; /* one group's unrolled window */
	bool direct = p.kh == 1 && p.kw == 1 && p.stride[0] == 1 && p.stride[1] == 1 &&
		      p.pad[0] == 0 && p.pad[1] == 0 && p.pad_end[0] == 0 && p.pad_end[1] == 0;
	const T *x = (const T *)kc->in[0].data, *w = (const T *)kc->in[1].data;
	T *y = (T *)kc->out[0].data, *col = NULL;
	if (npix > INT_MAX || kg > INT_MAX || og > INT_MAX || p.groups > INT_MAX)
		return cuda_ok(cudaErrorInvalidValue, "nn.conv2d: a dimension over 2^31", err);
	if (!direct &&
	    !cuda_scratch(s, (size_t)(p.c * p.kh * p.kw * npix) * sizeof(T), (void **)&col, err))
		return false;
	for (int64_t b = 0; b < p.n; b++) {
		const T *xb = x + b * p.c * p.h * p.w;
		if (!direct) {
			im2col_kernel<T>
				<<<blocks_for(p.c * p.kh * p.kw * npix), THREADS, 0, s->stream>>>(
					xb, col, p);
			if (!launched(kc, err))
				return false;
		}
		if (!cublas_ok(gemm_batched(s->blas, (int)npix, (int)og, (int)kg, direct ? xb : col,
					    (int)npix, (long long)(kg * npix), w, (int)kg,
					    (long long)(og * kg), y + b * p.o * npix, (int)npix,
					    (long long)(og * npix), (int)p.groups),
			       kc->name, err))
			return false;
	}
	return true;
}

bool kernel_cuda_CONV2D(CudaState *s, const KernelCall *kc, char **err)
{
	const KernelWindow &p = kc->p.window;
	bool depthwise = p.c == p.groups && p.o == p.groups;
	if (kc->out[0].count == 0)
		return true;
	if (!depthwise && kc->in[0].dtype == DT_FLOAT32)
		return conv2d_gemm<float>(s, kc, err);
	if (!depthwise && kc->in[0].dtype == DT_FLOAT64)
		return conv2d_gemm<double>(s, kc, err);
	return conv_run(s, kc, err, conv2d_kernel<float, float>, conv2d_kernel<double, double>);
}

bool kernel_cuda_CONV2D_TRANSPOSE(CudaState *s, const KernelCall *kc, char **err)
{
	return conv_run(s, kc, err, conv2d_transpose_kernel<float, float>,
			conv2d_transpose_kernel<double, double>);
}

static bool pool_run(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->out[0].count;
	bool is_max = kc->op == OP_MAX_POOL2D;
	if (n == 0)
		return true;
	switch (kc->in[0].dtype) {
	case DT_FLOAT32:
		pool_kernel<float><<<blocks_for(n), THREADS, 0, s->stream>>>(
			(const float *)kc->in[0].data, (float *)kc->out[0].data, kc->p.window,
			is_max, -FLT_MAX);
		return launched(kc, err);
	case DT_FLOAT64:
		pool_kernel<double><<<blocks_for(n), THREADS, 0, s->stream>>>(
			(const double *)kc->in[0].data, (double *)kc->out[0].data, kc->p.window,
			is_max, -DBL_MAX);
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

bool kernel_cuda_MAX_POOL2D(CudaState *s, const KernelCall *kc, char **err)
{
	return pool_run(s, kc, err);
}

bool kernel_cuda_AVG_POOL2D(CudaState *s, const KernelCall *kc, char **err)
{
	return pool_run(s, kc, err);
}

bool kernel_cuda_GLOBAL_AVG_POOL2D(CudaState *s, const KernelCall *kc, char **err)
{
	const KernelTensor *in = &kc->in[0];
	int64_t planes = in->shape[0] * in->shape[1], size = in->shape[2] * in->shape[3];
	if (planes == 0)
		return true;
	switch (in->dtype) {
	case DT_FLOAT32:
		global_avg_kernel<float><<<blocks_for(planes), THREADS, 0, s->stream>>>(
			(const float *)in->data, (float *)kc->out[0].data, planes, size);
		return launched(kc, err);
	case DT_FLOAT64:
		global_avg_kernel<double><<<blocks_for(planes), THREADS, 0, s->stream>>>(
			(const double *)in->data, (double *)kc->out[0].data, planes, size);
		return launched(kc, err);
	case DT_FLOAT16: /* the cpu kernel takes every float type */
		global_avg_kernel<__half><<<blocks_for(planes), THREADS, 0, s->stream>>>(
			(const __half *)in->data, (__half *)kc->out[0].data, planes, size);
		return launched(kc, err);
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
	return unsupported(kc, in->dtype, err);
}
