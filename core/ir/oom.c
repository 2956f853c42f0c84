/*
 * oom.c - recovery points, the cleanups they run, and the allocation fault
 * injection of test builds (oom.h says why).
 *
 * The cleanups are one stack per thread: a recovery point remembers its
 * height when set, a failure runs everything above it from the top down,
 * and a normal pop cuts the stack back to it. Removing a cleanup clears
 * its slot (found by its serial number, from the top, where recent ones
 * are), so objects may finish in any order.
 */
#include "oom.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct CleanupSlot {
	void (*fn)(void *); /* NULL: removed */
	void *arg;
	OomCleanup serial;
} CleanupSlot;

static _Thread_local OomRecovery *innermost;
static _Thread_local CleanupSlot *slots;
static _Thread_local size_t nslots, cap_slots;
static _Thread_local OomCleanup next_serial = 1;

void oom_recovery_push(OomRecovery *r, const char *command)
{
	r->prev = innermost;
	r->cleanups = nslots;
	r->failed_size = 0;
	r->command = command;
	innermost = r;
}

void oom_recovery_pop(OomRecovery *r)
{
	if (innermost != r)
		return; /* already popped by a jump to it */
	innermost = r->prev;
	nslots = r->cleanups;
	if (!innermost) {
		/* nothing can register until the next point: give the
		 * stack back rather than keep its largest size forever */
		free(slots);
		slots = NULL;
		nslots = cap_slots = 0;
	}
}

void oom_after_fork(void)
{
	innermost = NULL;
	nslots = 0;
}

OomCleanup oom_cleanup_add(void (*fn)(void *), void *arg)
{
	if (!innermost)
		return 0;
	if (nslots == cap_slots) {
		size_t cap = cap_slots ? 2 * cap_slots : 16;
		CleanupSlot *grown = realloc(slots, cap * sizeof *grown);
		if (!grown) {
			/* no room to remember how to undo it: fail now,
			 * before the object exists unguarded */
			fn(arg);
			oom_fail(cap * sizeof *grown);
		}
		slots = grown;
		cap_slots = cap;
	}
	slots[nslots] = (CleanupSlot){fn, arg, next_serial};
	nslots++;
	return next_serial++;
}

void oom_cleanup_remove(OomCleanup handle)
{
	size_t floor = innermost ? innermost->cleanups : 0;
	if (!handle)
		return;
	for (size_t i = nslots; i-- > 0;) {
		if (slots[i].serial == handle) {
			slots[i].fn = NULL;
			/* trim removed ones off the top, never below the
			 * innermost point's height, where a failure stops */
			while (nslots > floor && !slots[nslots - 1].fn)
				nslots--;
			return;
		}
		if (slots[i].serial < handle)
			return; /* serials grow upwards: it has gone already */
	}
}

void oom_fail(size_t size)
{
	OomRecovery *r = innermost;
	if (!r) {
		fprintf(stderr, "devplan: out of memory allocating %zu bytes\n", size);
		abort();
	}
	/* the cleanups may free what they guard but never allocate; the
	 * point goes first so that a failure inside one stops devplan
	 * instead of jumping back here */
	innermost = r->prev;
	while (nslots > r->cleanups) {
		CleanupSlot c = slots[--nslots];
		if (c.fn)
			c.fn(c.arg);
	}
	r->failed_size = size;
	longjmp(r->env, 1);
}

#ifdef DEVPLAN_FAULT_INJECTION
/* DEVPLAN_FAIL_ALLOC=N[@CMD], read once. */
static long fail_at = -1;
static char fail_command[64];
static bool fail_read;
static long allocations;

bool oom_inject(void)
{
	if (!fail_read) {
		const char *text = getenv("DEVPLAN_FAIL_ALLOC");
		const char *at;
		fail_read = true;
		if (text && *text) {
			fail_at = strtol(text, NULL, 10);
			at = strchr(text, '@');
			if (at)
				snprintf(fail_command, sizeof fail_command, "%s", at + 1);
		}
	}
	if (fail_at <= 0 || !innermost)
		return false;
	if (fail_command[0] && (!innermost->command || strcmp(innermost->command, fail_command)))
		return false;
	if (++allocations != fail_at)
		return false;
	fail_at = -1; /* once */
	return true;
}
#else
bool oom_inject(void)
{
	return false;
}
#endif
