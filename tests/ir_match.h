/*
 * ir_match.h - the comparison of two modules in meaning, node by node,
 * that test_roundtrip (parse(print(m)) == m) and test_tvm_parser (TVM's
 * texts loaded, printed and loaded again) share: the same kinds,
 * operators, attribute names and values in order, constants' bytes,
 * written (and, asked for, inferred) types, devices on parameters and
 * functions, source spans, and the same sharing (a node used twice in one
 * module is one node used twice in the other). Names are not compared:
 * the printer names what the source left unnamed.
 *
 * Ownership: same_module allocates nothing the caller keeps; the first
 * difference goes to the caller's buffer.
 */
#ifndef DEVPLAN_TESTS_IR_MATCH_H
#define DEVPLAN_TESTS_IR_MATCH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "print.h"

/* Pairs of nodes found equal so far, to follow sharing: a's id -> b. */
typedef struct Matcher {
	const IrModule *ma, *mb;
	const Expr **b_of; /* by a's id */
	const Expr **a_of; /* by b's id */
	bool types;        /* compare inferred types too */
	const char *where; /* the module, for messages */
	char why[512];     /* the first difference */
} Matcher;

static bool differ(Matcher *mt, const Expr *a, const char *fmt, const char *detail)
{
	snprintf(mt->why, sizeof mt->why, "%s:%u:%u: %s: %s", mt->where, a ? a->pos.line : 0,
		 a ? a->pos.col : 0, fmt, detail ? detail : "");
	return false;
}

static bool same_type(const Type *a, const Type *b)
{
	if (!a || !b)
		return a == b;
	return type_equal(a, b);
}

static bool same_attr_value(const AttrValue *a, const AttrValue *b)
{
	if (a->kind != b->kind || a->suffix != b->suffix)
		return false;
	switch (a->kind) {
	case ATTR_NONE:
		return true;
	case ATTR_INT:
		return a->u.i == b->u.i;
	case ATTR_FLOAT:
		return a->u.f == b->u.f || (a->u.f != a->u.f && b->u.f != b->u.f);
	case ATTR_STRING:
		return strcmp(a->u.s, b->u.s) == 0;
	case ATTR_BOOL:
		return a->u.b == b->u.b;
	case ATTR_LIST:
		if (a->u.list.n != b->u.list.n)
			return false;
		for (uint32_t i = 0; i < a->u.list.n; i++)
			if (!same_attr_value(&a->u.list.items[i], &b->u.list.items[i]))
				return false;
		return true;
	case ATTR_DEVICE:
		return a->u.device == b->u.device;
	case ATTR_CONSTANT:
		return a->u.constant == b->u.constant;
	case ATTR_META:
		return strcmp(a->u.meta.kind, b->u.meta.kind) == 0 &&
		       a->u.meta.index == b->u.meta.index;
	}
	return false;
}

static bool same_attrs(Matcher *mt, const Expr *at, const Attr *a, uint32_t na, const Attr *b,
		       uint32_t nb)
{
	if (na != nb)
		return differ(mt, at, "a different number of attributes", NULL);
	for (uint32_t i = 0; i < na; i++) {
		if (strcmp(a[i].name, b[i].name) != 0)
			return differ(mt, at, "attribute names differ", a[i].name);
		if (!same_attr_value(&a[i].value, &b[i].value))
			return differ(mt, at, "attribute values differ", a[i].name);
	}
	return true;
}

static bool same_expr(Matcher *mt, const Expr *a, const Expr *b);

/* Two patterns of matches a and b: the same shape, constructors (by
 * name) and variable slots, and the same annotations on the variables. */
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

static bool same_list(Matcher *mt, Expr *const *a, Expr *const *b, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (!same_expr(mt, a[i], b[i]))
			return false;
	return true;
}

static bool same_node(Matcher *mt, const Expr *a, const Expr *b)
{
	const char *span_a = ir_span(mt->ma, a), *span_b = ir_span(mt->mb, b);
	if (a->kind != b->kind)
		return differ(mt, a, "different kinds of expression", NULL);
	if ((span_a || span_b) && (!span_a || !span_b || strcmp(span_a, span_b) != 0))
		return differ(mt, a, "a different source span", span_a ? span_a : "none");
	if (mt->types && !same_type(a->type, b->type))
		return differ(mt, a, "different types", a->name);
	switch (a->kind) {
	case EXPR_VAR:
		if (a->u.var.role != b->u.var.role)
			return differ(mt, a, "a variable of another role", a->name);
		if (!same_type(a->u.var.annotation, b->u.var.annotation))
			return differ(mt, a, "a different type annotation", a->name);
		if (a->u.var.role == VAR_PARAM && a->device != b->device)
			return differ(mt, a, "a parameter on another device", a->name);
		/* a free variable is known by its name */
		if (a->u.var.role == VAR_FREE && strcmp(a->name, b->name) != 0)
			return differ(mt, a, "another free variable", a->name);
		return true;
	case EXPR_GLOBAL:
		if (strcmp(a->u.global.name, b->u.global.name) != 0)
			return differ(mt, a, "another global", a->u.global.name);
		return true;
	case EXPR_CONSTANT: {
		const Tensor *x = &a->u.constant.tensor, *y = &b->u.constant.tensor;
		if (x->dtype != y->dtype || x->ndim != y->ndim || x->nbytes != y->nbytes ||
		    (x->ndim && memcmp(x->shape, y->shape, x->ndim * sizeof(int64_t)) != 0) ||
		    (x->nbytes && memcmp(x->data, y->data, x->nbytes) != 0))
			return differ(mt, a, "a different constant", NULL);
		return true;
	}
	case EXPR_CALL:
		if (a->u.call.op != b->u.call.op)
			return differ(mt, a, "a call of another operator", NULL);
		if (a->u.call.nargs != b->u.call.nargs)
			return differ(mt, a, "a different number of arguments", NULL);
		if (!same_attrs(mt, a, a->u.call.attrs, a->u.call.nattrs, b->u.call.attrs,
				b->u.call.nattrs))
			return false;
		if (a->u.call.op == OP_UNKNOWN) {
			/* an operator taken on trust: as written, with its type */
			const UnknownOp *x = a->u.call.unknown, *y = b->u.call.unknown;
			if (strcmp(x->name, y->name) != 0 || strcmp(x->attrs, y->attrs) != 0 ||
			    !same_type(x->type, y->type))
				return differ(mt, a, "another unknown operator", x->name);
		} else if (a->u.call.op == OP_NONE &&
			   !same_expr(mt, a->u.call.callee, b->u.call.callee)) {
			return differ(mt, a, "another callee", NULL);
		}
		return same_list(mt, a->u.call.args, b->u.call.args, a->u.call.nargs);
	case EXPR_LET:
		return same_expr(mt, a->u.let.var, b->u.let.var) &&
		       same_expr(mt, a->u.let.value, b->u.let.value) &&
		       same_expr(mt, a->u.let.body, b->u.let.body);
	case EXPR_FN:
		if (a->u.fn.nparams != b->u.fn.nparams)
			return differ(mt, a, "a different number of parameters", NULL);
		if (a->device != b->device)
			return differ(mt, a, "a function on another device", NULL);
		if (!same_type(a->u.fn.ret_type, b->u.fn.ret_type))
			return differ(mt, a, "a different result type", NULL);
		if (!same_attrs(mt, a, a->u.fn.head->attrs, a->u.fn.head->nattrs,
				b->u.fn.head->attrs, b->u.fn.head->nattrs))
			return false;
		if (a->u.fn.head->ntype_params != b->u.fn.head->ntype_params)
			return differ(mt, a, "a different number of type parameters", NULL);
		for (uint32_t i = 0; i < a->u.fn.head->ntype_params; i++)
			if (strcmp(a->u.fn.head->type_params[i], b->u.fn.head->type_params[i]) != 0)
				return differ(mt, a, "a differently named type parameter", NULL);
		return same_list(mt, a->u.fn.params, b->u.fn.params, a->u.fn.nparams) &&
		       same_expr(mt, a->u.fn.body, b->u.fn.body);
	case EXPR_TUPLE:
		if (a->u.tuple.nfields != b->u.tuple.nfields)
			return differ(mt, a, "a tuple of another size", NULL);
		return same_list(mt, a->u.tuple.fields, b->u.tuple.fields, a->u.tuple.nfields);
	case EXPR_PROJ:
		if (a->u.proj.index != b->u.proj.index)
			return differ(mt, a, "another tuple field", NULL);
		return same_expr(mt, a->u.proj.tuple, b->u.proj.tuple);
	case EXPR_IF:
		return same_expr(mt, a->u.if_.cond, b->u.if_.cond) &&
		       same_expr(mt, a->u.if_.then_branch, b->u.if_.then_branch) &&
		       same_expr(mt, a->u.if_.else_branch, b->u.if_.else_branch);
	case EXPR_CONSTRUCT:
		if (strcmp(a->u.construct.name, b->u.construct.name) != 0 ||
		    strcmp(mt->ma->typedefs[a->u.construct.adt].name,
			   mt->mb->typedefs[b->u.construct.adt].name) != 0)
			return differ(mt, a, "another constructor", a->u.construct.name);
		if (a->u.construct.nargs != b->u.construct.nargs)
			return differ(mt, a, "a different number of fields", NULL);
		return same_list(mt, a->u.construct.args, b->u.construct.args,
				 a->u.construct.nargs);
	case EXPR_MATCH:
		if (a->u.match.complete != b->u.match.complete)
			return differ(mt, a, "match against match?", NULL);
		if (a->u.match.nclauses != b->u.match.nclauses ||
		    a->u.match.nvars != b->u.match.nvars)
			return differ(mt, a, "a match of another size", NULL);
		for (uint32_t k = 0; k < a->u.match.nclauses; k++)
			if (!same_pattern(mt->ma, mt->mb, a->u.match.clauses[k].pattern,
					  b->u.match.clauses[k].pattern))
				return differ(mt, a, "another pattern", NULL);
		return same_expr(mt, a->u.match.scrutinee, b->u.match.scrutinee) &&
		       same_list(mt, a->u.match.vars, b->u.match.vars, a->u.match.nvars) &&
		       same_list(mt, a->u.match.bodies, b->u.match.bodies, a->u.match.nclauses);
	case EXPR_OP_VALUE:
		if (strcmp(a->u.op_value.name, b->u.op_value.name) != 0 ||
		    a->u.op_value.op != b->u.op_value.op)
			return differ(mt, a, "another operator or constructor", a->u.op_value.name);
		return true;
	}
	return differ(mt, a, "an unknown kind of expression", NULL);
}

/* a and b are the same expression: equal nodes, shared alike. An atom
 * other than a variable (a global, an operator, a scalar literal) prints
 * the same at each use, so one node used twice may read back as two. */
static bool same_expr(Matcher *mt, const Expr *a, const Expr *b)
{
	if (print_is_atom(a) && a->kind != EXPR_VAR)
		return same_node(mt, a, b);
	if (mt->b_of[a->id] || mt->a_of[b->id])
		return mt->b_of[a->id] == b && mt->a_of[b->id] == a
			       ? true
			       : differ(mt, a, "shared differently", a->name);
	mt->b_of[a->id] = b;
	mt->a_of[b->id] = a;
	return same_node(mt, a, b);
}

static bool same_module(const IrModule *a, const IrModule *b, bool types, const char *where,
			char *why, size_t why_len)
{
	Matcher mt = {.ma = a, .mb = b, .types = types, .where = where};
	bool ok = a->nglobals == b->nglobals && a->ntypedefs == b->ntypedefs;
	mt.b_of = xcalloc(a->nexprs + 1, sizeof(Expr *));
	mt.a_of = xcalloc(b->nexprs + 1, sizeof(Expr *));
	if (!ok)
		snprintf(mt.why, sizeof mt.why, "%s: a different number of globals or types",
			 where);
	for (uint32_t t = 0; ok && t < a->ntypedefs; t++) {
		const IrTypeDef *x = &a->typedefs[t], *y = &b->typedefs[t];
		ok = strcmp(x->name, y->name) == 0 && x->nparams == y->nparams &&
		     x->nctors == y->nctors;
		for (uint32_t i = 0; ok && i < x->nparams; i++)
			ok = strcmp(x->params[i], y->params[i]) == 0;
		for (uint32_t c = 0; ok && c < x->nctors; c++) {
			ok = strcmp(x->ctors[c].name, y->ctors[c].name) == 0 &&
			     x->ctors[c].nfields == y->ctors[c].nfields;
			for (uint32_t f = 0; ok && f < x->ctors[c].nfields; f++)
				ok = same_type(x->ctors[c].fields[f], y->ctors[c].fields[f]);
		}
		if (!ok)
			snprintf(mt.why, sizeof mt.why, "%s: type %s differs", where, x->name);
	}
	for (uint32_t g = 0; ok && g < a->nglobals; g++) {
		ok = a->globals[g].ntype_params == b->globals[g].ntype_params;
		for (uint32_t i = 0; ok && i < a->globals[g].ntype_params; i++)
			ok = strcmp(a->globals[g].type_params[i], b->globals[g].type_params[i]) ==
			     0;
		if (!ok) {
			snprintf(mt.why, sizeof mt.why, "%s: @%s's type parameters differ", where,
				 a->globals[g].name);
			break;
		}
	}
	for (uint32_t g = 0; ok && g < a->nglobals; g++) {
		ok = strcmp(a->globals[g].name, b->globals[g].name) == 0;
		if (!ok)
			snprintf(mt.why, sizeof mt.why, "%s: global %u is @%s, then @%s", where, g,
				 a->globals[g].name, b->globals[g].name);
		ok = ok && same_expr(&mt, a->globals[g].fn, b->globals[g].fn);
	}
	snprintf(why, why_len, "%s", mt.why);
	free(mt.b_of);
	free(mt.a_of);
	return ok;
}

#endif
