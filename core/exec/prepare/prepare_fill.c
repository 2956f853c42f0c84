/*
 * prepare_fill.c - decoding the attributes of the fill family: the value zeros and ones (and their _like twins)
 * write.
 *
 * One kernel_prepare_ID per operator of the family in ops.def (a missing
 * one does not link: kernels.c's table is generated from ops.def);
 * prepare.h says what they share.
 */
#include "prepare.h"

static bool decode_zeros(KernelCall *kc, const Expr *call, char **err)
{
	kc->p.fill = 0;
	return true;
}

KERNEL_PREPARE_VIA(ZEROS, decode_zeros)
KERNEL_PREPARE_VIA(ZEROS_LIKE, decode_zeros)

static bool decode_ones(KernelCall *kc, const Expr *call, char **err)
{
	kc->p.fill = 1;
	return true;
}

KERNEL_PREPARE_VIA(ONES, decode_ones)
KERNEL_PREPARE_VIA(ONES_LIKE, decode_ones)
