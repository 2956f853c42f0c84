/*
 * session_relax.c - the Relax side of the session (see session_relax.h).
 *
 * Loading parses with core/relax/relax_parse.c and, on success, drops the
 * Relay module the same way a Relay load replaces one; a failed load keeps
 * whatever was loaded. Phases run through relax_realize_step, which is
 * restartable from the module as loaded.
 */
#include "session_relax.h"

#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "parse.h"
#include "relax_explain.h"
#include "relax_lower.h"
#include "relax_parse.h"
#include "util.h"

bool session_relax_active(const Session *s)
{
	return s->relax != NULL;
}

void session_relax_free(Session *s)
{
	if (!s->relax)
		return;
	relax_realize_free(&s->relax->realize);
	relax_module_free(s->relax->module);
	free(s->relax->entry);
	free(s->relax);
	s->relax = NULL;
}

bool session_load_relax(Session *s, SourceFile *src, const char *path)
{
	RxModule *m = relax_parse(src, &s->diags);
	char *new_path;
	if (!m)
		return false;
	new_path = xstrdup(path);
	session_unload(s);
	session_relax_free(s);
	if (!s->path || strcmp(s->path, path) != 0)
		pins_clear(&s->pins);
	source_release(s->source);
	free(s->path);
	s->source = source_retain(src);
	s->path = new_path;
	s->relax = xcalloc(1, sizeof *s->relax);
	s->relax->module = m;
	s->relax->failed_phase = -1;
	relax_realize_init(&s->relax->realize, m);
	return true;
}

void session_relax_restart(Session *s)
{
	if (!s->relax)
		return;
	relax_realize_free(&s->relax->realize);
	relax_realize_init(&s->relax->realize, s->relax->module);
	s->relax->failed_phase = -1;
	session_unload(s); /* the lowered module of the plan */
}

bool session_relax_step(Session *s, size_t n)
{
	SessionRelax *r = s->relax;
	session_clear_diags(s);
	if (r->realize.done == 0)
		r->realize.copy_policy =
			s->settings.policy == POLICY_COPY || s->settings.policy == POLICY_ERROR;
	if (n > 0 && r->realize.done < RX_PHASE_COUNT)
		session_unload(s); /* the lowered module of the plan */
	for (size_t i = 0; i < n && r->realize.done < RX_PHASE_COUNT; i++) {
		size_t phase = r->realize.done;
		/* policy error: a conflict stops planning before propagate */
		bool stop = phase == RX_PHASE_PROPAGATE && s->settings.policy == POLICY_ERROR &&
			    !relax_check_conflicts(&r->realize, s->source, &s->diags);
		if (stop || !relax_realize_step(&r->realize, &s->diags)) {
			r->failed_phase = (int)phase;
			return false;
		}
		r->failed_phase = -1;
	}
	return true;
}

size_t session_relax_phases_done(const Session *s)
{
	if (!s->relax)
		return 0;
	return s->relax->realize.done - (relax_realize_in_progress(&s->relax->realize) ? 1 : 0);
}

bool session_relax_planned(const Session *s)
{
	return s->relax && s->relax->realize.done == RX_PHASE_COUNT;
}

const RxModule *session_relax_module(const Session *s, int phase)
{
	const RxRealize *r = &s->relax->realize;
	if (phase < 0)
		return relax_realize_current(r);
	if (phase >= RX_PHASE_NORMALIZE && r->normalized)
		return r->normalized;
	if (phase >= RX_PHASE_REWRITE && r->rewritten)
		return r->rewritten;
	return s->relax->module;
}

/* The device-table entry a vdevice runs on: llvm's vdevice_id-th cpu,
 * cuda's vdevice_id-th cuda device (TVM's VM takes vdevice_id as the
 * physical id), added to the table when missing; -1 for other kinds. */
static int32_t vdevice_device(Session *s, const RxVDevice *v)
{
	int type = strcmp(v->kind, "llvm") == 0   ? DEVICE_TYPE_CPU
		   : strcmp(v->kind, "cuda") == 0 ? DEVICE_TYPE_CUDA
						  : 0;
	int found;
	char name[64], *err = NULL;
	if (!type || v->vdevice_id < 0 || v->vdevice_id > 255)
		return -1;
	found = devices_find(&s->devices, type, (int)v->vdevice_id);
	if (found >= 0)
		return found;
	snprintf(name, sizeof name, "%s:%d", type == DEVICE_TYPE_CPU ? "cpu" : "cuda",
		 (int)v->vdevice_id);
	found = devices_add(&s->devices, name, NULL, &err);
	free(err);
	return found;
}

IrModule *session_relax_lowered(Session *s, DiagList *diags)
{
	const RxModule *m;
	const char *entry = s->relax->entry;
	int32_t *device_of, unplaced = -1;
	StrBuf text;
	SourceFile *src;
	SourceOrigin origin;
	IrModule *lowered;
	size_t errors = diags->errors;
	bool ok;
	if (!session_relax_planned(s)) {
		diag_error(diags, NULL, (Pos){0, 0}, "the module is not planned yet; use 'plan'");
		return NULL;
	}
	m = session_relax_module(s, -1);
	device_of = xcalloc(m->nvdevices ? m->nvdevices : 1, sizeof *device_of);
	for (uint32_t i = 0; i < m->nvdevices; i++) {
		device_of[i] = vdevice_device(s, &m->vdevices[i]);
		if (unplaced < 0 && device_of[i] >= 0 &&
		    strcmp(m->vdevices[i].scope, "global") == 0)
			unplaced = device_of[i];
	}
	if (unplaced < 0)
		unplaced = devices_find(&s->devices, DEVICE_TYPE_CPU, 0);
	if (unplaced < 0)
		unplaced = 0;
	strbuf_init(&text);
	ok = relax_lower(m, device_of, unplaced, entry, &text, &origin, diags);
	free(device_of);
	if (!ok) {
		source_origin_free(&origin);
		strbuf_free(&text);
		return NULL;
	}
	{
		StrBuf name;
		strbuf_init(&name);
		strbuf_printf(&name, "%s (lowered to Relay)", session_module_name(s));
		src = source_from_string(name.data, text.data, text.len);
		source_set_origin(src, &origin);
		strbuf_free(&name);
	}
	strbuf_free(&text);
	lowered = parse_module(src, &s->devices, diags);
	source_release(src);
	if (!lowered || diags->errors > errors) {
		if (lowered)
			ir_module_free(lowered);
		diag_error(
			diags, NULL, (Pos){0, 0},
			"internal error: the Relax module's Relay lowering does not parse (a bug "
			"in devplan)");
		return NULL;
	}
	return lowered;
}

bool session_relax_lower(Session *s, const char *entry)
{
	IrModule *lowered;
	session_clear_diags(s);
	if (!session_relax_planned(s)) {
		diag_error(&s->diags, NULL, (Pos){0, 0},
			   "the module is not planned yet; use 'plan'");
		return false;
	}
	if (!relax_lower_entry(session_relax_module(s, -1), entry, &s->diags))
		return false;
	/* lowered already for this entry (the version before the current one
	 * may have been let go: session_version recomputes it through
	 * session_relax_lowered, with the session's entry) */
	if (session_has_module(s) &&
	    (entry ? s->relax->entry && strcmp(entry, s->relax->entry) == 0 : !s->relax->entry))
		return s->phases_done == pipeline_count || session_step(s, SIZE_MAX);
	session_unload(s);
	free(s->relax->entry);
	s->relax->entry = entry ? xstrdup(entry) : NULL;
	lowered = session_relax_lowered(s, &s->diags);
	if (!lowered)
		return false;
	ir_module_commit(lowered);
	s->versions[0] = lowered;
	s->phases_done = 0;
	if (session_step(s, SIZE_MAX))
		return true;
	session_unload(s);
	return false;
}

/* ---- the Relax stepper (session_relax.h) ---- */

bool session_relax_in_progress(const Session *s, size_t *applied, size_t *total)
{
	const RxRealize *r;
	if (!s->relax || !relax_realize_in_progress(&s->relax->realize))
		return false;
	r = &s->relax->realize;
	if (applied)
		*applied = r->applied;
	if (total)
		*total = r->nevents;
	return true;
}

typedef struct RxRun {
	Session *s;
	const RxStepSink *sink;
	bool breakpoints; /* false for `plan`: nothing stops or reports */
	bool show_events; /* stepi: every event is reported */
	bool stop;        /* a breakpoint stopped the run */
} RxRun;

static void rx_emit(RxRun *run, StepReportKind kind, size_t phase, size_t event,
		    const Breakpoint *bp)
{
	RxStepReport rep;
	memset(&rep, 0, sizeof rep);
	rep.kind = kind;
	rep.phase = phase;
	rep.event = event;
	rep.bp = bp;
	if (run->sink && run->sink->report)
		run->sink->report(run->sink->arg, &rep);
}

/* Whether bp is a value breakpoint or watchpoint naming variable v. */
static bool rx_names(const Breakpoint *bp, const RxVar *v)
{
	return (bp->kind == BREAK_VALUE || bp->kind == BREAK_WATCH) && bp->value &&
	       bp->value[0] == '%' && strcmp(bp->value + 1, v->name) == 0;
}

static bool rx_has_event_breaks(const Stepper *st)
{
	for (size_t i = 0; i < st->nbreaks; i++)
		if (st->breaks[i].kind == BREAK_VALUE || st->breaks[i].kind == BREAK_WATCH)
			return true;
	return false;
}

/* Replays the next event of propagate and evaluates the breakpoints on
 * the variable it places. */
static void rx_replay_one(RxRun *run)
{
	Stepper *st = run->s->stepper;
	RxRealize *r = &run->s->relax->realize;
	size_t i = r->applied;
	const RxEvent *e = &r->events[i];
	const RxVar *v = r->in->vars[e->var];
	int before = r->known[e->var];
	bool stops = false;
	relax_realize_replay(r);
	for (size_t b = 0; run->breakpoints && b < st->nbreaks && !stops; b++)
		stops = st->breaks[b].kind == BREAK_VALUE && rx_names(&st->breaks[b], v) &&
			st->breaks[b].ignore == 0;
	if (run->show_events || stops)
		rx_emit(run, STEP_REPORT_EVENT, RX_PHASE_PROPAGATE, i, NULL);
	for (size_t b = 0; run->breakpoints && b < st->nbreaks; b++) {
		Breakpoint *bp = &st->breaks[b];
		RxStepReport rep;
		if (!rx_names(bp, v) || before == e->vdevice)
			continue;
		if (bp->kind == BREAK_WATCH)
			bp->hits++;
		else if (!stepper_break_reached(bp))
			continue; /* passed by, as gdb's ignore does */
		memset(&rep, 0, sizeof rep);
		rep.kind = STEP_REPORT_CHANGE;
		rep.phase = RX_PHASE_PROPAGATE;
		rep.event = i;
		rep.bp = bp;
		rep.before = before;
		rep.after = e->vdevice;
		if (run->sink && run->sink->report)
			run->sink->report(run->sink->arg, &rep);
	}
	if (stops)
		run->stop = true;
}

static size_t rx_count_copies(const RxBlock *b)
{
	size_t n = 0;
	for (uint32_t i = 0; b && i < b->nstmts; i++) {
		const RxStmt *st = b->stmts[i];
		n += st->kind == RX_STMT_BIND && st->value && st->value->kind == RX_EXPR_CALL &&
		     st->value->callee == RX_CALL_OP &&
		     strcmp(st->value->name, "R.to_vdevice") == 0;
		n += rx_count_copies(st->then_block) + rx_count_copies(st->else_block);
	}
	return n;
}

static size_t rx_module_copies(const RxModule *m)
{
	size_t n = 0;
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i]->kind == RX_FUNC_RELAX)
			n += rx_count_copies(m->funcs[i]->body);
	return n;
}

typedef struct RxPhaseHit {
	RxRun *run;
	size_t phase;
} RxPhaseHit;

static void rx_phase_hit(void *arg, Breakpoint *bp, size_t n)
{
	RxPhaseHit *h = arg;
	RxStepReport rep;
	memset(&rep, 0, sizeof rep);
	rep.kind = STEP_REPORT_BREAK;
	rep.phase = h->phase;
	rep.event = SIZE_MAX;
	rep.bp = bp;
	rep.count = n;
	if (h->run->sink && h->run->sink->report)
		h->run->sink->report(h->run->sink->arg, &rep);
}

/* After phase p ran whole: `break conflict` after colocate, `break copy`
 * after rewrite. */
static void rx_check_breaks(RxRun *run, size_t p)
{
	const RxRealize *r = &run->s->relax->realize;
	size_t conflicts = 0, copies = 0;
	RxPhaseHit h = {run, p};
	if (!run->breakpoints || (p != RX_PHASE_COLOCATE && p != RX_PHASE_REWRITE))
		return;
	if (p == RX_PHASE_COLOCATE) {
		RxConflict *c;
		conflicts = relax_conflicts(r, &c);
		relax_conflicts_free(c, conflicts);
	} else {
		size_t before = rx_module_copies(r->in), after = rx_module_copies(r->rewritten);
		copies = after > before ? after - before : 0;
	}
	if (stepper_phase_breaks(run->s->stepper, conflicts, copies, rx_phase_hit, &h))
		run->stop = true;
}

/* Runs the next phase; propagate, with replay, is left in progress at its
 * first event. */
static StepOutcome rx_run_phase(RxRun *run, bool replay)
{
	RxRealize *r = &run->s->relax->realize;
	size_t p = r->done;
	if (!session_relax_step(run->s, 1)) {
		rx_emit(run, STEP_REPORT_PHASE_FAILED, p, SIZE_MAX, NULL);
		return STEP_FAILED;
	}
	if (replay && p == RX_PHASE_PROPAGATE && r->nevents > 0) {
		relax_realize_rewind(r);
		return STEP_DONE;
	}
	rx_emit(run, STEP_REPORT_PHASE_DONE, p, SIZE_MAX, NULL);
	rx_check_breaks(run, p);
	return STEP_DONE;
}

/* Replays propagate's events: one (stepi), or to its end or a breakpoint. */
static StepOutcome rx_replay(RxRun *run, bool one, bool event_breaks)
{
	Session *s = run->s;
	RxRealize *r = &s->relax->realize;
	do {
		if (interrupt_poll(r->applied)) {
			diag_error(&s->diags, NULL, (Pos){0, 0},
				   "interrupted at event %zu of %zu of phase 'propagate'",
				   r->applied, r->nevents);
			return STEP_INTERRUPTED;
		}
		if (one || event_breaks)
			rx_replay_one(run);
		else
			relax_realize_replay(r);
	} while (!one && !run->stop && relax_realize_in_progress(r));
	if (!relax_realize_in_progress(r))
		rx_emit(run, STEP_REPORT_PHASE_DONE, RX_PHASE_PROPAGATE, SIZE_MAX, NULL);
	return run->stop ? STEP_STOPPED : STEP_DONE;
}

/* The phase breakpoints before the next phase; true when one stops. */
static bool rx_phase_breaks(RxRun *run)
{
	Stepper *st = run->s->stepper;
	size_t p = run->s->relax->realize.done;
	for (size_t b = 0; b < st->nbreaks; b++) {
		Breakpoint *bp = &st->breaks[b];
		if (bp->kind != BREAK_PHASE || !bp->relax || (size_t)bp->phase != p ||
		    !stepper_break_reached(bp))
			continue;
		rx_emit(run, STEP_REPORT_BREAK, p, SIZE_MAX, bp);
		run->stop = true;
	}
	if (run->stop)
		st->stopped_before = p;
	return run->stop;
}

static StepOutcome rx_units(RxRun *run, StepMode mode, size_t count)
{
	Session *s = run->s;
	Stepper *st = s->stepper;
	RxRealize *r = &s->relax->realize;
	bool event_breaks = run->breakpoints && rx_has_event_breaks(st);
	size_t units = 0, resume = st->stopped_before;
	st->stopped_before = SIZE_MAX;
	for (bool first = true;; first = false) {
		StepOutcome o;
		bool replay;
		if (!relax_realize_in_progress(r) && r->done == RX_PHASE_COUNT)
			return STEP_END;
		if (mode != STEP_CONTINUE && units >= count)
			return STEP_DONE;
		if (interrupt_pending()) {
			diag_error(&s->diags, NULL, (Pos){0, 0}, "interrupted before phase '%s'",
				   relax_phase_names[session_relax_phases_done(s)]);
			return STEP_INTERRUPTED;
		}
		if (!relax_realize_in_progress(r)) {
			if (run->breakpoints && !(first && resume == r->done) &&
			    rx_phase_breaks(run))
				return STEP_STOPPED;
			replay = r->done == RX_PHASE_PROPAGATE &&
				 (mode == STEP_EVENT || event_breaks);
			if ((o = rx_run_phase(run, replay)) != STEP_DONE)
				return o;
			if (!relax_realize_in_progress(r)) {
				units++;
				if (run->stop)
					return STEP_STOPPED;
				continue;
			}
			if (mode != STEP_EVENT) /* step, continue: the events next turn */
				continue;
		}
		o = rx_replay(run, mode == STEP_EVENT, event_breaks);
		units++;
		if (o != STEP_DONE)
			return o;
	}
}

StepOutcome session_relax_run(Session *s, StepMode mode, size_t count, bool breakpoints,
			      const RxStepSink *sink)
{
	RxRun run = {s, sink, breakpoints, mode == STEP_EVENT, false};
	StepOutcome o;
	session_clear_diags(s);
	o = rx_units(&run, mode, count); /* session_relax_step sets the policy */
	stepper_delete_spent(s->stepper);
	if (o == STEP_DONE && session_relax_planned(s) &&
	    !relax_realize_in_progress(&s->relax->realize))
		o = STEP_END;
	return o;
}
