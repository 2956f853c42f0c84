/*
 * cuda_window.cu - the CUDA kernels of the operators that slide a window
 * over NCW, NCHW or NCDHW data: the convolutions and the poolings of every
 * rank, each written once for three spatial dimensions (KernelWindow; a
 * 1-D or 2-D operator has unit depth and height).
 *
 * A convolution is a matrix product on cuBLAS: for each image, the input's
 * windows are unrolled into a [c / groups * kd * kh * kw, od * oh * ow] matrix
 * (im2col, skipped for a 1x1 convolution with unit stride and no padding,
 * whose input already is that matrix) and multiplied by the weights seen
 * as [groups][o / groups, c / groups * kh * kw], one strided-batched GEMM
 * over the groups. A depthwise convolution (one input and one output
 * channel per group) would be thousands of 1-row products, so it, the
 * transposed convolution and the poolings are direct kernels with one
 * thread per output element.
 */
#include "kernels_cuda.h"

/* Output element i of a window operator as (image or plane, z, y, x). */
struct WindowPos {
	int64_t z, y, x, rest;
};

__device__ static inline WindowPos window_pos(int64_t i, const KernelWindow &p)
{
	WindowPos q;
	q.x = i % p.ow;
	q.y = i / p.ow % p.oh;
	q.z = i / (p.ow * p.oh) % p.od;
	q.rest = i / (p.ow * p.oh * p.od);
	return q;
}

template <typename T, typename A>
__global__ void conv_kernel(const T *x, const T *w, T *y, KernelWindow p)
{
	int64_t n = p.n * p.o * p.od * p.oh * p.ow, cg = p.c / p.groups, og = p.o / p.groups;
	GRID_LOOP(i, n)
	{
		WindowPos q = window_pos(i, p);
		int64_t o = q.rest % p.o, b = q.rest / p.o, g = o / og;
		A acc = 0;
		for (int64_t ci = 0; ci < cg; ci++) {
			const T *xc = x + (b * p.c + g * cg + ci) * p.d * p.h * p.w;
			const T *wc = w + (o * cg + ci) * p.kd * p.kh * p.kw;
			for (int64_t kz = 0; kz < p.kd; kz++) {
				int64_t iz = q.z * p.stride[0] - p.pad[0] + kz * p.dilation[0];
				if (iz < 0 || iz >= p.d)
					continue;
				for (int64_t ky = 0; ky < p.kh; ky++) {
					int64_t iy =
						q.y * p.stride[1] - p.pad[1] + ky * p.dilation[1];
					if (iy < 0 || iy >= p.h)
						continue;
					for (int64_t kx = 0; kx < p.kw; kx++) {
						int64_t ix = q.x * p.stride[2] - p.pad[2] +
							     kx * p.dilation[2];
						if (ix >= 0 && ix < p.w)
							acc += (A)xc[(iz * p.h + iy) * p.w + ix] *
							       (A)wc[(kz * p.kh + ky) * p.kw + kx];
					}
				}
			}
		}
		y[i] = (T)acc;
	}
}

/* The input position t / stride that reaches output position t = o + pad
 * - k * dilation of one dimension, or -1. */
__device__ static inline int64_t transpose_source(int64_t t, int64_t stride, int64_t n)
{
	return t < 0 || t % stride != 0 || t / stride >= n ? -1 : t / stride;
}

/* The transposed convolution gathered per output element: input position
 * iz reaches oz = iz * stride - pad + kz * dilation, and so on. */
template <typename T, typename A>
__global__ void conv_transpose_kernel(const T *x, const T *w, T *y, KernelWindow p)
{
	int64_t n = p.n * p.o * p.od * p.oh * p.ow, cg = p.c / p.groups, og = p.o / p.groups;
	GRID_LOOP(i, n)
	{
		WindowPos q = window_pos(i, p);
		int64_t o = q.rest % p.o, b = q.rest / p.o, g = o / og, oc = o % og;
		A acc = 0;
		for (int64_t ci = 0; ci < cg; ci++) {
			int64_t c = g * cg + ci;
			const T *xc = x + (b * p.c + c) * p.d * p.h * p.w;
			const T *wc = w + (c * og + oc) * p.kd * p.kh * p.kw;
			for (int64_t kz = 0; kz < p.kd; kz++) {
				int64_t iz = transpose_source(q.z + p.pad[0] - kz * p.dilation[0],
							      p.stride[0], p.d);
				if (iz < 0)
					continue;
				for (int64_t ky = 0; ky < p.kh; ky++) {
					int64_t iy = transpose_source(q.y + p.pad[1] -
									      ky * p.dilation[1],
								      p.stride[1], p.h);
					if (iy < 0)
						continue;
					for (int64_t kx = 0; kx < p.kw; kx++) {
						int64_t ix = transpose_source(
							q.x + p.pad[2] - kx * p.dilation[2],
							p.stride[2], p.w);
						if (ix >= 0)
							acc += (A)xc[(iz * p.h + iy) * p.w + ix] *
							       (A)wc[(kz * p.kh + ky) * p.kw + kx];
					}
				}
			}
		}
		y[i] = (T)acc;
	}
}

__device__ static inline bool inside_padded(int64_t i, int64_t n, int64_t pad, int64_t pad_end)
{
	return i >= -pad && i < n + pad_end;
}

template <typename T>
__global__ void pool_kernel(const T *x, T *y, KernelWindow p, bool is_max, T lowest)
{
	int64_t n = p.n * p.c * p.od * p.oh * p.ow, window = p.kd * p.kh * p.kw;
	GRID_LOOP(i, n)
	{
		WindowPos q = window_pos(i, p);
		const T *xp = x + q.rest * p.d * p.h * p.w;
		double acc = is_max ? -INFINITY : 0;
		int64_t count = 0;
		bool any = false;
		for (int64_t k = 0; k < window; k++) {
			int64_t iz =
				q.z * p.stride[0] - p.pad[0] + k / (p.kh * p.kw) * p.dilation[0];
			int64_t iy = q.y * p.stride[1] - p.pad[1] + k / p.kw % p.kh * p.dilation[1];
			int64_t ix = q.x * p.stride[2] - p.pad[2] + k % p.kw * p.dilation[2];
			bool in = iz >= 0 && iz < p.d && iy >= 0 && iy < p.h && ix >= 0 && ix < p.w;
			if (in) {
				double v = (double)xp[(iz * p.h + iy) * p.w + ix];
				any = true;
				if (is_max)
					acc = (v > acc || v != v) ? v : acc;
				else
					acc += v;
			}
			if (p.count_include_pad
				    ? inside_padded(iz, p.d, p.pad[0], p.pad_end[0]) &&
					      inside_padded(iy, p.h, p.pad[1], p.pad_end[1]) &&
					      inside_padded(ix, p.w, p.pad[2], p.pad_end[2])
				    : in)
				count++;
		}
		if (is_max)
			y[i] = any ? (T)acc : lowest;
		else
			y[i] = (T)(count ? acc / (double)count : 0);
	}
}

/* The adaptive poolings (and global max, an adaptive max to 1 x 1): output
 * position i of out over extent in covers [floor(i * in / out), ceil((i +
 * 1) * in / out)), TVM's window. */
template <typename T>
__global__ void adaptive_pool_kernel(const T *x, T *y, KernelWindow p, bool is_max, T lowest)
{
	int64_t n = p.n * p.c * p.od * p.oh * p.ow;
	GRID_LOOP(i, n)
	{
		WindowPos q = window_pos(i, p);
		const T *xp = x + q.rest * p.d * p.h * p.w;
		int64_t z0 = q.z * p.d / p.od, z1 = ((q.z + 1) * p.d + p.od - 1) / p.od;
		int64_t y0 = q.y * p.h / p.oh, y1 = ((q.y + 1) * p.h + p.oh - 1) / p.oh;
		int64_t x0 = q.x * p.w / p.ow, x1 = ((q.x + 1) * p.w + p.ow - 1) / p.ow;
		double acc = is_max ? (double)lowest : 0;
		for (int64_t iz = z0; iz < z1; iz++)
			for (int64_t iy = y0; iy < y1; iy++)
				for (int64_t ix = x0; ix < x1; ix++) {
					double v = (double)xp[(iz * p.h + iy) * p.w + ix];
					if (!is_max)
						acc += v;
					else if (v > acc || v != v)
						acc = v;
				}
		if (!is_max)
			acc /= (double)((z1 - z0) * (y1 - y0) * (x1 - x0));
		y[i] = (T)acc;
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

/* col[((ci * kd + kz) * kh + ky) * kw + kx][(oz * oh + oy) * ow + ox] for
 * every channel of the image's groups: c * kd * kh * kw rows of od * oh *
 * ow, 0 where the window hangs over the padding. */
template <typename T> __global__ void im2col_kernel(const T *x, T *col, KernelWindow p)
{
	int64_t npix = p.od * p.oh * p.ow, window = p.kd * p.kh * p.kw, n = p.c * window * npix;
	GRID_LOOP(i, n)
	{
		int64_t pix = i % npix, row = i / npix;
		int64_t ox = pix % p.ow, oy = pix / p.ow % p.oh, oz = pix / (p.ow * p.oh);
		int64_t kx = row % p.kw, ky = row / p.kw % p.kh, kz = row / (p.kw * p.kh) % p.kd,
			ci = row / window;
		int64_t iz = oz * p.stride[0] - p.pad[0] + kz * p.dilation[0];
		int64_t iy = oy * p.stride[1] - p.pad[1] + ky * p.dilation[1];
		int64_t ix = ox * p.stride[2] - p.pad[2] + kx * p.dilation[2];
		col[i] = (iz >= 0 && iz < p.d && iy >= 0 && iy < p.h && ix >= 0 && ix < p.w)
				 ? x[((ci * p.d + iz) * p.h + iy) * p.w + ix]
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
	int64_t npix = p.od * p.oh * p.ow, cg = p.c / p.groups, og = p.o / p.groups;
	int64_t window = p.kd * p.kh * p.kw, kg = cg * window; /* one group's unrolled window */
	bool direct = window == 1;
	for (int s = 0; s < 3; s++)
		direct = direct && p.stride[s] == 1 && p.pad[s] == 0 && p.pad_end[s] == 0;
	const T *x = (const T *)kc->in[0].data, *w = (const T *)kc->in[1].data;
	T *y = (T *)kc->out[0].data, *col = NULL;
	if (npix > INT_MAX || kg > INT_MAX || og > INT_MAX || p.groups > INT_MAX)
		return cuda_ok(cudaErrorInvalidValue, "a convolution dimension over 2^31", err);
	if (!direct &&
	    !cuda_scratch(s, (size_t)(p.c * window * npix) * sizeof(T), (void **)&col, err))
		return false;
	for (int64_t b = 0; b < p.n; b++) {
		const T *xb = x + b * p.c * p.d * p.h * p.w;
		if (!direct) {
			im2col_kernel<T>
				<<<blocks_for(p.c * window * npix), THREADS, 0, s->stream>>>(
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
	return conv_run(s, kc, err, conv_kernel<float, float>, conv_kernel<double, double>);
}

bool kernel_cuda_CONV2D_TRANSPOSE(CudaState *s, const KernelCall *kc, char **err)
{
	return conv_run(s, kc, err, conv_transpose_kernel<float, float>,
			conv_transpose_kernel<double, double>);
}

bool kernel_cuda_CONV1D(CudaState *s, const KernelCall *kc, char **err)
{
	return kernel_cuda_CONV2D(s, kc, err);
}

bool kernel_cuda_CONV3D(CudaState *s, const KernelCall *kc, char **err)
{
	return kernel_cuda_CONV2D(s, kc, err);
}

bool kernel_cuda_CONV1D_TRANSPOSE(CudaState *s, const KernelCall *kc, char **err)
{
	return kernel_cuda_CONV2D_TRANSPOSE(s, kc, err);
}

bool kernel_cuda_CONV3D_TRANSPOSE(CudaState *s, const KernelCall *kc, char **err)
{
	return kernel_cuda_CONV2D_TRANSPOSE(s, kc, err);
}

/* The windowed poolings, or with adaptive the adaptive ones. */
static bool pool_run(CudaState *s, const KernelCall *kc, char **err, bool adaptive = false)
{
	int64_t n = kc->out[0].count;
	OpKind op = kc->op;
	bool is_max = op == OP_MAX_POOL1D || op == OP_MAX_POOL2D || op == OP_MAX_POOL3D ||
		      op == OP_ADAPTIVE_MAX_POOL1D || op == OP_ADAPTIVE_MAX_POOL2D ||
		      op == OP_ADAPTIVE_MAX_POOL3D || op == OP_GLOBAL_MAX_POOL2D;
	if (n == 0)
		return true;
	switch (kc->in[0].dtype) {
	case DT_FLOAT32:
		(adaptive ? adaptive_pool_kernel<float>
			  : pool_kernel<float>)<<<blocks_for(n), THREADS, 0, s->stream>>>(
			(const float *)kc->in[0].data, (float *)kc->out[0].data, kc->p.window,
			is_max, -FLT_MAX);
		return launched(kc, err);
	case DT_FLOAT64:
		(adaptive ? adaptive_pool_kernel<double>
			  : pool_kernel<double>)<<<blocks_for(n), THREADS, 0, s->stream>>>(
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

bool kernel_cuda_MAX_POOL1D(CudaState *s, const KernelCall *kc, char **err)
{
	return pool_run(s, kc, err);
}

bool kernel_cuda_MAX_POOL3D(CudaState *s, const KernelCall *kc, char **err)
{
	return pool_run(s, kc, err);
}

bool kernel_cuda_AVG_POOL1D(CudaState *s, const KernelCall *kc, char **err)
{
	return pool_run(s, kc, err);
}

bool kernel_cuda_AVG_POOL3D(CudaState *s, const KernelCall *kc, char **err)
{
	return pool_run(s, kc, err);
}

bool kernel_cuda_GLOBAL_MAX_POOL2D(CudaState *s, const KernelCall *kc, char **err)
{
	return pool_run(s, kc, err, true);
}

bool kernel_cuda_ADAPTIVE_AVG_POOL1D(CudaState *s, const KernelCall *kc, char **err)
{
	return pool_run(s, kc, err, true);
}

bool kernel_cuda_ADAPTIVE_AVG_POOL2D(CudaState *s, const KernelCall *kc, char **err)
{
	return pool_run(s, kc, err, true);
}

bool kernel_cuda_ADAPTIVE_AVG_POOL3D(CudaState *s, const KernelCall *kc, char **err)
{
	return pool_run(s, kc, err, true);
}

bool kernel_cuda_ADAPTIVE_MAX_POOL1D(CudaState *s, const KernelCall *kc, char **err)
{
	return pool_run(s, kc, err, true);
}

bool kernel_cuda_ADAPTIVE_MAX_POOL2D(CudaState *s, const KernelCall *kc, char **err)
{
	return pool_run(s, kc, err, true);
}

bool kernel_cuda_ADAPTIVE_MAX_POOL3D(CudaState *s, const KernelCall *kc, char **err)
{
	return pool_run(s, kc, err, true);
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
