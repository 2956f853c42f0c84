/*
 * cmd_diff.c - `diff`: what a phase changed, as a unified diff of the
 * printed module.
 *
 * Every phase leaves its input version untouched (STYLE.md §3), so the
 * module before and after any phase that ran are both at hand: print each
 * as `ir` would and compare the texts line by line (core/session/linediff.h). A
 * phase in progress under stepi has not changed the module yet; `diff`
 * says so and shows the last phase that completed.
 *
 * `diff --plan A B` compares two plans of the loaded module instead (SPEC
 * §3.3): each side is the session's settings and pins with some changed
 * (`policy copy`, `fallback=cuda:0`, `min-transfer`, `pin %x cuda:0`, several
 * separated by `;`, or `current`), planned in a scratch session
 * (session_init_like) so that the session itself is never touched. The two
 * placements are compared by plan_placement_diff, as `pin` compares the
 * plans before and after a pin, and cmd_diff_plan_print (which `devplan
 * --diff-placement` shares for two `placement --json` files) says which
 * values moved, which copies appear and vanish, and the bytes moved in each
 * direction under each side.
 *
 * `diff --module FILE` compares the module (or a phase's) with the one in
 * FILE, loaded in a scratch session with the session's device table, by
 * TVM's structural equality and the devices TVM reads off each text
 * (core/ir/ir_equal.h): "is devplan's plan TVM's?" for a module TVM's
 * PlanDevices printed. The first difference is printed with both places.
 */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "ir_equal.h"
#include "linediff.h"
#include "print.h"
#include "stepper.h"
#include "words.h"

enum { DIFF_CONTEXT = 3 };

static void print_version(StrBuf *sb, const Session *s, const IrModule *m, bool devices)
{
	PrintOptions opts;
	memset(&opts, 0, sizeof opts);
	opts.devices = &s->devices;
	opts.show_devices = devices;
	opts.show_types = m->typed;
	print_module(sb, m, &opts);
}

/* ---- diff --plan ---- */

/* The bytes the copies of one direction move under each side. */
typedef struct DirectionBytes {
	int32_t src, dst;
	size_t copies[2];
	int64_t bytes[2];
} DirectionBytes;

/* Adds p's copies (side 0 or 1) to the directions, one entry per (from, to). */
static void add_directions(const Placement *p, int side, DirectionBytes **dirs, size_t *n,
			   size_t *cap)
{
	for (size_t i = 0; p && i < p->count; i++) {
		const PlacementFact *f = &p->facts[i];
		size_t k = 0;
		if (f->kind != FACT_COPY)
			continue;
		while (k < *n && ((*dirs)[k].src != f->device || (*dirs)[k].dst != f->dest))
			k++;
		if (k == *n) {
			grow_array((void **)dirs, cap, *n + 1, sizeof(DirectionBytes));
			memset(&(*dirs)[k], 0, sizeof(DirectionBytes));
			(*dirs)[k].src = f->device;
			(*dirs)[k].dst = f->dest;
			(*n)++;
		}
		(*dirs)[k].copies[side]++;
		(*dirs)[k].bytes[side] += f->bytes >= 0 ? f->bytes : 0;
	}
}

static int compare_directions(const void *a, const void *b)
{
	const DirectionBytes *x = a, *y = b;
	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return x->dst < y->dst ? -1 : x->dst > y->dst;
}

bool cmd_diff_plan_print(StrBuf *out, const Placement *a, const Placement *b,
			 const DeviceTable *devices)
{
	PlacementDiff d;
	StrBuf line;
	DirectionBytes *dirs = NULL;
	size_t ndirs = 0, cap = 0;
	int width = (int)strlen("bytes moved") - 2, wa = (int)strlen("A"), wb = (int)strlen("B");
	char num[32];
	plan_placement_diff(a, b, devices, &d);
	strbuf_init(&line);
	/* values that moved, then the copies, then facts only one side has */
	for (int pass = 0; pass < 3; pass++)
		for (size_t i = 0; i < d.count; i++) {
			const PlacementChange *c = &d.changes[i];
			const PlacementFact *f = c->before ? c->before : c->after;
			int group = c->kind == PLACEMENT_MOVED ? 0 : f->kind == FACT_COPY ? 1 : 2;
			if (group != pass)
				continue;
			switch (c->kind) {
			case PLACEMENT_MOVED:
				strbuf_printf(out, "  moved %s %s", f->function,
					      plan_fact_kind_name(f->kind));
				if (f->value)
					strbuf_printf(out, " %s", f->value);
				strbuf_printf(out, ": %s -> %s\n",
					      devices_name(devices, c->before->device),
					      devices_name(devices, c->after->device));
				break;
			case PLACEMENT_ADDED:
			case PLACEMENT_REMOVED:
				strbuf_reset(&line);
				plan_fact_format(&line, f, devices);
				if (f->kind == FACT_COPY)
					strbuf_printf(out, "  %s %s\n",
						      c->kind == PLACEMENT_ADDED ? "appears "
										 : "vanishes",
						      line.data);
				else
					strbuf_printf(out, "  only under %s: %s\n",
						      c->kind == PLACEMENT_ADDED ? "B" : "A",
						      line.data);
				break;
			}
		}
	if (!d.count)
		strbuf_puts(out, "  same placement\n");
	add_directions(a, 0, &dirs, &ndirs, &cap);
	add_directions(b, 1, &dirs, &ndirs, &cap);
	if (ndirs)
		qsort(dirs, ndirs, sizeof *dirs, compare_directions);
	for (size_t i = 0; i < ndirs; i++) {
		int w = snprintf(num, sizeof num, "%s -> ", devices_name(devices, dirs[i].src)) +
			(int)strlen(devices_name(devices, dirs[i].dst));
		if (w > width)
			width = w;
	}
	snprintf(num, sizeof num, "%lld", (long long)d.bytes[0]);
	if ((int)strlen(num) > wa)
		wa = (int)strlen(num);
	snprintf(num, sizeof num, "%lld", (long long)d.bytes[1]);
	if ((int)strlen(num) > wb)
		wb = (int)strlen(num);
	strbuf_printf(out, "bytes moved%*s  %*s  %*s\n", width + 2 - (int)strlen("bytes moved"), "",
		      wa, "A", wb, "B");
	for (size_t i = 0; i < ndirs; i++) {
		strbuf_reset(&line);
		strbuf_printf(&line, "%s -> %s", devices_name(devices, dirs[i].src),
			      devices_name(devices, dirs[i].dst));
		strbuf_printf(out, "  %-*s  %*lld  %*lld\n", width, line.data, wa,
			      (long long)dirs[i].bytes[0], wb, (long long)dirs[i].bytes[1]);
	}
	strbuf_printf(out, "  %-*s  %*lld  %*lld  (copies: %zu, %zu)\n", width, "total", wa,
		      (long long)d.bytes[0], wb, (long long)d.bytes[1], d.copies[0], d.copies[1]);
	{
		bool differ = d.count > 0;
		free(dirs);
		strbuf_free(&line);
		plan_placement_diff_free(&d);
		return differ;
	}
}

/* Applies one `;`-separated item of a side to its scratch session: `current`,
 * `default` or `min-transfer` (the placement setting), `pin %x DEVICE`,
 * `unpin %x`, or a setting that changes the plan as `NAME VALUE` or
 * `NAME=VALUE`. 0, or 1 after reporting what is wrong with it. */
static int apply_plan_item(CmdContext *ctx, Session *scratch, const IrModule *loaded,
			   const char *side, const char *item)
{
	int argc, status = 0;
	char **argv, *err = NULL, *name = NULL, *value = NULL;
	if (!commands_split(item, &argc, &argv, &err)) {
		status = cmd_error(ctx, "%s: %s", side, err);
		free(err);
		return status;
	}
	if (argc == 0) {
		status = cmd_error(ctx, "%s: empty item in '%s'", side, item);
	} else if (argc == 1 && strcmp(argv[0], "current") == 0) {
		/* the session's settings and pins as they are */
	} else if (strcmp(argv[0], "pin") == 0 || strcmp(argv[0], "unpin") == 0) {
		bool pin = argv[0][0] == 'p';
		PlanPin p;
		char *prefix = xasprintf("%s: ", side);
		if (!cmd_parse_pin(ctx, loaded, &scratch->devices, argc - 1, argv + 1, pin, prefix,
				   &p))
			status = 1;
		else if (pin)
			session_pin(scratch, &p);
		else if (!session_unpin(scratch, p.name, p.op))
			status = cmd_error(ctx, "%s: '%s' is not pinned", side, argv[argc - 1]);
		free(prefix);
	} else if (argc <= 2) {
		int i;
		bool reset;
		const char *eq = strchr(argv[0], '=');
		if (argc == 1 && !eq) {
			name = xstrdup("placement");
			value = xstrdup(argv[0]);
		} else if (argc == 1) {
			name = xstrndup(argv[0], (size_t)(eq - argv[0]));
			value = xstrdup(eq + 1);
		} else {
			name = xstrdup(argv[0]);
			value = xstrdup(argv[1]);
		}
		i = session_setting_find(name);
		if (i < 0)
			status = argc == 1 && !eq
					 ? cmd_error(ctx, "%s: unknown plan '%s'", side, item)
					 : cmd_error(ctx, "%s: unknown setting '%s'", side, name);
		else if (!session_settings[i].resets_planning)
			status = cmd_error(ctx, "%s: setting '%s' does not change the plan", side,
					   session_settings[i].name);
		else if (!session_setting_set(scratch, i, value, &reset, &err)) {
			status = cmd_error(ctx, "%s: %s", side, err);
			free(err);
		}
	} else {
		status = cmd_error(ctx, "%s: unknown plan '%s'", side, item);
	}
	free(name);
	free(value);
	commands_free_words(argc, argv);
	return status;
}

/* Makes side's scratch session (the session's settings and pins, with spec
 * applied) and plans it. 0 when it planned; 1 after reporting a bad spec or
 * an interrupt; 2 when planning failed, which the caller reports. */
static int plan_side(CmdContext *ctx, Session *scratch, const char *side, const char *spec)
{
	Session *s = ctx->session;
	const IrModule *loaded;
	char *items, *save = NULL;
	int status = 0;
	session_init_like(scratch, s);
	if (!spec[strspn(spec, " \t;")])
		return cmd_error(ctx, "%s: empty plan; say 'current' for the session's", side);
	if (!s->source || !session_load_source(scratch, s->source, s->path ? s->path : "module")) {
		cmd_print_diags(ctx, &scratch->diags);
		return cmd_error(ctx, "%s: could not load the module again", side);
	}
	/* the module as loaded, the scratch session's own: the session keeps
	 * no version it had let go */
	if (!(loaded = session_version(scratch, -1)))
		return cmd_error(ctx, "%s: could not load the module again", side);
	items = xstrdup(spec);
	for (char *item = strtok_r(items, ";", &save); item && !status;
	     item = strtok_r(NULL, ";", &save))
		status = apply_plan_item(ctx, scratch, loaded, side, item);
	free(items);
	if (status)
		return status;
	if (!session_step(scratch, pipeline_count)) {
		if (interrupt_pending())
			return cmd_error(ctx, "interrupted");
		return 2;
	}
	return 0;
}

/* `A: SPEC: N copies, B bytes`, or why that side does not plan. */
static void print_side(CmdContext *ctx, const Session *scratch, const char *side, const char *spec,
		       const Placement *p)
{
	const char *reason = NULL;
	int failed = session_failed_phase(scratch, &reason);
	fprintf(ctx->out, "%s: %s: ", side, spec);
	if (p) {
		size_t copies = 0;
		int64_t bytes = 0;
		for (size_t i = 0; i < p->count; i++)
			if (p->facts[i].kind == FACT_COPY) {
				copies++;
				bytes += p->facts[i].bytes >= 0 ? p->facts[i].bytes : 0;
			}
		fprintf(ctx->out, "%zu %s, %lld bytes\n", copies, copies == 1 ? "copy" : "copies",
			(long long)bytes);
	} else if (failed >= 0) {
		fprintf(ctx->out, "does not plan: phase '%s' failed: %s\n",
			pipeline_phases[failed].name, reason ? reason : "no reason given");
	} else {
		fputs("does not plan\n", ctx->out);
	}
}

static int diff_plan(CmdContext *ctx, const char *spec_a, const char *spec_b)
{
	Session scratch[2];
	Placement placement[2];
	const char *specs[2] = {spec_a, spec_b};
	const char *sides[2] = {"A", "B"};
	int planned[2], status = 0;
	memset(scratch, 0, sizeof scratch);
	for (int i = 0; i < 2; i++) {
		planned[i] = plan_side(ctx, &scratch[i], sides[i], specs[i]);
		if (planned[i] == 0)
			plan_placement(session_current(&scratch[i]), &placement[i]);
		if (planned[i] == 1) {
			/* a bad spec or an interrupt, reported */
			for (int j = 0; j <= i; j++) {
				if (planned[j] == 0)
					plan_placement_free(&placement[j]);
				session_free(&scratch[j]);
			}
			return 1;
		}
	}
	for (int i = 0; i < 2; i++)
		print_side(ctx, &scratch[i], sides[i], specs[i],
			   planned[i] == 0 ? &placement[i] : NULL);
	if (planned[0] == 0 && planned[1] == 0) {
		/* a new fallback may move every binding: written in pieces
		 * that Ctrl-C can stop */
		StrBuf sb;
		strbuf_init(&sb);
		cmd_diff_plan_print(&sb, &placement[0], &placement[1], &ctx->session->devices);
		status = cmd_write(ctx, &sb);
		strbuf_free(&sb);
	} else
		status = cmd_error(ctx, "%s does not plan; nothing to compare",
				   planned[0] && planned[1] ? "neither side"
				   : planned[0]             ? "side A"
							    : "side B");
	for (int i = 0; i < 2; i++) {
		if (planned[i] == 0)
			plan_placement_free(&placement[i]);
		session_free(&scratch[i]);
	}
	return status;
}

/* ---- diff --module FILE ---- */

/* `  A: FILE:LINE:COL: the source line`, or `  A: -` for no place. */
static void print_place(CmdContext *ctx, const char *side, const IrModule *m, Pos pos)
{
	size_t len = 0;
	const char *line = NULL;
	const char *file = m->src && m->src->name ? m->src->name : "module";
	if (!pos.line) {
		fprintf(ctx->out, "  %s: -\n", side);
		return;
	}
	if (m->src)
		line = source_line(m->src, pos.line, &len);
	fprintf(ctx->out, "  %s: %s:%u:%u:", side, file, pos.line, pos.col);
	if (line) {
		size_t skip = strspn(line, " \t");
		fprintf(ctx->out, " %.*s", (int)(len - (skip < len ? skip : len)),
			line + (skip < len ? skip : len));
	}
	fputc('\n', ctx->out);
}

/* The module after phase_name (NULL: the current one) against FILE's. 0
 * when they are the same, 1 after printing the first difference (or an
 * error). */
static int diff_module(CmdContext *ctx, const char *path, const char *phase_name)
{
	Session *s = ctx->session, scratch;
	const char *name = session_module_name(s);
	IrModule *current;
	IrEqualOptions opts = {0};
	IrDifference d;
	StrBuf label;
	char *file;
	bool loaded;
	int phase = (int)s->phases_done - 1, status = 0;
	size_t applied, total;
	if (phase_name) {
		if ((phase = cmd_find_phase(ctx, phase_name, true)) == CMD_PHASE_UNKNOWN)
			return 1;
		if (phase >= 0 && !session_phase_ran(s, phase))
			return cmd_error(ctx, "phase '%s' has not run yet; use 'step'",
					 pipeline_phases[phase].name);
	} else if (stepper_in_progress(s, &applied, &total)) {
		cmd_note(ctx,
			 "phase '%s' is in progress (event %zu of %zu) and changes the module "
			 "when it completes; this is the module after '%s'",
			 pipeline_phases[s->phases_done].name, applied, total,
			 phase >= 0 ? pipeline_phases[phase].name : "parse");
	}
	if (!(current = cmd_version(ctx, phase)))
		return 1;
	session_init_like(&scratch, s);
	file = commands_input_path(ctx, path);
	loaded = session_load_as(&scratch, file, path);
	free(file);
	if (!loaded) {
		cmd_print_diags(ctx, &scratch.diags);
		session_free(&scratch);
		return cmd_error(ctx, "could not load '%s'", path);
	}
	opts.devices_a = &s->devices;
	opts.devices_b = &scratch.devices;
	strbuf_init(&label);
	if (phase < 0)
		strbuf_printf(&label, "%s as loaded", name);
	else
		strbuf_printf(&label, "%s after %s", name, pipeline_phases[phase].name);
	if (ir_equal_modules(current, session_current(&scratch), &opts, &d)) {
		fprintf(ctx->out,
			"same module: %s and '%s' are the same graphs on the same devices\n",
			label.data, path);
	} else {
		fprintf(ctx->out, "different: A is %s, B is '%s'\n", label.data, path);
		fprintf(ctx->out, "first difference%s%s: %s\n", d.global ? ", in @" : "",
			d.global ? d.global : "", d.what);
		print_place(ctx, "A", current, d.pos_a);
		print_place(ctx, "B", session_current(&scratch), d.pos_b);
		status = 1;
	}
	strbuf_free(&label);
	session_free(&scratch);
	return status;
}

/* ---- devplan --diff-placement A.json B.json ---- */

/* Reads one placement file into p, its devices into devices; false after
 * saying on err why not. */
static bool read_placement_file(FILE *err, const char *path, Placement *p, DeviceTable *devices)
{
	char *why = NULL;
	SourceFile *src = source_read(path, &why);
	bool ok;
	if (!src) {
		fprintf(err, "devplan: %s\n", why);
		free(why);
		return false;
	}
	ok = plan_placement_read_json(src->text, src->len, p, devices, &why);
	if (!ok) {
		fprintf(err, "devplan: '%s': %s\n", path, why);
		free(why);
	}
	source_release(src);
	return ok;
}

int cmd_diff_placement_files(FILE *out, FILE *err, const char *path_a, const char *path_b)
{
	DeviceTable devices;
	Placement a, b;
	int status = 2;
	devices_init_default(&devices);
	if (read_placement_file(err, path_a, &a, &devices)) {
		if (read_placement_file(err, path_b, &b, &devices)) {
			StrBuf sb;
			strbuf_init(&sb);
			strbuf_printf(&sb, "A: %s\nB: %s\n", path_a, path_b);
			status = cmd_diff_plan_print(&sb, &a, &b, &devices) ? 1 : 0;
			if (sb.len)
				fwrite(sb.data, 1, sb.len, out);
			strbuf_free(&sb);
			plan_placement_free(&b);
		}
		plan_placement_free(&a);
	}
	devices_free(&devices);
	if (fflush(out) != 0 || ferror(out)) {
		fprintf(err, "devplan: cannot write the output\n");
		status = 2;
	}
	return status;
}

int cmd_diff(CmdContext *ctx, int argc, char **argv)
{
	if (session_relax_active(ctx->session))
		return cmd_relax_diff(ctx, argc, argv);
	Session *s = ctx->session;
	const char *name = session_module_name(s);
	bool devices = false;
	int phase = -1, status = 0;
	size_t applied, total, hunks;
	StrBuf before, after, out;
	const IrModule *m_before, *m_after;
	char *label_a, *label_b;
	if (argc > 1 && strcmp(argv[1], "--plan") == 0) {
		if (argc != 4)
			return cmd_error(ctx, "usage: diff --plan A B");
		return diff_plan(ctx, argv[2], argv[3]);
	}
	if (argc > 1 && strcmp(argv[1], "--module") == 0) {
		if (argc == 3)
			return diff_module(ctx, argv[2], NULL);
		if (argc == 5 && strcmp(argv[3], "--phase") == 0)
			return diff_module(ctx, argv[2], argv[4]);
		return cmd_error(ctx, "usage: diff --module FILE [--phase PHASE]");
	}
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--devices") == 0) {
			devices = true;
		} else if (argv[i][0] == '-') {
			return cmd_error(ctx, "unknown option '%s' for 'diff'", argv[i]);
		} else if (phase >= 0) {
			return cmd_error(ctx, "unexpected argument '%s'", argv[i]);
		} else if ((phase = cmd_find_phase(ctx, argv[i], false)) < 0) {
			return 1;
		} else if (!session_phase_ran(s, phase)) {
			return cmd_error(ctx, "phase '%s' has not run yet; use 'step'",
					 pipeline_phases[phase].name);
		}
	}
	if (phase < 0) {
		if (s->phases_done == 0)
			return cmd_error(ctx, "no phase has run yet; use 'step'");
		phase = (int)s->phases_done - 1;
		if (stepper_in_progress(s, &applied, &total))
			cmd_note(ctx,
				 "phase '%s' is in progress (event %zu of %zu) and changes the "
				 "module when it completes; this is '%s'",
				 pipeline_phases[s->phases_done].name, applied, total,
				 pipeline_phases[phase].name);
	}
	if (!(m_before = cmd_version(ctx, phase - 1)) || !(m_after = cmd_version(ctx, phase)))
		return 1;
	strbuf_init(&before);
	strbuf_init(&after);
	strbuf_init(&out);
	print_version(&before, s, m_before, false);
	print_version(&after, s, m_after, false);
	label_a = phase == 0 ? xasprintf("%s (as loaded)", name)
			     : xasprintf("%s (after %s)", name, pipeline_phases[phase - 1].name);
	label_b = xasprintf("%s (after %s)", name, pipeline_phases[phase].name);
	if (devices) {
		/* compared without the device comments: before core no line has
		 * one, after it every line does, and a device that became known
		 * is not a change (one that moved is) */
		StrBuf before_shown, after_shown;
		LinediffText a, b;
		strbuf_init(&before_shown);
		strbuf_init(&after_shown);
		print_version(&before_shown, s, m_before, true);
		print_version(&after_shown, s, m_after, true);
		a = (LinediffText){before_shown.data ? before_shown.data : "",
				   before.data ? before.data : "", before_shown.len, before.len};
		b = (LinediffText){after_shown.data ? after_shown.data : "",
				   after.data ? after.data : "", after_shown.len, after.len};
		hunks = linediff_unified_keyed(&out, &a, &b, label_a, label_b, DIFF_CONTEXT);
		strbuf_free(&before_shown);
		strbuf_free(&after_shown);
	} else {
		hunks = linediff_unified(&out, before.data ? before.data : "", before.len,
					 after.data ? after.data : "", after.len, label_a, label_b,
					 DIFF_CONTEXT);
	}
	if (hunks == 0)
		fprintf(ctx->out, "phase '%s' changed nothing\n", pipeline_phases[phase].name);
	else
		status = cmd_write(ctx, &out);
	free(label_a);
	free(label_b);
	strbuf_free(&before);
	strbuf_free(&after);
	strbuf_free(&out);
	return status;
}

void cmd_complete_diff(const Session *s, int argc, char **argv, const char *word,
		       CmdCandidates *out)
{
	if (argc >= 2 && strcmp(argv[1], "--module") == 0) {
		if (argc == 2) {
			out->files = true;
		} else if (strcmp(argv[argc - 1], "--phase") == 0) {
			cmd_complete_phases(word, true, out);
		} else if (argc == 3) {
			cmd_candidates_add(out, word, "--phase");
		}
		return;
	}
	if (argc >= 2 && strcmp(argv[1], "--plan") == 0) {
		static const char *const sides[] = {"current", "default",   "min-transfer",
						    "policy",  "fallback=", "pin",
						    "unpin"};
		for (size_t i = 0; i < DP_COUNT(sides); i++)
			cmd_candidates_add(out, word, sides[i]);
		return;
	}
	if (word[0] == '-') {
		cmd_candidates_add(out, word, "--devices");
		cmd_candidates_add(out, word, "--module");
		cmd_candidates_add(out, word, "--plan");
		return;
	}
	cmd_complete_phases(word, false, out);
}
