/*
 * stepper.c - the replay cursor over core's events, and breakpoints.
 *
 * stepper_run is one loop over "units": the next event of the phase in
 * progress, the rest of that phase, or the next phase. A phase that records
 * events runs through the cursor only when someone will look at its events
 * (stepi, or a breakpoint or watchpoint that needs them); otherwise it runs
 * whole like any other phase, so `plan` and `step` cost nothing extra.
 * Either way it runs through session_run_phase, as every phase does; the
 * phase in progress is the session's state (Session.progress), which the
 * stepper starts and advances and the session commits or drops.
 *
 * Replaying an event applies the same constraint, by index, to the replay
 * analysis. The replay analysis is built on the same input by the same
 * generator, and union-find operations are deterministic, so domain ids,
 * roots and the pin domains made by bind constraints come out exactly as
 * in core's own analysis: the default events' constraints, which core
 * appended after the generated ones and which name roots of its analysis,
 * can be copied over as they are. (tests/test_stepper.c checks that a full
 * replay ends equal to core's analysis on every case.)
 *
 * A value breakpoint compares the value's DomainState (root, class size and
 * device) before and after each event: the class grew, was absorbed, or got
 * a device. A long replay is polled for Ctrl-C (interrupt_poll).
 */
#include "stepper.h"

#include <stdlib.h>
#include <string.h>

bool stepper_in_progress(const Session *s, size_t *applied, size_t *total)
{
	if (!s->progress.active)
		return false;
	if (applied)
		*applied = s->progress.next;
	if (total)
		*total = s->trace ? s->trace->nevents : 0;
	return true;
}

PlanAnalysis *stepper_replay(Session *s)
{
	return s->progress.active ? &s->progress.replay : NULL;
}

int32_t *stepper_replay_devices(Session *s)
{
	PlanAnalysis *an = stepper_replay(s);
	int32_t *devices;
	if (!an)
		return NULL;
	DP_ASSERT(an->module == session_current(s));
	devices = xmalloc((an->nexprs + 1) * sizeof(int32_t));
	for (uint32_t id = 0; id < an->nexprs; id++)
		devices[id] = an->by_id[id] ? plan_expr_device(an, an->by_id[id]) : IR_NO_DEVICE;
	return devices;
}

/* ---- breakpoints ---- */

uint32_t stepper_break_add(Stepper *st, BreakKind kind, int phase, const char *value)
{
	Breakpoint *bp;
	grow_array((void **)&st->breaks, &st->cap_breaks, st->nbreaks + 1, sizeof(Breakpoint));
	bp = &st->breaks[st->nbreaks++];
	memset(bp, 0, sizeof *bp);
	bp->number = ++st->last_number;
	bp->kind = kind;
	bp->phase = phase;
	bp->value = value ? xstrdup(value) : NULL;
	return bp->number;
}

Breakpoint *stepper_break_find(Stepper *st, uint32_t number)
{
	for (size_t i = 0; i < st->nbreaks; i++)
		if (st->breaks[i].number == number)
			return &st->breaks[i];
	return NULL;
}

/* Breakpoint bp was reached: counts the hit and says whether it stops the
 * run, which it does unless an ignore count lets it pass (and shrinks). */
static bool break_reached(Breakpoint *bp)
{
	bp->hits++;
	if (bp->ignore > 0) {
		bp->ignore--;
		return false;
	}
	bp->spent = bp->temporary;
	return true;
}

/* Whether bp, reached now, would stop the run (break_reached's answer,
 * without counting). */
static bool break_would_stop(const Breakpoint *bp)
{
	return bp->ignore == 0;
}

/* Deletes the temporary breakpoints that stopped the run that ended. */
static void delete_spent(Stepper *st)
{
	size_t n = 0;
	for (size_t i = 0; i < st->nbreaks; i++) {
		if (st->breaks[i].spent) {
			free(st->breaks[i].value);
			continue;
		}
		st->breaks[n++] = st->breaks[i];
	}
	st->nbreaks = n;
}

bool stepper_break_reached(Breakpoint *bp)
{
	return break_reached(bp);
}

void stepper_delete_spent(Stepper *st)
{
	delete_spent(st);
}

bool stepper_break_delete(Stepper *st, uint32_t number)
{
	for (size_t i = 0; i < st->nbreaks; i++) {
		if (st->breaks[i].number != number)
			continue;
		free(st->breaks[i].value);
		memmove(&st->breaks[i], &st->breaks[i + 1],
			(st->nbreaks - i - 1) * sizeof(Breakpoint));
		st->nbreaks--;
		return true;
	}
	return false;
}

void stepper_break_clear(Stepper *st)
{
	for (size_t i = 0; i < st->nbreaks; i++)
		free(st->breaks[i].value);
	st->nbreaks = 0;
}

size_t stepper_break_count(const Stepper *st)
{
	return st->nbreaks;
}

const Breakpoint *stepper_breakpoint(const Stepper *st, size_t i)
{
	DP_ASSERT(i < st->nbreaks);
	return &st->breaks[i];
}

DomainState stepper_domain_state(PlanAnalysis *an, uint32_t expr)
{
	DomainState d = {PLAN_NONE, 0, IR_NO_DEVICE};
	if (expr == PLAN_NONE || expr >= an->nexprs || an->expr_domain[expr] == PLAN_NONE)
		return d;
	d.root = plan_domain_result(an, an->expr_domain[expr]);
	d.size = an->domains[d.root].size;
	d.device = an->domains[d.root].device;
	return d;
}

static bool domain_changed(DomainState a, DomainState b)
{
	return a.root != b.root || a.size != b.size || a.device != b.device;
}

/* ---- the run loop ---- */

typedef struct Run {
	Session *s;
	Stepper *st;
	PhaseProgress *pr; /* &s->progress */
	const StepSink *sink;
	bool breakpoints; /* honour breakpoints and watchpoints */
	bool show_events; /* report every replayed event (stepi) */
	bool stop;        /* a breakpoint asked to stop */
	bool resolved;    /* tracked[] is resolved for the replay */
	size_t *tracked;  /* indices into st->breaks of value breakpoints */
	uint32_t *exprs;  /* the expression each one names, or PLAN_NONE */
	DomainState *before;
	size_t ntracked;
} Run;

static void emit(Run *r, const StepReport *rep)
{
	if (r->sink && r->sink->report)
		r->sink->report(r->sink->arg, rep);
}

static void emit_phase(Run *r, StepReportKind kind, size_t phase)
{
	StepReport rep;
	memset(&rep, 0, sizeof rep);
	rep.kind = kind;
	rep.phase = phase;
	rep.event = SIZE_MAX;
	emit(r, &rep);
}

/* Whether phase p records PlanTrace events. */
static bool phase_has_events(size_t p)
{
	return (pipeline_phases[p].flags & PHASE_RECORDS_EVENTS) != 0;
}

/* Breakpoints that look at events (or at check's result). */
static bool has_event_breaks(const Stepper *st)
{
	for (size_t i = 0; i < st->nbreaks; i++) {
		switch (st->breaks[i].kind) {
		case BREAK_VALUE:
		case BREAK_CONFLICT:
		case BREAK_COPY:
		case BREAK_WATCH:
			return true;
		case BREAK_PHASE:
			break;
		}
	}
	return false;
}

/* Resolves the value breakpoints against the replay's module. */
static void resolve_tracked(Run *r)
{
	Stepper *st = r->st;
	free(r->tracked);
	free(r->exprs);
	free(r->before);
	r->tracked = xmalloc((st->nbreaks + 1) * sizeof(size_t));
	r->exprs = xmalloc((st->nbreaks + 1) * sizeof(uint32_t));
	r->before = xmalloc((st->nbreaks + 1) * sizeof(DomainState));
	r->ntracked = 0;
	if (r->breakpoints) {
		for (size_t i = 0; i < st->nbreaks; i++) {
			const Expr *e;
			if (st->breaks[i].kind != BREAK_VALUE && st->breaks[i].kind != BREAK_WATCH)
				continue;
			e = ir_find_named(r->pr->replay.module, st->breaks[i].value);
			r->tracked[r->ntracked] = i;
			r->exprs[r->ntracked++] = e ? e->id : PLAN_NONE;
		}
	}
	r->resolved = true;
}

static void apply_event(PhaseProgress *pr, const PlanTrace *t, size_t i)
{
	const PlanEvent *ev = &t->events[i];
	PlanAnalysis *an = &pr->replay;
	switch (ev->kind) {
	case EVENT_UNIFY:
	case EVENT_CONFLICT:
	case EVENT_DEFAULT:
		if (ev->constraint == PLAN_NONE || ev->constraint >= t->core->nconstraints)
			return;
		/* Default constraints were appended by core after the
		 * generated ones, in event order: copy each one over. */
		if (ev->constraint == an->nconstraints)
			plan_constraint_add(an, &t->core->constraints[ev->constraint]);
		if (ev->constraint >= an->nconstraints)
			return;
		{
			const Constraint *c = &an->constraints[ev->constraint];
			if (c->a >= an->ndomains || (c->b != PLAN_NONE && c->b >= an->ndomains))
				return;
		}
		plan_constraint_apply(an, ev->constraint, NULL);
		return;
	case EVENT_COPY:
	case EVENT_ANNOTATE:
		return;
	}
}

/* Replays the next event of the phase in progress and evaluates the
 * breakpoints on it. */
static void replay_one(Run *r)
{
	Session *s = r->s;
	Stepper *st = r->st;
	PhaseProgress *pr = r->pr;
	const PlanTrace *t = s->trace;
	size_t i = pr->next;
	const PlanEvent *ev = &t->events[i];
	bool stops = false;
	StepReport rep;
	if (!r->resolved)
		resolve_tracked(r);
	for (size_t k = 0; k < r->ntracked; k++)
		r->before[k] = stepper_domain_state(&pr->replay, r->exprs[k]);
	apply_event(pr, t, i);
	pr->next++;
	memset(&rep, 0, sizeof rep);
	rep.phase = pr->phase;
	rep.event = i;
	/* does anything stop here? (then the event is shown first) */
	for (size_t k = 0; k < r->ntracked && !stops; k++)
		if (st->breaks[r->tracked[k]].kind == BREAK_VALUE &&
		    break_would_stop(&st->breaks[r->tracked[k]]) &&
		    domain_changed(r->before[k], stepper_domain_state(&pr->replay, r->exprs[k])))
			stops = true;
	for (size_t b = 0; r->breakpoints && b < st->nbreaks && !stops; b++)
		if (((st->breaks[b].kind == BREAK_CONFLICT && ev->kind == EVENT_CONFLICT) ||
		     (st->breaks[b].kind == BREAK_COPY && ev->kind == EVENT_COPY)) &&
		    break_would_stop(&st->breaks[b]))
			stops = true;
	if (r->show_events || stops) {
		rep.kind = STEP_REPORT_EVENT;
		emit(r, &rep);
	}
	for (size_t k = 0; k < r->ntracked; k++) {
		DomainState after = stepper_domain_state(&pr->replay, r->exprs[k]);
		Breakpoint *bp = &st->breaks[r->tracked[k]];
		if (!domain_changed(r->before[k], after))
			continue;
		if (bp->kind == BREAK_WATCH)
			bp->hits++;
		else if (!break_reached(bp))
			continue; /* passed by, silently, as gdb's ignore does */
		rep.kind = STEP_REPORT_CHANGE;
		rep.bp = bp;
		rep.before = r->before[k];
		rep.after = after;
		emit(r, &rep);
	}
	for (size_t b = 0; r->breakpoints && b < st->nbreaks; b++) {
		Breakpoint *bp = &st->breaks[b];
		if (((bp->kind == BREAK_CONFLICT && ev->kind == EVENT_CONFLICT) ||
		     (bp->kind == BREAK_COPY && ev->kind == EVENT_COPY)) &&
		    break_reached(bp)) {
			rep.kind = STEP_REPORT_BREAK;
			rep.bp = bp;
			rep.count = 1;
			emit(r, &rep);
		}
	}
	if (stops)
		r->stop = true;
}

/* Commits the phase in progress after its last event; false on failure. */
static bool finish_phase(Run *r)
{
	size_t phase = r->pr->phase;
	bool ok = session_finish_phase(r->s);
	emit_phase(r, ok ? STEP_REPORT_PHASE_DONE : STEP_REPORT_PHASE_FAILED, phase);
	return ok;
}

static StepOutcome interrupted(Session *s, const char *fmt, const char *phase)
{
	diag_error(&s->diags, NULL, (Pos){0, 0}, fmt, phase);
	return STEP_INTERRUPTED;
}

/* Runs the next phase (which records events) into a pending version and
 * starts its replay. With no events it is committed at once. */
static StepOutcome start_phase(Run *r)
{
	Session *s = r->s;
	PhaseProgress *pr = r->pr;
	size_t p = s->phases_done;
	IrModule *out;
	DP_ASSERT(s->trace);
	diag_clear(&pr->diags);
	out = session_run_phase(s, p, s->versions[p], &pr->diags, true, NULL);
	if (!out && interrupt_pending()) {
		/* the phase's diagnostics say so; the session stays before it */
		DiagList tmp = s->diags;
		s->diags = pr->diags;
		pr->diags = tmp;
		diag_clear(&pr->diags);
		return STEP_INTERRUPTED;
	}
	ir_module_commit(out);
	pr->active = true;
	pr->phase = p;
	pr->pending = out;
	pr->next = 0;
	plan_analysis_init(&pr->replay, s->versions[p], &s->devices);
	plan_generate_constraints(&pr->replay, NULL, 0, plan_host_device(&s->devices), NULL);
	r->resolved = false;
	if (s->trace->nevents == 0)
		return finish_phase(r) ? STEP_DONE : STEP_FAILED;
	return STEP_DONE;
}

bool stepper_phase_breaks(Stepper *st, size_t conflicts, size_t copies,
			  void (*hit)(void *arg, Breakpoint *bp, size_t n), void *arg)
{
	bool stop = false;
	for (size_t b = 0; b < st->nbreaks; b++) {
		Breakpoint *bp = &st->breaks[b];
		size_t n = bp->kind == BREAK_CONFLICT ? conflicts
			   : bp->kind == BREAK_COPY   ? copies
						      : 0;
		if (n == 0 || !break_reached(bp))
			continue;
		hit(arg, bp, n);
		stop = true;
	}
	return stop;
}

typedef struct PhaseHit {
	Run *r;
	size_t phase;
} PhaseHit;

static void phase_hit(void *arg, Breakpoint *bp, size_t n)
{
	PhaseHit *h = arg;
	StepReport rep;
	memset(&rep, 0, sizeof rep);
	rep.kind = STEP_REPORT_BREAK;
	rep.phase = h->phase;
	rep.event = SIZE_MAX;
	rep.bp = bp;
	rep.count = n;
	emit(h->r, &rep);
}

/* After a phase ran whole: the check-time conflict and copy breakpoints. */
static void check_breaks(Run *r, size_t p, const IrModule *in, const IrModule *out)
{
	Stepper *st = r->st;
	size_t copies = 0;
	bool want_copies = false;
	PhaseHit h = {r, p};
	if (!r->breakpoints || !(pipeline_phases[p].flags & PHASE_REPORTS_CONFLICTS))
		return;
	for (size_t b = 0; b < st->nbreaks; b++)
		if (st->breaks[b].kind == BREAK_COPY)
			want_copies = true;
	if (want_copies && out) {
		Expr **by_id = ir_index_by_id(out);
		for (uint32_t id = in->nexprs; id < out->nexprs; id++)
			if (by_id[id] && ir_is_op(by_id[id], OP_DEVICE_COPY))
				copies++;
		free(by_id);
	}
	if (stepper_phase_breaks(st, r->s->trace->nconflicts, copies, phase_hit, &h))
		r->stop = true;
}

/* Runs the next phase whole. */
static StepOutcome run_phase(Run *r)
{
	Session *s = r->s;
	size_t p = s->phases_done;
	const IrModule *in = s->versions[p];
	bool ok = session_step(s, 1);
	if (!ok && interrupt_pending())
		return STEP_INTERRUPTED;
	emit_phase(r, ok ? STEP_REPORT_PHASE_DONE : STEP_REPORT_PHASE_FAILED, p);
	check_breaks(r, p, in, ok ? s->versions[p + 1] : NULL);
	return ok ? STEP_DONE : STEP_FAILED;
}

/* Replays the phase in progress to its end or to a breakpoint. */
static StepOutcome replay_rest(Run *r)
{
	Session *s = r->s;
	PhaseProgress *pr = r->pr;
	size_t n = s->trace->nevents;
	while (pr->next < n && !r->stop) {
		if (interrupt_poll(pr->next)) {
			diag_error(&s->diags, NULL, (Pos){0, 0},
				   "interrupted at event %zu of %zu of phase '%s'", pr->next, n,
				   pipeline_phases[pr->phase].name);
			return STEP_INTERRUPTED;
		}
		replay_one(r);
	}
	if (pr->next == n)
		return finish_phase(r) ? STEP_DONE : STEP_FAILED;
	return STEP_DONE;
}

static StepOutcome run_units(Run *r, StepMode mode, size_t count)
{
	Session *s = r->s;
	Stepper *st = r->st;
	PhaseProgress *pr = r->pr;
	bool event_breaks = r->breakpoints && has_event_breaks(st);
	bool first = true;
	size_t units = 0, resume = st->stopped_before;
	st->stopped_before = SIZE_MAX;
	for (;; first = false) {
		StepOutcome o;
		if (!pr->active && s->phases_done == pipeline_count)
			return STEP_END;
		if (mode != STEP_CONTINUE && units >= count)
			return STEP_DONE;
		if (interrupt_pending())
			return interrupted(s,
					   pr->active ? "interrupted in phase '%s'"
						      : "interrupted before phase '%s'",
					   pipeline_phases[s->phases_done].name);
		if (pr->active) {
			if (mode == STEP_EVENT) {
				replay_one(r);
				o = STEP_DONE;
				if (pr->next == s->trace->nevents)
					o = finish_phase(r) ? STEP_DONE : STEP_FAILED;
			} else if (event_breaks) {
				o = replay_rest(r);
			} else {
				o = finish_phase(r) ? STEP_DONE : STEP_FAILED;
			}
			units++;
			if (o != STEP_DONE)
				return o;
			if (r->stop)
				return STEP_STOPPED;
			continue;
		}
		if (r->breakpoints && !(first && resume == s->phases_done)) {
			for (size_t b = 0; b < st->nbreaks; b++) {
				Breakpoint *bp = &st->breaks[b];
				StepReport rep;
				if (bp->kind != BREAK_PHASE || bp->relax ||
				    (size_t)bp->phase != s->phases_done || !break_reached(bp))
					continue;
				memset(&rep, 0, sizeof rep);
				rep.kind = STEP_REPORT_BREAK;
				rep.phase = s->phases_done;
				rep.event = SIZE_MAX;
				rep.bp = bp;
				emit(r, &rep);
				r->stop = true;
			}
			if (r->stop) {
				st->stopped_before = s->phases_done;
				return STEP_STOPPED;
			}
		}
		if (phase_has_events(s->phases_done) && (mode == STEP_EVENT || event_breaks)) {
			o = start_phase(r);
			if (o != STEP_DONE)
				return o;
			if (!pr->active) /* no events: it ran whole */
				units++;
			/* stepi: the first event belongs to this unit; step and
			 * continue replay the events on the next turn */
			if (mode == STEP_EVENT && pr->active) {
				replay_one(r);
				if (pr->next == s->trace->nevents && !finish_phase(r))
					return STEP_FAILED;
				units++;
				if (r->stop)
					return STEP_STOPPED;
			}
			continue;
		}
		o = run_phase(r);
		units++;
		if (o != STEP_DONE)
			return o;
		if (r->stop)
			return STEP_STOPPED;
	}
}

StepOutcome stepper_run(Session *s, StepMode mode, size_t count, bool breakpoints,
			const StepSink *sink)
{
	Run r;
	StepOutcome o;
	memset(&r, 0, sizeof r);
	r.s = s;
	r.st = s->stepper;
	r.pr = &s->progress;
	r.sink = sink;
	r.breakpoints = breakpoints;
	r.show_events = mode == STEP_EVENT;
	session_clear_diags(s);
	if (!session_has_module(s)) {
		diag_error(&s->diags, NULL, (Pos){0, 0}, "no module loaded");
		return STEP_FAILED;
	}
	o = run_units(&r, mode, count);
	delete_spent(r.st);
	free(r.tracked);
	free(r.exprs);
	free(r.before);
	if (o == STEP_DONE && !r.pr->active && s->phases_done == pipeline_count)
		o = STEP_END;
	return o;
}

void stepper_event_position(StrBuf *out, const Session *s, size_t i)
{
	const PlanTrace *t = s->trace;
	const char *phase = "core", *part;
	for (size_t p = 0; p < pipeline_count; p++)
		if (phase_has_events(p))
			phase = pipeline_phases[p].name;
	part = i < t->analyze_end ? "analyze" : i < t->default_end ? "default" : "capture";
	strbuf_printf(out, "[%s/%s %zu/%zu]", phase, part, i + 1, t->nevents);
}
