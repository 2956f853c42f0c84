/*
 * main.c - the devplan binary: options, the init file, the module, the -x
 * scripts and -c commands in command-line order, then the prompt or
 * standard input.
 *
 *   devplan [-n] [-q] [-b] [-x SCRIPT]... [-c CMD]... [MODULE]
 *   devplan --diff-placement A.json B.json
 *
 * Everything runs through the command table, so a script, a -c string and
 * a line typed at the prompt behave alike. Exit status: 0 when every
 * scripted command succeeded, 1 when one failed (with -b the first failure
 * stops the run), 2 for a usage error, 128 + N when signal N (SIGTERM,
 * SIGHUP) ended the session: it stops the running command at its next
 * safe point (which removes a half-written file and ends a layout child),
 * runs nothing more and exits as usual. Commands typed at the prompt do not change the
 * status, as in gdb. This is the only file that calls exit paths
 * (by returning from main).
 *
 * Everything runs on a thread with a stack of its own, COMMAND_STACK_BYTES
 * (more when `ulimit -s` allows more), so that how deeply a module may nest
 * does not depend on the stack limit of the shell devplan was started
 * from: under `ulimit -s 256` a module nested 1000 levels deep loads as
 * under the usual 8 MiB. The first thread only waits for it, with every
 * signal blocked so that the handlers run on the thread they interrupt.
 * Where no such thread can be made (an address-space limit too tight for
 * its stack), devplan runs on the first thread and parse_max_depth() fits
 * the nesting to the stack it has.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "dispatch.h"
#include "repl.h"

typedef struct Action {
	char kind;       /* 'x': run a script, 'c': run a command */
	const char *arg; /* borrowed from argv */
} Action;

static void print_usage(FILE *f)
{
	fputs("usage: devplan [-n] [-q] [-b] [-x SCRIPT]... [-c CMD]... [MODULE]\n"
	      "  -b         batch: run MODULE, the scripts and the commands, then exit;\n"
	      "             stop with status 1 at the first failing command\n"
	      "  -c CMD     run the command CMD (repeatable; in order with -x)\n"
	      "  -x SCRIPT  run the commands in SCRIPT (repeatable)\n"
	      "  -n         do not run ~/.devplanrc\n"
	      "  -q         do not print the banner\n"
	      "  -h, --help print this help; --version prints the version\n"
	      "Without -b, the prompt follows when standard input is a terminal;\n"
	      "otherwise commands are read from standard input.\n"
	      "\n"
	      "usage: devplan --diff-placement A.json B.json\n"
	      "Compares two files of `placement --json`: the values moved, the copies\n"
	      "appearing and vanishing, the bytes per direction. Exit status 0 when\n"
	      "they are the same, 1 when they differ, 2 on an error.\n",
	      f);
}

static int usage_error(const char *fmt, const char *what)
{
	fputs("devplan: ", stderr);
	fprintf(stderr, fmt, what);
	fputc('\n', stderr);
	print_usage(stderr);
	return 2;
}

/* Flushes standard output: status, or 1 after saying why it could not be
 * written (a full disk, a closed pipe), so that even `devplan --version
 * >/dev/full` fails. */
static int finish_stdout(int status, int failure)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return status;
	fprintf(stderr, "devplan: error: cannot write the output: %s\n",
		errno ? strerror(errno) : "a write failed");
	return failure;
}

/* Runs ~/.devplanrc when it exists, like `source` (its lines are not
 * history and are not recorded). As gdb does with a bad .gdbinit, a line
 * that fails is reported, positioned (`~/.devplanrc:3: warning: ...`),
 * and the run goes on: the init file is the user's defaults, not the work
 * a batch run was asked to do, so it never fails one. Where gdb skips the
 * rest of the file, its other lines run, so that a typo costs one line
 * (`set errexit on` in it still stops the file at its next failure). */
static void run_init_file(CmdContext *ctx)
{
	const char *home = getenv("HOME");
	char *path;
	bool batch = ctx->batch;
	if (!home || !*home)
		return;
	path = xasprintf("%s/.devplanrc", home);
	if (access(path, F_OK) == 0) {
		ctx->sourcing++;
		ctx->batch = false;
		ctx->errors_as_warnings = true;
		(void)commands_run_script(ctx, path);
		ctx->errors_as_warnings = false;
		ctx->batch = batch;
		ctx->sourcing--;
	}
	free(path);
}

static int devplan_main(int argc, char **argv)
{
	static const struct option long_options[] = {
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{"diff-placement", no_argument, NULL, 'D'},
		{NULL, 0, NULL, 0},
	};
	bool no_init = false, quiet = false, batch = false, diff_placement = false;
	bool stdin_tty = isatty(STDIN_FILENO);
	bool failed = false;
	Action *actions = NULL;
	size_t nactions = 0, cap = 0;
	const char *module = NULL;
	Session session;
	CmdContext ctx;
	int opt, signo = 0;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":nqbx:c:h", long_options, NULL)) != -1) {
		switch (opt) {
		case 'n':
			no_init = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'b':
			batch = true;
			break;
		case 'x':
		case 'c':
			grow_array((void **)&actions, &cap, nactions + 1, sizeof(Action));
			actions[nactions].kind = (char)opt;
			actions[nactions++].arg = optarg;
			break;
		case 'h':
			print_usage(stdout);
			free(actions);
			return finish_stdout(0, 1);
		case 'V':
			printf("devplan %s\n", DEVPLAN_VERSION);
			free(actions);
			return finish_stdout(0, 1);
		case 'D':
			diff_placement = true;
			break;
		case ':': {
			char name[3] = {'-', (char)optopt, '\0'};
			free(actions);
			return usage_error("option '%s' needs an argument", name);
		}
		default: {
			char name[3] = {'-', (char)optopt, '\0'};
			free(actions);
			return usage_error("unknown option '%s'", optopt ? name : argv[optind - 1]);
		}
		}
	}
	if (diff_placement) {
		free(actions);
		if (argc - optind != 2 || nactions || batch)
			return usage_error("%s takes two files and no other option",
					   "--diff-placement");
		return finish_stdout(
			cmd_diff_placement_files(stdout, stderr, argv[optind], argv[optind + 1]),
			2);
	}
	if (argc - optind > 1) {
		free(actions);
		return usage_error("too many arguments, starting at '%s'", argv[optind + 1]);
	}
	if (optind < argc)
		module = argv[optind];

	session_init(&session);
	cmd_context_init(&ctx, &session, stdout, stderr);
	ctx.batch = batch;
	repl_install_terminate();
	if (!batch && stdin_tty) {
		repl_install_sigint();
		if (!quiet)
			printf("devplan %s, a debugger for heterogeneous device planning.\n"
			       "Type 'help' for the commands, 'quit' or Ctrl-D to leave.\n",
			       DEVPLAN_VERSION);
	}

	if (!no_init)
		run_init_file(&ctx);
	if (module && !ctx.quit && !repl_terminating_signal()) {
		char *load[] = {"load", (char *)module, NULL};
		if (commands_execute_argv(&ctx, 2, load) != 0) {
			failed = true;
			if (batch)
				goto done;
		}
	}
	for (size_t i = 0; i < nactions && !ctx.quit && !repl_terminating_signal(); i++) {
		int status;
		if (actions[i].kind == 'c')
			commands_echo_line(&ctx, actions[i].arg);
		status = actions[i].kind == 'x' ? commands_run_script(&ctx, actions[i].arg)
						: commands_execute_line(&ctx, actions[i].arg);
		if (status != 0) {
			failed = true;
			if (batch)
				goto done;
		}
	}
	if (ctx.quit || repl_terminating_signal() || (batch && (nactions > 0 || stdin_tty)))
		goto done;
	if (stdin_tty) {
		ctx.interactive = true;
		repl_open(&session, true);
		repl_run(&ctx);
		repl_close();
	} else if (commands_run_stream(&ctx, stdin, "<stdin>") != 0) {
		failed = true;
	}

done:
	signo = repl_terminating_signal(); /* SIGTERM or SIGHUP stopped the commands */
	/* output a command wrote and could not flush (it said so if it saw) */
	if (failed ? fflush(stdout) != 0 : finish_stdout(0, 1) != 0)
		failed = true;
	fflush(stderr);
	if (cmd_context_free(&ctx) != 0) /* a recording that could not be kept */
		failed = true;
	session_free(&session);
	free(actions);
	if (signo)
		return 128 + signo; /* the shell's status for a process a signal ended */
	return failed ? 1 : 0;
}

enum {
	COMMAND_STACK_BYTES = 8 << 20, /* 1000 levels of nesting, sanitizers' frames included */
	COMMAND_STACK_MAX = 256 << 20,
};

/* The command thread's stack: COMMAND_STACK_BYTES, or the stack limit
 * when that is larger (never more than COMMAND_STACK_MAX). */
static size_t command_stack_bytes(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur <= COMMAND_STACK_BYTES)
		return COMMAND_STACK_BYTES;
	return rl.rlim_cur < COMMAND_STACK_MAX ? (size_t)rl.rlim_cur : COMMAND_STACK_MAX;
}

typedef struct MainCall {
	int argc;
	char **argv;
	int status;
} MainCall;

static void *command_thread(void *arg)
{
	MainCall *call = arg;
	call->status = devplan_main(call->argc, call->argv);
	return NULL;
}

int main(int argc, char **argv)
{
	MainCall call = {argc, argv, 0};
	pthread_attr_t attr;
	pthread_t thread;
	sigset_t all;
	bool started;
	if (pthread_attr_init(&attr) != 0)
		return devplan_main(argc, argv);
	started = pthread_attr_setstacksize(&attr, command_stack_bytes()) == 0 &&
		  pthread_create(&thread, &attr, command_thread, &call) == 0;
	pthread_attr_destroy(&attr);
	if (!started)
		return devplan_main(argc, argv);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	pthread_join(thread, NULL);
	return call.status;
}
