/*
 * verify.c - the IR verifier (verify.h).
 *
 * One depth-first walk from the globals, then from the free variables,
 * without recursion (a chain of a million lets is a million frames deep),
 * entering every node once. A node is checked when first met; every edge
 * to a bound variable is checked against the binders on the current path:
 * entering a let, a function or a match puts the variables it binds in scope,
 * leaving it takes them out. A node shared by several parents is walked
 * below its first parent only, so a use of a variable inside a shared node
 * is checked where that node is first met; a direct use is checked at every
 * edge. The walk stops after VERIFY_ERRORS_SHOWN violations: a module that
 * broken has one cause to find, not a hundred.
 */
#include "verify.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { VERIFY_ERRORS_SHOWN = 10 };

typedef struct Verifier {
	const IrModule *m;
	unsigned require; /* VERIFY_* */
	uint32_t ndevices;
	DiagList *diags;
	size_t errors;
	const Expr **by_id; /* the node met with each id; a node is met once */
	uint8_t *bound;     /* by variable id: a binder has bound it */
	uint8_t *in_scope;  /* by variable id: its binder is on the current path */
	uint32_t *scoped;   /* the ids in scope, innermost binder's last */
	size_t nscoped, cap_scoped;
} Verifier;

typedef struct Frame {
	const Expr *e;
	uint32_t next, n;  /* the next child to follow, of n */
	size_t scope_mark; /* nscoped before e bound its variables */
} Frame;

static bool kind_valid(const Expr *e)
{
	return (unsigned)e->kind <= EXPR_KIND_LAST;
}

/* Reports one violation about e (NULL: about the module). */
static void violation(Verifier *v, const Expr *e, const char *fmt, ...) DP_PRINTF(3, 4);
static void violation(Verifier *v, const Expr *e, const char *fmt, ...)
{
	StrBuf sb;
	va_list ap;
	if (v->errors++ >= VERIFY_ERRORS_SHOWN)
		return;
	strbuf_init(&sb);
	if (e && kind_valid(e)) {
		ir_value_name(&sb, e);
		strbuf_printf(&sb, " (id %u): ", e->id);
	} else if (e) {
		strbuf_printf(&sb, "id %u: ", e->id);
	}
	va_start(ap, fmt);
	strbuf_vprintf(&sb, fmt, ap);
	va_end(ap);
	diag_error(v->diags, v->m->src, e ? e->pos : (Pos){0, 0}, "%s", sb.data);
	strbuf_free(&sb);
}

static bool is_var(const Expr *e, VarRole role)
{
	return e && e->kind == EXPR_VAR && e->u.var.role == role;
}

static void check_var(Verifier *v, const Expr *e)
{
	switch (e->u.var.role) {
	case VAR_PARAM:
	case VAR_FREE:
	case VAR_PATTERN:
		return;
	case VAR_LET:
		if (!e->u.var.value)
			violation(v, e, "a let variable without its value");
		return;
	}
	violation(v, e, "a variable of no known role (%d)", (int)e->u.var.role);
}

static void check_call(Verifier *v, const Expr *e)
{
	const OpInfo *info;
	OpKind op = e->u.call.op;
	if (op == OP_NONE)
		return;
	if (op == OP_UNKNOWN) {
		if (!e->u.call.unknown || !e->u.call.unknown->name || !e->u.call.unknown->attrs ||
		    !e->u.call.unknown->type)
			violation(v, e, "a call of an unknown operator without its name or type");
		else if (e->u.call.nattrs)
			violation(v, e, "unknown operator '%s' with parsed attributes",
				  e->u.call.unknown->name);
		return;
	}
	if ((unsigned)op >= OP_COUNT) {
		violation(v, e, "a call of no known operator (%d)", (int)op);
		return;
	}
	info = op_info(op);
	if ((int64_t)e->u.call.nargs < info->min_args || (int64_t)e->u.call.nargs > info->max_args)
		violation(v, e, "'%s' called with %u arguments (it takes %d to %d)", info->name,
			  e->u.call.nargs, info->min_args, info->max_args);
}

/* A pattern's constructors exist with its arity, and its variables are
 * the match's, each once (seen: by index into vars). Recursive, as deep
 * as the parser let patterns nest. */
static void check_pattern(Verifier *v, const Expr *match, const MatchClause *c, const Pattern *pat,
			  uint8_t *seen)
{
	const IrModule *m = v->m;
	switch (pat->kind) {
	case PATTERN_WILDCARD:
		return;
	case PATTERN_VAR:
		if (pat->var < c->first_var || pat->var >= c->first_var + c->nvars ||
		    seen[pat->var]++)
			violation(v, match, "a pattern variable outside its clause's range");
		return;
	case PATTERN_CONSTRUCTOR:
		if (pat->adt >= m->ntypedefs || pat->ctor >= m->typedefs[pat->adt].nctors ||
		    m->typedefs[pat->adt].ctors[pat->ctor].nfields != pat->nsubs) {
			violation(v, match, "a constructor pattern of no known constructor");
			return;
		}
		break;
	case PATTERN_TUPLE:
		break;
	}
	for (uint32_t i = 0; i < pat->nsubs; i++)
		check_pattern(v, match, c, pat->subs[i], seen);
}

static void check_match(Verifier *v, const Expr *e)
{
	uint8_t *seen = xcalloc(e->u.match.nvars + 1, 1);
	uint32_t next = 0;
	for (uint32_t i = 0; i < e->u.match.nvars; i++)
		if (!is_var(e->u.match.vars[i], VAR_PATTERN))
			violation(v, e, "pattern variable %u not a pattern variable", i);
		else if (i && e->u.match.vars[i]->id <= e->u.match.vars[i - 1]->id)
			/* inference finds a variable's clause by halving */
			violation(v, e, "pattern variable %u out of id order", i);
	for (uint32_t k = 0; k < e->u.match.nclauses; k++) {
		const MatchClause *c = &e->u.match.clauses[k];
		if (c->first_var != next || c->nvars > e->u.match.nvars - next) {
			violation(v, e, "clause %u's variables out of order", k);
			break;
		}
		next += c->nvars;
		check_pattern(v, e, c, c->pattern, seen);
	}
	for (uint32_t i = 0; i < e->u.match.nvars; i++)
		if (!seen[i])
			violation(v, e, "pattern variable %u bound by no pattern", i);
	free(seen);
}

/* The checks of one node, when first met (used: reachable from a global).
 * False when its children cannot be walked. */
static bool check_node(Verifier *v, const Expr *e, bool used)
{
	const IrModule *m = v->m;
	if (!kind_valid(e)) {
		violation(v, e, "a node of no known kind (%u)", (unsigned)e->kind);
		return false;
	}
	if (e->id >= m->nexprs) {
		violation(v, e, "an id at or above the module's count (%u)", m->nexprs);
		return false;
	}
	if (v->by_id[e->id]) {
		violation(v, e, "an id another node has too");
		return false;
	}
	v->by_id[e->id] = e;
	if (e->device != IR_NO_DEVICE && (e->device < 0 || (uint32_t)e->device >= v->ndevices))
		violation(v, e, "device %d, which the device table (%u entries) has not",
			  (int)e->device, v->ndevices);
	if (used && (v->require & VERIFY_DEVICES) && e->device == IR_NO_DEVICE)
		violation(v, e, "no device after planning");
	if (used && (v->require & VERIFY_TYPES) && !e->type)
		violation(v, e, "no type after type inference");
	switch (e->kind) {
	case EXPR_VAR:
		check_var(v, e);
		break;
	case EXPR_GLOBAL:
		if (e->u.global.index < 0 || (uint32_t)e->u.global.index >= m->nglobals ||
		    strcmp(m->globals[e->u.global.index].name, e->u.global.name) != 0)
			violation(v, e, "a reference to no global of that name");
		break;
	case EXPR_CONSTANT:
		break;
	case EXPR_CALL:
		check_call(v, e);
		break;
	case EXPR_LET:
		if (!is_var(e->u.let.var, VAR_LET))
			violation(v, e, "a let that binds no let variable");
		else if (e->u.let.var->u.var.value != e->u.let.value)
			violation(v, e, "a let whose variable stands for another value");
		break;
	case EXPR_FN:
		for (uint32_t i = 0; i < e->u.fn.nparams; i++)
			if (!is_var(e->u.fn.params[i], VAR_PARAM))
				violation(v, e, "parameter %u not a parameter variable", i);
		break;
	case EXPR_TUPLE:
	case EXPR_PROJ:
	case EXPR_IF:
		break;
	case EXPR_CONSTRUCT:
		if (e->u.construct.adt >= m->ntypedefs ||
		    e->u.construct.ctor >= m->typedefs[e->u.construct.adt].nctors ||
		    m->typedefs[e->u.construct.adt].ctors[e->u.construct.ctor].nfields !=
			    e->u.construct.nargs)
			violation(v, e, "a construction of no known constructor of that arity");
		break;
	case EXPR_MATCH:
		check_match(v, e);
		break;
	case EXPR_OP_VALUE:
		if (e->u.op_value.op == OP_NONE
			    ? e->u.op_value.adt >= m->ntypedefs ||
				      e->u.op_value.ctor >= m->typedefs[e->u.op_value.adt].nctors
			    : e->u.op_value.op >= OP_COUNT)
			violation(v, e, "a value of no known operator or constructor");
		break;
	}
	return true;
}

static void bind_var(Verifier *v, const Expr *var)
{
	if (!var || var->kind != EXPR_VAR || var->id >= v->m->nexprs)
		return; /* reported at the binder */
	if (v->bound[var->id])
		violation(v, var, "a variable bound by two binders");
	v->bound[var->id] = 1;
	v->in_scope[var->id] = 1;
	grow_array((void **)&v->scoped, &v->cap_scoped, v->nscoped + 1, sizeof(uint32_t));
	v->scoped[v->nscoped++] = var->id;
}

/* Entering e: a let or a function puts the variables it binds in scope. */
static void enter_scope(Verifier *v, const Expr *e)
{
	if (e->kind == EXPR_LET) {
		bind_var(v, e->u.let.var);
	} else if (e->kind == EXPR_FN) {
		for (uint32_t i = 0; i < e->u.fn.nparams; i++)
			bind_var(v, e->u.fn.params[i]);
	} else if (e->kind == EXPR_MATCH) {
		/* every clause's variables, for the whole match: coarser than
		 * the language's scope (one clause), enough to catch a use
		 * outside the match */
		for (uint32_t i = 0; i < e->u.match.nvars; i++)
			bind_var(v, e->u.match.vars[i]);
	}
}

/* Leaving a node: what it bound goes out of scope. The ids come from the
 * scope stack, not from the node: a let's body can be a million nodes
 * deep, and the let is no longer in the cache when it is left. */
static void leave_scope(Verifier *v, size_t mark)
{
	while (v->nscoped > mark)
		v->in_scope[v->scoped[--v->nscoped]] = 0;
}

/* An edge from user to a bound variable must lie inside its binder. */
static void check_use(Verifier *v, const Expr *user, const Expr *child)
{
	if (child->kind != EXPR_VAR || child->u.var.role == VAR_FREE || child->id >= v->m->nexprs ||
	    v->in_scope[child->id])
		return;
	violation(v, child, "used by id %u outside the %s that binds it", user->id,
		  child->u.var.role == VAR_LET       ? "let"
		  : child->u.var.role == VAR_PATTERN ? "match"
						     : "function");
}

/* Walks everything reachable from root that was not met yet. */
static void walk(Verifier *v, const Expr *root, bool used, Frame **stack, size_t *cap)
{
	size_t depth = 0;
	if (root->id < v->m->nexprs && v->by_id[root->id] == root)
		return;
	if (!check_node(v, root, used))
		return;
	grow_array((void **)stack, cap, 1, sizeof(Frame));
	(*stack)[depth++] = (Frame){root, 0, ir_child_count(root), v->nscoped};
	enter_scope(v, root);
	while (depth && v->errors < VERIFY_ERRORS_SHOWN) {
		Frame *top = &(*stack)[depth - 1];
		const Expr *child;
		if (top->next == top->n) {
			leave_scope(v, top->scope_mark);
			depth--;
			continue;
		}
		child = ir_child(top->e, top->next++);
		if (!child) {
			violation(v, top->e, "child %u missing", top->next - 1);
			continue;
		}
		check_use(v, top->e, child);
		if (child->id < v->m->nexprs && v->by_id[child->id] == child)
			continue;
		if (!check_node(v, child, used))
			continue;
		grow_array((void **)stack, cap, depth + 1, sizeof(Frame));
		(*stack)[depth++] = (Frame){child, 0, ir_child_count(child), v->nscoped};
		enter_scope(v, child);
	}
	leave_scope(v, 0); /* after a walk cut short */
}

bool ir_verify(const IrModule *m, unsigned require, uint32_t ndevices, DiagList *diags)
{
	Verifier v = {.m = m, .require = require, .ndevices = ndevices, .diags = diags};
	Frame *stack = NULL;
	size_t cap = 0;
	v.by_id = xcalloc((size_t)m->nexprs + 1, sizeof(Expr *));
	v.bound = xcalloc((size_t)m->nexprs + 1, 1);
	v.in_scope = xcalloc((size_t)m->nexprs + 1, 1);
	if ((require & VERIFY_TYPES) && !m->typed)
		violation(&v, NULL, "the module is not marked typed after type inference");
	for (uint32_t g = 0; g < m->nglobals && v.errors < VERIFY_ERRORS_SHOWN; g++) {
		const Expr *fn = m->globals[g].fn;
		if (!fn || fn->kind != EXPR_FN || !m->globals[g].name)
			violation(&v, fn, "global %u is not a named function", g);
		else
			walk(&v, fn, true, &stack, &cap);
	}
	for (uint32_t i = 0; i < m->nfree_vars && v.errors < VERIFY_ERRORS_SHOWN; i++) {
		const Expr *var = m->free_vars[i];
		if (!var || !is_var(var, VAR_FREE))
			violation(&v, var, "free variable %u is not a free variable", i);
		else
			walk(&v, var, false, &stack, &cap);
	}
	free(stack);
	free(v.by_id);
	free(v.bound);
	free(v.in_scope);
	free(v.scoped);
	return v.errors == 0;
}
