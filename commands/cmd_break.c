/*
 * cmd_break.c - breakpoints and watchpoints: `break`, `tbreak`, `watch`,
 * `ignore`, `delete` and `breaks`.
 *
 * The breakpoints themselves live in the session's Stepper (core/session/stepper.h),
 * which evaluates them while `step`, `stepi` and `continue` run; these
 * handlers only parse what the user names and list what is set. Numbers
 * follow gdb: one sequence for breakpoints and watchpoints, never reused;
 * `tbreak` sets one that is deleted once it stops a run, and `ignore N
 * COUNT` lets one pass by its next COUNT stops. gdb's `condition` has no
 * counterpart: there are no expressions to test (table.c says so when
 * it is typed).
 */
#include "commands.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "session_relax.h"
#include "stepper.h"

static const char *const break_keywords[] = {"conflict", "copy"};

/* A %variable of the loaded Relax module (any function's). */
static int check_relax_value(CmdContext *ctx, const char *value)
{
	const RxModule *m = session_relax_module(ctx->session, RX_PHASE_COLLECT);
	Suggestions near;
	StrBuf hint;
	if (value[0] == '@')
		return cmd_error(
			ctx,
			"'%s': a Relax function has no vdevice of its own to stop on; name "
			"a variable (%%x), a phase, conflict or copy",
			value);
	for (uint32_t v = 0; v < m->nvars; v++)
		if (strcmp(m->vars[v]->name, value + 1) == 0)
			return 0;
	strbuf_init(&hint);
	suggest_init(&near, value);
	for (uint32_t v = 0; v < m->nvars; v++) {
		char *name = xasprintf("%%%s", m->vars[v]->name);
		suggest_consider(&near, name);
		free(name);
	}
	suggest_finish(&near, &hint);
	cmd_error(ctx, "no variable named '%s' in the module%s", value, hint.data ? hint.data : "");
	strbuf_free(&hint);
	return 1;
}

/* A %value or @global that exists in the current module (any name goes
 * while no module is loaded: it is resolved when planning runs). */
static int check_value(CmdContext *ctx, const char *value)
{
	const IrModule *m = session_current(ctx->session);
	if (!value[1])
		return cmd_error(ctx, "expected a name after '%c'", value[0]);
	if (session_relax_active(ctx->session))
		return check_relax_value(ctx, value);
	if (m && !ir_find_named(m, value)) {
		StrBuf hint;
		strbuf_init(&hint);
		ir_suggest_names(m, value, &hint);
		cmd_error(ctx, "no value named '%s' in the module%s", value,
			  hint.data ? hint.data : "");
		strbuf_free(&hint);
		return 1;
	}
	return 0;
}

/* Resolves a break location: exact phase or keyword, else a unique prefix
 * of one. Sets *phase (a pipeline index) or *keyword (an index into
 * break_keywords); 1 after an error. */
static int parse_location(CmdContext *ctx, const char *word, int *phase, int *keyword)
{
	/* the locations: the phases (a Relax module's when one is loaded),
	 * then the keywords */
	bool relax = session_relax_active(ctx->session);
	size_t nphases = relax ? RX_PHASE_COUNT : pipeline_count;
	size_t count = nphases + DP_COUNT(break_keywords);
	const char **names = xmalloc(count * sizeof(char *));
	int found;
	StrBuf list;
	for (size_t i = 0; i < nphases; i++)
		names[i] = relax ? relax_phase_names[i] : pipeline_phases[i].name;
	for (size_t k = 0; k < DP_COUNT(break_keywords); k++)
		names[nphases + k] = break_keywords[k];
	found = prefix_match(word, names, count, sizeof(char *));
	*phase = *keyword = -1;
	if (found >= 0) {
		if ((size_t)found < nphases)
			*phase = found;
		else
			*keyword = found - (int)nphases;
		free(names);
		return 0;
	}
	strbuf_init(&list);
	if (found == PREFIX_AMBIGUOUS) {
		prefix_candidates(&list, word, names, count, sizeof(char *));
		cmd_error(ctx, "ambiguous breakpoint location '%s': %s", word, list.data);
	} else {
		Suggestions near;
		suggest_init(&near, word);
		for (size_t i = 0; i < count; i++)
			suggest_consider(&near, names[i]);
		if (suggest_finish(&near, &list))
			cmd_error(ctx, "unknown breakpoint location '%s'%s", word, list.data);
		else
			cmd_error(ctx,
				  "unknown breakpoint location '%s': expected a phase (see "
				  "'phases'), %%value, @global, conflict or copy",
				  word);
	}
	strbuf_free(&list);
	free(names);
	return 1;
}

/* `break WHAT` and `tbreak WHAT`. */
static int add_break(CmdContext *ctx, const char *what, bool temporary)
{
	Stepper *st = ctx->session->stepper;
	const char *label = temporary ? "temporary breakpoint" : "breakpoint";
	int phase, keyword;
	uint32_t n;
	bool relax = session_relax_active(ctx->session);
	if (what[0] == '%' || what[0] == '@') {
		if (check_value(ctx, what))
			return 1;
		n = stepper_break_add(st, BREAK_VALUE, -1, what);
		if (relax)
			fprintf(ctx->out, "%s %u: when propagate places %s\n", label, n, what);
		else
			fprintf(ctx->out, "%s %u: when the domain of %s changes\n", label, n, what);
	} else {
		if (parse_location(ctx, what, &phase, &keyword))
			return 1;
		if (phase >= 0) {
			n = stepper_break_add(st, BREAK_PHASE, phase, NULL);
			stepper_break_find(st, n)->relax = relax;
			fprintf(ctx->out, "%s %u: before phase '%s'%s\n", label, n,
				relax ? relax_phase_names[phase] : pipeline_phases[phase].name,
				relax ? " (Relax)" : "");
		} else if (keyword == 0) {
			n = stepper_break_add(st, BREAK_CONFLICT, -1, NULL);
			fprintf(ctx->out, "%s %u: at conflicts\n", label, n);
		} else {
			n = stepper_break_add(st, BREAK_COPY, -1, NULL);
			fprintf(ctx->out, "%s %u: at inserted copies\n", label, n);
		}
	}
	stepper_break_find(st, n)->temporary = temporary;
	return 0;
}

int cmd_break(CmdContext *ctx, int argc, char **argv)
{
	return add_break(ctx, argv[1], false);
}

int cmd_tbreak(CmdContext *ctx, int argc, char **argv)
{
	return add_break(ctx, argv[1], true);
}

/* A breakpoint number as typed: 1 or more; 0 after an error. */
static uint32_t parse_number(CmdContext *ctx, const char *word)
{
	char *end;
	unsigned long v;
	errno = 0;
	v = strtoul(word, &end, 10);
	if (end == word || *end || errno || v == 0 || v > UINT32_MAX || word[0] == '-') {
		cmd_error(ctx, "invalid breakpoint number '%s'", word);
		return 0;
	}
	return (uint32_t)v;
}

int cmd_ignore(CmdContext *ctx, int argc, char **argv)
{
	uint32_t n = parse_number(ctx, argv[1]);
	Breakpoint *bp;
	char *end;
	unsigned long count;
	if (n == 0)
		return 1;
	if (!(bp = stepper_break_find(ctx->session->stepper, n)))
		return cmd_error(ctx, "no breakpoint number %u", n);
	errno = 0;
	count = strtoul(argv[2], &end, 10);
	if (end == argv[2] || *end || errno || argv[2][0] == '-')
		return cmd_error(ctx, "invalid count '%s': expected 0 or more stops to pass by",
				 argv[2]);
	if (bp->kind == BREAK_WATCH)
		return cmd_error(ctx, "watchpoint %u never stops a run: there is nothing to ignore",
				 n);
	bp->ignore = count;
	if (count == 0)
		fprintf(ctx->out, "breakpoint %u will stop the next time it is reached\n", n);
	else
		fprintf(ctx->out, "will ignore the next %lu stop%s of breakpoint %u\n", count,
			count == 1 ? "" : "s", n);
	return 0;
}

int cmd_watch(CmdContext *ctx, int argc, char **argv)
{
	const char *what = argv[1];
	uint32_t n;
	if (what[0] != '%' && what[0] != '@')
		return cmd_error(ctx, "expected a value to watch (%%name or @global), not '%s'",
				 what);
	if (check_value(ctx, what))
		return 1;
	n = stepper_break_add(ctx->session->stepper, BREAK_WATCH, -1, what);
	fprintf(ctx->out, "watchpoint %u: %s\n", n, what);
	return 0;
}

int cmd_delete(CmdContext *ctx, int argc, char **argv)
{
	Stepper *st = ctx->session->stepper;
	uint32_t *numbers;
	int status = 0;
	if (argc == 1) {
		size_t n = stepper_break_count(st);
		stepper_break_clear(st);
		if (n == 0)
			fputs("no breakpoints or watchpoints to delete\n", ctx->out);
		else
			fprintf(ctx->out, "deleted every breakpoint and watchpoint (%zu)\n", n);
		return 0;
	}
	/* check every number first, so that a typo deletes nothing */
	numbers = xmalloc((size_t)argc * sizeof(uint32_t));
	for (int i = 1; i < argc && status == 0; i++) {
		uint32_t v = parse_number(ctx, argv[i]);
		if (v == 0) {
			status = 1;
			break;
		}
		if (!stepper_break_find(st, v))
			status = cmd_error(ctx, "no breakpoint number %u", v);
		numbers[i] = v;
	}
	for (int i = 1; i < argc && status == 0; i++) {
		bool watch = false;
		for (size_t k = 0; k < stepper_break_count(st); k++)
			if (stepper_breakpoint(st, k)->number == numbers[i])
				watch = stepper_breakpoint(st, k)->kind == BREAK_WATCH;
		if (stepper_break_delete(st, numbers[i]))
			fprintf(ctx->out, "deleted %s %u\n", watch ? "watchpoint" : "breakpoint",
				numbers[i]);
	}
	free(numbers);
	return status;
}

void cmd_breaks_list(CmdContext *ctx, bool watch_only)
{
	const Stepper *st = ctx->session->stepper;
	size_t n = stepper_break_count(st), shown = 0;
	for (size_t i = 0; i < n; i++) {
		const Breakpoint *bp = stepper_breakpoint(st, i);
		const char *kind = "", *what = "";
		if (watch_only && bp->kind != BREAK_WATCH)
			continue;
		if (shown++ == 0)
			fprintf(ctx->out, "%-4s %-9s %-12s %s\n", "num", "kind", "what", "hits");
		switch (bp->kind) {
		case BREAK_PHASE:
			kind = bp->relax ? "rx-phase" : "phase";
			what = bp->relax ? relax_phase_names[bp->phase]
					 : pipeline_phases[bp->phase].name;
			break;
		case BREAK_VALUE:
			kind = "value";
			what = bp->value;
			break;
		case BREAK_CONFLICT:
			kind = "conflict";
			what = "conflicts";
			break;
		case BREAK_COPY:
			kind = "copy";
			what = "copies";
			break;
		case BREAK_WATCH:
			kind = "watch";
			what = bp->value;
			break;
		}
		fprintf(ctx->out, "%-4u %-9s %-12s %zu", bp->number, kind, what, bp->hits);
		if (bp->temporary)
			fputs("  temporary", ctx->out);
		if (bp->ignore)
			fprintf(ctx->out, "  ignores the next %zu stop%s", bp->ignore,
				bp->ignore == 1 ? "" : "s");
		fputc('\n', ctx->out);
	}
	if (shown == 0)
		fputs(watch_only ? "no watchpoints\n" : "no breakpoints or watchpoints\n",
		      ctx->out);
}

int cmd_breaks(CmdContext *ctx, int argc, char **argv)
{
	cmd_breaks_list(ctx, false);
	return 0;
}

/* cmd_complete_break on a Relax module: its %variables (watch: only
 * those), its phases and the keywords. */
static void complete_relax_break(const Session *s, bool watch, const char *word, CmdCandidates *out)
{
	const RxModule *m = session_relax_module(s, RX_PHASE_COLLECT);
	if (!word[0] || word[0] == '%')
		for (uint32_t v = 0; v < m->nvars; v++) {
			char *name = xasprintf("%%%s", m->vars[v]->name);
			cmd_candidates_add(out, word, name);
			free(name);
		}
	if (watch || word[0] == '%')
		return;
	for (size_t i = 0; i < RX_PHASE_COUNT; i++)
		cmd_candidates_add(out, word, relax_phase_names[i]);
	for (size_t k = 0; k < DP_COUNT(break_keywords); k++)
		cmd_candidates_add(out, word, break_keywords[k]);
}

void cmd_complete_break(const Session *s, int argc, char **argv, const char *word,
			CmdCandidates *out)
{
	if (argc != 1)
		return;
	if (session_relax_active(s)) {
		complete_relax_break(s, strcmp(argv[0], "watch") == 0, word, out);
		return;
	}
	if (word[0] == '%' || word[0] == '@') {
		cmd_complete_module_names(s, word, out);
		return;
	}
	if (strcmp(argv[0], "watch") == 0) {
		if (!word[0])
			cmd_complete_module_names(s, "%", out);
		return;
	}
	cmd_complete_phases(word, false, out);
	for (size_t k = 0; k < DP_COUNT(break_keywords); k++)
		cmd_candidates_add(out, word, break_keywords[k]);
}

void cmd_complete_delete(const Session *s, int argc, char **argv, const char *word,
			 CmdCandidates *out)
{
	StrBuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; i < stepper_break_count(s->stepper); i++) {
		strbuf_reset(&sb);
		strbuf_printf(&sb, "%u", stepper_breakpoint(s->stepper, i)->number);
		cmd_candidates_add(out, word, sb.data);
	}
	strbuf_free(&sb);
}

void cmd_complete_ignore(const Session *s, int argc, char **argv, const char *word,
			 CmdCandidates *out)
{
	if (argc == 1)
		cmd_complete_delete(s, argc, argv, word, out);
}
