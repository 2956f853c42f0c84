/*
 * cpu_reduce.c - the CPU kernels of the reductions sum, mean and max: one
 * output element per step of a thread's range, walking the reduced axes
 * with their input strides; floats accumulate in double, integers in
 * wrapping 64-bit arithmetic.
 */
#include "kernels_cpu.h"

#include <math.h>
#include <stdlib.h>

typedef struct ReduceJob {
	const KernelCall *kc;
	uint32_t nkept, nred;
	int64_t *kept_shape, *kept_stride; /* input strides of the kept axes */
	int64_t *red_shape, *red_stride;
	int64_t red_count;
} ReduceJob;

static void reduce_range(void *vjob, int64_t begin, int64_t end)
{
	ReduceJob *job = vjob;
	const KernelCall *kc = job->kc;
	const KernelTensor *in = &kc->in[0], *out = &kc->out[0];
	bool is_float = dtype_is_float(in->dtype);
	uint32_t nr = job->nred;
	int64_t small[8], *idx = nr <= 8 ? small : xmalloc((nr ? nr : 1) * sizeof(int64_t));
	for (int64_t o = begin; o < end; o++) {
		int64_t base = 0, rest = o, off;
		double dacc = kc->op == OP_MAX ? -INFINITY : 0;
		int64_t iacc = kc->op == OP_MAX ? INT64_MIN : 0;
		for (uint32_t i = job->nkept; i-- > 0;) {
			base += rest % job->kept_shape[i] * job->kept_stride[i];
			rest /= job->kept_shape[i];
		}
		for (uint32_t i = 0; i < nr; i++)
			idx[i] = 0;
		off = base;
		for (int64_t r = 0; r < job->red_count; r++) {
			if (is_float) {
				double v = load_double(in->data, in->dtype, off);
				if (kc->op != OP_MAX)
					dacc += v;
				else if (v != v || dacc != dacc)
					dacc = NAN;
				else if (v > dacc)
					dacc = v;
			} else {
				int64_t v = load_int(in->data, in->dtype, off);
				if (kc->op == OP_MAX)
					iacc = v > iacc ? v : iacc;
				else
					iacc = iadd(iacc, v);
			}
			for (uint32_t i = nr; i-- > 0;) {
				off += job->red_stride[i];
				if (++idx[i] < job->red_shape[i])
					break;
				off -= idx[i] * job->red_stride[i];
				idx[i] = 0;
			}
		}
		if (kc->op == OP_MEAN) {
			dacc = job->red_count ? dacc / (double)job->red_count : NAN;
			iacc = job->red_count ? iacc / job->red_count : 0;
		}
		if (is_float)
			store_double(out->data, out->dtype, o, dacc);
		else
			store_int(out->data, out->dtype, o, iacc);
	}
	if (idx != small)
		free(idx);
}

static bool reduce_kernel(const KernelCall *kc, char **err)
{
	const KernelTensor *in = &kc->in[0], *out = &kc->out[0];
	uint32_t nd = in->ndim;
	int64_t s = 1, *strides = xmalloc((nd ? nd : 1) * sizeof(int64_t));
	ReduceJob job = {.kc = kc, .red_count = 1};
	(void)err;
	job.kept_shape = xmalloc((nd ? nd : 1) * sizeof(int64_t));
	job.kept_stride = xmalloc((nd ? nd : 1) * sizeof(int64_t));
	job.red_shape = xmalloc((nd ? nd : 1) * sizeof(int64_t));
	job.red_stride = xmalloc((nd ? nd : 1) * sizeof(int64_t));
	for (uint32_t i = nd; i-- > 0;) {
		strides[i] = s;
		s *= in->shape[i];
	}
	for (uint32_t i = 0; i < nd; i++) {
		if (kc->axes[i]) {
			job.red_shape[job.nred] = in->shape[i];
			job.red_stride[job.nred++] = strides[i];
			job.red_count *= in->shape[i];
		} else {
			job.kept_shape[job.nkept] = in->shape[i];
			job.kept_stride[job.nkept++] = strides[i];
		}
	}
	kernel_parallel_for(out->count, job.red_count ? GRAIN_ELEMENTWISE / job.red_count + 1 : 1,
			    reduce_range, &job);
	free(strides);
	free(job.kept_shape);
	free(job.kept_stride);
	free(job.red_shape);
	free(job.red_stride);
	return true;
}

KERNEL_CPU_VIA(SUM, reduce_kernel)
KERNEL_CPU_VIA(MEAN, reduce_kernel)
KERNEL_CPU_VIA(MAX, reduce_kernel)
