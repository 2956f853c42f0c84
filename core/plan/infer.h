/*
 * infer.h - type inference (the `infer` phase).
 *
 * infer_module fills the `type` field of every expression of m in place
 * (infer_phase runs it on a fresh clone), checking annotations against what
 * the op type relations derive. Errors are positioned and name the operand
 * types; the walk continues past an error where it can. Returns false when
 * any error was reported.
 */
#ifndef DEVPLAN_INFER_H
#define DEVPLAN_INFER_H

#include <stdbool.h>

#include "diag.h"
#include "ir.h"
#include "phase.h"

/* The `infer` phase (pipeline.h): a typed copy of in, or NULL after
 * reporting errors (an interrupt too) into ctx->diags. */
IrModule *infer_phase(const IrModule *in, PhaseContext *ctx);

bool infer_module(IrModule *m, DiagList *diags);
/* infer_module given m's nodes as ir_module_clone_ordered listed them,
 * which spares listing them again; takes the list (leaving *listed empty). */
bool infer_module_listed(IrModule *m, ExprVec *listed, DiagList *diags);

/* The context handed to an op's type relation. */
typedef struct OpTypeContext {
	IrModule *module;       /* allocate result types in its data arena */
	const Expr *call;       /* the call: attributes and position */
	Type *const *arg_types; /* call->u.call.nargs types, none NULL */
	DiagList *diags;
} OpTypeContext;

/* An op's type relation returns the result type, or NULL after reporting
 * an error positioned at the call. */
typedef Type *(*OpTypeRelation)(OpTypeContext *ctx);
OpTypeRelation infer_relation(OpKind op);

/* Algebraic data types (infer/infer_adt.c). Each returns the node's type,
 * or NULL when an input has none or after reporting an error at the node:
 * a constructor's type arguments solved from its arguments (a hole where
 * none says, see the file's comment); a pattern variable's from its
 * match's scrutinee (errors are the match's); a match's, which checks
 * every pattern against the scrutinee and requires one type of all the
 * clause bodies. */
Type *infer_construct(IrModule *m, DiagList *diags, Expr *e);
/* A constructor used as a value (EXPR_OP_VALUE), TVM's type of it: `Cons`
 * of `type List[A] { Cons(A, List[A]), ... }` is fn [A](A, List[A]) ->
 * List[A], which each call instantiates. */
Type *infer_constructor_value(IrModule *m, const Expr *e);
/* memo: m->nexprs entries, zeroed, kept by the caller for the whole walk:
 * the pattern variables' types by id, a clause's all at once. */
Type *infer_pattern_var(IrModule *m, Expr *var, Type **memo);
/* speculative: clauses without a type are passed over (the first pass
 * over a closure whose result is being found, infer.c). */
Type *infer_match(IrModule *m, DiagList *diags, Expr *e, Type **memo, bool speculative);
/* A call of a polymorphic global or closure (function type ft, type
 * parameters type_params) with argument types args: *ret the result with
 * the type parameters solved; false when argument *bad_arg cannot have the
 * type *want. */
bool infer_instantiate(IrModule *m, uint32_t ntype_params, const char *const *type_params,
		       const Type *ft, Type *const *args, uint32_t nargs, Type **ret,
		       uint32_t *bad_arg, Type **want);

/* The Relay spelling of t (`Tensor[(5, 7), float32]`, `?` for NULL) as a
 * string in m's arena, for diagnostics; it lives as long as m. Inline, so
 * that the type relations (infer_ops.c) need nothing back from infer.c. */
static inline const char *infer_type_name(IrModule *m, const Type *t)
{
	return type_string(ir_data_arena(m), t);
}

#endif
