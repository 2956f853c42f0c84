/*
 * relax_lower_internal.h - what relax_lower.c (values, statements, calls
 * between functions, the entry) and relax_lower_ops.c (operator calls)
 * share.
 *
 * Each Relax variable lowered stands for a LowerVal: the Relay expression
 * it is (a let variable, a constant, a projection), the device it lives
 * on, or, for a tuple literal, its fields' values, so that `t[0]` is its
 * field wherever it lives; or the R.shape(...) call it names. Values are
 * copied, never shared, so that a function inlined twice does not
 * overwrite what its first call gave.
 */
#ifndef DEVPLAN_RELAX_LOWER_INTERNAL_H
#define DEVPLAN_RELAX_LOWER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "relax_lower.h"

typedef struct LowerVal {
	bool set;
	bool is_tuple;           /* fields hold a tuple literal's values */
	char *text;              /* the Relay expression (malloc'ed), or NULL */
	int32_t device;          /* -1: a constant, which lives where it is used */
	struct LowerVal *fields; /* malloc'ed, nfields of them */
	uint32_t nfields;
	const RxExpr *shape; /* an R.shape(...) call it names, or NULL */
	const RxType *type;  /* its realised type */
} LowerVal;

typedef struct Lower {
	const RxModule *m;
	const int32_t *device_of;
	int32_t unplaced;
	LowerVal *vals; /* by variable id */
	DiagList *diags;
	StrBuf *out;
	SourceOrigin *origin;  /* where each line written comes from, or NULL */
	uint32_t call;         /* 1 + the origin's call being inlined; 0: none */
	const RxFunc **active; /* the functions being lowered, outermost first */
	const RxExpr **calls;  /* calls[i]: the call that inlined active[i] (0: none) */
	uint32_t nactive;
	size_t active_cap;
	int indent;
	char **names; /* the Relay names used: an open-addressed set */
	size_t names_cap, nnames;
} Lower;

/* An error at pos of the Relax source; false. */
bool lower_error(Lower *L, Pos pos, const char *fmt, const char *arg);
/* e (a variable, tuple, projection or constant) as an operand on device
 * want (-1: wherever it is), with a device_copy when it lives elsewhere. */
bool operand(Lower *L, const RxExpr *e, int32_t want, StrBuf *sb);
/* R.const(0.5, "float32") as a Relay scalar literal. */
bool lower_scalar_const(Lower *L, const RxExpr *e, StrBuf *sb);
void lower_write_device(StrBuf *sb, int32_t device);
/* The Relay call of an operator call whose result has type result, run on
 * device. */
bool lower_call(Lower *L, const RxExpr *call, const RxType *result, int32_t device, StrBuf *sb);

#endif
