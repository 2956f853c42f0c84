/*
 * prepare_norm.c - decoding the attributes of the normalisations (KernelNorm), nn.l2_normalize's split axes,
 * nn.lrn's window and nn.log_softmax's axis.
 *
 * One kernel_prepare_ID per operator of the family in ops.def (a missing
 * one does not link: kernels.c's table is generated from ops.def);
 * prepare.h says what they share.
 */
#include "prepare.h"

/* KernelNorm of a normalisation; false when its axis or groups do not fit
 * the data. */
static bool prepare_norm(KernelCall *kc, const Expr *call)
{
	const KernelTensor *x = &kc->in[0];
	KernelNorm *kn = &kc->p.norm;
	OpKind op = kc->op;
	bool grouped = op == OP_INSTANCE_NORM || op == OP_GROUP_NORM;
	int64_t axis;
	if (!normalize_axis(attr_int(call, "axis", op == OP_LAYER_NORM ? -1 : 1), x->ndim, &axis))
		return false;
	if (grouped && axis == 0)
		return false;
	kn->outer = kn->mid = kn->inner = 1;
	for (int64_t i = 0; i < axis; i++) {
		if (grouped && i > 0)
			kn->mid *= x->shape[i];
		else
			kn->outer *= x->shape[i];
	}
	kn->c = x->shape[axis];
	for (uint32_t i = (uint32_t)axis + 1; i < x->ndim; i++)
		kn->inner *= x->shape[i];
	kn->groups = op == OP_GROUP_NORM ? attr_int(call, "num_groups", 0) : kn->c;
	if (kn->groups <= 0 || kn->c % kn->groups != 0)
		return false;
	kn->eps = attr_number(call, "epsilon", 1e-5);
	kn->center = attr_bool(call, "center", true);
	kn->scale = attr_bool(call, "scale", true);
	return true;
}

/* nn.l2_normalize's KernelSplit: the axes listed reduced, size-1 axes
 * dropped; without an axis attribute (None) every axis, as topi's
 * undefined axis, and with an empty list none. */
static bool prepare_split(KernelCall *kc, const Expr *call)
{
	const KernelTensor *x = &kc->in[0];
	KernelSplit *sp = &kc->p.split;
	const AttrValue *items;
	uint32_t n = attr_list(call, "axis", &items);
	bool reduced[KERNEL_GATHER_MAX_NDIM];
	int64_t strides[KERNEL_GATHER_MAX_NDIM];
	if (x->ndim > KERNEL_GATHER_MAX_NDIM)
		return false;
	for (uint32_t i = 0; i < x->ndim; i++)
		reduced[i] = !attr_get(call, "axis");
	for (uint32_t i = 0; i < n; i++) {
		int64_t axis;
		if (!normalize_axis(items[i].u.i, x->ndim, &axis))
			return false;
		reduced[axis] = true;
	}
	element_strides(x, strides);
	memset(sp, 0, sizeof *sp);
	sp->red_count = 1;
	for (uint32_t i = 0; i < x->ndim; i++) {
		if (x->shape[i] == 1)
			continue;
		if (reduced[i]) {
			sp->red_shape[sp->nred] = x->shape[i];
			sp->red_stride[sp->nred++] = strides[i];
			sp->red_count *= x->shape[i];
		} else {
			sp->kept_shape[sp->nkept] = x->shape[i];
			sp->kept_stride[sp->nkept++] = strides[i];
		}
	}
	sp->eps = attr_number(call, "eps", 0);
	return true;
}

static bool decode_batch_norm(KernelCall *kc, const Expr *call, char **err)
{
	if (!prepare_norm(kc, call))
		return prepare_bad(kc, err);
	return true;
}

KERNEL_PREPARE_VIA(BATCH_NORM, decode_batch_norm)
KERNEL_PREPARE_VIA(LAYER_NORM, decode_batch_norm)
KERNEL_PREPARE_VIA(INSTANCE_NORM, decode_batch_norm)
KERNEL_PREPARE_VIA(GROUP_NORM, decode_batch_norm)

KERNEL_PREPARE_VIA(LOG_SOFTMAX, decode_bias_add)

static bool decode_l2_normalize(KernelCall *kc, const Expr *call, char **err)
{
	if (!prepare_split(kc, call))
		return prepare_bad(kc, err);
	return true;
}

KERNEL_PREPARE_VIA(L2_NORMALIZE, decode_l2_normalize)

static bool decode_lrn(KernelCall *kc, const Expr *call, char **err)
{
	const KernelTensor *in = kc->in;
	KernelLrn *l = &kc->p.lrn;
	int64_t axis;
	if (!normalize_axis(attr_int(call, "axis", 1), in[0].ndim, &axis))
		return prepare_bad(kc, err);
	split_axis(&in[0], axis, &l->axis);
	l->size = attr_int(call, "size", 5);
	l->alpha = attr_number(call, "alpha", 1e-4);
	l->beta = attr_number(call, "beta", 0.75);
	l->bias = attr_number(call, "bias", 2);
	if (l->size < 1)
		return prepare_bad(kc, err);
	return true;
}

KERNEL_PREPARE_VIA(LRN, decode_lrn)
