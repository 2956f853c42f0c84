/*
 * lexical.c - the devices TVM reads off a module's text (lexical.h).
 *
 * One walk from every global, without recursion, carrying the device of
 * the innermost scope (a function's virtual_device or a fixed on_device's
 * device) down to the children. A node is walked again when a second
 * place reaches it with another scope, so that a disagreement is seen,
 * but never a third time: the walk stays linear. A variable's device is
 * set by its binder before anything below the binder is walked, as TVM's
 * visitor pushes it before visiting the scope.
 */
#include "lexical.h"

#include <stdlib.h>
#include <string.h>

/* The scope of a node inside a Primitive=1 function: TVM tracks nothing. */
#define SCOPE_PRIMITIVE (-3)
/* Not walked yet. */
#define SCOPE_UNSEEN (-4)

typedef struct Item {
	const Expr *e;
	int16_t scope; /* device of the innermost scope, IR_NO_DEVICE, or SCOPE_PRIMITIVE */
} Item;

typedef struct Reader {
	const IrModule *m;
	int16_t *out;   /* by id: the reading so far */
	int16_t *first; /* by id: the scope of the first walk, or SCOPE_UNSEEN */
	uint8_t *again; /* by id: walked a second time */
	int16_t *var;   /* by variable id: what its binder gave it */
	Item *stack;
	size_t depth, cap;
} Reader;

static bool is_fixed_on_device(const Expr *e)
{
	int32_t device;
	bool body, result;
	if (!ir_is_op(e, OP_ON_DEVICE))
		return false;
	ir_on_device_props(e, &device, &body, &result);
	return body && result && device != IR_NO_DEVICE;
}

/* TVM's LexicalOnDeviceMixin::GetVirtualDevice for e in scope. */
static int16_t read_device(const Reader *r, const Expr *e, int16_t scope)
{
	if (scope == SCOPE_PRIMITIVE)
		return IR_NO_DEVICE;
	switch (e->kind) {
	case EXPR_VAR:
		return r->var[e->id];
	case EXPR_GLOBAL:
		if (e->u.global.index >= 0 && (uint32_t)e->u.global.index < r->m->nglobals)
			return r->m->globals[e->u.global.index].fn->device;
		return IR_NO_DEVICE;
	case EXPR_FN:
		return ir_fn_is_primitive(e) ? scope : e->device;
	case EXPR_CALL:
		if (is_fixed_on_device(e)) {
			int32_t device;
			bool body, result;
			ir_on_device_props(e, &device, &body, &result);
			return (int16_t)device;
		}
		return scope;
	case EXPR_CONSTANT:
	case EXPR_OP_VALUE: /* TVM: an operator is read in the scope it is in */
	case EXPR_LET:
	case EXPR_TUPLE:
	case EXPR_PROJ:
	case EXPR_IF:
	case EXPR_CONSTRUCT:
	case EXPR_MATCH:
		return scope;
	}
	return scope;
}

static void push(Reader *r, const Expr *e, int16_t scope)
{
	grow_array((void **)&r->stack, &r->cap, r->depth + 1, sizeof(Item));
	r->stack[r->depth++] = (Item){e, scope};
}

/* The scope child i of e is read in, e being read in `scope`. */
static int16_t child_scope(const Expr *e, uint32_t i, int16_t scope)
{
	if (scope == SCOPE_PRIMITIVE)
		return scope;
	if (e->kind == EXPR_FN) {
		if (i >= e->u.fn.nparams && ir_fn_is_primitive(e))
			return SCOPE_PRIMITIVE;
		return i >= e->u.fn.nparams ? e->device : scope;
	}
	if (is_fixed_on_device(e)) {
		int32_t device;
		bool body, result;
		ir_on_device_props(e, &device, &body, &result);
		return (int16_t)device;
	}
	return scope;
}

/* Walks e in scope, unless that adds nothing (see the top). */
static void visit(Reader *r, const Expr *e, int16_t scope)
{
	int16_t device;
	if (r->first[e->id] == SCOPE_UNSEEN) {
		r->first[e->id] = scope;
	} else if (r->first[e->id] == scope || r->again[e->id]) {
		return;
	} else {
		r->again[e->id] = 1;
	}
	/* binders give their variables a device before the scope is walked */
	if (scope != SCOPE_PRIMITIVE) {
		if (e->kind == EXPR_FN && !ir_fn_is_primitive(e))
			for (uint32_t i = 0; i < e->u.fn.nparams; i++)
				r->var[e->u.fn.params[i]->id] = e->u.fn.params[i]->device;
		if (e->kind == EXPR_LET)
			r->var[e->u.let.var->id] = read_device(r, e->u.let.value, scope);
	}
	device = read_device(r, e, scope);
	if (r->first[e->id] == scope && !r->again[e->id])
		r->out[e->id] = device;
	else if (r->out[e->id] != device)
		r->out[e->id] = IR_LEXICAL_AMBIGUOUS;
	for (uint32_t n = ir_child_count(e), i = n; i-- > 0;) {
		const Expr *c = ir_child(e, i);
		if (c)
			push(r, c, child_scope(e, i, scope));
	}
}

int16_t *ir_lexical_devices(const IrModule *m)
{
	size_t n = m->nexprs ? m->nexprs : 1;
	Reader r = {.m = m};
	r.out = xmalloc(n * sizeof(int16_t));
	r.first = xmalloc(n * sizeof(int16_t));
	r.var = xmalloc(n * sizeof(int16_t));
	r.again = xcalloc(n, 1);
	for (size_t i = 0; i < n; i++) {
		r.out[i] = IR_NO_DEVICE;
		r.first[i] = SCOPE_UNSEEN;
		r.var[i] = IR_NO_DEVICE;
	}
	for (uint32_t g = 0; g < m->nglobals; g++) {
		push(&r, m->globals[g].fn, IR_NO_DEVICE);
		while (r.depth) {
			Item it = r.stack[--r.depth];
			visit(&r, it.e, it.scope);
		}
	}
	free(r.stack);
	free(r.first);
	free(r.again);
	free(r.var);
	return r.out;
}
