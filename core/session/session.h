/*
 * session.h - the debugger's state: devices, settings, the loaded module and
 * its versions, one per planning phase run so far.
 *
 * A Session is what every command works on. It owns the device table, the
 * settings, the loaded file and the chain of module versions:
 * versions[0] is the module as parsed, versions[i + 1] is what phase i of
 * pipeline_phases produced from versions[i], and phases_done counts how many
 * phases have run. versions[phases_done], the current version, is always
 * there. Earlier ones are kept while their nodes fit in the cache
 * setting; beyond it the oldest are let go after each phase, and
 * session_version recomputes one when a command asks for it (planning is
 * deterministic). A million-binding module so plans holding about two
 * versions, not five; and a phase whose input is let go anyway may edit
 * it rather than copy it (PhaseContext.consumable). Versions share their
 * immutable data (ir.h), so any of them can be freed first. Under stepi the
 * next phase may be in progress (progress): its output is held back until
 * it is committed as versions[phases_done + 1].
 *
 * Library code never prints: every operation that can fail leaves its
 * diagnostics in session->diags (cleared at the start of the next operation)
 * and returns a status; the shell decides where they go. A failed load or
 * phase leaves the session as it was, so the user's work is never lost; a
 * failed phase is remembered (session_failed_phase), so that what it
 * recorded in the trace can be inspected until planning moves on.
 *
 * Ownership: the Session owns everything it points to and frees it in
 * session_free; modules returned by session_current and session_version are
 * borrowed and stay valid until the next load, reload, restart, step or
 * setting change that resets planning.
 */
#ifndef DEVPLAN_SESSION_H
#define DEVPLAN_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "devices.h"
#include "diag.h"
#include "exec.h"
#include "exec_calibrate.h"
#include "interrupt.h"
#include "ir.h"
#include "pins.h"
#include "pipeline.h"
#include "plan.h"
#include "values.h"

typedef enum ColorMode { COLOR_AUTO, COLOR_ON, COLOR_OFF } ColorMode;
/* How inputs not given are drawn: uniform in [-1, 1), or like an
 * initialised model's (see core/session/run_inputs.c). */
typedef enum InputsMode { INPUTS_RANDOM, INPUTS_REALISTIC } InputsMode;

typedef struct SessionSettings {
	int32_t fallback;        /* device-table index; default 0 (cpu:0) */
	PlanPolicy policy;       /* default POLICY_COPY */
	PlacementMode placement; /* default PLACEMENT_DEFAULT */
	ColorMode color;         /* default COLOR_AUTO */
	bool echo;               /* echo script lines before running them */
	bool errexit;            /* stop a script at its first failing command */
	GpuMode gpu;             /* default GPU_AUTO (exec.h) */
	double tolerance;        /* for `compare`; default 1e-5 */
	double cache_mib;        /* MiB of earlier versions kept (see the top) */
	bool keep_values;        /* `run` keeps every op's value for `print`
				    within a budget, not only inputs and
				    results; default on */
	uint64_t memory_limit;   /* bytes a run's tensors may take, each and
				    together; 0 (auto, the default):
				    DEVPLAN_MEMORY_LIMIT, else exec.h's
				    default budget */
	InputsMode inputs;       /* default INPUTS_REALISTIC */
	bool pagination;         /* the shell pages long output at a terminal */
	int height;              /* lines per page: -1 the terminal's (default),
				    0 no paging */
} SessionSettings;

/* The default of cache: a 100,000-binding module keeps every
 * version; a 1,000,000-binding one keeps little more than the current. */
#define SESSION_CACHE_MIB 256.0

/*
 * Stepping state. The session owns it and frees it; the stepper
 * (stepper.h) runs it: it starts a phase in progress, replays its events
 * and evaluates the breakpoints.
 */
typedef enum BreakKind {
	BREAK_PHASE,    /* phase: stop before it runs */
	BREAK_VALUE,    /* value: stop when its domain changes */
	BREAK_CONFLICT, /* stop when check reports conflicts, and at a core conflict */
	BREAK_COPY,     /* stop when check inserts copies, and at a core device_copy */
	BREAK_WATCH,    /* value: report each change of its domain, never stop */
} BreakKind;

typedef struct Breakpoint {
	uint32_t number; /* 1, 2, ... in order of creation, never reused */
	BreakKind kind;
	int phase;      /* BREAK_PHASE: pipeline index */
	char *value;    /* BREAK_VALUE, BREAK_WATCH: `%b` or `@f` as typed (owned) */
	size_t hits;    /* times it was reached: it stopped a run, or would have
			but for `ignore` (watch: changes reported) */
	size_t ignore;  /* `ignore N COUNT`: the next stops to pass by */
	bool temporary; /* `tbreak`: deleted once it stops a run */
	bool spent;     /* a temporary one that stopped the run under way */
	bool relax;     /* BREAK_PHASE: phase is a Relax phase (relax_realize.h) */
} Breakpoint;

/* The breakpoints and watchpoints, which survive load and restart, and
 * where the last run stopped. */
typedef struct Stepper {
	Breakpoint *breaks; /* in number order */
	size_t nbreaks, cap_breaks;
	uint32_t last_number;
	size_t stopped_before; /* the phase whose breakpoint stopped the last
				  run, which the next run may leave; SIZE_MAX */
} Stepper;

/* A phase in progress under stepi: its run function has produced its
 * output, which is held back while the stepper replays the phase's events
 * one by one on a second analysis of its input (the replay). Only a phase
 * that records events (PHASE_RECORDS_EVENTS) is ever in progress. */
typedef struct PhaseProgress {
	bool active;         /* a phase is in progress; the rest is unset when not */
	size_t phase;        /* its pipeline index (== phases_done) */
	IrModule *pending;   /* its output, or NULL when it failed */
	DiagList diags;      /* what it reported, handed over at commit */
	size_t next;         /* events [0, next) of the trace are replayed */
	PlanAnalysis replay; /* on versions[phase], with those events applied */
} PhaseProgress;

/* The phase session_run_phase is running, for session_recover. */
typedef struct SessionRunning {
	int phase;     /* pipeline index, or -1 when none runs */
	bool consumes; /* it may edit its input in place */
	bool records;  /* it records into the trace */
} SessionRunning;

typedef struct Session {
	DeviceTable devices;
	SessionSettings settings;
	char *path;              /* the loaded file (absolute when `load` read it),
				    or NULL; session_module_name is the name it
				    goes by */
	SourceFile *source;      /* its text (retained), or NULL */
	IrModule **versions;     /* pipeline_count + 1 slots; see the top */
	size_t phases_done;      /* versions[0..phases_done] are non-NULL */
	DiagList diags;          /* the last operation's diagnostics */
	SourceFile *diag_source; /* retained while diags may point into it */
	struct PlanTrace *trace; /* what the planning phases recorded about the
				    planned versions (plan.h); cleared with them */
	Stepper *stepper;        /* breakpoints and watchpoints (stepper.h) */
	PhaseProgress progress;  /* the phase in progress under stepi */
	PinSet pins;             /* what-if pins and their undo stack (pins.h) */
	int failed_phase;        /* pipeline index of the phase whose last run
				     failed (an interrupt is not a failure), or
				     -1; what it recorded stays in trace */
	char *failed_reason;     /* that run's first error message (owned), or
				     NULL */
	SessionValues values;    /* what the last `run` kept, for `print`
				    (values.h); cleared by load */
	SessionRunning running;  /* the phase running now, if any */
	/* a loaded Relax module instead of a Relay one (session_relax.h) */
	struct SessionRelax *relax;
	bool calibrated; /* calibration holds this machine's figures
				    (session_calibrate, measured once) */
	ExecCalibration calibration;
} Session;

void session_init(Session *s);
void session_free(Session *s);

/* Parses path and makes it the loaded module, with planning reset. On
 * failure (unreadable file, parse errors) returns false with the errors in
 * s->diags and keeps the previously loaded module, if any. Warnings of a
 * successful load are left in s->diags too. */
bool session_load(Session *s, const char *path);
/* session_load, the module named `name` in positions and messages instead
 * of path (NULL: path); `reload` reads path again under that name. */
bool session_load_as(Session *s, const char *path, const char *name);
/* session_load of text already read: src (retained, not consumed) named
 * path in messages and as the loaded file. Reducers and scratch sessions
 * load modules they made in memory through it. */
bool session_load_source(Session *s, SourceFile *src, const char *path);
/* A fresh session (session_init) with src's device table, settings and
 * pins (no undo history), but no module, breakpoints or values: a scratch
 * session to plan a variant of src's module in (`reduce`, `diff --plan`)
 * without touching src. Freed with session_free. */
void session_init_like(Session *dst, const Session *src);
/* session_load of the loaded path again, under the name the module goes
 * by; false without a module. */
bool session_reload(Session *s);
/* The name the loaded module goes by in messages and positions: the file
 * as the user named it, or the name `load --as` gave it ("module" when
 * none is loaded). */
const char *session_module_name(const Session *s);
/* Drops every planned version: back to the module as parsed. */
void session_restart(Session *s);
/* Forgets the last operation's diagnostics (operations do it themselves). */
void session_clear_diags(Session *s);
/* True when some phase has run or is in progress (there is planning to lose). */
bool session_planning_started(const Session *s);
bool session_has_module(const Session *s);
/* True when every phase of the pipeline has run. */
bool session_planned(const Session *s);
/* The phase where planning stopped: the pipeline index of the phase whose
 * last run failed, so that the inspection commands answer from what it
 * recorded (its analysis, its conflicts); -1 when none did. It is
 * versions[phases_done]'s successor, and is forgotten when planning moves
 * on or is reset. *reason (when not NULL) gets its first error message. */
int session_failed_phase(const Session *s, const char **reason);

/* The latest module version (NULL without a module). */
IrModule *session_current(const Session *s);
/* The module as of after phase `phase` (pipeline index), or versions[0] for
 * phase -1; NULL if that phase has not run, or if recomputing a version
 * that was let go failed (interrupted), with the error in s->diags. A
 * recomputed version is kept until planning next moves. */
IrModule *session_version(Session *s, int phase);
/* Whether session_version(s, phase) names a version (kept or not). */
bool session_phase_ran(const Session *s, int phase);

/* Runs up to n of the remaining phases in order, stopping at the end of the
 * pipeline, at a failing phase (the session stays before it) or when
 * interrupted. A phase in progress under stepi counts as the first: its
 * output is committed without replaying the rest of its events. Returns
 * false on failure or interrupt, with the reasons in s->diags; warnings of
 * successful phases are left there as well. Breakpoints play no part here
 * (stepper_run honours them). */
bool session_step(Session *s, size_t n);
/* Runs pipeline phase p on `in`, the one way a phase runs: session_step,
 * the recomputation of a version that was let go and the stepper's start of
 * a phase it replays all come here. The phase gets the session's context
 * (session_phase_context), reports into `diags`, and records into the trace
 * when `record` is set. With `consumed` not NULL, a phase whose input the
 * session lets go anyway may edit it (PhaseContext.consumable); *consumed
 * then says whether it did, and the caller drops that version.
 * One error path for every phase: on failure (the phase returned nothing
 * or reported an error) its output is discarded and NULL returned, with an
 * error in diags: the phase's own, else "interrupted during phase 'P'" when
 * Ctrl-C is pending, else "phase 'P' failed". A Ctrl-C that the phase did
 * not notice leaves its output good; the caller stops at its next safe
 * point. Built with DEVPLAN_VERIFY, every output is verified (verify.h; a
 * planned one by plan_verify as well), and a violation is an internal
 * error that stops devplan. */
IrModule *session_run_phase(Session *s, size_t p, IrModule *in, DiagList *diags, bool record,
			    bool *consumed);
/* After memory ran out in the middle of an operation (oom.h: the command
 * was abandoned where it stood), puts the session back in a state it can
 * go on from: the phase in progress under stepi is dropped; a phase that
 * was editing its input has that version recomputed; a phase that was
 * recording into the trace takes the versions the trace describes with
 * it, back to before check (*reset set: the user plans again). The
 * module as loaded, settings, pins and breakpoints stay. */
void session_recover(Session *s, bool *reset);
/* Lets go of every version: no module is loaded, but the path stays, so
 * that `reload` parses it again (the last resort of a failed recovery). */
void session_unload(Session *s);
/* Commits the phase in progress (s->progress) as it stands, whatever is
 * left of its events; true when none is in progress. Clears s->diags and
 * leaves the phase's own diagnostics there; false when the phase failed
 * (the session then stays before it, and remembers the failure). */
bool session_finish_phase(Session *s);

/* The PhaseContext that phases run with, built from the settings. */
PhaseContext session_phase_context(Session *s);

/*
 * Settings, as a table so that `set`, `show`, `help set` and completion all
 * read one list. Values are spelled as the user types them.
 */
typedef enum SettingKind {
	SETTING_CHOICE, /* one of choices (unique prefixes accepted) */
	SETTING_BOOL,   /* on/off (also yes/no, true/false, 1/0) */
	SETTING_DEVICE, /* a device-table name, KIND:ID */
	SETTING_NUMBER, /* a finite, non-negative number */
	SETTING_BYTES,  /* a size in bytes (parse_byte_size) or auto */
} SettingKind;

typedef struct SessionSetting {
	const char *name;
	SettingKind kind;
	const char *const *choices; /* NULL-terminated: SETTING_CHOICE, _BOOL */
	bool resets_planning;       /* changing it drops planned versions */
	const char *summary;
} SessionSetting;

extern const SessionSetting session_settings[];
extern const size_t session_setting_count;

/* Index of a setting by exact name or unique prefix, or -1. */
int session_setting_find(const char *name);
/* Appends the current value of setting i as `set` accepts it. */
void session_setting_format(const Session *s, int i, StrBuf *out);
/* Appends the value setting i has in a fresh session. */
void session_setting_format_default(int i, StrBuf *out);
/* Whether setting i has that value now (`show` marks the others). */
bool session_setting_is_default(const Session *s, int i);
/* Parses and applies a value. On a bad value returns false with *err set
 * (the caller frees it). *reset is set when the change dropped planned
 * versions; setting a value equal to the current one changes nothing. */
bool session_setting_set(Session *s, int i, const char *value, bool *reset, char **err);

/*
 * What-if pins (SPEC §3.3, pins.h): `pin %x cuda:0` plans as if %x
 * were annotated, without editing the module. Every change to the pins
 * drops the planned versions (the module as loaded stays) and can be
 * undone. Pins survive `restart` and `reload`; `load` of another file
 * clears them.
 */
/* Adds a copy of pin (every expression it names on its device, phase.h);
 * replaces an earlier pin of the same name or operators. */
void session_pin(Session *s, const PlanPin *pin);
/* Removes the pin of `name` (without '%'), or with name NULL of the
 * operators `op` as pinned; false when there is none. */
bool session_unpin(Session *s, const char *name, const char *op);
/* Restores the pins as they were before the last pin or unpin; false when
 * there is nothing to undo. */
bool session_undo_pins(Session *s);
/* The current pins, for listing and for the phases. */
const PlanPin *session_pins(const Session *s, size_t *count);
/* A change of the pins, tried before it is made. */
typedef enum PinChange { PIN_CHANGE_SET, PIN_CHANGE_REMOVE, PIN_CHANGE_UNDO } PinChange;
/* Plans s's module as loaded with s's pins changed so (add pin, remove
 * the pin of pin's name or operators, or undo the last change), in
 * `scratch`, a
 * session made like s (session_init_like, its undo history too), without
 * touching s: its phases, stepping, breakpoints and pins stay as they
 * are. False when the change cannot be made (`name` not pinned, nothing
 * to undo) or s has no module; else *planned says whether planning
 * succeeded (its diagnostics are scratch's). The caller frees scratch with
 * session_free either way. */
bool session_pins_try(const Session *s, PinChange change, const PlanPin *pin, Session *scratch,
		      bool *planned);
/*
 * A clone of m (a version before check, where pins are not yet applied)
 * with each pin written as the annotation that constrains the same values,
 * so that the module planned without pins plans as the pinned session
 * does (`save`, `reduce`):
 *   a parameter %x          gets `%x {virtual_device=D}`
 *   let %x = v; ...         becomes `let %x = on_device(v, virtual_device=D)`
 *                           (which `rewrite` fixes, constraining %x too)
 *   a graph binding %x = e  becomes `%x = on_device(e, virtual_device=D,
 *                           constrain_result=True)`: e and every use of %x
 *                           on D, as the pin binds them
 *   a closure `fn` bound to %x (let or graph binding)
 *                           gets the function's `virtual_device=D`, which
 *                           places its result as the pin does (an on_device
 *                           would part the closure from its calls)
 * A pattern or free variable has no such annotation in Relay: NULL then,
 * with an error naming the pin in diags. The caller frees the clone.
 */
IrModule *session_annotate_pins(const Session *s, const IrModule *m, DiagList *diags);
/* Appends m as a file TVM and devplan load again: the printer's text
 * (with `ty=` comments when show_types), with the #[metadata] section the
 * module was loaded with or its constants need, or, when it only refers
 * to devices as meta[VirtualDevice][i], a section holding the session's
 * device table, which the text would otherwise index. */
void session_print_module(const Session *s, const IrModule *m, bool show_types, StrBuf *out);

#endif
