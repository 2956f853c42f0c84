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

/* Two texts as printed, each with a key text of the same lines by which
 * they are compared (for `diff --devices`: the module printed without its
 * device comments, which the version before `core` lacks on every line).
 * Lines whose keys are equal are equal, except that a line of a showing
 * more than its key (a device) that b shows otherwise is changed; a line of
 * a showing only its key takes b's form (the device became known, it did
 * not move). Equal lines print as b shows them. Otherwise as
 * linediff_unified; a text and its key must have as many lines. */
typedef struct LinediffText {
	const char *shown, *key;
	size_t shown_len, key_len;
} LinediffText;
size_t linediff_unified_keyed(StrBuf *out, const LinediffText *a, const LinediffText *b,
			      const char *label_a, const char *label_b, unsigned context);

#endif
