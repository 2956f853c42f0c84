/*
 * prepare.h - what the attribute decoders of core/exec/prepare/ share.
 *
 * kernel_call_prepare (kernels.c) hands a call to the decoder of its
 * operator, kernel_prepare_ID, in prepare_FAMILY.c of the family ops.def
 * gives it; the table is generated from ops.def, so an operator without
 * its decoder does not link. A decoder fills kc->p (and kc->axes) from the
 * call's attributes and kc's operands and returns true; it returns false
 * with *err set for what the kernels cannot honour, or prepare_bad's
 * message for attributes it cannot decode.
 *
 * The type relations (core/plan/infer/) have already validated every
 * attribute and derived the result shapes, so decoding only reads them,
 * with the same defaults as the relations (TVM's): strides and dilation
 * 1, padding 0 given as [p], [ph, pw] or [top, left, bottom, right],
 * softmax and bias_add axes -1 and 1, transpose_a and transpose_b false.
 * What the kernels cannot honour (an out_dtype different from the
 * operands, a layout other than NCHW with OIHW or IOHW weights, which the
 * relations type) is refused with an error rather than computed wrongly.
 * The helpers below are small and static inline.
 */
#ifndef DEVPLAN_PREPARE_H
#define DEVPLAN_PREPARE_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "kernels.h"
#include "npy.h"

#define KERNEL_PREPARE(id) bool kernel_prepare_##id(KernelCall *kc, const Expr *call, char **err)
/* kernel_prepare_ID as a call of fn(kc, call, err). */
#define KERNEL_PREPARE_VIA(id, fn)        \
	KERNEL_PREPARE(id)                \
	{                                 \
		return fn(kc, call, err); \
	}

#define OP(id, family, name, min_args, max_args, schema) KERNEL_PREPARE(id);
#define OP_PLAN(id, family, name, min_args, max_args, schema) /* no kernel */
#include "ops.def"
#undef OP_PLAN
#undef OP

/* False with the message for attributes the kernels cannot decode, what
 * kc owns released. */
static inline bool prepare_bad(KernelCall *kc, char **err)
{
	kernel_call_release(kc);
	*err = xasprintf("'%s' has attributes the kernels cannot decode", kc->name);
	return false;
}

/* The operators whose kernels need nothing but their operands (the
 * *_like twins among them: cast_like is cast, reinterpret, reshape_like
 * and contrib_reverse_reshape copy the bytes). */
static inline bool prepare_operands_only(KernelCall *kc, const Expr *call, char **err)
{
	(void)kc, (void)call, (void)err;
	return true;
}

/* The window operators: spatial rank, whether a convolution (with a weight
 * operand) or its transpose, and the layouts the kernels compute. */
typedef struct WindowOp {
	int rank;
	bool conv, transpose;
	const char *data, *kernel, *kernel_also;
} WindowOp;

static inline const AttrValue *attr_get(const Expr *call, const char *name)
{
	const Attr *a = ir_attr(call, name);
	return a && a->value.kind != ATTR_NONE ? &a->value : NULL;
}

static inline int64_t attr_int(const Expr *call, const char *name, int64_t dflt)
{
	const AttrValue *v = attr_get(call, name);
	if (!v)
		return dflt;
	switch (v->kind) {
	case ATTR_INT:
		return v->u.i;
	case ATTR_BOOL:
		return v->u.b;
	case ATTR_FLOAT:
		return (int64_t)v->u.f;
	case ATTR_LIST:
		return v->u.list.n == 1 && v->u.list.items[0].kind == ATTR_INT
			       ? v->u.list.items[0].u.i
			       : dflt;
	case ATTR_NONE:
	case ATTR_STRING:
	case ATTR_DEVICE:
	case ATTR_CONSTANT:
	case ATTR_META:
		break;
	}
	return dflt;
}

static inline bool attr_bool(const Expr *call, const char *name, bool dflt)
{
	const AttrValue *v = attr_get(call, name);
	if (v && v->kind == ATTR_BOOL)
		return v->u.b;
	if (v && v->kind == ATTR_INT)
		return v->u.i != 0;
	return dflt;
}

static inline double attr_number(const Expr *call, const char *name, double dflt)
{
	const AttrValue *v = attr_get(call, name);
	if (v && v->kind == ATTR_FLOAT)
		return v->u.f;
	if (v && v->kind == ATTR_INT)
		return (double)v->u.i;
	return dflt;
}

/* An int list attribute (a bare int is a list of one): its items and count;
 * 0 items when absent. */
static inline uint32_t attr_list(const Expr *call, const char *name, const AttrValue **items)
{
	const AttrValue *v = attr_get(call, name);
	*items = NULL;
	if (!v)
		return 0;
	if (v->kind == ATTR_INT) {
		*items = v;
		return 1;
	}
	if (v->kind == ATTR_LIST) {
		*items = v->u.list.items;
		return v->u.list.n;
	}
	return 0;
}

static inline bool normalize_axis(int64_t axis, uint32_t ndim, int64_t *out)
{
	if (axis < -(int64_t)ndim || axis >= (int64_t)ndim)
		return false;
	*out = axis < 0 ? axis + ndim : axis;
	return true;
}

/* [outer, len, inner] of t around axis. */
static inline void split_axis(const KernelTensor *t, int64_t axis, KernelAxis *a)
{
	a->axis = axis;
	a->outer = 1;
	a->inner = 1;
	for (int64_t i = 0; i < axis; i++)
		a->outer *= t->shape[i];
	a->len = t->shape[axis];
	for (uint32_t i = (uint32_t)axis + 1; i < t->ndim; i++)
		a->inner *= t->shape[i];
}

static inline bool same_out_dtype(KernelCall *kc, char **err)
{
	if (kc->out[0].dtype == kc->in[0].dtype)
		return true;
	*err = xasprintf("'%s' with out_dtype %s on %s operands is not supported", kc->name,
			 dtype_name(kc->out[0].dtype), dtype_name(kc->in[0].dtype));
	return false;
}

/* A string attribute, or dflt when absent, None or empty. */
static inline const char *attr_string(const Expr *call, const char *name, const char *dflt)
{
	const AttrValue *v = attr_get(call, name);
	return v && v->kind == ATTR_STRING && *v->u.s ? v->u.s : dflt;
}

/* The index of s in the NULL-terminated names, or -1. */
static inline int name_index(const char *s, const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

/* Element strides of t (row-major). */
static inline void element_strides(const KernelTensor *t, int64_t *strides)
{
	int64_t st = 1;
	for (uint32_t i = t->ndim; i-- > 0;) {
		strides[i] = st;
		st *= t->shape[i];
	}
}

/* The window family's (prepare_window.c), which qnn.conv2d shares. */
bool prepare_window_op(OpKind op, WindowOp *w);
bool prepare_window_layouts(KernelCall *kc, const Expr *call, const WindowOp *wo, char **err);
bool prepare_window_attrs(KernelCall *kc, const Expr *call, const WindowOp *wo);

/* The nn family's matrix products (prepare_nn.c), which qnn.dense and
 * qnn.batch_matmul share: nn.dense's x [..., K] times w [N, K] transposed,
 * one matrix of M rows (the product of x's other dimensions), and
 * nn.batch_matmul's a [B, M, K] times b [B, K, N] with its transpose_a and
 * transpose_b, from kc's operands and result. */
KernelMatmul prepare_dense_matmul(const KernelCall *kc);
KernelMatmul prepare_batch_matmul(const KernelCall *kc, const Expr *call);

/* ---- decoders shared by operators of more than one family ---------------- */

static inline bool decode_bias_add(KernelCall *kc, const Expr *call, char **err)
{
	OpKind op = kc->op;
	const KernelTensor *in = kc->in;
	int64_t axis;
	if (!normalize_axis(attr_int(call, "axis", op == OP_BIAS_ADD ? 1 : -1), in[0].ndim, &axis))
		return prepare_bad(kc, err);
	split_axis(&in[0], axis, &kc->p.axis);
	return true;
}

static inline bool decode_stack(KernelCall *kc, const Expr *call, char **err)
{
	OpKind op = kc->op;
	const KernelTensor *out = kc->out;
	/* the new axis of the output: stack's, or one_hot's (-1 the last) */
	int64_t axis = attr_int(call, "axis", op == OP_STACK ? 0 : -1);
	if (op == OP_ONE_HOT && axis == -1)
		axis = out[0].ndim - 1;
	if (!normalize_axis(axis, out[0].ndim, &axis))
		return prepare_bad(kc, err);
	split_axis(&out[0], axis, &kc->p.axis);
	return true;
}

#endif
