/*
 * cpu_index.c - the CPU kernels of the operators that read or write a
 * tensor at positions given by an index tensor: gather and gather_nd copy
 * the addressed elements or slices, scatter_elements and scatter_nd copy
 * the data and then combine each update into the position it addresses.
 *
 * Gathers only move elements, by their size in bytes, so every dtype runs.
 * The scatters apply their updates in index order, so with duplicate
 * indices the result is deterministic (the last update wins in "update"
 * mode): scatter_elements runs one thread per line along the axis (lines
 * never address the same element), scatter_nd one thread per range of the
 * slice, each walking every tuple. Out-of-range indices follow KernelGather
 * (kernels.h): negative ones count from the end, the rest are clamped.
 * sparse_to_dense fills the default and then writes each index tuple's
 * value in order, skipping a tuple out of range (KernelSparse).
 */
#include "kernels_cpu.h"

#include <string.h>

/* Index i into an extent n > 0: from the end when negative, then clamped. */
static int64_t index_within(int64_t i, int64_t n)
{
	if (i < 0)
		i += n;
	return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* The data offset element e of the indices addresses (the elements form). */
static int64_t element_offset(const KernelGather *g, const KernelTensor *indices, int64_t e)
{
	int64_t rest = e, off = 0;
	for (uint32_t d = g->ndim; d-- > 0;) {
		int64_t c = rest % g->shape[d];
		rest /= g->shape[d];
		if ((int64_t)d == g->axis)
			c = index_within(dtype_load_int(indices->data, indices->dtype, e), g->len);
		off += c * g->stride[d];
	}
	return off;
}

/* The offset, in slices of g->inner elements, of tuple q (the nd form). */
static int64_t tuple_offset(const KernelGather *g, const KernelTensor *indices, int64_t q)
{
	int64_t pos = 0, size = 1;
	for (int64_t l = 0; l < g->m; l++) {
		int64_t i = dtype_load_int(indices->data, indices->dtype, l * g->tuples + q);
		pos = pos * g->extent[l] + index_within(i, g->extent[l]);
		size *= g->extent[l];
	}
	return q / g->per_batch * size + pos;
}

typedef struct IndexJob {
	const KernelCall *kc;
	size_t esize;
} IndexJob;

static void gather_range(void *ctx, int64_t begin, int64_t end)
{
	const IndexJob *job = ctx;
	const KernelCall *kc = job->kc;
	const char *src = kc->in[0].data;
	char *dst = kc->out[0].data;
	for (int64_t e = begin; e < end; e++)
		memcpy(dst + e * job->esize,
		       src + element_offset(&kc->p.gather, &kc->in[1], e) * job->esize, job->esize);
}

bool kernel_cpu_GATHER(const KernelCall *kc, char **err)
{
	IndexJob job = {kc, dtype_size(kc->out[0].dtype)};
	(void)err;
	kernel_parallel_for(kc->out[0].count, GRAIN_ELEMENTWISE, gather_range, &job);
	return true;
}

static void gather_nd_range(void *ctx, int64_t begin, int64_t end)
{
	const IndexJob *job = ctx;
	const KernelCall *kc = job->kc;
	const KernelGather *g = &kc->p.gather;
	size_t row = (size_t)g->inner * job->esize;
	const char *src = kc->in[0].data;
	char *dst = kc->out[0].data;
	for (int64_t q = begin; q < end; q++)
		memcpy(dst + q * row, src + tuple_offset(g, &kc->in[1], q) * row, row);
}

bool kernel_cpu_GATHER_ND(const KernelCall *kc, char **err)
{
	IndexJob job = {kc, dtype_size(kc->out[0].dtype)};
	int64_t inner = kc->p.gather.inner > 0 ? kc->p.gather.inner : 1;
	(void)err;
	if (kc->out[0].count == 0)
		return true;
	kernel_parallel_for(kc->p.gather.tuples, GRAIN_ELEMENTWISE / inner + 1, gather_nd_range,
			    &job);
	return true;
}

/* out[o] = f(out[o], updates[u]) per the scatter's mode, in out's dtype:
 * floats in double, integers and bool in wrapping 64-bit integers. */
static void scatter_apply(const KernelCall *kc, int64_t o, int64_t u, size_t esize)
{
	const KernelTensor *out = &kc->out[0], *upd = &kc->in[2];
	DType dt = out->dtype;
	KernelScatterMode mode = kc->p.gather.mode;
	if (mode == SCATTER_UPDATE) {
		memcpy((char *)out->data + o * esize, (const char *)upd->data + u * esize, esize);
		return;
	}
	if (dtype_is_float(dt)) {
		double x = dtype_load_double(out->data, dt, o),
		       y = dtype_load_double(upd->data, dt, u), r = y;
		switch (mode) {
		case SCATTER_UPDATE:
			break;
		case SCATTER_ADD:
			r = x + y;
			break;
		case SCATTER_MUL:
			r = x * y;
			break;
		case SCATTER_MEAN:
			r = (x + y) / 2;
			break;
		case SCATTER_MIN:
			r = y < x ? y : x;
			break;
		case SCATTER_MAX:
			r = y > x ? y : x;
			break;
		}
		dtype_store_double(out->data, dt, o, r);
	} else {
		int64_t x = dtype_load_int(out->data, dt, o), y = dtype_load_int(upd->data, dt, u),
			r = y;
		switch (mode) {
		case SCATTER_UPDATE:
			break;
		case SCATTER_ADD:
			r = iadd(x, y);
			break;
		case SCATTER_MUL:
			r = imul(x, y);
			break;
		case SCATTER_MEAN:
			r = idiv(iadd(x, y), 2);
			break;
		case SCATTER_MIN:
			r = y < x ? y : x;
			break;
		case SCATTER_MAX:
			r = y > x ? y : x;
			break;
		}
		dtype_store_int(out->data, dt, o, r);
	}
}

/* Copies data to the output, which the scatters then update in place. */
static void scatter_copy(const KernelCall *kc)
{
	if (kc->out[0].data != kc->in[0].data && kc->out[0].nbytes)
		memcpy(kc->out[0].data, kc->in[0].data, kc->out[0].nbytes);
}

/* Lines along the axis of the indices: line f is (i, j) with i the
 * position before the axis and j after it. */
static void scatter_elements_range(void *ctx, int64_t begin, int64_t end)
{
	const IndexJob *job = ctx;
	const KernelCall *kc = job->kc;
	const KernelGather *g = &kc->p.gather;
	int64_t len = g->shape[g->axis], inner = 1;
	for (uint32_t d = (uint32_t)g->axis + 1; d < g->ndim; d++)
		inner *= g->shape[d];
	for (int64_t f = begin; f < end; f++)
		for (int64_t k = 0; k < len; k++) {
			int64_t e = (f / inner * len + k) * inner + f % inner;
			scatter_apply(kc, element_offset(g, &kc->in[1], e), e, job->esize);
		}
}

bool kernel_cpu_SCATTER_ELEMENTS(const KernelCall *kc, char **err)
{
	IndexJob job = {kc, dtype_size(kc->out[0].dtype)};
	int64_t len = kc->p.gather.shape[kc->p.gather.axis];
	(void)err;
	scatter_copy(kc);
	if (kc->in[1].count == 0)
		return true;
	kernel_parallel_for(kc->in[1].count / len, GRAIN_ROWS, scatter_elements_range, &job);
	return true;
}

/* A range [begin, end) of the slice, for every tuple in order. */
static void scatter_nd_range(void *ctx, int64_t begin, int64_t end)
{
	const IndexJob *job = ctx;
	const KernelCall *kc = job->kc;
	const KernelGather *g = &kc->p.gather;
	for (int64_t q = 0; q < g->tuples; q++) {
		int64_t base = tuple_offset(g, &kc->in[1], q) * g->inner;
		for (int64_t x = begin; x < end; x++)
			scatter_apply(kc, base + x, q * g->inner + x, job->esize);
	}
}

bool kernel_cpu_SCATTER_ND(const KernelCall *kc, char **err)
{
	IndexJob job = {kc, dtype_size(kc->out[0].dtype)};
	(void)err;
	scatter_copy(kc);
	if (kc->p.gather.tuples == 0 || kc->out[0].count == 0)
		return true;
	kernel_parallel_for(kc->p.gather.inner, GRAIN_ROWS, scatter_nd_range, &job);
	return true;
}

/* The output offset, in slices of s->inner elements, of tuple j; -1 when a
 * coordinate is out of its extent. */
static int64_t sparse_offset(const KernelSparse *s, const KernelTensor *indices, int64_t j)
{
	int64_t pos = 0;
	for (int64_t l = 0; l < s->width; l++) {
		int64_t c = dtype_load_int(indices->data, indices->dtype, j * s->width + l);
		if (c < 0 || c >= s->extent[l])
			return -1;
		pos = pos * s->extent[l] + c;
	}
	return pos;
}

/* The default everywhere, then each tuple's value over its slice, in
 * index order (so the last of duplicate indices wins, as TVM's nested
 * if_then_else does). */
bool kernel_cpu_SPARSE_TO_DENSE(const KernelCall *kc, char **err)
{
	const KernelSparse *s = &kc->p.sparse;
	const KernelTensor *out = &kc->out[0];
	size_t esize = dtype_size(out->dtype);
	char *o = out->data;
	(void)err;
	for (int64_t e = 0; e < out->count; e++)
		memcpy(o + (size_t)e * esize, kc->in[2].data, esize);
	for (int64_t j = 0; j < s->tuples && out->count; j++) {
		int64_t pos = sparse_offset(s, &kc->in[0], j);
		const char *v = (const char *)kc->in[1].data + (size_t)(j * s->values_step) * esize;
		for (int64_t x = 0; pos >= 0 && x < s->inner; x++)
			memcpy(o + (size_t)(pos * s->inner + x) * esize, v, esize);
	}
	return true;
}
