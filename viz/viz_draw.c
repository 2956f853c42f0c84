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
#include "plan.h"
#include "viz_model.h"

#define VIZ_ARROW "\xe2\x86\x92" /* U+2192, in labels like `cpu:0 → cuda:0` */
#define VIZ_ELLIPSIS "\xe2\x80\xa6"
#define VIZ_CONFLICT_COLOR "red"
#define VIZ_FOCUS_COLOR "#6A3D9A" /* dark purple, thick: the --focus node */
#define VIZ_TYPE_MAX 48           /* longer types are cut with an ellipsis */
#define VIZ_WEIGHTS_MAX 56        /* and so are longer `weights:` lines */
/* Past this many drawn nodes tooltips leave out the `why` step, which
 * costs a walk of the analysis per node. */
#define VIZ_WHY_NODES 1000

/* The labels' font: a family list, which Graphviz (pango, through
 * fontconfig) and a browser both read as "the first of these the machine
 * has", so that an SVG shown on the machine that drew it shows its labels in
 * the font they were measured with. Helvetica is what no Linux machine has:
 * Graphviz measured it as one substitute (fontconfig's sans) and browsers
 * drew it as another, wider one, whose labels spilled out of their boxes.
 * DejaVu Sans is Debian's (and Graphviz's package's) default sans; Verdana,
 * its near twin in width, is on Windows and macOS. */
#define VIZ_FONT "DejaVu Sans,Verdana,sans-serif"

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
		*n_peripheries, *n_gradientangle, *n_tooltip, *n_id;
	Agsym_t *e_label, *e_xlabel, *e_color, *e_fontcolor, *e_style, *e_penwidth, *e_weight;
} VizSyms;

/* cgraph takes char *; it copies every name and value it is given. */
#define VIZ_S(s) ((char *)(s))

static void viz_declare(Agraph_t *g, VizSyms *s)
{
	agattr(g, AGRAPH, VIZ_S("fontname"), VIZ_S(VIZ_FONT));
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
	agattr(g, AGNODE, VIZ_S("fontname"), VIZ_S(VIZ_FONT));
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
	s->n_id = agattr(g, AGNODE, VIZ_S("id"), VIZ_S(""));
	s->e_label = agattr(g, AGEDGE, VIZ_S("label"), VIZ_S(""));
	s->e_xlabel = agattr(g, AGEDGE, VIZ_S("xlabel"), VIZ_S(""));
	agattr(g, AGEDGE, VIZ_S("fontname"), VIZ_S(VIZ_FONT));
	agattr(g, AGEDGE, VIZ_S("fontsize"), VIZ_S("9"));
	s->e_color = agattr(g, AGEDGE, VIZ_S("color"), VIZ_S("#444444"));
	s->e_fontcolor = agattr(g, AGEDGE, VIZ_S("fontcolor"), VIZ_S("black"));
	s->e_style = agattr(g, AGEDGE, VIZ_S("style"), VIZ_S(""));
	s->e_penwidth = agattr(g, AGEDGE, VIZ_S("penwidth"), VIZ_S("1"));
	/* empty: dot's 1; more on the links between an overview's boxes when it
	 * has reference nodes, so that they do not pull the column sideways */
	s->e_weight = agattr(g, AGEDGE, VIZ_S("weight"), VIZ_S(""));
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

/* `64x3x7x7`; a scalar constant's value, `scalar`; other types as printed. */
static void viz_shape_text(StrBuf *out, const Expr *e)
{
	const Type *t = e->type;
	if (!t) {
		strbuf_puts(out, "?");
		return;
	}
	if (t->kind != TYPE_TENSOR) {
		type_print(out, t);
		return;
	}
	if (t->u.tensor.ndim == 0) {
		if (e->kind == EXPR_CONSTANT)
			viz_constant_text(out, e);
		else
			strbuf_puts(out, "scalar");
		return;
	}
	for (uint32_t i = 0; i < t->u.tensor.ndim; i++) {
		if (i)
			strbuf_putc(out, 'x');
		if (t->u.tensor.dims[i] == DIM_ANY)
			strbuf_putc(out, '?');
		else
			strbuf_printf(out, "%lld", (long long)t->u.tensor.dims[i]);
	}
}

/* The line `weights: 2 on cuda:0, 64x3x3x3, 64` of a node whose operands
 * were folded (viz_fold): how many, their device (the node's own, which
 * folding requires) and their shapes in operand order, cut with an
 * ellipsis past VIZ_WEIGHTS_MAX bytes. */
static void viz_weights_line(const VizModel *vm, StrBuf *label, uint32_t node, int32_t device)
{
	size_t count = 0;
	StrBuf line;
	for (uint32_t k = vm->in_start[node]; k < vm->in_start[node + 1]; k++)
		count += vm->edges[vm->in_list[k]].folded;
	if (!count)
		return;
	strbuf_init(&line);
	strbuf_printf(&line, "weights: %zu", count);
	if (device != IR_NO_DEVICE)
		strbuf_printf(&line, " on %s", devices_name(vm->opts->devices, device));
	for (uint32_t k = vm->in_start[node]; k < vm->in_start[node + 1]; k++) {
		const VizEdge *edge = &vm->edges[vm->in_list[k]];
		size_t before = line.len;
		if (!edge->folded)
			continue;
		strbuf_puts(&line, ", ");
		viz_shape_text(&line, vm->nodes[edge->from].e);
		if (line.len > VIZ_WEIGHTS_MAX) {
			line.len = before;
			line.data[line.len] = '\0';
			strbuf_puts(&line, ", " VIZ_ELLIPSIS);
			break;
		}
	}
	strbuf_printf(label, "\\n%s", line.data);
	strbuf_free(&line);
}

/* text for a Graphviz escString (tooltips): a backslash would start an
 * escape (\N, \G, ...), so it is doubled; newlines become \n. */
static void viz_escape(StrBuf *out, const char *text)
{
	for (const char *p = text; *p; p++) {
		if (*p == '\\')
			strbuf_puts(out, "\\\\");
		else if (*p == '\n')
			strbuf_puts(out, "\\n");
		else
			strbuf_putc(out, *p);
	}
}

/* A node's tooltip: its name, what it is, its type, its device, the first
 * step of `why` (with an analysis, in graphs of at most VIZ_WHY_NODES
 * nodes) and its source position, one per line. */
static void viz_tooltip(const VizModel *vm, const VizNode *n, int32_t device, bool why, StrBuf *out)
{
	const Expr *e = n->e;
	StrBuf text;
	strbuf_init(&text);
	if (n->let_name && !e->name)
		strbuf_printf(&text, "%%%s", n->let_name);
	else
		ir_value_name(&text, e);
	strbuf_puts(&text, "\n");
	ir_describe_kind(&text, e);
	if (e->type) {
		strbuf_puts(&text, "\n");
		type_print(&text, e->type);
	}
	if (device != IR_NO_DEVICE)
		strbuf_printf(&text, "\non %s", devices_name(vm->opts->devices, device));
	else
		strbuf_puts(&text, "\nno device yet");
	if (why && vm->opts->analysis) {
		StrBuf w;
		const char *line, *end;
		strbuf_init(&w);
		plan_explain(&w, vm->opts->analysis, e, vm->opts->devices, vm->opts->trace);
		/* `%x is on cuda:0:` then the steps; the first step, else that line */
		line = w.data ? w.data : "";
		end = strchr(line, '\n');
		if (end && end[1])
			line = end + 1;
		while (*line == ' ')
			line++;
		end = strchr(line, '\n');
		strbuf_printf(&text, "\nwhy: %.*s",
			      (int)(end ? end - line : (ptrdiff_t)strlen(line)), line);
		strbuf_free(&w);
	}
	if (e->pos.line)
		strbuf_printf(&text, "\nat %u:%u", e->pos.line, e->pos.col);
	viz_escape(out, text.data);
	strbuf_free(&text);
}

static void viz_draw_node(VizModel *vm, Agraph_t *root, const VizSyms *s, VizNode *n, char *id,
			  bool why)
{
	uint32_t index = (uint32_t)(n - vm->nodes);
	StrBuf tooltip;
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
	case EXPR_OP_VALUE: /* an operator or constructor as a value */
		shape = "ellipse";
		strbuf_puts(&label, e->u.op_value.name);
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
	viz_weights_line(vm, &label, index, device);
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
	if (index == vm->focus) {
		viz_set(node, s->n_color, VIZ_FOCUS_COLOR);
		viz_set(node, s->n_penwidth, "4");
	}
	strbuf_init(&tooltip);
	viz_tooltip(vm, n, device, why, &tooltip);
	viz_set(node, s->n_tooltip, tooltip.data);
	strbuf_free(&tooltip);
	/* the SVG's <g id=...>, stable for viewers: the node's name */
	viz_set(node, s->n_id, id);
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
	StrBuf label, tooltip;
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
	strbuf_init(&tooltip);
	viz_tooltip(vm, from, device, false, &tooltip);
	viz_set(n, s->n_tooltip, tooltip.data);
	strbuf_free(&tooltip);
	viz_set(n, s->n_id, id);
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
	if (edge->uncopied) {
		viz_set(e, label, edge->uncopied);
		viz_set(e, s->e_color, viz_device_color(viz_device(vm, vm->nodes[edge->from].e)));
		viz_set(e, s->e_style, "dashed");
		viz_set(e, s->e_penwidth, "2");
	}
	if (edge->conflict) {
		viz_set(e, label, edge->conflict);
		viz_set(e, s->e_color, VIZ_CONFLICT_COLOR);
		viz_set(e, s->e_fontcolor, VIZ_CONFLICT_COLOR);
		viz_set(e, s->e_style, "bold");
		viz_set(e, s->e_penwidth, "2.5");
	}
}

/*
 * The legend: a column with each device the picture uses in its colour, then
 * an entry for each other thing the picture uses, and only those (so a
 * small graph keeps a small legend): unplanned nodes, device_copy, the
 * --focus node, on_device notes, folded weights, reference ellipses, region
 * clusters, and edge samples (a point into a label) for conflicting uses,
 * operands read without a copy and dashed callee and result edges. Held in
 * order by invisible edges.
 */
typedef struct VizLegend {
	Agraph_t *graph;
	const VizSyms *s;
	Agnode_t *last;
} VizLegend;

static Agnode_t *viz_legend_node(VizLegend *l, const char *name, const char *label)
{
	Agnode_t *n = agnode(l->graph, VIZ_S(name), 1);
	viz_set(n, l->s->n_label, label);
	viz_set(n, l->s->n_id, name);
	if (l->last)
		viz_set(agedge(agroot(l->graph), l->last, n, NULL, 1), l->s->e_style, "invis");
	l->last = n;
	return n;
}

/* An edge sample: a small point, the edge styled by the caller, and its
 * meaning as a plain text node. */
static Agedge_t *viz_legend_edge(VizLegend *l, const char *name, const char *label)
{
	char from[48];
	Agnode_t *point, *text;
	Agedge_t *e;
	snprintf(from, sizeof from, "%s_from", name);
	point = viz_legend_node(l, from, "");
	viz_set(point, l->s->n_shape, "point");
	l->last = NULL; /* the sample edge itself holds the order */
	text = agnode(l->graph, VIZ_S(name), 1);
	viz_set(text, l->s->n_label, label);
	viz_set(text, l->s->n_id, name);
	viz_set(text, l->s->n_shape, "plaintext");
	viz_set(text, l->s->n_style, "");
	viz_set(text, l->s->n_peripheries, "0");
	e = agedge(agroot(l->graph), point, text, NULL, 1);
	l->last = text;
	return e;
}

/* Marks the devices the picture fills something with: drawn nodes, both
 * ends of copies, overview boxes. */
static void viz_devices_used(const VizModel *vm, uint8_t *used, uint32_t count)
{
	for (size_t i = 0; i < vm->boxes.nboxes; i++) {
		const VizBox *b = &vm->boxes.boxes[i];
		if (b->device >= 0 && (uint32_t)b->device < count)
			used[b->device] = 1;
		if (b->source >= 0 && (uint32_t)b->source < count)
			used[b->source] = 1;
	}
	if (vm->overview)
		return;
	for (size_t i = 0; i < vm->nnodes; i++) {
		const Expr *e = vm->nodes[i].e;
		int32_t device = viz_device(vm, e), src = IR_NO_DEVICE, dst = IR_NO_DEVICE;
		if (!vm->nodes[i].drawn)
			continue;
		if (ir_is_op(e, OP_DEVICE_COPY))
			ir_device_copy_props(e, &src, &dst);
		if (device >= 0 && (uint32_t)device < count)
			used[device] = 1;
		if (src >= 0 && (uint32_t)src < count)
			used[src] = 1;
		if (dst >= 0 && (uint32_t)dst < count)
			used[dst] = 1;
	}
}

static void viz_draw_legend(const VizModel *vm, Agraph_t *g, const VizSyms *s,
			    const VizStats *stats)
{
	uint8_t *used = xcalloc(vm->opts->devices->count + 1, 1);
	const DeviceTable *devices = vm->opts->devices;
	VizLegend l = {agsubg(g, VIZ_S("cluster_legend"), 1), s, NULL};
	Agnode_t *n;
	Agedge_t *e;
	char name[32];
	viz_set(l.graph, s->g_label, "legend");
	viz_set(l.graph, s->g_style, "rounded");
	viz_set(l.graph, s->g_color, "#AAAAAA");
	viz_set(l.graph, s->g_fillcolor, "");
	viz_set(l.graph, s->g_penwidth, "1");
	viz_set(l.graph, s->g_fontcolor, "black");
	viz_devices_used(vm, used, devices->count);
	for (uint32_t d = 0; d < devices->count; d++) {
		if (!used[d])
			continue;
		snprintf(name, sizeof name, "legend_d%u", d);
		n = viz_legend_node(&l, name, devices_name(devices, (int32_t)d));
		viz_set(n, s->n_fillcolor, viz_device_color((int32_t)d));
		viz_set(n, s->n_fontcolor, viz_font_color((int32_t)d));
	}
	free(used);
	if (stats->unplanned) {
		n = viz_legend_node(&l, "legend_unplanned", "no device");
		viz_set(n, s->n_style, "filled,dashed");
	}
	if (stats->copies) {
		n = viz_legend_node(&l, "legend_copy", "device_copy");
		viz_set(n, s->n_shape, "hexagon");
		viz_set(n, s->n_style, "filled,bold");
		viz_set(n, s->n_penwidth, "2.5");
	}
	if (vm->overview) {
		n = viz_legend_node(&l, "legend_region",
				    "device region:\\ncalls, bytes in and out");
		viz_set(n, s->n_style, "rounded,filled");
		if (stats->references) {
			n = viz_legend_node(&l, "legend_reference",
					    "%x: a value from\\na far region or copy");
			viz_set(n, s->n_shape, "ellipse");
		}
		return;
	}
	if (vm->focus != VIZ_NONE) {
		n = viz_legend_node(&l, "legend_focus", "focus");
		viz_set(n, s->n_color, VIZ_FOCUS_COLOR);
		viz_set(n, s->n_penwidth, "4");
	}
	if (vm->has_on_device) {
		n = viz_legend_node(&l, "legend_on_device", "on_device:\\nplaced by the user");
		viz_set(n, s->n_shape, "note");
	}
	if (stats->folded) {
		n = viz_legend_node(&l, "legend_weights",
				    "op\\nweights: N on DEVICE, shapes\\n(parameters folded in)");
		viz_set(n, s->n_style, "rounded,filled");
	}
	if (stats->references) {
		n = viz_legend_node(&l, "legend_reference", "%x: a use\\nof a far value");
		viz_set(n, s->n_shape, "ellipse");
	}
	if (vm->has_regions) {
		n = viz_legend_node(&l, "legend_region", "device region");
		viz_set(n, s->n_style, "rounded,bold");
		viz_set(n, s->n_penwidth, "3");
		viz_set(n, s->n_color, "#777777");
		viz_set(n, s->n_fillcolor, "#FFFFFF");
	}
	if (stats->conflicts) {
		e = viz_legend_edge(&l, "legend_conflict", "use in conflict");
		viz_set(e, s->e_color, VIZ_CONFLICT_COLOR);
		viz_set(e, s->e_style, "bold");
		viz_set(e, s->e_penwidth, "2.5");
	}
	if (stats->uncopied) {
		e = viz_legend_edge(&l, "legend_uncopied", "read on another\\ndevice, no copy");
		viz_set(e, s->e_style, "dashed");
		viz_set(e, s->e_penwidth, "2");
	}
	if (vm->has_dashed) {
		e = viz_legend_edge(&l, "legend_dashed", "callee or\\nclosure result");
		viz_set(e, s->e_style, "dashed");
	}
}

/* The reference node a far link starts from, beside the box it feeds:
 * `<box>_<link>` (n64_12 for a copy's, which the HTML page reads as a use
 * of n64), an ellipse in the source box's colour with the name of the
 * first value the link carries (`%64`, `%40 +2` for three). */
static Agnode_t *viz_draw_box_reference(VizModel *vm, Agraph_t *g, const VizSyms *s, size_t index)
{
	const VizLink *link = &vm->boxes.links[index];
	const VizBox *from = &vm->boxes.boxes[link->from];
	const VizNode *value = &vm->nodes[link->value];
	char id[48];
	StrBuf label, tooltip, text;
	Agnode_t *n;
	snprintf(id, sizeof id, "%s_%zu", from->name, index);
	n = agnode(g, id, 1);
	strbuf_init(&label);
	if (value->let_name && !value->e->name)
		strbuf_printf(&label, "%%%s", value->let_name);
	else
		ir_value_name(&label, value->e);
	strbuf_init(&tooltip);
	strbuf_printf(&tooltip, "%s", label.data);
	if (link->nvalues > 1) {
		strbuf_printf(&label, " +%u", link->nvalues - 1);
		strbuf_printf(&tooltip, " and %u more value%s", link->nvalues - 1,
			      link->nvalues == 2 ? "" : "s");
	}
	/* the first line of the box's label says which it is */
	strbuf_printf(&tooltip, " from %.*s", (int)strcspn(from->label, "\\"), from->label);
	viz_set(n, s->n_label, label.data);
	viz_set(n, s->n_shape, "ellipse");
	viz_set(n, s->n_style, from->device == IR_NO_DEVICE ? "filled,dashed" : "filled");
	viz_set(n, s->n_fillcolor, viz_device_color(from->device));
	viz_set(n, s->n_fontcolor, viz_font_color(from->device));
	strbuf_init(&text);
	viz_escape(&text, tooltip.data);
	viz_set(n, s->n_tooltip, text.data);
	viz_set(n, s->n_id, id);
	strbuf_free(&text);
	strbuf_free(&tooltip);
	strbuf_free(&label);
	return n;
}

/* --overview: a node per region box, a hexagon per copy, the links, a
 * reference node for each far link; past VIZ_LABEL_NODES boxes the links'
 * labels are external, as the full drawing's. */
static void viz_draw_overview(VizModel *vm, Agraph_t *g, const VizSyms *s, bool big)
{
	const VizOverview *o = &vm->boxes;
	Agnode_t **nodes = xmalloc((o->nboxes + 1) * sizeof(Agnode_t *));
	bool references = false;
	StrBuf text;
	for (size_t i = 0; i < o->nlinks; i++)
		references |= o->links[i].reference;
	for (size_t i = 0; i < o->nboxes; i++) {
		const VizBox *b = &o->boxes[i];
		Agnode_t *n = agnode(g, b->name, 1);
		nodes[i] = n;
		viz_set(n, s->n_label, b->label);
		viz_set(n, s->n_id, b->name);
		strbuf_init(&text);
		viz_escape(&text, b->tooltip);
		viz_set(n, s->n_tooltip, text.data);
		strbuf_free(&text);
		if (b->copy) {
			viz_set(n, s->n_shape, "hexagon");
			viz_set(n, s->n_style, "filled,bold");
			viz_set(n, s->n_penwidth, "2.5");
			if (b->source != IR_NO_DEVICE && b->device != IR_NO_DEVICE) {
				char *fill = xasprintf("%s:%s", viz_device_color(b->source),
						       viz_device_color(b->device));
				viz_set(n, s->n_fillcolor, fill);
				viz_set(n, s->n_gradientangle, "0");
				free(fill);
			} else {
				viz_set(n, s->n_fillcolor, viz_device_color(b->device));
			}
		} else {
			viz_set(n, s->n_style,
				b->device == IR_NO_DEVICE ? "rounded,filled,dashed"
							  : "rounded,filled");
			viz_set(n, s->n_fillcolor, viz_device_color(b->device));
			viz_set(n, s->n_fontcolor, viz_font_color(b->device));
		}
	}
	for (size_t i = 0; i < o->nlinks; i++) {
		const VizLink *link = &o->links[i];
		Agnode_t *tail =
			link->reference ? viz_draw_box_reference(vm, g, s, i) : nodes[link->from];
		Agedge_t *e = agedge(g, tail, nodes[link->to], NULL, 1);
		char bytes[32];
		if (references && !link->reference)
			viz_set(e, s->e_weight, "8");
		snprintf(bytes, sizeof bytes, "%lld B", (long long)link->bytes);
		viz_set(e, big ? s->e_xlabel : s->e_label, bytes);
	}
	free(nodes);
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
	if (stats->too_big) {
		char *why = viz_too_big_reason(stats, false);
		strbuf_printf(&title, "%soverview of device regions: %s (--force draws them all)",
			      title.len ? "\\n" : "", why);
		free(why);
	} else if (vm->overview)
		strbuf_printf(&title, "%soverview of device regions", title.len ? "\\n" : "");
	else if (opts->focus)
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
	/* A large model is a long column: closer ranks and labels tighter from
	 * top to bottom keep it within what a PNG can hold at a legible scale
	 * (bert_base's 952 nodes: 55,000 points tall, 40,000 so). Across, a
	 * label keeps 0.1 inch a side: browsers draw text without the hinted
	 * advances Graphviz measures it with (pango, hint metrics on), up to 4%
	 * wider in the same font, which a 300-point label's margin must hold
	 * (as Graphviz's default 0.11 inch does in smaller graphs). */
	if (stats->nodes > VIZ_LABEL_NODES) {
		agsafeset(g, VIZ_S("ranksep"), VIZ_S("0.2"), VIZ_S(""));
		agattr(g, AGNODE, VIZ_S("margin"), VIZ_S("0.1,0.02"));
	}
	viz_draw_legend(vm, g, &s, stats);
	if (vm->overview) {
		viz_draw_overview(vm, g, &s, stats->nodes + stats->references > VIZ_LABEL_NODES);
		return g;
	}
	for (size_t i = 0; i < vm->nnodes; i++) {
		if (!vm->nodes[i].drawn)
			continue;
		snprintf(id, sizeof id, "n%u", vm->nodes[i].e->id);
		viz_draw_node(vm, g, &s, &vm->nodes[i], id, stats->nodes <= VIZ_WHY_NODES);
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
