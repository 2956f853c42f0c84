/*
 * fuzz_commands.c - libFuzzer target for the command layer: dispatch, the
 * handlers, settings, breakpoints, what-if pins, stepping and execution.
 *
 * At start-up the two modules below are written to temporary files: the
 * first (shared_input.relay's conflict, plus a let and a call of a second
 * global) serves every input, the second (scalar constants, a let-bound
 * closure, a tuple and its projection, an if) inputs whose first line is
 * `# module 2`. Every input gets a fresh Session with its module loaded and a fresh
 * CmdContext, and each of its lines (at most MAX_LINES lines of at most
 * MAX_LINE bytes; the rest is ignored, a longer line is cut) goes through
 * commands_execute_line with both output streams on /dev/null, then is
 * completed at its last word as the REPL's Tab would (commands_complete;
 * completion only reads the session, so every line is completed, the
 * skipped ones included). Re-creating
 * the session (instead of undoing what the last input did) keeps the
 * inputs independent of one another, which is what lets libFuzzer
 * reproduce and minimise a finding; loading the tiny module costs
 * microseconds. The sanitizers (the target is built with
 * -fsanitize=fuzzer,address,undefined when DEVPLAN_FUZZ is on) turn any
 * crash, over-read, leak or undefined behaviour into a finding, and a
 * phase output the verifier rejects (pipeline_verify_rejections) aborts.
 *
 * Lines that could touch the file system or the process are not run (see
 * line_allowed); the decision is taken on the command as the dispatcher
 * resolves it (aliases and unique prefixes included), from the words as
 * commands_split splits them:
 *
 *   load, reload, source  read files named by the input (or the module
 *                         file again);
 *   quit                  stops the session (ctx->quit);
 *   cd                    moves the process to another folder;
 *   save, bugreport       write FILE, create DIR and the files in it;
 *   diff                  not `diff --module FILE`, which reads FILE;
 *   reduce                only without -o/--output (writes FILE) and not
 *                         `script FILE` (runs a file as a script);
 *   record                only `record` and `record off` (which only
 *                         report or fail without a file open) run;
 *                         `record FILE` creates FILE;
 *   render                only with FILE `-` (the graph source, written to
 *                         ctx->out without Graphviz's layout) and no
 *                         --html; any other FILE is written to the disk;
 *   run, profile, compare no `--output` (writes a .npy file) and no
 *                         NAME=VALUE whose VALUE is not random[:SEED]
 *                         (NAME=FILE.npy reads a file; a shape,
 *                         random:SEED:(SHAPE), may ask for gigabytes).
 *
 * Everything else runs: it only reads and changes the session and the
 * context (`history` lists lines kept in memory; `target add` extends the
 * in-memory device table; `run` executes on the cpu and the host emulator,
 * as the target is built without CUDA). There are no shell escapes among
 * the commands. Lines that do not split, or name no command, run as well:
 * they only fail.
 *
 *   CC=clang cmake -S . -B build-fuzz -DDEVPLAN_FUZZ=ON -DDEVPLAN_SANITIZE=ON
 *   make -C build-fuzz fuzz_commands
 *   build-fuzz/tests/fuzz_commands -dict=tests/fuzz_commands.dict -max_total_time=60 \
 *       NEW_CORPUS_DIR tests/fuzz_commands_corpus
 *
 * or `scripts/fuzz fuzz_commands`.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dispatch.h"
#include "pipeline.h"
#include "session.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_LINES = 64, MAX_LINE = 256 };

static const char module_text[] =
	"#[version = \"0.0.5\"]\n"
	"def @f(%x: Tensor[(5, 7), float32], %y: Tensor[(5, 7), float32]) -> Tensor[(5, 7), "
	"float32] {\n"
	"  add(%x, on_device(%y, virtual_device=meta[VirtualDevice][0]))\n"
	"}\n"
	"\n"
	"def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32],\n"
	"          %c: Tensor[(5, 7), float32]) {\n"
	"  %0 = add(%a, %b);\n"
	"  %1 = on_device(%0, virtual_device=meta[VirtualDevice][0]);\n"
	"  %2 = add(%b, %c);\n"
	"  %3 = on_device(%2, virtual_device=meta[VirtualDevice][1]);\n"
	"  let %l = subtract(%1, %3);\n"
	"  @f(%l, %c)\n"
	"}\n";

static const char module2_text[] = "#[version = \"0.0.5\"]\n"
				   "def @main(%x: Tensor[(2, 3), float32], %p: bool) {\n"
				   "  %0 = add(%x, 1f);\n"
				   "  %1 = on_device(%0, virtual_device=meta[VirtualDevice][1]);\n"
				   "  let %g = fn (%y: Tensor[(2, 3), float32]) {\n"
				   "    multiply(%y, 2f)\n"
				   "  };\n"
				   "  %2 = %g(%1);\n"
				   "  %3 = (%2, %x);\n"
				   "  %4 = %3.0;\n"
				   "  if (%p) {\n"
				   "    %4\n"
				   "  } else {\n"
				   "    %x\n"
				   "  }\n"
				   "}\n";

/* The first line that selects the second module. */
static const char module2_line[] = "# module 2";

static char module_path[64], module2_path[64];
static FILE *devnull;

static void remove_modules(void)
{
	if (module_path[0])
		unlink(module_path);
	if (module2_path[0])
		unlink(module2_path);
}

static void write_module(char *path, const char *text)
{
	size_t len = strlen(text);
	int fd;
	strcpy(path, "/tmp/devplan-fuzz-XXXXXX.relay");
	fd = mkstemps(path, 6);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len || close(fd) != 0) {
		perror("fuzz_commands: cannot write a module");
		abort();
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	write_module(module_path, module_text);
	write_module(module2_path, module2_text);
	atexit(remove_modules);
	devnull = fopen("/dev/null", "w");
	if (!devnull) {
		perror("fuzz_commands: /dev/null");
		abort();
	}
	return 0;
}

/* `reduce` writes FILE after -o, and `reduce script FILE` runs FILE. */
static bool reduce_allowed(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0 ||
		    (i == 1 && strncmp(argv[i], "s", 1) == 0)) /* `script` by any prefix */
			return false;
	return true;
}

/* `render` writes FILE unless it is `-`; mirrors cmd_render's reading of
 * its arguments: the words after --phase, --focus and --depth are their
 * values, other words starting with '-' (but `-` itself) are options. */
static bool render_allowed(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--html") == 0) /* writes the word after it, whatever it is */
			return false;
		if (strcmp(a, "--phase") == 0 || strcmp(a, "--focus") == 0 ||
		    strcmp(a, "--depth") == 0)
			i++;
		else if (!(a[0] == '-' && a[1]) && strcmp(a, "-") != 0)
			return false;
	}
	return true;
}

/* run, profile and compare: no --output, and every input random. */
static bool run_allowed(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		if (strcmp(argv[i], "--output") == 0)
			return false;
		if (eq && (strncmp(eq + 1, "random", 6) != 0 || strchr(eq, '(')))
			return false;
	}
	return true;
}

/* Whether line may run (see the top of the file). */
static bool line_allowed(const char *line)
{
	int argc;
	char **argv;
	char *err;
	bool ambiguous, ok = true;
	const Command *cmd;
	if (!commands_split(line, &argc, &argv, &err)) {
		free(err);
		return true;
	}
	cmd = argc > 0 ? commands_find(argv[0], &ambiguous) : NULL;
	if (!cmd)
		ok = true;
	else if (cmd->handler == cmd_load || cmd->handler == cmd_reload ||
		 cmd->handler == cmd_source || cmd->handler == cmd_quit ||
		 cmd->handler == cmd_save || cmd->handler == cmd_bugreport ||
		 cmd->handler == cmd_cd)
		ok = false;
	else if (cmd->handler == cmd_record)
		ok = argc == 1 || (argc == 2 && strcmp(argv[1], "off") == 0);
	else if (cmd->handler == cmd_diff)
		ok = argc < 2 || strcmp(argv[1], "--module") != 0;
	else if (cmd->handler == cmd_reduce)
		ok = reduce_allowed(argc, argv);
	else if (cmd->handler == cmd_render)
		ok = render_allowed(argc, argv);
	else if (cmd->handler == cmd_run || cmd->handler == cmd_profile ||
		 cmd->handler == cmd_compare)
		ok = run_allowed(argc, argv);
	commands_free_words(argc, argv);
	return ok;
}

/* Tab at the end of line: the word being completed starts after the last
 * blank. */
static void complete_line(const Session *s, const char *line)
{
	CmdCandidates candidates;
	size_t start = strlen(line);
	while (start > 0 && line[start - 1] != ' ' && line[start - 1] != '\t')
		start--;
	commands_complete(s, line, start, line + start, &candidates);
	cmd_candidates_free(&candidates);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Session session;
	CmdContext ctx;
	char line[MAX_LINE + 1];
	size_t pos = 0;
	size_t select = sizeof module2_line - 1;
	const char *path = size >= select && memcmp(data, module2_line, select) == 0 ? module2_path
										     : module_path;
	session_init(&session);
	if (!session_load(&session, path)) {
		fprintf(stderr, "fuzz_commands: cannot load %s\n", path);
		abort();
	}
	cmd_context_init(&ctx, &session, devnull, devnull);
	for (int n = 0; n < MAX_LINES && pos < size && !ctx.quit; n++) {
		const uint8_t *nl = memchr(data + pos, '\n', size - pos);
		size_t end = nl ? (size_t)(nl - data) : size;
		size_t len = end - pos < MAX_LINE ? end - pos : MAX_LINE;
		/* a NUL inside the line ends it, as it would for the shell */
		memcpy(line, data + pos, len);
		line[len] = '\0';
		pos = end + 1;
		if (line_allowed(line))
			commands_execute_line(&ctx, line);
		complete_line(&session, line);
		/* a phase's output the verifier rejected: `plan` failed with an
		 * internal error, a finding as a crash is */
		if (pipeline_verify_rejections()) {
			fprintf(stderr,
				"fuzz_commands: the verifier rejected a phase's output "
				"after the line: %s\n",
				line);
			abort();
		}
	}
	cmd_context_free(&ctx);
	session_free(&session);
	interrupt_clear();
	return 0;
}
