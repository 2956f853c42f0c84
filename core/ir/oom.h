/*
 * oom.h - what happens when an allocation fails: the command is abandoned,
 * the session goes on.
 *
 * xmalloc and friends (util.h) never return NULL, so no call site checks.
 * Without a recovery point they stop devplan with a message, as they always
 * did. The dispatcher (commands/dispatch.c) sets a recovery point around
 * every command: an allocation that fails while one is set runs the
 * cleanups registered since, then jumps back to it, and the command fails
 * with "out of memory" while the session keeps what it had. Work that
 * builds something large registers how to free it while it is unfinished:
 * a module under construction (ir.c does this for every module until the
 * session takes it, ir_module_commit), a run's tensors (exec_run.c).
 * Smaller allocations in flight at the moment of failure are lost: a
 * command that runs out of memory may leak a little; never the session.
 *
 * Only the thread that set the recovery point jumps: an allocation failing
 * on a kernel's worker thread stops devplan as before (those allocate
 * nothing through xmalloc today). Cleanups run in the reverse order of
 * registration and must not allocate.
 *
 * Test builds (DEVPLAN_FAULT_INJECTION) read DEVPLAN_FAIL_ALLOC=N[@CMD]:
 * the Nth allocation made while a recovery point is set (only while
 * running a command named CMD, when given) fails as if memory ran out,
 * once, so that tests can walk every allocation of a command.
 *
 * Ownership: a recovery point lives in its setter's stack frame; the
 * cleanup list belongs to this file and only borrows its arguments.
 */
#ifndef DEVPLAN_OOM_H
#define DEVPLAN_OOM_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct OomRecovery {
	jmp_buf env;
	struct OomRecovery *prev; /* the point this one is nested in */
	size_t cleanups;          /* cleanups registered before it was set */
	size_t failed_size;       /* after the jump: the allocation that failed */
	const char *command;      /* what fault injection's @CMD compares */
} OomRecovery;

/*
 * The recovery idiom (setjmp must be the whole controlling expression):
 *
 *     OomRecovery r;
 *     oom_recovery_push(&r, "plan");
 *     if (setjmp(r.env) != 0) {
 *             ... r is already popped; r.failed_size says how much ...
 *     } else {
 *             ... the work ...
 *             oom_recovery_pop(&r);
 *     }
 *
 * Locals changed between the push and the jump must be volatile to be
 * read after it.
 */
void oom_recovery_push(OomRecovery *r, const char *command);
/* Removes r, the innermost point, when the work finished normally; the
 * cleanups registered since are forgotten (what they guarded is done). */
void oom_recovery_pop(OomRecovery *r);

/* In a child process after fork: no recovery point and no cleanups, so
 * an allocation failure ends the child (with the message) instead of
 * jumping into its copy of the parent's command. */
void oom_after_fork(void);

/* A cleanup to run if memory runs out before oom_cleanup_remove: a handle
 * to pass there. With no recovery point set nothing is registered (the
 * handle is 0, which remove ignores). */
typedef uint64_t OomCleanup;
OomCleanup oom_cleanup_add(void (*fn)(void *), void *arg);
/* Forgets a cleanup (the object was finished or freed); a stale handle,
 * whose recovery point has gone, is ignored. */
void oom_cleanup_remove(OomCleanup handle);

/* Called by the allocators when malloc failed: jumps to the innermost
 * recovery point of this thread, or prints the size and aborts. */
#if defined(__GNUC__)
__attribute__((noreturn))
#endif
void oom_fail(size_t size);
/* Whether the next allocation should fail (fault injection; always false
 * outside test builds). */
bool oom_inject(void);

#endif
