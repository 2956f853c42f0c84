/*
 * dispatch.h - running command lines: the dispatcher, scripts, the words
 * of a line that name files, and completion.
 *
 * The dispatcher resolves a name in commands_table (commands.h), checks
 * the argument count and the flags from its row, and only then calls the
 * handler, so handlers never repeat those checks. The shell (repl/), the
 * tests and the few commands that run other commands (source, info, the
 * captures of bugreport and reduce) include this; other handlers need only
 * commands.h.
 *
 * Ownership: argv strings belong to the dispatcher and live until the
 * handler returns; returned strings and arrays are the caller's to free.
 */
#ifndef DEVPLAN_DISPATCH_H
#define DEVPLAN_DISPATCH_H

#include <stdbool.h>
#include <stdio.h>

#include "commands.h"
#include "words.h"

/* Initialises a context with everything off and no script. */
void cmd_context_init(CmdContext *ctx, Session *session, FILE *out, FILE *err);
/* Finishes a recording in progress (as `record off`) and frees the
 * history. 1 when the record file could not be written (reported), else 0. */
int cmd_context_free(CmdContext *ctx);

/* What a word of a command line names on the file system. */
typedef enum CmdPathRole {
	CMD_PATH_INPUT,      /* a file the command reads */
	CMD_PATH_OUTPUT,     /* a file it writes */
	CMD_PATH_OUTPUT_DIR, /* a folder it creates and writes into */
	CMD_PATH_DIRECTORY,  /* the folder `cd` goes to */
} CmdPathRole;

/* One word of a command line that names a file. */
typedef struct CmdPathWord {
	int word;      /* its index in argv */
	size_t offset; /* where the path starts in it (after NAME= of an input) */
	CmdPathRole role;
} CmdPathWord;

/* Runs one command line; blank and comment lines succeed. 0 or 1. Outside
 * a sourced file, a line with a command is added to the history and, while
 * recording, written to the record file (except `record` itself). */
int commands_execute_line(CmdContext *ctx, const char *line);
/* The words of a split command line (argv[0] its command as typed) that
 * name files or folders, in order, *n of them (the caller frees the
 * array; NULL when none or the command is unknown): load, source, save,
 * render, bugreport and cd's arguments, run, compare and profile's
 * NAME=FILE.npy, the files after run --output and --dump, reduce -o,
 * render --html, compare --expect, diff --module, and reduce's `script
 * FILE`. `-` (standard output), an empty word and a `random` input are
 * not files. */
CmdPathWord *commands_path_words(int argc, char **argv, size_t *n);
/* Where path word w of a line that ran in folder dir (top: the top
 * level's folder then, for an input not beside a script) led: normal and
 * absolute, as commands_input_path would have found an input. */
char *commands_path_resolve(const CmdPathWord *w, const char *typed, const char *dir,
			    const char *top);
/* Maps a path word to what a replay should name instead: a new string, or
 * NULL to keep it as typed. */
typedef char *(*CmdPathMap)(void *arg, const CmdPathWord *w, const char *typed);
/* line with its path words (commands_path_words) put through map. An
 * unchanged line comes back as it was, a changed one with its words
 * requoted (a trailing comment dropped), and so does one that holds a
 * control character (commands_script_line); a `load` whose file changed and
 * that has no --as gets `--as FILE` as typed, so that the replay names the
 * module as the session did. NULL when the line names no command or does
 * not split. The caller frees the result. */
char *commands_map_paths(const char *line, CmdPathMap map, void *arg);
/* Runs one split command (argv[0] as typed, argv[argc] NULL). 0 or 1. */
int commands_execute_argv(CmdContext *ctx, int argc, char **argv);
/* Runs each line of in as a command, naming it `name` in errors. Stops at
 * `quit`, at an interrupt, and at the first failure when ctx->batch or the
 * errexit setting is on. Returns 1 if any command failed. */
int commands_run_stream(CmdContext *ctx, FILE *in, const char *name);
/* commands_run_stream of a file; failing to open it is an error. */
int commands_run_script(CmdContext *ctx, const char *path);

/* Completion of the word starting at byte `start` of line (the words before
 * it decide what is completed). Candidates come sorted and unique. */
void commands_complete(const Session *s, const char *line, size_t start, const char *word,
		       CmdCandidates *out);

/* Runs one split command (argv[argc] NULL) on session in a context of its
 * own, one script level below ctx's (so that `source` nesting stays
 * bounded), in batch, neither history nor recorded, and appends what it
 * prints (output and errors, in order) to out; the command's status. For
 * what a command asks of another session (bugreport's scratch plan,
 * reduce's candidates). */
int cmd_capture(const CmdContext *ctx, Session *session, int argc, char **argv, StrBuf *out);

#endif
