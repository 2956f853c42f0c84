/*
 * cmd_relax.c - `ir`, `plan`, `step`, `phases` and `restart` for a Relax
 * module: the Relax pipeline is core/relax/relax_realize.h's five phases
 * (TVM's RealizeVDevice), run under `set policy tvm`.
 *
 * The Relay handlers call these when a Relax module is loaded, so the
 * command table keeps one entry per command (flag CMD_RELAX).
 */
#include "commands.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "relax_print.h"

static int phase_by_name(const char *name)
{
	for (int i = 0; i < RX_PHASE_COUNT; i++)
		if (strcmp(relax_phase_names[i], name) == 0)
			return i;
	return strcmp(name, "parse") == 0 ? -2 : -3;
}

int cmd_relax_ir(CmdContext *ctx, int argc, char **argv)
{
	const Session *s = ctx->session;
	const RxModule *m = session_relax_module(s, -1);
	StrBuf sb;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--phase") == 0 && i + 1 < argc) {
			int phase = phase_by_name(argv[++i]);
			if (phase == -3)
				return cmd_error(ctx, "unknown phase '%s'; see 'phases'", argv[i]);
			if (phase >= 0 && (size_t)phase >= session_relax_phases_done(s))
				return cmd_error(ctx, "phase '%s' has not run yet", argv[i]);
			m = phase == -2 ? session_relax_module(s, RX_PHASE_COLLECT)
					: session_relax_module(s, phase);
		} else {
			return cmd_error(ctx, "'%s': a Relax module's ir takes only --phase P",
					 argv[i]);
		}
	}
	strbuf_init(&sb);
	relax_print_module(&sb, m);
	fputs(sb.data ? sb.data : "", ctx->out);
	strbuf_free(&sb);
	return 0;
}

/* `plan` (argv[0] "plan": every phase) and `step [N]`. */
int cmd_relax_step(CmdContext *ctx, int argc, char **argv)
{
	Session *s = ctx->session;
	size_t n = SIZE_MAX, before = session_relax_phases_done(s);
	bool ok;
	if (s->settings.policy != POLICY_TVM)
		return cmd_error(ctx,
				 "policy %s is not implemented for Relax modules yet; "
				 "'set policy tvm' runs TVM's RealizeVDevice",
				 plan_policy_names[s->settings.policy]);
	if (strcmp(argv[0], "step") == 0) {
		char *end;
		n = 1;
		if (argc > 1) {
			errno = 0;
			long v = strtol(argv[1], &end, 10);
			if (end == argv[1] || *end || errno || v <= 0)
				return cmd_error(ctx,
						 "invalid count '%s': expected a positive number",
						 argv[1]);
			n = (size_t)v;
		}
		if (session_relax_planned(s))
			return cmd_error(ctx, "every phase has run; 'restart' to plan again");
	}
	ok = session_relax_step(s, n);
	cmd_print_diags(ctx, &s->diags);
	if (strcmp(argv[0], "step") == 0)
		for (size_t i = before; i < session_relax_phases_done(s); i++)
			fprintf(ctx->out, "ran %s\n", relax_phase_names[i]);
	return ok ? 0 : 1;
}

int cmd_relax_phases(CmdContext *ctx, int argc, char **argv)
{
	const Session *s = ctx->session;
	size_t done = session_relax_phases_done(s);
	int failed = s->relax->failed_phase;
	for (size_t i = 0; i < RX_PHASE_COUNT; i++) {
		const char *state = i < done           ? "done"
				    : (int)i == failed ? "failed"
				    : i == done        ? "current"
						       : "pending";
		fprintf(ctx->out, "  %-9s  %-7s  %s\n", relax_phase_names[i], state,
			relax_phase_summaries[i]);
	}
	return 0;
}
