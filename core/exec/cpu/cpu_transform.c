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

bool kernel_cpu_TRANSPOSE(const KernelCall *kc, char **err)
{
	const KernelTensor *in = &kc->in[0], *out = &kc->out[0];
	uint32_t nd = in->ndim;
	int64_t *in_strides, s = 1;
	TransposeJob job;
	(void)err;
	if (nd == 0 || out->count == 0)
		return copy_kernel(kc, err);
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
	job.esize = dtype_size(in->dtype);
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

static bool view_kernel(const KernelCall *kc, char **err)
{
	ViewJob job = {kc, dtype_size(kc->out[0].dtype)};
	(void)err;
	kernel_parallel_for(kc->out[0].count, GRAIN_ELEMENTWISE, view_range, &job);
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
