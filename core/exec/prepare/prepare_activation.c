/*
 * prepare_activation.c - decoding the attributes of the activations: nn.leaky_relu's alpha and nn.prelu's axis.
 *
 * One kernel_prepare_ID per operator of the family in ops.def (a missing
 * one does not link: kernels.c's table is generated from ops.def);
 * prepare.h says what they share.
 */
#include "prepare.h"

static bool decode_leaky_relu(KernelCall *kc, const Expr *call, char **err)
{
	kc->p.alpha = attr_number(call, "alpha", 0.25);
	return true;
}

KERNEL_PREPARE_VIA(LEAKY_RELU, decode_leaky_relu)

static bool decode_prelu(KernelCall *kc, const Expr *call, char **err)
{
	const KernelTensor *in = kc->in;
	int64_t axis;
	if (!normalize_axis(attr_int(call, "axis", 1), in[0].ndim, &axis))
		return prepare_bad(kc, err);
	split_axis(&in[0], axis, &kc->p.axis);
	return true;
}

KERNEL_PREPARE_VIA(PRELU, decode_prelu)

KERNEL_PREPARE_VIA(DROPOUT, prepare_operands_only)
