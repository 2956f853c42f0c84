/*
 * cmd_script.c - scripting and housekeeping: `echo`, `source`, `record`,
 * `history`, `cd`, `pwd` and `quit`.
 *
 * `source` is the same runner that -x and standard input use
 * (commands_run_stream), so a script behaves the same wherever it comes
 * from; nesting is bounded and errors inside name the inner file and line.
 * A script runs in its own folder (commands_run_script), so that it and
 * the files it names can be moved together; `cd` inside one lasts until it
 * ends, and `cd` at the prompt moves devplan itself.
 * History and recording both see the command lines run at the top level
 * (typed, -c, -x, standard input), never the lines inside a sourced file:
 * the `source` line itself stands for them, so a recorded script replays
 * the same session. commands_execute_line feeds both (commands.c).
 *
 * A recorded line is made to replay anywhere: its file arguments are made
 * absolute (commands_absolute_paths), and a command that failed is written
 * `-CMD`, which the script runner runs without counting its failure (so a
 * `-b` replay goes on past it, as make goes on past `-cmd`).
 *
 * A recording is written with file_write.h's writer: each line goes to a
 * temporary file beside FILE in one
 * checked write, and `record off` (or the end of the session) syncs it and
 * renames it over FILE. FILE is therefore either as it was or a complete
 * recording, never a recording cut off inside a line that a replay would
 * run; a write that fails stops the recording at once with an error and
 * leaves FILE as it was.
 */
#include "commands.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "path.h"

int cmd_echo(CmdContext *ctx, int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		fprintf(ctx->out, "%s%s", i > 1 ? " " : "", argv[i]);
	fputc('\n', ctx->out);
	return 0;
}

int cmd_source(CmdContext *ctx, int argc, char **argv)
{
	char *path = commands_input_path(ctx, argv[1]);
	int status;
	ctx->sourcing++;
	status = commands_run_script(ctx, path);
	ctx->sourcing--;
	free(path);
	return status;
}

int cmd_quit(CmdContext *ctx, int argc, char **argv)
{
	ctx->quit = true;
	return 0;
}

int cmd_cd(CmdContext *ctx, int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : getenv("HOME");
	if (!dir || !*dir)
		return cmd_error(ctx, "'cd' needs a folder: HOME is not set");
	if (chdir(dir) != 0)
		return cmd_error(ctx, "cannot change to '%s': %s", dir, strerror(errno));
	return 0;
}

int cmd_pwd(CmdContext *ctx, int argc, char **argv)
{
	char *dir = path_current_dir();
	if (!dir)
		return cmd_error(ctx, "cannot tell the current folder: %s", strerror(errno));
	fprintf(ctx->out, "%s\n", dir);
	free(dir);
	return 0;
}

int cmd_record(CmdContext *ctx, int argc, char **argv)
{
	FileWriter *f;
	char *header, *err;
	bool ok;
	if (argc == 1) {
		if (ctx->record)
			fprintf(ctx->out, "recording to '%s' (%zu command%s so far)\n",
				file_path(ctx->record), ctx->recorded,
				ctx->recorded == 1 ? "" : "s");
		else
			fputs("not recording\n", ctx->out);
		return 0;
	}
	if (strcmp(argv[1], "off") == 0) {
		char *path;
		size_t n = ctx->recorded;
		if (!ctx->record)
			return cmd_error(ctx, "not recording");
		path = xstrdup(file_path(ctx->record));
		ok = file_commit(ctx->record, &err);
		ctx->record = NULL;
		if (!ok) {
			cmd_error(ctx, "%s; '%s' is left as it was", err, path);
			free(err);
			free(path);
			return 1;
		}
		fprintf(ctx->out, "stopped recording to '%s' (%zu command%s)\n", path, n,
			n == 1 ? "" : "s");
		free(path);
		return 0;
	}
	if (ctx->record)
		return cmd_error(ctx, "already recording to '%s'; use 'record off' first",
				 file_path(ctx->record));
	f = file_begin(argv[1], &err);
	if (!f) {
		cmd_error(ctx, "%s", err);
		free(err);
		return 1;
	}
	header = xasprintf("# devplan commands recorded with 'record'; replay them with\n"
			   "#     devplan -x %s    (or 'source %s' at the prompt)\n"
			   "# A line starting with '-' failed when recorded: a replay runs it\n"
			   "# and goes on.\n",
			   argv[1], argv[1]);
	ok = file_write(f, header, strlen(header), &err);
	free(header);
	if (!ok) {
		cmd_error(ctx, "%s", err);
		free(err);
		file_abort(f);
		return 1;
	}
	ctx->record = f;
	ctx->recorded = 0;
	fprintf(ctx->out, "recording commands to '%s'\n", argv[1]);
	return 0;
}

/* record's map: every path absolute, against the folder the line ran in */
static char *absolute_map(void *arg, const CmdPathWord *w, const char *typed)
{
	const CmdHistoryLine *h = arg;
	if (typed[0] == '/' || !h->dir)
		return NULL;
	return commands_path_resolve(w, typed, h->dir, h->top);
}

/* Writes the line with one checked write, so that the file never holds
 * part of a line. A failed write stops the recording at once: the
 * temporary file goes and the record file is left as it was. */
bool cmd_record_line(CmdContext *ctx)
{
	const CmdHistoryLine *h = &ctx->history[ctx->nhistory - 1];
	char *mapped = commands_map_paths(h->line, absolute_map, (void *)h);
	char *text, *err;
	bool ok;
	/* a failed command is marked `-`: a replay runs it and goes on */
	text = xasprintf("%s%s\n", h->failed ? "-" : "", mapped ? mapped : h->line);
	free(mapped);
	ok = file_write(ctx->record, text, strlen(text), &err);
	free(text);
	if (!ok) {
		cmd_error(ctx, "%s; recording stopped, '%s' is left as it was", err,
			  file_path(ctx->record));
		free(err);
		file_abort(ctx->record);
		ctx->record = NULL;
		cmd_record_forget(ctx);
		return false;
	}
	ctx->recorded++;
	return true;
}

void cmd_record_forget(CmdContext *ctx)
{
	(void)ctx;
}

void cmd_complete_record(const Session *s, int argc, char **argv, const char *word,
			 CmdCandidates *out)
{
	if (argc != 1)
		return;
	cmd_candidates_add(out, word, "off");
	out->files = true;
}

int cmd_history(CmdContext *ctx, int argc, char **argv)
{
	size_t first = 0;
	if (argc > 1) {
		char *end;
		long v;
		errno = 0;
		v = strtol(argv[1], &end, 10);
		if (end == argv[1] || *end || errno || v <= 0)
			return cmd_error(ctx, "invalid count '%s': expected a positive number",
					 argv[1]);
		if ((size_t)v < ctx->nhistory)
			first = ctx->nhistory - (size_t)v;
	}
	for (size_t i = first; i < ctx->nhistory; i++)
		fprintf(ctx->out, "%5zu  %s\n", i + 1, ctx->history[i].line);
	return 0;
}
