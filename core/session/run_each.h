/*
 * run_each.h - `compare --each` (run_each.c): the intermediate values of
 * the planned run against the all-cpu reference run's, in execution
 * order, each under its own tolerance.
 *
 * Usage: run_each_new, then a reference run with
 * run_each_observe_reference as its ExecOptions.observe, then the planned
 * run with run_each_observe_planned (or both at once, the reference run
 * stepped as the planned run needs its values: run_each_pull_reference);
 * then run_each_summarise (the counts,
 * the first value past tolerance and the first whose reference is not
 * finite), run_each_records (every value), run_each_worst (the worst by
 * relative error) and run_each_operand (what a value read) give what
 * `compare --each` prints.
 *
 * Ownership: the tracker is the caller's (run_each_free); it borrows the
 * modules and the inputs for its life, and takes the arrays the observers
 * are given. Records and the arrays of pointers to them returned point
 * into the tracker (run_each_worst's array is the caller's to free).
 */
#ifndef DEVPLAN_RUN_EACH_H
#define DEVPLAN_RUN_EACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exec.h"
#include "run_compare.h"
#include "session.h"

typedef struct RunEach RunEach;

/* What the comparison of one planned value with its reference found. */
typedef struct RunEachRecord {
	const Expr *e; /* the call, in the planned module */
	uint32_t field;
	int32_t device; /* where the planned run computed it */
	DType dtype;
	int64_t count, bad; /* bad: elements past tolerance, a NaN or an
			       infinity on one side only among them */
	double max_abs, max_rel, tol;
	uint32_t depth;          /* ops on the longest path from the inputs */
	double min, max;         /* the planned value's range (finite elements) */
	double ref_min, ref_max; /* the reference value's */
	int64_t ref_nans, ref_infs;
	bool layout_differs; /* shape or dtype differ from the reference */
} RunEachRecord;

/* A tracker for runs of reference and planned (versions of one module)
 * with inputs (those of @main, in exec_params order), under the
 * `tolerance` setting; allow_nonfinite (compare --allow-nan) lets a NaN or
 * an infinity of the reference pass where the planned run has the same. */
RunEach *run_each_new(const IrModule *reference, const IrModule *planned, const NpyArray *inputs,
		      size_t ninputs, double tolerance, bool allow_nonfinite);
void run_each_free(RunEach *x);
/* ExecObserver: keeps the reference run's values. */
void run_each_observe_reference(void *context, const Expr *call, uint32_t field, int32_t device,
				NpyArray *value);
/* The same for a run with ExecOptions.observe_borrows: the values are lent
 * and copied into the tracker's own memory. */
void run_each_observe_reference_lent(void *context, const Expr *call, uint32_t field,
				     int32_t device, NpyArray *value);
/* ExecObserver: compares the planned run's values as they come. */
void run_each_observe_planned(void *context, const Expr *call, uint32_t field, int32_t device,
			      NpyArray *value);
/* The same for a run with ExecOptions.observe_borrows: the values are lent,
 * compared where they are and left to the run. */
void run_each_observe_planned_lent(void *context, const Expr *call, uint32_t field, int32_t device,
				   NpyArray *value);

/* The pipeline of compare --each: rather than the whole reference run
 * first, a planned value whose reference has not come yet steps the
 * reference run (more, exec_run_step: false once it has ended, done or
 * failed) until it comes, so that the reference values kept are those the
 * reference run made ahead of the planned run's order, not all of them.
 * The records are the same either way: the planned run's values in its
 * order, each against the same occurrence of its reference. */
void run_each_pull_reference(RunEach *x, bool (*more)(void *context), void *context);
/* The reference run's values from now on are dropped (the planned run
 * has ended: the rest of the reference run is only run to its end), and it
 * is no longer stepped. */
void run_each_reference_done(RunEach *x);
/* The most bytes of reference values kept at once (copied or taken, not
 * yet compared). */
size_t run_each_peak_held(const RunEach *x);

/* Both runs of compare --each, the reference run stepped as the planned
 * run asks for its values (run_each_pull_reference), so that the values
 * kept wait for a moment rather than for a whole run: the reference run
 * begun first, the planned run (run_module) and then the rest of the
 * reference run. Sets the observers of ro and po (values lent) and counts
 * the inputs as ro's memory_held, as run_module does po's. Each run's
 * messages go to its list, for the caller to print as running the
 * reference first would: its messages first, and when it failed
 * (*reference_ok false) those alone, the planned run's meaning nothing
 * (it would not have run). True when both ran to their end, with their
 * results in *got and *want (the caller frees them); false with both
 * freed. */
bool run_each_runs(const Session *s, RunEach *x, const IrModule *reference, const IrModule *planned,
		   ExecOptions *ro, ExecOptions *po, const NpyArray *inputs, size_t n,
		   ExecResult *got, ExecResult *want, DiagList *reference_diags,
		   DiagList *planned_diags, bool *reference_ok);

/* What the two runs' values came to. */
typedef struct RunEachSummary {
	size_t compared;                      /* values compared (records) */
	RunEachCounts counts;                 /* failing: past tolerance; not finite in the
				   reference when not allowed */
	size_t with_nonfinite;                /* values whose reference is not finite,
				   allowed or not */
	size_t unmatched;                     /* planned values without a reference */
	bool allow_nonfinite;                 /* as given */
	const RunEachRecord *first;           /* the first past tolerance, or NULL */
	const RunEachRecord *first_nonfinite; /* the first whose reference holds a
						 NaN or an infinity (with the
						 values before it finite: the op
						 that made it), or NULL */
} RunEachSummary;
void run_each_summarise(const RunEach *x, RunEachSummary *out);
/* Every record, in execution order. */
const RunEachRecord *run_each_records(const RunEach *x, size_t *n);
/* Whether r fails: past tolerance, or not finite in the reference when
 * that is not allowed. */
bool run_each_fails(const RunEach *x, const RunEachRecord *r);
/* Whether r's reference holds a NaN or an infinity. */
bool run_each_nonfinite(const RunEachRecord *r);
/* The worst top records (*n of them, fewer when fewer differ from their
 * reference at all; a value equal to its reference says nothing): failing
 * first, then by relative error, then in execution order. The caller frees
 * the array. */
const RunEachRecord **run_each_worst(const RunEach *x, size_t top, size_t *n);
/* r's name: `%x` or `nn.conv2d@7:8`, with `.K` for field K of a tuple
 * result. */
void run_each_name(const RunEach *x, const RunEachRecord *r, StrBuf *out);

/* What a value's operand held. */
typedef struct RunEachOperand {
	const Expr *value;  /* the operand, its let variables looked through */
	bool known;         /* its range is known: a value compared, or an input */
	double min, max;    /* its finite elements' range (min > max: none) */
	int64_t nans, infs; /* an input's; a value's in the reference run
			       only (0 when not asked for) */
	int32_t copied_to;  /* the device a device_copy on the way moves it to,
			       or -1 */
} RunEachOperand;
/* Operand `arg` of r's call, named into name (`%x`, `%t.1` for a field of
 * an op's tuple result); its range in the planned run, or in_reference in
 * the reference run (which ran on the cpu alone). */
void run_each_operand(const RunEach *x, const RunEachRecord *r, uint32_t arg, bool in_reference,
		      RunEachOperand *out, StrBuf *name);

#endif
