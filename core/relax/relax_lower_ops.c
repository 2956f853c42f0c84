/*
 * relax_lower_ops.c - a Relax operator call written as the Relay call
 * devplan's kernels run (relax_lower_internal.h): the operators
 * relax_ops.def names a Relay operator for, with their attributes
 * translated, and the few composed of others (R.matmul of batches,
 * R.nn.gelu, R.nn.silu).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "relax_infer.h"
#include "relax_lower_internal.h"

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

void lower_write_device(StrBuf *sb, int32_t device)
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

/* `, key=value` for a keyword the call has (Relay names these attributes
 * as Relax does). */
static bool copy_attr(Lower *L, const RxExpr *call, const char *key, StrBuf *sb)
{
	const PyExpr *py = kwarg_py(call, key);
	if (!py)
		return true;
	strbuf_printf(sb, ", %s=", key);
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

/* R.const(0.5, "float32"): a Relay scalar literal, which lives wherever
 * its operator runs. */
bool lower_scalar_const(Lower *L, const RxExpr *e, StrBuf *sb)
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
static const RxType *operand_type(Lower *L, const RxExpr *e)
{
	return e->kind == RX_EXPR_VAR ? L->vals[e->var->id].type : NULL;
}

/* The rank of a tensor type, -1 when unknown. */
static int type_ndim(const RxType *t)
{
	if (!t || t->kind != RX_TYPE_TENSOR)
		return -1;
	if (t->shape && (t->shape->kind == PY_TUPLE || t->shape->kind == PY_LIST))
		return (int)t->shape->nitems;
	return t->ndim;
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
	if (call->nitems == 2 && type_ndim(operand_type(L, call->items[0])) == 2 &&
	    type_ndim(operand_type(L, call->items[1])) == 2) {
		/* two matrices: the shapes need not be known */
		strbuf_puts(sb, "nn.matmul(");
		if (!operand(L, call->items[0], device, sb))
			return false;
		strbuf_puts(sb, ", ");
		if (!operand(L, call->items[1], device, sb))
			return false;
		strbuf_putc(sb, ')');
		return true;
	}
	if (call->nitems != 2 || !static_dims(operand_type(L, call->items[0]), a, &na) ||
	    !static_dims(operand_type(L, call->items[1]), b, &nb) || !static_dims(result, r, &nr))
		return lower_error(L, call->pos, "%s needs static shapes to run", call->name);
	if (na < 2 || nb < 2)
		return lower_error(L, call->pos, "%s of a vector cannot run yet", call->name);
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

/* A cursor over a prim_func's text with its whitespace removed. */
typedef struct Scan {
	const char *at;
} Scan;

static bool scan_lit(Scan *s, const char *lit)
{
	size_t n = strlen(lit);
	if (strncmp(s->at, lit, n) != 0)
		return false;
	s->at += n;
	return true;
}

/* Up to (not past) the first of stop at bracket depth 0; the span read. */
static bool scan_until(Scan *s, const char *stop, const char **from, size_t *len)
{
	int depth = 0;
	*from = s->at;
	for (; *s->at; s->at++) {
		if (depth == 0 && strchr(stop, *s->at))
			break;
		depth += *s->at == '(' || *s->at == '[';
		depth -= *s->at == ')' || *s->at == ']';
	}
	*len = (size_t)(s->at - *from);
	return *s->at && *len > 0;
}

static bool scan_same(Scan *s, const char *from, size_t len)
{
	if (strncmp(s->at, from, len) != 0)
		return false;
	s->at += len;
	return true;
}

/* Whether a @T.prim_func is an element copy of its first buffer into its
 * second, of one shape and dtype (tests/relax-gen's helpers):
 *     def f(A: T.Buffer(S, "dt"), B: T.Buffer(S, "dt")):
 *         for i, j in T.grid(...S...):
 *             B[i, j] = A[i, j]
 * read with the whitespace removed. */
static bool prim_is_copy(const char *text)
{
	char *flat = xmalloc(strlen(text) + 1), *w = flat;
	const char *a, *b, *decl, *vars, *name, *grid, *shape_end;
	size_t na, nb, ndecl, nvars, nname;
	Scan s;
	bool ok;
	for (const char *r = text; *r; r++)
		if (*r != ' ' && *r != '\t' && *r != '\n' && *r != '\r')
			*w++ = *r;
	*w = 0;
	s.at = flat;
	ok = scan_lit(&s, "@T.prim_funcdef") && scan_until(&s, "(", &name, &nname) &&
	     scan_lit(&s, "(") && scan_until(&s, ":", &a, &na) && scan_lit(&s, ":T.Buffer") &&
	     scan_until(&s, ",", &decl, &ndecl) && scan_lit(&s, ",") &&
	     scan_until(&s, ":", &b, &nb) && scan_lit(&s, ":T.Buffer") &&
	     scan_same(&s, decl, ndecl) && scan_lit(&s, "):for") && strncmp(decl, "((", 2) == 0;
	/* the loop variables, then T.grid over the buffers' shape */
	if (ok && (grid = strstr(s.at, "inT.grid(")) && grid > s.at &&
	    (shape_end = strchr(decl, ')'))) {
		vars = s.at;
		nvars = (size_t)(grid - s.at);
		s.at = grid;
		ok = scan_lit(&s, "inT.grid(") &&
		     scan_same(&s, decl + 2, (size_t)(shape_end - decl - 2)) &&
		     scan_lit(&s, "):") && scan_same(&s, b, nb) && scan_lit(&s, "[") &&
		     scan_same(&s, vars, nvars) && scan_lit(&s, "]=") && scan_same(&s, a, na) &&
		     scan_lit(&s, "[") && scan_same(&s, vars, nvars) && scan_lit(&s, "]") && !*s.at;
	} else {
		ok = false;
	}
	free(flat);
	return ok;
}

/* R.call_tir(cls.f, (x,), out_ty) of a prim_func that copies x: a copy. */
static bool lower_call_tir(Lower *L, const RxExpr *call, int32_t device, StrBuf *sb)
{
	const RxExpr *f = call->nitems == 2 ? call->items[0] : NULL;
	const RxExpr *args = call->nitems == 2 ? call->items[1] : NULL;
	const RxFunc *prim = NULL;
	for (uint32_t i = 0; f && f->kind == RX_EXPR_GLOBAL && i < L->m->nfuncs; i++)
		if (L->m->funcs[i]->kind == RX_FUNC_PRIM &&
		    strcmp(L->m->funcs[i]->name, f->name) == 0)
			prim = L->m->funcs[i];
	if (!prim || !args || args->kind != RX_EXPR_TUPLE || args->nitems != 1 ||
	    !prim_is_copy(prim->text))
		return lower_error(
			L, call->pos,
			"%s has no kernel: cannot run (devplan runs a call_tir only of a "
			"prim_func that copies its one input)",
			call->name);
	strbuf_puts(sb, "copy(");
	if (!operand(L, args->items[0], device, sb))
		return false;
	strbuf_putc(sb, ')');
	return true;
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

/* Operators that lower to a Relay operator of their first n operands
 * with the listed keyword attributes copied as they are. */
typedef struct AttrOp {
	const char *relax, *relay;
	uint32_t n;
	const char *attrs[7];
} AttrOp;

static const AttrOp attr_ops[] = {
	{"R.permute_dims", "transpose", 1, {"axes"}},
	{"R.concat", "concatenate", 1, {"axis"}},
	{"R.split", "split", 1, {"indices_or_sections", "axis"}},
	{"R.mean", "mean", 1, {"axis", "keepdims"}},
	{"R.sum", "sum", 1, {"axis", "keepdims"}},
	{"R.max", "max", 1, {"axis", "keepdims"}},
	{"R.min", "min", 1, {"axis", "keepdims"}},
	{"R.nn.softmax", "nn.softmax", 1, {"axis"}},
	{"R.astype", "cast", 1, {"dtype"}},
	{"R.take", "take", 2, {"axis"}},
	{"R.squeeze", "squeeze", 1, {"axis"}},
	{"R.nn.batch_norm", "nn.batch_norm", 5, {"axis", "epsilon", "center", "scale"}},
	{"R.nn.conv2d",
	 "nn.conv2d",
	 2,
	 {"strides", "padding", "dilation", "groups", "data_layout", "kernel_layout"}},
	{"R.strided_slice", "strided_slice", 1, {"begin", "end", "strides", "axes"}},
};

static const AttrOp *attr_op(const RxExpr *call)
{
	for (size_t i = 0; i < sizeof attr_ops / sizeof attr_ops[0]; i++)
		if (is_op(call, attr_ops[i].relax))
			return &attr_ops[i];
	return NULL;
}

/* The head and attributes of an attr_ops operator (without the ')'). */
static bool lower_attr_op(Lower *L, const RxExpr *call, const AttrOp *op, int32_t device,
			  StrBuf *sb)
{
	if (!head(L, call, op->relay, op->n, device, sb))
		return false;
	for (size_t i = 0; i < sizeof op->attrs / sizeof op->attrs[0] && op->attrs[i]; i++)
		if (!copy_attr(L, call, op->attrs[i], sb))
			return false;
	return true;
}

bool lower_call(Lower *L, const RxExpr *call, const RxType *result, int32_t device, StrBuf *sb)
{
	const RxOpInfo *info = relax_op_find(call->name);
	bool ok = true;
	if (call->callee != RX_CALL_OP)
		return lower_error(L, call->pos, "a call of a closure cannot run yet%s", "");
	if (plain_op(call, info)) {
		ok = head(L, call, info->relay, call->nitems, device, sb);
	} else if (extra_op(call)) {
		ok = head(L, call, extra_op(call), call->nitems, device, sb);
	} else if (attr_op(call)) {
		ok = lower_attr_op(L, call, attr_op(call), device, sb);
	} else if (is_op(call, "R.call_tir")) {
		return lower_call_tir(L, call, device, sb);
	} else if (is_op(call, "R.matmul")) {
		return lower_matmul(L, call, result, device, sb);
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
	} else if (is_op(call, "R.expand_dims") || is_op(call, "R.nn.layer_norm")) {
		bool norm = is_op(call, "R.nn.layer_norm");
		const PyExpr *axes = kwarg_py(call, norm ? "axes" : "axis");
		ok = head(L, call, norm ? "nn.layer_norm" : "expand_dims", norm ? 3 : 1, device,
			  sb);
		strbuf_puts(sb, ", axis=");
		if (ok && (!axes || !single_int(axes, sb)))
			return lower_error(L, call->pos,
					   "%s over more than one axis cannot run yet", call->name);
		ok = ok && (!norm ||
			    (copy_attr(L, call, "epsilon", sb) &&
			     copy_attr(L, call, "center", sb) && copy_attr(L, call, "scale", sb)));
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
