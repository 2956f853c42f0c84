/*
 * infer.c - the `infer` phase's walk: a type for every expression.
 *
 * Like chibicc's add_type, inference is its own pass that fills the `type`
 * field of each node, but it walks a flat post-order list instead of
 * recursing, so a chain of a million bindings costs one loop and no C stack.
 * ir_postorder lists children before parents; for a let the order is value,
 * var, body, so a let variable meets its value already typed. The only
 * exception is a closure that calls itself through its let variable: the
 * variable is listed inside the closure's body, before the closure, so it
 * takes its annotation or the closure's written signature instead, and the
 * let checks the two against each other afterwards. A closure without a
 * written signature (unannotated parameters, no `-> T`) is left untyped,
 * silently, until its first call: the call's argument types seed its
 * parameters and its nodes are inferred again (infer_seed_closure), which
 * stands in for TVM's type variables and unification. The call may reach
 * the closure through what TVM's unifier would carry a type variable
 * through (infer_origins): an `if` that selects it, a let, a tuple field,
 * a parameter it was passed to, the call of a closure that returns it; a
 * function type it meets seeds it too (a typed function's parameter, the
 * other branch of an `if`, a let's annotation). Since that may type what
 * the walk met before, a global whose walk seeded a closure and left a
 * node untyped is walked again (infer_global_range). A match lists its
 * scrutinee first, then each clause's pattern variables before its body,
 * so a pattern variable meets the scrutinee typed and takes its type from
 * the pattern (infer/infer_adt.c); the match checks the patterns once all
 * its clauses are typed. A bitmap of processed nodes tells "not typed yet"
 * from "failed".
 *
 * Globals may call each other. A global whose parameters and result are all
 * written down has its function type before any body is looked at; one
 * without `-> T` must have its body inferred before its callers, so globals
 * are processed in dependency order (Kahn's algorithm over references to
 * such globals) and a reference to one that is still pending, which only a
 * recursion can cause, is an error asking for the declared return type.
 *
 * Errors do not stop the walk: the failing node keeps no type, and any node
 * whose input has no type is skipped silently, so independent mistakes are
 * all reported once each. Op calls are typed by the relations of infer/
 * (one file per operator family). Result types reuse an input's Type
 * pointer whenever they are equal to it, so a long chain of same-shaped ops
 * allocates nothing.
 */
#include "infer.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"

typedef enum InferGlobalState {
	INFER_GLOBAL_PENDING, /* no written signature, body not inferred yet */
	INFER_GLOBAL_TYPED,   /* global_types[i] holds its function type */
	INFER_GLOBAL_FAILED,  /* its signature could not be determined */
} InferGlobalState;

typedef struct InferState {
	IrModule *m;
	DiagList *diags;
	uint8_t *done;            /* bit per node id: processed in this walk */
	Type **global_types;      /* per global, when INFER_GLOBAL_TYPED */
	uint8_t *global_state;    /* InferGlobalState per global */
	uint8_t *recursion_noted; /* per global: the recursion error was given */
	int32_t current_global;   /* whose range is being processed, or -1 */
	Type **arg_types;         /* scratch for op calls */
	size_t arg_cap;
	Type **pattern_types;  /* by id, for infer_pattern_var; NULL until a
				 match is met */
	Type **seed_types;     /* by id: what a call gave an unannotated
				 closure parameter, and the closure's let
				 variable while its body is inferred again
				 (infer_seed_closure); NULL until needed */
	ExprVec deferred;      /* unannotated closure parameters met before
				 any call gave them a type */
	Expr **seed_origin;    /* by id: the untyped closure a call passed an
				 unannotated closure parameter, whose type the
				 parameter takes once it has one; NULL until
				 needed */
	uint8_t *seeded;       /* bit per fn id: seeded (infer_seed_closure);
				 NULL until needed */
	size_t seedings;       /* closures seeded so far: a walk that seeded
				 one may type more when run again */
	ExprVec op_values;     /* operators used as values (EXPR_OP_VALUE),
				  typed by the first call of them */
	uint8_t *op_called;    /* bit per node id: an operator value some
				  call tried (its errors were the call's);
				  NULL until one is */
	uint8_t *closure_seen; /* bit per node id, all clear between uses:
				  infer_closure_pass's listing */
	bool speculative;      /* the silent first pass of infer_seed_closure:
				 an `if` or `match` takes the type of the
				 branches that have one */
} InferState;

static void infer_error(InferState *st, Pos pos, const char *fmt, ...) DP_PRINTF(3, 4);

static void infer_error(InferState *st, Pos pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vadd(st->diags, DIAG_ERROR, st->m->src, pos, fmt, ap);
	va_end(ap);
}

static const char *infer_tname(InferState *st, const Type *t)
{
	return infer_type_name(st->m, t);
}

/* How an expression is named in messages: %x, @f, or KIND@LINE:COL. */
static const char *infer_value_name(InferState *st, const Expr *e)
{
	StrBuf sb;
	const char *out;
	strbuf_init(&sb);
	ir_value_name(&sb, e);
	out = arena_strndup(ir_data_arena(st->m), sb.data ? sb.data : "", sb.len);
	strbuf_free(&sb);
	return out;
}

static bool infer_is_done(const InferState *st, const Expr *e)
{
	return st->done[e->id >> 3] & (1u << (e->id & 7));
}

static void infer_mark_done(InferState *st, const Expr *e)
{
	st->done[e->id >> 3] |= (uint8_t)(1u << (e->id & 7));
}

/* The function type a fn's written annotations determine, or NULL when a
 * parameter annotation or the return type is missing. */
static Type *infer_fn_signature(IrModule *m, const Expr *fn)
{
	Type **params;
	Type *t;
	if (!fn->u.fn.ret_type)
		return NULL;
	for (uint32_t i = 0; i < fn->u.fn.nparams; i++)
		if (!fn->u.fn.params[i]->u.var.annotation)
			return NULL;
	params = xmalloc((fn->u.fn.nparams ? fn->u.fn.nparams : 1) * sizeof(Type *));
	for (uint32_t i = 0; i < fn->u.fn.nparams; i++)
		params[i] = fn->u.fn.params[i]->u.var.annotation;
	t = type_func(ir_data_arena(m), fn->u.fn.nparams, params, fn->u.fn.ret_type);
	t->u.func.ntype_params = fn->u.fn.head->ntype_params;
	t->u.func.type_params = fn->u.fn.head->type_params;
	free(params);
	return t;
}

/* The pattern variables' types by id (infer_pattern_var), made when the
 * walk meets the first match. */
static Type **infer_pattern_memo(InferState *st)
{
	if (!st->pattern_types)
		st->pattern_types = xcalloc(st->m->nexprs + 1, sizeof(Type *));
	return st->pattern_types;
}

/* Is e a parameter of the global being inferred? */
static bool infer_is_global_param(const InferState *st, const Expr *e)
{
	const Expr *fn;
	if (st->current_global < 0)
		return false;
	fn = st->m->globals[st->current_global].fn;
	for (uint32_t i = 0; i < fn->u.fn.nparams; i++)
		if (fn->u.fn.params[i] == e)
			return true;
	return false;
}

static void infer_seed_from_type(InferState *st, Expr *e, const Type *ft);

/* Does polymorphic function type poly have, for some choice of its type
 * parameters, type want (`fn [A](A, List[A]) -> List[A]` of a constructor
 * value, declared `fn (B, List[B]) -> List[B]`)? */
static bool infer_instance_of(InferState *st, const Type *poly, const Type *want)
{
	Type *ret = NULL, *bad_want = NULL;
	uint32_t bad = 0;
	if (!poly || !want || poly->kind != TYPE_FUNC || want->kind != TYPE_FUNC ||
	    !poly->u.func.ntype_params || want->u.func.ntype_params ||
	    poly->u.func.nparams != want->u.func.nparams)
		return false;
	return infer_instantiate(st->m, poly->u.func.ntype_params, poly->u.func.type_params, poly,
				 want->u.func.params, want->u.func.nparams, &ret, &bad,
				 &bad_want) &&
	       type_equal(ret, want->u.func.ret);
}

/* A tensor value whose unknown dims the annotation fixes (`let %x:
 * Tensor[(4, 3), float32] = ...` of a Tensor[(?, 3), float32] value), as
 * Relay unifies Any with a dim: the annotation holds once the run knows
 * the shapes, which typing the module again for them checks (a Relax
 * R.match_cast lowered, core/relax/relax_lower.c). */
static bool infer_refines(const Type *value, const Type *ann)
{
	if (!value || !ann || value->kind != TYPE_TENSOR || ann->kind != TYPE_TENSOR ||
	    value->u.tensor.dtype != ann->u.tensor.dtype ||
	    value->u.tensor.lanes != ann->u.tensor.lanes ||
	    value->u.tensor.ndim != ann->u.tensor.ndim)
		return false;
	for (uint32_t d = 0; d < ann->u.tensor.ndim; d++)
		if (value->u.tensor.dims[d] != DIM_ANY &&
		    value->u.tensor.dims[d] != ann->u.tensor.dims[d])
			return false;
	return true;
}

static Type *infer_var(InferState *st, Expr *e)
{
	Type *ann = e->u.var.annotation;
	Expr *value = e->u.var.value;
	if (st->seed_types && st->seed_types[e->id])
		return st->seed_types[e->id];
	switch (e->u.var.role) {
	case VAR_PARAM:
		if (ann)
			return ann;
		/* a closure a call passed it, once that closure has a type */
		if (st->seed_origin && st->seed_origin[e->id] && st->seed_origin[e->id]->type)
			return st->seed_types[e->id] = st->seed_origin[e->id]->type;
		/* A closure's parameter may take its type from a call
		 * (infer_seed_closure); a global's cannot. */
		if (infer_is_global_param(st, e))
			infer_error(st, e->pos, "parameter '%%%s' has no type annotation",
				    e->name ? e->name : "");
		else
			exprvec_push(&st->deferred, e);
		return NULL;
	case VAR_FREE:
		if (!ann)
			infer_error(st, e->pos, "free variable '%%%s' has no type annotation",
				    e->name ? e->name : "");
		return ann;
	case VAR_PATTERN:
		return infer_pattern_var(st->m, e, infer_pattern_memo(st));
	case VAR_LET:
		break;
	}
	if (value && infer_is_done(st, value)) {
		if (!value->type) {
			/* an untyped closure takes its parameters from the
			 * annotation (the walk's next run types it) */
			infer_seed_from_type(st, value, ann);
			return NULL;
		}
		if (ann && !type_equal(ann, value->type) &&
		    !infer_instance_of(st, value->type, ann) && !infer_refines(value->type, ann)) {
			infer_error(st, e->pos, "'%%%s' is annotated %s but its value has type %s",
				    e->name ? e->name : "", infer_tname(st, ann),
				    infer_tname(st, value->type));
			return NULL;
		}
		/* the annotation, which may say more than a value with a hole
		 * (`let %l: List[float32] = Nil`) */
		return ann ? ann : value->type;
	}
	/* Used inside its own value: a recursive closure. The let compares
	 * this type with the value's once the value is typed. */
	if (ann)
		return ann;
	if (value && value->kind == EXPR_FN) {
		Type *sig = infer_fn_signature(st->m, value);
		if (sig)
			return sig;
		/* No written signature: the call that gives its parameters
		 * types infers it again (infer_seed_closure); the walk's end
		 * reports it if none does. */
		exprvec_push(&st->deferred, e);
		return NULL;
	}
	infer_error(st, e->pos, "'%%%s' is used in its own definition and needs a type annotation",
		    e->name ? e->name : "");
	return NULL;
}

static Type *infer_global_ref(InferState *st, Expr *e)
{
	int32_t g = e->u.global.index;
	if (g < 0 || (uint32_t)g >= st->m->nglobals) {
		infer_error(st, e->pos, "unknown global '@%s'",
			    e->u.global.name ? e->u.global.name : "");
		return NULL;
	}
	switch ((InferGlobalState)st->global_state[g]) {
	case INFER_GLOBAL_TYPED:
		return st->global_types[g];
	case INFER_GLOBAL_FAILED:
		return NULL;
	case INFER_GLOBAL_PENDING:
		break;
	}
	if (!st->recursion_noted[g]) {
		st->recursion_noted[g] = 1;
		infer_error(st, e->pos,
			    "cannot infer the type of recursive '@%s': declare its return type",
			    st->m->globals[g].name);
	}
	return NULL;
}

static Type *infer_op_call(InferState *st, Expr *e)
{
	OpKind op = e->u.call.op;
	const OpInfo *info = op_info(op);
	uint32_t n = e->u.call.nargs;
	OpTypeContext ctx;
	if ((int64_t)n < info->min_args || (int64_t)n > info->max_args) {
		if (info->min_args == info->max_args)
			infer_error(st, e->pos, "'%s' expects %d argument%s, got %u", info->name,
				    info->min_args, info->min_args == 1 ? "" : "s", n);
		else
			infer_error(st, e->pos, "'%s' expects %d to %d arguments, got %u",
				    info->name, info->min_args, info->max_args, n);
		return NULL;
	}
	if (n > st->arg_cap)
		grow_array((void **)&st->arg_types, &st->arg_cap, n, sizeof(Type *));
	for (uint32_t i = 0; i < n; i++) {
		Type *t = e->u.call.args[i]->type;
		if (!t)
			return NULL;
		st->arg_types[i] = t;
	}
	ctx.module = st->m;
	ctx.call = e;
	ctx.arg_types = st->arg_types;
	ctx.diags = st->diags;
	return infer_relation(op)(&ctx);
}

/* A call of a polymorphic global or closure (the ntype_params type
 * parameters named type_params): its type parameters solved from the
 * arguments (infer_instantiate), afresh at each call. */
static Type *infer_polymorphic_call(InferState *st, Expr *e, uint32_t ntype_params,
				    const char *const *type_params, const Type *ft)
{
	uint32_t n = e->u.call.nargs, bad = 0;
	Type **args = xmalloc((n ? n : 1) * sizeof(Type *));
	Type *ret = NULL, *want = NULL;
	for (uint32_t i = 0; i < n; i++)
		args[i] = e->u.call.args[i]->type;
	if (!infer_instantiate(st->m, ntype_params, type_params, ft, args, n, &ret, &bad, &want))
		infer_error(st, e->pos, "argument %u of '%s' has type %s, expected %s", bad + 1,
			    infer_value_name(st, e->u.call.callee), infer_tname(st, args[bad]),
			    infer_tname(st, want));
	free(args);
	return ret;
}

static void infer_range(InferState *st, Expr **items, size_t count);

static bool infer_is_bare_hole(const Type *t)
{
	return t->kind == TYPE_VAR && t->u.var.hole;
}

/* Appends to dst each diagnostic of src that dst does not hold yet (same
 * position and text): a closure inferred again repeats the errors of its
 * body that do not depend on what the call gave it. */
static void infer_merge_diags(DiagList *dst, const DiagList *src)
{
	for (size_t i = 0; i < src->count; i++) {
		const Diag *d = &src->items[i];
		bool seen = false;
		for (size_t k = 0; k < dst->count && !seen; k++)
			seen = dst->items[k].pos.line == d->pos.line &&
			       dst->items[k].pos.col == d->pos.col &&
			       strcmp(dst->items[k].message, d->message) == 0;
		if (!seen)
			diag_add(dst, d->severity, d->src, d->pos, "%s", d->message);
	}
}

/* Infers fn's nodes again with the seed types in force; errors go to
 * st->diags when report is set, and are dropped otherwise. */
static void infer_closure_pass(InferState *st, Expr *fn, bool report)
{
	DiagList scratch, *outer = st->diags;
	bool was_speculative = st->speculative;
	ExprVec sub = {0};
	/* one bitmap for every pass, cleared behind each: a module with many
	 * closures costs each its own nodes only */
	if (!st->closure_seen)
		st->closure_seen = xcalloc((size_t)st->m->nexprs / 8 + 1, 1);
	ir_postorder(st->m, fn, true, st->closure_seen, &sub);
	for (size_t i = 0; i < sub.count; i++) {
		uint32_t id = sub.items[i]->id;
		st->closure_seen[id >> 3] &= (uint8_t) ~(1u << (id & 7));
		if (st->pattern_types && sub.items[i]->kind == EXPR_VAR)
			st->pattern_types[id] = NULL;
	}
	diag_init(&scratch);
	st->diags = &scratch;
	st->speculative = !report;
	infer_range(st, sub.items, sub.count);
	st->speculative = was_speculative;
	st->diags = outer;
	if (report)
		infer_merge_diags(outer, &scratch);
	diag_free(&scratch);
	exprvec_free(&sub);
}

/* The closures e may evaluate to, as far as its syntax shows: a `fn`, a
 * let variable bound to one (in *vars beside it; NULL for a `fn` met
 * directly), the branches of an `if`, the clauses of a `match`, a let's
 * body, what on_device or device_copy wraps, a field of a tuple written
 * out, what a closure's call returns (its body's closures), and the
 * closure a call passed an unannotated parameter (seed_origin). Each
 * `fn` is listed once. This is where TVM's unifier would carry a type
 * variable: the places a closure flows to before something says what its
 * parameters are. The search is bounded (depth and *steps), since let
 * variables make the syntax a graph. */
enum { INFER_ORIGIN_DEPTH = 64, INFER_ORIGIN_STEPS = 4096 };

static void infer_add_origin(ExprVec *fns, ExprVec *vars, Expr *fn, Expr *var)
{
	for (size_t i = 0; i < fns->count; i++)
		if (fns->items[i] == fn)
			return;
	exprvec_push(fns, fn);
	exprvec_push(vars, var);
}

static void infer_origins_walk(InferState *st, Expr *e, ExprVec *fns, ExprVec *vars, unsigned depth,
			       unsigned *steps)
{
	if (!e || depth > INFER_ORIGIN_DEPTH || !*steps)
		return;
	--*steps;
	switch (e->kind) {
	case EXPR_FN:
		infer_add_origin(fns, vars, e, NULL);
		return;
	case EXPR_VAR:
		if (e->u.var.role == VAR_LET && e->u.var.value && e->u.var.value->kind == EXPR_FN)
			infer_add_origin(fns, vars, e->u.var.value, e);
		else if (e->u.var.role == VAR_LET)
			infer_origins_walk(st, e->u.var.value, fns, vars, depth + 1, steps);
		else if (e->u.var.role == VAR_PARAM && st->seed_origin && st->seed_origin[e->id])
			infer_origins_walk(st, st->seed_origin[e->id], fns, vars, depth + 1, steps);
		return;
	case EXPR_IF:
		infer_origins_walk(st, e->u.if_.then_branch, fns, vars, depth + 1, steps);
		infer_origins_walk(st, e->u.if_.else_branch, fns, vars, depth + 1, steps);
		return;
	case EXPR_LET:
		infer_origins_walk(st, e->u.let.body, fns, vars, depth + 1, steps);
		return;
	case EXPR_MATCH:
		for (uint32_t k = 0; k < e->u.match.nclauses; k++)
			infer_origins_walk(st, e->u.match.bodies[k], fns, vars, depth + 1, steps);
		return;
	case EXPR_PROJ: {
		Expr *t = e->u.proj.tuple;
		for (unsigned k = 0; k < INFER_ORIGIN_DEPTH && t->kind == EXPR_VAR &&
				     t->u.var.role == VAR_LET && t->u.var.value;
		     k++)
			t = t->u.var.value;
		if (t->kind == EXPR_TUPLE && e->u.proj.index < t->u.tuple.nfields)
			infer_origins_walk(st, t->u.tuple.fields[e->u.proj.index], fns, vars,
					   depth + 1, steps);
		return;
	}
	case EXPR_CALL:
		if ((e->u.call.op == OP_ON_DEVICE || e->u.call.op == OP_DEVICE_COPY) &&
		    e->u.call.nargs)
			infer_origins_walk(st, e->u.call.args[0], fns, vars, depth + 1, steps);
		if (e->u.call.op == OP_NONE && e->u.call.callee) {
			ExprVec callee_fns = {0}, callee_vars = {0};
			infer_origins_walk(st, e->u.call.callee, &callee_fns, &callee_vars,
					   depth + 1, steps);
			for (size_t i = 0; i < callee_fns.count; i++)
				infer_origins_walk(st, callee_fns.items[i]->u.fn.body, fns, vars,
						   depth + 1, steps);
			exprvec_free(&callee_fns);
			exprvec_free(&callee_vars);
		}
		return;
	case EXPR_GLOBAL:
	case EXPR_CONSTANT:
	case EXPR_OP_VALUE:
	case EXPR_TUPLE:
	case EXPR_CONSTRUCT:
		return;
	}
}

static void infer_origins(InferState *st, Expr *e, ExprVec *fns, ExprVec *vars)
{
	unsigned steps = INFER_ORIGIN_STEPS;
	infer_origins_walk(st, e, fns, vars, 0, &steps);
}

static bool infer_is_seeded(const InferState *st, const Expr *fn)
{
	return st->seeded && (st->seeded[fn->id >> 3] & (1u << (fn->id & 7)));
}

/* Marks fn seeded, making the seed arrays on first use. */
static void infer_mark_seeded(InferState *st, const Expr *fn)
{
	if (!st->seed_types)
		st->seed_types = xcalloc(st->m->nexprs + 1, sizeof(Type *));
	if (!st->seeded)
		st->seeded = xcalloc((size_t)st->m->nexprs / 8 + 1, 1);
	st->seeded[fn->id >> 3] |= (uint8_t)(1u << (fn->id & 7));
	st->seedings++;
}

/*
 * A closure without a written signature, called: TVM gives each
 * unannotated parameter and the missing result a fresh type variable and
 * solves them by unification. Here what the closure is called with stands
 * for the parameters (types[i], or, for an argument that is itself an
 * untyped closure, args[i], whose type the parameter takes once it has
 * one: seed_origin; an annotated parameter keeps its annotation, which
 * the call is then checked against), and the result is found by
 * inferring the body twice: once silently with the let variable `var`
 * (NULL for a closure met without one) typed `fn (params) -> ?`, so that
 * a recursive call is a hole the other branch of an `if` or `match`
 * fills, and once more, reporting, with the signature that found. A
 * closure with a parameter still untyped is inferred once, reporting;
 * the walk that seeded it runs again (infer_global_range). The closure's
 * nodes are typed by the last pass; its type is fn->type, NULL when it
 * failed. Each closure is seeded once, by the first call (or type, see
 * infer_seed_from_type) that reaches it.
 */
static void infer_seed_closure(InferState *st, Expr *fn, Expr *var, Expr *const *args,
			       Type *const *types)
{
	Arena *arena = ir_data_arena(st->m);
	uint32_t n = fn->u.fn.nparams;
	Type **params, *ret = fn->u.fn.ret_type, *seeded;
	bool complete = true;
	infer_mark_seeded(st, fn);
	params = xmalloc((n ? n : 1) * sizeof(Type *));
	for (uint32_t i = 0; i < n; i++) {
		Expr *p = fn->u.fn.params[i];
		params[i] = p->u.var.annotation ? p->u.var.annotation : types[i];
		st->seed_types[p->id] = params[i];
		if (params[i])
			continue;
		complete = false;
		if (args) {
			if (!st->seed_origin)
				st->seed_origin = xcalloc(st->m->nexprs + 1, sizeof(Expr *));
			st->seed_origin[p->id] = args[i];
		}
	}
	if (!complete) {
		infer_closure_pass(st, fn, true);
		free(params);
		return;
	}
	if (!ret)
		ret = type_var(arena, "?", true);
	if (var)
		st->seed_types[var->id] = type_func(arena, n, params, ret);
	infer_closure_pass(st, fn, false);
	if (var && fn->type && !infer_is_bare_hole(fn->type->u.func.ret))
		st->seed_types[var->id] = fn->type;
	seeded = var ? st->seed_types[var->id] : NULL;
	infer_closure_pass(st, fn, true);
	free(params);
	if (!var)
		return;
	/* The signature the second pass found must be the one it assumed: a
	 * result only the recursion determines stays `?`, and one that grows
	 * with each pass (a closure returning itself) has no finite type. */
	if (fn->type && (infer_is_bare_hole(fn->type->u.func.ret) ||
			 strcmp(infer_tname(st, fn->type), infer_tname(st, seeded)) != 0)) {
		fn->type = NULL;
		exprvec_push(&st->deferred, var); /* reported at the walk's end */
	}
	st->seed_types[var->id] = fn->type;
	var->type = fn->type;
}

/* Whether a call (or a type) may seed closure fn, let-bound to var (or
 * NULL): not typed yet for want of a written signature, already walked,
 * and not seeded before. */
static bool infer_closure_unseeded(const InferState *st, const Expr *fn, const Expr *var)
{
	if (fn->type || !infer_is_done(st, fn) || infer_is_seeded(st, fn) ||
	    infer_fn_signature(st->m, fn))
		return false;
	if (st->seed_types && var && st->seed_types[var->id])
		return false;
	for (uint32_t i = 0; i < fn->u.fn.nparams; i++)
		if (st->seed_types && st->seed_types[fn->u.fn.params[i]->id])
			return false;
	return true;
}

/* Seeds every unseeded closure e may be (infer_origins) with the
 * parameter types of function type ft, as a call with arguments of those
 * types would: e is used where ft is wanted (an argument of a typed
 * function, the other branch of an `if`, a let's annotation). */
static void infer_seed_from_type(InferState *st, Expr *e, const Type *ft)
{
	ExprVec fns = {0}, vars = {0};
	if (!ft || ft->kind != TYPE_FUNC || ft->u.func.ntype_params || type_has_hole(ft))
		return;
	infer_origins(st, e, &fns, &vars);
	for (size_t i = 0; i < fns.count; i++)
		if (fns.items[i]->u.fn.nparams == ft->u.func.nparams &&
		    infer_closure_unseeded(st, fns.items[i], vars.items[i]))
			infer_seed_closure(st, fns.items[i], vars.items[i], NULL,
					   ft->u.func.params);
	exprvec_free(&fns);
	exprvec_free(&vars);
}

/* Whether e, untyped, is a closure a call or a type may still seed. */
static bool infer_is_untyped_closure(InferState *st, Expr *e)
{
	ExprVec fns = {0}, vars = {0};
	bool found;
	infer_origins(st, e, &fns, &vars);
	found = fns.count > 0;
	exprvec_free(&fns);
	exprvec_free(&vars);
	return found;
}

/* A call whose callee has no type yet: seeds each closure the callee may
 * be with the call's arguments. Returns the callee's type when seeding
 * gave it one directly (a `fn` called in place or through its let
 * variable, or a parameter a call passed such a closure); otherwise the
 * walk's next run types the callee (infer_global_range). */
static Type *infer_seed_callee(InferState *st, Expr *e)
{
	Expr *callee = e->u.call.callee;
	uint32_t n = e->u.call.nargs;
	ExprVec fns = {0}, vars = {0};
	Type **types = xmalloc((n ? n : 1) * sizeof(Type *));
	Type *ft = NULL;
	for (uint32_t i = 0; i < n; i++)
		types[i] = e->u.call.args[i]->type;
	infer_origins(st, callee, &fns, &vars);
	for (size_t k = 0; k < fns.count; k++) {
		Expr *fn = fns.items[k], *var = vars.items[k];
		if (!infer_closure_unseeded(st, fn, var))
			continue;
		if (fn->u.fn.nparams != n) {
			infer_error(st, e->pos, "'%s' expects %u argument%s, got %u",
				    infer_value_name(st, callee), fn->u.fn.nparams,
				    fn->u.fn.nparams == 1 ? "" : "s", n);
			/* nothing more to say about its parameters */
			infer_mark_seeded(st, fn);
			for (uint32_t i = 0; i < fn->u.fn.nparams; i++)
				st->seed_types[fn->u.fn.params[i]->id] =
					type_var(ir_data_arena(st->m), "?", true);
			continue;
		}
		infer_seed_closure(st, fn, var, e->u.call.args, types);
	}
	exprvec_free(&fns);
	exprvec_free(&vars);
	free(types);
	if (callee->kind == EXPR_FN)
		ft = callee->type;
	else if (callee->kind == EXPR_VAR && callee->u.var.role == VAR_LET && callee->u.var.value &&
		 callee->u.var.value->kind == EXPR_FN)
		ft = callee->type ? callee->type : callee->u.var.value->type;
	else if (callee->kind == EXPR_VAR && callee->u.var.role == VAR_PARAM &&
		 !callee->u.var.annotation && st->seed_origin && st->seed_origin[callee->id])
		ft = infer_var(st, callee); /* the origin's type, now it has one */
	if (ft)
		callee->type = ft;
	return ft;
}

/* The operator value (EXPR_OP_VALUE of an operator) a call's callee is,
 * directly or through let variables, or NULL. */
static Expr *infer_called_operator(Expr *callee)
{
	for (int steps = 0; callee && steps < 64; steps++) {
		if (callee->kind == EXPR_OP_VALUE)
			return callee->u.op_value.op != OP_NONE ? callee : NULL;
		if (callee->kind != EXPR_VAR || callee->u.var.role != VAR_LET)
			return NULL;
		callee = callee->u.var.value;
	}
	return NULL;
}

/* A call of operator value opv (`let %f = add; %f(%x, %y)`): typed by the
 * operator's relation, each call afresh, as TVM instantiates an
 * operator's polymorphic type at each call. The first call gives opv, and
 * the let variables between it and the call, the function type it found,
 * as TVM's inference does. */
static Type *infer_operator_value_call(InferState *st, Expr *e, Expr *opv)
{
	Expr as_op = *e; /* the call as the relations read an op call */
	Type *ret, **params;
	if (!st->op_called)
		st->op_called = xcalloc(st->m->nexprs / 8 + 1, 1);
	st->op_called[opv->id >> 3] |= (uint8_t)(1u << (opv->id & 7));
	as_op.u.call.op = opv->u.op_value.op;
	as_op.u.call.unknown = NULL;
	ret = infer_op_call(st, &as_op);
	if (!ret || opv->type)
		return ret;
	params = xmalloc((e->u.call.nargs ? e->u.call.nargs : 1) * sizeof(Type *));
	for (uint32_t i = 0; i < e->u.call.nargs; i++)
		params[i] = e->u.call.args[i]->type;
	opv->type = type_func(ir_data_arena(st->m), e->u.call.nargs, params, ret);
	free(params);
	for (Expr *v = e->u.call.callee; v != opv && !v->type; v = v->u.var.value)
		v->type = opv->type;
	return ret;
}

static Type *infer_fn_call(InferState *st, Expr *e)
{
	Expr *callee = e->u.call.callee;
	Type *ft = callee ? callee->type : NULL;
	uint32_t n = e->u.call.nargs;
	Expr *opv = infer_called_operator(callee);
	bool untyped_closure_arg = false;
	if (opv) {
		for (uint32_t i = 0; i < n; i++)
			if (!e->u.call.args[i]->type)
				return NULL;
		return infer_operator_value_call(st, e, opv);
	}
	for (uint32_t i = 0; i < n; i++)
		if (!e->u.call.args[i]->type) {
			if (!infer_is_untyped_closure(st, e->u.call.args[i]))
				return NULL;
			untyped_closure_arg = true;
		}
	if (!ft && callee)
		ft = infer_seed_callee(st, e);
	if (!ft)
		return NULL;
	if (untyped_closure_arg) {
		/* what the callee wants says what the closure takes; the walk's
		 * next run types the call */
		if (ft->kind == TYPE_FUNC && ft->u.func.nparams == n)
			for (uint32_t i = 0; i < n; i++)
				if (!e->u.call.args[i]->type)
					infer_seed_from_type(st, e->u.call.args[i],
							     ft->u.func.params[i]);
		return NULL;
	}
	if (ft->kind != TYPE_FUNC) {
		infer_error(st, e->pos, "cannot call '%s' of type %s: it is not a function",
			    infer_value_name(st, callee), infer_tname(st, ft));
		return NULL;
	}
	if (ft->u.func.nparams != n) {
		infer_error(st, e->pos, "'%s' expects %u argument%s, got %u",
			    infer_value_name(st, callee), ft->u.func.nparams,
			    ft->u.func.nparams == 1 ? "" : "s", n);
		return NULL;
	}
	if (callee->kind == EXPR_GLOBAL && callee->u.global.index >= 0 &&
	    st->m->globals[callee->u.global.index].ntype_params) {
		const IrGlobal *g = &st->m->globals[callee->u.global.index];
		return infer_polymorphic_call(st, e, g->ntype_params, g->type_params, ft);
	}
	if (ft->u.func.ntype_params)
		return infer_polymorphic_call(st, e, ft->u.func.ntype_params,
					      ft->u.func.type_params, ft);
	for (uint32_t i = 0; i < n; i++) {
		Type *want = ft->u.func.params[i], *got = e->u.call.args[i]->type;
		if (!type_equal(want, got) && !infer_instance_of(st, got, want)) {
			infer_error(st,
				    e->u.call.args[i]->pos.line ? e->u.call.args[i]->pos : e->pos,
				    "argument %u of '%s' has type %s, expected %s", i + 1,
				    infer_value_name(st, callee), infer_tname(st, got),
				    infer_tname(st, want));
			return NULL;
		}
	}
	return ft->u.func.ret;
}

static Type *infer_fn(InferState *st, Expr *e)
{
	Expr *body = e->u.fn.body;
	Type *ret = e->u.fn.ret_type;
	Type **params;
	Type *t;
	bool params_typed = true;
	for (uint32_t i = 0; i < e->u.fn.nparams; i++)
		if (!e->u.fn.params[i]->type)
			params_typed = false;
	if (ret && body->type && !type_equal(ret, body->type) &&
	    !infer_instance_of(st, body->type, ret)) {
		bool is_global =
			st->current_global >= 0 && st->m->globals[st->current_global].fn == e;
		infer_error(st, e->pos, "'%s%s' is declared to return %s but its body has type %s",
			    is_global ? "@" : "",
			    is_global ? st->m->globals[st->current_global].name
				      : infer_value_name(st, e),
			    infer_tname(st, ret), infer_tname(st, body->type));
	}
	/* A written signature stands even when the body fails, so that callers
	 * are still checked against it. */
	if (!ret)
		ret = body->type;
	if (!params_typed || !ret)
		return NULL;
	params = xmalloc((e->u.fn.nparams ? e->u.fn.nparams : 1) * sizeof(Type *));
	for (uint32_t i = 0; i < e->u.fn.nparams; i++)
		params[i] = e->u.fn.params[i]->type;
	t = type_func(ir_data_arena(st->m), e->u.fn.nparams, params, ret);
	t->u.func.ntype_params = e->u.fn.head->ntype_params;
	t->u.func.type_params = e->u.fn.head->type_params;
	free(params);
	return t;
}

static Type *infer_proj(InferState *st, Expr *e)
{
	Type *tt = e->u.proj.tuple->type;
	if (!tt)
		return NULL;
	if (tt->kind == TYPE_VAR && tt->u.var.hole)
		return tt; /* a field of a result not known yet */
	if (tt->kind != TYPE_TUPLE) {
		infer_error(st, e->pos, "cannot take field %u of %s: it is not a tuple",
			    e->u.proj.index, infer_tname(st, tt));
		return NULL;
	}
	if (e->u.proj.index >= tt->u.tuple.nfields) {
		infer_error(st, e->pos, "tuple index %u is out of range for %s (%u field%s)",
			    e->u.proj.index, infer_tname(st, tt), tt->u.tuple.nfields,
			    tt->u.tuple.nfields == 1 ? "" : "s");
		return NULL;
	}
	return tt->u.tuple.fields[e->u.proj.index];
}

static Type *infer_tuple(InferState *st, Expr *e)
{
	Type **fields;
	Type *t;
	uint32_t n = e->u.tuple.nfields;
	for (uint32_t i = 0; i < n; i++)
		if (!e->u.tuple.fields[i]->type)
			return NULL;
	fields = xmalloc((n ? n : 1) * sizeof(Type *));
	for (uint32_t i = 0; i < n; i++)
		fields[i] = e->u.tuple.fields[i]->type;
	t = type_tuple(ir_data_arena(st->m), n, fields);
	free(fields);
	return t;
}

static Type *infer_if(InferState *st, Expr *e)
{
	Type *c = e->u.if_.cond->type;
	Type *a = e->u.if_.then_branch->type, *b = e->u.if_.else_branch->type;
	bool ok = true;
	if (c &&
	    !(c->kind == TYPE_TENSOR && c->u.tensor.ndim == 0 && c->u.tensor.dtype == DT_BOOL)) {
		infer_error(st, e->u.if_.cond->pos.line ? e->u.if_.cond->pos : e->pos,
			    "if condition must be bool, got %s", infer_tname(st, c));
		ok = false;
	}
	/* a closure in one branch takes its parameters from the other's
	 * type (the walk's next run types the if) */
	if (a && !b)
		infer_seed_from_type(st, e->u.if_.else_branch, a);
	else if (b && !a)
		infer_seed_from_type(st, e->u.if_.then_branch, b);
	if (a && b && !type_equal(a, b)) {
		infer_error(st, e->pos, "if branches have different types: %s and %s",
			    infer_tname(st, a), infer_tname(st, b));
		ok = false;
	}
	if (st->speculative && ok && c && (a || b))
		return !a ? b : !b ? a : type_has_hole(a) && !type_has_hole(b) ? b : a;
	if (!ok || !c || !a || !b)
		return NULL;
	/* a recursive call still typed `?` (infer_seed_closure) takes the
	 * other branch's type */
	return type_has_hole(a) && !type_has_hole(b) ? b : a;
}

static Type *infer_let(InferState *st, Expr *e)
{
	Expr *var = e->u.let.var, *value = e->u.let.value;
	/* Only a recursive closure can get here with the variable typed from
	 * its annotation or signature before its value was inferred. */
	if (var->type && value->type && !type_equal(var->type, value->type) &&
	    !infer_instance_of(st, value->type, var->type) &&
	    !infer_refines(value->type, var->type)) {
		infer_error(st, var->pos, "'%%%s' is annotated %s but its value has type %s",
			    var->name ? var->name : "", infer_tname(st, var->type),
			    infer_tname(st, value->type));
		return NULL;
	}
	if (!var->type)
		return NULL;
	return e->u.let.body->type;
}

/* The type e's text writes for it: a variable's annotation, a function's
 * result, the type printed after a call or a constructor; or NULL. */
static const Type *infer_written_type(const Expr *e)
{
	switch (e->kind) {
	case EXPR_VAR:
		return e->u.var.annotation;
	case EXPR_FN:
		return e->u.fn.ret_type;
	case EXPR_CALL:
		if (e->u.call.op == OP_UNKNOWN)
			return e->u.call.unknown->type;
		return e->u.call.op < OP_COUNT && op_type_is_printed(e->u.call.op) ? e->type : NULL;
	case EXPR_CONSTRUCT:
		return e->type;
	case EXPR_GLOBAL:
	case EXPR_CONSTANT:
	case EXPR_OP_VALUE:
	case EXPR_LET:
	case EXPR_TUPLE:
	case EXPR_PROJ:
	case EXPR_IF:
	case EXPR_MATCH:
		break;
	}
	return NULL;
}

static Type *infer_node(InferState *st, Expr *e)
{
	const Type *written = infer_written_type(e);
	if (written && type_has_lanes(written)) {
		/* TVM's vector dtypes (int8x4) are read and printed, but
		 * no relation of devplan's knows them */
		infer_error(st, e->pos, "devplan does not type vector dtypes yet: %s",
			    infer_tname(st, written));
		return NULL;
	}
	switch (e->kind) {
	case EXPR_VAR:
		return infer_var(st, e);
	case EXPR_GLOBAL:
		return infer_global_ref(st, e);
	case EXPR_CONSTANT:
		if (e->type)
			return e->type;
		return type_tensor(ir_data_arena(st->m), e->u.constant.tensor.dtype,
				   e->u.constant.tensor.ndim, e->u.constant.tensor.shape);
	case EXPR_CALL:
		if (e->u.call.op == OP_UNKNOWN)
			return e->u.call.unknown->type; /* as printed: taken on trust */
		if (e->u.call.op != OP_NONE)
			return infer_op_call(st, e);
		return infer_fn_call(st, e);
	case EXPR_LET:
		return infer_let(st, e);
	case EXPR_FN:
		return infer_fn(st, e);
	case EXPR_TUPLE:
		return infer_tuple(st, e);
	case EXPR_PROJ:
		return infer_proj(st, e);
	case EXPR_IF:
		return infer_if(st, e);
	case EXPR_CONSTRUCT:
		return infer_construct(st->m, st->diags, e);
	case EXPR_MATCH:
		return infer_match(st->m, st->diags, e, infer_pattern_memo(st), st->speculative);
	case EXPR_OP_VALUE:
		if (e->u.op_value.op == OP_NONE)
			return infer_constructor_value(st->m, e);
		/* typed by the first call of it (infer_operator_value_call);
		 * one that none types is reported at the end */
		exprvec_push(&st->op_values, e);
		return NULL;
	}
	return NULL;
}

/* Types items in order. Ctrl-C is polled (interrupt_poll): an interrupted
 * walk stops, and the phase (infer_phase) discards the module. */
static void infer_range(InferState *st, Expr **items, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		if (interrupt_poll(i))
			return;
		Expr *e = items[i];
		e->type = infer_node(st, e);
		infer_mark_done(st, e);
	}
}

/* How many nodes of items are still without a type. */
static size_t infer_range_untyped(Expr *const *items, size_t count)
{
	size_t n = 0;
	for (size_t i = 0; i < count; i++)
		n += !items[i]->type;
	return n;
}

/*
 * Types one global's nodes (items). A closure seeded during the walk
 * (infer_seed_closure) may type what the walk met before it: an `if`
 * that selects it, a parameter a call passed it (which takes that
 * closure's type once its binding is typed, later in the walk), the call
 * of a closure that returns it. So while a walk seeds a closure or types
 * more nodes than the one before, and leaves a node untyped, the global
 * is walked again with the seeds in force, as TVM's solver goes on while
 * a type variable gets bound; each closure is seeded once and the
 * untyped nodes only decrease, so this ends. The first walk reports as
 * it goes; a later one adds only the errors not reported yet.
 */
static void infer_global_range(InferState *st, Expr **items, size_t count)
{
	size_t before = st->seedings, untyped = count + 1, now;
	infer_range(st, items, count);
	if (st->seedings == before)
		return; /* nothing seeded: a second walk would type nothing more */
	while ((now = infer_range_untyped(items, count)) &&
	       (st->seedings != before || now < untyped) && !interrupt_pending()) {
		DiagList scratch, *outer = st->diags;
		before = st->seedings;
		untyped = now;
		for (size_t i = 0; i < count; i++) {
			uint32_t id = items[i]->id;
			st->done[id >> 3] &= (uint8_t) ~(1u << (id & 7));
			if (st->pattern_types && items[i]->kind == EXPR_VAR)
				st->pattern_types[id] = NULL;
		}
		diag_init(&scratch);
		st->diags = &scratch;
		infer_range(st, items, count);
		st->diags = outer;
		infer_merge_diags(outer, &scratch);
		diag_free(&scratch);
	}
}

/*
 * The order in which globals are inferred: a global comes after every
 * global it references that has no written signature (Kahn's algorithm);
 * those caught in a recursion come last, in definition order, and meet
 * the pending-reference error. deps[g] lists g's distinct such callees.
 */
static void infer_global_order(const InferState *st, uint32_t *const *deps, const uint32_t *ndeps,
			       uint32_t *order)
{
	uint32_t n = st->m->nglobals, head = 0, tail = 0;
	uint32_t *indeg = xcalloc(n ? n : 1, sizeof(uint32_t));
	uint32_t *rev_start = xcalloc((size_t)n + 1, sizeof(uint32_t));
	uint32_t *rev, *fill;
	uint8_t *placed = xcalloc(n ? n : 1, 1);
	size_t nedges = 0;
	for (uint32_t g = 0; g < n; g++) {
		indeg[g] = ndeps[g];
		nedges += ndeps[g];
		for (uint32_t k = 0; k < ndeps[g]; k++)
			rev_start[deps[g][k] + 1]++;
	}
	for (uint32_t g = 0; g < n; g++)
		rev_start[g + 1] += rev_start[g];
	rev = xmalloc((nedges ? nedges : 1) * sizeof(uint32_t));
	fill = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
	memcpy(fill, rev_start, ((size_t)n + 1) * sizeof(uint32_t));
	for (uint32_t g = 0; g < n; g++)
		for (uint32_t k = 0; k < ndeps[g]; k++)
			rev[fill[deps[g][k]]++] = g;
	for (uint32_t g = 0; g < n; g++)
		if (indeg[g] == 0) {
			order[tail++] = g;
			placed[g] = 1;
		}
	while (head < tail) {
		uint32_t h = order[head++];
		for (uint32_t k = rev_start[h]; k < rev_start[h + 1]; k++) {
			uint32_t g = rev[k];
			if (--indeg[g] == 0) {
				order[tail++] = g;
				placed[g] = 1;
			}
		}
	}
	for (uint32_t g = 0; g < n; g++)
		if (!placed[g])
			order[tail++] = g;
	DP_ASSERT(tail == n);
	free(indeg);
	free(rev_start);
	free(rev);
	free(fill);
	free(placed);
}

/* Lists every node of the module: free variables and constants first, then
 * each global in `global_order`, recording where each global's nodes start
 * (starts has nglobals + 1 entries). */
static void infer_list_nodes(InferState *st, const uint32_t *global_order, uint8_t *seen,
			     ExprVec *out, size_t *starts)
{
	IrModule *m = st->m;
	for (uint32_t i = 0; i < m->nfree_vars; i++)
		ir_postorder(m, m->free_vars[i], true, seen, out);
	for (uint32_t i = 0; i < m->nconstants; i++)
		if (m->constants[i])
			ir_postorder(m, m->constants[i], true, seen, out);
	for (uint32_t k = 0; k < m->nglobals; k++) {
		starts[k] = out->count;
		ir_postorder(m, m->globals[global_order[k]].fn, true, seen, out);
	}
	starts[m->nglobals] = out->count;
}

/* The per-global segments of a listing made by ir_module_clone_ordered,
 * which lists like infer_list_nodes in definition order: free variables
 * and constants (one node each), then each global up to its fn node. False
 * when the listing does not have that shape. */
static bool infer_starts_of_listing(const IrModule *m, const ExprVec *nodes, size_t *starts)
{
	size_t prefix = m->nfree_vars;
	uint32_t k = 0;
	for (uint32_t i = 0; i < m->nconstants; i++)
		prefix += m->constants[i] != NULL;
	if (prefix > nodes->count)
		return false;
	starts[0] = prefix;
	for (size_t i = prefix; i < nodes->count && k < m->nglobals; i++)
		if (nodes->items[i] == m->globals[k].fn)
			starts[++k] = i + 1;
	return k == m->nglobals && starts[k] == nodes->count;
}

/* The closure parameters and recursive let variables no call gave a
 * type, and the operator values no call typed, each once. */
static void infer_report_deferred(InferState *st)
{
	uint8_t *reported;
	for (size_t i = 0; i < st->op_values.count; i++) {
		const Expr *e = st->op_values.items[i];
		if (!e->type &&
		    !(st->op_called && (st->op_called[e->id >> 3] & (1u << (e->id & 7)))))
			infer_error(
				st, e->pos,
				"cannot infer the type of operator '%s' used as a value: devplan "
				"types it where it is called, directly or through a let",
				e->u.op_value.name);
	}
	if (!st->deferred.count)
		return;
	reported = xcalloc((size_t)st->m->nexprs / 8 + 1, 1);
	for (size_t i = 0; i < st->deferred.count; i++) {
		Expr *e = st->deferred.items[i];
		const char *name = e->name ? e->name : "";
		if (e->type || (st->seed_types && st->seed_types[e->id]) ||
		    (reported[e->id >> 3] & (1u << (e->id & 7))))
			continue;
		reported[e->id >> 3] |= (uint8_t)(1u << (e->id & 7));
		if (e->u.var.role == VAR_PARAM)
			infer_error(st, e->pos,
				    "cannot infer the type of parameter '%%%s': no call of its "
				    "function gives it one; annotate it",
				    name);
		else
			infer_error(st, e->pos,
				    "'%%%s' is used in its own definition and needs a type "
				    "annotation",
				    name);
	}
	free(reported);
}

bool infer_module(IrModule *m, DiagList *diags)
{
	return infer_module_listed(m, NULL, diags);
}

bool infer_module_listed(IrModule *m, ExprVec *listed, DiagList *diags)
{
	InferState st = {0};
	uint32_t n = m->nglobals;
	size_t errors_before = diags->errors;
	size_t bitmap_bytes = (size_t)m->nexprs / 8 + 1;
	uint8_t *seen = xcalloc(bitmap_bytes, 1);
	uint32_t *order = xmalloc((n ? n : 1) * sizeof(uint32_t));
	uint32_t **deps = xcalloc(n ? n : 1, sizeof(uint32_t *));
	uint32_t *ndeps = xcalloc(n ? n : 1, sizeof(uint32_t));
	uint32_t *mark = xcalloc(n ? n : 1, sizeof(uint32_t));
	size_t *starts = xmalloc(((size_t)n + 1) * sizeof(size_t));
	ExprVec nodes = {0};
	bool identity = true;
	size_t prefix;

	st.m = m;
	st.diags = diags;
	st.done = xcalloc(bitmap_bytes, 1);
	st.global_types = xcalloc(n ? n : 1, sizeof(Type *));
	st.global_state = xcalloc(n ? n : 1, 1);
	st.recursion_noted = xcalloc(n ? n : 1, 1);
	st.current_global = -1;

	/* Globals with a written signature are typed up front. */
	for (uint32_t g = 0; g < n; g++) {
		Type *sig = infer_fn_signature(m, m->globals[g].fn);
		st.global_types[g] = sig;
		st.global_state[g] = sig ? INFER_GLOBAL_TYPED : INFER_GLOBAL_PENDING;
		order[g] = g;
	}

	/* List the nodes in definition order and collect, per global, the
	 * pending globals it references. Reserving room for every node up
	 * front spares the list its doubling copies on a big module. */
	if (listed) {
		nodes = *listed;
		*listed = (ExprVec){0};
	}
	if (!listed || !infer_starts_of_listing(m, &nodes, starts)) {
		nodes.count = 0;
		grow_array((void **)&nodes.items, &nodes.cap, m->nexprs ? m->nexprs : 1,
			   sizeof(Expr *));
		infer_list_nodes(&st, order, seen, &nodes, starts);
	}
	for (uint32_t g = 0; g < n; g++) {
		size_t cap = 0;
		for (size_t i = starts[g]; i < starts[g + 1]; i++) {
			Expr *e = nodes.items[i];
			int32_t h = e->kind == EXPR_GLOBAL ? e->u.global.index : -1;
			if (h < 0 || (uint32_t)h >= n ||
			    st.global_state[h] != INFER_GLOBAL_PENDING || mark[h] == g + 1)
				continue;
			mark[h] = g + 1;
			if (ndeps[g] == cap)
				grow_array((void **)&deps[g], &cap, ndeps[g] + 1, sizeof(uint32_t));
			deps[g][ndeps[g]++] = (uint32_t)h;
		}
	}
	infer_global_order(&st, deps, ndeps, order);
	for (uint32_t k = 0; k < n; k++)
		if (order[k] != k)
			identity = false;
	if (!identity) {
		/* Re-list so that a node shared between globals is typed before
		 * whichever global is now inferred first needs it. */
		nodes.count = 0;
		memset(seen, 0, bitmap_bytes);
		infer_list_nodes(&st, order, seen, &nodes, starts);
	}

	prefix = n ? starts[0] : nodes.count;
	infer_range(&st, nodes.items, prefix);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t g = order[k];
		Expr *fn = m->globals[g].fn;
		st.current_global = (int32_t)g;
		infer_global_range(&st, nodes.items + starts[k], starts[k + 1] - starts[k]);
		if (st.global_state[g] == INFER_GLOBAL_PENDING) {
			st.global_types[g] = fn->type;
			st.global_state[g] = fn->type ? INFER_GLOBAL_TYPED : INFER_GLOBAL_FAILED;
		}
	}

	infer_report_deferred(&st);
	m->typed = diags->errors == errors_before;
	exprvec_free(&nodes);
	exprvec_free(&st.deferred);
	exprvec_free(&st.op_values);
	free(st.op_called);
	free(st.seed_types);
	free(st.seed_origin);
	free(st.seeded);
	free(st.closure_seen);
	for (uint32_t g = 0; g < n; g++)
		free(deps[g]);
	free(deps);
	free(ndeps);
	free(mark);
	free(starts);
	free(order);
	free(seen);
	free(st.done);
	free(st.global_types);
	free(st.global_state);
	free(st.recursion_noted);
	free(st.arg_types);
	free(st.pattern_types);
	return m->typed;
}

/* The phase: a clone of the input (or the input itself, when the session
 * lets it go: ctx->consumable) typed by infer_module_listed. The walk stops
 * early on Ctrl-C, and the partly typed module is discarded here. */
IrModule *infer_phase(const IrModule *in, PhaseContext *ctx)
{
	ExprVec listed = {0};
	IrModule *out;
	if (ctx->consumable == in) {
		out = ir_module_retain(in);
		ir_module_list(out, &listed);
		ctx->consumed = true;
	} else {
		out = ir_module_clone_ordered(in, &listed);
	}
	if (!infer_module_listed(out, &listed, ctx->diags)) {
		ir_module_free(out);
		return NULL;
	}
	if (interrupt_pending()) {
		diag_error(ctx->diags, NULL, (Pos){0, 0}, "interrupted during phase 'infer'");
		ir_module_free(out);
		return NULL;
	}
	return out;
}
