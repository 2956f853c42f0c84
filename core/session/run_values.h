/*
 * run_values.h - what `run` keeps (for `print`) and dumps (`--dump DIR`)
 * of the values it computes (run_values.c).
 *
 * Usage: run_values_new before the run, run_values_observe as the run's
 * ExecOptions.observe, run_values_finish after it. Ownership: the keeper
 * is freed by run_values_finish; it borrows the context and the module,
 * and takes the arrays it is given (the observer's, and the inputs at the
 * end, which move into the session's values).
 */
#ifndef DEVPLAN_RUN_VALUES_H
#define DEVPLAN_RUN_VALUES_H

#include "commands.h"
#include "exec.h"

typedef struct RunValues RunValues;

/* A keeper for a run of m; with dump_dir the directory is made (one level)
 * if missing. NULL after reporting when it cannot be. Starts the session's
 * values afresh: @main's inputs and results, and under keep-values every
 * other value while all of them take at most budget bytes, a quarter of
 * what budget_of names (a static string, for the note on values left
 * out). */
RunValues *run_values_new(CmdContext *ctx, const IrModule *m, const char *dump_dir, uint64_t budget,
			  const char *budget_of);
/* ExecObserver. */
void run_values_observe(void *context, const Expr *call, uint32_t field, int32_t device,
			NpyArray *value);
/* After the run (ok: it succeeded): the inputs join the kept values (moved
 * out of inputs[0..n)) and, with --dump, the files and manifest.json are
 * finished and reported. Frees k; false after reporting a write error. */
bool run_values_finish(RunValues *k, NpyArray *inputs, size_t n, bool ok);

#endif
