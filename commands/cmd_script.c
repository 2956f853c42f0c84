/*
 * cmd_script.c - scripting and housekeeping: `echo`, `source`, `quit`.
 *
 * `source` is the same runner that -x and standard input use
 * (commands_run_stream), so a script behaves the same wherever it comes
 * from; nesting is bounded and errors inside name the inner file and line.
 */
#include "commands.h"

int cmd_echo(CmdContext *ctx, int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		fprintf(ctx->out, "%s%s", i > 1 ? " " : "", argv[i]);
	fputc('\n', ctx->out);
	return 0;
}

int cmd_source(CmdContext *ctx, int argc, char **argv)
{
	return commands_run_script(ctx, argv[1]);
}

int cmd_quit(CmdContext *ctx, int argc, char **argv)
{
	ctx->quit = true;
	return 0;
}
