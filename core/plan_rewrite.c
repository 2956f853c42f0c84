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

static bool is_normal_on_device(const Expr *e)
{
	int32_t device;
	bool body, result;
	if (!ir_is_op(e, OP_ON_DEVICE))
		return false;
	ir_on_device_props(e, &device, &body, &result);
	return body && !result;
}

/* Rewrites the attributes of on_device `e` (a node of the clone) so that it
 * constrains both its body and its result. */
static void fix_on_device(IrModule *m, Expr *e)
{
	int32_t device;
	bool body, result;
	Attr attrs[2];
	ir_on_device_props(e, &device, &body, &result);
	memset(attrs, 0, sizeof attrs);
	attrs[0].name = "virtual_device";
	attrs[0].value.kind = ATTR_DEVICE;
	attrs[0].value.u.device = device;
	attrs[0].pos = e->pos;
	attrs[1].name = "constrain_result";
	attrs[1].value.kind = ATTR_BOOL;
	attrs[1].value.u.b = true;
	attrs[1].pos = e->pos;
	{
		Expr *fresh = ir_call_op(m, e->pos, OP_ON_DEVICE, e->u.call.args, 1, attrs, 2);
		e->u.call.attrs = fresh->u.call.attrs;
		e->u.call.nattrs = 2;
	}
}

IrModule *plan_rewrite_phase(const IrModule *in, PhaseContext *ctx)
{
	IrModule *m = ir_module_clone(in);
	uint8_t *seen = xcalloc(m->nexprs / 8 + 1, 1);
	ExprVec order = {0};
	size_t rewrites = 0;
	for (uint32_t i = 0; i < m->nglobals; i++)
		ir_postorder(m, m->globals[i].fn, true, seen, &order);
	for (size_t i = 0; i < order.count; i++) {
		Expr *e = order.items[i];
		if (e->kind == EXPR_LET && is_normal_on_device(e->u.let.value)) {
			fix_on_device(m, e->u.let.value);
			rewrites++;
		} else if (e->kind == EXPR_FN && is_normal_on_device(e->u.fn.body)) {
			fix_on_device(m, e->u.fn.body);
			rewrites++;
		} else if (e->kind == EXPR_PROJ && is_normal_on_device(e->u.proj.tuple)) {
			/* Wrap the projection; everything that used it now uses
			 * the wrapper, which takes over its name. */
			int32_t device;
			bool body, result;
			Attr attr;
			Expr *proj, *wrapper;
			ir_on_device_props(e->u.proj.tuple, &device, &body, &result);
			memset(&attr, 0, sizeof attr);
			attr.name = "virtual_device";
			attr.value.kind = ATTR_DEVICE;
			attr.value.u.device = device;
			attr.pos = e->pos;
			proj = ir_proj(m, e->pos, e->u.proj.tuple, e->u.proj.index);
			proj->type = e->type;
			wrapper = ir_call_op(m, e->pos, OP_ON_DEVICE, &proj, 1, &attr, 1);
			wrapper->type = e->type;
			/* e is reused in place as the wrapper so users need no edit */
			{
				const char *name = e->name;
				uint32_t id = e->id;
				*e = *wrapper;
				e->id = id;
				e->name = name;
			}
			rewrites++;
		}
	}
	exprvec_free(&order);
	free(seen);
	(void)rewrites;
	(void)ctx;
	return m;
}
