/*
 * cuda_transform.cu - the CUDA kernels of the operators that move data
 * without computing: the reshapes (reshape, nn.batch_flatten, expand_dims,
 * squeeze), copy and the annotations are device-to-device copies, transpose
 * a kernel reading the input with permuted strides, concatenate and split
 * 2-D copies of rows; where, take and shape_of are kernels of their own.
 * Those that only move elements move them as 1-, 2-, 4- or 8-byte words,
 * so every dtype runs.
 */
#include "kernels_cuda.h"

static bool copy_run(CudaState *s, const KernelCall *kc, char **err)
{
	if (kc->out[0].data == kc->in[0].data || kc->out[0].nbytes == 0)
		return true;
	return cuda_ok(cudaMemcpyAsync(kc->out[0].data, kc->in[0].data, kc->out[0].nbytes,
				       cudaMemcpyDeviceToDevice, s->stream),
		       "cudaMemcpyAsync", err);
}

bool kernel_cuda_RESHAPE(CudaState *s, const KernelCall *kc, char **err)
{
	return copy_run(s, kc, err);
}

bool kernel_cuda_BATCH_FLATTEN(CudaState *s, const KernelCall *kc, char **err)
{
	return copy_run(s, kc, err);
}

bool kernel_cuda_EXPAND_DIMS(CudaState *s, const KernelCall *kc, char **err)
{
	return copy_run(s, kc, err);
}

bool kernel_cuda_SQUEEZE(CudaState *s, const KernelCall *kc, char **err)
{
	return copy_run(s, kc, err);
}

bool kernel_cuda_COPY(CudaState *s, const KernelCall *kc, char **err)
{
	return copy_run(s, kc, err);
}

bool kernel_cuda_ON_DEVICE(CudaState *s, const KernelCall *kc, char **err)
{
	return copy_run(s, kc, err);
}

bool kernel_cuda_DEVICE_COPY(CudaState *s, const KernelCall *kc, char **err)
{
	return copy_run(s, kc, err);
}

bool kernel_cuda_RESHAPE_LIKE(CudaState *s, const KernelCall *kc, char **err)
{
	return copy_run(s, kc, err);
}

bool kernel_cuda_CONTRIB_REVERSE_RESHAPE(CudaState *s, const KernelCall *kc, char **err)
{
	return copy_run(s, kc, err);
}

/* reinterpret keeps the bits: both dtypes have one element size */
bool kernel_cuda_REINTERPRET(CudaState *s, const KernelCall *kc, char **err)
{
	return copy_run(s, kc, err);
}

struct TransposePlan {
	int ndim;
	int64_t out_shape[CUDA_MAX_NDIM];
	int64_t in_stride[CUDA_MAX_NDIM]; /* input stride of each output axis */
};

template <typename T>
__global__ void transpose_kernel(const T *in, T *out, int64_t n, TransposePlan p)
{
	GRID_LOOP(i, n)
	{
		int64_t rest = i, off = 0;
		for (int d = p.ndim - 1; d >= 0; d--) {
			off += rest % p.out_shape[d] * p.in_stride[d];
			rest /= p.out_shape[d];
		}
		out[i] = in[off];
	}
}

bool kernel_cuda_TRANSPOSE(CudaState *s, const KernelCall *kc, char **err)
{
	const KernelTensor *in = &kc->in[0], *out = &kc->out[0];
	TransposePlan p;
	int64_t strides[CUDA_MAX_NDIM], st = 1, n = out->count;
	unsigned blocks = blocks_for(n);
	if (in->ndim == 0 || n == 0)
		return copy_run(s, kc, err);
	if (in->ndim > CUDA_MAX_NDIM) {
		*err = xasprintf("'transpose' on cuda supports at most %d dimensions",
				 CUDA_MAX_NDIM);
		return false;
	}
	for (uint32_t i = in->ndim; i-- > 0;) {
		strides[i] = st;
		st *= in->shape[i];
	}
	p.ndim = (int)in->ndim;
	for (uint32_t i = 0; i < in->ndim; i++) {
		p.out_shape[i] = out->shape[i];
		p.in_stride[i] = strides[kc->axes[i]];
	}
	switch (dtype_size(in->dtype)) {
	case 1:
		transpose_kernel<uint8_t><<<blocks, THREADS, 0, s->stream>>>(
			(const uint8_t *)in->data, (uint8_t *)out->data, n, p);
		break;
	case 2:
		transpose_kernel<uint16_t><<<blocks, THREADS, 0, s->stream>>>(
			(const uint16_t *)in->data, (uint16_t *)out->data, n, p);
		break;
	case 4:
		transpose_kernel<uint32_t><<<blocks, THREADS, 0, s->stream>>>(
			(const uint32_t *)in->data, (uint32_t *)out->data, n, p);
		break;
	default:
		transpose_kernel<uint64_t><<<blocks, THREADS, 0, s->stream>>>(
			(const uint64_t *)in->data, (uint64_t *)out->data, n, p);
		break;
	}
	return launched(kc, err);
}

/* rows of width bytes, pitch apart in the whole and packed in the piece.
 * cudaMemcpy2D refuses a pitch over the device's maximum (2^31 - 1 bytes),
 * which one row of a concatenation along axis 0 of tensors over 2 GiB
 * exceeds: a single row (or rows that are contiguous anyway) is one plain
 * copy, and over-long pitches go row by row (each row then being over
 * 2 GiB, there are few). */
static bool rows_copy(CudaState *s, char *whole, size_t pitch, char *piece, size_t width,
		      size_t rows, bool into_whole, char **err)
{
	if (rows == 1 || width == pitch)
		return cuda_ok(cudaMemcpyAsync(into_whole ? whole : piece,
					       into_whole ? piece : whole, width * rows,
					       cudaMemcpyDeviceToDevice, s->stream),
			       "cudaMemcpyAsync", err);
	if (pitch <= s->max_pitch)
		return into_whole
			       ? cuda_ok(cudaMemcpy2DAsync(whole, pitch, piece, width, width, rows,
							   cudaMemcpyDeviceToDevice, s->stream),
					 "cudaMemcpy2DAsync", err)
			       : cuda_ok(cudaMemcpy2DAsync(piece, width, whole, pitch, width, rows,
							   cudaMemcpyDeviceToDevice, s->stream),
					 "cudaMemcpy2DAsync", err);
	for (size_t r = 0; r < rows; r++) {
		char *w = whole + r * pitch, *q = piece + r * width;
		if (!cuda_ok(cudaMemcpyAsync(into_whole ? w : q, into_whole ? q : w, width,
					     cudaMemcpyDeviceToDevice, s->stream),
			     "cudaMemcpyAsync", err))
			return false;
	}
	return true;
}

/* concatenate/split: each piece is rows of len_i * inner elements inside
 * the whole's rows of total * inner, one 2-D copy per piece. */
static bool pieces_copy(CudaState *s, const KernelCall *kc, const KernelTensor *whole,
			const KernelTensor *pieces, uint32_t npieces, bool into_whole, char **err)
{
	int64_t axis = kc->p.axis.axis, outer = kc->p.axis.outer, inner = kc->p.axis.inner;
	size_t es = dtype_size(whole->dtype);
	size_t pitch = (size_t)(whole->shape[axis] * inner) * es;
	int64_t offset = 0;
	for (uint32_t p = 0; p < npieces; p++) {
		/* stack's pieces lack the axis: each is one position along it */
		int64_t len = outer > 0 && inner > 0 ? pieces[p].count / (outer * inner) : 0;
		size_t width = (size_t)(len * inner) * es;
		char *w = (char *)whole->data + (size_t)(offset * inner) * es;
		offset += len;
		if (width == 0 || outer == 0)
			continue;
		if (!rows_copy(s, w, pitch, (char *)pieces[p].data, width, (size_t)outer,
			       into_whole, err))
			return false;
	}
	return true;
}

bool kernel_cuda_CONCATENATE(CudaState *s, const KernelCall *kc, char **err)
{
	return pieces_copy(s, kc, &kc->out[0], kc->in, kc->nin, true, err);
}

bool kernel_cuda_STACK(CudaState *s, const KernelCall *kc, char **err)
{
	return pieces_copy(s, kc, &kc->out[0], kc->in, kc->nin, true, err);
}

bool kernel_cuda_SPLIT(CudaState *s, const KernelCall *kc, char **err)
{
	return pieces_copy(s, kc, &kc->in[0], kc->out, kc->nout, false, err);
}

/* ---- where, take, shape_of --------------------------------------------- */

/* where's operands against the result: element strides per output axis
 * (0 where an operand broadcasts). */
struct WherePlan {
	int ndim;
	int64_t shape[CUDA_MAX_NDIM];
	int64_t stride[3][CUDA_MAX_NDIM];
};

/* where's condition: nonzero is true, in every dtype where takes one. */
template <typename C> __device__ static inline bool truthy(C v)
{
	return v != 0;
}
__device__ static inline bool truthy(__half v)
{
	return __half2float(v) != 0.0f;
}

template <typename C, typename W>
__global__ void where_kernel(const C *cond, const W *x, const W *y, W *out, int64_t n, WherePlan p)
{
	GRID_LOOP(i, n)
	{
		int64_t rest = i, off[3] = {0, 0, 0};
		for (int d = p.ndim - 1; d >= 0; d--) {
			int64_t c = rest % p.shape[d];
			rest /= p.shape[d];
			for (int k = 0; k < 3; k++)
				off[k] += c * p.stride[k][d];
		}
		out[i] = truthy(cond[off[0]]) ? x[off[1]] : y[off[2]];
	}
}

template <typename C>
static bool where_cond(CudaState *s, const KernelCall *kc, const WherePlan &p, char **err)
{
	int64_t n = kc->out[0].count;
	const C *cond = (const C *)kc->in[0].data;
	switch (dtype_size(kc->out[0].dtype)) {
#define WHERE_SIZE(N)                                                                             \
	case N:                                                                                   \
		where_kernel<C, Word<N>::T><<<blocks_for(n), THREADS, 0, s->stream>>>(            \
			cond, (const Word<N>::T *)kc->in[1].data,                                 \
			(const Word<N>::T *)kc->in[2].data, (Word<N>::T *)kc->out[0].data, n, p); \
		return launched(kc, err);
		WHERE_SIZE(1)
		WHERE_SIZE(2)
		WHERE_SIZE(4)
		WHERE_SIZE(8)
#undef WHERE_SIZE
	}
	return unsupported(kc, kc->out[0].dtype, err);
}

bool kernel_cuda_WHERE(CudaState *s, const KernelCall *kc, char **err)
{
	const KernelTensor *out = &kc->out[0];
	WherePlan p;
	if (out->count == 0)
		return true;
	if (out->ndim > CUDA_MAX_NDIM) {
		*err = xasprintf("'where' on cuda takes at most %d dimensions", CUDA_MAX_NDIM);
		return false;
	}
	memset(&p, 0, sizeof p);
	p.ndim = (int)out->ndim;
	for (uint32_t d = 0; d < out->ndim; d++)
		p.shape[d] = out->shape[d];
	for (int k = 0; k < 3; k++) {
		const KernelTensor *t = &kc->in[k];
		int64_t stride = 1;
		for (uint32_t j = t->ndim; j-- > 0;) {
			uint32_t axis = j + out->ndim - t->ndim;
			p.stride[k][axis] = t->shape[j] == 1 ? 0 : stride;
			stride *= t->shape[j];
		}
	}
	switch (kc->in[0].dtype) {
	case DT_BOOL:
	case DT_UINT8:
		return where_cond<uint8_t>(s, kc, p, err);
	case DT_INT8:
		return where_cond<int8_t>(s, kc, p, err);
	case DT_INT16:
		return where_cond<int16_t>(s, kc, p, err);
	case DT_UINT16:
		return where_cond<uint16_t>(s, kc, p, err);
	case DT_UINT32:
		return where_cond<uint32_t>(s, kc, p, err);
	case DT_UINT64:
		return where_cond<uint64_t>(s, kc, p, err);
	case DT_INT32:
		return where_cond<int32_t>(s, kc, p, err);
	case DT_INT64:
		return where_cond<int64_t>(s, kc, p, err);
	case DT_FLOAT32:
		return where_cond<float>(s, kc, p, err);
	case DT_FLOAT64:
		return where_cond<double>(s, kc, p, err);
	case DT_FLOAT16:
		return where_cond<__half>(s, kc, p, err);
	case DT_BFLOAT16: /* its bits as uint16: nonzero unless +0 or -0 */
		return where_cond<uint16_t>(s, kc, p, err);
	case DT_COUNT:
		break;
	}
	return unsupported(kc, kc->in[0].dtype, err);
}

/* out[b, o, q, i] = data[b, o, index(indices[b, q]), i] (KernelTake) */
template <typename I, typename W>
__global__ void take_kernel(const W *data, const I *indices, W *out, int64_t n, KernelTake t)
{
	GRID_LOOP(e, n)
	{
		int64_t i = e % t.inner, rest = e / t.inner;
		int64_t q = rest % t.count;
		rest /= t.count;
		int64_t o = rest % t.outer, b = rest / t.outer;
		long long k = (long long)indices[b * t.count + q];
		if (t.mode == TAKE_WRAP) {
			k %= t.len;
			if (k < 0)
				k += t.len;
		} else {
			k = k < 0 ? 0 : k >= t.len ? t.len - 1 : k;
		}
		out[e] = data[((b * t.outer + o) * t.len + k) * t.inner + i];
	}
}

template <typename I> static bool take_indices(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->out[0].count;
	const I *indices = (const I *)kc->in[1].data;
	switch (dtype_size(kc->out[0].dtype)) {
#define TAKE_SIZE(N)                                                                  \
	case N:                                                                       \
		take_kernel<I, Word<N>::T><<<blocks_for(n), THREADS, 0, s->stream>>>( \
			(const Word<N>::T *)kc->in[0].data, indices,                  \
			(Word<N>::T *)kc->out[0].data, n, kc->p.take);                \
		return launched(kc, err);
		TAKE_SIZE(1)
		TAKE_SIZE(2)
		TAKE_SIZE(4)
		TAKE_SIZE(8)
#undef TAKE_SIZE
	}
	return unsupported(kc, kc->out[0].dtype, err);
}

bool kernel_cuda_TAKE(CudaState *s, const KernelCall *kc, char **err)
{
	if (kc->out[0].count == 0)
		return true;
	switch (kc->in[1].dtype) {
	case DT_INT32:
		return take_indices<int32_t>(s, kc, err);
	case DT_INT64:
		return take_indices<int64_t>(s, kc, err);
	case DT_BOOL:
	case DT_UINT8:
		return take_indices<uint8_t>(s, kc, err);
	case DT_INT8:
		return take_indices<int8_t>(s, kc, err);
	case DT_INT16:
		return take_indices<int16_t>(s, kc, err);
	case DT_UINT16:
		return take_indices<uint16_t>(s, kc, err);
	case DT_UINT32:
		return take_indices<uint32_t>(s, kc, err);
	case DT_UINT64:
		return take_indices<uint64_t>(s, kc, err);
	case DT_FLOAT32:
	case DT_FLOAT64:
	case DT_FLOAT16:
	case DT_BFLOAT16:
	case DT_COUNT:
		break;
	}
	return unsupported(kc, kc->in[1].dtype, err);
}

struct ShapeArg {
	int64_t dims[CUDA_MAX_NDIM];
};

template <typename T> __global__ void shape_kernel(T *out, int n, ShapeArg a)
{
	GRID_LOOP(i, n)
	out[i] = (T)a.dims[i];
}

bool kernel_cuda_SHAPE_OF(CudaState *s, const KernelCall *kc, char **err)
{
	ShapeArg a;
	int n = (int)kc->in[0].ndim;
	if (n == 0)
		return true;
	if (n > CUDA_MAX_NDIM) {
		*err = xasprintf("'shape_of' on cuda takes at most %d dimensions", CUDA_MAX_NDIM);
		return false;
	}
	for (int i = 0; i < n; i++)
		a.dims[i] = kc->in[0].shape[i];
	switch (kc->out[0].dtype) {
	case DT_INT32:
		shape_kernel<int32_t>
			<<<1, THREADS, 0, s->stream>>>((int32_t *)kc->out[0].data, n, a);
		return launched(kc, err);
	case DT_INT64:
		shape_kernel<int64_t>
			<<<1, THREADS, 0, s->stream>>>((int64_t *)kc->out[0].data, n, a);
		return launched(kc, err);
	case DT_FLOAT32:
	case DT_FLOAT64:
	case DT_FLOAT16:
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
	return unsupported(kc, kc->out[0].dtype, err);
}

/* ndarray_size: the element count converted to the output dtype on the
 * host (dtype_store_int's bytes, as the CPU writes them) and written by
 * one thread, so every dtype runs. */
__global__ void bytes_kernel(uint8_t *out, uint64_t bits, int size)
{
	for (int i = 0; i < size; i++)
		out[i] = (uint8_t)(bits >> (8 * i));
}

bool kernel_cuda_NDARRAY_SIZE(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->in[0].count;
	uint64_t bits = 0; /* little-endian: the element is its low bytes */
	DType dt = kc->out[0].dtype;
	dtype_store_int(&bits, dt, 0, n);
	bytes_kernel<<<1, 1, 0, s->stream>>>((uint8_t *)kc->out[0].data, bits, (int)dtype_size(dt));
	return launched(kc, err);
}

/* ---- the index views: nn.pad, strided_slice, tile, repeat, broadcast_to,
 * reverse (KernelView, as the CPU kernel reads it) ------------------------- */

struct ViewPlan {
	int ndim;
	int64_t shape[CUDA_MAX_NDIM];
	int64_t begin[CUDA_MAX_NDIM], step[CUDA_MAX_NDIM], div[CUDA_MAX_NDIM];
	int64_t mod[CUDA_MAX_NDIM], extent[CUDA_MAX_NDIM], in_stride[CUDA_MAX_NDIM];
	KernelPadMode mode;
};

template <typename W>
__global__ void view_kernel(const W *in, const W *pad, W *out, int64_t n, ViewPlan p)
{
	GRID_LOOP(e, n)
	{
		int64_t rest = e, off = 0;
		bool inside = true;
		for (int d = p.ndim - 1; d >= 0; d--) {
			int64_t o = rest % p.shape[d], q, i, m = p.extent[d];
			rest /= p.shape[d];
			q = p.div[d] > 1 ? o / p.div[d] : o;
			if (p.mod[d])
				q %= p.mod[d];
			i = p.begin[d] + q * p.step[d];
			if (i < 0 || i >= m) {
				if (p.mode == PAD_EDGE) {
					i = i < 0 ? 0 : m - 1;
				} else if (p.mode == PAD_REFLECT) {
					if (m == 1)
						i = 0;
					while (i < 0 || i >= m)
						i = i < 0 ? -i : 2 * (m - 1) - i;
				} else if (p.mode == PAD_SYMMETRIC) {
					while (i < 0 || i >= m)
						i = i < 0 ? -i - 1 : 2 * m - 1 - i;
				} else {
					inside = false;
					continue;
				}
			}
			off += i * p.in_stride[d];
		}
		out[e] = inside ? in[off] : *pad;
	}
}

static bool view_run(CudaState *s, const KernelCall *kc, char **err)
{
	const KernelView &v = kc->p.view;
	const KernelTensor *out = &kc->out[0];
	int64_t n = out->count;
	ViewPlan p;
	if (n == 0)
		return true;
	if (v.ndim > CUDA_MAX_NDIM) {
		*err = xasprintf("'%s' on cuda takes at most %d dimensions", kc->name,
				 CUDA_MAX_NDIM);
		return false;
	}
	memset(&p, 0, sizeof p);
	p.ndim = (int)v.ndim;
	p.mode = v.mode;
	for (uint32_t d = 0; d < v.ndim; d++) {
		p.shape[d] = out->shape[d];
		p.begin[d] = v.begin[d];
		p.step[d] = v.step[d];
		p.div[d] = v.div[d];
		p.mod[d] = v.mod[d];
		p.extent[d] = v.extent[d];
		p.in_stride[d] = v.in_stride[d];
	}
	switch (dtype_size(out->dtype)) {
#define VIEW_SIZE(N)                                                                  \
	case N:                                                                       \
		view_kernel<Word<N>::T><<<blocks_for(n), THREADS, 0, s->stream>>>(    \
			(const Word<N>::T *)kc->in[0].data,                           \
			kc->op == OP_PAD ? (const Word<N>::T *)kc->in[1].data : NULL, \
			(Word<N>::T *)out->data, n, p);                               \
		return launched(kc, err);
		VIEW_SIZE(1)
		VIEW_SIZE(2)
		VIEW_SIZE(4)
		VIEW_SIZE(8)
#undef VIEW_SIZE
	}
	return unsupported(kc, out->dtype, err);
}

#define VIEW_ENTRY(ID)                                                        \
	bool kernel_cuda_##ID(CudaState *s, const KernelCall *kc, char **err) \
	{                                                                     \
		return view_run(s, kc, err);                                  \
	}
VIEW_ENTRY(PAD)
VIEW_ENTRY(MIRROR_PAD)
VIEW_ENTRY(STRIDED_SLICE)
VIEW_ENTRY(TILE)
VIEW_ENTRY(REPEAT)
VIEW_ENTRY(BROADCAST_TO)
VIEW_ENTRY(REVERSE)
VIEW_ENTRY(BROADCAST_TO_LIKE)
VIEW_ENTRY(SLICE_LIKE)
#undef VIEW_ENTRY

/* ---- layout_transform -------------------------------------------------------- */

/* out[e] = in[the offset KernelLayout gives e] */
template <typename W> __global__ void layout_kernel(const W *in, W *out, int64_t n, KernelLayout k)
{
	GRID_LOOP(e, n)
	{
		int64_t full[26], rest = e, off = 0;
		for (int i = 0; i < 26; i++)
			full[i] = 0;
		for (int d = (int)k.out_ndim - 1; d >= 0; d--) {
			full[k.out_slot[d]] += rest % k.out_shape[d] * k.out_mult[d];
			rest /= k.out_shape[d];
		}
		for (uint32_t j = 0; j < k.in_ndim; j++) {
			int64_t c = full[k.in_slot[j]] / k.in_div[j];
			off += (k.in_mod[j] ? c % k.in_mod[j] : c) * k.in_stride[j];
		}
		out[e] = in[off];
	}
}

bool kernel_cuda_LAYOUT_TRANSFORM(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->out[0].count;
	if (n == 0)
		return true;
	switch (dtype_size(kc->out[0].dtype)) {
#define LAYOUT_SIZE(N)                                                                        \
	case N:                                                                               \
		layout_kernel<Word<N>::T><<<blocks_for(n), THREADS, 0, s->stream>>>(          \
			(const Word<N>::T *)kc->in[0].data, (Word<N>::T *)kc->out[0].data, n, \
			kc->p.layout);                                                        \
		return launched(kc, err);
		LAYOUT_SIZE(1)
		LAYOUT_SIZE(2)
		LAYOUT_SIZE(4)
		LAYOUT_SIZE(8)
#undef LAYOUT_SIZE
	}
	return unsupported(kc, kc->out[0].dtype, err);
}

/* ---- nn.depth_to_space, nn.space_to_depth ------------------------------------ */

/* out[e] = in[the offset KernelSubpixel gives e] (cpu_transform.c's
 * subpixel_offset) */
template <typename W>
__global__ void subpixel_kernel(const W *in, W *out, int64_t n, KernelSubpixel k)
{
	GRID_LOOP(e, n)
	{
		int64_t rest = e, bn, c, y, x, ic, iy, ix, b = k.block;
		if (k.nhwc) {
			c = rest % k.out_c, rest /= k.out_c;
			x = rest % k.out_w, rest /= k.out_w;
			y = rest % k.out_h, bn = rest / k.out_h;
		} else {
			x = rest % k.out_w, rest /= k.out_w;
			y = rest % k.out_h, rest /= k.out_h;
			c = rest % k.out_c, bn = rest / k.out_c;
		}
		if (k.to_space) {
			int64_t r = y % b * b + x % b;
			ic = k.crd ? c * b * b + r : r * k.out_c + c;
			iy = y / b;
			ix = x / b;
		} else {
			int64_t r = c / k.in_c;
			ic = c % k.in_c;
			iy = y * b + r / b;
			ix = x * b + r % b;
		}
		out[e] = in[k.nhwc ? ((bn * k.in_h + iy) * k.in_w + ix) * k.in_c + ic
				   : ((bn * k.in_c + ic) * k.in_h + iy) * k.in_w + ix];
	}
}

static bool subpixel_run(CudaState *s, const KernelCall *kc, char **err)
{
	int64_t n = kc->out[0].count;
	if (n == 0)
		return true;
	switch (dtype_size(kc->out[0].dtype)) {
#define SUBPIXEL_SIZE(N)                                                                      \
	case N:                                                                               \
		subpixel_kernel<Word<N>::T><<<blocks_for(n), THREADS, 0, s->stream>>>(        \
			(const Word<N>::T *)kc->in[0].data, (Word<N>::T *)kc->out[0].data, n, \
			kc->p.subpixel);                                                      \
		return launched(kc, err);
		SUBPIXEL_SIZE(1)
		SUBPIXEL_SIZE(2)
		SUBPIXEL_SIZE(4)
		SUBPIXEL_SIZE(8)
#undef SUBPIXEL_SIZE
	}
	return unsupported(kc, kc->out[0].dtype, err);
}

bool kernel_cuda_DEPTH_TO_SPACE(CudaState *s, const KernelCall *kc, char **err)
{
	return subpixel_run(s, kc, err);
}

bool kernel_cuda_SPACE_TO_DEPTH(CudaState *s, const KernelCall *kc, char **err)
{
	return subpixel_run(s, kc, err);
}
