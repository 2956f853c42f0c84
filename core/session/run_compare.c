/*
 * run_compare.c - the results of two runs compared (run_compare.h).
 *
 * Each element of the planned result against the reference's, as double:
 * the largest absolute and relative errors over the elements both sides
 * give finite, and whether any is past tolerance or not the same
 * non-finite value on both sides. The non-finite elements of the
 * reference are counted apart, since whether they may pass is the
 * caller's (--allow-nan).
 *
 * A match of a saturated result proves little: when the value @main
 * returns comes from softmax, tanh, sigmoid, relu, clip or log_softmax
 * and the reference is all 0, all +-1 or one-hot rows, the inputs drove
 * it there, and the check says so for `compare`'s warning.
 */
#include "run_compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"

void run_compare_arrays(const NpyArray *got, const NpyArray *want, double tol, RunResultCheck *c)
{
	int64_t n = npy_array_count(got);
	memset(c, 0, sizeof *c);
	for (int64_t i = 0; i < n; i++) {
		double x = exec_element(got, i), y = exec_element(want, i), d, r;
		if (!isfinite(x) || !isfinite(y)) {
			c->nans += isnan(y) != 0;
			c->infs += isinf(y) != 0;
			if (!((isnan(x) && isnan(y)) || x == y)) {
				c->max_abs = c->max_rel = INFINITY;
				c->differs = true;
			}
			continue;
		}
		if (x == y)
			continue;
		d = fabs(x - y);
		r = y != 0 ? d / fabs(y) : INFINITY;
		if (d > c->max_abs)
			c->max_abs = d;
		if (r > c->max_rel)
			c->max_rel = r;
		if (!(d <= tol * (fabs(y) > 1 ? fabs(y) : 1)))
			c->differs = true;
	}
}

static bool same_layout(const NpyArray *a, const NpyArray *b)
{
	if (a->dtype != b->dtype || a->ndim != b->ndim)
		return false;
	for (uint32_t i = 0; i < a->ndim; i++)
		if (a->shape[i] != b->shape[i])
			return false;
	return true;
}

/* Whether result i (of n) of m's @main comes from an operator that
 * saturates (softmax, tanh, sigmoid, relu, clip): then all-0, all-+-1 and
 * one-hot results mean the inputs drove it there, not that the program
 * makes a constant. */
static bool saturating_result(const IrModule *m, size_t i, size_t n)
{
	int32_t main_index = ir_find_global(m, "main");
	const Expr *e;
	if (main_index < 0)
		return false;
	e = ir_computed_value(m->globals[main_index].fn->u.fn.body);
	if (e && e->kind == EXPR_TUPLE && e->u.tuple.nfields == n && i < n && n > 1)
		e = ir_computed_value(e->u.tuple.fields[i]);
	return e && (ir_is_op(e, OP_SOFTMAX) || ir_is_op(e, OP_TANH) || ir_is_op(e, OP_SIGMOID) ||
		     ir_is_op(e, OP_RELU) || ir_is_op(e, OP_CLIP) || ir_is_op(e, OP_LOG_SOFTMAX));
}

/* The verdict: results first, then the values between. */
static RunVerdict verdict(const RunComparison *c, bool allow_nan)
{
	if (c->failed)
		return RUN_FAIL_RESULTS;
	if (c->nonfinite && !allow_nan)
		return RUN_FAIL_NONFINITE;
	if (c->each.differ)
		return RUN_FAIL_VALUES;
	if (c->each.nonfinite && !allow_nan)
		return RUN_FAIL_VALUES_NONFINITE;
	return RUN_PASS;
}

void run_compare_results(const IrModule *reference, const ExecResult *got, const ExecResult *want,
			 double tol, bool allow_nan, RunEachCounts each, RunComparison *out)
{
	memset(out, 0, sizeof *out);
	out->ngot = got->noutputs;
	out->nwant = want->noutputs;
	out->each = each;
	out->count = got->noutputs < want->noutputs ? got->noutputs : want->noutputs;
	out->checks = xcalloc(out->count + 1, sizeof(RunResultCheck));
	if (got->noutputs != want->noutputs)
		out->failed = got->noutputs > want->noutputs ? got->noutputs : want->noutputs;
	for (size_t i = 0; i < out->count; i++) {
		RunResultCheck *c = &out->checks[i];
		const char *what;
		if (!same_layout(&got->outputs[i], &want->outputs[i])) {
			memset(c, 0, sizeof *c);
			c->layout_differs = true;
			out->failed++;
			continue;
		}
		run_compare_arrays(&got->outputs[i], &want->outputs[i], tol, c);
		out->failed += c->differs;
		out->nonfinite += c->nans || c->infs;
		out->nans += c->nans;
		out->infs += c->infs;
		if (saturating_result(reference, i, got->noutputs) &&
		    run_output_saturated(&want->outputs[i], &what))
			c->saturated = what;
	}
	out->verdict = verdict(out, allow_nan);
}

void run_comparison_free(RunComparison *c)
{
	free(c->checks);
	memset(c, 0, sizeof *c);
}

/* Whether a holds a saturated output: every element 0 (a dead relu),
 * every one at +-1 (a saturated tanh), or rows along the last axis that are
 * one-hot (a saturated softmax). *what names which. A constant output
 * other than 0 is no sign of it (zeros_like, full). */
bool run_output_saturated(const NpyArray *a, const char **what)
{
	int64_t n = npy_array_count(a), row = a->ndim ? a->shape[a->ndim - 1] : 1;
	bool zero = true, unit = true, one_hot = row > 1;
	if (!dtype_is_float(a->dtype) || n < 2)
		return false;
	for (int64_t i = 0; i < n; i++) {
		double v = exec_element(a, i);
		zero &= v == 0;
		unit &= fabs(fabs(v) - 1.0) < 1e-3;
	}
	for (int64_t r = 0; one_hot && r < n / row; r++) {
		int64_t ones = 0;
		for (int64_t i = 0; i < row; i++) {
			double v = exec_element(a, r * row + i);
			if (fabs(v - 1.0) < 1e-3)
				ones++;
			else if (fabs(v) > 1e-3)
				one_hot = false;
		}
		one_hot &= ones == 1;
	}
	*what = zero      ? "every element is 0"
		: unit    ? "every element is +-1"
		: one_hot ? "each row is one-hot"
			  : NULL;
	return *what != NULL;
}
