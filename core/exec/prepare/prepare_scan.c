/*
 * prepare_scan.c - decoding the attributes of the scan family: cumsum and cumprod's line and exclusive flag, and
 * the sorts' line, k and which outputs they write.
 *
 * One kernel_prepare_ID per operator of the family in ops.def (a missing
 * one does not link: kernels.c's table is generated from ops.def);
 * prepare.h says what they share.
 */
#include "prepare.h"

static bool decode_sort(KernelCall *kc, const Expr *call, char **err)
{
	OpKind op = kc->op;
	const KernelTensor *in = kc->in;
	const KernelTensor *out = kc->out;
	uint32_t nout = kc->nout;
	KernelSort *so = &kc->p.sort;
	const AttrValue *ret = attr_get(call, "ret_type");
	const char *r = op == OP_TOPK && ret && ret->kind == ATTR_STRING ? ret->u.s : "both";
	int64_t axis;
	if (!normalize_axis(attr_int(call, "axis", -1), in[0].ndim, &axis))
		return prepare_bad(kc, err);
	split_axis(&in[0], axis, &so->line);
	so->ascend = attr_bool(call, "is_ascend", op != OP_TOPK);
	so->k = out[0].ndim == in[0].ndim ? out[0].shape[axis] : so->line.len;
	so->values_out = op == OP_ARGSORT || strcmp(r, "indices") == 0 ? -1 : 0;
	so->indices_out = op == OP_SORT || strcmp(r, "values") == 0 ? -1
			  : so->values_out == 0                     ? 1
								    : 0;
	if (so->k > so->line.len || (uint32_t)(so->indices_out + 1) > nout ||
	    (uint32_t)(so->values_out + 1) > nout) {
		*err = xasprintf("'%s' asks for more elements than the axis holds", kc->name);
		return false;
	}
	return true;
}

KERNEL_PREPARE_VIA(SORT, decode_sort)
KERNEL_PREPARE_VIA(ARGSORT, decode_sort)
KERNEL_PREPARE_VIA(TOPK, decode_sort)

static bool decode_cumsum(KernelCall *kc, const Expr *call, char **err)
{
	const KernelTensor *in = kc->in;
	const AttrValue *axis = attr_get(call, "axis");
	int64_t a;
	kc->p.scan.exclusive = attr_bool(call, "exclusive", false);
	if (!axis) {
		kc->p.scan.line.outer = kc->p.scan.line.inner = 1;
		kc->p.scan.line.len = in[0].count;
		return true;
	}
	if (!normalize_axis(attr_int(call, "axis", 0), in[0].ndim, &a))
		return prepare_bad(kc, err);
	split_axis(&in[0], a, &kc->p.scan.line);
	return true;
}

KERNEL_PREPARE_VIA(CUMSUM, decode_cumsum)
KERNEL_PREPARE_VIA(CUMPROD, decode_cumsum)
