/*
 * cmd_diff.c - `diff`: what a phase changed, as a unified diff of the
 * printed module.
 *
 * Every phase leaves its input version untouched (STYLE.md §3), so the
 * module before and after any phase that ran are both at hand: print each
 * as `ir` would and compare the texts line by line (core/session/linediff.h). A
 * phase in progress under stepi has not changed the module yet; `diff`
 * says so and shows the last phase that completed.
 */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

#include "linediff.h"
#include "print.h"
#include "stepper.h"

enum { DIFF_CONTEXT = 3 };

static void print_version(StrBuf *sb, const Session *s, const IrModule *m, bool devices)
{
	PrintOptions opts;
	memset(&opts, 0, sizeof opts);
	opts.devices = &s->devices;
	opts.show_devices = devices;
	opts.show_types = m->typed;
	print_module(sb, m, &opts);
}

int cmd_diff(CmdContext *ctx, int argc, char **argv)
{
	Session *s = ctx->session;
	const char *name = s->path ? s->path : "module";
	bool devices = false;
	int phase = -1, status = 0;
	size_t applied, total;
	StrBuf before, after, out;
	const IrModule *m_before, *m_after;
	char *label_a, *label_b;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--devices") == 0) {
			devices = true;
		} else if (argv[i][0] == '-') {
			return cmd_error(ctx, "unknown option '%s' for 'diff'", argv[i]);
		} else if (phase >= 0) {
			return cmd_error(ctx, "unexpected argument '%s'", argv[i]);
		} else if ((phase = cmd_find_phase(ctx, argv[i], false)) < 0) {
			return 1;
		} else if (!session_phase_ran(s, phase)) {
			return cmd_error(ctx, "phase '%s' has not run yet; use 'step'",
					 pipeline_phases[phase].name);
		}
	}
	if (phase < 0) {
		if (s->phases_done == 0)
			return cmd_error(ctx, "no phase has run yet; use 'step'");
		phase = (int)s->phases_done - 1;
		if (stepper_in_progress(s, &applied, &total))
			cmd_note(ctx,
				 "phase '%s' is in progress (event %zu of %zu) and changes the "
				 "module when it completes; this is '%s'",
				 pipeline_phases[s->phases_done].name, applied, total,
				 pipeline_phases[phase].name);
	}
	if (!(m_before = cmd_version(ctx, phase - 1)) || !(m_after = cmd_version(ctx, phase)))
		return 1;
	strbuf_init(&before);
	strbuf_init(&after);
	strbuf_init(&out);
	print_version(&before, s, m_before, devices);
	print_version(&after, s, m_after, devices);
	label_a = phase == 0 ? xasprintf("%s (as loaded)", name)
			     : xasprintf("%s (after %s)", name, pipeline_phases[phase - 1].name);
	label_b = xasprintf("%s (after %s)", name, pipeline_phases[phase].name);
	if (linediff_unified(&out, before.data ? before.data : "", before.len,
			     after.data ? after.data : "", after.len, label_a, label_b,
			     DIFF_CONTEXT) == 0)
		fprintf(ctx->out, "phase '%s' changed nothing\n", pipeline_phases[phase].name);
	else
		status = cmd_write(ctx, &out);
	free(label_a);
	free(label_b);
	strbuf_free(&before);
	strbuf_free(&after);
	strbuf_free(&out);
	return status;
}

void cmd_complete_diff(const Session *s, int argc, char **argv, const char *word,
		       CmdCandidates *out)
{
	if (word[0] == '-') {
		cmd_candidates_add(out, word, "--devices");
		return;
	}
	cmd_complete_phases(word, false, out);
}
