/*
 * relax_infer.h - the types TVM 0.27's normaliser gives Relax values,
 * as far as placement needs them.
 *
 * Shapes and dtypes come from annotations (TVM prints one on almost every
 * binding); what is derived here is the vdevice, by each operator's rule
 * (relax_ops.def): an elementwise binary operator raises when its operands
 * are on two vdevices (the only conflict TVM reports), matmul and concat
 * silently give no vdevice then, R.call_tir and calls of other functions
 * give their declared type, most operators their first tensor argument's.
 *
 * Ownership: returned types are in m's arena or borrowed from the values.
 */
#ifndef DEVPLAN_RELAX_INFER_H
#define DEVPLAN_RELAX_INFER_H

#include "relax_ir.h"

typedef enum RxRule {
	RX_RULE_BINARY,     /* both operands' vdevice, which must agree */
	RX_RULE_MATMUL,     /* both agree, else none; one defined wins */
	RX_RULE_COMMON,     /* the first defined, none on a mismatch */
	RX_RULE_FIRST,      /* the first tensor argument's */
	RX_RULE_UNARY,      /* the argument's type itself */
	RX_RULE_TO_VDEVICE, /* the argument's type on the destination */
	RX_RULE_HINT,       /* the argument's type, unchanged */
	RX_RULE_OUT_TYPE,   /* out_ty */
} RxRule;

typedef struct RxOpInfo {
	const char *name;
	RxRule rule;
	const char *relay; /* the Relay operator it lowers to, "" when none */
} RxOpInfo;

/* The operator's entry, or NULL for one devplan reads generically. */
const RxOpInfo *relax_op_find(const char *name);

/* Why an inference failed: a binary operator on two vdevices. */
typedef struct RxInferError {
	bool failed;
	int lhs, rhs; /* the operands' vdevices */
} RxInferError;

/* The type of value with the variables' types as they stand; base, when
 * given, is the binding's annotation, whose shape and dtype are kept. NULL
 * when nothing is known, or (with err->failed) on a mismatch. */
RxType *relax_infer_value(RxModule *m, const RxExpr *value, const RxType *base, RxInferError *err);
/* The function named name, or NULL. */
const struct RxFunc *relax_module_func(const RxModule *m, const char *name);

#endif
