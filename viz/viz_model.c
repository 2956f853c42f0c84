/*
 * viz_model.c - what a drawing shows, decided on plain arrays (SPEC §6).
 *
 * The model of a module version: nodes (expressions, in the module's
 * definition and execution order), data-flow edges, clusters (functions,
 * or device regions), conflict labels from the PlanTrace, then the --focus
 * cut, the folded weights, the operands read without a copy, the reference
 * nodes that replace long edges, and the size check, which turns a graph
 * too big to lay out into the overview of its device regions.
 * No Graphviz object is made here (viz_draw.c does that from the model),
 * so every decision is testable without a layout and the cgraph objects
 * are created in one fixed order.
 */
#include "viz_model.h"

#include <stdlib.h>
#include <string.h>

#include "ops.h"

/* A fixed on_device of a planned module: TVM's form puts one wherever a
 * value is read in a scope of another device (plan_capture.c), to say
 * where the value is, which the drawing shows by colour. */
static bool viz_is_planned_scope(const Expr *e)
{
	int32_t device;
	bool body, result;
	if (!ir_is_op(e, OP_ON_DEVICE) || e->u.call.nargs != 1 || e->device == IR_NO_DEVICE)
		return false;
	ir_on_device_props(e, &device, &body, &result);
	return body && result && device == e->device;
}

/* What a use of e reads: a let variable reads its value, a let its body,
 * a planned fixed on_device what it wraps. */
static const Expr *viz_resolve(const IrModule *m, const Expr *e)
{
	for (uint32_t steps = 0; e && steps <= m->nexprs; steps++) {
		if (e->kind == EXPR_VAR && e->u.var.role == VAR_LET && e->u.var.value)
			e = e->u.var.value;
		else if (e->kind == EXPR_LET)
			e = e->u.let.body;
		else if (viz_is_planned_scope(e))
			e = e->u.call.args[0];
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
	case EXPR_CALL:
		if (viz_is_planned_scope(e))
			return VIZ_NONE;
		break;
	case EXPR_GLOBAL:
	case EXPR_OP_VALUE:
	case EXPR_CONSTANT:
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
	 * body and a planned on_device around it), not what a variable it binds is bound to: `let %b = %a`
	 * leaves %a's value named %a, as placement and regions name it. */
	for (size_t i = 0; i < vm->lets.count; i++) {
		Expr *var = vm->lets.items[i]->u.let.var;
		const Expr *value = vm->lets.items[i]->u.let.value;
		uint32_t n;
		for (uint32_t steps = 0; steps <= m->nexprs; steps++) {
			if (value->kind == EXPR_LET)
				value = value->u.let.body;
			else if (viz_is_planned_scope(value)) /* TVM's form wraps it */
				value = value->u.call.args[0];
			else
				break;
		}
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
	vm->edges[vm->nedges++] = (VizEdge){f, to, kind, NULL, false, false, NULL};
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
		case EXPR_OP_VALUE:
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

/*
 * Folding (SPEC §6, USAGE.md `### render`): weights are not drawn as nodes
 * of their own but listed on their consumer's `weights:` line. A weight is
 *   - a constant,
 *   - a parameter of a global function other than its first (the data
 *     input, as TVM's frontends order them: resnet's %data, BERT's
 *     %input_1, then the weights), or
 *   - an operator call (not on_device or device_copy) whose operands are
 *     all weights: what TVM would constant-fold once the parameters are
 *     bound, like the scale batch_norm's parameters make.
 * A weight folds when it has a use and every use is an operand of an
 * operator call (not on_device, not device_copy: a copied value stays
 * drawn, as does one a function, closure or tuple takes) on the weight's
 * own device (one read elsewhere stays drawn, with its uncopied edge),
 * and not in conflict (its red edge stays drawn); a use --focus cut does
 * not count for a parameter or constant, so one whose uses are all cut
 * goes with them (a computed weight stays drawn for what it reads). A weight
 * used by several calls folds into each. The --focus node never folds.
 */
static bool viz_is_weight(const VizModel *vm, uint32_t v, const uint8_t *weight)
{
	const Expr *e = vm->nodes[v].e;
	switch (e->kind) {
	case EXPR_CONSTANT:
		return true;
	case EXPR_VAR: {
		size_t f = e->u.var.role == VAR_PARAM ? vm->functions.of[e->id] : PLAN_NONE;
		const PlanFunction *fn;
		if (f == PLAN_NONE)
			return false;
		fn = &vm->functions.items[f];
		return fn->global >= 0 && fn->fn->u.fn.nparams > 0 && fn->fn->u.fn.params[0] != e;
	}
	case EXPR_CALL:
		if (e->u.call.op == OP_NONE || viz_is_wrapper(e) || e->u.call.nargs == 0 ||
		    vm->in_start[v + 1] - vm->in_start[v] != e->u.call.nargs)
			return false;
		for (uint32_t k = vm->in_start[v]; k < vm->in_start[v + 1]; k++)
			if (!weight[vm->edges[vm->in_list[k]].from])
				return false;
		return true;
	case EXPR_GLOBAL:
	case EXPR_OP_VALUE:
	case EXPR_FN:
	case EXPR_TUPLE:
	case EXPR_PROJ:
	case EXPR_IF:
	case EXPR_LET:
	case EXPR_CONSTRUCT:
	case EXPR_MATCH:
		return false;
	}
	return false;
}

static bool viz_foldable(const VizModel *vm, uint32_t v)
{
	int32_t device = viz_device(vm, vm->nodes[v].e);
	if (!vm->nodes[v].drawn || v == vm->focus || vm->out_start[v] == vm->out_start[v + 1])
		return false;
	for (uint32_t k = vm->out_start[v]; k < vm->out_start[v + 1]; k++) {
		const VizEdge *edge = &vm->edges[vm->out_list[k]];
		const VizNode *c = &vm->nodes[edge->to];
		const Expr *call = c->e;
		if (!c->drawn && vm->in_start[v] == vm->in_start[v + 1])
			continue; /* cut by --focus: no reason to draw a leaf */
		if (!c->drawn)
			return false;
		if (edge->kind != VIZ_EDGE_DATA || edge->conflict)
			return false;
		if (call->kind != EXPR_CALL || call->u.call.op == OP_NONE || viz_is_wrapper(call))
			return false;
		if (viz_device(vm, call) != device)
			return false;
	}
	return true;
}

static void viz_fold(VizModel *vm, VizStats *stats)
{
	/* operands come before their consumers in the node order */
	uint8_t *weight = xcalloc(vm->nnodes + 1, 1);
	for (size_t v = 0; v < vm->nnodes; v++)
		weight[v] = viz_is_weight(vm, (uint32_t)v, weight);
	for (size_t v = 0; v < vm->nnodes; v++) {
		if (!weight[v] || !viz_foldable(vm, (uint32_t)v))
			continue;
		vm->nodes[v].folded = true;
		for (uint32_t k = vm->out_start[v]; k < vm->out_start[v + 1]; k++)
			vm->edges[vm->out_list[k]].folded = true;
		stats->folded++;
	}
	/* after deciding, so that a weight folding into a weight sees it drawn */
	for (size_t v = 0; v < vm->nnodes; v++)
		if (vm->nodes[v].folded)
			vm->nodes[v].drawn = false;
	free(weight);
}

/*
 * An operand an operator reads on another device without a copy: planned
 * modules have them where the operator's rule reads the operand elsewhere
 * (vm.reshape_tensor's shape on the host, vm.shape_of's tensor anywhere)
 * and where a closure captures a value bound in its parent on another
 * device (a bind fact of the closure, not a use to copy). The edge says
 * which, so that the reader does not take it for a missing copy.
 */
static void viz_uncopied(VizModel *vm)
{
	int32_t host = plan_host_device(vm->opts->devices);
	for (size_t i = 0; i < vm->nedges; i++) {
		VizEdge *edge = &vm->edges[i];
		const VizNode *from = &vm->nodes[edge->from], *to = &vm->nodes[edge->to];
		const Expr *call = to->e;
		int32_t have = viz_device(vm, from->e), want = viz_device(vm, call);
		uint32_t a = 0;
		if (edge->kind != VIZ_EDGE_DATA || edge->conflict || !from->drawn || !to->drawn)
			continue;
		if (call->kind != EXPR_CALL || call->u.call.op == OP_NONE || viz_is_wrapper(call))
			continue;
		if (have == IR_NO_DEVICE || want == IR_NO_DEVICE || have == want)
			continue;
		while (a + 1 < call->u.call.nargs &&
		       viz_node_of(vm, call->u.call.args[a]) != edge->from)
			a++;
		want = plan_op_operand_device(call, a, host);
		if (want == have)
			edge->uncopied = xasprintf("no copy: read on %s by the operator's rule",
						   devices_name(vm->opts->devices, have));
		else if (want == IR_NO_DEVICE)
			edge->uncopied = xstrdup("no copy: read on any device");
		else if (from->function != to->function)
			edge->uncopied = xasprintf("no copy: captured by a closure from %s",
						   devices_name(vm->opts->devices, have));
		else
			edge->uncopied = xasprintf("no copy: operand on %s",
						   devices_name(vm->opts->devices, have));
	}
}

/* "9216 B", "588.0 KiB", "1.5 MiB". */
static void viz_bytes(StrBuf *out, int64_t bytes)
{
	if (bytes < 10 * 1024)
		strbuf_printf(out, "%lld B", (long long)bytes);
	else if (bytes < 1024 * 1024)
		strbuf_printf(out, "%.1f KiB", (double)bytes / 1024.0);
	else
		strbuf_printf(out, "%.1f MiB", (double)bytes / (1024.0 * 1024.0));
}

static int64_t viz_value_bytes(const Expr *e)
{
	int64_t bytes = 0;
	if (!e->type || !type_bytes(e->type, &bytes))
		return 0;
	return bytes;
}

/* `nn.conv2d`, `call @f`, `call %f`. */
static void viz_call_name(StrBuf *out, const Expr *e)
{
	const Expr *callee = e->u.call.callee;
	if (e->u.call.op != OP_NONE)
		strbuf_puts(out, ir_call_op_name(e));
	else if (callee->kind == EXPR_GLOBAL)
		strbuf_printf(out, "call @%s", callee->u.global.name);
	else if (callee->name)
		strbuf_printf(out, "call %%%s", callee->name);
	else
		strbuf_puts(out, "call");
}

static uint32_t viz_add_box(VizModel *vm, char *name, int32_t device, int32_t source, uint32_t node)
{
	VizOverview *o = &vm->boxes;
	grow_array((void **)&o->boxes, &o->cap_boxes, o->nboxes + 1, sizeof(VizBox));
	o->boxes[o->nboxes] = (VizBox){name, NULL, NULL, device, source, node, node != VIZ_NONE};
	return (uint32_t)o->nboxes++;
}

static uint32_t viz_add_copy_box(VizModel *vm, uint32_t id, uint32_t *rep)
{
	uint32_t node = vm->node_of[id];
	int32_t src, dst;
	ir_device_copy_props(vm->nodes[node].e, &src, &dst);
	rep[node] = viz_add_box(vm, xasprintf("n%u", id), dst, src, node);
	return rep[node];
}

typedef struct VizPair {
	uint32_t node, box;
} VizPair;

static int viz_pair_cmp(const void *a, const void *b)
{
	const VizPair *x = a, *y = b;
	if (x->box != y->box)
		return x->box < y->box ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

static int viz_link_cmp(const void *a, const void *b)
{
	const VizLink *x = a, *y = b;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}

/*
 * --overview: one box per device region (plan_regions, as `regions` lists
 * them) and one per device_copy, in execution order; every other node
 * joins the box of its first operand that has one (an on_device its
 * argument's), and parameters and constants are counted on the boxes they
 * feed. A link joins two boxes when a value of one feeds the other,
 * labelled with the bytes of the distinct values it carries; a region's
 * `in` and `out` add up its links. A link between boxes more than
 * VIZ_OVERVIEW_REACH apart is drawn from a reference node beside the box
 * it feeds, as the full drawing's far uses are: a value many regions read
 * (a shared mask, weight or recurrent state, copied once) would otherwise
 * thread an edge through every rank between its box and each reader, and
 * dot's time and memory grow with the square of those threads (800 adds
 * reading one %y: minutes; 30,000: gigabytes). So the overview has at most
 * its boxes plus its links' worth of nodes, and no long edge.
 */
static void viz_overview(VizModel *vm)
{
	const DeviceTable *devices = vm->opts->devices;
	VizOverview *o = &vm->boxes;
	PlanRegions regions;
	uint32_t *rep = xmalloc((vm->nnodes + 1) * sizeof(uint32_t));
	uint32_t *first_region = NULL;
	size_t nregions = 0;
	VizPair *pairs;
	size_t npairs = 0;
	int64_t *in, *out, *param_bytes;
	size_t *params;
	vm->overview = true;
	for (size_t i = 0; i < vm->nnodes; i++)
		rep[i] = VIZ_NONE;
	plan_regions(&vm->functions, vm->opts->device_of, &regions);
	for (size_t f = 0; f < regions.count; f++)
		nregions += regions.functions[f].count;
	first_region = xmalloc((nregions + 1) * sizeof(uint32_t));
	nregions = 0;
	for (size_t f = 0; f < regions.count; f++) {
		const PlanFunctionRegions *fr = &regions.functions[f];
		for (size_t k = 0; k < fr->count; k++) {
			const PlanRegion *r = &fr->regions[k];
			uint32_t box;
			for (size_t i = 0; i < r->nbefore; i++)
				viz_add_copy_box(vm, r->before[i], rep);
			box = viz_add_box(vm, xasprintf("r%zu", nregions + 1), r->device,
					  IR_NO_DEVICE, VIZ_NONE);
			first_region[nregions++] = box;
			for (size_t i = 0; i < r->ncalls; i++)
				rep[vm->node_of[r->calls[i]]] = box;
			for (size_t i = 0; i < r->nafter; i++)
				viz_add_copy_box(vm, r->after[i], rep);
		}
		for (size_t i = 0; i < fr->ntrailing; i++)
			viz_add_copy_box(vm, fr->trailing[i], rep);
	}
	/* everything else joins the box of its first operand that has one */
	for (size_t i = 0; i < vm->nnodes; i++) {
		const Expr *e = vm->nodes[i].e;
		if (rep[i] != VIZ_NONE || e->kind == EXPR_CONSTANT || e->kind == EXPR_GLOBAL ||
		    e->kind == EXPR_OP_VALUE || e->kind == EXPR_VAR)
			continue;
		for (uint32_t k = vm->in_start[i]; k < vm->in_start[i + 1]; k++) {
			uint32_t from = vm->edges[vm->in_list[k]].from;
			if (rep[from] != VIZ_NONE) {
				rep[i] = rep[from];
				break;
			}
		}
	}
	/* (value, box it feeds), each once */
	pairs = xmalloc((vm->nedges + 1) * sizeof(VizPair));
	for (size_t i = 0; i < vm->nedges; i++) {
		const VizEdge *edge = &vm->edges[i];
		uint32_t to = rep[edge->to];
		if (to == VIZ_NONE || rep[edge->from] == to)
			continue;
		pairs[npairs++] = (VizPair){edge->from, to};
	}
	qsort(pairs, npairs, sizeof(VizPair), viz_pair_cmp);
	in = xcalloc(o->nboxes + 1, sizeof(int64_t));
	out = xcalloc(o->nboxes + 1, sizeof(int64_t));
	param_bytes = xcalloc(o->nboxes + 1, sizeof(int64_t));
	params = xcalloc(o->nboxes + 1, sizeof(size_t));
	for (size_t i = 0; i < npairs; i++) {
		uint32_t from;
		int64_t bytes;
		if (i > 0 && pairs[i].node == pairs[i - 1].node && pairs[i].box == pairs[i - 1].box)
			continue;
		from = rep[pairs[i].node];
		bytes = viz_value_bytes(vm->nodes[pairs[i].node].e);
		if (from == VIZ_NONE) {
			params[pairs[i].box]++;
			param_bytes[pairs[i].box] += bytes;
			continue;
		}
		grow_array((void **)&o->links, &o->cap_links, o->nlinks + 1, sizeof(VizLink));
		o->links[o->nlinks++] =
			(VizLink){from, pairs[i].box, bytes, pairs[i].node, 1, false};
	}
	free(pairs);
	/* one link per pair of boxes, in box order */
	if (o->nlinks) /* links is NULL without one */
		qsort(o->links, o->nlinks, sizeof(VizLink), viz_link_cmp);
	{
		size_t kept = 0;
		for (size_t i = 0; i < o->nlinks; i++) {
			VizLink *last = kept ? &o->links[kept - 1] : NULL;
			if (last && last->from == o->links[i].from && last->to == o->links[i].to) {
				last->bytes += o->links[i].bytes;
				last->nvalues++;
				if (o->links[i].value < last->value)
					last->value = o->links[i].value;
			} else {
				o->links[kept++] = o->links[i];
			}
		}
		o->nlinks = kept;
	}
	/* a link between far boxes reads a reference beside the box it feeds */
	for (size_t i = 0; i < o->nlinks; i++) {
		uint32_t a = o->links[i].from, b = o->links[i].to;
		o->links[i].reference = (a < b ? b - a : a - b) > VIZ_OVERVIEW_REACH;
	}
	for (size_t i = 0; i < o->nlinks; i++) {
		out[o->links[i].from] += o->links[i].bytes;
		in[o->links[i].to] += o->links[i].bytes;
	}
	/* the labels */
	nregions = 0;
	for (size_t f = 0; f < regions.count; f++) {
		const PlanFunctionRegions *fr = &regions.functions[f];
		for (size_t k = 0; k < fr->count; k++) {
			const PlanRegion *r = &fr->regions[k];
			uint32_t box = first_region[nregions++];
			const Expr *first = vm->nodes[vm->node_of[r->calls[0]]].e;
			const Expr *last = vm->nodes[vm->node_of[r->calls[r->ncalls - 1]]].e;
			StrBuf label, tip;
			strbuf_init(&label);
			strbuf_init(&tip);
			strbuf_printf(&label,
				      "%s region %zu on %s\\n%zu call%s: ", fr->function->name,
				      k + 1, devices_name(devices, r->device), r->ncalls,
				      r->ncalls == 1 ? "" : "s");
			viz_call_name(&label, first);
			if (r->ncalls > 1) {
				strbuf_puts(&label, r->ncalls > 2 ? " \xe2\x80\xa6 " : ", ");
				viz_call_name(&label, last);
			}
			strbuf_puts(&label, "\\nin ");
			viz_bytes(&label, in[box]);
			strbuf_puts(&label, ", out ");
			viz_bytes(&label, out[box]);
			if (params[box]) {
				strbuf_printf(&label, "\\nparams, constants: %zu, ", params[box]);
				viz_bytes(&label, param_bytes[box]);
			}
			strbuf_puts(&tip, "from ");
			ir_value_name(&tip, first);
			strbuf_puts(&tip, " to ");
			ir_value_name(&tip, last);
			o->boxes[box].label = strbuf_detach(&label);
			o->boxes[box].tooltip = strbuf_detach(&tip);
		}
	}
	for (size_t i = 0; i < o->nboxes; i++) {
		VizBox *b = &o->boxes[i];
		const Expr *e;
		StrBuf label;
		int64_t bytes;
		if (!b->copy)
			continue;
		e = vm->nodes[b->node].e;
		strbuf_init(&label);
		strbuf_printf(&label, "device_copy\\n%s \xe2\x86\x92 %s",
			      devices_name(devices, b->source), devices_name(devices, b->device));
		bytes = viz_value_bytes(e);
		if (bytes)
			strbuf_printf(&label, "\\n%lld bytes", (long long)bytes);
		b->label = strbuf_detach(&label);
		strbuf_init(&label);
		ir_value_name(&label, e);
		b->tooltip = strbuf_detach(&label);
	}
	free(in);
	free(out);
	free(params);
	free(param_bytes);
	free(first_region);
	free(rep);
	plan_regions_free(&regions);
}

/*
 * The layout-cost estimate. dot ranks the graph top to bottom, threads each
 * edge through one virtual node per rank it crosses (two per rank when any
 * edge has a real label, which doubles the ranks), and then orders every
 * rank to reduce crossings, comparing the nodes of a rank pairwise: its
 * time grows with the square of how many nodes, real or virtual, share a
 * rank. So the estimate is that sum, the square of each rank's width,
 * with ranks taken as the longest path from the sources in drawing order
 * (dot's own ranking can only make edges shorter). A chain costs its
 * length; a value feeding a hundred far regions costs the hundred threads
 * crossing every rank between them: what made the overview of 800 adds
 * sharing one %y take minutes. Reference nodes sit one rank above their
 * consumer and thread nothing.
 */
typedef struct VizCostEdge {
	uint32_t from, to; /* drawing-order indices; from a reference node beside `to` */
	bool reference;
} VizCostEdge;

static double viz_layout_cost(size_t n, const VizCostEdge *edges, size_t nedges, bool labels)
{
	uint32_t *rank = xcalloc(n + 1, sizeof(uint32_t));
	uint32_t *start = xcalloc(n + 2, sizeof(uint32_t));
	uint32_t *list = xmalloc((nedges + 1) * sizeof(uint32_t));
	uint32_t *fill = xcalloc(n + 1, sizeof(uint32_t));
	uint32_t *late = xmalloc((n + 1) * sizeof(uint32_t));
	uint32_t top = 0, unit = labels ? 2 : 1;
	int64_t *diff, width = 0;
	size_t nranks;
	double cost = 0;
	for (size_t i = 0; i < nedges; i++)
		if (!edges[i].reference && edges[i].from < edges[i].to)
			start[edges[i].to + 1]++;
	for (size_t i = 0; i < n; i++)
		start[i + 1] += start[i];
	for (size_t i = 0; i < nedges; i++)
		if (!edges[i].reference && edges[i].from < edges[i].to)
			list[start[edges[i].to] + fill[edges[i].to]++] = edges[i].from;
	/* the longest path from the sources, then each node as late as its
	 * consumers allow: a weight, or the arithmetic on weights, sits just
	 * above the operator that reads it, where dot's ranking puts it */
	for (size_t i = 0; i < n; i++)
		for (uint32_t k = start[i]; k < start[i + 1]; k++)
			if (rank[list[k]] + 1 > rank[i])
				rank[i] = rank[list[k]] + 1;
	for (size_t i = 0; i < n; i++)
		late[i] = UINT32_MAX;
	for (size_t i = n; i-- > 0;) {
		if (late[i] != UINT32_MAX)
			rank[i] = late[i];
		for (uint32_t k = start[i]; k < start[i + 1]; k++)
			if (rank[i] - 1 < late[list[k]])
				late[list[k]] = rank[i] - 1;
	}
	for (size_t i = 0; i < n; i++)
		if (rank[i] > top)
			top = rank[i];
	nranks = ((size_t)top + 1) * unit + 1;
	diff = xcalloc(nranks + 1, sizeof(int64_t));
	for (size_t i = 0; i < n; i++) {
		diff[(size_t)rank[i] * unit]++;
		diff[(size_t)rank[i] * unit + 1]--;
	}
	for (size_t i = 0; i < nedges; i++) {
		size_t a = (size_t)rank[edges[i].from] * unit, b = (size_t)rank[edges[i].to] * unit;
		if (edges[i].reference) {
			a = (size_t)rank[edges[i].to] * unit;
			a = a ? a - 1 : 0;
			diff[a]++;
			diff[a + 1]--;
			continue;
		}
		if (a > b) {
			size_t t = a;
			a = b;
			b = t;
		}
		if (b > a + 1) { /* the ranks strictly between */
			diff[a + 1]++;
			diff[b]--;
		}
	}
	for (size_t r = 0; r < nranks; r++) {
		width += diff[r];
		cost += (double)width * (double)width;
	}
	free(diff);
	free(rank);
	free(start);
	free(list);
	free(fill);
	free(late);
	return cost;
}

/* The estimate for the full drawing: its drawn nodes in order, their edges,
 * and a reference node for each far use. */
static double viz_cost_of_nodes(const VizModel *vm, size_t drawn)
{
	uint32_t *pos = xmalloc((vm->nnodes + 1) * sizeof(uint32_t));
	VizCostEdge *edges = xmalloc((vm->nedges + 1) * sizeof(VizCostEdge));
	size_t next = 0, n = 0;
	bool labels = false;
	double cost;
	for (size_t i = 0; i < vm->nnodes; i++)
		pos[i] = vm->nodes[i].drawn ? (uint32_t)next++ : VIZ_NONE;
	for (size_t i = 0; i < vm->nedges; i++) {
		const VizEdge *e = &vm->edges[i];
		if (pos[e->from] == VIZ_NONE || pos[e->to] == VIZ_NONE)
			continue;
		edges[n++] = (VizCostEdge){pos[e->from], pos[e->to], e->reference};
		labels |= e->kind != VIZ_EDGE_DATA || e->conflict || e->uncopied;
	}
	/* past VIZ_LABEL_NODES edge labels are external: no doubled ranks */
	cost = viz_layout_cost(next, edges, n, labels && drawn <= VIZ_LABEL_NODES);
	free(pos);
	free(edges);
	return cost;
}

/* The estimate for the overview: its boxes in order, its links (labelled
 * with their bytes) and a reference node for each far link. */
static double viz_cost_of_boxes(const VizModel *vm, size_t references)
{
	const VizOverview *o = &vm->boxes;
	VizCostEdge *edges = xmalloc((o->nlinks + 1) * sizeof(VizCostEdge));
	double cost;
	for (size_t i = 0; i < o->nlinks; i++)
		edges[i] = (VizCostEdge){o->links[i].from, o->links[i].to, o->links[i].reference};
	cost = viz_layout_cost(o->nboxes, edges, o->nlinks,
			       o->nlinks && o->nboxes + references <= VIZ_LABEL_NODES);
	free(edges);
	return cost;
}

void viz_model_free(VizModel *vm)
{
	for (size_t i = 0; i < vm->nedges; i++) {
		free(vm->edges[i].conflict);
		free(vm->edges[i].uncopied);
	}
	for (size_t i = 0; i < vm->boxes.nboxes; i++) {
		free(vm->boxes.boxes[i].name);
		free(vm->boxes.boxes[i].label);
		free(vm->boxes.boxes[i].tooltip);
	}
	free(vm->boxes.boxes);
	free(vm->boxes.links);
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

/* Counts what the model draws: the full graph's nodes and edges. */
static void viz_count(VizModel *vm, VizStats *stats)
{
	for (size_t i = 0; i < vm->nnodes; i++) {
		const VizNode *n = &vm->nodes[i];
		if (!n->drawn)
			continue;
		stats->nodes++;
		stats->copies += ir_is_op(n->e, OP_DEVICE_COPY);
		stats->unplanned += viz_device(vm, n->e) == IR_NO_DEVICE;
		vm->has_on_device |= ir_is_op(n->e, OP_ON_DEVICE);
		if (n->cluster != VIZ_NONE && vm->clusters[n->cluster].kind == VIZ_CLUSTER_REGION)
			vm->has_regions = true;
	}
	for (size_t i = 0; i < vm->nedges; i++) {
		const VizEdge *e = &vm->edges[i];
		if (vm->nodes[e->from].drawn && vm->nodes[e->to].drawn) {
			stats->edges++;
			stats->conflicts += e->conflict != NULL;
			stats->references += e->reference;
			stats->uncopied += e->uncopied != NULL;
			vm->has_dashed |= e->kind == VIZ_EDGE_CALLEE || e->kind == VIZ_EDGE_RESULT;
		}
	}
}

static void viz_count_overview(VizModel *vm, VizStats *stats)
{
	stats->overview = true;
	stats->nodes = vm->boxes.nboxes;
	stats->edges = vm->boxes.nlinks;
	for (size_t i = 0; i < vm->boxes.nboxes; i++) {
		stats->copies += vm->boxes.boxes[i].copy;
		stats->unplanned += vm->boxes.boxes[i].device == IR_NO_DEVICE;
	}
	for (size_t i = 0; i < vm->boxes.nlinks; i++)
		stats->references += vm->boxes.links[i].reference;
	stats->cost = viz_cost_of_boxes(vm, stats->references);
}

/* "WHAT has N nodes[, R references to far values] and E edges, more than
 * M to lay out", or that its edges span so many ranks that the layout
 * would cost too much. */
static char *viz_size_text(const char *what, size_t nodes, size_t references, size_t edges,
			   bool with_edges, double cost, size_t max, double max_cost)
{
	StrBuf sb;
	strbuf_init(&sb);
	strbuf_printf(&sb, "%s has %zu nodes", what, nodes);
	if (references)
		strbuf_printf(&sb, "%s %zu reference%s to far values", with_edges ? "," : " and",
			      references, references == 1 ? "" : "s");
	if (with_edges)
		strbuf_printf(&sb, " and %zu edges", edges);
	if (nodes + references > max)
		strbuf_printf(&sb, ", more than %zu to lay out", max);
	else
		strbuf_printf(&sb,
			      ", but its edges span so many ranks that laying it out would "
			      "cost %.0f, more than %.0f",
			      cost, max_cost);
	return strbuf_detach(&sb);
}

char *viz_too_big_reason(const VizStats *stats, bool edges)
{
	return viz_size_text("the graph", stats->full_nodes, stats->full_references,
			     stats->full_edges, edges, stats->full_cost, stats->max_nodes,
			     stats->max_cost);
}

/* Past the limits (stats->max_nodes, stats->max_cost)? */
static bool viz_too_big(const VizStats *stats)
{
	return stats->nodes + stats->references > stats->max_nodes || stats->cost > stats->max_cost;
}

/* The overview of vm into stats, refused past the limits without force.
 * fallback: drawn for a full graph that was too big (stats->too_big),
 * whose size stats holds on entry. */
static bool viz_build_overview(VizModel *vm, VizStats *stats, bool fallback, char **err)
{
	VizStats full = *stats;
	char *size, *why;
	memset(stats, 0, sizeof *stats);
	stats->max_nodes = full.max_nodes;
	stats->max_cost = full.max_cost;
	vm->has_on_device = vm->has_dashed = vm->has_regions = false;
	viz_overview(vm);
	viz_count_overview(vm, stats);
	if (fallback) {
		stats->too_big = true;
		stats->full_nodes = full.nodes;
		stats->full_edges = full.edges;
		stats->full_references = full.references;
		stats->full_cost = full.cost;
	}
	if (!viz_too_big(stats) || vm->opts->force)
		return true;
	/* what to do instead: never the option just used */
	size = viz_size_text(fallback ? "its overview" : "the overview", stats->nodes,
			     stats->references, stats->edges, false, stats->cost, stats->max_nodes,
			     stats->max_cost);
	if (fallback) {
		why = viz_too_big_reason(stats, true);
		*err = xasprintf("%s, and %s; draw a neighbourhood with --focus %%x --depth N, or "
				 "pass --force to lay out every node anyway",
				 why, size);
		free(why);
	} else {
		*err = xasprintf("%s; draw a neighbourhood with --focus %%x --depth N instead of "
				 "--overview, or pass --force to lay it out anyway",
				 size);
	}
	free(size);
	return false;
}

bool viz_model_build(VizModel *vm, const VizOptions *opts, VizStats *stats, char **err)
{
	memset(vm, 0, sizeof *vm);
	memset(stats, 0, sizeof *stats);
	stats->max_nodes = opts->max_nodes ? opts->max_nodes : VIZ_MAX_NODES;
	stats->max_cost = (double)stats->max_nodes * VIZ_MAX_COST_PER_NODE;
	vm->opts = opts;
	vm->m = opts->module;
	vm->focus = VIZ_NONE;
	vm->node_of = xmalloc((vm->m->nexprs + 1) * sizeof(uint32_t));
	for (uint32_t i = 0; i <= vm->m->nexprs; i++)
		vm->node_of[i] = VIZ_NONE;
	plan_functions(vm->m, &vm->functions);
	viz_collect(vm);
	viz_connect(vm);
	viz_index_edges(vm);
	if (opts->overview)
		return viz_build_overview(vm, stats, false, err);
	viz_conflicts(vm);
	if (opts->regions)
		viz_regions(vm);
	if (opts->focus) {
		vm->focus = viz_find_focus(vm, opts->focus);
		if (vm->focus == VIZ_NONE) {
			StrBuf hint;
			strbuf_init(&hint);
			ir_suggest_names(vm->m, opts->focus, &hint);
			*err = xasprintf("no value named '%s' in the module%s", opts->focus,
					 hint.data ? hint.data : "");
			strbuf_free(&hint);
			return false;
		}
		viz_cut(vm, vm->focus, opts->depth < 0 ? VIZ_DEFAULT_DEPTH : (uint32_t)opts->depth);
	}
	if (!opts->params)
		viz_fold(vm, stats);
	viz_uncopied(vm);
	viz_references(vm);
	viz_count(vm, stats);
	stats->cost = viz_cost_of_nodes(vm, stats->nodes);
	if (!viz_too_big(stats) || opts->force)
		return true;
	if (opts->focus) {
		char *size =
			viz_size_text("the graph", stats->nodes, stats->references, stats->edges,
				      true, stats->cost, stats->max_nodes, stats->max_cost);
		*err = xasprintf("%s; draw a smaller neighbourhood with --depth N, or pass --force",
				 size);
		free(size);
		return false;
	}
	/* too big to lay out: the overview, which says why in its title */
	return viz_build_overview(vm, stats, true, err);
}
