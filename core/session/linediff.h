/*
 * linediff.h - a unified diff of two texts, line by line (for `diff`).
 *
 * Myers' O(ND) algorithm in linear space (the "middle snake" recursion of
 * GNU diff), with GNU diff's cut-off for very different inputs, so that a
 * diff of two large modules stays fast at the price of a less than minimal
 * script. The output is what `diff -u` and git print: `---`/`+++` labels,
 * `@@ -l,n +l,n @@` hunks with `context` lines around each change.
 *
 * Ownership: the caller owns the StrBuf; nothing is kept between calls.
 */
#ifndef DEVPLAN_LINEDIFF_H
#define DEVPLAN_LINEDIFF_H

#include <stddef.h>

#include "util.h"

/* Appends the unified diff of a (alen bytes) and b (blen bytes) to out and
 * returns its number of hunks; when the texts have the same lines it
 * appends nothing and returns 0. A last line without a newline is compared
 * and printed as if it had one. */
size_t linediff_unified(StrBuf *out, const char *a, size_t alen, const char *b, size_t blen,
			const char *label_a, const char *label_b, unsigned context);

#endif
