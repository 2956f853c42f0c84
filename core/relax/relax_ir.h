/*
 * relax_ir.h - the Relax module as devplan holds it: the vdevice list,
 * functions, bindings, expressions and types, in one arena per module.
 *
 * The front end reads TVMScript in two steps: relax_syntax.c parses the
 * Python-like text into PyExpr trees (any Python expression TVM prints),
 * and relax_parse.c reads those trees as Relax: names become variables,
 * R.* calls become calls, annotations become types. What devplan does not
 * model (module and function attributes, @T.prim_func bodies, operator
 * attributes such as `axis=0`, shapes) stays a PyExpr or raw text and is
 * printed back as read, so that parse(print(m)) prints m.
 *
 * Placement lives in tensor types: RxType.vdevice is an index into
 * RxModule.vdevices (-1: none), which is TVM's VDevice identity (an object
 * of the module's global-info list). Variables have ids 0..nvars-1 per
 * module, so the planner (relax_realize.c) keeps its tables in arrays.
 *
 * Ownership: an RxModule owns everything reachable from it in its arena
 * and frees it with relax_module_free; RxTypes are immutable and may be
 * shared between modules only through relax_module_copy, which copies.
 */
#ifndef DEVPLAN_RELAX_IR_H
#define DEVPLAN_RELAX_IR_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "diag.h"

/* A Python expression as printed (relax_syntax.c). */
typedef enum PyKind {
	PY_NAME,  /* text */
	PY_ATTR,  /* base.text */
	PY_CALL,  /* base(items...), keys[i] the keyword of items[i] or NULL */
	PY_INDEX, /* base[items[0]] */
	PY_TUPLE, /* (items...) */
	PY_LIST,  /* [items...] */
	PY_DICT,  /* {items[2i]: items[2i+1]} */
	PY_INT,   /* text as written */
	PY_FLOAT, /* text as written */
	PY_STR,   /* text: the decoded string */
	PY_NEG,   /* -base */
	PY_BINOP, /* items[0] text items[1]: arithmetic and comparisons in shapes */
} PyKind;

typedef struct PyExpr PyExpr;
struct PyExpr {
	PyKind kind;
	Pos pos;
	const char *text;
	PyExpr *base;
	PyExpr **items;
	const char **keys; /* PY_CALL only */
	uint32_t nitems;
};

/* One entry of I.module_global_infos({"vdevice": [...]}). */
typedef struct RxVDevice {
	const char *kind;   /* the target kind: "llvm", "cuda", ... */
	PyExpr *target;     /* the full target config dict, as printed */
	int64_t vdevice_id; /* I.vdevice's second argument */
	const char *scope;  /* memory scope, "global" by default */
	int device_type;    /* DLPack code of the kind: 1 cpu, 2 cuda, ... */
	Pos pos;
} RxVDevice;

typedef enum RxTypeKind {
	RX_TYPE_TENSOR, /* shape, ndim, dtype, vdevice */
	RX_TYPE_TUPLE,  /* fields */
	RX_TYPE_PRIM,   /* R.Prim(...): text; excluded from co-location */
	RX_TYPE_OTHER,  /* R.Shape, R.Object, R.Callable...: text */
} RxTypeKind;

typedef struct RxType RxType;
struct RxType {
	RxTypeKind kind;
	PyExpr *shape;     /* TENSOR: the shape as printed, or NULL */
	int ndim;          /* TENSOR: -1 when unknown */
	const char *dtype; /* TENSOR: NULL when not given */
	int vdevice;       /* TENSOR: index into RxModule.vdevices, -1 none */
	RxType **fields;   /* TUPLE */
	bool listed;       /* TUPLE: written as a list (call_tir's out_ty of several) */
	uint32_t nfields;
	PyExpr *text; /* PRIM, OTHER: the annotation as written */
};

typedef struct RxVar {
	const char *name; /* as written */
	uint32_t id;      /* 0..nvars-1 in its module */
	RxType *type;     /* annotation, else what the value gives; may be NULL */
	Pos pos;
	bool annotated; /* written with an annotation */
} RxVar;

typedef enum RxExprKind {
	RX_EXPR_VAR,     /* var */
	RX_EXPR_GLOBAL,  /* a function of the module: name (cls.f or f) */
	RX_EXPR_CALL,    /* callee (op name or global), args, kwargs */
	RX_EXPR_TUPLE,   /* items */
	RX_EXPR_GETITEM, /* items[0][index] */
	RX_EXPR_LITERAL, /* py: anything else, printed as read */
} RxExprKind;

/* What a call calls. */
typedef enum RxCallee {
	RX_CALL_OP,     /* op: "R.add", "R.nn.relu", ... */
	RX_CALL_GLOBAL, /* op: the function's name */
	RX_CALL_VAR,    /* items[0] is the callee expression; args follow */
} RxCallee;

typedef struct RxExpr RxExpr;
struct RxExpr {
	RxExprKind kind;
	Pos pos;
	RxVar *var;       /* VAR */
	const char *name; /* GLOBAL: the function; CALL: the op or function */
	RxCallee callee;  /* CALL */
	RxExpr **items;   /* CALL: positional args; TUPLE: fields; GETITEM: [0] */
	uint32_t nitems;
	const char **keys; /* CALL: keyword names of kwargs */
	RxExpr **kwargs;   /* CALL: keyword values */
	uint32_t nkwargs;
	int64_t index; /* GETITEM */
	PyExpr *py;    /* LITERAL */
	/* R.hint_on_device: the device asked for; R.to_vdevice: the target */
	int hint_type, hint_index; /* DLPack type and index */
	const char *hint_scope;
	int vdevice;      /* to_vdevice: the destination */
	RxType *out_type; /* call_tir, call_dps_packed: out_ty */
};

typedef enum RxStmtKind {
	RX_STMT_BIND,     /* var = value */
	RX_STMT_MATCH,    /* var = R.match_cast(value, cast) */
	RX_STMT_IF,       /* var = if cond: then else: other */
	RX_STMT_ALIAS,    /* cls = Module: printed as read */
	RX_STMT_EXPR,     /* py: R.func_attr({...}) or other statement, as read */
	RX_STMT_DATAFLOW, /* with R.dataflow(): body; R.output(outputs) */
} RxStmtKind;

typedef struct RxBlock RxBlock;
typedef struct RxStmt RxStmt;

/* A sequence of statements and its result (a branch's or a function's). */
struct RxBlock {
	RxStmt **stmts;
	uint32_t nstmts;
	RxExpr *result; /* the returned or branch-assigned expression */
	Pos result_pos;
};

struct RxStmt {
	RxStmtKind kind;
	Pos pos;
	RxVar *var;                       /* BIND, MATCH, IF: the bound variable */
	RxExpr *value;                    /* BIND, MATCH: the value; IF: the condition */
	RxType *cast;                     /* MATCH */
	RxBlock *then_block, *else_block; /* IF, DATAFLOW (then_block) */
	RxVar *then_var, *else_var;       /* IF: the names the branches assign */
	RxVar **outputs;                  /* DATAFLOW: R.output(...) */
	uint32_t noutputs;
	PyExpr *py;        /* ALIAS, EXPR */
	const char *alias; /* ALIAS: the name */
	bool changed;      /* set by the rewrite: TVM re-emits this binding */
	RxExpr *hint;      /* rewrite: the R.hint_on_device call the value replaced */
};

typedef enum RxFuncKind {
	RX_FUNC_RELAX,
	RX_FUNC_PRIM,
	RX_FUNC_EXTERN, /* `NAME = R.ExternFunc(...)` in the class: decorator is the call */
} RxFuncKind;

typedef struct RxFunc {
	RxFuncKind kind;
	const char *name;
	Pos pos;
	PyExpr *decorator; /* R.function or R.function(...), as written */
	RxVar **params;
	uint32_t nparams;
	RxType *ret; /* declared return type, or NULL */
	RxBlock *body;
	const char *text; /* PRIM: the function's source lines, dedented */
} RxFunc;

typedef struct RxModule {
	Arena arena;
	const char *name;    /* the class name */
	PyExpr *attrs;       /* I.module_attrs's argument, or NULL */
	RxVDevice *vdevices; /* malloc'ed */
	uint32_t nvdevices;
	size_t vdevices_cap;
	bool has_global_infos; /* its dict has a "vdevice" list */
	PyExpr *global_infos;  /* I.module_global_infos's dict as read, or NULL */
	/* `NAME = T.int64()` / `NAME = TypeVar("NAME")` lines before the class,
	 * the symbolic dims a call may pass as values (arena arrays) */
	const char **prelude_names;
	PyExpr **prelude_values;
	uint32_t nprelude;
	RxFunc **funcs; /* in source order (malloc'ed) */
	uint32_t nfuncs;
	size_t funcs_cap;
	uint32_t nvars;
	RxVar **vars; /* by id (malloc'ed) */
	size_t vars_cap;
	const SourceFile *src; /* positions point into it (borrowed) */
} RxModule;

RxModule *relax_module_new(void);
void relax_module_free(RxModule *m);

/* Types: constructors in m's arena, and comparisons. */
RxType *relax_type_tensor(RxModule *m, PyExpr *shape, int ndim, const char *dtype, int vdevice);
RxType *relax_type_with_vdevice(RxModule *m, const RxType *t, int vdevice);
bool relax_type_equal(const RxType *a, const RxType *b);
bool relax_py_equal(const PyExpr *a, const PyExpr *b);
/* The variable's tensor vdevice, -1 when none or not a tensor. */
int relax_type_vdevice(const RxType *t);

/* The printed vdevice string, "cuda:0:global" (the K-th of its kind). */
void relax_vdevice_name(const RxModule *m, int vdevice, StrBuf *out);
/* Resolves "KIND[:K[:SCOPE]]" or "vdevice:N" as TVM's parser does; -1
 * when the module has no such entry. */
int relax_vdevice_lookup(const RxModule *m, const char *text);

#endif
