/*
 * output.h - what every handler writes with: the context the shell hands
 * it, messages, lists, candidates and the helpers commands share.
 *
 * Handlers include this (through commands.h) and never the dispatcher
 * (dispatch.h), except the few that run other commands. They write only
 * to ctx->out (results) and ctx->err (errors, through cmd_error and
 * friends, which flush ctx->out first so that the two streams interleave
 * in order when both go to one file). They return 0 on success and 1 on
 * failure.
 *
 * Ownership: CmdCandidates own their strings; a CmdList appends to a
 * StrBuf its caller owns.
 */
#ifndef DEVPLAN_OUTPUT_H
#define DEVPLAN_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "file_write.h"
#include "session.h"
#include "util.h"

/* What the shell hands every command. */
typedef struct CmdContext {
	Session *session;
	FILE *out;          /* command output */
	FILE *err;          /* errors, warnings and diagnostics */
	bool batch;         /* -b: a failing command stops every script */
	bool interactive;   /* commands come from a person at a terminal */
	bool out_terminal;  /* out reaches a terminal through a stream of the
			       shell's (the pager), which has no descriptor */
	const char *script; /* the script being run (errors say FILE:LINE:) */
	unsigned long line; /* the line of script being run */
	int depth;          /* script nesting (-x, `source`) */
	int sourcing;       /* `source` nesting: lines run inside a sourced
			       file are not history and are not recorded */
	bool quit;          /* set by `quit`: stop reading commands */
	/* command lines run at the top level, in order */
	struct CmdHistoryLine *history;
	size_t nhistory, cap_history;
	/* Scripts run in their own folder (commands_run_script): the folders
	 * to go back to when each running script ends, innermost last, as
	 * descriptors (owned), and the folder of the top level, where an input
	 * a script names is looked for when it is not beside the script
	 * (commands_input_path); NULL outside scripts (owned). */
	int *return_dirs;
	size_t nreturn_dirs, cap_return_dirs;
	char *top_dir;
	/* Where the session's module came from, for `bugreport`: set by each
	 * successful `load` (not `reload`), which resets planning. */
	bool loaded;
	size_t load_history;           /* history lines up to and including
					   that load; the commands after it
					   are history[load_history...] */
	SessionSettings load_settings; /* the settings when it ran */
	DeviceTable load_devices;      /* the device table then (owned; empty
					  before any load) */
	PinSet load_pins;              /* the pins it kept (loading the same
					  file again keeps them; owned) */
	FileWriter *record;            /* `record FILE`: where those lines are written (its
			       temporary file, renamed over FILE when the
			       recording stops), NULL when not recording */
	size_t recorded;               /* lines written to it */
	/* where the recording's paths lead (cmd_script.c), NULL when none */
	struct RecordPaths *record_paths;
	bool errors_as_warnings; /* the init file runs: its failures are
				    reported as warnings and do not count
				    (gdb reports a bad .gdbinit and goes on) */
} CmdContext;

/* A command line run at the top level (typed, -c, -x, standard input), as
 * `history` lists it, with what a replay needs to find its files again. */
typedef struct CmdHistoryLine {
	char *line;  /* as typed, trailing blanks dropped (owned) */
	bool failed; /* its command failed */
	char *dir;   /* the folder it ran in, absolute (owned; NULL: unknown) */
	char *top;   /* the top level's folder then (commands_input_path's
			 second place; owned; NULL: unknown) */
} CmdHistoryLine;

/* Completion candidates for the word being typed. */
typedef struct CmdCandidates {
	char **items;
	size_t count;
	size_t cap;
	bool files; /* the word is a file name: complete paths instead */
} CmdCandidates;

/* Adds candidate when it starts with word (a copy is kept). */
void cmd_candidates_add(CmdCandidates *c, const char *word, const char *candidate);
void cmd_candidates_free(CmdCandidates *c);

/* Messages: `error: ...` (with `FILE:LINE: ` inside a script) on ctx->err,
 * coloured when cmd_color allows; `warning: ...` for an error while
 * ctx->errors_as_warnings. cmd_error returns 1 for `return
 * cmd_error(...)`. */
int cmd_error(CmdContext *ctx, const char *fmt, ...) DP_PRINTF(2, 3);
void cmd_warning(CmdContext *ctx, const char *fmt, ...) DP_PRINTF(2, 3);
void cmd_note(CmdContext *ctx, const char *fmt, ...) DP_PRINTF(2, 3);
/* bytes as "420 B", "1.5 KiB", "2.0 GiB" (powers of 1024) into buf. */
void cmd_format_bytes(char *buf, size_t size, double bytes);
/* Prints the session's diagnostics on ctx->err. */
void cmd_print_diags(CmdContext *ctx, const DiagList *diags);
/* The module as of after pipeline phase `phase` (-1: as loaded), which the
 * session recomputes if it let that version go; NULL after reporting why
 * not (the phase has not run, or the recomputation was interrupted). */
IrModule *cmd_version(CmdContext *ctx, int phase);
/* After a phase failed (session_failed_phase), one note: planning stopped
 * in that phase, under which policy for check, and its first error. The
 * commands that answer from what the failed phase recorded print it first.
 * Returns false, printing nothing, when no phase failed. */
bool cmd_note_stopped(CmdContext *ctx);
/* cmd_version, except for the phase where planning stopped, which made no
 * module: then its input, the module its analysis is about, after
 * cmd_note_stopped and a note saying so, with *input set. */
IrModule *cmd_version_analysed(CmdContext *ctx, int phase, bool *input);
/* The phase a command's argument names: a phase of the pipeline by name or
 * unique prefix, or, with parse_ok, `parse` for the module as loaded
 * (CMD_PHASE_PARSE). CMD_PHASE_UNKNOWN after reporting an unknown phase. */
enum { CMD_PHASE_PARSE = -1, CMD_PHASE_UNKNOWN = -2 };
int cmd_find_phase(CmdContext *ctx, const char *name, bool parse_ok);
/* The version `--phase NAME` names (`parse` included), as
 * cmd_version_analysed gives it; *phase gets the phase (CMD_PHASE_PARSE for
 * the module as loaded). NULL after reporting why there is none. */
IrModule *cmd_phase_version(CmdContext *ctx, const char *name, int *phase, bool *input);
/* Completion of a phase name, and of `parse` too when parse_ok. */
void cmd_complete_phases(const char *word, bool parse_ok, CmdCandidates *out);
/* While a phase is in progress under stepi: a note saying so, and the
 * devices its replay has bound so far (stepper_replay_devices), which
 * `ir --devices` and `render` show on the current module, the phase's
 * input. NULL, printing nothing, when no phase is in progress. The caller
 * frees the array. */
int32_t *cmd_replay_devices(CmdContext *ctx);
/* The analysis `why` and `constraints` read: the replay of a phase in
 * progress, else core's once it ran (or failed), else check's; NULL before
 * check. Prints nothing; owned by the session. */
struct PlanAnalysis *cmd_analysis(CmdContext *ctx);
/* Whether to colour what goes to stream: never with NO_COLOR or `set color
 * off`, always with `set color on`, else only on a terminal. */
bool cmd_color(const CmdContext *ctx, FILE *stream);
/* Writes a StrBuf to ctx->out 64 KiB at a time, polling for Ctrl-C between
 * pieces (a slow terminal takes long to show a big module); 0, or 1 after
 * reporting "interrupted" with the rest left unwritten. */
int cmd_write(CmdContext *ctx, const StrBuf *sb);

/*
 * A long list of names (a region's operators, a class's members): wrapped
 * before column CMD_LIST_WIDTH onto lines that start with `indent`, and,
 * unless `all`, cut after CMD_LIST_CAP names with `(+N more; use --all)`,
 * so that a million names neither make one line nor flood the terminal.
 */
enum { CMD_LIST_WIDTH = 80, CMD_LIST_CAP = 40 };
typedef struct CmdList {
	StrBuf *out;        /* appended to */
	const char *sep;    /* between names: ", " or " " */
	const char *indent; /* starts each continuation line */
	size_t column;      /* of the end of out's last line */
	size_t shown, total;
	bool all;
} CmdList;
/* Starts a list at column `column` of the line out ends with. */
void cmd_list_init(CmdList *l, StrBuf *out, size_t column, const char *sep, const char *indent,
		   bool all);
void cmd_list_add(CmdList *l, const char *name);
/* Appends `(+N more; use --all)` when names were left out. */
void cmd_list_finish(CmdList *l);
/* Whether argv holds `--all`, which it then removes (argc shrinks). */
bool cmd_take_all_flag(int *argc, char **argv);

/* With `set echo on`, prints a script or -c line that is not blank. */
void commands_echo_line(CmdContext *ctx, const char *line);
/* The file a command means by an input path: path itself when it is
 * absolute or names a file from the current folder (a script's own
 * folder, inside a script), else, inside a script, the top level's file of
 * that name when there is one (so a script run from elsewhere still finds
 * the files of the folder devplan runs in). The caller frees the result. */
char *commands_input_path(const CmdContext *ctx, const char *path);

/* Shared completers. */
void cmd_complete_files(const Session *s, int argc, char **argv, const char *word,
			CmdCandidates *out);
/* `@globals` and `%names` of the current module, by the word's first byte. */
void cmd_complete_module_names(const Session *s, const char *word, CmdCandidates *out);

#endif
