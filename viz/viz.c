/*
 * viz.c - device-coloured graphs through Graphviz (SPEC §6).
 *
 * Drawing happens in two steps. First a plain model of the drawing is built
 * from the module version: nodes (expressions, in the module's definition
 * and execution order), data-flow edges, clusters (functions, or device
 * regions), conflict labels from the PlanTrace, then the --focus cut and the
 * size check. Only then is a cgraph graph made from the model, so that every
 * decision is taken on plain arrays and the Graphviz objects are created in
 * one fixed order. viz_render holds the whole Graphviz lifecycle in one
 * place: the context, agopen and the nodes, edges and subgraphs, gvLayout,
 * gvRender, gvFreeLayout, agclose.
 *
 * The gvc context is made once per process and never freed: Graphviz
 * 2.43's pango text-layout plugin caches, in a static, a pointer to the
 * last font name, which lives in the context's font dictionary; after a
 * gvFreeContext the next context's first label compares against freed
 * memory (AddressSanitizer: heap-use-after-free in pango_textlayout on the
 * second render of a session). One context keeps that pointer valid; it
 * stays reachable, so it is not a leak.
 *
 * Determinism: cgraph's default ID discipline uses the address of a name's
 * string as its ID and orders subgraphs by ID, so the order of clusters in
 * the written dot would follow malloc. viz_id_disc numbers named objects in
 * creation order instead (and anonymous ones per graph), so the same module
 * and options give the same bytes. Attributes are declared up front in a
 * fixed order for the same reason.
 *
 * Layout time: dot is the cost, so the graph is shaped to keep it near
 * linear: newrank (one global ranking, which halves the time with
 * clusters), reference nodes instead of edges that would span the drawing
 * (viz_references), external labels on the edges of large graphs, and a
 * refusal past VIZ_MAX_NODES unless forced.
 *
 * Graphviz reports problems through agerr, which prints to stderr; during a
 * render its messages are captured (agseterrf) and become part of the error
 * returned, since library code never prints.
 */
#include "viz.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include "ops.h"
#include "plan.h"

#define VIZ_NONE UINT32_MAX
#define VIZ_ARROW "\xe2\x86\x92" /* U+2192, in labels like `cpu:0 → cuda:0` */
#define VIZ_ELLIPSIS "\xe2\x80\xa6"
#define VIZ_CONFLICT_COLOR "red"
#define VIZ_TYPE_MAX 48 /* longer types are cut with an ellipsis */
/* A use further than this many drawn nodes (in execution order) from its
 * value reads a reference node instead of a long edge; see viz_references. */
#define VIZ_REACH 40
/* Past this many drawn nodes edge labels become xlabels: a real edge label
 * makes dot double every rank (a 2,000-node module: 50 s instead of 2 s). */
#define VIZ_LABEL_NODES 300

/* Okabe-Ito: distinguishable with every common colour-vision deficiency. */
static const char *const viz_palette[] = {
	"#E69F00", /* orange: cpu:0 */
	"#56B4E9", /* sky blue: cuda:0 */
	"#009E73", /* bluish green */
	"#F0E442", /* yellow */
	"#0072B2", /* blue: white text */
	"#D55E00", /* vermillion */
	"#CC79A7", /* reddish purple */
};

const char *viz_device_color(int32_t device)
{
	if (device < 0)
		return "#FFFFFF";
	return viz_palette[(size_t)device % DP_COUNT(viz_palette)];
}

static const char *viz_font_color(int32_t device)
{
	return device >= 0 && (size_t)device % DP_COUNT(viz_palette) == 4 ? "white" : "black";
}

/* ---- formats ---- */

const char *viz_format_name(VizFormat format)
{
	switch (format) {
	case VIZ_FORMAT_PNG:
		return "png";
	case VIZ_FORMAT_SVG:
		return "svg";
	case VIZ_FORMAT_PDF:
		return "pdf";
	case VIZ_FORMAT_DOT:
		return "dot";
	}
	return "?";
}

static const char *viz_extension(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	const char *dot = strrchr(base, '.');
	return dot && dot != base ? dot + 1 : NULL;
}

bool viz_format_of_path(const char *path, VizFormat *out)
{
	static const VizFormat formats[] = {VIZ_FORMAT_PNG, VIZ_FORMAT_SVG, VIZ_FORMAT_PDF,
					    VIZ_FORMAT_DOT};
	const char *ext = viz_extension(path);
	if (!ext)
		return false;
	for (size_t i = 0; i < DP_COUNT(formats); i++) {
		if (strcasecmp(ext, viz_format_name(formats[i])) == 0) {
			*out = formats[i];
			return true;
		}
	}
	return false;
}

/* ---- the model ---- */

typedef enum VizClusterKind {
	VIZ_CLUSTER_GLOBAL,  /* a global function */
	VIZ_CLUSTER_CLOSURE, /* a closure, inside its parent's cluster */
	VIZ_CLUSTER_REGION,  /* --regions: a run of ops on one device */
} VizClusterKind;

typedef struct VizCluster {
	VizClusterKind kind;
	uint32_t parent; /* enclosing cluster, or VIZ_NONE */
	char *name;      /* cluster_... (owned) */
	char *title;     /* @main, %f, fn@3:5, or a region's label (owned) */
	int32_t device;  /* a function's result device, or a region's device */
	Agraph_t *graph; /* created when its first node is drawn */
} VizCluster;

typedef struct VizNode {
	Expr *e;
	uint32_t function;    /* the function cluster it belongs to, or VIZ_NONE */
	uint32_t cluster;     /* the cluster it is drawn in, or VIZ_NONE */
	const char *let_name; /* a let variable bound to it, when it has no name */
	bool drawn;           /* false: a global only called, or cut by --focus */
	Agnode_t *node;
} VizNode;

typedef enum VizEdgeKind {
	VIZ_EDGE_DATA,   /* an operand, field or projected tuple */
	VIZ_EDGE_CALLEE, /* the closure a call calls */
	VIZ_EDGE_COND,   /* an if's condition */
	VIZ_EDGE_THEN,   /* an if's branches */
	VIZ_EDGE_ELSE,
	VIZ_EDGE_RESULT,  /* a closure's body into the closure */
	VIZ_EDGE_MATCHED, /* the value a match takes apart */
	VIZ_EDGE_CLAUSE,  /* a match clause's body */
} VizEdgeKind;

typedef struct VizEdge {
	uint32_t from, to; /* node indices */
	VizEdgeKind kind;
	char *conflict; /* `needs %b on cuda:0` (owned), or NULL */
	bool reference; /* drawn from a reference node beside `to` */
} VizEdge;

typedef struct VizModel {
	const VizOptions *opts;
	const IrModule *m;
	VizNode *nodes;
	size_t nnodes, cap_nodes;
	VizEdge *edges;
	size_t nedges, cap_edges;
	VizCluster *clusters;
	size_t nclusters, cap_clusters;
	uint32_t *node_of;  /* by expression id: node index or VIZ_NONE */
	uint32_t *in_start; /* incoming edges of node i: in_list[in_start[i]..in_start[i+1]) */
	uint32_t *in_list;
	uint32_t *out_start;
	uint32_t *out_list;
	ExprVec lets;            /* every let, to name the values they bind */
	PlanFunctions functions; /* the module's functions, walked and named once */
} VizModel;

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

static uint32_t viz_node_of(const VizModel *vm, const Expr *e)
{
	e = viz_resolve(vm->m, e);
	return e && e->id < vm->m->nexprs ? vm->node_of[e->id] : VIZ_NONE;
}

/* The device e is drawn on: its entry in opts->device_of (the devices a
 * phase in progress has bound so far), else its own. */
static int32_t viz_device(const VizModel *vm, const Expr *e)
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

static void viz_model_free(VizModel *vm)
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

static bool viz_model_build(VizModel *vm, const VizOptions *opts, VizStats *stats, char **err)
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

/* ---- cgraph ---- */

/* IDs in creation order: named objects get even IDs 2, 4, ... (their name
 * is kept for agnameof), anonymous ones odd IDs counted per graph. */
typedef struct VizIds {
	Agraph_t *g;
	char **names; /* cgraph strings (agstrdup): agwrite reads their flags */
	size_t count, cap;
	uint32_t *slots; /* open addressing: index + 1, 0 empty */
	size_t nslots;
	IDTYPE anonymous;
} VizIds;

static void *viz_id_open(Agraph_t *g, Agdisc_t *disc)
{
	VizIds *ids = xcalloc(1, sizeof(VizIds));
	ids->g = g;
	ids->nslots = 64;
	ids->slots = xcalloc(ids->nslots, sizeof(uint32_t));
	ids->anonymous = 1;
	return ids;
}

static uint32_t *viz_id_slot(VizIds *ids, const char *name)
{
	size_t mask = ids->nslots - 1;
	size_t i = (size_t)hash_bytes(name, strlen(name)) & mask;
	while (ids->slots[i] && strcmp(ids->names[ids->slots[i] - 1], name) != 0)
		i = (i + 1) & mask;
	return &ids->slots[i];
}

static long viz_id_map(void *state, int objtype, char *str, IDTYPE *id, int createflag)
{
	VizIds *ids = state;
	uint32_t *slot;
	if (!str) {
		*id = ids->anonymous;
		ids->anonymous += 2;
		return 1;
	}
	slot = viz_id_slot(ids, str);
	if (!*slot) {
		if (!createflag)
			return 0;
		if ((ids->count + 1) * 2 > ids->nslots) {
			free(ids->slots);
			ids->nslots *= 2;
			ids->slots = xcalloc(ids->nslots, sizeof(uint32_t));
			for (size_t k = 0; k < ids->count; k++)
				*viz_id_slot(ids, ids->names[k]) = (uint32_t)k + 1;
			slot = viz_id_slot(ids, str);
		}
		grow_array((void **)&ids->names, &ids->cap, ids->count + 1, sizeof(char *));
		ids->names[ids->count++] = agstrdup(ids->g, str);
		*slot = (uint32_t)ids->count;
	}
	*id = (IDTYPE)*slot * 2;
	return 1;
}

static long viz_id_alloc(void *state, int objtype, IDTYPE id)
{
	return 0; /* no object asks for a particular ID: nothing is read */
}

static void viz_id_free(void *state, int objtype, IDTYPE id)
{
	/* names live until the graph closes */
}

static char *viz_id_print(void *state, int objtype, IDTYPE id)
{
	VizIds *ids = state;
	if (id % 2 != 0 || id == 0 || id / 2 > ids->count)
		return NULL;
	return ids->names[id / 2 - 1];
}

static void viz_id_close(void *state)
{
	VizIds *ids = state;
	/* the names go with the graph's string dictionary, closed after this */
	free(ids->names);
	free(ids->slots);
	free(ids);
}

static void viz_id_register(void *state, int objtype, void *obj)
{
}

static Agiddisc_t viz_id_disc = {viz_id_open,  viz_id_map,   viz_id_alloc,   viz_id_free,
				 viz_id_print, viz_id_close, viz_id_register};
static Agdisc_t viz_disc = {&AgMemDisc, &viz_id_disc, &AgIoDisc};

/* The attributes, declared once per graph in this order. */
typedef struct VizSyms {
	Agsym_t *g_label, *g_style, *g_color, *g_fillcolor, *g_penwidth, *g_fontcolor;
	Agsym_t *n_label, *n_shape, *n_style, *n_fillcolor, *n_color, *n_fontcolor, *n_penwidth,
		*n_peripheries, *n_gradientangle, *n_tooltip;
	Agsym_t *e_label, *e_xlabel, *e_color, *e_fontcolor, *e_style, *e_penwidth;
} VizSyms;

/* cgraph takes char *; it copies every name and value it is given. */
#define VIZ_S(s) ((char *)(s))

static void viz_declare(Agraph_t *g, VizSyms *s)
{
	agattr(g, AGRAPH, VIZ_S("fontname"), VIZ_S("Helvetica"));
	agattr(g, AGRAPH, VIZ_S("fontsize"), VIZ_S("12"));
	agattr(g, AGRAPH, VIZ_S("labelloc"), VIZ_S("t"));
	/* one global ranking: with clusters the old ranker takes twice as long
	 * (a 2,000-node module: 1.5 s instead of 3.5 s) */
	agattr(g, AGRAPH, VIZ_S("newrank"), VIZ_S("true"));
	agattr(g, AGRAPH, VIZ_S("nodesep"), VIZ_S("0.3"));
	agattr(g, AGRAPH, VIZ_S("ranksep"), VIZ_S("0.4"));
	s->g_label = agattr(g, AGRAPH, VIZ_S("label"), VIZ_S(""));
	s->g_style = agattr(g, AGRAPH, VIZ_S("style"), VIZ_S(""));
	s->g_color = agattr(g, AGRAPH, VIZ_S("color"), VIZ_S(""));
	s->g_fillcolor = agattr(g, AGRAPH, VIZ_S("fillcolor"), VIZ_S(""));
	s->g_penwidth = agattr(g, AGRAPH, VIZ_S("penwidth"), VIZ_S("1"));
	s->g_fontcolor = agattr(g, AGRAPH, VIZ_S("fontcolor"), VIZ_S("black"));
	/* label first with \N, as gvContext declares it on every later graph */
	s->n_label = agattr(g, AGNODE, VIZ_S("label"), VIZ_S("\\N"));
	agattr(g, AGNODE, VIZ_S("fontname"), VIZ_S("Helvetica"));
	agattr(g, AGNODE, VIZ_S("fontsize"), VIZ_S("10"));
	s->n_shape = agattr(g, AGNODE, VIZ_S("shape"), VIZ_S("box"));
	s->n_style = agattr(g, AGNODE, VIZ_S("style"), VIZ_S("filled"));
	s->n_fillcolor = agattr(g, AGNODE, VIZ_S("fillcolor"), VIZ_S("#FFFFFF"));
	s->n_color = agattr(g, AGNODE, VIZ_S("color"), VIZ_S("black"));
	s->n_fontcolor = agattr(g, AGNODE, VIZ_S("fontcolor"), VIZ_S("black"));
	s->n_penwidth = agattr(g, AGNODE, VIZ_S("penwidth"), VIZ_S("1"));
	s->n_peripheries = agattr(g, AGNODE, VIZ_S("peripheries"), VIZ_S("1"));
	s->n_gradientangle = agattr(g, AGNODE, VIZ_S("gradientangle"), VIZ_S(""));
	s->n_tooltip = agattr(g, AGNODE, VIZ_S("tooltip"), VIZ_S(""));
	s->e_label = agattr(g, AGEDGE, VIZ_S("label"), VIZ_S(""));
	s->e_xlabel = agattr(g, AGEDGE, VIZ_S("xlabel"), VIZ_S(""));
	agattr(g, AGEDGE, VIZ_S("fontname"), VIZ_S("Helvetica"));
	agattr(g, AGEDGE, VIZ_S("fontsize"), VIZ_S("9"));
	s->e_color = agattr(g, AGEDGE, VIZ_S("color"), VIZ_S("#444444"));
	s->e_fontcolor = agattr(g, AGEDGE, VIZ_S("fontcolor"), VIZ_S("black"));
	s->e_style = agattr(g, AGEDGE, VIZ_S("style"), VIZ_S(""));
	s->e_penwidth = agattr(g, AGEDGE, VIZ_S("penwidth"), VIZ_S("1"));
}

static void viz_set(void *obj, Agsym_t *sym, const char *value)
{
	agxset(obj, sym, VIZ_S(value));
}

/* A cluster's subgraph, created with its parents on first use. */
static Agraph_t *viz_cluster_graph(VizModel *vm, Agraph_t *root, const VizSyms *s, uint32_t ci)
{
	VizCluster *c;
	Agraph_t *parent;
	StrBuf label;
	if (ci == VIZ_NONE)
		return root;
	c = &vm->clusters[ci];
	if (c->graph)
		return c->graph;
	parent = viz_cluster_graph(vm, root, s, c->parent);
	c->graph = agsubg(parent, c->name, 1);
	strbuf_init(&label);
	strbuf_puts(&label, c->title);
	switch (c->kind) {
	case VIZ_CLUSTER_GLOBAL:
	case VIZ_CLUSTER_CLOSURE:
		if (c->device != IR_NO_DEVICE)
			strbuf_printf(&label, ", result on %s",
				      devices_name(vm->opts->devices, c->device));
		viz_set(c->graph, s->g_style, "rounded");
		viz_set(c->graph, s->g_color, "#777777");
		viz_set(c->graph, s->g_fillcolor, "");
		viz_set(c->graph, s->g_penwidth, "1");
		break;
	case VIZ_CLUSTER_REGION:
		viz_set(c->graph, s->g_style, "rounded,bold");
		viz_set(c->graph, s->g_color, viz_device_color(c->device));
		viz_set(c->graph, s->g_fillcolor, "");
		viz_set(c->graph, s->g_penwidth, "3");
		break;
	}
	viz_set(c->graph, s->g_label, label.data);
	viz_set(c->graph, s->g_fontcolor, "black");
	strbuf_free(&label);
	return c->graph;
}

/* Appends "T" of e's type, cut to VIZ_TYPE_MAX bytes. */
static void viz_type_line(StrBuf *label, const Expr *e)
{
	StrBuf t;
	if (!e->type)
		return;
	strbuf_init(&t);
	type_print(&t, e->type);
	if (t.len > VIZ_TYPE_MAX) {
		t.len = VIZ_TYPE_MAX;
		t.data[t.len] = '\0';
		strbuf_puts(&t, VIZ_ELLIPSIS);
	}
	strbuf_printf(label, "\\n%s", t.data);
	strbuf_free(&t);
}

/* `1f`, `2i64`, `True` for scalar literals; `meta[relay.Constant][i]`. */
static void viz_constant_text(StrBuf *label, const Expr *e)
{
	const Tensor *t = &e->u.constant.tensor;
	if (e->u.constant.meta_index >= 0) {
		strbuf_printf(label, "meta[relay.Constant][%d]", e->u.constant.meta_index);
		return;
	}
	if (t->ndim != 0 || !t->data) {
		strbuf_puts(label, "constant");
		return;
	}
	switch (t->dtype) {
	case DT_FLOAT32:
		strbuf_printf(label, "%gf", (double)*(const float *)t->data);
		break;
	case DT_FLOAT64:
		strbuf_printf(label, "%gf64", *(const double *)t->data);
		break;
	case DT_FLOAT16:
		strbuf_puts(label, "constant f16");
		break;
	case DT_INT32:
		strbuf_printf(label, "%d", (int)*(const int32_t *)t->data);
		break;
	case DT_INT64:
		strbuf_printf(label, "%lldi64", (long long)*(const int64_t *)t->data);
		break;
	case DT_INT16:
		strbuf_printf(label, "%di16", (int)*(const int16_t *)t->data);
		break;
	case DT_BOOL:
		strbuf_puts(label, *(const uint8_t *)t->data ? "True" : "False");
		break;
	case DT_INT8:
	case DT_UINT8:
	case DT_UINT16:
	case DT_UINT32:
	case DT_UINT64:
	case DT_BFLOAT16:
	case DT_COUNT:
		strbuf_puts(label, "constant");
		break;
	}
}

/* `%0 = ` for a named value. */
static void viz_name_prefix(StrBuf *label, const VizNode *n)
{
	const char *name = n->e->name ? n->e->name : n->let_name;
	if (name)
		strbuf_printf(label, "%%%s = ", name);
}

static void viz_draw_node(VizModel *vm, Agraph_t *root, const VizSyms *s, VizNode *n, char *id)
{
	const DeviceTable *devices = vm->opts->devices;
	Expr *e = n->e;
	int32_t device = viz_device(vm, e);
	bool planned = device != IR_NO_DEVICE;
	const char *shape = "box";
	const char *style = planned ? "filled" : "filled,dashed";
	bool device_line = planned;
	StrBuf label;
	Agnode_t *node;
	strbuf_init(&label);
	node = agnode(viz_cluster_graph(vm, root, s, n->cluster), id, 1);
	n->node = node;
	switch (e->kind) {
	case EXPR_VAR:
		shape = "invhouse";
		if (e->u.var.role == VAR_FREE)
			strbuf_puts(&label, "free_var ");
		strbuf_printf(&label, "%%%s", e->name ? e->name : "?");
		viz_type_line(&label, e);
		break;
	case EXPR_GLOBAL:
		shape = "ellipse";
		strbuf_printf(&label, "@%s", e->u.global.name);
		break;
	case EXPR_CONSTANT:
		shape = "cylinder";
		viz_name_prefix(&label, n);
		viz_constant_text(&label, e);
		viz_type_line(&label, e);
		break;
	case EXPR_CALL:
		viz_name_prefix(&label, n);
		if (ir_is_op(e, OP_DEVICE_COPY)) {
			int32_t src, dst;
			int64_t bytes = -1;
			const Type *t =
				e->type ? e->type
					: (e->u.call.nargs ? e->u.call.args[0]->type : NULL);
			ir_device_copy_props(e, &src, &dst);
			shape = "hexagon";
			style = planned ? "filled,bold" : "filled,bold,dashed";
			strbuf_printf(&label, "device_copy\\n%s %s %s", devices_name(devices, src),
				      VIZ_ARROW, devices_name(devices, dst));
			if (t && type_bytes(t, &bytes))
				strbuf_printf(&label, "\\n%lld bytes", (long long)bytes);
			viz_set(node, s->n_penwidth, "2.5");
			device_line = false;
		} else if (ir_is_op(e, OP_ON_DEVICE)) {
			int32_t device;
			bool body, result;
			ir_on_device_props(e, &device, &body, &result);
			shape = "note";
			strbuf_printf(&label, "on_device %s%s", devices_name(devices, device),
				      result ? " fixed" : "");
			viz_type_line(&label, e);
		} else if (e->u.call.op != OP_NONE) {
			style = planned ? "rounded,filled" : "rounded,filled,dashed";
			strbuf_puts(&label, ir_call_op_name(e));
			viz_type_line(&label, e);
		} else {
			const Expr *callee = e->u.call.callee;
			viz_set(node, s->n_peripheries, "2");
			if (callee->kind == EXPR_GLOBAL)
				strbuf_printf(&label, "call @%s", callee->u.global.name);
			else if (callee->name)
				strbuf_printf(&label, "call %%%s", callee->name);
			else
				strbuf_puts(&label, "call");
			viz_type_line(&label, e);
		}
		break;
	case EXPR_FN:
		shape = "component";
		viz_name_prefix(&label, n);
		strbuf_printf(&label, "fn, %u param%s", e->u.fn.nparams,
			      e->u.fn.nparams == 1 ? "" : "s");
		break;
	case EXPR_TUPLE:
		viz_name_prefix(&label, n);
		strbuf_printf(&label, "tuple of %u", e->u.tuple.nfields);
		viz_type_line(&label, e);
		break;
	case EXPR_PROJ:
		viz_name_prefix(&label, n);
		strbuf_printf(&label, ".%u", e->u.proj.index);
		viz_type_line(&label, e);
		break;
	case EXPR_IF:
		shape = "diamond";
		viz_name_prefix(&label, n);
		strbuf_puts(&label, "if");
		break;
	case EXPR_MATCH:
		shape = "diamond";
		viz_name_prefix(&label, n);
		strbuf_printf(&label, "%s, %u clause%s", e->u.match.complete ? "match" : "match?",
			      e->u.match.nclauses, e->u.match.nclauses == 1 ? "" : "s");
		viz_type_line(&label, e);
		break;
	case EXPR_CONSTRUCT:
		viz_name_prefix(&label, n);
		strbuf_puts(&label, e->u.construct.name);
		viz_type_line(&label, e);
		break;
	case EXPR_LET:
		break; /* never a node */
	}
	if (device_line)
		strbuf_printf(&label, "\\n%s", devices_name(devices, device));
	viz_set(node, s->n_label, label.data);
	viz_set(node, s->n_shape, shape);
	viz_set(node, s->n_style, style);
	if (ir_is_op(e, OP_DEVICE_COPY)) {
		/* from the source's colour to the destination's, left to right */
		int32_t src, dst;
		ir_device_copy_props(e, &src, &dst);
		if (src != IR_NO_DEVICE && dst != IR_NO_DEVICE) {
			char *fill =
				xasprintf("%s:%s", viz_device_color(src), viz_device_color(dst));
			viz_set(node, s->n_fillcolor, fill);
			viz_set(node, s->n_gradientangle, "0");
			free(fill);
		} else {
			viz_set(node, s->n_fillcolor, viz_device_color(device));
		}
	} else {
		viz_set(node, s->n_fillcolor, viz_device_color(device));
	}
	viz_set(node, s->n_fontcolor, viz_font_color(device));
	if (e->pos.line) {
		char pos[32];
		snprintf(pos, sizeof pos, "%u:%u", e->pos.line, e->pos.col);
		viz_set(node, s->n_tooltip, pos);
	}
	strbuf_free(&label);
}

/* The reference node a long edge starts from: `n<id>_<edge>`, beside the
 * consumer, an ellipse with the value's name in the value's colour. */
static Agnode_t *viz_draw_reference(VizModel *vm, Agraph_t *root, const VizSyms *s, size_t index)
{
	const VizEdge *edge = &vm->edges[index];
	const VizNode *from = &vm->nodes[edge->from], *to = &vm->nodes[edge->to];
	int32_t device = viz_device(vm, from->e);
	char id[48];
	StrBuf label;
	Agnode_t *n;
	snprintf(id, sizeof id, "n%u_%zu", from->e->id, index);
	n = agnode(viz_cluster_graph(vm, root, s, to->cluster), id, 1);
	strbuf_init(&label);
	if (from->let_name)
		strbuf_printf(&label, "%%%s", from->let_name);
	else
		ir_value_name(&label, from->e);
	viz_set(n, s->n_label, label.data);
	viz_set(n, s->n_shape, "ellipse");
	viz_set(n, s->n_style, device == IR_NO_DEVICE ? "filled,dashed" : "filled");
	viz_set(n, s->n_fillcolor, viz_device_color(device));
	viz_set(n, s->n_fontcolor, viz_font_color(device));
	if (from->e->pos.line) {
		char pos[32];
		snprintf(pos, sizeof pos, "%u:%u", from->e->pos.line, from->e->pos.col);
		viz_set(n, s->n_tooltip, pos);
	}
	strbuf_free(&label);
	return n;
}

static void viz_draw_edge(VizModel *vm, Agraph_t *g, const VizSyms *s, size_t index, bool big)
{
	const VizEdge *edge = &vm->edges[index];
	Agsym_t *label = big ? s->e_xlabel : s->e_label;
	Agnode_t *tail =
		edge->reference ? viz_draw_reference(vm, g, s, index) : vm->nodes[edge->from].node;
	Agedge_t *e = agedge(g, tail, vm->nodes[edge->to].node, NULL, 1);
	switch (edge->kind) {
	case VIZ_EDGE_DATA:
		break;
	case VIZ_EDGE_CALLEE:
		viz_set(e, s->e_style, "dashed");
		viz_set(e, label, "callee");
		break;
	case VIZ_EDGE_COND:
		viz_set(e, label, "cond");
		break;
	case VIZ_EDGE_THEN:
		viz_set(e, label, "then");
		break;
	case VIZ_EDGE_ELSE:
		viz_set(e, label, "else");
		break;
	case VIZ_EDGE_RESULT:
		viz_set(e, s->e_style, "dashed");
		viz_set(e, label, "result");
		break;
	case VIZ_EDGE_MATCHED:
		viz_set(e, label, "matched");
		break;
	case VIZ_EDGE_CLAUSE:
		viz_set(e, label, "clause");
		break;
	}
	if (edge->conflict) {
		viz_set(e, label, edge->conflict);
		viz_set(e, s->e_color, VIZ_CONFLICT_COLOR);
		viz_set(e, s->e_fontcolor, VIZ_CONFLICT_COLOR);
		viz_set(e, s->e_style, "bold");
		viz_set(e, s->e_penwidth, "2.5");
	}
}

/* A column of boxes: each device of the table in its colour, then the
 * unplanned and device_copy styles when the graph has such nodes, held in
 * order by invisible edges. */
static Agnode_t *viz_legend_node(Agraph_t *legend, const VizSyms *s, const char *name,
				 const char *label, Agnode_t *prev)
{
	Agnode_t *n = agnode(legend, VIZ_S(name), 1);
	viz_set(n, s->n_label, label);
	if (prev)
		viz_set(agedge(agroot(legend), prev, n, NULL, 1), s->e_style, "invis");
	return n;
}

static void viz_draw_legend(Agraph_t *g, const VizSyms *s, const DeviceTable *devices,
			    const VizStats *stats)
{
	Agraph_t *legend = agsubg(g, VIZ_S("cluster_legend"), 1);
	Agnode_t *n = NULL;
	char name[32];
	viz_set(legend, s->g_label, "devices");
	viz_set(legend, s->g_style, "rounded");
	viz_set(legend, s->g_color, "#AAAAAA");
	viz_set(legend, s->g_fillcolor, "");
	viz_set(legend, s->g_penwidth, "1");
	viz_set(legend, s->g_fontcolor, "black");
	for (uint32_t d = 0; d < devices->count; d++) {
		snprintf(name, sizeof name, "legend_d%u", d);
		n = viz_legend_node(legend, s, name, devices_name(devices, (int32_t)d), n);
		viz_set(n, s->n_fillcolor, viz_device_color((int32_t)d));
		viz_set(n, s->n_fontcolor, viz_font_color((int32_t)d));
	}
	if (stats->unplanned) {
		n = viz_legend_node(legend, s, "legend_unplanned", "no device", n);
		viz_set(n, s->n_style, "filled,dashed");
	}
	if (stats->copies) {
		n = viz_legend_node(legend, s, "legend_copy", "device_copy", n);
		viz_set(n, s->n_shape, "hexagon");
		viz_set(n, s->n_style, "filled,bold");
		viz_set(n, s->n_penwidth, "2.5");
	}
}

static Agraph_t *viz_graph_of_model(VizModel *vm, const VizStats *stats)
{
	const VizOptions *opts = vm->opts;
	Agraph_t *g = agopen(VIZ_S("devplan"), Agdirected, &viz_disc);
	VizSyms s;
	StrBuf title;
	char id[32];
	viz_declare(g, &s);
	strbuf_init(&title);
	/* a backslash would start a Graphviz escape (\n, \N, ...) */
	for (const char *p = opts->title ? opts->title : ""; *p; p++) {
		if (*p == '\\')
			strbuf_putc(&title, '\\');
		strbuf_putc(&title, *p);
	}
	if (opts->focus)
		strbuf_printf(&title, "%swithin %d edge%s of %s%s", title.len ? "\\n" : "",
			      opts->depth < 0 ? VIZ_DEFAULT_DEPTH : opts->depth,
			      opts->depth == 1 ? "" : "s", opts->focus[0] == '%' ? "" : "%",
			      opts->focus);
	viz_set(g, s.g_label, title.len ? title.data : "");
	strbuf_free(&title);
	viz_draw_legend(g, &s, opts->devices, stats);
	for (size_t i = 0; i < vm->nnodes; i++) {
		if (!vm->nodes[i].drawn)
			continue;
		snprintf(id, sizeof id, "n%u", vm->nodes[i].e->id);
		viz_draw_node(vm, g, &s, &vm->nodes[i], id);
	}
	for (size_t i = 0; i < vm->nedges; i++) {
		const VizEdge *e = &vm->edges[i];
		if (vm->nodes[e->from].drawn && vm->nodes[e->to].drawn)
			viz_draw_edge(vm, g, &s, i, stats->nodes > VIZ_LABEL_NODES);
	}
	return g;
}

Agraph_t *viz_build_graph(const VizOptions *opts, VizStats *stats, char **err)
{
	VizModel vm;
	VizStats local;
	Agraph_t *g = NULL;
	if (!stats)
		stats = &local;
	*err = NULL;
	if (viz_model_build(&vm, opts, stats, err)) {
		g = viz_graph_of_model(&vm, stats);
		for (size_t i = 0; i < vm.nclusters; i++)
			stats->clusters += vm.clusters[i].graph != NULL;
	}
	viz_model_free(&vm);
	return g;
}

void viz_free_graph(Agraph_t *g)
{
	if (g)
		agclose(g);
}

bool viz_write_dot(const VizOptions *opts, FILE *out, VizStats *stats, char **err)
{
	Agraph_t *g = viz_build_graph(opts, stats, err);
	bool ok;
	if (!g)
		return false;
	ok = agwrite(g, out) == 0 && fflush(out) == 0 && !ferror(out);
	agclose(g);
	if (!ok)
		*err = xasprintf("cannot write the graph: %s", strerror(errno));
	return ok;
}

/* ---- rendering ---- */

/* Graphviz's messages during a render (agerr), instead of stderr. */
static StrBuf *viz_messages;

static int viz_capture_message(char *message)
{
	if (viz_messages)
		strbuf_puts(viz_messages, message);
	return 0;
}

/* "what: message" with Graphviz's last line, when it said something. */
static char *viz_graphviz_error(const char *what, StrBuf *messages)
{
	while (messages->len && (messages->data[messages->len - 1] == '\n' ||
				 messages->data[messages->len - 1] == ' '))
		messages->data[--messages->len] = '\0';
	if (!messages->len)
		return xasprintf("graphviz could not %s the graph", what);
	return xasprintf("graphviz could not %s the graph: %s", what, messages->data);
}

/* The process's one gvc context (see the top of the file). */
static GVC_t *viz_context(void)
{
	static GVC_t *gvc;
	if (!gvc)
		gvc = gvContext();
	return gvc;
}

/* Lays out and renders g into out: the gvc half of the lifecycle. */
static bool viz_layout_render(Agraph_t *g, VizFormat format, FILE *out, char **err)
{
	StrBuf messages;
	agusererrf previous;
	GVC_t *gvc = viz_context();
	bool ok = true;
	strbuf_init(&messages);
	viz_messages = &messages;
	previous = agseterrf(viz_capture_message);
	if (gvLayout(gvc, g, "dot") != 0) {
		*err = viz_graphviz_error("lay out", &messages);
		ok = false;
	} else {
		if (gvRender(gvc, g, viz_format_name(format), out) != 0) {
			*err = viz_graphviz_error("render", &messages);
			ok = false;
		}
		gvFreeLayout(gvc, g);
	}
	agseterrf(previous);
	viz_messages = NULL;
	strbuf_free(&messages);
	return ok;
}

/* The mode a new file gets: an existing file's, else 0666 less the umask. */
static mode_t viz_file_mode(const struct stat *existing, bool exists)
{
	mode_t mask;
	if (exists)
		return existing->st_mode & 07777;
	mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

bool viz_render(const VizOptions *opts, const char *path, VizStats *stats, char **err)
{
	VizFormat format;
	struct stat st;
	bool exists;
	char *target = NULL, *dir, *tmp;
	const char *slash, *base;
	int fd;
	FILE *out;
	Agraph_t *g;
	bool ok;
	*err = NULL;
	if (!viz_format_of_path(path, &format)) {
		const char *ext = viz_extension(path);
		if (!ext)
			*err = xasprintf(
				"'%s' has no extension; name a .png, .svg, .pdf or .dot file",
				path);
		else
			*err = xasprintf(
				"unknown format '.%s' of '%s'; use .png, .svg, .pdf or .dot", ext,
				path);
		return false;
	}
	/* a symbolic link stays one: the file it names is replaced */
	exists = lstat(path, &st) == 0;
	if (exists && S_ISLNK(st.st_mode)) {
		char *real = realpath(path, NULL);
		if (!real || stat(real, &st) != 0) {
			*err = xasprintf("cannot write '%s': %s", path, strerror(errno));
			free(real);
			return false;
		}
		target = xstrdup(real);
		free(real);
	}
	if (exists && S_ISDIR(st.st_mode)) {
		*err = xasprintf("cannot write '%s': it is a directory", path);
		free(target);
		return false;
	}
	if (exists && !S_ISREG(st.st_mode)) {
		*err = xasprintf("cannot write '%s': not a regular file", path);
		free(target);
		return false;
	}
	if (!target)
		target = xstrdup(path);
	slash = strrchr(target, '/');
	base = slash ? slash + 1 : target;
	dir = slash ? xstrndup(target, (size_t)(slash - target) + (slash == target)) : xstrdup(".");
	tmp = xasprintf("%s/.%s.XXXXXX", dir, base);
	free(dir);
	fd = mkstemp(tmp);
	if (fd < 0) {
		*err = xasprintf("cannot write '%s': %s", path, strerror(errno));
		free(tmp);
		free(target);
		return false;
	}
	out = fdopen(fd, "wb");
	if (!out) {
		*err = xasprintf("cannot write '%s': %s", path, strerror(errno));
		close(fd);
		unlink(tmp);
		free(tmp);
		free(target);
		return false;
	}
	g = viz_build_graph(opts, stats, err);
	ok = g != NULL;
	if (ok) {
		if (format == VIZ_FORMAT_DOT)
			ok = agwrite(g, out) == 0;
		else
			ok = viz_layout_render(g, format, out, err);
		agclose(g);
	}
	if (ok && (fflush(out) != 0 || ferror(out) || fchmod(fd, viz_file_mode(&st, exists)) != 0))
		ok = false;
	if (fclose(out) != 0)
		ok = false;
	if (ok && rename(tmp, target) != 0)
		ok = false;
	if (!ok) {
		if (!*err)
			*err = xasprintf("cannot write '%s': %s", path, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	free(target);
	return ok;
}
