/*
 * run_profile.c - a timed run's profile ordered and totalled
 * (run_profile.h).
 *
 * Operators are ordered by busy time, longest first, ties by device and
 * operator, so the table reads top-down as where the time went. Copies
 * are the plan's (plan_placement's FACT_COPY facts), each matched with
 * the executor's measurement of the same device_copy expression, so a
 * copy the plan predicted but the run never made still shows, with zeros.
 * The totals of the copies are the run's own, which include copies of
 * values the placement does not list.
 */
#include "run_profile.h"

#include <stdlib.h>
#include <string.h>

static int compare_op_stats(const void *pa, const void *pb)
{
	const ExecOpStat *a = pa, *b = pb;
	if (a->busy != b->busy)
		return a->busy < b->busy ? 1 : -1;
	if (a->device != b->device)
		return a->device < b->device ? -1 : 1;
	return (int)a->op - (int)b->op;
}

/* The plan's copies, each with the run's measurement of it. */
static void match_copies(const ExecProfile *p, RunProfileSummary *out)
{
	out->copies = xcalloc(out->placement.count + 1, sizeof(RunProfileCopy));
	for (size_t i = 0; i < out->placement.count; i++) {
		const PlacementFact *f = &out->placement.facts[i];
		RunProfileCopy *c;
		if (f->kind != FACT_COPY)
			continue;
		c = &out->copies[out->ncopies++];
		c->fact = f;
		for (size_t k = 0; k < p->ncopies; k++)
			if (p->copies[k].expr == f->expr)
				c->stat = &p->copies[k];
		if (f->bytes > 0)
			out->predicted_bytes += f->bytes;
	}
}

void run_profile_summarise(const IrModule *m, const ExecProfile *p, RunProfileSummary *out)
{
	memset(out, 0, sizeof *out);
	out->ops = xmalloc((p->nops + 1) * sizeof(ExecOpStat));
	out->nops = p->nops;
	if (p->nops) { /* a @main that runs no operator has no table (NULL) */
		memcpy(out->ops, p->ops, p->nops * sizeof(ExecOpStat));
		qsort(out->ops, p->nops, sizeof(ExecOpStat), compare_op_stats);
	}
	for (size_t i = 0; i < p->nops; i++) {
		out->op_seconds += out->ops[i].busy;
		out->op_wall += out->ops[i].seconds;
	}
	plan_placement(m, &out->placement);
	match_copies(p, out);
	for (size_t k = 0; k < p->ncopies; k++) {
		out->copy_count += p->copies[k].count;
		out->copy_bytes += p->copies[k].bytes;
		out->copy_seconds += p->copies[k].seconds;
	}
}

void run_profile_free(RunProfileSummary *s)
{
	free(s->ops);
	free(s->copies);
	plan_placement_free(&s->placement);
	memset(s, 0, sizeof *s);
}

bool run_profile_emulated(const ExecDeviceStat *d)
{
	return d->device >= 0 && strcmp(d->backend, exec_backend_emulated.name) == 0;
}
