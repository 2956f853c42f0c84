/*
 * dispatch.c - running command lines (dispatch.h): the context's life,
 * splitting and dispatch, the words that name files (for `record` and
 * `bugreport`), scripts and completion.
 *
 * A line is split (words.c), its command found in commands_table
 * (table.c), its argument count and flags checked from the row, and only
 * then its handler called, under a recovery point for running out of
 * memory. Scripts run in their own folder and come back to the caller's
 * when they end, however they end.
 */
#include "dispatch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file_read.h"
#include "interrupt.h"
#include "oom.h"
#include "path.h"

/* ---- scripts' folders ---- */

/* Goes back to the folder the script at level n of ctx->return_dirs was
 * started from, closing the descriptors above it: the end of a script, or
 * of every script when a command is abandoned inside one (run_handler). */
static void leave_script_dirs(CmdContext *ctx, size_t n)
{
	if (ctx->nreturn_dirs <= n)
		return;
	if (fchdir(ctx->return_dirs[n]) != 0 && ctx->err)
		cmd_warning(ctx, "cannot go back to the folder the script started in: %s",
			    strerror(errno));
	while (ctx->nreturn_dirs > n)
		close(ctx->return_dirs[--ctx->nreturn_dirs]);
}

/* ---- the context ---- */

void cmd_context_init(CmdContext *ctx, Session *session, FILE *out, FILE *err)
{
	memset(ctx, 0, sizeof *ctx);
	ctx->session = session;
	ctx->out = out;
	ctx->err = err;
}

int cmd_context_free(CmdContext *ctx)
{
	int status = 0;
	if (ctx->record) {
		/* the session ends: the recording is kept, as `record off` would */
		char *err, *path = xstrdup(file_path(ctx->record));
		if (!file_commit(ctx->record, &err)) {
			if (ctx->err) /* tests may have closed the streams */
				cmd_error(ctx, "%s; '%s' is left as it was", err, path);
			free(err);
			status = 1;
		}
		free(path);
	}
	cmd_record_forget(ctx);
	for (size_t i = 0; i < ctx->nhistory; i++) {
		free(ctx->history[i].line);
		free(ctx->history[i].dir);
		free(ctx->history[i].top);
	}
	free(ctx->history);
	leave_script_dirs(ctx, 0);
	free(ctx->return_dirs);
	ctx->return_dirs = NULL;
	ctx->cap_return_dirs = 0;
	free(ctx->top_dir);
	ctx->top_dir = NULL;
	pins_clear(&ctx->load_pins);
	devices_free(&ctx->load_devices);
	ctx->loaded = false;
	ctx->record = NULL;
	ctx->history = NULL;
	ctx->nhistory = ctx->cap_history = 0;
	return status;
}

/* ---- splitting and dispatch ---- */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

static int arg_count_error(CmdContext *ctx, const Command *cmd)
{
	if (cmd->min_args == cmd->max_args && cmd->min_args == 0)
		cmd_error(ctx, "'%s' takes no arguments", cmd->name);
	else if (cmd->min_args == cmd->max_args)
		cmd_error(ctx, "'%s' takes %d argument%s", cmd->name, cmd->min_args,
			  cmd->min_args == 1 ? "" : "s");
	else if (cmd->max_args < 0)
		cmd_error(ctx, "'%s' takes at least %d argument%s", cmd->name, cmd->min_args,
			  cmd->min_args == 1 ? "" : "s");
	else if (cmd->min_args == 0)
		cmd_error(ctx, "'%s' takes at most %d argument%s", cmd->name, cmd->max_args,
			  cmd->max_args == 1 ? "" : "s");
	else
		cmd_error(ctx, "'%s' takes %d to %d arguments", cmd->name, cmd->min_args,
			  cmd->max_args);
	fprintf(ctx->err, "usage: %s\n", cmd->usage);
	fflush(ctx->err);
	return 1;
}

/* Flushes the command's output; false, reported, when any of it could not
 * be written (a full disk, /dev/full, a closed pipe): output that is lost
 * fails the command, so that a batch run does not end with status 0. */
static bool flush_output(CmdContext *ctx)
{
	int error;
	errno = 0;
	if (fflush(ctx->out) == 0 && !ferror(ctx->out))
		return true;
	error = errno;
	if (error)
		cmd_error(ctx, "cannot write the output: %s", strerror(error));
	else
		cmd_error(ctx, "cannot write the output");
	/* reported: the next command starts with a clean stream */
	clearerr(ctx->out);
	return false;
}

/* After memory ran out in a command: the session is put back in a state
 * it can go on from (session_recover), under a recovery point of its own;
 * if even that runs out, the module is let go (`reload` parses it again). */
static void recover_session(CmdContext *ctx, const char *name, size_t size)
{
	Session *s = ctx->session;
	OomRecovery again;
	bool reset = false;
	cmd_error(ctx, "out of memory in '%s' (allocating %zu bytes); the command was abandoned",
		  name, size);
	oom_recovery_push(&again, NULL);
	if (setjmp(again.env) != 0) {
		session_unload(s);
		cmd_note(ctx, "the module could not be kept either; 'reload' parses it again");
		return;
	}
	session_recover(s, &reset);
	oom_recovery_pop(&again);
	if (reset)
		cmd_note(ctx, "planning went back to before 'check'; 'plan' plans again");
}

/* Calls the handler under a recovery point (oom.h): when memory runs out
 * inside it, the command fails and the session goes on. What the handler
 * changed in the context is put back: a `source` abandoned half-way must
 * not leave its script's name, or its folder, behind. */
static int run_handler(CmdContext *ctx, const Command *cmd, int argc, char **args)
{
	OomRecovery r;
	const char *volatile script = ctx->script;
	volatile unsigned long line = ctx->line;
	volatile int depth = ctx->depth, sourcing = ctx->sourcing;
	volatile size_t dirs = ctx->nreturn_dirs;
	char *volatile top_dir = ctx->top_dir;
	int status;
	oom_recovery_push(&r, cmd->name);
	if (setjmp(r.env) != 0) {
		ctx->script = script;
		ctx->line = line;
		ctx->depth = depth;
		ctx->sourcing = sourcing;
		leave_script_dirs(ctx, dirs);
		if (ctx->top_dir != top_dir) {
			free(ctx->top_dir);
			ctx->top_dir = top_dir;
		}
		recover_session(ctx, cmd->name, r.failed_size);
		return 1;
	}
	status = cmd->handler(ctx, argc, args);
	oom_recovery_pop(&r);
	return status;
}

/* `--entry @NAME` (or `--entry=@NAME`) of a command that runs the lowered
 * Relax module, taken out of args: the function to run. False after
 * reporting a missing name, a second --entry or a Relay module. */
static bool take_entry(CmdContext *ctx, const Command *cmd, int *argc, char **args,
		       const char **entry)
{
	int out = 1;
	*entry = NULL;
	if (!(cmd->flags & CMD_RELAX_LOWERED))
		return true;
	for (int i = 1; i < *argc; i++) {
		const char *name = NULL;
		if (strcmp(args[i], "--entry") == 0) {
			if (i + 1 >= *argc) {
				cmd_error(ctx, "--entry needs a function, --entry @NAME");
				return false;
			}
			name = args[++i];
		} else if (strncmp(args[i], "--entry=", 8) == 0) {
			name = args[i] + 8;
		} else {
			args[out++] = args[i];
			continue;
		}
		if (*entry || !*name) {
			cmd_error(ctx, *entry ? "--entry is given twice"
					      : "--entry needs a function, --entry @NAME");
			return false;
		}
		*entry = name;
	}
	*argc = out;
	args[out] = NULL;
	if (*entry && !session_relax_active(ctx->session)) {
		cmd_error(ctx,
			  "--entry names the Relax function to run; a Relay module runs @main");
		return false;
	}
	return true;
}

/* The table's checks for cmd, then its handler, with the guarded file
 * writable under --force. */
static int check_and_run(CmdContext *ctx, const Command *cmd, int argc, char **args, bool force)
{
	int nargs, status;
	bool allowed, relax = session_relax_active(ctx->session);
	const char *entry;
	if (!take_entry(ctx, cmd, &argc, args, &entry))
		return 1;
	nargs = argc - 1;
	if (nargs < cmd->min_args || (cmd->max_args >= 0 && nargs > cmd->max_args))
		return arg_count_error(ctx, cmd);
	if (relax && (cmd->flags & (CMD_NEEDS_MODULE | CMD_NEEDS_PLAN)) &&
	    !(cmd->flags & (CMD_RELAX | CMD_RELAX_LOWERED)))
		return cmd_error(ctx, "'%s' does not handle Relax modules yet", cmd->name);
	if (relax && (cmd->flags & CMD_RELAX_LOWERED) &&
	    !session_relax_lower(ctx->session, entry)) {
		cmd_print_diags(ctx, &ctx->session->diags);
		return 1;
	}
	if (!relax && (cmd->flags & CMD_NEEDS_MODULE) && !session_has_module(ctx->session))
		return cmd_error(ctx, "no module loaded; use 'load FILE'");
	if (!relax && (cmd->flags & CMD_NEEDS_PLAN) && !session_planned(ctx->session))
		return cmd_error(ctx, session_has_module(ctx->session)
					      ? "the module is not planned yet; use 'plan'"
					      : "no module loaded; use 'load FILE'");
	allowed = file_guard_allow(force);
	status = run_handler(ctx, cmd, argc, args);
	file_guard_allow(allowed);
	return status;
}

int commands_execute_argv(CmdContext *ctx, int argc, char **argv)
{
	bool ambiguous, force = false;
	const Command *cmd;
	char **args;
	int nargs = argc - 1;
	int status;
	if (argc == 0)
		return 0;
	cmd = commands_find(argv[0], &ambiguous);
	if (!cmd)
		return cmd_unknown_command(ctx, argv[0], ambiguous);
	/* The handler sees the full name whatever was typed, and a writer's
	 * --force as the guard's permission (file_write.h), not among its
	 * arguments unless it reads one of its own. */
	args = xmalloc((size_t)(argc + 1) * sizeof(char *));
	args[0] = (char *)cmd->name;
	argc = 1;
	for (int i = 1; i <= nargs; i++) {
		bool is_force = (cmd->flags & CMD_WRITES) && strcmp(argv[i], "--force") == 0;
		force |= is_force;
		if (!is_force || (cmd->flags & CMD_OWN_FORCE))
			args[argc++] = argv[i];
	}
	args[argc] = NULL;
	nargs = argc - 1;
	status = check_and_run(ctx, cmd, argc, args, force);
	free(args);
	if (!flush_output(ctx))
		status = 1;
	fflush(ctx->err);
	return status ? 1 : 0;
}

/* A line worth keeping: not blank, not only a comment. */
static bool has_command(const char *line)
{
	while (is_blank(*line))
		line++;
	return *line && *line != '#';
}

/* The history and the record file see every top-level line, with the
 * folder it runs in (a -x script's lines run in the script's folder). */
static void remember_line(CmdContext *ctx, const char *line)
{
	size_t len = strlen(line);
	CmdHistoryLine *h;
	while (len && is_blank(line[len - 1]))
		len--;
	grow_array((void **)&ctx->history, &ctx->cap_history, ctx->nhistory + 1,
		   sizeof(CmdHistoryLine));
	h = &ctx->history[ctx->nhistory++];
	h->line = xstrndup(line, len);
	h->failed = false;
	h->dir = path_current_dir();
	h->top = ctx->top_dir ? xstrdup(ctx->top_dir) : h->dir ? xstrdup(h->dir) : NULL;
}

int cmd_capture(const CmdContext *ctx, Session *session, int argc, char **argv, StrBuf *out)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	CmdContext sub;
	int status;
	if (!f)
		return 1;
	cmd_context_init(&sub, session, f, f);
	sub.batch = true;
	sub.sourcing = 1; /* neither history nor recording */
	sub.depth = ctx->depth + 1;
	/* a script it sources finds the top level's files as ctx's would */
	sub.top_dir = ctx->top_dir ? xstrdup(ctx->top_dir) : path_current_dir();
	status = commands_execute_argv(&sub, argc, argv);
	status |= cmd_context_free(&sub);
	fclose(f);
	strbuf_append(out, text, len);
	free(text);
	return status;
}

/* ---- the words that name files ---- */

/* Options whose next word is a file, by command; reduce's predicate
 * `script FILE` counts only as its first word. */
static const struct {
	CmdHandler handler;
	const char *option;
	CmdPathRole role;
} path_options[] = {
	{cmd_compare, "--expect", CMD_PATH_INPUT}, {cmd_diff, "--module", CMD_PATH_INPUT},
	{cmd_reduce, "--output", CMD_PATH_OUTPUT}, {cmd_reduce, "-o", CMD_PATH_OUTPUT},
	{cmd_reduce, "script", CMD_PATH_INPUT},    {cmd_render, "--html", CMD_PATH_OUTPUT},
	{cmd_run, "--dump", CMD_PATH_OUTPUT_DIR},  {cmd_run, "--output", CMD_PATH_OUTPUT},
};
/* Options whose next word is a value, not a file. */
static const char *const value_options[] = {"--phase", "--focus", "--depth", "--top", "--as"};

static bool in_list(const char *word, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(word, list[i]) == 0)
			return true;
	return false;
}

/* The role of the file after option word argv[i] of cmd, or -1. */
static int option_role(const Command *cmd, char **argv, int i)
{
	for (size_t k = 0; k < DP_COUNT(path_options); k++)
		if (path_options[k].handler == cmd->handler &&
		    strcmp(argv[i], path_options[k].option) == 0 &&
		    (path_options[k].option[0] == '-' || i == 1))
			return (int)path_options[k].role;
	return -1;
}

CmdPathWord *commands_path_words(int argc, char **argv, size_t *n)
{
	bool ambiguous;
	const Command *cmd = argc > 0 ? commands_find(argv[0], &ambiguous) : NULL;
	CmdPathWord *words = NULL;
	size_t cap = 0;
	*n = 0;
	if (!cmd)
		return NULL;
	for (int i = 1; i < argc; i++) {
		int role = option_role(cmd, argv, i);
		CmdPathWord w = {.word = i + 1, .offset = 0};
		if (role >= 0) {
			if (i + 1 >= argc)
				break;
			w.role = (CmdPathRole)role;
			i++;
		} else if (in_list(argv[i], value_options, DP_COUNT(value_options))) {
			i++;
			continue;
		} else if ((argv[i][0] == '-' && argv[i][1]) ||
			   (cmd->handler == cmd_record && strcmp(argv[i], "off") == 0)) {
			continue;
		} else if (cmd->flags &
			   (CMD_READS_FILES | CMD_WRITES_FILES | CMD_WRITES_DIR | CMD_DIR_ARG)) {
			w.word = i;
			w.role = cmd->flags & CMD_READS_FILES    ? CMD_PATH_INPUT
				 : cmd->flags & CMD_WRITES_FILES ? CMD_PATH_OUTPUT
				 : cmd->flags & CMD_WRITES_DIR   ? CMD_PATH_OUTPUT_DIR
								 : CMD_PATH_DIRECTORY;
		} else if ((cmd->flags & CMD_INPUT_ARGS) && strchr(argv[i], '=')) {
			const char *value = strchr(argv[i], '=') + 1;
			if (strcmp(value, "random") == 0 || strncmp(value, "random:", 7) == 0)
				continue;
			w.word = i;
			w.offset = (size_t)(value - argv[i]);
			w.role = CMD_PATH_INPUT;
		} else {
			continue;
		}
		if (!argv[w.word][w.offset] || strcmp(argv[w.word] + w.offset, "-") == 0)
			continue; /* standard output, or nothing */
		grow_array((void **)&words, &cap, *n + 1, sizeof *words);
		words[(*n)++] = w;
	}
	return words;
}

char *commands_path_resolve(const CmdPathWord *w, const char *typed, const char *dir,
			    const char *top)
{
	char *path = path_join(dir, typed);
	if (w->role == CMD_PATH_INPUT && top && typed[0] != '/' && access(path, F_OK) != 0) {
		char *other = path_join(top, typed);
		if (access(other, F_OK) == 0) {
			free(path);
			return other;
		}
		free(other);
	}
	return path;
}

char *commands_map_paths(const char *line, CmdPathMap map, void *arg)
{
	int argc;
	char **argv, *err, *load_file = NULL, *joined;
	bool ambiguous, changed = false, has_as = false;
	const Command *cmd;
	CmdPathWord *words;
	size_t n;
	StrBuf sb;
	if (!commands_split(line, &argc, &argv, &err)) {
		free(err);
		return NULL;
	}
	cmd = argc > 0 ? commands_find(argv[0], &ambiguous) : NULL;
	if (!cmd) {
		commands_free_words(argc, argv);
		return NULL;
	}
	words = commands_path_words(argc, argv, &n);
	for (int i = 1; i < argc; i++)
		has_as |= strcmp(argv[i], "--as") == 0;
	for (size_t k = 0; k < n; k++) {
		char *word = argv[words[k].word];
		char *mapped = map(arg, &words[k], word + words[k].offset);
		if (!mapped)
			continue;
		if (cmd->handler == cmd_load && !has_as && !load_file)
			load_file = xstrdup(word);
		argv[words[k].word] = xasprintf("%.*s%s", (int)words[k].offset, word, mapped);
		free(word);
		free(mapped);
		changed = true;
	}
	free(words);
	if (!changed) {
		commands_free_words(argc, argv);
		return commands_script_line(line);
	}
	strbuf_init(&sb);
	joined = commands_join_words(argc, argv);
	strbuf_puts(&sb, joined);
	free(joined);
	if (load_file) {
		strbuf_puts(&sb, " --as ");
		commands_put_word(&sb, load_file);
		free(load_file);
	}
	commands_free_words(argc, argv);
	return strbuf_detach(&sb);
}

int commands_execute_line(CmdContext *ctx, const char *line)
{
	int argc, status;
	char **argv;
	char *err;
	bool top = ctx->sourcing == 0 && has_command(line);
	bool is_record = false;
	if (!commands_split(line, &argc, &argv, &err)) {
		cmd_error(ctx, "%s", err);
		free(err);
		if (top) {
			remember_line(ctx, line);
			ctx->history[ctx->nhistory - 1].failed = true;
			if (ctx->record)
				(void)cmd_record_line(ctx);
		}
		return 1;
	}
	if (top) {
		bool ambiguous;
		const Command *cmd = argc > 0 ? commands_find(argv[0], &ambiguous) : NULL;
		is_record = cmd && cmd->handler == cmd_record;
		remember_line(ctx, line);
	}
	status = commands_execute_argv(ctx, argc, argv);
	commands_free_words(argc, argv);
	if (top && status != 0)
		ctx->history[ctx->nhistory - 1].failed = true;
	/* `record FILE` starts after itself and `record off` ends before */
	if (top && !is_record && ctx->record && !cmd_record_line(ctx))
		status = 1;
	return status;
}

/* ---- scripts ---- */

enum { SCRIPT_MAX_DEPTH = 32 };

/* Runs one line of a script, which holds no line end; 1 when it failed or
 * the script must stop (*stop). A NUL byte is an error, as it is in a
 * module (the lexer's "unexpected NUL byte"): the line is not run, rather
 * than run cut short where C's strings end. */
static int run_script_line(CmdContext *ctx, char *line, size_t len, bool *stop)
{
	const char *nul = memchr(line, '\0', len);
	int status;
	ctx->line++;
	if (nul) {
		status = cmd_error(ctx, "unexpected NUL byte at column %zu; the line is not run",
				   (size_t)(nul - line) + 1);
	} else {
		/* `-CMD` (as make has it): a command that failed when it was
		 * recorded; it runs, and its failure neither counts nor stops
		 * the script (one that succeeds now is simply run) */
		const char *p = line;
		bool may_fail;
		while (is_blank(*p))
			p++;
		may_fail = *p == '-';
		commands_echo_line(ctx, line);
		status = commands_execute_line(ctx, may_fail ? p + 1 : line);
		if (may_fail)
			status = 0;
	}
	if (interrupt_pending()) {
		/* A command that noticed the interrupt has said so. */
		if (status == 0)
			cmd_error(ctx, "interrupted");
		*stop = true;
		return 1;
	}
	*stop = status != 0 && (ctx->batch || ctx->session->settings.errexit);
	return status != 0;
}

int commands_run_stream(CmdContext *ctx, FILE *in, const char *name)
{
	const char *saved_script = ctx->script;
	unsigned long saved_line = ctx->line;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int failed = 0, read_errno = 0;
	bool stop = false;
	ctx->script = name;
	ctx->line = 0;
	while (!ctx->quit && !stop) {
		size_t start = 0;
		errno = 0;
		len = getline(&line, &cap, in);
		if (len < 0) {
			if (errno == EINTR && !interrupt_pending()) {
				clearerr(in);
				continue;
			}
			if (ferror(in) && errno != EINTR)
				read_errno = errno;
			break;
		}
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		/* \r\n, \n and a lone \r each end a line */
		for (size_t i = 0; i <= (size_t)len && !ctx->quit && !stop; i++) {
			bool crlf;
			if (i < (size_t)len && line[i] != '\r')
				continue;
			crlf = i + 1 == (size_t)len; /* the \r of \r\n (or at the end) */
			line[i] = '\0';
			failed |= run_script_line(ctx, line + start, i - start, &stop);
			start = i + 1;
			if (crlf)
				break;
		}
	}
	free(line);
	ctx->script = saved_script;
	ctx->line = saved_line;
	/* a directory opens but does not read (EISDIR) */
	if (read_errno)
		failed = cmd_error(ctx, "cannot read '%s': %s", name, strerror(read_errno));
	return failed;
}

/* How the folder to come back to is held open: O_PATH, where there is one,
 * needs only the right to enter it, not to list it. */
#ifdef O_PATH
#define SCRIPT_DIR_OPEN O_PATH
#else
#define SCRIPT_DIR_OPEN O_RDONLY
#endif

/* Enters the folder of the script at path, keeping a way back on
 * ctx->return_dirs; false after reporting when it cannot. */
static bool enter_script_dir(CmdContext *ctx, const char *path)
{
	char *dir = path_dirname(path);
	int back;
	bool ok;
	/* room first: running out of memory after the chdir would leave
	 * nothing to come back by */
	grow_array((void **)&ctx->return_dirs, &ctx->cap_return_dirs, ctx->nreturn_dirs + 1,
		   sizeof(int));
	back = open(".", SCRIPT_DIR_OPEN | O_DIRECTORY | O_CLOEXEC);
	ok = back >= 0;
	if (!ok)
		cmd_error(ctx,
			  "cannot run '%s' in its folder: the current folder cannot be "
			  "reopened: %s",
			  path, strerror(errno));
	else if (strcmp(dir, ".") != 0 && chdir(dir) != 0)
		ok = cmd_error(ctx, "cannot run '%s' in its folder '%s': %s", path, dir,
			       strerror(errno)) == 0;
	free(dir);
	if (!ok) {
		if (back >= 0)
			close(back);
		return false;
	}
	ctx->return_dirs[ctx->nreturn_dirs++] = back;
	return true;
}

int commands_run_script(CmdContext *ctx, const char *path)
{
	FILE *f;
	char *text, *err;
	size_t len;
	int status;
	bool sets_top = !ctx->top_dir;
	if (ctx->depth >= SCRIPT_MAX_DEPTH)
		return cmd_error(ctx, "scripts nested too deeply (%d levels) at '%s'",
				 SCRIPT_MAX_DEPTH, path);
	/* read whole, within the limits of a module (file_read.h): a FIFO
	 * waits interruptibly, /dev/zero stops at FILE_STREAM_MAX */
	if (!file_read_all(path, FILE_STREAM, &text, &len, &err)) {
		status = cmd_error(ctx, "%s", err);
		free(err);
		return status;
	}
	if (len == 0) {
		free(text);
		return 0;
	}
	f = fmemopen(text, len, "r");
	if (!f) {
		free(text);
		return cmd_error(ctx, "cannot read '%s': %s", path, strerror(errno));
	}
	/* a script runs in its own folder; the top level's stays known, for
	 * inputs not beside the script (commands_input_path) */
	if (sets_top)
		ctx->top_dir = path_current_dir();
	if (!enter_script_dir(ctx, path)) {
		fclose(f);
		free(text);
		if (sets_top) {
			free(ctx->top_dir);
			ctx->top_dir = NULL;
		}
		return 1;
	}
	ctx->depth++;
	status = commands_run_stream(ctx, f, path);
	ctx->depth--;
	fclose(f);
	free(text);
	leave_script_dirs(ctx, ctx->nreturn_dirs - 1);
	if (sets_top) {
		free(ctx->top_dir);
		ctx->top_dir = NULL;
	}
	return status;
}

/* ---- completion ---- */

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void commands_complete(const Session *s, const char *line, size_t start, const char *word,
		       CmdCandidates *out)
{
	char *before = xstrndup(line, start);
	int argc;
	char **argv;
	char *err;
	memset(out, 0, sizeof *out);
	if (commands_split(before, &argc, &argv, &err)) {
		if (argc == 0) {
			cmd_complete_commands(s, 1, NULL, word, out);
		} else {
			bool ambiguous;
			const Command *cmd = commands_find(argv[0], &ambiguous);
			if (cmd && cmd->completer) {
				free(argv[0]);
				argv[0] = xstrdup(cmd->name);
				cmd->completer(s, argc, argv, word, out);
			}
		}
		commands_free_words(argc, argv);
	} else {
		free(err);
	}
	free(before);
	if (out->count > 1) {
		size_t n = 1;
		qsort(out->items, out->count, sizeof(char *), compare_strings);
		for (size_t i = 1; i < out->count; i++) {
			if (strcmp(out->items[i], out->items[n - 1]) == 0)
				free(out->items[i]);
			else
				out->items[n++] = out->items[i];
		}
		out->count = n;
	}
}
