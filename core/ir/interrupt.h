/*
 * interrupt.h - Ctrl-C as a flag that long operations poll (the Lua rule).
 *
 * The shell's SIGINT handler calls interrupt_request, which only sets a
 * flag; core code never installs handlers. A loop that may run long (a
 * phase's walk over a million nodes, the stepper's replay, the executor's
 * ops) tests the flag at safe points and stops with an "interrupted" error.
 * Loops over nodes or events poll once every INTERRUPT_POLL_INTERVAL steps
 * through interrupt_poll, so that the test costs nothing measurable. The
 * flag stays set until the shell clears it at the prompt, so that a script
 * stops as well.
 *
 * This module sits below every phase and the executor, which so need not
 * know the session.
 */
#ifndef DEVPLAN_INTERRUPT_H
#define DEVPLAN_INTERRUPT_H

#include <stdbool.h>
#include <stddef.h>

/* Steps of a long loop between two polls of the flag: a power of two, so
 * that the test is a mask. Step i polls when i % INTERVAL == INTERVAL - 1. */
#define INTERRUPT_POLL_INTERVAL ((size_t)65536)

/* Sets the flag. Async-signal-safe: the SIGINT handler calls it. */
void interrupt_request(void);
/* Clears the flag (the prompt does, before reading the next line). */
void interrupt_clear(void);
/* Whether Ctrl-C was pressed since the flag was last cleared. */
bool interrupt_pending(void);

/* Whether step `step` of a long loop is a polling point and Ctrl-C is
 * pending: the one test every such loop makes. */
static inline bool interrupt_poll(size_t step)
{
	return (step & (INTERRUPT_POLL_INTERVAL - 1)) == INTERRUPT_POLL_INTERVAL - 1 &&
	       interrupt_pending();
}

#endif
