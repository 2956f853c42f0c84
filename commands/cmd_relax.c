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

/* `plan` (argv[0] "plan": every phase) and `step [N]`. */
int cmd_relax_step(CmdContext *ctx, int argc, char **argv)
{
	Session *s = ctx->session;
	size_t n = SIZE_MAX, before = session_relax_phases_done(s);
	bool ok;
	if (s->settings.policy == POLICY_REPLICATE)
		return cmd_error(
			ctx,
			"policy replicate does not apply to Relax modules: a vdevice is part of a "
			"tensor's type, so a value has one; 'set policy copy' copies it with "
			"R.to_vdevice instead, 'tvm' runs TVM's RealizeVDevice, 'error' stops on a "
			"conflict");
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

static const char *seed_kind(const RxSeed *seed, const RxRealize *r)
{
	if (seed->round == 2)
		return "hint input";
	if (seed->round == 3)
		return "fallback: nothing reaches it";
	switch (r->explicit_kind[seed->var]) {
	case RX_SEED_ANNOTATION:
		return "vdevice annotation";
	case RX_SEED_HINT_OUTPUT:
		return "hint output";
	case RX_SEED_RETURN:
		return "declared return type";
	default:
		return "seed";
	}
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
	size_t n;
	/* the classes and seeds are known once colocate has run (policy error
	 * stops there); who wins needs the propagation */
	if (r->done <= RX_PHASE_COLOCATE)
		return cmd_error(ctx, "the colocate phase has not run; use 'plan' (or 'step %d')",
				 RX_PHASE_COLOCATE + 1 - (int)r->done);
	n = relax_conflicts(r, &c);
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
	size_t n;
	int v;
	RxSeed seed;
	if (!r)
		return 1;
	if (argc != 2)
		return cmd_error(ctx, "'why' on a Relax module takes one variable name");
	if ((v = find_var(r->in, argv[1])) < 0)
		return cmd_error(ctx, "no variable '%s' in the module", argv[1]);
	n = relax_why(r, (uint32_t)v, &chain);
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

/* Bytes of a tensor type with a static shape and a known dtype, or -1. */
static long long tensor_bytes(const RxType *t)
{
	static const struct {
		const char *dtype;
		int bytes;
	} sizes[] = {
		{"float32", 4}, {"float16", 2}, {"bfloat16", 2}, {"float64", 8}, {"int64", 8},
		{"int32", 4},   {"int16", 2},   {"int8", 1},     {"uint8", 1},   {"bool", 1},
	};
	long long n = 1;
	int bytes = 0;
	if (!t || t->kind != RX_TYPE_TENSOR || !t->shape || !t->dtype || t->shape->kind != PY_TUPLE)
		return -1;
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		if (strcmp(sizes[i].dtype, t->dtype) == 0)
			bytes = sizes[i].bytes;
	for (uint32_t i = 0; i < t->shape->nitems; i++) {
		const PyExpr *d = t->shape->items[i];
		if (d->kind != PY_INT)
			return -1;
		n *= atoll(d->text);
	}
	return bytes ? n * bytes : -1;
}

static void placement_line(CmdContext *ctx, const RxModule *m, const char *func, const char *kind,
			   const RxVar *v, const RxType *declared)
{
	int dev = relax_type_vdevice(v ? v->type : NULL);
	fprintf(ctx->out, "@%s %s", func, kind);
	if (v)
		fprintf(ctx->out, " %%%s", v->name);
	fputc(' ', ctx->out);
	print_vdevice(ctx, m, dev);
	if (dev >= 0 && relax_type_vdevice(declared) != dev)
		fputs(relax_type_vdevice(declared) < 0 ? " (inferred)" : " (declared elsewhere)",
		      ctx->out);
	fputc('\n', ctx->out);
}

static void placement_block(CmdContext *ctx, const RxModule *m, const RxModule *in,
			    const char *func, const RxBlock *b)
{
	for (uint32_t i = 0; i < b->nstmts; i++) {
		const RxStmt *s = b->stmts[i];
		if (s->kind == RX_STMT_DATAFLOW) {
			placement_block(ctx, m, in, func, s->then_block);
			continue;
		}
		if (s->kind == RX_STMT_IF) {
			placement_block(ctx, m, in, func, s->then_block);
			placement_block(ctx, m, in, func, s->else_block);
		}
		if (!s->var || !s->var->type || s->var->type->kind != RX_TYPE_TENSOR)
			continue;
		placement_line(ctx, m, func, "bind", s->var, s->var->type);
		if (s->kind == RX_STMT_BIND && s->value->kind == RX_EXPR_CALL &&
		    s->value->callee == RX_CALL_OP && strcmp(s->value->name, "R.to_vdevice") == 0 &&
		    s->value->nitems && s->value->items[0]->kind == RX_EXPR_VAR) {
			const RxVar *src = s->value->items[0]->var;
			fprintf(ctx->out, "@%s copy %%%s ", func, src->name);
			print_vdevice(ctx, m, relax_type_vdevice(src->type));
			fputs(" -> ", ctx->out);
			print_vdevice(ctx, m, s->value->vdevice);
			fprintf(ctx->out, " %lld\n", tensor_bytes(s->var->type));
		}
	}
}

/* `placement`: where each parameter, binding and result lives after
 * RealizeVDevice, a parameter's vdevice marked (inferred) when the module
 * as loaded did not declare it (the device contract callers must meet). */
int cmd_relax_placement(CmdContext *ctx, int argc, char **argv)
{
	const Session *s = ctx->session;
	const RxModule *m, *in = session_relax_module(s, RX_PHASE_COLLECT);
	if (!session_relax_planned(s))
		return cmd_error(ctx, "the module is not planned yet; use 'plan'");
	if (argc > 1)
		return cmd_error(ctx, "'placement' on a Relax module takes no arguments yet");
	m = session_relax_module(s, -1);
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		const RxFunc *f = m->funcs[i];
		if (f->kind != RX_FUNC_RELAX)
			continue;
		for (uint32_t k = 0; k < f->nparams; k++)
			placement_line(ctx, m, f->name, "param", f->params[k],
				       in->vars[f->params[k]->id]->type);
		placement_block(ctx, m, in, f->name, f->body);
		if (f->ret && f->ret->kind == RX_TYPE_TENSOR) {
			int dev = f->ret->vdevice;
			fprintf(ctx->out, "@%s result ", f->name);
			print_vdevice(ctx, m, dev);
			if (dev != relax_type_vdevice(in->funcs[i]->ret))
				fputs(relax_type_vdevice(in->funcs[i]->ret) < 0
					      ? " (inferred)"
					      : " (declared otherwise)",
				      ctx->out);
			fputc('\n', ctx->out);
		}
	}
	return 0;
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
