/*
 * relax_copy.c - copying a Relax module's structure (see relax_realize.h).
 *
 * Each planning phase that changes the module makes a new version, so the
 * shell can print and diff any of them (STYLE.md §3). The copy has its own
 * variables (same ids), statements and expressions, and shares what is
 * immutable: types, literals, prim_func texts, names and the vdevice
 * targets.
 */
#include <string.h>

#include "relax_realize.h"
#include "util.h"

typedef struct Copier {
	RxModule *to;
	const RxModule *from;
} Copier;

static RxVar *var_of(Copier *c, const RxVar *v)
{
	return v ? c->to->vars[v->id] : NULL;
}

static RxExpr *copy_expr(Copier *c, const RxExpr *e)
{
	RxExpr *x;
	if (!e)
		return NULL;
	x = arena_alloc(&c->to->arena, sizeof *x);
	*x = *e;
	x->var = var_of(c, e->var);
	if (e->nitems) {
		x->items = arena_array(&c->to->arena, e->nitems, sizeof *x->items);
		for (uint32_t i = 0; i < e->nitems; i++)
			x->items[i] = copy_expr(c, e->items[i]);
	}
	if (e->nkwargs) {
		x->kwargs = arena_array(&c->to->arena, e->nkwargs, sizeof *x->kwargs);
		for (uint32_t i = 0; i < e->nkwargs; i++)
			x->kwargs[i] = copy_expr(c, e->kwargs[i]);
	}
	return x;
}

static RxBlock *copy_block(Copier *c, const RxBlock *b);

static RxStmt *copy_stmt(Copier *c, const RxStmt *s)
{
	RxStmt *x = arena_alloc(&c->to->arena, sizeof *x);
	*x = *s;
	x->var = var_of(c, s->var);
	x->then_var = var_of(c, s->then_var);
	x->else_var = var_of(c, s->else_var);
	x->value = copy_expr(c, s->value);
	if (s->then_block)
		x->then_block = copy_block(c, s->then_block);
	if (s->else_block)
		x->else_block = copy_block(c, s->else_block);
	if (s->noutputs) {
		x->outputs = arena_array(&c->to->arena, s->noutputs, sizeof *x->outputs);
		for (uint32_t i = 0; i < s->noutputs; i++)
			x->outputs[i] = var_of(c, s->outputs[i]);
	}
	return x;
}

static RxBlock *copy_block(Copier *c, const RxBlock *b)
{
	RxBlock *x = arena_alloc(&c->to->arena, sizeof *x);
	*x = *b;
	x->stmts = arena_array(&c->to->arena, b->nstmts, sizeof *x->stmts);
	for (uint32_t i = 0; i < b->nstmts; i++)
		x->stmts[i] = copy_stmt(c, b->stmts[i]);
	x->result = copy_expr(c, b->result);
	return x;
}

static RxFunc *copy_func(Copier *c, const RxFunc *f)
{
	RxFunc *x = arena_alloc(&c->to->arena, sizeof *x);
	*x = *f;
	if (f->kind != RX_FUNC_RELAX)
		return x;
	x->params = arena_array(&c->to->arena, f->nparams, sizeof *x->params);
	for (uint32_t i = 0; i < f->nparams; i++)
		x->params[i] = var_of(c, f->params[i]);
	x->body = copy_block(c, f->body);
	return x;
}

RxModule *relax_module_copy(const RxModule *m)
{
	RxModule *to = relax_module_new();
	Copier c = {to, m};
	to->name = m->name;
	to->attrs = m->attrs;
	to->has_global_infos = m->has_global_infos;
	to->global_infos = m->global_infos;
	to->prelude_names = m->prelude_names;
	to->prelude_values = m->prelude_values;
	to->nprelude = m->nprelude;
	to->src = m->src;
	to->nvdevices = m->nvdevices;
	to->vdevices_cap = m->nvdevices;
	to->vdevices = xmalloc((m->nvdevices + 1) * sizeof *to->vdevices);
	if (m->nvdevices)
		memcpy(to->vdevices, m->vdevices, m->nvdevices * sizeof *to->vdevices);
	to->nvars = m->nvars;
	to->vars_cap = m->nvars;
	to->vars = xmalloc((m->nvars + 1) * sizeof *to->vars);
	for (uint32_t i = 0; i < m->nvars; i++) {
		to->vars[i] = arena_alloc(&to->arena, sizeof *to->vars[i]);
		*to->vars[i] = *m->vars[i];
	}
	to->nfuncs = m->nfuncs;
	to->funcs_cap = m->nfuncs;
	to->funcs = xmalloc((m->nfuncs + 1) * sizeof *to->funcs);
	for (uint32_t i = 0; i < m->nfuncs; i++)
		to->funcs[i] = copy_func(&c, m->funcs[i]);
	return to;
}
