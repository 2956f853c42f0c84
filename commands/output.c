/*
 * output.c - the messages, lists, candidates and small helpers every
 * handler uses (output.h).
 *
 * Messages go to ctx->err after flushing ctx->out, so that the two
 * streams interleave in order; inside a script they start `FILE:LINE: `;
 * their control characters are escaped so that a message is one line of
 * plain text. Nothing here runs a command: handlers depend on this file,
 * never on the dispatcher.
 */
#include "output.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interrupt.h"
#include "path.h"
#include "plan.h"
#include "stepper.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* ---- messages ---- */

bool cmd_color(const CmdContext *ctx, FILE *stream)
{
	const char *no_color = getenv("NO_COLOR");
	int fd;
	if (no_color && *no_color)
		return false;
	switch (ctx->session->settings.color) {
	case COLOR_ON:
		return true;
	case COLOR_OFF:
		return false;
	case COLOR_AUTO:
		break;
	}
	if (stream == ctx->out && ctx->out_terminal)
		return true;
	fd = fileno(stream);
	return fd >= 0 && isatty(fd);
}

/* Appends text with its control characters (but newline and tab) written
 * as C escapes, so that a message quoting what the user typed cannot send
 * escape sequences to the terminal. */
static void put_escaped(StrBuf *sb, const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c == '\r')
			strbuf_puts(sb, "\\r");
		else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			strbuf_printf(sb, "\\x%02x", c);
		else
			strbuf_putc(sb, (char)c);
	}
}

static void cmd_vmessage(CmdContext *ctx, const char *label, const char *color, const char *fmt,
			 va_list ap)
{
	StrBuf sb, text;
	bool colored = cmd_color(ctx, ctx->err);
	strbuf_init(&sb);
	strbuf_init(&text);
	if (ctx->script)
		strbuf_printf(&sb, "%s:%lu: ", ctx->script, ctx->line);
	if (colored)
		strbuf_printf(&sb, "\033[%sm%s:\033[0m ", color, label);
	else
		strbuf_printf(&sb, "%s: ", label);
	strbuf_vprintf(&text, fmt, ap);
	put_escaped(&sb, text.data ? text.data : "", text.len);
	strbuf_putc(&sb, '\n');
	fflush(ctx->out);
	fwrite(sb.data, 1, sb.len, ctx->err);
	fflush(ctx->err);
	strbuf_free(&text);
	strbuf_free(&sb);
}

void cmd_format_bytes(char *buf, size_t size, double bytes)
{
	format_bytes_short(buf, size, bytes);
}

int cmd_error(CmdContext *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (ctx->errors_as_warnings)
		cmd_vmessage(ctx, "warning", "1;35", fmt, ap);
	else
		cmd_vmessage(ctx, "error", "1;31", fmt, ap);
	va_end(ap);
	return 1;
}

void cmd_warning(CmdContext *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cmd_vmessage(ctx, "warning", "1;35", fmt, ap);
	va_end(ap);
}

void cmd_note(CmdContext *ctx, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cmd_vmessage(ctx, "note", "1;36", fmt, ap);
	va_end(ap);
}

static void cmd_message(CmdContext *ctx, const char *label, const char *color, const char *fmt, ...)
	DP_PRINTF(4, 5);
static void cmd_message(CmdContext *ctx, const char *label, const char *color, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cmd_vmessage(ctx, label, color, fmt, ap);
	va_end(ap);
}

/* Diagnostics with a source print compiler-style (file:line:col, the line
 * and a caret); those without one are plain messages, located in the
 * script like cmd_error's. */
void cmd_print_diags(CmdContext *ctx, const DiagList *diags)
{
	StrBuf sb;
	strbuf_init(&sb);
	fflush(ctx->out);
	for (size_t i = 0; i < diags->count; i++) {
		const Diag *d = &diags->items[i];
		if (d->src) {
			strbuf_reset(&sb);
			diag_format(&sb, d);
			fwrite(sb.data, 1, sb.len, ctx->err);
			continue;
		}
		switch (d->severity) {
		case DIAG_ERROR:
			cmd_error(ctx, "%s", d->message);
			break;
		case DIAG_WARNING:
			cmd_message(ctx, "warning", "1;35", "%s", d->message);
			break;
		case DIAG_NOTE:
			cmd_message(ctx, "note", "1;36", "%s", d->message);
			break;
		}
	}
	fflush(ctx->err);
	strbuf_free(&sb);
}

IrModule *cmd_version(CmdContext *ctx, int phase)
{
	Session *s = ctx->session;
	IrModule *m;
	if (!session_phase_ran(s, phase)) {
		if (phase < 0)
			cmd_error(ctx, "no module loaded");
		else
			cmd_error(ctx, "phase '%s' has not run yet; use 'step'",
				  pipeline_phases[phase].name);
		return NULL;
	}
	m = session_version(s, phase);
	if (!m) {
		cmd_print_diags(ctx, &s->diags);
		session_clear_diags(s);
	}
	return m;
}

bool cmd_note_stopped(CmdContext *ctx)
{
	Session *s = ctx->session;
	const char *reason;
	int phase = session_failed_phase(s, &reason);
	bool check;
	StrBuf sb;
	if (phase < 0)
		return false;
	/* check's outcome depends on the policy: say which */
	check = (pipeline_phases[phase].flags & PHASE_REPORTS_CONFLICTS) != 0;
	strbuf_init(&sb);
	strbuf_printf(&sb, "planning stopped in phase '%s'", pipeline_phases[phase].name);
	if (check) {
		strbuf_printf(&sb, " (policy %s)", plan_policy_names[s->settings.policy]);
	}
	if (reason)
		strbuf_printf(&sb, ": %s", reason);
	if (check && s->trace && s->trace->nconflicts > 1)
		strbuf_printf(&sb, " (%zu conflicts in all)", s->trace->nconflicts);
	cmd_note(ctx, "%s", sb.data);
	strbuf_free(&sb);
	return true;
}

IrModule *cmd_version_analysed(CmdContext *ctx, int phase, bool *input)
{
	const char *name = phase >= 0 ? pipeline_phases[phase].name : "";
	IrModule *m;
	*input = false;
	if (phase < 0 || phase != session_failed_phase(ctx->session, NULL))
		return cmd_version(ctx, phase);
	if (!(m = cmd_version(ctx, phase - 1)))
		return NULL;
	*input = true;
	cmd_note_stopped(ctx);
	if (phase == 0)
		cmd_note(ctx,
			 "phase '%s' produced no module; this is the one it analysed, as loaded",
			 name);
	else
		cmd_note(ctx,
			 "phase '%s' produced no module; this is the one it analysed, after '%s'",
			 name, pipeline_phases[phase - 1].name);
	return m;
}

int cmd_find_phase(CmdContext *ctx, const char *name, bool parse_ok)
{
	int phase;
	if (parse_ok && strcmp(name, "parse") == 0)
		return CMD_PHASE_PARSE;
	phase = pipeline_find(name);
	if (phase < 0) {
		Suggestions near;
		StrBuf hint;
		strbuf_init(&hint);
		suggest_init(&near, name);
		if (parse_ok)
			suggest_consider(&near, "parse");
		for (size_t i = 0; i < pipeline_count; i++)
			suggest_consider(&near, pipeline_phases[i].name);
		if (!suggest_finish(&near, &hint))
			strbuf_puts(&hint, " (see 'phases')");
		cmd_error(ctx, "unknown phase '%s'%s", name, hint.data);
		strbuf_free(&hint);
		return CMD_PHASE_UNKNOWN;
	}
	return phase;
}

IrModule *cmd_phase_version(CmdContext *ctx, const char *name, int *phase, bool *input)
{
	*input = false;
	*phase = cmd_find_phase(ctx, name, true);
	if (*phase == CMD_PHASE_UNKNOWN)
		return NULL;
	return cmd_version_analysed(ctx, *phase, input);
}

void cmd_complete_phases(const char *word, bool parse_ok, CmdCandidates *out)
{
	if (parse_ok)
		cmd_candidates_add(out, word, "parse");
	for (size_t i = 0; i < pipeline_count; i++)
		cmd_candidates_add(out, word, pipeline_phases[i].name);
}

int32_t *cmd_replay_devices(CmdContext *ctx)
{
	Session *s = ctx->session;
	size_t applied, total;
	if (!stepper_in_progress(s, &applied, &total))
		return NULL;
	cmd_note(ctx,
		 "phase '%s' is in progress (event %zu of %zu): devices as bound so far, on "
		 "the module after '%s'",
		 pipeline_phases[s->phases_done].name, applied, total,
		 s->phases_done ? pipeline_phases[s->phases_done - 1].name : "parse");
	return stepper_replay_devices(s);
}

void cmd_list_init(CmdList *l, StrBuf *out, size_t column, const char *sep, const char *indent,
		   bool all)
{
	*l = (CmdList){out, sep, indent, column, 0, 0, all};
}

/* Appends text after a separator, on a new line when it would pass the
 * width. */
static void list_put(CmdList *l, const char *text)
{
	size_t len = strlen(text), sep = l->shown ? strlen(l->sep) : 0;
	if (l->shown && l->column + sep + len > CMD_LIST_WIDTH) {
		/* the separator's trailing blank would end the line */
		size_t kept = sep;
		while (kept && l->sep[kept - 1] == ' ')
			kept--;
		strbuf_append(l->out, l->sep, kept);
		strbuf_printf(l->out, "\n%s", l->indent);
		l->column = strlen(l->indent);
	} else if (l->shown) {
		strbuf_puts(l->out, l->sep);
		l->column += sep;
	}
	strbuf_puts(l->out, text);
	l->column += len;
	l->shown++;
}

void cmd_list_add(CmdList *l, const char *name)
{
	l->total++;
	if (l->all || l->shown < CMD_LIST_CAP)
		list_put(l, name);
}

void cmd_list_finish(CmdList *l)
{
	char more[64];
	if (l->shown == l->total)
		return;
	snprintf(more, sizeof more, "(+%zu more; use --all)", l->total - l->shown);
	list_put(l, more);
}

bool cmd_take_all_flag(int *argc, char **argv)
{
	for (int i = 1; i < *argc; i++) {
		if (strcmp(argv[i], "--all") == 0) {
			memmove(&argv[i], &argv[i + 1], (size_t)(*argc - i) * sizeof(char *));
			(*argc)--;
			return true;
		}
	}
	return false;
}

int cmd_write(CmdContext *ctx, const StrBuf *sb)
{
	enum { WRITE_PIECE = 65536 };
	size_t at = 0;
	while (at < sb->len) {
		size_t n = sb->len - at;
		if (at > 0 && interrupt_pending()) /* what fits one piece never stops */
			return cmd_error(ctx, "interrupted");
		if (n > WRITE_PIECE) {
			/* a piece ends at a line end when there is one */
			n = WRITE_PIECE;
			while (n > 1 && sb->data[at + n - 1] != '\n')
				n--;
			if (sb->data[at + n - 1] != '\n')
				n = WRITE_PIECE;
			fwrite(sb->data + at, 1, n, ctx->out);
			fflush(ctx->out);
		} else {
			fwrite(sb->data + at, 1, n, ctx->out);
		}
		at += n;
	}
	return 0;
}

void commands_echo_line(CmdContext *ctx, const char *line)
{
	const char *p = line;
	if (!ctx->session->settings.echo)
		return;
	while (is_blank(*p))
		p++;
	if (!*p)
		return;
	/* what the script says, its control characters escaped as in messages */
	{
		StrBuf sb;
		strbuf_init(&sb);
		put_escaped(&sb, line, strlen(line));
		fprintf(ctx->out, "%s\n", sb.data ? sb.data : "");
		strbuf_free(&sb);
	}
	fflush(ctx->out);
}

/* ---- files a command names ---- */

char *commands_input_path(const CmdContext *ctx, const char *path)
{
	char *other;
	if (!ctx->top_dir || !path[0] || path[0] == '/' || access(path, F_OK) == 0)
		return xstrdup(path);
	other = path_join(ctx->top_dir, path);
	if (access(other, F_OK) == 0)
		return other;
	free(other);
	return xstrdup(path);
}

/* ---- completion ---- */

void cmd_candidates_add(CmdCandidates *c, const char *word, const char *candidate)
{
	if (strncmp(candidate, word, strlen(word)) != 0)
		return;
	grow_array((void **)&c->items, &c->cap, c->count + 1, sizeof(char *));
	c->items[c->count++] = xstrdup(candidate);
}

void cmd_candidates_free(CmdCandidates *c)
{
	for (size_t i = 0; i < c->count; i++)
		free(c->items[i]);
	free(c->items);
	memset(c, 0, sizeof *c);
}

void cmd_complete_files(const Session *s, int argc, char **argv, const char *word,
			CmdCandidates *out)
{
	out->files = true;
}

void cmd_complete_module_names(const Session *s, const char *word, CmdCandidates *out)
{
	const IrModule *m = session_current(s);
	StrBuf sb;
	if (!m)
		return;
	strbuf_init(&sb);
	if (word[0] == '@') {
		for (uint32_t i = 0; i < m->nglobals; i++) {
			strbuf_reset(&sb);
			strbuf_printf(&sb, "@%s", m->globals[i].name);
			cmd_candidates_add(out, word, sb.data);
		}
	} else if (word[0] == '%') {
		uint8_t *seen = xcalloc(m->nexprs / 8 + 1, 1);
		ExprVec all = {0};
		for (uint32_t i = 0; i < m->nfree_vars; i++)
			ir_postorder(m, m->free_vars[i], true, seen, &all);
		for (uint32_t i = 0; i < m->nglobals; i++)
			ir_postorder(m, m->globals[i].fn, true, seen, &all);
		for (size_t i = 0; i < all.count; i++) {
			if (!all.items[i]->name)
				continue;
			strbuf_reset(&sb);
			strbuf_printf(&sb, "%%%s", all.items[i]->name);
			cmd_candidates_add(out, word, sb.data);
		}
		exprvec_free(&all);
		free(seen);
	}
	strbuf_free(&sb);
}
