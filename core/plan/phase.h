/*
 * phase.h - what every phase is: a function from one module version to the
 * next, and the context it runs in.
 *
 * The phases (plan_*.c, infer.c) include this and not pipeline.h, the
 * table that lists them: the table depends on the phases, never the other
 * way round. Types only.
 */
#ifndef DEVPLAN_PHASE_H
#define DEVPLAN_PHASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "devices.h"
#include "diag.h"
#include "ir.h"

/* SPEC §3.2; tvm is TVM v0.14's own answer (plan_tvm.c). */
typedef enum PlanPolicy { POLICY_ERROR, POLICY_COPY, POLICY_REPLICATE, POLICY_TVM } PlanPolicy;
typedef enum PlacementMode { PLACEMENT_DEFAULT, PLACEMENT_MIN_TRANSFER } PlacementMode;

/* A what-if pin (`pin %x cuda:0`, `pin --op nn.conv* cuda:0`): every
 * expression named `name`, or every call of an operator `op` names, is on
 * `device`, as if annotated, without editing the module (plan_pins.c). */
typedef struct PlanPin {
	char *name;     /* without '%'; NULL for an operator pin */
	char *op;       /* operator names or globs, comma-separated
			   ("nn.conv2d,nn.dense", "nn.conv*"); NULL for a name pin */
	bool body;      /* as a plain on_device: computed on device, read
			   anywhere (a boundary); else fixed there, as
			   on_device(..., constrain_result=True) */
	int32_t device; /* device-table index */
} PlanPin;

/* What a phase may read besides its input module. */
typedef struct PhaseContext {
	const DeviceTable *devices;
	int32_t fallback; /* device-table index */
	PlanPolicy policy;
	PlacementMode placement;
	DiagList *diags;         /* where the phase reports */
	struct PlanTrace *trace; /* planner events and facts, or NULL */
	const PlanPin *pins;     /* what-if pins, applied by check and core */
	size_t npins;
	/* When non-NULL it is the phase's input, which the session lets go of
	 * once the phase is done (a module too big to keep two versions of):
	 * a phase may then edit it and return it instead of a clone, and sets
	 * consumed. Phases that cannot, ignore it. */
	IrModule *consumable;
	bool consumed;
} PhaseContext;

typedef IrModule *(*PhaseFn)(const IrModule *in, PhaseContext *ctx);

#endif
