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
 * completion instead. The history file is read at open and written at
 * close. SIGWINCH, like SIGINT, only sets a flag that the read loop checks.
 */
#include "repl.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "interrupt.h"

enum { REPL_HISTORY_SIZE = 1000 };

static struct {
	Session *session;
	bool use_readline;
	char *history_path; /* NULL: no history file */
	char *line;         /* what the callback handler received */
	bool line_done;
	CmdCandidates candidates;
	size_t next_candidate;
} repl;

/* Set by SIGWINCH; readline learns the new width before the next key. */
static volatile sig_atomic_t repl_resized;

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

static char *repl_history_file(void)
{
	const char *env = getenv("DEVPLAN_HISTORY");
	const char *home = getenv("HOME");
	if (env)
		return *env ? xstrdup(env) : NULL;
	if (!home || !*home)
		return NULL;
	return xasprintf("%s/.devplan_history", home);
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

void repl_open(Session *session, bool use_readline)
{
	repl.session = session;
	repl.use_readline = use_readline;
	if (!use_readline)
		return;
	rl_readline_name = "devplan";
	rl_catch_signals = 0;
	rl_catch_sigwinch = 0;
	{
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = repl_on_sigwinch;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESTART;
		sigaction(SIGWINCH, &sa, NULL);
	}
	rl_attempted_completion_function = repl_complete;
	rl_basic_word_break_characters = " \t\n";
	rl_completer_quote_characters = "\"";
	using_history();
	stifle_history(REPL_HISTORY_SIZE);
	repl.history_path = repl_history_file();
	if (repl.history_path)
		read_history(repl.history_path);
}

void repl_close(void)
{
	if (repl.use_readline) {
		if (repl.history_path)
			write_history(repl.history_path);
		clear_history();
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

char *repl_read_line(const char *prompt)
{
	if (!repl.use_readline)
		return repl_read_plain(prompt);
	repl.line = NULL;
	repl.line_done = false;
	rl_callback_handler_install(prompt, repl_on_line);
	while (!repl.line_done) {
		struct pollfd pfd;
		if (interrupt_pending()) {
			repl_discard_line();
			continue;
		}
		if (repl_resized) {
			repl_resized = 0;
			rl_resize_terminal();
		}
		pfd.fd = fileno(rl_instream ? rl_instream : stdin);
		pfd.events = POLLIN;
		pfd.revents = 0;
		if (poll(&pfd, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			rl_callback_handler_remove();
			return NULL;
		}
		rl_callback_read_char();
	}
	return repl.line;
}

int repl_run(CmdContext *ctx)
{
	while (!ctx->quit) {
		char *line;
		interrupt_clear();
		line = repl_read_line("(devplan) ");
		if (!line) {
			if (ctx->interactive)
				fputs("quit\n", ctx->out);
			break;
		}
		repl_add_history(line);
		commands_execute_line(ctx, line);
		free(line);
	}
	return 0;
}
