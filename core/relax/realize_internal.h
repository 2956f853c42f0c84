/*
 * realize_internal.h - the phase functions of RealizeVDevice, one file
 * each group (realize_collect.c, realize_graph.c, realize_rewrite.c), and
 * what they share. Not for use outside core/relax.
 */
#ifndef DEVPLAN_REALIZE_INTERNAL_H
#define DEVPLAN_REALIZE_INTERNAL_H

#include <stdlib.h>

#include "relax_realize.h"

bool realize_collect(RxRealize *r, DiagList *diags);
bool realize_colocate(RxRealize *r, DiagList *diags);
bool realize_propagate(RxRealize *r, DiagList *diags);
bool realize_rewrite(RxRealize *r, DiagList *diags);
bool realize_normalize(RxRealize *r, DiagList *diags);
/* The copy policy's propagate and rewrite (realize_copy.c). */
bool realize_propagate_copy(RxRealize *r, DiagList *diags);
bool realize_rewrite_copy(RxRealize *r, RxModule *m);
/* Records that var was placed on vdevice (from a neighbour, or UINT32_MAX). */
void realize_place(RxRealize *r, uint32_t var, int vdevice, uint32_t from, int round);

/* Whether e is a call of the operator op ("R.hint_on_device"). */
bool relax_is_op(const RxExpr *e, const char *op);

#endif
