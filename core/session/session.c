/*
 * session.c - the session: loading, the chain of module versions, stepping
 * through the pipeline, the what-if pins (whose list is pins.c's) and the
 * settings table.
 *
 * Every operation first clears the previous diagnostics, then works on the
 * side (a new parse, a new phase output) and only commits when that
 * succeeded, so a failure never disturbs what is loaded. Diagnostics may
 * point into the text of a file that failed to load; diag_source keeps that
 * text alive until the diagnostics are cleared.
 */
#include "session.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metadata.h"
#include "parse.h"
#include "path.h"
#include "print.h"
#include "plan.h"
#include "relax_parse.h"
#include "session_relax.h"
#include "verify.h"

void session_clear_diags(Session *s)
{
	diag_clear(&s->diags);
	source_release(s->diag_source);
	s->diag_source = NULL;
}

void session_init(Session *s)
{
	memset(s, 0, sizeof *s);
	devices_init_default(&s->devices);
	s->settings.fallback = 0;
	s->settings.policy = POLICY_COPY;
	s->settings.placement = PLACEMENT_DEFAULT;
	s->settings.color = COLOR_AUTO;
	s->settings.echo = false;
	s->settings.errexit = false;
	s->settings.gpu = GPU_AUTO;
	s->settings.tolerance = 1e-5;
	s->settings.inputs = INPUTS_REALISTIC;
	s->settings.keep_values = true;
	s->settings.cache_mib = SESSION_CACHE_MIB;
	s->settings.pagination = true;
	s->settings.height = -1;
	s->versions = xcalloc(pipeline_count + 1, sizeof(IrModule *));
	s->trace = plan_trace_new();
	s->stepper = xcalloc(1, sizeof(Stepper));
	s->stepper->stopped_before = SIZE_MAX;
	diag_init(&s->progress.diags);
	s->failed_phase = -1;
	s->running.phase = -1;
	diag_init(&s->diags);
}

/* Planning moved on or was reset: no phase has failed since. */
static void session_forget_failure(Session *s)
{
	free(s->failed_reason);
	s->failed_reason = NULL;
	s->failed_phase = -1;
}

/* Records that phase `phase` failed, with the first error in s->diags as
 * the reason; nothing when the failure was an interrupt (what the phase
 * recorded is then incomplete). */
static void session_record_failure(Session *s, size_t phase)
{
	session_forget_failure(s);
	if (interrupt_pending())
		return;
	s->failed_phase = (int)phase;
	for (size_t i = 0; i < s->diags.count; i++)
		if (s->diags.items[i].severity == DIAG_ERROR) {
			s->failed_reason = xstrdup(s->diags.items[i].message);
			break;
		}
}

int session_failed_phase(const Session *s, const char **reason)
{
	if (reason)
		*reason = s->failed_reason;
	return s->failed_phase;
}

static IrModule *session_materialize(Session *s, size_t slot);

/* Drops the phase in progress, if any, its pending output too. */
static void session_drop_progress(Session *s)
{
	PhaseProgress *pr = &s->progress;
	if (!pr->active)
		return;
	if (pr->pending)
		ir_module_free(pr->pending);
	pr->pending = NULL;
	plan_analysis_free(&pr->replay);
	diag_clear(&pr->diags);
	pr->active = false;
	pr->next = 0;
}

/* Frees versions[from..phases_done]. With from >= 1 the version before
 * them becomes current again, recomputed if it had been let go. */
static void session_drop_versions(Session *s, size_t from)
{
	/* a phase in progress reads versions[phases_done]: it goes first */
	session_drop_progress(s);
	session_forget_failure(s);
	/* The trace describes planned versions (and what a failed phase
	 * recorded about the next one): it goes with them. */
	if (s->trace && (from <= 1 || s->phases_done >= from))
		plan_trace_clear(s->trace);
	for (size_t i = pipeline_count + 1; i-- > from;) {
		if (s->versions[i]) {
			ir_module_free(s->versions[i]);
			s->versions[i] = NULL;
		}
	}
	if (from == 0)
		s->phases_done = 0;
	else if (s->phases_done >= from)
		s->phases_done = from - 1;
	/* a Relax module's versions are its plan's lowering: none to go back
	 * to until it is planned again */
	if (from > 0 && s->source && (!session_relax_active(s) || session_relax_planned(s)))
		session_materialize(s, s->phases_done);
}

/* Bytes of expression nodes held by the version slots, each module once
 * (a phase that changed nothing shares its input). */
static size_t session_version_bytes(const Session *s)
{
	size_t total = 0;
	for (size_t i = 0; i <= s->phases_done; i++)
		if (s->versions[i] && (i == 0 || s->versions[i] != s->versions[i - 1]))
			total += s->versions[i]->nodes.used_bytes;
	return total;
}

/* The cache setting in bytes. */
static double session_cache_bytes(const Session *s)
{
	return s->settings.cache_mib * 1024.0 * 1024.0;
}

/* Lets go of the oldest earlier versions while the kept ones exceed the
 * cache setting. The current version always stays; one let go is
 * recomputed when a command asks for it (session_version). */
static void session_trim_versions(Session *s)
{
	double budget = session_cache_bytes(s);
	for (size_t i = 0; i < s->phases_done && (double)session_version_bytes(s) > budget; i++) {
		if (s->versions[i]) {
			ir_module_free(s->versions[i]);
			s->versions[i] = NULL;
		}
	}
}

/* Whether the version `in`, the input of the next phase, would be let go
 * as soon as that phase commits (its nodes and a copy of them exceed the
 * cache), and nothing else holds it: the phase may then edit it in place
 * rather than copy it (PhaseContext.consumable). */
static bool session_lets_go(const Session *s, const IrModule *in)
{
	return in->refcount == 1 && 2.0 * (double)in->nodes.used_bytes > session_cache_bytes(s);
}

/* Makes out (a phase's output) the current version and lets go of
 * earlier ones beyond the cache setting. */
static void session_commit_version(Session *s, IrModule *out)
{
	DP_ASSERT(s->phases_done < pipeline_count);
	session_forget_failure(s);
	ir_module_commit(out);
	s->versions[++s->phases_done] = out;
	session_trim_versions(s);
}

void session_free(Session *s)
{
	session_relax_free(s);
	session_values_clear(&s->values);
	pins_clear(&s->pins);
	session_drop_versions(s, 0);
	for (size_t i = 0; i < s->stepper->nbreaks; i++)
		free(s->stepper->breaks[i].value);
	free(s->stepper->breaks);
	free(s->stepper);
	diag_free(&s->progress.diags);
	plan_trace_free(s->trace);
	free(s->versions);
	session_clear_diags(s);
	diag_free(&s->diags);
	source_release(s->source);
	free(s->path);
	devices_free(&s->devices);
	memset(s, 0, sizeof *s);
}

bool session_has_module(const Session *s)
{
	return s->versions[s->phases_done] != NULL;
}

bool session_planning_started(const Session *s)
{
	return s->phases_done > 0 || s->progress.active || session_relax_phases_done(s) > 0;
}

bool session_planned(const Session *s)
{
	return session_has_module(s) && s->phases_done == pipeline_count;
}

IrModule *session_current(const Session *s)
{
	return s->versions[s->phases_done];
}

/* Recomputes versions[slot] from the nearest earlier version still kept,
 * or from the source text, with the current settings and pins (planning is
 * deterministic, and every change to those drops the planned versions, so
 * this is the version that was let go). Nothing is recorded in the trace,
 * and the phases' warnings, already reported once, are dropped. On failure
 * (an interrupt) returns NULL with an error in s->diags. */
static IrModule *session_materialize(Session *s, size_t slot)
{
	DiagList scratch;
	IrModule *m = NULL;
	size_t from = slot;
	if (s->versions[slot])
		return s->versions[slot];
	while (from > 0 && !s->versions[from])
		from--;
	diag_init(&scratch);
	if (s->versions[from])
		m = ir_module_retain(s->versions[from]);
	else if (session_relax_active(s)) /* a Relax file is never read as Relay */
		m = session_relax_lowered(s, &scratch);
	else if (s->source)
		m = parse_module(s->source, &s->devices, &scratch);
	for (size_t i = from; m && scratch.errors == 0 && i < slot; i++) {
		IrModule *out = session_run_phase(s, i, m, &scratch, false, NULL);
		ir_module_free(m);
		m = out;
	}
	if (!m || scratch.errors > 0) {
		const char *why = "it failed";
		for (size_t i = 0; i < scratch.count; i++)
			if (scratch.items[i].severity == DIAG_ERROR) {
				why = scratch.items[i].message;
				break;
			}
		if (slot)
			diag_error(&s->diags, NULL, (Pos){0, 0},
				   "cannot recompute the module after phase '%s': %s",
				   pipeline_phases[slot - 1].name, why);
		else
			diag_error(&s->diags, NULL, (Pos){0, 0},
				   "cannot recompute the module as loaded: %s", why);
		ir_module_free(m);
		diag_free(&scratch);
		return NULL;
	}
	diag_free(&scratch);
	ir_module_commit(m);
	s->versions[slot] = m;
	return m;
}

IrModule *session_version(Session *s, int phase)
{
	if (!session_phase_ran(s, phase))
		return NULL;
	return session_materialize(s, (size_t)(phase + 1));
}

bool session_phase_ran(const Session *s, int phase)
{
	return phase >= -1 && phase < (int)pipeline_count &&
	       (size_t)(phase + 1) <= s->phases_done && session_has_module(s);
}

bool session_load(Session *s, const char *path)
{
	return session_load_as(s, path, NULL);
}

bool session_load_as(Session *s, const char *path, const char *name)
{
	char *err = NULL, *cwd, *absolute;
	SourceFile *src;
	bool ok;

	session_clear_diags(s);
	src = source_read(path, &err);
	if (!src) {
		diag_error(&s->diags, NULL, (Pos){0, 0}, "%s", err);
		free(err);
		return false;
	}
	if (name) {
		free(src->name);
		src->name = xstrdup(name);
	}
	/* kept absolute, so that `reload` finds the file from another folder
	 * (a script runs in its own) */
	cwd = path_current_dir();
	absolute = cwd ? path_join(cwd, path) : xstrdup(path);
	ok = session_load_source(s, src, absolute);
	free(absolute);
	free(cwd);
	source_release(src);
	return ok;
}

bool session_load_source(Session *s, SourceFile *src, const char *path)
{
	char *new_path;
	IrModule *m;

	session_clear_diags(s);
	s->diag_source = source_retain(src);
	if (relax_source_is_relax(src, path))
		return session_load_relax(s, src, path);
	m = parse_module(src, &s->devices, &s->diags);
	if (!m || s->diags.errors > 0) {
		if (m)
			ir_module_free(m);
		if (s->diags.errors == 0)
			diag_error(&s->diags, src, (Pos){0, 0}, "could not parse the module");
		return false;
	}
	new_path = xstrdup(path);
	if (s->path && strcmp(s->path, path) != 0)
		pins_clear(&s->pins); /* pins name values of the old module; a
					 fresh session keeps those session_init_like
					 gave it */
	session_drop_versions(s, 0);
	session_relax_free(s);
	session_values_clear(&s->values); /* they are values of the old module */
	source_release(s->source);
	free(s->path);
	s->source = source_retain(src);
	s->path = new_path;
	ir_module_commit(m);
	s->versions[0] = m;
	s->phases_done = 0;
	return true;
}

void session_init_like(Session *dst, const Session *src)
{
	session_init(dst);
	devices_free(&dst->devices);
	devices_copy(&dst->devices, &src->devices);
	dst->settings = src->settings;
	dst->calibrated = src->calibrated;
	dst->calibration = src->calibration;
	for (size_t i = 0; i < src->pins.current.count; i++)
		pins_set(&dst->pins, &src->pins.current.items[i]);
}

bool session_reload(Session *s)
{
	char *path, *name;
	bool ok;
	if (!s->path) {
		session_clear_diags(s);
		diag_error(&s->diags, NULL, (Pos){0, 0}, "no module loaded");
		return false;
	}
	/* the same file under the name it goes by (`load --as` kept) */
	path = xstrdup(s->path);
	name = s->source ? xstrdup(s->source->name) : NULL;
	ok = session_load_as(s, path, name);
	free(path);
	free(name);
	return ok;
}

const char *session_module_name(const Session *s)
{
	return s->source ? s->source->name : s->path ? s->path : "module";
}

void session_restart(Session *s)
{
	session_clear_diags(s);
	session_relax_restart(s);
	session_drop_versions(s, 1);
}

PhaseContext session_phase_context(Session *s)
{
	PhaseContext ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.devices = &s->devices;
	ctx.fallback = s->settings.fallback;
	ctx.policy = s->settings.policy;
	ctx.placement = s->settings.placement;
	ctx.diags = &s->diags;
	ctx.trace = s->trace;
	ctx.pins = session_pins(s, &ctx.npins);
	return ctx;
}

bool session_step(Session *s, size_t n)
{
	session_clear_diags(s);
	if (!session_has_module(s)) {
		diag_error(&s->diags, NULL, (Pos){0, 0}, "no module loaded");
		return false;
	}
	if (n > 0 && s->progress.active) {
		/* leaves that phase's diagnostics in s->diags, in order */
		if (!session_finish_phase(s))
			return false;
		n--;
	}
	for (size_t k = 0; k < n && s->phases_done < pipeline_count; k++) {
		IrModule *in = s->versions[s->phases_done], *out;
		bool consumed = false;
		if (interrupt_pending()) {
			/* the flag stays set: a script stops, the prompt clears it */
			diag_error(&s->diags, NULL, (Pos){0, 0}, "interrupted before phase '%s'",
				   pipeline_phases[s->phases_done].name);
			return false;
		}
		out = session_run_phase(s, s->phases_done, in, &s->diags, true, &consumed);
		if (consumed) {
			/* the phase edited its input: that version is gone from
			 * its slot (recomputed if asked for), and on failure the
			 * current one is recomputed at once */
			s->versions[s->phases_done] = NULL;
			ir_module_free(in);
		}
		if (!out) {
			if (consumed)
				session_materialize(s, s->phases_done);
			session_record_failure(s, s->phases_done);
			return false;
		}
		session_commit_version(s, out);
	}
	return true;
}

#ifdef DEVPLAN_VERIFY
#define SESSION_VERIFY_FULL true
#else
#define SESSION_VERIFY_FULL false
#endif

IrModule *session_run_phase(Session *s, size_t p, IrModule *in, DiagList *diags, bool record,
			    bool *consumed)
{
	const Phase *phase = &pipeline_phases[p];
	PhaseContext ctx = session_phase_context(s);
	size_t errors_before = diags->errors;
	IrModule *out;
	DP_ASSERT(p < pipeline_count);
	ctx.diags = diags;
	if (!record)
		ctx.trace = NULL;
	if (consumed && session_lets_go(s, in))
		ctx.consumable = in;
	s->running = (SessionRunning){
		(int)p, ctx.consumable != NULL,
		ctx.trace && (phase->flags & (PHASE_REPORTS_CONFLICTS | PHASE_RECORDS_EVENTS))};
	out = phase->run(in, &ctx);
	s->running.phase = -1;
	if (consumed)
		*consumed = ctx.consumed;
	/* the verifier's verdict (every node with types and devices, STYLE.md
	 * §4, in builds with DEVPLAN_VERIFY; the plan's check in every build)
	 * fails the phase with its errors: a bug of devplan's the user sees */
	if (out && diags->errors == errors_before &&
	    pipeline_verify(p, out, &s->devices, SESSION_VERIFY_FULL, diags))
		return out;
	/* failed: the phase returned nothing, or reported an error */
	if (out)
		ir_module_free(out);
	if (diags->errors == errors_before)
		diag_error(diags, NULL, (Pos){0, 0},
			   interrupt_pending() ? "interrupted during phase '%s'"
					       : "phase '%s' failed",
			   phase->name);
	return NULL;
}

void session_unload(Session *s)
{
	session_drop_versions(s, 0);
	session_values_clear(&s->values);
}

void session_recover(Session *s, bool *reset)
{
	SessionRunning was = s->running;
	int recording = pipeline_find_flags(PHASE_REPORTS_CONFLICTS);
	*reset = false;
	s->running.phase = -1;
	session_clear_diags(s);
	/* a phase in progress under stepi may have been half set up */
	session_drop_progress(s);
	if (was.phase < 0)
		return;
	if (was.consumes) {
		/* the phase was editing its input in place: that version is
		 * neither what it was nor the output */
		ir_module_free(s->versions[s->phases_done]);
		s->versions[s->phases_done] = NULL;
	}
	if (was.records && recording >= 0) {
		/* it wrote part of its records into the trace: the trace and
		 * the versions it describes go, back to before the first
		 * phase that records */
		*reset = s->phases_done > (size_t)recording;
		if (*reset)
			session_drop_versions(s, (size_t)recording + 1);
		session_forget_failure(s);
		plan_trace_clear(s->trace);
	}
	if (was.consumes && !session_has_module(s))
		session_materialize(s, s->phases_done);
}

bool session_finish_phase(Session *s)
{
	PhaseProgress *pr = &s->progress;
	IrModule *out = pr->pending;
	size_t phase = pr->phase;
	DiagList tmp;
	if (!pr->active)
		return true;
	/* its diagnostics move to s->diags */
	session_clear_diags(s);
	tmp = s->diags;
	s->diags = pr->diags;
	pr->diags = tmp;
	pr->pending = NULL;
	session_drop_progress(s);
	if (!out) {
		if (s->diags.errors == 0)
			diag_error(&s->diags, NULL, (Pos){0, 0}, "phase '%s' failed",
				   pipeline_phases[phase].name);
		session_record_failure(s, phase);
		return false;
	}
	session_commit_version(s, out);
	return true;
}

/* ---- what-if pins ---- */

void session_pin(Session *s, const PlanPin *pin)
{
	pins_set(&s->pins, pin);
	session_restart(s);
}

bool session_unpin(Session *s, const char *name, const char *op)
{
	if (!pins_remove(&s->pins, name, op))
		return false;
	session_restart(s);
	return true;
}

bool session_undo_pins(Session *s)
{
	if (!pins_undo(&s->pins))
		return false;
	session_restart(s);
	return true;
}

const PlanPin *session_pins(const Session *s, size_t *count)
{
	*count = s->pins.current.count;
	return s->pins.current.items;
}

bool session_pins_try(const Session *s, PinChange change, const PlanPin *pin, Session *scratch,
		      bool *planned)
{
	bool ok = true;
	session_init_like(scratch, s);
	pins_clear(&scratch->pins);
	pins_copy(&scratch->pins, &s->pins);
	*planned = false;
	switch (change) {
	case PIN_CHANGE_SET:
		pins_set(&scratch->pins, pin);
		break;
	case PIN_CHANGE_REMOVE:
		ok = pins_remove(&scratch->pins, pin->name, pin->op);
		break;
	case PIN_CHANGE_UNDO:
		ok = pins_undo(&scratch->pins);
		break;
	}
	if (!ok || !s->source)
		return false;
	if (session_load_source(scratch, s->source, s->path ? s->path : "module"))
		*planned = session_step(scratch, pipeline_count);
	return true;
}

/* ---- pins as annotations, and a module as a file ---- */

IrModule *session_annotate_pins(const Session *s, const IrModule *m, DiagList *diags)
{
	size_t npins;
	const PlanPin *pins = session_pins(s, &npins);
	IrModule *copy = ir_module_clone(m);
	uint32_t nexprs = copy->nexprs;
	Expr **by_id = ir_index_by_id(copy);
	for (size_t i = 0; i < npins; i++) {
		const PlanPin *pin = &pins[i];
		for (uint32_t id = 0; id < nexprs; id++) {
			Expr *e = by_id[id];
			if (!e || !plan_pin_matches(pin, e))
				continue;
			/* A closure written out: its virtual_device, which places
			 * its result as the pin does. An on_device around it would
			 * separate the closure from its calls (TVM gives the
			 * wrapper's body and result function domains of their own),
			 * so that its parameters would no longer meet their
			 * arguments. */
			if (e->kind == EXPR_FN) {
				e->device = (int16_t)pin->device;
				continue;
			}
			if (e->kind != EXPR_VAR) {
				/* a pin, as TVM writes one: fixed, or a plain
				 * on_device for --body */
				ir_wrap_in_on_device(copy, e, pin->device, !pin->body);
				continue;
			}
			switch (e->u.var.role) {
			case VAR_PARAM:
				e->device = (int16_t)pin->device;
				break;
			case VAR_LET:
				for (uint32_t k = 0; k < nexprs; k++) {
					Expr *let = by_id[k];
					if (let && let->kind == EXPR_LET && let->u.let.var == e &&
					    let->u.let.value->kind == EXPR_FN) {
						let->u.let.value->device = (int16_t)pin->device;
					} else if (let && let->kind == EXPR_LET &&
						   let->u.let.var == e) {
						Expr *value = let->u.let.value;
						let->u.let.value = ir_on_device(copy, value->pos,
										value, pin->device);
						e->u.var.value = let->u.let.value;
					}
				}
				break;
			case VAR_PATTERN:
			case VAR_FREE:
				diag_error(diags, NULL, (Pos){0, 0},
					   "cannot write the pin of '%%%s' as an annotation: it is "
					   "a %s variable; 'unpin %%%s' first",
					   pin->name,
					   e->u.var.role == VAR_PATTERN ? "pattern" : "free",
					   pin->name);
				free(by_id);
				ir_module_free(copy);
				return NULL;
			}
		}
	}
	free(by_id);
	return copy;
}

void session_print_module(const Session *s, const IrModule *m, bool show_types, StrBuf *out)
{
	PrintOptions opts;
	size_t start = out->len;
	memset(&opts, 0, sizeof opts);
	opts.devices = &s->devices;
	opts.show_types = show_types;
	opts.show_metadata = true;
	print_module(out, m, &opts);
	if (m->nconstants == 0 && !m->metadata &&
	    strstr(out->data + start, "meta[VirtualDevice]")) {
		/* devices only: the session's table becomes the section */
		strbuf_putc(out, '\n');
		metadata_write(out, m, &s->devices, NULL);
	}
}

/* ---- settings ---- */

/* The order of session_settings[]. */
enum {
	SET_FALLBACK,
	SET_POLICY,
	SET_PLACEMENT,
	SET_GPU,
	SET_TOLERANCE,
	SET_CACHE,
	SET_COLOR,
	SET_ECHO,
	SET_ERREXIT,
	SET_KEEP_VALUES,
	SET_MEMORY_LIMIT,
	SET_INPUTS,
	SET_PAGINATION,
	SET_HEIGHT,
	SET_COUNT
};

/* Spelled in enum order: index i is the value with numeric value i. */
static const char *const gpu_choices[] = {"auto", "require", "emulate", NULL};
static const char *const color_choices[] = {"auto", "on", "off", NULL};
static const char *const bool_choices[] = {"on", "off", NULL};
static const char *const inputs_choices[] = {"random", "realistic", NULL};

const SessionSetting session_settings[] = {
	[SET_FALLBACK] = {"fallback", SETTING_DEVICE, NULL, true,
			  "the device of values nothing constrains (KIND:ID from 'targets')"},
	[SET_POLICY] = {"policy", SETTING_CHOICE, plan_policy_names, true,
			"what a conflict does: stop planning, copy, replicate constants, or as TVM "
			"v0.14 does"},
	[SET_PLACEMENT] = {"placement", SETTING_CHOICE, plan_placement_names, true,
			   "where unconstrained operators go: TVM's rule or fewest bytes copied"},
	[SET_GPU] = {"gpu", SETTING_CHOICE, gpu_choices, false,
		     "run cuda devices on a GPU if present, always, or on the host emulator"},
	[SET_TOLERANCE] = {"tolerance", SETTING_NUMBER, NULL, false,
			   "the largest error 'compare' accepts"},
	[SET_CACHE] = {"cache", SETTING_NUMBER, NULL, false,
		       "MiB of earlier module versions kept; the rest are recomputed"},
	[SET_COLOR] = {"color", SETTING_CHOICE, color_choices, false,
		       "colour the output: on a terminal only (auto), always, never"},
	[SET_ECHO] = {"echo", SETTING_BOOL, bool_choices, false,
		      "print each command of a script or -c before running it"},
	[SET_ERREXIT] = {"errexit", SETTING_BOOL, bool_choices, false,
			 "stop a script at its first failing command"},
	[SET_KEEP_VALUES] = {"keep-values", SETTING_BOOL, bool_choices, false,
			     "'run' keeps every value for 'print' (within a quarter of the free "
			     "memory), not only inputs and results"},
	[SET_MEMORY_LIMIT] = {"memory-limit", SETTING_BYTES, NULL, false,
			      "bytes a run's tensors may take together (K, M, G, T): auto is "
			      "DEVPLAN_MEMORY_LIMIT, else 3/4 of the machine's memory"},
	[SET_INPUTS] = {"inputs", SETTING_CHOICE, inputs_choices, false,
			"inputs not given: uniform random, or drawn like an initialised model's"},
	[SET_PAGINATION] = {"pagination", SETTING_BOOL, bool_choices, false,
			    "stop after each screenful of output at a terminal"},
	[SET_HEIGHT] = {"height", SETTING_NUMBER, NULL, false,
			"lines per screenful: auto (the terminal's), or 0/unlimited for none"},
};
const size_t session_setting_count = DP_COUNT(session_settings);

int session_setting_find(const char *name)
{
	int i = prefix_match(name, &session_settings[0].name, session_setting_count,
			     sizeof(SessionSetting));
	return i >= 0 ? i : -1;
}

void session_setting_format(const Session *s, int i, StrBuf *out)
{
	const SessionSettings *v = &s->settings;
	DP_ASSERT(i >= 0 && (size_t)i < session_setting_count);
	switch (i) {
	case SET_FALLBACK:
		strbuf_puts(out, devices_name(&s->devices, v->fallback));
		break;
	case SET_POLICY:
		strbuf_puts(out, plan_policy_names[v->policy]);
		break;
	case SET_PLACEMENT:
		strbuf_puts(out, plan_placement_names[v->placement]);
		break;
	case SET_GPU:
		strbuf_puts(out, gpu_choices[v->gpu]);
		break;
	case SET_TOLERANCE:
		strbuf_printf(out, "%g", v->tolerance);
		break;
	case SET_CACHE:
		strbuf_printf(out, "%g", v->cache_mib);
		break;
	case SET_COLOR:
		strbuf_puts(out, color_choices[v->color]);
		break;
	case SET_ECHO:
		strbuf_puts(out, v->echo ? "on" : "off");
		break;
	case SET_ERREXIT:
		strbuf_puts(out, v->errexit ? "on" : "off");
		break;
	case SET_KEEP_VALUES:
		strbuf_puts(out, v->keep_values ? "on" : "off");
		break;
	case SET_MEMORY_LIMIT:
		if (v->memory_limit)
			format_byte_size(out, v->memory_limit);
		else
			strbuf_puts(out, "auto");
		break;
	case SET_INPUTS:
		strbuf_puts(out, inputs_choices[v->inputs]);
		break;
	case SET_PAGINATION:
		strbuf_puts(out, v->pagination ? "on" : "off");
		break;
	case SET_HEIGHT:
		if (v->height < 0)
			strbuf_puts(out, "auto");
		else if (v->height == 0)
			strbuf_puts(out, "unlimited");
		else
			strbuf_printf(out, "%d", v->height);
		break;
	default:
		DP_ASSERT(!"unknown setting");
	}
}

void session_setting_format_default(int i, StrBuf *out)
{
	Session fresh;
	session_init(&fresh);
	session_setting_format(&fresh, i, out);
	session_free(&fresh);
}

bool session_setting_is_default(const Session *s, int i)
{
	StrBuf now, initial;
	bool same;
	strbuf_init(&now);
	strbuf_init(&initial);
	session_setting_format(s, i, &now);
	session_setting_format_default(i, &initial);
	same = strcmp(now.data, initial.data) == 0;
	strbuf_free(&now);
	strbuf_free(&initial);
	return same;
}

/* The index of value among choices (NULL-terminated): exact, else a
 * unique prefix; -1. */
static int match_choice(const char *const *choices, const char *value)
{
	size_t n = 0;
	int i;
	while (choices[n])
		n++;
	i = prefix_match(value, choices, n, sizeof(char *));
	return i >= 0 ? i : -1;
}

static char *choice_error(const SessionSetting *setting, const char *value)
{
	StrBuf sb;
	strbuf_init(&sb);
	strbuf_printf(&sb, "invalid value '%s' for '%s': expected ", value, setting->name);
	for (int i = 0; setting->choices[i]; i++)
		strbuf_printf(&sb, "%s%s",
			      i == 0                    ? ""
			      : setting->choices[i + 1] ? ", "
							: " or ",
			      setting->choices[i]);
	return strbuf_detach(&sb);
}

static bool parse_bool(const char *value, bool *out)
{
	static const char *const yes[] = {"on", "yes", "true", "1", NULL};
	static const char *const no[] = {"off", "no", "false", "0", NULL};
	for (int i = 0; yes[i]; i++) {
		if (strcmp(value, yes[i]) == 0) {
			*out = true;
			return true;
		}
		if (strcmp(value, no[i]) == 0) {
			*out = false;
			return true;
		}
	}
	return false;
}

bool session_setting_set(Session *s, int i, const char *value, bool *reset, char **err)
{
	const SessionSetting *setting;
	SessionSettings next = s->settings;
	int choice = -1;
	double number = 0;
	uint64_t bytes = 0;
	*reset = false;
	*err = NULL;
	DP_ASSERT(i >= 0 && (size_t)i < session_setting_count);
	setting = &session_settings[i];
	switch (setting->kind) {
	case SETTING_CHOICE:
		choice = match_choice(setting->choices, value);
		if (choice < 0) {
			*err = choice_error(setting, value);
			return false;
		}
		break;
	case SETTING_BOOL: {
		bool b;
		if (!parse_bool(value, &b)) {
			*err = choice_error(setting, value);
			return false;
		}
		choice = b;
		break;
	}
	case SETTING_DEVICE:
		choice = devices_find_name(&s->devices, value);
		if (choice < 0) {
			*err = xasprintf("unknown device '%s' (see 'targets')", value);
			return false;
		}
		break;
	case SETTING_NUMBER: {
		char *end;
		double d;
		if (i == SET_HEIGHT && (!strcmp(value, "auto") || !strcmp(value, "unlimited"))) {
			number = value[0] == 'a' ? -1 : 0;
			break;
		}
		errno = 0;
		d = strtod(value, &end);
		if (end == value || *end || errno || !isfinite(d) || d < 0) {
			*err = xasprintf(
				"invalid value '%s' for '%s': expected a non-negative number",
				value, setting->name);
			return false;
		}
		if (i == SET_HEIGHT && (d != floor(d) || d > 1e6)) {
			*err = xasprintf("invalid value '%s' for 'height': expected a number of "
					 "lines, auto or unlimited",
					 value);
			return false;
		}
		number = d;
		break;
	}
	case SETTING_BYTES: {
		const char *why;
		if (strcmp(value, "auto") == 0)
			break;
		if (!parse_byte_size(value, &bytes, &why)) {
			*err = xasprintf("invalid value '%s' for '%s': %s, or auto", value,
					 setting->name, why);
			return false;
		}
		break;
	}
	}
	switch (i) {
	case SET_FALLBACK:
		next.fallback = choice;
		break;
	case SET_POLICY:
		next.policy = (PlanPolicy)choice;
		break;
	case SET_PLACEMENT:
		next.placement = (PlacementMode)choice;
		break;
	case SET_GPU:
		next.gpu = (GpuMode)choice;
		break;
	case SET_TOLERANCE:
		next.tolerance = number;
		break;
	case SET_CACHE:
		next.cache_mib = number;
		break;
	case SET_COLOR:
		next.color = (ColorMode)choice;
		break;
	case SET_ECHO:
		next.echo = choice != 0;
		break;
	case SET_ERREXIT:
		next.errexit = choice != 0;
		break;
	case SET_KEEP_VALUES:
		next.keep_values = choice != 0;
		break;
	case SET_MEMORY_LIMIT:
		next.memory_limit = bytes;
		break;
	case SET_INPUTS:
		next.inputs = (InputsMode)choice;
		break;
	case SET_PAGINATION:
		next.pagination = choice != 0;
		break;
	case SET_HEIGHT:
		next.height = (int)number;
		break;
	default:
		DP_ASSERT(!"unknown setting");
	}
	if (setting->resets_planning && session_planning_started(s) &&
	    (next.fallback != s->settings.fallback || next.policy != s->settings.policy ||
	     next.placement != s->settings.placement)) {
		session_restart(s);
		*reset = true;
	}
	s->settings = next;
	if (i == SET_CACHE)
		session_trim_versions(s);
	return true;
}
