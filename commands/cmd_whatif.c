/*
 * cmd_whatif.c - what-if planning: `pin`, `unpin` and `undo` (SPEC §3.3).
 *
 * Each command changes the session's pins, plans again from the module as
 * loaded, and prints what changed: `moved FACT: OLD -> NEW` for every value
 * whose device moved, `added`/`removed` for copies, and the totals. The
 * lines never start like placement facts, so scripts can grep both. A
 * pin that makes planning fail is rolled back, so the session is never
 * left without the plan it had.
 */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

#include "plan.h"

/* The facts of the current plan, planning first when needed; NULL when
 * planning fails. The caller frees it with free_placement. */
static Placement *plan_and_place(Session *s)
{
	Placement *p;
	if (!session_planned(s) && !session_step(s, pipeline_count))
		return NULL;
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

/* Plans after a change to the pins; on success says `done` and what
 * changed, on failure undoes the change and plans again as before. */
static int replan(CmdContext *ctx, Placement *before, const char *what, const char *done)
{
	Session *s = ctx->session;
	Placement *after = plan_and_place(s);
	if (!after) {
		cmd_print_diags(ctx, &s->diags);
		session_undo_pins(s);
		free_placement(plan_and_place(s));
		free_placement(before);
		return cmd_error(ctx, "%s makes planning fail; the pins are as they were", what);
	}
	cmd_print_diags(ctx, &s->diags);
	fprintf(ctx->out, "%s\n", done);
	print_changes(ctx, before, after);
	free_placement(before);
	free_placement(after);
	return 0;
}

int cmd_pin(CmdContext *ctx, int argc, char **argv)
{
	Session *s = ctx->session;
	const char *name;
	const IrModule *loaded;
	int device;
	Placement *before;
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
	before = plan_and_place(s);
	session_pin(s, name, device);
	what = xasprintf("pinning '%%%s' to %s", name, devices_name(&s->devices, device));
	done = xasprintf("pinned %%%s to %s", name, devices_name(&s->devices, device));
	status = replan(ctx, before, what, done);
	free(what);
	free(done);
	return status;
}

int cmd_unpin(CmdContext *ctx, int argc, char **argv)
{
	Session *s = ctx->session;
	const char *name = argv[1][0] == '%' ? argv[1] + 1 : argv[1];
	Placement *before = plan_and_place(s);
	if (!session_unpin(s, name)) {
		free_placement(before);
		return cmd_error(ctx, "'%%%s' is not pinned", name);
	}
	{
		char *done = xasprintf("unpinned %%%s", name);
		int status = replan(ctx, before, "unpinning", done);
		free(done);
		return status;
	}
}

int cmd_undo(CmdContext *ctx, int argc, char **argv)
{
	Session *s = ctx->session;
	Placement *before = plan_and_place(s);
	if (!session_undo_pins(s)) {
		free_placement(before);
		return cmd_error(ctx, "nothing to undo");
	}
	return replan(ctx, before, "undoing", "undid the last pin or unpin");
}
