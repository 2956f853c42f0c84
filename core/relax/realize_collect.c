/*
 * realize_collect.c - RealizeVDevice's seed collection (RELAX.md §2.1 A;
 * DeviceHintCollector in TVM).
 *
 * The walk is TVM's ExprVisitor order: a function's parameters, then each
 * binding's value before its variable (an if's branches before the if's
 * variable), so seeds enter the ordered maps as TVM's do, and a hint that
 * names no vdevice fails at the first such binding in program order.
 */
#include <string.h>

#include "realize_internal.h"
#include "util.h"

/* Map::Set: a new key goes last, a known key keeps its place. */
static void seed_set(int *dev, Pos *pos, uint32_t *order, size_t *n, const RxVar *v, int vdevice,
		     Pos at)
{
	if (dev[v->id] < 0)
		order[(*n)++] = v->id;
	dev[v->id] = vdevice;
	pos[v->id] = at;
}

static void visit_var_def(RxRealize *r, const RxVar *v)
{
	int vdevice = relax_type_vdevice(v->type);
	if (vdevice >= 0)
		seed_set(r->explicit_dev, r->explicit_pos, r->explicit_order, &r->nexplicit, v,
			 vdevice, v->pos);
	if (vdevice >= 0)
		r->explicit_kind[v->id] = RX_SEED_ANNOTATION;
}

static const char *dlpack_name(int device_type)
{
	switch (device_type) {
	case 1:
		return "cpu";
	case 2:
		return "cuda";
	case 4:
		return "opencl";
	case 7:
		return "vulkan";
	case 8:
		return "metal";
	case 10:
		return "rocm";
	case 15:
		return "webgpu";
	default:
		return "device";
	}
}

/* VDeviceLookup: the first entry with the hint's type, id and scope. */
static int hint_lookup(RxRealize *r, const RxExpr *call, Pos pos, DiagList *diags)
{
	const RxModule *m = r->in;
	if (!m->has_global_infos) {
		diag_error(diags, m->src, pos,
			   "ValueError: hint R.hint_on_device(%s:%d): The target VDevice in the "
			   "GlobalInfos "
			   "was not found.",
			   dlpack_name(call->hint_type), call->hint_index);
		return -1;
	}
	if (call->hint_index < 0) {
		diag_error(diags, m->src, pos,
			   "ValueError: hint %s:%d: The device id in R.hint_on_device must not be "
			   "negative",
			   dlpack_name(call->hint_type), call->hint_index);
		return -1;
	}
	for (uint32_t i = 0; i < m->nvdevices; i++)
		if (m->vdevices[i].device_type == call->hint_type &&
		    m->vdevices[i].vdevice_id == call->hint_index &&
		    strcmp(m->vdevices[i].scope, call->hint_scope) == 0)
			return (int)i;
	diag_error(
		diags, m->src, pos,
		"ValueError: the hint asks for %s:%d (device_type=%d, index=%d, scope \"%s\"), "
		"which "
		"is not in the module's vdevice list (TVM says: Expected to find device with type "
		"%d "
		"and id %d, but no such device was found in the IRModule's \"vdevice\" annotation)",
		dlpack_name(call->hint_type), call->hint_index, call->hint_type, call->hint_index,
		call->hint_scope, call->hint_index, call->hint_index);
	return -1;
}

static bool collect_block(RxRealize *r, const RxBlock *b, const RxExpr **bound, DiagList *diags);

static bool collect_stmt(RxRealize *r, const RxStmt *s, const RxExpr **bound, DiagList *diags)
{
	switch (s->kind) {
	case RX_STMT_BIND:
		visit_var_def(r, s->var);
		bound[s->var->id] = s->value;
		if (relax_is_op(s->value, "R.hint_on_device")) {
			int h = hint_lookup(r, s->value, s->pos, diags);
			if (h < 0)
				return false;
			seed_set(r->explicit_dev, r->explicit_pos, r->explicit_order, &r->nexplicit,
				 s->var, h, s->pos);
			r->explicit_kind[s->var->id] = RX_SEED_HINT_OUTPUT;
			if (s->value->nitems && s->value->items[0]->kind == RX_EXPR_VAR)
				seed_set(r->hint_dev, r->hint_pos, r->hint_order, &r->nhint,
					 s->value->items[0]->var, h, s->pos);
		}
		return true;
	case RX_STMT_MATCH:
		visit_var_def(r, s->var);
		bound[s->var->id] = s->value;
		return true;
	case RX_STMT_IF:
		if (!collect_block(r, s->then_block, bound, diags) ||
		    !collect_block(r, s->else_block, bound, diags))
			return false;
		visit_var_def(r, s->var);
		return true;
	case RX_STMT_DATAFLOW:
		return collect_block(r, s->then_block, bound, diags);
	case RX_STMT_ALIAS:
	case RX_STMT_EXPR:
		return true;
	}
	return true;
}

static bool collect_block(RxRealize *r, const RxBlock *b, const RxExpr **bound, DiagList *diags)
{
	for (uint32_t i = 0; i < b->nstmts; i++)
		if (!collect_stmt(r, b->stmts[i], bound, diags))
			return false;
	return true;
}

/* A3: the declared return type seeds the returned variables. */
static bool check_return(RxRealize *r, const RxExpr *e, const RxType *t, const RxExpr **bound,
			 Pos pos, DiagList *diags)
{
	if (!t)
		return true;
	if (t->kind == RX_TYPE_TENSOR && t->vdevice >= 0 && e->kind == RX_EXPR_VAR &&
	    r->explicit_dev[e->var->id] < 0) {
		seed_set(r->explicit_dev, r->explicit_pos, r->explicit_order, &r->nexplicit, e->var,
			 t->vdevice, pos);
		r->explicit_kind[e->var->id] = RX_SEED_RETURN;
	}
	if (t->kind != RX_TYPE_TUPLE)
		return true;
	while (e->kind == RX_EXPR_VAR && bound[e->var->id])
		e = bound[e->var->id];
	if (e->kind != RX_EXPR_TUPLE)
		return true;
	if (e->nitems != t->nfields) {
		diag_error(diags, r->in->src, pos,
			   "ValueError: Function returns a tuple with %u elements, but is "
			   "annotated as "
			   "returning a tuple with %u elements",
			   e->nitems, t->nfields);
		return false;
	}
	for (uint32_t i = 0; i < e->nitems; i++)
		if (!check_return(r, e->items[i], t->fields[i], bound, pos, diags))
			return false;
	return true;
}

bool realize_collect(RxRealize *r, DiagList *diags)
{
	const RxModule *m = r->in;
	const RxExpr **bound = xcalloc(m->nvars + 1, sizeof *bound);
	bool ok = true;
	for (uint32_t i = 0; i < m->nfuncs && ok; i++) {
		const RxFunc *f = m->funcs[i];
		if (f->kind != RX_FUNC_RELAX)
			continue;
		for (uint32_t k = 0; k < f->nparams; k++)
			visit_var_def(r, f->params[k]);
		ok = collect_block(r, f->body, bound, diags) &&
		     check_return(r, f->body->result, f->ret, bound, f->body->result_pos, diags);
	}
	free(bound);
	return ok;
}
