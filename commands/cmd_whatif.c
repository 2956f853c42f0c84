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

/* The placement lines of the current plan, or NULL when planning fails. */
static char *plan_and_describe(Session *s)
{
	Placement p;
	StrBuf sb;
	if (!session_planned(s) && !session_step(s, pipeline_count))
		return NULL;
	plan_placement(session_current(s), &p);
	strbuf_init(&sb);
	plan_placement_format(&sb, &p, &s->devices, false);
	plan_placement_free(&p);
	return strbuf_detach(&sb);
}

typedef struct Fact {
	char *key;   /* "FUNC KIND VALUE" (a copy: the whole line) */
	char *value; /* the device (a copy: "") */
	int64_t bytes;
} Fact;

typedef struct Facts {
	Fact *items;
	size_t count, cap;
	size_t copies;
	int64_t bytes;
} Facts;

static int compare_facts(const void *a, const void *b)
{
	return strcmp(((const Fact *)a)->key, ((const Fact *)b)->key);
}

static void parse_facts(const char *text, Facts *out)
{
	memset(out, 0, sizeof *out);
	while (text && *text) {
		const char *end = strchr(text, '\n');
		size_t n = end ? (size_t)(end - text) : strlen(text);
		char *line = xstrndup(text, n);
		Fact f = {0};
		if (strstr(line, " copy ")) {
			char *last = strrchr(line, ' ');
			f.key = line;
			f.value = xstrdup("");
			f.bytes = last ? strtoll(last + 1, NULL, 10) : 0;
			out->copies++;
			out->bytes += f.bytes;
		} else {
			char *last = strrchr(line, ' ');
			f.value = xstrdup(last ? last + 1 : "");
			if (last)
				*last = '\0';
			f.key = line;
		}
		grow_array((void **)&out->items, &out->cap, out->count + 1, sizeof(Fact));
		out->items[out->count++] = f;
		text += n + (end ? 1 : 0);
	}
	if (out->count)
		qsort(out->items, out->count, sizeof(Fact), compare_facts);
}

static void free_facts(Facts *f)
{
	for (size_t i = 0; i < f->count; i++) {
		free(f->items[i].key);
		free(f->items[i].value);
	}
	free(f->items);
}

/* Prints what changed between two placements (sorted merge). */
static void print_changes(CmdContext *ctx, const char *before, const char *after)
{
	Facts a, b;
	size_t i = 0, j = 0, changes = 0;
	parse_facts(before, &a);
	parse_facts(after, &b);
	while (i < a.count || j < b.count) {
		int cmp = i == a.count   ? 1
			  : j == b.count ? -1
					 : strcmp(a.items[i].key, b.items[j].key);
		if (cmp == 0) {
			if (strcmp(a.items[i].value, b.items[j].value) != 0) {
				fprintf(ctx->out, "  moved %s: %s -> %s\n", a.items[i].key,
					a.items[i].value, b.items[j].value);
				changes++;
			}
			i++;
			j++;
		} else if (cmp < 0) {
			fprintf(ctx->out, "  removed %s%s%s\n", a.items[i].key,
				*a.items[i].value ? " " : "", a.items[i].value);
			changes++;
			i++;
		} else {
			fprintf(ctx->out, "  added %s%s%s\n", b.items[j].key,
				*b.items[j].value ? " " : "", b.items[j].value);
			changes++;
			j++;
		}
	}
	if (!before)
		fputs("  (there was no plan before to compare with)\n", ctx->out);
	else if (!changes)
		fputs("  no change\n", ctx->out);
	fprintf(ctx->out, "  copies: %zu -> %zu, bytes: %lld -> %lld\n", before ? a.copies : 0,
		b.copies, (long long)(before ? a.bytes : 0), (long long)b.bytes);
	free_facts(&a);
	free_facts(&b);
}

/* Plans after a change to the pins; on success says `done` and what
 * changed, on failure undoes the change and plans again as before. */
static int replan(CmdContext *ctx, char *before, const char *what, const char *done)
{
	Session *s = ctx->session;
	char *after = plan_and_describe(s);
	if (!after) {
		cmd_print_diags(ctx, &s->diags);
		session_undo_pins(s);
		free(plan_and_describe(s));
		free(before);
		return cmd_error(ctx, "%s makes planning fail; the pins are as they were", what);
	}
	cmd_print_diags(ctx, &s->diags);
	fprintf(ctx->out, "%s\n", done);
	print_changes(ctx, before, after);
	free(before);
	free(after);
	return 0;
}

int cmd_pin(CmdContext *ctx, int argc, char **argv)
{
	Session *s = ctx->session;
	const char *name;
	const IrModule *loaded;
	int device;
	char *before, *what, *done;
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
	before = plan_and_describe(s);
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
	char *before = plan_and_describe(s);
	if (!session_unpin(s, name)) {
		free(before);
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
	char *before = plan_and_describe(s);
	if (!session_undo_pins(s)) {
		free(before);
		return cmd_error(ctx, "nothing to undo");
	}
	return replan(ctx, before, "undoing", "undid the last pin or unpin");
}
