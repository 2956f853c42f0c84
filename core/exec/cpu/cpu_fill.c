/*
 * cpu_fill.c - the CPU kernels of zeros, ones, zeros_like and ones_like:
 * zeros is a memset, any other value a store of it in the output's dtype.
 */
#include "kernels_cpu.h"

#include <string.h>

static bool fill_kernel(const KernelCall *kc, char **err)
{
	const KernelTensor *out = &kc->out[0];
	(void)err;
	if (kc->p.fill == 0) {
		memset(out->data, 0, out->nbytes);
		return true;
	}
	for (int64_t i = 0; i < out->count; i++)
		dtype_store_double(out->data, out->dtype, i, kc->p.fill);
	return true;
}

KERNEL_CPU_VIA(ZEROS, fill_kernel)
KERNEL_CPU_VIA(ONES, fill_kernel)
KERNEL_CPU_VIA(ZEROS_LIKE, fill_kernel)
KERNEL_CPU_VIA(ONES_LIKE, fill_kernel)
