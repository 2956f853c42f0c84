/*
 * plan_constraints.c - turns a module into device-domain constraints.
 *
 * One walk over every expression of every global, each node once, emitting
 * the constraints TVM's DeviceAnalyzer would unify (SPEC §3.1):
 *   op(args)            every arg and the result share one domain; for
 *                       ref, ref_read and ref_write a first-order one, so
 *                       that a closure in a cell collapses onto the
 *                       cell's device (TVM's UnifyExprCollapsed)
 *   on_device(e, D)     e is on D; the result too when constrain_result
 *   device_copy(e,S,D)  fn(S):D
 *   f(args)             f's function domain fn(args):call
 *   let x = v; b        x ~ v, let ~ b
 *   fn(params) { b }    fn(params):b, plus written virtual_devices
 *   fn(params, Primitive=1) { b }
 *                       fn(D..D):D, as TVM's PlanDevices treats a fused
 *                       kernel (one device for its operands and result),
 *                       unless b is a device_copy (a fused copy: fn(S):D)
 *   (a, b), t.i, if     all collapse to one domain: the tuple, the
 *                       projected tuple and the condition are first-order
 *                       (plan_domain_set_first_order), so that a closure
 *                       among them has its parameters and result forced
 *                       onto that one device, as TVM's UnifyExprCollapsed
 *                       does (a closure stored in a tuple runs where the
 *                       tuple is)
 *   Ctor(a, b)          every field and the result share one domain, as
 *                       TVM's DomainForCallee gives a constructor
 *                       fn(?r?, ..., ?r?):?r?, the result first-order (a
 *                       closure field collapses onto it); a conflict there
 *                       is one like an op's operand's (a copy can go on a
 *                       field)
 *   match (s) { p => b, ... }
 *                       as TVM's DeviceAnalyzer: s is collapsed onto the
 *                       match's domain (a copy can go on it), every
 *                       pattern variable onto s's (the match's side of
 *                       that use, so a copy check puts on s feeds them),
 *                       and every clause body unified exactly with the
 *                       match
 * and, as TVM's DeviceDomains::DomainForCallee, shapes on the host (the
 * table's cpu:0) while the data lives where it lives:
 *   vm.shape_of(x)              fn(?x?):host (x free)
 *   vm.reshape_tensor(d, s)     fn(?x?, host):?x?
 *   vm.invoke_tvm_op(f, i, o)   fn(?f?, ?x?, ?x?):?x? (f free)
 * and, as DomainForCallee and GetAnyCall read LowerTE's calls:
 *   call_lowered(@f, (a, b))    @f's function domain fn(a, b):call, like
 *                               @f(a, b) (GetAnyCall): each field meets
 *                               its parameter's domain only, so fields
 *                               may differ (DomainForCallee leaves a
 *                               lowered function's arguments free of one
 *                               another); a tuple used only there is no
 *                               tuple to collapse, one used elsewhere too
 *                               still is
 *   memory.alloc_storage(size, shape, alignment, virtual_device=D)
 *                               fn(host, host, host):D (D free if absent)
 *   memory.alloc_tensor(storage, offset, shape)
 *                               fn(?x?, host, host):?x?
 * (memory.kill is an ordinary primitive op there too.)
 * Constraints that relate a value to one of its uses record the value's id,
 * so that `check` can tell a value's uses apart; for those the consumer side
 * is `a` and the value side is `b`.
 */
#include <stdlib.h>
#include <string.h>

#include "plan.h"

typedef struct Generator {
	PlanAnalysis *an;
	uint8_t *cuttable;
	size_t cap_cuttable;
	uint8_t *in_primitive; /* by id: inside a Primitive=1 function's body;
				  NULL when the module has none */
	int32_t host;          /* device-table index of the host, or IR_NO_DEVICE */
	uint8_t *lowered_args; /* plan_lowered_argument_tuples, or NULL */
} Generator;

int32_t plan_host_device(const DeviceTable *devices)
{
	int d = devices ? devices_find(devices, DEVICE_TYPE_CPU, 0) : -1;
	return d < 0 ? IR_NO_DEVICE : (int32_t)d;
}

int32_t plan_op_operand_device(const Expr *e, uint32_t i, int32_t host)
{
	if (e->u.call.op == OP_VM_SHAPE_OF && e->u.call.nargs == 1)
		return IR_NO_DEVICE;
	if (e->u.call.op == OP_VM_RESHAPE_TENSOR && e->u.call.nargs == 2 && i == 1)
		return host;
	if (e->u.call.op == OP_VM_INVOKE_TVM_OP && e->u.call.nargs == 3 && i == 0)
		return IR_NO_DEVICE;
	if (e->u.call.op == OP_CALL_LOWERED)
		return IR_NO_DEVICE; /* the callee's parameters say: plan_verify */
	if (e->u.call.op == OP_MEMORY_ALLOC_STORAGE && e->u.call.nargs == 3)
		return host;
	if (e->u.call.op == OP_MEMORY_ALLOC_TENSOR && e->u.call.nargs == 3 && i > 0)
		return host;
	return e->device;
}

static uint32_t emit(Generator *g, ConstraintKind kind, const Expr *site, const Expr *value,
		     uint32_t index, uint32_t a, uint32_t b, bool cuttable)
{
	Constraint c = {
		.kind = kind,
		.site = site ? site->id : PLAN_NONE,
		.value = value ? value->id : PLAN_NONE,
		.index = index,
		.a = a,
		.b = b,
		.device = IR_NO_DEVICE,
	};
	uint32_t i = plan_constraint_add(g->an, &c);
	grow_array((void **)&g->cuttable, &g->cap_cuttable, i + 1, 1);
	g->cuttable[i] = cuttable;
	return i;
}

static void emit_bind(Generator *g, ConstraintKind kind, const Expr *site, const Expr *value,
		      uint32_t a, int32_t device)
{
	uint32_t i;
	if (device == IR_NO_DEVICE)
		return;
	i = emit(g, kind, site, value, 0, a, PLAN_NONE, false);
	g->an->constraints[i].device = device;
}

/* A value a device_copy can be put around: not a function, and not a
 * reference (a copy would be a second cell, which writes would miss). */
static bool copyable(const Expr *e)
{
	if (e->kind == EXPR_FN || e->kind == EXPR_GLOBAL || e->kind == EXPR_OP_VALUE)
		return false;
	if (e->type && (e->type->kind == TYPE_FUNC || e->type->kind == TYPE_REF))
		return false;
	return true;
}

/* The domain of e, marked first-order (Domain.first_order): e is a value
 * TVM types first-order (a tuple, a bool condition, an ADT value, a
 * reference), so a closure that meets it collapses onto its one device,
 * as TVM's UnifyExprCollapsed does. A domain that is already a function
 * (a type error infer reports) is left as it is. */
static uint32_t first_order_domain_of(PlanAnalysis *an, const Expr *e)
{
	uint32_t d = plan_domain_of(an, e);
	if (!an->domains[plan_domain_find(an, d)].nchildren)
		plan_domain_set_first_order(an, d);
	return d;
}

static uint32_t fn_child(PlanAnalysis *an, uint32_t fd, uint32_t i)
{
	Domain *d = &an->domains[plan_domain_find(an, fd)];
	DP_ASSERT(i < d->nchildren);
	return an->children[d->children + i];
}

/* Operand i of op call e is read on the host: the operand's own domain,
 * bound to the host, then the argument's use of it, on which check can
 * put a copy. Without a host in the table the argument is left free. */
static void host_operand(Generator *g, Expr *e, uint32_t i)
{
	PlanAnalysis *an = g->an;
	Expr *arg = e->u.call.args[i];
	if (g->host != IR_NO_DEVICE) {
		uint32_t h = plan_domain_new(an);
		uint32_t k = emit(g, CONSTRAINT_HOST_OPERAND, e, NULL, i, h, PLAN_NONE, false);
		an->constraints[k].device = g->host;
		emit(g, CONSTRAINT_HOST_OPERAND, e, arg, i, h, plan_domain_of(an, arg),
		     copyable(arg));
	} else {
		plan_domain_of(an, arg);
	}
}

static void generate_call(Generator *g, Expr *e)
{
	PlanAnalysis *an = g->an;
	uint32_t self = plan_domain_of(an, e);
	if (e->u.call.op == OP_ON_DEVICE) {
		int32_t device;
		bool body, result;
		Expr *arg = e->u.call.args[0];
		ir_on_device_props(e, &device, &body, &result);
		if (g->in_primitive && g->in_primitive[e->id])
			return; /* TVM does not look inside a fused kernel */
		if (body) {
			emit_bind(g, CONSTRAINT_ON_DEVICE_BODY, e, arg, plan_domain_of(an, arg),
				  device);
		} else {
			plan_domain_of(an, arg);
			an->has_loose_boundary = true;
		}
		if (result)
			emit_bind(g, CONSTRAINT_ON_DEVICE_RESULT, e, arg, self, device);
		return;
	}
	if (e->u.call.op == OP_DEVICE_COPY) {
		int32_t src, dst;
		Expr *arg = e->u.call.args[0];
		ir_device_copy_props(e, &src, &dst);
		emit_bind(g, CONSTRAINT_COPY_SOURCE, e, arg, plan_domain_of(an, arg), src);
		emit_bind(g, CONSTRAINT_COPY_DEST, e, arg, self, dst);
		return;
	}
	if (e->u.call.op == OP_VM_SHAPE_OF && e->u.call.nargs == 1) {
		/* fn(?x?):host: the tensor anywhere, its shape on the host */
		plan_domain_of(an, e->u.call.args[0]);
		emit_bind(g, CONSTRAINT_HOST_RESULT, e, NULL, self, g->host);
		return;
	}
	if (e->u.call.op == OP_VM_RESHAPE_TENSOR && e->u.call.nargs == 2) {
		/* fn(?x?, host):?x? */
		Expr *data = e->u.call.args[0];
		emit(g, CONSTRAINT_OP_ARG, e, data, 0, self, plan_domain_of(an, data),
		     copyable(data));
		host_operand(g, e, 1);
		return;
	}
	if (e->u.call.op == OP_MEMORY_ALLOC_STORAGE && e->u.call.nargs == 3) {
		/* fn(host, host, host):D, D the virtual_device attribute (free
		 * when it has none) */
		const Attr *a = ir_attr(e, "virtual_device");
		for (uint32_t i = 0; i < 3; i++)
			host_operand(g, e, i);
		if (a && a->value.kind == ATTR_DEVICE)
			emit_bind(g, CONSTRAINT_ALLOC_DEVICE, e, NULL, self, a->value.u.device);
		return;
	}
	if (e->u.call.op == OP_MEMORY_ALLOC_TENSOR && e->u.call.nargs == 3) {
		/* fn(?x?, host, host):?x?: the tensor where its storage is */
		Expr *storage = e->u.call.args[0];
		emit(g, CONSTRAINT_OP_ARG, e, storage, 0, self, plan_domain_of(an, storage),
		     copyable(storage));
		host_operand(g, e, 1);
		host_operand(g, e, 2);
		return;
	}
	if (e->u.call.op == OP_VM_INVOKE_TVM_OP && e->u.call.nargs == 3) {
		/* fn(?f?, ?x?, ?x?):?x?: the callee in its own domain */
		plan_domain_of(an, e->u.call.args[0]);
		for (uint32_t i = 1; i < 3; i++) {
			Expr *arg = e->u.call.args[i];
			emit(g, CONSTRAINT_OP_ARG, e, arg, i, self, plan_domain_of(an, arg),
			     copyable(arg));
		}
		return;
	}
	if (e->u.call.op == OP_CALL_LOWERED && e->u.call.nargs == 2 &&
	    e->u.call.args[1]->kind == EXPR_TUPLE) {
		/* @f(fields): @f's domain fn(fields):call. Not cuttable: a copy
		 * goes on a call's operand, and the fields are the tuple's. */
		Expr *tuple = e->u.call.args[1];
		uint32_t n = tuple->u.tuple.nfields;
		uint32_t fd = plan_domain_as_function(an, plan_domain_new(an), n);
		emit(g, CONSTRAINT_CALLEE, e, e->u.call.args[0], 0, fd,
		     plan_domain_of(an, e->u.call.args[0]), false);
		for (uint32_t i = 0; i < n; i++) {
			Expr *arg = tuple->u.tuple.fields[i];
			emit(g, CONSTRAINT_CALL_ARG, e, arg, i, fn_child(an, fd, i),
			     plan_domain_of(an, arg), false);
		}
		emit(g, CONSTRAINT_CALL_RESULT, e, NULL, n, fn_child(an, fd, n), self, false);
		return;
	}
	/* TVM's references are first-order: the cell (ref's result, the ref
	 * operand of ref_read and ref_write) and the write collapse onto what
	 * they meet, a closure included */
	if (e->u.call.op == OP_REF_CREATE || e->u.call.op == OP_REF_WRITE)
		first_order_domain_of(an, e);
	if ((e->u.call.op == OP_REF_READ || e->u.call.op == OP_REF_WRITE) && e->u.call.nargs)
		first_order_domain_of(an, e->u.call.args[0]);
	if (e->u.call.op != OP_NONE) {
		for (uint32_t i = 0; i < e->u.call.nargs; i++) {
			Expr *arg = e->u.call.args[i];
			emit(g, CONSTRAINT_OP_ARG, e, arg, i, self, plan_domain_of(an, arg),
			     copyable(arg));
		}
		return;
	}
	{
		/* A call of a function value: its domain is fn(args):call. */
		uint32_t n = e->u.call.nargs;
		uint32_t fd = plan_domain_new(an);
		fd = plan_domain_as_function(an, fd, n);
		emit(g, CONSTRAINT_CALLEE, e, e->u.call.callee, 0, fd,
		     plan_domain_of(an, e->u.call.callee), false);
		for (uint32_t i = 0; i < n; i++) {
			Expr *arg = e->u.call.args[i];
			emit(g, CONSTRAINT_CALL_ARG, e, arg, i, fn_child(an, fd, i),
			     plan_domain_of(an, arg), copyable(arg));
		}
		emit(g, CONSTRAINT_CALL_RESULT, e, NULL, n, fn_child(an, fd, n), self, false);
	}
}

static void generate_node(Generator *g, const IrModule *m, Expr *e)
{
	PlanAnalysis *an = g->an;
	switch (e->kind) {
	case EXPR_VAR:
	case EXPR_CONSTANT:
		plan_domain_of(an, e);
		return;
	case EXPR_OP_VALUE:
		/* as TVM's DeviceAnalyzer: an operator or constructor is
		 * polymorphic, each use a domain of its own that only what
		 * calls it (through a let) constrains */
		plan_domain_of(an, e);
		return;
	case EXPR_GLOBAL:
		if (e->u.global.index >= 0 && (uint32_t)e->u.global.index < m->nglobals)
			emit(g, CONSTRAINT_GLOBAL, e, NULL, 0, plan_domain_of(an, e),
			     plan_domain_of(an, m->globals[e->u.global.index].fn), false);
		return;
	case EXPR_CALL:
		generate_call(g, e);
		return;
	case EXPR_LET:
		emit(g, CONSTRAINT_LET_VAR, e, e->u.let.value, 0, plan_domain_of(an, e->u.let.var),
		     plan_domain_of(an, e->u.let.value), false);
		emit(g, CONSTRAINT_LET_BODY, e, NULL, 0, plan_domain_of(an, e),
		     plan_domain_of(an, e->u.let.body), false);
		return;
	case EXPR_FN: {
		uint32_t n = e->u.fn.nparams;
		uint32_t fd = plan_domain_as_function(an, plan_domain_of(an, e), n);
		emit(g, CONSTRAINT_FN_BODY, e, NULL, n, fn_child(an, fd, n),
		     plan_domain_of(an, e->u.fn.body), false);
		for (uint32_t i = 0; i < n; i++) {
			Expr *p = e->u.fn.params[i];
			emit(g, CONSTRAINT_FN_PARAM, e, p, i, fn_child(an, fd, i),
			     plan_domain_of(an, p), false);
			emit_bind(g, CONSTRAINT_PARAM_DEVICE, p, p, plan_domain_of(an, p),
				  p->device);
			if (ir_fn_is_primitive(e) && !ir_is_op(e->u.fn.body, OP_DEVICE_COPY))
				emit(g, CONSTRAINT_PRIMITIVE_PARAM, e, p, i, fn_child(an, fd, i),
				     fn_child(an, fd, n), false);
		}
		emit_bind(g, CONSTRAINT_FN_DEVICE, e, NULL, plan_domain_of(an, e->u.fn.body),
			  e->device);
		return;
	}
	case EXPR_TUPLE:
		/* call_lowered's arguments: each field meets its parameter's
		 * domain alone (generate_call), as TVM lets them differ */
		if (g->lowered_args && g->lowered_args[e->id])
			return;
		for (uint32_t i = 0; i < e->u.tuple.nfields; i++) {
			Expr *f = e->u.tuple.fields[i];
			emit(g, CONSTRAINT_TUPLE_FIELD, e, f, i, first_order_domain_of(an, e),
			     plan_domain_of(an, f), copyable(f));
		}
		return;
	case EXPR_PROJ:
		emit(g, CONSTRAINT_PROJ, e, e->u.proj.tuple, 0, plan_domain_of(an, e),
		     first_order_domain_of(an, e->u.proj.tuple), false);
		return;
	case EXPR_CONSTRUCT:
		for (uint32_t i = 0; i < e->u.construct.nargs; i++) {
			Expr *f = e->u.construct.args[i];
			emit(g, CONSTRAINT_CONSTRUCT_ARG, e, f, i, first_order_domain_of(an, e),
			     plan_domain_of(an, f), copyable(f));
		}
		return;
	case EXPR_MATCH: {
		Expr *s = e->u.match.scrutinee;
		emit(g, CONSTRAINT_MATCH_SCRUTINEE, e, s, 0, plan_domain_of(an, e),
		     first_order_domain_of(an, s), copyable(s));
		/* the variables join the match's side of the scrutinee's use:
		 * the same domain as s's in TVM (s is collapsed onto the
		 * match), and where they are when check puts a copy on s */
		for (uint32_t i = 0; i < e->u.match.nvars; i++) {
			Expr *v = e->u.match.vars[i];
			emit(g, CONSTRAINT_PATTERN_VAR, e, v, i, plan_domain_of(an, e),
			     plan_domain_of(an, v), false);
		}
		for (uint32_t k = 0; k < e->u.match.nclauses; k++)
			emit(g, CONSTRAINT_MATCH_CLAUSE, e, NULL, k, plan_domain_of(an, e),
			     plan_domain_of(an, e->u.match.bodies[k]), false);
		return;
	}
	case EXPR_IF:
		emit(g, CONSTRAINT_IF_COND, e, e->u.if_.cond, 0, plan_domain_of(an, e),
		     first_order_domain_of(an, e->u.if_.cond), copyable(e->u.if_.cond));
		emit(g, CONSTRAINT_IF_BRANCH, e, NULL, 0, plan_domain_of(an, e),
		     plan_domain_of(an, e->u.if_.then_branch), false);
		emit(g, CONSTRAINT_IF_BRANCH, e, NULL, 1, plan_domain_of(an, e),
		     plan_domain_of(an, e->u.if_.else_branch), false);
		return;
	}
}

/* Marks the nodes of primitive function fn's body in marks. The walk
 * stops at nodes older than fn's first parameter: those were written
 * before the function, so they are outside it (TVM's primitive functions
 * capture nothing, but a hand-written one might). */
static void mark_primitive_body(uint8_t *marks, uint32_t nexprs, const Expr *fn)
{
	uint32_t lo = fn->u.fn.nparams ? fn->u.fn.params[0]->id : 0;
	ExprVec stack = {0};
	exprvec_push(&stack, fn->u.fn.body);
	while (stack.count) {
		Expr *e = stack.items[--stack.count];
		if (e->id < lo || e->id >= nexprs || marks[e->id])
			continue;
		marks[e->id] = 1;
		for (uint32_t i = 0; i < ir_child_count(e); i++)
			if (ir_child(e, i))
				exprvec_push(&stack, ir_child(e, i));
	}
	exprvec_free(&stack);
}

uint8_t *plan_primitive_bodies(Expr *const *nodes, size_t count, uint32_t nexprs)
{
	uint8_t *marks = NULL;
	for (size_t k = 0; k < count; k++) {
		const Expr *e = nodes[k];
		if (!e || e->kind != EXPR_FN || !ir_fn_is_primitive(e))
			continue;
		if (!marks)
			marks = xcalloc(nexprs ? nexprs : 1, 1);
		mark_primitive_body(marks, nexprs, e);
	}
	return marks;
}

uint8_t *plan_lowered_argument_tuples(Expr *const *nodes, size_t count, uint32_t nexprs)
{
	uint8_t *uses = NULL;
	for (size_t k = 0; k < count && !uses; k++) {
		const Expr *e = nodes[k];
		if (e && e->kind == EXPR_CALL && e->u.call.op == OP_CALL_LOWERED &&
		    e->u.call.nargs == 2 && e->u.call.args[1]->kind == EXPR_TUPLE)
			uses = xcalloc(nexprs ? nexprs : 1, 1);
	}
	if (!uses)
		return NULL;
	/* a tuple marked both ways is shared: it stays a tuple */
	for (size_t k = 0; k < count; k++) {
		const Expr *e = nodes[k];
		bool lowered = e && e->kind == EXPR_CALL && e->u.call.op == OP_CALL_LOWERED &&
			       e->u.call.nargs == 2;
		for (uint32_t i = 0; e && i < ir_child_count(e); i++) {
			const Expr *c = ir_child(e, i);
			if (c && c->kind == EXPR_TUPLE && c->id < nexprs)
				uses[c->id] |= lowered && c == e->u.call.args[1] ? 1 : 2;
		}
	}
	for (uint32_t id = 0; id < nexprs; id++)
		uses[id] = uses[id] == 1;
	return uses;
}

void plan_generate_constraints(PlanAnalysis *an, const PlanPin *pins, size_t npins, int32_t host,
			       uint8_t **cuttable)
{
	const IrModule *m = an->module;
	Generator g = {an,   NULL, 0, plan_primitive_bodies(an->by_id, an->nexprs, an->nexprs),
		       host, NULL};
	g.lowered_args = plan_lowered_argument_tuples(an->by_id, an->nexprs, an->nexprs);
	/* Unification does not depend on order, so the nodes are visited by
	 * id, which follows the text; events then read top to bottom.
	 * Function domains come first, so that every call site meets a
	 * function domain of the right arity. */
	for (uint32_t id = 0; id < an->nexprs; id++) {
		const Expr *e = an->by_id[id];
		if (e && e->kind == EXPR_FN)
			plan_domain_as_function(an, plan_domain_of(an, e), e->u.fn.nparams);
		/* a reference to a global too, so that `why` can follow a
		 * call's argument through it to the global's parameter */
		if (e && e->kind == EXPR_GLOBAL && e->u.global.index >= 0 &&
		    (uint32_t)e->u.global.index < m->nglobals)
			plan_domain_as_function(an, plan_domain_of(an, e),
						m->globals[e->u.global.index].fn->u.fn.nparams);
	}
	for (uint32_t id = 0; id < an->nexprs; id++)
		if (an->by_id[id])
			generate_node(&g, m, an->by_id[id]);
	/* what-if pins last: they read like annotations the user added */
	for (size_t i = 0; i < npins; i++)
		for (uint32_t id = 0; id < an->nexprs && !pins[i].body; id++) {
			/* a --body pin is an on_device rewrite put in */
			const Expr *e = an->by_id[id];
			if (e && plan_pin_matches(&pins[i], e))
				emit_bind(&g, CONSTRAINT_PIN, e, e, plan_domain_of(an, e),
					  pins[i].device);
		}
	if (cuttable)
		*cuttable = g.cuttable;
	else
		free(g.cuttable);
	free(g.in_primitive);
	free(g.lowered_args);
}
