/*
 * cpu_transform.c - the CPU kernels of the operators that move data
 * without computing: the reshapes (reshape, nn.batch_flatten, expand_dims,
 * squeeze), copy and the annotations are copies of the bytes, transpose
 * walks the input with permuted strides, concatenate, split and take copy
 * rows, and shape_of writes its operand's shape; where picks each element
 * from one of its two broadcast operands by its broadcast condition.
 */
#include "kernels_cpu.h"

#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#include <xmmintrin.h>
#endif

static bool copy_kernel(const KernelCall *kc, char **err)
{
	(void)err;
	if (kc->out[0].data != kc->in[0].data && kc->out[0].nbytes)
		memcpy(kc->out[0].data, kc->in[0].data, kc->out[0].nbytes);
	return true;
}

KERNEL_CPU_VIA(RESHAPE, copy_kernel)
KERNEL_CPU_VIA(BATCH_FLATTEN, copy_kernel)
KERNEL_CPU_VIA(EXPAND_DIMS, copy_kernel)
KERNEL_CPU_VIA(SQUEEZE, copy_kernel)
KERNEL_CPU_VIA(COPY, copy_kernel)
KERNEL_CPU_VIA(RESHAPE_LIKE, copy_kernel)
KERNEL_CPU_VIA(CONTRIB_REVERSE_RESHAPE, copy_kernel)
/* reinterpret keeps the bits (the relation has checked that both dtypes
 * have one element size) */
KERNEL_CPU_VIA(REINTERPRET, copy_kernel)

/* on_device is a pass-through and device_copy a transfer: the interpreter
 * handles both without launching, but as kernels they are copies. */
KERNEL_CPU_VIA(ON_DEVICE, copy_kernel)
KERNEL_CPU_VIA(DEVICE_COPY, copy_kernel)

/* ---- transpose ----------------------------------------------------------- */

/* The general walk, for a permutation of more than TRANSPOSE_MAX_AXES axes
 * once merged: an output-order odometer over the input's strides. */
typedef struct TransposeJob {
	uint32_t ndim;
	const int64_t *out_shape;
	int64_t *in_stride; /* input stride of each output axis */
	const char *in;
	char *out;
	size_t esize;
} TransposeJob;

static void transpose_range(void *vjob, int64_t begin, int64_t end)
{
	TransposeJob *job = vjob;
	uint32_t nd = job->ndim;
	int64_t small[8], *idx = nd <= 8 ? small : xmalloc(nd * sizeof(int64_t));
	int64_t off = 0, rest = begin;
	for (uint32_t i = nd; i-- > 0;) {
		idx[i] = rest % job->out_shape[i];
		rest /= job->out_shape[i];
		off += idx[i] * job->in_stride[i];
	}
	for (int64_t pos = begin; pos < end; pos++) {
		switch (job->esize) {
		case 1:
			((uint8_t *)job->out)[pos] = ((const uint8_t *)job->in)[off];
			break;
		case 2:
			((uint16_t *)job->out)[pos] = ((const uint16_t *)job->in)[off];
			break;
		case 4:
			((uint32_t *)job->out)[pos] = ((const uint32_t *)job->in)[off];
			break;
		default:
			((uint64_t *)job->out)[pos] = ((const uint64_t *)job->in)[off];
			break;
		}
		for (uint32_t i = nd; i-- > 0;) {
			off += job->in_stride[i];
			if (++idx[i] < job->out_shape[i])
				break;
			off -= idx[i] * job->in_stride[i];
			idx[i] = 0;
		}
	}
	if (idx != small)
		free(idx);
}

/* A permutation reduced to what moves: axes of extent 1 dropped, and
 * output axes that are consecutive input axes merged into one (so the
 * (1,128,12,64) -> (1,12,64,128) of attention is a 128 x 768 matrix
 * transposed). Output axis i has extent shape[i], input element stride
 * in_stride[i] and output element stride out_stride[i]. */
enum { TRANSPOSE_MAX_AXES = 8, TRANSPOSE_TILE = 32 };

/* An output of 4-byte elements of at least this many bytes, which would
 * push the caches' contents out anyway, is stored around them
 * (_mm_stream_ps: whole lines written without reading them first; with the
 * tiles' walk along axis a, transpose 2-D 3072x768 went from 0.44 of
 * memcpy to about twice that). Its rows must start 16-byte aligned. */
#define TRANSPOSE_STREAM ((size_t)4 << 20)

typedef struct Permutation {
	uint32_t ndim;
	int64_t shape[TRANSPOSE_MAX_AXES];
	int64_t in_stride[TRANSPOSE_MAX_AXES];
	int64_t out_stride[TRANSPOSE_MAX_AXES];
} Permutation;

/* Fills p from the input's shape and kc's axes; false when more than
 * TRANSPOSE_MAX_AXES axes remain. */
static bool permutation_reduce(const KernelTensor *in, const int64_t *axes, Permutation *p)
{
	uint32_t nd = in->ndim, n = 0;
	int64_t first[TRANSPOSE_MAX_AXES], last[TRANSPOSE_MAX_AXES], s;
	for (uint32_t i = 0; i < nd; i++) {
		int64_t a = axes[i];
		if (in->shape[a] == 1)
			continue;
		if (n > 0) {
			/* the input axis after the previous one's (extent-1 axes
			 * between do not count): the two merge */
			int64_t b = last[n - 1] + 1;
			while (b < a && in->shape[b] == 1)
				b++;
			if (b == a) {
				last[n - 1] = a;
				p->shape[n - 1] *= in->shape[a];
				continue;
			}
		}
		if (n == TRANSPOSE_MAX_AXES)
			return false;
		first[n] = last[n] = a;
		p->shape[n] = in->shape[a];
		n++;
	}
	p->ndim = n;
	/* input strides: the merged axes in input order */
	for (uint32_t i = 0; i < n; i++) {
		s = 1;
		for (uint32_t j = 0; j < n; j++)
			if (first[j] > first[i])
				s *= p->shape[j];
		p->in_stride[i] = s;
	}
	s = 1;
	for (uint32_t i = n; i-- > 0;) {
		p->out_stride[i] = s;
		s *= p->shape[i];
	}
	return true;
}

typedef struct TileJob {
	const Permutation *p;
	uint32_t a;     /* the output axis that is the input's last (input stride 1) */
	int64_t blocks; /* tiles along axis a */
	const char *in;
	char *out;
	size_t esize;
	bool stream; /* tile_4 stores around the caches (kernel_cpu_TRANSPOSE) */
} TileJob;

/* out[i * os + j] = in[j * is + i] for i < ni, j < nj: a tile of at most
 * TRANSPOSE_TILE^2 elements, whose rows of both sides stay in the caches
 * while it is read across and written along. Elements of 2, 4 and 8 bytes
 * go through SSE2 registers in square blocks (8 x 8, 4 x 4, 2 x 2: rows
 * loaded, transposed by unpacks or shuffles, which move bits and never
 * convert them, stored as rows); the tile's edges and 1-byte elements go
 * one at a time. */
#define DEFINE_TILE_EDGES(NAME, T)                                                      \
	static void NAME(const T *restrict in, int64_t is, T *restrict out, int64_t os, \
			 int64_t ni, int64_t nj, int64_t vi, int64_t vj)                \
	{                                                                               \
		/* [0, vi) x [0, vj) is done; the rest of the rows, then the columns */ \
		for (int64_t i = 0; i < vi; i++)                                        \
			for (int64_t j = vj; j < nj; j++)                               \
				out[i * os + j] = in[j * is + i];                       \
		for (int64_t i = vi; i < ni; i++)                                       \
			for (int64_t j = 0; j < nj; j++)                                \
				out[i * os + j] = in[j * is + i];                       \
	}
DEFINE_TILE_EDGES(tile_edges_1, uint8_t)
DEFINE_TILE_EDGES(tile_edges_2, uint16_t)
DEFINE_TILE_EDGES(tile_edges_4, uint32_t)
DEFINE_TILE_EDGES(tile_edges_8, uint64_t)

static void tile_1(const char *in, int64_t is, char *out, int64_t os, int64_t ni, int64_t nj)
{
	tile_edges_1((const uint8_t *)in, is, (uint8_t *)out, os, ni, nj, 0, 0);
}

static void tile_2(const char *vin, int64_t is, char *vout, int64_t os, int64_t ni, int64_t nj)
{
	const uint16_t *in = (const uint16_t *)vin;
	uint16_t *out = (uint16_t *)vout;
	int64_t vi = 0, vj = 0;
#ifdef __SSE2__
	vi = ni / 8 * 8;
	vj = nj / 8 * 8;
	for (int64_t i = 0; i < vi; i += 8)
		for (int64_t j = 0; j < vj; j += 8) {
			__m128i a[8], t[8], u[8];
			for (int r = 0; r < 8; r++)
				a[r] = _mm_loadu_si128((const __m128i *)(in + (j + r) * is + i));
			for (int r = 0; r < 4; r++) {
				t[r] = _mm_unpacklo_epi16(a[2 * r], a[2 * r + 1]);
				t[r + 4] = _mm_unpackhi_epi16(a[2 * r], a[2 * r + 1]);
			}
			/* t[0..3]: columns 0-3 of row pairs (0,1) .. (6,7); t[4..7]: 4-7 */
			for (int h = 0; h < 2; h++) {
				u[4 * h + 0] = _mm_unpacklo_epi32(t[4 * h], t[4 * h + 1]);
				u[4 * h + 1] = _mm_unpackhi_epi32(t[4 * h], t[4 * h + 1]);
				u[4 * h + 2] = _mm_unpacklo_epi32(t[4 * h + 2], t[4 * h + 3]);
				u[4 * h + 3] = _mm_unpackhi_epi32(t[4 * h + 2], t[4 * h + 3]);
			}
			/* u[4h + 0]: columns 4h, 4h+1 of rows 0-3; u[4h + 2]: of rows 4-7 */
			for (int h = 0; h < 2; h++)
				for (int c = 0; c < 2; c++) {
					__m128i lo = u[4 * h + c], hi = u[4 * h + c + 2];
					int64_t col = i + 4 * h + 2 * c;
					_mm_storeu_si128((__m128i *)(out + col * os + j),
							 _mm_unpacklo_epi64(lo, hi));
					_mm_storeu_si128((__m128i *)(out + (col + 1) * os + j),
							 _mm_unpackhi_epi64(lo, hi));
				}
		}
#endif
	tile_edges_2(in, is, out, os, ni, nj, vi, vj);
}

static void tile_4(const char *vin, int64_t is, char *vout, int64_t os, int64_t ni, int64_t nj,
		   bool stream)
{
	const uint32_t *in = (const uint32_t *)vin;
	uint32_t *out = (uint32_t *)vout;
	int64_t vi = 0, vj = 0;
#ifdef __SSE2__
	vi = ni / 4 * 4;
	vj = nj / 4 * 4;
	for (int64_t i = 0; i < vi; i += 4)
		for (int64_t j = 0; j < vj; j += 4) {
			__m128 r0 = _mm_loadu_ps((const float *)(in + j * is + i));
			__m128 r1 = _mm_loadu_ps((const float *)(in + (j + 1) * is + i));
			__m128 r2 = _mm_loadu_ps((const float *)(in + (j + 2) * is + i));
			__m128 r3 = _mm_loadu_ps((const float *)(in + (j + 3) * is + i));
			_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
			if (stream) {
				_mm_stream_ps((float *)(out + i * os + j), r0);
				_mm_stream_ps((float *)(out + (i + 1) * os + j), r1);
				_mm_stream_ps((float *)(out + (i + 2) * os + j), r2);
				_mm_stream_ps((float *)(out + (i + 3) * os + j), r3);
				continue;
			}
			_mm_storeu_ps((float *)(out + i * os + j), r0);
			_mm_storeu_ps((float *)(out + (i + 1) * os + j), r1);
			_mm_storeu_ps((float *)(out + (i + 2) * os + j), r2);
			_mm_storeu_ps((float *)(out + (i + 3) * os + j), r3);
		}
#endif
	tile_edges_4(in, is, out, os, ni, nj, vi, vj);
}

static void tile_8(const char *vin, int64_t is, char *vout, int64_t os, int64_t ni, int64_t nj)
{
	const uint64_t *in = (const uint64_t *)vin;
	uint64_t *out = (uint64_t *)vout;
	int64_t vi = 0, vj = 0;
#ifdef __SSE2__
	vi = ni / 2 * 2;
	vj = nj / 2 * 2;
	for (int64_t i = 0; i < vi; i += 2)
		for (int64_t j = 0; j < vj; j += 2) {
			__m128i r0 = _mm_loadu_si128((const __m128i *)(in + j * is + i));
			__m128i r1 = _mm_loadu_si128((const __m128i *)(in + (j + 1) * is + i));
			_mm_storeu_si128((__m128i *)(out + i * os + j), _mm_unpacklo_epi64(r0, r1));
			_mm_storeu_si128((__m128i *)(out + (i + 1) * os + j),
					 _mm_unpackhi_epi64(r0, r1));
		}
#endif
	tile_edges_8(in, is, out, os, ni, nj, vi, vj);
}

/* Units are (position of the other axes, block of TRANSPOSE_TILE along
 * the output's last axis); each walks axis a in tiles, so that it writes
 * whole runs of TRANSPOSE_TILE elements of consecutive output rows and
 * reads TRANSPOSE_TILE input rows from end to end. */
static void tile_range(void *vjob, int64_t begin, int64_t end)
{
	const TileJob *job = vjob;
	const Permutation *p = job->p;
	uint32_t last = p->ndim - 1;
	int64_t es = (int64_t)job->esize, is = p->in_stride[last], os = p->out_stride[job->a];
	for (int64_t u = begin; u < end; u++) {
		int64_t rest = u / job->blocks, j0 = u % job->blocks * TRANSPOSE_TILE;
		int64_t nj = p->shape[last] - j0, in_off = j0 * is, out_off = j0;
		if (nj > TRANSPOSE_TILE)
			nj = TRANSPOSE_TILE;
		for (uint32_t d = last; d-- > 0;) {
			int64_t c;
			if (d == job->a)
				continue;
			c = rest % p->shape[d];
			rest /= p->shape[d];
			in_off += c * p->in_stride[d];
			out_off += c * p->out_stride[d];
		}
		for (int64_t i0 = 0; i0 < p->shape[job->a]; i0 += TRANSPOSE_TILE) {
			int64_t ni = p->shape[job->a] - i0;
			const char *src = job->in + (in_off + i0) * es;
			char *dst = job->out + (out_off + i0 * os) * es;
			if (ni > TRANSPOSE_TILE)
				ni = TRANSPOSE_TILE;
			switch (job->esize) {
			case 1:
				tile_1(src, is, dst, os, ni, nj);
				break;
			case 2:
				tile_2(src, is, dst, os, ni, nj);
				break;
			case 4:
				tile_4(src, is, dst, os, ni, nj, job->stream);
				break;
			default:
				tile_8(src, is, dst, os, ni, nj);
				break;
			}
		}
	}
#ifdef __SSE2__
	if (job->stream)
		_mm_sfence(); /* the streamed stores done before the pool's join */
#endif
}

typedef struct RunJob {
	const Permutation *p;
	const char *in;
	char *out;
	size_t run; /* bytes of a row: the output's last axis, contiguous in the input too */
} RunJob;

/* The output's last axis is the input's: output row r is one run, copied. */
static void run_range(void *vjob, int64_t begin, int64_t end)
{
	const RunJob *job = vjob;
	const Permutation *p = job->p;
	uint32_t last = p->ndim - 1;
	for (int64_t r = begin; r < end; r++) {
		int64_t rest = r, in_off = 0;
		for (uint32_t d = last; d-- > 0;) {
			in_off += rest % p->shape[d] * p->in_stride[d];
			rest /= p->shape[d];
		}
		memcpy(job->out + (size_t)r * job->run,
		       job->in + (size_t)in_off * (job->run / (size_t)p->shape[last]), job->run);
	}
}

/* A permutation that keeps the input's last axis last copies rows; any
 * other is cut into tiles of TRANSPOSE_TILE x TRANSPOSE_TILE along the
 * output's last axis and the input's, so that reading across the input
 * costs a cache line per TRANSPOSE_TILE elements instead of one per
 * element. */
bool kernel_cpu_TRANSPOSE(const KernelCall *kc, char **err)
{
	const KernelTensor *in = &kc->in[0], *out = &kc->out[0];
	uint32_t nd = in->ndim;
	size_t es = dtype_size(in->dtype);
	Permutation p;
	int64_t *in_strides, s = 1;
	TransposeJob job;
	(void)err;
	if (nd == 0 || out->count == 0)
		return copy_kernel(kc, err);
	if (permutation_reduce(in, kc->axes, &p)) {
		uint32_t last, a = 0;
		if (p.ndim <= 1)
			return copy_kernel(kc, err);
		last = p.ndim - 1;
		if (p.in_stride[last] == 1) {
			RunJob run = {&p, in->data, out->data, (size_t)p.shape[last] * es};
			kernel_parallel_for(out->count / p.shape[last],
					    1 + GRAIN_ELEMENTWISE / p.shape[last], run_range, &run);
			return true;
		}
		while (p.in_stride[a] != 1)
			a++;
		TileJob tile = {
			&p,       a,         (p.shape[last] + TRANSPOSE_TILE - 1) / TRANSPOSE_TILE,
			in->data, out->data, es,
			false};
#ifdef __SSE2__
		tile.stream = es == 4 && out->nbytes >= TRANSPOSE_STREAM &&
			      (uintptr_t)out->data % 16 == 0 && p.shape[last] % 4 == 0;
#endif
		kernel_parallel_for(out->count / p.shape[a] / p.shape[last] * tile.blocks,
				    1 + GRAIN_ELEMENTWISE / (TRANSPOSE_TILE * p.shape[a]),
				    tile_range, &tile);
		return true;
	}
	in_strides = xmalloc(nd * sizeof(int64_t));
	for (uint32_t i = nd; i-- > 0;) {
		in_strides[i] = s;
		s *= in->shape[i];
	}
	job.ndim = nd;
	job.out_shape = out->shape;
	job.in_stride = xmalloc(nd * sizeof(int64_t));
	for (uint32_t i = 0; i < nd; i++)
		job.in_stride[i] = in_strides[kc->axes[i]];
	job.in = in->data;
	job.out = out->data;
	job.esize = es;
	kernel_parallel_for(out->count, GRAIN_ELEMENTWISE, transpose_range, &job);
	free(job.in_stride);
	free(in_strides);
	return true;
}

/* concatenate/split: each piece is [outer, len_i * inner] inside the whole
 * [outer, total * inner]. */
static bool pieces_copy(const KernelCall *kc, const KernelTensor *whole, const KernelTensor *pieces,
			uint32_t npieces, bool into_whole)
{
	int64_t axis = kc->p.axis.axis, outer = kc->p.axis.outer, inner = kc->p.axis.inner;
	size_t esize = dtype_size(whole->dtype);
	int64_t total = whole->shape[axis], offset = 0;
	for (uint32_t p = 0; p < npieces; p++) {
		/* stack's pieces lack the axis: each is one position along it */
		int64_t len = outer > 0 && inner > 0 ? pieces[p].count / (outer * inner) : 0;
		size_t row = (size_t)(len * inner) * esize;
		for (int64_t o = 0; o < outer && row; o++) {
			char *w = (char *)whole->data +
				  ((size_t)(o * total + offset) * inner) * esize;
			char *q = (char *)pieces[p].data + (size_t)o * row;
			if (into_whole)
				memcpy(w, q, row);
			else
				memcpy(q, w, row);
		}
		offset += len;
	}
	return true;
}

bool kernel_cpu_CONCATENATE(const KernelCall *kc, char **err)
{
	(void)err;
	return pieces_copy(kc, &kc->out[0], kc->in, kc->nin, true);
}

bool kernel_cpu_STACK(const KernelCall *kc, char **err)
{
	(void)err;
	return pieces_copy(kc, &kc->out[0], kc->in, kc->nin, true);
}

bool kernel_cpu_SPLIT(const KernelCall *kc, char **err)
{
	(void)err;
	return pieces_copy(kc, &kc->in[0], kc->out, kc->nout, false);
}

/* An index into [0, len) per take's mode; len > 0. */
static int64_t take_index(int64_t i, int64_t len, KernelTakeMode mode)
{
	if (mode == TAKE_WRAP) {
		i %= len;
		return i < 0 ? i + len : i;
	}
	/* clip, and fast (which TVM leaves unchecked) clamped to stay in bounds */
	return i < 0 ? 0 : i >= len ? len - 1 : i;
}

bool kernel_cpu_TAKE(const KernelCall *kc, char **err)
{
	const KernelTake *t = &kc->p.take;
	const KernelTensor *data = &kc->in[0], *indices = &kc->in[1];
	size_t row = (size_t)t->inner * dtype_size(data->dtype);
	const char *src = data->data;
	char *dst = kc->out[0].data;
	(void)err;
	if (kc->out[0].count == 0)
		return true;
	for (int64_t b = 0; b < t->batch; b++)
		for (int64_t o = 0; o < t->outer; o++)
			for (int64_t q = 0; q < t->count; q++) {
				int64_t i = take_index(dtype_load_int(indices->data, indices->dtype,
								      b * t->count + q),
						       t->len, t->mode);
				memcpy(dst, src + ((b * t->outer + o) * t->len + i) * row, row);
				dst += row;
			}
	return true;
}

bool kernel_cpu_SHAPE_OF(const KernelCall *kc, char **err)
{
	(void)err;
	for (uint32_t i = 0; i < kc->in[0].ndim; i++)
		dtype_store_int(kc->out[0].data, kc->out[0].dtype, i, kc->in[0].shape[i]);
	return true;
}

/* ndarray_size: the operand's element count, a scalar of the dtype asked */
bool kernel_cpu_NDARRAY_SIZE(const KernelCall *kc, char **err)
{
	(void)err;
	dtype_store_int(kc->out[0].data, kc->out[0].dtype, 0, kc->in[0].count);
	return true;
}

/* ---- the index views: nn.pad, nn.mirror_pad, strided_slice, tile, repeat,
 * broadcast_to, reverse ------------------------------------------------------------------ */

typedef struct ViewJob {
	const KernelCall *kc;
	size_t esize;
} ViewJob;

/* Input position of output coordinate o along axis d, or -1 for nn.pad's
 * constant. */
static int64_t view_position(const KernelView *v, uint32_t d, int64_t o)
{
	int64_t q = v->div[d] > 1 ? o / v->div[d] : o, i, n = v->extent[d];
	if (v->mod[d])
		q %= v->mod[d];
	i = v->begin[d] + q * v->step[d];
	if (i >= 0 && i < n)
		return i;
	switch (v->mode) {
	case PAD_EDGE:
		return i < 0 ? 0 : n - 1;
	case PAD_REFLECT:
		/* numpy's reflect: -1 reads 1, n reads n - 2 */
		if (n == 1)
			return 0;
		while (i < 0 || i >= n)
			i = i < 0 ? -i : 2 * (n - 1) - i;
		return i;
	case PAD_SYMMETRIC:
		/* numpy's symmetric: -1 reads 0, n reads n - 1 */
		while (i < 0 || i >= n)
			i = i < 0 ? -i - 1 : 2 * n - 1 - i;
		return i;
	case PAD_CONSTANT:
		break;
	}
	return -1;
}

static void view_range(void *vjob, int64_t begin, int64_t end)
{
	const ViewJob *job = vjob;
	const KernelCall *kc = job->kc;
	const KernelView *v = &kc->p.view;
	const KernelTensor *out = &kc->out[0];
	const char *in = kc->in[0].data;
	const char *pad = kc->op == OP_PAD ? kc->in[1].data : NULL;
	char *dst = out->data;
	for (int64_t e = begin; e < end; e++) {
		int64_t rest = e, off = 0;
		bool inside = true;
		for (uint32_t d = v->ndim; d-- > 0;) {
			int64_t o = rest % out->shape[d], i;
			rest /= out->shape[d];
			i = view_position(v, d, o);
			if (i < 0)
				inside = false;
			else
				off += i * v->in_stride[d];
		}
		memcpy(dst + e * job->esize, inside ? in + off * job->esize : pad, job->esize);
	}
}

/* The views by rows of the output's last axis: the input position of
 * each output coordinate along it (or -1 for nn.pad's constant) is
 * computed once per call, each row's offset once per row, and a row whose
 * positions are consecutive and inside the input (a slice with step 1, a
 * broadcast row) is one memcpy. */
typedef struct ViewRowsJob {
	const KernelCall *kc;
	size_t esize;
	int64_t len;       /* the output's last extent */
	const int64_t *at; /* the input position of each coordinate along it, or -1 */
	bool run;          /* at[] consecutive and inside, with input stride 1 */
} ViewRowsJob;

#define DEFINE_VIEW_ROW(NAME, T)                                                          \
	static void NAME(const void *vin, int64_t stride, const int64_t *at, int64_t len, \
			 const void *vpad, void *vout)                                    \
	{                                                                                 \
		const T *in = vin;                                                        \
		T *out = vout, pad;                                                       \
		memcpy(&pad, vpad ? vpad : vin, sizeof pad);                              \
		for (int64_t o = 0; o < len; o++)                                         \
			out[o] = at[o] < 0 ? pad : in[at[o] * stride];                    \
	}
DEFINE_VIEW_ROW(view_row_1, uint8_t)
DEFINE_VIEW_ROW(view_row_2, uint16_t)
DEFINE_VIEW_ROW(view_row_4, uint32_t)
DEFINE_VIEW_ROW(view_row_8, uint64_t)

static void view_rows(void *vjob, int64_t begin, int64_t end)
{
	const ViewRowsJob *job = vjob;
	const KernelCall *kc = job->kc;
	const KernelView *v = &kc->p.view;
	const KernelTensor *out = &kc->out[0];
	uint32_t last = v->ndim - 1;
	int64_t es = (int64_t)job->esize, stride = v->in_stride[last];
	const char *in = kc->in[0].data;
	const char *pad = kc->op == OP_PAD ? kc->in[1].data : NULL;
	for (int64_t r = begin; r < end; r++) {
		int64_t rest = r, off = 0;
		bool inside = true;
		char *dst = (char *)out->data + r * job->len * es;
		for (uint32_t d = last; d-- > 0;) {
			int64_t i = view_position(v, d, rest % out->shape[d]);
			rest /= out->shape[d];
			if (i < 0)
				inside = false;
			else
				off += i * v->in_stride[d];
		}
		if (!inside) {
			for (int64_t o = 0; o < job->len; o++)
				memcpy(dst + o * es, pad, (size_t)es);
			continue;
		}
		if (job->run) {
			memcpy(dst, in + (off + job->at[0]) * es, (size_t)(job->len * es));
			continue;
		}
		switch (es) {
		case 1:
			view_row_1(in + off * es, stride, job->at, job->len, pad, dst);
			break;
		case 2:
			view_row_2(in + off * es, stride, job->at, job->len, pad, dst);
			break;
		case 4:
			view_row_4(in + off * es, stride, job->at, job->len, pad, dst);
			break;
		default:
			view_row_8(in + off * es, stride, job->at, job->len, pad, dst);
			break;
		}
	}
}

static bool view_kernel(const KernelCall *kc, char **err)
{
	const KernelView *v = &kc->p.view;
	const KernelTensor *out = &kc->out[0];
	size_t es = dtype_size(out->dtype);
	ViewRowsJob rows;
	int64_t *at, len;
	(void)err;
	if (out->count == 0)
		return true;
	if (v->ndim == 0 || (es != 1 && es != 2 && es != 4 && es != 8)) {
		ViewJob job = {kc, es};
		kernel_parallel_for(out->count, GRAIN_ELEMENTWISE, view_range, &job);
		return true;
	}
	len = out->shape[v->ndim - 1];
	at = xmalloc((size_t)len * sizeof(int64_t));
	rows = (ViewRowsJob){kc, es, len, at, v->in_stride[v->ndim - 1] == 1};
	for (int64_t o = 0; o < len; o++) {
		at[o] = view_position(v, v->ndim - 1, o);
		rows.run = rows.run && at[o] >= 0 && at[o] == at[0] + o;
	}
	kernel_parallel_for(out->count / len, GRAIN_ELEMENTWISE / len + 1, view_rows, &rows);
	free(at);
	return true;
}

KERNEL_CPU_VIA(PAD, view_kernel)
KERNEL_CPU_VIA(MIRROR_PAD, view_kernel)
KERNEL_CPU_VIA(STRIDED_SLICE, view_kernel)
KERNEL_CPU_VIA(TILE, view_kernel)
KERNEL_CPU_VIA(REPEAT, view_kernel)
KERNEL_CPU_VIA(BROADCAST_TO, view_kernel)
KERNEL_CPU_VIA(BROADCAST_TO_LIKE, view_kernel)
KERNEL_CPU_VIA(SLICE_LIKE, view_kernel)
KERNEL_CPU_VIA(REVERSE, view_kernel)

/* ---- layout_transform -------------------------------------------------------- */

/* The input offset of output element e (KernelLayout). */
static int64_t layout_offset(const KernelLayout *k, int64_t e)
{
	int64_t full[26] = {0}, off = 0;
	for (uint32_t d = k->out_ndim; d-- > 0;) {
		full[k->out_slot[d]] += e % k->out_shape[d] * k->out_mult[d];
		e /= k->out_shape[d];
	}
	for (uint32_t j = 0; j < k->in_ndim; j++) {
		int64_t c = full[k->in_slot[j]] / k->in_div[j];
		off += (k->in_mod[j] ? c % k->in_mod[j] : c) * k->in_stride[j];
	}
	return off;
}

static void layout_range(void *ctx, int64_t begin, int64_t end)
{
	const ViewJob *job = ctx;
	const KernelCall *kc = job->kc;
	const char *in = kc->in[0].data;
	char *out = kc->out[0].data;
	for (int64_t e = begin; e < end; e++)
		memcpy(out + e * job->esize, in + layout_offset(&kc->p.layout, e) * job->esize,
		       job->esize);
}

bool kernel_cpu_LAYOUT_TRANSFORM(const KernelCall *kc, char **err)
{
	ViewJob job = {kc, dtype_size(kc->out[0].dtype)};
	(void)err;
	kernel_parallel_for(kc->out[0].count, GRAIN_ELEMENTWISE, layout_range, &job);
	return true;
}

/* ---- nn.depth_to_space, nn.space_to_depth ------------------------------------ */

/* The input offset of output element e (KernelSubpixel). */
static int64_t subpixel_offset(const KernelSubpixel *k, int64_t e)
{
	int64_t n, c, y, x, ic, iy, ix, b = k->block;
	if (k->nhwc) {
		c = e % k->out_c, e /= k->out_c;
		x = e % k->out_w, e /= k->out_w;
		y = e % k->out_h, n = e / k->out_h;
	} else {
		x = e % k->out_w, e /= k->out_w;
		y = e % k->out_h, e /= k->out_h;
		c = e % k->out_c, n = e / k->out_c;
	}
	if (k->to_space) {
		int64_t r = y % b * b + x % b;
		ic = k->crd ? c * b * b + r : r * k->out_c + c;
		iy = y / b;
		ix = x / b;
	} else {
		int64_t r = c / k->in_c;
		ic = c % k->in_c;
		iy = y * b + r / b;
		ix = x * b + r % b;
	}
	return k->nhwc ? ((n * k->in_h + iy) * k->in_w + ix) * k->in_c + ic
		       : ((n * k->in_c + ic) * k->in_h + iy) * k->in_w + ix;
}

static void subpixel_range(void *ctx, int64_t begin, int64_t end)
{
	const ViewJob *job = ctx;
	const KernelCall *kc = job->kc;
	const char *in = kc->in[0].data;
	char *out = kc->out[0].data;
	for (int64_t e = begin; e < end; e++)
		memcpy(out + e * job->esize, in + subpixel_offset(&kc->p.subpixel, e) * job->esize,
		       job->esize);
}

static bool subpixel_kernel(const KernelCall *kc, char **err)
{
	ViewJob job = {kc, dtype_size(kc->out[0].dtype)};
	(void)err;
	kernel_parallel_for(kc->out[0].count, GRAIN_ELEMENTWISE, subpixel_range, &job);
	return true;
}

KERNEL_CPU_VIA(DEPTH_TO_SPACE, subpixel_kernel)
KERNEL_CPU_VIA(SPACE_TO_DEPTH, subpixel_kernel)

/* ---- where ---------------------------------------------------------------- */

/* where(cond, x, y): the three operands broadcast against the result
 * (numpy's rule) and cond counts as true when nonzero. The output is walked
 * in runs along its last axis, like the binary operators; a one-byte cond
 * (bool, int8, uint8) and an element of 1, 2, 4 or 8 bytes, every real
 * case, take a typed loop that reads both candidates and selects (which
 * vectorises); any other pair copies the chosen element's bytes. */
typedef void (*WhereLoop)(const void *c, int64_t sc, const void *x, int64_t sx, const void *y,
			  int64_t sy, void *out, int64_t n, const KernelCall *kc);

#define DEFINE_WHERE_LOOP(NAME, T)                                                               \
	static void NAME(const void *pc, int64_t sc, const void *px, int64_t sx, const void *py, \
			 int64_t sy, void *po, int64_t n, const KernelCall *kc)                  \
	{                                                                                        \
		const uint8_t *restrict c = pc;                                                  \
		const T *restrict x = px;                                                        \
		const T *restrict y = py;                                                        \
		T *restrict o = po;                                                              \
		(void)kc;                                                                        \
		if (sc == 1 && sx == 1 && sy == 1) {                                             \
			for (int64_t i = 0; i < n; i++) {                                        \
				T a = x[i], b = y[i];                                            \
				o[i] = c[i] ? a : b;                                             \
			}                                                                        \
		} else {                                                                         \
			for (int64_t i = 0; i < n; i++) {                                        \
				T a = x[i * sx], b = y[i * sy];                                  \
				o[i] = c[i * sc] ? a : b;                                        \
			}                                                                        \
		}                                                                                \
	}
DEFINE_WHERE_LOOP(where_1, uint8_t)
DEFINE_WHERE_LOOP(where_2, uint16_t)
DEFINE_WHERE_LOOP(where_4, uint32_t)
DEFINE_WHERE_LOOP(where_8, uint64_t)

/* Any cond dtype, any element size: the chosen element's bytes. */
static void where_any(const void *pc, int64_t sc, const void *px, int64_t sx, const void *py,
		      int64_t sy, void *po, int64_t n, const KernelCall *kc)
{
	const KernelTensor *c = &kc->in[0];
	size_t esize = dtype_size(kc->out[0].dtype);
	int64_t c0 = ((const char *)pc - (const char *)c->data) / (int64_t)dtype_size(c->dtype);
	for (int64_t i = 0; i < n; i++) {
		int64_t k = c0 + i * sc;
		bool take_x = dtype_is_float(c->dtype)
				      ? dtype_load_double(c->data, c->dtype, k) != 0
				      : dtype_load_int(c->data, c->dtype, k) != 0;
		memcpy((char *)po + i * (int64_t)esize,
		       take_x ? (const char *)px + i * sx * (int64_t)esize
			      : (const char *)py + i * sy * (int64_t)esize,
		       esize);
	}
}

typedef struct WhereJob {
	const KernelCall *kc;
	WhereLoop loop;
	uint32_t ndim;
	const int64_t *shape;
	int64_t *stride[3]; /* element stride of each operand per output axis */
	size_t esize[3];    /* cond's element size, then the values' */
} WhereJob;

static void where_range(void *vjob, int64_t begin, int64_t end)
{
	WhereJob *job = vjob;
	const KernelCall *kc = job->kc;
	uint32_t nd = job->ndim, last = nd - 1;
	int64_t small[8], *idx = nd <= 8 ? small : xmalloc(nd * sizeof(int64_t));
	int64_t off[3] = {0, 0, 0}, rest = begin, pos = begin;
	const char *base[3] = {kc->in[0].data, kc->in[1].data, kc->in[2].data};
	char *out = kc->out[0].data;
	for (uint32_t i = nd; i-- > 0;) {
		idx[i] = rest % job->shape[i];
		rest /= job->shape[i];
		for (int k = 0; k < 3; k++)
			off[k] += idx[i] * job->stride[k][i];
	}
	while (pos < end) {
		int64_t len = job->shape[last] - idx[last];
		if (len > end - pos)
			len = end - pos;
		job->loop(base[0] + off[0] * (int64_t)job->esize[0], job->stride[0][last],
			  base[1] + off[1] * (int64_t)job->esize[1], job->stride[1][last],
			  base[2] + off[2] * (int64_t)job->esize[2], job->stride[2][last],
			  out + pos * (int64_t)job->esize[1], len, kc);
		pos += len;
		idx[last] += len;
		for (int k = 0; k < 3; k++)
			off[k] += len * job->stride[k][last];
		for (uint32_t i = last; i > 0 && idx[i] == job->shape[i]; i--) {
			for (int k = 0; k < 3; k++)
				off[k] += job->stride[k][i - 1] - idx[i] * job->stride[k][i];
			idx[i] = 0;
			idx[i - 1]++;
		}
	}
	if (idx != small)
		free(idx);
}

bool kernel_cpu_WHERE(const KernelCall *kc, char **err)
{
	const KernelTensor *out = &kc->out[0];
	int64_t one = 1;
	WhereJob job;
	(void)err;
	if (out->count == 0)
		return true;
	job.kc = kc;
	/* a scalar result is one run of one element */
	job.ndim = out->ndim ? out->ndim : 1;
	job.shape = out->ndim ? out->shape : &one;
	job.esize[0] = dtype_size(kc->in[0].dtype);
	job.esize[1] = job.esize[2] = dtype_size(out->dtype);
	job.loop = where_any;
	if (job.esize[0] == 1 && dtype_is_float(kc->in[0].dtype) == false) {
		switch (job.esize[1]) {
		case 1:
			job.loop = where_1;
			break;
		case 2:
			job.loop = where_2;
			break;
		case 4:
			job.loop = where_4;
			break;
		case 8:
			job.loop = where_8;
			break;
		}
	}
	for (int k = 0; k < 3; k++) {
		const KernelTensor *t = &kc->in[k];
		int64_t stride = 1;
		job.stride[k] = xcalloc(job.ndim, sizeof(int64_t));
		/* right-aligned: operand axis j is output axis j + nd - t->ndim */
		for (uint32_t j = t->ndim; j-- > 0;) {
			uint32_t axis = j + out->ndim - t->ndim;
			job.stride[k][axis] = t->shape[j] == 1 ? 0 : stride;
			stride *= t->shape[j];
		}
	}
	kernel_parallel_for(out->count, GRAIN_ELEMENTWISE, where_range, &job);
	for (int k = 0; k < 3; k++)
		free(job.stride[k]);
	return true;
}
