/*
 * reduce_internal.h - what reduce.c's search asks of an input language
 * (reduce_relay.c, reduce_relax.c).
 *
 * The search holds only texts: the smallest module so far, and each
 * candidate a language builds from it. A language loads a text into a
 * scratch session, measures it, and in each pass lists the changes it
 * could make to the smallest text (its working module, parsed afresh per
 * pass) and builds the text with a chosen subset of them applied. Passes
 * are numbered 0..npasses-1 and run in that order, in rounds.
 */
#ifndef DEVPLAN_REDUCE_INTERNAL_H
#define DEVPLAN_REDUCE_INTERNAL_H

#include "reduce.h"

typedef struct ReduceLang {
	const char *const *passes; /* names, as the progress lines print them */
	size_t npasses;
	/* The loaded module as the search starts, appended to text, with its
	 * bindings and whether it type-checks (then every candidate must);
	 * false with the reason in s->diags. */
	bool (*start)(Session *s, StrBuf *text, size_t *bindings, bool *need_types);
	/* Loads text into c, a fresh session like origin (the caller frees c
	 * either way); false when it does not load. */
	bool (*load)(const Session *origin, Session *c, const char *text, size_t len);
	/* A loaded candidate's size: bindings, and elements of its inputs (0
	 * where the language has no such measure). */
	void (*measure)(Session *c, size_t *bindings, double *elements);
	bool (*type_checks)(Session *c);
	/* The working state of the passes, and the working module of one. */
	void *(*work_new)(const Session *origin, const ReduceOptions *o);
	bool (*work_load)(void *work, const char *text, size_t len);
	/* Lists pass's candidates of the working module: how many. */
	size_t (*list)(void *work, size_t pass);
	/* The text with the chosen ones of the n listed applied (malloc'ed). */
	char *(*build)(void *work, const bool *chosen, size_t n, size_t *len);
	void (*work_free)(void *work);
	/* A reduced text as a file to hand on, appended to out. */
	bool (*standalone)(const Session *s, const char *text, StrBuf *out);
} ReduceLang;

extern const ReduceLang reduce_relay; /* reduce_relay.c */
extern const ReduceLang reduce_relax; /* reduce_relax.c */

#endif
