/*
 * realize_graph.c - RealizeVDevice's co-location graph and propagation
 * (RELAX.md §2.1 B and C; VDeviceSetCollector and InferVDevice in TVM).
 *
 * The graph links each bound variable with every variable used in its
 * value, in both directions, except inside R.to_vdevice and
 * R.hint_on_device (a copy or a hint cuts the edge) and for R.Prim
 * variables. Neighbour lists keep the order the uses were visited in,
 * which with the LIFO stack decides which seed reaches a variable first.
 * The graph is kept as compressed rows: the edges are counted, then
 * placed, preserving their order.
 */
#include <string.h>

#include "realize_internal.h"
#include "util.h"

typedef struct EdgeList {
	uint32_t (*pairs)[2];
	size_t count, cap;
} EdgeList;

static bool is_prim(const RxVar *v)
{
	return v->type && v->type->kind == RX_TYPE_PRIM;
}

static void add_uses(EdgeList *edges, const RxVar *current, const RxExpr *e)
{
	if (!e)
		return;
	switch (e->kind) {
	case RX_EXPR_VAR:
		if (!current || is_prim(current) || is_prim(e->var))
			return;
		grow_array((void **)&edges->pairs, &edges->cap, edges->count + 1,
			   sizeof *edges->pairs);
		edges->pairs[edges->count][0] = current->id;
		edges->pairs[edges->count++][1] = e->var->id;
		return;
	case RX_EXPR_CALL:
		/* a copy or a hint cuts the edge; keyword arguments are attributes */
		if (relax_is_op(e, "R.to_vdevice") || relax_is_op(e, "R.hint_on_device"))
			return;
		for (uint32_t i = 0; i < e->nitems; i++)
			add_uses(edges, current, e->items[i]);
		return;
	case RX_EXPR_TUPLE:
	case RX_EXPR_GETITEM:
		for (uint32_t i = 0; i < e->nitems; i++)
			add_uses(edges, current, e->items[i]);
		return;
	case RX_EXPR_GLOBAL:
	case RX_EXPR_LITERAL:
		return;
	}
}

static void graph_block(EdgeList *edges, const RxBlock *b, const RxVar *current);

static void graph_stmt(EdgeList *edges, const RxStmt *s)
{
	switch (s->kind) {
	case RX_STMT_BIND:
	case RX_STMT_MATCH:
		add_uses(edges, s->var, s->value);
		return;
	case RX_STMT_IF:
		add_uses(edges, s->var, s->value);
		graph_block(edges, s->then_block, s->var);
		graph_block(edges, s->else_block, s->var);
		return;
	case RX_STMT_DATAFLOW:
		graph_block(edges, s->then_block, NULL);
		return;
	case RX_STMT_ALIAS:
	case RX_STMT_EXPR:
		return;
	}
}

/* A block's bindings, then its result as a use of current (the if's
 * variable for a branch; nothing for a function's body). */
static void graph_block(EdgeList *edges, const RxBlock *b, const RxVar *current)
{
	for (uint32_t i = 0; i < b->nstmts; i++)
		graph_stmt(edges, b->stmts[i]);
	if (b->result)
		add_uses(edges, current, b->result);
}

bool realize_colocate(RxRealize *r, DiagList *diags)
{
	const RxModule *m = r->in;
	EdgeList edges = {0};
	uint32_t *fill;
	(void)diags;
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i]->kind == RX_FUNC_RELAX)
			graph_block(&edges, m->funcs[i]->body, NULL);
	r->adj_start = xcalloc(m->nvars + 2, sizeof *r->adj_start);
	r->adj = xmalloc((2 * edges.count + 1) * sizeof *r->adj);
	r->nedges = edges.count;
	for (size_t i = 0; i < edges.count; i++) {
		r->adj_start[edges.pairs[i][0] + 1]++;
		r->adj_start[edges.pairs[i][1] + 1]++;
	}
	for (uint32_t v = 0; v < m->nvars; v++)
		r->adj_start[v + 1] += r->adj_start[v];
	fill = xmalloc((m->nvars + 1) * sizeof *fill);
	memcpy(fill, r->adj_start, m->nvars * sizeof *fill);
	for (size_t i = 0; i < edges.count; i++) {
		uint32_t a = edges.pairs[i][0], b = edges.pairs[i][1];
		r->adj[fill[a]++] = b;
		r->adj[fill[b]++] = a;
	}
	free(fill);
	free(edges.pairs);
	return true;
}

void realize_place(RxRealize *r, uint32_t var, int vdevice, uint32_t from, int round)
{
	RxEvent *e;
	r->known[var] = vdevice;
	grow_array((void **)&r->events, &r->events_cap, r->nevents + 1, sizeof *r->events);
	e = &r->events[r->nevents++];
	*e = (RxEvent){var, vdevice, from, round};
	r->applied = r->nevents;
}

/* The flood fill from what is on the stack: pop, place the unplaced
 * neighbours in their list order, push them. */
static void flood(RxRealize *r, uint32_t *stack, size_t *depth, int round)
{
	while (*depth) {
		uint32_t x = stack[--*depth];
		for (uint32_t k = r->adj_start[x]; k < r->adj_start[x + 1]; k++) {
			uint32_t y = r->adj[k];
			if (r->known[y] >= 0)
				continue;
			realize_place(r, y, r->known[x], x, round);
			stack[(*depth)++] = y;
		}
	}
}

/* TVM's InferVDevice: round 1 from the explicit seeds in map order, then
 * round 2 from the hint inputs nothing placed. */
static bool propagate_tvm(RxRealize *r)
{
	uint32_t nvars = r->in->nvars;
	uint32_t *stack = xmalloc((nvars + 1) * sizeof *stack);
	size_t depth = 0;
	for (uint32_t v = 0; v < nvars; v++)
		r->known[v] = -1;
	for (size_t i = 0; i < r->nexplicit; i++) {
		uint32_t v = r->explicit_order[i];
		realize_place(r, v, r->explicit_dev[v], UINT32_MAX, 1);
		stack[depth++] = v;
	}
	flood(r, stack, &depth, 1);
	for (size_t i = 0; i < r->nhint; i++) {
		uint32_t v = r->hint_order[i];
		if (r->known[v] >= 0)
			continue;
		realize_place(r, v, r->hint_dev[v], UINT32_MAX, 2);
		stack[depth++] = v;
	}
	flood(r, stack, &depth, 2);
	free(stack);
	return true;
}

bool realize_propagate(RxRealize *r, DiagList *diags)
{
	return r->copy_policy ? realize_propagate_copy(r, diags) : propagate_tvm(r);
}
