/*
 * compare_each.h - `compare --each` (compare_each.c): the intermediate
 * values of the planned run against the all-cpu reference run's, in
 * execution order.
 *
 * Usage: compare_each_new, then a reference run with
 * compare_each_observe_reference as its ExecOptions.observe, then the
 * planned run with compare_each_observe_planned, then compare_each_report.
 * Ownership: the tracker is the caller's (compare_each_free); it borrows
 * the session, the modules and the inputs for its life, and takes the
 * arrays the observers are given.
 */
#ifndef DEVPLAN_COMPARE_EACH_H
#define DEVPLAN_COMPARE_EACH_H

#include "commands.h"
#include "exec.h"

typedef struct CompareEach CompareEach;

/* What compare_each_report found: values past tolerance (differ), and
 * values whose reference holds a NaN or an infinity that allow_nonfinite
 * did not allow (nonfinite; the two may overlap). */
typedef struct CompareEachCounts {
	size_t differ, nonfinite;
} CompareEachCounts;

/* A tracker for runs of reference and planned (versions of one module)
 * with inputs (those of @main, in exec_params order), under the
 * `tolerance` setting; allow_nonfinite (compare --allow-nan) lets a NaN or
 * an infinity of the reference pass where the planned run has the same. */
CompareEach *compare_each_new(const Session *s, const IrModule *reference, const IrModule *planned,
			      const NpyArray *inputs, size_t ninputs, double tolerance,
			      bool allow_nonfinite);
void compare_each_free(CompareEach *x);
/* ExecObserver: keeps the reference run's values. */
void compare_each_observe_reference(void *context, const Expr *call, uint32_t field, int32_t device,
				    NpyArray *value);
/* ExecObserver: compares the planned run's values as they come. */
void compare_each_observe_planned(void *context, const Expr *call, uint32_t field, int32_t device,
				  NpyArray *value);
/* Prints how many values were compared, the first past its tolerance (its
 * op, device, operands' ranges and why it is on its device), the first
 * whose reference holds a NaN or an infinity (its op and operands), then
 * every value (all) or the top worst by relative error, leaving out those
 * that equal their reference. */
CompareEachCounts compare_each_report(CompareEach *x, CmdContext *ctx, bool all, size_t top);

#endif
