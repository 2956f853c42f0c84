/*
 * cmd_load.c - `load` and `reload`: parse a module into the session.
 *
 * The session does the work and keeps the old module when the new one does
 * not parse; these handlers only report: the diagnostics, then either what
 * was loaded or which module is still there.
 */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

enum { LOAD_LIST_GLOBALS = 4 };

/* The name the loaded module goes by in messages: the file as named, or
 * the name `load --as` gave it. */
static const char *loaded_name(const Session *s)
{
	return session_module_name(s);
}

/* A Relax module: its functions, as TVMScript names them. */
static void report_relax(CmdContext *ctx, const char *verb)
{
	const RxModule *m = session_relax_module(ctx->session, -1);
	fprintf(ctx->out, "%s '%s' (Relax):", verb, loaded_name(ctx->session));
	if (m->nfuncs == 0)
		fputs(" no functions", ctx->out);
	for (uint32_t i = 0; i < m->nfuncs && i < LOAD_LIST_GLOBALS; i++)
		fprintf(ctx->out, "%s @%s", i ? "," : "", m->funcs[i]->name);
	if (m->nfuncs > LOAD_LIST_GLOBALS)
		fprintf(ctx->out, " and %u more", m->nfuncs - LOAD_LIST_GLOBALS);
	fprintf(ctx->out, "; %u vdevices\n", m->nvdevices);
}

static void report_loaded(CmdContext *ctx, const char *verb)
{
	const Session *s = ctx->session;
	const IrModule *m;
	if (session_relax_active(s)) {
		report_relax(ctx, verb);
		return;
	}
	m = session_current(s);
	fprintf(ctx->out, "%s '%s':", verb, loaded_name(s));
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
		cmd_note(ctx, "'%s' is still loaded", loaded_name(ctx->session));
	return 1;
}

int cmd_load(CmdContext *ctx, int argc, char **argv)
{
	const char *file = NULL, *name = NULL;
	char *path;
	bool ok;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--as") == 0) {
			if (i + 1 >= argc)
				return cmd_error(ctx, "'--as' needs the name to give the module");
			name = argv[++i];
		} else if (file) {
			return cmd_error(ctx, "unexpected argument '%s'; 'load' reads one file",
					 argv[i]);
		} else {
			file = argv[i];
		}
	}
	if (!file)
		return cmd_error(ctx, "'load' needs a file name");
	/* read where a script finds it (commands_input_path), named as typed */
	path = commands_input_path(ctx, file);
	ok = session_load_as(ctx->session, path, name ? name : file);
	if (ok) /* not replaced unasked (file_write.h) */
		file_guard_set(path);
	free(path);
	if (!ok)
		return load_failed(ctx);
	cmd_remember_load(ctx);
	cmd_print_diags(ctx, &ctx->session->diags);
	report_loaded(ctx, "loaded");
	return 0;
}

int cmd_reload(CmdContext *ctx, int argc, char **argv)
{
	if (!session_reload(ctx->session))
		return load_failed(ctx);
	file_guard_set(ctx->session->path);
	cmd_print_diags(ctx, &ctx->session->diags);
	report_loaded(ctx, "reloaded");
	return 0;
}
