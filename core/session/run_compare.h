/*
 * run_compare.h - `compare`: the planned run's results against a
 * reference's, under the tolerance and NaN rules (run_compare.c).
 *
 * An element passes when |planned - reference| <= tol * max(1,
 * |reference|); a NaN or an infinity on either side only when the other
 * side has the same (two NaN, or two infinities of one sign), and then
 * only when the caller allows a reference that is not finite
 * (--allow-nan): otherwise nothing was compared that means anything. The
 * verdict weighs the results first, then what `compare --each` found in
 * the values between (run_each.h). Nothing is printed; `compare` formats
 * the RunComparison.
 *
 * Ownership: a RunComparison owns its array of checks
 * (run_comparison_free); it borrows the results compared.
 */
#ifndef DEVPLAN_RUN_COMPARE_H
#define DEVPLAN_RUN_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exec.h"

/* What comparing one result with its reference found. */
typedef struct RunResultCheck {
	bool layout_differs;     /* shape or dtype differ: nothing else is set */
	double max_abs, max_rel; /* over the elements both sides give finite */
	bool differs;            /* an element past tolerance, or one that is not
				    the same non-finite value on both sides */
	int64_t nans, infs;      /* non-finite elements of the reference */
	const char *saturated;   /* the reference is a saturating op's result
				    and saturated (run_output_saturated's
				    words), or NULL */
} RunResultCheck;

/* What `compare --each` found past the results (run_each_counts). */
typedef struct RunEachCounts {
	size_t differ;    /* values past tolerance */
	size_t nonfinite; /* values whose reference holds a NaN or an
			     infinity that was not allowed */
} RunEachCounts;

typedef enum RunVerdict {
	RUN_PASS,                  /* everything within tolerance (with
				      --allow-nan, non-finite values that
				      both sides share) */
	RUN_FAIL_RESULTS,          /* results differ (or their count, shape or
				      dtype) */
	RUN_FAIL_NONFINITE,        /* a result's reference holds NaN or
				      infinity, not allowed */
	RUN_FAIL_VALUES,           /* the results match, intermediate values
				      do not */
	RUN_FAIL_VALUES_NONFINITE, /* the results match, an intermediate
				      value's reference is not finite */
} RunVerdict;

typedef struct RunComparison {
	size_t ngot, nwant;     /* results of each side */
	RunResultCheck *checks; /* one per result both sides have */
	size_t count;           /* min(ngot, nwant) */
	size_t failed;          /* results that fail (all of the larger side
				    when the counts differ) */
	size_t nonfinite;       /* results whose reference is not finite */
	int64_t nans, infs;     /* in all the references */
	RunEachCounts each;     /* as given */
	RunVerdict verdict;
} RunComparison;

/* Compares one array (the planned result) with its reference of the same
 * layout; layout_differs and saturated are the caller's to set. */
void run_compare_arrays(const NpyArray *got, const NpyArray *want, double tol, RunResultCheck *c);
/* Compares every result of got with want's; reference is the module whose
 * results want holds (which says whether a result comes from an operator
 * that saturates); each what `compare --each` found ({0, 0} without it). */
void run_compare_results(const IrModule *reference, const ExecResult *got, const ExecResult *want,
			 double tol, bool allow_nan, RunEachCounts each, RunComparison *out);
void run_comparison_free(RunComparison *c);

/* Whether a is a saturated output (all 0, all +-1, one-hot rows), with
 * *what saying which; such a result proves little when it matches. */
bool run_output_saturated(const NpyArray *a, const char **what);

#endif
