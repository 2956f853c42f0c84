/*
 * relax_realize.c - the RealizeVDevice pipeline: the phase table and the
 * state the phases fill (see relax_realize.h). Like devplan's Relay
 * pipeline (core/plan/pipeline.c), the phases run in order through one
 * entry point, so the shell steps them and shows what each produced.
 */
#include <string.h>

#include "realize_internal.h"
#include "util.h"

const char *const relax_phase_names[RX_PHASE_COUNT] = {
	"collect", "colocate", "propagate", "rewrite", "normalize",
};

const char *const relax_phase_summaries[RX_PHASE_COUNT] = {
	"seeds: vdevice annotations, hint outputs and inputs, the declared return",
	"the undirected co-location graph of each binding and the variables it uses",
	"flood fill from the seeds, then from the hint inputs; first writer wins",
	"placed variables re-typed; each hint dropped or made R.to_vdevice",
	"types re-derived as TVM's normaliser does (binary-op error, silent drops)",
};

typedef bool (*RealizePhaseFn)(RxRealize *r, DiagList *diags);

static const RealizePhaseFn realize_phases[RX_PHASE_COUNT] = {
	realize_collect, realize_colocate, realize_propagate, realize_rewrite, realize_normalize,
};

void relax_realize_init(RxRealize *r, const RxModule *in)
{
	uint32_t n = in->nvars + 1;
	memset(r, 0, sizeof *r);
	r->in = in;
	r->explicit_dev = xmalloc(n * sizeof *r->explicit_dev);
	r->hint_dev = xmalloc(n * sizeof *r->hint_dev);
	r->known = xmalloc(n * sizeof *r->known);
	for (uint32_t v = 0; v < n; v++)
		r->explicit_dev[v] = r->hint_dev[v] = r->known[v] = -1;
	r->explicit_pos = xcalloc(n, sizeof *r->explicit_pos);
	r->explicit_kind = xcalloc(n, 1);
	r->hint_pos = xcalloc(n, sizeof *r->hint_pos);
	r->explicit_order = xmalloc(n * sizeof *r->explicit_order);
	r->hint_order = xmalloc(n * sizeof *r->hint_order);
}

void relax_realize_free(RxRealize *r)
{
	free(r->explicit_dev);
	free(r->explicit_pos);
	free(r->explicit_kind);
	free(r->explicit_order);
	free(r->hint_dev);
	free(r->hint_pos);
	free(r->hint_order);
	free(r->adj_start);
	free(r->adj);
	free(r->known);
	free(r->events);
	free(r->remapped);
	relax_module_free(r->normalized);
	relax_module_free(r->rewritten);
	memset(r, 0, sizeof *r);
}

bool relax_realize_step(RxRealize *r, DiagList *diags)
{
	DP_ASSERT(r->done < RX_PHASE_COUNT);
	while (relax_realize_in_progress(r))
		relax_realize_replay(r);
	if (!realize_phases[r->done](r, diags))
		return false;
	r->done++;
	return true;
}

bool relax_realize_in_progress(const RxRealize *r)
{
	return r->done == RX_PHASE_PROPAGATE + 1 && r->applied < r->nevents;
}

void relax_realize_rewind(RxRealize *r)
{
	DP_ASSERT(r->done == RX_PHASE_PROPAGATE + 1);
	for (uint32_t v = 0; v < r->in->nvars; v++)
		r->known[v] = -1;
	r->applied = 0;
}

void relax_realize_replay(RxRealize *r)
{
	const RxEvent *e;
	DP_ASSERT(r->applied < r->nevents);
	e = &r->events[r->applied++];
	r->known[e->var] = e->vdevice;
}

const RxModule *relax_realize_current(const RxRealize *r)
{
	if (r->normalized)
		return r->normalized;
	return r->rewritten ? r->rewritten : r->in;
}
