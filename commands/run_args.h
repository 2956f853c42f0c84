/*
 * run_args.h - the inputs and runs that `run`, `compare` and `profile`
 * share (run_args.c): their arguments parsed into the session's specs
 * (core/session/run_inputs.h), the session's run steps with their
 * diagnostics printed, and the names and types of results as they print
 * them.
 *
 * Ownership: RunInputs filled here are the caller's (run_inputs_free),
 * modules returned too (ir_module_free), results too (exec_result_free).
 */
#ifndef DEVPLAN_RUN_ARGS_H
#define DEVPLAN_RUN_ARGS_H

#include "commands.h"
#include "exec.h"
#include "run.h"
#include "run_inputs.h"

/* Builds one array per input of m from the NAME=VALUE words of argv (the
 * options and their values skipped): each input parsed and made in order,
 * then a note naming the inputs not given, which take random values.
 * False after reporting, with nothing in *in to free. */
bool cmd_run_prepare_inputs(CmdContext *ctx, const IrModule *m, int argc, char **argv,
			    RunInputs *in);
/* The module a run of m with these inputs executes (run_specialize); NULL
 * after reporting. */
IrModule *cmd_run_specialize(CmdContext *ctx, const IrModule *m, const RunInputs *in);
/* run_module, its diagnostics (notes included) printed either way. */
bool cmd_run_module(CmdContext *ctx, const IrModule *m, const ExecOptions *o, const RunInputs *in,
		    ExecResult *result);
/* `Tensor[(4, 6), float32]` of an array. */
void cmd_print_shape_type(CmdContext *ctx, const NpyArray *a);
/* `result` or `result.I` when @main returns several tensors. */
void cmd_print_result_name(CmdContext *ctx, size_t i, size_t n);

#endif
