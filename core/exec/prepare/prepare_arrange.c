/*
 * prepare_arrange.c - decoding the attributes of the arrange family (KernelArrange): the extents, strides and
 * flags each operator's index arithmetic needs.
 *
 * One kernel_prepare_ID per operator of the family in ops.def (a missing
 * one does not link: kernels.c's table is generated from ops.def);
 * prepare.h says what they share.
 */
#include "prepare.h"

/* KernelArrange of an arrange operator; false when its attributes do not
 * fit the operands (with *err when there is more to say). */
static bool prepare_arrange(KernelCall *kc, const Expr *call, char **err)
{
	const KernelTensor *x = &kc->in[0], *y = &kc->out[0];
	KernelArrange *a = &kc->p.arrange;
	int64_t strides[KERNEL_GATHER_MAX_NDIM];
	memset(a, 0, sizeof *a);
	if (kc->op == OP_DILATE) {
		const AttrValue *items;
		uint32_t n = attr_list(call, "strides", &items);
		if (x->ndim > KERNEL_GATHER_MAX_NDIM || y->ndim != x->ndim) {
			*err = xasprintf("'nn.dilate' runs at most %d dimensions",
					 KERNEL_GATHER_MAX_NDIM);
			return false;
		}
		a->ndim = x->ndim;
		element_strides(x, a->in_stride);
		for (uint32_t d = 0; d < x->ndim; d++) {
			a->out_shape[d] = y->shape[d];
			a->stride[d] = n == 0 ? 1 : items[d < n ? d : n - 1].u.i;
			if (a->stride[d] < 1)
				return false;
		}
		a->fill_bits = kernel_scalar_bits(y->dtype, attr_number(call, "dilation_value", 0));
		return true;
	}
	if (kc->op == OP_SEQUENCE_MASK || kc->op == OP_REVERSE_SEQUENCE) {
		bool mask = kc->op == OP_SEQUENCE_MASK;
		int64_t seq, batch;
		if (x->ndim > KERNEL_GATHER_MAX_NDIM || x->ndim < 1)
			return false;
		if (mask) {
			seq = attr_int(call, "axis", 0);
			batch = 1 - seq;
		} else if (!normalize_axis(attr_int(call, "seq_axis", 1), x->ndim, &seq) ||
			   !normalize_axis(attr_int(call, "batch_axis", 0), x->ndim, &batch)) {
			return false;
		}
		if (seq < 0 || seq >= (int64_t)x->ndim || batch < 0 || batch >= (int64_t)x->ndim ||
		    kc->in[1].count != x->shape[batch])
			return false;
		element_strides(x, strides);
		a->len = x->shape[seq];
		a->len_stride = strides[seq];
		a->batch = x->shape[batch];
		a->batch_stride = strides[batch];
		if (mask)
			a->fill_bits =
				kernel_scalar_bits(y->dtype, attr_number(call, "mask_value", 0));
		return true;
	}
	if (kc->op == OP_TRILU || kc->op == OP_MATRIX_SET_DIAG) {
		if (x->ndim < 2)
			return false;
		a->rows = x->shape[x->ndim - 2];
		a->cols = x->shape[x->ndim - 1];
		if (kc->op == OP_TRILU) {
			a->flag = attr_bool(call, "upper", true);
			return true;
		}
		a->k1 = attr_int(call, "k1", 0);
		a->k2 = attr_int(call, "k2", 0);
		a->flag = attr_bool(call, "super_diag_right_align", true);
		a->flag2 = attr_bool(call, "sub_diag_right_align", false);
		a->diag_len = kc->in[1].shape[kc->in[1].ndim - 1];
		return a->k1 <= a->k2;
	}
	if (kc->op == OP_MESHGRID) {
		const char *indexing = attr_string(call, "indexing", "ij");
		a->flag = strcmp(indexing, "xy") == 0 && kc->nin >= 2;
		return kc->nout == kc->nin;
	}
	if (kc->op == OP_SEARCHSORTED) {
		const KernelTensor *seq = &kc->in[0], *v = &kc->in[1];
		if (seq->ndim < 1 || v->ndim < 1)
			return false;
		a->len = seq->shape[seq->ndim - 1];
		a->n = v->shape[v->ndim - 1];
		a->outer = seq->ndim == 1 ? 0 : seq->count / (a->len ? a->len : 1);
		a->flag = attr_bool(call, "right", false);
		return true;
	}
	if (kc->op == OP_SPACE_TO_BATCH_ND || kc->op == OP_BATCH_TO_SPACE_ND) {
		static const AttrValue one = {.kind = ATTR_INT, .u.i = 1};
		bool to_batch = kc->op == OP_SPACE_TO_BATCH_ND;
		const AttrValue *block, *pads;
		uint32_t m = attr_list(call, "block_shape", &block),
			 np = attr_list(call, to_batch ? "paddings" : "crops", &pads);
		if (m == 0) {
			/* TVM's default block_shape [1, 1] */
			block = NULL;
			m = 2;
		}
		if (m > KERNEL_GATHER_MAX_NDIM || x->ndim < m + 1 || y->ndim != x->ndim)
			return false;
		a->ndim = m;
		a->batch = to_batch ? x->shape[0] : y->shape[0];
		a->n = 1;
		for (uint32_t d = m + 1; d < x->ndim; d++)
			a->n *= x->shape[d];
		for (uint32_t k = 0; k < m; k++) {
			const AttrValue *b = block ? &block[k] : &one;
			a->block[k] = b->u.i;
			a->in_space[k] = x->shape[1 + k];
			a->out_shape[k] = y->shape[1 + k];
			a->before[k] = k < np && pads[k].kind == ATTR_LIST && pads[k].u.list.n == 2
					       ? pads[k].u.list.items[0].u.i
					       : 0;
			if (a->block[k] < 1)
				return false;
		}
		if (to_batch)
			a->fill_bits =
				kernel_scalar_bits(y->dtype, attr_number(call, "pad_value", 0));
		return true;
	}
	/* invert_permutation and unravel_index read their operands only */
	return kc->op == OP_INVERT_PERMUTATION || kc->op == OP_UNRAVEL_INDEX;
}

static bool decode_dilate(KernelCall *kc, const Expr *call, char **err)
{
	if (!prepare_arrange(kc, call, err)) {
		if (*err)
			return false;
		return prepare_bad(kc, err);
	}
	return true;
}

KERNEL_PREPARE_VIA(DILATE, decode_dilate)
KERNEL_PREPARE_VIA(SEQUENCE_MASK, decode_dilate)
KERNEL_PREPARE_VIA(REVERSE_SEQUENCE, decode_dilate)
KERNEL_PREPARE_VIA(TRILU, decode_dilate)
KERNEL_PREPARE_VIA(MATRIX_SET_DIAG, decode_dilate)
KERNEL_PREPARE_VIA(MESHGRID, decode_dilate)
KERNEL_PREPARE_VIA(SEARCHSORTED, decode_dilate)
KERNEL_PREPARE_VIA(INVERT_PERMUTATION, decode_dilate)
KERNEL_PREPARE_VIA(UNRAVEL_INDEX, decode_dilate)
KERNEL_PREPARE_VIA(SPACE_TO_BATCH_ND, decode_dilate)
KERNEL_PREPARE_VIA(BATCH_TO_SPACE_ND, decode_dilate)
