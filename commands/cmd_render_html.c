/*
 * cmd_render_html.c - `render --html FILE`: the graph as a page to browse
 * (viz/viz_html.h).
 *
 * The picture is the SVG `render FILE.svg` would draw with the same
 * options (--phase, --focus, --regions, ...), so the page shows exactly
 * that graph; which values it draws is read back from the SVG's node
 * titles (viz_svg_node_ids), so that whatever viz/ decides to draw or fold,
 * every node drawn gets a record and no record is made for a node that is
 * not drawn. Each record holds what `why` prints for the value
 * (cmd_why_text, the same analysis `why` answers from), its consumers in
 * the drawn module, through lets as the drawing's edges go, and the
 * device_copy nodes among them with their devices and bytes.
 *
 * Linear in the module: what every record reads (the analysed module's
 * names, the domain graph `why` searches, the conflicts by name) is made
 * once (ir_name_index_new, cmd_why_batch_new), never per node drawn. The
 * records poll Ctrl-C, and an interrupted page is not written.
 *
 * Ownership: everything is freed before returning.
 */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "plan.h"
#include "viz.h"
#include "viz_html.h"

/* What a use of e reads: the value a let variable is bound to. */
static const Expr *html_value_of(const Expr *e)
{
	while (e && e->kind == EXPR_VAR && e->u.var.role == VAR_LET && e->u.var.value)
		e = e->u.var.value;
	return e;
}

/* How many children of consumer c are uses of values (drawn as edges into
 * it): a call's callee and arguments, fields, a projected tuple, an if's
 * condition and branches, a constructor's arguments, what a match takes
 * apart. A let and a function bind rather than use. */
static uint32_t html_use_count(const Expr *c)
{
	switch (c->kind) {
	case EXPR_CALL:
	case EXPR_TUPLE:
	case EXPR_PROJ:
	case EXPR_IF:
	case EXPR_CONSTRUCT:
		return ir_child_count(c);
	case EXPR_MATCH:
		return 1;
	case EXPR_VAR:
	case EXPR_GLOBAL:
	case EXPR_OP_VALUE:
	case EXPR_CONSTANT:
	case EXPR_LET:
	case EXPR_FN:
		return 0;
	}
	return 0;
}

/* The records of a module version: names, uses, why. */
typedef struct HtmlRecords {
	const IrModule *m;
	Expr **by_id;
	const char **let_name;       /* by id: a let variable's name for an unnamed value */
	char **names;                /* by id, made on demand */
	Expr **analysed;             /* the analysed module's nodes by id, made on demand */
	IrNameIndex *analysed_names; /* the analysed module's names, made on demand */
	CmdWhyBatch *why;            /* made on demand */
	VizHtmlNode *nodes;
	size_t nnodes;
} HtmlRecords;

/* The name the drawing gives e: %x, a let variable's, else OP@LINE:COL. */
static const char *html_name(HtmlRecords *r, const Expr *e)
{
	StrBuf sb;
	if (r->names[e->id])
		return r->names[e->id];
	strbuf_init(&sb);
	if (!e->name && r->let_name[e->id])
		strbuf_printf(&sb, "%%%s", r->let_name[e->id]);
	else
		ir_value_name(&sb, e);
	r->names[e->id] = strbuf_detach(&sb);
	return r->names[e->id];
}

/* What `why NAME` prints for the value drawn as e: the expression of the
 * analysed module with that name when it is e (or the let variable bound
 * to e), else the one with e's id, since ids are stable across versions;
 * a note when the analysis does not know it. */
static char *html_why(CmdContext *ctx, PlanAnalysis *an, HtmlRecords *r, const Expr *e)
{
	const Expr *target = NULL;
	const char *name = html_name(r, e);
	StrBuf sb;
	if (!an)
		return xstrdup("nothing has been planned yet; use 'plan'");
	if (name[0] == '%') {
		const Expr *f;
		if (!r->analysed_names)
			r->analysed_names = ir_name_index_new(an->module);
		f = ir_name_index_find(r->analysed_names, name);
		if (f && html_value_of(f)->id == e->id)
			target = f;
	}
	if (!target && e->id < an->module->nexprs) {
		if (!r->analysed)
			r->analysed = ir_index_by_id(an->module);
		target = r->analysed[e->id];
	}
	if (!target)
		return xasprintf("%s was inserted by check, after the analysis shown now; core "
				 "analyses it (use 'plan', or 'step' on to core)",
				 name);
	strbuf_init(&sb);
	if (!r->why)
		r->why = cmd_why_batch_new(ctx, an);
	cmd_why_batch_text(r->why, target, &sb);
	return strbuf_detach(&sb);
}

/* The uses of every value of m, by id: consumer ids in execution order of
 * the consumers' ids, each consumer once. */
static void html_uses(const HtmlRecords *r, uint32_t **uses, size_t *nuses)
{
	const IrModule *m = r->m;
	for (uint32_t c = 0; c < m->nexprs; c++) {
		const Expr *consumer = r->by_id[c];
		uint32_t n;
		if (!consumer)
			continue;
		n = html_use_count(consumer);
		for (uint32_t i = 0; i < n; i++) {
			const Expr *v = html_value_of(ir_child(consumer, i));
			if (!v || v->kind == EXPR_GLOBAL)
				continue;
			if (nuses[v->id] && uses[v->id][nuses[v->id] - 1] == c)
				continue;
			uses[v->id] = xrealloc(uses[v->id], (nuses[v->id] + 1) * sizeof **uses);
			uses[v->id][nuses[v->id]++] = c;
		}
	}
}

/* The record of the value drawn as node n<id>. */
static void html_record(CmdContext *ctx, PlanAnalysis *an, HtmlRecords *r, const VizOptions *opts,
			const uint32_t *uses, size_t nuses, VizHtmlNode *out)
{
	const Expr *e = r->by_id[out->id];
	const DeviceTable *devices = opts->devices;
	int32_t device = opts->device_of ? opts->device_of[e->id] : e->device;
	VizHtmlUse *u = nuses ? xcalloc(nuses, sizeof *u) : NULL;
	StrBuf sb;
	strbuf_init(&sb);
	ir_describe_kind(&sb, e);
	out->op = strbuf_detach(&sb);
	if (e->type) {
		strbuf_init(&sb);
		type_print(&sb, e->type);
		out->type = strbuf_detach(&sb);
	}
	out->name = html_name(r, e);
	out->device = device == IR_NO_DEVICE ? NULL : devices_name(devices, device);
	out->why = html_why(ctx, an, r, e);
	out->parameter =
		e->kind == EXPR_CONSTANT ||
		(e->kind == EXPR_VAR && (e->u.var.role == VAR_PARAM || e->u.var.role == VAR_FREE));
	for (size_t i = 0; i < nuses; i++) {
		const Expr *c = r->by_id[uses[i]];
		u[i].id = c->id;
		u[i].name = html_name(r, c);
		u[i].bytes = -1;
		if (ir_is_op(c, OP_DEVICE_COPY)) {
			int32_t src, dst;
			const Type *t = c->type ? c->type : e->type;
			ir_device_copy_props(c, &src, &dst);
			u[i].from = devices_name(devices, src);
			u[i].to = devices_name(devices, dst);
			if (t && !type_bytes(t, &u[i].bytes))
				u[i].bytes = -1;
		}
	}
	out->uses = u;
	out->nuses = nuses;
}

bool cmd_render_html(CmdContext *ctx, const VizOptions *opts, const char *path, VizStats *stats,
		     char **err)
{
	const IrModule *m = opts->module;
	PlanAnalysis *an = cmd_analysis(ctx);
	HtmlRecords r;
	VizHtmlPage page;
	uint32_t *ids = NULL, **uses;
	size_t *nuses, n;
	VizHtmlFile *file;
	char *svg, *ignored;
	size_t len;
	bool ok;
	/* the file first, so that an unwritable path fails before the layout */
	file = viz_html_begin(path, err);
	if (!file)
		return false;
	if (!viz_render_to_memory(opts, VIZ_FORMAT_SVG, &svg, &len, stats, err)) {
		viz_html_finish(file, NULL, &ignored);
		return false;
	}
	memset(&r, 0, sizeof r);
	r.m = m;
	r.by_id = ir_index_by_id(m);
	r.let_name = xcalloc(m->nexprs + 1, sizeof *r.let_name);
	r.names = xcalloc(m->nexprs + 1, sizeof *r.names);
	for (uint32_t i = 0; i < m->nexprs; i++) {
		const Expr *let = r.by_id[i], *value;
		if (!let || let->kind != EXPR_LET)
			continue;
		value = let->u.let.value;
		if (!value->name && !r.let_name[value->id] && let->u.let.var->name)
			r.let_name[value->id] = let->u.let.var->name;
	}
	uses = xcalloc(m->nexprs + 1, sizeof *uses);
	nuses = xcalloc(m->nexprs + 1, sizeof *nuses);
	html_uses(&r, uses, nuses);

	n = viz_svg_node_ids(svg, len, &ids);
	r.nodes = xcalloc(n + 1, sizeof *r.nodes);
	for (size_t i = 0; i < n && !interrupt_pending(); i++) {
		if (ids[i] >= m->nexprs || !r.by_id[ids[i]])
			continue; /* not a value of this version */
		r.nodes[r.nnodes].id = ids[i];
		html_record(ctx, an, &r, opts, uses[ids[i]], nuses[ids[i]], &r.nodes[r.nnodes]);
		r.nnodes++;
	}
	page.title = opts->title;
	page.svg = svg;
	page.svg_len = len;
	page.nodes = r.nodes;
	page.nnodes = r.nnodes;
	/* Ctrl-C (or SIGTERM) during the records or the page: the file stays
	 * as it was */
	if (interrupt_pending()) {
		viz_html_finish(file, NULL, &ignored);
		*err = xasprintf("interrupted: '%s' is left as it was", path);
		ok = false;
	} else {
		ok = viz_html_finish(file, &page, err);
	}

	for (size_t i = 0; i < r.nnodes; i++) {
		free((char *)r.nodes[i].op);
		free((char *)r.nodes[i].type);
		free((char *)r.nodes[i].why);
		free((VizHtmlUse *)r.nodes[i].uses);
	}
	for (uint32_t i = 0; i < m->nexprs; i++) {
		free(r.names[i]);
		free(uses[i]);
	}
	free(r.nodes);
	free(r.names);
	free(r.let_name);
	free(r.by_id);
	free(r.analysed);
	ir_name_index_free(r.analysed_names);
	cmd_why_batch_free(r.why);
	free(uses);
	free(nuses);
	free(ids);
	free(svg);
	return ok;
}
