/*
 * ops.h - the operator enum and its static table, generated from ops.def.
 *
 * The table is read-only and global; nothing here allocates.
 */
#ifndef DEVPLAN_OPS_H
#define DEVPLAN_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum OpKind {
#define OP(id, family, name, min_args, max_args, schema) OP_##id,
#include "ops.def"
#undef OP
	OP_COUNT,
	OP_NONE = OP_COUNT, /* a call whose callee is an expression, not an op */
	OP_UNKNOWN,         /* an operator not in ops.def, taken on trust from
			       the result type printed after the call (the
			       call's u.call.unknown); op_info has no entry */
} OpKind;

typedef struct OpInfo {
	const char *name;   /* Relay spelling, e.g. "nn.conv2d" */
	const char *family; /* ops.def's family: the F of infer_F.c, cpu_F.c, cuda_F.cu */
	int min_args;
	int max_args;
	const char *schema; /* see ops.def */
	bool has_kernel;    /* OP in ops.def; false for OP_PLAN */
} OpInfo;

const OpInfo *op_info(OpKind op);
/* OP_NONE when the name is not an operator. */
OpKind op_lookup(const char *name, size_t len);
/* The kind letter of attribute `attr` in op's schema, or 0 if the op does
 * not accept it. */
char op_attr_kind(OpKind op, const char *attr);
/* TVM's default of attribute `attr` as ops.def writes it (len bytes, not
 * terminated), or NULL when the op does not accept it or TVM gives it no
 * default (a required attribute, or one that is None unless set). */
const char *op_attr_default(OpKind op, const char *attr, size_t *len);
/* The schema entry after `entry` (the terminating NUL after the last). */
const char *op_schema_next(const char *entry);
/* strided_slice's index canonicalisation (topi's CanonicalizeIndex), which
 * the type relation and the kernel share: negative counts from the end,
 * then clamped to [0, extent] for a positive stride and [-1, extent - 1]
 * for a negative one. */
int64_t op_slice_canonical(int64_t index, int64_t extent, int64_t stride);
/* True for an operator whose result type depends on an attribute devplan
 * cannot evaluate (a metadata object, kind 'm', such as an IndexMap): the
 * type TVM printed after the call is read with it, kept as the call's type
 * and printed back. */
bool op_type_is_printed(OpKind op);
/* True for the two annotation ops that are not computations. */
bool op_is_annotation(OpKind op);

#endif
