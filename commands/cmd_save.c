/*
 * cmd_save.c - `save`: write a module version as a file TVM loads again.
 *
 * The text is the printer's (core/ir/print.c), as `ir` and `ir --phase`
 * show the same versions, with the #[metadata] section whenever the text
 * needs one: when the module has constants or was loaded with a section
 * (print_module's show_metadata), and also when it only refers to devices
 * as meta[VirtualDevice][i], which without a section would index the
 * session's device table, something TVM does not have.
 *
 * Pins (pins.h) are what-if constraints that live in the session, not in
 * the module; planning applies them from `check` on. A version before
 * `check` (parse, rewrite) is therefore written with each pin turned into
 * the annotation that constrains the same values
 * (session_annotate_pins), so that loading the file without pins plans as
 * the pinned session does.
 *
 * The file is written through file_write.h's writer (a temporary file
 * beside it, renamed over it once complete), so FILE is either as it was
 * or the whole module.
 */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

int cmd_save(CmdContext *ctx, int argc, char **argv)
{
	if (session_relax_active(ctx->session))
		return cmd_relax_save(ctx, argc, argv);
	Session *s = ctx->session;
	const char *path = NULL, *phase_name = NULL;
	IrModule *m, *annotated = NULL;
	int phase;
	bool input = false;
	StrBuf sb;
	char *err;
	bool ok;
	size_t npins;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--phase") == 0) {
			if (i + 1 >= argc)
				return cmd_error(ctx, "'--phase' needs a phase name");
			phase_name = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cmd_error(ctx, "unknown option '%s' for 'save'", argv[i]);
		} else if (path) {
			return cmd_error(ctx, "unexpected argument '%s'; 'save' writes one file",
					 argv[i]);
		} else {
			path = argv[i];
		}
	}
	if (!path)
		return cmd_error(ctx, "'save' needs a file name");
	if (phase_name) {
		m = cmd_phase_version(ctx, phase_name, &phase, &input);
		if (!m)
			return 1;
		if (input) /* the phase failed: m is what it started from */
			phase--;
	} else {
		phase = (int)s->phases_done - 1;
		m = session_current(s);
	}
	/* the pins are in the module from check on */
	(void)session_pins(s, &npins);
	if (npins && phase < pipeline_find_flags(PHASE_REPORTS_CONFLICTS)) {
		annotated = session_annotate_pins(s, m, &s->diags);
		if (!annotated) {
			cmd_print_diags(ctx, &s->diags);
			session_clear_diags(s);
			cmd_note(ctx, "a planned version carries the pins: 'plan', then 'save %s'",
				 path);
			return 1;
		}
		m = annotated;
	}
	strbuf_init(&sb);
	session_print_module(s, m, m->typed, &sb);
	ok = file_write_all(path, sb.data, sb.len, &err);
	if (ok) {
		fprintf(ctx->out, "saved the module as of '%s' to '%s'",
			phase < 0 ? "parse" : pipeline_phases[phase].name, path);
		if (annotated)
			fprintf(ctx->out, ", with %zu pin%s as annotations", npins,
				npins == 1 ? "" : "s");
		fputc('\n', ctx->out);
	}
	strbuf_free(&sb);
	if (annotated)
		ir_module_free(annotated);
	if (!ok) {
		cmd_error(ctx, "%s", err);
		free(err);
		return 1;
	}
	return 0;
}

void cmd_complete_save(const Session *s, int argc, char **argv, const char *word,
		       CmdCandidates *out)
{
	if (argc > 1 && strcmp(argv[argc - 1], "--phase") == 0) {
		cmd_complete_phases(word, true, out);
		return;
	}
	if (word[0] == '-')
		cmd_candidates_add(out, word, "--phase");
	else
		out->files = true;
}
