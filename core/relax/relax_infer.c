/*
 * relax_infer.c - value types by operator rule (see relax_infer.h).
 *
 * The rules are those of TVM 0.27's FInferType functions: binary
 * arithmetic and convolutions use InferBinaryArithOpOutVDevice
 * (src/relax/op/op_common.h), matmul its own agree-or-nothing test
 * (linear_algebra.cc), concat, einsum and where the first-defined,
 * none-on-mismatch walk (manipulate.cc, ternary.cc), and the rest take
 * the first argument's vdevice (`data_ty->vdevice`).
 */
#include "relax_infer.h"

#include <string.h>

static const RxOpInfo relax_ops[] = {
#define X(NAME, RULE, RELAY) {NAME, RULE, RELAY},
#include "relax_ops.def"
#undef X
};

const RxOpInfo *relax_op_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof relax_ops / sizeof relax_ops[0]; i++)
		if (strcmp(relax_ops[i].name, name) == 0)
			return &relax_ops[i];
	return NULL;
}

const RxFunc *relax_module_func(const RxModule *m, const char *name)
{
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (strcmp(m->funcs[i]->name, name) == 0)
			return m->funcs[i];
	return NULL;
}

/* The type of an argument expression: a variable's, a tuple's fields'. */
static RxType *expr_type(RxModule *m, const RxExpr *e)
{
	RxType *t, *field;
	switch (e->kind) {
	case RX_EXPR_VAR:
		return e->var->type;
	case RX_EXPR_TUPLE:
		t = arena_alloc(&m->arena, sizeof *t);
		t->kind = RX_TYPE_TUPLE;
		t->fields = arena_array(&m->arena, e->nitems, sizeof *t->fields);
		for (uint32_t i = 0; i < e->nitems; i++) {
			if (!(field = expr_type(m, e->items[i])))
				return NULL;
			t->fields[t->nfields++] = field;
		}
		return t;
	case RX_EXPR_GETITEM:
		t = expr_type(m, e->items[0]);
		if (!t || t->kind != RX_TYPE_TUPLE || e->index < 0 ||
		    (uint64_t)e->index >= t->nfields)
			return NULL;
		return t->fields[e->index];
	case RX_EXPR_GLOBAL:
	case RX_EXPR_CALL:
	case RX_EXPR_LITERAL:
		return NULL;
	}
	return NULL;
}

enum { RX_MAX_RULE_ARGS = 64 };

/* base with every tensor in it on vdevice. */
static RxType *on_vdevice(RxModule *m, const RxType *base, int vdevice)
{
	RxType *t;
	if (!base)
		return NULL;
	if (base->kind == RX_TYPE_TENSOR)
		return base->vdevice == vdevice ? (RxType *)base
						: relax_type_with_vdevice(m, base, vdevice);
	if (base->kind != RX_TYPE_TUPLE)
		return (RxType *)base;
	t = arena_alloc(&m->arena, sizeof *t);
	*t = *base;
	t->fields = arena_array(&m->arena, base->nfields, sizeof *t->fields);
	for (uint32_t i = 0; i < base->nfields; i++)
		t->fields[i] = on_vdevice(m, base->fields[i], vdevice);
	return t;
}

/* Appends the tensor types of the call's arguments, tuples flattened. */
static size_t arg_tensors(RxModule *m, const RxExpr *call, const RxType **out, size_t cap)
{
	size_t n = 0;
	for (uint32_t i = 0; i < call->nitems && n < cap; i++) {
		const RxType *t = expr_type(m, call->items[i]);
		if (t && t->kind == RX_TYPE_TUPLE) {
			for (uint32_t k = 0; k < t->nfields && n < cap; k++)
				if (t->fields[k]->kind == RX_TYPE_TENSOR)
					out[n++] = t->fields[k];
		} else if (t && t->kind == RX_TYPE_TENSOR) {
			out[n++] = t;
		}
	}
	return n;
}

/* The result of a binary operator, matmul or concat without the
 * annotation's shape when an operand's shape is unknown: TVM then knows
 * only the rank (the largest operand's, unknown if one's is). */
static const RxType *operand_shape(RxModule *m, const RxExpr *call, const RxType *base)
{
	const RxType *t[RX_MAX_RULE_ARGS];
	size_t n = arg_tensors(m, call, t, RX_MAX_RULE_ARGS);
	bool shapeless = false;
	int ndim = 0;
	if (!base || base->kind != RX_TYPE_TENSOR)
		return base;
	for (size_t i = 0; i < n; i++) {
		shapeless |= !t[i]->shape;
		ndim = ndim < 0 || t[i]->ndim < 0 ? -1 : t[i]->ndim > ndim ? t[i]->ndim : ndim;
	}
	if (!shapeless)
		return base;
	return relax_type_tensor(m, NULL, ndim, base->dtype, base->vdevice);
}

/* The vdevice a rule gives; false with err set on a binary mismatch. */
static bool rule_vdevice(RxModule *m, const RxExpr *call, RxRule rule, int *vdevice,
			 RxInferError *err)
{
	const RxType *t[RX_MAX_RULE_ARGS];
	int v[RX_MAX_RULE_ARGS];
	size_t n = arg_tensors(m, call, t, RX_MAX_RULE_ARGS);
	for (size_t i = 0; i < n; i++)
		v[i] = t[i]->vdevice;
	*vdevice = -1;
	if (n == 0)
		return true;
	if (rule == RX_RULE_BINARY || rule == RX_RULE_MATMUL) {
		int lhs = v[0], rhs = n > 1 ? v[1] : -1;
		*vdevice = lhs < 0 ? rhs : rhs < 0 ? lhs : lhs == rhs ? lhs : -1;
		if (rule == RX_RULE_BINARY && lhs >= 0 && rhs >= 0 && lhs != rhs) {
			if (err)
				*err = (RxInferError){true, lhs, rhs};
			return false;
		}
		return true;
	}
	if (rule == RX_RULE_COMMON) {
		for (size_t i = 0; i < n; i++) {
			if (v[i] < 0)
				continue;
			if (*vdevice < 0)
				*vdevice = v[i];
			else if (v[i] != *vdevice)
				return *vdevice = -1, true;
		}
		return true;
	}
	*vdevice = v[0];
	return true;
}

/* R.matmul's type from static operand shapes of the same rank >= 2:
 * (..., n, k) x (..., k, m) is (..., n, m), the first operand's dtype. */
static const RxType *matmul_shape(RxModule *m, const RxExpr *call)
{
	const RxType *a = call->nitems == 2 ? expr_type(m, call->items[0]) : NULL;
	const RxType *b = call->nitems == 2 ? expr_type(m, call->items[1]) : NULL;
	PyExpr *shape;
	if (!a || !b || a->kind != RX_TYPE_TENSOR || b->kind != RX_TYPE_TENSOR || !a->shape ||
	    !b->shape || a->shape->kind != PY_TUPLE || b->shape->kind != PY_TUPLE ||
	    a->shape->nitems < 2 || a->shape->nitems != b->shape->nitems)
		return NULL;
	shape = arena_alloc(&m->arena, sizeof *shape);
	*shape = *a->shape;
	shape->items = arena_array(&m->arena, shape->nitems, sizeof *shape->items);
	memcpy(shape->items, a->shape->items, shape->nitems * sizeof *shape->items);
	shape->items[shape->nitems - 1] = b->shape->items[b->shape->nitems - 1];
	return relax_type_tensor(m, shape, -1, a->dtype, -1);
}

static RxType *infer_call(RxModule *m, const RxExpr *call, const RxType *base, RxInferError *err)
{
	const RxOpInfo *op = call->callee == RX_CALL_OP ? relax_op_find(call->name) : NULL;
	RxRule rule = op ? op->rule : RX_RULE_FIRST;
	const RxType *arg = call->nitems ? expr_type(m, call->items[0]) : NULL;
	int vdevice;
	if (call->callee == RX_CALL_GLOBAL) {
		const RxFunc *f = relax_module_func(m, call->name);
		return f && f->kind == RX_FUNC_RELAX && f->ret ? f->ret : (RxType *)base;
	}
	if (call->callee == RX_CALL_VAR)
		return (RxType *)base;
	switch (rule) {
	case RX_RULE_OUT_TYPE:
		return call->out_type;
	case RX_RULE_HINT:
		return arg ? (RxType *)arg : (RxType *)base;
	case RX_RULE_TO_VDEVICE:
		return on_vdevice(m, arg ? arg : base, call->vdevice);
	case RX_RULE_UNARY:
		/* the argument's shape, known or not */
		if (arg && (!base || (arg->kind == RX_TYPE_TENSOR && !arg->shape)))
			return (RxType *)arg;
		return on_vdevice(m, base, relax_type_vdevice(arg));
	case RX_RULE_BINARY:
	case RX_RULE_MATMUL:
	case RX_RULE_COMMON:
	case RX_RULE_FIRST:
		break;
	}
	if (!rule_vdevice(m, call, rule, &vdevice, err))
		return NULL;
	if (!base && rule == RX_RULE_MATMUL)
		base = matmul_shape(m, call);
	if (rule == RX_RULE_BINARY || rule == RX_RULE_MATMUL || rule == RX_RULE_COMMON)
		base = operand_shape(m, call, base);
	if (!base && rule == RX_RULE_BINARY && call->nitems == 2) {
		const RxType *rhs = expr_type(m, call->items[1]);
		/* the shape of x + x, and of x + scalar (broadcasting beyond
		 * that needs the annotation) */
		if (arg && rhs && arg->kind == RX_TYPE_TENSOR && rhs->kind == RX_TYPE_TENSOR) {
			if (relax_type_equal(on_vdevice(m, arg, -1), on_vdevice(m, rhs, -1)) ||
			    rhs->ndim == 0)
				base = arg;
			else if (arg->ndim == 0)
				base = rhs;
		}
	}
	return on_vdevice(m, base, vdevice);
}

RxType *relax_infer_value(RxModule *m, const RxExpr *value, const RxType *base, RxInferError *err)
{
	RxType *t;
	if (err)
		err->failed = false;
	switch (value->kind) {
	case RX_EXPR_VAR:
	case RX_EXPR_GETITEM:
		t = expr_type(m, value);
		return t ? t : (RxType *)base;
	case RX_EXPR_TUPLE:
		t = expr_type(m, value);
		return t ? t : (RxType *)base;
	case RX_EXPR_CALL:
		return infer_call(m, value, base, err);
	case RX_EXPR_GLOBAL:
	case RX_EXPR_LITERAL:
		return (RxType *)base;
	}
	return (RxType *)base;
}
