/*
 * ir_equal.h - whether two modules are the same program, placed alike:
 * TVM's structural equality with the devices TVM reads off the text.
 *
 * TVM's tests of PlanDevices (test_pass_plan_devices.py) check a plan with
 * tvm.ir.structural_equal(actual, expected, map_free_vars=True). This is
 * that comparison on devplan's IR, and a little more:
 *   - the globals, paired by name, are the same graphs: a bijection of
 *     nodes with the same kind, operator, attributes (by name, a missing one
 *     equal to TVM's default; a device attribute by the device it names),
 *     constants' values, tuple sizes and projection indices, and the same
 *     binding structure (variables paired by their binders, never by their
 *     names; free variables paired as first met);
 *   - a node shared in one is shared in the other (TVM's graph nodes:
 *     calls, variables, lets, ifs, functions, non-empty tuples, references,
 *     constructor applications, matches); constants, projections, global
 *     references, operators used as values and the empty tuple are values
 *     and may be shared or not, as in TVM;
 *   - every parameter has the same virtual_device (TVM's VarNode compares
 *     it), that of a Primitive=1 function's included;
 *   - and every node is on the same device as TVM reads it
 *     (ir_lexical_devices, lexical.h), compared by the device's name, so
 *     two modules loaded with different device tables compare. TVM's own
 *     structural_equal compares a parameter's virtual_device but not a
 *     function's (FunctionNode::SEqualReduce leaves it out); devplan reads
 *     every node's device through the function's, so it compares it.
 * Names, the comments TVM prints (`ty=...`, `span=...`) and type
 * annotations are not compared unless asked (IrEqualOptions).
 *
 * Nothing here allocates what outlives the call; the walk is iterative, so
 * a chain of a million bindings compares without deep recursion.
 */
#ifndef DEVPLAN_IR_EQUAL_H
#define DEVPLAN_IR_EQUAL_H

#include <stdbool.h>

#include "devices.h"
#include "ir.h"

typedef struct IrEqualOptions {
	/* name the device indices of each side; NULL compares indices */
	const DeviceTable *devices_a, *devices_b;
	bool types;            /* also the types: inferred (Expr.type) and written */
	bool annotations;      /* also the types written (parameters, lets, results,
				  an unknown operator's), not the inferred ones */
	bool spans;            /* also the source spans TVM printed (ir_span) */
	bool attrs_as_written; /* attributes: the same names in the same order with
				  the same literal suffixes, not only the same meaning */
	bool ignore_devices;   /* leave out the devices TVM reads off the text and
				  the parameters' written ones */
	bool free_var_names;   /* free variables by name, not paired as first met
				  (TVM's map_free_vars) */
} IrEqualOptions;

/* The first difference found. */
typedef struct IrDifference {
	const Expr *a, *b;  /* the nodes that differ, or NULL (a global missing) */
	Pos pos_a, pos_b;   /* their positions (a global's `def`); line 0 for none */
	const char *global; /* the global it is in (without '@'), or NULL */
	char what[512];     /* in words, A's side first: "add against subtract" */
} IrDifference;

/* True when a and b are the same module in the sense above; otherwise
 * false, with the first difference in *diff (which may be NULL). The walk
 * visits the globals in a's order, each in evaluation order from the
 * function down, and reports a difference of structure before one of
 * devices. */
bool ir_equal_modules(const IrModule *a, const IrModule *b, const IrEqualOptions *opts,
		      IrDifference *diff);

/* An attribute value as ops.def writes a default (1, 0.5, True, NCHW,
 * [1,1], None), to compare with op_attr_default. */
void ir_attr_value_compact(StrBuf *out, const AttrValue *v);

#endif
