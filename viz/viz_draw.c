/*
 * viz_draw.c - the cgraph graph of a drawing's model (SPEC §6).
 *
 * viz_build_graph builds the model (viz_model.c) and makes one cgraph
 * object per node, edge and cluster, in the model's order, with their
 * labels, shapes and device colours, and the legend. Nothing is laid out
 * here: viz_render.c does that.
 *
 * Determinism: cgraph's default ID discipline uses the address of a name's
 * string as its ID and orders subgraphs by ID, so the order of clusters in
 * the written dot would follow malloc. viz_id_disc numbers named objects in
 * creation order instead (and anonymous ones per graph), so the same module
 * and options give the same bytes. Attributes are declared up front in a
 * fixed order for the same reason.
 *
 * Layout time is decided here too: newrank (one global ranking, which
 * halves the time with clusters), reference nodes instead of edges that
 * would span the drawing (viz_model.c), and external labels on the edges of
 * large graphs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <graphviz/cgraph.h>

#include "ops.h"
#include "viz_model.h"

#define VIZ_ARROW "\xe2\x86\x92" /* U+2192, in labels like `cpu:0 → cuda:0` */
#define VIZ_ELLIPSIS "\xe2\x80\xa6"
#define VIZ_CONFLICT_COLOR "red"
#define VIZ_TYPE_MAX 48 /* longer types are cut with an ellipsis */
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
	/* Most of a large graph's layout time is dot's network simplex placing
	 * nodes across (x): a 4,400-node chain spends 3.4 of its 4.4 s there, one
	 * iteration per node. A few iterations per hundred nodes leave the ranks
	 * (the top-to-bottom reading order) as they are and the drawing as
	 * narrow: the chain lays out in 1.2 s. */
	if (stats->nodes > VIZ_LABEL_NODES)
		agsafeset(g, VIZ_S("nslimit"), VIZ_S("0.05"), VIZ_S(""));
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
