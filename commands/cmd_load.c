/*
 * cmd_load.c - `load` and `reload`: parse a module into the session.
 *
 * The session does the work and keeps the old module when the new one does
 * not parse; these handlers only report: the diagnostics, then either what
 * was loaded or which module is still there.
 */
#include "commands.h"

enum { LOAD_LIST_GLOBALS = 4 };

static void report_loaded(CmdContext *ctx, const char *verb)
{
	const Session *s = ctx->session;
	const IrModule *m = session_current(s);
	fprintf(ctx->out, "%s '%s':", verb, s->path);
	if (m->nglobals == 0)
		fputs(" no global functions", ctx->out);
	for (uint32_t i = 0; i < m->nglobals && i < LOAD_LIST_GLOBALS; i++)
		fprintf(ctx->out, "%s @%s", i ? "," : "", m->globals[i].name);
	if (m->nglobals > LOAD_LIST_GLOBALS)
		fprintf(ctx->out, " and %u more", m->nglobals - LOAD_LIST_GLOBALS);
	fputc('\n', ctx->out);
}

static int load_failed(CmdContext *ctx)
{
	cmd_print_diags(ctx, &ctx->session->diags);
	if (session_has_module(ctx->session))
		cmd_note(ctx, "'%s' is still loaded", ctx->session->path);
	return 1;
}

int cmd_load(CmdContext *ctx, int argc, char **argv)
{
	if (!session_load(ctx->session, argv[1]))
		return load_failed(ctx);
	cmd_print_diags(ctx, &ctx->session->diags);
	report_loaded(ctx, "loaded");
	return 0;
}

int cmd_reload(CmdContext *ctx, int argc, char **argv)
{
	if (!session_reload(ctx->session))
		return load_failed(ctx);
	cmd_print_diags(ctx, &ctx->session->diags);
	report_loaded(ctx, "reloaded");
	return 0;
}
