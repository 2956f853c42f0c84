/*
 * reduce.h - shrinking the loaded module while a property holds (`reduce`),
 * as llvm-reduce, mlir-reduce and PyTorch's minifier do for theirs.
 *
 * The reducer never edits the session. It prints the loaded module, with
 * the session's pins written in as annotations (session_annotate_pins), and
 * every candidate it tries is a module text of its own, loaded into a
 * scratch session (session_init_like: the same devices and settings, no
 * pins) and handed to the caller's test, which plans it as far as its
 * property needs; so the module it ends with shows the property on its
 * own. A candidate counts only when it loads, type-checks (when
 * the module as loaded does) and is smaller: fewer bindings, or as many in
 * fewer bytes, or as many bytes with fewer elements in @main's parameters.
 *
 * The search (reduce.c) is the same for both input languages; what a pass
 * may change is the language's (reduce_internal.h): reduce_relay.c's
 * passes below for a Relay module, core/relax/relax_reduce.h's (delete,
 * bypass, hints, funcs, unwrap, tuples) for a Relax one, whose candidates
 * are TVMScript as TVM prints it and whose reduced text is the file.
 *
 * Relay's passes, each a delta-debugging search over one kind of change (the
 * candidates in chunks, halved down to single ones, as llvm-reduce does):
 *   delete   bindings of @main's body replaced by fresh parameters of their
 *            types: uses read the parameter, and a kept value that nothing
 *            kept reads any more joins @main's result (a tuple) so that
 *            only the chosen bindings go
 *   bypass   an operator call replaced by one of its operands of the same
 *            type, which shortens chains that deletions cannot
 *   unwrap   on_device and device_copy calls replaced by their argument; a
 *            parameter's or a function's virtual_device dropped
 *   inline   a call of a closure or global function called nowhere else
 *            replaced by the callee's body
 *   shrink   parameters of @main given the shape (1, ..., 1), where the
 *            types still check
 *   rename   parameters and let variables named a, b, ..., graph bindings
 *            numbered afresh (the name the caller keeps excepted)
 * run in rounds until one changes nothing. Every candidate drops what it
 * leaves unused: parameters of @main, global functions, free variables and
 * #[metadata] constants.
 * The search is deterministic: the same module, settings and test give the
 * same result, and an interrupt (Ctrl-C, polled between candidates) stops
 * it with the smallest module found so far.
 *
 * Ownership: ReduceResult.text is the caller's (reduce_result_free).
 */
#ifndef DEVPLAN_REDUCE_H
#define DEVPLAN_REDUCE_H

#include <stdbool.h>
#include <stddef.h>

#include "session.h"

/* Whether a candidate, loaded (not planned) in `candidate`, still shows
 * the property. The candidate session is freed after the call. */
typedef bool (*ReduceTest)(void *arg, Session *candidate);
/* What a pass that made the module smaller reports; once before the
 * search too, with pass NULL and the module as it starts. */
typedef struct ReduceStep {
	const char *pass;                       /* "delete", "bypass", ..., or NULL */
	size_t bindings_before, bindings_after; /* reduce_count_bindings */
	size_t bytes_before, bytes_after;       /* of the module's text */
	size_t tests;                           /* candidates tried so far */
} ReduceStep;
typedef void (*ReduceProgress)(void *arg, const ReduceStep *step);

typedef struct ReduceOptions {
	ReduceTest test;
	void *test_arg;
	ReduceProgress progress; /* or NULL */
	void *progress_arg;
	const char *keep;     /* a value name (without %) that `rename` keeps, or NULL */
	const char *property; /* what the test looks for, in words, for messages */
} ReduceOptions;

typedef struct ReduceResult {
	char *text;             /* the smallest module found (owned) */
	size_t bindings_before; /* of the module as loaded */
	size_t bindings_after;  /* of text */
	size_t tests;           /* candidates tried */
	bool interrupted;       /* Ctrl-C stopped the search early */
} ReduceResult;

/* Reduces the module s loaded as parsed. False, with the reason in
 * s->diags, when there is no module or the module as loaded does not show
 * the property (then there is nothing to keep); an interrupted search is
 * a success with r->interrupted set. */
bool reduce_module(Session *s, const ReduceOptions *o, ReduceResult *r);
void reduce_result_free(ReduceResult *r);
/* A reduced text as a file TVM loads too (session_print_module: with the
 * #[metadata] section its devices need), appended to out; false when it
 * does not load, which a text reduce_module made always does. */
bool reduce_standalone(const Session *s, const char *text, StrBuf *out);

/* The bindings of m the way reduce counts them, what the printer gives a
 * `%N = ` line or a let: every expression that is not a variable, a
 * constant or a reference to a global, less the global functions and
 * their results (printed inline after the last binding). */
size_t reduce_count_bindings(const IrModule *m);

#endif
