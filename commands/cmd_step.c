/*
 * cmd_step.c - moving through the pipeline: `step`, `plan`, `restart` and
 * `phases`.
 *
 * All of them read pipeline_phases through the session, so a new phase
 * shows up here without any change. Phases run one at a time so that each
 * one's diagnostics print before its `NAME: done` line.
 */
#include "commands.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Runs up to n phases, one line each; 1 at the first failure. */
static int run_phases(CmdContext *ctx, size_t n)
{
	Session *s = ctx->session;
	for (size_t k = 0; k < n && s->phases_done < pipeline_count; k++) {
		size_t i = s->phases_done;
		bool ok;
		if (session_interrupted())
			return cmd_error(ctx, "interrupted before phase '%s'",
					 pipeline_phases[i].name);
		ok = session_step(s, 1);
		cmd_print_diags(ctx, &s->diags);
		if (!ok)
			return cmd_error(ctx, "phase '%s' failed", pipeline_phases[i].name);
		fprintf(ctx->out, "%s: done\n", pipeline_phases[i].name);
	}
	if (s->phases_done == pipeline_count)
		fputs("all phases done\n", ctx->out);
	return 0;
}

int cmd_step(CmdContext *ctx, int argc, char **argv)
{
	size_t n = 1;
	if (argc > 1) {
		char *end;
		long v;
		errno = 0;
		v = strtol(argv[1], &end, 10);
		if (end == argv[1] || *end || errno || v <= 0)
			return cmd_error(ctx, "invalid count '%s': expected a positive number",
					 argv[1]);
		n = (size_t)v;
	}
	return run_phases(ctx, n);
}

int cmd_plan(CmdContext *ctx, int argc, char **argv)
{
	return run_phases(ctx, pipeline_count);
}

int cmd_restart(CmdContext *ctx, int argc, char **argv)
{
	session_restart(ctx->session);
	fputs("back to the module as loaded\n", ctx->out);
	return 0;
}

int cmd_phases(CmdContext *ctx, int argc, char **argv)
{
	const Session *s = ctx->session;
	bool loaded = session_has_module(s);
	bool colored = cmd_color(ctx, ctx->out);
	size_t width = 0;
	for (size_t i = 0; i < pipeline_count; i++)
		if (strlen(pipeline_phases[i].name) > width)
			width = strlen(pipeline_phases[i].name);
	for (size_t i = 0; i < pipeline_count; i++) {
		const char *state = "pending";
		const char *color = "";
		if (loaded && i < s->phases_done) {
			state = "done";
			color = "32";
		} else if (loaded && i == s->phases_done) {
			state = "current";
			color = "1;33";
		}
		if (colored && *color)
			fprintf(ctx->out, "  %-*s  \033[%sm%-7s\033[0m  %s\n", (int)width,
				pipeline_phases[i].name, color, state, pipeline_phases[i].summary);
		else
			fprintf(ctx->out, "  %-*s  %-7s  %s\n", (int)width, pipeline_phases[i].name,
				state, pipeline_phases[i].summary);
	}
	return 0;
}
