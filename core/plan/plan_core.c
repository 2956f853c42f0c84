/*
 * plan_core.c - the `core` phase: analysis, defaulting and capture.
 *
 * analyze  unifies every constraint of the module (after `check`, none can
 *          clash unless check was skipped, and then it is an error);
 * default  binds what is still free the way TVM's DeviceDefaulter does, in
 *          pre-order: a function's free result takes the fallback device and
 *          its free parameters the result's device, a primitive call's free
 *          domain the fallback, a let's free variable the let's device;
 * capture  writes the planned module in TVM's form (plan_capture.c): every
 *          node gets its device, functions and parameters carry theirs,
 *          the input's on_device calls go, and each use across devices or
 *          scopes gets the device_copy and fixed on_device TVM would write.
 * Each step appends events to the trace so the debugger can replay them.
 */
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "plan.h"
#include "print.h"

typedef struct Core {
	PhaseContext *ctx;
	PlanAnalysis *an;
	PlanTrace *trace;
	bool failed;
	/* by domain root, below nshared: a free body shared by several
	 * unconstrained on_device calls, which the pre-order walk leaves alone
	 * (default_shared decides it); NULL when there is none */
	uint8_t *shared;
	size_t nshared;
} Core;

/* Ctrl-C, polled at step `step` (interrupt_poll): stops the phase with an
 * error. */
static bool core_interrupted(Core *core, size_t step)
{
	if (!interrupt_poll(step))
		return false;
	if (!core->failed)
		diag_error(core->ctx->diags, NULL, (Pos){0, 0}, "interrupted during phase 'core'");
	core->failed = true;
	return true;
}

static void add_event(Core *core, PlanEventKind kind, uint32_t constraint, uint32_t expr,
		      int32_t device)
{
	PlanEvent ev = {kind, constraint, expr, device, PLAN_NONE, PLAN_NONE};
	plan_trace_add_event(core->trace, &ev);
}

static void analyze(Core *core)
{
	PlanAnalysis *an = core->an;
	size_t n;
	plan_generate_constraints(an, core->ctx->pins, core->ctx->npins,
				  plan_host_device(core->ctx->devices), NULL);
	n = an->nconstraints;
	for (size_t i = 0; i < n; i++) {
		PlanClash clash;
		const Constraint *c = &an->constraints[i];
		uint32_t expr = c->value != PLAN_NONE ? c->value : c->site;
		if (core_interrupted(core, i))
			break;
		if (plan_constraint_apply(an, (uint32_t)i, &clash)) {
			add_event(core, EVENT_UNIFY, (uint32_t)i, expr,
				  plan_domain_device(an, c->a));
			continue;
		}
		add_event(core, EVENT_CONFLICT, (uint32_t)i, expr, clash.devices[1]);
		{
			StrBuf s;
			strbuf_init(&s);
			plan_constraint_describe(&s, an, (uint32_t)i, core->ctx->devices);
			diag_error(core->ctx->diags, an->module->src,
				   plan_constraint_pos(an, (uint32_t)i),
				   "device conflict: %s, but it is on both %s and %s", s.data,
				   devices_name(core->ctx->devices, clash.devices[0]),
				   devices_name(core->ctx->devices, clash.devices[1]));
			strbuf_free(&s);
		}
		core->failed = true;
	}
	if (core->trace)
		core->trace->analyze_end = core->trace->nevents;
}

/* Binds every free leaf of domain d to device, as constraints of `kind`. */
static void default_domain(Core *core, uint32_t d, int32_t device, ConstraintKind kind,
			   const Expr *site)
{
	PlanAnalysis *an = core->an;
	uint32_t root = plan_domain_find(an, d);
	Domain *dom = &an->domains[root];
	if (dom->nchildren) {
		uint32_t first = dom->children, n = dom->nchildren;
		for (uint32_t i = 0; i < n; i++)
			default_domain(core, an->children[first + i], device, kind, site);
		return;
	}
	if (dom->device != IR_NO_DEVICE || device == IR_NO_DEVICE)
		return;
	if (core->shared && root < core->nshared && core->shared[root] &&
	    kind != CONSTRAINT_DEFAULT_SHARED && kind != CONSTRAINT_MIN_TRANSFER)
		return;
	{
		Constraint c = {
			.kind = kind,
			.site = site ? site->id : PLAN_NONE,
			.value = PLAN_NONE,
			.a = d, /* the domain asked for, so why can trace the path to it */
			.b = PLAN_NONE,
			.device = device,
		};
		uint32_t ci = plan_constraint_add(an, &c);
		bool ok = plan_constraint_apply(an, ci, NULL);
		DP_ASSERT(ok);
		add_event(core, EVENT_DEFAULT, ci, site ? site->id : PLAN_NONE, device);
	}
}

/* TVM's SetResultDefaultThenParams. */
static void default_function(Core *core, uint32_t fd, const Expr *site)
{
	PlanAnalysis *an = core->an;
	uint32_t root = plan_domain_find(an, fd);
	Domain *dom = &an->domains[root];
	uint32_t first, n, result;
	int32_t result_device;
	if (!dom->nchildren) {
		default_domain(core, root, core->ctx->fallback, CONSTRAINT_DEFAULT_CALL, site);
		return;
	}
	first = dom->children;
	n = dom->nchildren;
	result = an->children[first + n - 1];
	default_domain(core, result, core->ctx->fallback, CONSTRAINT_DEFAULT_RESULT, site);
	result_device = plan_domain_device(an, result);
	for (uint32_t i = 0; i + 1 < n; i++)
		default_domain(core, an->children[first + i], result_device,
			       CONSTRAINT_DEFAULT_PARAM, site);
}

static void default_node(Core *core, Expr *e)
{
	PlanAnalysis *an = core->an;
	switch (e->kind) {
	case EXPR_FN:
	case EXPR_OP_VALUE: /* a function value too, which no call may bind */
		if (!plan_domain_fully_bound(an, plan_domain_of(an, e)))
			default_function(core, plan_domain_of(an, e), e);
		return;
	case EXPR_CALL:
		if (e->u.call.op == OP_NONE) {
			uint32_t callee = plan_domain_of(an, e->u.call.callee);
			if (!plan_domain_fully_bound(an, callee))
				default_function(core, callee, e);
		} else if (e->u.call.op == OP_ON_DEVICE || e->u.call.op == OP_DEVICE_COPY) {
			default_domain(core, plan_domain_of(an, e), core->ctx->fallback,
				       CONSTRAINT_DEFAULT_CALL, e);
			default_domain(core, plan_domain_of(an, e->u.call.args[0]),
				       plan_domain_device(an, plan_domain_of(an, e)),
				       CONSTRAINT_DEFAULT_PARAM, e);
		} else {
			default_domain(core, plan_domain_of(an, e), core->ctx->fallback,
				       CONSTRAINT_DEFAULT_CALL, e);
		}
		return;
	case EXPR_LET: {
		int32_t d = plan_domain_device(an, plan_domain_of(an, e));
		if (d == IR_NO_DEVICE)
			d = core->ctx->fallback;
		default_domain(core, plan_domain_of(an, e->u.let.var), d, CONSTRAINT_DEFAULT_LET,
			       e);
		return;
	}
	case EXPR_VAR:
	case EXPR_GLOBAL:
	case EXPR_CONSTANT:
	case EXPR_TUPLE:
	case EXPR_PROJ:
	case EXPR_IF:
	case EXPR_CONSTRUCT:
	case EXPR_MATCH:
		return;
	}
}

/* Pre-order over a DAG, each node once, without recursion. */
static void default_walk(Core *core)
{
	PlanAnalysis *an = core->an;
	const IrModule *m = an->module;
	uint8_t *seen = xcalloc(m->nexprs / 8 + 1, 1);
	Expr **stack = NULL;
	size_t depth = 0, cap = 0, visits = 0;
	for (uint32_t g = 0; g < m->nglobals && !core->failed; g++) {
		grow_array((void **)&stack, &cap, depth + 1, sizeof(Expr *));
		stack[depth++] = m->globals[g].fn;
		while (depth) {
			Expr *e = stack[--depth];
			uint32_t n;
			if (core_interrupted(core, ++visits))
				break;
			if (seen[e->id >> 3] & (1u << (e->id & 7)))
				continue;
			seen[e->id >> 3] |= (uint8_t)(1u << (e->id & 7));
			default_node(core, e);
			n = ir_child_count(e);
			grow_array((void **)&stack, &cap, depth + n, sizeof(Expr *));
			for (uint32_t i = n; i-- > 0;)
				stack[depth++] = ir_child(e, i);
		}
	}
	free(stack);
	free(seen);
}

/* The on_device calls that do not constrain their body, with the root of
 * that body's domain when it is a free leaf. */
typedef struct LooseBoundary {
	uint32_t body; /* domain root */
	const Expr *site;
} LooseBoundary;

static int compare_boundaries(const void *a, const void *b)
{
	const LooseBoundary *x = a, *y = b;
	if (x->body != y->body)
		return x->body < y->body ? -1 : 1;
	return x->site->id < y->site->id ? -1 : x->site->id > y->site->id;
}

/* Finds the free bodies shared by two or more unconstrained on_device
 * calls. TVM's pre-order defaulting gives such a body the device of the
 * first of them it visits, which the order of operands decides; devplan
 * decides it after the walk, from all of them [P4]. Returns the boundaries
 * sorted by body (n in *count) and marks the shared bodies in core. */
static LooseBoundary *find_shared_bodies(Core *core, size_t *count)
{
	PlanAnalysis *an = core->an;
	LooseBoundary *b = NULL;
	size_t n = 0, cap = 0;
	for (uint32_t id = 0; id < an->nexprs && an->has_loose_boundary; id++) {
		const Expr *e = an->by_id[id];
		int32_t device;
		bool body, result;
		uint32_t root;
		if (!e || !ir_is_op(e, OP_ON_DEVICE))
			continue;
		ir_on_device_props(e, &device, &body, &result);
		if (body)
			continue;
		root = plan_domain_find(an, plan_domain_of(an, e->u.call.args[0]));
		if (an->domains[root].nchildren || an->domains[root].device != IR_NO_DEVICE)
			continue;
		grow_array((void **)&b, &cap, n + 1, sizeof(LooseBoundary));
		b[n].body = root;
		b[n++].site = e;
	}
	if (n > 1)
		qsort(b, n, sizeof(LooseBoundary), compare_boundaries);
	for (size_t i = 1; i < n; i++)
		if (b[i].body == b[i - 1].body) {
			if (!core->shared) {
				core->nshared = an->ndomains;
				core->shared = xcalloc(core->nshared, 1);
			}
			core->shared[b[i].body] = 1;
		}
	*count = n;
	return b;
}

/* Decides the shared bodies, consumers first: a body whose on_device
 * results are all bound takes their device, or, when they differ, the
 * fallback if it is one of them, else the lowest-numbered (the home rule
 * of SPEC §3.2). Rounds until none is left that can be decided; a body
 * whose results stay free (a cycle of them) takes what is bound, if any. */
static void default_shared(Core *core, const LooseBoundary *b, size_t n)
{
	PlanAnalysis *an = core->an;
	int32_t fallback = core->ctx->fallback;
	for (int pass = 0; pass < 2; pass++) {
		bool changed = true;
		while (changed) {
			changed = false;
			for (size_t i = 0; i < n;) {
				size_t j = i;
				int32_t chosen = IR_NO_DEVICE;
				const Expr *site = NULL;
				bool all_bound = true, fallback_seen = false;
				while (j < n && b[j].body == b[i].body)
					j++;
				if (!core->shared[b[i].body] ||
				    an->domains[plan_domain_find(an, b[i].body)].device !=
					    IR_NO_DEVICE) {
					i = j;
					continue;
				}
				for (size_t k = i; k < j; k++) {
					int32_t d = plan_domain_device(
						an, plan_domain_of(an, b[k].site));
					all_bound = all_bound && d != IR_NO_DEVICE;
					fallback_seen = fallback_seen || d == fallback;
					if (d != IR_NO_DEVICE &&
					    (chosen == IR_NO_DEVICE || d < chosen))
						chosen = d;
				}
				if (fallback_seen)
					chosen = fallback;
				for (size_t k = i; k < j && !site; k++)
					if (plan_domain_device(an, plan_domain_of(an, b[k].site)) ==
					    chosen)
						site = b[k].site;
				if (chosen != IR_NO_DEVICE && (all_bound || pass == 1)) {
					core->shared[b[i].body] = 0;
					default_domain(core, b[i].body, chosen,
						       CONSTRAINT_DEFAULT_SHARED, site);
					changed = true;
				}
				i = j;
			}
		}
	}
}

/* A free result read through one on_device that constrains neither side. */
typedef struct FreeResult {
	uint32_t root;    /* the result's domain root, a free leaf */
	int32_t device;   /* where the body is */
	const Expr *site; /* the on_device */
} FreeResult;

static int compare_free_results(const void *a, const void *b)
{
	const FreeResult *x = a, *y = b;
	if (x->root != y->root)
		return x->root < y->root ? -1 : 1;
	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	return x->site->id < y->site->id ? -1 : x->site->id > y->site->id;
}

/* TVM's FreeOnDeviceDefaulter, before any defaulting: an on_device that
 * constrains neither its body nor its result joins the two where it can,
 * so that defaulting does not put the result elsewhere only to copy. Here
 * the direction find_shared_bodies leaves (a body bound, its result free):
 * the result takes the body's device. Where several such bodies meet one
 * result on different devices TVM's visit order decides; devplan takes the
 * fallback if it is one of them, else the lowest-numbered [P4]. */
static void join_free_results(Core *core)
{
	PlanAnalysis *an = core->an;
	FreeResult *r = NULL;
	size_t n = 0, cap = 0;
	for (uint32_t id = 0; id < an->nexprs && an->has_loose_boundary; id++) {
		const Expr *e = an->by_id[id];
		int32_t device, body_device;
		bool body, result;
		uint32_t root;
		if (!e || !ir_is_op(e, OP_ON_DEVICE) || an->expr_domain[id] == PLAN_NONE)
			continue;
		ir_on_device_props(e, &device, &body, &result);
		if (body || result)
			continue;
		root = plan_domain_find(an, an->expr_domain[id]);
		body_device = plan_expr_device(an, e->u.call.args[0]);
		if (an->domains[root].nchildren || an->domains[root].device != IR_NO_DEVICE ||
		    body_device == IR_NO_DEVICE)
			continue;
		grow_array((void **)&r, &cap, n + 1, sizeof(FreeResult));
		r[n++] = (FreeResult){root, body_device, e};
	}
	if (n > 1)
		qsort(r, n, sizeof(FreeResult), compare_free_results);
	for (size_t i = 0, j; i < n; i = j) {
		const FreeResult *chosen = &r[i]; /* the lowest-numbered */
		for (j = i; j < n && r[j].root == r[i].root; j++)
			if (r[j].device == core->ctx->fallback &&
			    chosen->device != core->ctx->fallback)
				chosen = &r[j];
		if (an->domains[plan_domain_find(an, r[i].root)].device == IR_NO_DEVICE)
			default_domain(core, r[i].root, chosen->device, CONSTRAINT_FREE_ON_DEVICE,
				       chosen->site);
	}
	free(r);
}

static void default_all(Core *core)
{
	PlanAnalysis *an = core->an;
	size_t nloose;
	LooseBoundary *loose;
	join_free_results(core);
	loose = find_shared_bodies(core, &nloose);
	default_walk(core);
	if (core->shared && !core->failed) {
		default_shared(core, loose, nloose);
		free(core->shared);
		core->shared = NULL;
		/* what hangs off the shared bodies, now bound */
		default_walk(core);
	}
	free(core->shared);
	core->shared = NULL;
	free(loose);
	/* Whatever nothing reached (an unused constant, say) takes the fallback. */
	for (uint32_t id = 0; id < an->nexprs && !core->failed; id++)
		if (an->by_id[id] && an->expr_domain[id] != PLAN_NONE &&
		    !plan_domain_fully_bound(an, an->expr_domain[id]))
			default_domain(core, an->expr_domain[id], core->ctx->fallback,
				       CONSTRAINT_DEFAULT_OTHER, an->by_id[id]);
	if (core->trace)
		core->trace->default_end = core->trace->nevents;
}

/* ---- memory scopes across free on_device calls ---- */

/* A free on_device (neither its body nor its result constrained) whose two
 * sides are bound to one device, one of them without a memory scope and
 * the other in one: TVM's FreeOnDeviceDefaulter unifies the two sides where
 * they join, so the side without a scope takes the scope and needs no copy
 * (test_free_on_device's %a). */
typedef struct ScopePair {
	uint32_t root;     /* the class without a scope */
	int32_t device;    /* the scoped device on the other side */
	const Expr *site;  /* the on_device */
	const Expr *value; /* an expression of that class: the body or the on_device */
} ScopePair;

static int compare_scope_pairs(const void *a, const void *b)
{
	const ScopePair *x = a, *y = b;
	if (x->root != y->root)
		return x->root < y->root ? -1 : 1;
	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	return x->site->id < y->site->id ? -1 : x->site->id > y->site->id;
}

static bool table_has_scopes(const DeviceTable *devices)
{
	for (uint32_t i = 0; devices && i < devices->count; i++)
		if (devices->items[i].scope[0])
			return true;
	return false;
}

/* Joins the two sides of every such on_device, before defaulting as TVM
 * does. TVM visits them in turn, so a class without a scope that meets two
 * scopes through two of them takes the first it visits; devplan decides
 * from all of them, by the home rule of SPEC 3.2 (the fallback if it is one
 * of them, else the lowest-numbered) [P4], and capture copies to the other. */
static void join_free_scopes(Core *core)
{
	PlanAnalysis *an = core->an;
	const DeviceTable *devices = core->ctx->devices;
	ScopePair *pairs = NULL;
	size_t n = 0, cap = 0;
	if (!an->has_loose_boundary || !table_has_scopes(devices))
		return;
	for (uint32_t id = 0; id < an->nexprs; id++) {
		const Expr *e = an->by_id[id], *arg;
		int32_t device, dx, dy, joined;
		bool body, result;
		uint32_t x, y;
		if (!e || !ir_is_op(e, OP_ON_DEVICE) || e->u.call.nargs != 1)
			continue;
		ir_on_device_props(e, &device, &body, &result);
		arg = e->u.call.args[0];
		if (body || result || an->expr_domain[id] == PLAN_NONE || arg->id >= an->nexprs ||
		    an->expr_domain[arg->id] == PLAN_NONE)
			continue;
		x = plan_domain_find(an, an->expr_domain[arg->id]);
		y = plan_domain_find(an, an->expr_domain[id]);
		if (x == y || an->domains[x].nchildren || an->domains[y].nchildren)
			continue;
		dx = an->domains[x].device;
		dy = an->domains[y].device;
		if (dx == IR_NO_DEVICE || dy == IR_NO_DEVICE || dx == dy)
			continue;
		joined = devices_join(devices, dx, dy);
		if (joined < 0)
			continue;
		grow_array((void **)&pairs, &cap, n + 1, sizeof(ScopePair));
		pairs[n].root = joined == dy ? x : y;
		pairs[n].device = joined;
		pairs[n].site = e;
		pairs[n++].value = joined == dy ? arg : e;
	}
	if (n > 1)
		qsort(pairs, n, sizeof(ScopePair), compare_scope_pairs);
	for (size_t i = 0, j; i < n; i = j) {
		const ScopePair *chosen = &pairs[i]; /* the lowest-numbered */
		for (j = i; j < n && pairs[j].root == pairs[i].root; j++)
			if (pairs[j].device == core->ctx->fallback &&
			    chosen->device != core->ctx->fallback)
				chosen = &pairs[j];
		{
			Constraint c = {
				.kind = CONSTRAINT_SCOPE_JOIN,
				.site = chosen->site->id,
				.value = chosen->value->id,
				.a = an->expr_domain[chosen->value->id],
				.b = PLAN_NONE,
				.device = chosen->device,
			};
			uint32_t ci = plan_constraint_add(an, &c);
			bool ok = plan_constraint_apply(an, ci, NULL);
			DP_ASSERT(ok);
			add_event(core, EVENT_DEFAULT, ci, chosen->value->id, chosen->device);
		}
	}
	free(pairs);
}

/* min-transfer: binds the free domains at on_device boundaries to the
 * devices that copy the fewest bytes, and reports the saving against the
 * plan TVM's defaulting alone would give. */
static void place_min_transfer(Core *core)
{
	PlanAnalysis *an = core->an, scratch;
	Core trial = {.ctx = core->ctx, .an = &scratch};
	uint32_t *domains, *sites;
	int32_t *devices;
	int64_t default_bytes, chosen_bytes;
	size_t n;
	plan_analysis_copy(&scratch, an);
	default_all(&trial);
	default_bytes = plan_boundary_bytes(&scratch);
	plan_analysis_free(&scratch);
	n = plan_min_transfer_choose(an, core->ctx->devices->count, core->ctx->fallback, &domains,
				     &devices, &sites);
	for (size_t i = 0; i < n; i++)
		default_domain(core, domains[i], devices[i], CONSTRAINT_MIN_TRANSFER,
			       an->by_id[sites[i]]);
	free(domains);
	free(devices);
	free(sites);
	default_all(core);
	chosen_bytes = plan_boundary_bytes(an);
	diag_note(core->ctx->diags, NULL, (Pos){0, 0},
		  "min-transfer: %lld bytes cross devices at on_device boundaries, %lld fewer than "
		  "the "
		  "default plan (%lld)",
		  (long long)chosen_bytes, (long long)(default_bytes - chosen_bytes),
		  (long long)default_bytes);
}

IrModule *plan_core_phase(const IrModule *in, PhaseContext *ctx)
{
	Core core = {.ctx = ctx, .an = xcalloc(1, sizeof(PlanAnalysis)), .trace = ctx->trace};
	IrModule *out = NULL;
	PlanAnalysis *spare = NULL;
	if (ctx->trace) {
		ctx->trace->nevents = 0;
		ctx->trace->analyze_end = ctx->trace->default_end = 0;
		/* core's analysis explains everything from here on, in the
		 * memory of check's */
		spare = ctx->trace->check;
		ctx->trace->check = NULL;
	}
	plan_analysis_init_reusing(core.an, in, ctx->devices, spare);
	free(spare);
	analyze(&core);
	if (!core.failed)
		join_free_scopes(&core);
	if (!core.failed && ctx->placement == PLACEMENT_MIN_TRANSFER)
		place_min_transfer(&core);
	else if (!core.failed)
		default_all(&core);
	if (!core.failed) {
		out = plan_capture(core.an, in, ctx);
		if (!out) {
			diag_error(ctx->diags, NULL, (Pos){0, 0},
				   "interrupted during phase 'core'");
			core.failed = true;
		}
	}
	if (ctx->trace) {
		if (ctx->trace->core) {
			plan_analysis_free(ctx->trace->core);
			free(ctx->trace->core);
		}
		ctx->trace->core = core.an;
	} else {
		plan_analysis_free(core.an);
		free(core.an);
	}
	return out;
}

void plan_event_describe(StrBuf *out, const PlanTrace *trace, size_t i, const DeviceTable *devices)
{
	const PlanEvent *ev = &trace->events[i];
	PlanAnalysis *an = trace->core;
	const Expr *e = ev->expr != PLAN_NONE && ev->expr < an->nexprs ? an->by_id[ev->expr] : NULL;
	switch (ev->kind) {
	case EVENT_UNIFY:
		strbuf_puts(out, "unify: ");
		plan_constraint_describe(out, an, ev->constraint, devices);
		if (ev->device != IR_NO_DEVICE)
			strbuf_printf(out, " -> %s", devices_name(devices, ev->device));
		return;
	case EVENT_CONFLICT:
		strbuf_puts(out, "conflict: ");
		plan_constraint_describe(out, an, ev->constraint, devices);
		return;
	case EVENT_DEFAULT:
		strbuf_puts(out, "default: ");
		plan_constraint_describe(out, an, ev->constraint, devices);
		return;
	case EVENT_COPY:
	case EVENT_ANNOTATE: {
		const Expr *value = ev->value < an->nexprs ? an->by_id[ev->value] : NULL;
		const Expr *site = ev->site < an->nexprs ? an->by_id[ev->site] : NULL;
		if (ev->kind == EVENT_COPY)
			strbuf_puts(out, "capture: device_copy of ");
		else
			strbuf_puts(out, "capture: on_device fixed on ");
		if (ev->kind == EVENT_ANNOTATE)
			strbuf_printf(out, "%s around ", devices_name(devices, ev->device));
		if (value)
			ir_value_name(out, value);
		else
			strbuf_puts(out, "a value");
		if (ev->kind == EVENT_COPY)
			strbuf_printf(out, " to %s", devices_name(devices, ev->device));
		if (site && ev->site == ev->expr) {
			/* the annotation's own node became the copy */
			strbuf_puts(out, " replaces on_device ");
			ir_value_name(out, site);
			return;
		}
		if (site) {
			strbuf_puts(out, " for ");
			ir_value_name(out, site);
		}
		if (e && e->name && !e->name_generated)
			strbuf_printf(out, " (as %%%s)", e->name);
		return;
	}
	}
}
