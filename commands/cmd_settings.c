/*
 * cmd_settings.c - `set NAME VALUE` and `show [NAME]`.
 *
 * Both go through the session's settings table, which parses, validates and
 * formats every value; these handlers only resolve the name and report.
 */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

/* The setting named name (or a unique prefix), else an error listing the
 * settings name is a prefix of, or the nearest ones (`did you mean`), or
 * all of them. */
static int find_setting(CmdContext *ctx, const char *name)
{
	int i = session_setting_find(name);
	size_t matches = 0;
	StrBuf sb;
	if (i >= 0)
		return i;
	strbuf_init(&sb);
	if (name[0])
		matches = prefix_candidates(&sb, name, &session_settings[0].name,
					    session_setting_count, sizeof(SessionSetting));
	if (matches > 1) {
		cmd_error(ctx, "ambiguous setting '%s': %s", name, sb.data);
	} else {
		Suggestions near;
		strbuf_reset(&sb);
		suggest_init(&near, name);
		for (size_t k = 0; k < session_setting_count; k++)
			suggest_consider(&near, session_settings[k].name);
		if (suggest_finish(&near, &sb)) {
			cmd_error(ctx, "unknown setting '%s'%s", name, sb.data);
		} else {
			for (size_t k = 0; k < session_setting_count; k++)
				strbuf_printf(&sb, "%s%s", k ? ", " : "", session_settings[k].name);
			cmd_error(ctx, "unknown setting '%s' (settings: %s)", name, sb.data);
		}
	}
	strbuf_free(&sb);
	return -1;
}

/* `NAME  VALUE`, and `(default: X)` after a value that is not the
 * default. */
static void show_one(CmdContext *ctx, int i, size_t width)
{
	StrBuf sb;
	strbuf_init(&sb);
	session_setting_format(ctx->session, i, &sb);
	fprintf(ctx->out, "%-*s  %s", (int)width, session_settings[i].name, sb.data);
	if (!session_setting_is_default(ctx->session, i)) {
		strbuf_reset(&sb);
		session_setting_format_default(i, &sb);
		fprintf(ctx->out, "  (default: %s)", sb.data);
	}
	fputc('\n', ctx->out);
	strbuf_free(&sb);
}

int cmd_show(CmdContext *ctx, int argc, char **argv)
{
	bool changed = argc > 1 && strcmp(argv[1], "--changed") == 0;
	size_t width = 0, shown = 0;
	int i;
	if (argc > 1 && !changed) {
		if ((i = find_setting(ctx, argv[1])) < 0)
			return 1;
		show_one(ctx, i, 0);
		return 0;
	}
	for (size_t k = 0; k < session_setting_count; k++)
		if (strlen(session_settings[k].name) > width)
			width = strlen(session_settings[k].name);
	for (size_t k = 0; k < session_setting_count; k++) {
		if (changed && session_setting_is_default(ctx->session, (int)k))
			continue;
		show_one(ctx, (int)k, width);
		shown++;
	}
	if (changed && !shown)
		fputs("every setting has its default value\n", ctx->out);
	return 0;
}

int cmd_set(CmdContext *ctx, int argc, char **argv)
{
	bool reset;
	char *err;
	int i = find_setting(ctx, argv[1]);
	if (i < 0)
		return 1;
	if (!session_setting_set(ctx->session, i, argv[2], &reset, &err)) {
		cmd_error(ctx, "%s", err);
		free(err);
		return 1;
	}
	if (reset)
		fprintf(ctx->out, "%s changed: planning restarts from the module as loaded\n",
			session_settings[i].name);
	return 0;
}

static void complete_setting_names(const char *word, CmdCandidates *out)
{
	for (size_t k = 0; k < session_setting_count; k++)
		cmd_candidates_add(out, word, session_settings[k].name);
}

void cmd_complete_set(const Session *s, int argc, char **argv, const char *word, CmdCandidates *out)
{
	int i;
	if (argc == 1) {
		complete_setting_names(word, out);
		return;
	}
	if (argc != 2 || (i = session_setting_find(argv[1])) < 0)
		return;
	switch (session_settings[i].kind) {
	case SETTING_CHOICE:
	case SETTING_BOOL:
		for (int c = 0; session_settings[i].choices[c]; c++)
			cmd_candidates_add(out, word, session_settings[i].choices[c]);
		break;
	case SETTING_DEVICE:
		for (uint32_t d = 0; d < s->devices.count; d++)
			cmd_candidates_add(out, word, s->devices.items[d].name);
		break;
	case SETTING_NUMBER:
		break;
	case SETTING_BYTES:
		cmd_candidates_add(out, word, "auto");
		break;
	}
}

void cmd_complete_show(const Session *s, int argc, char **argv, const char *word,
		       CmdCandidates *out)
{
	if (argc == 1) {
		complete_setting_names(word, out);
		cmd_candidates_add(out, word, "--changed");
	}
}
