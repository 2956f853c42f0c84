/*
 * cuda_scan.cu - the CUDA kernels of cumsum and cumprod (cpu_scan.c
 * computes the same): one thread per line along the axis, scanning it in
 * order in the output's dtype as Elem<T> computes it, the input converted
 * as casts do. sort, argsort and topk are one thread per line too, a
 * stable insertion sort of the line's indices in a workspace (correct, if
 * quadratic in the axis length).
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
	return (float)dtype_load_double(p, dt, i);
}
template <> __device__ inline double scan_load<double>(const void *p, DType dt, int64_t i)
{
	return dtype_load_double(p, dt, i);
}
template <> __device__ inline long long scan_load<long long>(const void *p, DType dt, int64_t i)
{
	return dtype_load_int(p, dt, i);
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

/* ---- sort, argsort, topk ---------------------------------------------------------- */

/* Whether key a goes before key b (cpu_scan.c's sort_before). */
__device__ static bool sort_before(double a, double b, bool ascend)
{
	if (a != a || b != b)
		return ascend ? b != b && a == a : a != a && b == b;
	return ascend ? a < b : a > b;
}

__global__ void sort_kernel(const void *x, DType xdt, size_t esize, void *values, void *indices,
			    DType idt, int64_t *work, int64_t lines, KernelSort so)
{
	const KernelAxis a = so.line;
	GRID_LOOP(f, lines)
	{
		int64_t o = f / a.inner, i = f % a.inner, *idx = work + f * a.len;
		for (int64_t j = 0; j < a.len; j++) {
			double key = dtype_load_double(x, xdt, (o * a.len + j) * a.inner + i);
			int64_t p = j;
			/* stable: move only past keys this one goes strictly before */
			while (p > 0 &&
			       sort_before(key,
					   dtype_load_double(
						   x, xdt, (o * a.len + idx[p - 1]) * a.inner + i),
					   so.ascend)) {
				idx[p] = idx[p - 1];
				p--;
			}
			idx[p] = j;
		}
		for (int64_t j = 0; j < so.k; j++) {
			int64_t at = (o * so.k + j) * a.inner + i;
			if (values) {
				const char *src = (const char *)x +
						  ((o * a.len + idx[j]) * a.inner + i) * esize;
				char *dst = (char *)values + at * esize;
				for (size_t b = 0; b < esize; b++)
					dst[b] = src[b];
			}
			if (indices)
				dtype_store_int(indices, idt, at, idx[j]);
		}
	}
}

static bool sort_run(CudaState *s, const KernelCall *kc, char **err)
{
	const KernelSort &so = kc->p.sort;
	int64_t lines = so.line.outer * so.line.inner;
	void *work;
	const KernelTensor *ind = so.indices_out >= 0 ? &kc->out[so.indices_out] : NULL;
	if (lines == 0 || so.line.len == 0 || so.k == 0)
		return true;
	if (ind && ind->dtype != DT_INT32 && ind->dtype != DT_INT64 && !dtype_is_float(ind->dtype))
		return unsupported(kc, ind->dtype, err);
	if (kc->in[0].dtype == DT_BFLOAT16)
		return unsupported(kc, kc->in[0].dtype, err);
	if (!cuda_scratch(s, (size_t)(lines * so.line.len) * sizeof(int64_t), &work, err))
		return false;
	sort_kernel<<<blocks_for(lines), THREADS, 0, s->stream>>>(
		kc->in[0].data, kc->in[0].dtype, dtype_size(kc->in[0].dtype),
		so.values_out >= 0 ? kc->out[so.values_out].data : NULL, ind ? ind->data : NULL,
		ind ? ind->dtype : DT_INT64, (int64_t *)work, lines, so);
	return launched(kc, err);
}

bool kernel_cuda_SORT(CudaState *s, const KernelCall *kc, char **err)
{
	return sort_run(s, kc, err);
}

bool kernel_cuda_ARGSORT(CudaState *s, const KernelCall *kc, char **err)
{
	return sort_run(s, kc, err);
}

bool kernel_cuda_TOPK(CudaState *s, const KernelCall *kc, char **err)
{
	return sort_run(s, kc, err);
}
