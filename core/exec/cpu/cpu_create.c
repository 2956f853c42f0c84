/*
 * cpu_create.c - the CPU kernels of the operators that build a tensor
 * from scalar operands: full and full_like store their fill value,
 * one_hot its on or off value, arange start + i * step.
 *
 * The scalars are converted to the output's dtype once, as casts do:
 * floats through double, integers and bool as wrapping 64-bit integers,
 * so int64 values stay exact. Every dtype runs.
 */
#include "kernels_cpu.h"

#include <string.h>

/* Element i of t converted to dt, written to *out (8 bytes). */
static void convert_element(const KernelTensor *t, int64_t i, DType dt, void *out)
{
	if (dtype_is_float(dt))
		dtype_store_double(out, dt, 0, dtype_load_double(t->data, t->dtype, i));
	else
		dtype_store_int(out, dt, 0, dtype_load_int(t->data, t->dtype, i));
}

static bool full_kernel(const KernelCall *kc, const KernelTensor *fill)
{
	const KernelTensor *out = &kc->out[0];
	size_t esize = dtype_size(out->dtype);
	unsigned char value[8];
	convert_element(fill, 0, out->dtype, value);
	for (int64_t i = 0; i < out->count; i++)
		memcpy((char *)out->data + i * esize, value, esize);
	return true;
}

bool kernel_cpu_FULL(const KernelCall *kc, char **err)
{
	(void)err;
	return full_kernel(kc, &kc->in[0]);
}

bool kernel_cpu_FULL_LIKE(const KernelCall *kc, char **err)
{
	(void)err;
	return full_kernel(kc, &kc->in[1]);
}

/* out[o, j, i] = indices[o, i] == j ? on : off, j along the new axis
 * (KernelAxis of the output); negative indices match nothing, as in TVM. */
bool kernel_cpu_ONE_HOT(const KernelCall *kc, char **err)
{
	const KernelAxis *a = &kc->p.axis;
	const KernelTensor *indices = &kc->in[0], *out = &kc->out[0];
	size_t esize = dtype_size(out->dtype);
	unsigned char on[8], off[8];
	char *dst = out->data;
	(void)err;
	convert_element(&kc->in[1], 0, out->dtype, on);
	convert_element(&kc->in[2], 0, out->dtype, off);
	for (int64_t o = 0; o < a->outer; o++)
		for (int64_t j = 0; j < a->len; j++)
			for (int64_t i = 0; i < a->inner; i++) {
				int64_t k = dtype_load_int(indices->data, indices->dtype,
							   o * a->inner + i);
				memcpy(dst, k == j ? on : off, esize);
				dst += esize;
			}
	return true;
}

/* out[i] = start + i * step, in double for floats, wrapping for integers. */
bool kernel_cpu_ARANGE(const KernelCall *kc, char **err)
{
	const KernelTensor *out = &kc->out[0], *start = &kc->in[0], *step = &kc->in[2];
	(void)err;
	if (dtype_is_float(out->dtype)) {
		double s = dtype_load_double(start->data, start->dtype, 0);
		double d = dtype_load_double(step->data, step->dtype, 0);
		for (int64_t i = 0; i < out->count; i++)
			dtype_store_double(out->data, out->dtype, i, s + (double)i * d);
	} else {
		int64_t s = dtype_load_int(start->data, start->dtype, 0);
		int64_t d = dtype_load_int(step->data, step->dtype, 0);
		for (int64_t i = 0; i < out->count; i++)
			dtype_store_int(out->data, out->dtype, i, iadd(s, imul(i, d)));
	}
	return true;
}
