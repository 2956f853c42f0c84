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

/* What capture knows of an annotation of its input that it removes. */
typedef struct Removed {
	Expr *resolved; /* the node its uses read instead; NULL once a
			   wrapper took its node over (its uses read that) */
	Expr *alias;    /* the outermost node of a use on its device */
	bool taken;     /* a wrapper took its node over */
	bool deferred;  /* across devices, its uses copy for themselves (tvm) */
} Removed;

/* The attributes of the annotations capture writes, shared by all. */
typedef struct SharedAttrs {
	bool copy;
	int32_t src, dst; /* an on_device: dst */
	const Attr *attrs;
} SharedAttrs;

typedef struct Capturer {
	PlanAnalysis *an;
	PhaseContext *ctx;
	IrModule *m;  /* the clone being written */
	uint32_t nin; /* ids below it are the analysed module's */
	bool share;   /* one wrapper per (value, devices) and scope */
	int32_t host;
	uint8_t *primitive; /* by id: inside a Primitive=1 function's body, or NULL */
	uint8_t *lowered;   /* by id: a tuple of call_lowered's arguments, or NULL */
	/* by input id: how many uses a value may have once the annotations
	 * are gone (2 for "several"): a value read once needs no sharing */
	uint8_t *uses;
	uint32_t *scope_of; /* compute_scopes, at the first value to share */
	/* the removed annotations, found by id through an open-addressing
	 * table of (id + 1, index) pairs sized for every annotation of the
	 * input (count_uses counts them): a few of a module's nodes, so no
	 * array by id */
	uint64_t *slots;
	size_t nslots; /* a power of two, or 0 when the input has none */
	Removed *removed;
	size_t nremoved, cap_removed;
	Made **made; /* by node id (grown as nodes are made) */
	size_t cap_made;
	Arena scratch; /* the Made lists */
	SharedAttrs *attrs;
	size_t nattrs, cap_attrs;
} Capturer;

/* Where e's value is: every node of the clone has its planned device
 * from the start (plan_capture), and a node made or taken over keeps the
 * device of the wrapper it is. */
static int32_t device_of(const Capturer *cp, const Expr *e)
{
	(void)cp;
	return e->device;
}

/* What capture knows of e as a removed annotation, or NULL. The pointer
 * lasts until the next removed_get. */
/* The slot of id in the table: its own, or the empty one it would take. */
static size_t removed_slot(const Capturer *cp, uint32_t id)
{
	size_t i = (size_t)(id * 2654435761u) & (cp->nslots - 1);
	while (cp->slots[i] && (uint32_t)(cp->slots[i] >> 32) != id + 1)
		i = (i + 1) & (cp->nslots - 1);
	return i;
}

static Removed *removed_of(const Capturer *cp, const Expr *e)
{
	size_t i;
	/* only annotations are removed (and stay annotations when taken over) */
	if (!cp->nremoved || e->id >= cp->nin || e->kind != EXPR_CALL ||
	    (e->u.call.op != OP_ON_DEVICE && e->u.call.op != OP_DEVICE_COPY))
		return NULL;
	i = removed_slot(cp, e->id);
	return cp->slots[i] ? &cp->removed[(uint32_t)cp->slots[i]] : NULL;
}

static Removed *removed_get(Capturer *cp, const Expr *e)
{
	Removed *r = removed_of(cp, e);
	size_t i;
	if (r)
		return r;
	/* only annotations are removed, and the table has room for all */
	DP_ASSERT(e->id < cp->nin && cp->nslots > 2 * cp->nremoved);
	grow_array((void **)&cp->removed, &cp->cap_removed, cp->nremoved + 1, sizeof(Removed));
	cp->removed[cp->nremoved] = (Removed){0};
	i = removed_slot(cp, e->id);
	cp->slots[i] = (uint64_t)(e->id + 1) << 32 | (uint64_t)cp->nremoved;
	return &cp->removed[cp->nremoved++];
}

static bool is_removed(const Capturer *cp, const Expr *e)
{
	const Removed *r = removed_of(cp, e);
	return r && r->resolved;
}

static bool is_taken(const Capturer *cp, const Expr *e)
{
	const Removed *r = removed_of(cp, e);
	return r && r->taken;
}

/* What a use of e reads once the annotations are gone. */
static Expr *resolve(Capturer *cp, Expr *e)
{
	return is_removed(cp, e) ? removed_of(cp, e)->resolved : e;
}

/* The scope in which the wrappers of value made for site are shared, or
 * SCOPE_MANY when they are not: under tvm, or for a value read once. */
static uint32_t share_scope(Capturer *cp, const Expr *site, const Expr *value)
{
	if (!cp->share || (value->id < cp->nin && cp->uses[value->id] < 2))
		return SCOPE_MANY;
	if (!cp->scope_of)
		cp->scope_of = compute_scopes(cp->m);
	return cp->scope_of[site->id];
}

/* The shared attribute array of a fixed on_device on dst, or of a copy
 * from src to dst; few distinct ones, so a short list. */
static const Attr *shared_attrs(Capturer *cp, bool copy, int32_t src, int32_t dst)
{
	for (size_t i = 0; i < cp->nattrs; i++)
		if (cp->attrs[i].copy == copy && cp->attrs[i].dst == dst &&
		    (!copy || cp->attrs[i].src == src))
			return cp->attrs[i].attrs;
	grow_array((void **)&cp->attrs, &cp->cap_attrs, cp->nattrs + 1, sizeof(SharedAttrs));
	cp->attrs[cp->nattrs] = (SharedAttrs){copy, src, dst,
					      copy ? ir_device_copy_attrs(cp->m, src, dst)
						   : ir_fixed_on_device_attrs(cp->m, dst)};
	return cp->attrs[cp->nattrs++].attrs;
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
	if (scope == SCOPE_MANY || value->id >= cp->cap_made)
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
	if (scope == SCOPE_MANY)
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

/* TVM's MaybeOnDeviceFixed: v itself for a variable, a global, a
 * function or an operator or constructor value (device-polymorphic);
 * else a fixed on_device(v, device), shared under share. */
static Expr *on_device_fixed(Capturer *cp, Expr *v, int32_t device, uint32_t scope, UseResult *u)
{
	Made *mk;
	Expr *w;
	if (v->kind == EXPR_VAR || v->kind == EXPR_GLOBAL || v->kind == EXPR_FN ||
	    v->kind == EXPR_OP_VALUE)
		return v;
	if ((mk = find_made(cp, v, WRAP_ON_DEVICE, IR_NO_DEVICE, device, scope)))
		return mk->node;
	w = ir_call_shared_attrs(cp->m, v->pos, OP_ON_DEVICE, v,
				 shared_attrs(cp, false, IR_NO_DEVICE, device), 2);
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
	w = ir_call_shared_attrs(cp->m, v->pos, OP_DEVICE_COPY, arg,
				 shared_attrs(cp, true, src, dst), 2);
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
	removed_get(cp, owner)->taken = true;
	if (scope != SCOPE_MANY && value->id < cp->cap_made) {
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
			if (is_taken(cp, c) || device_of(cp, c) != w->device)
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
		if (is_taken(cp, c) || removed_of(cp, c)->alias)
			continue;
		for (Expr *x = u->node;; x = x->u.call.args[0]) {
			if (x->device == own) {
				removed_of(cp, c)->alias = x;
				break;
			}
			if (x == value || x->kind != EXPR_CALL || x->u.call.nargs != 1)
				break;
		}
	}
}

/* The events of the wrappers one use made: each copy, and each on_device
 * that puts a value on another device than the use's (not the one inside a
 * copy, nor a let's value where the let is): the steps a user follows. */
static void add_events(Capturer *cp, const UseResult *u, const Expr *value, const Expr *site)
{
	for (size_t i = 0; i < u->nfresh; i++) {
		const Expr *w = u->fresh[i];
		bool copy = ir_is_op(w, OP_DEVICE_COPY);
		if (!copy && ((i + 1 < u->nfresh && ir_is_op(u->fresh[i + 1], OP_DEVICE_COPY)) ||
			      w->device == site->device))
			continue;
		add_event(cp, copy ? EVENT_COPY : EVENT_ANNOTATE, w, value, site, w->device);
	}
}

/* One use of child `c` by `site`, expected on `want` in a scope of device
 * `lexical` (IR_NO_DEVICE: none, a let's value): what the use reads now. */
static Expr *capture_use(Capturer *cp, Expr *site, Expr *c, int32_t want, int32_t lexical)
{
	Expr *chain[CHAIN_MAX];
	size_t nchain;
	Expr *value;
	int32_t have;
	uint32_t scope;
	UseResult u;
	/* the common case: a value read where it is, in its own scope */
	if (c->device == want && want == lexical && !removed_of(cp, c))
		return c;
	nchain = removed_chain(cp, c, chain);
	value = resolve(cp, c);
	have = device_of(cp, value);
	if (have == want && want == lexical && !nchain)
		return value;
	scope = share_scope(cp, site, value);
	u = (UseResult){.node = value};
	if (have != want)
		u.node = device_copy(cp, value, have, want, scope, &u);
	if (want != lexical)
		u.node = on_device_fixed(cp, u.node, want, scope, &u);
	if (nchain)
		keep_names(cp, chain, nchain, &u, value, scope);
	add_events(cp, &u, value, site);
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
	uint32_t scope = share_scope(cp, e, inner);
	Expr *chain[CHAIN_MAX + 1];
	size_t nchain;
	UseResult u = {.node = inner};
	Removed *r = removed_get(cp, e);
	r->resolved = inner; /* e is an annotation on the way, for now */
	r->deferred = false;
	chain[0] = e;
	nchain = 1 + removed_chain(cp, e->u.call.args[0], chain + 1);
	u.node = device_copy(cp, inner, from, to, scope, &u);
	keep_names(cp, chain, nchain, &u, inner, scope);
	add_events(cp, &u, inner, e);
	/* its uses read the copy: e's own node when it took it over */
	r = removed_of(cp, e);
	r->resolved = r->taken ? NULL : u.node;
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
	if (is_removed(cp, arg) && removed_of(cp, arg)->deferred)
		copy_at_annotation(cp, arg, resolve(cp, arg->u.call.args[0]),
				   device_of(cp, resolve(cp, arg->u.call.args[0])),
				   device_of(cp, arg));
	inner = resolve(cp, arg);
	from = device_of(cp, inner);
	if (from == to) {
		removed_get(cp, e)->resolved = inner;
	} else if (!cp->share) {
		Removed *r = removed_get(cp, e);
		r->resolved = inner;
		r->deferred = true;
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
	case EXPR_OP_VALUE:
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
				Expr *inner = resolve(cp, e->u.call.args[0]);
				removed_get(cp, e)->resolved = inner;
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

/* How many uses each node has once the annotations are gone, 2 meaning
 * several: a use by an on_device or device_copy, which capture may
 * remove, counts as many as that annotation's own. Parents before
 * children (all is in post-order, read backwards), so each annotation's
 * count is whole when its operand's is added to. */
/* Also, in the same walk, gives every node its planned device (the
 * fallback for one nothing placed), counts the annotations, and says
 * whether there is a Primitive=1 function or a call_lowered to mark. */
typedef struct InputCensus {
	size_t annotations;
	bool primitive, lowered;
} InputCensus;

static uint8_t *count_uses(Capturer *cp, const ExprVec *all, size_t n, InputCensus *census)
{
	uint8_t *uses = xcalloc(n, 1);
	memset(census, 0, sizeof *census);
	for (size_t i = all->count; i-- > 0;) {
		Expr *e = all->items[i];
		unsigned add = 1;
		int32_t d = plan_expr_device(cp->an, e);
		e->device = (int16_t)(d != IR_NO_DEVICE ? d : cp->ctx->fallback);
		census->primitive |= e->kind == EXPR_FN && ir_fn_is_primitive(e);
		census->lowered |= ir_is_op(e, OP_CALL_LOWERED);
		if (e->id < n && (ir_is_op(e, OP_ON_DEVICE) || ir_is_op(e, OP_DEVICE_COPY))) {
			add = uses[e->id] ? uses[e->id] : 1;
			census->annotations++;
		}
		for (uint32_t k = 0, nc = ir_child_count(e); k < nc; k++) {
			const Expr *c = ir_child(e, k);
			if (c && c->id < n)
				uses[c->id] =
					(uint8_t)(uses[c->id] + add > 2 ? 2 : uses[c->id] + add);
		}
	}
	return uses;
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
		const Removed *r = removed_of(cp, e);
		const Expr *target;
		if (!r || r->taken || !r->resolved || !e->name || e->name_generated)
			continue;
		target = r->alias ? r->alias : r->resolved;
		if (!target->name && target->kind != EXPR_VAR && target->kind != EXPR_CONSTANT &&
		    target->kind != EXPR_GLOBAL && target->kind != EXPR_OP_VALUE) {
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
	{
		InputCensus census;
		cp.uses = count_uses(&cp, &all, n, &census);
		if (census.annotations) {
			cp.nslots = 4;
			while (cp.nslots < 2 * census.annotations + 2)
				cp.nslots *= 2;
			cp.slots = xcalloc(cp.nslots, sizeof(uint64_t));
		}
		if (census.primitive)
			cp.primitive = plan_primitive_bodies(all.items, all.count, in->nexprs);
		if (census.lowered)
			cp.lowered = plan_lowered_argument_tuples(all.items, all.count, in->nexprs);
	}
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
	free(cp.slots);
	free(cp.removed);
	free(cp.attrs);
	free(cp.uses);
	free(cp.lowered);
	free(cp.primitive);
	exprvec_free(&all);
	return cp.m;
}
