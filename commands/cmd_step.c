/*
 * cmd_step.c - moving through the pipeline: `step`, `stepi`, `continue`,
 * `plan`, `restart` and `phases`.
 *
 * All four movers are one call to stepper_run (core/session/stepper.h) with a
 * different unit: `stepi` an event (or a phase without events), `step` a
 * phase, `continue` and `plan` everything; `plan` alone ignores breakpoints
 * and watchpoints, like running a program outside the debugger. What
 * happens comes back through a StepSink, printed here as it happens, so a
 * phase's diagnostics print before its `NAME: done` line and a watch line
 * appears next to the event that caused it.
 */
#include "commands.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "relax_explain.h"
#include "stepper.h"

typedef struct StepPrinter {
	CmdContext *ctx;
	bool events;         /* every event is printed (stepi) */
	size_t failed_phase; /* the phase reported failed, or SIZE_MAX */
} StepPrinter;

static void domain_text(StrBuf *sb, const Session *s, int32_t device)
{
	strbuf_puts(sb, device == IR_NO_DEVICE ? "free" : devices_name(&s->devices, device));
}

/* `%b: free -> cpu:0`, or `%b: merged with another class (cpu:0)`. */
static void change_text(StrBuf *sb, const Session *s, const StepReport *r)
{
	strbuf_printf(sb, "%s: ", r->bp->value);
	if (r->before.device != r->after.device) {
		domain_text(sb, s, r->before.device);
		strbuf_puts(sb, " -> ");
		domain_text(sb, s, r->after.device);
	} else {
		strbuf_puts(sb, "merged with another class (");
		domain_text(sb, s, r->after.device);
		strbuf_putc(sb, ')');
	}
}

static void print_break(StepPrinter *p, const StepReport *r)
{
	CmdContext *ctx = p->ctx;
	const Breakpoint *bp = r->bp;
	fprintf(ctx->out, "%s %u, ", bp->temporary ? "temporary breakpoint" : "breakpoint",
		bp->number);
	switch (bp->kind) {
	case BREAK_PHASE:
		fprintf(ctx->out, "before phase '%s'\n", pipeline_phases[r->phase].name);
		return;
	case BREAK_CONFLICT:
		if (r->event != SIZE_MAX)
			fputs("conflict\n", ctx->out);
		else
			fprintf(ctx->out, "%s reported %zu conflict%s (see 'conflicts')\n",
				pipeline_phases[r->phase].name, r->count, r->count == 1 ? "" : "s");
		return;
	case BREAK_COPY:
		if (r->event != SIZE_MAX)
			fputs("device_copy inserted\n", ctx->out);
		else
			fprintf(ctx->out, "%s inserted %zu device_copy call%s (see 'diff')\n",
				pipeline_phases[r->phase].name, r->count, r->count == 1 ? "" : "s");
		return;
	case BREAK_VALUE:
	case BREAK_WATCH:
		fputc('\n', ctx->out);
		return;
	}
}

static void step_report(void *arg, const StepReport *r)
{
	StepPrinter *p = arg;
	CmdContext *ctx = p->ctx;
	Session *s = ctx->session;
	StrBuf sb;
	switch (r->kind) {
	case STEP_REPORT_PHASE_DONE:
		cmd_print_diags(ctx, &s->diags);
		fprintf(ctx->out, "%s: done\n", pipeline_phases[r->phase].name);
		return;
	case STEP_REPORT_PHASE_FAILED:
		cmd_print_diags(ctx, &s->diags);
		p->failed_phase = r->phase;
		return;
	case STEP_REPORT_EVENT:
		strbuf_init(&sb);
		stepper_event_position(&sb, s, r->event);
		strbuf_putc(&sb, ' ');
		plan_event_describe(&sb, s->trace, r->event, &s->devices);
		strbuf_putc(&sb, '\n');
		cmd_write(ctx, &sb);
		strbuf_free(&sb);
		return;
	case STEP_REPORT_CHANGE:
		strbuf_init(&sb);
		if (r->bp->kind == BREAK_WATCH)
			strbuf_puts(&sb, "watch ");
		else
			strbuf_printf(&sb, "%s %u, ",
				      r->bp->temporary ? "temporary breakpoint" : "breakpoint",
				      r->bp->number);
		change_text(&sb, s, r);
		if (r->bp->kind == BREAK_WATCH && !p->events) {
			strbuf_puts(&sb, " (");
			plan_event_describe(&sb, s->trace, r->event, &s->devices);
			strbuf_putc(&sb, ')');
		}
		strbuf_putc(&sb, '\n');
		cmd_write(ctx, &sb);
		strbuf_free(&sb);
		return;
	case STEP_REPORT_BREAK:
		print_break(p, r);
		return;
	}
}

/* Reports how a stepper ended; 1 on failure or interrupt. failed_phase
 * names the phase that failed (NULL: the diagnostics say what failed). */
static int report_outcome(CmdContext *ctx, StepOutcome o, const char *failed_phase)
{
	switch (o) {
	case STEP_DONE:
	case STEP_STOPPED:
		return 0;
	case STEP_END:
		fputs("all phases done\n", ctx->out);
		return 0;
	case STEP_FAILED:
		if (failed_phase)
			return cmd_error(ctx, "phase '%s' failed", failed_phase);
		cmd_print_diags(ctx, &ctx->session->diags);
		return 1;
	case STEP_INTERRUPTED:
		cmd_print_diags(ctx, &ctx->session->diags);
		return 1;
	}
	return 1;
}

/* Runs the stepper and reports how it ended; 1 on failure or interrupt. */
static int run_stepper(CmdContext *ctx, StepMode mode, size_t count, bool breakpoints)
{
	StepPrinter printer = {ctx, mode == STEP_EVENT, SIZE_MAX};
	StepSink sink = {step_report, &printer};
	StepOutcome o = stepper_run(ctx->session, mode, count, breakpoints, &sink);
	return report_outcome(ctx, o,
			      printer.failed_phase == SIZE_MAX
				      ? NULL
				      : pipeline_phases[printer.failed_phase].name);
}

/* ---- the same for a Relax module (session_relax.h) ---- */

static void rx_vdevice_text(StrBuf *sb, const RxModule *m, int vdevice)
{
	if (vdevice < 0)
		strbuf_puts(sb, "none");
	else
		relax_vdevice_name(m, vdevice, sb);
}

static void rx_break_text(StrBuf *sb, const RxStepReport *r)
{
	const Breakpoint *bp = r->bp;
	strbuf_printf(sb, "%s %u, ", bp->temporary ? "temporary breakpoint" : "breakpoint",
		      bp->number);
	if (bp->kind == BREAK_PHASE)
		strbuf_printf(sb, "before phase '%s'\n", relax_phase_names[r->phase]);
	else if (bp->kind == BREAK_CONFLICT)
		strbuf_printf(sb, "colocate found %zu conflict%s (see 'conflicts')\n", r->count,
			      r->count == 1 ? "" : "s");
	else
		strbuf_printf(sb, "rewrite inserted %zu R.to_vdevice (see 'diff')\n", r->count);
}

static void rx_step_report(void *arg, const RxStepReport *r)
{
	StepPrinter *p = arg;
	CmdContext *ctx = p->ctx;
	Session *s = ctx->session;
	const RxRealize *rz = &s->relax->realize;
	StrBuf sb;
	if (r->kind == STEP_REPORT_PHASE_DONE || r->kind == STEP_REPORT_PHASE_FAILED) {
		cmd_print_diags(ctx, &s->diags);
		if (r->kind == STEP_REPORT_PHASE_DONE)
			fprintf(ctx->out, "%s: done\n", relax_phase_names[r->phase]);
		else
			p->failed_phase = r->phase;
		return;
	}
	strbuf_init(&sb);
	if (r->kind == STEP_REPORT_EVENT) {
		strbuf_printf(&sb, "[propagate %zu/%zu] ", r->event + 1, rz->nevents);
		relax_event_describe(&sb, rz, r->event, session_module_name(s));
		strbuf_putc(&sb, '\n');
	} else if (r->kind == STEP_REPORT_CHANGE) {
		if (r->bp->kind == BREAK_WATCH)
			strbuf_puts(&sb, "watch ");
		else
			strbuf_printf(&sb, "%s %u, ",
				      r->bp->temporary ? "temporary breakpoint" : "breakpoint",
				      r->bp->number);
		strbuf_printf(&sb, "%s: ", r->bp->value);
		rx_vdevice_text(&sb, rz->in, r->before);
		strbuf_puts(&sb, " -> ");
		rx_vdevice_text(&sb, rz->in, r->after);
		if (r->bp->kind == BREAK_WATCH && !p->events) {
			strbuf_puts(&sb, " (");
			relax_event_describe(&sb, rz, r->event, session_module_name(s));
			strbuf_putc(&sb, ')');
		}
		strbuf_putc(&sb, '\n');
	} else {
		rx_break_text(&sb, r);
	}
	cmd_write(ctx, &sb);
	strbuf_free(&sb);
}

/* run_stepper for a Relax module. */
static int run_relax_stepper(CmdContext *ctx, StepMode mode, size_t count, bool breakpoints)
{
	StepPrinter printer = {ctx, mode == STEP_EVENT, SIZE_MAX};
	RxStepSink sink = {rx_step_report, &printer};
	StepOutcome o;
	if (cmd_relax_check_policy(ctx))
		return 1;
	o = session_relax_run(ctx->session, mode, count, breakpoints, &sink);
	return report_outcome(
		ctx, o,
		printer.failed_phase == SIZE_MAX ? NULL : relax_phase_names[printer.failed_phase]);
}

static int parse_count(CmdContext *ctx, int argc, char **argv, size_t *n)
{
	char *end;
	long v;
	*n = 1;
	if (argc < 2)
		return 0;
	errno = 0;
	v = strtol(argv[1], &end, 10);
	if (end == argv[1] || *end || errno || v <= 0)
		return cmd_error(ctx, "invalid count '%s': expected a positive number", argv[1]);
	*n = (size_t)v;
	return 0;
}

/* The Relax stepper or Relay's, by the module loaded. */
static int run_any_stepper(CmdContext *ctx, StepMode mode, size_t count)
{
	if (session_relax_active(ctx->session))
		return run_relax_stepper(ctx, mode, count, true);
	return run_stepper(ctx, mode, count, true);
}

int cmd_step(CmdContext *ctx, int argc, char **argv)
{
	size_t n;
	if (parse_count(ctx, argc, argv, &n))
		return 1;
	return run_any_stepper(ctx, STEP_PHASE, n);
}

int cmd_stepi(CmdContext *ctx, int argc, char **argv)
{
	size_t n;
	if (parse_count(ctx, argc, argv, &n))
		return 1;
	return run_any_stepper(ctx, STEP_EVENT, n);
}

int cmd_continue(CmdContext *ctx, int argc, char **argv)
{
	return run_any_stepper(ctx, STEP_CONTINUE, 0);
}

int cmd_plan(CmdContext *ctx, int argc, char **argv)
{
	if (session_relax_active(ctx->session))
		return cmd_relax_step(ctx, argc, argv);
	return run_stepper(ctx, STEP_CONTINUE, 0, false);
}

int cmd_restart(CmdContext *ctx, int argc, char **argv)
{
	session_restart(ctx->session);
	fputs("back to the module as loaded\n", ctx->out);
	return 0;
}

int cmd_phases(CmdContext *ctx, int argc, char **argv)
{
	if (session_relax_active(ctx->session))
		return cmd_relax_phases(ctx, argc, argv);
	const Session *s = ctx->session;
	bool loaded = session_has_module(s);
	bool colored = cmd_color(ctx, ctx->out);
	size_t applied = 0, total = 0;
	bool in_progress = loaded && stepper_in_progress(s, &applied, &total);
	char current[64];
	size_t width = 0, state_width = strlen("pending");
	if (in_progress)
		snprintf(current, sizeof current, "current (event %zu of %zu)", applied, total);
	else
		snprintf(current, sizeof current, "current");
	if (strlen(current) > state_width)
		state_width = strlen(current);
	for (size_t i = 0; i < pipeline_count; i++)
		if (strlen(pipeline_phases[i].name) > width)
			width = strlen(pipeline_phases[i].name);
	for (size_t i = 0; i < pipeline_count; i++) {
		const char *state = "pending";
		const char *color = "";
		if (loaded && i < s->phases_done) {
			state = "done";
			color = "32";
		} else if (loaded && i == s->phases_done && !in_progress &&
			   session_failed_phase(s, NULL) == (int)i) {
			state = "failed"; /* `step` runs it again */
			color = "1;31";
		} else if (loaded && i == s->phases_done) {
			state = current;
			color = "1;33";
		}
		if (colored && *color)
			fprintf(ctx->out, "  %-*s  \033[%sm%-*s\033[0m  %s\n", (int)width,
				pipeline_phases[i].name, color, (int)state_width, state,
				pipeline_phases[i].summary);
		else
			fprintf(ctx->out, "  %-*s  %-*s  %s\n", (int)width, pipeline_phases[i].name,
				(int)state_width, state, pipeline_phases[i].summary);
	}
	return 0;
}
