/*
 * plan_domains.c - the union-find of device domains.
 *
 * A domain is a leaf (bound to a device, or free) or a function domain whose
 * children are its parameters' domains and its result's domain. Shapes are
 * found lazily, so the analysis needs no types: a leaf that meets a
 * function domain becomes one, a bound leaf binding only the function's
 * result (take_shape: TVM's domain for a virtual device on a function
 * type), and a leaf marked first-order (a tuple, a condition, an ADT value,
 * a reference: what TVM types first-order) is unified instead with every
 * leaf below the function (TVM's "collapse": a closure stored in a tuple
 * or a cell lives on its one device, parameters included). Unification of a
 * pair may touch many domains; every change is
 * written to an undo log first, so a unification that would join two
 * different devices is rolled back whole and changes nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "print.h"

typedef struct UndoEntry {
	uint32_t index;
	Domain saved;
} UndoEntry;

typedef struct UnifyState {
	UndoEntry *undo;
	size_t nundo, cap_undo;
	uint32_t *work; /* pairs of domains still to unify */
	size_t nwork, cap_work;
} UnifyState;

void plan_analysis_init(PlanAnalysis *an, const IrModule *m, const DeviceTable *devices)
{
	plan_analysis_init_reusing(an, m, devices, NULL);
}

/* Takes *field (of *cap elements) from the spare analysis when it exists,
 * leaving the spare without it. */
#define TAKE(field, cap)                  \
	do {                              \
		an->field = spare->field; \
		an->cap = spare->cap;     \
		spare->field = NULL;      \
		spare->cap = 0;           \
	} while (0)

void plan_analysis_init_reusing(PlanAnalysis *an, const IrModule *m, const DeviceTable *devices,
				PlanAnalysis *spare)
{
	size_t n = m->nexprs ? m->nexprs : 1;
	memset(an, 0, sizeof *an);
	an->module = ir_module_retain(m); /* the session may let its version go */
	an->devices = devices;
	an->nexprs = m->nexprs;
	if (spare) {
		/* its pages are already in memory: a million-node analysis
		 * would otherwise fault in hundreds of MiB afresh */
		TAKE(domains, cap_domains);
		TAKE(children, cap_children);
		TAKE(constraints, cap_constraints);
		TAKE(applied, cap_applied);
		if (spare->nexprs >= n) {
			an->expr_domain = spare->expr_domain;
			an->by_id = spare->by_id;
			spare->expr_domain = NULL;
			spare->by_id = NULL;
			memset(an->by_id, 0, n * sizeof(Expr *));
		}
		an->unify = spare->unify;
		spare->unify = NULL;
		plan_analysis_free(spare);
	}
	if (!an->expr_domain)
		an->expr_domain = xmalloc(n * sizeof(uint32_t));
	memset(an->expr_domain, 0xff, n * sizeof(uint32_t));
	if (an->by_id)
		ir_index_by_id_into(m, an->by_id);
	else
		an->by_id = ir_index_by_id(m);
	if (!an->unify)
		an->unify = xcalloc(1, sizeof(UnifyState));
}
#undef TAKE

void plan_analysis_free(PlanAnalysis *an)
{
	if (!an)
		return;
	free(an->domains);
	free(an->children);
	free(an->expr_domain);
	free(an->constraints);
	free(an->applied);
	free(an->by_id);
	if (an->unify) {
		free(an->unify->undo);
		free(an->unify->work);
		free(an->unify);
	}
	ir_module_free((IrModule *)an->module);
	memset(an, 0, sizeof *an);
}

#define COPY_ARRAY(field, count, cap)                                                       \
	do {                                                                                \
		dst->field = xmalloc(((src->cap) ? (src->cap) : 1) * sizeof(*src->field));  \
		if (src->count)                                                             \
			memcpy(dst->field, src->field, (src->count) * sizeof(*src->field)); \
	} while (0)

void plan_analysis_copy(PlanAnalysis *dst, const PlanAnalysis *src)
{
	*dst = *src;
	dst->module = ir_module_retain(src->module);
	COPY_ARRAY(domains, ndomains, cap_domains);
	COPY_ARRAY(children, nchildren, cap_children);
	COPY_ARRAY(constraints, nconstraints, cap_constraints);
	COPY_ARRAY(applied, nconstraints, cap_applied);
	COPY_ARRAY(expr_domain, nexprs, nexprs);
	COPY_ARRAY(by_id, nexprs, nexprs);
	dst->unify = xcalloc(1, sizeof(UnifyState));
}
#undef COPY_ARRAY

uint32_t plan_domain_new(PlanAnalysis *an)
{
	Domain *d;
	grow_array((void **)&an->domains, &an->cap_domains, an->ndomains + 1, sizeof(Domain));
	d = &an->domains[an->ndomains];
	d->parent = (uint32_t)an->ndomains;
	d->size = 1;
	d->device = IR_NO_DEVICE;
	d->bound_by = PLAN_NONE;
	d->nchildren = 0;
	d->children = 0;
	d->first_order = false;
	return (uint32_t)an->ndomains++;
}

void plan_domain_set_first_order(PlanAnalysis *an, uint32_t d)
{
	uint32_t root = plan_domain_find(an, d);
	DP_ASSERT(an->domains[root].nchildren == 0);
	an->domains[root].first_order = true;
}

uint32_t plan_domain_find(PlanAnalysis *an, uint32_t d)
{
	uint32_t root = d;
	while (an->domains[root].parent != root)
		root = an->domains[root].parent;
	/* Path halving would need undo entries; full compression after the
	 * fact is safe because it does not change any root. */
	while (an->domains[d].parent != root) {
		uint32_t next = an->domains[d].parent;
		an->domains[d].parent = root;
		d = next;
	}
	return root;
}

static void save(UnifyState *st, PlanAnalysis *an, uint32_t i)
{
	if (!st)
		return;
	grow_array((void **)&st->undo, &st->cap_undo, st->nundo + 1, sizeof(UndoEntry));
	st->undo[st->nundo].index = i;
	st->undo[st->nundo].saved = an->domains[i];
	st->nundo++;
}

static uint32_t make_function(PlanAnalysis *an, UnifyState *st, uint32_t root, uint32_t nparams)
{
	uint32_t first;
	DP_ASSERT(an->domains[root].nchildren == 0);
	grow_array((void **)&an->children, &an->cap_children, an->nchildren + nparams + 1,
		   sizeof(uint32_t));
	first = (uint32_t)an->nchildren;
	for (uint32_t i = 0; i <= nparams; i++)
		an->children[an->nchildren++] = plan_domain_new(an);
	save(st, an, root);
	an->domains[root].nchildren = nparams + 1;
	an->domains[root].children = first;
	return root;
}

uint32_t plan_domain_as_function(PlanAnalysis *an, uint32_t d, uint32_t nparams)
{
	uint32_t root = plan_domain_find(an, d);
	if (an->domains[root].nchildren == 0 && an->domains[root].device == IR_NO_DEVICE)
		return make_function(an, NULL, root, nparams);
	return root;
}

uint32_t plan_domain_result(PlanAnalysis *an, uint32_t d)
{
	uint32_t root = plan_domain_find(an, d);
	while (an->domains[root].nchildren) {
		Domain *dom = &an->domains[root];
		root = plan_domain_find(an, an->children[dom->children + dom->nchildren - 1]);
	}
	return root;
}

int32_t plan_domain_device(PlanAnalysis *an, uint32_t d)
{
	return an->domains[plan_domain_result(an, d)].device;
}

bool plan_domain_fully_bound(PlanAnalysis *an, uint32_t d)
{
	uint32_t root = plan_domain_find(an, d);
	Domain *dom = &an->domains[root];
	if (!dom->nchildren)
		return dom->device != IR_NO_DEVICE;
	for (uint32_t i = 0; i < dom->nchildren; i++)
		if (!plan_domain_fully_bound(an, an->children[an->domains[root].children + i]))
			return false;
	return true;
}

Pos plan_constraint_pos(const PlanAnalysis *an, uint32_t i)
{
	const Constraint *c = &an->constraints[i];
	uint32_t id = c->site != PLAN_NONE ? c->site : c->value;
	return id != PLAN_NONE && id < an->nexprs && an->by_id[id] ? an->by_id[id]->pos
								   : (Pos){0, 0};
}

static void push_pair(UnifyState *st, uint32_t a, uint32_t b)
{
	grow_array((void **)&st->work, &st->cap_work, st->nwork + 2, sizeof(uint32_t));
	st->work[st->nwork++] = a;
	st->work[st->nwork++] = b;
}

/* Makes `child` a child of `root` (both roots), keeping the larger tree on top. */
static uint32_t link_roots(PlanAnalysis *an, UnifyState *st, uint32_t keep, uint32_t other)
{
	save(st, an, keep);
	save(st, an, other);
	an->domains[other].parent = keep;
	an->domains[keep].size += an->domains[other].size;
	return keep;
}

/* Unifies two leaf roots; false on two devices that do not join. Two that
 * do (one device, one side without a memory scope) leave the class on their
 * join, explained by the constraint that bound that side: the join is the
 * same whichever way round they meet [P4]. */
static bool unify_leaves(PlanAnalysis *an, UnifyState *st, uint32_t x, uint32_t y, PlanClash *clash)
{
	Domain *dx = &an->domains[x], *dy = &an->domains[y];
	uint32_t keep, other;
	int32_t joined = dx->device == IR_NO_DEVICE ? dy->device : dx->device;
	uint32_t cause = dx->device == IR_NO_DEVICE ? dy->bound_by : dx->bound_by;
	if (dx->device != IR_NO_DEVICE && dy->device != IR_NO_DEVICE && dx->device != dy->device) {
		joined = devices_join(an->devices, dx->device, dy->device);
		if (joined < 0) {
			clash->devices[0] = dx->device;
			clash->devices[1] = dy->device;
			clash->causes[0] = dx->bound_by;
			clash->causes[1] = dy->bound_by;
			return false;
		}
		cause = joined == dx->device ? dx->bound_by : dy->bound_by;
	}
	keep = dx->size >= dy->size ? x : y;
	other = keep == x ? y : x;
	if (an->domains[other].first_order && !an->domains[keep].first_order) {
		save(st, an, keep);
		an->domains[keep].first_order = true;
	}
	if (an->domains[keep].device != joined) {
		save(st, an, keep);
		an->domains[keep].device = joined;
		an->domains[keep].bound_by = cause;
	}
	link_roots(an, st, keep, other);
	return true;
}

/* Whether root `x` is one of the parts of function domain `fn`, at any
 * depth. Function domains are small trees, so a plain walk will do. */
static bool occurs_in(PlanAnalysis *an, uint32_t x, uint32_t fn)
{
	uint32_t *stack = NULL;
	size_t depth = 0, cap = 0, visited = 0;
	bool found = false;
	grow_array((void **)&stack, &cap, 1, sizeof(uint32_t));
	stack[depth++] = fn;
	while (depth && !found && visited++ < an->ndomains) {
		uint32_t d = plan_domain_find(an, stack[--depth]);
		Domain *dom = &an->domains[d];
		if (d == x) {
			found = true;
			break;
		}
		grow_array((void **)&stack, &cap, depth + dom->nchildren, sizeof(uint32_t));
		for (uint32_t i = 0; i < dom->nchildren; i++)
			stack[depth++] = an->children[dom->children + i];
	}
	free(stack);
	return found;
}

/*
 * Leaf root x, not first-order, meets function domain root fn: x takes
 * the function's shape. A bound leaf so stands for any value whose
 * result is on its device: its device goes to the function's result (at
 * any depth, as the result is unified in turn), never to the parameters,
 * as TVM's domain for a virtual device on a function type is
 * fn(?..?):D (DeviceDomains::MakeDomain). A function's virtual_device on
 * a function returning a closure, a parameter's on a closure parameter,
 * an on_device or a what-if pin of a closure so place the closure's
 * result only.
 */
static void take_shape(PlanAnalysis *an, UnifyState *st, uint32_t x, uint32_t fn)
{
	int32_t device = an->domains[x].device;
	uint32_t bound_by = an->domains[x].bound_by, pin;
	const Domain *f;
	link_roots(an, st, fn, x);
	if (device == IR_NO_DEVICE)
		return;
	an->domains[x].device = IR_NO_DEVICE; /* saved by link_roots */
	an->domains[x].bound_by = PLAN_NONE;
	pin = plan_domain_new(an); /* may move an->domains */
	an->domains[pin].device = device;
	an->domains[pin].bound_by = bound_by;
	f = &an->domains[fn];
	push_pair(st, pin, an->children[f->children + f->nchildren - 1]);
}

/* Unifies everything on the work list; false on a conflict. */
static bool unify_all(PlanAnalysis *an, UnifyState *st, PlanClash *clash)
{
	while (st->nwork) {
		uint32_t y = plan_domain_find(an, st->work[--st->nwork]);
		uint32_t x = plan_domain_find(an, st->work[--st->nwork]);
		Domain *dx, *dy;
		if (x == y)
			continue;
		dx = &an->domains[x];
		dy = &an->domains[y];
		if (!dx->nchildren && !dy->nchildren) {
			if (!unify_leaves(an, st, x, y, clash))
				return false;
		} else if (dx->nchildren && dy->nchildren && dx->nchildren == dy->nchildren) {
			uint32_t cx = dx->children, cy = dy->children, n = dx->nchildren;
			if (occurs_in(an, x, y) || occurs_in(an, y, x))
				continue; /* a function and one of its parts: an infinite type */
			link_roots(an, st, x, y);
			for (uint32_t i = 0; i < n; i++)
				push_pair(st, an->children[cx + i], an->children[cy + i]);
		} else if (dx->nchildren && dy->nchildren) {
			/* functions of different arities: a type error that infer
			 * reports; unifying them would tie a function to its own
			 * parts, so the planner leaves them apart */
			continue;
		} else if (!dx->nchildren && !dx->first_order && !occurs_in(an, x, y)) {
			take_shape(an, st, x, y);
		} else if (!dy->nchildren && !dy->first_order && !occurs_in(an, y, x)) {
			take_shape(an, st, y, x);
		} else if (!dx->nchildren && !dx->first_order && dx->device == IR_NO_DEVICE) {
			/* a free leaf that is one of the function's own parts (an
			 * infinite type): left apart */
			continue;
		} else if (!dy->nchildren && !dy->first_order && dy->device == IR_NO_DEVICE) {
			continue;
		} else {
			/* Collapse: a first-order leaf meets a function domain:
			 * unify it with every part of the function (TVM's
			 * collapse). */
			uint32_t fn = dx->nchildren ? x : y, leaf = fn == x ? y : x;
			uint32_t c = an->domains[fn].children, n = an->domains[fn].nchildren;
			for (uint32_t i = 0; i < n; i++)
				push_pair(st, leaf, an->children[c + i]);
		}
	}
	return true;
}

static void rollback(PlanAnalysis *an, UnifyState *st)
{
	while (st->nundo) {
		UndoEntry *u = &st->undo[--st->nundo];
		an->domains[u->index] = u->saved;
	}
}

bool plan_constraint_apply(PlanAnalysis *an, uint32_t i, PlanClash *clash)
{
	Constraint *c = &an->constraints[i];
	UnifyState *st = an->unify ? an->unify : (an->unify = xcalloc(1, sizeof(UnifyState)));
	PlanClash ignored;
	bool ok = true;
	uint32_t a;
	DP_ASSERT(i < an->nconstraints);
	if (!clash)
		clash = &ignored;
	if (c->b == PLAN_NONE) {
		/* Bind: unify a with a fresh leaf bound to the device, which
		 * binds a function domain's result only (take_shape), and a
		 * first-order leaf whole. */
		uint32_t pin = plan_domain_new(an);
		an->domains[pin].device = c->device;
		an->domains[pin].bound_by = i;
		c = &an->constraints[i];
		a = c->a;
		push_pair(st, a, pin);
	} else {
		push_pair(st, c->a, c->b);
	}
	if (!unify_all(an, st, clash)) {
		rollback(an, st);
		ok = false;
	}
	an->applied[i] = ok;
	st->nundo = st->nwork = 0;
	return ok;
}

static const char *constraint_verb(ConstraintKind k)
{
	switch (k) {
	case CONSTRAINT_OP_ARG:
		return "operand of";
	case CONSTRAINT_ON_DEVICE_BODY:
		return "body of";
	case CONSTRAINT_ON_DEVICE_RESULT:
		return "result of fixed";
	case CONSTRAINT_COPY_SOURCE:
		return "source of";
	case CONSTRAINT_COPY_DEST:
		return "destination of";
	case CONSTRAINT_CALL_ARG:
		return "argument of call";
	case CONSTRAINT_CALL_RESULT:
		return "result of call";
	case CONSTRAINT_CALLEE:
		return "callee of";
	case CONSTRAINT_LET_VAR:
		return "variable bound by";
	case CONSTRAINT_LET_BODY:
		return "body of";
	case CONSTRAINT_FN_BODY:
		return "result of function";
	case CONSTRAINT_FN_PARAM:
		return "parameter of function";
	case CONSTRAINT_PRIMITIVE_PARAM:
		return "parameter, on its result's device, of primitive function";
	case CONSTRAINT_PARAM_DEVICE:
		return "virtual_device of parameter";
	case CONSTRAINT_FN_DEVICE:
		return "virtual_device of function";
	case CONSTRAINT_TUPLE_FIELD:
		return "field of";
	case CONSTRAINT_PROJ:
		return "tuple of";
	case CONSTRAINT_IF_COND:
		return "condition of";
	case CONSTRAINT_IF_BRANCH:
		return "branch of";
	case CONSTRAINT_GLOBAL:
		return "reference to";
	case CONSTRAINT_DEFAULT_RESULT:
		return "result of";
	case CONSTRAINT_DEFAULT_PARAM:
		return "parameter of";
	case CONSTRAINT_DEFAULT_LET:
		return "variable of";
	case CONSTRAINT_DEFAULT_CALL:
		return "domain of";
	case CONSTRAINT_DEFAULT_OTHER:
		return "domain of";
	case CONSTRAINT_DEFAULT_SHARED:
		return "body of";
	case CONSTRAINT_MIN_TRANSFER:
		return "domain of";
	case CONSTRAINT_SCOPE_JOIN:
		return "across free";
	case CONSTRAINT_FREE_ON_DEVICE:
		return "result of free";
	case CONSTRAINT_PIN:
		return "what-if pin of";
	case CONSTRAINT_HOST_RESULT:
		return "result of";
	case CONSTRAINT_HOST_OPERAND:
		return "host operand of";
	case CONSTRAINT_ALLOC_DEVICE:
		return "storage allocated by";
	case CONSTRAINT_CONSTRUCT_ARG:
		return "field of";
	case CONSTRAINT_MATCH_SCRUTINEE:
		return "value matched by";
	case CONSTRAINT_PATTERN_VAR:
		return "pattern variable of";
	case CONSTRAINT_MATCH_CLAUSE:
		return "clause of";
	case CONSTRAINT_CONFLICT_HOME:
		return "home device";
	case CONSTRAINT_CONFLICT_MEET:
		return "where inputs from several devices meet";
	}
	return "";
}

static const Expr *expr_by_id(PlanAnalysis *an, uint32_t id)
{
	return id < an->nexprs ? an->by_id[id] : NULL;
}

int32_t plan_expr_device(PlanAnalysis *an, const Expr *e)
{
	if (e->id >= an->nexprs || an->expr_domain[e->id] == PLAN_NONE)
		return IR_NO_DEVICE;
	return plan_domain_device(an, an->expr_domain[e->id]);
}

/* A site as users know it: `add %0`, `@main` for a global's function. */
static void name_site(StrBuf *out, PlanAnalysis *an, const Expr *site)
{
	if (site->kind == EXPR_FN)
		for (uint32_t g = 0; g < an->module->nglobals; g++)
			if (an->module->globals[g].fn == site) {
				strbuf_printf(out, "@%s", an->module->globals[g].name);
				return;
			}
	if (site->kind == EXPR_CALL && site->u.call.op != OP_NONE && site->name)
		strbuf_printf(out, "%s ", ir_call_op_name(site));
	ir_value_name(out, site);
}

void plan_constraint_describe(StrBuf *out, PlanAnalysis *an, uint32_t i, const DeviceTable *devices)
{
	const Constraint *c = &an->constraints[i];
	const Expr *site = c->site != PLAN_NONE ? expr_by_id(an, c->site) : NULL;
	const Expr *value = c->value != PLAN_NONE ? expr_by_id(an, c->value) : NULL;
	if (value) {
		ir_value_name(out, value);
		strbuf_putc(out, ' ');
	}
	strbuf_puts(out, constraint_verb(c->kind));
	if (site) {
		strbuf_putc(out, ' ');
		name_site(out, an, site);
	}
	if (c->b == PLAN_NONE)
		strbuf_printf(out, " is on %s%s",
			      c->kind == CONSTRAINT_HOST_RESULT ||
					      c->kind == CONSTRAINT_HOST_OPERAND
				      ? "the host "
				      : "",
			      devices_name(devices, c->device));
	switch (c->kind) {
	case CONSTRAINT_DEFAULT_RESULT:
	case CONSTRAINT_DEFAULT_CALL:
	case CONSTRAINT_DEFAULT_OTHER:
		strbuf_puts(out, " (defaulted to the fallback device)");
		break;
	case CONSTRAINT_DEFAULT_PARAM:
		strbuf_puts(out, " (defaulted to the function's result device)");
		break;
	case CONSTRAINT_DEFAULT_LET:
		strbuf_puts(out, " (defaulted to the let's device)");
		break;
	case CONSTRAINT_DEFAULT_SHARED:
		strbuf_puts(out, " (defaulted to where the on_device calls that share it are: "
				 "the fallback device if one is there, else the lowest-numbered)");
		break;
	case CONSTRAINT_MIN_TRANSFER:
		strbuf_puts(out, " (placed by min-transfer to copy fewer bytes)");
		break;
	case CONSTRAINT_SCOPE_JOIN:
		strbuf_puts(out, " (it had no memory scope; the other side of that on_device has "
				 "this one)");
		break;
	case CONSTRAINT_FREE_ON_DEVICE:
		strbuf_puts(out,
			    " (free, it took its body's device, as TVM's FreeOnDeviceDefaulter "
			    "joins the two sides)");
		break;
	case CONSTRAINT_CONFLICT_HOME:
	case CONSTRAINT_CONFLICT_MEET:
		strbuf_puts(out, " (chosen by check for a conflict; see 'conflicts')");
		break;
	case CONSTRAINT_OP_ARG:
	case CONSTRAINT_ON_DEVICE_BODY:
	case CONSTRAINT_ON_DEVICE_RESULT:
	case CONSTRAINT_COPY_SOURCE:
	case CONSTRAINT_COPY_DEST:
	case CONSTRAINT_CALL_ARG:
	case CONSTRAINT_CALL_RESULT:
	case CONSTRAINT_CALLEE:
	case CONSTRAINT_LET_VAR:
	case CONSTRAINT_LET_BODY:
	case CONSTRAINT_FN_BODY:
	case CONSTRAINT_FN_PARAM:
	case CONSTRAINT_PRIMITIVE_PARAM:
	case CONSTRAINT_PARAM_DEVICE:
	case CONSTRAINT_FN_DEVICE:
	case CONSTRAINT_TUPLE_FIELD:
	case CONSTRAINT_PROJ:
	case CONSTRAINT_IF_COND:
	case CONSTRAINT_IF_BRANCH:
	case CONSTRAINT_GLOBAL:
	case CONSTRAINT_PIN:
	case CONSTRAINT_HOST_RESULT:
	case CONSTRAINT_HOST_OPERAND:
	case CONSTRAINT_ALLOC_DEVICE:
	case CONSTRAINT_CONSTRUCT_ARG:
	case CONSTRAINT_MATCH_SCRUTINEE:
	case CONSTRAINT_PATTERN_VAR:
	case CONSTRAINT_MATCH_CLAUSE: {
		Pos pos = plan_constraint_pos(an, i);
		if (pos.line && an->module->src)
			strbuf_printf(out, " (%s:%u:%u)", an->module->src->name, pos.line, pos.col);
		else if (pos.line)
			strbuf_printf(out, " (%u:%u)", pos.line, pos.col);
		break;
	}
	}
}
