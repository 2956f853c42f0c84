/*
 * repl.c - readline behind four small functions, with a plain fallback.
 *
 * readline runs through its callback interface: we poll standard input
 * ourselves and feed readline one character at a time, so that a SIGINT
 * (whose handler only sets the interrupt flag of interrupt.h; readline's
 * own handlers are off) interrupts poll() and we discard the half-typed line
 * at a safe point instead of longjmp-ing out of a signal handler.
 *
 * Completion asks the command table (commands_complete) for candidates; a
 * command whose argument is a file name asks for readline's filename
 * completion instead. SIGWINCH, like SIGINT, only sets a flag that the
 * read loop checks; so do SIGTERM and SIGHUP, which also raise the
 * interrupt flag so that a running command stops: the loop then returns
 * NULL, repl_run ends, and repl_close saves the history and gives the
 * terminal back before main exits with 128 + the signal's number. The
 * flags are tested with those signals blocked and waited for in pselect
 * with them unblocked, so that none arrives between test and wait.
 *
 * The history file is read at open; at close this session's lines are
 * merged into it and it is cut to REPL_HISTORY_SIZE lines, as bash does,
 * so that sessions that ran side by side keep each other's lines: under a
 * lock (flock on HISTORY.lock) the file is read again, this session's
 * lines added and the result renamed into place, so that sessions that
 * quit at the same moment lose none. A file
 * that exists but cannot be read (a directory, no permission) is left
 * alone, with a warning, rather than replaced by this session's lines.
 */
#include "repl.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "file_read.h"
#include "file_write.h"
#include "interrupt.h"
#include "path.h"
#include "pager.h"

enum { REPL_HISTORY_SIZE = 1000, REPL_HISTORY_LOCK_MS = 5000 };

static struct {
	Session *session;
	bool use_readline;
	char *history_path; /* NULL: no history file, or one left alone */
	int history_added;  /* lines this session added to the history */
	char *line;         /* what the callback handler received */
	bool line_done;
	CmdCandidates candidates;
	size_t next_candidate;
} repl;

/* Set by SIGWINCH; readline learns the new width before the next key. */
static volatile sig_atomic_t repl_resized;
/* SIGTERM or SIGHUP, once received: the session ends at the next safe
 * point. Outside `repl` so that it outlives repl_close. */
static volatile sig_atomic_t repl_signal;

static void repl_on_sigint(int sig)
{
	(void)sig;
	interrupt_request();
}

static void repl_on_sigwinch(int sig)
{
	(void)sig;
	repl_resized = 1;
}

static void repl_on_terminate(int sig)
{
	repl_signal = sig;
	interrupt_request(); /* a running command stops at its next safe point */
}

static void repl_set_handler_flags(int sig, void (*handler)(int), int flags)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = flags;
	sigaction(sig, &sa, NULL);
}

static void repl_set_handler(int sig, void (*handler)(int))
{
	repl_set_handler_flags(sig, handler, SA_RESTART);
}

void repl_install_terminate(void)
{
	repl_set_handler_flags(SIGTERM, repl_on_terminate, 0);
	repl_set_handler_flags(SIGHUP, repl_on_terminate, 0);
}

int repl_terminating_signal(void)
{
	return repl_signal;
}

void repl_install_sigint(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = repl_on_sigint;
	sigemptyset(&sa.sa_mask);
	/* SA_RESTART keeps a command's writes to a pipe from failing with
	 * EINTR; poll() at the prompt is never restarted, so it still wakes. */
	sa.sa_flags = SA_RESTART;
	sigaction(SIGINT, &sa, NULL);
}

/* The history file, absolute: `cd` may change the folder before it is
 * written. */
static char *repl_history_file(void)
{
	const char *env = getenv("DEVPLAN_HISTORY");
	const char *home = getenv("HOME");
	if (env && *env && env[0] != '/') {
		char *cwd = path_current_dir();
		char *path = cwd ? path_join(cwd, env) : xstrdup(env);
		free(cwd);
		return path;
	}
	if (env)
		return *env ? xstrdup(env) : NULL;
	if (!home || !*home)
		return NULL;
	return xasprintf("%s/.devplan_history", home);
}

/* Reads the history file into readline's history. One that exists and
 * cannot be read is left alone: no history is saved to it. */
static void repl_read_history(void)
{
	struct stat st;
	char *why = NULL;
	int fd, err = 0;
	if (stat(repl.history_path, &st) != 0 && errno == ENOENT)
		return;
	/* readline would open a FIFO and wait: a regular file only */
	fd = file_open_read(repl.history_path, FILE_REGULAR, NULL, &why);
	if (fd >= 0) {
		close(fd);
		err = read_history(repl.history_path);
		if (err == 0 || err == ENOENT)
			return;
	}
	fprintf(stderr,
		"warning: cannot read the history file '%s': %s; it is left as it is and "
		"this session's history is not saved\n",
		repl.history_path,
		why && strstr(why, "': ") ? strstr(why, "': ") + 3 : strerror(err));
	free(why);
	free(repl.history_path);
	repl.history_path = NULL;
}

static char *repl_next_candidate(const char *text, int state)
{
	(void)text;
	if (state == 0)
		repl.next_candidate = 0;
	if (repl.next_candidate < repl.candidates.count)
		return xstrdup(repl.candidates.items[repl.next_candidate++]);
	return NULL;
}

static char **repl_complete(const char *text, int start, int end)
{
	(void)end;
	cmd_candidates_free(&repl.candidates);
	commands_complete(repl.session, rl_line_buffer, (size_t)start, text, &repl.candidates);
	if (repl.candidates.files && repl.candidates.count == 0) {
		rl_attempted_completion_over = 0; /* readline completes paths */
		return NULL;
	}
	rl_attempted_completion_over = 1;
	if (repl.candidates.count == 0)
		return NULL;
	return rl_completion_matches(text, repl_next_candidate);
}

/* file_write.h's question before a command replaces the module the
 * session loaded: yes only for an answer starting with y. */
static bool repl_ask_replace(const char *path, void *context)
{
	char *prompt =
		xasprintf("'%s' is the module this session loaded; replace it? [y/N] ", path);
	char *answer;
	bool yes;
	(void)context;
	fflush(stdout);
	answer = repl_read_line(prompt);
	yes = answer && (answer[0] == 'y' || answer[0] == 'Y');
	free(answer);
	free(prompt);
	return yes;
}

void repl_open(Session *session, bool use_readline)
{
	repl.session = session;
	repl.use_readline = use_readline;
	if (!use_readline)
		return;
	rl_readline_name = "devplan";
	rl_catch_signals = 0;
	rl_catch_sigwinch = 0;
	repl_set_handler(SIGWINCH, repl_on_sigwinch);
	repl_set_handler(SIGTERM, repl_on_terminate);
	repl_set_handler(SIGHUP, repl_on_terminate);
	file_guard_ask(repl_ask_replace, NULL);
	rl_attempted_completion_function = repl_complete;
	rl_basic_word_break_characters = " \t\n";
	rl_completer_quote_characters = "\"";
	using_history();
	stifle_history(REPL_HISTORY_SIZE);
	repl.history_path = repl_history_file();
	if (repl.history_path)
		repl_read_history();
}

/* Takes the history's lock: an exclusive flock on PATH.lock beside it,
 * waited for at most REPL_HISTORY_LOCK_MS. The descriptor, which close
 * releases, or -1 when there is no lock to be had. */
static int repl_lock_history(const char *path)
{
	char *lock = xasprintf("%s.lock", path);
	int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	free(lock);
	if (fd < 0)
		return -1;
	for (int waited = 0; flock(fd, LOCK_EX | LOCK_NB) != 0; waited += 10) {
		if ((errno != EWOULDBLOCK && errno != EINTR) || waited >= REPL_HISTORY_LOCK_MS) {
			close(fd);
			return -1;
		}
		usleep(10000);
	}
	return fd;
}

/* The lines of the history file now (NULL-terminated text, each line
 * ending in a newline) into sb; a missing file is empty. */
static bool repl_read_history_text(const char *path, StrBuf *sb)
{
	struct stat st;
	char *text, *err;
	size_t len;
	if (stat(path, &st) != 0 && errno == ENOENT)
		return true;
	/* a regular file (file_read.h): a FIFO there would never end */
	if (!file_read_all(path, FILE_REGULAR, &text, &len, &err)) {
		free(err);
		return false;
	}
	strbuf_append(sb, text, len);
	free(text);
	if (sb->len && sb->data[sb->len - 1] != '\n')
		strbuf_puts(sb, "\n");
	return true;
}

/* Where the last `keep` lines of text start. */
static size_t repl_last_lines(const StrBuf *text, int keep)
{
	size_t at = text->len;
	int lines = 0;
	while (at > 0) {
		if (text->data[at - 1] == '\n' && at != text->len && ++lines == keep)
			return at;
		at--;
	}
	return 0;
}

/* Merges this session's lines into the history file: under the history's
 * lock, the file as it is now (other sessions may have saved since this
 * one read it), this session's lines after it, the last REPL_HISTORY_SIZE
 * kept, written to a temporary file renamed over it (file_write.h). So
 * sessions that quit together lose none of each other's lines, and a
 * session killed half-way leaves the old file. */
static void repl_save_history(void)
{
	const char *path = repl.history_path;
	int n = repl.history_added < history_length ? repl.history_added : history_length;
	int lock;
	StrBuf text;
	char *err = NULL;
	size_t from;
	if (!path || n <= 0)
		return;
	lock = repl_lock_history(path);
	strbuf_init(&text);
	if (!repl_read_history_text(path, &text)) {
		fprintf(stderr, "warning: cannot save the history to '%s': %s\n", path,
			strerror(errno));
		goto done;
	}
	for (int i = history_length - n; i < history_length; i++) {
		HIST_ENTRY *e = history_get(history_base + i);
		if (e)
			strbuf_printf(&text, "%s\n", e->line);
	}
	from = repl_last_lines(&text, REPL_HISTORY_SIZE);
	if (!file_write_all_private(path, text.data + from, text.len - from, &err)) {
		fprintf(stderr, "warning: cannot save the history: %s\n", err);
		free(err);
	}
done:
	if (lock >= 0)
		close(lock);
	strbuf_free(&text);
}

void repl_close(void)
{
	if (repl.use_readline) {
		file_guard_ask(NULL, NULL);
		repl_save_history();
		clear_history();
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
	}
	free(repl.history_path);
	cmd_candidates_free(&repl.candidates);
	memset(&repl, 0, sizeof repl);
}

void repl_add_history(const char *line)
{
	HIST_ENTRY *last;
	const char *p = line;
	if (!repl.use_readline)
		return;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return;
	last = history_length > 0 ? history_get(history_base + history_length - 1) : NULL;
	if (last && strcmp(last->line, line) == 0)
		return;
	add_history(line);
	repl.history_added++;
}

static void repl_on_line(char *line)
{
	repl.line = line;
	repl.line_done = true;
	rl_callback_handler_remove();
}

/* Ctrl-C at the prompt: forget the line, start a fresh prompt. */
static void repl_discard_line(void)
{
	interrupt_clear();
	rl_callback_sigcleanup();
	rl_replace_line("", 1);
	fputs("^C", rl_outstream ? rl_outstream : stdout);
	rl_crlf();
	rl_on_new_line();
	rl_redisplay();
}

static char *repl_read_plain(const char *prompt)
{
	bool tty = isatty(STDIN_FILENO);
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	for (;;) {
		if (prompt && tty) {
			fputs(prompt, stdout);
			fflush(stdout);
		}
		errno = 0;
		len = getline(&line, &cap, stdin);
		if (len >= 0)
			break;
		if (errno != EINTR) {
			free(line);
			return NULL;
		}
		clearerr(stdin);
		interrupt_clear();
		fputc('\n', stdout);
	}
	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';
	return line;
}

/* Leaves the prompt without a line: readline's state is reset and the
 * terminal given back. */
static char *repl_abandon_line(const sigset_t *mask)
{
	rl_callback_sigcleanup();
	rl_callback_handler_remove();
	sigprocmask(SIG_SETMASK, mask, NULL);
	return NULL;
}

char *repl_read_line(const char *prompt)
{
	sigset_t watched, unblocked;
	int fd;
	if (!repl.use_readline)
		return repl_read_plain(prompt);
	if (repl_signal)
		return NULL;
	repl.line = NULL;
	repl.line_done = false;
	fd = fileno(rl_instream ? rl_instream : stdin);
	sigemptyset(&watched);
	sigaddset(&watched, SIGINT);
	sigaddset(&watched, SIGTERM);
	sigaddset(&watched, SIGHUP);
	sigaddset(&watched, SIGWINCH);
	sigprocmask(SIG_BLOCK, &watched, &unblocked);
	rl_callback_handler_install(prompt, repl_on_line);
	while (!repl.line_done) {
		fd_set readable;
		if (repl_signal) {
			repl_abandon_line(&unblocked);
			fputc('\n', rl_outstream ? rl_outstream : stdout);
			return NULL;
		}
		if (interrupt_pending()) {
			repl_discard_line();
			continue;
		}
		if (repl_resized) {
			repl_resized = 0;
			rl_resize_terminal();
		}
		FD_ZERO(&readable);
		FD_SET(fd, &readable);
		/* the watched signals arrive only while waiting here */
		if (pselect(fd + 1, &readable, NULL, NULL, NULL, &unblocked) < 0) {
			if (errno == EINTR)
				continue;
			return repl_abandon_line(&unblocked);
		}
		sigprocmask(SIG_SETMASK, &unblocked, NULL);
		rl_callback_read_char();
		sigprocmask(SIG_BLOCK, &watched, NULL);
	}
	sigprocmask(SIG_SETMASK, &unblocked, NULL);
	return repl.line;
}

int repl_run(CmdContext *ctx)
{
	FILE *plain = ctx->out, *paged = NULL;
	/* commands typed at a terminal write through the pager (pager.h) */
	if (ctx->interactive && !ctx->batch && isatty(fileno(plain)) && isatty(STDIN_FILENO))
		paged = pager_open(plain, STDIN_FILENO, repl.session);
	while (!ctx->quit) {
		char *line;
		interrupt_clear();
		line = repl_read_line("(devplan) ");
		if (!line) {
			if (ctx->interactive && !repl_signal)
				fputs("quit\n", ctx->out);
			break;
		}
		repl_add_history(line);
		if (paged) {
			pager_begin();
			ctx->out = paged;
			ctx->out_terminal = true;
		}
		commands_execute_line(ctx, line);
		ctx->out = plain;
		ctx->out_terminal = false;
		if (paged)
			fflush(paged);
		free(line);
		if (repl_signal)
			break;
	}
	pager_close(paged);
	return 0;
}
