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

/* Prints what changed between two plans (plan_placement_diff): each fact
 * that moved, was removed or added, then the copies and bytes. */
static void print_changes(CmdContext *ctx, const Placement *before, const Placement *after)
{
	const DeviceTable *devices = &ctx->session->devices;
	PlacementDiff d;
	StrBuf line;
	plan_placement_diff(before, after, devices, &d);
	strbuf_init(&line);
	for (size_t i = 0; i < d.count; i++) {
		const PlacementChange *c = &d.changes[i];
		switch (c->kind) {
		case PLACEMENT_MOVED:
			fputs("  moved ", ctx->out);
			print_fact_key(ctx, c->before);
			fprintf(ctx->out, ": %s -> %s\n", devices_name(devices, c->before->device),
				devices_name(devices, c->after->device));
			break;
		case PLACEMENT_REMOVED:
		case PLACEMENT_ADDED:
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
	fprintf(ctx->out, "  copies: %zu -> %zu, bytes: %lld -> %lld\n", d.copies[0], d.copies[1],
		(long long)d.bytes[0], (long long)d.bytes[1]);
	strbuf_free(&line);
	plan_placement_diff_free(&d);
}

/* Makes a change of the pins, tried first in a scratch session
 * (session_pins_try): one that cannot be made, or that makes planning
 * fail, leaves the session as it was (its phases, stepping position,
 * breakpoints and pins). One that plans is made, the session plans again,
 * and `done` and what changed are printed. */
static int whatif(CmdContext *ctx, PinChange change, const char *name, int32_t device,
		  const char *what, const char *done)
{
	Session *s = ctx->session;
	Session scratch;
	Placement *before, after;
	bool planned;
	if (!session_pins_try(s, change, name, device, &scratch, &planned)) {
		session_free(&scratch);
		if (change == PIN_CHANGE_UNDO)
			return cmd_error(ctx, "nothing to undo");
		return cmd_error(ctx, "'%%%s' is not pinned", name);
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
		session_pin(s, name, device);
		break;
	case PIN_CHANGE_REMOVE:
		session_unpin(s, name);
		break;
	case PIN_CHANGE_UNDO:
		session_undo_pins(s);
		break;
	}
	if (!session_step(s, pipeline_count)) /* it planned in the scratch session */
		cmd_print_diags(ctx, &s->diags);
	cmd_print_diags(ctx, &scratch.diags);
	fprintf(ctx->out, "%s\n", done);
	print_changes(ctx, before, &after);
	free_placement(before);
	plan_placement_free(&after);
	session_free(&scratch);
	return 0;
}

int cmd_pin(CmdContext *ctx, int argc, char **argv)
{
	Session *s = ctx->session;
	const char *name;
	const IrModule *loaded;
	int device;
	char *what, *done;
	int status;
	if (argc == 1) {
		size_t n;
		const PlanPin *pins = session_pins(s, &n);
		if (!n)
			fputs("no pins\n", ctx->out);
		for (size_t i = 0; i < n; i++)
			fprintf(ctx->out, "%%%s %s\n", pins[i].name,
				devices_name(&s->devices, pins[i].device));
		return 0;
	}
	if (argc != 3)
		return cmd_error(ctx, "usage: pin [%%x DEVICE]");
	name = argv[1][0] == '%' ? argv[1] + 1 : argv[1];
	if (!(loaded = cmd_version(ctx, -1)))
		return 1;
	if (!ir_find_value(loaded, argv[1]))
		return cmd_error(ctx, "no value named '%%%s' in the module", name);
	device = devices_find_name(&s->devices, argv[2]);
	if (device < 0)
		return cmd_error(ctx, "unknown device '%s'; see 'targets'", argv[2]);
	what = xasprintf("pinning '%%%s' to %s", name, devices_name(&s->devices, device));
	done = xasprintf("pinned %%%s to %s", name, devices_name(&s->devices, device));
	status = whatif(ctx, PIN_CHANGE_SET, name, device, what, done);
	free(what);
	free(done);
	return status;
}

int cmd_unpin(CmdContext *ctx, int argc, char **argv)
{
	const char *name = argv[1][0] == '%' ? argv[1] + 1 : argv[1];
	char *done = xasprintf("unpinned %%%s", name);
	int status = whatif(ctx, PIN_CHANGE_REMOVE, name, IR_NO_DEVICE, "unpinning", done);
	(void)argc;
	free(done);
	return status;
}

int cmd_undo(CmdContext *ctx, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return whatif(ctx, PIN_CHANGE_UNDO, NULL, IR_NO_DEVICE, "undoing",
		      "undid the last pin or unpin");
}
