/*
 * cuda_scan.cu - the CUDA kernels of cumsum and cumprod (cpu_scan.c
 * computes the same): one thread per line along the axis, scanning it in
 * order in the output's dtype as Elem<T> computes it, the input converted
 * as casts do.
 */
#include "kernels_cuda.h"

__device__ static inline float scan_op(float x, float y, bool product)
{
	return product ? x * y : x + y;
}
__device__ static inline double scan_op(double x, double y, bool product)
{
	return product ? x * y : x + y;
}
__device__ static inline long long scan_op(long long x, long long y, bool product)
{
	return product ? wrap_mul(x, y) : wrap_add(x, y);
}

/* The input element converted to T's computation type. */
template <typename C> __device__ static inline C scan_load(const void *p, DType dt, int64_t i);
template <> __device__ inline float scan_load<float>(const void *p, DType dt, int64_t i)
{
	return (float)load_as_double(p, dt, i);
}
template <> __device__ inline double scan_load<double>(const void *p, DType dt, int64_t i)
{
	return load_as_double(p, dt, i);
}
template <> __device__ inline long long scan_load<long long>(const void *p, DType dt, int64_t i)
{
	return load_as_ll(p, dt, i);
}

template <typename T>
__global__ void scan_kernel(const void *x, DType xdt, T *out, int64_t lines, KernelAxis a,
			    bool exclusive, bool product)
{
	typedef typename Elem<T>::C C;
	GRID_LOOP(f, lines)
	{
		int64_t o = f / a.inner, i = f % a.inner;
		C acc = product ? 1 : 0;
		for (int64_t j = 0; j < a.len; j++) {
			int64_t at = (o * a.len + j) * a.inner + i;
			C v = scan_load<C>(x, xdt, at);
			if (exclusive)
				out[at] = Elem<T>::store(acc);
			acc = scan_op(acc, v, product);
			if (!exclusive)
				out[at] = Elem<T>::store(acc);
		}
	}
}

template <typename T> static bool scan_typed(CudaState *s, const KernelCall *kc, char **err)
{
	const KernelAxis &a = kc->p.scan.line;
	int64_t lines = a.outer * a.inner;
	if (lines == 0 || a.len == 0)
		return true;
	scan_kernel<T><<<blocks_for(lines), THREADS, 0, s->stream>>>(
		kc->in[0].data, kc->in[0].dtype, (T *)kc->out[0].data, lines, a,
		kc->p.scan.exclusive, kc->op == OP_CUMPROD);
	return launched(kc, err);
}

static bool scan_run(CudaState *s, const KernelCall *kc, char **err)
{
	switch (kc->out[0].dtype) {
	case DT_FLOAT32:
		return scan_typed<float>(s, kc, err);
	case DT_FLOAT64:
		return scan_typed<double>(s, kc, err);
	case DT_FLOAT16:
		return scan_typed<__half>(s, kc, err);
	case DT_INT32:
		return scan_typed<int32_t>(s, kc, err);
	case DT_INT64:
		return scan_typed<int64_t>(s, kc, err);
	case DT_BOOL:
		return scan_typed<uint8_t>(s, kc, err);
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
	return unsupported(kc, kc->out[0].dtype, err);
}

bool kernel_cuda_CUMSUM(CudaState *s, const KernelCall *kc, char **err)
{
	return scan_run(s, kc, err);
}

bool kernel_cuda_CUMPROD(CudaState *s, const KernelCall *kc, char **err)
{
	return scan_run(s, kc, err);
}
