/*
 * run_values.h - what a run keeps (for `print`) and dumps (`run --dump
 * DIR`) of the values it computes (run_values.c).
 *
 * Usage: run_values_budget for what the kept values may take,
 * run_values_new before the run, run_values_observe as the run's
 * ExecOptions.observe, run_values_finish after it. Nothing is printed:
 * the directory's problems go to diags, and what the dump wrote and the
 * values left out come back in a RunValuesReport.
 *
 * Ownership: the keeper is freed by run_values_finish; it borrows the
 * session and the module, and takes the arrays it is given (the
 * observer's, and the inputs at the end, which move into the session's
 * values).
 */
#ifndef DEVPLAN_RUN_VALUES_H
#define DEVPLAN_RUN_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "exec.h"
#include "session.h"

typedef struct RunValues RunValues;

/* What the values a run keeps may take together: a quarter of the memory
 * free now, or of the memory limit when that is less (*of_limit set), so
 * that keeping them never starves the run. */
uint64_t run_values_budget(const Session *s, bool *of_limit);
/* A keeper for a run of m in s; with dump_dir the directory is made (one
 * level) if missing. NULL with the error in diags when it cannot be (a
 * warning in diags when others may replace the files dumped). Starts the
 * session's values afresh: @main's inputs and results, and under
 * keep-values every other value while all of them take at most budget
 * bytes. */
RunValues *run_values_new(Session *s, const IrModule *m, const char *dump_dir, uint64_t budget,
			  DiagList *diags);
/* ExecObserver. */
void run_values_observe(void *context, const Expr *call, uint32_t field, int32_t device,
			NpyArray *value);

/* What the keeper did, after the run. */
typedef struct RunValuesReport {
	size_t offered; /* the values the run computed */
	size_t dropped; /* of those, not kept past the budget */
	uint64_t budget;
	size_t dumped; /* with --dump: the files written, manifest.json aside */
	char *error;   /* with --dump: the first write error (owned), or NULL */
} RunValuesReport;

/* After the run (ok: it succeeded): the inputs join the kept values (moved
 * out of inputs[0..n)) and, with --dump, the files and manifest.json are
 * finished. Frees k; *report (zeroed when k is NULL or the run failed)
 * says what was dumped and left out; the caller frees report->error. */
void run_values_finish(RunValues *k, NpyArray *inputs, size_t n, bool ok, RunValuesReport *report);

#endif
