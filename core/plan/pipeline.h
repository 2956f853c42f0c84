/*
 * pipeline.h - the planning pipeline as a table of phases (STYLE.md §4).
 *
 * Each phase takes the previous module version and returns a new one,
 * leaving its input untouched, or NULL after reporting errors (phase.h, the
 * interface the phases include rather than this table that lists them). A
 * phase that changes nothing returns ir_module_retain(input): the two
 * versions share one module, which saves a copy of a large module. `step`,
 * `phases` and `ir --phase` all read this table; the order here is the
 * order in which they run.
 */
#ifndef DEVPLAN_PIPELINE_H
#define DEVPLAN_PIPELINE_H

#include <stddef.h>

#include "devices.h"
#include "diag.h"
#include "ir.h"
#include "phase.h"

/* Their names, as `set policy` and `set placement` take them and every
 * message spells them: index i names the value i; NULL-terminated, for the
 * settings table. */
extern const char *const plan_policy_names[];
extern const char *const plan_placement_names[];

/* What a phase does besides making the next version, for the callers that
 * must know it without naming the phase: the stepper, the inspection
 * commands and the verifier. */
enum {
	/* collects every conflict into the trace (trace->conflicts, its
	 * analysis trace->check) and inserts the copies that resolve them:
	 * its outcome depends on the policy (check) */
	PHASE_REPORTS_CONFLICTS = 1 << 0,
	/* types every expression; the versions after it stay typed (infer) */
	PHASE_PRODUCES_TYPES = 1 << 1,
	/* records solver events and its analysis (trace->events, trace->core),
	 * which stepi replays (core) */
	PHASE_RECORDS_EVENTS = 1 << 2,
	/* gives every expression a device; the versions after it keep them
	 * (core) */
	PHASE_PLACES_DEVICES = 1 << 3,
};

typedef struct Phase {
	const char *name;
	const char *summary;
	PhaseFn run;
	unsigned flags; /* PHASE_* */
} Phase;

extern const Phase pipeline_phases[];
extern const size_t pipeline_count;

/* Index of a phase by name (unique prefixes accepted), or -1. */
int pipeline_find(const char *name);
/* Index of the first phase whose flags include all of `flags`, or -1. */
int pipeline_find_flags(unsigned flags);

/* The verifier on phase p's output (verify.h; STYLE.md §4): with `full`,
 * the IR's invariants for what the phases up to p produce (types, devices);
 * and once every node has a device, always, the planner's own check of the
 * plan (plan_verify: every cross-device edge through a device_copy, the
 * devices TVM would read back). A rejection is a bug in a phase, reported
 * as errors in diags positioned at the node concerned, after one that
 * names the phase: the caller fails the phase, never aborts. */
bool pipeline_verify(size_t p, const IrModule *out, const DeviceTable *devices, bool full,
		     DiagList *diags);
/* How many outputs pipeline_verify rejected since the program started: the
 * fuzz targets count one as a finding, whatever reported it. */
size_t pipeline_verify_rejections(void);

#endif
