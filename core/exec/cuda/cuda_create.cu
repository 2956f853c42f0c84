/*
 * cuda_create.cu - the CUDA kernels of full, full_like, one_hot and arange
 * (cpu_create.c computes the same): one thread per output element, the
 * scalar operands read from device memory and converted to the output's
 * dtype as casts do (floats through double, integers as wrapping 64-bit
 * integers).
 */
#include "kernels_cuda.h"

/* A value stored as T: floats from double, integers and bool wrapping
 * (Elem<T>::store). */
template <typename T> struct Convert {
	__device__ static T from(const void *p, DType dt, int64_t i)
	{
		return Elem<T>::store(dtype_load_int(p, dt, i));
	}
	__device__ static T line(const void *start, const void *step, DType dt, int64_t i)
	{
		return Elem<T>::store(wrap_add(dtype_load_int(start, dt, 0),
					       wrap_mul(i, dtype_load_int(step, dt, 0))));
	}
};
#define CONVERT_FLOAT(T)                                                                           \
	template <> struct Convert<T> {                                                            \
		__device__ static T from(const void *p, DType dt, int64_t i)                       \
		{                                                                                  \
			return from_double<T>(dtype_load_double(p, dt, i));                        \
		}                                                                                  \
		__device__ static T line(const void *start, const void *step, DType dt, int64_t i) \
		{                                                                                  \
			return from_double<T>(dtype_load_double(start, dt, 0) +                    \
					      (double)i * dtype_load_double(step, dt, 0));         \
		}                                                                                  \
	};
CONVERT_FLOAT(float)
CONVERT_FLOAT(double)
CONVERT_FLOAT(__half)
#undef CONVERT_FLOAT

template <typename T> __global__ void full_kernel(T *out, int64_t n, const void *fill, DType dt)
{
	T v = Convert<T>::from(fill, dt, 0);
	GRID_LOOP(i, n)
	out[i] = v;
}

template <typename T>
__global__ void one_hot_kernel(const void *indices, DType idt, const void *on, DType on_dt,
			       const void *off, DType off_dt, T *out, int64_t n, KernelAxis a)
{
	T yes = Convert<T>::from(on, on_dt, 0), no = Convert<T>::from(off, off_dt, 0);
	GRID_LOOP(e, n)
	{
		int64_t i = e % a.inner, j = e / a.inner % a.len, o = e / a.inner / a.len;
		out[e] = dtype_load_int(indices, idt, o * a.inner + i) == j ? yes : no;
	}
}

template <typename T>
__global__ void arange_kernel(const void *start, const void *step, DType dt, T *out, int64_t n)
{
	GRID_LOOP(i, n)
	out[i] = Convert<T>::line(start, step, dt, i);
}

template <typename T> static bool create_typed(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->out[0].count;
	T *out = (T *)kc->out[0].data;
	if (n == 0)
		return true;
	if (kc->op == OP_FULL || kc->op == OP_FULL_LIKE) {
		const KernelTensor *fill = &kc->in[kc->op == OP_FULL ? 0 : 1];
		full_kernel<T>
			<<<blocks_for(n), THREADS, 0, s->stream>>>(out, n, fill->data, fill->dtype);
	} else if (kc->op == OP_ONE_HOT) {
		one_hot_kernel<T><<<blocks_for(n), THREADS, 0, s->stream>>>(
			kc->in[0].data, kc->in[0].dtype, kc->in[1].data, kc->in[1].dtype,
			kc->in[2].data, kc->in[2].dtype, out, n, kc->p.axis);
	} else { /* arange */
		arange_kernel<T><<<blocks_for(n), THREADS, 0, s->stream>>>(
			kc->in[0].data, kc->in[2].data, kc->in[0].dtype, out, n);
	}
	return launched(kc, err);
}

static bool create_run(CudaState *s, const KernelCall *kc, char **err)
{
	switch (kc->out[0].dtype) {
	case DT_FLOAT32:
		return create_typed<float>(s, kc, err);
	case DT_FLOAT64:
		return create_typed<double>(s, kc, err);
	case DT_FLOAT16:
		return create_typed<__half>(s, kc, err);
	case DT_INT32:
		return create_typed<int32_t>(s, kc, err);
	case DT_INT64:
		return create_typed<int64_t>(s, kc, err);
	case DT_BOOL:
		return create_typed<uint8_t>(s, kc, err);
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

bool kernel_cuda_FULL(CudaState *s, const KernelCall *kc, char **err)
{
	return create_run(s, kc, err);
}

bool kernel_cuda_FULL_LIKE(CudaState *s, const KernelCall *kc, char **err)
{
	return create_run(s, kc, err);
}

bool kernel_cuda_ONE_HOT(CudaState *s, const KernelCall *kc, char **err)
{
	return create_run(s, kc, err);
}

bool kernel_cuda_ARANGE(CudaState *s, const KernelCall *kc, char **err)
{
	return create_run(s, kc, err);
}
