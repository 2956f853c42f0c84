/*
 * pipeline.c - the planning pipeline: one row per phase, in running order.
 *
 * Adding a phase is one row here plus its run function, which takes the
 * previous module version (never modifying it) and returns a new version,
 * or NULL after reporting errors into ctx->diags. The session, `step`,
 * `phases` and `ir --phase` read nothing but this table.
 */
#include "pipeline.h"

#include "infer.h"
#include "plan.h"
#include "verify.h"

const char *const plan_policy_names[] = {
	[POLICY_ERROR] = "error",
	[POLICY_COPY] = "copy",
	[POLICY_REPLICATE] = "replicate",
	[POLICY_TVM] = "tvm",
	NULL,
};
const char *const plan_placement_names[] = {
	[PLACEMENT_DEFAULT] = "default",
	[PLACEMENT_MIN_TRANSFER] = "min-transfer",
	NULL,
};

const Phase pipeline_phases[] = {
	{"rewrite", "normalise annotations: fix on_device values of lets and function bodies",
	 plan_rewrite_phase, 0},
	{"check", "resolve devices, collect every conflict and resolve it under the policy",
	 plan_check_phase, PHASE_REPORTS_CONFLICTS},
	{"infer", "type inference: the shape and dtype of every expression", infer_phase,
	 PHASE_PRODUCES_TYPES},
	{"core", "device analysis, defaulting and capture of device_copy calls", plan_core_phase,
	 PHASE_RECORDS_EVENTS | PHASE_PLACES_DEVICES},
};
const size_t pipeline_count = DP_COUNT(pipeline_phases);

int pipeline_find(const char *name)
{
	int i = prefix_match(name, &pipeline_phases[0].name, pipeline_count, sizeof(Phase));
	return i >= 0 ? i : -1;
}

int pipeline_find_flags(unsigned flags)
{
	for (size_t i = 0; i < pipeline_count; i++)
		if ((pipeline_phases[i].flags & flags) == flags)
			return (int)i;
	return -1;
}

static size_t verify_rejections;

size_t pipeline_verify_rejections(void)
{
	return verify_rejections;
}

bool pipeline_verify(size_t p, const IrModule *out, const DeviceTable *devices, bool full,
		     DiagList *diags)
{
	DiagList found;
	unsigned require = 0;
	bool ok = true;
	for (size_t i = 0; i <= p; i++) {
		if (pipeline_phases[i].flags & PHASE_PRODUCES_TYPES)
			require |= VERIFY_TYPES;
		if (pipeline_phases[i].flags & PHASE_PLACES_DEVICES)
			require |= VERIFY_DEVICES;
	}
	diag_init(&found);
	if (full)
		ok = ir_verify(out, require, devices->count, &found);
	if (ok && (require & VERIFY_DEVICES))
		ok = plan_verify(out, devices, &found);
	if (!ok) {
		verify_rejections++;
		diag_error(diags, NULL, (Pos){0, 0},
			   "internal error: phase '%s' made a module the verifier rejects "
			   "(a bug in devplan; 'bugreport DIR' keeps what is needed to see it)",
			   pipeline_phases[p].name);
		for (size_t i = 0; i < found.count; i++)
			diag_add(diags, found.items[i].severity, found.items[i].src,
				 found.items[i].pos, "%s", found.items[i].message);
	}
	diag_free(&found);
	return ok;
}
