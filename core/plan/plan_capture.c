/*
 * plan_capture.c - core's last step: the analysis written into the module
 * in TVM's form.
 *
 * TVM's DeviceCapturer (src/relay/transforms/device_planner.cc, v0.14.0)
 * writes the planned devices so that every later pass can read them back
 * lexically (lexical.h), and this file writes the same module:
 *   - every function carries its result's device as its virtual_device,
 *     every parameter its own;
 *   - the on_device calls of the input have done their job and go, and so
 *     does a device_copy within one device; a device_copy across devices
 *     stays;
 *   - every use of a value is then reconciled, as TVM's VisitChild does,
 *     with the device its consumer expects (X) and the device the text
 *     around it implies (L):
 *       value on another device than X:  device_copy(on_device(v, S), S, X)
 *       X not L:                         on_device(..., X)
 *     where on_device(v, D) is fixed (constrain_result=True) and left out
 *     around a variable, a global or a function, which carry their own
 *     devices. X is the consumer's device for an operand of an operator,
 *     a field, a branch or a body, the parameter's for an argument of a
 *     function, the host for a shape operand; L is the consumer's device,
 *     and nothing for a let's value, which is so always wrapped (TVM keeps
 *     the device of a let-bound value with the value, so that inlining it
 *     keeps it too). A Primitive=1 function is left as it is.
 * devplan departs from TVM in one respect, by policy (SPEC §3.1, [P2]):
 * under copy, replicate and error a value gets one device_copy per
 * destination within a scope (function body, if branch, match clause), and
 * one on_device per device, shared by every use there; under tvm every use
 * gets its own, as in TVM.
 *
 * Names survive. A removed annotation's node (id, name, position) is taken
 * over by the first wrapper built at one of its uses on its own device, so
 * that `%1 = on_device(%0, cpu)` read on a GPU prints as `%1 =
 * device_copy(...)`; when no wrapper takes it over, its name goes to the
 * node its uses now read if that has none (`%1 = on_device(add(...), D)`
 * prints as `%1 = add(...)`), else becomes an alias
 * of it (IrModule.aliases), which placement lists and `%1` still finds.
 */
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "plan.h"

#define SCOPE_NONE UINT32_MAX
#define SCOPE_MANY (UINT32_MAX - 1)

/* The scope each node is evaluated in: a function body (the function's id),
 * an if branch (nexprs + 2 * if id + branch) or a match clause (3 * nexprs
 * + the clause body's id; a module of a billion nodes would not fit in
 * memory, so this stays below SCOPE_MANY). SCOPE_MANY for a node that
 * several scopes share. Iterative; each node is visited at most three
 * times (unset, one scope, many). */
static uint32_t *compute_scopes(const IrModule *m)
{
	typedef struct {
		Expr *e;
		uint32_t scope;
	} Item;
	uint32_t *scope_of = xmalloc((m->nexprs ? m->nexprs : 1) * sizeof(uint32_t));
	Item *stack = NULL;
	size_t depth = 0, cap = 0;
	memset(scope_of, 0xff, (m->nexprs ? m->nexprs : 1) * sizeof(uint32_t));
	for (uint32_t g = 0; g < m->nglobals; g++) {
		grow_array((void **)&stack, &cap, depth + 1, sizeof(Item));
		stack[depth++] = (Item){m->globals[g].fn, m->globals[g].fn->id};
		while (depth) {
			Item it = stack[--depth];
			uint32_t have = scope_of[it.e->id], n = ir_child_count(it.e);
			if (have == it.scope || have == SCOPE_MANY)
				continue;
			scope_of[it.e->id] = have == SCOPE_NONE ? it.scope : SCOPE_MANY;
			grow_array((void **)&stack, &cap, depth + n, sizeof(Item));
			for (uint32_t i = 0; i < n; i++) {
				uint32_t child_scope = scope_of[it.e->id];
				if (child_scope != SCOPE_MANY && it.e->kind == EXPR_FN)
					child_scope = it.e->id;
				else if (child_scope != SCOPE_MANY && it.e->kind == EXPR_IF &&
					 i > 0)
					child_scope = m->nexprs + 2 * it.e->id + (i - 1);
				else if (child_scope != SCOPE_MANY && it.e->kind == EXPR_MATCH &&
					 i > 0)
					child_scope =
						3 * m->nexprs +
						it.e->u.match
							.bodies[ir_match_clause_of_child(it.e, i)]
							->id;
				stack[depth++] = (Item){ir_child(it.e, i), child_scope};
			}
		}
	}
	free(stack);
	return scope_of;
}

typedef enum WrapKind { WRAP_ON_DEVICE, WRAP_COPY } WrapKind;

/* A wrapper made for a value, kept to be shared by its other uses in the
 * same scope: a short list per value, since a value rarely goes to more
 * than one other device. */
typedef struct Made {
	WrapKind kind;
	int32_t src, dst; /* WRAP_ON_DEVICE: dst only */
	uint32_t scope;
	Expr *node;
	struct Made *next;
} Made;

typedef struct Capturer {
	PlanAnalysis *an;
	PhaseContext *ctx;
	IrModule *m;  /* the clone being written */
	uint32_t nin; /* ids below it are the analysed module's */
	bool share;   /* one wrapper per (value, devices) and scope */
	int32_t host;
	uint8_t *primitive; /* by id: inside a Primitive=1 function's body, or NULL */
	uint8_t *lowered;   /* by id: a tuple of call_lowered's arguments, or NULL */
	uint32_t *scope_of; /* compute_scopes, when share */
	/* by input id: a removed annotation's replacement, the node its uses
	 * read instead (NULL: the node itself is kept) */
	Expr **resolved;
	uint8_t *taken; /* by input id: a removed annotation's node was taken over */
	/* by input id: a removed annotation across devices whose uses copy
	 * for themselves (tvm) */
	uint8_t *deferred;
	Expr **alias; /* by input id: the first use's result on its device */
	Made **made;  /* by node id (grown as nodes are made) */
	size_t cap_made;
	Arena scratch; /* the Made lists */
} Capturer;

static int32_t device_of(Capturer *cp, const Expr *e)
{
	int32_t d = e->id < cp->nin ? plan_expr_device(cp->an, e) : e->device;
	return d != IR_NO_DEVICE ? d : cp->ctx->fallback;
}

static bool is_removed(const Capturer *cp, const Expr *e)
{
	return e->id < cp->nin && cp->resolved[e->id] != NULL;
}

/* What a use of e reads once the annotations are gone. */
static Expr *resolve(Capturer *cp, Expr *e)
{
	return is_removed(cp, e) ? cp->resolved[e->id] : e;
}

static void add_event(Capturer *cp, PlanEventKind kind, const Expr *node, const Expr *value,
		      const Expr *site, int32_t device)
{
	PlanEvent ev = {
		.kind = kind,
		.constraint = PLAN_NONE,
		.expr = node->id,
		.device = device,
		.value = value->id,
		.site = site ? site->id : PLAN_NONE,
	};
	plan_trace_add_event(cp->ctx->trace, &ev);
}

static Made *find_made(Capturer *cp, const Expr *value, WrapKind kind, int32_t src, int32_t dst,
		       uint32_t scope)
{
	if (!cp->share || scope == SCOPE_MANY || value->id >= cp->cap_made)
		return NULL;
	for (Made *mk = cp->made[value->id]; mk; mk = mk->next)
		if (mk->kind == kind && mk->src == src && mk->dst == dst && mk->scope == scope)
			return mk;
	return NULL;
}

static void remember(Capturer *cp, const Expr *value, WrapKind kind, int32_t src, int32_t dst,
		     uint32_t scope, Expr *node)
{
	Made *mk;
	if (!cp->share || scope == SCOPE_MANY)
		return;
	if (value->id >= cp->cap_made) {
		size_t old = cp->cap_made;
		grow_array((void **)&cp->made, &cp->cap_made, (size_t)value->id + 1,
			   sizeof(Made *));
		memset(cp->made + old, 0, (cp->cap_made - old) * sizeof(Made *));
	}
	mk = arena_alloc(&cp->scratch, sizeof(Made));
	*mk = (Made){kind, src, dst, scope, node, cp->made[value->id]};
	cp->made[value->id] = mk;
}

/* What one use reads, and the wrappers made for it (innermost first). */
typedef struct UseResult {
	Expr *node;
	Expr *fresh[3];
	size_t nfresh;
} UseResult;

/* TVM's MaybeOnDeviceFixed: v itself for a variable, a global or a
 * function; else a fixed on_device(v, device), shared under share. */
static Expr *on_device_fixed(Capturer *cp, Expr *v, int32_t device, uint32_t scope, UseResult *u)
{
	Made *mk;
	Expr *w;
	if (v->kind == EXPR_VAR || v->kind == EXPR_GLOBAL || v->kind == EXPR_FN)
		return v;
	if ((mk = find_made(cp, v, WRAP_ON_DEVICE, IR_NO_DEVICE, device, scope)))
		return mk->node;
	w = ir_on_device(cp->m, v->pos, v, device);
	ir_set_on_device_fixed(cp->m, w, device);
	w->type = v->type;
	w->device = (int16_t)device;
	remember(cp, v, WRAP_ON_DEVICE, IR_NO_DEVICE, device, scope, w);
	u->fresh[u->nfresh++] = w;
	return w;
}

static Expr *device_copy(Capturer *cp, Expr *v, int32_t src, int32_t dst, uint32_t scope,
			 UseResult *u)
{
	Made *mk;
	Expr *w, *arg;
	if ((mk = find_made(cp, v, WRAP_COPY, src, dst, scope)))
		return mk->node;
	arg = on_device_fixed(cp, v, src, scope, u);
	w = ir_device_copy(cp->m, v->pos, arg, src, dst);
	w->device = (int16_t)dst;
	remember(cp, v, WRAP_COPY, src, dst, scope, w);
	u->fresh[u->nfresh++] = w;
	return w;
}

/* Makes the removed annotation `owner` the node of wrapper w: w's call
 * moves into owner's node, which keeps its id, name and position. */
static Expr *take_over(Capturer *cp, Expr *owner, Expr *w, const Expr *value, uint32_t scope)
{
	const char *name = owner->name;
	bool generated = owner->name_generated;
	uint32_t id = owner->id;
	Pos pos = owner->pos;
	WrapKind kind = ir_is_op(w, OP_DEVICE_COPY) ? WRAP_COPY : WRAP_ON_DEVICE;
	*owner = *w;
	owner->id = id;
	owner->name = name;
	owner->name_generated = generated;
	owner->pos = pos;
	cp->taken[id] = 1;
	if (cp->share && scope != SCOPE_MANY) {
		for (Made *mk = cp->made[value->id]; mk; mk = mk->next)
			if (mk->node == w && mk->kind == kind)
				mk->node = owner;
		/* what was made around w is made around owner */
		if (w->id < cp->cap_made && id < cp->cap_made) {
			cp->made[id] = cp->made[w->id];
			cp->made[w->id] = NULL;
		}
	}
	return owner;
}

/* The removed annotations a use of c reads through, outermost first (at
 * most CHAIN_MAX: deeper nests keep only their outer names). */
enum { CHAIN_MAX = 8 };

static size_t removed_chain(const Capturer *cp, Expr *c, Expr **chain)
{
	size_t n = 0;
	while (is_removed(cp, c) && n < CHAIN_MAX) {
		chain[n++] = c;
		c = c->u.call.args[0];
	}
	return n;
}

/* Gives the removed annotations on a use's path their place in what the
 * use reads now: each new wrapper, innermost first, takes over the
 * innermost annotation above the last one taken whose device it has (so
 * that which use comes first in the text changes no name [P4]); an
 * annotation no wrapper takes remembers, for its alias, the outermost
 * node of the use on its device. */
static void keep_names(Capturer *cp, Expr **chain, size_t nchain, UseResult *u, Expr *value,
		       uint32_t scope)
{
	size_t below = nchain; /* chain[below..] is used up */
	for (size_t k = 0; k < u->nfresh && below > 0; k++) {
		Expr *w = u->fresh[k];
		for (size_t j = below; j-- > 0;) {
			Expr *c = chain[j];
			if (cp->taken[c->id] || device_of(cp, c) != w->device)
				continue;
			u->fresh[k] = take_over(cp, c, w, value, scope);
			if (u->node == w)
				u->node = u->fresh[k];
			/* the wrapper around it reads the node that took it over */
			if (k + 1 < u->nfresh)
				u->fresh[k + 1]->u.call.args[0] = u->fresh[k];
			below = j;
			break;
		}
	}
	for (size_t j = 0; j < nchain; j++) {
		Expr *c = chain[j];
		int32_t own = device_of(cp, c);
		if (cp->taken[c->id] || cp->alias[c->id])
			continue;
		for (Expr *x = u->node;; x = x->u.call.args[0]) {
			if (x->device == own) {
				cp->alias[c->id] = x;
				break;
			}
			if (x == value || x->kind != EXPR_CALL || x->u.call.nargs != 1)
				break;
		}
	}
}

/* One use of child `c` by `site`, expected on `want` in a scope of device
 * `lexical` (IR_NO_DEVICE: none, a let's value): what the use reads now. */
static Expr *capture_use(Capturer *cp, Expr *site, Expr *c, int32_t want, int32_t lexical)
{
	Expr *chain[CHAIN_MAX];
	size_t nchain = removed_chain(cp, c, chain);
	Expr *value = resolve(cp, c);
	int32_t have = device_of(cp, value);
	uint32_t scope = cp->scope_of ? cp->scope_of[site->id] : SCOPE_NONE;
	UseResult u = {.node = value};
	if (have != want)
		u.node = device_copy(cp, value, have, want, scope, &u);
	if (want != lexical)
		u.node = on_device_fixed(cp, u.node, want, scope, &u);
	if (nchain)
		keep_names(cp, chain, nchain, &u, value, scope);
	for (size_t i = 0; i < u.nfresh; i++)
		add_event(cp, ir_is_op(u.fresh[i], OP_DEVICE_COPY) ? EVENT_COPY : EVENT_ANNOTATE,
			  u.fresh[i], value, site, u.fresh[i]->device);
	return u.node;
}

/* The device a parameter of the function that call e's callee is
 * expects its argument i on. */
static int32_t callee_param_device(Capturer *cp, const Expr *callee, uint32_t i)
{
	PlanAnalysis *an = cp->an;
	uint32_t root;
	if (callee->id >= cp->nin || an->expr_domain[callee->id] == PLAN_NONE)
		return cp->ctx->fallback;
	root = plan_domain_find(an, an->expr_domain[callee->id]);
	if (!an->domains[root].nchildren) { /* collapsed: one device for all */
		int32_t d = an->domains[root].device;
		return d != IR_NO_DEVICE ? d : cp->ctx->fallback;
	}
	if (i >= an->domains[root].nchildren)
		return cp->ctx->fallback;
	{
		int32_t d = plan_domain_device(an, an->children[an->domains[root].children + i]);
		return d != IR_NO_DEVICE ? d : cp->ctx->fallback;
	}
}

static void capture_call(Capturer *cp, Expr *e)
{
	int32_t here = e->device;
	uint32_t n = e->u.call.nargs;
	if (e->u.call.op == OP_NONE) {
		Expr *callee = e->u.call.callee;
		for (uint32_t i = 0; i < n; i++)
			e->u.call.args[i] = capture_use(cp, e, e->u.call.args[i],
							callee_param_device(cp, callee, i), here);
		e->u.call.callee = capture_use(cp, e, callee, here, here);
		return;
	}
	if (e->u.call.op == OP_CALL_LOWERED && n == 2 && cp->lowered &&
	    e->u.call.args[1]->kind == EXPR_TUPLE && cp->lowered[e->u.call.args[1]->id]) {
		/* @f(fields), as TVM's GetAnyCall reads it: each field is an
		 * argument of @f */
		Expr *tuple = e->u.call.args[1];
		for (uint32_t i = 0; i < tuple->u.tuple.nfields; i++)
			tuple->u.tuple.fields[i] =
				capture_use(cp, e, tuple->u.tuple.fields[i],
					    callee_param_device(cp, e->u.call.args[0], i), here);
		tuple->device = (int16_t)here;
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		Expr *arg = e->u.call.args[i];
		int32_t want = plan_op_operand_device(e, i, cp->host);
		if (arg->kind == EXPR_GLOBAL)
			continue;         /* call_lowered's callee, vm.invoke_tvm_op's function */
		if (want == IR_NO_DEVICE) /* anywhere: where it is */
			want = device_of(cp, resolve(cp, arg));
		e->u.call.args[i] = capture_use(cp, e, arg, want, here);
	}
}

/* Makes the copy across the boundary an on_device e of the input marks,
 * from `from` to `to`, where e is; e's node becomes it when it can. */
static void copy_at_annotation(Capturer *cp, Expr *e, Expr *inner, int32_t from, int32_t to)
{
	uint32_t scope = cp->scope_of ? cp->scope_of[e->id] : SCOPE_NONE;
	Expr *chain[CHAIN_MAX + 1];
	size_t nchain;
	UseResult u = {.node = inner};
	cp->resolved[e->id] = inner; /* e is an annotation on the way, for now */
	cp->deferred[e->id] = 0;
	chain[0] = e;
	nchain = 1 + removed_chain(cp, e->u.call.args[0], chain + 1);
	u.node = device_copy(cp, inner, from, to, scope, &u);
	keep_names(cp, chain, nchain, &u, inner, scope);
	for (size_t i = 0; i < u.nfresh; i++)
		add_event(cp, ir_is_op(u.fresh[i], OP_DEVICE_COPY) ? EVENT_COPY : EVENT_ANNOTATE,
			  u.fresh[i], inner, e, u.fresh[i]->device);
	/* its uses read the copy: e's own node when it took it over */
	cp->resolved[e->id] = cp->taken[e->id] ? NULL : u.node;
}

/* An on_device of the input goes. Where its body and its result are on
 * different devices (the boundary it marks) the value crosses there: the
 * copy is made here, and e's node becomes it, under share; under tvm each
 * use of it copies for itself (capture_use), as in TVM, unless another
 * annotation reads it (TVM's capture, which looks through one level only,
 * would lose that boundary: the copy is made here then too). */
static void capture_on_device(Capturer *cp, Expr *e)
{
	Expr *arg = e->u.call.args[0];
	Expr *inner;
	int32_t from, to = device_of(cp, e);
	if (is_removed(cp, arg) && cp->deferred[arg->id])
		copy_at_annotation(cp, arg, resolve(cp, arg->u.call.args[0]),
				   device_of(cp, resolve(cp, arg->u.call.args[0])),
				   device_of(cp, arg));
	inner = resolve(cp, arg);
	from = device_of(cp, inner);
	if (from == to) {
		cp->resolved[e->id] = inner;
	} else if (!cp->share) {
		cp->resolved[e->id] = inner;
		cp->deferred[e->id] = 1;
	} else {
		copy_at_annotation(cp, e, inner, from, to);
	}
}

/* Rewrites the uses node e makes (its children already done). */
static void capture_node(Capturer *cp, Expr *e)
{
	int32_t here = e->device;
	if (cp->primitive && e->id < cp->nin && cp->primitive[e->id])
		return; /* TVM leaves a fused kernel as it is */
	switch (e->kind) {
	case EXPR_VAR:
	case EXPR_GLOBAL:
	case EXPR_CONSTANT:
		return;
	case EXPR_CALL:
		if (e->u.call.op == OP_ON_DEVICE) {
			capture_on_device(cp, e);
			return;
		}
		if (e->u.call.op == OP_DEVICE_COPY) {
			/* its sides where they are planned: a side written
			 * without a memory scope may have taken one
			 * (devices_join), and a copy within one device and
			 * scope is none */
			int32_t src, dst, from = device_of(cp, resolve(cp, e->u.call.args[0]));
			int32_t to = device_of(cp, e);
			ir_device_copy_props(e, &src, &dst);
			if (from == to) {
				cp->resolved[e->id] = resolve(cp, e->u.call.args[0]);
				return;
			}
			if (from != src || to != dst)
				ir_set_device_copy(cp->m, e, from, to);
			/* its argument read where it comes from */
			e->u.call.args[0] = capture_use(cp, e, e->u.call.args[0], from, to);
			return;
		}
		capture_call(cp, e);
		return;
	case EXPR_LET:
		e->u.let.value =
			capture_use(cp, e, e->u.let.value, e->u.let.var->device, IR_NO_DEVICE);
		e->u.let.var->u.var.value = e->u.let.value;
		e->u.let.body = capture_use(cp, e, e->u.let.body, here, here);
		return;
	case EXPR_FN:
		if (!ir_fn_is_primitive(e))
			e->u.fn.body = capture_use(cp, e, e->u.fn.body, here, here);
		return;
	case EXPR_TUPLE:
		if (cp->lowered && cp->lowered[e->id])
			return; /* the call_lowered reads its fields */
		for (uint32_t i = 0; i < e->u.tuple.nfields; i++)
			e->u.tuple.fields[i] = capture_use(cp, e, e->u.tuple.fields[i], here, here);
		return;
	case EXPR_PROJ:
		e->u.proj.tuple = capture_use(cp, e, e->u.proj.tuple, here, here);
		return;
	case EXPR_IF:
		e->u.if_.cond = capture_use(cp, e, e->u.if_.cond, here, here);
		e->u.if_.then_branch = capture_use(cp, e, e->u.if_.then_branch, here, here);
		e->u.if_.else_branch = capture_use(cp, e, e->u.if_.else_branch, here, here);
		return;
	case EXPR_CONSTRUCT:
		for (uint32_t i = 0; i < e->u.construct.nargs; i++)
			e->u.construct.args[i] =
				capture_use(cp, e, e->u.construct.args[i], here, here);
		return;
	case EXPR_MATCH:
		e->u.match.scrutinee = capture_use(cp, e, e->u.match.scrutinee, here, here);
		for (uint32_t k = 0; k < e->u.match.nclauses; k++)
			e->u.match.bodies[k] = capture_use(cp, e, e->u.match.bodies[k], here, here);
		return;
	}
}

/* The names of removed annotations no wrapper took over. */
static void collect_aliases(Capturer *cp, const ExprVec *all)
{
	IrAlias *items = NULL;
	size_t n = 0, cap = 0;
	PlanFunctions functions = {0};
	bool have_functions = false;
	for (size_t i = 0; i < all->count; i++) {
		const Expr *e = all->items[i];
		const Expr *target;
		if (!is_removed(cp, e) || cp->taken[e->id] || !e->name || e->name_generated)
			continue;
		target = cp->alias[e->id] ? cp->alias[e->id] : cp->resolved[e->id];
		if (!target->name && target->kind != EXPR_VAR && target->kind != EXPR_CONSTANT &&
		    target->kind != EXPR_GLOBAL) {
			/* an unnamed value: the name is its own now */
			((Expr *)target)->name = e->name;
			continue;
		}
		if (!have_functions) {
			plan_functions(cp->an->module, &functions);
			have_functions = true;
		}
		grow_array((void **)&items, &cap, n + 1, sizeof(IrAlias));
		items[n++] = (IrAlias){
			.name = e->name,
			.id = e->id,
			.target = target->id,
			.device = (int16_t)device_of(cp, e),
			.pos = e->pos,
			.fn = functions.of[e->id] != PLAN_NONE
				      ? functions.items[functions.of[e->id]].fn->id
				      : PLAN_NONE,
		};
	}
	if (have_functions)
		plan_functions_free(&functions);
	ir_set_aliases(cp->m, items, n);
	free(items);
}

IrModule *plan_capture(PlanAnalysis *an, const IrModule *in, PhaseContext *ctx)
{
	ExprVec all = {0};
	Capturer cp = {
		.an = an,
		.ctx = ctx,
		.nin = in->nexprs,
		.share = ctx->policy != POLICY_TVM,
		.host = plan_host_device(ctx->devices),
	};
	size_t n;
	cp.m = ir_module_clone_ordered(in, &all);
	n = in->nexprs ? in->nexprs : 1;
	for (size_t i = 0; i < all.count; i++)
		all.items[i]->device = (int16_t)device_of(&cp, all.items[i]);
	cp.primitive = plan_primitive_bodies(all.items, all.count, in->nexprs);
	cp.lowered = plan_lowered_argument_tuples(all.items, all.count, in->nexprs);
	cp.resolved = xcalloc(n, sizeof(Expr *));
	cp.taken = xcalloc(n, 1);
	cp.deferred = xcalloc(n, 1);
	cp.alias = xcalloc(n, sizeof(Expr *));
	if (cp.share)
		cp.scope_of = compute_scopes(cp.m);
	arena_init(&cp.scratch);
	for (size_t i = 0; i < all.count; i++) {
		if (interrupt_poll(i)) {
			ir_module_free(cp.m);
			cp.m = NULL;
			break;
		}
		capture_node(&cp, all.items[i]);
	}
	if (cp.m)
		collect_aliases(&cp, &all);
	arena_free(&cp.scratch);
	free(cp.made);
	free(cp.scope_of);
	free(cp.alias);
	free(cp.taken);
	free(cp.deferred);
	free(cp.resolved);
	free(cp.lowered);
	free(cp.primitive);
	exprvec_free(&all);
	return cp.m;
}
