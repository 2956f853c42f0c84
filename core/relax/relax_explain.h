/*
 * relax_explain.h - what RealizeVDevice decided and why, for `conflicts`
 * and `why` on a Relax module.
 *
 * TVM never checks a conflict: each seed floods its whole co-location
 * class (a connected component of the graph, hints and copies cutting it),
 * and the first writer in TVM's order wins. So a conflict is a class that
 * seeds of two or more vdevices reach: every value of it is demanded on
 * each of them, and TVM's order picks one per value. `why` follows the
 * propagation's events back from a value to the seed that placed it.
 *
 * Ownership: arrays returned are malloc'ed and the caller's.
 */
#ifndef DEVPLAN_RELAX_EXPLAIN_H
#define DEVPLAN_RELAX_EXPLAIN_H

#include "relax_realize.h"

typedef struct RxSeed {
	uint32_t var;
	int vdevice;
	Pos pos;   /* the annotation, hint or return type that seeded it */
	int round; /* 1: explicit (annotation, hint output, return type); 2: hint input */
} RxSeed;

typedef struct RxConflict {
	uint32_t *vars; /* the class's values, in id order */
	size_t nvars;
	RxSeed *seeds; /* its seeds in TVM's order, round 1 first */
	size_t nseeds;
} RxConflict;

/* The conflicts once propagate has run (collect and colocate before it). */
size_t relax_conflicts(const RxRealize *r, RxConflict **out);
void relax_conflicts_free(RxConflict *c, size_t n);
/* Every co-location class once colocate has run (collect before it), in
 * the same form, in order of its first variable; free with
 * relax_conflicts_free. */
size_t relax_classes(const RxRealize *r, RxConflict **out);
/* `set policy error`: once colocate has run, an error at the first
 * conflict's first seed that disagrees with its first one, naming both
 * (a note at the other); false then. */
bool relax_check_conflicts(const RxRealize *r, const SourceFile *src, DiagList *diags);
/* Whether seeds on two vdevices reach the class. */
bool relax_class_conflicts(const RxConflict *c);
/* The chain from the seed that placed var to var (chain[0] the seed,
 * chain[n - 1] var); 0 when var was placed by nothing. */
size_t relax_why(const RxRealize *r, uint32_t var, uint32_t **chain);
/* The seed var was placed as, or NULL. */
bool relax_seed_of(const RxRealize *r, uint32_t var, RxSeed *seed);
/* What made seed a seed: "vdevice annotation", "hint output", "declared
 * return type", "hint input", "fallback: nothing reaches it" (round 3,
 * the copy policy's) or "seed" (an R.to_vdevice's result under copy). */
const char *relax_seed_kind(const RxRealize *r, const RxSeed *seed);
/* Event i of the propagation, as stepi prints it: the variable, its
 * vdevice and where it came from, a seed (its kind and file:line:col, file
 * naming the module) or a neighbour along a co-location edge (the line of
 * the binding that links them): `y <- cuda:0:global from b (co-located at
 * line 11, round 2)`. */
void relax_event_describe(StrBuf *out, const RxRealize *r, size_t i, const char *file);

#endif
