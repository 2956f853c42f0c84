/*
 * relax_parse_internal.h - what the module parser (relax_parse.c) and the
 * body parser (relax_parse_body.c) share: types from annotations, the
 * name scope, variables and statements. Not for use outside the parser.
 */
#ifndef DEVPLAN_RELAX_PARSE_INTERNAL_H
#define DEVPLAN_RELAX_PARSE_INTERNAL_H

#include "relax_syntax.h"

/* The type an annotation denotes (R.Tensor, R.Tuple, R.Prim, ...); NULL
 * after an error. */
RxType *rxp_type(RxParser *p, const PyExpr *e);
/* [T1, T2, ...]: a tuple type written as a list (call_tir's out_ty). */
RxType *rxp_type_list(RxParser *p, const PyExpr *list);
/* A vdevice string resolved against the module's list, or -1 after an
 * error at pos. */
int rxp_vdevice(RxParser *p, const char *text, Pos pos);

/* A new variable of the module, declared in the current scope. */
RxVar *rxp_define(RxParser *p, const char *name, Pos pos, RxType *type);
/* The variable a name denotes now, or NULL. */
RxVar *rxp_lookup(RxParser *p, const char *name);
void rxp_scope_begin(RxParser *p);
/* Forgets the names defined since the matching begin. */
void rxp_scope_end(RxParser *p);
void rxp_scope_free(RxParser *p);

/* body: the statements of an indented block up to its DEDENT, which the
 * block ends on (`return` in a function, the branch's last binding in an
 * if). NULL after an error. */
RxBlock *rxp_function_body(RxParser *p);

#endif
