/*
 * run_inputs.h - the inputs of a run (run_inputs.c): one array per input
 * of @main, read from a .npy file or drawn at random, uniform or like an
 * initialised model's (`set inputs`).
 *
 * Usage: run_inputs_start (the memory limit and the sizes checked, the
 * inputs listed), then run_inputs_make for each input in order with how
 * the user gave it (the commands parse NAME=VALUE into a RunInputSpec),
 * then run_inputs_finish, which redraws the random ones as a model's under
 * `set inputs realistic`; run_inputs_build does all three for specs
 * already parsed. Nothing is printed: errors go to diags.
 *
 * Ownership: RunInputs owns its parameters and arrays (run_inputs_free;
 * an array moved out, run_values_finish's, is left zeroed) and borrows
 * the module.
 */
#ifndef DEVPLAN_RUN_INPUTS_H
#define DEVPLAN_RUN_INPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "exec.h"
#include "session.h"

enum { RUN_INPUT_MAX_NDIM = 16 };

/* How one input is made: read from a file, or drawn at random with a
 * seed, in the shape its type says or the one given after the seed. */
typedef struct RunInputSpec {
	const char *file; /* NAME=FILE.npy as given (for messages); NULL:
			     random values */
	const char *path; /* the file to read, as the caller found it */
	uint64_t seed;
	bool has_shape; /* random:SEED:(D0, D1...) */
	uint32_t ndim;
	int64_t shape[RUN_INPUT_MAX_NDIM];
} RunInputSpec;

typedef struct RunInputs {
	const IrModule *m; /* borrowed */
	ExecParam *params; /* exec_params(m) */
	size_t count;      /* of params, and of arrays */
	NpyArray *arrays;  /* arrays[k] for params[k]; zeroed until made */
	bool *drawn;       /* arrays[k] was drawn at random */
	size_t made;       /* arrays [0, made) are made */
} RunInputs;

/* Random values with seed k, the value of an input not named. */
void run_input_spec_random(RunInputSpec *spec, size_t k);
/* Starts the inputs of a run of m: DEVPLAN_MEMORY_LIMIT well formed and
 * every tensor of a static m within the memory (run_sizes_fit), then
 * m's inputs listed. False with the errors in diags and nothing to free. */
bool run_inputs_start(const Session *s, const IrModule *m, RunInputs *in, DiagList *diags);
/* Makes input k (the next one) as spec says: the file's array, or seeded
 * random values of its tensor type, in the shape given (which must agree
 * with the type's static dimensions, and is required where it has `?`);
 * every shape checked against the memory limit before anything is read
 * or drawn; a batch-norm variance's random values non-negative. False
 * with the error in diags. */
bool run_inputs_make(const Session *s, RunInputs *in, size_t k, const RunInputSpec *spec,
		     DiagList *diags);
/* Under `set inputs realistic`, redraws the inputs drawn at random as an
 * initialised model's: each by the role its first consumer gives it (see
 * run_inputs.c). */
void run_inputs_finish(const Session *s, RunInputs *in);
/* start, make (specs[k] for input k; NULL: every input random) and
 * finish; false with the errors in diags and nothing to free. */
bool run_inputs_build(const Session *s, const IrModule *m, const RunInputSpec *specs, RunInputs *in,
		      DiagList *diags);
void run_inputs_free(RunInputs *in);

/* Whether an input's name says it is a batch norm's variance
 * (%bn0_moving_var, %running_var, %x_variance), which feeds sqrt(var +
 * eps) and so is drawn non-negative: the one rule both kinds of random
 * inputs follow. */
bool run_input_is_variance(const char *name);

#endif
