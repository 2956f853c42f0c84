/*
 * prepare_reduce.c - decoding the attributes of the reductions: which one, and the axes reduced (TVM's
 * GetReduceAxes), collapse_sum_like and collapse_sum_to's included.
 *
 * One kernel_prepare_ID per operator of the family in ops.def (a missing
 * one does not link: kernels.c's table is generated from ops.def);
 * prepare.h says what they share.
 */
#include "prepare.h"

static KernelReduce reduce_kind(OpKind op)
{
	static const struct {
		OpKind op;
		KernelReduce kind;
	} kinds[] = {{OP_SUM, REDUCE_SUM},       {OP_MEAN, REDUCE_MEAN},
		     {OP_PROD, REDUCE_PROD},     {OP_MAX, REDUCE_MAX},
		     {OP_MIN, REDUCE_MIN},       {OP_ALL, REDUCE_ALL},
		     {OP_ANY, REDUCE_ANY},       {OP_ARGMAX, REDUCE_ARGMAX},
		     {OP_ARGMIN, REDUCE_ARGMIN}, {OP_VARIANCE, REDUCE_VARIANCE}};
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (kinds[i].op == op)
			return kinds[i].kind;
	return REDUCE_SUM;
}

static bool decode_sum(KernelCall *kc, const Expr *call, char **err)
{
	OpKind op = kc->op;
	const KernelTensor *in = kc->in;
	const AttrValue *items;
	uint32_t n = attr_list(call, "axis", &items), ndim = in[0].ndim;
	kc->p.reduce.kind = reduce_kind(op);
	kc->p.reduce.select_last_index = attr_bool(call, "select_last_index", false);
	kc->p.reduce.unbiased = attr_bool(call, "unbiased", false);
	kc->axes = xcalloc(ndim ? ndim : 1, sizeof(int64_t));
	/* TVM's GetReduceAxes: no axis, or an empty list, reduces every
	 * axis (exclude or not) */
	if (n == 0) {
		for (uint32_t i = 0; i < ndim; i++)
			kc->axes[i] = 1;
		return true;
	}
	for (uint32_t i = 0; i < n; i++) {
		int64_t axis;
		if (!normalize_axis(items[i].u.i, ndim, &axis))
			return prepare_bad(kc, err);
		kc->axes[axis] = 1;
	}
	if (attr_bool(call, "exclude", false))
		for (uint32_t i = 0; i < ndim; i++)
			kc->axes[i] = !kc->axes[i];
	return true;
}

KERNEL_PREPARE_VIA(SUM, decode_sum)
KERNEL_PREPARE_VIA(MEAN, decode_sum)
KERNEL_PREPARE_VIA(MAX, decode_sum)
KERNEL_PREPARE_VIA(MIN, decode_sum)
KERNEL_PREPARE_VIA(PROD, decode_sum)
KERNEL_PREPARE_VIA(ALL, decode_sum)
KERNEL_PREPARE_VIA(ANY, decode_sum)
KERNEL_PREPARE_VIA(ARGMAX, decode_sum)
KERNEL_PREPARE_VIA(ARGMIN, decode_sum)
KERNEL_PREPARE_VIA(VARIANCE, decode_sum)

static bool decode_collapse_sum_like(KernelCall *kc, const Expr *call, char **err)
{
	const KernelTensor *in = kc->in;
	const KernelTensor *out = kc->out;
	/* TVM's topi collapse_sum: sum over x's leading axes that the
	 * target lacks and those where the target has 1 and x does not
	 * (the relation has checked that the target broadcasts to x) */
	uint32_t nd = in[0].ndim, tn = out[0].ndim;
	if (tn > nd)
		return prepare_bad(kc, err);
	kc->p.reduce.kind = REDUCE_SUM;
	kc->axes = xcalloc(nd ? nd : 1, sizeof(int64_t));
	for (uint32_t i = 0; i < nd; i++)
		kc->axes[i] =
			i < nd - tn || (out[0].shape[i - (nd - tn)] == 1 && in[0].shape[i] != 1);
	return true;
}

KERNEL_PREPARE_VIA(COLLAPSE_SUM_LIKE, decode_collapse_sum_like)
KERNEL_PREPARE_VIA(COLLAPSE_SUM_TO, decode_collapse_sum_like)
