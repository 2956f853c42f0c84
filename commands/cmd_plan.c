/*
 * cmd_plan.c - what the planner decided and why: `placement`, `conflicts`,
 * `copies`, `regions`, `why`, `constraints` and `verify`.
 *
 * Facts come from the planned module itself (every node carries its device
 * after `core`); explanations come from the analyses the phases left in the
 * session's PlanTrace. When a phase failed (planning stopped there, e.g.
 * `check` under `set policy error`), `conflicts`, `constraints`, `why` and
 * `copies` answer from what that phase recorded, after a note saying where
 * planning stopped: that is when a user needs them most. Nothing here
 * changes the session.
 */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "plan.h"
#include "print.h"
#include "stepper.h"

/* `placement [--json] [--contract] [@fn]`: --contract keeps each
 * function's parameters and result (`info contract`), @fn one function. */
int cmd_placement(CmdContext *ctx, int argc, char **argv)
{
	bool json = false, contract = false;
	const char *fn = NULL;
	Placement p;
	StrBuf sb;
	size_t shown = 0;
	int status;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			json = true;
		else if (strcmp(argv[i], "--contract") == 0)
			contract = true;
		else if (argv[i][0] == '@' && argv[i][1] && !fn)
			fn = argv[i];
		else
			return cmd_error(
				ctx,
				"unknown option '%s'; usage: placement [--json] [--contract] "
				"[@fn]",
				argv[i]);
	}
	if (json && (contract || fn))
		return cmd_error(ctx, "'placement --json' prints every fact; --contract and @fn "
				      "select lines of the text form");
	if (session_relax_active(ctx->session))
		return cmd_relax_placement_facts(ctx, json, contract, fn);
	plan_placement(session_current(ctx->session), &p);
	strbuf_init(&sb);
	if (json)
		plan_placement_format(&sb, &p, &ctx->session->devices, true);
	for (size_t i = 0; i < p.count && !json; i++) {
		const PlacementFact *f = &p.facts[i];
		if ((contract && f->kind != FACT_PARAM && f->kind != FACT_RESULT) ||
		    (fn && strcmp(fn, f->function) != 0))
			continue;
		plan_fact_format(&sb, f, &ctx->session->devices);
		strbuf_putc(&sb, '\n');
		shown++;
	}
	if (fn && shown == 0 && !json)
		status = cmd_error(ctx, "no function '%s' in the module", fn);
	else
		status = cmd_write(ctx, &sb);
	strbuf_free(&sb);
	plan_placement_free(&p);
	return status;
}

/* Whether check's conflicts are in the trace: check ran, or planning
 * stopped in it. */
static bool check_has_run(CmdContext *ctx)
{
	const PlanTrace *t = ctx->session->trace;
	int check = pipeline_find_flags(PHASE_REPORTS_CONFLICTS);
	return t && check >= 0 &&
	       (ctx->session->phases_done > (size_t)check ||
		session_failed_phase(ctx->session, NULL) == check);
}

/* Whether planning stopped in core (its analysis is in the trace). */
static bool core_failed(CmdContext *ctx)
{
	int failed = session_failed_phase(ctx->session, NULL);
	return failed >= 0 && (pipeline_phases[failed].flags & PHASE_RECORDS_EVENTS);
}

/* One line per destination device: which consumers read the value there.
 * by_id indexes m, the current module; the caller builds it once for every
 * conflict (a module with thousands of conflicts is indexed once, not once
 * per conflict). */
static void print_resolution(CmdContext *ctx, const PlanConflict *c, const char *policy,
			     const IrModule *m, Expr *const *by_id)
{
	const DeviceTable *devices = &ctx->session->devices;
	bool replicate = ctx->session->settings.policy == POLICY_REPLICATE &&
			 c->value < m->nexprs && by_id[c->value] &&
			 by_id[c->value]->kind == EXPR_CONSTANT;
	for (uint32_t d = 0; d < devices->count; d++) {
		size_t n = 0;
		StrBuf names;
		strbuf_init(&names);
		for (size_t k = 0; k < c->nconsumers; k++) {
			if (c->consumer_devices[k] != (int32_t)d)
				continue;
			if (n < 4) {
				const Expr *site =
					c->consumers[k] < m->nexprs ? by_id[c->consumers[k]] : NULL;
				if (n)
					strbuf_puts(&names, ", ");
				if (site)
					ir_value_name(&names, site);
				else
					strbuf_printf(&names, "expression #%u", c->consumers[k]);
			}
			n++;
		}
		if (n > 4)
			strbuf_printf(&names, " and %zu more", n - 4);
		if (n)
			fprintf(ctx->out,
				"  resolution (%s): %s stays on %s; %s read%s it through %s on "
				"%s\n",
				policy, c->value_name, devices_name(devices, c->home), names.data,
				n == 1 ? "s" : "", replicate ? "a duplicate" : "one device_copy",
				devices_name(devices, d));
		strbuf_free(&names);
	}
}

/* Policy tvm: TVM's answer depends on the order of the text. Says which
 * use TVM's walk reached first, and what reaching another first would
 * give (`order:` lines). */
static void print_tvm_order(StrBuf *out, const Session *s, const PlanConflict *c,
			    Expr *const *by_id, uint32_t nexprs)
{
	const DeviceTable *devices = &s->devices;
	const SourceFile *src = session_current(s)->src;
	const Expr *first = c->first_use < nexprs ? by_id[c->first_use] : NULL;
	if (c->first_use == PLAN_NONE || !first)
		return;
	strbuf_puts(out, "  order: TVM's walk reaches ");
	ir_value_name(out, first);
	strbuf_printf(out, " (%s:%u:%u) first, which needs %s on %s\n", src ? src->name : "?",
		      first->pos.line, first->pos.col, c->value_name,
		      devices_name(devices, c->home));
	for (size_t k = 0; k < c->nconsumers; k++) {
		const Expr *site = c->consumers[k] < nexprs ? by_id[c->consumers[k]] : NULL;
		bool seen = false;
		for (size_t j = 0; j < k; j++)
			seen = seen || c->consumer_devices[j] == c->consumer_devices[k];
		if (!site || seen)
			continue;
		strbuf_puts(out, "  order: with ");
		ir_value_name(out, site);
		strbuf_printf(out,
			      " (%s:%u:%u) first in the text, TVM would keep %s on %s and copy it "
			      "to %s\n",
			      src ? src->name : "?", site->pos.line, site->pos.col, c->value_name,
			      devices_name(devices, c->consumer_devices[k]),
			      devices_name(devices, c->home));
	}
}

int cmd_conflicts(CmdContext *ctx, int argc, char **argv)
{
	if (session_relax_active(ctx->session))
		return cmd_relax_conflicts(ctx, argc, argv);
	const PlanTrace *t = ctx->session->trace;
	const DeviceTable *devices = &ctx->session->devices;
	const char *policy = plan_policy_names[ctx->session->settings.policy];
	const IrModule *m;
	Expr **by_id;
	if (!check_has_run(ctx))
		return cmd_error(ctx, "phase 'check' has not run; use 'step' or 'plan'");
	cmd_note_stopped(ctx);
	if (t->nconflicts == 0) {
		fputs("no conflicts\n", ctx->out);
		return 0;
	}
	m = session_current(ctx->session);
	by_id = ir_index_by_id(m);
	for (size_t i = 0; i < t->nconflicts; i++) {
		const PlanConflict *c = &t->conflicts[i];
		StrBuf on;
		strbuf_init(&on);
		plan_conflict_devices(&on, c, devices);
		fprintf(ctx->out, "conflict %zu: %s is needed on %s\n", i + 1, c->value_name,
			on.data ? on.data : "");
		strbuf_free(&on);
		for (size_t k = 0; k < c->ndemands; k++)
			fprintf(ctx->out, "  %s: %s\n", devices_name(devices, c->demands[k].device),
				c->demands[k].source_text);
		/* one use a line: a real model's uses make one line of thousands
		 * of characters */
		for (size_t k = 0; k < c->nuses; k++)
			fprintf(ctx->out, "  %s: %s\n", c->home_reason ? "use" : "joined by",
				c->uses[k]);
		if (c->uses_left_out)
			fprintf(ctx->out, "  and %zu more use%s\n", c->uses_left_out,
				c->uses_left_out == 1 ? "" : "s");
		if (c->home_reason)
			fprintf(ctx->out, "  home: %s, %s\n", devices_name(devices, c->devices[0]),
				c->home_reason);
		if (c->home == IR_NO_DEVICE && c->nconsumers == 0)
			fputs("  resolution: none: two annotations pin one domain; edit one of "
			      "them\n",
			      ctx->out);
		else if (c->home == IR_NO_DEVICE)
			fprintf(ctx->out,
				"  resolution: none under policy %s; 'set policy copy' keeps it "
				"on %s and copies it\n",
				policy, devices_name(devices, c->devices[0]));
		else
			print_resolution(ctx, c, policy, m, by_id);
		if (c->first_use != PLAN_NONE) {
			StrBuf order;
			strbuf_init(&order);
			print_tvm_order(&order, ctx->session, c, by_id, m->nexprs);
			fputs(order.data, ctx->out);
			strbuf_free(&order);
		}
	}
	free(by_id);
	return 0;
}

/* Why a device_copy exists; `captured` marks the ids of the copies that
 * capture made from on_device boundaries. */
static const char *copy_reason(const Session *s, const Expr *copy, const uint8_t *captured)
{
	const PlanTrace *t = s->trace;
	if (t && t->check_nexprs && copy->id >= t->check_nexprs)
		return "inserted for a conflict";
	if (captured[copy->id >> 3] & (1u << (copy->id & 7)))
		return "required at an on_device boundary";
	if (session_relax_active(s)) /* the lowered module's: its to_vdevice calls */
		return "an R.to_vdevice of the realised module";
	return "written by the user";
}

/* After check stopped planning: the copies it would have inserted, one per
 * (conflict, destination device), as the copy policy (or replicate, when
 * that is the policy) places them. Conflicts no copy can resolve have none.
 * Adds what it lists to *n and *total. */
static void print_would_copy(CmdContext *ctx, size_t *n, int64_t *total)
{
	const Session *s = ctx->session;
	const PlanTrace *t = s->trace;
	PlanAnalysis *an = t->check;
	/* what check would do under copy, or replicate when that is the policy */
	const char *policy =
		plan_policy_names[s->settings.policy == POLICY_REPLICATE ? POLICY_REPLICATE
									 : POLICY_COPY];
	PlanFunctions functions;
	plan_functions(an->module, &functions);
	for (size_t i = 0; i < t->nconflicts; i++) {
		const PlanConflict *c = &t->conflicts[i];
		const Expr *value = c->value < an->nexprs ? an->by_id[c->value] : NULL;
		bool duplicate = s->settings.policy == POLICY_REPLICATE && value &&
				 value->kind == EXPR_CONSTANT;
		int64_t bytes = -1;
		/* a conflict no copy resolves has no home (nor home_reason) */
		if (!c->home_reason || !value)
			continue;
		if (!value->type || !type_bytes(value->type, &bytes))
			bytes = -1;
		for (uint32_t d = 0; d < s->devices.count; d++) {
			uint32_t site = PLAN_NONE;
			const char *fname = "?";
			for (size_t k = 0; k < c->nconsumers && site == PLAN_NONE; k++)
				if (c->consumer_devices[k] == (int32_t)d)
					site = c->consumers[k];
			if (site == PLAN_NONE)
				continue;
			if (site < an->module->nexprs && functions.of[site] != PLAN_NONE)
				fname = functions.items[functions.of[site]].name;
			fprintf(ctx->out, "%s %s %s -> %s ", fname, c->value_name,
				devices_name(&s->devices, c->devices[0]),
				devices_name(&s->devices, d));
			if (bytes >= 0)
				fprintf(ctx->out, "%lld bytes", (long long)bytes);
			else
				fputs("? bytes", ctx->out);
			if (duplicate) {
				fprintf(ctx->out,
					" (policy %s would duplicate it for a conflict)\n", policy);
				continue;
			}
			fprintf(ctx->out, " (policy %s would insert it for a conflict)\n", policy);
			(*n)++;
			if (bytes >= 0)
				*total += bytes;
		}
	}
	plan_functions_free(&functions);
}

int cmd_copies(CmdContext *ctx, int argc, char **argv)
{
	const Session *s = ctx->session;
	const IrModule *m = session_current(s);
	bool planned = session_planned(s);
	int failed = session_failed_phase(s, NULL);
	Placement p;
	size_t n = 0;
	int64_t total = 0;
	bool interrupted = false;
	if (!planned && failed < 0)
		return cmd_error(ctx, "the module is not planned yet; use 'plan'");
	if (!planned)
		cmd_note_stopped(ctx);
	plan_placement(m, &p);
	{
		Expr **by_id = ir_index_by_id(m);
		uint8_t *captured = xcalloc(m->nexprs / 8 + 1, 1);
		const PlanTrace *t = s->trace;
		for (size_t i = t ? t->default_end : 0; t && i < t->nevents; i++)
			if (t->events[i].kind == EVENT_COPY && t->events[i].expr < m->nexprs)
				captured[t->events[i].expr >> 3] |=
					(uint8_t)(1u << (t->events[i].expr & 7));
		for (size_t i = 0; i < p.count; i++) {
			const PlacementFact *f = &p.facts[i];
			if (f->kind != FACT_COPY)
				continue;
			/* a line at a time: a terminal shows 10^5 lines slowly */
			if (interrupt_pending()) {
				interrupted = true;
				break;
			}
			n++;
			fprintf(ctx->out, "%s %s %s -> %s ", f->function, f->value,
				devices_name(&s->devices, f->device),
				devices_name(&s->devices, f->dest));
			if (f->bytes >= 0) {
				fprintf(ctx->out, "%lld bytes", (long long)f->bytes);
				total += f->bytes;
			} else {
				fputs("? bytes", ctx->out);
			}
			fprintf(ctx->out, " (%s)\n", copy_reason(s, by_id[f->expr], captured));
		}
		free(captured);
		free(by_id);
	}
	if (interrupted) {
		plan_placement_free(&p);
		return cmd_error(ctx, "interrupted");
	}
	if (!planned && failed == pipeline_find_flags(PHASE_REPORTS_CONFLICTS) && s->trace &&
	    s->trace->check)
		print_would_copy(ctx, &n, &total);
	if (planned && n == 0)
		fputs("no copies\n", ctx->out);
	else if (planned)
		fprintf(ctx->out, "%zu cop%s, %lld bytes\n", n, n == 1 ? "y" : "ies",
			(long long)total);
	else if (n == 0)
		fputs("no copies so far (core adds those at on_device boundaries)\n", ctx->out);
	else
		fprintf(ctx->out,
			"%zu cop%s, %lld bytes so far (core adds those at on_device boundaries)\n",
			n, n == 1 ? "y" : "ies", (long long)total);
	plan_placement_free(&p);
	return 0;
}

/* Names an operator by the let variable it is bound to when it has no
 * name of its own (`let %i2h = nn.bias_add(...)` reads as %i2h). */
static void name_op(StrBuf *out, const Expr *e, const Expr *const *let_names)
{
	if (!e->name && let_names[e->id])
		strbuf_printf(out, "%%%s", let_names[e->id]->name);
	else
		ir_value_name(out, e);
}

static void print_region_copy(CmdContext *ctx, const Expr *copy)
{
	const DeviceTable *devices = &ctx->session->devices;
	int32_t src, dst;
	int64_t bytes = -1;
	StrBuf v;
	strbuf_init(&v);
	ir_device_copy_props(copy, &src, &dst);
	ir_value_name(&v, ir_copy_source(copy));
	if (ir_copy_source(copy)->type)
		type_bytes(ir_copy_source(copy)->type, &bytes);
	fprintf(ctx->out, "  copy %s %s -> %s", v.data, devices_name(devices, src),
		devices_name(devices, dst));
	if (bytes >= 0)
		fprintf(ctx->out, " %lld bytes", (long long)bytes);
	fputc('\n', ctx->out);
	strbuf_free(&v);
}

static void print_region_copies(CmdContext *ctx, Expr *const *by_id, const uint32_t *ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		print_region_copy(ctx, by_id[ids[i]]);
}

/* The device regions of every function (plan_regions), each with the
 * copies at its boundaries; an operator without a name of its own is
 * called by the let variable bound to it. */
int cmd_regions(CmdContext *ctx, int argc, char **argv)
{
	const IrModule *m = session_current(ctx->session);
	const DeviceTable *devices = &ctx->session->devices;
	Expr **by_id;
	const Expr **let_names;
	PlanFunctions functions;
	PlanRegions regions;
	StrBuf names, name;
	bool all = cmd_take_all_flag(&argc, argv);
	if (argc > 1)
		return cmd_error(ctx, "unexpected argument '%s'; usage: regions [--all]", argv[1]);
	by_id = ir_index_by_id(m);
	let_names = ir_let_names(m);
	plan_functions(m, &functions);
	plan_regions(&functions, NULL, &regions);
	strbuf_init(&names);
	strbuf_init(&name);
	for (size_t f = 0; f < regions.count; f++) {
		const PlanFunctionRegions *fr = &regions.functions[f];
		fprintf(ctx->out, "%s:\n", fr->function->name);
		for (size_t k = 0; k < fr->count; k++) {
			const PlanRegion *r = &fr->regions[k];
			CmdList list;
			print_region_copies(ctx, by_id, r->before, r->nbefore);
			strbuf_printf(&names, "  region %zu on %s: %zu op%s: ", k + 1,
				      devices_name(devices, r->device), r->ncalls,
				      r->ncalls == 1 ? "" : "s");
			cmd_list_init(&list, &names, names.len, ", ", "    ", all);
			for (size_t i = 0; i < r->ncalls; i++) {
				strbuf_reset(&name);
				name_op(&name, by_id[r->calls[i]], let_names);
				cmd_list_add(&list, name.data);
			}
			cmd_list_finish(&list);
			fprintf(ctx->out, "%s\n", names.data);
			strbuf_reset(&names);
			print_region_copies(ctx, by_id, r->after, r->nafter);
		}
		print_region_copies(ctx, by_id, fr->trailing, fr->ntrailing);
		if (fr->count == 0)
			fputs("  no operators\n", ctx->out);
	}
	strbuf_free(&names);
	strbuf_free(&name);
	plan_regions_free(&regions);
	plan_functions_free(&functions);
	free(let_names);
	free(by_id);
	return 0;
}

/* The analysis that explains the current state: the replay of a core in
 * progress under stepi (the state as of the last replayed event), core's
 * when it ran or planning stopped in it, else check's (which a failed
 * check leaves too). After a failed phase, the note saying so comes
 * first. */
PlanAnalysis *cmd_analysis(CmdContext *ctx)
{
	PlanTrace *t = ctx->session->trace;
	PlanAnalysis *replay = stepper_replay(ctx->session);
	if (replay)
		return replay;
	if (t && t->core && (session_planned(ctx->session) || core_failed(ctx)))
		return t->core;
	if (t && t->check && check_has_run(ctx))
		return t->check;
	return NULL;
}

/* cmd_analysis, after a note when planning stopped. */
static PlanAnalysis *current_analysis(CmdContext *ctx)
{
	PlanAnalysis *an = cmd_analysis(ctx);
	if (an && an != stepper_replay(ctx->session))
		cmd_note_stopped(ctx);
	return an;
}

/* The error for a name the analysis lacks: a copy check inserted exists
 * only from check's output on, which core analyses. */
static int unknown_value(CmdContext *ctx, const char *word)
{
	if (ir_find_named(session_current(ctx->session), word))
		return cmd_error(ctx,
				 "'%s' was inserted by check, after the analysis shown now; core "
				 "analyses it (use 'plan', or 'step' on to core)",
				 word);
	{
		StrBuf hint;
		strbuf_init(&hint);
		ir_suggest_names(session_current(ctx->session), word, &hint);
		cmd_error(ctx, "no value named '%s' in the module%s", word,
			  hint.data ? hint.data : "");
		strbuf_free(&hint);
	}
	return 1;
}

/* What check found for a conflicting value: every device it is needed on
 * with the annotation behind each, each use with its position, and the
 * resolution. */
struct CmdWhyBatch {
	CmdContext *ctx;
	PlanAnalysis *an;
	PlanExplainer *explainer;
	const IrModule *now; /* the session's current version */
	Expr **now_by_id;
	uint32_t *conflicts; /* the trace's conflicts by value name, then order */
	size_t nconflicts;
};

static const PlanTrace *why_sort_trace; /* qsort has no context argument */

static int conflict_name_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(why_sort_trace->conflicts[x].value_name,
		       why_sort_trace->conflicts[y].value_name);
	return c ? c : (x > y) - (x < y);
}

CmdWhyBatch *cmd_why_batch_new(CmdContext *ctx, PlanAnalysis *an)
{
	CmdWhyBatch *b = xcalloc(1, sizeof *b);
	const PlanTrace *t = ctx->session->trace;
	b->ctx = ctx;
	b->an = an;
	b->explainer = plan_explainer_new(an);
	b->now = session_current(ctx->session);
	b->now_by_id = ir_index_by_id(b->now);
	b->nconflicts = t ? t->nconflicts : 0;
	b->conflicts = xmalloc((b->nconflicts + 1) * sizeof *b->conflicts);
	for (size_t i = 0; i < b->nconflicts; i++)
		b->conflicts[i] = (uint32_t)i;
	why_sort_trace = t;
	qsort(b->conflicts, b->nconflicts, sizeof *b->conflicts, conflict_name_cmp);
	return b;
}

void cmd_why_batch_free(CmdWhyBatch *b)
{
	if (!b)
		return;
	plan_explainer_free(b->explainer);
	free(b->now_by_id);
	free(b->conflicts);
	free(b);
}

/* Where the conflicts of value `name` start in b->conflicts. */
static size_t why_first_conflict(const CmdWhyBatch *b, const char *name)
{
	const PlanTrace *t = b->ctx->session->trace;
	size_t lo = 0, hi = b->nconflicts;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(t->conflicts[b->conflicts[mid]].value_name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void explain_conflict(CmdWhyBatch *b, StrBuf *sb, const Expr *e)
{
	CmdContext *ctx = b->ctx;
	const PlanTrace *t = ctx->session->trace;
	const DeviceTable *devices = &ctx->session->devices;
	StrBuf name;
	strbuf_init(&name);
	ir_value_name(&name, e);
	for (size_t i = why_first_conflict(b, name.data); t && i < b->nconflicts; i++) {
		const PlanConflict *c = &t->conflicts[b->conflicts[i]];
		if (strcmp(c->value_name, name.data) != 0)
			break;
		strbuf_printf(sb, "  check: %s is %s ", c->value_name,
			      c->home_reason ? "needed on" : "pinned to both");
		plan_conflict_devices(sb, c, devices);
		if (c->home != IR_NO_DEVICE)
			strbuf_printf(sb, "; it stays on %s, %s\n", devices_name(devices, c->home),
				      c->home_reason);
		else if (c->home_reason && ctx->session->settings.policy == POLICY_TVM)
			strbuf_printf(sb, "; policy tvm resolves it %s\n", c->home_reason);
		else if (c->home_reason) /* policy error: no home taken */
			strbuf_printf(sb,
				      "; policy error stops planning; 'set policy copy' would keep "
				      "it on %s, %s\n",
				      devices_name(devices, c->devices[0]), c->home_reason);
		else
			strbuf_puts(sb, ", and no copy can separate them\n");
		for (size_t k = 0; k < c->ndemands; k++)
			strbuf_printf(sb, "    %s: %s\n",
				      devices_name(devices, c->demands[k].device),
				      c->demands[k].source_text);
		for (size_t k = 0; k < c->nuses; k++)
			strbuf_printf(sb, "    %s: %s\n", c->home_reason ? "use" : "joined by",
				      c->uses[k]);
		if (c->uses_left_out)
			strbuf_printf(sb, "    and %zu more use%s\n", c->uses_left_out,
				      c->uses_left_out == 1 ? "" : "s");
		if (c->first_use != PLAN_NONE)
			print_tvm_order(sb, ctx->session, c, b->now_by_id, b->now->nexprs);
	}
	strbuf_free(&name);
}

/* Why a device_copy exists, when e is one (or an on_device that capture
 * turned into one). */
static void explain_copy(CmdWhyBatch *b, StrBuf *sb, const Expr *e)
{
	const Session *s = b->ctx->session;
	const PlanTrace *t = s->trace;
	const DeviceTable *devices = &s->devices;
	const IrModule *m = b->now;
	const Expr *now = NULL;
	int32_t src, dst;
	StrBuf value;
	if (e->kind == EXPR_VAR && e->u.var.role == VAR_LET && e->u.var.value &&
	    ir_is_op(e->u.var.value, OP_DEVICE_COPY))
		e = e->u.var.value; /* a copy bound by a let (replicate) */
	if (e->kind != EXPR_CALL || e->u.call.nargs == 0)
		return;
	if (e->id < m->nexprs)
		now = b->now_by_id[e->id];
	if (!ir_is_op(e, OP_DEVICE_COPY) &&
	    !(now && ir_is_op(now, OP_DEVICE_COPY) && ir_is_op(e, OP_ON_DEVICE)))
		return;
	strbuf_init(&value);
	ir_value_name(&value, ir_is_op(e, OP_DEVICE_COPY) ? ir_copy_source(e) : e->u.call.args[0]);
	if (ir_is_op(e, OP_ON_DEVICE)) {
		ir_device_copy_props(now, &src, &dst);
		strbuf_printf(sb,
			      "  copy: capture turned this on_device into a device_copy of %s from "
			      "%s to %s: its body is on %s and its result is read on %s\n",
			      value.data, devices_name(devices, src), devices_name(devices, dst),
			      devices_name(devices, src), devices_name(devices, dst));
	} else if (t && t->check_nexprs && e->id >= t->check_nexprs) {
		ir_device_copy_props(e, &src, &dst);
		strbuf_printf(sb,
			      "  copy: check inserted this device_copy of %s from %s to %s: %s is "
			      "needed on both (see 'why %s' and 'conflicts')\n",
			      value.data, devices_name(devices, src), devices_name(devices, dst),
			      value.data, value.data);
	} else {
		ir_device_copy_props(e, &src, &dst);
		strbuf_printf(sb,
			      "  copy: a device_copy of %s from %s to %s, written in the module\n",
			      value.data, devices_name(devices, src), devices_name(devices, dst));
	}
	strbuf_free(&value);
}

void cmd_why_batch_text(CmdWhyBatch *b, const Expr *e, StrBuf *out)
{
	plan_explainer_explain(b->explainer, out, e, &b->ctx->session->devices,
			       b->ctx->session->trace);
	explain_conflict(b, out, e);
	explain_copy(b, out, e);
}

void cmd_why_text(CmdContext *ctx, PlanAnalysis *an, const Expr *e, StrBuf *out)
{
	CmdWhyBatch *b = cmd_why_batch_new(ctx, an);
	cmd_why_batch_text(b, e, out);
	cmd_why_batch_free(b);
}

int cmd_why(CmdContext *ctx, int argc, char **argv)
{
	if (session_relax_active(ctx->session))
		return cmd_relax_why(ctx, argc, argv);
	PlanAnalysis *an = current_analysis(ctx);
	const Expr *e;
	StrBuf sb;
	if (!an)
		return cmd_error(ctx, "nothing has been planned yet; use 'plan'");
	e = ir_find_named(an->module, argv[1]);
	if (!e)
		return unknown_value(ctx, argv[1]);
	strbuf_init(&sb);
	cmd_why_text(ctx, an, e, &sb);
	cmd_write(ctx, &sb);
	strbuf_free(&sb);
	return 0;
}

static int relay_constraints(CmdContext *ctx, int argc, char **argv)
{
	PlanAnalysis *an = current_analysis(ctx);
	const DeviceTable *devices = &ctx->session->devices;
	uint32_t only = PLAN_NONE;
	uint32_t *class_of, nclasses = 0;
	bool all = cmd_take_all_flag(&argc, argv);
	StrBuf members, name;
	if (!an)
		return cmd_error(ctx, "nothing has been analysed yet; use 'step' or 'plan'");
	if (argc > 1) {
		const Expr *e = ir_find_named(an->module, argv[1]);
		if (!e)
			return unknown_value(ctx, argv[1]);
		if (an->expr_domain[e->id] == PLAN_NONE)
			return cmd_error(ctx, "no value named '%s' in the module", argv[1]);
		only = plan_domain_result(an, an->expr_domain[e->id]);
	}
	/* classes in order of their first member */
	strbuf_init(&name);
	class_of = xmalloc((an->ndomains + 1) * sizeof(uint32_t));
	memset(class_of, 0xff, (an->ndomains + 1) * sizeof(uint32_t));
	{
		uint32_t *roots = xmalloc((an->nexprs + 1) * sizeof(uint32_t));
		uint32_t *order = xmalloc((an->nexprs + 1) * sizeof(uint32_t));
		for (uint32_t id = 0; id < an->nexprs; id++) {
			roots[id] = PLAN_NONE;
			if (!an->by_id[id] || an->expr_domain[id] == PLAN_NONE)
				continue;
			roots[id] = plan_domain_result(an, an->expr_domain[id]);
			if (class_of[roots[id]] == PLAN_NONE) {
				order[nclasses] = roots[id];
				class_of[roots[id]] = nclasses++;
			}
		}
		for (uint32_t k = 0; k < nclasses; k++) {
			uint32_t root = order[k];
			size_t unnamed = 0, named = 0;
			if (only != PLAN_NONE && root != only)
				continue;
			fprintf(ctx->out, "class %u: %s", k + 1,
				an->domains[root].device == IR_NO_DEVICE
					? "free"
					: devices_name(devices, an->domains[root].device));
			if (an->domains[root].bound_by != PLAN_NONE) {
				StrBuf s;
				strbuf_init(&s);
				plan_constraint_describe(&s, an, an->domains[root].bound_by,
							 devices);
				fprintf(ctx->out, " (bound by: %s)", s.data);
				strbuf_free(&s);
			}
			{
				CmdList list;
				strbuf_init(&members);
				strbuf_puts(&members, "  members: ");
				cmd_list_init(&list, &members, members.len, " ", "    ", all);
				for (uint32_t id = 0; id < an->nexprs; id++) {
					if (roots[id] != root)
						continue;
					if (an->by_id[id]->name) {
						strbuf_reset(&name);
						strbuf_printf(&name, "%%%s", an->by_id[id]->name);
						cmd_list_add(&list, name.data);
						named++;
					} else {
						unnamed++;
					}
				}
				cmd_list_finish(&list);
				if (unnamed) {
					strbuf_reset(&name);
					strbuf_printf(&name, "(+%zu unnamed)", unnamed);
					list.all = true;
					cmd_list_add(&list, name.data);
				}
				fprintf(ctx->out, "\n%s\n", members.data);
				strbuf_free(&members);
			}
		}
		strbuf_free(&name);
		free(roots);
		free(order);
	}
	free(class_of);
	return 0;
}

int cmd_constraints(CmdContext *ctx, int argc, char **argv)
{
	if (session_relax_active(ctx->session))
		return cmd_relax_constraints(ctx, argc, argv);
	return relay_constraints(ctx, argc, argv);
}

int cmd_verify(CmdContext *ctx, int argc, char **argv)
{
	const IrModule *m = session_current(ctx->session);
	DiagList diags;
	bool ok;
	diag_init(&diags);
	ok = plan_verify(m, &ctx->session->devices, &diags);
	cmd_print_diags(ctx, &diags);
	diag_free(&diags);
	if (!ok)
		return cmd_error(ctx, "verify failed");
	fputs("verify: every node has a device and every cross-device edge has a copy\n", ctx->out);
	return 0;
}

void cmd_complete_values(const Session *s, int argc, char **argv, const char *word,
			 CmdCandidates *out)
{
	cmd_complete_module_names(s, word, out);
}
