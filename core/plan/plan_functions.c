/*
 * plan_functions.c - the functions of a module, walked and named once.
 *
 * Every fact a user inspects is grouped by function: placement facts,
 * device regions, the copies a failed check would insert, the clusters of
 * a drawing. They all take the functions from here, so that they list
 * them in one order and call each by one name: a global is @name; a
 * closure is its own %name (a graph binding), else the %var of the let
 * that binds it, else fn@LINE:COL. Bodies are walked without entering
 * nested closures, which are listed after their parent, so that every node
 * belongs to its innermost function.
 */
#include <stdlib.h>
#include <string.h>

#include "plan.h"

/* let %f = fn ...: the closure is named by the variable. Only a value
 * without a name of its own can be bound by a let, and only by one, since
 * the text writes it inline there. */
static bool note_let_function(Expr *e, void *let_names)
{
	if (e->kind == EXPR_LET && e->u.let.value->kind == EXPR_FN)
		((const char **)let_names)[e->u.let.value->id] = e->u.let.var->name;
	return true;
}

static void add_function(PlanFunctions *out, Expr *fn, int32_t global, char *name)
{
	PlanFunction *f;
	grow_array((void **)&out->items, &out->cap, out->count + 1, sizeof(PlanFunction));
	f = &out->items[out->count++];
	memset(f, 0, sizeof *f);
	f->fn = fn;
	f->global = global;
	f->name = name;
}

static char *closure_name(const Expr *fn, const char *const *let_names)
{
	if (fn->name)
		return xasprintf("%%%s", fn->name);
	if (let_names[fn->id])
		return xasprintf("%%%s", let_names[fn->id]);
	return xasprintf("fn@%u:%u", fn->pos.line, fn->pos.col);
}

void plan_functions(const IrModule *m, PlanFunctions *out)
{
	uint8_t *seen = xcalloc(m->nexprs / 8 + 1, 1);
	const char **let_names = xcalloc(m->nexprs ? m->nexprs : 1, sizeof(char *));
	memset(out, 0, sizeof *out);
	out->module = m;
	out->of = xmalloc((m->nexprs + 1) * sizeof(uint32_t));
	memset(out->of, 0xff, (m->nexprs + 1) * sizeof(uint32_t));
	ir_module_visit(m, note_let_function, let_names);
	for (uint32_t g = 0; g < m->nglobals; g++) {
		/* the global, then the closures its walk meets, in turn */
		add_function(out, m->globals[g].fn, (int32_t)g,
			     xasprintf("@%s", m->globals[g].name));
		for (size_t k = out->count - 1; k < out->count; k++) {
			Expr *fn = out->items[k].fn;
			size_t body = out->order.count;
			seen[fn->id >> 3] |= (uint8_t)(1u << (fn->id & 7));
			for (uint32_t i = 0; i < fn->u.fn.nparams; i++) {
				Expr *param = fn->u.fn.params[i];
				seen[param->id >> 3] |= (uint8_t)(1u << (param->id & 7));
				out->of[param->id] = (uint32_t)k;
			}
			ir_postorder(m, fn->u.fn.body, false, seen, &out->order);
			for (size_t i = body; i < out->order.count; i++) {
				Expr *e = out->order.items[i];
				out->of[e->id] = (uint32_t)k;
				if (e->kind == EXPR_FN)
					add_function(out, e, -1, closure_name(e, let_names));
			}
			out->items[k].body = body;
			out->items[k].nbody = out->order.count - body;
		}
	}
	free(let_names);
	free(seen);
}

void plan_functions_free(PlanFunctions *f)
{
	for (size_t i = 0; i < f->count; i++)
		free(f->items[i].name);
	free(f->items);
	exprvec_free(&f->order);
	free(f->of);
	memset(f, 0, sizeof *f);
}
