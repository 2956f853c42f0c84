/*
 * plan_rewrite.c - the `rewrite` phase: TVM's RewriteOnDevices.
 *
 * Normalises annotations before analysis, on a clone of its input:
 *   let %x = on_device(e, D); ...    the on_device becomes fixed
 *   fn (...) { on_device(e, D) }     likewise (body and result constrained)
 *   on_device(t, D).i                becomes on_device(on_device(t, D).i, D)
 * A "normal" on_device constrains its body only; fixing it also pins its
 * result, which is what a let-bound or returned value means.
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

IrModule *plan_rewrite_phase(const IrModule *in, PhaseContext *ctx)
{
	IrModule *m;
	ExprVec order = {0};
	/* nothing to normalise: the phase shares its input */
	if (ir_module_visit(in, keep_looking, NULL))
		return ir_module_retain(in);
	if (ctx->consumable == in) {
		/* the session lets go of the input: edit it, no copy */
		m = ir_module_retain(in);
		ir_module_list(m, &order);
		ctx->consumed = true;
	} else {
		m = ir_module_clone_ordered(in, &order);
	}
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
