/*
 * plan_check.c - the `check` phase: every conflict, and its resolution.
 *
 * A conflict is a value whose uses demand two different devices (SPEC
 * §3.2). The resolution is a function of the dataflow graph alone, never of
 * the order of the text [P4]:
 *   1. Unify every constraint except the uses of values (an operand, a call
 *      argument, a tuple field, an if condition: the places a device_copy
 *      can go). What is joined now forms the classes; a clash here joins
 *      two annotations with no use in between, which no copy can separate:
 *      an error under every policy.
 *   2. The uses are edges from a value's class to its consumer's. A
 *      connected component of classes bound to at most one device is
 *      unified whole, which is TVM's own answer. A component with two or
 *      more devices is resolved by three rules:
 *      demand  consumers first (strongly connected components in reverse
 *              topological order; a cycle, from recursion, is one unit): a
 *              free class takes the device of its placed consumers; when
 *              they are on several, the fallback device if it is one of
 *              them, else the lowest-numbered (the home rule of SPEC §3.2).
 *              A chain between two pins so follows the pin downstream, and
 *              the copy sits right after the upstream pin;
 *      supply  a class that demand left free has nothing placed downstream;
 *              each connected piece of such classes takes the device of the
 *              values it reads, and when they come from several devices, the
 *              fallback if it is one of them, else the lowest-numbered;
 *      copy    a use whose value and consumer are now on different devices
 *              reads the value through one device_copy per destination,
 *              from the value's device, its home.
 * Under the error policy the conflicts are reported and planning stops;
 * under copy and replicate the phase returns a clone of its input with the
 * device_copy calls (or, for constants under replicate, duplicates) in
 * place, so that `core` never meets a conflict a copy could resolve.
 */
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "plan.h"
#include "print.h"

typedef struct Use {
	uint32_t constraint;
	uint32_t site;
} Use;

typedef struct PendingCopy {
	uint32_t value; /* expression id */
	uint32_t site;  /* consumer id */
	ConstraintKind kind;
	uint32_t index;
	int32_t home;
	int32_t dest;
} PendingCopy;

typedef struct Checker {
	PhaseContext *ctx;
	PlanAnalysis *an;
	uint8_t *cuttable;
	uint32_t *use_start; /* uses of value id v: uses[use_start[v] .. use_start[v+1]) */
	Use *uses;
	PendingCopy *copies;
	size_t ncopies, cap_copies;
	size_t irreducible;
	size_t conflicts;
	PlanTvm *tvm;    /* policy tvm: TVM's own walk (plan_tvm.c), else NULL */
	size_t reported; /* conflicts printed as diagnostics (at most DIAG_CONFLICTS) */
} Checker;

/* Conflicts reported as diagnostics before the rest are only counted. */
enum { DIAG_CONFLICTS = 10 };

static const char *device_name(Checker *ck, int32_t d)
{
	return devices_name(ck->ctx->devices, d);
}

static void describe_cause(Checker *ck, StrBuf *out, uint32_t cause)
{
	if (cause == PLAN_NONE)
		strbuf_puts(out, "an earlier unification");
	else
		plan_constraint_describe(out, ck->an, cause, ck->ctx->devices);
}

static Pos cause_pos(Checker *ck, uint32_t cause)
{
	return cause == PLAN_NONE ? (Pos){0, 0} : plan_constraint_pos(ck->an, cause);
}

/* Groups the cuttable use constraints by value id (counting sort). */
static void index_uses(Checker *ck)
{
	PlanAnalysis *an = ck->an;
	uint32_t n = an->nexprs;
	ck->use_start = xcalloc((size_t)n + 1, sizeof(uint32_t));
	for (size_t i = 0; i < an->nconstraints; i++)
		if (ck->cuttable[i])
			ck->use_start[an->constraints[i].value + 1]++;
	for (uint32_t v = 0; v < n; v++)
		ck->use_start[v + 1] += ck->use_start[v];
	ck->uses = xmalloc((ck->use_start[n] + 1) * sizeof(Use));
	{
		uint32_t *fill = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
		memcpy(fill, ck->use_start, ((size_t)n + 1) * sizeof(uint32_t));
		for (size_t i = 0; i < an->nconstraints; i++) {
			if (!ck->cuttable[i])
				continue;
			Use *u = &ck->uses[fill[an->constraints[i].value]++];
			u->constraint = (uint32_t)i;
			u->site = an->constraints[i].site;
		}
		free(fill);
	}
}

static PlanConflict *new_conflict(Checker *ck)
{
	PlanTrace *t = ck->ctx->trace;
	PlanConflict *c;
	if (!t) { /* no trace to keep it in: release_conflict frees it */
		c = xcalloc(1, sizeof(PlanConflict));
		c->first_use = PLAN_NONE;
		return c;
	}
	grow_array((void **)&t->conflicts, &t->cap_conflicts, t->nconflicts + 1,
		   sizeof(PlanConflict));
	c = &t->conflicts[t->nconflicts++];
	memset(c, 0, sizeof *c);
	c->first_use = PLAN_NONE;
	return c;
}

void plan_conflict_free_fields(PlanConflict *c)
{
	free(c->value_name);
	free(c->source_text[0]);
	free(c->source_text[1]);
	for (size_t k = 0; k < c->ndemands; k++)
		free(c->demands[k].source_text);
	free(c->demands);
	for (size_t k = 0; k < c->nuses; k++)
		free(c->uses[k]);
	free(c->uses);
	free(c->consumers);
	free(c->consumer_devices);
}

/* A conflict made without a trace is not kept. */
static void release_conflict(Checker *ck, PlanConflict *pc)
{
	if (ck->ctx->trace)
		return;
	plan_conflict_free_fields(pc);
	free(pc);
}

/* Reports a clash of pass 1: two annotations meet with no shared value in
 * between. Always an error. */
static void report_irreducible(Checker *ck, uint32_t ci, const PlanClash *clash)
{
	PlanAnalysis *an = ck->an;
	const Constraint *c = &an->constraints[ci];
	const Expr *at = c->value != PLAN_NONE  ? an->by_id[c->value]
			 : c->site != PLAN_NONE ? an->by_id[c->site]
						: NULL;
	PlanConflict *pc = new_conflict(ck);
	StrBuf name, s0, s1, chain;
	strbuf_init(&name);
	strbuf_init(&s0);
	strbuf_init(&s1);
	strbuf_init(&chain);
	if (at)
		ir_value_name(&name, at);
	else
		strbuf_puts(&name, "?");
	describe_cause(ck, &s0, clash->causes[0]);
	describe_cause(ck, &s1, clash->causes[1]);
	describe_cause(ck, &chain, ci);
	if (ck->reported++ < DIAG_CONFLICTS) {
		diag_error(ck->ctx->diags, an->module->src,
			   at ? at->pos : plan_constraint_pos(an, ci),
			   "'%s' is pinned to both %s and %s, and no copy can separate them",
			   name.data, device_name(ck, clash->devices[0]),
			   device_name(ck, clash->devices[1]));
		diag_note(ck->ctx->diags, an->module->src, cause_pos(ck, clash->causes[0]),
			  "%s: %s", device_name(ck, clash->devices[0]), s0.data);
		diag_note(ck->ctx->diags, an->module->src, cause_pos(ck, clash->causes[1]),
			  "%s: %s", device_name(ck, clash->devices[1]), s1.data);
		diag_note(ck->ctx->diags, an->module->src, plan_constraint_pos(an, ci),
			  "joined by: %s", chain.data);
	}
	pc->value = at ? at->id : PLAN_NONE;
	pc->value_name = strbuf_detach(&name);
	pc->devices[0] = clash->devices[0];
	pc->devices[1] = clash->devices[1];
	pc->sources[0] = cause_pos(ck, clash->causes[0]);
	pc->sources[1] = cause_pos(ck, clash->causes[1]);
	pc->source_text[0] = strbuf_detach(&s0);
	pc->source_text[1] = strbuf_detach(&s1);
	pc->uses = xmalloc(sizeof(char *));
	pc->uses[0] = strbuf_detach(&chain);
	pc->nuses = 1;
	pc->home = IR_NO_DEVICE;
	pc->demands = xcalloc(2, sizeof(PlanDemand));
	pc->ndemands = 2;
	for (int k = 0; k < 2; k++) {
		/* ascending, like the demands of a conflict a copy resolves */
		int j = clash->devices[0] < clash->devices[1] ? k : 1 - k;
		pc->demands[k].device = pc->devices[j];
		pc->demands[k].source = pc->sources[j];
		pc->demands[k].source_text = xstrdup(pc->source_text[j]);
	}
	release_conflict(ck, pc);
	ck->irreducible++;
}

static void add_copy(Checker *ck, uint32_t value, const Constraint *c, int32_t home, int32_t dest)
{
	PendingCopy *p;
	grow_array((void **)&ck->copies, &ck->cap_copies, ck->ncopies + 1, sizeof(PendingCopy));
	p = &ck->copies[ck->ncopies++];
	p->value = value;
	p->site = c->site;
	p->kind = c->kind;
	p->index = c->index;
	p->home = home;
	p->dest = dest;
}

/* ---- pass 2: a resolution that reads only the dataflow graph ---- */

/* Which rule of the resolution gave a class its device. */
typedef enum HomeRule {
	RULE_FREE,            /* nothing decided it: core defaults it */
	RULE_OWN,             /* bound by pass 1: its own definition */
	RULE_DEMAND,          /* its placed consumers are all on one device */
	RULE_DEMAND_FALLBACK, /* they are on several; the fallback is one of them */
	RULE_DEMAND_LOWEST,   /* they are on several; the lowest-numbered of them */
	RULE_SUPPLY,          /* no consumer is placed; its inputs are on one device */
	RULE_SUPPLY_FALLBACK, /* its inputs are on several; the fallback is one of them */
	RULE_SUPPLY_LOWEST,   /* its inputs are on several; the lowest-numbered of them */
} HomeRule;

static const char *const rule_reason[] = {
	[RULE_FREE] = NULL,
	[RULE_OWN] = "its own definition forces it there",
	[RULE_DEMAND] = "the one device its placed consumers are on",
	[RULE_DEMAND_FALLBACK] = "the fallback device, where a consumer uses it",
	[RULE_DEMAND_LOWEST] = "the lowest-numbered device among its consumers",
	[RULE_SUPPLY] = "the device of the values it reads (nothing downstream is placed)",
	[RULE_SUPPLY_FALLBACK] = "the fallback device, where some of the values it reads are",
	[RULE_SUPPLY_LOWEST] = "the lowest-numbered device among the values it reads",
};

/* The devices seen among a class's neighbours, with a constraint that
 * explains each of the ones a rule can pick. */
typedef struct DeviceSet {
	int32_t first, lowest; /* IR_NO_DEVICE while empty */
	bool many, has_fallback;
	uint32_t first_cause, lowest_cause, fallback_cause;
} DeviceSet;

static const DeviceSet empty_set = {IR_NO_DEVICE, IR_NO_DEVICE, false,    false,
				    PLAN_NONE,    PLAN_NONE,    PLAN_NONE};

static void set_add(DeviceSet *s, int32_t d, uint32_t cause, int32_t fallback)
{
	if (d == IR_NO_DEVICE)
		return;
	if (s->first == IR_NO_DEVICE) {
		s->first = d;
		s->first_cause = cause;
	} else if (d != s->first) {
		s->many = true;
	}
	if (s->lowest == IR_NO_DEVICE || d < s->lowest) {
		s->lowest = d;
		s->lowest_cause = cause;
	}
	if (d == fallback && !s->has_fallback) {
		s->has_fallback = true;
		s->fallback_cause = cause;
	}
}

/* The device a free class takes from a set: the one device, else the
 * fallback when it is among them, else the lowest-numbered. `single` is
 * the rule for one device; the two that follow it in HomeRule are the
 * rules for several. */
static HomeRule set_choose(const DeviceSet *s, HomeRule single, int32_t fallback, int32_t *device,
			   uint32_t *cause)
{
	if (s->first == IR_NO_DEVICE)
		return RULE_FREE;
	if (!s->many) {
		*device = s->first;
		*cause = s->first_cause;
		return single;
	}
	if (s->has_fallback) {
		*device = fallback;
		*cause = s->fallback_cause;
		return (HomeRule)(single + 1);
	}
	*device = s->lowest;
	*cause = s->lowest_cause;
	return (HomeRule)(single + 2);
}

/* The graph of a mixed component: its classes are nodes, the uses of
 * values between them edges from the value's class to the consumer's. */
typedef struct Resolver {
	uint32_t nnodes;
	uint32_t *root;  /* node -> class (a result root of pass 1) */
	int32_t *device; /* node -> decided device, IR_NO_DEVICE while free */
	uint8_t *rule;   /* node -> HomeRule */
	uint32_t *cause; /* node -> the constraint behind its device */
	uint32_t *rep;   /* node -> an expression of the class, to name it */
	uint32_t nedges;
	uint32_t *from, *to;       /* edge -> nodes */
	uint32_t *out_start, *out; /* edges by source node */
} Resolver;

/* Builds one edge list sorted by `key` (counting sort). */
static void index_edges(uint32_t n, uint32_t nedges, const uint32_t *key, uint32_t **start_out,
			uint32_t **list_out)
{
	uint32_t *start = xcalloc((size_t)n + 1, sizeof(uint32_t));
	uint32_t *list = xmalloc(((size_t)nedges + 1) * sizeof(uint32_t));
	uint32_t *fill = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
	for (uint32_t e = 0; e < nedges; e++)
		start[key[e] + 1]++;
	for (uint32_t v = 0; v < n; v++)
		start[v + 1] += start[v];
	memcpy(fill, start, ((size_t)n + 1) * sizeof(uint32_t));
	for (uint32_t e = 0; e < nedges; e++)
		list[fill[key[e]]++] = e;
	free(fill);
	*start_out = start;
	*list_out = list;
}

/* Demand for one strongly connected component (members[0..n)), whose
 * consumers outside it are all decided: bound members keep their device;
 * free ones take what the component's consumers and bound members need. */
static void decide_component(Resolver *r, const uint32_t *members, uint32_t n,
			     const uint32_t *component, int32_t fallback)
{
	DeviceSet set = empty_set;
	uint32_t self = component[members[0]];
	int32_t device = IR_NO_DEVICE;
	uint32_t cause = PLAN_NONE;
	HomeRule rule;
	for (uint32_t k = 0; k < n; k++) {
		uint32_t x = members[k];
		if (r->rule[x] == RULE_OWN) {
			set_add(&set, r->device[x], r->cause[x], fallback);
			continue;
		}
		for (uint32_t j = r->out_start[x]; j < r->out_start[x + 1]; j++) {
			uint32_t c = r->to[r->out[j]];
			if (component[c] != self)
				set_add(&set, r->device[c], r->cause[c], fallback);
		}
	}
	rule = set_choose(&set, RULE_DEMAND, fallback, &device, &cause);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t x = members[k];
		if (r->rule[x] == RULE_OWN)
			continue;
		r->rule[x] = (uint8_t)rule;
		r->device[x] = device;
		r->cause[x] = cause;
	}
}

/* Demand, consumers first: Tarjan's algorithm (iteratively) emits each
 * strongly connected component after every component it reaches, and the
 * edges run from values to their consumers. */
static void resolve_demand(Resolver *r, int32_t fallback)
{
	uint32_t n = r->nnodes, counter = 0, sp = 0, cp = 0;
	uint32_t *index = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
	uint32_t *low = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
	uint32_t *iter = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
	uint32_t *stack = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
	uint32_t *calls = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
	uint32_t *component = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
	memset(index, 0xff, ((size_t)n + 1) * sizeof(uint32_t));
	memset(component, 0xff, ((size_t)n + 1) * sizeof(uint32_t));
	for (uint32_t s = 0; s < n; s++) {
		if (index[s] != PLAN_NONE)
			continue;
		index[s] = low[s] = counter++;
		stack[sp++] = s;
		iter[s] = r->out_start[s];
		calls[cp++] = s;
		while (cp) {
			uint32_t v = calls[cp - 1];
			if (iter[v] < r->out_start[v + 1]) {
				uint32_t w = r->to[r->out[iter[v]++]];
				if (index[w] == PLAN_NONE) {
					index[w] = low[w] = counter++;
					stack[sp++] = w;
					iter[w] = r->out_start[w];
					calls[cp++] = w;
				} else if (component[w] == PLAN_NONE && index[w] < low[v]) {
					low[v] = index[w]; /* w is still on the stack */
				}
				continue;
			}
			cp--;
			if (cp && low[v] < low[calls[cp - 1]])
				low[calls[cp - 1]] = low[v];
			if (low[v] == index[v]) {
				uint32_t top = sp;
				do
					component[stack[--sp]] = v;
				while (stack[sp] != v);
				decide_component(r, stack + sp, top - sp, component, fallback);
			}
		}
	}
	free(index);
	free(low);
	free(iter);
	free(stack);
	free(calls);
	free(component);
}

/* The root of x in a plain union-find over parent[] (path halving): the
 * pieces of resolve_supply and the components of resolve_uses. */
static uint32_t dsu_find(uint32_t *parent, uint32_t x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

/* Supply: what demand left free has nothing placed downstream. Each
 * connected piece of it takes the device of the values it reads. */
static void resolve_supply(Resolver *r, int32_t fallback)
{
	uint32_t n = r->nnodes;
	uint32_t *piece = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
	DeviceSet *sets = xmalloc(((size_t)n + 1) * sizeof(DeviceSet));
	for (uint32_t x = 0; x < n; x++) {
		piece[x] = x;
		sets[x] = empty_set;
	}
	for (uint32_t e = 0; e < r->nedges; e++)
		if (r->rule[r->from[e]] == RULE_FREE && r->rule[r->to[e]] == RULE_FREE)
			piece[dsu_find(piece, r->from[e])] = dsu_find(piece, r->to[e]);
	for (uint32_t e = 0; e < r->nedges; e++) {
		uint32_t a = r->from[e], b = r->to[e];
		if (r->rule[a] != RULE_FREE && r->rule[b] == RULE_FREE)
			set_add(&sets[dsu_find(piece, b)], r->device[a], r->cause[a], fallback);
		else if (r->rule[a] == RULE_FREE && r->rule[b] != RULE_FREE)
			set_add(&sets[dsu_find(piece, a)], r->device[b], r->cause[b], fallback);
	}
	for (uint32_t x = 0; x < n; x++) {
		int32_t device = IR_NO_DEVICE;
		uint32_t cause = PLAN_NONE;
		HomeRule rule;
		if (r->rule[x] != RULE_FREE)
			continue;
		rule = set_choose(&sets[dsu_find(piece, x)], RULE_SUPPLY, fallback, &device,
				  &cause);
		r->rule[x] = (uint8_t)rule;
		r->device[x] = device;
		r->cause[x] = cause;
	}
	free(piece);
	free(sets);
}

/* Whether a rule chose among several devices (a rule for one device is
 * followed by its two for several in HomeRule). */
static bool several_rule(HomeRule rule)
{
	return rule != RULE_FREE && rule != RULE_OWN && rule != RULE_DEMAND && rule != RULE_SUPPLY;
}

static bool has_scopes(const DeviceTable *devices)
{
	for (uint32_t i = 0; i < devices->count; i++)
		if (devices->items[i].scope[0])
			return true;
	return false;
}

/*
 * Demand and supply when the table has memory scopes, in two rounds:
 *   devices  the rules on the devices alone, a scoped class counting as its
 *            device without a scope (devices_unscoped): which values cross
 *            between devices, exactly as without scopes;
 *   scopes   the rules again on the uses within one device, where a class
 *            bound to a scope keeps it and every other class (free, or bound
 *            to the device without a scope, which joins any of its scopes)
 *            is free: it takes the scope of its consumers, else of the
 *            values it reads, by the same home rule. A class no scope
 *            reaches stays without one.
 * The reason recorded is the second round's when it chose among several
 * scopes or the first did not choose among several devices, else the
 * first's: `why` and `conflicts` then name the rule that mattered.
 */
static void resolve_scoped(Resolver *r, const DeviceTable *devices, int32_t fallback)
{
	uint32_t n = r->nnodes;
	int32_t *own = xmalloc(((size_t)n + 1) * sizeof(int32_t));
	Resolver scopes = {0};
	for (uint32_t x = 0; x < n; x++) {
		own[x] = r->rule[x] == RULE_OWN ? r->device[x] : IR_NO_DEVICE;
		if (r->rule[x] == RULE_OWN)
			r->device[x] = devices_unscoped(devices, r->device[x]);
	}
	resolve_demand(r, devices_unscoped(devices, fallback));
	resolve_supply(r, devices_unscoped(devices, fallback));

	scopes.nnodes = n;
	scopes.device = xmalloc(((size_t)n + 1) * sizeof(int32_t));
	scopes.rule = xcalloc((size_t)n + 1, 1);
	scopes.cause = xmalloc(((size_t)n + 1) * sizeof(uint32_t));
	scopes.from = xmalloc(((size_t)r->nedges + 1) * sizeof(uint32_t));
	scopes.to = xmalloc(((size_t)r->nedges + 1) * sizeof(uint32_t));
	for (uint32_t x = 0; x < n; x++) {
		bool scoped = own[x] != IR_NO_DEVICE && devices->items[own[x]].scope[0];
		scopes.device[x] = scoped ? own[x] : IR_NO_DEVICE;
		scopes.rule[x] = scoped ? RULE_OWN : RULE_FREE;
		scopes.cause[x] = scoped ? r->cause[x] : PLAN_NONE;
	}
	for (uint32_t e = 0; e < r->nedges; e++) {
		uint32_t a = r->from[e], b = r->to[e];
		if (r->device[a] == IR_NO_DEVICE || r->device[a] != r->device[b])
			continue;
		scopes.from[scopes.nedges] = a;
		scopes.to[scopes.nedges++] = b;
	}
	index_edges(n, scopes.nedges, scopes.from, &scopes.out_start, &scopes.out);
	resolve_demand(&scopes, fallback);
	resolve_supply(&scopes, fallback);
	for (uint32_t x = 0; x < n; x++) {
		HomeRule second = (HomeRule)scopes.rule[x];
		if (second == RULE_FREE) {
			if (own[x] != IR_NO_DEVICE)
				r->device[x] = own[x]; /* the device, no scope reached it */
			continue;
		}
		r->device[x] = scopes.device[x];
		if (several_rule(second) || !several_rule((HomeRule)r->rule[x])) {
			r->rule[x] = (uint8_t)second;
			r->cause[x] = scopes.cause[x];
		}
	}
	free(own);
	free(scopes.device);
	free(scopes.rule);
	free(scopes.cause);
	free(scopes.from);
	free(scopes.to);
	free(scopes.out_start);
	free(scopes.out);
}

/* One use of a conflicting value: the use, its device and why. */
static void describe_use(Checker *ck, StrBuf *chain, uint32_t constraint, int32_t device,
			 HomeRule rule, uint32_t cause)
{
	describe_cause(ck, chain, constraint);
	if (device == IR_NO_DEVICE)
		return;
	strbuf_printf(chain, ", which is on %s", device_name(ck, device));
	if (rule != RULE_OWN && rule_reason[rule])
		strbuf_printf(chain, " (check: %s)", rule_reason[rule]);
	if (cause != PLAN_NONE) {
		strbuf_puts(chain, " because ");
		describe_cause(ck, chain, cause);
	}
}

static int compare_demands(const void *a, const void *b)
{
	const PlanDemand *x = a, *y = b;
	return (x->device > y->device) - (x->device < y->device);
}

/* Adds device d (explained by `cause`) to a conflict's demands once. */
static void add_demand(Checker *ck, PlanConflict *pc, int32_t d, uint32_t cause)
{
	for (size_t k = 0; k < pc->ndemands; k++)
		if (pc->demands[k].device == d)
			return;
	pc->demands[pc->ndemands].device = d;
	pc->demands[pc->ndemands].source = cause_pos(ck, cause);
	{
		StrBuf s;
		strbuf_init(&s);
		describe_cause(ck, &s, cause);
		pc->demands[pc->ndemands].source_text = strbuf_detach(&s);
	}
	pc->ndemands++;
}

/* "cpu:0 and cuda:0", "cpu:0, cuda:0 and cuda:1": the demanded devices,
 * but `except` (IR_NO_DEVICE for none). */
static void list_devices(Checker *ck, StrBuf *out, const PlanConflict *pc, int32_t except)
{
	size_t n = 0, total = 0;
	for (size_t k = 0; k < pc->ndemands; k++)
		total += pc->demands[k].device != except;
	for (size_t k = 0; k < pc->ndemands; k++) {
		if (pc->demands[k].device == except)
			continue;
		if (n++)
			strbuf_puts(out, n == total ? " and " : ", ");
		strbuf_puts(out, device_name(ck, pc->demands[k].device));
	}
}

/* Records (and under the error policy reports) value v, whose uses
 * [begin, end) are on `devices` of the resolution and some of which read it
 * through a copy from `home`. */
/* Under policy tvm a conflict is resolved as TVM's walk resolved it: the
 * value stays where the first use the walk reached needs it, and each call
 * that needs it elsewhere reads it through its own copy; a conflict the
 * walk did not see (no call's operand) TVM does not resolve. */
static void tvm_resolution(Checker *ck, PlanConflict *pc)
{
	const PlanTvm *t = ck->tvm;
	uint32_t v = pc->value;
	size_t n = 0;
	pc->nconsumers = 0;
	if (v >= t->nexprs || !t->conflicted[v]) {
		pc->home = IR_NO_DEVICE;
		pc->home_reason = "none: TVM's conflict check sees only the operands of calls, "
				  "and its device analysis stops at this one";
		return;
	}
	pc->home = t->device[v];
	pc->devices[0] = t->device[v];
	pc->first_use = t->first[v];
	pc->home_reason = "where the first use TVM's walk reaches needs it (TVM v0.14, "
			  "the order of the text)";
	for (size_t i = 0; i < t->nclashes; i++)
		n += t->clashes[i].value == v;
	pc->consumers = xrealloc(pc->consumers, (n + 1) * sizeof(uint32_t));
	pc->consumer_devices = xrealloc(pc->consumer_devices, (n + 1) * sizeof(int32_t));
	for (size_t i = 0; i < t->nclashes; i++)
		if (t->clashes[i].value == v) {
			pc->consumers[pc->nconsumers] = t->clashes[i].site;
			pc->consumer_devices[pc->nconsumers++] = t->clashes[i].device;
		}
}

static void record_conflict(Checker *ck, Resolver *r, uint32_t v, uint32_t home_node,
			    const uint32_t *use_nodes, uint32_t begin, uint32_t end)
{
	PlanAnalysis *an = ck->an;
	const Expr *value = an->by_id[v];
	int32_t home = r->device[home_node];
	PlanConflict *pc = new_conflict(ck);
	StrBuf name, use, s0, s1;
	uint32_t other_cause = PLAN_NONE;
	int32_t other = IR_NO_DEVICE;
	size_t ncons = 0;
	ck->conflicts++;
	strbuf_init(&name);
	strbuf_init(&use);
	strbuf_init(&s0);
	strbuf_init(&s1);
	ir_value_name(&name, value);
	pc->uses = xmalloc(PLAN_CONFLICT_USES_SHOWN * sizeof(char *));
	pc->consumers = xmalloc((end - begin + 1) * sizeof(uint32_t));
	pc->consumer_devices = xmalloc((end - begin + 1) * sizeof(int32_t));
	pc->demands = xcalloc(end - begin + 2, sizeof(PlanDemand));
	add_demand(ck, pc, home, r->cause[home_node]);
	for (uint32_t i = begin; i < end; i++) {
		const Constraint *c = &an->constraints[ck->uses[i].constraint];
		uint32_t to = use_nodes[i - begin];
		int32_t d = to == PLAN_NONE ? IR_NO_DEVICE : r->device[to];
		uint32_t cause = to == PLAN_NONE ? PLAN_NONE : r->cause[to];
		if (pc->nuses < PLAN_CONFLICT_USES_SHOWN) {
			describe_use(ck, &use, ck->uses[i].constraint, d,
				     to == PLAN_NONE ? RULE_FREE : (HomeRule)r->rule[to], cause);
			pc->uses[pc->nuses++] = strbuf_detach(&use);
		} else {
			pc->uses_left_out++;
		}
		if (d == IR_NO_DEVICE || d == home)
			continue;
		if (other == IR_NO_DEVICE || d < other) {
			other = d;
			other_cause = cause;
		}
		add_demand(ck, pc, d, cause);
		pc->consumers[ncons] = c->site;
		pc->consumer_devices[ncons++] = d;
		if (!ck->tvm)
			add_copy(ck, v, c, home, d);
	}
	qsort(pc->demands, pc->ndemands, sizeof(PlanDemand), compare_demands);
	describe_cause(ck, &s0, r->cause[home_node]);
	describe_cause(ck, &s1, other_cause);
	pc->value = v;
	pc->value_name = strbuf_detach(&name);
	pc->devices[0] = home;
	pc->devices[1] = other;
	pc->sources[0] = cause_pos(ck, r->cause[home_node]);
	pc->sources[1] = cause_pos(ck, other_cause);
	pc->source_text[0] = strbuf_detach(&s0);
	pc->source_text[1] = strbuf_detach(&s1);
	pc->home = ck->ctx->policy == POLICY_ERROR ? IR_NO_DEVICE : home;
	pc->home_reason = rule_reason[r->rule[home_node]];
	pc->nconsumers = ncons;
	pc->first_use = PLAN_NONE;
	if (ck->tvm)
		tvm_resolution(ck, pc);
	if (ck->ctx->policy == POLICY_ERROR && ck->reported++ < DIAG_CONFLICTS) {
		const SourceFile *src = an->module->src;
		StrBuf list, others;
		strbuf_init(&list);
		strbuf_init(&others);
		list_devices(ck, &list, pc, IR_NO_DEVICE);
		list_devices(ck, &others, pc, home);
		diag_error(ck->ctx->diags, src, value->pos, "'%s' is needed on %s", pc->value_name,
			   list.data);
		for (size_t k = 0; k < pc->ndemands; k++)
			diag_note(ck->ctx->diags, src, pc->demands[k].source, "%s: %s",
				  device_name(ck, pc->demands[k].device),
				  pc->demands[k].source_text);
		/* the first two uses; `conflicts` lists them one a line */
		strbuf_reset(&use);
		for (size_t k = 0; k < pc->nuses && k < 2; k++)
			strbuf_printf(&use, "%s%s", k ? "; " : "", pc->uses[k]);
		if (pc->nuses + pc->uses_left_out > 2)
			strbuf_printf(&use, "; and %zu more uses (see 'conflicts')",
				      pc->nuses + pc->uses_left_out - 2);
		diag_note(ck->ctx->diags, src, value->pos, "uses: %s", use.data);
		diag_note(ck->ctx->diags, NULL, (Pos){0, 0},
			  "'set policy copy' would keep '%s' on %s and copy it to %s",
			  pc->value_name, device_name(ck, home), others.data);
		strbuf_free(&list);
		strbuf_free(&others);
	}
	strbuf_free(&use);
	release_conflict(ck, pc);
}

/* Applies use constraint i, reporting a clash (none is expected). */
static void apply_use(Checker *ck, uint32_t i)
{
	PlanClash clash;
	if (!plan_constraint_apply(ck->an, i, &clash))
		report_irreducible(ck, i, &clash);
}

/* Binds a class that a rule for several devices placed, so that `why`
 * names the rule. */
static void bind_choice(Checker *ck, Resolver *r, uint32_t x)
{
	HomeRule rule = (HomeRule)r->rule[x];
	Constraint c = {
		.kind = rule == RULE_SUPPLY_FALLBACK || rule == RULE_SUPPLY_LOWEST
				? CONSTRAINT_CONFLICT_MEET
				: CONSTRAINT_CONFLICT_HOME,
		.site = PLAN_NONE,
		.value = r->rep[x],
		/* the expression's own domain, so that `why` on it meets the
		 * rule first */
		.a = ck->an->expr_domain[r->rep[x]],
		.b = PLAN_NONE,
		.device = r->device[x],
	};
	apply_use(ck, plan_constraint_add(ck->an, &c));
}

/* Whether the classes of pass 1 are bound to two or more devices: only
 * then can a group of them be mixed. One pass over the domains, which
 * spares a module on one device (the common case) every other array. */
static bool several_devices(const PlanAnalysis *an)
{
	int32_t seen = IR_NO_DEVICE;
	for (size_t d = 0; d < an->ndomains; d++) {
		int32_t dev = an->domains[d].device;
		if (dev == IR_NO_DEVICE || an->domains[d].parent != d)
			continue;
		if (seen == IR_NO_DEVICE)
			seen = dev;
		else if (dev != seen && (seen = devices_join(an->devices, seen, dev)) < 0)
			return true; /* two that do not join (scopes of one device may) */
	}
	return false;
}

/* Pass 2 with no mixed group: every use unifies. */
static bool unify_uses(Checker *ck)
{
	uint32_t nuses = ck->use_start[ck->an->nexprs];
	for (uint32_t i = 0; i < nuses; i++) {
		if (interrupt_poll(i))
			return false;
		apply_use(ck, ck->uses[i].constraint);
	}
	return true;
}

/* The mixed components' graph, in r: one node per domain class a use
 * joins (use_node, two per use, PLAN_NONE for a use outside a mixed
 * component), its edges the uses from[i] -> to[i]; each node is given its
 * device by the rules for several devices, and a class they placed is
 * bound so that `why` names the rule. */
static void resolve_mixed(Checker *ck, Resolver *r, const uint32_t *from, const uint32_t *to,
			  const uint32_t *use_node, uint32_t nuses)
{
	PlanAnalysis *an = ck->an;
	uint32_t e = 0;
	r->root = xmalloc(r->nnodes * sizeof(uint32_t));
	r->device = xmalloc(r->nnodes * sizeof(int32_t));
	r->rule = xcalloc(r->nnodes, 1);
	r->cause = xmalloc(r->nnodes * sizeof(uint32_t));
	r->rep = xmalloc(r->nnodes * sizeof(uint32_t));
	r->from = xmalloc(r->nedges * sizeof(uint32_t));
	r->to = xmalloc(r->nedges * sizeof(uint32_t));
	memset(r->rep, 0xff, r->nnodes * sizeof(uint32_t));
	for (uint32_t i = 0; i < nuses; i++) {
		const Constraint *c = &an->constraints[ck->uses[i].constraint];
		uint32_t a = use_node[2 * i], b = use_node[2 * i + 1];
		if (a == PLAN_NONE)
			continue;
		r->root[a] = from[i];
		r->root[b] = to[i];
		if (r->rep[a] == PLAN_NONE)
			r->rep[a] = c->value;
		r->from[e] = a;
		r->to[e++] = b;
	}
	for (uint32_t i = 0; i < nuses; i++) {
		uint32_t b = use_node[2 * i + 1];
		if (b != PLAN_NONE && r->rep[b] == PLAN_NONE)
			r->rep[b] = an->constraints[ck->uses[i].constraint].site;
	}
	for (uint32_t x = 0; x < r->nnodes; x++) {
		const Domain *dom = &an->domains[r->root[x]];
		r->device[x] = dom->device;
		r->cause[x] = dom->device == IR_NO_DEVICE ? PLAN_NONE : dom->bound_by;
		r->rule[x] = dom->device == IR_NO_DEVICE ? RULE_FREE : RULE_OWN;
	}
	index_edges(r->nnodes, r->nedges, r->from, &r->out_start, &r->out);
	if (has_scopes(ck->ctx->devices)) {
		resolve_scoped(r, ck->ctx->devices, ck->ctx->fallback);
	} else {
		resolve_demand(r, ck->ctx->fallback);
		resolve_supply(r, ck->ctx->fallback);
	}
	for (uint32_t x = 0; x < r->nnodes; x++)
		if (several_rule((HomeRule)r->rule[x]))
			bind_choice(ck, r, x);
}

/* Pass 2 (see the top of the file). Returns false when interrupted. */
static bool resolve_uses(Checker *ck)
{
	PlanAnalysis *an = ck->an;
	uint32_t nd = (uint32_t)an->ndomains, nuses = ck->use_start[an->nexprs];
	uint32_t *from = xmalloc(((size_t)nuses + 1) * sizeof(uint32_t));
	uint32_t *to = xmalloc(((size_t)nuses + 1) * sizeof(uint32_t));
	uint32_t *comp = xmalloc(((size_t)nd + 1) * sizeof(uint32_t));
	int32_t *comp_device = xmalloc(((size_t)nd + 1) * sizeof(int32_t));
	uint32_t *node_of = NULL, *use_node = NULL;
	Resolver r = {0};
	bool interrupted = false;
	enum { MIXED = -2 };
	/* classes at the end of pass 1, and the components the uses join */
	for (uint32_t d = 0; d < nd; d++) {
		comp[d] = d;
		comp_device[d] = IR_NO_DEVICE;
	}
	for (uint32_t i = 0; i < nuses; i++) {
		const Constraint *c = &an->constraints[ck->uses[i].constraint];
		from[i] = plan_domain_result(an, c->b);
		to[i] = plan_domain_result(an, c->a);
		comp[dsu_find(comp, from[i])] = dsu_find(comp, to[i]);
		if (interrupt_poll(i)) {
			interrupted = true;
			goto done;
		}
	}
	for (uint32_t i = 0; i < nuses; i++) {
		uint32_t ends[2] = {from[i], to[i]};
		for (int k = 0; k < 2; k++) {
			uint32_t c = dsu_find(comp, ends[k]);
			int32_t d = an->domains[ends[k]].device;
			if (d == IR_NO_DEVICE || comp_device[c] == MIXED)
				continue;
			/* the devices' join: scopes of one device and that
			 * device without a scope are one device to TVM */
			comp_device[c] = comp_device[c] == IR_NO_DEVICE
						 ? d
						 : devices_join(an->devices, comp_device[c], d);
			if (comp_device[c] < 0)
				comp_device[c] = MIXED;
		}
	}
	/* the graph of the mixed components */
	node_of = xmalloc(((size_t)nd + 1) * sizeof(uint32_t));
	use_node = xmalloc(((size_t)nuses + 1) * 2 * sizeof(uint32_t));
	memset(node_of, 0xff, ((size_t)nd + 1) * sizeof(uint32_t));
	for (uint32_t i = 0; i < nuses; i++) {
		uint32_t ends[2] = {from[i], to[i]};
		use_node[2 * i] = use_node[2 * i + 1] = PLAN_NONE;
		if (comp_device[dsu_find(comp, from[i])] != MIXED)
			continue;
		for (int k = 0; k < 2; k++) {
			if (node_of[ends[k]] == PLAN_NONE)
				node_of[ends[k]] = r.nnodes++;
			use_node[2 * i + k] = node_of[ends[k]];
		}
		r.nedges++;
	}
	if (r.nnodes)
		resolve_mixed(ck, &r, from, to, use_node, nuses);
	/* every use, value by value: unified, or read through a copy */
	for (uint32_t v = 0; v < an->nexprs; v++) {
		uint32_t begin = ck->use_start[v], end = ck->use_start[v + 1];
		uint32_t home = PLAN_NONE;
		bool copies = false;
		if (interrupt_poll(v)) {
			interrupted = true;
			break;
		}
		for (uint32_t i = begin; i < end && !copies; i++) {
			uint32_t a = use_node[2 * i], b = use_node[2 * i + 1];
			home = a;
			copies = a != PLAN_NONE && r.device[a] != IR_NO_DEVICE &&
				 r.device[b] != IR_NO_DEVICE && r.device[a] != r.device[b];
		}
		if (!copies) {
			for (uint32_t i = begin; i < end; i++)
				apply_use(ck, ck->uses[i].constraint);
			continue;
		}
		{
			uint32_t *targets = xmalloc((end - begin) * sizeof(uint32_t));
			for (uint32_t i = begin; i < end; i++) {
				uint32_t b = use_node[2 * i + 1];
				targets[i - begin] = b;
				if (r.device[b] == r.device[home] || r.device[b] == IR_NO_DEVICE)
					apply_use(ck, ck->uses[i].constraint);
			}
			record_conflict(ck, &r, v, home, targets, begin, end);
			free(targets);
		}
	}
done:
	free(from);
	free(to);
	free(comp);
	free(comp_device);
	free(node_of);
	free(use_node);
	free(r.root);
	free(r.device);
	free(r.rule);
	free(r.cause);
	free(r.rep);
	free(r.from);
	free(r.to);
	free(r.out_start);
	free(r.out);
	return !interrupted;
}

/* Under replicate, a copy of a parameter or of a let-bound value, bound
 * by a let right after the definition (SPEC §3.2): at function entry for a
 * parameter, at the start of its clause for a pattern variable. A graph binding's copy stays a shared node, which the printer
 * puts before its first use. */
typedef struct EagerCopy {
	Expr *value; /* the parameter or let variable copied */
	Expr *var;   /* the let variable consumers read instead */
	Expr *copy;  /* its device_copy */
	int32_t dest;
} EagerCopy;

static int compare_eager(const void *a, const void *b)
{
	const EagerCopy *x = a, *y = b;
	if (x->value->id != y->value->id)
		return x->value->id < y->value->id ? -1 : 1;
	return (x->dest > y->dest) - (x->dest < y->dest);
}

/* `%b_cuda0`: the copy of %b on cuda:0 (the printer makes it unique); a
 * memory scope's '.' and '-', which a name cannot hold, become '_'
 * (`%b_cuda0global_texture`). */
static const char *eager_name(Checker *ck, IrModule *m, const Expr *value, int32_t dest)
{
	StrBuf sb;
	const char *name;
	strbuf_init(&sb);
	strbuf_printf(&sb, "%s_", value->name ? value->name : "copy");
	for (const char *c = device_name(ck, dest); *c; c++)
		if (*c == '.' || *c == '-')
			strbuf_putc(&sb, '_');
		else if (*c != ':')
			strbuf_putc(&sb, *c);
	name = arena_strdup(ir_data_arena(m), sb.data);
	strbuf_free(&sb);
	return name;
}

/* Wraps each eager copy in a let where its value is defined: a function's
 * body for a parameter, a let's body for a let variable, a clause's body
 * for a pattern variable. In value order,
 * then destination order, so the text does not depend on which use came
 * first. */
static void bind_eager_copies(IrModule *m, const ExprVec *all, EagerCopy *ec, size_t n)
{
	/* where each parameter's and let variable's scope begins, by id */
	Expr ***body_of = xcalloc(m->nexprs ? m->nexprs : 1, sizeof(Expr **));
	for (size_t i = 0; i < all->count; i++) {
		Expr *e = all->items[i];
		if (e->kind == EXPR_FN)
			for (uint32_t j = 0; j < e->u.fn.nparams; j++)
				if (e->u.fn.params[j]->id < m->nexprs)
					body_of[e->u.fn.params[j]->id] = &e->u.fn.body;
		if (e->kind == EXPR_LET && e->u.let.var->id < m->nexprs)
			body_of[e->u.let.var->id] = &e->u.let.body;
		if (e->kind == EXPR_MATCH)
			for (uint32_t k = 0; k < e->u.match.nclauses; k++) {
				const MatchClause *c = &e->u.match.clauses[k];
				for (uint32_t j = c->first_var; j < c->first_var + c->nvars; j++)
					if (e->u.match.vars[j]->id < m->nexprs)
						body_of[e->u.match.vars[j]->id] =
							&e->u.match.bodies[k];
			}
	}
	qsort(ec, n, sizeof(EagerCopy), compare_eager);
	/* wrapping from the last puts the first outermost */
	for (size_t k = n; k-- > 0;) {
		Expr **body = ec[k].value->id < m->nexprs ? body_of[ec[k].value->id] : NULL;
		DP_ASSERT(body);
		*body = ir_let(m, ec[k].value->pos, ec[k].var, ec[k].copy, *body);
	}
	free(body_of);
}

/* Rebuilds the module with the copies in place. */
static IrModule *insert_copies(Checker *ck, const IrModule *in)
{
	ExprVec all = {0};
	IrModule *m = ir_module_clone_ordered(in, &all);
	Expr **by_id = xcalloc(m->nexprs ? m->nexprs : 1, sizeof(Expr *));
	/* copies arrive grouped by value: the copies made for the current
	 * value, by destination device */
	Expr **made = xcalloc(ck->ctx->devices->count + 1, sizeof(Expr *));
	uint32_t current = PLAN_NONE;
	PlanFreshNumbers names;
	bool eager = ck->ctx->policy == POLICY_REPLICATE;
	EagerCopy *eager_copies = NULL;
	size_t neager = 0, cap_eager = 0;
	for (size_t i = 0; i < all.count; i++)
		by_id[all.items[i]->id] = all.items[i];
	plan_fresh_numbers_init(&names, &all, (uint32_t)ck->ncopies);
	for (size_t i = 0; i < ck->ncopies; i++) {
		PendingCopy *p = &ck->copies[i];
		Expr *value = by_id[p->value], *site = by_id[p->site], *copy;
		if (p->value != current) {
			memset(made, 0, (ck->ctx->devices->count + 1) * sizeof(Expr *));
			current = p->value;
		}
		/* one copy per (value, destination), shared by every consumer */
		copy = made[p->dest];
		if (!copy && ck->ctx->policy == POLICY_REPLICATE && value->kind == EXPR_CONSTANT) {
			Tensor t = value->u.constant.tensor;
			int32_t meta = value->u.constant.meta_index;
			if (meta >= 0) {
				m->constants = xrealloc(m->constants,
							(m->nconstants + 1) * sizeof(Expr *));
				meta = (int32_t)m->nconstants++;
			}
			copy = ir_constant(m, value->pos, &t, meta);
			if (meta >= 0)
				m->constants[meta] = copy;
		} else if (!copy && eager && value->kind == EXPR_VAR &&
			   value->u.var.role != VAR_FREE) {
			/* replicate: bound by a let right after the definition */
			EagerCopy *ec;
			grow_array((void **)&eager_copies, &cap_eager, neager + 1,
				   sizeof(EagerCopy));
			ec = &eager_copies[neager++];
			ec->value = value;
			ec->dest = p->dest;
			ec->copy = ir_device_copy(m, value->pos, value, p->home, p->dest);
			ec->var = ir_var(m, value->pos, eager_name(ck, m, value, p->dest), VAR_LET,
					 NULL);
			ec->var->name_generated = true;
			copy = ec->var;
		} else if (!copy) {
			copy = ir_device_copy(m, site->pos, value, p->home, p->dest);
			copy->name = plan_fresh_number(&names, m);
			copy->name_generated = true;
		}
		made[p->dest] = copy;
		switch (p->kind) {
		case CONSTRAINT_OP_ARG:
		case CONSTRAINT_HOST_OPERAND:
			site->u.call.args[p->index] = copy;
			break;
		case CONSTRAINT_CALL_ARG:
			site->u.call.args[p->index] = copy;
			break;
		case CONSTRAINT_TUPLE_FIELD:
			site->u.tuple.fields[p->index] = copy;
			break;
		case CONSTRAINT_IF_COND:
			site->u.if_.cond = copy;
			break;
		case CONSTRAINT_CONSTRUCT_ARG:
			site->u.construct.args[p->index] = copy;
			break;
		case CONSTRAINT_MATCH_SCRUTINEE:
			site->u.match.scrutinee = copy;
			break;
		case CONSTRAINT_ON_DEVICE_BODY:
		case CONSTRAINT_ON_DEVICE_RESULT:
		case CONSTRAINT_COPY_SOURCE:
		case CONSTRAINT_COPY_DEST:
		case CONSTRAINT_CALL_RESULT:
		case CONSTRAINT_CALLEE:
		case CONSTRAINT_LET_VAR:
		case CONSTRAINT_LET_BODY:
		case CONSTRAINT_FN_BODY:
		case CONSTRAINT_FN_PARAM:
		case CONSTRAINT_PRIMITIVE_PARAM:
		case CONSTRAINT_PARAM_DEVICE:
		case CONSTRAINT_FN_DEVICE:
		case CONSTRAINT_PROJ:
		case CONSTRAINT_IF_BRANCH:
		case CONSTRAINT_GLOBAL:
		case CONSTRAINT_DEFAULT_RESULT:
		case CONSTRAINT_DEFAULT_PARAM:
		case CONSTRAINT_DEFAULT_LET:
		case CONSTRAINT_DEFAULT_CALL:
		case CONSTRAINT_DEFAULT_OTHER:
		case CONSTRAINT_DEFAULT_SHARED:
		case CONSTRAINT_MIN_TRANSFER:
		case CONSTRAINT_SCOPE_JOIN:
		case CONSTRAINT_FREE_ON_DEVICE:
		case CONSTRAINT_PIN:
		case CONSTRAINT_HOST_RESULT:
		case CONSTRAINT_PATTERN_VAR:
		case CONSTRAINT_MATCH_CLAUSE:
		case CONSTRAINT_ALLOC_DEVICE:
		case CONSTRAINT_CONFLICT_HOME:
		case CONSTRAINT_CONFLICT_MEET:
			DP_ASSERT(!"copy at a use that cannot take one");
			break;
		}
	}
	if (neager)
		bind_eager_copies(m, &all, eager_copies, neager);
	free(eager_copies);
	free(made);
	plan_fresh_numbers_free(&names);
	exprvec_free(&all);
	free(by_id);
	return m;
}

IrModule *plan_check_phase(const IrModule *in, PhaseContext *ctx)
{
	PlanAnalysis *an = xcalloc(1, sizeof(PlanAnalysis));
	Checker ck = {0};
	IrModule *out = NULL;
	bool interrupted = false;
	if (ctx->trace) {
		/* a rerun after a failed check starts from no conflicts */
		for (size_t i = 0; i < ctx->trace->nconflicts; i++)
			plan_conflict_free_fields(&ctx->trace->conflicts[i]);
		ctx->trace->nconflicts = 0;
	}
	plan_analysis_init(an, in, ctx->devices);
	ck.ctx = ctx;
	ck.an = an;
	if (ctx->policy == POLICY_TVM) {
		ck.tvm = xcalloc(1, sizeof(PlanTvm));
		if (!plan_tvm_find(in, ck.tvm, ctx->pins, ctx->npins, ctx->devices, ctx->diags))
			interrupted = true; /* reported: TVM stops there too */
	}
	plan_generate_constraints(an, ctx->pins, ctx->npins, plan_host_device(ctx->devices),
				  &ck.cuttable);
	index_uses(&ck);
	/* Pass 1: everything but the uses of values. Ctrl-C is polled
	 * (interrupt_poll) in either pass. */
	{
		size_t n = an->nconstraints;
		for (size_t i = 0; i < n && !interrupted; i++) {
			PlanClash clash;
			if (interrupt_poll(i))
				interrupted = true;
			if (ck.cuttable[i])
				continue;
			if (!plan_constraint_apply(an, (uint32_t)i, &clash))
				report_irreducible(&ck, (uint32_t)i, &clash);
		}
	}
	/* Pass 2: the uses of values, resolved on the graph they form. */
	if (!interrupted && !(several_devices(an) ? resolve_uses(&ck) : unify_uses(&ck)))
		interrupted = true;
	{
		size_t shown = ck.irreducible + (ctx->policy == POLICY_ERROR ? ck.conflicts : 0);
		if (ck.reported < shown)
			diag_note(ctx->diags, NULL, (Pos){0, 0},
				  "%zu more conflicts not shown; see 'conflicts'",
				  shown - ck.reported);
	}
	if (interrupted && !ck.tvm)
		diag_error(ctx->diags, NULL, (Pos){0, 0}, "interrupted during phase 'check'");
	else if (ck.irreducible == 0 && ck.tvm)
		out = ck.tvm->nconflicted ? plan_tvm_rewrite(in, ck.tvm, ctx->diags)
					  : ir_module_retain(in);
	else if (ck.irreducible == 0 && !(ctx->policy == POLICY_ERROR && ck.conflicts))
		out = ck.ncopies ? insert_copies(&ck, in) : ir_module_retain(in);
	if (ck.tvm) {
		plan_tvm_free(ck.tvm);
		free(ck.tvm);
	}
	free(ck.cuttable);
	free(ck.use_start);
	free(ck.uses);
	free(ck.copies);
	if (ctx->trace) {
		ctx->trace->check_nexprs = in->nexprs;
		if (ctx->trace->check) {
			plan_analysis_free(ctx->trace->check);
			free(ctx->trace->check);
		}
		ctx->trace->check = an;
	} else {
		plan_analysis_free(an);
		free(an);
	}
	return out;
}
