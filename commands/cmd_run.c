/*
 * cmd_run.c - executing the planned module: `run` and `profile`.
 *
 * Both build @main's inputs as run_args.c parses them (as `compare`,
 * cmd_compare.c, does too): NAME=FILE.npy reads a NumPy file,
 * NAME=random[:SEED] draws seeded random values (npy.h documents the
 * generator), NAME=random:SEED:(3,4) in the shape given (which an input
 * whose type has `?` dimensions needs), and an input not named is random
 * with its index as the seed, which a note says. Random values are drawn
 * like an initialised model's unless `set inputs random` asks for uniform
 * ones: uniform weights make a batch norm's variance negative in the
 * exports that copy it from a weight, and every such model's result NaN.
 *
 * The work is the session's (core/session/run.h and the run_*.h beside
 * it): building the inputs, making a module with `?` dimensions static
 * for them, the run, the values it keeps and the profile's totals. These
 * handlers parse the options, print its diagnostics, and format what
 * comes back: `run` a summary per result (type, device, first values,
 * checksum), `profile` times per op and device and the copies next to the
 * bytes that `copies` predicted.
 *
 * The output of `run` is deterministic (no timings), so that transcripts
 * can hold it; only `profile` (and `run --profile`) print times.
 */
#include "commands.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"
#include "plan_estimate.h"
#include "run_args.h"
#include "run_profile.h"
#include "run_values.h"

enum { RUN_SHOW_VALUES = 8 };

typedef struct RunArgs {
	int first; /* argv index of the first NAME=VALUE */
	const char *output;
	const char *dump; /* --dump DIR */
	bool profile;
} RunArgs;

/* --output and --profile (when allowed) among the arguments. */
static bool parse_options(CmdContext *ctx, int argc, char **argv, bool allow_options, RunArgs *args)
{
	memset(args, 0, sizeof *args);
	args->first = 1;
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--", 2) != 0)
			continue;
		if (allow_options && strcmp(argv[i], "--profile") == 0) {
			args->profile = true;
		} else if (allow_options && strcmp(argv[i], "--output") == 0) {
			if (i + 1 >= argc) {
				cmd_error(ctx, "--output needs a file name");
				return false;
			}
			args->output = argv[++i];
		} else if (allow_options && strcmp(argv[i], "--dump") == 0) {
			if (i + 1 >= argc) {
				cmd_error(ctx, "--dump needs a directory");
				return false;
			}
			args->dump = argv[++i];
		} else {
			cmd_error(ctx, "unknown option '%s'", argv[i]);
			return false;
		}
	}
	return true;
}

/* One value after a space: an integer exactly (a uint64 Threefry key
 * included), anything else to 6 digits. */
static void print_element(CmdContext *ctx, const NpyArray *a, int64_t k)
{
	if (a->dtype == DT_UINT64)
		fprintf(ctx->out, " %llu", (unsigned long long)((const uint64_t *)a->data)[k]);
	else if (a->dtype == DT_INT64)
		fprintf(ctx->out, " %lld", (long long)((const int64_t *)a->data)[k]);
	else if (dtype_is_integer(a->dtype))
		fprintf(ctx->out, " %lld", (long long)exec_element(a, k));
	else
		fprintf(ctx->out, " %.6g", exec_element(a, k));
}

/* A line saying how many elements of a result are NaN or infinite, when
 * any are, and where to look for the first. */
static void print_not_finite(CmdContext *ctx, const NpyArray *a)
{
	int64_t n = npy_array_count(a), nans = 0, infs = 0;
	if (!dtype_is_float(a->dtype))
		return;
	for (int64_t i = 0; i < n; i++) {
		double v = exec_element(a, i);
		nans += isnan(v) != 0;
		infs += isinf(v) != 0;
	}
	if (!nans && !infs)
		return;
	fputs("  not finite: ", ctx->out);
	if (nans)
		fprintf(ctx->out, "%lld NaN%s", (long long)nans, infs ? ", " : "");
	if (infs)
		fprintf(ctx->out, "%lld inf", (long long)infs);
	fprintf(ctx->out, " of %lld values ('compare --each' names the op that made the first)\n",
		(long long)n);
}

static void print_summary(CmdContext *ctx, const ExecResult *r)
{
	for (size_t i = 0; i < r->noutputs; i++) {
		const NpyArray *a = &r->outputs[i];
		int64_t count = npy_array_count(a),
			show = count < RUN_SHOW_VALUES ? count : RUN_SHOW_VALUES;
		double sum;
		uint64_t hash;
		cmd_print_result_name(ctx, i, r->noutputs);
		fputs(": ", ctx->out);
		cmd_print_shape_type(ctx, a);
		fprintf(ctx->out, " on %s\n",
			devices_name(&ctx->session->devices, r->output_devices[i]));
		if (show == count)
			fprintf(ctx->out, "  values:");
		else
			fprintf(ctx->out, "  first %lld of %lld values:", (long long)show,
				(long long)count);
		for (int64_t k = 0; k < show; k++)
			print_element(ctx, a, k);
		fputc('\n', ctx->out);
		exec_checksum(a, &sum, &hash);
		fprintf(ctx->out, "  checksum: sum %.9g, fnv1a64 %016llx\n", sum,
			(unsigned long long)hash);
		print_not_finite(ctx, a);
	}
}

/* ---- profile ------------------------------------------------------------- */

/* Seconds as a short fixed-width string: us below a millisecond. */
static const char *format_seconds(char *buf, size_t size, double seconds)
{
	if (seconds < 1e-3)
		snprintf(buf, size, "%.1f us", seconds * 1e6);
	else if (seconds < 10)
		snprintf(buf, size, "%.3f ms", seconds * 1e3);
	else
		snprintf(buf, size, "%.2f s", seconds);
	return buf;
}

/* The estimate's time of op on device, or -1 when it has none. */
static double estimated_seconds(const PlanEstimate *e, OpKind op, int32_t device)
{
	for (size_t i = 0; e && i < e->nops; i++)
		if (e->ops[i].op == op && e->ops[i].device == device)
			return e->ops[i].seconds;
	return -1;
}

/* The operators by busy time, with the total, each beside its wall clock,
 * the estimate's time for it (e, NULL when there is none) and the ratio of
 * the busy time to the estimate. */
static void print_profile_ops(CmdContext *ctx, const RunProfileSummary *sum, const PlanEstimate *e)
{
	const DeviceTable *devices = &ctx->session->devices;
	char buf[32], wall[32], est[32], ratio[16] = "-";
	double total_est = 0;
	fprintf(ctx->out, "ops:\n  %-24s %-8s %7s %12s %12s %7s %12s %7s\n", "op", "device",
		"calls", "time", "wall", "share", "estimate", "x est");
	for (size_t i = 0; i < sum->nops; i++) {
		const ExecOpStat *op = &sum->ops[i];
		double t = estimated_seconds(e, op->op, op->device);
		snprintf(ratio, sizeof ratio, "%s", "-");
		if (t > 0)
			snprintf(ratio, sizeof ratio, "%.2f", op->busy / t);
		fprintf(ctx->out, "  %-24s %-8s %7llu %12s %12s %6.1f%% %12s %7s\n",
			op_info(op->op)->name, devices_name(devices, op->device),
			(unsigned long long)op->calls, format_seconds(buf, sizeof buf, op->busy),
			format_seconds(wall, sizeof wall, op->seconds),
			sum->op_seconds > 0 ? 100 * op->busy / sum->op_seconds : 0.0,
			t >= 0 ? format_seconds(est, sizeof est, t) : "-", ratio);
		if (t > 0)
			total_est += t;
	}
	snprintf(ratio, sizeof ratio, "%s", "-");
	if (total_est > 0)
		snprintf(ratio, sizeof ratio, "%.2f", sum->op_seconds / total_est);
	fprintf(ctx->out, "  %-24s %-8s %7s %12s %12s %7s %12s %7s\n", "total", "", "",
		format_seconds(buf, sizeof buf, sum->op_seconds),
		format_seconds(wall, sizeof wall, sum->op_wall), "",
		format_seconds(est, sizeof est, total_est), ratio);
}

/* The plan's copies with what the run measured, and the run's totals. */
static void print_profile_copies(CmdContext *ctx, const RunProfileSummary *sum,
				 const ExecProfile *p)
{
	const DeviceTable *devices = &ctx->session->devices;
	char buf[32];
	fprintf(ctx->out, "copies:\n  %-32s %6s %12s %12s %12s %10s\n", "copy", "count", "bytes",
		"predicted", "time", "GB/s");
	for (size_t i = 0; i < sum->ncopies; i++) {
		const PlacementFact *f = sum->copies[i].fact;
		const ExecCopyStat *c = sum->copies[i].stat;
		char label[256];
		snprintf(label, sizeof label, "%s %s %s -> %s", f->function, f->value,
			 devices_name(devices, f->device), devices_name(devices, f->dest));
		fprintf(ctx->out, "  %-32s %6llu %12llu %12lld %12s %10.2f\n", label,
			(unsigned long long)(c ? c->count : 0),
			(unsigned long long)(c ? c->bytes : 0), (long long)f->bytes,
			format_seconds(buf, sizeof buf, c ? c->seconds : 0.0),
			c && c->seconds > 0 ? (double)c->bytes / c->seconds * 1e-9 : 0.0);
	}
	if (sum->ncopies == 0 && p->ncopies == 0)
		fputs("  (no copies in the plan)\n", ctx->out);
	fprintf(ctx->out, "  %-32s %6llu %12llu %12lld %12s %10.2f\n", "total",
		(unsigned long long)sum->copy_count, (unsigned long long)sum->copy_bytes,
		(long long)sum->predicted_bytes, format_seconds(buf, sizeof buf, sum->copy_seconds),
		sum->copy_seconds > 0 ? (double)sum->copy_bytes / sum->copy_seconds * 1e-9 : 0.0);
}

static void print_profile(CmdContext *ctx, const IrModule *m, const ExecResult *r)
{
	const ExecProfile *p = &r->profile;
	const DeviceTable *devices = &ctx->session->devices;
	RunProfileSummary sum;
	PlanEstimate e;
	DeviceTable costs;
	bool estimated;
	char buf[32];
	/* a device on the host emulator ran the cpu kernels and copied between
	 * host buffers: the cpu's calibration is its roofline, and its
	 * operators and copies cost what the cpu's do besides */
	devices_copy(&costs, devices);
	for (size_t i = 0; i < p->ndevices; i++) {
		int32_t d = p->devices[i].device;
		if (!run_profile_emulated(&p->devices[i]) || !ctx->session->calibrated ||
		    costs.items[d].costs == DEVICE_COSTS_SET)
			continue;
		session_apply_calibration(&costs, (uint32_t)d, &ctx->session->calibration);
		costs.items[d].latency = DEVICES_CPU_LATENCY_DEFAULT;
	}
	estimated = plan_estimate(m, &costs, &e);
	run_profile_summarise(m, p, &sum);
	print_profile_ops(ctx, &sum, estimated ? &e : NULL);
	print_profile_copies(ctx, &sum, p);
	run_profile_free(&sum);
	fprintf(ctx->out, "inputs: %llu tensor%s, %llu bytes to their devices in %s\n",
		(unsigned long long)p->input_copies, p->input_copies == 1 ? "" : "s",
		(unsigned long long)p->input_bytes,
		format_seconds(buf, sizeof buf, p->input_seconds));
	fputs("memory peak:", ctx->out);
	for (size_t i = 0; i < p->ndevices; i++) {
		cmd_format_bytes(buf, sizeof buf, (double)p->devices[i].peak_bytes);
		fprintf(ctx->out, "%s %s %s (%s)", i ? "," : "",
			p->devices[i].device < 0 ? "cpu"
						 : devices_name(devices, p->devices[i].device),
			buf, p->devices[i].backend);
	}
	fprintf(ctx->out, "\nwall: %s", format_seconds(buf, sizeof buf, p->run_seconds));
	fprintf(ctx->out, " (busy %s)\n", format_seconds(buf, sizeof buf, p->run_busy));
	if (estimated) {
		cmd_estimate_print_against(ctx, &costs, &e, p);
		plan_estimate_free(&e);
	} else {
		cmd_warning(ctx, "the estimate was interrupted");
	}
	devices_free(&costs);
	/* the emulator runs the cpu kernels and copies between host buffers:
	 * its times are the host's */
	for (size_t i = 0; i < p->ndevices; i++)
		if (run_profile_emulated(&p->devices[i]))
			cmd_note(ctx,
				 "%s ran on the host emulator: its times are the cpu kernels' and "
				 "host memory copies', and say nothing about a GPU%s",
				 devices_name(devices, p->devices[i].device),
				 ctx->session->calibrated
					 ? " (its estimate is the cpu's calibrated one)"
					 : "");
}

/* ---- commands ------------------------------------------------------------- */

/* Before a timed run: this machine's figures for the cpu devices whose
 * cost model is not the user's, measured once per session, so that the
 * estimate beside the measurement is this machine's roofline. A
 * calibration that fails leaves the model as it is, with a warning. */
static void calibrate_once(CmdContext *ctx)
{
	char *err = NULL;
	if (!session_calibrate(ctx->session, false, false, &err)) {
		cmd_warning(ctx, "the cost model stays nominal: %s", err);
		free(err);
	}
}

/* The keeper of the values `run` keeps for `print` and dumps with --dump;
 * NULL after reporting. */
static RunValues *start_keeping(CmdContext *ctx, const IrModule *m, const char *dump,
				bool *of_limit)
{
	DiagList diags;
	RunValues *keeper;
	uint64_t budget = run_values_budget(ctx->session, of_limit);
	diag_init(&diags);
	keeper = run_values_new(ctx->session, m, dump, budget, &diags);
	cmd_print_diags(ctx, &diags);
	diag_free(&diags);
	return keeper;
}

/* After a run that succeeded: the dump's line (or its error) and the note
 * on the values not kept. False after reporting a write error. */
static bool finish_keeping(CmdContext *ctx, RunValues *keeper, RunInputs *in, const char *dump,
			   bool of_limit)
{
	RunValuesReport report;
	bool ok = true;
	run_values_finish(keeper, in->arrays, in->count, true, &report);
	if (dump && report.error) {
		cmd_error(ctx, "run --dump: %s", report.error);
		ok = false;
	} else if (dump) {
		fprintf(ctx->out, "dumped %zu value%s to %s (manifest.json lists them)\n",
			report.dumped, report.dumped == 1 ? "" : "s", dump);
	}
	if (report.dropped) {
		char budget[32];
		cmd_format_bytes(budget, sizeof budget, (double)report.budget);
		cmd_note(ctx,
			 "%zu of the run's %zu values were not kept for 'print': the values "
			 "kept may take %s, a quarter of %s",
			 report.dropped, report.offered, budget,
			 of_limit ? "the memory limit" : "the free memory");
	}
	free(report.error);
	return ok;
}

/* `run --output FILE`: the first result saved. 0, or 1 after reporting. */
static int save_output(CmdContext *ctx, const ExecResult *result, const char *output)
{
	char *err = NULL;
	if (result->noutputs == 0)
		return cmd_error(ctx, "@main has no tensor result to save");
	if (!npy_write(output, &result->outputs[0], &err)) {
		cmd_error(ctx, "%s", err);
		free(err);
		return 1;
	}
	fprintf(ctx->out, "saved %s to %s\n", result->noutputs == 1 ? "result" : "result.0",
		output);
	return 0;
}

int cmd_run(CmdContext *ctx, int argc, char **argv)
{
	const IrModule *current = session_current(ctx->session);
	IrModule *m;
	RunArgs args;
	RunInputs in;
	ExecResult result;
	ExecOptions o;
	RunValues *keeper;
	RunValuesReport unused;
	bool of_limit;
	int status = 0;
	if (!parse_options(ctx, argc, argv, true, &args))
		return 1;
	/* a destination that cannot be written fails before the run */
	if (args.output) {
		char *err;
		if (!file_check(args.output, &err)) {
			cmd_error(ctx, "%s", err);
			free(err);
			return 1;
		}
	}
	if (!cmd_run_prepare_inputs(ctx, current, argc, argv, &in))
		return 1;
	if (!(m = cmd_run_specialize(ctx, current, &in))) {
		run_inputs_free(&in);
		return 1;
	}
	if (args.profile)
		calibrate_once(ctx);
	o = run_options(ctx->session, false, args.profile);
	if (!(keeper = start_keeping(ctx, m, args.dump, &of_limit))) {
		ir_module_free(m);
		run_inputs_free(&in);
		return 1;
	}
	o.observe = run_values_observe;
	o.observe_context = keeper;
	if (!cmd_run_module(ctx, m, &o, &in, &result)) {
		run_values_finish(keeper, in.arrays, in.count, false, &unused);
		ir_module_free(m);
		run_inputs_free(&in);
		return 1;
	}
	print_summary(ctx, &result);
	if (!finish_keeping(ctx, keeper, &in, args.dump, of_limit))
		status = 1;
	if (args.output && save_output(ctx, &result, args.output))
		status = 1;
	if (args.profile)
		print_profile(ctx, m, &result);
	/* the results, as printed, for `print result` */
	session_values_set_results(&ctx->session->values, result.outputs, result.output_devices,
				   result.noutputs);
	result.outputs = NULL;
	result.output_devices = NULL;
	result.noutputs = 0;
	exec_result_free(&result);
	ir_module_free(m);
	run_inputs_free(&in);
	return status;
}

int cmd_profile(CmdContext *ctx, int argc, char **argv)
{
	const IrModule *current = session_current(ctx->session);
	IrModule *m;
	RunArgs args;
	RunInputs in;
	ExecResult result;
	ExecOptions o;
	if (!parse_options(ctx, argc, argv, false, &args) ||
	    !cmd_run_prepare_inputs(ctx, current, argc, argv, &in))
		return 1;
	if (!(m = cmd_run_specialize(ctx, current, &in))) {
		run_inputs_free(&in);
		return 1;
	}
	calibrate_once(ctx);
	o = run_options(ctx->session, false, true);
	if (!cmd_run_module(ctx, m, &o, &in, &result)) {
		ir_module_free(m);
		run_inputs_free(&in);
		return 1;
	}
	print_profile(ctx, m, &result);
	exec_result_free(&result);
	ir_module_free(m);
	run_inputs_free(&in);
	return 0;
}
