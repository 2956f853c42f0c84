/*
 * plan_rewrite.c - the `rewrite` phase: TVM's RewriteOnDevices.
 *
 * Normalises annotations before analysis, on a clone of its input:
 *   let %x = on_device(e, D); ...    the on_device becomes fixed
 *   fn (...) { on_device(e, D) }     likewise (body and result constrained)
 *   on_device(t, D).i                becomes on_device(on_device(t, D).i, D)
 * A "normal" on_device constrains its body only; fixing it also pins its
 * result, which is what a let-bound or returned value means. A what-if
 * pin made with --body is written here first, as the plain on_device the
 * user would have written (pins without it are bound by check and core).
 */
#include <stdlib.h>
#include <string.h>

#include "plan.h"

/* Makes on_device `e` (a node of the clone) constrain its result too. */
static void fix_on_device(IrModule *m, Expr *e)
{
	int32_t device;
	bool body, result;
	ir_on_device_props(e, &device, &body, &result);
	ir_set_on_device_fixed(m, e, device);
}

static bool is_normal_on_device(const Expr *e)
{
	int32_t device;
	bool body, result;
	if (!ir_is_op(e, OP_ON_DEVICE))
		return false;
	ir_on_device_props(e, &device, &body, &result);
	return body && !result;
}

/* Whether e is an annotation that needs normalising. */
static bool needs_rewrite(const Expr *e)
{
	return (e->kind == EXPR_LET && is_normal_on_device(e->u.let.value)) ||
	       (e->kind == EXPR_FN && is_normal_on_device(e->u.fn.body)) ||
	       (e->kind == EXPR_PROJ && is_normal_on_device(e->u.proj.tuple));
}

static bool keep_looking(Expr *e, void *unused)
{
	(void)unused;
	return !needs_rewrite(e);
}

static bool has_body_pins(const PhaseContext *ctx)
{
	for (size_t i = 0; i < ctx->npins; i++)
		if (ctx->pins[i].body)
			return true;
	return false;
}

/* `pin --body`: every expression a body pin names (no variable: a
 * parameter has no body, and a let variable's value is pinned by name)
 * becomes on_device(e, D), body constrained and result free, as if the
 * user had written it there; the normalisation below then fixes one that
 * is a let's value or a function's body, as it would the user's. */
static void wrap_body_pins(IrModule *m, PhaseContext *ctx, ExprVec *order)
{
	size_t n = order->count;
	uint32_t from = m->nexprs;
	for (size_t k = 0; k < ctx->npins; k++) {
		const PlanPin *pin = &ctx->pins[k];
		if (!pin->body)
			continue;
		for (size_t i = 0; i < n; i++) {
			Expr *e = order->items[i];
			if (e->kind == EXPR_VAR && e->u.var.role == VAR_LET && e->u.var.value &&
			    plan_pin_matches(pin, e)) {
				e = e->u.var.value;
				if (ir_is_op(e, OP_ON_DEVICE))
					continue;
			} else if (e->kind == EXPR_VAR || e->kind == EXPR_FN ||
				   e->kind == EXPR_GLOBAL || !plan_pin_matches(pin, e)) {
				continue;
			}
			ir_wrap_in_on_device(m, e, pin->device, false);
		}
	}
	if (ctx->trace) { /* `why` names a pin, not an annotation */
		ctx->trace->pin_wrappers_from = from;
		ctx->trace->pin_wrappers_to = m->nexprs;
	}
	/* the wrappers' copies are nodes too */
	order->count = 0;
	ir_module_list(m, order);
}

IrModule *plan_rewrite_phase(const IrModule *in, PhaseContext *ctx)
{
	IrModule *m;
	ExprVec order = {0};
	/* nothing to normalise: the phase shares its input */
	if (!has_body_pins(ctx) && ir_module_visit(in, keep_looking, NULL))
		return ir_module_retain(in);
	if (ctx->consumable == in) {
		/* the session lets go of the input: edit it, no copy */
		m = ir_module_retain(in);
		ir_module_list(m, &order);
		ctx->consumed = true;
	} else {
		m = ir_module_clone_ordered(in, &order);
	}
	if (has_body_pins(ctx))
		wrap_body_pins(m, ctx, &order);
	for (size_t i = 0; i < order.count; i++) {
		Expr *e = order.items[i];
		if (e->kind == EXPR_LET && is_normal_on_device(e->u.let.value)) {
			fix_on_device(m, e->u.let.value);
		} else if (e->kind == EXPR_FN && is_normal_on_device(e->u.fn.body)) {
			fix_on_device(m, e->u.fn.body);
		} else if (e->kind == EXPR_PROJ && is_normal_on_device(e->u.proj.tuple)) {
			/* Wrap the projection; everything that used it now uses
			 * the wrapper, which takes over its name. */
			int32_t device;
			bool body, result;
			Expr *proj, *wrapper;
			ir_on_device_props(e->u.proj.tuple, &device, &body, &result);
			proj = ir_proj(m, e->pos, e->u.proj.tuple, e->u.proj.index);
			proj->type = e->type;
			wrapper = ir_on_device(m, e->pos, proj, device);
			/* e is reused in place as the wrapper so users need no edit */
			{
				const char *name = e->name;
				uint32_t id = e->id;
				*e = *wrapper;
				e->id = id;
				e->name = name;
			}
		}
	}
	exprvec_free(&order);
	return m;
}
