/*
 * commands.h - the command table, its dispatcher and the script runner.
 *
 * Every command is one row of commands_table (commands.c), in alphabetical
 * order: {name, aliases, min/max args, flags, usage, summary, help, handler,
 * completer}. The dispatcher resolves a name (exact name, alias, or unique
 * prefix of a name), checks the argument count and the flags from the row,
 * and only then calls the handler, so handlers never repeat those checks.
 * `help`, tab completion and USAGE.md (checked by tests/test_commands.c) are
 * generated from or compared with the same table.
 *
 * Handlers write only to ctx->out (results) and ctx->err (errors, through
 * cmd_error and friends, which flush ctx->out first so that the two streams
 * interleave in order when both go to one file). They return 0 on success
 * and 1 on failure.
 *
 * Ownership: the table is static; argv strings belong to the dispatcher and
 * live until the handler returns; CmdCandidates own their strings.
 */
#ifndef DEVPLAN_COMMANDS_H
#define DEVPLAN_COMMANDS_H

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

/* The version `devplan --version` prints. */
#ifndef DEVPLAN_VERSION
#define DEVPLAN_VERSION "0.1.0"
#endif

/* Initialises a context with everything off and no script. */
void cmd_context_init(CmdContext *ctx, Session *session, FILE *out, FILE *err);
/* Finishes a recording in progress (as `record off`) and frees the
 * history. 1 when the record file could not be written (reported), else 0. */
int cmd_context_free(CmdContext *ctx);

enum {
	CMD_NEEDS_MODULE = 1 << 0,   /* refuse to run without a loaded module */
	CMD_NEEDS_PLAN = 1 << 1,     /* refuse to run before every phase ran */
	CMD_LISTS_SETTINGS = 1 << 2, /* `help CMD` appends the settings list */
	/* which words name files (commands_path_words), beside the options
	 * that take a file (run --output and --dump, reduce -o, render --html,
	 * compare --expect, diff --module, reduce's `script FILE`) */
	CMD_READS_FILES = 1 << 3,  /* its other arguments are files it reads */
	CMD_WRITES_FILES = 1 << 4, /* its other arguments are files it writes */
	CMD_WRITES_DIR = 1 << 5,   /* its argument is a folder it creates */
	CMD_INPUT_ARGS = 1 << 6,   /* its NAME=FILE arguments name input files */
	CMD_DIR_ARG = 1 << 7,      /* its argument is the folder it goes to */
};

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

/* argv[0] is the command's full name; argv[1..argc-1] its arguments. */
typedef int (*CmdHandler)(CmdContext *ctx, int argc, char **argv);
/* argv[0..argc-1]: the words before the one being completed (argv[0] the
 * command's full name); word: what has been typed of the current one. */
typedef void (*CmdCompleter)(const Session *s, int argc, char **argv, const char *word,
			     CmdCandidates *out);

typedef struct Command {
	const char *name;
	const char *aliases[4]; /* exact-match short names; NULL-padded */
	int min_args;
	int max_args;        /* -1: no limit */
	unsigned flags;      /* CMD_* */
	const char *usage;   /* `load FILE` */
	const char *summary; /* one line, lowercase, no full stop */
	const char *help;    /* paragraphs for `help CMD` */
	CmdHandler handler;
	CmdCompleter completer; /* NULL: nothing to complete */
} Command;

extern const Command commands_table[];
extern const size_t commands_count;

/* A command by exact name or alias, else by unique prefix of a name. NULL
 * when unknown; *ambiguous is set when several names start with name. */
const Command *commands_find(const char *name, bool *ambiguous);

/*
 * Splits a line into words (words.c): blanks separate words, "double
 * quotes" group, with the escapes \" \\ \n \t \r and \xNN inside; outside
 * quotes a backslash keeps the next quote, backslash or blank as it is;
 * `#` at the start of a word begins a comment.
 * Returns false with *err (caller frees), which says the column, on an
 * unterminated quote, an unknown escape, or a control character a script
 * line could not hold (any but tab inside quotes, any but the blanks
 * outside). The caller frees the words with commands_free_words.
 */
bool commands_split(const char *line, int *argc, char ***argv, char **err);
void commands_free_words(int argc, char **argv);
/* Appends word as commands_split reads it back: quoted when it must be,
 * with its control characters, and bytes that are not UTF-8, escaped. */
void commands_put_word(StrBuf *sb, const char *word);
/* The words put with commands_put_word, separated by blanks. The caller
 * frees the result. */
char *commands_join_words(int argc, char **argv);
/* line as one script line that reads back as the same words: line itself
 * when it holds no control character but tab, else its words requoted (a
 * trailing comment dropped); NULL when it then does not split. The caller
 * frees the result. */
char *commands_script_line(const char *line);
/* The text record and bugreport write for a command line (with its
 * newline): mapped (commands_map_paths's line) when not NULL, else
 * commands_script_line's, marked `-` when it failed; a line that does
 * not split and could not be written as it is becomes a comment with its
 * control characters escaped. The caller frees the result. */
char *commands_recorded_line(const char *line, const char *mapped, bool failed);

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
/* With `set echo on`, prints a script or -c line that is not blank. */
void commands_echo_line(CmdContext *ctx, const char *line);
/* Runs one split command (argv[0] as typed, argv[argc] NULL). 0 or 1. */
int commands_execute_argv(CmdContext *ctx, int argc, char **argv);
/* Runs each line of in as a command, naming it `name` in errors. Stops at
 * `quit`, at an interrupt, and at the first failure when ctx->batch or the
 * errexit setting is on. Returns 1 if any command failed. */
int commands_run_stream(CmdContext *ctx, FILE *in, const char *name);
/* commands_run_stream of a file; failing to open it is an error. */
int commands_run_script(CmdContext *ctx, const char *path);
/* The file a command means by an input path: path itself when it is
 * absolute or names a file from the current folder (a script's own
 * folder, inside a script), else, inside a script, the top level's file of
 * that name when there is one (so a script run from elsewhere still finds
 * the files of the folder devplan runs in). The caller frees the result. */
char *commands_input_path(const CmdContext *ctx, const char *path);

/* Completion of the word starting at byte `start` of line (the words before
 * it decide what is completed). Candidates come sorted and unique. */
void commands_complete(const Session *s, const char *line, size_t start, const char *word,
		       CmdCandidates *out);

/* Messages: `error: ...` (with `FILE:LINE: ` inside a script) on ctx->err,
 * coloured when cmd_color allows; `warning: ...` for an error while
 * ctx->errors_as_warnings. cmd_error returns 1 for `return
 * cmd_error(...)`. */
int cmd_error(CmdContext *ctx, const char *fmt, ...) DP_PRINTF(2, 3);
void cmd_warning(CmdContext *ctx, const char *fmt, ...) DP_PRINTF(2, 3);
void cmd_note(CmdContext *ctx, const char *fmt, ...) DP_PRINTF(2, 3);
/* `unknown command 'x'` with the commands nearest x (`; did you mean
 * 'why'?`, commands_suggest), or `ambiguous command 'x': a, b` listing the
 * commands x is a prefix of; a gdb command devplan has no counterpart for
 * (`condition`) is said to be so, with what to use instead. Returns 1. */
int cmd_unknown_command(CmdContext *ctx, const char *name, bool ambiguous);
/* Appends `; did you mean 'why'?` naming the commands (names, and aliases
 * longer than two letters) nearest name, or nothing. */
void commands_suggest(const char *name, StrBuf *out);
/* Runs one split command (argv[argc] NULL) on session in a context of its
 * own, one script level below ctx's (so that `source` nesting stays
 * bounded), in batch, neither history nor recorded, and appends what it
 * prints (output and errors, in order) to out; the command's status. For
 * what a command asks of another session (bugreport's scratch plan,
 * reduce's candidates). */
int cmd_capture(const CmdContext *ctx, Session *session, int argc, char **argv, StrBuf *out);
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

/* Shared completers. */
void cmd_complete_files(const Session *s, int argc, char **argv, const char *word,
			CmdCandidates *out);
void cmd_complete_commands(const Session *s, int argc, char **argv, const char *word,
			   CmdCandidates *out);
/* `@globals` and `%names` of the current module, by the word's first byte. */
void cmd_complete_module_names(const Session *s, const char *word, CmdCandidates *out);

/* Handlers and completers, one group per commands/cmd_*.c file. */
int cmd_break(CmdContext *ctx, int argc, char **argv); /* cmd_break.c */
int cmd_breaks(CmdContext *ctx, int argc, char **argv);
int cmd_delete(CmdContext *ctx, int argc, char **argv);
int cmd_watch(CmdContext *ctx, int argc, char **argv);
void cmd_complete_break(const Session *s, int argc, char **argv, const char *word,
			CmdCandidates *out);
void cmd_complete_delete(const Session *s, int argc, char **argv, const char *word,
			 CmdCandidates *out);
int cmd_ignore(CmdContext *ctx, int argc, char **argv);
int cmd_tbreak(CmdContext *ctx, int argc, char **argv);
void cmd_complete_ignore(const Session *s, int argc, char **argv, const char *word,
			 CmdCandidates *out);
/* The breakpoints and watchpoints as `breaks` lists them, or the
 * watchpoints only (`info watchpoints`). */
void cmd_breaks_list(CmdContext *ctx, bool watch_only);
int cmd_info(CmdContext *ctx, int argc, char **argv); /* cmd_info.c */
void cmd_complete_info(const Session *s, int argc, char **argv, const char *word,
		       CmdCandidates *out);
int cmd_diff(CmdContext *ctx, int argc, char **argv); /* cmd_diff.c */
/* Appends to out how plan b differs from plan a (the body of `diff
 * --plan`: values moved, copies appearing and vanishing, bytes moved per
 * direction under each); true when any fact differs. Device indices of
 * both are devices'. */
bool cmd_diff_plan_print(StrBuf *out, const Placement *a, const Placement *b,
			 const DeviceTable *devices);
/* `devplan --diff-placement A B`: compares two files `placement --json`
 * wrote, as `diff --plan` compares two plans. Like diff(1): 0 when their
 * facts are the same, 1 when they differ, 2 on an error (said on err). */
int cmd_diff_placement_files(FILE *out, FILE *err, const char *path_a, const char *path_b);
void cmd_complete_diff(const Session *s, int argc, char **argv, const char *word,
		       CmdCandidates *out);
int cmd_estimate(CmdContext *ctx, int argc, char **argv); /* cmd_estimate.c */
/* `profile`'s last table: per device, the estimate of planned module m
 * (compute time, time of the copies arriving on it, peak memory) beside
 * what profile p measured. */
void cmd_estimate_print_against(CmdContext *ctx, const IrModule *m, const ExecProfile *p);
int cmd_cd(CmdContext *ctx, int argc, char **argv); /* cmd_script.c */
int cmd_echo(CmdContext *ctx, int argc, char **argv);
int cmd_history(CmdContext *ctx, int argc, char **argv);
int cmd_pwd(CmdContext *ctx, int argc, char **argv);
int cmd_quit(CmdContext *ctx, int argc, char **argv);
int cmd_record(CmdContext *ctx, int argc, char **argv);
void cmd_complete_record(const Session *s, int argc, char **argv, const char *word,
			 CmdCandidates *out);
int cmd_source(CmdContext *ctx, int argc, char **argv);
/* Writes the command line ctx->history's last entry holds to the
 * recording, its paths made to replay from the recording's folder; false
 * (reported, the recording stopped) when the write failed. */
bool cmd_record_line(CmdContext *ctx);
/* Ends a recording's bookkeeping of paths (`record off`, the session's end). */
void cmd_record_forget(CmdContext *ctx);
int cmd_apropos(CmdContext *ctx, int argc, char **argv); /* cmd_help.c */
int cmd_help(CmdContext *ctx, int argc, char **argv);
int cmd_ir(CmdContext *ctx, int argc, char **argv); /* cmd_ir.c */
void cmd_complete_ir(const Session *s, int argc, char **argv, const char *word, CmdCandidates *out);
int cmd_load(CmdContext *ctx, int argc, char **argv); /* cmd_load.c */
int cmd_reload(CmdContext *ctx, int argc, char **argv);
int cmd_reduce(CmdContext *ctx, int argc, char **argv); /* cmd_reduce.c */
void cmd_complete_reduce(const Session *s, int argc, char **argv, const char *word,
			 CmdCandidates *out);
int cmd_render(CmdContext *ctx, int argc, char **argv); /* cmd_render.c */
void cmd_complete_render(const Session *s, int argc, char **argv, const char *word,
			 CmdCandidates *out);
/* `render --html FILE` (cmd_render_html.c): the SVG of opts and a record
 * per drawn node, as one page written atomically to path; false with *err
 * set (the caller's to free) and path untouched when it cannot. */
struct VizOptions;
struct VizStats;
bool cmd_render_html(CmdContext *ctx, const struct VizOptions *opts, const char *path,
		     struct VizStats *stats, char **err);
int cmd_bugreport(CmdContext *ctx, int argc, char **argv); /* cmd_bugreport.c */
/* cmd_load's note of where the module came from (CmdContext.loaded). */
void cmd_remember_load(CmdContext *ctx);
int cmd_continue(CmdContext *ctx, int argc, char **argv); /* cmd_step.c */
int cmd_phases(CmdContext *ctx, int argc, char **argv);
int cmd_plan(CmdContext *ctx, int argc, char **argv);
int cmd_restart(CmdContext *ctx, int argc, char **argv);
int cmd_step(CmdContext *ctx, int argc, char **argv);
int cmd_stepi(CmdContext *ctx, int argc, char **argv);
int cmd_save(CmdContext *ctx, int argc, char **argv); /* cmd_save.c */
void cmd_complete_save(const Session *s, int argc, char **argv, const char *word,
		       CmdCandidates *out);
int cmd_set(CmdContext *ctx, int argc, char **argv); /* cmd_settings.c */
int cmd_show(CmdContext *ctx, int argc, char **argv);
void cmd_complete_set(const Session *s, int argc, char **argv, const char *word,
		      CmdCandidates *out);
void cmd_complete_show(const Session *s, int argc, char **argv, const char *word,
		       CmdCandidates *out);
int cmd_target(CmdContext *ctx, int argc, char **argv); /* cmd_targets.c */
int cmd_targets(CmdContext *ctx, int argc, char **argv);
void cmd_complete_target(const Session *s, int argc, char **argv, const char *word,
			 CmdCandidates *out);

int cmd_conflicts(CmdContext *ctx, int argc, char **argv); /* cmd_plan.c */
int cmd_constraints(CmdContext *ctx, int argc, char **argv);
int cmd_copies(CmdContext *ctx, int argc, char **argv);
int cmd_placement(CmdContext *ctx, int argc, char **argv);
int cmd_print(CmdContext *ctx, int argc, char **argv); /* cmd_print.c */
int cmd_regions(CmdContext *ctx, int argc, char **argv);
int cmd_verify(CmdContext *ctx, int argc, char **argv);
int cmd_why(CmdContext *ctx, int argc, char **argv);
/* Appends what `why` prints for e, an expression of an->module: the chain
 * of constraints, what check found for a conflict, why a copy exists. */
void cmd_why_text(CmdContext *ctx, PlanAnalysis *an, const Expr *e, StrBuf *out);
/* cmd_why_text for many values of one analysis (render --html): what
 * every answer reads (the domain graph, the current module by id, the
 * conflicts by name) is made once by cmd_why_batch_new, so that each
 * answer costs what it prints. The batch borrows ctx and an. */
typedef struct CmdWhyBatch CmdWhyBatch;
CmdWhyBatch *cmd_why_batch_new(CmdContext *ctx, PlanAnalysis *an);
void cmd_why_batch_text(CmdWhyBatch *b, const Expr *e, StrBuf *out);
void cmd_why_batch_free(CmdWhyBatch *b);
void cmd_complete_values(const Session *s, int argc, char **argv, const char *word,
			 CmdCandidates *out);
int cmd_pin(CmdContext *ctx, int argc, char **argv); /* cmd_whatif.c */
/* The arguments of `pin` (with_device) or `unpin` after the command word,
 * as PlanPin: `[--body] %x DEVICE`, `[--body] --op OPS DEVICE`; `%x` or
 * `--op OPS`. The values it names must be in `loaded` (`unpin` excepted)
 * and DEVICE in devices. pin's strings point into argv. False after
 * reporting, each message prefixed with `prefix` (`A: `, or ""). */
bool cmd_parse_pin(CmdContext *ctx, const IrModule *loaded, const DeviceTable *devices, int argc,
		   char **argv, bool with_device, const char *prefix, PlanPin *pin);
void cmd_complete_pin(const Session *s, int argc, char **argv, const char *word,
		      CmdCandidates *out);
int cmd_undo(CmdContext *ctx, int argc, char **argv);
int cmd_unpin(CmdContext *ctx, int argc, char **argv);

int cmd_compare(CmdContext *ctx, int argc, char **argv); /* cmd_run.c */
int cmd_profile(CmdContext *ctx, int argc, char **argv);
int cmd_run(CmdContext *ctx, int argc, char **argv);
void cmd_complete_run(const Session *s, int argc, char **argv, const char *word,
		      CmdCandidates *out);

#endif
