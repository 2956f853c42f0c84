/*
 * values.h - the tensors the last `run` kept, for `print` (SPEC §7).
 *
 * A run hands each value it computes to an observer (exec.h); the run
 * command keeps @main's inputs and results always, and every other value
 * while they fit in a budget (a quarter of the memory free when the run
 * starts; none under `set keep-values off`), so that `print %x` works
 * after a plain `run` and memory stays bounded. They are kept by
 * expression id of the module version that ran (retained here, so that
 * `print %x` finds its names even after planning moved on) and by tuple
 * field; the final values, as `run` prints them (`result`, `result.0`
 * ...), are kept apart, since a result need not be an op's value (an
 * input returned as it is, a field of a tuple built in @main).
 *
 * Ownership: SessionValues owns its arrays and holds a reference to the
 * module; session_values_clear releases both.
 */
#ifndef DEVPLAN_VALUES_H
#define DEVPLAN_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir.h"
#include "npy.h"

typedef enum SessionValueKind {
	VALUE_KEPT_INPUT,  /* an input of @main */
	VALUE_KEPT_OP,     /* an operator's result */
	VALUE_KEPT_RESULT, /* an operator's result that @main returns */
} SessionValueKind;

typedef struct SessionValue {
	uint32_t id;    /* expression id in SessionValues.module */
	uint32_t field; /* of a tuple result; 0 for a tensor */
	int32_t device; /* where it was computed (device-table index) */
	SessionValueKind kind;
	NpyArray value;
} SessionValue;

typedef struct SessionValues {
	IrModule *module; /* the version that ran (retained), or NULL: none kept */
	SessionValue *items;
	size_t count, cap;
	size_t bytes;            /* held by the arrays */
	unsigned run;            /* how many runs have kept values in this session */
	bool every;              /* keep-values was on: every op's value it could */
	uint64_t budget;         /* the bytes every op's values could take */
	size_t dropped;          /* values not kept past the budget */
	NpyArray *results;       /* @main's results, tuples flattened in order */
	int32_t *result_devices; /* where each was computed */
	size_t nresults;
} SessionValues;

/* Drops every value and the module. */
void session_values_clear(SessionValues *v);
/* Starts the values of a new run of m (retained); every: keep every op's
 * value within budget bytes. */
void session_values_start(SessionValues *v, const IrModule *m, bool every, uint64_t budget);
/* Takes value (moved in; *value is zeroed). */
void session_values_add(SessionValues *v, uint32_t id, uint32_t field, int32_t device,
			SessionValueKind kind, NpyArray *value);
/* Takes the run's n results and their devices (moved in: the caller drops
 * both pointers). */
void session_values_set_results(SessionValues *v, NpyArray *results, int32_t *devices, size_t n);
/* The last value kept of (id, field), or NULL. */
const SessionValue *session_values_find(const SessionValues *v, uint32_t id, uint32_t field);

#endif
