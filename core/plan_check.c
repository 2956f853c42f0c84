/*
 * plan_check.c - the `check` phase: every conflict, and its resolution.
 *
 * A conflict is a value whose uses demand two different devices (SPEC
 * §3.2). The analysis runs in two passes so that the outcome does not depend
 * on the order in which constraints are met:
 *   1. unify every constraint except the uses of values used by two or more
 *      consumers ("shared values"); a clash here joins two annotations
 *      without any value in between where a copy could go, so it is an error
 *      under every policy;
 *   2. for each shared value, consumers before producers, compare the device
 *      its own definition forces with the devices its consumers' domains
 *      are bound to. If they agree, unify them all (exactly what TVM does);
 *      otherwise it is a conflict: the value gets a home device (its own,
 *      else the fallback if a consumer uses it there, else the
 *      lowest-numbered consumer device), the consumers on the home device or
 *      free join it, and every other consumer reads it through one
 *      device_copy per destination device.
 * Under the error policy the conflicts are reported and planning stops;
 * under copy and replicate the phase returns a clone of its input with the
 * device_copy calls (or, for constants under replicate, duplicates) in
 * place, so that `core` never meets a conflict a copy could resolve.
 */
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "print.h"
#include "session.h"

/* Uses described in a conflict's chain before "and N more uses". */
enum { CHAIN_USES_SHOWN = 8 };

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
	if (!t) /* no trace to keep it in: release_conflict frees it */
		return xcalloc(1, sizeof(PlanConflict));
	grow_array((void **)&t->conflicts, &t->cap_conflicts, t->nconflicts + 1,
		   sizeof(PlanConflict));
	c = &t->conflicts[t->nconflicts++];
	memset(c, 0, sizeof *c);
	return c;
}

void plan_conflict_free_fields(PlanConflict *c)
{
	free(c->value_name);
	free(c->source_text[0]);
	free(c->source_text[1]);
	free(c->chain);
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
	pc->chain = strbuf_detach(&chain);
	pc->home = IR_NO_DEVICE;
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

/* Appends one use to a conflict's chain: the use, its device and why. */
static void describe_use(Checker *ck, StrBuf *chain, uint32_t constraint, uint32_t root)
{
	PlanAnalysis *an = ck->an;
	int32_t d = an->domains[root].device;
	if (chain->len)
		strbuf_puts(chain, "; ");
	describe_cause(ck, chain, constraint);
	if (d == IR_NO_DEVICE)
		return;
	strbuf_printf(chain, ", which is on %s", device_name(ck, d));
	if (an->domains[root].bound_by != PLAN_NONE) {
		strbuf_puts(chain, " because ");
		describe_cause(ck, chain, an->domains[root].bound_by);
	}
}

/* Pass 2 for one value: unify it with its uses, or resolve a conflict. */
static void resolve_value(Checker *ck, uint32_t v)
{
	PlanAnalysis *an = ck->an;
	const Expr *value = an->by_id[v];
	int32_t own = plan_domain_device(an, an->expr_domain[v]);
	int32_t home = own, other = IR_NO_DEVICE;
	uint32_t own_cause =
		own != IR_NO_DEVICE
			? an->domains[plan_domain_result(an, an->expr_domain[v])].bound_by
			: PLAN_NONE;
	bool conflict = false, fallback_used = false;
	uint32_t begin = ck->use_start[v], end = ck->use_start[v + 1];
	int32_t lowest = IR_NO_DEVICE, seen = own;
	for (uint32_t i = begin; i < end; i++) {
		int32_t d = plan_domain_device(an, an->constraints[ck->uses[i].constraint].a);
		if (d == IR_NO_DEVICE)
			continue;
		if (d == ck->ctx->fallback)
			fallback_used = true;
		if (lowest == IR_NO_DEVICE || d < lowest)
			lowest = d;
		if (seen == IR_NO_DEVICE)
			seen = d;
		else if (d != seen)
			conflict = true;
	}
	if (!conflict) {
		for (uint32_t i = begin; i < end; i++) {
			PlanClash clash;
			if (!plan_constraint_apply(an, ck->uses[i].constraint, &clash))
				report_irreducible(ck, ck->uses[i].constraint, &clash);
		}
		return;
	}
	const char *home_reason = "its own definition forces it there";
	if (home == IR_NO_DEVICE) {
		home = fallback_used ? ck->ctx->fallback : lowest;
		home_reason = fallback_used ? "the fallback device, where a consumer uses it"
					    : "the lowest-numbered device among its consumers";
	}
	ck->conflicts++;
	{
		PlanConflict *pc = new_conflict(ck);
		StrBuf name, chain, s0, s1;
		uint32_t home_cause = own_cause, other_cause = PLAN_NONE;
		size_t ncons = 0;
		strbuf_init(&name);
		strbuf_init(&chain);
		strbuf_init(&s0);
		strbuf_init(&s1);
		ir_value_name(&name, value);
		pc->consumers = xmalloc((end - begin + 1) * sizeof(uint32_t));
		pc->consumer_devices = xmalloc((end - begin + 1) * sizeof(int32_t));
		for (uint32_t i = begin; i < end; i++) {
			const Constraint *c = &an->constraints[ck->uses[i].constraint];
			uint32_t root = plan_domain_result(an, c->a);
			int32_t d = an->domains[root].device;
			if (i - begin < CHAIN_USES_SHOWN)
				describe_use(ck, &chain, ck->uses[i].constraint, root);
			else if (i - begin == CHAIN_USES_SHOWN)
				strbuf_printf(&chain, "; and %u more uses", end - i);
			if (d == home && home_cause == PLAN_NONE)
				home_cause = an->domains[root].bound_by;
			if (d != IR_NO_DEVICE && d != home) {
				if (other == IR_NO_DEVICE) {
					other = d;
					other_cause = an->domains[root].bound_by;
				}
				pc->consumers[ncons] = c->site;
				pc->consumer_devices[ncons++] = d;
				add_copy(ck, v, c, home, d);
			} else {
				PlanClash clash;
				if (!plan_constraint_apply(an, ck->uses[i].constraint, &clash))
					report_irreducible(ck, ck->uses[i].constraint, &clash);
			}
		}
		describe_cause(ck, &s0, home_cause);
		describe_cause(ck, &s1, other_cause);
		pc->value = v;
		pc->value_name = strbuf_detach(&name);
		pc->devices[0] = home;
		pc->devices[1] = other;
		pc->sources[0] = cause_pos(ck, home_cause);
		pc->sources[1] = cause_pos(ck, other_cause);
		pc->source_text[0] = strbuf_detach(&s0);
		pc->source_text[1] = strbuf_detach(&s1);
		pc->chain = strbuf_detach(&chain);
		pc->home = ck->ctx->policy == POLICY_ERROR ? IR_NO_DEVICE : home;
		pc->home_reason = home_reason;
		pc->nconsumers = ncons;
		if (ck->ctx->policy == POLICY_ERROR && ck->reported++ < DIAG_CONFLICTS) {
			const SourceFile *src = an->module->src;
			diag_error(ck->ctx->diags, src, value->pos,
				   "'%s' is needed on %s and on %s", pc->value_name,
				   device_name(ck, home), device_name(ck, other));
			diag_note(ck->ctx->diags, src, pc->sources[0], "%s: %s",
				  device_name(ck, home), pc->source_text[0]);
			diag_note(ck->ctx->diags, src, pc->sources[1], "%s: %s",
				  device_name(ck, other), pc->source_text[1]);
			diag_note(ck->ctx->diags, src, value->pos, "uses: %s", pc->chain);
			diag_note(ck->ctx->diags, NULL, (Pos){0, 0},
				  "'set policy copy' would keep '%s' on %s and copy it to %s",
				  pc->value_name, device_name(ck, home), device_name(ck, other));
		}
		release_conflict(ck, pc);
	}
	/* the home device sticks even when no consumer there merged it */
	{
		Constraint pin = {
			.kind = CONSTRAINT_CONFLICT_HOME,
			.site = PLAN_NONE,
			.value = v,
			.a = an->expr_domain[v],
			.b = PLAN_NONE,
			.device = home,
		};
		uint32_t ci = plan_constraint_add(an, &pin);
		PlanClash clash;
		if (!plan_constraint_apply(an, ci, &clash))
			report_irreducible(ck, ci, &clash);
	}
}

/* Hands out the numbers no node of a module is named, lowest first: the
 * names of the copies check inserts. The printer would show an unnamed
 * copy as the lowest free %N anyway; naming it so in the IR lets the user
 * type what `ir` shows (`break %4`, `why %4`), and keeps the name through
 * the later phases. */
typedef struct FreshNumbers {
	uint8_t *taken; /* by number, below limit */
	uint32_t limit;
	uint32_t next;
} FreshNumbers;

static void fresh_numbers_init(FreshNumbers *f, const ExprVec *all, uint32_t ncopies)
{
	/* the first ncopies free numbers are below count + ncopies */
	f->limit = (uint32_t)all->count + ncopies + 1;
	f->taken = xcalloc(f->limit, 1);
	f->next = 0;
	for (size_t i = 0; i < all->count; i++) {
		const char *name = all->items[i]->name;
		uint64_t n = 0;
		if (!name || !*name || (name[0] == '0' && name[1]))
			continue;
		for (; *name >= '0' && *name <= '9' && n < f->limit; name++)
			n = n * 10 + (uint64_t)(*name - '0');
		if (!*name && n < f->limit)
			f->taken[n] = 1;
	}
}

static const char *fresh_number(FreshNumbers *f, IrModule *m)
{
	char buf[16];
	while (f->next < f->limit && f->taken[f->next])
		f->next++;
	DP_ASSERT(f->next < f->limit);
	f->taken[f->next] = 1;
	snprintf(buf, sizeof buf, "%u", f->next);
	return arena_strdup(ir_data_arena(m), buf);
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
	FreshNumbers names;
	for (size_t i = 0; i < all.count; i++)
		by_id[all.items[i]->id] = all.items[i];
	fresh_numbers_init(&names, &all, (uint32_t)ck->ncopies);
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
		} else if (!copy) {
			copy = ir_device_copy(m, site->pos, value, p->home, p->dest);
			copy->name = fresh_number(&names, m);
			copy->name_generated = true;
		}
		made[p->dest] = copy;
		switch (p->kind) {
		case CONSTRAINT_OP_ARG:
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
		case CONSTRAINT_MIN_TRANSFER:
		case CONSTRAINT_PIN:
		case CONSTRAINT_CONFLICT_HOME:
			DP_ASSERT(!"copy at a use that cannot take one");
			break;
		}
	}
	free(made);
	free(names.taken);
	exprvec_free(&all);
	free(by_id);
	return m;
}

IrModule *plan_check_phase(const IrModule *in, PhaseContext *ctx)
{
	PlanAnalysis *an = xcalloc(1, sizeof(PlanAnalysis));
	Checker ck = {0};
	IrModule *out = NULL;
	uint8_t *used;
	bool interrupted = false;
	if (ctx->trace) {
		/* a rerun after a failed check starts from no conflicts */
		for (size_t i = 0; i < ctx->trace->nconflicts; i++)
			plan_conflict_free_fields(&ctx->trace->conflicts[i]);
		ctx->trace->nconflicts = 0;
	}
	plan_analysis_init(an, in);
	ck.ctx = ctx;
	ck.an = an;
	plan_generate_constraints(an, ctx->pins, ctx->npins, &ck.cuttable);
	index_uses(&ck);
	used = xcalloc(an->nexprs ? an->nexprs : 1, 1);
	for (uint32_t v = 0; v < an->nexprs; v++)
		used[v] = ck.use_start[v + 1] > ck.use_start[v];
	/* Pass 1: everything but the uses of values. Ctrl-C is polled every
	 * 65536 steps of either pass. */
	{
		size_t n = an->nconstraints;
		for (size_t i = 0; i < n && !interrupted; i++) {
			PlanClash clash;
			if ((i & 0xffff) == 0xffff && session_interrupted())
				interrupted = true;
			if (ck.cuttable[i])
				continue;
			if (!plan_constraint_apply(an, (uint32_t)i, &clash))
				report_irreducible(&ck, (uint32_t)i, &clash);
		}
	}
	/* Pass 2: values and their uses, consumers before producers. Ids
	 * grow with the text, so descending ids visit a value after
	 * everything the parser built after it: demand flows backwards from
	 * the annotations, as a reader expects. */
	for (uint32_t v = an->nexprs; v-- > 0 && !interrupted;) {
		if ((v & 0xffff) == 0xffff && session_interrupted())
			interrupted = true;
		else if (used[v])
			resolve_value(&ck, v);
	}
	{
		size_t shown = ck.irreducible + (ctx->policy == POLICY_ERROR ? ck.conflicts : 0);
		if (ck.reported < shown)
			diag_note(ctx->diags, NULL, (Pos){0, 0},
				  "%zu more conflicts not shown; see 'conflicts'",
				  shown - ck.reported);
	}
	if (interrupted)
		diag_error(ctx->diags, NULL, (Pos){0, 0}, "interrupted during phase 'check'");
	else if (ck.irreducible == 0 && !(ctx->policy == POLICY_ERROR && ck.conflicts))
		out = ck.ncopies ? insert_copies(&ck, in) : ir_module_retain(in);
	free(used);
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
