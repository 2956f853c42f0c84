/*
 * relax_realize.h - TVM 0.27's RealizeVDevice as five steppable phases.
 *
 * The phases mirror src/relax/transform/realize_vdevice.cc (RELAX.md
 * §2.1): collect (A: explicit seeds and hint inputs, with TVM's errors),
 * colocate (B: the undirected co-location graph), propagate (C: two
 * rounds of LIFO flood fill, first writer wins, one event per
 * assignment), rewrite (D1/D2: variables re-typed, hints dropped or made
 * R.to_vdevice) and normalize (D3: types re-derived as TVM's
 * BlockBuilder does, with the binary-operator error and, as warnings,
 * every vdevice TVM drops without a word). Seeds keep TVM's insertion
 * order (its ffi::Map iterates in insertion order; a key set again keeps
 * its place), which decides who writes first.
 *
 * Ownership: an RxRealize borrows its input module; the modules the
 * rewrite and normalize phases make are its own (freed by
 * relax_realize_free) and borrow the input's types and literals, so the
 * input must outlive them.
 */
#ifndef DEVPLAN_RELAX_REALIZE_H
#define DEVPLAN_RELAX_REALIZE_H

#include "relax_ir.h"

typedef enum RxPhase {
	RX_PHASE_COLLECT,
	RX_PHASE_COLOCATE,
	RX_PHASE_PROPAGATE,
	RX_PHASE_REWRITE,
	RX_PHASE_NORMALIZE,
	RX_PHASE_COUNT
} RxPhase;

extern const char *const relax_phase_names[RX_PHASE_COUNT];
extern const char *const relax_phase_summaries[RX_PHASE_COUNT];

/* Why a variable is an explicit seed (A1, A2, A3). */
enum { RX_SEED_ANNOTATION = 1, RX_SEED_HINT_OUTPUT, RX_SEED_RETURN };

/* One assignment of the propagation (stepi replays them). */
typedef struct RxEvent {
	uint32_t var;  /* the variable placed */
	int vdevice;   /* where */
	uint32_t from; /* the neighbour it came from, or UINT32_MAX for a seed */
	int round;     /* 1 (explicit seeds) or 2 (hint inputs) */
} RxEvent;

typedef struct RxRealize {
	const RxModule *in;
	size_t done; /* phases run */
	/* devplan's copy policy instead of TVM's (set before the first phase):
	 * propagate places every tensor by an order-free rule, unreached ones
	 * on the first "global" vdevice, and rewrite copies each operand that
	 * lives elsewhere to its consumer with R.to_vdevice (realize_copy.c) */
	bool copy_policy;
	/* collect */
	int *explicit_dev;            /* by var id, -1 when none */
	Pos *explicit_pos;            /* where each was seeded */
	unsigned char *explicit_kind; /* RX_SEED_* by var id */
	uint32_t *explicit_order;     /* TVM's map order */
	size_t nexplicit;
	int *hint_dev; /* hint inputs, by var id */
	Pos *hint_pos;
	uint32_t *hint_order;
	size_t nhint;
	/* colocate: neighbours of v are adj[adj_start[v] .. adj_start[v + 1]) */
	uint32_t *adj_start, *adj;
	size_t nedges;
	/* propagate */
	int *known; /* by var id, -1 when unplaced (as of event `applied`) */
	RxEvent *events;
	size_t nevents, events_cap;
	size_t applied; /* events reflected in known: nevents, except while
			   propagate is replayed event by event (stepi) */
	/* rewrite, normalize */
	unsigned char *remapped; /* by var id: TVM made it a new variable */
	RxModule *rewritten;
	RxModule *normalized;
} RxRealize;

void relax_realize_init(RxRealize *r, const RxModule *in);
void relax_realize_free(RxRealize *r);
/* Runs the next phase; false with errors in diags (warnings go there too). */
bool relax_realize_step(RxRealize *r, DiagList *diags);
/* The module as of the phases run: the input until rewrite has run. */
const RxModule *relax_realize_current(const RxRealize *r);

/* Propagate one event at a time (`stepi`). Once propagate has run,
 * relax_realize_rewind takes known back to before its first event, and
 * each relax_realize_replay applies the next one (known[var] = vdevice);
 * events are deterministic, so replaying them all gives back exactly the
 * state the phase left. Until the last is applied propagate is in
 * progress: known, relax_why and relax_seed_of answer as of event
 * `applied`, and relax_realize_step replays the rest before it runs
 * rewrite. */
void relax_realize_rewind(RxRealize *r);
void relax_realize_replay(RxRealize *r);
bool relax_realize_in_progress(const RxRealize *r);

/* A copy of m's functions and variables (new ids kept) in a new module
 * that borrows m's types, literals and vdevice targets. */
RxModule *relax_module_copy(const RxModule *m);

#endif
