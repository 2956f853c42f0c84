/*
 * cuda_fill.cu - the CUDA kernels of zeros, ones, zeros_like and
 * ones_like: zeros is a cudaMemsetAsync, any other value a kernel storing
 * it in the output's dtype.
 */
#include "kernels_cuda.h"

template <typename T> __global__ void fill_kernel(T *out, int64_t n, T v)
{
	GRID_LOOP(i, n)
	out[i] = v;
}

template <typename T> static T host_value(double v);
template <> float host_value<float>(double v)
{
	return (float)v;
}
template <> double host_value<double>(double v)
{
	return v;
}
template <> __half host_value<__half>(double v)
{
	__half_raw raw;
	raw.x = dtype_float_to_half((float)v);
	return __half(raw);
}
template <> int32_t host_value<int32_t>(double v)
{
	return (int32_t)v;
}
template <> int64_t host_value<int64_t>(double v)
{
	return (int64_t)v;
}
template <> uint8_t host_value<uint8_t>(double v)
{
	return v != 0;
}

template <typename T> static bool fill_typed(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->out[0].count;
	if (n == 0)
		return true;
	fill_kernel<T><<<blocks_for(n), THREADS, 0, s->stream>>>((T *)kc->out[0].data, n,
								 host_value<T>(kc->p.fill));
	return launched(kc, err);
}

static bool fill_run(CudaState *s, const KernelCall *kc, char **err)
{
	if (kc->p.fill == 0)
		return cuda_ok(cudaMemsetAsync(kc->out[0].data, 0, kc->out[0].nbytes, s->stream),
			       "cudaMemsetAsync", err);
	switch (kc->out[0].dtype) {
	case DT_FLOAT32:
		return fill_typed<float>(s, kc, err);
	case DT_FLOAT64:
		return fill_typed<double>(s, kc, err);
	case DT_FLOAT16:
		return fill_typed<__half>(s, kc, err);
	case DT_INT32:
		return fill_typed<int32_t>(s, kc, err);
	case DT_INT64:
		return fill_typed<int64_t>(s, kc, err);
	case DT_BOOL:
		return fill_typed<uint8_t>(s, kc, err);
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

bool kernel_cuda_ZEROS(CudaState *s, const KernelCall *kc, char **err)
{
	return fill_run(s, kc, err);
}

bool kernel_cuda_ONES(CudaState *s, const KernelCall *kc, char **err)
{
	return fill_run(s, kc, err);
}

bool kernel_cuda_ZEROS_LIKE(CudaState *s, const KernelCall *kc, char **err)
{
	return fill_run(s, kc, err);
}

bool kernel_cuda_ONES_LIKE(CudaState *s, const KernelCall *kc, char **err)
{
	return fill_run(s, kc, err);
}
