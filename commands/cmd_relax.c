/*
 * cmd_relax.c - `ir` (`--devices` too), `plan`, `step`, `phases`,
 * `conflicts`, `constraints`, `why`, `placement`, `diff` and `save` for a
 * Relax module: the Relax pipeline is core/relax/relax_realize.h's five
 * phases (TVM's RealizeVDevice under `set policy tvm`, devplan's rule
 * under `copy` and `error`, which stops at the first conflict).
 *
 * The Relay handlers call these when a Relax module is loaded, so the
 * command table keeps one entry per command (flag CMD_RELAX).
 */
#include "commands.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "file_write.h"
#include "linediff.h"
#include "relax_explain.h"
#include "relax_facts.h"
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
	const RxRealize *r = &s->relax->realize;
	bool devices = false, phase_given = false;
	size_t applied, total;
	StrBuf sb;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--devices") == 0) {
			devices = true;
		} else if (strcmp(argv[i], "--phase") == 0 && i + 1 < argc) {
			phase_given = true;
			int phase = phase_by_name(argv[++i]);
			if (phase == -3)
				return cmd_error(ctx, "unknown phase '%s'; see 'phases'", argv[i]);
			if (phase >= 0 && (size_t)phase >= session_relax_phases_done(s))
				return cmd_error(ctx, "phase '%s' has not run yet", argv[i]);
			m = phase == -2 ? session_relax_module(s, RX_PHASE_COLLECT)
					: session_relax_module(s, phase);
		} else {
			return cmd_error(
				ctx, "'%s': a Relax module's ir takes only --phase P and --devices",
				argv[i]);
		}
	}
	strbuf_init(&sb);
	if (devices && !phase_given && session_relax_in_progress(s, &applied, &total))
		strbuf_printf(&sb,
			      "# propagate is at event %zu of %zu: a variable no event has placed "
			      "yet shows its annotation's vdevice, or none\n",
			      applied, total);
	if (!devices)
		relax_print_module(&sb, m);
	else if (m == r->in && !phase_given && r->done > RX_PHASE_PROPAGATE)
		relax_print_module_devices(&sb, m, r->known, r->in->nvars);
	else
		relax_print_module_devices(&sb, m, NULL, 0);
	fputs(sb.data ? sb.data : "", ctx->out);
	strbuf_free(&sb);
	return 0;
}

int cmd_relax_check_policy(CmdContext *ctx)
{
	if (ctx->session->settings.policy != POLICY_REPLICATE)
		return 0;
	return cmd_error(
		ctx, "policy replicate does not apply to Relax modules: a vdevice is part of a "
		     "tensor's type, so a value has one; 'set policy copy' copies it with "
		     "R.to_vdevice instead, 'tvm' runs TVM's RealizeVDevice, 'error' stops on a "
		     "conflict");
}

/* `plan`: every phase, breakpoints ignored (the rest of a propagate in
 * progress too); `step`, `stepi` and `continue` go through the Relax
 * stepper (cmd_step.c). */
int cmd_relax_step(CmdContext *ctx, int argc, char **argv)
{
	Session *s = ctx->session;
	bool ok;
	if (cmd_relax_check_policy(ctx))
		return 1;
	ok = session_relax_step(s, SIZE_MAX);
	cmd_print_diags(ctx, &s->diags);
	return ok ? 0 : 1;
}

int cmd_relax_phases(CmdContext *ctx, int argc, char **argv)
{
	const Session *s = ctx->session;
	size_t done = session_relax_phases_done(s), applied, total;
	int failed = s->relax->failed_phase;
	char current[64];
	int width = 7;
	if (session_relax_in_progress(s, &applied, &total))
		snprintf(current, sizeof current, "current (event %zu of %zu)", applied, total);
	else
		snprintf(current, sizeof current, "current");
	if ((int)strlen(current) > width)
		width = (int)strlen(current);
	for (size_t i = 0; i < RX_PHASE_COUNT; i++) {
		const char *state = i < done           ? "done"
				    : (int)i == failed ? "failed"
				    : i == done        ? current
						       : "pending";
		fprintf(ctx->out, "  %-9s  %-*s  %s\n", relax_phase_names[i], width, state,
			relax_phase_summaries[i]);
	}
	return 0;
}

static const char *seed_kind(const RxSeed *seed, const RxRealize *r)
{
	return relax_seed_kind(r, seed);
}

static void print_vdevice(CmdContext *ctx, const RxModule *m, int vdevice)
{
	StrBuf sb;
	strbuf_init(&sb);
	if (vdevice < 0)
		strbuf_puts(&sb, "no vdevice");
	else
		relax_vdevice_name(m, vdevice, &sb);
	fputs(sb.data, ctx->out);
	strbuf_free(&sb);
}

/* Needs the seeds, the graph and the propagation. */
static const RxRealize *propagated(CmdContext *ctx)
{
	const RxRealize *r = &ctx->session->relax->realize;
	if (r->done <= RX_PHASE_PROPAGATE) {
		cmd_error(ctx, "the propagate phase has not run; use 'plan' (or 'step %d')",
			  RX_PHASE_PROPAGATE + 1 - (int)r->done);
		return NULL;
	}
	return r;
}

static void print_winners(CmdContext *ctx, const RxRealize *r, const RxConflict *c)
{
	const RxModule *m = r->in;
	for (size_t k = 0; k < c->nseeds; k++) {
		bool any = false;
		for (size_t i = 0; i < c->nvars; i++) {
			uint32_t *chain;
			size_t n = relax_why(r, c->vars[i], &chain);
			if (n && chain[0] == c->seeds[k].var) {
				fprintf(ctx->out, "%s%s", any ? ", " : "    wins ",
					m->vars[c->vars[i]]->name);
				any = true;
			}
			free(chain);
		}
		if (any)
			fprintf(ctx->out, " (seed %s)\n", m->vars[c->seeds[k].var]->name);
	}
}

int cmd_relax_conflicts(CmdContext *ctx, int argc, char **argv)
{
	const RxRealize *r = &ctx->session->relax->realize;
	RxConflict *c;
	size_t n, applied, total;
	/* the classes and seeds are known once colocate has run (policy error
	 * stops there); who wins needs the propagation */
	if (r->done <= RX_PHASE_COLOCATE)
		return cmd_error(ctx, "the colocate phase has not run; use 'plan' (or 'step %d')",
				 RX_PHASE_COLOCATE + 1 - (int)r->done);
	n = relax_conflicts(r, &c);
	if (n && session_relax_in_progress(ctx->session, &applied, &total))
		fprintf(ctx->out,
			"note: propagate is at event %zu of %zu: the values each seed wins are "
			"those placed so far\n",
			applied, total);
	if (n == 0)
		fputs("no conflicts: no co-location class is reached by seeds on two vdevices\n",
		      ctx->out);
	for (size_t i = 0; i < n; i++) {
		fprintf(ctx->out, "conflict %zu: %zu values co-located, seeded on", i + 1,
			c[i].nvars);
		for (size_t k = 0; k < c[i].nseeds; k++) {
			fputs(k ? ", " : " ", ctx->out);
			print_vdevice(ctx, r->in, c[i].seeds[k].vdevice);
		}
		fputs("; TVM checks nothing, the first writer wins\n", ctx->out);
		for (size_t k = 0; k < c[i].nseeds; k++) {
			const RxSeed *sd = &c[i].seeds[k];
			fprintf(ctx->out, "  seed %s (%s, round %d): ", r->in->vars[sd->var]->name,
				seed_kind(sd, r), sd->round);
			print_vdevice(ctx, r->in, sd->vdevice);
			fprintf(ctx->out, " at %s:%u:%u\n", session_module_name(ctx->session),
				sd->pos.line, sd->pos.col);
		}
		if (r->done > RX_PHASE_PROPAGATE)
			print_winners(ctx, r, &c[i]);
	}
	relax_conflicts_free(c, n);
	return 0;
}

static int find_var(const RxModule *m, const char *name)
{
	if (name[0] == '%')
		name++;
	for (uint32_t v = 0; v < m->nvars; v++)
		if (strcmp(m->vars[v]->name, name) == 0)
			return (int)v;
	return -1;
}

int cmd_relax_why(CmdContext *ctx, int argc, char **argv)
{
	const RxRealize *r = propagated(ctx);
	uint32_t *chain;
	size_t n, applied, total;
	int v;
	RxSeed seed;
	if (!r)
		return 1;
	if (argc != 2)
		return cmd_error(ctx, "'why' on a Relax module takes one variable name");
	if ((v = find_var(r->in, argv[1])) < 0)
		return cmd_error(ctx, "no variable '%s' in the module", argv[1]);
	n = relax_why(r, (uint32_t)v, &chain);
	if (n == 0 && session_relax_in_progress(ctx->session, &applied, &total)) {
		fprintf(ctx->out,
			"%s: not placed yet (propagate is at event %zu of %zu; 'stepi' or 'step' "
			"goes on)\n",
			r->in->vars[v]->name, applied, total);
		return 0;
	}
	if (n == 0) {
		fprintf(ctx->out,
			"%s: no seed reaches it, so it keeps no vdevice (RealizeVDevice has no "
			"default)\n",
			r->in->vars[v]->name);
		return 0;
	}
	relax_seed_of(r, chain[0], &seed);
	fprintf(ctx->out, "%s: ", r->in->vars[v]->name);
	print_vdevice(ctx, r->in, r->known[v]);
	fprintf(ctx->out, ", from the seed %s (%s, round %d) at %s:%u:%u\n",
		r->in->vars[chain[0]]->name, seed_kind(&seed, r), seed.round,
		session_module_name(ctx->session), seed.pos.line, seed.pos.col);
	for (size_t i = 1; i < n; i++)
		fprintf(ctx->out,
			"  %s -> %s (co-located: one is used in the other's binding, line %u)\n",
			r->in->vars[chain[i - 1]]->name, r->in->vars[chain[i]]->name,
			r->in->vars[chain[i - 1]]->pos.line > r->in->vars[chain[i]]->pos.line
				? r->in->vars[chain[i - 1]]->pos.line
				: r->in->vars[chain[i]]->pos.line);
	free(chain);
	return 0;
}

/* One class of `constraints`: its vdevice (or the seeds' several), the
 * seeds that reach it, and its members. */
static void print_class(CmdContext *ctx, const RxRealize *r, const RxConflict *c, size_t k,
			bool all)
{
	const RxModule *m = r->in;
	StrBuf members;
	CmdList list;
	fprintf(ctx->out, "class %zu: ", k);
	if (c->nseeds == 0)
		fputs("free (no seed reaches it)", ctx->out);
	for (size_t i = 0; i < c->nseeds; i++) {
		bool shown = false;
		for (size_t j = 0; j < i; j++)
			shown |= c->seeds[j].vdevice == c->seeds[i].vdevice;
		if (shown)
			continue;
		fputs(i ? " and " : "", ctx->out);
		print_vdevice(ctx, m, c->seeds[i].vdevice);
	}
	if (relax_class_conflicts(c))
		fputs(" (a conflict; see 'conflicts')", ctx->out);
	fputc('\n', ctx->out);
	for (size_t i = 0; i < c->nseeds; i++) {
		const RxSeed *sd = &c->seeds[i];
		fprintf(ctx->out, "  seeded by %s (%s, round %d): ", m->vars[sd->var]->name,
			seed_kind(sd, r), sd->round);
		print_vdevice(ctx, m, sd->vdevice);
		fprintf(ctx->out, " at %s:%u:%u\n", session_module_name(ctx->session), sd->pos.line,
			sd->pos.col);
	}
	strbuf_init(&members);
	strbuf_puts(&members, "  members: ");
	cmd_list_init(&list, &members, members.len, " ", "    ", all);
	for (size_t i = 0; i < c->nvars; i++)
		cmd_list_add(&list, m->vars[c->vars[i]]->name);
	cmd_list_finish(&list);
	fprintf(ctx->out, "%s\n", members.data);
	strbuf_free(&members);
}

/* `constraints [NAME] [--all]`: the co-location classes once colocate has
 * run, each with the seeds that reach it. */
int cmd_relax_constraints(CmdContext *ctx, int argc, char **argv)
{
	const RxRealize *r = &ctx->session->relax->realize;
	bool all = cmd_take_all_flag(&argc, argv);
	RxConflict *c;
	size_t n;
	int only = -1;
	if (r->done <= RX_PHASE_COLOCATE)
		return cmd_error(ctx, "the colocate phase has not run; use 'plan' (or 'step %d')",
				 RX_PHASE_COLOCATE + 1 - (int)r->done);
	if (argc > 2)
		return cmd_error(ctx, "'constraints' on a Relax module takes one variable name");
	if (argc == 2 && (only = find_var(r->in, argv[1])) < 0)
		return cmd_error(ctx, "no variable '%s' in the module", argv[1]);
	n = relax_classes(r, &c);
	for (size_t i = 0; i < n; i++) {
		bool holds = only < 0;
		for (size_t j = 0; j < c[i].nvars && !holds; j++)
			holds = c[i].vars[j] == (uint32_t)only;
		if (holds)
			print_class(ctx, r, &c[i], i + 1, all);
	}
	relax_conflicts_free(c, n);
	return 0;
}

/* `placement [--json] [--contract] [@fn]` (options read by cmd_plan.c's
 * cmd_placement): where each parameter, binding and result lives after
 * RealizeVDevice and each R.to_vdevice, a parameter's or result's vdevice
 * marked (inferred) when the module as loaded did not declare it;
 * contract keeps the parameters and results (the device contract callers
 * must meet), fn one function. */
int cmd_relax_placement_facts(CmdContext *ctx, bool json, bool contract, const char *fn)
{
	const Session *s = ctx->session;
	const RxModule *m, *in = session_relax_module(s, RX_PHASE_COLLECT);
	RxPlacement p;
	StrBuf sb;
	size_t shown = 0;
	int status;
	if (!session_relax_planned(s))
		return cmd_error(ctx, "the module is not planned yet; use 'plan'");
	m = session_relax_module(s, -1);
	relax_placement(m, in, &p);
	strbuf_init(&sb);
	if (json) {
		relax_placement_json(&sb, &p);
		shown = 1;
	}
	for (size_t i = 0; i < p.count && !json; i++) {
		const RxFact *f = &p.facts[i];
		if (contract && f->kind != RX_FACT_PARAM && f->kind != RX_FACT_RESULT)
			continue;
		if (fn && strcmp(fn + 1, f->func->name) != 0)
			continue;
		relax_fact_format(&sb, m, f);
		strbuf_putc(&sb, '\n');
		shown++;
	}
	relax_placement_free(&p);
	if (fn && shown == 0) {
		strbuf_free(&sb);
		return cmd_error(ctx, "no Relax function '%s' in the module", fn);
	}
	status = cmd_write(ctx, &sb);
	strbuf_free(&sb);
	return status;
}

static char *module_text(const RxModule *m)
{
	StrBuf sb;
	strbuf_init(&sb);
	relax_print_module(&sb, m);
	return strbuf_detach(&sb);
}

/* Prints the unified diff of two module texts, or that they are equal. */
static void print_text_diff(CmdContext *ctx, const char *a, const char *b, const char *la,
			    const char *lb)
{
	StrBuf sb;
	strbuf_init(&sb);
	if (linediff_unified(&sb, a, strlen(a), b, strlen(b), la, lb, 3) == 0)
		fprintf(ctx->out, "%s and %s print the same module\n", la, lb);
	else
		fputs(sb.data, ctx->out);
	strbuf_free(&sb);
}

/* The module one policy makes of the module as loaded, printed, or its
 * first error; the diagnostics go to diags. */
static char *plan_with(const RxModule *in, bool copy, bool *ok, DiagList *diags)
{
	RxRealize r;
	char *text;
	relax_realize_init(&r, in);
	r.copy_policy = copy;
	*ok = true;
	while (r.done < RX_PHASE_COUNT && *ok)
		*ok = relax_realize_step(&r, diags);
	text = *ok ? module_text(relax_realize_current(&r)) : xstrdup("");
	relax_realize_free(&r);
	return text;
}

/* `diff --plan policy=A policy=B` with A and B tvm or copy. */
static int diff_policies(CmdContext *ctx, int argc, char **argv)
{
	const RxModule *in = session_relax_module(ctx->session, RX_PHASE_COLLECT);
	char *text[2];
	bool ok[2], copy[2];
	DiagList diags;
	if (argc != 4)
		return cmd_error(ctx, "'diff --plan' on a Relax module compares two policies: "
				      "diff --plan policy=tvm policy=copy");
	for (int i = 0; i < 2; i++) {
		const char *a = argv[2 + i];
		if (strcmp(a, "policy=tvm") != 0 && strcmp(a, "policy=copy") != 0)
			return cmd_error(
				ctx,
				"'%s': a Relax module's plans differ by policy=tvm or policy=copy",
				a);
		copy[i] = strcmp(a, "policy=copy") == 0;
	}
	diag_init(&diags);
	for (int i = 0; i < 2; i++) {
		text[i] = plan_with(in, copy[i], &ok[i], &diags);
		if (!ok[i]) {
			fprintf(ctx->out, "%s fails:\n", argv[2 + i]);
			cmd_print_diags(ctx, &diags);
		}
		diag_clear(&diags);
	}
	if (ok[0] && ok[1])
		print_text_diff(ctx, text[0], text[1], argv[2], argv[3]);
	free(text[0]);
	free(text[1]);
	diag_free(&diags);
	return 0;
}

/* `diff [PHASE]`: what the last phase run (or PHASE) changed in the text;
 * `diff --plan policy=A policy=B`: two policies' plans. */
int cmd_relax_diff(CmdContext *ctx, int argc, char **argv)
{
	const Session *s = ctx->session;
	size_t done = session_relax_phases_done(s);
	int phase = (int)done - 1;
	char *before, *after, *label;
	if (argc > 1 && strcmp(argv[1], "--plan") == 0)
		return diff_policies(ctx, argc, argv);
	if (argc > 2)
		return cmd_error(
			ctx, "'diff' on a Relax module takes a phase, or --plan policy=A policy=B");
	if (argc == 2 && (phase = phase_by_name(argv[1])) < 0)
		return cmd_error(ctx, "unknown phase '%s'; see 'phases'", argv[1]);
	if (phase < 0 || (size_t)phase >= done)
		return cmd_error(ctx,
				 phase < 0 ? "no phase has run yet; use 'step'"
					   : "phase '%s' has not run yet",
				 argc == 2 ? argv[1] : "");
	before = module_text(session_relax_module(s, phase - 1 < 0 ? RX_PHASE_COLLECT : phase - 1));
	after = module_text(session_relax_module(s, phase));
	label = xasprintf("after %s", relax_phase_names[phase]);
	if (strcmp(before, after) == 0)
		fprintf(ctx->out, "%s changed nothing in the module's text (%s)\n",
			relax_phase_names[phase], relax_phase_summaries[phase]);
	else
		print_text_diff(ctx, before, after, "before", label);
	free(before);
	free(after);
	free(label);
	return 0;
}

/* `save FILE`: the module as of the phases run, as TVM prints it. */
int cmd_relax_save(CmdContext *ctx, int argc, char **argv)
{
	char *text, *err = NULL;
	bool ok;
	if (argc != 2 || argv[1][0] == '-')
		return cmd_error(ctx, "'save' on a Relax module takes one file name");
	text = module_text(session_relax_module(ctx->session, -1));
	ok = file_write_all(argv[1], text, strlen(text), &err);
	free(text);
	if (!ok) {
		cmd_error(ctx, "%s", err);
		free(err);
		return 1;
	}
	fprintf(ctx->out, "saved the module after %zu of %d phases to '%s'\n",
		session_relax_phases_done(ctx->session), RX_PHASE_COUNT, argv[1]);
	return 0;
}
