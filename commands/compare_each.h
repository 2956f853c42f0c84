/*
 * compare_each.h - what `compare --each` prints (compare_each.c) of the
 * comparison of every intermediate value (core/session/run_each.h).
 *
 * Ownership: borrows everything.
 */
#ifndef DEVPLAN_COMPARE_EACH_H
#define DEVPLAN_COMPARE_EACH_H

#include "commands.h"
#include "run_each.h"

/* Prints how many values were compared, the first past its tolerance (its
 * op, device, operands' ranges and why it is on its device), the first
 * whose reference holds a NaN or an infinity (its op and operands), then
 * every value (all) or the top worst by relative error, leaving out those
 * that equal their reference. Returns the counts the verdict weighs. */
RunEachCounts cmd_compare_each_report(CmdContext *ctx, const RunEach *x, bool all, size_t top);

#endif
