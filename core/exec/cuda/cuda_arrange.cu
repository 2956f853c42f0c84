/*
 * cuda_arrange.cu - the CUDA kernels of the arrange family (KernelArrange,
 * as cpu_arrange.c computes it): one output element per thread. nn.dilate,
 * sequence_mask, reverse_sequence, trilu, matrix_set_diag, meshgrid,
 * nn.space_to_batch_nd and nn.batch_to_space_nd move
 * 1-, 2-, 4- or 8-byte words (the fill values converted on the host,
 * kernel_scalar_bits), so every dtype runs; invert_permutation,
 * unravel_index and searchsorted read and write integers of any dtype.
 */
#include "kernels_cuda.h"

__device__ static inline long long arrange_floor_div(long long x, long long y)
{
	long long q;
	if (y == 0)
		return 0;
	if (y == -1)
		return (long long)(0ull - (unsigned long long)x);
	q = x / y;
	return q * y != x && (x < 0) != (y < 0) ? q - 1 : q;
}

/* The operands a kernel reads besides the moved words. */
struct ArrangeArgs {
	const void *aux; /* sequence lengths, trilu's k */
	DType aux_dtype;
	KernelArrange a;
};

template <typename W> __global__ void dilate_kernel(const W *in, W *out, int64_t n, ArrangeArgs g)
{
	const KernelArrange &a = g.a;
	GRID_LOOP(e, n)
	{
		int64_t rest = e, off = 0;
		bool on = true;
		for (int d = (int)a.ndim - 1; on && d >= 0; d--) {
			int64_t o = rest % a.out_shape[d];
			rest /= a.out_shape[d];
			on = o % a.stride[d] == 0;
			off += o / a.stride[d] * a.in_stride[d];
		}
		out[e] = on ? in[off] : (W)a.fill_bits;
	}
}

template <typename W>
__global__ void sequence_mask_kernel(const W *in, W *out, int64_t n, ArrangeArgs g)
{
	const KernelArrange &a = g.a;
	GRID_LOOP(e, n)
	{
		int64_t t = e / a.len_stride % a.len, b = e / a.batch_stride % a.batch;
		out[e] = (double)t >= dtype_load_double(g.aux, g.aux_dtype, b) ? (W)a.fill_bits
									       : in[e];
	}
}

template <typename W>
__global__ void reverse_sequence_kernel(const W *in, W *out, int64_t n, ArrangeArgs g)
{
	const KernelArrange &a = g.a;
	GRID_LOOP(e, n)
	{
		int64_t s = e / a.len_stride % a.len, b = e / a.batch_stride % a.batch;
		long long len = dtype_load_int(g.aux, g.aux_dtype, b), i;
		i = len <= 1 || len <= s ? s : len > a.len ? a.len - 1 - s : len - 1 - s;
		out[e] = in[e + (i - s) * a.len_stride];
	}
}

template <typename W> __global__ void trilu_kernel(const W *in, W *out, int64_t n, ArrangeArgs g)
{
	const KernelArrange &a = g.a;
	long long k = dtype_load_int(g.aux, g.aux_dtype, 0);
	GRID_LOOP(e, n)
	{
		int64_t col = e % a.cols, row = e / a.cols % a.rows;
		bool keep = a.flag ? row <= col - k : row >= col - k;
		out[e] = keep ? in[e] : (W)0;
	}
}

template <typename W>
__global__ void matrix_set_diag_kernel(const W *in, W *out, int64_t n, ArrangeArgs g)
{
	const KernelArrange &a = g.a;
	const W *diag = (const W *)g.aux;
	GRID_LOOP(e, n)
	{
		int64_t col = e % a.cols, row = e / a.cols % a.rows;
		int64_t batch = e / (a.cols * a.rows), d = col - row, off = 0, pos;
		if (d < a.k1 || d > a.k2) {
			out[e] = in[e];
			continue;
		}
		if (a.k1 != a.k2) {
			int64_t m = d >= 0 ? a.cols - d : a.cols, r = d >= 0 ? a.rows : a.rows + d;
			if (d >= 0 ? a.flag : a.flag2)
				off = a.diag_len - (m < r ? m : r);
		}
		pos = (d >= 0 ? row : col) + off;
		out[e] = diag[a.k1 == a.k2
				      ? batch * a.diag_len + pos
				      : (batch * (a.k2 - a.k1 + 1) + a.k2 - d) * a.diag_len + pos];
	}
}

template <typename W>
__global__ void meshgrid_kernel(const W *in, W *out, int64_t n, int64_t inner, int64_t extent)
{
	GRID_LOOP(e, n)
	out[e] = in[e / inner % extent];
}

enum ArrangeKind { ARR_DILATE, ARR_SEQUENCE_MASK, ARR_REVERSE_SEQUENCE, ARR_TRILU, ARR_SET_DIAG };

template <typename W>
static void arrange_launch(CudaState *s, ArrangeKind kind, const void *in, void *out, int64_t n,
			   const ArrangeArgs &g)
{
	const W *x = (const W *)in;
	W *y = (W *)out;
	switch (kind) {
	case ARR_DILATE:
		dilate_kernel<W><<<blocks_for(n), THREADS, 0, s->stream>>>(x, y, n, g);
		break;
	case ARR_SEQUENCE_MASK:
		sequence_mask_kernel<W><<<blocks_for(n), THREADS, 0, s->stream>>>(x, y, n, g);
		break;
	case ARR_REVERSE_SEQUENCE:
		reverse_sequence_kernel<W><<<blocks_for(n), THREADS, 0, s->stream>>>(x, y, n, g);
		break;
	case ARR_TRILU:
		trilu_kernel<W><<<blocks_for(n), THREADS, 0, s->stream>>>(x, y, n, g);
		break;
	case ARR_SET_DIAG:
		matrix_set_diag_kernel<W><<<blocks_for(n), THREADS, 0, s->stream>>>(x, y, n, g);
		break;
	}
}

static bool arrange_run(CudaState *s, const KernelCall *kc, ArrangeKind kind, char **err)
{
	int64_t n = kc->out[0].count;
	ArrangeArgs g;
	if (n == 0)
		return true;
	g.aux = kc->nin > 1 ? kc->in[1].data : NULL;
	g.aux_dtype = kc->nin > 1 ? kc->in[1].dtype : DT_INT64;
	g.a = kc->p.arrange;
	switch (dtype_size(kc->out[0].dtype)) {
	case 1:
		arrange_launch<uint8_t>(s, kind, kc->in[0].data, kc->out[0].data, n, g);
		return launched(kc, err);
	case 2:
		arrange_launch<uint16_t>(s, kind, kc->in[0].data, kc->out[0].data, n, g);
		return launched(kc, err);
	case 4:
		arrange_launch<uint32_t>(s, kind, kc->in[0].data, kc->out[0].data, n, g);
		return launched(kc, err);
	case 8:
		arrange_launch<uint64_t>(s, kind, kc->in[0].data, kc->out[0].data, n, g);
		return launched(kc, err);
	}
	return unsupported(kc, kc->out[0].dtype, err);
}

bool kernel_cuda_DILATE(CudaState *s, const KernelCall *kc, char **err)
{
	return arrange_run(s, kc, ARR_DILATE, err);
}

bool kernel_cuda_SEQUENCE_MASK(CudaState *s, const KernelCall *kc, char **err)
{
	return arrange_run(s, kc, ARR_SEQUENCE_MASK, err);
}

bool kernel_cuda_REVERSE_SEQUENCE(CudaState *s, const KernelCall *kc, char **err)
{
	return arrange_run(s, kc, ARR_REVERSE_SEQUENCE, err);
}

bool kernel_cuda_TRILU(CudaState *s, const KernelCall *kc, char **err)
{
	return arrange_run(s, kc, ARR_TRILU, err);
}

bool kernel_cuda_MATRIX_SET_DIAG(CudaState *s, const KernelCall *kc, char **err)
{
	return arrange_run(s, kc, ARR_SET_DIAG, err);
}

bool kernel_cuda_MESHGRID(CudaState *s, const KernelCall *kc, char **err)
{
	for (uint32_t i = 0; i < kc->nout; i++) {
		const KernelTensor *out = &kc->out[i];
		uint32_t axis = kc->p.arrange.flag && i < 2 ? 1 - i : i;
		int64_t inner = 1, n = out->count;
		if (n == 0)
			continue;
		for (uint32_t d = axis + 1; d < out->ndim; d++)
			inner *= out->shape[d];
		switch (dtype_size(out->dtype)) {
#define MESHGRID_SIZE(N)                                                                       \
	case N:                                                                                \
		meshgrid_kernel<Word<N>::T><<<blocks_for(n), THREADS, 0, s->stream>>>(         \
			(const Word<N>::T *)kc->in[i].data, (Word<N>::T *)out->data, n, inner, \
			out->shape[axis]);                                                     \
		break;
			MESHGRID_SIZE(1)
			MESHGRID_SIZE(2)
			MESHGRID_SIZE(4)
			MESHGRID_SIZE(8)
#undef MESHGRID_SIZE
		default:
			return unsupported(kc, out->dtype, err);
		}
		if (!launched(kc, err))
			return false;
	}
	return true;
}

/* ---- invert_permutation, unravel_index, searchsorted ---------------------- */

__global__ void invert_permutation_kernel(const void *x, DType xt, void *out, DType ot, int64_t n)
{
	GRID_LOOP(i, n)
	{
		long long v = dtype_load_int(x, xt, i);
		if (v >= 0 && v < n)
			dtype_store_int(out, ot, v, i);
	}
}

bool kernel_cuda_INVERT_PERMUTATION(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->in[0].count;
	if (n == 0)
		return true;
	if (!cuda_ok(cudaMemsetAsync(kc->out[0].data, 0, kc->out[0].nbytes, s->stream),
		     "cudaMemsetAsync", err))
		return false;
	invert_permutation_kernel<<<blocks_for(n), THREADS, 0, s->stream>>>(
		kc->in[0].data, kc->in[0].dtype, kc->out[0].data, kc->out[0].dtype, n);
	return launched(kc, err);
}

__global__ void unravel_index_kernel(const void *x, DType xt, const void *shape, DType st,
				     int64_t m, void *out, DType ot, int64_t n)
{
	GRID_LOOP(e, n * m)
	{
		int64_t j = e / n, i = e % n;
		long long v = dtype_load_int(x, xt, i), d;
		for (int64_t k = m - 1; k > j; k--)
			v = arrange_floor_div(v, dtype_load_int(shape, st, k));
		d = dtype_load_int(shape, st, j);
		dtype_store_int(out, ot, e, v - arrange_floor_div(v, d) * d);
	}
}

bool kernel_cuda_UNRAVEL_INDEX(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->in[0].count, m = kc->in[1].count;
	if (n * m == 0)
		return true;
	unravel_index_kernel<<<blocks_for(n * m), THREADS, 0, s->stream>>>(
		kc->in[0].data, kc->in[0].dtype, kc->in[1].data, kc->in[1].dtype, m,
		kc->out[0].data, kc->out[0].dtype, n);
	return launched(kc, err);
}

__global__ void searchsorted_kernel(const void *seq, DType st, const void *v, DType vt, void *out,
				    DType ot, int64_t count, KernelArrange a)
{
	GRID_LOOP(i, count)
	{
		int64_t off = a.outer ? i / a.n * a.len : 0, lo = 0, hi = a.len;
		double value = dtype_load_double(v, vt, i);
		while (lo < hi) {
			int64_t mid = lo + ((hi - lo) >> 1);
			double x = dtype_load_double(seq, st, off + mid);
			if (a.flag ? x <= value : x < value)
				lo = mid + 1;
			else
				hi = mid;
		}
		dtype_store_int(out, ot, i, lo);
	}
}

bool kernel_cuda_SEARCHSORTED(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->out[0].count;
	if (n == 0)
		return true;
	searchsorted_kernel<<<blocks_for(n), THREADS, 0, s->stream>>>(
		kc->in[0].data, kc->in[0].dtype, kc->in[1].data, kc->in[1].dtype, kc->out[0].data,
		kc->out[0].dtype, n, kc->p.arrange);
	return launched(kc, err);
}

/* ---- nn.space_to_batch_nd, nn.batch_to_space_nd (cpu_arrange.c's
 * space_batch_offset) ------------------------------------------------------- */

template <typename W>
__global__ void space_batch_kernel(const W *in, W *out, int64_t count, KernelArrange a,
				   bool to_batch)
{
	GRID_LOOP(e, count)
	{
		int64_t r = e % a.n, rest = e / a.n, coord[KERNEL_GATHER_MAX_NDIM];
		int64_t blk = 0, off;
		bool inside = true;
		for (int k = (int)a.ndim - 1; k >= 0; k--) {
			coord[k] = rest % a.out_shape[k];
			rest /= a.out_shape[k];
		}
		if (to_batch) {
			off = rest % a.batch;
			blk = rest / a.batch;
			for (int k = (int)a.ndim - 1; k >= 0; k--) {
				coord[k] = coord[k] * a.block[k] + blk % a.block[k] - a.before[k];
				blk /= a.block[k];
				inside = inside && coord[k] >= 0 && coord[k] < a.in_space[k];
			}
		} else {
			for (uint32_t k = 0; k < a.ndim; k++) {
				int64_t full = coord[k] + a.before[k];
				blk = blk * a.block[k] + full % a.block[k];
				coord[k] = full / a.block[k];
			}
			off = blk * a.batch + rest;
		}
		if (!inside) {
			out[e] = (W)a.fill_bits;
			continue;
		}
		for (uint32_t k = 0; k < a.ndim; k++)
			off = off * a.in_space[k] + coord[k];
		out[e] = in[off * a.n + r];
	}
}

static bool space_batch_run(CudaState *s, const KernelCall *kc, bool to_batch, char **err)
{
	int64_t n = kc->out[0].count;
	if (n == 0)
		return true;
	switch (dtype_size(kc->out[0].dtype)) {
#define SPACE_BATCH_SIZE(N)                                                                   \
	case N:                                                                               \
		space_batch_kernel<Word<N>::T><<<blocks_for(n), THREADS, 0, s->stream>>>(     \
			(const Word<N>::T *)kc->in[0].data, (Word<N>::T *)kc->out[0].data, n, \
			kc->p.arrange, to_batch);                                             \
		return launched(kc, err);
		SPACE_BATCH_SIZE(1)
		SPACE_BATCH_SIZE(2)
		SPACE_BATCH_SIZE(4)
		SPACE_BATCH_SIZE(8)
#undef SPACE_BATCH_SIZE
	}
	return unsupported(kc, kc->out[0].dtype, err);
}

bool kernel_cuda_SPACE_TO_BATCH_ND(CudaState *s, const KernelCall *kc, char **err)
{
	return space_batch_run(s, kc, true, err);
}

bool kernel_cuda_BATCH_TO_SPACE_ND(CudaState *s, const KernelCall *kc, char **err)
{
	return space_batch_run(s, kc, false, err);
}
