/*
 * kernels.c - what every backend's kernels share: tensor views, the
 * broadcasting plan, scalars as a dtype's bytes, and kernel_call_prepare,
 * which decodes a call's attributes into a KernelCall.
 *
 * Decoding is per operator: kernel_prepare_ID, in prepare/prepare_FAMILY.c
 * of the family ops.def gives the operator (prepare/prepare.h says what
 * the decoders share). The table below is generated from ops.def, so an
 * operator without its decoder does not link.
 */
#include "kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dtype_access.h"
#include "ir.h"
#include "npy.h"
#include "prepare/prepare.h"

KernelTensor kernel_tensor(void *data, DType dtype, uint32_t ndim, const int64_t *shape)
{
	KernelTensor t;
	t.data = data;
	t.dtype = dtype;
	t.ndim = ndim;
	t.shape = shape;
	t.count = 1;
	for (uint32_t i = 0; i < ndim; i++)
		t.count *= shape[i];
	t.nbytes = (size_t)t.count * dtype_size(dtype);
	return t;
}

uint32_t kernel_broadcast_plan(const int64_t *out_shape, uint32_t out_ndim,
			       const int64_t *const shapes[2], const uint32_t ndims[2],
			       int64_t *shape, int64_t *const strides[2])
{
	uint32_t n = out_ndim, k = 0;
	for (int j = 0; j < 2; j++) {
		int64_t s = 1;
		/* strides of operand j for every output axis, innermost first */
		for (uint32_t i = n; i-- > 0;) {
			int64_t pos = (int64_t)i - (int64_t)(n - ndims[j]);
			if (pos < 0 || shapes[j][pos] == 1) {
				strides[j][i] = 0;
			} else {
				strides[j][i] = s;
				s *= shapes[j][pos];
			}
		}
	}
	/* drop size-1 output dimensions, merge contiguous neighbours */
	for (uint32_t i = 0; i < n; i++) {
		if (out_shape[i] == 1)
			continue;
		if (k > 0 && strides[0][k - 1] == strides[0][i] * out_shape[i] &&
		    strides[1][k - 1] == strides[1][i] * out_shape[i]) {
			shape[k - 1] *= out_shape[i];
			strides[0][k - 1] = strides[0][i];
			strides[1][k - 1] = strides[1][i];
			continue;
		}
		shape[k] = out_shape[i];
		strides[0][k] = strides[0][i];
		strides[1][k] = strides[1][i];
		k++;
	}
	if (k == 0) {
		shape[0] = 1;
		strides[0][0] = strides[1][0] = 0;
		k = 1;
	}
	return k;
}

/* ---- scalars and dtypes ----------------------------------------------------- */

uint64_t kernel_scalar_bits(DType dt, double v)
{
	uint64_t bits = 0; /* little-endian: the element is its low bytes */
	dtype_store_double(&bits, dt, 0, v);
	return bits;
}

bool kernel_dtype_checked_at_launch(DType dtype)
{
	switch (dtype) {
	case DT_FLOAT32:
	case DT_FLOAT64:
	case DT_FLOAT16:
	case DT_INT32:
	case DT_INT64:
	case DT_BOOL:
		return true;
	case DT_INT8:
	case DT_UINT8:
	case DT_INT16:
	case DT_UINT16:
	case DT_UINT32:
	case DT_UINT64:
	case DT_BFLOAT16:
	case DT_COUNT:
		break;
	}
	return false;
}

typedef bool (*KernelPrepareFn)(KernelCall *kc, const Expr *call, char **err);

/* One decoder per operator with kernels, in ops.def order; NULL for the
 * operators planned without kernels. */
static const KernelPrepareFn prepare_table[OP_COUNT] = {
#define OP(id, family, name, min_args, max_args, schema) [OP_##id] = kernel_prepare_##id,
#define OP_PLAN(id, family, name, min_args, max_args, schema) /* no kernel */
#include "ops.def"
#undef OP_PLAN
#undef OP
};

bool kernel_call_prepare(KernelCall *kc, const Expr *call, const KernelTensor *in, uint32_t nin,
			 const KernelTensor *out, uint32_t nout, char **err)
{
	OpKind op = call->u.call.op;
	memset(kc, 0, sizeof *kc);
	kc->op = op;
	kc->in = in;
	kc->nin = nin;
	kc->out = out;
	kc->nout = nout;
	/* OP_UNKNOWN is refused before the run starts (exec_run.c) */
	if ((unsigned)op >= OP_COUNT) {
		*err = xasprintf("'%s' has attributes the kernels cannot decode", "?");
		return false;
	}
	kc->name = op_info(op)->name;
	/* operators planned but without kernels: exec_run refuses them
	 * before anything runs, so this is only a second line */
	if (!prepare_table[op]) {
		*err = xasprintf("devplan has no kernel for '%s' yet", kc->name);
		return false;
	}
	return prepare_table[op](kc, call, err);
}

void kernel_call_release(KernelCall *kc)
{
	free(kc->axes);
	kc->axes = NULL;
}
