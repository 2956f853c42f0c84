/*
 * cuda_index.cu - the CUDA kernels of gather, gather_nd, scatter_elements
 * and scatter_nd (KernelGather, kernels.h).
 *
 * The gathers are one thread per output element moving it as a 1-, 2-, 4-
 * or 8-byte word, so every dtype runs. The scatters copy the data and then
 * combine the updates into it. To stay deterministic without atomics they
 * split the work the way the CPU does (cpu_index.c): scatter_elements one
 * thread per line along the axis, taking the line's updates in order
 * (lines never address the same element); scatter_nd one thread per
 * element of the slice, walking every tuple in order, so with duplicate
 * indices the last update wins in "update" mode (TVM leaves the winner
 * undefined). scatter_nd's "add" on float32, float64, int32 and int64 is
 * instead one thread per update with atomicAdd, which parallelises small
 * slices; duplicates then add in no fixed order. sparse_to_dense fills the
 * default, then one thread per element of the slice walks the index tuples
 * in order, as the CPU does, so the last of duplicate indices wins.
 */
#include "kernels_cuda.h"

/* Index i into an extent n > 0: from the end when negative, then clamped. */
__device__ static int64_t index_within(long long i, int64_t n)
{
	if (i < 0)
		i += n;
	return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* The data offset element e of the indices addresses (the elements form). */
__device__ static int64_t element_offset(const KernelGather &g, const void *indices, DType idt,
					 int64_t e)
{
	int64_t rest = e, off = 0;
	for (int d = (int)g.ndim - 1; d >= 0; d--) {
		int64_t c = rest % g.shape[d];
		rest /= g.shape[d];
		if (d == g.axis)
			c = index_within(dtype_load_int(indices, idt, e), g.len);
		off += c * g.stride[d];
	}
	return off;
}

/* The offset, in slices of g.inner elements, of tuple q (the nd form). */
__device__ static int64_t tuple_offset(const KernelGather &g, const void *indices, DType idt,
				       int64_t q)
{
	int64_t pos = 0, size = 1;
	for (int64_t l = 0; l < g.m; l++) {
		pos = pos * g.extent[l] +
		      index_within(dtype_load_int(indices, idt, l * g.tuples + q), g.extent[l]);
		size *= g.extent[l];
	}
	return q / g.per_batch * size + pos;
}

/* ---- gathers ------------------------------------------------------------------ */

template <typename W>
__global__ void gather_kernel(const W *data, const void *indices, DType idt, W *out, int64_t n,
			      KernelGather g)
{
	GRID_LOOP(e, n)
	out[e] = data[element_offset(g, indices, idt, e)];
}

template <typename W>
__global__ void gather_nd_kernel(const W *data, const void *indices, DType idt, W *out, int64_t n,
				 KernelGather g)
{
	GRID_LOOP(e, n)
	out[e] = data[tuple_offset(g, indices, idt, e / g.inner) * g.inner + e % g.inner];
}

static bool gather_run(CudaState *s, const KernelCall *kc, bool nd, char **err)
{
	int64_t n = kc->out[0].count;
	const void *idx = kc->in[1].data;
	DType idt = kc->in[1].dtype;
	if (n == 0)
		return true;
	switch (dtype_size(kc->out[0].dtype)) {
#define GATHER_SIZE(N)                                                                          \
	case N:                                                                                 \
		if (nd)                                                                         \
			gather_nd_kernel<Word<N>::T><<<blocks_for(n), THREADS, 0, s->stream>>>( \
				(const Word<N>::T *)kc->in[0].data, idx, idt,                   \
				(Word<N>::T *)kc->out[0].data, n, kc->p.gather);                \
		else                                                                            \
			gather_kernel<Word<N>::T><<<blocks_for(n), THREADS, 0, s->stream>>>(    \
				(const Word<N>::T *)kc->in[0].data, idx, idt,                   \
				(Word<N>::T *)kc->out[0].data, n, kc->p.gather);                \
		return launched(kc, err);
		GATHER_SIZE(1)
		GATHER_SIZE(2)
		GATHER_SIZE(4)
		GATHER_SIZE(8)
#undef GATHER_SIZE
	}
	return unsupported(kc, kc->out[0].dtype, err);
}

bool kernel_cuda_GATHER(CudaState *s, const KernelCall *kc, char **err)
{
	return gather_run(s, kc, false, err);
}

bool kernel_cuda_GATHER_ND(CudaState *s, const KernelCall *kc, char **err)
{
	return gather_run(s, kc, true, err);
}

/* ---- scatters ----------------------------------------------------------------- */

__device__ static inline float scatter_add(float x, float y)
{
	return x + y;
}
__device__ static inline double scatter_add(double x, double y)
{
	return x + y;
}
__device__ static inline long long scatter_add(long long x, long long y)
{
	return wrap_add(x, y);
}
__device__ static inline float scatter_mul(float x, float y)
{
	return x * y;
}
__device__ static inline double scatter_mul(double x, double y)
{
	return x * y;
}
__device__ static inline long long scatter_mul(long long x, long long y)
{
	return wrap_mul(x, y);
}

/* out[o] = f(out[o], u) per mode, computed as Elem<T> says; "update" moves
 * T as it is. */
template <typename T>
__device__ static void scatter_combine(T *out, int64_t o, T u, KernelScatterMode mode)
{
	typedef typename Elem<T>::C C;
	C x = Elem<T>::load(out[o]), y = Elem<T>::load(u), r = y;
	switch (mode) {
	case SCATTER_UPDATE:
		out[o] = u;
		return;
	case SCATTER_ADD:
		r = scatter_add(x, y);
		break;
	case SCATTER_MUL:
		r = scatter_mul(x, y);
		break;
	case SCATTER_MEAN:
		r = scatter_add(x, y) / 2;
		break;
	case SCATTER_MIN:
		r = y < x ? y : x;
		break;
	case SCATTER_MAX:
		r = y > x ? y : x;
		break;
	}
	out[o] = Elem<T>::store(r);
}

/* One thread per line f along the axis of the indices. */
template <typename T>
__global__ void scatter_elements_kernel(const void *indices, DType idt, const T *updates, T *out,
					int64_t lines, int64_t len, int64_t inner, KernelGather g)
{
	GRID_LOOP(f, lines)
	{
		for (int64_t k = 0; k < len; k++) {
			int64_t e = (f / inner * len + k) * inner + f % inner;
			scatter_combine(out, element_offset(g, indices, idt, e), updates[e],
					g.mode);
		}
	}
}

/* One thread per element x of the slice, every tuple in order. */
template <typename T>
__global__ void scatter_nd_kernel(const void *indices, DType idt, const T *updates, T *out,
				  KernelGather g)
{
	GRID_LOOP(x, g.inner)
	{
		for (int64_t q = 0; q < g.tuples; q++)
			scatter_combine(out, tuple_offset(g, indices, idt, q) * g.inner + x,
					updates[q * g.inner + x], g.mode);
	}
}

__device__ static inline void atomic_add(float *p, float v)
{
	atomicAdd(p, v);
}
__device__ static inline void atomic_add(double *p, double v)
{
	atomicAdd(p, v);
}
__device__ static inline void atomic_add(int32_t *p, int32_t v)
{
	atomicAdd((int *)p, (int)v);
}
__device__ static inline void atomic_add(int64_t *p, int64_t v)
{
	/* two's complement: the unsigned sum wraps as the signed one */
	atomicAdd((unsigned long long *)p, (unsigned long long)v);
}

/* scatter_nd's "add": one thread per update. */
template <typename T>
__global__ void scatter_nd_add_kernel(const void *indices, DType idt, const T *updates, T *out,
				      int64_t n, KernelGather g)
{
	GRID_LOOP(e, n)
	{
		int64_t q = e / g.inner, x = e % g.inner;
		atomic_add(&out[tuple_offset(g, indices, idt, q) * g.inner + x], updates[e]);
	}
}

template <typename T> static bool scatter_typed(CudaState *s, const KernelCall *kc, char **err)
{
	const KernelGather &g = kc->p.gather;
	const void *idx = kc->in[1].data;
	DType idt = kc->in[1].dtype;
	const T *updates = (const T *)kc->in[2].data;
	T *out = (T *)kc->out[0].data;
	if (kc->op == OP_SCATTER_ELEMENTS) {
		int64_t len = g.shape[g.axis], inner = 1, lines;
		if (kc->in[1].count == 0)
			return true;
		for (uint32_t d = (uint32_t)g.axis + 1; d < g.ndim; d++)
			inner *= g.shape[d];
		lines = kc->in[1].count / len;
		scatter_elements_kernel<T><<<blocks_for(lines), THREADS, 0, s->stream>>>(
			idx, idt, updates, out, lines, len, inner, g);
		return launched(kc, err);
	}
	if (g.tuples == 0 || g.inner == 0)
		return true;
	scatter_nd_kernel<T>
		<<<blocks_for(g.inner), THREADS, 0, s->stream>>>(idx, idt, updates, out, g);
	return launched(kc, err);
}

template <typename T> static bool scatter_nd_add(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->in[2].count;
	if (n == 0)
		return true;
	scatter_nd_add_kernel<T><<<blocks_for(n), THREADS, 0, s->stream>>>(
		kc->in[1].data, kc->in[1].dtype, (const T *)kc->in[2].data, (T *)kc->out[0].data, n,
		kc->p.gather);
	return launched(kc, err);
}

static bool scatter_run(CudaState *s, const KernelCall *kc, char **err)
{
	DType dt = kc->out[0].dtype;
	if (kc->out[0].data != kc->in[0].data && kc->out[0].nbytes &&
	    !cuda_ok(cudaMemcpyAsync(kc->out[0].data, kc->in[0].data, kc->out[0].nbytes,
				     cudaMemcpyDeviceToDevice, s->stream),
		     "cudaMemcpyAsync", err))
		return false;
	if (kc->op == OP_SCATTER_ND && kc->p.gather.mode == SCATTER_ADD) {
		if (dt == DT_FLOAT32)
			return scatter_nd_add<float>(s, kc, err);
		if (dt == DT_FLOAT64)
			return scatter_nd_add<double>(s, kc, err);
		if (dt == DT_INT32)
			return scatter_nd_add<int32_t>(s, kc, err);
		if (dt == DT_INT64)
			return scatter_nd_add<int64_t>(s, kc, err);
	}
	switch (dt) {
	case DT_FLOAT32:
		return scatter_typed<float>(s, kc, err);
	case DT_FLOAT64:
		return scatter_typed<double>(s, kc, err);
	case DT_FLOAT16:
		return scatter_typed<__half>(s, kc, err);
	case DT_INT32:
		return scatter_typed<int32_t>(s, kc, err);
	case DT_INT64:
		return scatter_typed<int64_t>(s, kc, err);
	case DT_BOOL:
		return scatter_typed<uint8_t>(s, kc, err);
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
	return unsupported(kc, dt, err);
}

bool kernel_cuda_SCATTER_ELEMENTS(CudaState *s, const KernelCall *kc, char **err)
{
	return scatter_run(s, kc, err);
}

bool kernel_cuda_SCATTER_ND(CudaState *s, const KernelCall *kc, char **err)
{
	return scatter_run(s, kc, err);
}

/* ---- sparse_to_dense ---------------------------------------------------------- */

template <typename W> __global__ void sparse_fill_kernel(const W *dflt, W *out, int64_t n)
{
	GRID_LOOP(e, n)
	out[e] = *dflt;
}

/* One thread per element x of the slice, every tuple in order. */
template <typename W>
__global__ void sparse_scatter_kernel(const void *indices, DType idt, const W *values, W *out,
				      KernelSparse s)
{
	GRID_LOOP(x, s.inner)
	for (int64_t j = 0; j < s.tuples; j++) {
		int64_t pos = 0;
		bool inside = true;
		for (int64_t l = 0; l < s.width && inside; l++) {
			long long c = dtype_load_int(indices, idt, j * s.width + l);
			inside = c >= 0 && c < s.extent[l];
			pos = pos * s.extent[l] + c;
		}
		if (inside)
			out[pos * s.inner + x] = values[j * s.values_step];
	}
}

bool kernel_cuda_SPARSE_TO_DENSE(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->out[0].count;
	if (n == 0)
		return true;
	switch (dtype_size(kc->out[0].dtype)) {
#define SPARSE_SIZE(N)                                                                         \
	case N:                                                                                \
		sparse_fill_kernel<Word<N>::T><<<blocks_for(n), THREADS, 0, s->stream>>>(      \
			(const Word<N>::T *)kc->in[2].data, (Word<N>::T *)kc->out[0].data, n); \
		if (kc->p.sparse.tuples > 0)                                                   \
			sparse_scatter_kernel<Word<N>::T>                                      \
				<<<blocks_for(kc->p.sparse.inner), THREADS, 0, s->stream>>>(   \
					kc->in[0].data, kc->in[0].dtype,                       \
					(const Word<N>::T *)kc->in[1].data,                    \
					(Word<N>::T *)kc->out[0].data, kc->p.sparse);          \
		return launched(kc, err);
		SPARSE_SIZE(1)
		SPARSE_SIZE(2)
		SPARSE_SIZE(4)
		SPARSE_SIZE(8)
#undef SPARSE_SIZE
	}
	return unsupported(kc, kc->out[0].dtype, err);
}
