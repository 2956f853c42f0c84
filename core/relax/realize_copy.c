/*
 * realize_copy.c - devplan's copy policy for Relax (SPEC §3.2): where
 * TVM's flood fill lets the first writer win, every tensor gets a device
 * by an order-free rule and each operand that lives elsewhere reaches its
 * consumer through R.to_vdevice.
 *
 * The rule: a variable its own definition places (a vdevice annotation, a
 * hint's output, a declared return type) keeps that vdevice; any other
 * takes the vdevice of the nearest such seed in the co-location graph,
 * the lowest-numbered one on a tie, so that no order of the text or of
 * the seeds matters; a class no explicit seed reaches takes its hint
 * inputs' vdevices by the same rule, and what nothing reaches goes to the
 * first "global" vdevice of the list, where TVM's VM allocates it anyway.
 * Then every binding runs where its variable lives: an operand (or tuple
 * field) on another vdevice is copied there by a new binding
 * `NAME_KINDK = R.to_vdevice(NAME, ...)` right before its first consumer
 * in the block, shared by the later ones.
 */
#include <stdlib.h>
#include <string.h>

#include "realize_internal.h"
#include "util.h"

/* One breadth-first wave from the placed variables: each unplaced
 * neighbour takes the lowest vdevice among its placed neighbours. */
static void waves(RxRealize *r, uint32_t *frontier, size_t n, int round)
{
	uint32_t nvars = r->in->nvars, *next = xmalloc((nvars + 1) * sizeof *next);
	uint32_t *from = xmalloc((nvars + 1) * sizeof *from);
	int *best = xmalloc((nvars + 1) * sizeof *best);
	for (uint32_t v = 0; v < nvars; v++)
		best[v] = -1;
	while (n) {
		size_t m = 0;
		for (size_t i = 0; i < n; i++)
			for (uint32_t k = r->adj_start[frontier[i]];
			     k < r->adj_start[frontier[i] + 1]; k++) {
				uint32_t y = r->adj[k], x = frontier[i];
				if (r->known[y] >= 0)
					continue;
				if (best[y] < 0)
					next[m++] = y;
				if (best[y] < 0 || r->known[x] < best[y] ||
				    (r->known[x] == best[y] && x < from[y])) {
					best[y] = r->known[x];
					from[y] = x;
				}
			}
		for (size_t i = 0; i < m; i++) {
			/* by id, so the events do not depend on the text's order */
			uint32_t y = next[i];
			if (r->known[y] < 0)
				realize_place(r, y, best[y], from[y], round);
		}
		memcpy(frontier, next, m * sizeof *next);
		n = m;
	}
	free(next);
	free(from);
	free(best);
}

static int fallback_vdevice(const RxModule *m)
{
	for (uint32_t i = 0; i < m->nvdevices; i++)
		if (strcmp(m->vdevices[i].scope, "global") == 0)
			return (int)i;
	return m->nvdevices ? 0 : -1;
}

/* A user's R.to_vdevice places its result by definition, whatever the
 * annotation says. */
static void forced_by_copies(const RxBlock *b, int *forced)
{
	for (uint32_t i = 0; i < b->nstmts; i++) {
		const RxStmt *s = b->stmts[i];
		if (s->kind == RX_STMT_IF) {
			forced_by_copies(s->then_block, forced);
			forced_by_copies(s->else_block, forced);
		} else if (s->kind == RX_STMT_DATAFLOW) {
			forced_by_copies(s->then_block, forced);
		} else if (s->kind == RX_STMT_BIND && relax_is_op(s->value, "R.to_vdevice")) {
			forced[s->var->id] = s->value->vdevice;
		}
	}
}

/* Marks the functions some call names (RX_CALL_GLOBAL) in called[]. */
static void find_calls(const RxModule *m, const RxExpr *e, bool *called)
{
	if (!e)
		return;
	if (e->kind == RX_EXPR_CALL && e->callee == RX_CALL_GLOBAL)
		for (uint32_t i = 0; i < m->nfuncs; i++)
			called[i] |= strcmp(m->funcs[i]->name, e->name) == 0;
	for (uint32_t i = 0; i < e->nitems; i++)
		find_calls(m, e->items[i], called);
}

static void walk_block(const RxModule *m, const RxBlock *b, bool *called, bool *vars)
{
	for (uint32_t i = 0; i < b->nstmts; i++) {
		const RxStmt *s = b->stmts[i];
		if (called)
			find_calls(m, s->value, called);
		if (vars && s->var)
			vars[s->var->id] = true;
		if (s->then_block)
			walk_block(m, s->then_block, called, vars);
		if (s->else_block)
			walk_block(m, s->else_block, called, vars);
	}
}

/* The variables of functions other functions call: the fallback leaves
 * them alone, since a callee's re-derived return type would move its
 * callers' results where their consumers do not expect them (calls are
 * planned function by function, as TVM plans them). */
static bool *callee_vars(const RxModule *m)
{
	bool *called = xcalloc(m->nfuncs + 1, sizeof *called),
	     *vars = xcalloc(m->nvars + 1, sizeof *vars);
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i]->kind == RX_FUNC_RELAX)
			walk_block(m, m->funcs[i]->body, called, NULL);
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		if (!called[i] || m->funcs[i]->kind != RX_FUNC_RELAX)
			continue;
		for (uint32_t k = 0; k < m->funcs[i]->nparams; k++)
			vars[m->funcs[i]->params[k]->id] = true;
		walk_block(m, m->funcs[i]->body, NULL, vars);
	}
	free(called);
	return vars;
}

bool realize_propagate_copy(RxRealize *r, DiagList *diags)
{
	const RxModule *m = r->in;
	uint32_t *frontier = xmalloc((m->nvars + 1) * sizeof *frontier);
	size_t n = 0;
	int fallback = fallback_vdevice(m);
	(void)diags;
	for (uint32_t v = 0; v < m->nvars; v++)
		r->known[v] = -1;
	int *forced = xmalloc((m->nvars + 1) * sizeof *forced);
	memcpy(forced, r->explicit_dev, m->nvars * sizeof *forced);
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i]->kind == RX_FUNC_RELAX)
			forced_by_copies(m->funcs[i]->body, forced);
	for (uint32_t v = 0; v < m->nvars; v++)
		if (forced[v] >= 0) {
			realize_place(r, v, forced[v], UINT32_MAX, 1);
			frontier[n++] = v;
		}
	free(forced);
	waves(r, frontier, n, 1);
	n = 0;
	for (uint32_t v = 0; v < m->nvars; v++)
		if (r->known[v] < 0 && r->hint_dev[v] >= 0) {
			realize_place(r, v, r->hint_dev[v], UINT32_MAX, 2);
			frontier[n++] = v;
		}
	waves(r, frontier, n, 2);
	bool *in_callee = callee_vars(m);
	for (uint32_t v = 0; v < m->nvars && fallback >= 0; v++)
		if (r->known[v] < 0 && !in_callee[v] && m->vars[v]->type &&
		    m->vars[v]->type->kind == RX_TYPE_TENSOR)
			realize_place(r, v, fallback, UINT32_MAX, 3);
	free(in_callee);
	free(frontier);
	return true;
}

/* The copies made in the blocks being rewritten, innermost last; a block
 * forgets its own when it ends. */
typedef struct CopyMemo {
	uint32_t var;
	int vdevice;
	RxVar *copy;
} CopyMemo;

typedef struct Copier {
	RxRealize *r;
	RxModule *m;
	CopyMemo *memo;
	size_t nmemo, cap_memo;
} Copier;

typedef struct StmtList {
	RxStmt **items;
	size_t count, cap;
} StmtList;

static void push_stmt(StmtList *l, RxStmt *s)
{
	grow_array((void **)&l->items, &l->cap, l->count + 1, sizeof *l->items);
	l->items[l->count++] = s;
}

static RxVar *new_copy_var(Copier *c, const RxVar *src, int vdevice, Pos pos)
{
	RxModule *m = c->m;
	RxRealize *r = c->r;
	RxVar *v = arena_alloc(&m->arena, sizeof *v);
	size_t need = m->nvars + 2;
	StrBuf where;
	char *name;
	strbuf_init(&where);
	relax_vdevice_name(m, vdevice,
			   &where); /* KIND:K:SCOPE: NAME_KIND, or NAME_KINDK past the first */
	where.data[strcspn(where.data, ":")] = '\0';
	name = where.data[strlen(where.data) + 1] == '0'
		       ? xasprintf("%s_%s", src->name, where.data)
		       : xasprintf("%s_%s%d", src->name, where.data,
				   atoi(where.data + strlen(where.data) + 1));
	strbuf_free(&where);
	v->name = arena_strdup(&m->arena, name);
	free(name);
	v->id = m->nvars;
	v->pos = pos;
	v->annotated = true;
	v->type = relax_type_with_vdevice(m, src->type, vdevice);
	grow_array((void **)&m->vars, &m->vars_cap, m->nvars + 1, sizeof *m->vars);
	m->vars[m->nvars++] = v;
	r->known = xrealloc(r->known, need * sizeof *r->known);
	r->remapped = xrealloc(r->remapped, need);
	r->known[v->id] = vdevice;
	r->remapped[v->id] = 1;
	return v;
}

/* The binding `copy = R.to_vdevice(src, vdevice)`. */
static RxStmt *copy_binding(Copier *c, RxVar *src, RxVar *copy, Pos pos)
{
	RxModule *m = c->m;
	RxStmt *s = arena_alloc(&m->arena, sizeof *s);
	RxExpr *call = arena_alloc(&m->arena, sizeof *call),
	       *arg = arena_alloc(&m->arena, sizeof *arg);
	arg->kind = RX_EXPR_VAR;
	arg->var = src;
	arg->pos = pos;
	arg->vdevice = -1;
	call->kind = RX_EXPR_CALL;
	call->callee = RX_CALL_OP;
	call->name = "R.to_vdevice";
	call->pos = pos;
	call->items = arena_alloc(&m->arena, sizeof *call->items);
	call->items[0] = arg;
	call->nitems = 1;
	call->vdevice = c->r->known[copy->id];
	s->kind = RX_STMT_BIND;
	s->pos = pos;
	s->var = copy;
	s->value = call;
	s->changed = true;
	return s;
}

/* The variable to use for e's operand var on vdevice: itself, or its copy
 * there (made now, before the consumer, or earlier in an enclosing block). */
static RxVar *operand_on(Copier *c, RxVar *var, int vdevice, Pos pos, StmtList *out)
{
	RxVar *copy;
	if (!var->type || var->type->kind != RX_TYPE_TENSOR || c->r->known[var->id] < 0 ||
	    c->r->known[var->id] == vdevice)
		return var;
	for (size_t i = c->nmemo; i-- > 0;)
		if (c->memo[i].var == var->id && c->memo[i].vdevice == vdevice)
			return c->memo[i].copy;
	copy = new_copy_var(c, var, vdevice, pos);
	push_stmt(out, copy_binding(c, var, copy, pos));
	grow_array((void **)&c->memo, &c->cap_memo, c->nmemo + 1, sizeof *c->memo);
	c->memo[c->nmemo++] = (CopyMemo){var->id, vdevice, copy};
	return copy;
}

/* `v = t[i]` with v placed away from the tuple: the field is projected
 * where the tuple lives, into a new variable, and copied: the value
 * becomes `R.to_vdevice(t_i, ...)` (a projection has no operand to copy). */
static void fix_projection(Copier *c, RxExpr *value, int vdevice, Pos pos, StmtList *out)
{
	RxExpr *tuple = value->items[0], *projection;
	const RxType *t = tuple->kind == RX_EXPR_VAR ? tuple->var->type : NULL;
	int from = tuple->kind == RX_EXPR_VAR ? c->r->known[tuple->var->id] : -1;
	RxVar *field, *copy;
	RxStmt *s;
	if (from < 0 || from == vdevice || !t || t->kind != RX_TYPE_TUPLE || value->index < 0 ||
	    (uint64_t)value->index >= t->nfields || t->fields[value->index]->kind != RX_TYPE_TENSOR)
		return;
	field = arena_alloc(&c->m->arena, sizeof *field);
	*field = *tuple->var;
	field->type = t->fields[value->index];
	copy = new_copy_var(c, field, from, pos); /* the projection, on the tuple's vdevice */
	projection = arena_alloc(&c->m->arena, sizeof *projection);
	*projection = *value;
	s = copy_binding(c, field, copy, pos);
	s->value = projection;
	push_stmt(out, s);
	value->kind = RX_EXPR_CALL;
	value->callee = RX_CALL_OP;
	value->name = "R.to_vdevice";
	value->vdevice = vdevice;
	value->items = arena_alloc(&c->m->arena, sizeof *value->items);
	value->items[0] = arena_alloc(&c->m->arena, sizeof *value->items[0]);
	value->items[0]->kind = RX_EXPR_VAR;
	value->items[0]->var = copy;
	value->items[0]->pos = pos;
	value->items[0]->vdevice = -1;
	value->nitems = 1;
}

/* Rewrites the operands of value (a call's arguments, a tuple's fields,
 * a trivial binding's variable) to live on vdevice. */
static void fix_operands(Copier *c, RxExpr *value, int vdevice, Pos pos, StmtList *out)
{
	if (value->kind == RX_EXPR_GETITEM) {
		fix_projection(c, value, vdevice, pos, out);
		return;
	}
	if (value->kind == RX_EXPR_VAR) {
		value->var = operand_on(c, value->var, vdevice, pos, out);
		return;
	}
	if (value->kind == RX_EXPR_CALL &&
	    (relax_is_op(value, "R.hint_on_device") || relax_is_op(value, "R.to_vdevice")))
		return;
	if (value->kind != RX_EXPR_CALL && value->kind != RX_EXPR_TUPLE)
		return;
	for (uint32_t i = 0; i < value->nitems; i++)
		if (value->items[i]->kind == RX_EXPR_VAR || value->items[i]->kind == RX_EXPR_TUPLE)
			fix_operands(c, value->items[i], vdevice, pos, out);
}

static void copy_block(Copier *c, RxBlock *b)
{
	StmtList out = {0};
	size_t mark = c->nmemo;
	for (uint32_t i = 0; i < b->nstmts; i++) {
		RxStmt *s = b->stmts[i];
		if (s->kind == RX_STMT_IF) {
			copy_block(c, s->then_block);
			copy_block(c, s->else_block);
		} else if (s->kind == RX_STMT_DATAFLOW) {
			copy_block(c, s->then_block);
		} else if ((s->kind == RX_STMT_BIND || s->kind == RX_STMT_MATCH) &&
			   c->r->known[s->var->id] >= 0) {
			size_t before = out.count;
			fix_operands(c, s->value, c->r->known[s->var->id], s->pos, &out);
			s->changed |= out.count > before;
		}
		push_stmt(&out, s);
	}
	c->nmemo = mark;
	b->stmts = arena_array(&c->m->arena, out.count, sizeof *b->stmts);
	if (out.count)
		memcpy(b->stmts, out.items, out.count * sizeof *b->stmts);
	b->nstmts = (uint32_t)out.count;
	free(out.items);
}

bool realize_rewrite_copy(RxRealize *r, RxModule *m)
{
	Copier c = {r, m, NULL, 0, 0};
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i]->kind == RX_FUNC_RELAX)
			copy_block(&c, m->funcs[i]->body);
	free(c.memo);
	return true;
}
