/*
 * interrupt.c - the Ctrl-C flag (interrupt.h).
 *
 * A volatile sig_atomic_t is the one object a signal handler may write and
 * the rest of the program read without further synchronisation.
 */
#include "interrupt.h"

#include <signal.h>

static volatile sig_atomic_t interrupt_requested;

void interrupt_request(void)
{
	interrupt_requested = 1;
}

void interrupt_clear(void)
{
	interrupt_requested = 0;
}

bool interrupt_pending(void)
{
	return interrupt_requested != 0;
}
