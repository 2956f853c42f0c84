/*
 * cpu_arrange.c - the CPU kernels of the arrange family, the operators
 * that place each output element by index arithmetic (KernelArrange):
 * nn.dilate, sequence_mask, reverse_sequence, trilu, matrix_set_diag and
 * meshgrid, nn.space_to_batch_nd and nn.batch_to_space_nd copy element
 * bytes (or write a fill value's), so they take
 * every dtype; invert_permutation, unravel_index and searchsorted compute
 * integers. Integer operands (trilu's k, the lengths, the indices, the
 * shapes) are read as int64 whatever their dtype, values compared as
 * doubles.
 */
#include "kernels_cpu.h"

#include <string.h>

typedef struct ArrangeJob {
	const KernelCall *kc;
	size_t esize;
} ArrangeJob;

static void put(const ArrangeJob *job, int64_t e, const void *in, int64_t i)
{
	memcpy((char *)job->kc->out[0].data + e * job->esize, (const char *)in + i * job->esize,
	       job->esize);
}

/* The fill value's bytes (the low ones of fill_bits: the host is
 * little-endian, as the .npy files devplan writes are). */
static void fill(const ArrangeJob *job, int64_t e, uint64_t bits)
{
	memcpy((char *)job->kc->out[0].data + e * job->esize, &bits, job->esize);
}

static bool arrange_run(const KernelCall *kc, KernelRangeFn fn)
{
	ArrangeJob job = {kc, dtype_size(kc->out[0].dtype)};
	kernel_parallel_for(kc->out[0].count, GRAIN_ELEMENTWISE, fn, &job);
	return true;
}

static int64_t floor_div(int64_t x, int64_t y)
{
	int64_t q;
	if (y == 0)
		return 0;
	q = idiv(x, y);
	return q * y != x && (x < 0) != (y < 0) ? q - 1 : q;
}

/* ---- nn.dilate ------------------------------------------------------------ */

static void dilate_range(void *ctx, int64_t begin, int64_t end)
{
	const ArrangeJob *job = ctx;
	const KernelArrange *a = &job->kc->p.arrange;
	for (int64_t e = begin; e < end; e++) {
		int64_t rest = e, off = 0;
		bool on = true;
		for (uint32_t d = a->ndim; on && d-- > 0;) {
			int64_t o = rest % a->out_shape[d];
			rest /= a->out_shape[d];
			on = o % a->stride[d] == 0;
			off += o / a->stride[d] * a->in_stride[d];
		}
		if (on)
			put(job, e, job->kc->in[0].data, off);
		else
			fill(job, e, a->fill_bits);
	}
}

bool kernel_cpu_DILATE(const KernelCall *kc, char **err)
{
	(void)err;
	return arrange_run(kc, dilate_range);
}

/* ---- sequence_mask, reverse_sequence --------------------------------------- */

static void sequence_mask_range(void *ctx, int64_t begin, int64_t end)
{
	const ArrangeJob *job = ctx;
	const KernelCall *kc = job->kc;
	const KernelArrange *a = &kc->p.arrange;
	for (int64_t e = begin; e < end; e++) {
		int64_t t = e / a->len_stride % a->len, b = e / a->batch_stride % a->batch;
		if ((double)t >= dtype_load_double(kc->in[1].data, kc->in[1].dtype, b))
			fill(job, e, a->fill_bits);
		else
			put(job, e, kc->in[0].data, e);
	}
}

bool kernel_cpu_SEQUENCE_MASK(const KernelCall *kc, char **err)
{
	(void)err;
	return arrange_run(kc, sequence_mask_range);
}

/* topi's reverse_sequence: position s of batch b reads len - 1 - s when
 * s < len (len its sequence length, at most the axis' extent), else s */
static void reverse_sequence_range(void *ctx, int64_t begin, int64_t end)
{
	const ArrangeJob *job = ctx;
	const KernelCall *kc = job->kc;
	const KernelArrange *a = &kc->p.arrange;
	for (int64_t e = begin; e < end; e++) {
		int64_t s = e / a->len_stride % a->len, b = e / a->batch_stride % a->batch;
		int64_t len = dtype_load_int(kc->in[1].data, kc->in[1].dtype, b), i;
		i = len <= 1 || len <= s ? s : len > a->len ? a->len - 1 - s : len - 1 - s;
		put(job, e, kc->in[0].data, e + (i - s) * a->len_stride);
	}
}

bool kernel_cpu_REVERSE_SEQUENCE(const KernelCall *kc, char **err)
{
	(void)err;
	return arrange_run(kc, reverse_sequence_range);
}

/* ---- trilu, matrix_set_diag ------------------------------------------------- */

static void trilu_range(void *ctx, int64_t begin, int64_t end)
{
	const ArrangeJob *job = ctx;
	const KernelCall *kc = job->kc;
	const KernelArrange *a = &kc->p.arrange;
	int64_t k = dtype_load_int(kc->in[1].data, kc->in[1].dtype, 0);
	for (int64_t e = begin; e < end; e++) {
		int64_t col = e % a->cols, row = e / a->cols % a->rows;
		bool keep = a->flag ? row <= col - k : row >= col - k;
		if (keep)
			put(job, e, kc->in[0].data, e);
		else
			fill(job, e, 0);
	}
}

bool kernel_cpu_TRILU(const KernelCall *kc, char **err)
{
	(void)err;
	return arrange_run(kc, trilu_range);
}

/* topi's matrix_set_diag: diagonal d = col - row in [k1, k2] reads the
 * diagonal operand at (batch, k2 - d when there are several, position),
 * the position row (d >= 0) or col (d < 0) shifted by the alignment's
 * padding. */
static void matrix_set_diag_range(void *ctx, int64_t begin, int64_t end)
{
	const ArrangeJob *job = ctx;
	const KernelCall *kc = job->kc;
	const KernelArrange *a = &kc->p.arrange;
	for (int64_t e = begin; e < end; e++) {
		int64_t col = e % a->cols, row = e / a->cols % a->rows;
		int64_t batch = e / (a->cols * a->rows), d = col - row, off = 0, pos;
		if (d < a->k1 || d > a->k2) {
			put(job, e, kc->in[0].data, e);
			continue;
		}
		if (a->k1 != a->k2) {
			int64_t m = d >= 0 ? a->cols - d : a->cols,
				n = d >= 0 ? a->rows : a->rows + d;
			if (d >= 0 ? a->flag : a->flag2)
				off = a->diag_len - (m < n ? m : n);
		}
		pos = (d >= 0 ? row : col) + off;
		put(job, e, kc->in[1].data,
		    a->k1 == a->k2 ? batch * a->diag_len + pos
				   : (batch * (a->k2 - a->k1 + 1) + a->k2 - d) * a->diag_len + pos);
	}
}

bool kernel_cpu_MATRIX_SET_DIAG(const KernelCall *kc, char **err)
{
	(void)err;
	return arrange_run(kc, matrix_set_diag_range);
}

/* ---- meshgrid ------------------------------------------------------------ */

/* grid i reads input i at its coordinate along axis i (xy: the first two
 * swapped) */
bool kernel_cpu_MESHGRID(const KernelCall *kc, char **err)
{
	(void)err;
	for (uint32_t i = 0; i < kc->nout; i++) {
		const KernelTensor *out = &kc->out[i];
		size_t es = dtype_size(out->dtype);
		uint32_t axis = kc->p.arrange.flag && i < 2 ? 1 - i : i;
		int64_t inner = 1;
		for (uint32_t d = axis + 1; d < out->ndim; d++)
			inner *= out->shape[d];
		for (int64_t e = 0; e < out->count; e++)
			memcpy((char *)out->data + e * es,
			       (const char *)kc->in[i].data + e / inner % out->shape[axis] * es,
			       es);
	}
	return true;
}

/* ---- invert_permutation, unravel_index, searchsorted ---------------------- */

/* out[x[i]] = i; an index outside the permutation is skipped */
bool kernel_cpu_INVERT_PERMUTATION(const KernelCall *kc, char **err)
{
	const KernelTensor *x = &kc->in[0], *out = &kc->out[0];
	(void)err;
	memset(out->data, 0, out->nbytes);
	for (int64_t i = 0; i < x->count; i++) {
		int64_t v = dtype_load_int(x->data, x->dtype, i);
		if (v >= 0 && v < out->count)
			dtype_store_int(out->data, out->dtype, v, i);
	}
	return true;
}

/* out[m, n] = (x[n] floor-divided by shape[M-1], ..., shape[m+1]) floor-mod
 * shape[m], topi's order */
bool kernel_cpu_UNRAVEL_INDEX(const KernelCall *kc, char **err)
{
	const KernelTensor *x = &kc->in[0], *shape = &kc->in[1], *out = &kc->out[0];
	int64_t n = x->count, m = shape->count;
	(void)err;
	for (int64_t j = 0; j < m; j++)
		for (int64_t i = 0; i < n; i++) {
			int64_t v = dtype_load_int(x->data, x->dtype, i), s;
			for (int64_t k = m - 1; k > j; k--)
				v = floor_div(v, dtype_load_int(shape->data, shape->dtype, k));
			s = dtype_load_int(shape->data, shape->dtype, j);
			dtype_store_int(out->data, out->dtype, j * n + i, v - floor_div(v, s) * s);
		}
	return true;
}

/* topi's binary search: the first position whose element is not below
 * (right: not at or below) the value */
static void searchsorted_range(void *ctx, int64_t begin, int64_t end)
{
	const ArrangeJob *job = ctx;
	const KernelCall *kc = job->kc;
	const KernelArrange *a = &kc->p.arrange;
	const KernelTensor *seq = &kc->in[0], *v = &kc->in[1];
	for (int64_t i = begin; i < end; i++) {
		int64_t off = a->outer ? i / a->n * a->len : 0, lo = 0, hi = a->len;
		double value = dtype_load_double(v->data, v->dtype, i);
		while (lo < hi) {
			int64_t mid = lo + ((hi - lo) >> 1);
			double x = dtype_load_double(seq->data, seq->dtype, off + mid);
			if (a->flag ? x <= value : x < value)
				lo = mid + 1;
			else
				hi = mid;
		}
		dtype_store_int(kc->out[0].data, kc->out[0].dtype, i, lo);
	}
}

bool kernel_cpu_SEARCHSORTED(const KernelCall *kc, char **err)
{
	(void)err;
	return arrange_run(kc, searchsorted_range);
}

/* ---- nn.space_to_batch_nd, nn.batch_to_space_nd ----------------------------- */

/* The input offset of output element e (kernels.h's KernelArrange), or
 * -1 for space_to_batch's padding. */
static int64_t space_batch_offset(const KernelArrange *a, bool to_batch, int64_t e)
{
	int64_t r = e % a->n, rest = e / a->n, coord[KERNEL_GATHER_MAX_NDIM];
	int64_t blk = 0, off;
	for (uint32_t k = a->ndim; k-- > 0;) {
		coord[k] = rest % a->out_shape[k];
		rest /= a->out_shape[k];
	}
	if (to_batch) {
		/* rest is (block offsets, batch) row-major */
		off = rest % a->batch;
		blk = rest / a->batch;
		for (uint32_t k = a->ndim; k-- > 0;) {
			coord[k] = coord[k] * a->block[k] + blk % a->block[k] - a->before[k];
			blk /= a->block[k];
			if (coord[k] < 0 || coord[k] >= a->in_space[k])
				return -1;
		}
	} else {
		for (uint32_t k = 0; k < a->ndim; k++) {
			int64_t full = coord[k] + a->before[k];
			blk = blk * a->block[k] + full % a->block[k];
			coord[k] = full / a->block[k];
		}
		off = blk * a->batch + rest;
	}
	for (uint32_t k = 0; k < a->ndim; k++)
		off = off * a->in_space[k] + coord[k];
	return off * a->n + r;
}

static void space_batch_range(void *ctx, int64_t begin, int64_t end)
{
	const ArrangeJob *job = ctx;
	const KernelCall *kc = job->kc;
	bool to_batch = kc->op == OP_SPACE_TO_BATCH_ND;
	for (int64_t e = begin; e < end; e++) {
		int64_t i = space_batch_offset(&kc->p.arrange, to_batch, e);
		if (i < 0)
			fill(job, e, kc->p.arrange.fill_bits);
		else
			put(job, e, kc->in[0].data, i);
	}
}

bool kernel_cpu_SPACE_TO_BATCH_ND(const KernelCall *kc, char **err)
{
	(void)err;
	return arrange_run(kc, space_batch_range);
}

bool kernel_cpu_BATCH_TO_SPACE_ND(const KernelCall *kc, char **err)
{
	(void)err;
	return arrange_run(kc, space_batch_range);
}
