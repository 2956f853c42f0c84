/*
 * session_relax.h - a Relax module in the session: the module as loaded
 * and TVM's RealizeVDevice stepped phase by phase over it.
 *
 * A session holds either a Relay module (session.h's versions) or a Relax
 * one (Session.relax), never both: loading one language drops the other.
 * The Relax phases are core/relax/relax_realize.h's: TVM's RealizeVDevice
 * under `set policy tvm`, devplan's rule under `copy` and `error`.
 *
 * Ownership: the session owns the state and frees it with
 * session_relax_free; modules returned are borrowed until the next load,
 * step or restart.
 */
#ifndef DEVPLAN_SESSION_RELAX_H
#define DEVPLAN_SESSION_RELAX_H

#include "relax_realize.h"
#include "session.h"
#include "stepper.h"

typedef struct SessionRelax {
	RxModule *module;  /* as loaded */
	RxRealize realize; /* the phases run so far over it */
	int failed_phase;  /* the phase whose last run failed, or -1 */
	char *entry;       /* the --entry the lowered module was made for, or NULL */
} SessionRelax;

/* Whether the loaded module is a Relax one. */
bool session_relax_active(const Session *s);
/* session_load_source for a Relax file (relax_source_is_relax). */
bool session_load_relax(Session *s, SourceFile *src, const char *path);
void session_relax_free(Session *s);
/* Back to the module as loaded. */
void session_relax_restart(Session *s);
/* Runs up to n more phases (SIZE_MAX: all), stopping at a failure; false
 * with the errors in s->diags (warnings are left there too). */
bool session_relax_step(Session *s, size_t n);
/* Phases run so far, and whether all have. */
size_t session_relax_phases_done(const Session *s);
bool session_relax_planned(const Session *s);
/* The module as of the phases run; with phase >= 0, as of after that
 * phase (the loaded module for phases that make none). */
const RxModule *session_relax_module(const Session *s, int phase);
/*
 * The Relax stepper: `step`, `stepi` and `continue` over RealizeVDevice,
 * with the session's breakpoints (stepper.h), as stepper_run does for
 * Relay. A unit of `stepi` is one assignment event of propagate (or a
 * phase without events): the first stepi into propagate runs it whole,
 * rewinds its variables to unplaced (relax_realize_rewind) and replays
 * the first event; the phase is in progress until its last event is
 * replayed, and `step`, `continue` or `plan` replay the rest. Breakpoints
 * on a Relax module: a Relax phase (`break propagate`: before it runs),
 * a variable (`break %x`, every variable of that name in any function:
 * after the event that places it; `watch %x` reports it and goes on),
 * `conflict` (after colocate, when a co-location class is reached by
 * seeds on two vdevices) and `copy` (after rewrite, when it inserted
 * R.to_vdevice bindings). What happens is reported through the sink, in
 * order; nothing prints.
 */
typedef struct RxStepReport {
	StepReportKind kind;
	size_t phase;         /* the RxPhase concerned */
	size_t event;         /* EVENT, CHANGE: the index in realize.events;
				 SIZE_MAX otherwise */
	const Breakpoint *bp; /* CHANGE, BREAK */
	int before, after;    /* CHANGE: the variable's vdevice, -1 for none */
	size_t count;         /* BREAK after colocate or rewrite: conflicts or
				 copies */
} RxStepReport;

typedef struct RxStepSink {
	void (*report)(void *arg, const RxStepReport *r);
	void *arg;
} RxStepSink;

StepOutcome session_relax_run(Session *s, StepMode mode, size_t count, bool breakpoints,
			      const RxStepSink *sink);
/* Whether propagate is in progress under stepi; *applied and *total (when
 * not NULL) get its events replayed and in all. */
bool session_relax_in_progress(const Session *s, size_t *applied, size_t *total);

/* The planned Relax module lowered onto Relay (relax_lower.h) and planned
 * by the Relay pipeline into the session's versions, which `run`,
 * `compare`, `profile`, `render`, `estimate` and `copies` then read as
 * for a Relay module: llvm vdevices become cpu devices and cuda ones cuda
 * devices of the table, with their vdevice ids. entry names the function
 * to run (relax_lower_entry; NULL: the default). Done once per plan and
 * entry (a Relax step or restart drops it). False with errors in
 * s->diags: the Relax module is not planned, the entry is unknown, or the
 * module has what cannot run; errors on the lowered text are reported at
 * the Relax source (its SourceOrigin). */
bool session_relax_lower(Session *s, const char *entry);

#endif
