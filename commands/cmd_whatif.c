/*
 * cmd_whatif.c - what-if planning: `pin`, `unpin` and `undo` (SPEC §3.3).
 *
 * Each command changes the session's pins, plans again from the module as
 * loaded, and prints what changed: `moved FACT: OLD -> NEW` for every value
 * whose device moved, `added`/`removed` for copies, and the totals. The
 * lines never start like placement facts, so scripts can grep both. A
 * change is planned first in a scratch session: one that fails (a pin
 * that makes planning fail, an unpin of a value not pinned, an undo with
 * nothing to undo) changes nothing, stepping position included.
 */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

#include "plan.h"

/* The facts of the plan the session's pins give: its own when it is
 * planned, else planned in a scratch session (so that stepping stays
 * where it is); NULL when that plan fails. Free with free_placement. */
static Placement *current_placement(Session *s)
{
	Placement *p;
	if (!session_planned(s)) {
		Session scratch;
		bool planned;
		/* a change that changes nothing: setting no pin is not one, so
		 * plan the pins as they are through an undo-free copy */
		session_init_like(&scratch, s);
		planned = s->source &&
			  session_load_source(&scratch, s->source, s->path ? s->path : "module") &&
			  session_step(&scratch, pipeline_count);
		p = NULL;
		if (planned) {
			p = xmalloc(sizeof *p);
			plan_placement(session_current(&scratch), p);
		}
		session_free(&scratch);
		return p;
	}
	p = xmalloc(sizeof *p);
	plan_placement(session_current(s), p);
	return p;
}

static void free_placement(Placement *p)
{
	if (p)
		plan_placement_free(p);
	free(p);
}

/* `@main bind %x` or `@main result`: what names a fact that moved. */
static void print_fact_key(CmdContext *ctx, const PlacementFact *f)
{
	fprintf(ctx->out, "%s %s", f->function, plan_fact_kind_name(f->kind));
	if (f->value)
		fprintf(ctx->out, " %s", f->value);
}

/* Changes listed one by one before the rest are only counted (--all
 * lists every one). */
enum { CHANGES_SHOWN = 8 };

/* Prints what changed between two plans (plan_placement_diff), in program
 * order: each fact that moved, was removed or added (the first
 * CHANGES_SHOWN unless all), then, when there were more, how many moved
 * to each device and how many copies appeared and went away, then the
 * copies and bytes. */
static void print_changes(CmdContext *ctx, const Placement *before, const Placement *after,
			  bool all)
{
	const DeviceTable *devices = &ctx->session->devices;
	PlacementDiff d;
	StrBuf line;
	size_t *moved_to = xcalloc(devices->count + 1, sizeof(size_t));
	size_t moved = 0, added = 0, removed = 0;
	plan_placement_diff(before, after, devices, &d);
	strbuf_init(&line);
	for (size_t i = 0; i < d.count; i++) {
		const PlacementChange *c = &d.changes[i];
		bool show = all || i < CHANGES_SHOWN;
		switch (c->kind) {
		case PLACEMENT_MOVED:
			moved++;
			if (c->after->device >= 0 && (uint32_t)c->after->device < devices->count)
				moved_to[c->after->device]++;
			if (!show)
				break;
			fputs("  moved ", ctx->out);
			print_fact_key(ctx, c->before);
			fprintf(ctx->out, ": %s -> %s\n", devices_name(devices, c->before->device),
				devices_name(devices, c->after->device));
			break;
		case PLACEMENT_REMOVED:
		case PLACEMENT_ADDED:
			if (c->kind == PLACEMENT_ADDED)
				added++;
			else
				removed++;
			if (!show)
				break;
			strbuf_reset(&line);
			plan_fact_format(&line, c->before ? c->before : c->after, devices);
			fprintf(ctx->out, "  %s %s\n",
				c->kind == PLACEMENT_ADDED ? "added" : "removed", line.data);
			break;
		}
	}
	if (!before)
		fputs("  (there was no plan before to compare with)\n", ctx->out);
	else if (!d.count)
		fputs("  no change\n", ctx->out);
	else if (!all && d.count > CHANGES_SHOWN) {
		fprintf(ctx->out, "  (+%zu more; use --all) in all: %zu moved",
			d.count - CHANGES_SHOWN, moved);
		for (uint32_t k = 0, first = 1; k < devices->count; k++)
			if (moved_to[k]) {
				fprintf(ctx->out, "%s%zu to %s", first ? " (" : ", ", moved_to[k],
					devices_name(devices, (int32_t)k));
				first = 0;
			}
		fprintf(ctx->out, "%s, %zu added, %zu removed\n", moved ? ")" : "", added, removed);
	}
	fprintf(ctx->out, "  copies: %zu -> %zu, bytes: %lld -> %lld\n", d.copies[0], d.copies[1],
		(long long)d.bytes[0], (long long)d.bytes[1]);
	strbuf_free(&line);
	free(moved_to);
	plan_placement_diff_free(&d);
}

/* How many calls of the module an operator pin names. */
static size_t count_named(const IrModule *m, const PlanPin *pin)
{
	Expr **by_id = ir_index_by_id(m);
	size_t n = 0;
	for (uint32_t id = 0; id < m->nexprs; id++)
		n += by_id[id] && plan_pin_matches(pin, by_id[id]);
	free(by_id);
	return n;
}

bool cmd_parse_pin(CmdContext *ctx, const IrModule *loaded, const DeviceTable *devices, int argc,
		   char **argv, bool with_device, const char *prefix, PlanPin *pin)
{
	int i = 0;
	const char *usage = with_device ? "[--body] %x|--op OPS DEVICE" : "%x|--op OPS";
	memset(pin, 0, sizeof *pin);
	pin->device = IR_NO_DEVICE;
	if (with_device && i < argc && strcmp(argv[i], "--body") == 0) {
		pin->body = true;
		i++;
	}
	if (i < argc && strcmp(argv[i], "--op") == 0) {
		if (++i >= argc)
			return !cmd_error(ctx,
					  "%s--op needs operator names: --op nn.conv2d,nn.dense",
					  prefix);
		pin->op = argv[i++];
	} else if (i < argc && argv[i][0] != '-') {
		pin->name = argv[i][0] == '%' ? argv[i] + 1 : argv[i];
		i++;
	}
	if ((!pin->op && !pin->name) || argc != i + (with_device ? 1 : 0))
		return !cmd_error(ctx, "%susage: %s %s", prefix, with_device ? "pin" : "unpin",
				  usage);
	if (with_device && pin->name) {
		const Expr *e = ir_find_value(loaded, pin->name);
		if (!e) {
			StrBuf hint;
			strbuf_init(&hint);
			ir_suggest_names(loaded, pin->name, &hint);
			cmd_error(ctx, "%sno value named '%%%s' in the module%s", prefix, pin->name,
				  hint.data ? hint.data : "");
			strbuf_free(&hint);
			return false;
		}
		if (pin->body && e->kind == EXPR_VAR && e->u.var.role != VAR_LET)
			return !cmd_error(ctx,
					  "%s--body pins what an expression computes, and "
					  "'%%%s' is a parameter: pin it without --body",
					  prefix, pin->name);
	}
	if (with_device && pin->op) {
		/* every glob must name some call: a typo is not a pin */
		char *globs = xstrdup(pin->op), *save = NULL;
		for (char *g = strtok_r(globs, ",", &save); g; g = strtok_r(NULL, ",", &save)) {
			PlanPin one = {.op = g};
			if (!count_named(loaded, &one)) {
				cmd_error(ctx,
					  "%sno call of an operator matching '%s' in the module",
					  prefix, g);
				free(globs);
				return false;
			}
		}
		free(globs);
	}
	if (with_device) {
		pin->device = devices_find_name(devices, argv[i]);
		if (pin->device < 0)
			return !cmd_error(ctx, "%sunknown device '%s'; see 'targets'", prefix,
					  argv[i]);
	}
	return true;
}

/* Makes a change of the pins, tried first in a scratch session
 * (session_pins_try): one that cannot be made, or that makes planning
 * fail, leaves the session as it was (its phases, stepping position,
 * breakpoints and pins). One that plans is made, the session plans again,
 * and `done` and what changed are printed. */
static int whatif(CmdContext *ctx, PinChange change, const PlanPin *pin, const char *what,
		  const char *done, bool all)
{
	Session *s = ctx->session;
	Session scratch;
	Placement *before, after;
	bool planned;
	if (!session_pins_try(s, change, pin, &scratch, &planned)) {
		session_free(&scratch);
		if (change == PIN_CHANGE_UNDO)
			return cmd_error(ctx, "nothing to undo");
		if (pin->name)
			return cmd_error(ctx, "'%%%s' is not pinned", pin->name);
		return cmd_error(ctx, "no pin of --op %s", pin->op);
	}
	if (!planned) {
		cmd_print_diags(ctx, &scratch.diags);
		session_free(&scratch);
		return cmd_error(ctx, "%s makes planning fail; the pins are as they were", what);
	}
	before = current_placement(s);
	plan_placement(session_current(&scratch), &after);
	switch (change) {
	case PIN_CHANGE_SET:
		session_pin(s, pin);
		break;
	case PIN_CHANGE_REMOVE:
		session_unpin(s, pin->name, pin->op);
		break;
	case PIN_CHANGE_UNDO:
		session_undo_pins(s);
		break;
	}
	if (!session_step(s, pipeline_count)) /* it planned in the scratch session */
		cmd_print_diags(ctx, &s->diags);
	cmd_print_diags(ctx, &scratch.diags);
	fprintf(ctx->out, "%s\n", done);
	print_changes(ctx, before, &after, all);
	free_placement(before);
	plan_placement_free(&after);
	session_free(&scratch);
	return 0;
}

int cmd_pin(CmdContext *ctx, int argc, char **argv)
{
	Session *s = ctx->session;
	const IrModule *loaded;
	bool all = cmd_take_all_flag(&argc, argv);
	PlanPin pin;
	StrBuf what, done;
	int status;
	if (argc == 1) {
		size_t n;
		const PlanPin *pins = session_pins(s, &n);
		StrBuf line;
		if (!n)
			fputs("no pins\n", ctx->out);
		strbuf_init(&line);
		for (size_t i = 0; i < n; i++) {
			strbuf_reset(&line);
			plan_pin_format(&line, &pins[i], &s->devices);
			fprintf(ctx->out, "%s\n", line.data);
		}
		strbuf_free(&line);
		return 0;
	}
	if (!(loaded = cmd_version(ctx, -1)))
		return 1;
	if (!cmd_parse_pin(ctx, loaded, &s->devices, argc - 1, argv + 1, true, "", &pin))
		return 1;
	strbuf_init(&what);
	strbuf_init(&done);
	if (pin.name) {
		strbuf_printf(&what, "pinning '%%%s' to %s", pin.name,
			      devices_name(&s->devices, pin.device));
		strbuf_printf(&done, "pinned %%%s to %s", pin.name,
			      devices_name(&s->devices, pin.device));
	} else {
		size_t n = count_named(loaded, &pin);
		strbuf_printf(&what, "pinning --op %s to %s", pin.op,
			      devices_name(&s->devices, pin.device));
		strbuf_printf(&done, "pinned %zu call%s of %s to %s", n, n == 1 ? "" : "s", pin.op,
			      devices_name(&s->devices, pin.device));
	}
	if (pin.body)
		strbuf_puts(&done, " (--body: computed there, read anywhere)");
	status = whatif(ctx, PIN_CHANGE_SET, &pin, what.data, done.data, all);
	strbuf_free(&what);
	strbuf_free(&done);
	return status;
}

int cmd_unpin(CmdContext *ctx, int argc, char **argv)
{
	bool all = cmd_take_all_flag(&argc, argv);
	PlanPin pin;
	char *done;
	int status;
	if (!cmd_parse_pin(ctx, NULL, &ctx->session->devices, argc - 1, argv + 1, false, "", &pin))
		return 1;
	done = pin.name ? xasprintf("unpinned %%%s", pin.name)
			: xasprintf("unpinned --op %s", pin.op);
	status = whatif(ctx, PIN_CHANGE_REMOVE, &pin, "unpinning", done, all);
	free(done);
	return status;
}

int cmd_undo(CmdContext *ctx, int argc, char **argv)
{
	bool all = cmd_take_all_flag(&argc, argv);
	PlanPin none = {.device = IR_NO_DEVICE};
	(void)argv;
	if (argc > 1)
		return cmd_error(ctx, "usage: undo [--all]");
	return whatif(ctx, PIN_CHANGE_UNDO, &none, "undoing", "undid the last pin or unpin", all);
}

/* pin [--body] %x DEVICE | pin [--body] --op OPS DEVICE [--all]: after a
 * value or the operators comes a device of the table; elsewhere the
 * options, and %names once a `%` is typed. */
void cmd_complete_pin(const Session *s, int argc, char **argv, const char *word, CmdCandidates *out)
{
	const char *prev = argv[argc - 1];
	bool device_next = prev[0] == '%' || (argc > 2 && strcmp(argv[argc - 2], "--op") == 0);
	if (strcmp(prev, "--op") == 0)
		return; /* operator names or globs: anything goes */
	if (device_next && word[0] != '-') {
		for (uint32_t d = 0; d < s->devices.count; d++)
			cmd_candidates_add(out, word, s->devices.items[d].name);
		return;
	}
	if (word[0] == '%' || word[0] == '@') {
		cmd_complete_module_names(s, word, out);
		return;
	}
	cmd_candidates_add(out, word, "--all");
	cmd_candidates_add(out, word, "--body");
	cmd_candidates_add(out, word, "--op");
}
