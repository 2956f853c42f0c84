/*
 * run.h - running the planned module (SPEC §7) in the session: the run's
 * options and memory limit, the fault a test build injects, making a
 * module with `?` dimensions static for its inputs, and the run itself
 * (run.c).
 *
 * These join planning (core/plan) and execution (core/exec), which may not
 * call each other, for `run`, `compare` and `profile`; the commands parse
 * the arguments and print what comes back. The inputs are built by
 * run_inputs.h, the values a run keeps by run_values.h, comparisons by
 * run_compare.h and run_each.h, profiles summarised by run_profile.h.
 *
 * Nothing here prints: errors, warnings and notes go to the DiagList the
 * caller gives, as positionless diagnostics (or positioned ones from the
 * planner and the executor), in the order the commands print them.
 *
 * Ownership: modules returned are the caller's (ir_module_free); results
 * are the caller's (exec_result_free); everything else is borrowed.
 */
#ifndef DEVPLAN_RUN_H
#define DEVPLAN_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "exec.h"
#include "session.h"

/* The most elements of any one value computed ahead of a run to find a
 * dyn.* call's shape (the run computes it again). */
enum { RUN_MAX_SHAPE_ELEMENTS = 4096 };

/* The memory limit of a run, for each tensor and for all of them
 * together: `set memory-limit`, else DEVPLAN_MEMORY_LIMIT; 0 when neither
 * is set (exec.h's default: a fraction of the machine's memory) or when
 * DEVPLAN_MEMORY_LIMIT is malformed (run_memory_limit_valid says so). */
uint64_t run_memory_limit(const Session *s);
/* Whether DEVPLAN_MEMORY_LIMIT is unset or well formed; false with an
 * error in diags. */
bool run_memory_limit_valid(DiagList *diags);
/* A run's options from the session's settings: on the planned devices or
 * every op on the cpu (compare's reference), timed or not. */
ExecOptions run_options(const Session *s, bool all_on_cpu, bool profile);
/* The fault a test build injects (DEVPLAN_FAULT, see exec.h) into o;
 * none when unset. False with an error in diags for a malformed one or a
 * build without them. */
bool run_fault(const Session *s, ExecOptions *o, DiagList *diags);
/* Whether every tensor a run of m makes, its inputs among them, fits in
 * memory (exec_check_sizes), checked before the inputs are made; a module
 * with `?` dimensions is checked once its shapes are known (by exec_run)
 * and its inputs one by one (run_inputs_make). False with the errors in
 * diags. */
bool run_sizes_fit(const Session *s, const IrModule *m, DiagList *diags);
/* The module a run of m with these inputs (one per exec_params(m), in
 * order) executes: m itself (retained) when its shapes are static; else
 * plan_specialize's clone, whose inputs with `?` dimensions take the
 * actual shapes of the arrays given and whose dyn.* calls take their
 * shapes from values computed on the cpu from the inputs' values
 * (exec_evaluate). NULL with the errors in diags (a pending interrupt is
 * cleared). The caller frees it (ir_module_free). */
IrModule *run_specialize(const IrModule *m, const NpyArray *inputs, size_t n, DiagList *diags);
/* Runs m (static shapes) on the session's devices with the inputs, whose
 * arrays count against the run's memory budget from the start. The
 * executor's diagnostics (notes included) go to diags either way. False
 * with *result freed and a pending interrupt cleared when the run
 * failed. */
bool run_module(const Session *s, const IrModule *m, const ExecOptions *o, const NpyArray *inputs,
		size_t n, ExecResult *result, DiagList *diags);

#endif
