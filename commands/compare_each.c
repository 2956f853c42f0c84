/*
 * compare_each.c - the report of `compare --each`: the records of
 * core/session/run_each.c as lines and tables.
 *
 * First a count of the values compared and of those past tolerance; then
 * the first value past its tolerance with its operands as the planned run
 * had them and why the planner put it on its device (the first lines of
 * core's explanation and the last, where the device was decided); then the
 * first value whose reference is not finite, with its operands as the
 * reference run had them, which names the op that made a NaN; then a
 * table, of every value (--all) or of the worst by relative error.
 */
#include "compare_each.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *device_text(const CmdContext *ctx, int32_t device)
{
	return device >= 0 ? devices_name(&ctx->session->devices, device) : "cpu";
}

static void print_row(CmdContext *ctx, const RunEach *x, const RunEachRecord *r)
{
	StrBuf name;
	char bad[96];
	strbuf_init(&name);
	run_each_name(x, r, &name);
	if (r->layout_differs)
		snprintf(bad, sizeof bad, "shape/dtype");
	else if (r->ref_nans && r->ref_infs)
		snprintf(bad, sizeof bad, "%lld/%lld (%lld NaN, %lld inf)", (long long)r->bad,
			 (long long)r->count, (long long)r->ref_nans, (long long)r->ref_infs);
	else if (run_each_nonfinite(r))
		snprintf(bad, sizeof bad, "%lld/%lld (%lld %s)", (long long)r->bad,
			 (long long)r->count, (long long)(r->ref_nans + r->ref_infs),
			 r->ref_nans ? "NaN" : "inf");
	else
		snprintf(bad, sizeof bad, "%lld/%lld", (long long)r->bad, (long long)r->count);
	fprintf(ctx->out, "  %-24s %-20s %-8s %-10.3g %-10.3g %-9.2g %s\n", name.data,
		ir_call_op_name(r->e), device_text(ctx, r->device), r->max_abs, r->max_rel, r->tol,
		bad);
	strbuf_free(&name);
}

static void print_header(CmdContext *ctx)
{
	fprintf(ctx->out, "  %-24s %-20s %-8s %-10s %-10s %-9s %s\n", "value", "op", "device",
		"max abs", "max rel", "tolerance", "past");
}

/* ", 3 NaN, 1 inf" when there are any. */
static void print_counts(CmdContext *ctx, int64_t nans, int64_t infs)
{
	if (nans)
		fprintf(ctx->out, ", %lld NaN", (long long)nans);
	if (infs)
		fprintf(ctx->out, ", %lld inf", (long long)infs);
}

/* The operands of r's value: each one's type, device and range in the
 * planned run; in_reference: each one's type and range (with its NaN and
 * infinities) in the reference run, which ran on the cpu alone. */
static void print_operands(CmdContext *ctx, const RunEach *x, const RunEachRecord *r,
			   bool in_reference)
{
	for (uint32_t a = 0; a < r->e->u.call.nargs; a++) {
		RunEachOperand o;
		StrBuf name, type;
		const Expr *v;
		strbuf_init(&name);
		strbuf_init(&type);
		run_each_operand(x, r, a, in_reference, &o, &name);
		v = o.value;
		if (v->type)
			type_print(&type, v->type);
		fprintf(ctx->out, "    operand %u: %s: %s", a, name.data, type.data);
		if (v->device >= 0 && !in_reference)
			fprintf(ctx->out, " on %s", device_text(ctx, v->device));
		if (o.copied_to >= 0 && !in_reference)
			fprintf(ctx->out, ", copied to %s", device_text(ctx, o.copied_to));
		if (o.known && o.min <= o.max)
			fprintf(ctx->out, ", range [%.4g, %.4g]", o.min, o.max);
		else if (o.known)
			fputs(", no finite element", ctx->out);
		else if (v->kind == EXPR_CONSTANT)
			fputs(", a constant", ctx->out);
		if (o.known)
			print_counts(ctx, o.nans, o.infs);
		fputc('\n', ctx->out);
		strbuf_free(&name);
		strbuf_free(&type);
	}
}

/* Why the value is on its device: core's explanation, indented, its
 * first steps and the last (where the device was decided) when long. */
static void print_why(CmdContext *ctx, const RunEachRecord *r)
{
	enum { HEAD = 4, TAIL = 2 };
	const Session *s = ctx->session;
	const PlanTrace *t = s->trace;
	PlanAnalysis *an = t ? t->core : NULL;
	StrBuf sb;
	size_t nlines = 0, line = 0;
	if (!an || r->e->id >= an->nexprs || !an->by_id[r->e->id])
		return;
	strbuf_init(&sb);
	plan_explain(&sb, an, an->by_id[r->e->id], &s->devices, s->trace);
	for (size_t i = 0; i < sb.len; i++)
		nlines += sb.data[i] == '\n' || i + 1 == sb.len;
	for (const char *p = sb.data; *p; line++) {
		const char *end = strchr(p, '\n');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		/* the first line says where it is; then steps */
		if (line <= HEAD || line + TAIL >= nlines)
			fprintf(ctx->out, "    %s%.*s\n", line == 0 ? "why: " : "", (int)n, p);
		else if (line == HEAD + 1)
			fprintf(ctx->out, "      ... %zu more steps ...\n",
				nlines - HEAD - TAIL - 1);
		p += n + (end ? 1 : 0);
	}
	strbuf_free(&sb);
}

/* The heading of a value named in the report: "%x = OP[ on DEVICE] (FILE:L:C)". */
static void print_heading(CmdContext *ctx, const RunEach *x, const char *what,
			  const RunEachRecord *r, bool device)
{
	StrBuf name;
	strbuf_init(&name);
	run_each_name(x, r, &name);
	fprintf(ctx->out, "%s: %s = %s", what, name.data, ir_call_op_name(r->e));
	if (device)
		fprintf(ctx->out, " on %s", device_text(ctx, r->device));
	if (r->e->pos.line)
		fprintf(ctx->out, " (%s:%u:%u)", session_module_name(ctx->session), r->e->pos.line,
			r->e->pos.col);
	strbuf_free(&name);
}

/* The first value past tolerance, its operands and why it is where it is. */
static void print_first(CmdContext *ctx, const RunEach *x, const RunEachRecord *first)
{
	print_heading(ctx, x, "first past tolerance", first, true);
	if (first->layout_differs)
		fputs(": its shape or dtype differs from the reference\n", ctx->out);
	else
		fprintf(ctx->out,
			": %lld of %lld element%s past tolerance %.2g (%u op%s deep), max "
			"abs "
			"error %.3g, max rel error %.3g\n",
			(long long)first->bad, (long long)first->count,
			first->count == 1 ? "" : "s", first->tol, first->depth,
			first->depth == 1 ? "" : "s", first->max_abs, first->max_rel);
	print_operands(ctx, x, first, false);
	print_why(ctx, first);
}

/* The first value whose reference is not finite: the values before it were
 * finite, so this op made the NaN or infinity out of finite operands,
 * unless an input held one. */
static void print_first_nonfinite(CmdContext *ctx, const RunEach *x, const RunEachRecord *r)
{
	print_heading(ctx, x, "first NaN or infinity in the reference", r, false);
	fputs(": ", ctx->out);
	if (r->ref_nans)
		fprintf(ctx->out, "%lld NaN%s", (long long)r->ref_nans, r->ref_infs ? ", " : "");
	if (r->ref_infs)
		fprintf(ctx->out, "%lld inf", (long long)r->ref_infs);
	fprintf(ctx->out, " of %lld element%s\n", (long long)r->count, r->count == 1 ? "" : "s");
	print_operands(ctx, x, r, true);
}

/* Every value (all) or the top worst that differ from their reference. */
static void print_table(CmdContext *ctx, const RunEach *x, const RunEachSummary *sum, bool all,
			size_t top)
{
	size_t nrecords, n;
	const RunEachRecord *records = run_each_records(x, &nrecords);
	const RunEachRecord **worst;
	if (all) {
		fputs("every value, in execution order:\n", ctx->out);
		print_header(ctx);
		for (size_t i = 0; i < nrecords; i++)
			print_row(ctx, x, &records[i]);
		return;
	}
	if (!nrecords || !top)
		return;
	worst = run_each_worst(x, top, &n);
	if (n == 0) {
		fprintf(ctx->out, "nothing past tolerance: every value equals the "
				  "reference's\n");
	} else {
		fprintf(ctx->out, "worst %zu by relative error%s:\n", n,
			sum->counts.differ || sum->counts.nonfinite ? ""
								    : " (none past tolerance)");
		print_header(ctx);
		for (size_t i = 0; i < n; i++)
			print_row(ctx, x, worst[i]);
	}
	free(worst);
}

RunEachCounts cmd_compare_each_report(CmdContext *ctx, const RunEach *x, bool all, size_t top)
{
	RunEachSummary sum;
	run_each_summarise(x, &sum);
	fprintf(ctx->out, "each: %zu value%s compared in execution order, %zu past tolerance",
		sum.compared, sum.compared == 1 ? "" : "s", sum.counts.differ);
	if (sum.with_nonfinite)
		fprintf(ctx->out, ", %zu with NaN or infinity in the reference%s",
			sum.with_nonfinite, sum.allow_nonfinite ? " (allowed)" : "");
	fputc('\n', ctx->out);
	if (sum.unmatched)
		cmd_note(ctx, "%zu value%s of the planned run had no reference to compare with",
			 sum.unmatched, sum.unmatched == 1 ? "" : "s");
	if (sum.first)
		print_first(ctx, x, sum.first);
	if (sum.first_nonfinite)
		print_first_nonfinite(ctx, x, sum.first_nonfinite);
	print_table(ctx, x, &sum, all, top);
	return sum.counts;
}
