/*
 * relax_reduce.h - the Relax candidates of `reduce` (the search itself,
 * language-independent, is core/session/reduce.c's).
 *
 * A pass lists the changes it could make to a module freshly parsed from
 * the smallest text so far; applying a chosen subset edits that module in
 * place, and the caller prints it (relax_print_module) as the next
 * candidate's text. Candidates name what they change by variable id and
 * function index, which are the same on every parse of the same text, so
 * the list made from one parse applies to another.
 *
 *   delete   a binding (`x = ...`, a match_cast, an if) of a function no
 *            other one calls goes and its variable becomes a new parameter
 *            of that function, of the binding's struct info
 *   bypass   a binding `x = R.op(..., a, ...)` goes and its uses read `a`,
 *            an operand variable of the same struct info; so does
 *            `y = t[i]` where `t = (..., a, ...)`, a the i-th field
 *   hints    `y = R.hint_on_device(x, ...)` and `y = R.to_vdevice(x, ...)`
 *            go, their uses reading x
 *   funcs    a function no other one calls or names goes (of the Relax
 *            ones no other calls, one stays: main, else the last)
 *   unwrap   a dataflow block becomes plain bindings of its function
 *   tuples   a field of a tuple the entry function returns goes
 *
 * Every candidate also drops the parameters of a function no other one
 * calls that nothing reads any more.
 */
#ifndef DEVPLAN_RELAX_REDUCE_H
#define DEVPLAN_RELAX_REDUCE_H

#include <stddef.h>
#include <stdint.h>

#include "relax_ir.h"

typedef enum RxReducePass {
	RX_REDUCE_DELETE,
	RX_REDUCE_BYPASS,
	RX_REDUCE_HINTS,
	RX_REDUCE_FUNCS,
	RX_REDUCE_UNWRAP,
	RX_REDUCE_TUPLES,
	RX_REDUCE_PASSES
} RxReducePass;

extern const char *const relax_reduce_pass_names[RX_REDUCE_PASSES];

typedef struct RxCandidate {
	RxReducePass pass;
	uint32_t a; /* the binding's variable id; a function's index; the
		       dataflow block's ordinal in the module */
	uint32_t b; /* bypass: the operand variable's id; tuples: the field */
} RxCandidate;

/* The candidates of pass in m, in program order (malloc'ed, *out). */
size_t relax_reduce_candidates(const RxModule *m, RxReducePass pass, RxCandidate **out);
/* Applies the chosen ones of cands[0..n) to m, which was parsed from the
 * text the list was made from. */
void relax_reduce_apply(RxModule *m, const RxCandidate *cands, const bool *chosen, size_t n);
/* Bindings as reduce counts them: statements that bind a variable
 * (bindings, match_casts, ifs) in every Relax function. */
size_t relax_reduce_count_bindings(const RxModule *m);

#endif
