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
 * the same session. commands_execute_line feeds both (dispatch.c).
 *
 * A recorded line is made to replay anywhere: the recording runs in its own
 * folder (as every script does), so a file inside that folder is written
 * relative to it, a file read from outside it absolute, and a file
 * written outside it goes into the folder under its own name
 * (RecordPaths keeps what each such file became, so that a later command
 * reading it reads the replay's). The replay then writes only inside the
 * recording's folder, wherever that is moved, and never where the
 * session wrote outside it. `cd` is not recorded: every path written
 * stands on its own. A command that failed is written `-CMD`, which the
 * script runner runs without counting its failure (so a `-b` replay goes
 * on past it, as make goes on past `-cmd`).
 *
 * A recording is written with file_write.h's writer: each line goes to a
 * temporary file beside FILE in one
 * checked write, and `record off` (or the end of the session) syncs it and
 * renames it over FILE. FILE is therefore either as it was or a complete
 * recording, never a recording cut off inside a line that a replay would
 * run; a write that fails stops the recording at once with an error and
 * leaves FILE as it was.
 */
#include "dispatch.h"

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

/* ---- where a recording's files are ---- */

/* A file the session wrote while recording, and what the recording names
 * it. */
typedef struct RecordedFile {
	char *path; /* absolute */
	char *word;
} RecordedFile;

/* The folder a recording replays in, and what each file the session wrote
 * became in it. */
typedef struct RecordPaths {
	char *dir;  /* the recording's folder, absolute */
	char *self; /* the recording's own name in it */
	RecordedFile *items;
	size_t count, cap;
} RecordPaths;

static void record_paths_begin(CmdContext *ctx, const char *file)
{
	char *cwd = path_current_dir();
	char *path = cwd ? path_join(cwd, file) : NULL;
	RecordPaths *r;
	free(cwd);
	cmd_record_forget(ctx);
	if (!path)
		return; /* lines are then written as typed */
	r = xcalloc(1, sizeof *r);
	r->dir = path_dirname(path);
	r->self = xstrdup(path_basename(path));
	free(path);
	ctx->record_paths = r;
}

static const char *record_word_of(const RecordPaths *r, const char *path)
{
	for (size_t i = 0; i < r->count; i++)
		if (strcmp(r->items[i].path, path) == 0)
			return r->items[i].word;
	return NULL;
}

/* Whether name (in the recording's folder) stands for another file: one
 * the recording already names so, the recording itself, or a file there. */
static bool record_name_taken(const RecordPaths *r, const char *name)
{
	char *there;
	bool taken = strcmp(name, r->self) == 0;
	for (size_t i = 0; i < r->count && !taken; i++)
		taken = strcmp(r->items[i].word, name) == 0;
	if (taken)
		return true;
	there = path_join(r->dir, name);
	taken = access(there, F_OK) == 0;
	free(there);
	return taken;
}

/* A name in the recording's folder for a file written outside it: its
 * own, or NAME-2.EXT, NAME-3.EXT, ... when that stands for another. */
static char *record_outside_name(const RecordPaths *r, const char *path)
{
	const char *base = path_basename(path);
	const char *dot = strrchr(base, '.');
	size_t stem = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	char *name = xstrdup(base);
	for (int k = 2; record_name_taken(r, name); k++) {
		free(name);
		name = xasprintf("%.*s-%d%s", (int)stem, base, k, base + stem);
	}
	return name;
}

typedef struct RecordMap {
	RecordPaths *paths;
	const CmdHistoryLine *line;
} RecordMap;

static bool is_cd(const char *line)
{
	int argc;
	char **argv, *err;
	bool ambiguous, cd;
	const Command *cmd;
	if (!commands_split(line, &argc, &argv, &err)) {
		free(err);
		return false;
	}
	cmd = argc > 0 ? commands_find(argv[0], &ambiguous) : NULL;
	cd = cmd && cmd->handler == cmd_cd;
	commands_free_words(argc, argv);
	return cd;
}

/* CmdPathMap for a recorded line (see the top of the file): NULL keeps the
 * word as typed, when it already says what it should. */
static char *record_map(void *arg, const CmdPathWord *w, const char *typed)
{
	RecordMap *m = arg;
	RecordPaths *r = m->paths;
	char *path = commands_path_resolve(w, typed, m->line->dir, m->line->top);
	const char *known = record_word_of(r, path);
	char *word, *as_typed;
	if (known)
		word = xstrdup(known);
	else if (path_is_within(r->dir, path))
		word = path_relative(r->dir, path);
	else if (w->role == CMD_PATH_INPUT || w->role == CMD_PATH_DIRECTORY)
		word = xstrdup(path);
	else
		word = record_outside_name(r, path);
	if (!known && w->role != CMD_PATH_INPUT && w->role != CMD_PATH_DIRECTORY) {
		grow_array((void **)&r->items, &r->cap, r->count + 1, sizeof *r->items);
		r->items[r->count].path = path;
		r->items[r->count++].word = xstrdup(word);
	} else {
		free(path);
	}
	as_typed = path_normalize(typed);
	if (strcmp(as_typed, word) == 0) {
		free(word);
		word = NULL;
	}
	free(as_typed);
	return word;
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
		cmd_record_forget(ctx);
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
			   "# from any folder: they run in this file's folder, and every file\n"
			   "# they write goes there (one the session wrote elsewhere under its\n"
			   "# own name). A line starting with '-' failed when recorded: a\n"
			   "# replay runs it and goes on.\n",
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
	record_paths_begin(ctx, argv[1]);
	fprintf(ctx->out, "recording commands to '%s'\n", argv[1]);
	return 0;
}

/* Writes the line with one checked write, so that the file never holds
 * part of a line. A failed write stops the recording at once: the
 * temporary file goes and the record file is left as it was. */
bool cmd_record_line(CmdContext *ctx)
{
	const CmdHistoryLine *h = &ctx->history[ctx->nhistory - 1];
	RecordMap map = {ctx->record_paths, h};
	char *mapped, *text, *err;
	bool ok;
	if (is_cd(h->line))
		return true; /* every path recorded stands on its own */
	mapped = h->dir && map.paths ? commands_map_paths(h->line, record_map, &map) : NULL;
	/* a failed command is marked `-`: a replay runs it and goes on */
	text = commands_recorded_line(h->line, mapped, h->failed);
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
	RecordPaths *r = ctx->record_paths;
	if (!r)
		return;
	for (size_t i = 0; i < r->count; i++) {
		free(r->items[i].path);
		free(r->items[i].word);
	}
	free(r->items);
	free(r->dir);
	free(r->self);
	free(r);
	ctx->record_paths = NULL;
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
