/*
 * run_profile.h - `profile` (and `run --profile`): what a timed run
 * measured, per operator and device and per copy of the plan, set beside
 * the bytes the plan predicted (run_profile.c).
 *
 * The executor times every op and copy when ExecOptions.profile is set
 * (exec.h's ExecProfile): each operator's wall clock and its busy time
 * (CPU time where its kernels run on the host, exec_clock.h). This orders
 * and totals it: the operators by busy time, each copy of the plan (its placement fact) with what the run
 * measured for it, the totals, and which devices ran on the host emulator,
 * whose times say nothing about a GPU. Nothing is printed.
 *
 * Ownership: a RunProfileSummary owns its arrays and its placement
 * (run_profile_free); its copies' stats point into the ExecProfile
 * summarised, which must outlive it.
 */
#ifndef DEVPLAN_RUN_PROFILE_H
#define DEVPLAN_RUN_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exec.h"
#include "plan.h"

/* A copy the plan makes, with what the run measured for it. */
typedef struct RunProfileCopy {
	const PlacementFact *fact; /* FACT_COPY, in the summary's placement */
	const ExecCopyStat *stat;  /* NULL when the run made none of it */
} RunProfileCopy;

typedef struct RunProfileSummary {
	ExecOpStat *ops; /* by busy time, longest first, then by device and op */
	size_t nops;
	double op_seconds;      /* all the ops' busy time (ExecOpStat.busy) */
	double op_wall;         /* and their wall clock */
	Placement placement;    /* of the module that ran */
	RunProfileCopy *copies; /* the plan's copies, in placement order */
	size_t ncopies;
	uint64_t copy_count, copy_bytes; /* what the run copied, all told */
	double copy_seconds;
	int64_t predicted_bytes; /* what the plan says its copies move (the
				    known sizes) */
} RunProfileSummary;

/* Orders and totals p, the profile of a run of m. */
void run_profile_summarise(const IrModule *m, const ExecProfile *p, RunProfileSummary *out);
void run_profile_free(RunProfileSummary *s);
/* Whether a device the run used ran on the host emulator: its times are
 * the cpu kernels' and host memory copies'. */
bool run_profile_emulated(const ExecDeviceStat *d);

#endif
