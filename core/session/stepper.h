/*
 * stepper.h - moving through the pipeline one solver event at a time, and
 * the breakpoints and watchpoints that stop or report along the way.
 *
 * A phase that records PlanTrace events (`core`) can be in progress: its
 * run function has already produced its output, but that output is held
 * back as a pending version while the user replays the events one by one
 * (`stepi`). That state is the session's (Session.progress, which
 * session_step and session_finish_phase commit and any reset drops); the
 * stepper starts it and advances it. The replay is a second union-find on
 * the phase's input, the "replay analysis", to which each stepped event's
 * constraint is applied in order, so that `constraints` and `why` answer
 * for the state at that point and `ir --devices` and `render` show the
 * devices bound so far; events are deterministic, so the replay reaches exactly the analysis that
 * `core` left in the trace. When the last event has been replayed, or when
 * `step` finishes the phase, the pending version is committed like any
 * other phase output.
 *
 * Breakpoints stop a run before a phase, when a value's domain changes (its
 * class merges with another or its device is bound), at a conflict or at an
 * inserted device_copy; watchpoints report domain changes without stopping.
 * They are numbered like gdb's, one sequence for both, and survive `load`
 * and `restart`. As in gdb, a breakpoint may pass by its next N stops
 * (`ignore`: each still counts as a hit) and a temporary one (`tbreak`) is
 * deleted when the run it stopped ends. A value is named as the user typed it (%b) and resolved
 * against the module each time a run starts.
 *
 * Library code never prints: stepper_run tells its caller what happened
 * through a StepSink callback, in order, and returns why it stopped.
 *
 * Ownership: the Session owns its Stepper, the breakpoints (session.h;
 * session_init creates it, session_free frees it); breakpoints returned by
 * stepper_breakpoint are borrowed until the next stepper_break_add or
 * stepper_break_delete.
 */
#ifndef DEVPLAN_STEPPER_H
#define DEVPLAN_STEPPER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan.h"
#include "session.h"

/* The domain of a value at one point of the replay. */
typedef struct DomainState {
	uint32_t root;  /* union-find root of its result leaf; PLAN_NONE: no domain */
	uint32_t size;  /* domains in that class */
	int32_t device; /* bound device, or IR_NO_DEVICE when free */
} DomainState;

typedef enum StepMode {
	STEP_EVENT,    /* stepi: a unit is one event, or one phase without events */
	STEP_PHASE,    /* step: a unit is the rest of the phase in progress, or a phase */
	STEP_CONTINUE, /* continue and plan: units until the end or a breakpoint */
} StepMode;

typedef enum StepOutcome {
	STEP_DONE,        /* the count of units ran; phases remain */
	STEP_END,         /* every phase has run */
	STEP_STOPPED,     /* a breakpoint stopped the run */
	STEP_FAILED,      /* a phase failed; s->diags says why */
	STEP_INTERRUPTED, /* Ctrl-C; s->diags says where; the session is as before
			     the unit that was interrupted */
} StepOutcome;

typedef enum StepReportKind {
	STEP_REPORT_PHASE_DONE,   /* phase ran (or was committed); s->diags holds
				     its warnings */
	STEP_REPORT_PHASE_FAILED, /* phase failed; s->diags holds its errors */
	STEP_REPORT_EVENT,        /* event `event` was replayed (stepi, or where
				     a run stopped) */
	STEP_REPORT_CHANGE,       /* bp's value changed domain at event `event`:
				     a watch, or a value breakpoint that stops */
	STEP_REPORT_BREAK,        /* bp stopped the run (phase, conflict, copy) */
} StepReportKind;

typedef struct StepReport {
	StepReportKind kind;
	size_t phase;              /* the phase concerned (pipeline index) */
	size_t event;              /* EVENT, CHANGE, and BREAK at an event: its
				    index in trace->events; SIZE_MAX otherwise */
	const Breakpoint *bp;      /* CHANGE, BREAK */
	DomainState before, after; /* CHANGE */
	size_t count;              /* BREAK after check: conflicts or copies */
} StepReport;

typedef struct StepSink {
	void (*report)(void *arg, const StepReport *r);
	void *arg;
} StepSink;

/* Whether a phase is in progress (s->progress); *applied and *total (when not NULL) get
 * how many of its events have been replayed, out of how many. */
bool stepper_in_progress(const Session *s, size_t *applied, size_t *total);
/* The replay analysis of the phase in progress, or NULL. */
PlanAnalysis *stepper_replay(Session *s);
/* The devices the replay has bound so far, for showing the module the
 * phase in progress analyses (session_current) as planned up to there: by
 * expression id of that module, the device of each expression's domain (a
 * function's: its result's), IR_NO_DEVICE while free or without a domain.
 * NULL when no phase is in progress. The caller frees the array. */
int32_t *stepper_replay_devices(Session *s);
/* Runs up to `count` units of `mode` (count is ignored for STEP_CONTINUE),
 * reporting to sink as it goes. With breakpoints false nothing stops the
 * run and nothing is reported but phases (`plan`). A run that a phase
 * breakpoint stopped before phase P can be resumed: the next run does not
 * stop before P again right away. */
StepOutcome stepper_run(Session *s, StepMode mode, size_t count, bool breakpoints,
			const StepSink *sink);

/* `[core/analyze 12/340]`, the position of event i of the phase in progress
 * (or of the trace's last core run). */
void stepper_event_position(StrBuf *out, const Session *s, size_t i);

/* Breakpoints. stepper_break_add copies value; returns the new number. */
uint32_t stepper_break_add(Stepper *st, BreakKind kind, int phase, const char *value);
/* Breakpoint `number`, to set its ignore count or make it temporary;
 * NULL when there is none. */
Breakpoint *stepper_break_find(Stepper *st, uint32_t number);
/* Breakpoint bp was reached: counts the hit and says whether it stops the
 * run (not when `ignore` lets it pass by); a temporary one is then spent.
 * For the Relax stepper (session_relax.h), which shares the breakpoints. */
bool stepper_break_reached(Breakpoint *bp);
/* After a phase that reports them ran whole: each `break conflict` (when
 * the phase found conflicts) and `break copy` (when it inserted copies)
 * reached, counted as stepper_break_reached counts, calls hit(arg, bp, n)
 * with the number found. Returns whether any stops the run. Shared by
 * the Relay and Relax steppers. */
bool stepper_phase_breaks(Stepper *st, size_t conflicts, size_t copies,
			  void (*hit)(void *arg, Breakpoint *bp, size_t n), void *arg);
/* Deletes the temporary breakpoints that stopped the run that ended. */
void stepper_delete_spent(Stepper *st);
/* Deletes breakpoint `number`; false when there is none. */
bool stepper_break_delete(Stepper *st, uint32_t number);
void stepper_break_clear(Stepper *st);
size_t stepper_break_count(const Stepper *st);
/* The i-th breakpoint in number order. */
const Breakpoint *stepper_breakpoint(const Stepper *st, size_t i);

/* The domain of expression id `expr` in an analysis right now. */
DomainState stepper_domain_state(PlanAnalysis *an, uint32_t expr);

#endif
