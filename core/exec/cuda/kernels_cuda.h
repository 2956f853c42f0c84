/*
 * kernels_cuda.h - what the CUDA kernels of core/exec/cuda/ and the cuda
 * backend (exec_cuda.cu) share.
 *
 * Each family file cuda_FAMILY.cu defines the kernels kernel_cuda_ID of
 * the operators ops.def puts in FAMILY (declared below from ops.def; the
 * backend's table takes them in ops.def order, so an operator without its
 * kernel does not link, and tests/op-families checks the file).
 * Everything here is C++ and sees the IR only through kernels.h and
 * exec.h. Error strings returned through `char **err` are the caller's.
 */
#ifndef DEVPLAN_KERNELS_CUDA_H
#define DEVPLAN_KERNELS_CUDA_H

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "exec.h"
}
#include "dtype_access.h"

/* One device's stream, cuBLAS handle and staging buffers (exec_cuda.cu). */
struct CudaState {
	int id;
	cudaStream_t stream;
	cublasHandle_t blas;
	void *staging[2];      /* pinned, STAGING_BYTES each, made on first use */
	cudaEvent_t staged[2]; /* the DMA that last used each */
	size_t max_pitch;      /* the largest pitch cudaMemcpy2D accepts (2^31 - 1 bytes
				  on current GPUs, less than one row of a big tensor) */
	void *scratch;         /* kernels' workspace (the convolutions' im2col), grown on
				  demand by cuda_scratch, freed at close */
	size_t scratch_bytes;
};

/* One kernel per operator of ops.def, in cuda_FAMILY.cu of its family. */
#define OP(id, family, name, min_args, max_args, schema) \
	bool kernel_cuda_##id(CudaState *s, const KernelCall *kc, char **err);
#define OP_PLAN(id, family, name, min_args, max_args, schema) /* no kernel */
#include "ops.def"
#undef OP_PLAN
#undef OP

/* ---- errors (exec_cuda.cu) ------------------------------------------------------ */

/* False with "WHAT: the CUDA error" in *err unless e is cudaSuccess. */
bool cuda_ok(cudaError_t e, const char *what, char **err);
/* False with "WHAT: cuBLAS STATUS" in *err unless s is success. */
bool cublas_ok(cublasStatus_t s, const char *what, char **err);

/* A device workspace of at least `bytes` for the next kernels on s's
 * stream, valid until the next call (exec_cuda.cu). Growing it waits for
 * the stream, so that no queued kernel still reads the old one. */
bool cuda_scratch(CudaState *s, size_t bytes, void **out, char **err);

/* ---- element types --------------------------------------------------------------- */

/* Storage type T computes as C: float16 in float, integers and bool in
 * wrapping 64-bit integers, as the CPU kernels do. */
template <typename T> struct Elem;
template <> struct Elem<float> {
	typedef float C;
	__device__ static float load(float v)
	{
		return v;
	}
	__device__ static float store(float v)
	{
		return v;
	}
};
template <> struct Elem<double> {
	typedef double C;
	__device__ static double load(double v)
	{
		return v;
	}
	__device__ static double store(double v)
	{
		return v;
	}
};
template <> struct Elem<__half> {
	typedef float C;
	__device__ static float load(__half v)
	{
		return __half2float(v);
	}
	__device__ static __half store(float v)
	{
		return __float2half_rn(v);
	}
};
template <> struct Elem<int32_t> {
	typedef long long C;
	__device__ static long long load(int32_t v)
	{
		return v;
	}
	__device__ static int32_t store(long long v)
	{
		return dtype_wrap_i32(v);
	}
};
template <> struct Elem<int64_t> {
	typedef long long C;
	__device__ static long long load(int64_t v)
	{
		return v;
	}
	__device__ static int64_t store(long long v)
	{
		return v;
	}
};
template <> struct Elem<uint8_t> {
	typedef long long C;
	__device__ static long long load(uint8_t v)
	{
		return v;
	}
	__device__ static uint8_t store(long long v)
	{
		return v != 0;
	}
};

__device__ static inline long long wrap_add(long long x, long long y)
{
	return (long long)((unsigned long long)x + (unsigned long long)y);
}

__device__ static inline long long wrap_sub(long long x, long long y)
{
	return (long long)((unsigned long long)x - (unsigned long long)y);
}

__device__ static inline long long wrap_mul(long long x, long long y)
{
	return (long long)((unsigned long long)x * (unsigned long long)y);
}

/* A double stored as T: float to integer saturates, NaN gives 0 (cast,
 * the reductions, the average pooling). */
template <typename T> __device__ static T from_double(double v);
template <> __device__ float from_double<float>(double v)
{
	return (float)v;
}
template <> __device__ double from_double<double>(double v)
{
	return v;
}
template <> __device__ __half from_double<__half>(double v)
{
	return __float2half_rn((float)v);
}
template <> __device__ int32_t from_double<int32_t>(double v)
{
	return dtype_sat_i32(v);
}
template <> __device__ int64_t from_double<int64_t>(double v)
{
	return dtype_sat_i64(v);
}
template <> __device__ uint8_t from_double<uint8_t>(double v)
{
	return v != 0;
}

/* The unsigned word of a dtype's size, for kernels that only move elements. */
template <size_t N> struct Word;
template <> struct Word<1> {
	typedef uint8_t T;
};
template <> struct Word<2> {
	typedef uint16_t T;
};
template <> struct Word<4> {
	typedef uint32_t T;
};
template <> struct Word<8> {
	typedef uint64_t T;
};

/* ---- launch shapes ----------------------------------------------------------------- */

enum { THREADS = 256, CUDA_MAX_NDIM = 8 };

static inline unsigned blocks_for(int64_t n)
{
	int64_t b = (n + THREADS - 1) / THREADS;
	if (b < 1)
		b = 1;
	if (b > 65536)
		b = 65536;
	return (unsigned)b;
}

#define GRID_LOOP(i, n)                                                           \
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < (n); \
	     i += (int64_t)gridDim.x * blockDim.x)

static inline bool unsupported(const KernelCall *kc, DType dt, char **err)
{
	*err = xasprintf("'%s' on cuda does not support %s", kc->name, dtype_name(dt));
	return false;
}

static inline bool launched(const KernelCall *kc, char **err)
{
	cudaError_t e = cudaGetLastError();
	if (e == cudaSuccess)
		return true;
	*err = xasprintf("'%s' kernel launch: %s", kc->name, cudaGetErrorString(e));
	return false;
}

#endif
