/*
 * prepare_create.c - decoding the attributes of the create family: one_hot's new axis; full, full_like and
 * arange need only their operands.
 *
 * One kernel_prepare_ID per operator of the family in ops.def (a missing
 * one does not link: kernels.c's table is generated from ops.def);
 * prepare.h says what they share.
 */
#include "prepare.h"

KERNEL_PREPARE_VIA(ONE_HOT, decode_stack)

KERNEL_PREPARE_VIA(FULL, prepare_operands_only)
KERNEL_PREPARE_VIA(FULL_LIKE, prepare_operands_only)
KERNEL_PREPARE_VIA(ARANGE, prepare_operands_only)
