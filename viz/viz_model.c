/*
 * viz_model.c - what a drawing shows, decided on plain arrays (SPEC §6).
 *
 * The model of a module version: nodes (expressions, in the module's
 * definition and execution order), data-flow edges, clusters (functions,
 * or device regions), conflict labels from the PlanTrace, then the --focus
 * cut, the reference nodes that replace long edges, and the size check.
 * No Graphviz object is made here (viz_draw.c does that from the model),
 * so every decision is testable without a layout and the cgraph objects
 * are created in one fixed order.
 */
#include "viz_model.h"

#include <stdlib.h>
#include <string.h>

#include "ops.h"

/* What a use of e reads: a let variable reads its value, a let its body. */
static const Expr *viz_resolve(const IrModule *m, const Expr *e)
{
	for (uint32_t steps = 0; e && steps <= m->nexprs; steps++) {
		if (e->kind == EXPR_VAR && e->u.var.role == VAR_LET && e->u.var.value)
			e = e->u.var.value;
		else if (e->kind == EXPR_LET)
			e = e->u.let.body;
		else
			break;
	}
	return e;
}

uint32_t viz_node_of(const VizModel *vm, const Expr *e)
{
	e = viz_resolve(vm->m, e);
	return e && e->id < vm->m->nexprs ? vm->node_of[e->id] : VIZ_NONE;
}

/* The device e is drawn on: its entry in opts->device_of (the devices a
 * phase in progress has bound so far), else its own. */
int32_t viz_device(const VizModel *vm, const Expr *e)
{
	return vm->opts->device_of ? vm->opts->device_of[e->id] : e->device;
}

static uint32_t viz_add_cluster(VizModel *vm, VizClusterKind kind, uint32_t parent, char *name,
				char *title, int32_t device)
{
	VizCluster *c;
	grow_array((void **)&vm->clusters, &vm->cap_clusters, vm->nclusters + 1,
		   sizeof(VizCluster));
	c = &vm->clusters[vm->nclusters];
	memset(c, 0, sizeof *c);
	c->kind = kind;
	c->parent = parent;
	c->name = name;
	c->title = title;
	c->device = device;
	return (uint32_t)vm->nclusters++;
}

static uint32_t viz_add_node(VizModel *vm, Expr *e, uint32_t function)
{
	VizNode *n;
	if (vm->node_of[e->id] != VIZ_NONE)
		return vm->node_of[e->id];
	switch (e->kind) {
	case EXPR_VAR:
		if (e->u.var.role == VAR_LET && e->u.var.value)
			return VIZ_NONE;
		if (e->u.var.role == VAR_FREE)
			function = VIZ_NONE;
		break;
	case EXPR_LET:
		exprvec_push(&vm->lets, e);
		return VIZ_NONE;
	case EXPR_GLOBAL:
	case EXPR_CONSTANT:
	case EXPR_CALL:
	case EXPR_FN:
	case EXPR_TUPLE:
	case EXPR_PROJ:
	case EXPR_IF:
	case EXPR_CONSTRUCT:
	case EXPR_MATCH:
		break;
	}
	grow_array((void **)&vm->nodes, &vm->cap_nodes, vm->nnodes + 1, sizeof(VizNode));
	n = &vm->nodes[vm->nnodes];
	memset(n, 0, sizeof *n);
	n->e = e;
	n->function = function;
	n->cluster = function;
	/* a global reference is drawn only where it is used as a value */
	n->drawn = e->kind != EXPR_GLOBAL;
	vm->node_of[e->id] = (uint32_t)vm->nnodes;
	return (uint32_t)vm->nnodes++;
}

/* Free variables first (outside every cluster), then each function as
 * plan_functions lists them (each global followed by its closures): its
 * cluster, a closure's nested in its parent's, then its parameters and its
 * body in execution order. */
static void viz_collect(VizModel *vm)
{
	const IrModule *m = vm->m;
	const PlanFunctions *functions = &vm->functions;
	uint32_t *cluster_of = xmalloc((functions->count + 1) * sizeof(uint32_t));
	for (uint32_t i = 0; i < m->nfree_vars; i++)
		viz_add_node(vm, m->free_vars[i], VIZ_NONE);
	for (size_t k = 0; k < functions->count; k++) {
		const PlanFunction *f = &functions->items[k];
		Expr *fn = f->fn;
		uint32_t c;
		if (f->global >= 0)
			c = viz_add_cluster(vm, VIZ_CLUSTER_GLOBAL, VIZ_NONE,
					    xasprintf("cluster_g%d", f->global), xstrdup(f->name),
					    viz_device(vm, fn));
		else
			c = viz_add_cluster(vm, VIZ_CLUSTER_CLOSURE,
					    cluster_of[functions->of[fn->id]],
					    xasprintf("cluster_fn%u", fn->id), xstrdup(f->name),
					    viz_device(vm, fn));
		cluster_of[k] = c;
		for (uint32_t i = 0; i < fn->u.fn.nparams; i++)
			viz_add_node(vm, fn->u.fn.params[i], c);
		for (size_t i = 0; i < f->nbody; i++)
			viz_add_node(vm, functions->order.items[f->body + i], c);
	}
	free(cluster_of);
	/* A value bound by a let and named by nothing else takes its name. The
	 * value is what the let itself binds (through nested lets to their
	 * body), not what a variable it binds is bound to: `let %b = %a`
	 * leaves %a's value named %a, as placement and regions name it. */
	for (size_t i = 0; i < vm->lets.count; i++) {
		Expr *var = vm->lets.items[i]->u.let.var;
		const Expr *value = vm->lets.items[i]->u.let.value;
		uint32_t n;
		for (uint32_t steps = 0; value->kind == EXPR_LET && steps <= m->nexprs; steps++)
			value = value->u.let.body;
		n = value->id < m->nexprs ? vm->node_of[value->id] : VIZ_NONE;
		if (n != VIZ_NONE && !vm->nodes[n].e->name && !vm->nodes[n].let_name && var->name)
			vm->nodes[n].let_name = var->name;
	}
}

static void viz_add_edge(VizModel *vm, Expr *from, uint32_t to, VizEdgeKind kind)
{
	uint32_t f = viz_node_of(vm, from);
	if (f == VIZ_NONE)
		return;
	vm->nodes[f].drawn = true; /* a global used as a value */
	grow_array((void **)&vm->edges, &vm->cap_edges, vm->nedges + 1, sizeof(VizEdge));
	vm->edges[vm->nedges++] = (VizEdge){f, to, kind, NULL, false};
}

/* Data flow into every node, operands in order. */
static void viz_connect(VizModel *vm)
{
	for (size_t i = 0; i < vm->nnodes; i++) {
		Expr *e = vm->nodes[i].e;
		uint32_t to = (uint32_t)i;
		switch (e->kind) {
		case EXPR_CALL:
			if (e->u.call.op == OP_NONE && e->u.call.callee->kind != EXPR_GLOBAL)
				viz_add_edge(vm, e->u.call.callee, to, VIZ_EDGE_CALLEE);
			for (uint32_t a = 0; a < e->u.call.nargs; a++)
				viz_add_edge(vm, e->u.call.args[a], to, VIZ_EDGE_DATA);
			break;
		case EXPR_TUPLE:
			for (uint32_t f = 0; f < e->u.tuple.nfields; f++)
				viz_add_edge(vm, e->u.tuple.fields[f], to, VIZ_EDGE_DATA);
			break;
		case EXPR_PROJ:
			viz_add_edge(vm, e->u.proj.tuple, to, VIZ_EDGE_DATA);
			break;
		case EXPR_IF:
			viz_add_edge(vm, e->u.if_.cond, to, VIZ_EDGE_COND);
			viz_add_edge(vm, e->u.if_.then_branch, to, VIZ_EDGE_THEN);
			viz_add_edge(vm, e->u.if_.else_branch, to, VIZ_EDGE_ELSE);
			break;
		case EXPR_FN:
			viz_add_edge(vm, e->u.fn.body, to, VIZ_EDGE_RESULT);
			break;
		case EXPR_CONSTRUCT:
			for (uint32_t a = 0; a < e->u.construct.nargs; a++)
				viz_add_edge(vm, e->u.construct.args[a], to, VIZ_EDGE_DATA);
			break;
		case EXPR_MATCH:
			viz_add_edge(vm, e->u.match.scrutinee, to, VIZ_EDGE_MATCHED);
			for (uint32_t k = 0; k < e->u.match.nclauses; k++)
				viz_add_edge(vm, e->u.match.bodies[k], to, VIZ_EDGE_CLAUSE);
			break;
		case EXPR_VAR:
			if (e->u.var.role == VAR_PATTERN && e->u.var.value)
				viz_add_edge(vm, e->u.var.value->u.match.scrutinee, to,
					     VIZ_EDGE_DATA);
			break;
		case EXPR_GLOBAL:
		case EXPR_CONSTANT:
		case EXPR_LET:
			break;
		}
	}
}

/* Incoming and outgoing edge lists by node, in edge order. */
static void viz_index_edges(VizModel *vm)
{
	size_t n = vm->nnodes;
	uint32_t *in_fill = xcalloc(n + 1, sizeof(uint32_t));
	uint32_t *out_fill = xcalloc(n + 1, sizeof(uint32_t));
	vm->in_start = xcalloc(n + 1, sizeof(uint32_t));
	vm->out_start = xcalloc(n + 1, sizeof(uint32_t));
	vm->in_list = xmalloc((vm->nedges + 1) * sizeof(uint32_t));
	vm->out_list = xmalloc((vm->nedges + 1) * sizeof(uint32_t));
	for (size_t i = 0; i < vm->nedges; i++) {
		vm->in_start[vm->edges[i].to + 1]++;
		vm->out_start[vm->edges[i].from + 1]++;
	}
	for (size_t i = 0; i < n; i++) {
		vm->in_start[i + 1] += vm->in_start[i];
		vm->out_start[i + 1] += vm->out_start[i];
	}
	for (size_t i = 0; i < vm->nedges; i++) {
		uint32_t t = vm->edges[i].to, f = vm->edges[i].from;
		vm->in_list[vm->in_start[t] + in_fill[t]++] = (uint32_t)i;
		vm->out_list[vm->out_start[f] + out_fill[f]++] = (uint32_t)i;
	}
	free(in_fill);
	free(out_fill);
}

static bool viz_is_wrapper(const Expr *e)
{
	return ir_is_op(e, OP_ON_DEVICE) || ir_is_op(e, OP_DEVICE_COPY);
}

/* Marks the use of value node v by consumer node c: the edge out of v on
 * the path into c, which may pass through on_device and device_copy (the
 * copy that check inserted for this very use). */
static void viz_mark_conflict(VizModel *vm, uint32_t v, uint32_t c, const char *label)
{
	for (uint32_t k = vm->in_start[c]; k < vm->in_start[c + 1]; k++) {
		uint32_t edge = vm->in_list[k];
		uint32_t cur = vm->edges[edge].from;
		size_t steps = 0;
		/* the uses a copy can go on */
		if (vm->edges[edge].kind != VIZ_EDGE_DATA &&
		    vm->edges[edge].kind != VIZ_EDGE_MATCHED)
			continue;
		while (cur != v && viz_is_wrapper(vm->nodes[cur].e) &&
		       vm->in_start[cur + 1] > vm->in_start[cur] && steps++ < vm->nnodes) {
			edge = vm->in_list[vm->in_start[cur]];
			cur = vm->edges[edge].from;
		}
		if (cur != v)
			continue;
		if (!vm->edges[edge].conflict) {
			vm->edges[edge].conflict = xstrdup(label);
		} else if (!strstr(vm->edges[edge].conflict, label)) {
			char *joined = xasprintf("%s; %s", vm->edges[edge].conflict, label);
			free(vm->edges[edge].conflict);
			vm->edges[edge].conflict = joined;
		}
	}
}

static void viz_conflicts(VizModel *vm)
{
	const PlanTrace *t = vm->opts->trace;
	Expr **by_id;
	if (!t || t->nconflicts == 0)
		return;
	by_id = ir_index_by_id(vm->m);
	for (size_t i = 0; i < t->nconflicts; i++) {
		const PlanConflict *c = &t->conflicts[i];
		uint32_t v;
		if (c->value >= vm->m->nexprs || !by_id[c->value])
			continue;
		v = viz_node_of(vm, by_id[c->value]);
		if (v == VIZ_NONE)
			continue;
		for (size_t k = 0; k < c->nconsumers; k++) {
			uint32_t site = c->consumers[k], n;
			char *label;
			if (site >= vm->m->nexprs || !by_id[site])
				continue;
			n = viz_node_of(vm, by_id[site]);
			if (n == VIZ_NONE)
				continue;
			label = xasprintf("needs %s on %s", c->value_name,
					  devices_name(vm->opts->devices, c->consumer_devices[k]));
			viz_mark_conflict(vm, v, n, label);
			free(label);
		}
	}
	free(by_id);
}

/* --regions: one cluster per region plan_regions finds (the runs the
 * `regions` command lists), titled by its function and number, holding
 * the region's calls. Everything else is drawn outside every region
 * (parameters, constants, tuples, a device_copy whichever way it moves
 * data), but an on_device joins the region of what it annotates. */
static void viz_regions(VizModel *vm)
{
	PlanRegions regions;
	unsigned total = 0;
	plan_regions(&vm->functions, vm->opts->device_of, &regions);
	for (size_t i = 0; i < vm->nnodes; i++)
		vm->nodes[i].cluster = VIZ_NONE;
	for (size_t f = 0; f < regions.count; f++) {
		const PlanFunctionRegions *fr = &regions.functions[f];
		for (size_t k = 0; k < fr->count; k++) {
			const PlanRegion *r = &fr->regions[k];
			uint32_t cluster = viz_add_cluster(
				vm, VIZ_CLUSTER_REGION, VIZ_NONE, xasprintf("cluster_r%u", ++total),
				xasprintf("%s region %zu on %s", fr->function->name, k + 1,
					  devices_name(vm->opts->devices, r->device)),
				r->device);
			for (size_t i = 0; i < r->ncalls; i++)
				vm->nodes[vm->node_of[r->calls[i]]].cluster = cluster;
		}
	}
	plan_regions_free(&regions);
	for (size_t i = 0; i < vm->nnodes; i++) {
		VizNode *n = &vm->nodes[i];
		if (ir_is_op(n->e, OP_ON_DEVICE) && n->e->u.call.nargs == 1) {
			uint32_t arg = viz_node_of(vm, n->e->u.call.args[0]);
			if (arg != VIZ_NONE)
				n->cluster = vm->nodes[arg].cluster;
		}
	}
}

/* The node --focus names: %x or x (ir_find_value), a value's own name or
 * that of the let variable bound to it, which draws as its value. */
static uint32_t viz_find_focus(const VizModel *vm, const char *focus)
{
	const Expr *e = ir_find_value(vm->m, focus);
	return e ? viz_node_of(vm, e) : VIZ_NONE;
}

/* Keeps the nodes within depth edges of start, either direction. */
static void viz_cut(VizModel *vm, uint32_t start, uint32_t depth)
{
	uint32_t *dist = xmalloc((vm->nnodes + 1) * sizeof(uint32_t));
	uint32_t *queue = xmalloc((vm->nnodes + 1) * sizeof(uint32_t));
	size_t head = 0, tail = 0;
	for (size_t i = 0; i < vm->nnodes; i++)
		dist[i] = VIZ_NONE;
	dist[start] = 0;
	queue[tail++] = start;
	while (head < tail) {
		uint32_t n = queue[head++];
		if (dist[n] >= depth)
			continue;
		for (int dir = 0; dir < 2; dir++) {
			const uint32_t *starts = dir ? vm->out_start : vm->in_start;
			const uint32_t *list = dir ? vm->out_list : vm->in_list;
			for (uint32_t k = starts[n]; k < starts[n + 1]; k++) {
				const VizEdge *e = &vm->edges[list[k]];
				uint32_t other = dir ? e->to : e->from;
				if (dist[other] == VIZ_NONE) {
					dist[other] = dist[n] + 1;
					queue[tail++] = other;
				}
			}
		}
	}
	for (size_t i = 0; i < vm->nnodes; i++)
		if (dist[i] == VIZ_NONE)
			vm->nodes[i].drawn = false;
	free(dist);
	free(queue);
}

/*
 * Long edges are what makes dot slow: it threads every edge through one
 * virtual node per rank it spans, so a value used all along a long program
 * (a shared weight, an input added at every step) costs time quadratic in
 * the program's length (200 uses of one input: minutes). So a use further
 * than VIZ_REACH drawn nodes, in execution order, from its value's anchor
 * reads a small reference node drawn beside the consumer (an ellipse with
 * the value's name, like a global's reference). The anchor is the value's
 * definition, or for a value without inputs (a parameter, constant or free
 * variable, which dot may place anywhere) its first use. Graphs under
 * VIZ_REACH nodes never have references.
 */
static void viz_references(VizModel *vm)
{
	size_t *pos = xmalloc((vm->nnodes + 1) * sizeof(size_t));
	size_t next = 0;
	for (size_t i = 0; i < vm->nnodes; i++)
		pos[i] = vm->nodes[i].drawn ? next++ : 0;
	for (size_t u = 0; u < vm->nnodes; u++) {
		size_t anchor = pos[u];
		bool first = true;
		if (!vm->nodes[u].drawn)
			continue;
		if (vm->in_start[u] == vm->in_start[u + 1]) {
			for (uint32_t k = vm->out_start[u]; k < vm->out_start[u + 1]; k++) {
				uint32_t to = vm->edges[vm->out_list[k]].to;
				if (vm->nodes[to].drawn && (first || pos[to] < anchor)) {
					anchor = pos[to];
					first = false;
				}
			}
		}
		for (uint32_t k = vm->out_start[u]; k < vm->out_start[u + 1]; k++) {
			VizEdge *e = &vm->edges[vm->out_list[k]];
			if (vm->nodes[e->to].drawn && pos[e->to] > anchor + VIZ_REACH)
				e->reference = true;
		}
	}
	free(pos);
}

void viz_model_free(VizModel *vm)
{
	for (size_t i = 0; i < vm->nedges; i++)
		free(vm->edges[i].conflict);
	for (size_t i = 0; i < vm->nclusters; i++) {
		free(vm->clusters[i].name);
		free(vm->clusters[i].title);
	}
	free(vm->nodes);
	free(vm->edges);
	free(vm->clusters);
	free(vm->node_of);
	free(vm->in_start);
	free(vm->in_list);
	free(vm->out_start);
	free(vm->out_list);
	exprvec_free(&vm->lets);
	plan_functions_free(&vm->functions);
}

bool viz_model_build(VizModel *vm, const VizOptions *opts, VizStats *stats, char **err)
{
	size_t max = opts->max_nodes ? opts->max_nodes : VIZ_MAX_NODES;
	memset(vm, 0, sizeof *vm);
	memset(stats, 0, sizeof *stats);
	vm->opts = opts;
	vm->m = opts->module;
	vm->node_of = xmalloc((vm->m->nexprs + 1) * sizeof(uint32_t));
	for (uint32_t i = 0; i <= vm->m->nexprs; i++)
		vm->node_of[i] = VIZ_NONE;
	plan_functions(vm->m, &vm->functions);
	viz_collect(vm);
	viz_connect(vm);
	viz_index_edges(vm);
	viz_conflicts(vm);
	if (opts->regions)
		viz_regions(vm);
	if (opts->focus) {
		uint32_t start = viz_find_focus(vm, opts->focus);
		if (start == VIZ_NONE) {
			*err = xasprintf("no value named '%s' in the module", opts->focus);
			return false;
		}
		viz_cut(vm, start, opts->depth < 0 ? VIZ_DEFAULT_DEPTH : (uint32_t)opts->depth);
	}
	viz_references(vm);
	for (size_t i = 0; i < vm->nnodes; i++) {
		const VizNode *n = &vm->nodes[i];
		if (!n->drawn)
			continue;
		stats->nodes++;
		stats->copies += ir_is_op(n->e, OP_DEVICE_COPY);
		stats->unplanned += viz_device(vm, n->e) == IR_NO_DEVICE;
	}
	for (size_t i = 0; i < vm->nedges; i++) {
		const VizEdge *e = &vm->edges[i];
		if (vm->nodes[e->from].drawn && vm->nodes[e->to].drawn) {
			stats->edges++;
			stats->conflicts += e->conflict != NULL;
			stats->references += e->reference;
		}
	}
	if (stats->nodes > max && !opts->force) {
		*err = xasprintf("the graph has %zu nodes and %zu edges, more than %zu to lay out; "
				 "draw a neighbourhood with --focus %%x --depth N, or pass --force",
				 stats->nodes, stats->edges, max);
		return false;
	}
	return true;
}
