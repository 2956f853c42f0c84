/*
 * exec_run.c - the interpreter of a planned @main.
 *
 * Layout first: every function of the module (globals and closures) gets a
 * FnInfo, and every expression belongs to exactly one function, the
 * outermost whose body reaches it (a closure's body may read values of the
 * function around it). Each node has a slot in its function's frame; a
 * call of a function makes a new frame, binds the parameters' slots and
 * evaluates the body in it, so the same body runs once per call and the
 * DAG's shared bindings run once per frame.
 *
 * Evaluation is iterative (an explicit work stack, never C recursion), in
 * post-order but lazy where it must be: an `if` evaluates its condition and
 * then one branch, a let binds its variable before its body, a call of a
 * closure evaluates its arguments and then the callee's body. Calls nest at
 * most max_depth deep, so unbounded recursion is an error, not a hang.
 *
 * Values (tensors in some device's memory, tuples, closures) are reference
 * counted, and each slot counts the uses its node has left in its function:
 * when the last consumer has run, the slot lets go and the buffer is freed,
 * so a model's memory stays near its widest layer rather than its sum.
 * Slots read from inside a closure are kept for the frame's life. Frames
 * are counted too (the running call and the closures made in it); a frame
 * kept alive only by a closure it holds itself is released by the sweep at
 * the end of the run.
 *
 * Before anything is allocated, every tensor the run can create is checked:
 * a static shape, an element count that does not overflow, and a size
 * within the memory limit. A module with `?` dimensions comes here made
 * static for its inputs' shapes (plan_specialize, called by the commands:
 * the shape rules live in core/plan/, which this layer may not call), so
 * the interpreter itself only ever sees static shapes. The values that
 * specialisation needs (a dyn.* call's shape arguments) are computed here
 * too, by exec_evaluate: the same interpreter, on the cpu, run only on what
 * one expression of @main depends on, with a limit on the size of each
 * value it computes. Every kernel launch then checks that its
 * operands live in its device's memory, naming the op, its position and
 * both devices when one does not (a device_copy is missing).
 */
#include "exec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exec_clock.h"
#include "interrupt.h"
#include "ops.h"

typedef struct Frame Frame;

typedef enum ValueKind {
	VALUE_TENSOR,  /* u.tensor */
	VALUE_TUPLE,   /* u.tuple */
	VALUE_CLOSURE, /* u.closure */
} ValueKind;

typedef struct Value Value;
struct Value {
	ValueKind kind;
	uint32_t refs;
	union {
		struct {
			ExecDevice *device; /* whose memory holds data */
			void *data;
			size_t nbytes;
			DType dtype;
			uint32_t ndim;
			const int64_t *shape; /* borrowed from the module */
			bool borrowed;        /* data is the caller's input array:
					  never written, never freed */
		} tensor;
		struct {
			uint32_t n;
			Value **items;
		} tuple;
		struct {
			const Expr *fn;
			Frame *env; /* the frame it was made in; NULL for a global */
		} closure;
	} u;
};

/* Uses of a slot that is never released before its frame ends. */
#define USES_KEEP UINT32_MAX

typedef struct FnInfo {
	const Expr *fn;
	uint32_t nslots;
	uint32_t *init_uses; /* per slot */
} FnInfo;

struct Frame {
	const FnInfo *info;
	Frame *parent;
	Value **slots;
	uint32_t *uses_left;
	uint32_t refs;
	Frame *prev, *next; /* every frame of the run, for the final sweep */
};

/* How far the evaluation of a scheduled expression has gone. What it reads
 * first is a call's callee and arguments, a let's value, a tuple's fields,
 * a projection's tuple or an if's condition. */
typedef enum WorkState {
	WORK_NEW,    /* nothing done: schedule what it reads first */
	WORK_INPUTS, /* what it reads first is done */
	WORK_BODY,   /* a called closure's body, or a let's body, is done */
	WORK_THEN,   /* an if's then branch is done */
	WORK_ELSE,   /* an if's else branch is done */
} WorkState;

typedef struct Work {
	const Expr *e;
	Frame *frame; /* e's own frame */
	WorkState state;
	Frame *callee; /* a call in progress (WORK_BODY) */
} Work;

typedef struct Run {
	const IrModule *m;
	const DeviceTable *table;
	ExecRuntime *rt;
	const ExecOptions *opts;
	DiagList *diags;
	ExecProfile *profile;
	FnInfo *fns;
	size_t nfns;
	int32_t *owner;   /* by expression id: index into fns, or -1 */
	int32_t *fn_info; /* by id of an EXPR_FN: its index into fns, or -1 */
	uint32_t *slot;   /* by expression id */
	Value **fixed;    /* by expression id: constants and free variables */
	Frame live;       /* sentinel of the list of frames */
	bool sweeping;
	uint32_t depth;
	uint64_t limit;
	bool fault_done;    /* the kernel fault was injected */
	uint64_t observed;  /* values handed to the observer so far */
	OomCleanup cleanup; /* run_abandon while the run is in progress */
} Run;

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *op_name(const Expr *e)
{
	return ir_call_op_name(e);
}

static const char *device_name(Run *run, const ExecDevice *dev)
{
	(void)run;
	return dev->name;
}

/* ---- values and frames ---------------------------------------------------- */

static void frame_release(Run *run, Frame *f);

static Value *value_new(ValueKind kind)
{
	Value *v = xcalloc(1, sizeof *v);
	v->kind = kind;
	v->refs = 1;
	return v;
}

static Value *value_ref(Value *v)
{
	v->refs++;
	return v;
}

static void value_release(Run *run, Value *v)
{
	if (!v || --v->refs)
		return;
	switch (v->kind) {
	case VALUE_TENSOR:
		if (v->u.tensor.borrowed)
			exec_unborrow(v->u.tensor.device, v->u.tensor.data, v->u.tensor.nbytes);
		else
			exec_free(v->u.tensor.device, v->u.tensor.data, v->u.tensor.nbytes);
		break;
	case VALUE_TUPLE:
		for (uint32_t i = 0; i < v->u.tuple.n; i++)
			value_release(run, v->u.tuple.items[i]);
		free(v->u.tuple.items);
		break;
	case VALUE_CLOSURE:
		if (v->u.closure.env)
			frame_release(run, v->u.closure.env);
		break;
	}
	free(v);
}

static Frame *frame_new(Run *run, const FnInfo *info, Frame *parent)
{
	Frame *f = xcalloc(1, sizeof *f);
	f->info = info;
	f->parent = parent;
	if (parent)
		parent->refs++;
	f->slots = xcalloc(info->nslots ? info->nslots : 1, sizeof(Value *));
	f->uses_left = xmalloc((info->nslots ? info->nslots : 1) * sizeof(uint32_t));
	if (info->nslots)
		memcpy(f->uses_left, info->init_uses, info->nslots * sizeof(uint32_t));
	f->refs = 1;
	f->next = run->live.next;
	f->prev = &run->live;
	run->live.next->prev = f;
	run->live.next = f;
	return f;
}

static void frame_clear(Run *run, Frame *f, bool keep_captured)
{
	for (uint32_t i = 0; i < f->info->nslots; i++) {
		if (keep_captured && f->info->init_uses[i] == USES_KEEP)
			continue;
		if (f->slots[i]) {
			Value *v = f->slots[i];
			f->slots[i] = NULL;
			value_release(run, v);
		}
	}
}

static void frame_destroy(Frame *f)
{
	f->prev->next = f->next;
	f->next->prev = f->prev;
	free(f->slots);
	free(f->uses_left);
	free(f);
}

static void frame_release(Run *run, Frame *f)
{
	Frame *parent;
	if (--f->refs || run->sweeping)
		return;
	frame_clear(run, f, false);
	parent = f->parent;
	frame_destroy(f);
	if (parent)
		frame_release(run, parent);
}

/* A call has returned: what only the call needed goes now. */
static void frame_return(Run *run, Frame *f)
{
	frame_clear(run, f, true);
	frame_release(run, f);
}

/* Frees every frame still alive (cycles through closures included). */
static void frames_sweep(Run *run)
{
	run->sweeping = true;
	for (Frame *f = run->live.next; f != &run->live; f = f->next)
		frame_clear(run, f, false);
	while (run->live.next != &run->live)
		frame_destroy(run->live.next);
	run->sweeping = false;
}

/* The frame that holds e's slot, seen from frame `from`. */
static Frame *frame_for(Run *run, Frame *from, const Expr *e)
{
	int32_t o = run->owner[e->id];
	if (o < 0)
		return NULL;
	for (Frame *f = from; f; f = f->parent)
		if (f->info == &run->fns[o])
			return f;
	return NULL;
}

static Value **slot_of(Run *run, Frame *f, const Expr *e)
{
	return &f->slots[run->slot[e->id]];
}

/* The value of e as seen from `from` (NULL when not computed yet). */
static Value *lookup(Run *run, Frame *from, const Expr *e)
{
	Frame *f;
	if (run->fixed[e->id])
		return run->fixed[e->id];
	f = frame_for(run, from, e);
	return f ? *slot_of(run, f, e) : NULL;
}

/* One use of e (read from `from`) has run. */
static void use_done(Run *run, Frame *from, const Expr *e)
{
	Frame *f;
	uint32_t s;
	if (run->fixed[e->id] || !(f = frame_for(run, from, e)))
		return;
	s = run->slot[e->id];
	if (f->uses_left[s] == USES_KEEP || f->uses_left[s] == 0)
		return;
	if (--f->uses_left[s] == 0 && f->slots[s]) {
		Value *v = f->slots[s];
		f->slots[s] = NULL;
		value_release(run, v);
	}
}

/* ---- layout ---------------------------------------------------------------- */

/* Children whose values an expression reads (not a let's variable, not a
 * closure's body). */
static uint32_t used_children(const Expr *e, const Expr **out, uint32_t cap)
{
	uint32_t n = 0;
#define USE(c)                        \
	do {                          \
		if (n < cap)          \
			out[n] = (c); \
		n++;                  \
	} while (0)
	switch (e->kind) {
	case EXPR_VAR:
	case EXPR_GLOBAL:
	case EXPR_OP_VALUE:
	case EXPR_CONSTANT:
	case EXPR_FN:
		break;
	case EXPR_CALL:
		if (e->u.call.op == OP_NONE)
			USE(e->u.call.callee);
		for (uint32_t i = 0; i < e->u.call.nargs; i++)
			USE(e->u.call.args[i]);
		break;
	case EXPR_LET:
		USE(e->u.let.value);
		USE(e->u.let.body);
		break;
	case EXPR_TUPLE:
		for (uint32_t i = 0; i < e->u.tuple.nfields; i++)
			USE(e->u.tuple.fields[i]);
		break;
	case EXPR_PROJ:
		USE(e->u.proj.tuple);
		break;
	case EXPR_IF:
		USE(e->u.if_.cond);
		USE(e->u.if_.then_branch);
		USE(e->u.if_.else_branch);
		break;
	case EXPR_CONSTRUCT:
		for (uint32_t i = 0; i < e->u.construct.nargs; i++)
			USE(e->u.construct.args[i]);
		break;
	case EXPR_MATCH: /* never run: check_kernels refuses it */
		USE(e->u.match.scrutinee);
		for (uint32_t i = 0; i < e->u.match.nclauses; i++)
			USE(e->u.match.bodies[i]);
		break;
	}
#undef USE
	return n;
}

static void layout_build(Run *run)
{
	const IrModule *m = run->m;
	uint32_t nexprs = m->nexprs;
	uint8_t *seen = xcalloc(nexprs / 8 + 1, 1);
	uint8_t *keep = xcalloc(nexprs / 8 + 1, 1);
	const Expr **queue = NULL;
	size_t nqueue = 0, cap_queue = 0;
	const Expr **children = NULL;
	uint32_t cap_children = 0;
	size_t cap_fns = 0;
	run->owner = xmalloc((nexprs ? nexprs : 1) * sizeof(int32_t));
	run->fn_info = xmalloc((nexprs ? nexprs : 1) * sizeof(int32_t));
	run->slot = xcalloc(nexprs ? nexprs : 1, sizeof(uint32_t));
	for (uint32_t i = 0; i < nexprs; i++)
		run->owner[i] = run->fn_info[i] = -1;
	for (uint32_t g = 0; g < m->nglobals; g++) {
		grow_array((void **)&queue, &cap_queue, nqueue + 1, sizeof(Expr *));
		queue[nqueue++] = m->globals[g].fn;
	}
	for (size_t q = 0; q < nqueue; q++) {
		const Expr *fn = queue[q];
		FnInfo *info;
		ExprVec list = {0};
		uint32_t nslots = 0;
		grow_array((void **)&run->fns, &cap_fns, q + 1, sizeof(FnInfo));
		info = &run->fns[q];
		memset(info, 0, sizeof *info);
		info->fn = fn;
		run->nfns = q + 1;
		run->fn_info[fn->id] = (int32_t)q;
		seen[fn->id / 8] |= (uint8_t)(1u << (fn->id % 8));
		for (uint32_t i = 0; i < fn->u.fn.nparams; i++) {
			const Expr *p = fn->u.fn.params[i];
			seen[p->id / 8] |= (uint8_t)(1u << (p->id % 8));
			run->owner[p->id] = (int32_t)q;
			run->slot[p->id] = nslots++;
		}
		ir_postorder(m, fn->u.fn.body, false, seen, &list);
		for (size_t i = 0; i < list.count; i++) {
			Expr *e = list.items[i];
			run->owner[e->id] = (int32_t)q;
			run->slot[e->id] = nslots++;
			if (e->kind == EXPR_FN) {
				grow_array((void **)&queue, &cap_queue, nqueue + 1, sizeof(Expr *));
				queue[nqueue++] = e;
			}
		}
		info->nslots = nslots;
		info->init_uses = xcalloc(nslots ? nslots : 1, sizeof(uint32_t));
		for (size_t i = 0; i < list.count; i++) {
			const Expr *e = list.items[i];
			uint32_t n = used_children(e, children, cap_children);
			if (n > cap_children) {
				cap_children = n;
				children = xrealloc(children, cap_children * sizeof(Expr *));
				used_children(e, children, cap_children);
			}
			for (uint32_t k = 0; k < n; k++) {
				const Expr *c = children[k];
				if (run->owner[c->id] == (int32_t)q)
					info->init_uses[run->slot[c->id]]++;
				else
					keep[c->id / 8] |= (uint8_t)(1u << (c->id % 8));
			}
		}
		if (run->owner[fn->u.fn.body->id] == (int32_t)q)
			info->init_uses[run->slot[fn->u.fn.body->id]]++;
		else
			keep[fn->u.fn.body->id / 8] |= (uint8_t)(1u << (fn->u.fn.body->id % 8));
		exprvec_free(&list);
	}
	for (uint32_t id = 0; id < nexprs; id++)
		if ((keep[id / 8] >> (id % 8) & 1) && run->owner[id] >= 0)
			run->fns[run->owner[id]].init_uses[run->slot[id]] = USES_KEEP;
	free(children);
	free(queue);
	free(seen);
	free(keep);
}

static void layout_free(Run *run)
{
	for (size_t i = 0; i < run->nfns; i++)
		free(run->fns[i].init_uses);
	free(run->fns);
	free(run->owner);
	free(run->fn_info);
	free(run->slot);
}

/* ---- the static check: shapes and sizes before any allocation ----------------- */

static void describe_expr(StrBuf *sb, const Expr *e)
{
	if (e->kind == EXPR_CALL && e->u.call.op != OP_NONE)
		strbuf_printf(sb, "'%s'", op_name(e));
	else
		ir_value_name(sb, e);
}

/* A tensor type the run can allocate: static, not overflowing, within the
 * limit; tuples field by field. The names in the message are made only when
 * there is one to print (this runs once per expression of a run). */
static bool check_type(Run *run, const Expr *e, const Type *t)
{
	StrBuf what, ty;
	int64_t count, bytes = 0;
	bool unknown = false, overflows = false;
	if (!t)
		return true;
	switch (t->kind) {
	case TYPE_FUNC:
	case TYPE_REF:  /* never reached: run refuses the ref operators */
	case TYPE_VAR:  /* a module with ADTs is refused before this */
	case TYPE_CALL: /* (check_kernels) */
		return true;
	case TYPE_TUPLE:
		for (uint32_t i = 0; i < t->u.tuple.nfields; i++)
			if (!check_type(run, e, t->u.tuple.fields[i]))
				return false;
		return true;
	case TYPE_TENSOR:
		break;
	}
	for (uint32_t i = 0; i < t->u.tensor.ndim; i++)
		if (t->u.tensor.dims[i] < 0)
			unknown = true;
	if (!unknown)
		overflows = !type_num_elements(t, &count) ||
			    __builtin_mul_overflow(count, (int64_t)dtype_size(t->u.tensor.dtype),
						   &bytes);
	if (!unknown && !overflows && (uint64_t)bytes <= run->limit)
		return true;
	strbuf_init(&what);
	strbuf_init(&ty);
	describe_expr(&what, e);
	type_print(&ty, t);
	if (unknown) {
		diag_error(run->diags, run->m->src, e->pos,
			   "%s has type %s with unknown dimensions: its shape depends on "
			   "values known only while running, and devplan computes shapes "
			   "before running, from the inputs' shapes and values",
			   what.data, ty.data);
	} else if (overflows) {
		diag_error(run->diags, run->m->src, e->pos,
			   "%s has type %s, whose size in bytes overflows", what.data, ty.data);
	} else {
		StrBuf need, have;
		strbuf_init(&need);
		strbuf_init(&have);
		format_bytes(&need, (double)bytes);
		format_bytes(&have, (double)run->limit);
		if (run->opts->memory_limit && run->opts->memory_limit == run->limit)
			diag_error(run->diags, run->m->src, e->pos,
				   "%s needs %s for its %s, more than the %s memory limit",
				   what.data, need.data, ty.data, have.data);
		else
			diag_error(run->diags, run->m->src, e->pos,
				   "%s needs %s for its %s, more than this machine's %s of memory",
				   what.data, need.data, ty.data, have.data);
		strbuf_free(&need);
		strbuf_free(&have);
	}
	strbuf_free(&what);
	strbuf_free(&ty);
	return false;
}

/* Every operator the module calls has a kernel (ops.def's OP_PLAN ones
 * are typed and planned but not run, and an operator devplan does not
 * know, OP_UNKNOWN, has none), and the module builds and matches no
 * algebraic data type values and uses no operator or constructor as a
 * value (planned, never run): checked before anything runs, each missing
 * operator reported once, where it is first called, and the first
 * constructor, match and operator value where they are. */
static bool check_kernels(Run *run)
{
	const IrModule *m = run->m;
	Expr **by_id = ir_index_by_id(m);
	uint8_t reported[OP_COUNT] = {0};
	bool ok = true, unknown_reported = false, construct_reported = false,
	     match_reported = false, value_reported = false;
	for (uint32_t id = 0; id < m->nexprs; id++) {
		const Expr *e = by_id[id];
		OpKind op;
		if (e && e->kind == EXPR_CONSTRUCT && !construct_reported) {
			diag_error(run->diags, m->src, e->pos,
				   "devplan does not run algebraic data types: constructor '%s' "
				   "is typed and planned, but cannot be run",
				   e->u.construct.name);
			construct_reported = true;
			ok = false;
		}
		if (e && e->kind == EXPR_OP_VALUE && !value_reported) {
			diag_error(run->diags, m->src, e->pos,
				   "devplan does not run %s '%s' used as a value: it is typed and "
				   "planned, but cannot be run",
				   e->u.op_value.op == OP_NONE ? "constructor" : "operator",
				   e->u.op_value.name);
			value_reported = true;
			ok = false;
		}
		if (e && e->kind == EXPR_MATCH && !match_reported) {
			diag_error(run->diags, m->src, e->pos,
				   "devplan does not run algebraic data types: this match is "
				   "typed and planned, but cannot be run");
			match_reported = true;
			ok = false;
		}
		if (!e || e->kind != EXPR_CALL || e->u.call.op == OP_NONE)
			continue;
		op = e->u.call.op;
		if (op == OP_UNKNOWN) {
			/* one error for all of them: the load's note named them */
			if (!unknown_reported)
				diag_error(run->diags, m->src, e->pos,
					   "devplan has no kernel for '%s': it does not know the "
					   "operator, and only planned it from its printed type",
					   e->u.call.unknown->name);
			unknown_reported = true;
			ok = false;
			continue;
		}
		if (op_info(op)->has_kernel || reported[op])
			continue;
		reported[op] = 1;
		ok = false;
		diag_error(run->diags, m->src, e->pos,
			   "devplan has no kernel for '%s' yet, on %s or any device: it types and "
			   "plans it, but cannot run it",
			   op_info(op)->name,
			   run->opts->all_on_cpu       ? "the cpu"
			   : e->device == IR_NO_DEVICE ? "its device"
						       : devices_name(run->table, e->device));
	}
	free(by_id);
	return ok;
}

static bool check_sizes(Run *run)
{
	Expr **by_id = ir_index_by_id(run->m);
	bool ok = true;
	for (uint32_t id = 0; id < run->m->nexprs && ok; id++) {
		const Expr *e = by_id[id];
		if (!e || run->owner[id] < 0)
			continue;
		if (!e->type && e->kind != EXPR_FN && e->kind != EXPR_GLOBAL) {
			diag_error(run->diags, run->m->src, e->pos,
				   "the module is not typed: run the infer phase first");
			ok = false;
			break;
		}
		switch (e->kind) {
		case EXPR_CALL:
		case EXPR_CONSTANT:
		case EXPR_VAR:
			ok = check_type(run, e, e->type);
			break;
		case EXPR_GLOBAL:
		case EXPR_OP_VALUE:
		case EXPR_LET:
		case EXPR_FN:
		case EXPR_TUPLE:
		case EXPR_PROJ:
		case EXPR_IF:
		case EXPR_CONSTRUCT: /* refused by check_kernels */
		case EXPR_MATCH:
			break;
		}
	}
	free(by_id);
	return ok;
}

bool exec_check_sizes(const IrModule *m, const ExecOptions *opts, DiagList *diags)
{
	Run run;
	bool ok;
	memset(&run, 0, sizeof run);
	run.m = m;
	run.opts = opts;
	run.diags = diags;
	run.limit = exec_physical_memory();
	if (opts->memory_limit && opts->memory_limit < run.limit)
		run.limit = opts->memory_limit;
	layout_build(&run);
	ok = check_sizes(&run);
	layout_free(&run);
	return ok;
}

/* ---- devices ---------------------------------------------------------------- */

/* The device an expression computes on. */
static ExecDevice *device_of(Run *run, const Expr *e)
{
	if (run->opts->all_on_cpu)
		return exec_runtime_device(run->rt, -1);
	if (e->device == IR_NO_DEVICE) {
		StrBuf what;
		strbuf_init(&what);
		describe_expr(&what, e);
		diag_error(run->diags, run->m->src, e->pos,
			   "%s has no device: the module is not planned (run `plan`)", what.data);
		strbuf_free(&what);
		return NULL;
	}
	return exec_runtime_device(run->rt, e->device);
}

/* Whether dev's backend takes every tensor dtype within t (tuple fields
 * included); *bad is the first it does not. */
static bool backend_takes(const ExecDevice *dev, OpKind op, const Type *t, DType *bad)
{
	if (!t)
		return true;
	switch (t->kind) {
	case TYPE_TENSOR:
		*bad = t->u.tensor.dtype;
		return dev->backend->supports(op, t->u.tensor.dtype);
	case TYPE_TUPLE:
		for (uint32_t i = 0; i < t->u.tuple.nfields; i++)
			if (!backend_takes(dev, op, t->u.tuple.fields[i], bad))
				return false;
		return true;
	case TYPE_FUNC:
	case TYPE_REF: /* the ref ops have no kernel: refused before this, */
	case TYPE_VAR: /* and so are ADTs (check_kernels) */
	case TYPE_CALL:
		break;
	}
	return true;
}

/* Every call that runs has a kernel on its device's backend for the dtypes
 * of its operands and result (ExecBackend.supports): checked once the
 * devices are open, before anything is allocated or run; each operator and
 * dtype reported once, where first called. */
static bool check_dtypes(Run *run)
{
	const IrModule *m = run->m;
	Expr **by_id = ir_index_by_id(m);
	uint8_t *reported = xcalloc((size_t)OP_COUNT * DT_COUNT, 1);
	bool ok = true;
	for (uint32_t id = 0; id < m->nexprs; id++) {
		const Expr *e = by_id[id];
		ExecDevice *dev;
		OpKind op;
		DType bad = DT_COUNT;
		bool takes;
		if (!e || run->owner[id] < 0 || e->kind != EXPR_CALL || e->u.call.op == OP_NONE ||
		    e->u.call.op == OP_UNKNOWN || !op_info(e->u.call.op)->has_kernel)
			continue;
		op = e->u.call.op;
		if (!(dev = device_of(run, e))) {
			ok = false;
			break;
		}
		takes = backend_takes(dev, op, e->type, &bad);
		for (uint32_t i = 0; takes && i < e->u.call.nargs; i++)
			takes = backend_takes(dev, op, e->u.call.args[i]->type, &bad);
		if (takes || reported[(size_t)op * DT_COUNT + bad])
			continue;
		reported[(size_t)op * DT_COUNT + bad] = 1;
		ok = false;
		diag_error(run->diags, m->src, e->pos,
			   "devplan has no kernel for '%s' on %s tensors on %s (%s)",
			   op_info(op)->name, dtype_name(bad), dev->name, dev->backend->name);
	}
	free(reported);
	free(by_id);
	return ok;
}

/* Reports that e's value found no room on its device (err, freed). */
static void report_no_room(Run *run, const Expr *e, char *err)
{
	StrBuf what;
	strbuf_init(&what);
	describe_expr(&what, e);
	diag_error(run->diags, run->m->src, e->pos, "%s: %s", what.data, err);
	strbuf_free(&what);
	free(err);
}

/* A tensor value of type t over nbytes of data on dev. */
static Value *tensor_value(ExecDevice *dev, const Type *t, void *data, size_t nbytes)
{
	Value *v = value_new(VALUE_TENSOR);
	v->u.tensor.device = dev;
	v->u.tensor.data = data;
	v->u.tensor.nbytes = nbytes;
	v->u.tensor.dtype = t->u.tensor.dtype;
	v->u.tensor.ndim = t->u.tensor.ndim;
	v->u.tensor.shape = t->u.tensor.dims;
	return v;
}

static Value *tensor_new(Run *run, ExecDevice *dev, const Type *t, const Expr *e)
{
	char *err = NULL;
	int64_t count = 1;
	size_t nbytes;
	void *data;
	for (uint32_t i = 0; i < t->u.tensor.ndim; i++)
		count *= t->u.tensor.dims[i];
	nbytes = (size_t)count * dtype_size(t->u.tensor.dtype);
	data = exec_alloc(dev, nbytes, &err);
	if (!data) {
		report_no_room(run, e, err);
		return NULL;
	}
	return tensor_value(dev, t, data, nbytes);
}

static KernelTensor kernel_view(const Value *v)
{
	KernelTensor t = kernel_tensor(v->u.tensor.data, v->u.tensor.dtype, v->u.tensor.ndim,
				       v->u.tensor.shape);
	return t;
}

/* An operator's call timed from t0: its wall clock, and its busy time
 * where the backend runs kernels on the calling thread (a synchronous one:
 * the cpu, the emulator); a GPU's kernels run elsewhere, their time is the
 * wall clock up to the synchronisation. What reading the clocks costs (an
 * empty span's median) is not the operator's. */
static void profile_op(Run *run, OpKind op, const ExecDevice *dev, const ExecClock *t0)
{
	ExecProfile *p = run->profile;
	ExecClock t1 = exec_clock_now(true);
	const ExecClockCost *cost = exec_clock_cost();
	int32_t device = dev->index;
	double wall = exec_clock_wall(t0, &t1) - cost->wall;
	double busy = dev->backend->sync ? wall : exec_clock_busy(t0, &t1) - cost->busy;
	wall = wall > 0 ? wall : 0;
	busy = busy > 0 ? busy : 0;
	for (size_t i = 0; i < p->nops; i++)
		if (p->ops[i].op == op && p->ops[i].device == device) {
			p->ops[i].calls++;
			p->ops[i].seconds += wall;
			p->ops[i].busy += busy;
			return;
		}
	grow_array((void **)&p->ops, &p->cap_ops, p->nops + 1, sizeof(ExecOpStat));
	p->ops[p->nops++] = (ExecOpStat){op, device, 1, wall, busy};
}

static void profile_copy(Run *run, const Expr *e, int32_t src, int32_t dst, uint64_t bytes,
			 double seconds)
{
	ExecProfile *p = run->profile;
	for (size_t i = 0; i < p->ncopies; i++)
		if (p->copies[i].expr == e->id) {
			p->copies[i].count++;
			p->copies[i].bytes += bytes;
			p->copies[i].seconds += seconds;
			return;
		}
	grow_array((void **)&p->copies, &p->cap_copies, p->ncopies + 1, sizeof(ExecCopyStat));
	p->copies[p->ncopies++] = (ExecCopyStat){e->id, src, dst, 1, bytes, seconds};
}

/* ---- operators ------------------------------------------------------------- */

/* The tensors of an operand (a tuple's fields for concatenate), each checked
 * to live on dev. */
static bool gather_operand(Run *run, const Expr *e, uint32_t argi, Value *v, ExecDevice *dev,
			   KernelTensor **ins, uint32_t *nin, uint32_t *cap)
{
	if (v->kind == VALUE_TUPLE) {
		for (uint32_t i = 0; i < v->u.tuple.n; i++)
			if (!gather_operand(run, e, argi, v->u.tuple.items[i], dev, ins, nin, cap))
				return false;
		return true;
	}
	if (v->kind != VALUE_TENSOR) {
		diag_error(run->diags, run->m->src, e->pos,
			   "'%s' argument %u is a function, not a tensor", op_name(e), argi + 1);
		return false;
	}
	if (v->u.tensor.device != dev) {
		StrBuf arg;
		strbuf_init(&arg);
		ir_value_name(&arg, e->u.call.args[argi]);
		diag_error(run->diags, run->m->src, e->pos,
			   "'%s' runs on %s but its argument %u (%s) lives in %s memory: a "
			   "device_copy from %s to %s is missing",
			   op_name(e), device_name(run, dev), argi + 1, arg.data,
			   device_name(run, v->u.tensor.device),
			   device_name(run, v->u.tensor.device), device_name(run, dev));
		strbuf_free(&arg);
		return false;
	}
	if (*nin == *cap) {
		*cap = *cap ? *cap * 2 : 4;
		*ins = xrealloc(*ins, *cap * sizeof(KernelTensor));
	}
	(*ins)[(*nin)++] = kernel_view(v);
	return true;
}

/* A value copied to dst_dev (tuples field by field); checks that it lives
 * where the device_copy says it comes from. */
static Value *copy_value(Run *run, const Expr *e, Value *v, int32_t src, ExecDevice *dst_dev,
			 uint64_t *bytes)
{
	Value *out;
	char *err = NULL;
	if (v->kind == VALUE_TUPLE) {
		out = value_new(VALUE_TUPLE);
		out->u.tuple.items = xcalloc(v->u.tuple.n ? v->u.tuple.n : 1, sizeof(Value *));
		out->u.tuple.n = v->u.tuple.n;
		for (uint32_t i = 0; i < v->u.tuple.n; i++) {
			out->u.tuple.items[i] =
				copy_value(run, e, v->u.tuple.items[i], src, dst_dev, bytes);
			if (!out->u.tuple.items[i]) {
				value_release(run, out);
				return NULL;
			}
		}
		return out;
	}
	if (v->kind != VALUE_TENSOR) {
		diag_error(run->diags, run->m->src, e->pos, "device_copy of a function value");
		return NULL;
	}
	if (src != IR_NO_DEVICE && v->u.tensor.device->index != src) {
		StrBuf arg;
		strbuf_init(&arg);
		ir_value_name(&arg, e->u.call.args[0]);
		diag_error(run->diags, run->m->src, e->pos,
			   "'device_copy' from %s reads %s, which lives in %s memory",
			   devices_name(run->table, src), arg.data,
			   device_name(run, v->u.tensor.device));
		strbuf_free(&arg);
		return NULL;
	}
	out = value_new(VALUE_TENSOR);
	out->u.tensor = v->u.tensor;
	out->u.tensor.borrowed = false; /* a copy of a borrowed input is the run's */
	out->u.tensor.device = dst_dev;
	out->u.tensor.data = exec_alloc(dst_dev, v->u.tensor.nbytes, &err);
	if (!out->u.tensor.data || !exec_copy(dst_dev, out->u.tensor.data, v->u.tensor.device,
					      v->u.tensor.data, v->u.tensor.nbytes, &err)) {
		diag_error(run->diags, run->m->src, e->pos, "'device_copy' to %s: %s",
			   device_name(run, dst_dev), err);
		free(err);
		if (!out->u.tensor.data) {
			free(out);
			return NULL;
		}
		value_release(run, out);
		return NULL;
	}
	*bytes += v->u.tensor.nbytes;
	return out;
}

/* ---- observing and faults ---------------------------------------------------- */

/* Hands each tensor of an op's result to the observer, copied to the host;
 * under observe_borrows, a tensor the host can read in place is handed as it
 * is (a view of its data and shape) and a copy is freed after the call. */
static void observe_result(Run *run, const Expr *e, Value *result)
{
	uint32_t n = result->kind == VALUE_TUPLE ? result->u.tuple.n : 1;
	run->observed++;
	for (uint32_t k = 0; k < n; k++) {
		const Value *v = result->kind == VALUE_TUPLE ? result->u.tuple.items[k] : result;
		NpyArray a;
		char *err = NULL;
		if (v->kind != VALUE_TENSOR)
			continue;
		if (run->opts->observe_borrows && v->u.tensor.device->backend->host_readable) {
			a = (NpyArray){.dtype = v->u.tensor.dtype,
				       .ndim = v->u.tensor.ndim,
				       .shape = (int64_t *)v->u.tensor.shape,
				       .data = v->u.tensor.data,
				       .nbytes = v->u.tensor.nbytes};
			run->opts->observe(run->opts->observe_context, e, k,
					   v->u.tensor.device->index, &a);
			continue;
		}
		if (!npy_array_alloc(&a, v->u.tensor.dtype, v->u.tensor.ndim, v->u.tensor.shape,
				     &err) ||
		    !exec_copy_out(v->u.tensor.device, a.data, v->u.tensor.data, a.nbytes, &err)) {
			/* observing is best effort: the run itself goes on */
			free(err);
			npy_array_free(&a);
			continue;
		}
		run->opts->observe(run->opts->observe_context, e, k, v->u.tensor.device->index, &a);
		if (run->opts->observe_borrows)
			npy_array_free(&a);
	}
}

/* Whether the run injects a fault of kind on dev (never the reference). */
static bool fault_here(const Run *run, ExecFaultKind kind, const ExecDevice *dev)
{
	const ExecFault *f = &run->opts->fault;
	return f->kind == kind && !run->opts->all_on_cpu &&
	       (f->device == IR_NO_DEVICE || f->device == dev->index);
}

/* Overwrites a tensor's first element (fault injection): its value plus
 * one, or its bits flipped for a non-numeric one. */
static void corrupt_first_element(Value *v, bool zero_all)
{
	size_t n = zero_all ? v->u.tensor.nbytes : dtype_size(v->u.tensor.dtype);
	unsigned char *host;
	char *err = NULL;
	if (v->u.tensor.nbytes < n || n == 0)
		return;
	host = xcalloc(1, n);
	if (!zero_all) {
		if (!exec_copy_out(v->u.tensor.device, host, v->u.tensor.data, n, &err)) {
			free(err);
			free(host);
			return;
		}
		if (v->u.tensor.dtype == DT_FLOAT32)
			*(float *)host += 1.0f;
		else if (v->u.tensor.dtype == DT_FLOAT64)
			*(double *)host += 1.0;
		else
			for (size_t i = 0; i < n; i++)
				host[i] ^= 0x55;
	}
	if (!exec_copy_in(v->u.tensor.device, v->u.tensor.data, host, n, &err))
		free(err);
	free(host);
}

static void corrupt_value(Value *v, bool zero_all)
{
	if (v->kind == VALUE_TUPLE) {
		for (uint32_t i = 0; i < v->u.tuple.n; i++)
			corrupt_value(v->u.tuple.items[i], zero_all);
		return;
	}
	if (v->kind == VALUE_TENSOR)
		corrupt_first_element(v, zero_all);
}

bool exec_fault_parse(const char *text, const DeviceTable *devices, ExecFault *out, char **err)
{
#ifdef DEVPLAN_FAULT_INJECTION
	const char *at = strchr(text, '@');
	size_t head = at ? (size_t)(at - text) : strlen(text);
	memset(out, 0, sizeof *out);
	out->device = IR_NO_DEVICE;
	if (at && (out->device = devices_find_name(devices, at + 1)) < 0) {
		*err = xasprintf("fault '%s': no device '%s'", text, at + 1);
		return false;
	}
	if (head == 4 && strncmp(text, "copy", 4) == 0) {
		out->kind = EXEC_FAULT_COPY;
		return true;
	}
	if (head > 7 && strncmp(text, "kernel:", 7) == 0) {
		out->op = op_lookup(text + 7, head - 7);
		if (out->op != OP_NONE) {
			out->kind = EXEC_FAULT_KERNEL;
			return true;
		}
	}
	*err = xasprintf("fault '%s': expected kernel:OP[@DEVICE] or copy[@DEVICE]", text);
	return false;
#else
	(void)devices;
	memset(out, 0, sizeof *out);
	*err = xasprintf("fault '%s': this build has no fault injection (a test-build switch)",
			 text);
	return false;
#endif
}

static Value *run_device_copy(Run *run, const Expr *e, Value *arg)
{
	int32_t src, dst;
	ExecDevice *dst_dev;
	uint64_t bytes = 0;
	double t0;
	Value *out;
	if (run->opts->all_on_cpu)
		return value_ref(arg);
	ir_device_copy_props(e, &src, &dst);
	if (dst == IR_NO_DEVICE)
		dst = e->device;
	dst_dev = dst == IR_NO_DEVICE ? device_of(run, e) : exec_runtime_device(run->rt, dst);
	if (!dst_dev)
		return NULL;
	t0 = now_seconds();
	out = copy_value(run, e, arg, src, dst_dev, &bytes);
	if (out && fault_here(run, EXEC_FAULT_COPY, dst_dev))
		corrupt_value(out, true);
	if (out && run->opts->profile) {
		exec_sync(dst_dev);
		profile_copy(run, e, src, dst_dev->index, bytes, now_seconds() - t0);
	}
	return out;
}

static Value *run_op(Run *run, Frame *frame, const Expr *e)
{
	OpKind op = e->u.call.op;
	ExecDevice *dev;
	KernelTensor *ins = NULL, *outs = NULL;
	uint32_t nin = 0, cap = 0, nout;
	const Type *t = e->type;
	Value *result = NULL;
	KernelCall kc;
	char *err = NULL;
	ExecClock t0 = {0, 0, 0};
	if (op == OP_ON_DEVICE)
		return value_ref(lookup(run, frame, e->u.call.args[0]));
	if (op == OP_DEVICE_COPY)
		return run_device_copy(run, e, lookup(run, frame, e->u.call.args[0]));
	if (!(dev = device_of(run, e)))
		return NULL;
	for (uint32_t i = 0; i < e->u.call.nargs; i++)
		if (!gather_operand(run, e, i, lookup(run, frame, e->u.call.args[i]), dev, &ins,
				    &nin, &cap))
			goto done;
	/* results: one tensor, or a tuple of them (split) */
	if (t->kind == TYPE_TUPLE) {
		nout = t->u.tuple.nfields;
		result = value_new(VALUE_TUPLE);
		result->u.tuple.n = nout;
		result->u.tuple.items = xcalloc(nout ? nout : 1, sizeof(Value *));
		for (uint32_t i = 0; i < nout; i++)
			if (!(result->u.tuple.items[i] =
				      tensor_new(run, dev, t->u.tuple.fields[i], e)))
				goto fail;
	} else {
		nout = 1;
		if (!(result = tensor_new(run, dev, t, e)))
			goto done;
	}
	outs = xmalloc((nout ? nout : 1) * sizeof(KernelTensor));
	for (uint32_t i = 0; i < nout; i++)
		outs[i] = kernel_view(t->kind == TYPE_TUPLE ? result->u.tuple.items[i] : result);
	if (!kernel_call_prepare(&kc, e, ins, nin, outs, nout, &err))
		goto kernel_error;
	/* an operator's time is its kernel's, from the launch to the end of
	 * its work; decoding its attributes and allocating its result are the
	 * interpreter's, as they are the calibration's (a prepared call) */
	if (run->opts->profile)
		t0 = exec_clock_now(true);
	if (!exec_launch(dev, &kc, &err)) {
		kernel_call_release(&kc);
		goto kernel_error;
	}
	if (run->opts->profile) {
		exec_sync(dev);
		profile_op(run, op, dev, &t0);
	}
	kernel_call_release(&kc);
	if (!run->fault_done && fault_here(run, EXEC_FAULT_KERNEL, dev) &&
	    run->opts->fault.op == op) {
		corrupt_value(result, false);
		run->fault_done = true;
	}
	if (run->opts->observe)
		observe_result(run, e, result);
	goto done;
kernel_error:
	diag_error(run->diags, run->m->src, e->pos, "'%s' on %s: %s", op_name(e),
		   device_name(run, dev), err);
	free(err);
fail:
	value_release(run, result);
	result = NULL;
done:
	free(ins);
	free(outs);
	return result;
}

/* ---- constants and inputs ------------------------------------------------------ */

static Value *constant_value(Run *run, const Expr *e)
{
	const Tensor *c = &e->u.constant.tensor;
	ExecDevice *dev;
	Value *v;
	char *err = NULL;
	if (run->fixed[e->id])
		return run->fixed[e->id];
	if (!(dev = device_of(run, e)))
		return NULL;
	v = value_new(VALUE_TENSOR);
	v->u.tensor.device = dev;
	v->u.tensor.nbytes = c->nbytes;
	v->u.tensor.dtype = c->dtype;
	v->u.tensor.ndim = c->ndim;
	v->u.tensor.shape = c->shape;
	v->u.tensor.data = exec_alloc(dev, c->nbytes, &err);
	if (!v->u.tensor.data || !exec_copy_in(dev, v->u.tensor.data, c->data, c->nbytes, &err)) {
		diag_error(run->diags, run->m->src, e->pos, "constant on %s: %s", dev->name, err);
		free(err);
		if (v->u.tensor.data)
			exec_free(dev, v->u.tensor.data, v->u.tensor.nbytes);
		free(v);
		return NULL;
	}
	run->fixed[e->id] = v;
	return v;
}

static bool same_shape(const NpyArray *a, const Type *t)
{
	if (t->kind != TYPE_TENSOR || a->dtype != t->u.tensor.dtype || a->ndim != t->u.tensor.ndim)
		return false;
	for (uint32_t i = 0; i < a->ndim; i++)
		if (a->shape[i] != t->u.tensor.dims[i])
			return false;
	return true;
}

/* Input a bound where it is (a device that reads host memory in place,
 * exec_can_borrow): the value borrows the caller's array, which the
 * kernels only read (no kernel writes into its operands) and which
 * outlives the run. Its bytes are
 * counted on the device as a copy's would be, so that the memory figures
 * and limits are those of a run that copies. */
static Value *input_borrowed(Run *run, ExecDevice *dev, const ExecParam *p, const NpyArray *a)
{
	Value *v;
	char *err = NULL;
	if (!exec_borrow(dev, a->data, a->nbytes, &err)) {
		report_no_room(run, p->var, err);
		return NULL;
	}
	v = tensor_value(dev, p->type, a->data, a->nbytes);
	v->u.tensor.borrowed = true;
	return v;
}

/* Moves input i to its device (or binds it where it is) and binds it. */
static bool bind_input(Run *run, Frame *main_frame, const ExecParam *p, const NpyArray *a)
{
	ExecDevice *dev;
	Value *v;
	char *err = NULL;
	double t0;
	if (!p->type || !same_shape(a, p->type)) {
		StrBuf want, got;
		strbuf_init(&want);
		strbuf_init(&got);
		if (p->type)
			type_print(&want, p->type);
		else
			strbuf_puts(&want, "?");
		strbuf_printf(&got, "Tensor[(");
		for (uint32_t i = 0; i < a->ndim; i++)
			strbuf_printf(&got, "%s%lld", i ? ", " : "", (long long)a->shape[i]);
		strbuf_printf(&got, "), %s]", dtype_name(a->dtype));
		diag_error(run->diags, run->m->src, p->var->pos, "input %%%s must be %s, not %s",
			   p->name, want.data, got.data);
		strbuf_free(&want);
		strbuf_free(&got);
		return false;
	}
	if (run->opts->all_on_cpu)
		dev = exec_runtime_device(run->rt, -1);
	else if (p->device == IR_NO_DEVICE)
		dev = device_of(run, p->var);
	else
		dev = exec_runtime_device(run->rt, p->device);
	if (!dev)
		return false;
	t0 = now_seconds();
	if (exec_can_borrow(dev)) {
		/* the caller's array is host memory, which the device reads in
		 * place (the cpu's own, or lent to the emulator) */
		if (!(v = input_borrowed(run, dev, p, a)))
			return false;
	} else if (!(v = tensor_new(run, dev, p->type, p->var))) {
		return false;
	} else if (!exec_copy_in(dev, v->u.tensor.data, a->data, a->nbytes, &err)) {
		diag_error(run->diags, run->m->src, p->var->pos, "input %%%s to %s: %s", p->name,
			   dev->name, err);
		free(err);
		value_release(run, v);
		return false;
	}
	if (run->opts->profile) {
		exec_sync(dev);
		run->profile->input_copies++;
		run->profile->input_bytes += a->nbytes;
		run->profile->input_seconds += now_seconds() - t0;
	}
	if (p->var->u.var.role == VAR_FREE) {
		run->fixed[p->var->id] = v;
	} else {
		Frame *f = frame_for(run, main_frame, p->var);
		DP_ASSERT(f);
		*slot_of(run, f, p->var) = v;
	}
	return true;
}

/* ---- evaluation -------------------------------------------------------------- */

typedef struct WorkStack {
	Work *items;
	size_t n, cap;
} WorkStack;

/* Schedules e (as seen from `from`) unless its value is there already. */
static bool push(Run *run, WorkStack *ws, Frame *from, const Expr *e)
{
	Frame *f;
	if (run->fixed[e->id])
		return true;
	f = frame_for(run, from, e);
	if (!f) {
		StrBuf what;
		strbuf_init(&what);
		ir_value_name(&what, e);
		diag_error(run->diags, run->m->src, e->pos,
			   "%s is used outside the function that defines it", what.data);
		strbuf_free(&what);
		return false;
	}
	if (*slot_of(run, f, e))
		return true;
	grow_array((void **)&ws->items, &ws->cap, ws->n + 1, sizeof(Work));
	ws->items[ws->n++] = (Work){e, f, WORK_NEW, NULL};
	return true;
}

/* Pushes the used children of e, last first, so they run in order. */
static bool push_children(Run *run, WorkStack *ws, Frame *f, const Expr *e, uint32_t first,
			  uint32_t count)
{
	for (uint32_t k = first + count; k-- > first;) {
		const Expr *c = NULL;
		switch (e->kind) {
		case EXPR_CALL:
			c = e->u.call.op == OP_NONE
				    ? (k == 0 ? e->u.call.callee : e->u.call.args[k - 1])
				    : e->u.call.args[k];
			break;
		case EXPR_TUPLE:
			c = e->u.tuple.fields[k];
			break;
		case EXPR_VAR:
		case EXPR_GLOBAL:
		case EXPR_OP_VALUE:
		case EXPR_CONSTANT:
		case EXPR_LET:
		case EXPR_FN:
		case EXPR_PROJ:
		case EXPR_IF:
		case EXPR_CONSTRUCT: /* refused by check_kernels */
		case EXPR_MATCH:
			return false;
		}
		if (!push(run, ws, f, c))
			return false;
	}
	return true;
}

static void uses_done(Run *run, Frame *f, const Expr *e)
{
	if (e->kind == EXPR_CALL) {
		if (e->u.call.op == OP_NONE)
			use_done(run, f, e->u.call.callee);
		for (uint32_t i = 0; i < e->u.call.nargs; i++)
			use_done(run, f, e->u.call.args[i]);
	} else if (e->kind == EXPR_TUPLE) {
		for (uint32_t i = 0; i < e->u.tuple.nfields; i++)
			use_done(run, f, e->u.tuple.fields[i]);
	}
}

/* Reads a scalar condition (any dtype, any device). */
static bool read_condition(Run *run, const Expr *e, Value *v, bool *out)
{
	NpyArray host;
	char *err = NULL;
	int64_t zero = 0;
	if (v->kind != VALUE_TENSOR || !npy_array_alloc(&host, v->u.tensor.dtype, 0, &zero, &err)) {
		free(err);
		diag_error(run->diags, run->m->src, e->pos,
			   "the condition of 'if' is not a tensor");
		return false;
	}
	if (v->u.tensor.nbytes < host.nbytes ||
	    !exec_copy_out(v->u.tensor.device, host.data, v->u.tensor.data, host.nbytes, &err)) {
		diag_error(run->diags, run->m->src, e->pos, "reading the condition of 'if': %s",
			   err ? err : "it has no elements");
		free(err);
		npy_array_free(&host);
		return false;
	}
	*out = exec_element(&host, 0) != 0;
	npy_array_free(&host);
	return true;
}

/*
 * One step of the work item w on top of the stack, one function per kind
 * of expression: each either schedules what w needs next (a push may move
 * the stack, so w is not used after one) and records how far w has gone,
 * or fills w's slot, lets go of what it read and pops w. Each returns
 * false after reporting an error.
 */

/* A variable is never scheduled once it has a value: a free variable (an
 * input) is a fixed value, which push() never schedules, and a bound one
 * has its value before anything reads it. */
static bool step_var(Run *run, Work *w)
{
	StrBuf what;
	strbuf_init(&what);
	ir_value_name(&what, w->e);
	diag_error(run->diags, run->m->src, w->e->pos, "%s is used before it has a value",
		   what.data);
	strbuf_free(&what);
	return false;
}

static bool step_global(Run *run, WorkStack *ws, Work *w)
{
	const Expr *e = w->e;
	Value *v;
	if (e->u.global.index < 0 || (uint32_t)e->u.global.index >= run->m->nglobals) {
		diag_error(run->diags, run->m->src, e->pos, "unknown global @%s", e->u.global.name);
		return false;
	}
	v = value_new(VALUE_CLOSURE);
	v->u.closure.fn = run->m->globals[e->u.global.index].fn;
	*slot_of(run, w->frame, e) = v;
	ws->n--;
	return true;
}

/* constants are fixed values; push() never schedules them */
static bool step_constant(Run *run, WorkStack *ws, Work *w)
{
	if (!constant_value(run, w->e))
		return false;
	ws->n--;
	return true;
}

static bool step_fn(Run *run, WorkStack *ws, Work *w)
{
	Value *v = value_new(VALUE_CLOSURE);
	v->u.closure.fn = w->e;
	v->u.closure.env = w->frame;
	w->frame->refs++;
	*slot_of(run, w->frame, w->e) = v;
	ws->n--;
	return true;
}

/* A closure called with the values of the call's arguments: a new frame
 * binding its parameters, and its body scheduled in it. */
static bool call_enter(Run *run, WorkStack *ws, Work *w)
{
	const Expr *e = w->e;
	Frame *f = w->frame;
	Value *callee = lookup(run, f, e->u.call.callee);
	const Expr *fn;
	const FnInfo *info;
	Frame *callee_frame;
	int32_t fi;
	if (!callee || callee->kind != VALUE_CLOSURE) {
		diag_error(run->diags, run->m->src, e->pos, "the callee is not a function");
		return false;
	}
	fn = callee->u.closure.fn;
	if (fn->u.fn.nparams != e->u.call.nargs) {
		diag_error(run->diags, run->m->src, e->pos,
			   "a function of %u parameters called with %u "
			   "arguments",
			   fn->u.fn.nparams, e->u.call.nargs);
		return false;
	}
	if (run->depth >= run->opts->max_depth) {
		diag_error(run->diags, run->m->src, e->pos,
			   "calls nest deeper than %u: unbounded recursion?", run->opts->max_depth);
		return false;
	}
	fi = run->fn_info[fn->id];
	DP_ASSERT(fi >= 0);
	info = &run->fns[fi];
	callee_frame = frame_new(run, info, callee->u.closure.env);
	for (uint32_t k = 0; k < fn->u.fn.nparams; k++) {
		Value *arg = lookup(run, f, e->u.call.args[k]);
		callee_frame->slots[run->slot[fn->u.fn.params[k]->id]] = value_ref(arg);
	}
	run->depth++;
	w->state = WORK_BODY;
	w->callee = callee_frame;
	return push(run, ws, callee_frame, fn->u.fn.body);
}

/* The called closure's body is done: its value is the call's. */
static void call_return(Run *run, WorkStack *ws, Work *w)
{
	Frame *callee_frame = w->callee;
	const Expr *fnbody = callee_frame->info->fn->u.fn.body;
	Value *r = lookup(run, callee_frame, fnbody);
	DP_ASSERT(r);
	*slot_of(run, w->frame, w->e) = value_ref(r);
	use_done(run, callee_frame, fnbody);
	w->callee = NULL;
	run->depth--;
	frame_return(run, callee_frame);
	uses_done(run, w->frame, w->e);
	ws->n--;
}

/* An operator runs its kernel once its operands are there; a call of a
 * closure also runs the closure's body. */
static bool step_call(Run *run, WorkStack *ws, Work *w)
{
	const Expr *e = w->e;
	Frame *f = w->frame;
	Value *v;
	switch (w->state) {
	case WORK_NEW:
		w->state = WORK_INPUTS;
		return push_children(run, ws, f, e, 0, e->u.call.nargs + (e->u.call.op == OP_NONE));
	case WORK_INPUTS:
		if (e->u.call.op == OP_NONE)
			return call_enter(run, ws, w);
		if (!(v = run_op(run, f, e)))
			return false;
		*slot_of(run, f, e) = v;
		uses_done(run, f, e);
		ws->n--;
		return true;
	case WORK_BODY:
		call_return(run, ws, w);
		return true;
	case WORK_THEN:
	case WORK_ELSE:
		break;
	}
	DP_ASSERT(!"a call's work in an if's state");
	return false;
}

/* The value first, bound to the variable before the body runs. */
static bool step_let(Run *run, WorkStack *ws, Work *w)
{
	const Expr *e = w->e;
	Frame *f = w->frame;
	switch (w->state) {
	case WORK_NEW:
		w->state = WORK_INPUTS;
		return push(run, ws, f, e->u.let.value);
	case WORK_INPUTS: {
		const Expr *var = e->u.let.var;
		Frame *vf = frame_for(run, f, var);
		Value *val = lookup(run, f, e->u.let.value);
		DP_ASSERT(vf && val);
		if (!*slot_of(run, vf, var))
			*slot_of(run, vf, var) = value_ref(val);
		use_done(run, f, e->u.let.value);
		w->state = WORK_BODY;
		return push(run, ws, f, e->u.let.body);
	}
	case WORK_BODY:
		*slot_of(run, f, e) = value_ref(lookup(run, f, e->u.let.body));
		use_done(run, f, e->u.let.body);
		ws->n--;
		return true;
	case WORK_THEN:
	case WORK_ELSE:
		break;
	}
	DP_ASSERT(!"a let's work in an if's state");
	return false;
}

static bool step_tuple(Run *run, WorkStack *ws, Work *w)
{
	const Expr *e = w->e;
	Frame *f = w->frame;
	Value *v;
	if (w->state == WORK_NEW) {
		w->state = WORK_INPUTS;
		return push_children(run, ws, f, e, 0, e->u.tuple.nfields);
	}
	v = value_new(VALUE_TUPLE);
	v->u.tuple.n = e->u.tuple.nfields;
	v->u.tuple.items = xcalloc(v->u.tuple.n ? v->u.tuple.n : 1, sizeof(Value *));
	for (uint32_t k = 0; k < v->u.tuple.n; k++)
		v->u.tuple.items[k] = value_ref(lookup(run, f, e->u.tuple.fields[k]));
	*slot_of(run, f, e) = v;
	uses_done(run, f, e);
	ws->n--;
	return true;
}

static bool step_proj(Run *run, WorkStack *ws, Work *w)
{
	const Expr *e = w->e;
	Frame *f = w->frame;
	Value *v;
	if (w->state == WORK_NEW) {
		w->state = WORK_INPUTS;
		return push(run, ws, f, e->u.proj.tuple);
	}
	v = lookup(run, f, e->u.proj.tuple);
	if (v->kind != VALUE_TUPLE || e->u.proj.index >= v->u.tuple.n) {
		diag_error(run->diags, run->m->src, e->pos,
			   "projection .%u of a value that has no such field", e->u.proj.index);
		return false;
	}
	*slot_of(run, f, e) = value_ref(v->u.tuple.items[e->u.proj.index]);
	use_done(run, f, e->u.proj.tuple);
	ws->n--;
	return true;
}

/* The condition, then one branch. */
static bool step_if(Run *run, WorkStack *ws, Work *w)
{
	const Expr *e = w->e;
	Frame *f = w->frame;
	const Expr *branch;
	bool cond;
	switch (w->state) {
	case WORK_NEW:
		w->state = WORK_INPUTS;
		return push(run, ws, f, e->u.if_.cond);
	case WORK_INPUTS:
		if (!read_condition(run, e, lookup(run, f, e->u.if_.cond), &cond))
			return false;
		use_done(run, f, e->u.if_.cond);
		w->state = cond ? WORK_THEN : WORK_ELSE;
		return push(run, ws, f, cond ? e->u.if_.then_branch : e->u.if_.else_branch);
	case WORK_THEN:
	case WORK_ELSE:
		branch = w->state == WORK_THEN ? e->u.if_.then_branch : e->u.if_.else_branch;
		*slot_of(run, f, e) = value_ref(lookup(run, f, branch));
		use_done(run, f, branch);
		ws->n--;
		return true;
	case WORK_BODY:
		break;
	}
	DP_ASSERT(!"an if's work in a body's state");
	return false;
}

static bool step(Run *run, WorkStack *ws, Work *w)
{
	switch (w->e->kind) {
	case EXPR_VAR:
		return step_var(run, w);
	case EXPR_GLOBAL:
		return step_global(run, ws, w);
	case EXPR_CONSTANT:
		return step_constant(run, ws, w);
	case EXPR_FN:
		return step_fn(run, ws, w);
	case EXPR_CALL:
		return step_call(run, ws, w);
	case EXPR_LET:
		return step_let(run, ws, w);
	case EXPR_TUPLE:
		return step_tuple(run, ws, w);
	case EXPR_PROJ:
		return step_proj(run, ws, w);
	case EXPR_IF:
		return step_if(run, ws, w);
	case EXPR_CONSTRUCT: /* refused by check_kernels before anything runs */
	case EXPR_MATCH:
	case EXPR_OP_VALUE:
		DP_ASSERT(!"an ADT node reached the executor");
		return false;
	}
	return false;
}

/* Works through ws, the work stack standing in for recursion: the item on
 * top steps until it pops, its inputs running before it. With
 * until_observed, it returns after the step in which the observer was
 * handed a value (EXEC_STEP_MORE); else when the stack is empty
 * (EXEC_STEP_DONE) or a step failed (EXEC_STEP_FAILED, with the stack as
 * it was: calls still in progress go in the sweep). */
static ExecStepStatus work_through(Run *run, WorkStack *ws, bool until_observed)
{
	uint64_t observed = run->observed;
	while (ws->n) {
		Work *w = &ws->items[ws->n - 1];
		if (w->state == WORK_NEW && *slot_of(run, w->frame, w->e)) {
			ws->n--;
			continue;
		}
		if (interrupt_pending()) {
			diag_error(run->diags, NULL, (Pos){0, 0}, "interrupted");
			return EXEC_STEP_FAILED;
		}
		if (!step(run, ws, w))
			return EXEC_STEP_FAILED;
		if (until_observed && run->observed != observed)
			return EXEC_STEP_MORE;
	}
	return EXEC_STEP_DONE;
}

/* Evaluates e in frame; the value is left in e's slot. */
static bool evaluate(Run *run, Frame *frame, const Expr *e)
{
	WorkStack ws = {0};
	bool ok = push(run, &ws, frame, e) && work_through(run, &ws, false) == EXEC_STEP_DONE;
	free(ws.items);
	return ok;
}

/* ---- outputs ------------------------------------------------------------------ */

static bool collect_outputs(Run *run, Value *v, ExecResult *out)
{
	NpyArray a;
	char *err = NULL;
	double t0;
	if (v->kind == VALUE_TUPLE) {
		for (uint32_t i = 0; i < v->u.tuple.n; i++)
			if (!collect_outputs(run, v->u.tuple.items[i], out))
				return false;
		return true;
	}
	if (v->kind != VALUE_TENSOR) {
		diag_error(run->diags, NULL, (Pos){0, 0}, "@main returns a function, not tensors");
		return false;
	}
	if (!npy_array_alloc(&a, v->u.tensor.dtype, v->u.tensor.ndim, v->u.tensor.shape, &err)) {
		diag_error(run->diags, NULL, (Pos){0, 0}, "output: %s", err);
		free(err);
		return false;
	}
	t0 = now_seconds();
	if (!exec_copy_out(v->u.tensor.device, a.data, v->u.tensor.data, a.nbytes, &err)) {
		diag_error(run->diags, NULL, (Pos){0, 0}, "output from %s: %s",
			   v->u.tensor.device->name, err);
		free(err);
		npy_array_free(&a);
		return false;
	}
	out->profile.output_bytes += a.nbytes;
	out->profile.output_seconds += now_seconds() - t0;
	out->outputs = xrealloc(out->outputs, (out->noutputs + 1) * sizeof(NpyArray));
	out->output_devices = xrealloc(out->output_devices, (out->noutputs + 1) * sizeof(int32_t));
	out->outputs[out->noutputs] = a;
	out->output_devices[out->noutputs] = v->u.tensor.device->index;
	out->noutputs++;
	return true;
}

/* ---- the entry point ------------------------------------------------------------ */

size_t exec_params(const IrModule *m, ExecParam **out)
{
	int32_t main_index = ir_find_global(m, "main");
	const Expr *fn;
	size_t n = 0;
	*out = NULL;
	if (main_index < 0)
		return 0;
	fn = m->globals[main_index].fn;
	*out = xcalloc(fn->u.fn.nparams + m->nfree_vars + 1, sizeof(ExecParam));
	for (uint32_t i = 0; i < fn->u.fn.nparams; i++) {
		const Expr *p = fn->u.fn.params[i];
		(*out)[n++] = (ExecParam){p->name ? p->name : "?", p,
					  p->type ? p->type : p->u.var.annotation, p->device};
	}
	for (uint32_t i = 0; i < m->nfree_vars; i++) {
		const Expr *p = m->free_vars[i];
		(*out)[n++] = (ExecParam){p->name ? p->name : "?", p,
					  p->type ? p->type : p->u.var.annotation, p->device};
	}
	return n;
}

static void fill_device_stats(Run *run, ExecResult *out)
{
	ExecRuntime *rt = run->rt;
	size_t n = 0;
	out->profile.devices = xcalloc(rt->table->count + 1, sizeof(ExecDeviceStat));
	if (rt->reference.opened)
		out->profile.devices[n++] =
			(ExecDeviceStat){-1, rt->reference.backend->name, rt->reference.bytes_peak};
	for (uint32_t i = 0; i < rt->table->count; i++)
		if (rt->devices[i].opened)
			out->profile.devices[n++] =
				(ExecDeviceStat){(int32_t)i, rt->devices[i].backend->name,
						 rt->devices[i].bytes_peak};
	out->profile.ndevices = n;
}

/* A run in progress (exec_run_begin): the interpreter's state, the work
 * stack of @main's body and where its results go. */
struct ExecRunning {
	Run run;
	ExecOptions opts; /* run.opts points here */
	ExecParam *params;
	Frame *main_frame;
	WorkStack ws;
	ExecResult *out;
	ExecClock t0;
	ExecStepStatus status;
};

/* Frees r, a run that got past its checks of @main and the inputs (run->m
 * set): the values its frames and fixed slots still hold, then its
 * devices, its tables and r itself. With stats given, the run's time and
 * each device's peak are recorded there between the two: the time counts
 * the releases, and the peaks are read before the devices close. */
static void running_free(ExecRunning *r, ExecResult *stats)
{
	Run *run = &r->run;
	frames_sweep(run);
	for (uint32_t id = 0; id < run->m->nexprs; id++)
		value_release(run, run->fixed[id]);
	if (stats) {
		ExecClock t1 = exec_clock_now(true);
		stats->profile.run_seconds = exec_clock_wall(&r->t0, &t1);
		stats->profile.run_busy = exec_clock_busy(&r->t0, &t1);
		fill_device_stats(run, stats);
	}
	exec_runtime_free(run->rt);
	free(run->fixed);
	layout_free(run);
	free(r->params);
	free(r->ws.items);
	free(r);
}

/* The cleanup of a run that memory ran out in (oom.h): what the end of
 * exec_run frees, less the results, which were never handed over. Values
 * held only by the interpreter's work stack at that moment are lost. */
static void run_abandon(void *arg)
{
	running_free(arg, NULL);
}

/* Everything before the first op: the checks, the devices opened and the
 * inputs bound; false after reporting. */
static bool run_prepare(ExecRunning *r, const NpyArray *inputs, size_t nparams)
{
	Run *run = &r->run;
	const IrModule *m = run->m;
	int32_t main_index = ir_find_global(m, "main");
	if (!check_kernels(run) || !check_sizes(run))
		return false;
	/* open every device the plan uses before allocating anything, so that
	 * the host allocator is settled and the notes come first */
	if (!r->opts.all_on_cpu) {
		Expr **by_id = ir_index_by_id(m);
		bool opened = true;
		for (uint32_t id = 0; id < m->nexprs && opened; id++)
			if (by_id[id] && run->owner[id] >= 0 && by_id[id]->device != IR_NO_DEVICE)
				opened = exec_runtime_device(run->rt, by_id[id]->device) != NULL;
		free(by_id);
		if (!opened)
			return false;
	} else if (!exec_runtime_device(run->rt, -1)) {
		return false;
	}
	if (!check_dtypes(run))
		return false;
	r->main_frame =
		frame_new(run, &run->fns[run->fn_info[m->globals[main_index].fn->id]], NULL);
	for (size_t i = 0; i < nparams; i++)
		if (!bind_input(run, r->main_frame, &r->params[i], &inputs[i]))
			return false;
	return push(run, &r->ws, r->main_frame, r->main_frame->info->fn->u.fn.body);
}

ExecRunning *exec_run_begin(const IrModule *m, const DeviceTable *devices, const ExecOptions *opts,
			    const NpyArray *inputs, size_t ninputs, ExecResult *out,
			    DiagList *diags)
{
	ExecRunning *r = xcalloc(1, sizeof *r);
	Run *run = &r->run;
	size_t nparams;
	int32_t main_index = ir_find_global(m, "main");
	r->t0 = exec_clock_now(true);
	r->out = out;
	r->opts = *opts;
	r->status = EXEC_STEP_FAILED;
	memset(out, 0, sizeof *out);
	if (main_index < 0) {
		diag_error(diags, NULL, (Pos){0, 0}, "the module has no @main");
		return r;
	}
	if (!r->opts.max_depth)
		r->opts.max_depth = EXEC_DEFAULT_MAX_DEPTH;
	run->m = m;
	run->table = devices;
	run->opts = &r->opts;
	run->diags = diags;
	run->profile = &out->profile;
	run->live.next = run->live.prev = &run->live;
	run->limit = exec_physical_memory();
	if (r->opts.memory_limit && r->opts.memory_limit < run->limit)
		run->limit = r->opts.memory_limit;
	nparams = exec_params(m, &r->params);
	if (ninputs != nparams) {
		diag_error(diags, NULL, (Pos){0, 0}, "@main takes %zu inputs, %zu given", nparams,
			   ninputs);
		free(r->params);
		r->params = NULL;
		run->m = NULL;
		return r;
	}
	layout_build(run);
	run->fixed = xcalloc(m->nexprs ? m->nexprs : 1, sizeof(Value *));
	run->rt = exec_runtime_new(devices, &r->opts, diags);
	run->cleanup = oom_cleanup_add(run_abandon, r);
	r->status = run_prepare(r, inputs, nparams) ? EXEC_STEP_MORE : EXEC_STEP_FAILED;
	return r;
}

ExecStepStatus exec_run_step(ExecRunning *r)
{
	if (r->status == EXEC_STEP_MORE)
		r->status = work_through(&r->run, &r->ws, true);
	return r->status;
}

bool exec_run_end(ExecRunning *r)
{
	Run *run = &r->run;
	ExecResult *out = r->out;
	Value *result = NULL;
	bool ok = false;
	if (!run->m) { /* no @main, or the inputs did not match */
		free(r);
		return false;
	}
	oom_cleanup_remove(run->cleanup);
	if (r->status == EXEC_STEP_DONE) {
		const Expr *body = r->main_frame->info->fn->u.fn.body;
		result = value_ref(lookup(run, r->main_frame, body));
		use_done(run, r->main_frame, body);
		ok = collect_outputs(run, result, out);
	}
	value_release(run, result);
	running_free(r, out);
	if (!ok) {
		for (size_t i = 0; i < out->noutputs; i++)
			npy_array_free(&out->outputs[i]);
		free(out->outputs);
		free(out->output_devices);
		out->outputs = NULL;
		out->output_devices = NULL;
		out->noutputs = 0;
	}
	return ok;
}

bool exec_run(const IrModule *m, const DeviceTable *devices, const ExecOptions *opts,
	      const NpyArray *inputs, size_t ninputs, ExecResult *out, DiagList *diags)
{
	ExecRunning *r = exec_run_begin(m, devices, opts, inputs, ninputs, out, diags);
	if (r->status == EXEC_STEP_MORE)
		r->status = work_through(&r->run, &r->ws, false);
	return exec_run_end(r);
}

/* ---- evaluating one expression ahead of a run ------------------------------- */

/* What exec_evaluate needs of an expression, by id. */
enum { NEED_NONE, NEED_SHAPE, NEED_DATA };

typedef struct Cone {
	Run *run;
	int32_t fi;           /* the function of the target: its index into run->fns */
	bool in_main;         /* that function is @main, whose inputs are known */
	ExecDevice *cpu;      /* the reference cpu */
	int64_t max_elements; /* per computed value */
	uint8_t *need;        /* by id */
	const Expr **data;    /* the expressions computed, inputs before their readers */
	size_t ndata, cap_data;
	const Expr **shape; /* read only by shape_of: their types serve */
	size_t nshape, cap_shape;
	char *why;   /* EVAL_UNKNOWN */
	bool failed; /* EVAL_FAILED, reported */
} Cone;

static bool cone_unknown(Cone *c, const Expr *e, const char *fmt)
{
	StrBuf what;
	strbuf_init(&what);
	describe_expr(&what, e);
	free(c->why);
	c->why = xasprintf(fmt, what.data);
	strbuf_free(&what);
	return false;
}

/* Every tensor of t static and, when `computed`, within max_elements. */
static bool cone_type(Cone *c, const Expr *e, const Type *t, bool computed)
{
	int64_t count;
	if (!t)
		return cone_unknown(c, e, "it depends on %s, which is not typed");
	switch (t->kind) {
	case TYPE_TUPLE:
		for (uint32_t i = 0; i < t->u.tuple.nfields; i++)
			if (!cone_type(c, e, t->u.tuple.fields[i], computed))
				return false;
		return true;
	case TYPE_FUNC:
	case TYPE_REF:
	case TYPE_VAR:
	case TYPE_CALL:
		return cone_unknown(c, e, "it depends on %s, which is not a tensor");
	case TYPE_TENSOR:
		break;
	}
	for (uint32_t i = 0; i < t->u.tensor.ndim; i++)
		if (t->u.tensor.dims[i] < 0)
			return cone_unknown(c, e,
					    "it depends on %s, whose shape is not known before "
					    "running");
	if (!type_num_elements(t, &count))
		return cone_unknown(c, e, "it depends on %s, whose size overflows");
	if (computed && count > c->max_elements) {
		StrBuf what, ty;
		strbuf_init(&what);
		strbuf_init(&ty);
		describe_expr(&what, e);
		type_print(&ty, t);
		diag_error(c->run->diags, c->run->m->src, e->pos,
			   "%s would be computed ahead of the run to find a shape, but its %s is "
			   "more than the %lld elements devplan computes ahead of a run",
			   what.data, ty.data, (long long)c->max_elements);
		strbuf_free(&what);
		strbuf_free(&ty);
		c->failed = true;
		return false;
	}
	return true;
}

/* Whether e can be computed here (see exec_evaluate); false with c->why or
 * c->failed. */
static bool cone_admit(Cone *c, const Expr *e)
{
	switch (e->kind) {
	case EXPR_CONSTANT:
		return true;
	case EXPR_VAR:
		if (e->u.var.role == VAR_LET && !e->u.var.value)
			return cone_unknown(c, e, "it depends on %s, which has no value");
		if (e->u.var.role == VAR_PATTERN)
			return cone_unknown(c, e, "it depends on %s, bound by a match");
		return true;
	case EXPR_CALL:
		if (e->u.call.op == OP_NONE)
			return cone_unknown(c, e, "it depends on %s, a call of a function");
		if (e->u.call.op == OP_UNKNOWN || !op_info(e->u.call.op)->has_kernel)
			return cone_unknown(c, e, "it depends on %s, which devplan cannot run");
		return true;
	case EXPR_TUPLE:
	case EXPR_PROJ:
		return true;
	case EXPR_IF:
		return cone_unknown(c, e, "it depends on %s, an 'if'");
	case EXPR_LET:
	case EXPR_GLOBAL:
	case EXPR_OP_VALUE:
	case EXPR_FN:
	case EXPR_CONSTRUCT:
	case EXPR_MATCH:
		break;
	}
	return cone_unknown(c, e,
			    "it depends on %s, which devplan does not compute ahead of a run");
}

/* The types of e, checked once what it reads is: so the first `?` found is
 * where the unknown shapes start. An input's size is not limited (it is
 * not computed), an op's is. */
static bool cone_types(Cone *c, const Expr *e)
{
	DType bad;
	switch (e->kind) {
	case EXPR_VAR:
		return e->u.var.role == VAR_LET || cone_type(c, e, e->type, false);
	case EXPR_CALL:
		if (!cone_type(c, e, e->type, true))
			return false;
		if (!backend_takes(c->cpu, e->u.call.op, e->type, &bad))
			return cone_unknown(c, e, "it depends on %s, which the cpu cannot run");
		for (uint32_t i = 0; i < e->u.call.nargs; i++)
			if (!backend_takes(c->cpu, e->u.call.op, e->u.call.args[i]->type, &bad))
				return cone_unknown(c, e,
						    "it depends on %s, which the cpu cannot run");
		return true;
	case EXPR_CONSTANT:
	case EXPR_TUPLE:
	case EXPR_PROJ:
	case EXPR_GLOBAL:
	case EXPR_OP_VALUE:
	case EXPR_FN:
	case EXPR_LET:
	case EXPR_IF:
	case EXPR_CONSTRUCT:
	case EXPR_MATCH:
		break;
	}
	return true;
}

/* Child k of e whose value e reads (a let variable reads its value); NULL
 * past the last. */
static const Expr *cone_child(const Expr *e, uint32_t k)
{
	switch (e->kind) {
	case EXPR_CALL:
		return k < e->u.call.nargs ? e->u.call.args[k] : NULL;
	case EXPR_TUPLE:
		return k < e->u.tuple.nfields ? e->u.tuple.fields[k] : NULL;
	case EXPR_PROJ:
		return k == 0 ? e->u.proj.tuple : NULL;
	case EXPR_VAR:
		return k == 0 && e->u.var.role == VAR_LET ? e->u.var.value : NULL;
	case EXPR_CONSTANT:
	case EXPR_GLOBAL:
	case EXPR_OP_VALUE:
	case EXPR_FN:
	case EXPR_LET:
	case EXPR_IF:
	case EXPR_CONSTRUCT:
	case EXPR_MATCH:
		break;
	}
	return NULL;
}

/* Marks what target reads, depth first without recursion: c->data in an
 * order where every expression follows those it reads. */
static bool cone_build(Cone *c, const Expr *target)
{
	typedef struct {
		const Expr *e;
		uint32_t next;
	} Item;
	Item *stack = NULL;
	size_t n = 0, cap = 0;
	bool ok = true;
	if (!cone_admit(c, target))
		return false;
	c->need[target->id] = NEED_DATA;
	grow_array((void **)&stack, &cap, 1, sizeof(Item));
	stack[n++] = (Item){target, 0};
	while (n && ok) {
		Item *top = &stack[n - 1];
		const Expr *e = top->e, *child = cone_child(e, top->next++);
		if (!child) {
			if (!cone_types(c, e)) {
				ok = false;
				break;
			}
			grow_array((void **)&c->data, &c->cap_data, c->ndata + 1, sizeof(Expr *));
			c->data[c->ndata++] = e;
			n--;
			continue;
		}
		if (c->need[child->id] == NEED_DATA)
			continue;
		/* shape_of reads its operand's shape only (not a constant's: that
		 * costs nothing) */
		if (ir_is_op(e, OP_SHAPE_OF) && child->kind != EXPR_CONSTANT) {
			if (c->need[child->id] == NEED_NONE) {
				if (!child->type || child->type->kind != TYPE_TENSOR) {
					ok = cone_unknown(c, child,
							  "it depends on the shape of %s, which "
							  "is not a tensor");
					break;
				}
				if (!cone_type(c, child, child->type, false)) {
					ok = false;
					break;
				}
				c->need[child->id] = NEED_SHAPE;
				grow_array((void **)&c->shape, &c->cap_shape, c->nshape + 1,
					   sizeof(Expr *));
				c->shape[c->nshape++] = child;
			}
			continue;
		}
		if (!cone_admit(c, child)) {
			ok = false;
			break;
		}
		c->need[child->id] = NEED_DATA;
		grow_array((void **)&stack, &cap, n + 1, sizeof(Item));
		stack[n++] = (Item){child, 0};
	}
	free(stack);
	return ok;
}

/* Every expression computed belongs to the target's function, and reads
 * inputs only when that is @main (checked once the layout is built, after
 * the cheaper checks of cone_build). */
static bool cone_in_one_function(Cone *c)
{
	for (size_t i = 0; i < c->ndata; i++) {
		const Expr *e = c->data[i];
		if (c->run->owner[e->id] != c->fi)
			return cone_unknown(c, e, "it depends on %s, a value of another function");
		if (e->kind == EXPR_VAR && e->u.var.role != VAR_LET && !c->in_main)
			return cone_unknown(c, e,
					    "it depends on %s, an input of a function other than "
					    "@main");
	}
	return true;
}

/* A tensor with the shape of e's static type and no data, for shape_of. */
static bool cone_bind_shape(Cone *c, Frame *frame, const Expr *e)
{
	Value *v;
	const Type *t = e->type;
	if (c->run->owner[e->id] != c->fi)
		return cone_unknown(c, e, "it depends on %s, a value of another function");
	v = value_new(VALUE_TENSOR);
	v->u.tensor.device = c->cpu;
	v->u.tensor.dtype = t->u.tensor.dtype;
	v->u.tensor.ndim = t->u.tensor.ndim;
	v->u.tensor.shape = t->u.tensor.dims;
	if (e->kind == EXPR_VAR && e->u.var.role == VAR_FREE)
		c->run->fixed[e->id] = v;
	else
		*slot_of(c->run, frame, e) = v;
	return true;
}

/* Computes c->data in order: inputs are bound, let variables take their
 * values, constants and the rest run. */
static bool cone_compute(Cone *c, Frame *frame, const ExecParam *params, size_t nparams,
			 const NpyArray *inputs)
{
	Run *run = c->run;
	for (size_t i = 0; i < nparams && c->in_main; i++)
		if (c->need[params[i].var->id] == NEED_DATA &&
		    !bind_input(run, frame, &params[i], &inputs[i]))
			return false;
	for (size_t i = 0; i < c->ndata; i++) {
		const Expr *e = c->data[i];
		if (lookup(run, frame, e))
			continue;
		if (e->kind == EXPR_VAR && e->u.var.role == VAR_LET) {
			Value *v = lookup(run, frame, e->u.var.value);
			DP_ASSERT(v);
			*slot_of(run, frame, e) = value_ref(v);
		} else if (e->kind == EXPR_CONSTANT) {
			if (!constant_value(run, e))
				return false;
		} else if (!evaluate(run, frame, e)) {
			return false;
		}
	}
	return true;
}

ExecEvalStatus exec_evaluate(const IrModule *m, const Expr *target, const NpyArray *inputs,
			     size_t ninputs, int64_t max_elements, NpyArray *out, char **why,
			     DiagList *diags)
{
	ExecOptions o = {.all_on_cpu = true, .max_depth = EXEC_DEFAULT_MAX_DEPTH};
	DeviceTable none = {0};
	ExecProfile profile = {0};
	Run run;
	Cone c;
	ExecParam *params = NULL;
	size_t nparams;
	int32_t main_index = ir_find_global(m, "main");
	Frame *frame = NULL;
	Value *v;
	char *err = NULL;
	ExecEvalStatus status = EVAL_FAILED;
	memset(out, 0, sizeof *out);
	*why = NULL;
	if (main_index < 0) {
		*why = xstrdup("the module has no @main");
		return EVAL_UNKNOWN;
	}
	nparams = exec_params(m, &params);
	if (ninputs != nparams) {
		diag_error(diags, NULL, (Pos){0, 0}, "@main takes %zu inputs, %zu given", nparams,
			   ninputs);
		free(params);
		return EVAL_FAILED;
	}
	memset(&run, 0, sizeof run);
	run.m = m;
	run.table = &none;
	run.opts = &o;
	run.diags = diags;
	run.profile = &profile;
	run.live.next = run.live.prev = &run.live;
	run.limit = exec_physical_memory();
	run.rt = exec_runtime_new(&none, &o, diags);
	memset(&c, 0, sizeof c);
	c.run = &run;
	c.max_elements = max_elements;
	c.need = xcalloc(m->nexprs ? m->nexprs : 1, 1);
	/* the cone first: a value that cannot be computed yet (asked again
	 * each round of plan_specialize) costs no layout of the module */
	if (!(c.cpu = exec_runtime_device(run.rt, -1)) || !cone_build(&c, target))
		goto done;
	layout_build(&run);
	run.fixed = xcalloc(m->nexprs ? m->nexprs : 1, sizeof(Value *));
	c.fi = run.owner[target->id];
	c.in_main = c.fi == run.fn_info[m->globals[main_index].fn->id];
	if (c.fi < 0) {
		cone_unknown(&c, target, "%s is in no function");
		goto done;
	}
	if (!cone_in_one_function(&c))
		goto done;
	frame = frame_new(&run, &run.fns[c.fi], NULL);
	for (size_t i = 0; i < c.nshape; i++)
		if (c.need[c.shape[i]->id] == NEED_SHAPE && !cone_bind_shape(&c, frame, c.shape[i]))
			goto done;
	if (!cone_compute(&c, frame, params, nparams, inputs))
		goto done;
	v = lookup(&run, frame, target);
	DP_ASSERT(v);
	if (v->kind != VALUE_TENSOR) {
		cone_unknown(&c, target, "%s is not a tensor");
		goto done;
	}
	if (!npy_array_alloc(out, v->u.tensor.dtype, v->u.tensor.ndim, v->u.tensor.shape, &err) ||
	    !exec_copy_out(v->u.tensor.device, out->data, v->u.tensor.data, out->nbytes, &err)) {
		diag_error(diags, m->src, target->pos,
			   "reading a value computed ahead of the run: %s", err);
		free(err);
		npy_array_free(out);
		goto done;
	}
	status = EVAL_DONE;
done:
	if (status != EVAL_DONE && c.why && !c.failed) {
		status = EVAL_UNKNOWN;
		*why = c.why;
		c.why = NULL;
	}
	free(c.why);
	free(c.need);
	free(c.data);
	free(c.shape);
	frames_sweep(&run);
	for (uint32_t id = 0; run.fixed && id < m->nexprs; id++)
		value_release(&run, run.fixed[id]);
	exec_runtime_free(run.rt);
	free(run.fixed);
	layout_free(&run);
	free(params);
	free(profile.ops);
	free(profile.copies);
	return status;
}

void exec_result_free(ExecResult *r)
{
	for (size_t i = 0; i < r->noutputs; i++)
		npy_array_free(&r->outputs[i]);
	free(r->outputs);
	free(r->output_devices);
	free(r->profile.ops);
	free(r->profile.copies);
	free(r->profile.devices);
	memset(r, 0, sizeof *r);
}
