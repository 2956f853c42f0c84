/*
 * ir.h - the Relay IR: modules, global functions and expressions.
 *
 * Ownership: a module version has two arenas. `nodes` holds its expression
 * nodes and their child arrays, and is freed with the version by
 * ir_module_free. `data` holds everything immutable that later versions
 * share rather than copy: names, strings, attribute arrays, types and
 * constant data. A clone allocates its own data in a new IrData that keeps
 * its source's data alive, so any version, the oldest included, can be
 * freed while later ones still use what it made (the session frees old
 * versions to bound memory). Nothing inside a module is freed separately.
 * Expressions
 * form a DAG: a graph binding `%0 = e;` and every later use of `%0` are the
 * same node, and a variable's uses are its binding node.
 *
 * A pass never mutates a node that an earlier version still uses: it clones
 * the module (ir_module_clone) and edits the clone. Every node has a dense id
 * below module->nexprs, so passes keep side tables in plain arrays, and the
 * traversal helpers are iterative so that a chain of a million bindings does
 * not overflow the C stack.
 */
#ifndef DEVPLAN_IR_H
#define DEVPLAN_IR_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "diag.h"
#include "oom.h"
#include "ops.h"
#include "types.h"

/* Device-table index meaning "not constrained yet". */
#define IR_NO_DEVICE (-1)

typedef enum AttrKind {
	ATTR_NONE,     /* no member: the literal None */
	ATTR_INT,      /* i */
	ATTR_FLOAT,    /* f */
	ATTR_STRING,   /* s */
	ATTR_BOOL,     /* b */
	ATTR_LIST,     /* list */
	ATTR_DEVICE,   /* device: a device-table index */
	ATTR_CONSTANT, /* constant: a meta[relay.Constant] index into the
			  module's constants, the value of an Expr-typed
			  field of TVM's (arange's start, stop and step) */
	ATTR_META,     /* meta: a metadata object devplan does not read */
} AttrKind;

typedef struct AttrValue AttrValue;
struct AttrValue {
	AttrKind kind;
	/* ATTR_INT, ATTR_FLOAT: the literal's width suffix as written
	 * (NumSuffix of lex.h: 2i64, 1.5f64), printed back as TVM prints an
	 * IntImm or FloatImm of that dtype; NUM_NONE otherwise */
	uint8_t suffix;
	union {
		int64_t i;
		double f;
		const char *s;
		bool b;
		struct {
			uint32_t n;
			AttrValue *items;
		} list;
		int32_t device;
		int32_t constant;
		struct {
			const char *kind; /* "IndexMap" of meta[IndexMap][3] */
			int64_t index;
		} meta;
	} u;
};

typedef struct Attr {
	const char *name;
	AttrValue value;
	Pos pos; /* of the attribute name, for diagnostics */
} Attr;

/* What a function's head writes besides its parameters, device and
 * result: immutable, in the data arena (or the shared empty one), so a
 * clone shares it. */
typedef struct FnHead {
	Attr *attrs; /* other than virtual_device (kept in Expr.device) */
	uint32_t nattrs;
	uint32_t ntype_params;
	const char **type_params; /* `fn [A, B](...)`: names, in the data arena */
} FnHead;

/* The head of a function that writes neither attributes nor type
 * parameters. */
extern const FnHead ir_empty_fn_head;

typedef enum ExprKind {
	EXPR_VAR,      /* u.var: a parameter, let variable or free variable */
	EXPR_GLOBAL,   /* u.global: a reference to a global function @name */
	EXPR_CONSTANT, /* u.constant */
	EXPR_CALL,     /* u.call: an op call (op != OP_NONE) or a call of u.call.callee */
	EXPR_LET,      /* u.let */
	EXPR_FN,       /* u.fn: a closure, or the body of a global */
	EXPR_TUPLE,    /* u.tuple */
	EXPR_PROJ,     /* u.proj: tuple.index */
	EXPR_IF,       /* u.if_ */

	/* algebraic data types */
	EXPR_CONSTRUCT, /* u.construct: a constructor applied, `Cons(%x, %l)`, `Nil` */
	EXPR_MATCH,     /* u.match: `match (e) { pattern => body, ... }` */

	EXPR_OP_VALUE, /* u.op_value: an operator (`add`, `nn.relu`) or a
			  constructor with fields (`Cons`) used as a value,
			  not applied: TVM's OpNode and ConstructorNode. A
			  leaf, device-polymorphic as in TVM: planning gives
			  it no domain of its own; `run` refuses it */
} ExprKind;

/* The last ExprKind, for range checks of damaged IR (verify.c). */
#define EXPR_KIND_LAST EXPR_OP_VALUE

typedef enum VarRole {
	VAR_PARAM, /* a function parameter */
	VAR_LET,   /* bound by a let; u.var.value is the bound value */
	VAR_FREE,  /* free_var, or a %name used without a binding */

	VAR_PATTERN, /* bound by a pattern of a match clause; u.var.value is the match */
} VarRole;

/* A pattern of a match clause. Patterns are immutable and live in the
 * module's data arena, shared by every version; the variables they bind
 * are nodes, so a pattern names its variable by index into the match's
 * u.match.vars (which each version clones). */
typedef enum PatternKind {
	PATTERN_WILDCARD,    /* _ */
	PATTERN_VAR,         /* %x or %x: T; var */
	PATTERN_CONSTRUCTOR, /* Ctor or Ctor(p1, ..., pn); adt, ctor, subs */
	PATTERN_TUPLE,       /* (p1, ..., pn); subs */
} PatternKind;

typedef struct Pattern Pattern;
struct Pattern {
	PatternKind kind;
	Pos pos;
	uint32_t var;  /* PATTERN_VAR: index into the match's vars */
	uint32_t adt;  /* PATTERN_CONSTRUCTOR: index into module->typedefs */
	uint32_t ctor; /* PATTERN_CONSTRUCTOR: index into its ctors */
	uint32_t nsubs;
	const Pattern **subs; /* the fields' patterns (constructor, tuple) */
};

/* One clause: its pattern and the match's vars it binds, vars
 * [first_var, first_var + nvars), in the pattern's left-to-right order. */
typedef struct MatchClause {
	const Pattern *pattern;
	uint32_t first_var;
	uint32_t nvars;
	Pos pos; /* of the pattern */
} MatchClause;

/* A tensor value: shape and dtype, and its bytes in C order. */
typedef struct Tensor {
	DType dtype;
	uint32_t ndim;
	int64_t *shape;
	void *data; /* nbytes bytes in the module arena */
	size_t nbytes;
} Tensor;

/* A call of an operator devplan does not know (a custom or BYOC op, or one
 * of a newer TVM), accepted because TVM printed its result type after it
 * (the `ty=T` comment): planned as a primitive op (arguments and result in one
 * domain), typed with T, printed back as written, never run. */
typedef struct UnknownOp {
	const char *name;  /* as written: "contrib.my_op" */
	const char *attrs; /* the attributes as written ("axis=1, k=[2, 3]"),
			      or "" */
	Type *type;        /* the printed result type */
} UnknownOp;

typedef struct Expr Expr;
struct Expr {
	/* Packed with device into 4 bytes: every phase copies every node,
	 * so the node's size is most of devplan's time and memory. */
	ExprKind kind : 8;
	/* name was made up by a phase (a copy check inserted), not written
	 * in the source: it can be typed, but is not a binding of the
	 * user's program (placement lists no `bind` fact for it) */
	bool name_generated : 1;
	/* Device-table index of where this expression's value lives: set from
	 * the source on parameters (`{virtual_device=D}`) and functions
	 * (trailing `virtual_device=D`, the result's device), and on every node
	 * by planning. IR_NO_DEVICE while unconstrained. The table holds at
	 * most DEVICES_MAX entries, so 16 bits suffice. */
	int16_t device;
	uint32_t id;      /* dense per module version: 0 <= id < nexprs */
	Pos pos;          /* where the expression starts in the source */
	const char *name; /* source name without '%' (variable or graph
			     binding `%0 = ...`), a generated one (see
			     name_generated), or NULL */
	Type *type;       /* annotated or inferred; NULL until known */
	union {
		struct {
			Type *annotation; /* written type, or NULL */
			Expr *value;      /* VAR_LET: the bound value; VAR_PATTERN:
					     the match whose pattern binds it */
			VarRole role;
		} var;
		struct {
			const char *name; /* without '@' */
			int32_t index;    /* into module->globals; -1 if unknown */
		} global;
		struct {
			Tensor tensor;
			int32_t meta_index; /* meta[relay.Constant][i], or -1 for a
					       scalar literal like 1f */
		} constant;
		struct {
			OpKind op; /* OP_NONE: calls callee; OP_UNKNOWN: unknown */
			uint32_t nargs;
			Expr **args;
			union {
				Expr *callee;             /* OP_NONE: a global, variable or
						 closure; NULL for an op */
				const UnknownOp *unknown; /* OP_UNKNOWN */
			};
			Attr *attrs; /* an op's; on a call of an expression,
					TVM's generic ones (attrs_type_key) */
			uint32_t nattrs;
		} call;
		struct {
			Expr *var; /* an EXPR_VAR with role VAR_LET */
			Expr *value;
			Expr *body;
		} let;
		struct {
			Expr **params;  /* EXPR_VAR nodes with role VAR_PARAM */
			Type *ret_type; /* written `-> T`, or NULL */
			Expr *body;
			const FnHead *head; /* attributes and type parameters,
					       never NULL (ir_empty_fn_head) */
			uint32_t nparams;
		} fn;
		struct {
			Expr **fields;
			uint32_t nfields;
		} tuple;
		struct {
			Expr *tuple;
			uint32_t index;
		} proj;
		struct {
			Expr *cond;
			Expr *then_branch;
			Expr *else_branch;
		} if_;
		struct {
			uint32_t adt;   /* index into module->typedefs */
			uint32_t ctor;  /* index into its ctors */
			uint32_t nargs; /* the constructor's field count */
			Expr **args;
			const char *name; /* the constructor's, in the data arena */
		} construct;
		struct {
			const char *name; /* the operator's (static) or the
					     constructor's (data arena) */
			OpKind op;        /* OP_NONE for a constructor */
			uint32_t adt;     /* a constructor's: index into
					     module->typedefs */
			uint32_t ctor;    /* and into its ctors */
		} op_value;
		struct {
			Expr *scrutinee;
			Expr **bodies; /* per clause */
			Expr **vars;   /* EXPR_VAR, role VAR_PATTERN, of every clause */
			const MatchClause *clauses; /* immutable, in the data arena */
			uint32_t nclauses;
			uint32_t nvars : 31;
			bool complete : 1; /* `match`, not `match?` */
		} match;
	} u;
};

#ifndef __cplusplus /* exec_cuda.cu includes this as C++ */
_Static_assert(sizeof(Expr) <= 72, "an Expr is copied by every phase: keep it small");
#endif

typedef struct IrGlobal {
	const char *name; /* without '@' */
	Expr *fn;         /* EXPR_FN */
	Pos pos;          /* of `def` */

	/* `def @f[A, B]`: the type parameters' names, in the data arena */
	const char **type_params;
	uint32_t ntype_params;
} IrGlobal;

/* A constructor of a `type` definition: `Cons(A, List[A])`. */
typedef struct IrConstructor {
	const char *name;
	Type **fields;
	uint32_t nfields;
	Pos pos;
} IrConstructor;

/* `type NAME[PARAMS] { CTOR, ... }`: immutable, in the data arena, shared
 * by every version of the module. */
typedef struct IrTypeDef {
	const char *name;
	const char **params; /* type variable names */
	uint32_t nparams;
	IrConstructor *ctors;
	uint32_t nctors;
	Pos pos; /* of `type` */
} IrTypeDef;

/* The shared, immutable part of a chain of versions; see the top. */
typedef struct IrData IrData;
/* The #[metadata] section a module was loaded with (metadata.h). */
typedef struct IrMetadata IrMetadata;
struct IrData {
	Arena arena;
	IrData *parent; /* the data of the version this one was cloned from */
	int refcount;   /* versions (and child IrData) that hold it */
};

/* The source spans TVM printed in the comments of a module (`ty=T
 * span=NAME:LINE:COL` in the comment after an expression), as the parser read them: each keyed by the
 * position of the expression it belongs to, so that no node carries a field
 * for them and every version, whose nodes keep their positions, finds
 * them. Immutable, in the data arena of the version parsed, shared by every
 * later one; NULL in a module whose source had none, so that such a module
 * pays nothing. */
typedef struct IrSpan {
	Pos pos;          /* of the expression */
	const char *text; /* what followed `span=`: "/conv1/Conv:0:0" */
} IrSpan;
typedef struct IrSpans {
	const IrSpan *items; /* by position, each position once */
	uint32_t count;
	uint32_t nparsed; /* ids below it are the parser's nodes, the rest a phase's */
} IrSpans;

/* A name a phase removed with the node that carried it: `core` takes out
 * the on_device calls (and the device_copy calls within one device) of
 * its input, as TVM's PlanDevices does, and a name written on one lives
 * on as an alias of the node whose value its uses now read. Placement
 * lists it as a binding and `%name` finds that node. Immutable, in the
 * data arena, shared by every later version. */
typedef struct IrAlias {
	const char *name; /* without '%' */
	uint32_t id;      /* the removed node's id (the analysis knows it) */
	uint32_t target;  /* id of the node its uses read now */
	int16_t device;   /* where the removed node's value was planned */
	Pos pos;          /* of the removed node */
	uint32_t fn;      /* id of the function whose body held the removed
			     node (its parameters' uses may be another's) */
} IrAlias;

typedef struct IrModule {
	Arena nodes;       /* this version's Expr nodes and child arrays only */
	IrData *data;      /* retained; data_arena(m) allocates into it */
	SourceFile *src;   /* retained; positions refer to it */
	IrGlobal *globals; /* in definition order */
	uint32_t nglobals;
	const IrTypeDef *typedefs; /* in definition order, in the data arena */
	uint32_t ntypedefs;
	Expr **free_vars; /* `free_var` declarations and unbound %names */
	uint32_t nfree_vars;
	Expr **constants; /* meta[relay.Constant][i] by index; may hold NULL */
	uint32_t nconstants;
	uint32_t nexprs;            /* ids handed out so far */
	int refcount;               /* versions that share this module (ir_module_retain) */
	bool has_metadata;          /* the source carried a #[metadata] section */
	const IrMetadata *metadata; /* what was kept of it (metadata_keep), in
				       the data arena; NULL without one */
	bool typed;                 /* every expression has a type (after infer) */
	const char *version;        /* the #[version] string, or NULL */
	const IrSpans *spans;       /* the source's span notes, or NULL */
	const IrAlias *aliases;     /* names a phase removed (IrAlias), or NULL */
	uint32_t naliases;
	OomCleanup unfinished; /* freed if memory runs out before
				       ir_module_commit (oom.h); 0 after */
} IrModule;

/* The module owns its arenas; src is retained (it may be NULL). */
IrModule *ir_module_new(SourceFile *src);
/* Where names, attributes, types and constant data of m are allocated. */
Arena *ir_data_arena(IrModule *m);
/* Drops one reference; the last one frees the module. */
void ir_module_free(IrModule *m);
/* A new module is unfinished: if memory runs out during the command that
 * makes it, the command's recovery (oom.h) drops the reference its maker
 * held. Whoever keeps it beyond the command (the session's versions)
 * commits it first. Committing twice is harmless. */
void ir_module_commit(IrModule *m);
/* Another reference to m, for a phase that changed nothing: its output
 * version is its input, shared. Sharing is not a mutation, hence the const. */
IrModule *ir_module_retain(const IrModule *m);
/* A copy of every node in a fresh node arena, keeping sharing, ids,
 * positions and devices. Immutable parts (names, attribute arrays, types,
 * constant data) are shared with m through its retained IrData, so either
 * may be freed first. A pass that changes attributes gives the node a new
 * array rather than editing the shared one. */
IrModule *ir_module_clone(const IrModule *m);
/* Index into m->globals, or -1. */
int32_t ir_find_global(const IrModule *m, const char *name);
/* Index into m->typedefs of the type named name, or -1. */
int32_t ir_find_typedef(const IrModule *m, const char *name);
/* The constructor a construct node or constructor pattern names. */
const IrConstructor *ir_constructor(const IrModule *m, uint32_t adt, uint32_t ctor);
/* Records the aliases of m (copied into its data arena; replaces any it
 * had). */
void ir_set_aliases(IrModule *m, const IrAlias *items, uint32_t n);
/* The expression a user names with `%x` or `x`: the one whose own name is
 * x (a generated name too), the first by id when several share it, else
 * the node an alias of that name stands for, or NULL. Never a global
 * function: `@f` names nothing here. */
const Expr *ir_find_value(const IrModule *m, const char *name);
/* What a command's argument names: `@f` the function of global f, else
 * ir_find_value. Every command, breakpoint and option that takes a name
 * looks it up here, so that all agree on which expression it is. */
const Expr *ir_find_named(const IrModule *m, const char *word);
/* For a word ir_find_named found nothing for: appends `; did you mean
 * '%b'?` naming the values (and, for `@...` or a word without `%`, the
 * global functions) nearest it (util.h, Suggestions), or nothing. */
void ir_suggest_names(const IrModule *m, const char *word, StrBuf *out);

/* The answers of ir_find_named for many names of one module, each in
 * O(log n) after one walk (render --html names every node it draws).
 * The index borrows m, which must outlive it; ir_name_index_free frees
 * it. */
typedef struct IrNameIndex IrNameIndex;
IrNameIndex *ir_name_index_new(const IrModule *m);
const Expr *ir_name_index_find(const IrNameIndex *ix, const char *word);
void ir_name_index_free(IrNameIndex *ix);

/* Node constructors: each allocates in m's arena, gives the node the next id
 * and IR_NO_DEVICE, and copies the arrays it is given. */
Expr *ir_new(IrModule *m, ExprKind kind, Pos pos);
Expr *ir_var(IrModule *m, Pos pos, const char *name, VarRole role, Type *annotation);
Expr *ir_global_ref(IrModule *m, Pos pos, const char *name);
Expr *ir_call_op(IrModule *m, Pos pos, OpKind op, Expr *const *args, uint32_t nargs,
		 const Attr *attrs, uint32_t nattrs);
Expr *ir_call_expr(IrModule *m, Pos pos, Expr *callee, Expr *const *args, uint32_t nargs);
/* Gives call a copy of attrs: an op's, or those TVM keeps on a call of an
 * expression (with `attrs_type_key`, printed back as written). */
void ir_set_call_attrs(IrModule *m, Expr *call, const Attr *attrs, uint32_t nattrs);
/* A call of an operator not in ops.def; `unknown` lives in m's data arena. */
Expr *ir_call_unknown(IrModule *m, Pos pos, const UnknownOp *unknown, Expr *const *args,
		      uint32_t nargs);
/* The operator's name of an op call (OP_UNKNOWN's as written). */
const char *ir_call_op_name(const Expr *call);
/* What e is, in words for a person (`parameter`, `nn.conv2d`, `call @f`,
 * `field 1 of a tuple`, ...): the one wording of tooltips and of the
 * `render --html` panel. */
void ir_describe_kind(StrBuf *out, const Expr *e);
Expr *ir_let(IrModule *m, Pos pos, Expr *var, Expr *value, Expr *body);
Expr *ir_fn(IrModule *m, Pos pos, Expr *const *params, uint32_t nparams, Type *ret_type,
	    Expr *body);
Expr *ir_tuple(IrModule *m, Pos pos, Expr *const *fields, uint32_t nfields);
Expr *ir_proj(IrModule *m, Pos pos, Expr *tuple, uint32_t index);
Expr *ir_if(IrModule *m, Pos pos, Expr *cond, Expr *then_branch, Expr *else_branch);
/* A constructor of m->typedefs[adt] applied to its nargs args. */
Expr *ir_construct(IrModule *m, Pos pos, uint32_t adt, uint32_t ctor, Expr *const *args,
		   uint32_t nargs);
/* Operator op (not OP_NONE or OP_UNKNOWN) used as a value. */
Expr *ir_op_value(IrModule *m, Pos pos, OpKind op);
/* Constructor ctor of m->typedefs[adt] used as a value. */
Expr *ir_constructor_value(IrModule *m, Pos pos, uint32_t adt, uint32_t ctor);
/* clauses are kept (they are immutable, in the data arena); bodies and
 * vars are copied, and each var's u.var.value set to the match. */
Expr *ir_match(IrModule *m, Pos pos, Expr *scrutinee, const MatchClause *clauses,
	       Expr *const *bodies, uint32_t nclauses, Expr *const *vars, uint32_t nvars,
	       bool complete);
/* The clause whose body or variables child i of a match is, or -1 for the
 * scrutinee (and past the last child); the clause whose body child i is,
 * or -1. (A body may be one
 * of the clause's variables: the index tells them apart.) */
int32_t ir_match_clause_of_child(const Expr *match, uint32_t i);
int32_t ir_match_body_of_child(const Expr *match, uint32_t i);
/* A constant whose tensor data is copied into the arena. */
Expr *ir_constant(IrModule *m, Pos pos, const Tensor *value, int32_t meta_index);
/* Appends a global; returns its index. */
uint32_t ir_add_global(IrModule *m, const char *name, Expr *fn, Pos pos);

/* The source span TVM would print for e in m, or NULL: the one read at
 * e's position. A node a phase made follows TVM's constructors: a
 * device_copy or on_device takes the span of the value it wraps (TVM's
 * DeviceCopy and OnDevice copy their argument's), a new variable has none,
 * and any other (a rebuilt projection, a copied constant) the span of the
 * node whose position it took. */
const char *ir_span(const IrModule *m, const Expr *e);

/* Attributes of a call or function. */
const Attr *ir_attr(const Expr *e, const char *name);
/* on_device: the device, and the two flags with TVM's defaults (body
 * constrained, result free). */
void ir_on_device_props(const Expr *call, int32_t *device, bool *constrain_body,
			bool *constrain_result);
/* device_copy: source and destination devices. */
void ir_device_copy_props(const Expr *call, int32_t *src, int32_t *dst);
/* What device_copy `copy` copies: its argument, through the on_device
 * calls around it (a planned module has a fixed one there, TVM's form). */
const Expr *ir_copy_source(const Expr *copy);
bool ir_is_op(const Expr *e, OpKind op);
/* A function TVM marked `Primitive=1` (a fused kernel). */
bool ir_fn_is_primitive(const Expr *fn);

/* The annotations the planner writes, built or rewritten in place. A call
 * rewritten in place keeps its id, name and argument; it gets a new
 * attribute array (never an edit of one a clone shares). */
Expr *ir_device_copy(IrModule *m, Pos pos, Expr *value, int32_t src, int32_t dst);
Expr *ir_on_device(IrModule *m, Pos pos, Expr *value, int32_t device);
void ir_set_device_copy(IrModule *m, Expr *call, int32_t src, int32_t dst);
void ir_set_on_device_fixed(IrModule *m, Expr *call, int32_t device);
/* Turns e, a node of m that is no variable, into on_device(e', device),
 * fixed or not, in place: e' is a copy of e with a new id that keeps e's
 * name (the value's), and e keeps its id and becomes the unnamed
 * annotation, so that every use of e now reads the annotation. */
void ir_wrap_in_on_device(IrModule *m, Expr *e, int32_t device, bool fixed);
/* For a pass that writes many annotations: the attribute array of a fixed
 * on_device on `device` (2 entries) or of a device_copy from src to dst (2
 * entries), immutable, in m's data arena, and a call of op on one value
 * whose attribute array is such a shared one (not copied). */
const Attr *ir_fixed_on_device_attrs(IrModule *m, int32_t device);
const Attr *ir_device_copy_attrs(IrModule *m, int32_t src, int32_t dst);
Expr *ir_call_shared_attrs(IrModule *m, Pos pos, OpKind op, Expr *value, const Attr *attrs,
			   uint32_t nattrs);

/* Children in evaluation order: call (callee, args), let (value, var, body),
 * fn (params, body), tuple fields, proj tuple, if (cond, then, else),
 * construct args, match (scrutinee, then per clause its pattern variables
 * and its body, so that a pattern variable comes before its uses as a
 * parameter does). */
uint32_t ir_child_count(const Expr *e);
Expr *ir_child(const Expr *e, uint32_t i);

/* Where child i (ir_child's numbering) is held, for a pass that redirects
 * a use in a node it owns (a clone's, never a shared one). */
Expr **ir_child_slot(Expr *e, uint32_t i);

/* A growable vector of expression pointers, owned by its holder. */
typedef struct ExprVec {
	Expr **items;
	size_t count;
	size_t cap;
} ExprVec;
void exprvec_push(ExprVec *v, Expr *e);
void exprvec_free(ExprVec *v);

/* ir_module_clone, also appending the clone's nodes to `order` in
 * post-order (free variables, constants, then globals), which saves the
 * caller a traversal. */
IrModule *ir_module_clone_ordered(const IrModule *m, ExprVec *order);
/* Appends m's own nodes to `order` in the order ir_module_clone_ordered
 * lists a clone's. */
void ir_module_list(const IrModule *m, ExprVec *order);

/* Appends to out every node reachable from root, each once, children before
 * parents (post-order), without recursion. With into_functions false, the
 * body and parameters of nested EXPR_FN nodes are not entered (the fn node
 * itself is still listed). `seen` is a caller-provided bitmap of
 * m->nexprs bits (zeroed by the caller), shared across calls to list a
 * whole module once. */
void ir_postorder(const IrModule *m, Expr *root, bool into_functions, uint8_t *seen, ExprVec *out);

/* Calls visit on every node reachable from the module's free variables
 * and globals (metadata constants nothing uses are not visited), each once, in no particular order (depth-first,
 * parents first), without recursion. Stops as soon as visit returns false,
 * and then returns false. */
bool ir_module_visit(const IrModule *m, bool (*visit)(Expr *e, void *arg), void *arg);

/* Every node ir_module_visit visits, by id (NULL where an id is unused).
 * The caller frees the array. */
Expr **ir_index_by_id(const IrModule *m);
/* ir_index_by_id into by_id: m->nexprs entries, all NULL. */
void ir_index_by_id_into(const IrModule *m, Expr **by_id);

/* What a use of e computes: through let variables to their values, lets to
 * their bodies, and on_device and device_copy (which keep the numbers) to
 * what they wrap; e itself when it is none of these. At most 64 steps. */
const Expr *ir_computed_value(const Expr *e);
/* By expression id: the let variable that names each value a let binds
 * (through nested lets to their body, and an unnamed on_device around it),
 * the first one when several do, or
 * NULL. m->nexprs + 1 entries; the caller frees the array. */
const Expr **ir_let_names(const IrModule *m);

/* How a value is named in diagnostics and the inspection commands: %name
 * (a generated one too, as `ir` shows it), or OP@LINE:COL for an unnamed
 * expression. */
void ir_value_name(StrBuf *out, const Expr *e);
/* How placement names a value (SPEC §5.1): the source name, else
 * OP@LINE:COL; a name a phase made up does not count. */
void ir_value_source_name(StrBuf *out, const Expr *e);

#endif
