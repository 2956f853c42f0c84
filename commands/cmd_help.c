/*
 * cmd_help.c - `help` and `apropos`, generated from the command table.
 *
 * Nothing here is written twice: the list comes from each row's name and
 * summary, `help CMD` from its usage, help text and aliases, the settings
 * list of `help set` from session_settings, and `apropos` searches the
 * same rows.
 */
#include "commands.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static void help_list(CmdContext *ctx)
{
	size_t width = 0;
	for (size_t i = 0; i < commands_count; i++)
		if (strlen(commands_table[i].name) > width)
			width = strlen(commands_table[i].name);
	fputs("Commands (any unique prefix of a name works too):\n", ctx->out);
	for (size_t i = 0; i < commands_count; i++)
		fprintf(ctx->out, "  %-*s  %s\n", (int)width, commands_table[i].name,
			commands_table[i].summary);
	fputs("Type 'help CMD' for a command's usage and details.\n", ctx->out);
}

static void help_settings(CmdContext *ctx)
{
	size_t width = 0;
	for (size_t i = 0; i < session_setting_count; i++)
		if (strlen(session_settings[i].name) > width)
			width = strlen(session_settings[i].name);
	fputs("Settings:\n", ctx->out);
	for (size_t i = 0; i < session_setting_count; i++) {
		const SessionSetting *s = &session_settings[i];
		fprintf(ctx->out, "  %-*s  ", (int)width, s->name);
		switch (s->kind) {
		case SETTING_CHOICE:
		case SETTING_BOOL:
			for (int c = 0; s->choices[c]; c++)
				fprintf(ctx->out, "%s%s", c ? "|" : "", s->choices[c]);
			break;
		case SETTING_DEVICE:
			fputs("KIND:ID", ctx->out);
			break;
		case SETTING_NUMBER:
			fputs("NUMBER", ctx->out);
			break;
		case SETTING_BYTES:
			fputs("BYTES|auto", ctx->out);
			break;
		}
		fprintf(ctx->out, "\n  %-*s    %s\n", (int)width, "", s->summary);
	}
}

int cmd_help(CmdContext *ctx, int argc, char **argv)
{
	const Command *cmd;
	bool ambiguous;
	if (argc == 1) {
		help_list(ctx);
		return 0;
	}
	cmd = commands_find(argv[1], &ambiguous);
	if (!cmd)
		return cmd_unknown_command(ctx, argv[1], ambiguous);
	fprintf(ctx->out, "usage: %s\n%s\n", cmd->usage, cmd->help);
	if (cmd->flags & CMD_LISTS_SETTINGS)
		help_settings(ctx);
	if (cmd->aliases[0]) {
		fputs("aliases:", ctx->out);
		for (size_t a = 0; a < DP_COUNT(cmd->aliases) && cmd->aliases[a]; a++)
			fprintf(ctx->out, "%s %s", a ? "," : "", cmd->aliases[a]);
		fputc('\n', ctx->out);
	}
	return 0;
}

/* Whether text contains word, ignoring ASCII case. */
static bool mentions(const char *text, const char *word)
{
	size_t n = strlen(word);
	if (!text)
		return false;
	for (; *text; text++) {
		size_t i = 0;
		while (i < n && text[i] &&
		       tolower((unsigned char)text[i]) == tolower((unsigned char)word[i]))
			i++;
		if (i == n)
			return true;
	}
	return false;
}

int cmd_apropos(CmdContext *ctx, int argc, char **argv)
{
	StrBuf word;
	size_t width = 0, found = 0;
	bool *match = xcalloc(commands_count, sizeof(bool));
	strbuf_init(&word);
	for (int i = 1; i < argc; i++)
		strbuf_printf(&word, "%s%s", i > 1 ? " " : "", argv[i]);
	for (size_t i = 0; i < commands_count; i++) {
		const Command *c = &commands_table[i];
		match[i] = mentions(c->name, word.data) || mentions(c->usage, word.data) ||
			   mentions(c->summary, word.data) || mentions(c->help, word.data);
		for (size_t a = 0; a < DP_COUNT(c->aliases) && c->aliases[a]; a++)
			match[i] = match[i] || strcmp(c->aliases[a], word.data) == 0;
		if (match[i] && strlen(c->name) > width)
			width = strlen(c->name);
	}
	for (size_t i = 0; i < commands_count; i++) {
		if (!match[i])
			continue;
		found++;
		fprintf(ctx->out, "  %-*s  %s\n", (int)width, commands_table[i].name,
			commands_table[i].summary);
	}
	if (!found)
		fprintf(ctx->out, "no command mentions '%s'\n", word.data);
	strbuf_free(&word);
	free(match);
	return 0;
}
