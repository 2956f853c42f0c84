/*
 * plan_tvm.c - TVM v0.14's own conflict resolution, for `set policy tvm`.
 *
 * PlanDevices' phase 1 (PR #15090, src/relay/transforms/device_planner.cc
 * at v0.14.0), order of the visit included, so that a user sees TVM's
 * answer and can compare it with devplan's (SPEC §3.2):
 *   find     ConflictedNodeFinder: one pre-order walk of every global, each
 *            node once (the first time the walk meets it), that gives a
 *            device only to the operands of calls: at each call (an
 *            operator, a function call or a constructor), the call's own
 *            device so far (an on_device's result device when it constrains
 *            its result, a device_copy's destination) joins the call, and
 *            the device its operands must be on (an on_device's device
 *            when it constrains its body, a device_copy's source, else the
 *            call's) joins each operand; an operand whose device it cannot
 *            join is conflicted. The callee of a function call is not
 *            walked, nor are a reference's cell operations calls (they are
 *            not CallNodes in TVM). Globals go in definition order, where
 *            TVM's follows its module's hash map.
 *   rewrite  ConflictedNodeRewriter: every use of a conflicted value as an
 *            operand of a call reads it through its own device_copy, from
 *            the device the walk gave it first to the call's, unless the
 *            rewrite already changed something below that operand (TVM
 *            then no longer recognises the node: a quirk kept, since it is
 *            TVM's answer).
 * The first use the walk reaches therefore decides where a conflicting
 * value lives: swapping two operands or two independent bindings can move
 * it, which `conflicts` and `why` point out. What the walk does not see
 * (a value needed on two devices through a tuple or a function's
 * parameters) is left for core, which then fails as TVM's DeviceAnalyzer
 * does.
 */
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "plan.h"

/* Joins device d into *slot as TVM's VirtualDevice::Join does
 * (IR_NO_DEVICE: unconstrained, which joins anything; an entry without a
 * memory scope joins its device's scoped one); false when they differ. */
static bool join(const DeviceTable *devices, int16_t *slot, int32_t d)
{
	int32_t joined;
	if (d == IR_NO_DEVICE || *slot == d)
		return true;
	if (*slot == IR_NO_DEVICE) {
		*slot = (int16_t)d;
		return true;
	}
	joined = devices_join(devices, *slot, d);
	if (joined < 0)
		return false;
	*slot = (int16_t)joined;
	return true;
}

/* Whether e is what TVM calls a CallNode: an operator call (a reference
 * operation aside), a function call or a constructor application. */
static bool is_tvm_call(const Expr *e)
{
	if (e->kind == EXPR_CONSTRUCT)
		return true;
	if (e->kind != EXPR_CALL)
		return false;
	return e->u.call.op != OP_REF_CREATE && e->u.call.op != OP_REF_READ &&
	       e->u.call.op != OP_REF_WRITE;
}

static uint32_t call_nargs(const Expr *e)
{
	return e->kind == EXPR_CONSTRUCT ? e->u.construct.nargs : e->u.call.nargs;
}

static Expr **call_args(Expr *e)
{
	return e->kind == EXPR_CONSTRUCT ? e->u.construct.args : e->u.call.args;
}

static void add_clash(PlanTvm *t, uint32_t value, uint32_t site, int32_t device)
{
	grow_array((void **)&t->clashes, &t->cap_clashes, t->nclashes + 1, sizeof(PlanTvmClash));
	t->clashes[t->nclashes++] = (PlanTvmClash){value, site, device};
}

/* The devices a call's visit gives: the call's and its operands'. */
static void call_devices(const PlanTvm *t, const Expr *e, int32_t *self, int32_t *operands)
{
	*self = t->device[e->id];
	*operands = *self;
	if (ir_is_op(e, OP_ON_DEVICE)) {
		int32_t device;
		bool body, result;
		ir_on_device_props(e, &device, &body, &result);
		if (body)
			*operands = device;
		if (result)
			*self = device;
	} else if (ir_is_op(e, OP_DEVICE_COPY)) {
		ir_device_copy_props(e, operands, self);
	}
}

/* A call's visit: its own device, then each operand's. False after
 * reporting TVM's fatal error (a call whose device contradicts itself). */
static bool visit_call(PlanTvm *t, const IrModule *m, Expr *e, const DeviceTable *devices,
		       DiagList *diags)
{
	int32_t self, operands;
	Expr **args = call_args(e);
	call_devices(t, e, &self, &operands);
	if (!join(devices, &t->device[e->id], self)) {
		if (!ir_is_op(e, OP_ON_DEVICE)) {
			StrBuf s;
			strbuf_init(&s);
			ir_value_name(&s, e);
			diag_error(
				diags, m->src, e->pos,
				"policy tvm: TVM's PlanDevices stops here (\"Mismatched device "
				"type after iterating args\"): %s is implied on %s and was put on "
				"%s",
				s.data, devices_name(devices, self),
				devices_name(devices, t->device[e->id]));
			strbuf_free(&s);
			return false;
		}
	} else if (self != IR_NO_DEVICE && t->first[e->id] == PLAN_NONE) {
		t->first[e->id] = e->id;
	}
	for (uint32_t i = 0; i < call_nargs(e); i++) {
		Expr *a = args[i];
		int16_t before = t->device[a->id];
		if (!join(devices, &t->device[a->id], operands)) {
			if (!ir_is_op(a, OP_ON_DEVICE)) {
				if (!t->conflicted[a->id])
					t->nconflicted++;
				t->conflicted[a->id] = 1;
				add_clash(t, a->id, e->id, operands);
			}
		} else if (before == IR_NO_DEVICE && operands != IR_NO_DEVICE) {
			t->first[a->id] = e->id;
		}
	}
	return true;
}

bool plan_tvm_find(const IrModule *m, PlanTvm *t, const PlanPin *pins, size_t npins,
		   const DeviceTable *devices, DiagList *diags)
{
	size_t n = m->nexprs ? m->nexprs : 1, steps = 0;
	uint8_t *seen = xcalloc(n, 1);
	ExprVec stack = {0};
	bool ok = true;
	memset(t, 0, sizeof *t);
	t->nexprs = m->nexprs;
	t->device = xmalloc(n * sizeof(int16_t));
	t->first = xmalloc(n * sizeof(uint32_t));
	t->conflicted = xcalloc(n, 1);
	for (size_t i = 0; i < n; i++) {
		t->device[i] = IR_NO_DEVICE;
		t->first[i] = PLAN_NONE;
	}
	/* a what-if pin reads as an annotation of its expression that the
	 * walk meets before anything else (a --body pin is an on_device
	 * rewrite put in, which the walk meets where it is) */
	if (npins) {
		Expr **by_id = ir_index_by_id(m);
		for (size_t k = 0; k < npins; k++)
			for (uint32_t id = 0; id < m->nexprs && !pins[k].body; id++)
				if (by_id[id] && plan_pin_matches(&pins[k], by_id[id]))
					join(devices, &t->device[id], pins[k].device);
		free(by_id);
	}
	for (uint32_t g = 0; g < m->nglobals && ok; g++) {
		exprvec_push(&stack, m->globals[g].fn);
		while (stack.count && ok) {
			Expr *e = stack.items[--stack.count];
			uint32_t nc;
			if (interrupt_poll(++steps)) {
				diag_error(diags, NULL, (Pos){0, 0},
					   "interrupted during phase 'check'");
				ok = false;
				break;
			}
			if (seen[e->id])
				continue;
			seen[e->id] = 1;
			if (is_tvm_call(e)) {
				Expr **args = call_args(e);
				if (!visit_call(t, m, e, devices, diags)) {
					ok = false;
					break;
				}
				/* the operands, not a function call's callee */
				for (uint32_t i = call_nargs(e); i-- > 0;)
					exprvec_push(&stack, args[i]);
				continue;
			}
			nc = ir_child_count(e);
			for (uint32_t i = nc; i-- > 0;)
				if (ir_child(e, i))
					exprvec_push(&stack, ir_child(e, i));
		}
		stack.count = 0;
	}
	exprvec_free(&stack);
	free(seen);
	return ok;
}

void plan_tvm_free(PlanTvm *t)
{
	free(t->device);
	free(t->first);
	free(t->conflicted);
	free(t->clashes);
	memset(t, 0, sizeof *t);
}

IrModule *plan_tvm_rewrite(const IrModule *in, const PlanTvm *t, DiagList *diags)
{
	ExprVec all = {0};
	IrModule *m = ir_module_clone_ordered(in, &all);
	uint8_t *changed = xcalloc(in->nexprs ? in->nexprs : 1, 1);
	PlanFreshNumbers names;
	bool ok = true;
	plan_fresh_numbers_init(&names, &all, (uint32_t)t->nclashes + 1);
	for (size_t k = 0; k < all.count && ok; k++) {
		Expr *e = all.items[k];
		uint32_t nc = ir_child_count(e);
		bool any = false;
		for (uint32_t i = 0; i < nc; i++) {
			Expr *c = ir_child(e, i);
			any = any || (c && c->id < in->nexprs && changed[c->id]);
		}
		if (is_tvm_call(e)) {
			Expr **args = call_args(e);
			for (uint32_t i = 0; i < call_nargs(e); i++) {
				Expr *a = args[i];
				int32_t src, dst = t->device[e->id];
				if (a->id >= in->nexprs || !t->conflicted[a->id] || changed[a->id])
					continue;
				src = t->device[a->id];
				if (src == dst)
					continue;
				if (dst == IR_NO_DEVICE) {
					StrBuf s;
					strbuf_init(&s);
					ir_value_name(&s, e);
					diag_error(diags, in->src, e->pos,
						   "policy tvm: TVM's PlanDevices fails here: it "
						   "would "
						   "copy a conflicting operand to %s, whose device "
						   "its "
						   "conflict check does not know",
						   s.data);
					strbuf_free(&s);
					ok = false;
					break;
				}
				args[i] = ir_device_copy(m, e->pos, a, src, dst);
				args[i]->name = plan_fresh_number(&names, m);
				args[i]->name_generated = true;
				any = true;
			}
		}
		if (e->id < in->nexprs)
			changed[e->id] = any;
	}
	plan_fresh_numbers_free(&names);
	free(changed);
	exprvec_free(&all);
	if (!ok) {
		ir_module_free(m);
		return NULL;
	}
	return m;
}
