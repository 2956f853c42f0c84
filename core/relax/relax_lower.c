/*
 * relax_lower.c - a realised Relax module written as Relay text (see
 * relax_lower.h).
 *
 * One pass over the entry function's statements in order. Each variable
 * gets what stands for it in the Relay text: a let variable for a call,
 * the same text as its source for an alias `x = y`, the fields of a tuple
 * literal (so `t[0]` is its field, wherever it lives), or the shape an
 * R.shape(...) binding names. A tensor's device is its realised vdevice's,
 * or `unplaced` when it has none.
 */
#include "relax_lower.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "relax_infer.h"

typedef struct LowerVal {
	bool set;
	char *text;          /* the Relay expression standing for it (malloc'ed) */
	int32_t device;      /* of a tensor; of a tuple, its first field's */
	const RxExpr *tuple; /* a tuple literal it names, or NULL */
	const RxExpr *shape; /* an R.shape(...) call it names, or NULL */
	const RxType *type;  /* its realised type */
} LowerVal;

typedef struct Lower {
	const RxModule *m;
	const int32_t *device_of;
	int32_t unplaced;
	LowerVal *vals; /* by variable id */
	DiagList *diags;
	StrBuf *out;
} Lower;

static bool lower_error(Lower *L, Pos pos, const char *fmt, const char *arg)
{
	diag_error(L->diags, L->m->src, pos, fmt, arg);
	return false;
}

static bool type_device(Lower *L, const RxType *t, Pos pos, int32_t *device)
{
	int v = t ? relax_type_vdevice(t) : -1;
	if (t && t->kind == RX_TYPE_TUPLE && t->nfields > 0)
		return type_device(L, t->fields[0], pos, device);
	if (v < 0) {
		*device = L->unplaced;
		return true;
	}
	if (L->device_of[v] < 0) {
		StrBuf name;
		bool ok;
		strbuf_init(&name);
		relax_vdevice_name(L->m, v, &name);
		ok = lower_error(L, pos, "vdevice '%s' cannot run: devplan runs llvm and cuda ones",
				 name.data);
		strbuf_free(&name);
		return ok;
	}
	*device = L->device_of[v];
	return true;
}

/* The static dims of a tensor type; false when it has none or a symbolic
 * one. */
static bool static_dims(const RxType *t, int64_t *dims, int *ndim)
{
	if (!t || t->kind != RX_TYPE_TENSOR || !t->shape || t->ndim < 0 || t->ndim > 8)
		return false;
	if (t->shape->kind != PY_TUPLE && t->shape->kind != PY_LIST)
		return false;
	for (uint32_t i = 0; i < t->shape->nitems; i++) {
		if (t->shape->items[i]->kind != PY_INT)
			return false;
		dims[i] = strtoll(t->shape->items[i]->text, NULL, 10);
	}
	*ndim = (int)t->shape->nitems;
	return true;
}

/* The Relay type of a parameter: symbolic dims become `?` (run takes
 * their values from the inputs). */
static bool write_type(Lower *L, const RxType *t, Pos pos, StrBuf *sb)
{
	if (t && t->kind == RX_TYPE_TUPLE) {
		strbuf_putc(sb, '(');
		for (uint32_t i = 0; i < t->nfields; i++) {
			if (i)
				strbuf_puts(sb, ", ");
			if (!write_type(L, t->fields[i], pos, sb))
				return false;
		}
		strbuf_puts(sb, t->nfields == 1 ? ",)" : ")");
		return true;
	}
	if (!t || t->kind != RX_TYPE_TENSOR || !t->dtype || !t->shape ||
	    (t->shape->kind != PY_TUPLE && t->shape->kind != PY_LIST))
		return lower_error(
			L, pos, "a parameter needs a tensor type with a shape and a dtype to run%s",
			"");
	if (t->shape->nitems == 0) {
		strbuf_puts(sb, t->dtype);
		return true;
	}
	strbuf_puts(sb, "Tensor[(");
	for (uint32_t i = 0; i < t->shape->nitems; i++) {
		const PyExpr *d = t->shape->items[i];
		if (i)
			strbuf_puts(sb, ", ");
		strbuf_puts(sb, d->kind == PY_INT ? d->text : "?");
	}
	strbuf_printf(sb, "%s), %s]", t->shape->nitems == 1 ? "," : "", t->dtype);
	return true;
}

static void write_device(StrBuf *sb, int32_t device)
{
	strbuf_printf(sb, "meta[VirtualDevice][%d]", (int)device);
}

static const RxExpr *kwarg(const RxExpr *call, const char *key)
{
	for (uint32_t i = 0; i < call->nkwargs; i++)
		if (strcmp(call->keys[i], key) == 0)
			return call->kwargs[i];
	return NULL;
}

/* A keyword argument's literal, NULL when absent or None. */
static const PyExpr *kwarg_py(const RxExpr *call, const char *key)
{
	const RxExpr *e = kwarg(call, key);
	if (!e || e->kind != RX_EXPR_LITERAL || !e->py)
		return NULL;
	if (e->py->kind == PY_NAME && strcmp(e->py->text, "None") == 0)
		return NULL;
	return e->py;
}

/* A literal as a Relay attribute value: numbers, lists of them, strings,
 * True/False. False for anything else (a symbolic value). */
static bool write_py(const PyExpr *py, StrBuf *sb)
{
	switch (py->kind) {
	case PY_INT:
	case PY_FLOAT:
		strbuf_puts(sb, py->text);
		return true;
	case PY_NEG:
		strbuf_putc(sb, '-');
		return write_py(py->base, sb);
	case PY_STR:
		strbuf_printf(sb, "\"%s\"", py->text);
		return true;
	case PY_NAME:
		if (strcmp(py->text, "True") != 0 && strcmp(py->text, "False") != 0)
			return false;
		strbuf_puts(sb, py->text);
		return true;
	case PY_LIST:
	case PY_TUPLE:
		strbuf_putc(sb, '[');
		for (uint32_t i = 0; i < py->nitems; i++) {
			if (i)
				strbuf_puts(sb, ", ");
			if (!write_py(py->items[i], sb))
				return false;
		}
		strbuf_putc(sb, ']');
		return true;
	case PY_CALL:
		/* T.int64(3), R.prim_value(3): the value */
		if (py->nitems == 1 && !(py->keys && py->keys[0]))
			return write_py(py->items[0], sb);
		return false;
	case PY_ATTR:
	case PY_INDEX:
	case PY_DICT:
	case PY_BINOP:
		return false;
	}
	return false;
}

/* `, name=value` for a keyword the call has (renamed for Relay). */
static bool copy_attr(Lower *L, const RxExpr *call, const char *key, const char *relay, StrBuf *sb)
{
	const PyExpr *py = kwarg_py(call, key);
	if (!py)
		return true;
	strbuf_printf(sb, ", %s=", relay);
	if (!write_py(py, sb))
		return lower_error(L, py->pos,
				   "%s: this attribute value cannot run (not a constant)",
				   call->name);
	return true;
}

/* The single value of a one-element list attribute (layer_norm's axes,
 * expand_dims's axis), or of an integer. */
static bool single_int(const PyExpr *py, StrBuf *sb)
{
	if ((py->kind == PY_LIST || py->kind == PY_TUPLE) && py->nitems == 1)
		return write_py(py->items[0], sb);
	if (py->kind == PY_INT || py->kind == PY_NEG)
		return write_py(py, sb);
	return false;
}

static bool operand(Lower *L, const RxExpr *e, int32_t want, StrBuf *sb);
static const PyExpr *kwarg_py(const RxExpr *call, const char *key);

/* R.const(0.5, "float32"): a Relay scalar literal, which lives wherever
 * its operator runs. */
static bool scalar_const(Lower *L, const RxExpr *e, StrBuf *sb)
{
	const PyExpr *v =
		e->nitems >= 1 && e->items[0]->kind == RX_EXPR_LITERAL ? e->items[0]->py : NULL;
	const PyExpr *dtype = e->nitems >= 2 && e->items[1]->kind == RX_EXPR_LITERAL
				      ? e->items[1]->py
				      : kwarg_py(e, "dtype");
	const PyExpr *num = v && v->kind == PY_NEG ? v->base : v;
	if (!num || (num->kind != PY_FLOAT && num->kind != PY_INT) ||
	    (dtype && (dtype->kind != PY_STR || strcmp(dtype->text, "float32") != 0)))
		return lower_error(L, e->pos, "%s: only a float32 scalar constant can run yet",
				   e->name);
	strbuf_printf(sb, "%s%s%sf", v->kind == PY_NEG ? "-" : "", num->text,
		      num->kind == PY_INT ? ".0" : "");
	return true;
}

static bool var_operand(Lower *L, const RxVar *v, Pos pos, int32_t want, StrBuf *sb)
{
	LowerVal *val = &L->vals[v->id];
	if (!val->set)
		return lower_error(L, pos, "'%s' has no value that can run here", v->name);
	if (val->tuple)
		return operand(L, val->tuple, want, sb);
	if (val->shape)
		return lower_error(L, pos, "the shape '%s' is not a tensor: cannot run", v->name);
	if (want >= 0 && val->device != want) {
		strbuf_printf(sb, "device_copy(%s, src_virtual_device=", val->text);
		write_device(sb, val->device);
		strbuf_puts(sb, ", dst_virtual_device=");
		write_device(sb, want);
		strbuf_putc(sb, ')');
	} else {
		strbuf_puts(sb, val->text);
	}
	return true;
}

/* e as an operand on device want (-1: wherever it is). */
static bool operand(Lower *L, const RxExpr *e, int32_t want, StrBuf *sb)
{
	switch (e->kind) {
	case RX_EXPR_VAR:
		return var_operand(L, e->var, e->pos, want, sb);
	case RX_EXPR_TUPLE:
		strbuf_putc(sb, '(');
		for (uint32_t i = 0; i < e->nitems; i++) {
			if (i)
				strbuf_puts(sb, ", ");
			if (!operand(L, e->items[i], want, sb))
				return false;
		}
		strbuf_puts(sb, e->nitems == 1 ? ",)" : ")");
		return true;
	case RX_EXPR_GETITEM: {
		const RxExpr *t = e->items[0];
		if (t->kind == RX_EXPR_VAR && L->vals[t->var->id].tuple) {
			const RxExpr *lit = L->vals[t->var->id].tuple;
			if (e->index < 0 || (uint64_t)e->index >= lit->nitems)
				return lower_error(L, e->pos, "tuple index out of range%s", "");
			return operand(L, lit->items[e->index], want, sb);
		}
		if (!operand(L, t, -1, sb))
			return false;
		strbuf_printf(sb, ".%" PRId64, e->index);
		return true;
	}
	case RX_EXPR_LITERAL:
		if (e->py && (e->py->kind == PY_FLOAT || e->py->kind == PY_INT)) {
			strbuf_printf(sb, "%sf", e->py->text);
			return true;
		}
		return lower_error(L, e->pos, "this constant cannot run yet%s", "");
	case RX_EXPR_CALL:
		if (e->callee == RX_CALL_OP && strcmp(e->name, "R.const") == 0)
			return scalar_const(L, e, sb);
		break;
	case RX_EXPR_GLOBAL:
		break;
	}
	return lower_error(L, e->pos, "a nested call cannot run (TVM binds every call)%s", "");
}

static const RxType *operand_type(Lower *L, const RxExpr *e)
{
	return e->kind == RX_EXPR_VAR ? L->vals[e->var->id].type : NULL;
}

/* The integers of a shape argument: R.shape([..]), a tuple or list, or a
 * variable bound to R.shape(...). */
static bool shape_arg(Lower *L, const RxExpr *call, const RxExpr *e, StrBuf *sb)
{
	const PyExpr *py = NULL;
	if (e && e->kind == RX_EXPR_VAR && L->vals[e->var->id].shape)
		e = L->vals[e->var->id].shape;
	if (e && e->kind == RX_EXPR_CALL && e->name && strcmp(e->name, "R.shape") == 0 &&
	    e->nitems == 1 && e->items[0]->kind == RX_EXPR_LITERAL)
		py = e->items[0]->py;
	else if (e && e->kind == RX_EXPR_LITERAL)
		py = e->py;
	if (!py || (py->kind != PY_LIST && py->kind != PY_TUPLE) || !write_py(py, sb))
		return lower_error(L, e ? e->pos : call->pos,
				   "%s: the shape must be constant to run", call->name);
	return true;
}

static bool is_op(const RxExpr *call, const char *name)
{
	return strcmp(call->name, name) == 0;
}

static void write_dims(StrBuf *sb, const int64_t *dims, int n)
{
	strbuf_putc(sb, '[');
	for (int i = 0; i < n; i++)
		strbuf_printf(sb, "%s%" PRId64, i ? ", " : "", dims[i]);
	strbuf_putc(sb, ']');
}

/* R.matmul as NumPy has it: nn.matmul for two matrices, else the batch
 * dims folded into nn.batch_matmul (or a matrix on the right folded into
 * the rows) and the result reshaped back. */
static bool lower_matmul(Lower *L, const RxExpr *call, const RxType *result, int32_t device,
			 StrBuf *sb)
{
	int64_t a[8], b[8], r[8];
	int na, nb, nr;
	if (call->nitems != 2 || !static_dims(operand_type(L, call->items[0]), a, &na) ||
	    !static_dims(operand_type(L, call->items[1]), b, &nb) || !static_dims(result, r, &nr))
		return lower_error(L, call->pos, "%s needs static shapes to run", call->name);
	if (na < 2 || nb < 2)
		return lower_error(L, call->pos, "%s of a vector cannot run yet", call->name);
	if (na == 2 && nb == 2) {
		strbuf_puts(sb, "nn.matmul(");
		if (!operand(L, call->items[0], device, sb))
			return false;
		strbuf_puts(sb, ", ");
		if (!operand(L, call->items[1], device, sb))
			return false;
		strbuf_putc(sb, ')');
		return true;
	}
	if (nb == 2) {
		int64_t rows[2] = {-1, a[na - 1]};
		strbuf_puts(sb, "reshape(nn.matmul(reshape(");
		if (!operand(L, call->items[0], device, sb))
			return false;
		strbuf_puts(sb, ", newshape=");
		write_dims(sb, rows, 2);
		strbuf_puts(sb, "), ");
		if (!operand(L, call->items[1], device, sb))
			return false;
		strbuf_puts(sb, "), newshape=");
		write_dims(sb, r, nr);
		strbuf_putc(sb, ')');
		return true;
	}
	{
		int64_t fa[3] = {-1, a[na - 2], a[na - 1]}, fb[3] = {-1, b[nb - 2], b[nb - 1]};
		int64_t batch_a = 1, batch_b = 1;
		for (int i = 0; i < na - 2; i++)
			batch_a *= a[i];
		for (int i = 0; i < nb - 2; i++)
			batch_b *= b[i];
		if (batch_a != batch_b)
			return lower_error(L, call->pos,
					   "%s with broadcast batch dims cannot run yet",
					   call->name);
		strbuf_puts(sb, "reshape(nn.batch_matmul(reshape(");
		if (!operand(L, call->items[0], device, sb))
			return false;
		strbuf_puts(sb, ", newshape=");
		write_dims(sb, fa, 3);
		strbuf_puts(sb, "), reshape(");
		if (!operand(L, call->items[1], device, sb))
			return false;
		strbuf_puts(sb, ", newshape=");
		write_dims(sb, fb, 3);
		strbuf_puts(sb, "), transpose_b=False), newshape=");
		write_dims(sb, r, nr);
		strbuf_putc(sb, ')');
		return true;
	}
}

/* Relax operators relax_ops.def does not list, with their Relay kernels. */
static const char *const extra_unary[][2] = {
	{"R.erf", "erf"},   {"R.rsqrt", "rsqrt"}, {"R.floor", "floor"},
	{"R.ceil", "ceil"}, {"R.sin", "sin"},     {"R.cos", "cos"},
};

static const char *extra_op(const RxExpr *call)
{
	for (size_t i = 0; i < sizeof extra_unary / sizeof *extra_unary; i++)
		if (strcmp(call->name, extra_unary[i][0]) == 0 && call->nkwargs == 0)
			return extra_unary[i][1];
	return NULL;
}

/* The Relay operators whose Relax namesakes take no attributes. */
static bool plain_op(const RxExpr *call, const RxOpInfo *info)
{
	return info && info->relay[0] && call->nkwargs == 0 &&
	       (info->rule == RX_RULE_BINARY || info->rule == RX_RULE_UNARY ||
		strcmp(info->relay, "where") == 0) &&
	       strncmp(info->relay, "nn.conv", 7) != 0 && strcmp(info->relay, "nn.softmax") != 0;
}

static bool operands(Lower *L, const RxExpr *call, uint32_t from, uint32_t to, int32_t device,
		     StrBuf *sb)
{
	for (uint32_t i = from; i < to && i < call->nitems; i++) {
		strbuf_puts(sb, i > from ? ", " : "");
		if (!operand(L, call->items[i], device, sb))
			return false;
	}
	return true;
}

/* `relay(args[0..n), ` for an operator with n tensor operands */
static bool head(Lower *L, const RxExpr *call, const char *relay, uint32_t n, int32_t device,
		 StrBuf *sb)
{
	if (call->nitems < n)
		return lower_error(L, call->pos, "%s: too few arguments to run", call->name);
	strbuf_printf(sb, "%s(", relay);
	return operands(L, call, 0, n, device, sb);
}

static bool lower_call(Lower *L, const RxExpr *call, const RxType *result, int32_t device,
		       StrBuf *sb)
{
	const RxOpInfo *info = relax_op_find(call->name);
	bool ok = true;
	if (call->callee != RX_CALL_OP)
		return lower_error(L, call->pos,
				   "a call of '%s' cannot run yet (one function runs)",
				   call->name ? call->name : "a closure");
	if (plain_op(call, info)) {
		ok = head(L, call, info->relay, call->nitems, device, sb);
	} else if (extra_op(call)) {
		ok = head(L, call, extra_op(call), call->nitems, device, sb);
	} else if (is_op(call, "R.matmul")) {
		return lower_matmul(L, call, result, device, sb);
	} else if (is_op(call, "R.permute_dims")) {
		ok = head(L, call, "transpose", 1, device, sb) &&
		     copy_attr(L, call, "axes", "axes", sb);
	} else if (is_op(call, "R.reshape")) {
		ok = head(L, call, "reshape", 1, device, sb);
		strbuf_puts(sb, ", newshape=");
		ok = ok && shape_arg(L, call,
				     call->nitems > 1 ? call->items[1] : kwarg(call, "shape"), sb);
	} else if (is_op(call, "R.broadcast_to")) {
		ok = head(L, call, "broadcast_to", 1, device, sb);
		strbuf_puts(sb, ", shape=");
		ok = ok && shape_arg(L, call,
				     call->nitems > 1 ? call->items[1] : kwarg(call, "shape"), sb);
	} else if (is_op(call, "R.concat")) {
		ok = head(L, call, "concatenate", 1, device, sb) &&
		     copy_attr(L, call, "axis", "axis", sb);
	} else if (is_op(call, "R.split")) {
		ok = head(L, call, "split", 1, device, sb) &&
		     copy_attr(L, call, "indices_or_sections", "indices_or_sections", sb) &&
		     copy_attr(L, call, "axis", "axis", sb);
	} else if (is_op(call, "R.mean") || is_op(call, "R.sum") || is_op(call, "R.max") ||
		   is_op(call, "R.min")) {
		ok = head(L, call, call->name + 2, 1, device, sb) &&
		     copy_attr(L, call, "axis", "axis", sb) &&
		     copy_attr(L, call, "keepdims", "keepdims", sb);
	} else if (is_op(call, "R.nn.softmax")) {
		ok = head(L, call, "nn.softmax", 1, device, sb) &&
		     copy_attr(L, call, "axis", "axis", sb);
	} else if (is_op(call, "R.astype")) {
		ok = head(L, call, "cast", 1, device, sb) &&
		     copy_attr(L, call, "dtype", "dtype", sb);
	} else if (is_op(call, "R.take")) {
		ok = head(L, call, "take", 2, device, sb) && copy_attr(L, call, "axis", "axis", sb);
	} else if (is_op(call, "R.expand_dims") || is_op(call, "R.nn.layer_norm")) {
		bool norm = is_op(call, "R.nn.layer_norm");
		const PyExpr *axes = kwarg_py(call, norm ? "axes" : "axis");
		ok = head(L, call, norm ? "nn.layer_norm" : "expand_dims", norm ? 3 : 1, device,
			  sb);
		strbuf_puts(sb, ", axis=");
		if (ok && (!axes || !single_int(axes, sb)))
			return lower_error(L, call->pos,
					   "%s over more than one axis cannot run yet", call->name);
		ok = ok && (!norm || (copy_attr(L, call, "epsilon", "epsilon", sb) &&
				      copy_attr(L, call, "center", "center", sb) &&
				      copy_attr(L, call, "scale", "scale", sb)));
	} else if (is_op(call, "R.squeeze")) {
		ok = head(L, call, "squeeze", 1, device, sb) &&
		     copy_attr(L, call, "axis", "axis", sb);
	} else if (is_op(call, "R.nn.batch_norm")) {
		ok = head(L, call, "nn.batch_norm", 5, device, sb) &&
		     copy_attr(L, call, "axis", "axis", sb) &&
		     copy_attr(L, call, "epsilon", "epsilon", sb) &&
		     copy_attr(L, call, "center", "center", sb) &&
		     copy_attr(L, call, "scale", "scale", sb);
	} else if (is_op(call, "R.nn.conv2d")) {
		ok = head(L, call, "nn.conv2d", 2, device, sb) &&
		     copy_attr(L, call, "strides", "strides", sb) &&
		     copy_attr(L, call, "padding", "padding", sb) &&
		     copy_attr(L, call, "dilation", "dilation", sb) &&
		     copy_attr(L, call, "groups", "groups", sb) &&
		     copy_attr(L, call, "data_layout", "data_layout", sb) &&
		     copy_attr(L, call, "kernel_layout", "kernel_layout", sb);
	} else if (is_op(call, "R.strided_slice")) {
		ok = head(L, call, "strided_slice", 1, device, sb) &&
		     copy_attr(L, call, "begin", "begin", sb) &&
		     copy_attr(L, call, "end", "end", sb) &&
		     copy_attr(L, call, "strides", "strides", sb) &&
		     copy_attr(L, call, "axes", "axes", sb);
	} else if (is_op(call, "R.nn.silu")) {
		/* x sigmoid(x) */
		StrBuf x;
		strbuf_init(&x);
		ok = call->nitems == 1 && operand(L, call->items[0], device, &x);
		if (ok)
			strbuf_printf(sb, "multiply(%s, sigmoid(%s)", x.data, x.data);
		strbuf_free(&x);
		if (!ok && L->diags->errors == 0)
			return lower_error(L, call->pos, "%s takes one operand", call->name);
	} else if (is_op(call, "R.nn.gelu")) {
		/* 0.5 x (1 + erf(x / sqrt 2)), as TVM legalises it */
		StrBuf x;
		strbuf_init(&x);
		ok = call->nitems == 1 && operand(L, call->items[0], device, &x);
		if (ok)
			strbuf_printf(sb,
				      "multiply(multiply(%s, 0.5f), add(erf(multiply(%s, "
				      "0.7071067811865476f)), 1f)",
				      x.data, x.data);
		strbuf_free(&x);
		if (!ok && L->diags->errors == 0)
			return lower_error(L, call->pos, "%s takes one operand", call->name);
	} else {
		return lower_error(L, call->pos, "%s has no kernel: cannot run", call->name);
	}
	if (ok)
		strbuf_putc(sb, ')');
	return ok;
}

static void set_val(LowerVal *val, const char *text, int32_t device, const RxType *type)
{
	free(val->text);
	val->text = xstrdup(text);
	val->set = true;
	val->device = device;
	val->type = type;
}

static bool lower_block(Lower *L, const RxBlock *b);

static bool lower_bind(Lower *L, const RxStmt *st)
{
	const RxExpr *e = st->value;
	LowerVal *val = &L->vals[st->var->id];
	const RxType *type = st->var->type;
	int32_t device;
	StrBuf sb;
	bool ok;
	if (!type_device(L, type, st->pos, &device))
		return false;
	switch (e->kind) {
	case RX_EXPR_VAR: {
		LowerVal *src = &L->vals[e->var->id];
		if (!src->set)
			return lower_error(L, e->pos, "'%s' has no value that can run here",
					   e->var->name);
		*val = (LowerVal){true,        src->text ? xstrdup(src->text) : NULL,
				  src->device, src->tuple,
				  src->shape,  src->type};
		return true;
	}
	case RX_EXPR_TUPLE:
		*val = (LowerVal){true, NULL, device, e, NULL, type};
		return true;
	case RX_EXPR_CALL:
		if (e->callee == RX_CALL_OP && is_op(e, "R.shape")) {
			*val = (LowerVal){true, NULL, device, NULL, e, type};
			return true;
		}
		break;
	case RX_EXPR_LITERAL:
		/* `n = T.int64()`: a symbolic dimension declared, which the
		 * shapes name and the run takes from the inputs */
		if (e->py && e->py->kind == PY_CALL && e->py->nitems == 0)
			return true;
		break;
	case RX_EXPR_GETITEM:
	case RX_EXPR_GLOBAL:
		break;
	}
	strbuf_init(&sb);
	strbuf_printf(&sb, "  let %%%s = ", st->var->name);
	if (e->kind == RX_EXPR_CALL && e->callee == RX_CALL_OP && is_op(e, "R.to_vdevice")) {
		ok = e->nitems == 1 && e->items[0]->kind == RX_EXPR_VAR;
		if (ok)
			ok = var_operand(L, e->items[0]->var, e->items[0]->pos, device, &sb);
		else
			lower_error(L, e->pos, "%s of a tuple cannot run yet", e->name);
	} else if (e->kind == RX_EXPR_CALL) {
		strbuf_puts(&sb, "on_device(");
		ok = lower_call(L, e, type, device, &sb);
		strbuf_puts(&sb, ", virtual_device=");
		write_device(&sb, device);
		strbuf_putc(&sb, ')');
	} else {
		ok = operand(L, e, -1, &sb);
	}
	if (ok) {
		strbuf_puts(&sb, ";\n");
		strbuf_append(L->out, sb.data, sb.len);
		strbuf_reset(&sb);
		strbuf_printf(&sb, "%%%s", st->var->name);
		set_val(val, sb.data, device, type);
	}
	strbuf_free(&sb);
	return ok;
}

static bool lower_stmt(Lower *L, const RxStmt *st)
{
	switch (st->kind) {
	case RX_STMT_BIND:
		return lower_bind(L, st);
	case RX_STMT_DATAFLOW:
		return lower_block(L, st->then_block);
	case RX_STMT_ALIAS:
	case RX_STMT_EXPR:
		return true;
	case RX_STMT_MATCH:
		return lower_error(L, st->pos, "R.match_cast cannot run yet%s", "");
	case RX_STMT_IF:
		return lower_error(L, st->pos, "an if cannot run yet%s", "");
	}
	return false;
}

static bool lower_block(Lower *L, const RxBlock *b)
{
	for (uint32_t i = 0; i < b->nstmts; i++)
		if (!lower_stmt(L, b->stmts[i]))
			return false;
	return true;
}

/* Whether e calls or names the function name. */
static bool expr_uses(const RxExpr *e, const char *name)
{
	if (!e)
		return false;
	if ((e->kind == RX_EXPR_GLOBAL ||
	     (e->kind == RX_EXPR_CALL && e->callee == RX_CALL_GLOBAL)) &&
	    e->name && strcmp(e->name, name) == 0)
		return true;
	for (uint32_t i = 0; i < e->nitems; i++)
		if (expr_uses(e->items[i], name))
			return true;
	for (uint32_t i = 0; i < e->nkwargs; i++)
		if (expr_uses(e->kwargs[i], name))
			return true;
	return false;
}

static bool block_uses(const RxBlock *b, const char *name)
{
	if (!b)
		return false;
	for (uint32_t i = 0; i < b->nstmts; i++) {
		const RxStmt *st = b->stmts[i];
		if (expr_uses(st->value, name) || block_uses(st->then_block, name) ||
		    block_uses(st->else_block, name))
			return true;
	}
	return expr_uses(b->result, name);
}

/* `main`, else the one Relax function no other one calls. */
static const RxFunc *entry(const RxModule *m)
{
	const RxFunc *only = NULL;
	size_t n = 0;
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i]->kind == RX_FUNC_RELAX && strcmp(m->funcs[i]->name, "main") == 0)
			return m->funcs[i];
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		bool called = false;
		if (m->funcs[i]->kind != RX_FUNC_RELAX)
			continue;
		for (uint32_t j = 0; j < m->nfuncs && !called; j++)
			called = j != i && m->funcs[j]->kind == RX_FUNC_RELAX &&
				 block_uses(m->funcs[j]->body, m->funcs[i]->name);
		if (!called) {
			only = m->funcs[i];
			n++;
		}
	}
	return n == 1 ? only : NULL;
}

bool relax_lower(const RxModule *m, const int32_t *device_of, int32_t unplaced, StrBuf *out,
		 DiagList *diags)
{
	const RxFunc *f = entry(m);
	Lower L = {m, device_of, unplaced, NULL, diags, out};
	bool ok = true;
	if (!f) {
		diag_error(diags, m->src, (Pos){0, 0},
			   "no function to run: the module has no 'main' and not one Relax "
			   "function that no other one calls");
		return false;
	}
	L.vals = xcalloc(m->nvars ? m->nvars : 1, sizeof *L.vals);
	strbuf_puts(out, "#[version = \"0.0.5\"]\ndef @main(");
	for (uint32_t i = 0; ok && i < f->nparams; i++) {
		const RxVar *p = f->params[i];
		int32_t device;
		StrBuf text;
		ok = type_device(&L, p->type, p->pos, &device);
		if (!ok)
			break;
		strbuf_printf(out, "%s%%%s {virtual_device=", i ? ", " : "", p->name);
		write_device(out, device);
		strbuf_puts(out, "}: ");
		ok = write_type(&L, p->type, p->pos, out);
		strbuf_init(&text);
		strbuf_printf(&text, "%%%s", p->name);
		set_val(&L.vals[p->id], text.data, device, p->type);
		strbuf_free(&text);
	}
	if (ok) {
		strbuf_puts(out, ") {\n");
		ok = lower_block(&L, f->body);
	}
	if (ok && !f->body->result)
		ok = lower_error(&L, f->pos, "'%s' returns nothing to run", f->name);
	if (ok) {
		strbuf_puts(out, "  ");
		ok = operand(&L, f->body->result, -1, out);
		strbuf_puts(out, "\n}\n");
	}
	for (uint32_t i = 0; i < m->nvars; i++)
		free(L.vals[i].text);
	free(L.vals);
	return ok;
}
