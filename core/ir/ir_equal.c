/*
 * ir_equal.c - whether two modules are the same program, placed alike
 * (ir_equal.h).
 *
 * One walk per global pair, without recursion: a stack of node pairs,
 * each compared on its own (kind, operator, attributes, sizes) when first
 * popped, then its children pushed in evaluation order, so that the first
 * difference found is the outermost one on the leftmost path. Graph nodes
 * are paired once, in both directions (b_of, a_of): meeting a node again
 * with another partner is a difference of sharing, and a variable is
 * paired where its binder (a function, a let, a match) pairs it, so its
 * uses must agree with that. A pair is listed when its children are done
 * (post-order, the order of evaluation), and the devices TVM reads off
 * each side's text are compared over that list once the structure agrees,
 * so that a wrong device is reported at the first binding it reaches.
 */
#include "ir_equal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lexical.h"
#include "print.h"

typedef struct Pair {
	const Expr *a, *b;
	const Expr *pa, *pb; /* the nodes that read them (NULL for a root) */
	const char *global;  /* the global whose walk met it */
	bool expanded;       /* its children are pushed; popping it again lists it */
} Pair;

typedef struct Matcher {
	const IrModule *ma, *mb;
	const IrEqualOptions *opts;
	const Expr **b_of; /* by a's id: its partner, for graph nodes */
	const Expr **a_of; /* by b's id */
	Pair *stack;
	size_t depth, cap;
	Pair *order; /* pairs in post-order, for the devices */
	size_t norder, cap_order;
	const char *global;
	const Expr *pa, *pb; /* the readers of the pair being compared, or NULL */
	IrDifference *diff;
} Matcher;

/* ---- words ------------------------------------------------------------ */

static void describe(StrBuf *out, const IrModule *m, const Expr *e)
{
	switch (e->kind) {
	case EXPR_VAR:
		strbuf_printf(out, "%s %%%s",
			      e->u.var.role == VAR_PARAM  ? "parameter"
			      : e->u.var.role == VAR_LET  ? "let variable"
			      : e->u.var.role == VAR_FREE ? "free variable"
							  : "pattern variable",
			      e->name ? e->name : "?");
		return;
	case EXPR_GLOBAL:
		strbuf_printf(out, "@%s", e->u.global.name);
		return;
	case EXPR_CONSTANT:
		strbuf_puts(out, "constant ");
		print_expr_inline(out, e);
		return;
	case EXPR_CALL:
		if (e->u.call.op != OP_NONE)
			strbuf_puts(out, ir_call_op_name(e));
		else if (e->u.call.callee->kind == EXPR_GLOBAL)
			strbuf_printf(out, "call of @%s", e->u.call.callee->u.global.name);
		else if (e->u.call.callee->name)
			strbuf_printf(out, "call of %%%s", e->u.call.callee->name);
		else
			strbuf_puts(out, "call of a closure");
		break;
	case EXPR_FN:
		for (uint32_t g = 0; g < m->nglobals; g++)
			if (m->globals[g].fn == e) {
				strbuf_printf(out, "@%s", m->globals[g].name);
				return;
			}
		strbuf_puts(out, "closure");
		break;
	case EXPR_TUPLE:
		strbuf_printf(out, "tuple of %u field%s", e->u.tuple.nfields,
			      e->u.tuple.nfields == 1 ? "" : "s");
		break;
	case EXPR_PROJ:
		strbuf_printf(out, "field %u of a tuple", e->u.proj.index);
		break;
	case EXPR_IF:
		strbuf_puts(out, "if");
		break;
	case EXPR_LET:
		strbuf_printf(out, "let %%%s", e->u.let.var->name ? e->u.let.var->name : "?");
		return;
	case EXPR_CONSTRUCT:
		strbuf_printf(out, "constructor %s", e->u.construct.name);
		break;
	case EXPR_MATCH:
		strbuf_puts(out, e->u.match.complete ? "match" : "match?");
		break;
	case EXPR_OP_VALUE:
		strbuf_printf(out, "%s %s",
			      e->u.op_value.op == OP_NONE ? "constructor" : "operator",
			      e->u.op_value.name);
		return;
	}
	if (e->name)
		strbuf_printf(out, " %%%s", e->name);
}

/* Whether variable v is bound by `parent` (a parameter of that function, the
 * variable of that let, a pattern variable of that match), not read. */
static bool binds(const Expr *parent, const Expr *v)
{
	switch (parent->kind) {
	case EXPR_FN:
		for (uint32_t i = 0; i < parent->u.fn.nparams; i++)
			if (parent->u.fn.params[i] == v)
				return true;
		return false;
	case EXPR_LET:
		return parent->u.let.var == v;
	case EXPR_MATCH:
		for (uint32_t i = 0; i < parent->u.match.nvars; i++)
			if (parent->u.match.vars[i] == v)
				return true;
		return false;
	case EXPR_VAR:
	case EXPR_GLOBAL:
	case EXPR_CONSTANT:
	case EXPR_CALL:
	case EXPR_TUPLE:
	case EXPR_PROJ:
	case EXPR_IF:
	case EXPR_CONSTRUCT:
	case EXPR_OP_VALUE:
		return false;
	}
	return false;
}

/* Where a difference at e is shown: e's position, but a variable read by
 * `reader` at the reader (a variable's own position is its binder's). */
static Pos place_of(const Expr *e, const Expr *reader)
{
	if (e->kind == EXPR_VAR && reader && !binds(reader, e))
		return reader->pos;
	return e->pos;
}

/* Records the difference at a (in A) and b (in B), the words printf-style;
 * false, for `return differ(...)`. */
static bool differ(Matcher *mt, const Expr *a, const Expr *b, const char *fmt, ...) DP_PRINTF(4, 5);
static bool differ(Matcher *mt, const Expr *a, const Expr *b, const char *fmt, ...)
{
	va_list ap;
	IrDifference *d = mt->diff;
	if (!d)
		return false;
	memset(d, 0, sizeof *d);
	d->a = a;
	d->b = b;
	if (a)
		d->pos_a = place_of(a, mt->pa);
	if (b)
		d->pos_b = place_of(b, mt->pb);
	d->global = mt->global;
	va_start(ap, fmt);
	vsnprintf(d->what, sizeof d->what, fmt, ap);
	va_end(ap);
	return false;
}

/* differ() with A's and B's descriptions before the words:
 * "<A> <words-a> against <B> <words-b>" is left to the caller; this is the
 * common "<A> against <B>". */
static bool differ_nodes(Matcher *mt, const Expr *a, const Expr *b, const char *why)
{
	StrBuf x, y;
	bool r;
	strbuf_init(&x);
	strbuf_init(&y);
	describe(&x, mt->ma, a);
	describe(&y, mt->mb, b);
	r = differ(mt, a, b, "%s against %s%s%s", x.data, y.data, why ? ": " : "", why ? why : "");
	strbuf_free(&x);
	strbuf_free(&y);
	return r;
}

/* ---- devices ------------------------------------------------------------ */

static const DeviceTable *table_of(const Matcher *mt, bool side_b)
{
	return side_b ? mt->opts->devices_b : mt->opts->devices_a;
}

static void device_words(StrBuf *out, const DeviceTable *table, int32_t device)
{
	if (device == IR_NO_DEVICE)
		strbuf_puts(out, "no device");
	else if (device == IR_LEXICAL_AMBIGUOUS)
		strbuf_puts(out, "two devices");
	else if (table)
		strbuf_puts(out, devices_name(table, device));
	else
		strbuf_printf(out, "device %d", (int)device);
}

/* A device written on a parameter, as an attribute reads in a message:
 * `virtual_device=cpu:0`, or `no virtual_device`. */
static void written_device_words(StrBuf *out, const DeviceTable *table, int32_t device)
{
	if (device == IR_NO_DEVICE) {
		strbuf_puts(out, "no virtual_device");
		return;
	}
	strbuf_puts(out, "virtual_device=");
	device_words(out, table, device);
}

/* Device index x of A and y of B name the same device. */
static bool same_device(const Matcher *mt, int32_t x, int32_t y)
{
	const DeviceTable *ta = table_of(mt, false), *tb = table_of(mt, true);
	if (x < 0 || y < 0 || !ta || !tb)
		return x == y;
	return strcmp(devices_name(ta, x), devices_name(tb, y)) == 0;
}

/* ---- attributes --------------------------------------------------------- */

void ir_attr_value_compact(StrBuf *out, const AttrValue *v)
{
	switch (v->kind) {
	case ATTR_NONE:
		strbuf_puts(out, "None");
		return;
	case ATTR_INT:
		strbuf_printf(out, "%lld", (long long)v->u.i);
		return;
	case ATTR_FLOAT:
		strbuf_printf(out, "%g", v->u.f);
		return;
	case ATTR_STRING:
		strbuf_puts(out, v->u.s);
		return;
	case ATTR_BOOL:
		strbuf_puts(out, v->u.b ? "True" : "False");
		return;
	case ATTR_LIST:
		strbuf_puts(out, "[");
		for (uint32_t i = 0; i < v->u.list.n; i++) {
			if (i)
				strbuf_puts(out, ",");
			ir_attr_value_compact(out, &v->u.list.items[i]);
		}
		strbuf_puts(out, "]");
		return;
	case ATTR_DEVICE:
		strbuf_printf(out, "device %d", v->u.device);
		return;
	case ATTR_CONSTANT:
		strbuf_printf(out, "meta[relay.Constant][%d]", v->u.constant);
		return;
	case ATTR_META:
		strbuf_printf(out, "meta[%s][%lld]", v->u.meta.kind, (long long)v->u.meta.index);
		return;
	}
}

/* v as a user reads it in a message: compact, but a device by name. */
static void value_words(StrBuf *out, const Matcher *mt, bool side_b, const AttrValue *v)
{
	if (v->kind == ATTR_DEVICE)
		device_words(out, table_of(mt, side_b), v->u.device);
	else if (v->kind == ATTR_STRING)
		strbuf_printf(out, "\"%s\"", v->u.s);
	else
		ir_attr_value_compact(out, v);
}

static bool same_tensor(const Tensor *x, const Tensor *y)
{
	return x->dtype == y->dtype && x->ndim == y->ndim && x->nbytes == y->nbytes &&
	       (!x->ndim || memcmp(x->shape, y->shape, x->ndim * sizeof(int64_t)) == 0) &&
	       (!x->nbytes || memcmp(x->data, y->data, x->nbytes) == 0);
}

static const Tensor *constant_tensor(const IrModule *m, int32_t index)
{
	if (index < 0 || (uint32_t)index >= m->nconstants || !m->constants[index])
		return NULL;
	return &m->constants[index]->u.constant.tensor;
}

static bool same_value(const Matcher *mt, const AttrValue *x, const AttrValue *y)
{
	bool strict = mt->opts->attrs_as_written;
	if (x->kind != y->kind || (strict && x->suffix != y->suffix))
		return false;
	switch (x->kind) {
	case ATTR_NONE:
		return true;
	case ATTR_INT:
		return x->u.i == y->u.i;
	case ATTR_FLOAT:
		return x->u.f == y->u.f || (x->u.f != x->u.f && y->u.f != y->u.f);
	case ATTR_STRING:
		return strcmp(x->u.s, y->u.s) == 0;
	case ATTR_BOOL:
		return x->u.b == y->u.b;
	case ATTR_LIST:
		if (x->u.list.n != y->u.list.n)
			return false;
		for (uint32_t i = 0; i < x->u.list.n; i++)
			if (!same_value(mt, &x->u.list.items[i], &y->u.list.items[i]))
				return false;
		return true;
	case ATTR_DEVICE:
		return same_device(mt, x->u.device, y->u.device);
	case ATTR_CONSTANT: {
		const Tensor *tx = constant_tensor(mt->ma, x->u.constant);
		const Tensor *ty = constant_tensor(mt->mb, y->u.constant);
		if (strict || !tx || !ty)
			return x->u.constant == y->u.constant;
		return same_tensor(tx, ty);
	}
	case ATTR_META:
		return strcmp(x->u.meta.kind, y->u.meta.kind) == 0 &&
		       x->u.meta.index == y->u.meta.index;
	}
	return false;
}

static const Attr *find_attr(const Attr *attrs, uint32_t n, const char *name)
{
	for (uint32_t i = 0; i < n; i++)
		if (strcmp(attrs[i].name, name) == 0)
			return &attrs[i];
	return NULL;
}

/* An attribute written on one side only is the same as not writing it
 * when its value is TVM's default for the operator. */
static bool is_default(OpKind op, const Attr *attr)
{
	size_t len;
	const char *dflt;
	StrBuf sb;
	bool same;
	if (op >= OP_COUNT)
		return false;
	dflt = op_attr_default(op, attr->name, &len);
	if (!dflt)
		return attr->value.kind == ATTR_NONE && op_attr_kind(op, attr->name);
	strbuf_init(&sb);
	ir_attr_value_compact(&sb, &attr->value);
	same = sb.len == len && memcmp(sb.data, dflt, len) == 0;
	strbuf_free(&sb);
	return same;
}

/* One side's attribute in words: `name=value`, or `no name` when x is
 * NULL (not written). */
static void attr_words(StrBuf *out, const Matcher *mt, bool side_b, const char *name, const Attr *x)
{
	if (!x) {
		strbuf_printf(out, "no %s", name);
		return;
	}
	strbuf_printf(out, "%s=", name);
	value_words(out, mt, side_b, &x->value);
}

/* The attribute `x` of A's a (NULL: not written) against `y` of B's b. */
static bool differ_attr(Matcher *mt, const Expr *a, const Expr *b, const char *name, const Attr *x,
			const Attr *y)
{
	StrBuf desc, vx, vy;
	bool r;
	strbuf_init(&desc);
	strbuf_init(&vx);
	strbuf_init(&vy);
	describe(&desc, mt->ma, a);
	attr_words(&vx, mt, false, name, x);
	attr_words(&vy, mt, true, x && y ? y->name : name, y);
	r = differ(mt, a, b, "%s: %s against %s", desc.data, vx.data, vy.data);
	strbuf_free(&desc);
	strbuf_free(&vx);
	strbuf_free(&vy);
	return r;
}

static bool same_attrs(Matcher *mt, const Expr *a, const Expr *b, OpKind op, const Attr *xa,
		       uint32_t na, const Attr *xb, uint32_t nb)
{
	if (mt->opts->attrs_as_written) {
		for (uint32_t i = 0; i < na || i < nb; i++) {
			if (i >= na || i >= nb || strcmp(xa[i].name, xb[i].name) != 0)
				return differ_attr(
					mt, a, b, i < na ? xa[i].name : xb[i].name,
					i < na ? &xa[i] : NULL,
					i < nb && i < na && !strcmp(xa[i].name, xb[i].name) ? &xb[i]
											    : NULL);
			if (!same_value(mt, &xa[i].value, &xb[i].value))
				return differ_attr(mt, a, b, xa[i].name, &xa[i], &xb[i]);
		}
		return true;
	}
	for (uint32_t i = 0; i < na; i++) {
		const Attr *y = find_attr(xb, nb, xa[i].name);
		if (y ? !same_value(mt, &xa[i].value, &y->value) : !is_default(op, &xa[i]))
			return differ_attr(mt, a, b, xa[i].name, &xa[i], y);
	}
	for (uint32_t i = 0; i < nb; i++)
		if (!find_attr(xa, na, xb[i].name) && !is_default(op, &xb[i]))
			return differ_attr(mt, a, b, xb[i].name, NULL, &xb[i]);
	return true;
}

/* ---- types -------------------------------------------------------------- */

static bool same_type(const Type *a, const Type *b)
{
	if (!a || !b)
		return a == b;
	return type_equal(a, b);
}

/* Whether the types written in the text are compared. */
static bool written_types(const Matcher *mt)
{
	return mt->opts->types || mt->opts->annotations;
}

static bool differ_type(Matcher *mt, const Expr *a, const Expr *b, const char *which, const Type *x,
			const Type *y)
{
	StrBuf desc, tx, ty;
	bool r;
	strbuf_init(&desc);
	strbuf_init(&tx);
	strbuf_init(&ty);
	describe(&desc, mt->ma, a);
	if (x)
		type_print(&tx, x);
	else
		strbuf_puts(&tx, "none");
	if (y)
		type_print(&ty, y);
	else
		strbuf_puts(&ty, "none");
	r = differ(mt, a, b, "%s: %s %s against %s", desc.data, which, tx.data, ty.data);
	strbuf_free(&desc);
	strbuf_free(&tx);
	strbuf_free(&ty);
	return r;
}

/* ---- one pair ----------------------------------------------------------- */

/* Two patterns of matches a and b: the same shape, constructors (by name)
 * and variable slots. */
static bool same_pattern(const IrModule *ma, const IrModule *mb, const Pattern *a, const Pattern *b)
{
	if (a->kind != b->kind || a->nsubs != b->nsubs)
		return false;
	switch (a->kind) {
	case PATTERN_WILDCARD:
	case PATTERN_TUPLE:
		break;
	case PATTERN_VAR:
		if (a->var != b->var)
			return false;
		break;
	case PATTERN_CONSTRUCTOR:
		if (strcmp(ir_constructor(ma, a->adt, a->ctor)->name,
			   ir_constructor(mb, b->adt, b->ctor)->name) != 0)
			return false;
		break;
	}
	for (uint32_t i = 0; i < a->nsubs; i++)
		if (!same_pattern(ma, mb, a->subs[i], b->subs[i]))
			return false;
	return true;
}

static bool differ_count(Matcher *mt, const Expr *a, const Expr *b, const char *what, uint32_t x,
			 uint32_t y)
{
	StrBuf desc;
	bool r;
	strbuf_init(&desc);
	describe(&desc, mt->ma, a);
	r = differ(mt, a, b, "%s with %u %s against %u", desc.data, x, what, y);
	strbuf_free(&desc);
	return r;
}

/* What a and b are on their own, children aside. */
static bool same_node(Matcher *mt, const Expr *a, const Expr *b)
{
	if (a->kind != b->kind)
		return differ_nodes(mt, a, b, NULL);
	if (mt->opts->spans) {
		const char *sa = ir_span(mt->ma, a), *sb = ir_span(mt->mb, b);
		if ((sa || sb) && (!sa || !sb || strcmp(sa, sb) != 0))
			return differ(mt, a, b, "source span %s against %s", sa ? sa : "none",
				      sb ? sb : "none");
	}
	if (mt->opts->types && !same_type(a->type, b->type))
		return differ_type(mt, a, b, "type", a->type, b->type);
	switch (a->kind) {
	case EXPR_VAR:
		if (a->u.var.role != b->u.var.role)
			return differ_nodes(mt, a, b, NULL);
		if (a->u.var.role == VAR_FREE && mt->opts->free_var_names &&
		    strcmp(a->name ? a->name : "", b->name ? b->name : "") != 0)
			return differ_nodes(mt, a, b, "free variables of other names");
		if (a->u.var.role == VAR_PARAM && !mt->opts->ignore_devices &&
		    !same_device(mt, a->device, b->device)) {
			StrBuf desc, da, db;
			strbuf_init(&desc);
			strbuf_init(&da);
			strbuf_init(&db);
			describe(&desc, mt->ma, a);
			written_device_words(&da, table_of(mt, false), a->device);
			written_device_words(&db, table_of(mt, true), b->device);
			differ(mt, a, b, "%s: %s against %s", desc.data, da.data, db.data);
			strbuf_free(&desc);
			strbuf_free(&da);
			strbuf_free(&db);
			return false;
		}
		if (written_types(mt) && !same_type(a->u.var.annotation, b->u.var.annotation))
			return differ_type(mt, a, b, "written type", a->u.var.annotation,
					   b->u.var.annotation);
		return true;
	case EXPR_GLOBAL:
		if (strcmp(a->u.global.name, b->u.global.name) != 0)
			return differ_nodes(mt, a, b, NULL);
		return true;
	case EXPR_CONSTANT:
		if (!same_tensor(&a->u.constant.tensor, &b->u.constant.tensor))
			return differ_nodes(mt, a, b, "different values");
		return true;
	case EXPR_CALL:
		if (a->u.call.op != b->u.call.op)
			return differ_nodes(mt, a, b, NULL);
		if (a->u.call.op == OP_UNKNOWN) {
			/* an operator taken on trust: as written, with its type */
			const UnknownOp *x = a->u.call.unknown, *y = b->u.call.unknown;
			if (strcmp(x->name, y->name) != 0)
				return differ_nodes(mt, a, b, NULL);
			if (strcmp(x->attrs, y->attrs) != 0)
				return differ(mt, a, b, "%s: attributes (%s) against (%s)", x->name,
					      x->attrs, y->attrs);
			if (written_types(mt) && !same_type(x->type, y->type))
				return differ_type(mt, a, b, "printed type", x->type, y->type);
		}
		if (a->u.call.nargs != b->u.call.nargs)
			return differ_count(mt, a, b, "arguments", a->u.call.nargs,
					    b->u.call.nargs);
		return same_attrs(mt, a, b, a->u.call.op, a->u.call.attrs, a->u.call.nattrs,
				  b->u.call.attrs, b->u.call.nattrs);
	case EXPR_LET:
		return true;
	case EXPR_FN: {
		const FnHead *x = a->u.fn.head, *y = b->u.fn.head;
		if (a->u.fn.nparams != b->u.fn.nparams)
			return differ_count(mt, a, b, "parameters", a->u.fn.nparams,
					    b->u.fn.nparams);
		if (written_types(mt) && !same_type(a->u.fn.ret_type, b->u.fn.ret_type))
			return differ_type(mt, a, b, "written result type", a->u.fn.ret_type,
					   b->u.fn.ret_type);
		if (!same_attrs(mt, a, b, OP_NONE, x->attrs, x->nattrs, y->attrs, y->nattrs))
			return false;
		if (x->ntype_params != y->ntype_params)
			return differ_count(mt, a, b, "type parameters", x->ntype_params,
					    y->ntype_params);
		return true;
	}
	case EXPR_TUPLE:
		if (a->u.tuple.nfields != b->u.tuple.nfields)
			return differ_nodes(mt, a, b, NULL);
		return true;
	case EXPR_PROJ:
		if (a->u.proj.index != b->u.proj.index)
			return differ_nodes(mt, a, b, NULL);
		return true;
	case EXPR_IF:
		return true;
	case EXPR_CONSTRUCT:
		if (strcmp(a->u.construct.name, b->u.construct.name) != 0 ||
		    strcmp(mt->ma->typedefs[a->u.construct.adt].name,
			   mt->mb->typedefs[b->u.construct.adt].name) != 0)
			return differ_nodes(mt, a, b, NULL);
		if (a->u.construct.nargs != b->u.construct.nargs)
			return differ_count(mt, a, b, "fields", a->u.construct.nargs,
					    b->u.construct.nargs);
		return true;
	case EXPR_MATCH:
		if (a->u.match.complete != b->u.match.complete)
			return differ_nodes(mt, a, b, NULL);
		if (a->u.match.nclauses != b->u.match.nclauses)
			return differ_count(mt, a, b, "clauses", a->u.match.nclauses,
					    b->u.match.nclauses);
		for (uint32_t k = 0; k < a->u.match.nclauses; k++)
			if (a->u.match.clauses[k].nvars != b->u.match.clauses[k].nvars ||
			    !same_pattern(mt->ma, mt->mb, a->u.match.clauses[k].pattern,
					  b->u.match.clauses[k].pattern))
				return differ(mt, a, b, "match: the pattern of clause %u differs",
					      k + 1);
		return true;
	case EXPR_OP_VALUE:
		if (a->u.op_value.op != b->u.op_value.op ||
		    strcmp(a->u.op_value.name, b->u.op_value.name) != 0)
			return differ_nodes(mt, a, b, NULL);
		return true;
	}
	return differ_nodes(mt, a, b, NULL);
}

/* TVM's graph nodes, which are paired once (see ir_equal.h): not constants,
 * projections, references to globals, operators and constructors used as
 * values, the empty tuple or a constructor without fields, which are
 * values. */
static bool is_graph_node(const Expr *e)
{
	switch (e->kind) {
	case EXPR_CONSTANT:
	case EXPR_PROJ:
	case EXPR_GLOBAL:
	case EXPR_OP_VALUE:
		return false;
	case EXPR_TUPLE:
		return e->u.tuple.nfields > 0;
	case EXPR_CONSTRUCT:
		return e->u.construct.nargs > 0;
	case EXPR_VAR:
	case EXPR_CALL:
	case EXPR_LET:
	case EXPR_FN:
	case EXPR_IF:
	case EXPR_MATCH:
		return true;
	}
	return true;
}

static void push(Matcher *mt, const Expr *a, const Expr *b, const Expr *pa, const Expr *pb,
		 bool expanded)
{
	grow_array((void **)&mt->stack, &mt->cap, mt->depth + 1, sizeof(Pair));
	mt->stack[mt->depth++] = (Pair){a, b, pa, pb, mt->global, expanded};
}

/* A node met a second time with another partner than the first time: one
 * value on one side is two on the other. Reported where it is read (p's
 * parents), with the partner it had the first time. */
static bool differ_sharing(Matcher *mt, const Pair *p)
{
	StrBuf reader, x, y, first_words;
	bool r, a_shared = mt->b_of[p->a->id] && mt->b_of[p->a->id] != p->b;
	const Expr *first = a_shared ? mt->b_of[p->a->id] : mt->a_of[p->b->id];
	strbuf_init(&reader);
	strbuf_init(&x);
	strbuf_init(&y);
	strbuf_init(&first_words);
	if (p->pa)
		describe(&reader, mt->ma, p->pa);
	else
		strbuf_puts(&reader, "the function");
	describe(&x, mt->ma, p->a);
	describe(&y, mt->mb, p->b);
	describe(&first_words, a_shared ? mt->mb : mt->ma, first);
	r = differ(mt, p->pa ? p->pa : p->a, p->pb ? p->pb : p->b,
		   "%s reads %s in A and %s in B, which do not correspond: %s's is %s's %s at "
		   "%u:%u (%s)",
		   reader.data, x.data, y.data, a_shared ? "A" : "B", a_shared ? "B" : "A",
		   first_words.data, first->pos.line, first->pos.col,
		   a_shared ? "one value in A, two in B" : "two values in A, one in B");
	strbuf_free(&reader);
	strbuf_free(&x);
	strbuf_free(&y);
	strbuf_free(&first_words);
	return r;
}

/* Walks the pair of roots; false at the first difference of structure. */
static bool walk(Matcher *mt, const Expr *ra, const Expr *rb)
{
	push(mt, ra, rb, NULL, NULL, false);
	while (mt->depth) {
		Pair p = mt->stack[--mt->depth];
		const Expr *a = p.a, *b = p.b;
		uint32_t n;
		mt->pa = p.pa;
		mt->pb = p.pb;
		if (p.expanded) {
			grow_array((void **)&mt->order, &mt->cap_order, mt->norder + 1,
				   sizeof(Pair));
			mt->order[mt->norder++] = p;
			continue;
		}
		if (is_graph_node(a) || is_graph_node(b)) {
			if (mt->b_of[a->id] || mt->a_of[b->id]) {
				if (mt->b_of[a->id] == b && mt->a_of[b->id] == a)
					continue;
				/* two different nodes: that first, else the sharing */
				return same_node(mt, a, b) && differ_sharing(mt, &p);
			}
			mt->b_of[a->id] = b;
			mt->a_of[b->id] = a;
		}
		if (!same_node(mt, a, b))
			return false;
		push(mt, a, b, p.pa, p.pb, true);
		n = ir_child_count(a);
		if (n != ir_child_count(b))
			return differ_nodes(mt, a, b, "a different number of operands");
		for (uint32_t i = n; i-- > 0;) {
			const Expr *ca = ir_child(a, i), *cb = ir_child(b, i);
			if (!ca || !cb) {
				if (ca != cb)
					return differ_nodes(mt, a, b, "an operand missing");
				continue;
			}
			push(mt, ca, cb, a, b, false);
		}
	}
	return true;
}

/* The devices TVM reads off both texts, over the pairs in evaluation
 * order; false at the first that differs. */
static bool same_devices(Matcher *mt, const int16_t *la, const int16_t *lb)
{
	for (size_t i = 0; i < mt->norder; i++) {
		const Expr *a = mt->order[i].a, *b = mt->order[i].b;
		StrBuf desc, da, db;
		if (same_device(mt, la[a->id], lb[b->id]))
			continue;
		mt->pa = mt->pb = NULL;
		mt->global = mt->order[i].global;
		strbuf_init(&desc);
		strbuf_init(&da);
		strbuf_init(&db);
		describe(&desc, mt->ma, a);
		device_words(&da, table_of(mt, false), la[a->id]);
		device_words(&db, table_of(mt, true), lb[b->id]);
		differ(mt, a, b, "%s is on %s against %s, as TVM reads the text", desc.data,
		       da.data, db.data);
		strbuf_free(&desc);
		strbuf_free(&da);
		strbuf_free(&db);
		return false;
	}
	return true;
}

/* ---- modules ------------------------------------------------------------ */

static bool differ_global(Matcher *mt, const IrGlobal *ga, const IrGlobal *gb, const char *fmt,
			  const char *name)
{
	differ(mt, ga ? ga->fn : NULL, gb ? gb->fn : NULL, fmt, name);
	if (mt->diff) {
		mt->diff->pos_a = ga ? ga->pos : (Pos){0, 0};
		mt->diff->pos_b = gb ? gb->pos : (Pos){0, 0};
		mt->diff->global = name;
	}
	return false;
}

static bool same_typedefs(Matcher *mt)
{
	const IrModule *a = mt->ma, *b = mt->mb;
	for (uint32_t t = 0; t < a->ntypedefs || t < b->ntypedefs; t++) {
		const IrTypeDef *x = t < a->ntypedefs ? &a->typedefs[t] : NULL;
		const IrTypeDef *y = t < b->ntypedefs ? &b->typedefs[t] : NULL;
		bool ok = x && y && strcmp(x->name, y->name) == 0 && x->nparams == y->nparams &&
			  x->nctors == y->nctors;
		for (uint32_t i = 0; ok && i < x->nparams; i++)
			ok = strcmp(x->params[i], y->params[i]) == 0;
		for (uint32_t c = 0; ok && c < x->nctors; c++) {
			ok = strcmp(x->ctors[c].name, y->ctors[c].name) == 0 &&
			     x->ctors[c].nfields == y->ctors[c].nfields;
			for (uint32_t f = 0; ok && f < x->ctors[c].nfields; f++)
				ok = same_type(x->ctors[c].fields[f], y->ctors[c].fields[f]);
		}
		if (!ok) {
			differ(mt, NULL, NULL, "type definition %s against %s",
			       x ? x->name : "none", y ? y->name : "none");
			if (mt->diff) {
				mt->diff->pos_a = x ? x->pos : (Pos){0, 0};
				mt->diff->pos_b = y ? y->pos : (Pos){0, 0};
			}
			return false;
		}
	}
	return true;
}

bool ir_equal_modules(const IrModule *a, const IrModule *b, const IrEqualOptions *opts,
		      IrDifference *diff)
{
	IrEqualOptions none = {0};
	Matcher mt = {.ma = a, .mb = b, .opts = opts ? opts : &none, .diff = diff};
	bool ok = same_typedefs(&mt);
	int16_t *la = NULL, *lb = NULL;
	mt.b_of = xcalloc(a->nexprs + 1, sizeof(Expr *));
	mt.a_of = xcalloc(b->nexprs + 1, sizeof(Expr *));
	for (uint32_t g = 0; ok && g < a->nglobals; g++) {
		const IrGlobal *ga = &a->globals[g];
		int32_t k = ir_find_global(b, ga->name);
		const IrGlobal *gb = k >= 0 ? &b->globals[k] : NULL;
		mt.global = ga->name;
		if (!gb) {
			ok = differ_global(&mt, ga, NULL, "@%s is defined in A only", ga->name);
			break;
		}
		ok = ga->ntype_params == gb->ntype_params;
		for (uint32_t i = 0; ok && i < ga->ntype_params; i++)
			ok = strcmp(ga->type_params[i], gb->type_params[i]) == 0;
		if (!ok) {
			differ_global(&mt, ga, gb, "@%s's type parameters differ", ga->name);
			break;
		}
		ok = walk(&mt, ga->fn, gb->fn);
	}
	for (uint32_t g = 0; ok && g < b->nglobals; g++)
		if (ir_find_global(a, b->globals[g].name) < 0) {
			mt.global = b->globals[g].name;
			ok = differ_global(&mt, NULL, &b->globals[g], "@%s is defined in B only",
					   b->globals[g].name);
		}
	if (ok && !mt.opts->ignore_devices) {
		la = ir_lexical_devices(a);
		lb = ir_lexical_devices(b);
		ok = same_devices(&mt, la, lb);
	}
	free(la);
	free(lb);
	free(mt.b_of);
	free(mt.a_of);
	free(mt.stack);
	free(mt.order);
	return ok;
}
