/*
 * cpu_scan.c - the CPU kernels of cumsum and cumprod: each line along the
 * axis (or the flat data without one) is scanned in order, in the
 * output's dtype (float32 rounded at each step as TVM's float32 sum is,
 * other floats in double, integers wrapping in 64 bits, as the dtype
 * attribute's cast makes them); exclusive scans start from 0 (sum)
 * or 1 (product) and leave out the element itself. sort, argsort and
 * topk order each line with a stable merge sort of its indices (KernelSort).
 */
#include "kernels_cpu.h"

#include <stdlib.h>
#include <string.h>

typedef struct ScanJob {
	const KernelCall *kc;
	bool product;
} ScanJob;

static void scan_range(void *ctx, int64_t begin, int64_t end)
{
	const ScanJob *job = ctx;
	const KernelCall *kc = job->kc;
	const KernelAxis *a = &kc->p.scan.line;
	const KernelTensor *x = &kc->in[0], *out = &kc->out[0];
	bool ex = kc->p.scan.exclusive, fl = dtype_is_float(out->dtype);
	for (int64_t f = begin; f < end; f++) {
		int64_t o = f / a->inner, i = f % a->inner;
		double dacc = job->product ? 1 : 0;
		int64_t iacc = job->product ? 1 : 0;
		for (int64_t j = 0; j < a->len; j++) {
			int64_t at = (o * a->len + j) * a->inner + i;
			if (fl) {
				double v = dtype_load_double(x->data, x->dtype, at);
				if (ex)
					dtype_store_double(out->data, out->dtype, at, dacc);
				dacc = job->product ? dacc * v : dacc + v;
				if (out->dtype == DT_FLOAT32) /* as TVM (and CUDA) accumulate */
					dacc = (float)dacc;
				if (!ex)
					dtype_store_double(out->data, out->dtype, at, dacc);
			} else {
				int64_t v = dtype_load_int(x->data, x->dtype, at);
				if (ex)
					dtype_store_int(out->data, out->dtype, at, iacc);
				iacc = job->product ? imul(iacc, v) : iadd(iacc, v);
				if (!ex)
					dtype_store_int(out->data, out->dtype, at, iacc);
			}
		}
	}
}

static bool scan_kernel(const KernelCall *kc, bool product)
{
	ScanJob job = {kc, product};
	const KernelAxis *a = &kc->p.scan.line;
	if (a->len == 0)
		return true;
	kernel_parallel_for(a->outer * a->inner, GRAIN_ROWS / a->len + 1, scan_range, &job);
	return true;
}

bool kernel_cpu_CUMSUM(const KernelCall *kc, char **err)
{
	(void)err;
	return scan_kernel(kc, false);
}

bool kernel_cpu_CUMPROD(const KernelCall *kc, char **err)
{
	(void)err;
	return scan_kernel(kc, true);
}

/* ---- sort, argsort, topk ---------------------------------------------------------- */

/* Whether key a goes before key b: NaN after every number ascending. */
static bool sort_before(double a, double b, bool ascend)
{
	if (a != a || b != b)
		return ascend ? b != b && a == a : a != a && b == b;
	return ascend ? a < b : a > b;
}

/* Stable merge sort of idx[0, n) by keys[idx], tmp n long. */
static void merge_sort(int64_t *idx, int64_t *tmp, int64_t n, const double *keys, bool ascend)
{
	int64_t mid = n / 2, i = 0, j = mid, o = 0;
	if (n < 2)
		return;
	merge_sort(idx, tmp, mid, keys, ascend);
	merge_sort(idx + mid, tmp, n - mid, keys, ascend);
	while (i < mid && j < n)
		tmp[o++] = sort_before(keys[idx[j]], keys[idx[i]], ascend) ? idx[j++] : idx[i++];
	while (i < mid)
		tmp[o++] = idx[i++];
	while (j < n)
		tmp[o++] = idx[j++];
	memcpy(idx, tmp, (size_t)n * sizeof *idx);
}

static bool sort_kernel(const KernelCall *kc, char **err)
{
	const KernelSort *so = &kc->p.sort;
	const KernelAxis *a = &so->line;
	const KernelTensor *x = &kc->in[0];
	size_t esize = dtype_size(x->dtype);
	int64_t *idx, *tmp;
	double *keys;
	(void)err;
	if (a->len == 0 || so->k == 0)
		return true;
	idx = xmalloc((size_t)a->len * 2 * sizeof *idx);
	tmp = idx + a->len;
	keys = xmalloc((size_t)a->len * sizeof *keys);
	for (int64_t o = 0; o < a->outer; o++)
		for (int64_t i = 0; i < a->inner; i++) {
			for (int64_t j = 0; j < a->len; j++) {
				idx[j] = j;
				keys[j] = dtype_load_double(x->data, x->dtype,
							    (o * a->len + j) * a->inner + i);
			}
			merge_sort(idx, tmp, a->len, keys, so->ascend);
			for (int64_t j = 0; j < so->k; j++) {
				int64_t at = (o * so->k + j) * a->inner + i;
				if (so->values_out >= 0)
					memcpy((char *)kc->out[so->values_out].data + at * esize,
					       (const char *)x->data +
						       ((o * a->len + idx[j]) * a->inner + i) *
							       esize,
					       esize);
				if (so->indices_out >= 0)
					dtype_store_int(kc->out[so->indices_out].data,
							kc->out[so->indices_out].dtype, at, idx[j]);
			}
		}
	free(idx);
	free(keys);
	return true;
}

KERNEL_CPU_VIA(SORT, sort_kernel)
KERNEL_CPU_VIA(ARGSORT, sort_kernel)
KERNEL_CPU_VIA(TOPK, sort_kernel)
