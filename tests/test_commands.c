/*
 * test_commands.c - the command table, dispatch, scripts, settings and
 * completion, with output captured through open_memstream.
 *
 * Each test gets a fresh Session and runs command lines through
 * commands_execute_line; `run` captures what went to ctx->out and ctx->err
 * separately. The table is also checked against USAGE.md: every command has
 * a `### name` section showing its usage, and every such section names a
 * command.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "dispatch.h"
#include "npy.h"
#include "session.h"

typedef struct Fixture {
	Session session;
	CmdContext ctx;
	char *out;
	char *err;
	char script[64]; /* a temporary script path, removed in teardown */
	char script2[64];
} Fixture;

static int setup(void **state)
{
	Fixture *f = xcalloc(1, sizeof *f);
	session_init(&f->session);
	cmd_context_init(&f->ctx, &f->session, NULL, NULL);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	Fixture *f = *state;
	if (f->script[0])
		unlink(f->script);
	if (f->script2[0])
		unlink(f->script2);
	cmd_context_free(&f->ctx);
	session_free(&f->session);
	free(f->out);
	free(f->err);
	free(f);
	return 0;
}

/* Runs one line; f->out and f->err hold what it printed. */
static int run(Fixture *f, const char *line)
{
	size_t out_len, err_len;
	int status;
	free(f->out);
	free(f->err);
	f->ctx.out = open_memstream(&f->out, &out_len);
	f->ctx.err = open_memstream(&f->err, &err_len);
	assert_non_null(f->ctx.out);
	assert_non_null(f->ctx.err);
	status = commands_execute_line(&f->ctx, line);
	fclose(f->ctx.out);
	fclose(f->ctx.err);
	f->ctx.out = f->ctx.err = NULL;
	return status;
}

/* Writes text to a fresh temporary file whose name lands in path. */
static void write_temp(char *path, const char *text)
{
	int fd;
	strcpy(path, "/tmp/devplan-test-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* Gives the session a tiny module, as if loaded, without the parser. */
static void fake_module(Fixture *f)
{
	IrModule *m = ir_module_new(NULL);
	Expr *body = ir_tuple(m, (Pos){1, 1}, NULL, 0);
	ir_add_global(m, "main", ir_fn(m, (Pos){1, 1}, NULL, 0, NULL, body), (Pos){1, 1});
	f->session.versions[0] = m;
	f->session.path = xstrdup("fake.relay");
}

/* Pretends the first phase ran. */
static void fake_step(Fixture *f)
{
	f->session.versions[1] = ir_module_clone(f->session.versions[0]);
	f->session.phases_done = 1;
}

/* ---- the table ---- */

static void test_table_is_sorted_and_complete(void **state)
{
	(void)state;
	for (size_t i = 0; i < commands_count; i++) {
		const Command *c = &commands_table[i];
		size_t n = strlen(c->name);
		if (i > 0)
			assert_true(strcmp(commands_table[i - 1].name, c->name) < 0);
		assert_non_null(c->handler);
		assert_non_null(c->usage);
		assert_non_null(c->help);
		assert_true(c->help[0] != '\0');
		assert_true(c->min_args >= 0);
		assert_true(c->max_args < 0 || c->max_args >= c->min_args);
		/* usage starts with the name */
		assert_int_equal(strncmp(c->usage, c->name, n), 0);
		assert_true(c->usage[n] == '\0' || c->usage[n] == ' ');
		/* summary: lowercase start, no full stop */
		assert_true(islower((unsigned char)c->summary[0]));
		assert_true(c->summary[strlen(c->summary) - 1] != '.');
		/* an alias is never another command's name or alias */
		for (size_t a = 0; a < DP_COUNT(c->aliases) && c->aliases[a]; a++) {
			bool ambiguous;
			for (size_t j = 0; j < commands_count; j++)
				assert_string_not_equal(commands_table[j].name, c->aliases[a]);
			assert_ptr_equal(commands_find(c->aliases[a], &ambiguous), c);
		}
	}
}

/* The `### name` sections of USAGE.md. */
static size_t usage_sections(const char *text, char names[][32], size_t max)
{
	size_t n = 0;
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (strncmp(p, "### ", 4) == 0 && n < max) {
			size_t len = strcspn(p + 4, " \n");
			assert_true(len < 32);
			memcpy(names[n], p + 4, len);
			names[n][len] = '\0';
			n++;
		}
	}
	return n;
}

static void test_usage_md_matches_table(void **state)
{
	SourceFile *src;
	char *err = NULL;
	char names[128][32];
	size_t n;
	StrBuf problems;
	(void)state;
	src = source_read(DEVPLAN_SOURCE_DIR "/USAGE.md", &err);
	if (!src) {
		print_error("%s\n", err);
		free(err);
		fail();
	}
	strbuf_init(&problems);
	n = usage_sections(src->text, names, 128);
	for (size_t i = 0; i < commands_count; i++) {
		const Command *c = &commands_table[i];
		char *usage = xasprintf("`%s`", c->usage);
		bool found = false;
		for (size_t k = 0; k < n; k++)
			found = found || strcmp(names[k], c->name) == 0;
		if (!found)
			strbuf_printf(&problems, "USAGE.md has no '### %s' section\n", c->name);
		if (!strstr(src->text, usage))
			strbuf_printf(&problems, "USAGE.md does not show the usage %s\n", usage);
		free(usage);
	}
	for (size_t k = 0; k < n; k++) {
		bool found = false;
		for (size_t i = 0; i < commands_count; i++)
			found = found || strcmp(names[k], commands_table[i].name) == 0;
		if (!found)
			strbuf_printf(&problems,
				      "USAGE.md documents '%s', which is not a command\n",
				      names[k]);
	}
	source_release(src);
	if (problems.len) {
		print_error("%s", problems.data);
		strbuf_free(&problems);
		fail();
	}
	strbuf_free(&problems);
}

/* ---- dispatch ---- */

/* gdb's short words: aliases win over the prefixes they would be
 * ambiguous (or wrong) as: r, p, i, n, s, si, ni. */
static void test_gdb_aliases(void **state)
{
	static const struct {
		const char *word, *command;
	} aliases[] = {
		{"r", "run"},       {"p", "print"},   {"i", "info"},     {"n", "step"},
		{"next", "step"},   {"s", "step"},    {"si", "stepi"},   {"ni", "stepi"},
		{"nexti", "stepi"}, {"b", "break"},   {"c", "continue"}, {"info", "info"},
		{"ir", "ir"},       {"tb", "tbreak"}, {"ig", "ignore"},  {"inf", "info"},
	};
	bool ambiguous;
	(void)state;
	for (size_t i = 0; i < DP_COUNT(aliases); i++) {
		const Command *c = commands_find(aliases[i].word, &ambiguous);
		assert_non_null(c);
		assert_string_equal(c->name, aliases[i].command);
	}
}

/* `i b` is `info breakpoints`, never `ir b`; subjects take prefixes and
 * pass their words on to the command that answers. */
static void test_info(void **state)
{
	Fixture *f = *state;
	assert_int_equal(run(f, "i b"), 0);
	assert_string_equal(f->out, "no breakpoints or watchpoints\n");
	assert_string_equal(f->err, "");
	assert_int_equal(run(f, "break infer"), 0);
	assert_int_equal(run(f, "watch %b"), 0);
	assert_int_equal(run(f, "info breakpoints"), 0);
	assert_string_equal(f->out, "num  kind      what         hits\n"
				    "1    phase     infer        0\n"
				    "2    watch     %b           0\n");
	assert_int_equal(run(f, "i w"), 0);
	assert_string_equal(f->out, "num  kind      what         hits\n"
				    "2    watch     %b           0\n");
	assert_int_equal(run(f, "i dev"), 0);
	assert_non_null(strstr(f->out, "cuda:0"));
	assert_int_equal(run(f, "info settings policy"), 0);
	assert_string_equal(f->out, "policy  copy\n");
	assert_int_equal(run(f, "info pins"), 1); /* pin's own flags apply */
	assert_string_equal(f->err, "error: no module loaded; use 'load FILE'\n");
	assert_int_equal(run(f, "info pins %b cpu:0"), 1); /* info asks, never pins */
	assert_string_equal(f->err, "error: 'info pins' takes no arguments\n");
	assert_int_equal(run(f, "info p"), 1);
	assert_string_equal(f->err, "error: ambiguous subject 'p' for 'info': phases, pins\n");
	assert_int_equal(run(f, "info brekpoints"), 1);
	assert_string_equal(f->err, "error: unknown subject 'brekpoints' for 'info'; did you mean "
				    "'breakpoints'?\n");
	assert_int_equal(run(f, "info"), 0);
	assert_non_null(
		strstr(f->out, "  breakpoints  the breakpoints and watchpoints, as breaks\n"));
}

static void test_exact_alias_and_prefix(void **state)
{
	Fixture *f = *state;
	assert_int_equal(run(f, "echo hi"), 0);
	assert_string_equal(f->out, "hi\n");
	assert_string_equal(f->err, "");
	assert_int_equal(run(f, "ech a b"), 0);
	assert_string_equal(f->out, "a b\n");
	assert_int_equal(run(f, "h q"), 0);
	assert_non_null(strstr(f->out, "usage: quit\n"));
	assert_false(f->ctx.quit);
	assert_int_equal(run(f, "exit"), 0);
	assert_true(f->ctx.quit);
}

static void test_ambiguous_and_unknown(void **state)
{
	Fixture *f = *state;
	assert_int_equal(run(f, "pl"), 1);
	assert_string_equal(f->out, "");
	assert_string_equal(f->err, "error: ambiguous command 'pl': placement, plan\n");
	assert_int_equal(run(f, "frobnicate 1 2"), 1);
	assert_string_equal(f->err,
			    "error: unknown command 'frobnicate'; type 'help' for a list\n");
	/* a typo: the nearest commands by edit distance */
	assert_int_equal(run(f, "whyy %b"), 1);
	assert_string_equal(f->err, "error: unknown command 'whyy'; did you mean 'why'?\n");
	assert_int_equal(run(f, "plna"), 1);
	assert_string_equal(f->err, "error: unknown command 'plna'; did you mean 'plan'?\n");
	assert_int_equal(run(f, "pint %x"), 1);
	assert_string_equal(f->err,
			    "error: unknown command 'pint'; did you mean 'pin' or 'print'?\n");
	assert_int_equal(run(f, "PLAN"), 1); /* case aside, it is a name */
	assert_string_equal(f->err, "error: unknown command 'PLAN'; did you mean 'plan'?\n");
	assert_int_equal(run(f, "x"), 1); /* one letter is near everything */
	assert_string_equal(f->err, "error: unknown command 'x'; type 'help' for a list\n");
	/* gdb's condition has no counterpart: said so, with what to use */
	assert_int_equal(run(f, "condition 1 x"), 1);
	assert_non_null(strstr(f->err, "error: devplan's breakpoints take no conditions"));
	assert_non_null(strstr(f->err, "'ignore N COUNT'"));
	assert_int_equal(run(f, "cond 1"), 1);
	assert_non_null(strstr(f->err, "take no conditions"));
	/* a name that is also a prefix of another resolves to itself */
	assert_int_equal(run(f, "target"), 1);
	assert_non_null(strstr(f->err, "'target' takes at least 1 argument"));
}

static void test_argument_counts(void **state)
{
	Fixture *f = *state;
	assert_int_equal(run(f, "load"), 1);
	assert_string_equal(f->err,
			    "error: 'load' takes 1 to 3 arguments\nusage: load FILE [--as NAME]\n");
	assert_int_equal(run(f, "load a b"), 1);
	assert_string_equal(f->err, "error: unexpected argument 'b'; 'load' reads one file\n");
	assert_int_equal(run(f, "phases now"), 1);
	assert_string_equal(f->err, "error: 'phases' takes no arguments\nusage: phases\n");
	assert_int_equal(run(f, "help a b"), 1);
	assert_string_equal(f->err, "error: 'help' takes at most 1 argument\nusage: help [CMD]\n");
	assert_int_equal(run(f, "set policy"), 1);
	assert_string_equal(f->err, "error: 'set' takes 2 arguments\nusage: set NAME VALUE\n");
}

static void test_needs_module(void **state)
{
	Fixture *f = *state;
	static const char *const lines[] = {"ir", "step", "plan", "restart", "reload"};
	for (size_t i = 0; i < DP_COUNT(lines); i++) {
		assert_int_equal(run(f, lines[i]), 1);
		assert_string_equal(f->err, "error: no module loaded; use 'load FILE'\n");
	}
	/* the argument count is checked first */
	assert_int_equal(run(f, "step 1 2"), 1);
	assert_non_null(strstr(f->err, "usage: step [N]"));
	/* phases works without a module */
	assert_int_equal(run(f, "phases"), 0);
	assert_non_null(strstr(f->out, "pending"));
}

static void test_split_and_quotes(void **state)
{
	int argc;
	char **argv;
	char *err;
	(void)state;
	assert_true(
		commands_split("  echo \"a  b\" c\\\"d \"x\\\"y\\\\\" # tail", &argc, &argv, &err));
	assert_int_equal(argc, 4);
	assert_string_equal(argv[0], "echo");
	assert_string_equal(argv[1], "a  b");
	assert_string_equal(argv[2], "c\"d");
	assert_string_equal(argv[3], "x\"y\\");
	assert_null(argv[4]);
	commands_free_words(argc, argv);

	assert_true(commands_split("echo a#b \"#c\" \"\"", &argc, &argv, &err));
	assert_int_equal(argc, 4);
	assert_string_equal(argv[1], "a#b");
	assert_string_equal(argv[2], "#c");
	assert_string_equal(argv[3], "");
	commands_free_words(argc, argv);

	assert_true(commands_split("   # only a comment", &argc, &argv, &err));
	assert_int_equal(argc, 0);
	commands_free_words(argc, argv);

	assert_false(commands_split("echo \"open", &argc, &argv, &err));
	assert_string_equal(err, "unterminated quote at column 6");
	free(err);

	/* escapes inside quotes; outside, a backslash before a letter stays */
	assert_true(commands_split("echo \"a\\nb\\tc\\rd\\x41\\xfF\" x\\ny", &argc, &argv, &err));
	assert_int_equal(argc, 3);
	assert_string_equal(argv[1], "a\nb\tc\rdA\xff");
	assert_string_equal(argv[2], "x\\ny");
	commands_free_words(argc, argv);
}

/* What a script could not hold, and no recording writes, is refused
 * with the column it is at. */
static void test_split_refuses(void **state)
{
	static const char *const cases[][2] = {
		{"save \"a\nb\"", "control character \\n inside quotes at column 8; write it \\n "
				  "inside double quotes"},
		{"save a\001b", "control character \\x01 at column 7; write it \\x01 inside double "
				"quotes"},
		{"save \"a\177\"", "control character \\x7f inside quotes at column 8; write it "
				   "\\x7f inside double quotes"},
		{"save \"a\\qb\"", "unknown escape '\\q' at column 8 (inside double quotes: \\\" "
				   "\\\\ \\n \\t \\r \\xNN)"},
		{"save \"\\x4\"", "'\\x' at column 7 needs two hex digits"},
		{"save \"\\x00\"", "'\\x00' at column 7: a word cannot hold a NUL byte"},
		{"save \"a\\", "unterminated quote at column 6"},
	};
	int argc;
	char **argv;
	char *err;
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_false(commands_split(cases[i][0], &argc, &argv, &err));
		if (strcmp(err, cases[i][1]) != 0)
			fail_msg("'%s': '%s', not '%s'", cases[i][0], err, cases[i][1]);
		free(err);
	}
	/* a tab is a blank outside quotes and itself inside them */
	assert_true(commands_split("save\t\"a\tb\"", &argc, &argv, &err));
	assert_int_equal(argc, 2);
	assert_string_equal(argv[1], "a\tb");
	commands_free_words(argc, argv);
}

/* Every byte 1-255 in a word, alone and among others, is written by
 * commands_put_word as one line that splits back into that word alone. */
static void test_put_word_round_trip(void **state)
{
	char word[300], line[1200];
	(void)state;
	for (int c = 1; c < 256; c++) {
		const char *forms[] = {"%c", "a%cb", "%c%c", "#%c \"\\"};
		for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
			StrBuf sb;
			int argc;
			char **argv, *err;
			snprintf(word, sizeof word, forms[k], c, c);
			strbuf_init(&sb);
			strbuf_puts(&sb, "save ");
			commands_put_word(&sb, word);
			snprintf(line, sizeof line, "%s", sb.data);
			strbuf_free(&sb);
			for (const char *p = line; *p; p++)
				if ((unsigned char)*p < 0x20 || *p == 0x7f)
					fail_msg("byte %d: '%s' holds a control character", c,
						 line);
			if (!commands_split(line, &argc, &argv, &err))
				fail_msg("byte %d: '%s' does not split: %s", c, line, err);
			if (argc != 2 || strcmp(argv[1], word) != 0)
				fail_msg("byte %d: '%s' splits into %d words", c, line, argc);
			commands_free_words(argc, argv);
		}
	}
	/* valid UTF-8 stays as it is; a stray byte of it is escaped */
	{
		StrBuf sb;
		strbuf_init(&sb);
		commands_put_word(&sb, "caf\xc3\xa9");
		strbuf_putc(&sb, ' ');
		commands_put_word(&sb, "a\xc3");
		strbuf_putc(&sb, ' ');
		commands_put_word(&sb, "\xed\xa0\x80");
		assert_string_equal(sb.data, "caf\xc3\xa9 \"a\\xc3\" \"\\xed\\xa0\\x80\"");
		strbuf_free(&sb);
	}
}

/* A line a script could not hold as it is becomes one it can, or a
 * comment: a newline in a file name never becomes a second command. */
static void test_recorded_line(void **state)
{
	static const char *const cases[][2] = {
		{"save y.relay", "save y.relay\n"},
		{"save \"a b\" # c", "save \"a b\" # c\n"},
		{"save y\nsave victim.txt", "-save y save victim.txt\n"},
		{"save \"y\\nsave victim.txt #\"", "save \"y\\nsave victim.txt #\"\n"},
		{"save \"y\nsave victim.txt #\"",
		 "# not replayed, it does not read back: save \"y\\nsave victim.txt #\"\n"},
		{"save \"y\rx\"", "# not replayed, it does not read back: save \"y\\rx\"\n"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *text = commands_recorded_line(cases[i][0], NULL, i == 2);
		if (strcmp(text, cases[i][1]) != 0)
			fail_msg("'%s' is recorded '%s', not '%s'", cases[i][0], text, cases[i][1]);
		free(text);
	}
}

static void test_quoted_command_line(void **state)
{
	Fixture *f = *state;
	assert_int_equal(run(f, "echo \"two  spaces\" # a comment"), 0);
	assert_string_equal(f->out, "two  spaces\n");
	assert_int_equal(run(f, ""), 0);
	assert_int_equal(run(f, "# nothing"), 0);
	assert_string_equal(f->out, "");
	assert_int_equal(run(f, "echo \"oops"), 1);
	assert_string_equal(f->err, "error: unterminated quote at column 6\n");
}

/* ---- settings ---- */

static void test_set_and_show(void **state)
{
	Fixture *f = *state;
	assert_int_equal(run(f, "show policy"), 0);
	assert_string_equal(f->out, "policy  copy\n");
	assert_int_equal(run(f, "set pol rep"), 0);
	assert_string_equal(f->out, "");
	assert_int_equal(f->session.settings.policy, POLICY_REPLICATE);
	assert_int_equal(run(f, "set fallback cuda:0"), 0);
	assert_int_equal(f->session.settings.fallback, 1);
	assert_int_equal(run(f, "set fallback tpu:0"), 1);
	assert_string_equal(f->err, "error: unknown device 'tpu:0' (see 'targets')\n");
	assert_int_equal(run(f, "set echo maybe"), 1);
	assert_string_equal(f->err,
			    "error: invalid value 'maybe' for 'echo': expected on or off\n");
	assert_int_equal(run(f, "set errexit yes"), 0);
	assert_true(f->session.settings.errexit);
	assert_int_equal(run(f, "set tolerance 1e-3"), 0);
	assert_true(f->session.settings.tolerance == 1e-3);
	assert_int_equal(run(f, "set tolerance -1"), 1);
	assert_int_equal(run(f, "set tolerance nan"), 1);
	assert_int_equal(run(f, "set placement min"), 0);
	assert_int_equal(f->session.settings.placement, PLACEMENT_MIN_TRANSFER);
	assert_int_equal(run(f, "set gpu emulate"), 0);
	assert_int_equal(f->session.settings.gpu, GPU_EMULATE);
	assert_int_equal(run(f, "set e on"), 1); /* echo or errexit */
	assert_string_equal(f->err, "error: ambiguous setting 'e': echo, errexit\n");
	assert_int_equal(run(f, "show colour"), 1);
	assert_string_equal(f->err, "error: unknown setting 'colour'; did you mean 'color'?\n");
	assert_int_equal(run(f, "set foo 1"), 1); /* nothing near: the list */
	assert_non_null(strstr(f->err, "error: unknown setting 'foo' (settings: fallback, "));
	assert_int_equal(run(f, "show"), 0);
	assert_non_null(strstr(f->out, "fallback      cuda:0  (default: cpu:0)\n"));
	assert_non_null(strstr(f->out, "tolerance     0.001  (default: 1e-05)\n"));
	assert_non_null(strstr(f->out, "gpu           emulate  (default: auto)\n"));
	assert_non_null(strstr(f->out, "echo          off\n"));
}

static void test_planning_setting_resets(void **state)
{
	Fixture *f = *state;
	fake_module(f);
	fake_step(f);
	/* the same value changes nothing */
	assert_int_equal(run(f, "set policy copy"), 0);
	assert_string_equal(f->out, "");
	assert_int_equal(f->session.phases_done, 1);
	/* settings that do not affect planning keep it */
	assert_int_equal(run(f, "set color off"), 0);
	assert_int_equal(f->session.phases_done, 1);
	assert_int_equal(run(f, "set policy error"), 0);
	assert_string_equal(f->out,
			    "policy changed: planning restarts from the module as loaded\n");
	assert_int_equal(f->session.phases_done, 0);
	assert_null(f->session.versions[1]);
	assert_non_null(session_current(&f->session));
}

/* ---- the module and phases (without the parser) ---- */

static void test_phases_and_restart(void **state)
{
	Fixture *f = *state;
	fake_module(f);
	assert_int_equal(run(f, "phases"), 0);
	assert_non_null(strstr(f->out, pipeline_phases[0].name));
	assert_non_null(strstr(f->out, "current"));
	fake_step(f);
	assert_int_equal(run(f, "phases"), 0);
	assert_non_null(strstr(f->out, "done"));
	assert_ptr_equal(session_current(&f->session), f->session.versions[1]);
	assert_ptr_equal(session_version(&f->session, -1), f->session.versions[0]);
	assert_int_equal(run(f, "restart"), 0);
	assert_string_equal(f->out, "back to the module as loaded\n");
	assert_int_equal(f->session.phases_done, 0);
	assert_int_equal(run(f, "step 0"), 1);
	assert_string_equal(f->err, "error: invalid count '0': expected a positive number\n");
	assert_int_equal(run(f, "ir @nope"), 1);
	assert_string_equal(f->err, "error: no global function '@nope' in the module\n");
	assert_int_equal(run(f, "ir --phase infer"), 1);
	assert_string_equal(f->err, "error: phase 'infer' has not run yet; use 'step'\n");
	assert_int_equal(run(f, "ir --bogus"), 1);
	assert_string_equal(f->err, "error: unknown option '--bogus' for 'ir'\n");
}

static void test_load_missing_keeps_module(void **state)
{
	Fixture *f = *state;
	fake_module(f);
	assert_int_equal(run(f, "load /nonexistent/m.relay"), 1);
	assert_string_equal(f->err, "error: cannot open '/nonexistent/m.relay': No such file or "
				    "directory\nnote: 'fake.relay' is still loaded\n");
	assert_true(session_has_module(&f->session));
	assert_string_equal(f->session.path, "fake.relay");
}

/* `conflicts` on a let chain with many conflicts (every fifth value read
 * by an add pinned to the cpu and one pinned to the GPU) lists each one,
 * in order, with the consumer that reads it through a copy: the module is
 * indexed once for all of them, and every conflict still finds its own
 * consumer in that index. */
static void test_conflicts_many(void **state)
{
	enum { N = 400, EVERY = 5 };
	Fixture *f = *state;
	StrBuf text, want;
	char line[96];
	long i = 1, nvalues = 0;
	strbuf_init(&text);
	strbuf_puts(&text, "def @main(%x: Tensor[(2), float32]) {\n  let %v0 = add(%x, %x);\n");
	while (i < N) {
		if (i % EVERY == 0 && i + 2 < N) {
			strbuf_printf(&text,
				      "  let %%v%ld = on_device(add(%%v%ld, 1f), "
				      "virtual_device=\"cpu:0\");\n"
				      "  let %%v%ld = on_device(add(%%v%ld, 1f), "
				      "virtual_device=\"cuda:0\");\n"
				      "  let %%v%ld = add(%%v%ld, %%v%ld);\n",
				      i, i - 1, i + 1, i - 1, i + 2, i, i + 1);
			i += 3;
		} else {
			strbuf_printf(&text, "  let %%v%ld = add(%%v%ld, 1f);\n", i, i - 1);
			i++;
		}
	}
	strbuf_printf(&text, "  %%v%ld\n}\n", i - 1);
	write_temp(f->script, text.data);
	snprintf(line, sizeof line, "load %s", f->script);
	assert_int_equal(run(f, line), 0);
	assert_int_equal(run(f, "plan"), 0);
	assert_int_equal(run(f, "conflicts"), 0);
	/* the value before each pinned pair stays on the cpu (the fallback,
	 * where one consumer reads it) and the add pinned to the GPU, on line
	 * i + 3 (the value %v(i+1) is bound on line i + 3 of the file), reads
	 * it through a copy; the GPU's result is read on the cpu by the add
	 * after it */
	strbuf_init(&want);
	for (i = 1; i < N; i++) {
		char num[24], next[24];
		if (i % EVERY != 0 || i + 2 >= N)
			continue;
		snprintf(num, sizeof num, "%ld", i + 1);
		snprintf(next, sizeof next, "%ld", i + 2);
		strbuf_reset(&want);
		strbuf_printf(&want,
			      "  resolution (copy): %%v%ld stays on cpu:0; add@%ld:%zu reads it "
			      "through one device_copy on cuda:0\n",
			      i - 1, i + 3, 22 + strlen(num));
		if (!strstr(f->out, want.data))
			fail_msg("missing: %s", want.data);
		strbuf_reset(&want);
		strbuf_printf(&want,
			      "  resolution (copy): %%v%ld stays on cuda:0; add@%ld:%zu reads it "
			      "through one device_copy on cpu:0\n",
			      i + 1, i + 4, 12 + strlen(next));
		if (!strstr(f->out, want.data))
			fail_msg("missing: %s", want.data);
		nvalues += 2;
		i += 2;
	}
	/* one entry per conflict, numbered in order */
	{
		long n = 0;
		for (const char *p = f->out; (p = strstr(p, "conflict ")) != NULL; p++)
			if (p == f->out || p[-1] == '\n') {
				n++;
				assert_int_equal(strtol(p + 9, NULL, 10), n);
			}
		assert_int_equal(n, nvalues);
	}
	strbuf_free(&want);
	strbuf_free(&text);
}

/* DEVPLAN_MEMORY_LIMIT is parsed strictly, and an input larger than the
 * limit (or than any machine's memory) is refused before it is made. */
static void test_memory_limit(void **state)
{
	Fixture *f = *state;
	char line[96];
	const char *bad[] = {"abc",      "1.5G", "0", "10Q", "12K3", "-1", "99999999999999999999",
			     "20000000T"};
	write_temp(f->script, "def @main(%x: Tensor[(1000, 1000), float32]) {\n  add(%x, 1f)\n}\n");
	write_temp(f->script2, "def @main(%x: Tensor[(1000000000, 1000000000), float32]) {\n"
			       "  add(%x, 1f)\n}\n");
	snprintf(line, sizeof line, "load %s", f->script);
	assert_int_equal(run(f, line), 0);
	assert_int_equal(run(f, "plan"), 0);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		setenv("DEVPLAN_MEMORY_LIMIT", bad[i], 1);
		assert_int_equal(run(f, "run"), 1);
		assert_non_null(strstr(f->err, "error: DEVPLAN_MEMORY_LIMIT='"));
		assert_string_equal(f->out, "");
	}
	/* the input is refused before it is made: no note about its random
	 * values comes first */
	setenv("DEVPLAN_MEMORY_LIMIT", "1M", 1);
	assert_int_equal(run(f, "run"), 1);
	assert_non_null(strstr(f->err,
			       ":1:11: error: %x needs 3.8 MiB for its Tensor[(1000, 1000), "
			       "float32], more than the 1.0 MiB memory limit\n"));
	assert_null(strstr(f->err, "note:"));
	/* the input's array, its copy on the cpu and the result: 11.4 MiB */
	setenv("DEVPLAN_MEMORY_LIMIT", "12m", 1);
	assert_int_equal(run(f, "run"), 0);
	unsetenv("DEVPLAN_MEMORY_LIMIT");
	/* 4e18 bytes: refused by its size, not by a failed allocation */
	snprintf(line, sizeof line, "load %s", f->script2);
	assert_int_equal(run(f, line), 0);
	assert_int_equal(run(f, "plan"), 0);
	assert_int_equal(run(f, "run"), 1);
	assert_non_null(strstr(f->err, "error: %x needs 3.5 EiB for its "));
	assert_non_null(strstr(f->err, "more than this machine's "));
	assert_null(strstr(f->err, "note:"));
	/* a small input whose op makes a large tensor: refused before the
	 * input is made too */
	unlink(f->script2);
	write_temp(f->script2, "def @main(%x: Tensor[(1), float32]) {\n"
			       "  broadcast_to(%x, shape=[1000, 1000])\n}\n");
	snprintf(line, sizeof line, "load %s", f->script2);
	assert_int_equal(run(f, line), 0);
	assert_int_equal(run(f, "plan"), 0);
	setenv("DEVPLAN_MEMORY_LIMIT", "1M", 1);
	assert_int_equal(run(f, "compare"), 1);
	assert_non_null(strstr(f->err, "error: 'broadcast_to' needs 3.8 MiB"));
	assert_null(strstr(f->err, "note:"));
	unsetenv("DEVPLAN_MEMORY_LIMIT");
}

/* The memory limit holds for all of a run's tensors together (issue 27
 * item 4): six results of 1.5 MiB each, every one within 8 MiB and their
 * sum (with the input's) over it, are refused at the op that would pass
 * the limit, positioned there, by DEVPLAN_MEMORY_LIMIT or `set
 * memory-limit`; 16 MiB runs them. */
static void test_memory_limit_total(void **state)
{
	Fixture *f = *state;
	char line[96];
	write_temp(f->script, "def @main(%x: Tensor[(400000), float32]) {\n"
			      "  %0 = add(%x, 1f);\n  %1 = add(%x, 2f);\n  %2 = add(%x, 3f);\n"
			      "  %3 = add(%x, 4f);\n  %4 = add(%x, 5f);\n  %5 = add(%x, 6f);\n"
			      "  (%0, %1, %2, %3, %4, %5)\n}\n");
	snprintf(line, sizeof line, "load %s", f->script);
	assert_int_equal(run(f, line), 0);
	assert_int_equal(run(f, "plan"), 0);
	setenv("DEVPLAN_MEMORY_LIMIT", "8M", 1);
	assert_int_equal(run(f, "run"), 1);
	assert_non_null(strstr(f->err, ": error: 'add': needs 1.5 MiB more while the run's "
				       "tensors (its inputs among them) take "));
	assert_non_null(strstr(f->err, "more than the 8.0 MiB memory limit for all of them "
				       "together\n"));
	assert_int_equal(run(f, "compare"), 1);
	assert_non_null(strstr(f->err, "more than the 8.0 MiB memory limit for all"));
	setenv("DEVPLAN_MEMORY_LIMIT", "16M", 1);
	assert_int_equal(run(f, "run"), 0);
	/* the setting wins over the environment */
	assert_int_equal(run(f, "set memory-limit 8M"), 0);
	assert_int_equal(run(f, "run"), 1);
	assert_non_null(strstr(f->err, "more than the 8.0 MiB memory limit for all"));
	assert_int_equal(run(f, "show memory-limit"), 0);
	assert_non_null(strstr(f->out, "8M"));
	assert_int_equal(run(f, "set memory-limit 8Q"), 1);
	assert_non_null(strstr(f->err, "invalid value '8Q' for 'memory-limit'"));
	assert_int_equal(run(f, "set memory-limit auto"), 0);
	assert_int_equal(run(f, "run"), 0);
	unsetenv("DEVPLAN_MEMORY_LIMIT");
	assert_int_equal(run(f, "run"), 0);
}

/* profile on a @main that runs no operator: an empty table of ops (no
 * memcpy from the NULL one, which UBSan reports in the sanitized suite). */
static void test_profile_without_ops(void **state)
{
	Fixture *f = *state;
	char line[96];
	write_temp(f->script, "def @main(%x: Tensor[(2), float32]) {\n  %x\n}\n");
	snprintf(line, sizeof line, "load %s", f->script);
	assert_int_equal(run(f, line), 0);
	assert_int_equal(run(f, "plan"), 0);
	assert_int_equal(run(f, "profile"), 0);
	assert_non_null(strstr(f->out, "ops:\n"));
	assert_non_null(strstr(f->out, "(no copies in the plan)"));
}

/* NumPy has no bfloat16: a bfloat16 result is saved as its uint16 bit
 * patterns ('<u2'), as TVM's NDArray.numpy() gives it, and such a file is
 * taken back for a bfloat16 input; a uint16 input still wants uint16. */
static void test_bfloat16_npy_files(void **state)
{
	Fixture *f = *state;
	char npy[64], line[160], first[256];
	const char *values;
	FILE *in;
	char header[128] = {0};
	write_temp(f->script, "def @main(%b: Tensor[(3), bfloat16]) {\n  negative(%b)\n}\n");
	write_temp(npy, "");
	snprintf(line, sizeof line, "load %s", f->script);
	assert_int_equal(run(f, line), 0);
	assert_int_equal(run(f, "plan"), 0);
	snprintf(line, sizeof line, "run b=random:4 --output %s", npy);
	assert_int_equal(run(f, line), 0);
	values = strstr(f->out, "values: ");
	assert_non_null(values);
	snprintf(first, sizeof first, "%.*s", (int)strcspn(values, "\n"), values);
	in = fopen(npy, "rb");
	assert_non_null(in);
	assert_true(fread(header, 1, sizeof header - 1, in) > 10);
	fclose(in);
	assert_non_null(strstr(header + 10, "'descr': '<u2'"));
	/* negative twice: the input back */
	snprintf(line, sizeof line, "run b=%s", npy);
	assert_int_equal(run(f, line), 0);
	values = strstr(f->out, "values: ");
	assert_non_null(values);
	{
		/* first's numbers with their signs flipped */
		char want[256] = "values:";
		char *save = NULL, *tok = strtok_r(first + 7, " ", &save);
		for (; tok; tok = strtok_r(NULL, " ", &save))
			snprintf(want + strlen(want), sizeof want - strlen(want), " %s%s",
				 tok[0] == '-' ? "" : "-", tok[0] == '-' ? tok + 1 : tok);
		assert_int_equal(strncmp(values, want, strlen(want)), 0);
	}
	write_temp(f->script2, "def @main(%b: Tensor[(3), uint16]) {\n  negative(%b)\n}\n");
	snprintf(line, sizeof line, "load %s", f->script2);
	assert_int_equal(run(f, line), 0);
	assert_int_equal(run(f, "plan"), 0);
	snprintf(line, sizeof line, "run b=%s", npy);
	assert_int_equal(run(f, line), 0);
	unlink(npy);
}

/* run --dump DIR: one .npy a value, named after its binding, and a
 * manifest listing each in execution order with op, device, shape and
 * dtype; a dumped file read back gives the value `print` shows (the round
 * trip through .npy); a file where the directory should be is an error and
 * the run does not happen. */
static void test_run_dump_and_print(void **state)
{
	Fixture *f = *state;
	char dir[64] = "/tmp/devplan-dump-XXXXXX", line[256], *path;
	json_object *manifest, *entry;
	const char *names[] = {"%0", "nn.relu@3:16", "%s", "%2.0", "%2.1", "%1", "%a", "%b"};
	NpyArray a, relu;
	char *err = NULL;
	assert_non_null(mkdtemp(dir));
	write_temp(f->script,
		   "def @main(%a: Tensor[(2, 3), float32], %b: Tensor[(2, 2), float32]) {\n"
		   "  %0 = add(%a, %a);\n"
		   "  let %s = sum(nn.relu(%0), axis=[1]);\n"
		   "  %2 = split(%b, indices_or_sections=2, axis=1);\n"
		   "  %1 = multiply(%2.0, %2.1);\n"
		   "  (%s, %1)\n"
		   "}\n");
	snprintf(line, sizeof line, "load %s", f->script);
	assert_int_equal(run(f, line), 0);
	assert_int_equal(run(f, "plan"), 0);
	snprintf(line, sizeof line, "run --dump %s/d", dir);
	assert_int_equal(run(f, line), 0);
	assert_non_null(strstr(f->out, "dumped 8 values to"));
	path = xasprintf("%s/d/manifest.json", dir);
	manifest = json_object_from_file(path);
	free(path);
	assert_non_null(manifest);
	assert_int_equal(json_object_array_length(manifest), DP_COUNT(names));
	for (size_t i = 0; i < DP_COUNT(names); i++) {
		const char *name, *file;
		entry = json_object_array_get_idx(manifest, i);
		name = json_object_get_string(json_object_object_get(entry, "name"));
		file = json_object_get_string(json_object_object_get(entry, "file"));
		assert_string_equal(name, names[i]);
		path = xasprintf("%s/d/%s", dir, file);
		assert_int_equal(access(path, R_OK), 0);
		free(path);
	}
	entry = json_object_array_get_idx(manifest, 1);
	assert_string_equal(json_object_get_string(json_object_object_get(entry, "file")),
			    "nn.relu_3_16.npy");
	assert_string_equal(json_object_get_string(json_object_object_get(entry, "op")), "nn.relu");
	assert_string_equal(json_object_get_string(json_object_object_get(entry, "dtype")),
			    "float32");
	assert_int_equal(json_object_array_length(json_object_object_get(entry, "shape")), 2);
	json_object_put(manifest);
	/* relu(a + a) from the files is what the run computed */
	path = xasprintf("%s/d/a.npy", dir);
	assert_true(npy_read(path, &a, &err));
	free(path);
	path = xasprintf("%s/d/nn.relu_3_16.npy", dir);
	assert_true(npy_read(path, &relu, &err));
	free(path);
	for (int i = 0; i < 6; i++) {
		float x = ((float *)a.data)[i] * 2;
		assert_true(((float *)relu.data)[i] == (x > 0 ? x : 0));
	}
	npy_array_free(&a);
	npy_array_free(&relu);
	/* print reads every value the run kept, the final ones as `result.I`;
	 * under keep-values off only the results and inputs */
	assert_int_equal(run(f, "print %1"), 0);
	assert_non_null(strstr(f->out, "result of run 1"));
	assert_int_equal(run(f, "print %0"), 0);
	assert_non_null(strstr(f->out, "value of run 1"));
	assert_int_equal(run(f, "print result.1"), 0);
	assert_non_null(
		strstr(f->out, "result.1 = Tensor[(2, 1), float32] on cpu:0, result of run 1"));
	assert_int_equal(run(f, "set keep-values off"), 0);
	assert_int_equal(run(f, "run"), 0);
	assert_int_equal(run(f, "print %a"), 0);
	assert_int_not_equal(run(f, "print %0"), 0);
	assert_non_null(strstr(f->err, "'%0' was not kept: under 'set keep-values off'"));
	/* a file where the directory should be */
	snprintf(line, sizeof line, "run --dump %s/d/a.npy", dir);
	assert_int_not_equal(run(f, line), 0);
	assert_non_null(strstr(f->err, "not a directory"));
	snprintf(line, sizeof line, "rm -rf '%s'", dir);
	assert_int_equal(system(line), 0);
}

/* compare --expect FILE.npy: the planned results against results made
 * elsewhere (here saved by run --output), with compare's report; a file
 * that differs fails it, and the misuses are errors. */
static void test_compare_expect(void **state)
{
	Fixture *f = *state;
	char npy[64], line[256];
	NpyArray a;
	char *err = NULL;
	write_temp(f->script, "def @main(%a: Tensor[(2, 3), float32]) {\n  nn.relu(%a)\n}\n");
	write_temp(npy, "");
	snprintf(line, sizeof line, "load %s", f->script);
	assert_int_equal(run(f, line), 0);
	assert_int_equal(run(f, "plan"), 0);
	snprintf(line, sizeof line, "run a=random:3 --output %s", npy);
	assert_int_equal(run(f, line), 0);
	snprintf(line, sizeof line, "compare a=random:3 --expect %s", npy);
	assert_int_equal(run(f, line), 0);
	assert_non_null(strstr(f->out, "compare: PASS: 1 result matches the expected result ("));
	/* other inputs: the expected file no longer matches */
	snprintf(line, sizeof line, "compare a=random:4 --expect %s", npy);
	assert_int_equal(run(f, line), 1);
	assert_non_null(strstr(f->out, "compare: FAIL: 1 of 1 result differs from the expected"));
	/* a file of another shape */
	assert_true(npy_random(&a, DT_FLOAT32, 1, (int64_t[]){5}, 1, &err));
	assert_true(npy_write(npy, &a, &err));
	npy_array_free(&a);
	snprintf(line, sizeof line, "compare a=random:3 --expect %s", npy);
	assert_int_equal(run(f, line), 1);
	assert_non_null(strstr(f->out, "differs in shape or dtype from the expected"));
	snprintf(line, sizeof line, "compare --expect %s --expect %s", npy, npy);
	assert_int_equal(run(f, line), 1);
	assert_non_null(strstr(f->err, "@main returns 1 result; --expect gives 2 files"));
	snprintf(line, sizeof line, "compare --each --expect %s", npy);
	assert_int_equal(run(f, line), 1);
	assert_non_null(strstr(f->err, "--expect files hold results only"));
	assert_int_equal(run(f, "compare --expect /nonexistent/x.npy"), 1);
	assert_non_null(strstr(f->err, "--expect: "));
	assert_int_equal(run(f, "compare --expect"), 1);
	unlink(npy);
}

/* util.h's "did you mean": optimal string alignment, case aside; a word's
 * length bounds how far a name may be; ties keep the first three. */
static void test_suggestions(void **state)
{
	static const char *const names[] = {"plan", "pin", "print", "placement", "phases"};
	Suggestions s;
	StrBuf sb;
	(void)state;
	assert_int_equal(edit_distance("plna", "plan", 5), 1); /* a swap */
	assert_int_equal(edit_distance("whyy", "why", 5), 1);
	assert_int_equal(edit_distance("PLAN", "plan", 5), 0);
	assert_int_equal(edit_distance("kitten", "sitting", 5), 3);
	assert_int_equal(edit_distance("kitten", "sitting", 2), 3); /* past the limit */
	assert_int_equal(edit_distance("", "abc", 5), 3);
	strbuf_init(&sb);
	suggest_init(&s, "plna");
	for (size_t i = 0; i < DP_COUNT(names); i++)
		suggest_consider(&s, names[i]);
	assert_true(suggest_finish(&s, &sb));
	assert_string_equal(sb.data, "; did you mean 'plan'?");
	strbuf_reset(&sb);
	suggest_init(&s, "x"); /* one letter: nothing is near enough */
	suggest_consider(&s, "b");
	assert_false(suggest_finish(&s, &sb));
	assert_int_equal(sb.len, 0);
	suggest_init(&s, "%bb"); /* the sigil does not count in the length */
	suggest_consider(&s, "%b");
	suggest_consider(&s, "%b");
	suggest_consider(&s, "%ab");
	suggest_consider(&s, "%bc");
	suggest_consider(&s, "%bbbb");
	suggest_consider(&s, "%b2");
	assert_true(suggest_finish(&s, &sb));
	assert_string_equal(sb.data, "; did you mean '%b', '%ab' or '%bc'?");
	strbuf_free(&sb);
}

static void test_pipeline_find(void **state)
{
	(void)state;
	assert_int_equal(pipeline_find(pipeline_phases[0].name), 0);
	assert_int_equal(pipeline_find("no-such-phase"), -1);
	assert_int_equal(pipeline_find(""), -1);
	for (size_t i = 0; i < pipeline_count; i++)
		assert_int_equal(pipeline_find(pipeline_phases[i].name), (int)i);
}

/* ---- targets ---- */

static void test_targets(void **state)
{
	Fixture *f = *state;
	assert_int_equal(run(f, "targets"), 0);
	assert_string_equal(
		f->out, "index  name    target  host  link GB/s  latency us  memory GB/s  "
			"peak GFLOP/s  launch us  costs\n"
			"    0  cpu:0   llvm    -            10           0           10          "
			"1000          0  nominal  (fallback)\n"
			"    1  cuda:0  cuda    llvm         25          10         3000         "
			"50000          5  nominal\n");
	assert_int_equal(run(f, "target add cuda:1"), 0);
	assert_string_equal(f->out, "added cuda:1 (target cuda) as device 2\n");
	assert_int_equal(run(f, "target add cuda:1"), 1);
	assert_string_equal(f->err, "error: device 'cuda:1' is already in the table\n");
	assert_int_equal(run(f, "target remove cuda:1"), 1);
	assert_string_equal(f->err,
			    "error: unknown subcommand 'target remove'\n"
			    "usage: target add KIND:ID[:SCOPE] [TARGET] | target set DEVICE "
			    "NAME=VALUE... | target calibrate\n");
	assert_int_equal(run(f, "set fallback cuda:1"), 0);
	assert_int_equal(f->session.settings.fallback, 2);
	/* the cost model: every assignment checked before any is applied */
	assert_int_equal(run(f, "target set cuda:1 bandwidth=12 peak=20000"), 0);
	assert_true(f->session.devices.items[2].bandwidth == 12);
	assert_true(f->session.devices.items[2].peak == 20000);
	assert_int_equal(run(f, "target set cuda:1 bandwidth=3 peak=nan"), 1);
	assert_true(f->session.devices.items[2].bandwidth == 12);
	assert_true(f->session.devices.items[1].bandwidth == DEVICES_ACCELERATOR_BANDWIDTH_DEFAULT);
}

/* ---- scripts ---- */

static void test_script_errors_name_file_and_line(void **state)
{
	Fixture *f = *state;
	char *line;
	write_temp(f->script, "echo one\n\n# comment\nfrobnicate\necho two\n");
	line = xasprintf("source %s", f->script);
	assert_int_equal(run(f, line), 1);
	assert_string_equal(f->out, "one\ntwo\n");
	{
		char *want = xasprintf("%s:4: error: unknown command 'frobnicate'; type 'help' for "
				       "a list\n",
				       f->script);
		assert_string_equal(f->err, want);
		free(want);
	}
	/* errexit stops at the failure */
	assert_int_equal(run(f, "set errexit on"), 0);
	assert_int_equal(run(f, line), 1);
	assert_string_equal(f->out, "one\n");
	/* so does batch mode */
	f->session.settings.errexit = false;
	f->ctx.batch = true;
	assert_int_equal(run(f, line), 1);
	assert_string_equal(f->out, "one\n");
	free(line);
	assert_null(f->ctx.script);
}

static void test_nested_source_and_quit(void **state)
{
	Fixture *f = *state;
	char *inner, *line;
	write_temp(f->script2, "echo inner\nquit\necho not reached\n");
	inner = xasprintf("echo outer\nsource %s\necho not reached either\n", f->script2);
	write_temp(f->script, inner);
	line = xasprintf("source %s", f->script);
	assert_int_equal(run(f, line), 0);
	assert_string_equal(f->out, "outer\ninner\n");
	assert_true(f->ctx.quit);
	free(inner);
	free(line);
}

static void test_source_recursion_is_bounded(void **state)
{
	Fixture *f = *state;
	char *text, *line;
	write_temp(f->script, "");
	text = xasprintf("source %s\n", f->script);
	{
		FILE *fp = fopen(f->script, "w");
		fputs(text, fp);
		fclose(fp);
	}
	line = xasprintf("source %s", f->script);
	assert_int_equal(run(f, line), 1);
	assert_non_null(strstr(f->err, "scripts nested too deeply"));
	assert_int_equal(f->ctx.depth, 0);
	free(text);
	free(line);
}

static void test_echo_setting(void **state)
{
	Fixture *f = *state;
	char *line;
	write_temp(f->script, "echo a\n\n# note\n");
	assert_int_equal(run(f, "set echo on"), 0);
	line = xasprintf("source %s", f->script);
	assert_int_equal(run(f, line), 0);
	assert_string_equal(f->out, "echo a\na\n# note\n");
	free(line);
}

/* ---- completion ---- */

static bool has(const CmdCandidates *c, const char *s)
{
	for (size_t i = 0; i < c->count; i++)
		if (strcmp(c->items[i], s) == 0)
			return true;
	return false;
}

static void test_completion(void **state)
{
	Fixture *f = *state;
	CmdCandidates c;
	commands_complete(&f->session, "", 0, "s", &c);
	assert_true(has(&c, "set") && has(&c, "show") && has(&c, "step") && has(&c, "source"));
	assert_true(has(&c, "s")); /* the alias */
	assert_false(has(&c, "echo"));
	for (size_t i = 1; i < c.count; i++)
		assert_true(strcmp(c.items[i - 1], c.items[i]) < 0);
	cmd_candidates_free(&c);

	commands_complete(&f->session, "set ", 4, "p", &c);
	assert_int_equal(c.count, 3);
	assert_true(has(&c, "placement") && has(&c, "policy") && has(&c, "pagination"));
	cmd_candidates_free(&c);

	commands_complete(&f->session, "set policy r", 11, "r", &c);
	assert_int_equal(c.count, 1);
	assert_string_equal(c.items[0], "replicate");
	cmd_candidates_free(&c);

	commands_complete(&f->session, "se fallback ", 12, "", &c);
	assert_true(has(&c, "cpu:0") && has(&c, "cuda:0"));
	cmd_candidates_free(&c);

	commands_complete(&f->session, "load ", 5, "", &c);
	assert_true(c.files);
	cmd_candidates_free(&c);

	commands_complete(&f->session, "help ", 5, "ph", &c);
	assert_int_equal(c.count, 1);
	assert_string_equal(c.items[0], "phases");
	cmd_candidates_free(&c);

	commands_complete(&f->session, "ir --phase ", 11, "", &c);
	assert_true(has(&c, "parse") && has(&c, pipeline_phases[0].name));
	cmd_candidates_free(&c);

	fake_module(f);
	commands_complete(&f->session, "ir ", 3, "@", &c);
	assert_int_equal(c.count, 1);
	assert_string_equal(c.items[0], "@main");
	cmd_candidates_free(&c);

	commands_complete(&f->session, "target ", 7, "", &c);
	assert_true(has(&c, "add"));
	cmd_candidates_free(&c);

	/* reduce: its predicates and -o, then what each predicate takes */
	commands_complete(&f->session, "reduce ", 7, "", &c);
	assert_int_equal(c.count, 6);
	assert_true(has(&c, "conflict") && has(&c, "error") && has(&c, "compare-fail") &&
		    has(&c, "copies") && has(&c, "script") && has(&c, "-o"));
	assert_false(c.files);
	cmd_candidates_free(&c);
	commands_complete(&f->session, "reduce ", 7, "co", &c);
	assert_int_equal(c.count, 3);
	cmd_candidates_free(&c);
	commands_complete(&f->session, "reduce copies ", 14, "", &c);
	assert_true(has(&c, ">=") && has(&c, "-o"));
	cmd_candidates_free(&c);
	commands_complete(&f->session, "reduce script ", 14, "", &c);
	assert_int_equal(c.count, 0);
	assert_true(c.files);
	cmd_candidates_free(&c);
	commands_complete(&f->session, "reduce conflict -o ", 19, "", &c);
	assert_true(c.files);
	cmd_candidates_free(&c);

	/* pin: a device after the value or the operators, else the options */
	commands_complete(&f->session, "pin %b ", 7, "cu", &c);
	assert_int_equal(c.count, 1);
	assert_string_equal(c.items[0], "cuda:0");
	cmd_candidates_free(&c);
	commands_complete(&f->session, "pin --body --op nn.dense ", 25, "", &c);
	assert_true(has(&c, "cpu:0") && has(&c, "cuda:0"));
	cmd_candidates_free(&c);
	commands_complete(&f->session, "pin ", 4, "--", &c);
	assert_int_equal(c.count, 3);
	assert_true(has(&c, "--body") && has(&c, "--op") && has(&c, "--all"));
	cmd_candidates_free(&c);

	/* info: its subjects; ignore: the breakpoint numbers */
	commands_complete(&f->session, "info ", 5, "w", &c);
	assert_int_equal(c.count, 1);
	assert_string_equal(c.items[0], "watchpoints");
	cmd_candidates_free(&c);
}

static void test_stepping_completion_and_history(void **state)
{
	Fixture *f = *state;
	CmdCandidates c;
	commands_complete(&f->session, "break ", 6, "co", &c);
	assert_int_equal(c.count, 3);
	assert_true(has(&c, "conflict") && has(&c, "copy") && has(&c, "core"));
	cmd_candidates_free(&c);
	commands_complete(&f->session, "diff ", 5, "r", &c);
	assert_int_equal(c.count, 1);
	assert_string_equal(c.items[0], "rewrite");
	cmd_candidates_free(&c);
	commands_complete(&f->session, "diff --plan ", 12, "m", &c);
	assert_int_equal(c.count, 1);
	assert_string_equal(c.items[0], "min-transfer");
	cmd_candidates_free(&c);
	commands_complete(&f->session, "diff ", 5, "--m", &c);
	assert_int_equal(c.count, 1);
	assert_string_equal(c.items[0], "--module");
	cmd_candidates_free(&c);
	commands_complete(&f->session, "diff --module ", 14, "", &c);
	assert_true(c.files);
	cmd_candidates_free(&c);
	commands_complete(&f->session, "diff --module x.relay --phase ", 30, "p", &c);
	assert_int_equal(c.count, 1);
	assert_string_equal(c.items[0], "parse");
	cmd_candidates_free(&c);
	commands_complete(&f->session, "target set cuda:0 ", 18, "p", &c);
	assert_int_equal(c.count, 1);
	assert_string_equal(c.items[0], "peak=");
	cmd_candidates_free(&c);
	commands_complete(&f->session, "record ", 7, "o", &c);
	assert_true(has(&c, "off") && c.files);
	cmd_candidates_free(&c);
	assert_int_equal(run(f, "break conflict"), 0);
	assert_string_equal(f->out, "breakpoint 1: at conflicts\n");
	commands_complete(&f->session, "delete ", 7, "", &c);
	assert_int_equal(c.count, 1);
	assert_string_equal(c.items[0], "1");
	cmd_candidates_free(&c);
	/* every top-level line with a command is history, numbered */
	assert_int_equal(run(f, "# a comment"), 0);
	assert_int_equal(run(f, "history"), 0);
	assert_string_equal(f->out, "    1  break conflict\n    2  history\n");
	assert_int_equal(f->ctx.nhistory, 2);
}

static void test_interrupt_flag(void **state)
{
	Fixture *f = *state;
	fake_module(f);
	interrupt_request();
	assert_true(interrupt_pending());
	assert_int_equal(run(f, "step"), 1);
	assert_non_null(strstr(f->err, "interrupted"));
	interrupt_clear();
	assert_false(interrupt_pending());
	assert_int_equal(f->session.phases_done, 0);
}

/* Which words name files, and in which role (commands_path_words), seen
 * through commands_map_paths with a map that writes each as ROLE:typed
 * (I input, O output, D a folder written, C the folder `cd` goes to). */
static char *mark_role(void *arg, const CmdPathWord *w, const char *typed)
{
	static const char roles[] = {[CMD_PATH_INPUT] = 'I',
				     [CMD_PATH_OUTPUT] = 'O',
				     [CMD_PATH_OUTPUT_DIR] = 'D',
				     [CMD_PATH_DIRECTORY] = 'C'};
	(void)arg;
	return xasprintf("%c:%s", roles[w->role], typed);
}

static void test_path_words(void **state)
{
	static const char *const cases[][2] = {
		{"load m.relay", "load I:m.relay --as m.relay"},
		{"lo /abs/m.relay", "lo I:/abs/m.relay --as /abs/m.relay"},
		{"load m.relay --as shown.relay", "load I:m.relay --as shown.relay"},
		/* a failed load of two files is named by the first */
		{"load a.relay b.relay", "load I:a.relay I:b.relay --as a.relay"},
		{"source \"my script.dp\"", "source \"I:my script.dp\""},
		{"save out.relay --phase parse", "save O:out.relay --phase parse"},
		{"render - --focus %x", "render - --focus %x"},
		{"render g.svg --depth 2 --html p.html",
		 "render O:g.svg --depth 2 --html O:p.html"},
		{"run x=in.npy y=random:3 z=random --output o.npy --dump d",
		 "run x=I:in.npy y=random:3 z=random --output O:o.npy --dump D:d"},
		{"compare --expect e.npy --expect f.npy --top 3",
		 "compare --expect I:e.npy --expect I:f.npy --top 3"},
		{"profile a=x.npy", "profile a=I:x.npy"},
		{"bugreport report", "bugreport D:report"},
		{"record session.dp", "record O:session.dp"},
		{"record off", "record off"},
		{"cd ../models", "cd C:../models"},
		{"reduce script t.dp -o small.relay", "reduce script I:t.dp -o O:small.relay"},
		{"reduce error \"a script\" --output s.relay",
		 "reduce error \"a script\" --output O:s.relay"},
		{"reduce error script x", "reduce error script x"},
		{"diff --module other.relay --phase core",
		 "diff --module I:other.relay --phase core"},
		{"echo --output x -o y", "echo --output x -o y"},
		{"placement --json", "placement --json"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *actual = commands_map_paths(cases[i][0], mark_role, NULL);
		assert_non_null(actual);
		if (strcmp(actual, cases[i][1]) != 0)
			fail_msg("'%s' maps to '%s', not '%s'", cases[i][0], actual, cases[i][1]);
		free(actual);
	}
	/* no command: nothing to map */
	assert_null(commands_map_paths("frobnicate x.relay", mark_role, NULL));
	assert_null(commands_map_paths("echo \"unterminated", mark_role, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_is_sorted_and_complete),
		cmocka_unit_test(test_usage_md_matches_table),
		cmocka_unit_test(test_split_and_quotes),
		cmocka_unit_test(test_split_refuses),
		cmocka_unit_test(test_put_word_round_trip),
		cmocka_unit_test(test_recorded_line),
		cmocka_unit_test(test_pipeline_find),
		cmocka_unit_test(test_suggestions),
		cmocka_unit_test_setup_teardown(test_exact_alias_and_prefix, setup, teardown),
		cmocka_unit_test(test_gdb_aliases),
		cmocka_unit_test_setup_teardown(test_info, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ambiguous_and_unknown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_argument_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_conflicts_many, setup, teardown),
		cmocka_unit_test_setup_teardown(test_memory_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_memory_limit_total, setup, teardown),
		cmocka_unit_test_setup_teardown(test_profile_without_ops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_needs_module, setup, teardown),
		cmocka_unit_test_setup_teardown(test_quoted_command_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_and_show, setup, teardown),
		cmocka_unit_test_setup_teardown(test_planning_setting_resets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_phases_and_restart, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_missing_keeps_module, setup, teardown),
		cmocka_unit_test_setup_teardown(test_targets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_script_errors_name_file_and_line, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_nested_source_and_quit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_source_recursion_is_bounded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_echo_setting, setup, teardown),
		cmocka_unit_test_setup_teardown(test_completion, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stepping_completion_and_history, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_interrupt_flag, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bfloat16_npy_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_run_dump_and_print, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compare_expect, setup, teardown),
		cmocka_unit_test(test_path_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
