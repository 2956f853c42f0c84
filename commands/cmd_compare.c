/*
 * cmd_compare.c - `compare`: the planned run's results against a
 * reference, the same program run with every op on the cpu or the
 * results given as .npy files (--expect), and with --each every value in
 * between.
 *
 * The inputs are built as for `run` (run_args.c); the comparison and its
 * rules are the session's (core/session/run_compare.h, run_each.h):
 * |planned - reference| <= tolerance * max(1, |reference|), a NaN or an
 * infinity of the reference passing only where the planned run has the
 * same and --allow-nan allows it. This handler parses the options, runs
 * the two sides, and prints a line per result, a warning when the
 * reference is saturated (a match then proves little), compare_each.c's
 * report with --each, and the verdict: PASS, or FAIL with what failed
 * first (the results, a reference that is not finite, the values between).
 *
 * The output is deterministic (no timings), so that transcripts can hold
 * it.
 */
#include "commands.h"

#include <stdlib.h>
#include <string.h>

#include "compare_each.h"
#include "pipeline.h"
#include "run_args.h"
#include "run_compare.h"
#include "run_each.h"

enum { COMPARE_MAX_EXPECT = 64 };

/* " (3 NaN, 2 inf in the cpu result)": the non-finite elements of a
 * reference, or nothing. */
static void print_nonfinite(CmdContext *ctx, int64_t nans, int64_t infs, const char *where)
{
	if (!nans && !infs)
		return;
	fputs(" (", ctx->out);
	if (nans)
		fprintf(ctx->out, "%lld NaN", (long long)nans);
	if (infs)
		fprintf(ctx->out, "%s%lld inf", nans ? ", " : "", (long long)infs);
	fprintf(ctx->out, " in the %s)", where);
}

/* compare's options: --each, --all (with --each), --top N, --expect
 * FILE (repeated: one a result, in order) and --allow-nan. */
typedef struct CompareArgs {
	bool each, all;
	bool allow_nan; /* a NaN or infinity in the reference passes where the
			   planned run has the same */
	size_t top;
	const char *expect[COMPARE_MAX_EXPECT]; /* --expect FILE.npy, result by result */
	size_t nexpect;
} CompareArgs;

static bool parse_compare_options(CmdContext *ctx, int argc, char **argv, CompareArgs *args)
{
	memset(args, 0, sizeof *args);
	args->top = 5;
	for (int i = 1; i < argc; i++) {
		char *end;
		long v;
		if (strncmp(argv[i], "--", 2) != 0)
			continue;
		if (strcmp(argv[i], "--each") == 0) {
			args->each = true;
		} else if (strcmp(argv[i], "--all") == 0) {
			args->all = true;
		} else if (strcmp(argv[i], "--allow-nan") == 0) {
			args->allow_nan = true;
		} else if (strcmp(argv[i], "--expect") == 0) {
			if (i + 1 >= argc) {
				cmd_error(ctx, "--expect needs a .npy file");
				return false;
			}
			if (args->nexpect == COMPARE_MAX_EXPECT) {
				cmd_error(ctx, "at most %d --expect files", COMPARE_MAX_EXPECT);
				return false;
			}
			args->expect[args->nexpect++] = argv[++i];
		} else if (strcmp(argv[i], "--top") == 0) {
			if (i + 1 >= argc) {
				cmd_error(ctx, "--top needs a number of values");
				return false;
			}
			v = strtol(argv[++i], &end, 10);
			if (end == argv[i] || *end || v < 1 || v > 1000000) {
				cmd_error(ctx, "--top needs a number of values from 1, not '%s'",
					  argv[i]);
				return false;
			}
			args->top = (size_t)v;
		} else {
			cmd_error(ctx, "unknown option '%s'", argv[i]);
			return false;
		}
	}
	if ((args->all || args->top != 5) && !args->each) {
		cmd_error(ctx, "--all and --top go with --each");
		return false;
	}
	if (args->nexpect && args->each) {
		cmd_error(ctx, "--each compares the values of a reference run; --expect files hold "
			       "results only");
		return false;
	}
	return true;
}

/* The --expect files as the reference's results (want), one a result of
 * the planned run (got); false after reporting an unreadable file or a count
 * that does not match. */
static bool read_expected(CmdContext *ctx, const CompareArgs *args, const ExecResult *got,
			  ExecResult *want)
{
	char *err = NULL;
	memset(want, 0, sizeof *want);
	if (args->nexpect != got->noutputs) {
		cmd_error(ctx, "@main returns %zu result%s; --expect gives %zu file%s",
			  got->noutputs, got->noutputs == 1 ? "" : "s", args->nexpect,
			  args->nexpect == 1 ? "" : "s");
		return false;
	}
	want->outputs = xcalloc(args->nexpect, sizeof(NpyArray));
	want->output_devices = xcalloc(args->nexpect, sizeof(int32_t));
	for (size_t i = 0; i < args->nexpect; i++) {
		char *path = commands_input_path(ctx, args->expect[i]);
		bool read = npy_read(path, &want->outputs[i], &err);
		free(path);
		if (!read) {
			cmd_error(ctx, "--expect: %s", err);
			free(err);
			exec_result_free(want);
			return false;
		}
		want->noutputs++;
	}
	return true;
}

/* The last line of a comparison whose reference has NaN or infinity in
 * some of its results, which the user did not allow: nothing was compared
 * that means anything. */
static void print_nonfinite_failure(CmdContext *ctx, const CompareArgs *args,
				    const RunComparison *c, const char *against)
{
	size_t n = c->ngot;
	fprintf(ctx->out, "compare: FAIL: %zu of %zu %s", c->nonfinite, n,
		args->nexpect ? (n == 1 ? "expected result" : "expected results") : "result");
	if (args->nexpect)
		fprintf(ctx->out, " (%s%s)", args->expect[0], args->nexpect > 1 ? ", ..." : "");
	else
		fprintf(ctx->out, "%s of %s", n == 1 ? "" : "s", against);
	fprintf(ctx->out, " %s NaN or infinity (", c->nonfinite == 1 ? "holds" : "hold");
	if (c->nans)
		fprintf(ctx->out, "%lld NaN", (long long)c->nans);
	if (c->infs)
		fprintf(ctx->out, "%s%lld inf", c->nans ? ", " : "", (long long)c->infs);
	fprintf(ctx->out,
		"): a reference that is not finite proves nothing; %s'compare "
		"--allow-nan' accepts the values both sides share\n",
		args->nexpect || args->each
			? ""
			: "'compare --each' names the op where the first appears, and ");
}

/* One line per result: its type, the largest errors and the reference's
 * NaN and infinities; a warning at the first saturated reference. */
static void print_result_checks(CmdContext *ctx, const CompareArgs *args, const RunComparison *c,
				const ExecResult *got, const ExecResult *want)
{
	size_t saturated = 0;
	if (c->ngot != c->nwant)
		fprintf(ctx->out, "the planned program returns %zu tensors, the reference %zu\n",
			c->ngot, c->nwant);
	for (size_t i = 0; i < c->count; i++) {
		const RunResultCheck *r = &c->checks[i];
		cmd_print_result_name(ctx, i, c->ngot);
		fputs(": ", ctx->out);
		cmd_print_shape_type(ctx, &got->outputs[i]);
		if (r->layout_differs) {
			fputs(": differs in shape or dtype from the expected ", ctx->out);
			cmd_print_shape_type(ctx, &want->outputs[i]);
			fputc('\n', ctx->out);
			continue;
		}
		fprintf(ctx->out, ": max abs error %.3g, max rel error %.3g", r->max_abs,
			r->max_rel);
		print_nonfinite(ctx, r->nans, r->infs,
				args->nexpect ? "expected result" : "cpu result");
		fputc('\n', ctx->out);
		if (r->saturated && ++saturated == 1)
			cmd_warning(
				ctx,
				"the reference result is saturated (%s): a match proves little; "
				"'compare --each' compares every value%s",
				r->saturated,
				ctx->session->settings.inputs == INPUTS_RANDOM
					? ", and 'set inputs realistic' draws inputs that keep a "
					  "model's numbers in range"
					: "");
	}
}

/* " (--allow-nan: 3 NaN on both sides)" after a PASS that allowed any. */
static void print_allowed(CmdContext *ctx, const RunComparison *c)
{
	if (!c->nans && !c->infs && !c->each.nonfinite)
		return;
	fputs(" (--allow-nan: ", ctx->out);
	if (c->nans || c->infs) {
		if (c->nans)
			fprintf(ctx->out, "%lld NaN", (long long)c->nans);
		if (c->infs)
			fprintf(ctx->out, "%s%lld inf", c->nans ? ", " : "", (long long)c->infs);
		fputs(" on both sides", ctx->out);
	} else {
		fprintf(ctx->out, "%zu intermediate value%s with NaN or infinity on both sides",
			c->each.nonfinite, c->each.nonfinite == 1 ? "" : "s");
	}
	fputc(')', ctx->out);
}

/* The verdict's line. */
static void print_verdict(CmdContext *ctx, const CompareArgs *args, const RunComparison *c,
			  const char *against, double tol)
{
	size_t n = c->ngot;
	const char *s = n == 1 ? "" : "s", *es = n == 1 ? "es" : "";
	switch (c->verdict) {
	case RUN_FAIL_RESULTS:
		fprintf(ctx->out,
			"compare: FAIL: %zu of %zu result%s differ%s from %s beyond tolerance %g\n",
			c->failed, n, s, c->failed == 1 ? "s" : "", against, tol);
		break;
	case RUN_FAIL_NONFINITE:
		print_nonfinite_failure(ctx, args, c, against);
		break;
	case RUN_FAIL_VALUES:
		fprintf(ctx->out,
			"compare: FAIL: %zu intermediate value%s differ%s from %s beyond "
			"tolerance, though the %zu result%s match%s\n",
			c->each.differ, c->each.differ == 1 ? "" : "s",
			c->each.differ == 1 ? "s" : "", against, n, s, es);
		break;
	case RUN_FAIL_VALUES_NONFINITE:
		fprintf(ctx->out,
			"compare: FAIL: %zu intermediate value%s of %s %s NaN or infinity, though "
			"the %zu result%s match%s; 'compare --allow-nan' accepts the values both "
			"runs share\n",
			c->each.nonfinite, c->each.nonfinite == 1 ? "" : "s", against,
			c->each.nonfinite == 1 ? "holds" : "hold", n, s, es);
		break;
	case RUN_PASS:
		fprintf(ctx->out, "compare: PASS: %zu result%s match%s %s within tolerance %g", n,
			s, es, against, tol);
		print_allowed(ctx, c);
		fputc('\n', ctx->out);
		break;
	}
}

/* What the results are compared against: the --expect files or the run on
 * the cpu alone. */
static void describe_against(const CmdContext *ctx, const CompareArgs *args, StrBuf *against)
{
	const Session *s = ctx->session;
	int32_t cpu = -1;
	for (uint32_t i = 0; i < s->devices.count && cpu < 0; i++)
		if (s->devices.items[i].device_type == DEVICE_TYPE_CPU)
			cpu = (int32_t)i;
	if (args->nexpect)
		strbuf_printf(against, "the expected result%s (%s%s)",
			      args->nexpect == 1 ? "" : "s", args->expect[0],
			      args->nexpect > 1 ? ", ..." : "");
	else
		strbuf_printf(against, "the run on %s alone",
			      cpu >= 0 ? devices_name(&s->devices, cpu) : "the cpu");
}

/* The two runs of `compare --each` (run_each_runs: the reference run
 * stepped as the planned run asks for its values) and the report; false
 * after reporting a failed run. What is printed is what running the
 * reference first would print: its messages first, and when it failed
 * those alone. */
static bool compare_each_runs(CmdContext *ctx, const CompareArgs *args, const IrModule *reference,
			      const IrModule *planned, ExecOptions *ro, ExecOptions *po,
			      const RunInputs *in, ExecResult *got, ExecResult *want,
			      RunEachCounts *past)
{
	RunEach *each = run_each_new(reference, planned, in->arrays, in->count,
				     ctx->session->settings.tolerance, args->allow_nan);
	DiagList reference_diags, planned_diags;
	bool ok, reference_ok;
	diag_init(&reference_diags);
	diag_init(&planned_diags);
	ok = run_each_runs(ctx->session, each, reference, planned, ro, po, in->arrays, in->count,
			   got, want, &reference_diags, &planned_diags, &reference_ok);
	cmd_print_diags(ctx, &reference_diags);
	if (reference_ok)
		cmd_print_diags(ctx, &planned_diags);
	if (ok)
		*past = cmd_compare_each_report(ctx, each, args->all, args->top);
	diag_free(&reference_diags);
	diag_free(&planned_diags);
	run_each_free(each);
	return ok;
}

/* The planned run, then the reference's results: the --expect files or a
 * run on the cpu alone; false after reporting. */
static bool compare_runs(CmdContext *ctx, const CompareArgs *args, const IrModule *reference,
			 const IrModule *planned, const ExecOptions *ro, const ExecOptions *po,
			 const RunInputs *in, ExecResult *got, ExecResult *want)
{
	bool ok = cmd_run_module(ctx, planned, po, in, got);
	if (ok && args->nexpect)
		ok = read_expected(ctx, args, got, want);
	else if (ok)
		ok = cmd_run_module(ctx, reference, ro, in, want);
	if (!ok && got->outputs)
		exec_result_free(got);
	return ok;
}

/* The modules the two runs execute, made static for the inputs: the
 * planned one, and (unless --expect gives the results) the reference;
 * false after reporting, with nothing to free. */
static bool compare_modules(CmdContext *ctx, const CompareArgs *args, const IrModule *planned,
			    const IrModule *reference, const RunInputs *in, ExecOptions *po,
			    IrModule **planned_run, IrModule **reference_run)
{
	DiagList diags;
	bool fault;
	*planned_run = *reference_run = NULL;
	diag_init(&diags);
	fault = run_fault(ctx->session, po, &diags);
	cmd_print_diags(ctx, &diags);
	diag_free(&diags);
	if (!fault || !(*planned_run = cmd_run_specialize(ctx, planned, in)))
		return false;
	if (!args->nexpect && !(*reference_run = cmd_run_specialize(ctx, reference, in))) {
		ir_module_free(*planned_run);
		*planned_run = NULL;
		return false;
	}
	return true;
}

int cmd_compare(CmdContext *ctx, int argc, char **argv)
{
	Session *s = ctx->session;
	const IrModule *planned = session_current(s);
	int infer = pipeline_find_flags(PHASE_PRODUCES_TYPES);
	const IrModule *reference = NULL;
	IrModule *planned_run, *reference_run;
	CompareArgs args;
	RunInputs in;
	RunEachCounts past = {0, 0};
	RunComparison c;
	ExecResult got, want;
	ExecOptions po, ro;
	StrBuf against;
	bool ok;
	if (infer >= 0 && session_phase_ran(s, infer) && !(reference = cmd_version(ctx, infer)))
		return 1;
	if (!reference)
		reference = planned;
	if (!parse_compare_options(ctx, argc, argv, &args) ||
	    !cmd_run_prepare_inputs(ctx, planned, argc, argv, &in))
		return 1;
	po = run_options(s, false, false);
	ro = run_options(s, true, false);
	if (!compare_modules(ctx, &args, planned, reference, &in, &po, &planned_run,
			     &reference_run)) {
		run_inputs_free(&in);
		return 1;
	}
	memset(&got, 0, sizeof got);
	ok = args.each ? compare_each_runs(ctx, &args, reference_run, planned_run, &ro, &po, &in,
					   &got, &want, &past)
		       : compare_runs(ctx, &args, reference_run, planned_run, &ro, &po, &in, &got,
				      &want);
	if (reference_run)
		ir_module_free(reference_run);
	ir_module_free(planned_run);
	if (!ok) {
		run_inputs_free(&in);
		return 1;
	}
	strbuf_init(&against);
	describe_against(ctx, &args, &against);
	run_compare_results(reference, &got, &want, s->settings.tolerance, args.allow_nan, past,
			    &c);
	print_result_checks(ctx, &args, &c, &got, &want);
	print_verdict(ctx, &args, &c, against.data, s->settings.tolerance);
	ok = c.verdict == RUN_PASS;
	run_comparison_free(&c);
	strbuf_free(&against);
	exec_result_free(&got);
	exec_result_free(&want);
	run_inputs_free(&in);
	return ok ? 0 : 1;
}
