/*
 * prepare_elementwise.c - decoding the attributes of the elementwise operators: nn.bias_add's axis, clip's bounds and
 * fixed_point_multiply's multiplier and shift; the rest need only their
 * operands.
 *
 * One kernel_prepare_ID per operator of the family in ops.def (a missing
 * one does not link: kernels.c's table is generated from ops.def);
 * prepare.h says what they share.
 */
#include "prepare.h"

KERNEL_PREPARE_VIA(CAST, prepare_operands_only)
KERNEL_PREPARE_VIA(ISNAN, prepare_operands_only)
KERNEL_PREPARE_VIA(ISINF, prepare_operands_only)
KERNEL_PREPARE_VIA(ISFINITE, prepare_operands_only)

KERNEL_PREPARE_VIA(CAST_LIKE, prepare_operands_only)
KERNEL_PREPARE_VIA(NEGATIVE, prepare_operands_only)
KERNEL_PREPARE_VIA(EXP, prepare_operands_only)
KERNEL_PREPARE_VIA(LOG, prepare_operands_only)
KERNEL_PREPARE_VIA(SQRT, prepare_operands_only)
KERNEL_PREPARE_VIA(TANH, prepare_operands_only)
KERNEL_PREPARE_VIA(SIGMOID, prepare_operands_only)
KERNEL_PREPARE_VIA(RELU, prepare_operands_only)
KERNEL_PREPARE_VIA(ERF, prepare_operands_only)
KERNEL_PREPARE_VIA(FAST_ERF, prepare_operands_only)
KERNEL_PREPARE_VIA(FAST_EXP, prepare_operands_only)
KERNEL_PREPARE_VIA(FAST_TANH, prepare_operands_only)
KERNEL_PREPARE_VIA(RSQRT, prepare_operands_only)
KERNEL_PREPARE_VIA(LOG2, prepare_operands_only)
KERNEL_PREPARE_VIA(LOG10, prepare_operands_only)
KERNEL_PREPARE_VIA(SIN, prepare_operands_only)
KERNEL_PREPARE_VIA(COS, prepare_operands_only)
KERNEL_PREPARE_VIA(TAN, prepare_operands_only)
KERNEL_PREPARE_VIA(ASIN, prepare_operands_only)
KERNEL_PREPARE_VIA(ACOS, prepare_operands_only)
KERNEL_PREPARE_VIA(ATAN, prepare_operands_only)
KERNEL_PREPARE_VIA(SINH, prepare_operands_only)
KERNEL_PREPARE_VIA(COSH, prepare_operands_only)
KERNEL_PREPARE_VIA(ASINH, prepare_operands_only)
KERNEL_PREPARE_VIA(ACOSH, prepare_operands_only)
KERNEL_PREPARE_VIA(ATANH, prepare_operands_only)
KERNEL_PREPARE_VIA(ABS, prepare_operands_only)
KERNEL_PREPARE_VIA(CEIL, prepare_operands_only)
KERNEL_PREPARE_VIA(FLOOR, prepare_operands_only)
KERNEL_PREPARE_VIA(ROUND, prepare_operands_only)
KERNEL_PREPARE_VIA(TRUNC, prepare_operands_only)
KERNEL_PREPARE_VIA(SIGN, prepare_operands_only)
KERNEL_PREPARE_VIA(LOGICAL_NOT, prepare_operands_only)
KERNEL_PREPARE_VIA(BITWISE_NOT, prepare_operands_only)
KERNEL_PREPARE_VIA(ADD, prepare_operands_only)
KERNEL_PREPARE_VIA(SUBTRACT, prepare_operands_only)
KERNEL_PREPARE_VIA(MULTIPLY, prepare_operands_only)
KERNEL_PREPARE_VIA(DIVIDE, prepare_operands_only)
KERNEL_PREPARE_VIA(MAXIMUM, prepare_operands_only)
KERNEL_PREPARE_VIA(MINIMUM, prepare_operands_only)
KERNEL_PREPARE_VIA(POWER, prepare_operands_only)
KERNEL_PREPARE_VIA(MOD, prepare_operands_only)
KERNEL_PREPARE_VIA(TRUNC_MOD, prepare_operands_only)
KERNEL_PREPARE_VIA(TRUNC_DIVIDE, prepare_operands_only)
KERNEL_PREPARE_VIA(FLOOR_DIVIDE, prepare_operands_only)
KERNEL_PREPARE_VIA(FLOOR_MOD, prepare_operands_only)
KERNEL_PREPARE_VIA(LOGICAL_AND, prepare_operands_only)
KERNEL_PREPARE_VIA(LOGICAL_OR, prepare_operands_only)
KERNEL_PREPARE_VIA(LOGICAL_XOR, prepare_operands_only)
KERNEL_PREPARE_VIA(BITWISE_AND, prepare_operands_only)
KERNEL_PREPARE_VIA(BITWISE_OR, prepare_operands_only)
KERNEL_PREPARE_VIA(BITWISE_XOR, prepare_operands_only)
KERNEL_PREPARE_VIA(LEFT_SHIFT, prepare_operands_only)
KERNEL_PREPARE_VIA(RIGHT_SHIFT, prepare_operands_only)
KERNEL_PREPARE_VIA(EQUAL, prepare_operands_only)
KERNEL_PREPARE_VIA(NOT_EQUAL, prepare_operands_only)
KERNEL_PREPARE_VIA(LESS, prepare_operands_only)
KERNEL_PREPARE_VIA(LESS_EQUAL, prepare_operands_only)
KERNEL_PREPARE_VIA(GREATER, prepare_operands_only)
KERNEL_PREPARE_VIA(GREATER_EQUAL, prepare_operands_only)

static bool decode_fixed_point_multiply(KernelCall *kc, const Expr *call, char **err)
{
	kc->p.fpm.multiplier = (int32_t)attr_int(call, "multiplier", 0);
	kc->p.fpm.shift = (int32_t)attr_int(call, "shift", 0);
	return true;
}

KERNEL_PREPARE_VIA(FIXED_POINT_MULTIPLY, decode_fixed_point_multiply)

KERNEL_PREPARE_VIA(BIAS_ADD, decode_bias_add)

static bool decode_clip(KernelCall *kc, const Expr *call, char **err)
{
	kc->p.clip.lo = attr_number(call, "a_min", -INFINITY);
	kc->p.clip.hi = attr_number(call, "a_max", INFINITY);
	return true;
}

KERNEL_PREPARE_VIA(CLIP, decode_clip)
