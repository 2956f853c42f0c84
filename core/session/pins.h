/*
 * pins.h - the what-if pins (SPEC §3.3) as a list, with an undo stack.
 *
 * A PinSet is plain data: the pins in the order they were made, and a
 * snapshot of the list before every change. It knows nothing of planning;
 * the session (session_pin and friends) changes it and then drops the
 * planned versions, and hands the list to the phases in PhaseContext.
 *
 * Ownership: a PinSet owns its names and snapshots; pins_clear frees them.
 * A zeroed PinSet is empty.
 */
#ifndef DEVPLAN_PINS_H
#define DEVPLAN_PINS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "phase.h"

typedef struct PinList {
	PlanPin *items;
	size_t count, cap;
} PinList;

typedef struct PinSet {
	PinList current;
	PinList *undo; /* snapshots, newest last */
	size_t nundo, cap_undo;
} PinSet;

/* Adds a copy of pin, replacing an earlier pin of the same name or of the
 * same operators; undoable. */
void pins_set(PinSet *p, const PlanPin *pin);
/* Removes the pin of `name` (without '%'), or with name NULL of the
 * operators `op` as pinned, undoably; false (and nothing to undo) when
 * there is none. */
bool pins_remove(PinSet *p, const char *name, const char *op);
/* Restores the list as it was before the last change; false when there is
 * nothing to undo. */
bool pins_undo(PinSet *p);
/* Empties the list and forgets its undo history. */
void pins_clear(PinSet *p);
/* dst (empty) becomes a copy of src, undo history included. */
void pins_copy(PinSet *dst, const PinSet *src);

#endif
