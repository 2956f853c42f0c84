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
 * the annotation that constrains the same values, so that loading the file
 * without pins plans as the pinned session does:
 *   a parameter %x          gets `%x {virtual_device=D}`
 *   let %x = v; ...         becomes `let %x = on_device(v, virtual_device=D)`
 *                           (which `rewrite` fixes, constraining %x too)
 *   a graph binding %x = e  becomes `%x = on_device(e, virtual_device=D,
 *                           constrain_result=True)`: e and every use of %x
 *                           on D, as the pin binds them
 * A pattern variable or a free variable has no such annotation in Relay:
 * such a pin is refused, naming it. The edits are made on a clone, which
 * the command frees; the session's versions are untouched.
 *
 * The file is written through file_write.h's writer (a temporary file
 * beside it, renamed over it once complete), so FILE is either as it was
 * or the whole module.
 */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

#include "metadata.h"
#include "print.h"

/* Turns e, a named non-variable expression of m, into a fixed on_device of
 * a copy of itself, in place, so that every use of e now uses the
 * annotation. The copy loses the name (the printer numbers it); the
 * annotation keeps e's id and name. */
static void wrap_in_place(IrModule *m, Expr *e, int32_t device)
{
	Expr *inner = ir_new(m, e->kind, e->pos);
	Expr *wrapper;
	uint32_t id = inner->id;
	*inner = *e;
	inner->id = id;
	inner->name = NULL;
	inner->name_generated = false;
	wrapper = ir_on_device(m, e->pos, inner, device);
	ir_set_on_device_fixed(m, wrapper, device);
	id = e->id;
	{
		const char *name = e->name;
		bool generated = e->name_generated;
		Type *type = inner->type;
		*e = *wrapper;
		e->id = id;
		e->name = name;
		e->name_generated = generated;
		e->type = type;
	}
}

/* Writes the pins into a clone of m (see the top); NULL after reporting a
 * pin that cannot be written as an annotation. */
static IrModule *annotate_pins(CmdContext *ctx, const IrModule *m)
{
	size_t npins;
	const PlanPin *pins = session_pins(ctx->session, &npins);
	IrModule *copy = ir_module_clone(m);
	uint32_t nexprs = copy->nexprs;
	Expr **by_id = ir_index_by_id(copy);
	for (size_t i = 0; i < npins; i++) {
		for (uint32_t id = 0; id < nexprs; id++) {
			Expr *e = by_id[id];
			if (!e || !e->name || strcmp(e->name, pins[i].name) != 0)
				continue;
			if (e->kind != EXPR_VAR) {
				wrap_in_place(copy, e, pins[i].device);
				continue;
			}
			switch (e->u.var.role) {
			case VAR_PARAM:
				e->device = (int16_t)pins[i].device;
				break;
			case VAR_LET:
				for (uint32_t k = 0; k < nexprs; k++) {
					Expr *let = by_id[k];
					if (let && let->kind == EXPR_LET && let->u.let.var == e) {
						Expr *value = let->u.let.value;
						let->u.let.value = ir_on_device(
							copy, value->pos, value, pins[i].device);
						e->u.var.value = let->u.let.value;
					}
				}
				break;
			case VAR_PATTERN:
			case VAR_FREE:
				cmd_error(
					ctx,
					"cannot write the pin of '%%%s' as an annotation: it is a "
					"%s variable; 'unpin %%%s' or save a planned version",
					pins[i].name,
					e->u.var.role == VAR_PATTERN ? "pattern" : "free",
					pins[i].name);
				free(by_id);
				ir_module_free(copy);
				return NULL;
			}
		}
	}
	free(by_id);
	return copy;
}

int cmd_save(CmdContext *ctx, int argc, char **argv)
{
	Session *s = ctx->session;
	const char *path = NULL, *phase_name = NULL;
	IrModule *m, *annotated = NULL;
	int phase;
	bool input = false;
	PrintOptions opts;
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
		annotated = annotate_pins(ctx, m);
		if (!annotated)
			return 1;
		m = annotated;
	}
	memset(&opts, 0, sizeof opts);
	opts.devices = &s->devices;
	opts.show_types = m->typed;
	opts.show_metadata = true;
	strbuf_init(&sb);
	print_module(&sb, m, &opts);
	if (m->nconstants == 0 && !m->metadata && strstr(sb.data, "meta[VirtualDevice]")) {
		/* devices only: the session's table becomes the section */
		strbuf_putc(&sb, '\n');
		metadata_write(&sb, m, &s->devices, NULL);
	}
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
