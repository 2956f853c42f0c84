/*
 * cpu_activation.c - the CPU kernels of the parametrised activations and
 * of dropout at inference: nn.leaky_relu scales negative inputs by its
 * alpha attribute, nn.prelu by its alpha operand's entry for the element's
 * channel, and nn.dropout passes the data through with a mask of ones (the
 * identity TVM's SimplifyInference makes of it).
 *
 * The activations compute in double through dtype_load_double and dtype_store_double,
 * so they take every float dtype; integers are refused.
 */
#include "kernels_cpu.h"

#include <string.h>

static bool float_only(const KernelCall *kc, char **err)
{
	return dtype_is_float(kc->in[0].dtype) || cpu_unsupported(kc, kc->in[0].dtype, err);
}

bool kernel_cpu_LEAKY_RELU(const KernelCall *kc, char **err)
{
	const KernelTensor *x = &kc->in[0], *out = &kc->out[0];
	if (!float_only(kc, err))
		return false;
	for (int64_t i = 0; i < x->count; i++) {
		double v = dtype_load_double(x->data, x->dtype, i);
		dtype_store_double(out->data, out->dtype, i, v > 0 ? v : v * kc->p.alpha);
	}
	return true;
}

/* out[o, c, i] = x > 0 ? x : alpha[c] * x (KernelAxis of the channel axis). */
bool kernel_cpu_PRELU(const KernelCall *kc, char **err)
{
	const KernelAxis *a = &kc->p.axis;
	const KernelTensor *x = &kc->in[0], *alpha = &kc->in[1], *out = &kc->out[0];
	if (!float_only(kc, err))
		return false;
	for (int64_t i = 0; i < x->count; i++) {
		double v = dtype_load_double(x->data, x->dtype, i);
		double s = dtype_load_double(alpha->data, alpha->dtype, i / a->inner % a->len);
		dtype_store_double(out->data, out->dtype, i, v > 0 ? v : v * s);
	}
	return true;
}

bool kernel_cpu_DROPOUT(const KernelCall *kc, char **err)
{
	const KernelTensor *x = &kc->in[0];
	(void)err;
	if (kc->out[0].data != x->data && x->nbytes)
		memcpy(kc->out[0].data, x->data, x->nbytes);
	for (uint32_t o = 1; o < kc->nout; o++)
		for (int64_t i = 0; i < kc->out[o].count; i++)
			dtype_store_double(kc->out[o].data, kc->out[o].dtype, i, 1);
	return true;
}
