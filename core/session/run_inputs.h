/*
 * run_inputs.h - realistic random inputs and saturated outputs
 * (run_inputs.c), for `run`, `compare` and `profile`.
 *
 * Ownership: both functions borrow everything; run_inputs_realistic
 * rewrites the arrays in place.
 */
#ifndef DEVPLAN_RUN_INPUTS_H
#define DEVPLAN_RUN_INPUTS_H

#include <stdbool.h>

#include "exec.h"

/* Redraws the inputs drawn at random (drawn[k]) as an initialised model's:
 * each by the role its first consumer gives it (see run_inputs.c). */
void run_inputs_realistic(const IrModule *m, const ExecParam *params, size_t n, NpyArray *inputs,
			  const bool *drawn);
/* Whether a is a saturated output (all 0, all +-1, one-hot rows), with
 * *what saying which; such a result proves little when it matches. */
bool run_output_saturated(const NpyArray *a, const char **what);

#endif
