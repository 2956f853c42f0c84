/*
 * plan.h - device planning: domains, constraints, conflicts and the facts
 * users inspect (SPEC §3).
 *
 * The planner follows TVM's PlanDevices. Every expression has a device
 * domain: a leaf (one device, bound or free) or a function domain
 * fn(D1..Dn):Dr. Constraints generated from the program (an op call puts its
 * arguments and result in one domain, on_device pins its body, ...) are
 * unified in a union-find. `check` runs the analysis in a recording mode to
 * collect every conflict and, under the copy and replicate policies, rewrites
 * the module with explicit device_copy calls; `core` then unifies, defaults
 * and captures the planned module.
 *
 * Ownership: a PlanTrace belongs to the session that passes it in
 * PhaseContext.trace; phases fill it and plan_trace_free releases it. Its
 * analyses refer to expressions by id and retain the module version they
 * analysed, which so outlives the session's own reference.
 */
#ifndef DEVPLAN_PLAN_H
#define DEVPLAN_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "devices.h"
#include "diag.h"
#include "ir.h"
#include "phase.h"

#define PLAN_NONE UINT32_MAX

/* Why two domains were unified or a domain was bound. */
typedef enum ConstraintKind {
	CONSTRAINT_OP_ARG,           /* arg `index` of primitive call `site` */
	CONSTRAINT_ON_DEVICE_BODY,   /* on_device `site` pins its body */
	CONSTRAINT_ON_DEVICE_RESULT, /* fixed on_device `site` pins its result */
	CONSTRAINT_COPY_SOURCE,      /* device_copy `site`: its body is on the source */
	CONSTRAINT_COPY_DEST,        /* device_copy `site`: its result is on the destination */
	CONSTRAINT_CALL_ARG,         /* arg `index` of a function call `site` */
	CONSTRAINT_CALL_RESULT,      /* result of function call `site` */
	CONSTRAINT_CALLEE,           /* the callee of call `site` is a function */
	CONSTRAINT_LET_VAR,          /* let `site` binds its variable to its value */
	CONSTRAINT_LET_BODY,         /* let `site` is its body's value */
	CONSTRAINT_FN_BODY,          /* function `site` returns its body */
	CONSTRAINT_FN_PARAM,         /* parameter `index` of function `site` */
	CONSTRAINT_PRIMITIVE_PARAM,  /* parameter `index` of primitive function `site`
					(Primitive=1) shares its result's domain */
	CONSTRAINT_PARAM_DEVICE,     /* parameter `site` written with a virtual_device */
	CONSTRAINT_FN_DEVICE,        /* function `site` written with a virtual_device */
	CONSTRAINT_TUPLE_FIELD,      /* field `index` of tuple `site` */
	CONSTRAINT_PROJ,             /* projection `site` of a tuple */
	CONSTRAINT_IF_COND,          /* condition of if `site` */
	CONSTRAINT_IF_BRANCH,        /* branch `index` (0 then, 1 else) of if `site` */
	CONSTRAINT_GLOBAL,           /* reference `site` to a global function */
	CONSTRAINT_DEFAULT_RESULT,   /* function `site`'s free result took the fallback */
	CONSTRAINT_DEFAULT_PARAM,    /* function `site`'s free parameter took its result's device */
	CONSTRAINT_DEFAULT_LET,      /* let `site`'s free variable took the let's device */
	CONSTRAINT_DEFAULT_CALL,     /* primitive call `site`'s free domain took the fallback */
	CONSTRAINT_DEFAULT_OTHER,    /* a domain nothing constrained took the fallback */
	CONSTRAINT_DEFAULT_SHARED,   /* the free body of several unconstrained on_devices
				      (`site` one of them) took their results' device */
	CONSTRAINT_MIN_TRANSFER,     /* placement min-transfer chose the device of `site`'s
				      domain to copy fewer bytes */
	CONSTRAINT_FREE_ON_DEVICE,   /* the free result of an on_device `site` that
				      constrains neither side took its body's device,
				      as TVM's FreeOnDeviceDefaulter joins them */
	CONSTRAINT_SCOPE_JOIN,       /* `value`, on a device without a memory scope, meets
				      the same device in a scope across free on_device
				      `site` and takes that scope (TVM's
				      FreeOnDeviceDefaulter joining the two) */
	CONSTRAINT_PIN,              /* `pin %x DEV` put `site` on a device */
	CONSTRAINT_HOST_RESULT,      /* vm.shape_of `site`'s result is on the host */
	CONSTRAINT_HOST_OPERAND,     /* operand `index` of vm.reshape_tensor,
				      memory.alloc_storage or memory.alloc_tensor `site`
				      read on the host (a shape, size, alignment or offset):
				      a domain bound to the host (b == PLAN_NONE),
				      and the operand's use of it (cuttable) */
	CONSTRAINT_ALLOC_DEVICE,     /* memory.alloc_storage `site` allocates on its
				      virtual_device */
	CONSTRAINT_CONSTRUCT_ARG,    /* field `index` of constructor application `site` */
	CONSTRAINT_MATCH_SCRUTINEE,  /* the value match `site` takes apart */
	CONSTRAINT_PATTERN_VAR,      /* pattern variable `value` of match `site`: on the
				      scrutinee's domain as the match reads it */
	CONSTRAINT_MATCH_CLAUSE,     /* the body of clause `index` of match `site` */
	CONSTRAINT_CONFLICT_HOME,    /* check kept conflicting `value` on its home device */
	CONSTRAINT_CONFLICT_MEET,    /* check put `value`, whose inputs come from several
				      devices and whose consumers need none, on a device */
} ConstraintKind;

typedef struct Constraint {
	ConstraintKind kind;
	uint32_t site;  /* expression id of the annotation or consumer */
	uint32_t value; /* expression id of the value involved, or PLAN_NONE */
	uint32_t index; /* argument, field, branch or parameter index */
	uint32_t a, b;  /* domains unified (b == PLAN_NONE: a is bound to device) */
	int32_t device; /* the device a is bound to, when b == PLAN_NONE */
} Constraint;           /* where it comes from: plan_constraint_pos */

/* One domain of the union-find. */
typedef struct Domain {
	uint32_t parent;
	uint32_t size;
	int32_t device;     /* root leaf: bound device, or IR_NO_DEVICE */
	uint32_t bound_by;  /* constraint that bound it, or PLAN_NONE */
	uint32_t nchildren; /* function domain: params + result; 0 for a leaf */
	uint32_t children;  /* offset of the children in the child array */
	/* a leaf that stays one (TVM's first-order domain of a reference):
	 * meeting a function domain collapses onto it rather than take its
	 * shape; kept on the root as leaves unify */
	bool first_order;
} Domain;

/* The union-find over domains with the constraints that shaped it. */
typedef struct PlanAnalysis {
	const IrModule *module; /* the version analysed; retained */
	/* the table whose entries domains are bound to: two bound leaves
	 * unify when devices_join joins them (a device without a memory
	 * scope takes the scope of the same device with one); NULL: only
	 * equal devices unify */
	const DeviceTable *devices;
	Domain *domains;
	size_t ndomains, cap_domains;
	uint32_t *children; /* function domains' children */
	size_t nchildren, cap_children;
	uint32_t *expr_domain; /* by expression id; PLAN_NONE when none */
	uint32_t nexprs;
	Constraint *constraints;
	size_t nconstraints, cap_constraints;
	uint8_t *applied; /* constraint i was unified (1) or refused (0) */
	size_t cap_applied;
	Expr **by_id; /* the analysed module's expressions by id */
	/* plan_constraint_apply's work list and undo log, kept between
	 * calls (one per constraint: allocating them each time was a
	 * quarter of applying); never copied */
	struct UnifyState *unify;
	/* plan_generate_constraints met an on_device that constrains not its
	 * body (a boundary both of whose sides may be free) */
	bool has_loose_boundary;
} PlanAnalysis;

/* What a refused unification would have joined. */
typedef struct PlanClash {
	int32_t devices[2];
	uint32_t causes[2]; /* the constraints that bound each side */
} PlanClash;

typedef enum PlanEventKind {
	EVENT_UNIFY,    /* analyze: a constraint was applied */
	EVENT_CONFLICT, /* analyze: a constraint joined two different devices */
	EVENT_DEFAULT,  /* default: a free domain took a device */
	EVENT_COPY,     /* capture: a device_copy was inserted */
	EVENT_ANNOTATE, /* capture: an on_device was fixed or removed */
} PlanEventKind;

/* One solver event, for stepi, breakpoints and watches. */
typedef struct PlanEvent {
	PlanEventKind kind;
	uint32_t constraint; /* for unify, conflict and default */
	uint32_t expr;       /* the expression the event is about: for copy
				and annotate, the device_copy or on_device made */
	int32_t device;      /* the device involved, or IR_NO_DEVICE */
	uint32_t value;      /* copy, annotate: the value wrapped */
	uint32_t site;       /* copy, annotate: the use it was made for */
} PlanEvent;

/* One device a conflicting value is needed on, and what put it there. */
typedef struct PlanDemand {
	int32_t device;
	Pos source;        /* the annotation behind it; line 0 when none */
	char *source_text; /* a description of that annotation (owned) */
} PlanDemand;

/* Uses of a conflicting value described in its PlanConflict; the others
 * are counted. */
enum { PLAN_CONFLICT_USES_SHOWN = 8 };

/* A value demanded on two or more devices. */
typedef struct PlanConflict {
	uint32_t value;       /* expression id in the analysed module */
	char *value_name;     /* %b, or OP@LINE:COL (owned) */
	int32_t devices[2];   /* the home device and the lowest-numbered other */
	Pos sources[2];       /* the annotations that forced them */
	char *source_text[2]; /* descriptions of those annotations (owned) */
	PlanDemand *demands;  /* every device it is needed on, ascending (owned) */
	size_t ndemands;
	/* the uses that joined them, each described with its device and why
	 * (the first PLAN_CONFLICT_USES_SHOWN; owned), or for two annotations
	 * pinning one value the constraint that joined them (one) */
	char **uses;
	size_t nuses;
	size_t uses_left_out;    /* uses past those described */
	int32_t home;            /* home under copy/replicate; IR_NO_DEVICE when the
				 conflict cannot be resolved by a copy */
	const char *home_reason; /* which rule of SPEC §3.2 chose devices[0] (static) */
	uint32_t *consumers;     /* ids of the uses read through a copy */
	int32_t *consumer_devices;
	size_t nconsumers;
	/* policy tvm: the use whose visit placed the value first, which TVM's
	 * order of the text makes its home (PLAN_NONE otherwise) */
	uint32_t first_use;
} PlanConflict;

/* min-transfer (plan_transfer.c): the free domains at on_device boundaries,
 * the device each should take to copy the fewest bytes, and an on_device
 * beside each. Returns how many; the caller frees the three arrays. */
size_t plan_min_transfer_choose(PlanAnalysis *an, uint32_t ndevices, int32_t fallback,
				uint32_t **domains, int32_t **devices, uint32_t **sites);
/* Bytes crossing on_device boundaries under the current bindings. */
int64_t plan_boundary_bytes(PlanAnalysis *an);

/* Copies an analysis (all arrays), e.g. to try a different defaulting. */
void plan_analysis_copy(PlanAnalysis *dst, const PlanAnalysis *src);

/* The devices a conflicting value is needed on: `cpu:0 and cuda:0`,
 * `cpu:0, cuda:0 and cuda:1`. */
void plan_conflict_devices(StrBuf *out, const PlanConflict *c, const DeviceTable *devices);

/* Frees what a conflict owns (not the record itself). */
void plan_conflict_free_fields(PlanConflict *c);

typedef struct PlanTrace {
	PlanConflict *conflicts;
	size_t nconflicts, cap_conflicts;
	PlanAnalysis *check;   /* check's analysis, on check's input; dropped
				 once core has run, to keep memory flat */
	uint32_t check_nexprs; /* ids at or above it were made by check */
	/* ids in [from, to) were made by rewrite for `pin --body`: the
	 * bodies of its on_device wrappers (each wrapper keeps the id of the
	 * value it wraps) */
	uint32_t pin_wrappers_from, pin_wrappers_to;
	PlanAnalysis *core; /* core's analysis, on core's input */
	PlanEvent *events;  /* core's events in order */
	size_t nevents, cap_events;
	size_t analyze_end; /* events [0, analyze_end) are analyze's, */
	size_t default_end; /* [analyze_end, default_end) default's, the rest capture's */
} PlanTrace;

/* Explains why an expression has its device: the chain of constraints from
 * it to the annotation, pin, fallback or rule that bound its domain, and
 * which of those it is (plan_facts.c). trace (NULL for none) tells the
 * copies check inserted, which only restate its resolution of a conflict,
 * and that resolution when a chain can end nowhere else. */
void plan_explain(StrBuf *out, PlanAnalysis *an, const Expr *e, const DeviceTable *devices,
		  const PlanTrace *trace);
/* plan_explain for many expressions of one analysis (render --html
 * explains every node it draws): the graph of its domains is built once,
 * not per expression. The explainer borrows an, which must not change
 * while it lives; plan_explainer_free frees it. */
typedef struct PlanExplainer PlanExplainer;
PlanExplainer *plan_explainer_new(PlanAnalysis *an);
void plan_explainer_explain(PlanExplainer *x, StrBuf *out, const Expr *e,
			    const DeviceTable *devices, const PlanTrace *trace);
void plan_explainer_free(PlanExplainer *x);

PlanTrace *plan_trace_new(void);
/* Appends an event (nothing when t is NULL). */
void plan_trace_add_event(PlanTrace *t, const PlanEvent *ev);
void plan_trace_clear(PlanTrace *trace);
void plan_trace_free(PlanTrace *trace);

/* Domains (plan_domains.c). devices (borrowed; it must outlive the
 * analysis) is PlanAnalysis.devices. */
void plan_analysis_init(PlanAnalysis *an, const IrModule *m, const DeviceTable *devices);
/* plan_analysis_init reusing the arrays of an analysis no longer wanted
 * (spare, which is freed; NULL for none). */
void plan_analysis_init_reusing(PlanAnalysis *an, const IrModule *m, const DeviceTable *devices,
				PlanAnalysis *spare);
void plan_analysis_free(PlanAnalysis *an);
uint32_t plan_domain_new(PlanAnalysis *an);
uint32_t plan_domain_find(PlanAnalysis *an, uint32_t d);
/* The domain of an expression, created free on first use. Inline, like
 * plan_constraint_add: both run once per node for every analysis. */
static inline uint32_t plan_domain_of(PlanAnalysis *an, const Expr *e)
{
	DP_ASSERT(e->id < an->nexprs);
	if (an->expr_domain[e->id] == PLAN_NONE)
		an->expr_domain[e->id] = plan_domain_new(an);
	return an->expr_domain[e->id];
}
/* Makes d (free, or already a function domain of that arity) a function
 * domain with nparams parameters; returns its root. */
uint32_t plan_domain_as_function(PlanAnalysis *an, uint32_t d, uint32_t nparams);
/* Marks d's root, a leaf, first-order (Domain.first_order): from then on
 * it is unified with every part of a function domain it meets, as TVM's
 * UnifyExprCollapsed does for the references. */
void plan_domain_set_first_order(PlanAnalysis *an, uint32_t d);
/* The result leaf of a domain (itself for a leaf). */
uint32_t plan_domain_result(PlanAnalysis *an, uint32_t d);
/* The device of a domain's result, or IR_NO_DEVICE when free. */
int32_t plan_domain_device(PlanAnalysis *an, uint32_t d);
bool plan_domain_fully_bound(PlanAnalysis *an, uint32_t d);

/* Where constraint i comes from: its site, else its value. */
Pos plan_constraint_pos(const PlanAnalysis *an, uint32_t i);
/* Appends a constraint and returns its index. */
static inline uint32_t plan_constraint_add(PlanAnalysis *an, const Constraint *c)
{
	grow_array((void **)&an->constraints, &an->cap_constraints, an->nconstraints + 1,
		   sizeof(Constraint));
	grow_array((void **)&an->applied, &an->cap_applied, an->nconstraints + 1, 1);
	an->constraints[an->nconstraints] = *c;
	an->applied[an->nconstraints] = 0;
	return (uint32_t)an->nconstraints++;
}
/* Applies constraint i. On success returns true. When it would join two
 * devices that do not join (devices_join: two devices, or two memory
 * scopes of one) it changes nothing, returns false and fills *clash. Two
 * that join bind the class to their join, and the constraint that bound
 * the joined device stays its cause. */
bool plan_constraint_apply(PlanAnalysis *an, uint32_t i, PlanClash *clash);
/* Bound device of the domain of e (result device for functions). */
int32_t plan_expr_device(PlanAnalysis *an, const Expr *e);
/* Describes constraint i in one line ("on_device at 5:8 pins %0 to cpu:0"). */
void plan_constraint_describe(StrBuf *out, PlanAnalysis *an, uint32_t i,
			      const DeviceTable *devices);

/* Generates the constraints of the whole module (plan_constraints.c), then
 * one bind per expression a what-if pin names; `cuttable`, when not NULL, gets one
 * flag per constraint: a use of a value where a device_copy could be put. */
/* By id (nexprs entries; count nodes, NULL entries allowed): 1 for a tuple
 * used only as the arguments of call_lowered, whose fields each meet their
 * parameter alone (no tuple to collapse); NULL when there is none. The
 * caller frees it. */
uint8_t *plan_lowered_argument_tuples(Expr *const *nodes, size_t count, uint32_t nexprs);
void plan_generate_constraints(PlanAnalysis *an, const PlanPin *pins, size_t npins, int32_t host,
			       uint8_t **cuttable);
/* The host device TVM keeps shapes on (vm.shape_of's result,
 * vm.reshape_tensor's shape): the table's cpu:0, or IR_NO_DEVICE when the
 * table has none (then those stay free). */
int32_t plan_host_device(const DeviceTable *devices);
/* The device operand i of primitive op call e is on once planned, by
 * TVM's rules: e's own device for an ordinary op, the host for
 * vm.reshape_tensor's shape, IR_NO_DEVICE (any) for vm.shape_of's tensor
 * and vm.invoke_tvm_op's function. */
int32_t plan_op_operand_device(const Expr *e, uint32_t i, int32_t host);

/* By expression id (nexprs entries; count nodes, NULL entries allowed):
 * 1 inside the body of a Primitive=1 function, which TVM's PlanDevices
 * does not look into; NULL when there is none. The caller frees it. */
uint8_t *plan_primitive_bodies(Expr *const *nodes, size_t count, uint32_t nexprs);

/* core's capture (plan_capture.c): the analysed module `in` written with
 * every device, in TVM's form; events go to ctx->trace. NULL when
 * interrupted. */
IrModule *plan_capture(PlanAnalysis *an, const IrModule *in, PhaseContext *ctx);

/* One line describing event i of the trace (plan_core.c). */
void plan_event_describe(StrBuf *out, const PlanTrace *trace, size_t i, const DeviceTable *devices);

/* The functions of a module (plan_functions.c): each global in definition
 * order, followed by the closures inside it, breadth-first, each listed
 * under its innermost function. Placement, regions, copies and render all
 * walk and name functions through it. */
typedef struct PlanFunction {
	Expr *fn;       /* its EXPR_FN */
	int32_t global; /* index into the module's globals, or -1 for a closure */
	char *name;     /* @global; a closure's %name, or the %var of the let that
			   binds it, or fn@LINE:COL (owned) */
	size_t body;    /* its body in execution order (post-order, not entering
			   closures, parameters left out):
			   order.items[body, body + nbody) */
	size_t nbody;
} PlanFunction;

typedef struct PlanFunctions {
	const IrModule *module;
	PlanFunction *items;
	size_t count, cap;
	ExprVec order; /* the bodies, one after another */
	uint32_t *of;  /* by expression id: the function a parameter or body node
			  belongs to (index into items), or PLAN_NONE */
} PlanFunctions;

void plan_functions(const IrModule *m, PlanFunctions *out);
void plan_functions_free(PlanFunctions *f);

/*
 * Device regions (plan_regions.c), what `regions` lists and `render
 * --regions` draws. Within one function, in execution order, a region is
 * a maximal run of calls (operators and function calls, not on_device or
 * device_copy) on one device: only a call on another device ends it; a
 * device_copy never does. Each copy is listed at a region boundary. One
 * between two regions (or before the first, after the last) stays where it
 * is. One between two calls of a region is listed just before that region
 * when its destination is the region's device (it brings data in: its
 * source ran before the region, since every call inside is on that
 * device), else just after it (its consumers run after the region).
 */
typedef struct PlanRegion {
	int32_t device;        /* where its calls run; IR_NO_DEVICE before core */
	const uint32_t *calls; /* ids of its calls, in execution order */
	size_t ncalls;
	const uint32_t *before; /* ids of the device_copy calls listed before it */
	size_t nbefore;
	const uint32_t *after; /* ... and after it */
	size_t nafter;
} PlanRegion;

typedef struct PlanFunctionRegions {
	const PlanFunction *function;
	const PlanRegion *regions; /* in execution order */
	size_t count;
	const uint32_t *trailing; /* copies after the last region; all of the
				     function's copies when it has no region */
	size_t ntrailing;
} PlanFunctionRegions;

/* Ownership: a PlanRegions owns its arrays and borrows the PlanFunctions it
 * was made from, which must outlive it. */
typedef struct PlanRegions {
	PlanFunctionRegions *functions; /* one per function, in its order */
	size_t count;
	PlanRegion *regions; /* storage behind functions[i].regions */
	uint32_t *ids;       /* storage behind the id lists */
} PlanRegions;

/* The regions of every function; device_of (by expression id, NULL for
 * each expression's own device) gives the devices to group by, e.g. those
 * a core in progress has bound so far. */
void plan_regions(const PlanFunctions *functions, const int32_t *device_of, PlanRegions *out);
void plan_regions_free(PlanRegions *r);

/* Placement facts of a planned module (SPEC §5.1). */
typedef enum FactKind { FACT_PARAM, FACT_BIND, FACT_RESULT, FACT_COPY } FactKind;

typedef struct PlacementFact {
	FactKind kind;
	const char *function; /* @f, %closure or fn@LINE:COL (owned by the Placement) */
	char *value;          /* %name or OP@LINE:COL (owned); NULL for a result */
	int32_t device;       /* where it lives; the source for a copy */
	int32_t dest;         /* copy: the destination */
	int64_t bytes;        /* copy: bytes moved, -1 when unknown */
	uint32_t expr;        /* the expression (the device_copy for a copy) */
	uint32_t value_expr;  /* copy: the copied value */
} PlacementFact;

typedef struct Placement {
	PlacementFact *facts;
	size_t count, cap;
	char **function_names;
	size_t nfunctions, cap_functions;
} Placement;

/* Collects the facts of a planned module, functions in definition order. */
void plan_placement(const IrModule *m, Placement *out);
void plan_placement_free(Placement *p);
/* The SPEC §5.1 lines, or one JSON document. */
void plan_placement_format(StrBuf *out, const Placement *p, const DeviceTable *devices, bool json);
/* One fact's line, without its newline (`@main copy %b cpu:0 -> cuda:0 140`). */
void plan_fact_format(StrBuf *out, const PlacementFact *f, const DeviceTable *devices);
/* Reads back what plan_placement_format wrote as JSON (`placement --json`;
 * text NUL-terminated, len bytes) into out: each device name is looked up in devices, and added to it when
 * missing (so two files index one table); a copy without bytes (null)
 * gets -1. False with *err set (the caller frees it) when text is not such
 * a document; out is then empty. Free out with plan_placement_free. */
bool plan_placement_read_json(const char *text, size_t len, Placement *out, DeviceTable *devices,
			      char **err);
/* param, bind, result or copy. */
const char *plan_fact_kind_name(FactKind kind);

/* How a placement fact changed from one plan to another (plan_diff.c). */
typedef enum PlacementChangeKind {
	PLACEMENT_MOVED,   /* a param, bind or result now on another device */
	PLACEMENT_ADDED,   /* a fact only the second plan has */
	PLACEMENT_REMOVED, /* a fact only the first plan has */
} PlacementChangeKind;

typedef struct PlacementChange {
	PlacementChangeKind kind;
	const PlacementFact *before; /* the first plan's fact; NULL when added */
	const PlacementFact *after;  /* the second plan's fact; NULL when removed */
	size_t order;                /* its place in the program (plan_diff.c) */
} PlacementChange;

typedef struct PlacementDiff {
	PlacementChange *changes; /* in program order */
	size_t count;
	size_t copies[2]; /* copy facts of the first plan and of the second */
	int64_t bytes[2]; /* the bytes those copy (an unknown size counts 0) */
} PlacementDiff;

/* Compares two plans' facts (before NULL: no plan, no facts). A param,
 * bind or result is one fact in both when its function, kind and value
 * match, and moved when its device differs; a copy is one fact in both
 * only when all of it matches (value, devices and bytes), else it was
 * removed and another added. Changes are in program order. The changes
 * point into both placements, which must outlive the diff. */
void plan_placement_diff(const Placement *before, const Placement *after,
			 const DeviceTable *devices, PlacementDiff *out);
void plan_placement_diff_free(PlacementDiff *d);
/* Checks that every node has a device and every cross-device edge goes
 * through a device_copy; reports each violation with its position. */
bool plan_verify(const IrModule *m, const DeviceTable *devices, DiagList *diags);

/* Whether any expression of m (functions aside) has a `?` dimension. */
bool plan_has_unknown_dims(const IrModule *m);
/* The value of expression e of m (a shape argument of a dyn.* call, typed,
 * in @main), computed for the inputs of one run by whoever has them
 * (core/session/run.c, with the executor: core/plan may not call it).
 * PLAN_VALUE_KNOWN with *out, its shape and data allocated in arena (the
 * specializer's, freed when it returns);
 * PLAN_VALUE_UNKNOWN with *why (malloc'd, the specializer frees it) when
 * the value cannot be computed before running; PLAN_VALUE_FAILED after
 * reporting an error into diags. */
typedef enum PlanValueStatus {
	PLAN_VALUE_KNOWN,
	PLAN_VALUE_UNKNOWN,
	PLAN_VALUE_FAILED,
} PlanValueStatus;
typedef PlanValueStatus (*PlanValueFn)(void *ctx, const IrModule *m, const Expr *e, Arena *arena,
				       Tensor *out, char **why, DiagList *diags);

typedef struct SpecializeOptions {
	const Type *const *input_types; /* @main's inputs as exec_params lists them: its
					   parameters, then the free variables (NULL: as
					   declared) */
	size_t ninputs;
	PlanValueFn value; /* NULL: no value is known, only shapes */
	void *value_ctx;
} SpecializeOptions;

/* A clone of the typed module m in which @main's inputs have the given
 * tensor types, inferred again with every dyn.* call whose shape
 * arguments opts->value computes made static (plan_specialize.c says how);
 * NULL after reporting a type error, an error of the callback, or a dyn.*
 * call whose shapes stay unknown. The caller frees the clone. */
IrModule *plan_specialize(const IrModule *m, const SpecializeOptions *opts, DiagList *diags);

/* The numbers no node of a module is named, lowest first (plan_names.c):
 * names for the nodes a phase adds (check's copies), which the printer
 * would show as the lowest free %N anyway; naming them so in the IR lets
 * the user type what `ir` shows (`break %4`, `why %4`). */
typedef struct PlanFreshNumbers {
	uint8_t *taken; /* by number, below limit */
	uint32_t limit;
	uint32_t next;
} PlanFreshNumbers;
/* For at most `count` names, given the nodes of the module (all). */
void plan_fresh_numbers_init(PlanFreshNumbers *f, const ExprVec *all, uint32_t count);
/* The next one, in m's data arena. */
const char *plan_fresh_number(PlanFreshNumbers *f, IrModule *m);
void plan_fresh_numbers_free(PlanFreshNumbers *f);

/* TVM v0.14's conflict check, visit order included (plan_tvm.c), which
 * `set policy tvm` plans with. */
typedef struct PlanTvmClash {
	uint32_t value; /* a conflicted operand's id */
	uint32_t site;  /* the call whose use of it clashed */
	int32_t device; /* where that call needs it */
} PlanTvmClash;

typedef struct PlanTvm {
	uint32_t nexprs;
	int16_t *device;     /* by id: the device the walk gave it, or IR_NO_DEVICE */
	uint32_t *first;     /* by id: the call whose visit gave it that device
				first (itself for a call's own), or PLAN_NONE */
	uint8_t *conflicted; /* by id: an operand two calls need on two devices */
	size_t nconflicted;
	PlanTvmClash *clashes; /* every use that clashed, in the walk's order */
	size_t nclashes, cap_clashes;
} PlanTvm;

/* The walk of ConflictedNodeFinder over m, what-if pins read as
 * annotations met first. False after reporting the error TVM stops with,
 * or an interrupt. Free t with plan_tvm_free either way. */
bool plan_tvm_find(const IrModule *m, PlanTvm *t, const PlanPin *pins, size_t npins,
		   const DeviceTable *devices, DiagList *diags);
void plan_tvm_free(PlanTvm *t);
/* ConflictedNodeRewriter: a clone of in with a device_copy at each use of
 * a conflicted operand, or NULL after reporting where TVM would fail. */
IrModule *plan_tvm_rewrite(const IrModule *in, const PlanTvm *t, DiagList *diags);

/* What-if pins (plan_pins.c). Whether pin names e: by its name, or e is
 * a call of an operator (not an annotation) one of its globs matches. */
bool plan_pin_matches(const PlanPin *pin, const Expr *e);
/* Whether operator name `op` matches one of the comma-separated globs. */
bool plan_op_globs_match(const char *globs, const char *op);
/* `pin`'s arguments that make pin: `[--body] %x DEV` or `[--body] --op
 * OPS DEV`. */
void plan_pin_format(StrBuf *out, const PlanPin *pin, const DeviceTable *devices);

/* The phases (plan_rewrite.c, plan_check.c, plan_core.c). */
IrModule *plan_rewrite_phase(const IrModule *in, PhaseContext *ctx);
IrModule *plan_check_phase(const IrModule *in, PhaseContext *ctx);
IrModule *plan_core_phase(const IrModule *in, PhaseContext *ctx);

#endif
