/*
 * infer_adt.c - the type rules of algebraic data types: constructor
 * applications, match, pattern variables, and calls of polymorphic
 * globals (`def @f[A](...)`).
 *
 * Type variables are solved by first-order unification, one way: a
 * written type that mentions the parameters (a constructor's field
 * types, a polymorphic function's parameter types) is matched against
 * the actual argument types, binding each parameter the first time it
 * meets a concrete type and checking every later meeting against that.
 * That is enough for the programs TVM prints, where every value's type
 * is known bottom-up; no constraint flows back into an argument.
 *
 * A constructor without fields takes the type TVM printed after it (a
 * `ty=List[float32]` comment) when there is one. Otherwise a parameter
 * nothing binds (`Nil`, a constructor whose fields do not mention it)
 * becomes a hole: a TYPE_VAR with `hole` set, printed `?`,
 * which type_equal lets equal anything. So `Nil` has type `List[?]` and
 * meets a `List[Tensor[(2), float32]]` annotation, a clause body or a
 * constructor field of any list type. Where the hole meets a written
 * type, the written one wins: a let variable annotated
 * `%l: List[float32] = Nil` has the annotation's type (infer_var), and a
 * match takes the first body type without a hole when there is one.
 */
#include <stdlib.h>
#include <string.h>

#include "infer_ops.h"

/* Solving `written` against `actual` for the n parameters: bound[i]
 * is what parameter i stands for so far (NULL: nothing yet). False when
 * the two cannot be made equal. */
static bool unify(Type *written, const Type *actual, uint32_t n, const char *const *params,
		  Type **bound)
{
	if (!written || !actual)
		return false;
	if (actual->kind == TYPE_VAR && actual->u.var.hole)
		return true;
	if (written->kind == TYPE_VAR && !written->u.var.hole)
		for (uint32_t i = 0; i < n; i++)
			if (strcmp(written->u.var.name, params[i]) == 0) {
				if (bound[i] && !type_equal(bound[i], actual))
					return false;
				/* the first binding, or one that says more
				 * (List[Tensor] after List[?]) */
				if (!bound[i] ||
				    (type_has_hole(bound[i]) && !type_has_hole(actual)))
					bound[i] = (Type *)actual;
				return true;
			}
	if (written->kind != actual->kind)
		return type_equal(written, actual);
	switch (written->kind) {
	case TYPE_TENSOR:
	case TYPE_VAR:
		return type_equal(written, actual);
	case TYPE_TUPLE:
		if (written->u.tuple.nfields != actual->u.tuple.nfields)
			return false;
		for (uint32_t i = 0; i < written->u.tuple.nfields; i++)
			if (!unify(written->u.tuple.fields[i], actual->u.tuple.fields[i], n, params,
				   bound))
				return false;
		return true;
	case TYPE_FUNC:
		if (written->u.func.nparams != actual->u.func.nparams)
			return false;
		for (uint32_t i = 0; i < written->u.func.nparams; i++)
			if (!unify(written->u.func.params[i], actual->u.func.params[i], n, params,
				   bound))
				return false;
		return unify(written->u.func.ret, actual->u.func.ret, n, params, bound);
	case TYPE_CALL:
		if (strcmp(written->u.call.name, actual->u.call.name) != 0 ||
		    written->u.call.nargs != actual->u.call.nargs)
			return false;
		for (uint32_t i = 0; i < written->u.call.nargs; i++)
			if (!unify(written->u.call.args[i], actual->u.call.args[i], n, params,
				   bound))
				return false;
		return true;
	case TYPE_REF:
		return unify(written->u.ref.value, actual->u.ref.value, n, params, bound);
	}
	return false;
}

/* bound with every parameter nothing bound made a hole. */
static void fill_holes(IrModule *m, uint32_t n, Type **bound)
{
	for (uint32_t i = 0; i < n; i++)
		if (!bound[i])
			bound[i] = type_var(ir_data_arena(m), "?", true);
}

/* The type `def` gives the ADT applied to its arguments. */
static Type *adt_type(IrModule *m, const IrTypeDef *def, Type *const *args)
{
	return type_call(ir_data_arena(m), def->name, def->nparams, args, false);
}

Type *infer_construct(IrModule *m, DiagList *diags, Expr *e)
{
	const IrTypeDef *def = &m->typedefs[e->u.construct.adt];
	const IrConstructor *c = &def->ctors[e->u.construct.ctor];
	Type **bound, *result = NULL;
	/* a constructor without fields printed with its type (a bare `Nil`
	 * and a `ty=List[float32]` comment, read by the parser) */
	if (!c->nfields && e->type && e->type->kind == TYPE_CALL &&
	    strcmp(e->type->u.call.name, def->name) == 0 && e->type->u.call.nargs == def->nparams)
		return e->type;
	bound = xcalloc(def->nparams + 1, sizeof(Type *));
	for (uint32_t i = 0; i < e->u.construct.nargs; i++)
		if (!e->u.construct.args[i]->type)
			goto out;
	for (uint32_t i = 0; i < c->nfields; i++) {
		const Expr *arg = e->u.construct.args[i];
		if (!unify(c->fields[i], arg->type, def->nparams, def->params, bound)) {
			Type *want;
			fill_holes(m, def->nparams, bound);
			want = type_substitute(ir_data_arena(m), c->fields[i], def->nparams,
					       def->params, bound);
			/* at the constructor: a variable argument's own
			 * position is where it was bound */
			diag_error(diags, m->src, e->pos,
				   "field %u of constructor '%s' has type %s, expected %s", i + 1,
				   c->name, infer_type_name(m, arg->type),
				   infer_type_name(m, want));
			goto out;
		}
	}
	fill_holes(m, def->nparams, bound);
	result = adt_type(m, def, bound);
out:
	free(bound);
	return result;
}

Type *infer_constructor_value(IrModule *m, const Expr *e)
{
	const IrTypeDef *def = &m->typedefs[e->u.op_value.adt];
	const IrConstructor *c = &def->ctors[e->u.op_value.ctor];
	Arena *a = ir_data_arena(m);
	Type **params = xcalloc(def->nparams + 1, sizeof(Type *)), *t;
	for (uint32_t i = 0; i < def->nparams; i++)
		params[i] = type_var(a, def->params[i], false);
	t = type_func(a, c->nfields, c->fields, adt_type(m, def, params));
	t->u.func.ntype_params = def->nparams;
	t->u.func.type_params = def->params;
	free(params);
	return t;
}

/* The type each variable of pattern `pat` gets when it is matched against
 * a value of type t, into types by the variable's id. False after
 * reporting (when diags is given) a pattern that cannot match t. */
static bool type_pattern(IrModule *m, DiagList *diags, const Expr *match, const Pattern *pat,
			 Type *t, Type **types)
{
	const IrTypeDef *def;
	const IrConstructor *c;
	Expr *var;
	bool ok = true;
	switch (pat->kind) {
	case PATTERN_WILDCARD:
		return true;
	case PATTERN_VAR:
		var = match->u.match.vars[pat->var];
		if (var->u.var.annotation && !type_equal(var->u.var.annotation, t)) {
			if (diags)
				diag_error(diags, m->src, pat->pos,
					   "pattern variable '%%%s' is annotated %s but matches a "
					   "value of type %s",
					   var->name, infer_type_name(m, var->u.var.annotation),
					   infer_type_name(m, t));
			return false;
		}
		types[var->id] = var->u.var.annotation ? var->u.var.annotation : t;
		return true;
	case PATTERN_TUPLE:
		if (t->kind == TYPE_VAR && t->u.var.hole) {
			for (uint32_t i = 0; i < pat->nsubs && ok; i++)
				ok = type_pattern(m, diags, match, pat->subs[i], t, types);
			return ok;
		}
		if (t->kind != TYPE_TUPLE || t->u.tuple.nfields != pat->nsubs) {
			if (diags)
				diag_error(diags, m->src, pat->pos,
					   "a tuple pattern of %u field%s cannot match a value of "
					   "type %s",
					   pat->nsubs, pat->nsubs == 1 ? "" : "s",
					   infer_type_name(m, t));
			return false;
		}
		for (uint32_t i = 0; i < pat->nsubs && ok; i++)
			ok = type_pattern(m, diags, match, pat->subs[i], t->u.tuple.fields[i],
					  types);
		return ok;
	case PATTERN_CONSTRUCTOR:
		break;
	}
	def = &m->typedefs[pat->adt];
	c = &def->ctors[pat->ctor];
	if (t->kind != TYPE_CALL || strcmp(t->u.call.name, def->name) != 0 ||
	    t->u.call.nargs != def->nparams) {
		if (diags)
			diag_error(diags, m->src, pat->pos,
				   "constructor '%s' of type '%s' cannot match a value of type %s",
				   c->name, def->name, infer_type_name(m, t));
		return false;
	}
	for (uint32_t i = 0; i < c->nfields && ok; i++) {
		Type *field = type_substitute(ir_data_arena(m), c->fields[i], def->nparams,
					      def->params, t->u.call.args);
		ok = type_pattern(m, diags, match, pat->subs[i], field, types);
	}
	return ok;
}

/* The clause of match whose pattern binds var, or NULL. The variables
 * are in id order (the verifier checks it), so both searches halve. */
static const MatchClause *clause_of_var(const Expr *match, const Expr *var)
{
	uint32_t lo = 0, hi = match->u.match.nvars, i;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (match->u.match.vars[mid]->id < var->id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == match->u.match.nvars || match->u.match.vars[lo] != var)
		return NULL;
	i = lo;
	lo = 0;
	hi = match->u.match.nclauses;
	while (lo < hi) { /* the last clause starting at or before i */
		uint32_t mid = lo + (hi - lo) / 2;
		if (match->u.match.clauses[mid].first_var <= i)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo > 0) { /* clauses without variables share a start */
		const MatchClause *c = &match->u.match.clauses[--lo];
		if (i >= c->first_var && i < c->first_var + c->nvars)
			return c;
		if (c->first_var + c->nvars <= i)
			break;
	}
	return NULL;
}

Type *infer_pattern_var(IrModule *m, Expr *var, Type **memo)
{
	const Expr *match = var->u.var.value;
	Type *scrutinee = match ? match->u.match.scrutinee->type : NULL;
	const MatchClause *c;
	if (memo[var->id] || !scrutinee)
		return memo[var->id];
	c = clause_of_var(match, var);
	/* the whole clause at once, so a pattern of n variables costs n;
	 * errors are the match's to report, once, when it is typed */
	if (c)
		type_pattern(m, NULL, match, c->pattern, scrutinee, memo);
	return memo[var->id];
}

Type *infer_match(IrModule *m, DiagList *diags, Expr *e, Type **memo, bool speculative)
{
	Type *scrutinee = e->u.match.scrutinee->type, *result = NULL;
	bool ok = scrutinee != NULL;
	for (uint32_t k = 0; k < e->u.match.nclauses && scrutinee; k++)
		ok &= type_pattern(m, diags, e, e->u.match.clauses[k].pattern, scrutinee, memo);
	for (uint32_t k = 0; k < e->u.match.nclauses; k++) {
		Type *b = e->u.match.bodies[k]->type;
		if (!b) {
			ok = speculative ? ok : false;
			continue;
		}
		if (result && !type_equal(result, b)) {
			diag_error(diags, m->src, e->u.match.clauses[k].pos,
				   "match clauses have different types: %s and %s (clause %u)",
				   infer_type_name(m, result), infer_type_name(m, b), k + 1);
			return NULL;
		}
		if (!result || (type_has_hole(result) && !type_has_hole(b)))
			result = b;
	}
	if (ok && !e->u.match.nclauses)
		diag_error(diags, m->src, e->pos, "a match without clauses has no type");
	return ok ? result : NULL;
}

bool infer_instantiate(IrModule *m, uint32_t ntype_params, const char *const *type_params,
		       const Type *ft, Type *const *args, uint32_t nargs, Type **ret,
		       uint32_t *bad_arg, Type **want)
{
	Type **bound = xcalloc(ntype_params + 1, sizeof(Type *));
	bool ok = true;
	*ret = NULL;
	for (uint32_t i = 0; i < nargs && ok; i++)
		if (!unify(ft->u.func.params[i], args[i], ntype_params, type_params, bound)) {
			fill_holes(m, ntype_params, bound);
			*bad_arg = i;
			*want = type_substitute(ir_data_arena(m), ft->u.func.params[i],
						ntype_params, type_params, bound);
			ok = false;
		}
	if (ok) {
		fill_holes(m, ntype_params, bound);
		*ret = type_substitute(ir_data_arena(m), ft->u.func.ret, ntype_params, type_params,
				       bound);
	}
	free(bound);
	return ok;
}
