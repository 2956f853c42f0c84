/*
 * commands.h - the command table (table.c) and the handlers it names.
 *
 * Every command is one row of commands_table, in alphabetical order:
 * {name, aliases, min/max args, flags, usage, summary, help, handler,
 * completer}. The dispatcher (dispatch.h) resolves a name (exact name,
 * alias, or unique prefix of a name), checks the argument count and the
 * flags from the row, and only then calls the handler, so handlers never
 * repeat those checks. `help`, tab completion and USAGE.md (checked by
 * tests/test_commands.c) are generated from or compared with the same
 * table.
 *
 * Layers: handlers (cmd_*.c) include this, which brings the output helpers
 * (output.h) they write with; the table depends on the handlers; only the
 * dispatcher, the shell and the commands that run other commands include
 * dispatch.h.
 *
 * Ownership: the table is static.
 */
#ifndef DEVPLAN_COMMANDS_H
#define DEVPLAN_COMMANDS_H

#include "output.h"
#include "session_relax.h"

/* The version `devplan --version` prints. */
#ifndef DEVPLAN_VERSION
#define DEVPLAN_VERSION "0.1.0"
#endif

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
	/* it writes files: `--force` among its arguments lets it replace the
	 * module the session loaded (file_guard_allow), and is taken out
	 * before the handler sees them */
	CMD_WRITES = 1 << 8,
	/* with CMD_WRITES: the command reads `--force` itself (render: lay
	 * out every node), so it stays among the arguments */
	CMD_OWN_FORCE = 1 << 9,
	/* it handles a Relax module too (cmd_relax.c); the others that need
	 * a module refuse one */
	CMD_RELAX = 1 << 10,
	/* it handles a planned Relax module as lowered onto Relay
	 * (session_relax_lower), with its Relay handler unchanged */
	CMD_RELAX_LOWERED = 1 << 11,
};

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

/* `unknown command 'x'` with the commands nearest x (`; did you mean
 * 'why'?`, commands_suggest), or `ambiguous command 'x': a, b` listing the
 * commands x is a prefix of; a gdb command devplan has no counterpart for
 * (`condition`) is said to be so, with what to use instead. Returns 1. */
int cmd_unknown_command(CmdContext *ctx, const char *name, bool ambiguous);
/* Appends `; did you mean 'why'?` naming the commands (names, and aliases
 * longer than two letters) nearest name, or nothing. */
void commands_suggest(const char *name, StrBuf *out);
/* The completer of command names (help, apropos). */
void cmd_complete_commands(const Session *s, int argc, char **argv, const char *word,
			   CmdCandidates *out);

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
/* `profile`'s last table: per device, estimate e made with the cost
 * models of `costs` (compute time, time of the copies arriving on it,
 * peak memory) beside what profile p measured, after a line naming where
 * each device's cost model comes from. */
struct PlanEstimate;
void cmd_estimate_print_against(CmdContext *ctx, const DeviceTable *costs,
				const struct PlanEstimate *e, const ExecProfile *p);
/* The line that says where the cost models of `costs` come from (nominal,
 * `target set`, calibrated on this machine), as `estimate` and `profile`
 * print it. */
void cmd_estimate_print_model(CmdContext *ctx, const DeviceTable *costs);
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
/* cmd_relax.c: ir, plan, step, phases and restart for a Relax module */
int cmd_relax_ir(CmdContext *ctx, int argc, char **argv);
int cmd_relax_step(CmdContext *ctx, int argc, char **argv);
int cmd_relax_phases(CmdContext *ctx, int argc, char **argv);
int cmd_relax_conflicts(CmdContext *ctx, int argc, char **argv);
int cmd_relax_why(CmdContext *ctx, int argc, char **argv);
int cmd_relax_constraints(CmdContext *ctx, int argc, char **argv);
int cmd_relax_placement_facts(CmdContext *ctx, bool json, bool contract, const char *fn);
int cmd_relax_diff(CmdContext *ctx, int argc, char **argv);
int cmd_relax_save(CmdContext *ctx, int argc, char **argv);
/* 1 after refusing `set policy replicate`, which Relax has no form of. */
int cmd_relax_check_policy(CmdContext *ctx);
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

int cmd_compare(CmdContext *ctx, int argc, char **argv); /* cmd_compare.c */
int cmd_profile(CmdContext *ctx, int argc, char **argv); /* cmd_run.c */
int cmd_run(CmdContext *ctx, int argc, char **argv);
/* run_args.c: the three's completion */
void cmd_complete_run(const Session *s, int argc, char **argv, const char *word,
		      CmdCandidates *out);

#endif
