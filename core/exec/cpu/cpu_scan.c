/*
 * cpu_scan.c - the CPU kernels of cumsum and cumprod: each line along the
 * axis (or the flat data without one) is scanned in order, in the
 * output's dtype (float32 rounded at each step as TVM's float32 sum is,
 * other floats in double, integers wrapping in 64 bits, as the dtype
 * attribute's cast makes them); exclusive scans start from 0 (sum)
 * or 1 (product) and leave out the element itself.
 */
#include "kernels_cpu.h"

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
				double v = load_double(x->data, x->dtype, at);
				if (ex)
					store_double(out->data, out->dtype, at, dacc);
				dacc = job->product ? dacc * v : dacc + v;
				if (out->dtype == DT_FLOAT32) /* as TVM (and CUDA) accumulate */
					dacc = (float)dacc;
				if (!ex)
					store_double(out->data, out->dtype, at, dacc);
			} else {
				int64_t v = load_int(x->data, x->dtype, at);
				if (ex)
					store_int(out->data, out->dtype, at, iacc);
				iacc = job->product ? imul(iacc, v) : iadd(iacc, v);
				if (!ex)
					store_int(out->data, out->dtype, at, iacc);
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
