/*
 * cmd_run.c - executing the planned module: `run`, `compare` and `profile`.
 *
 * All three build @main's inputs the same way: NAME=FILE.npy reads a NumPy
 * file, NAME=random[:SEED] draws seeded random values (npy.h documents the
 * generator), NAME=random:SEED:(3,4) in the shape given (which an input
 * whose type has `?` dimensions needs), and an input not named is random
 * with its index as the seed, which a note says. Random values are drawn
 * like an initialised model's unless `set inputs random` asks for uniform
 * ones: uniform weights make a batch norm's variance negative in the
 * exports that copy it from a weight, and every such model's result NaN.
 *
 * The work is the session's (core/session/run.h and the run_*.h beside
 * it): building the inputs, making a module with `?` dimensions static
 * for them, the run, the values it keeps, the comparisons and the
 * profile's totals. These handlers parse the arguments into its specs and
 * options, print its diagnostics, and format what comes back: `run` a
 * summary per result (type, device, first values, checksum), `compare`
 * the largest errors against a run of the same program with every op on
 * the cpu (compare_each.c prints --each's report), `profile` times per op
 * and device and the copies next to the bytes that `copies` predicted.
 *
 * The output of `run` and `compare` is deterministic (no timings), so that
 * transcripts can hold it; only `profile` (and `run --profile`) print
 * times.
 */
#include "commands.h"

#include <errno.h>
#include <sys/stat.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_each.h"
#include "exec.h"
#include "plan.h"
#include "run.h"
#include "run_compare.h"
#include "run_each.h"
#include "run_inputs.h"
#include "run_profile.h"
#include "run_values.h"

enum { RUN_SHOW_VALUES = 8, RUN_LIST_RANDOM = 6, COMPARE_MAX_EXPECT = 64 };

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

/* An option, the file name after --output or the count after --top. */
static bool is_option_word(char **argv, int i)
{
	return strncmp(argv[i], "--", 2) == 0 ||
	       (i > 1 &&
		(strcmp(argv[i - 1], "--output") == 0 || strcmp(argv[i - 1], "--expect") == 0 ||
		 strcmp(argv[i - 1], "--top") == 0 || strcmp(argv[i - 1], "--dump") == 0));
}

/* The NAME=VALUE arguments matched with the inputs of @main: given[k] is
 * the VALUE named for params[k], NULL when none is. Returns false after
 * reporting a malformed argument, a name @main has no input for, or an
 * input named twice. */
static bool match_inputs(CmdContext *ctx, int argc, char **argv, const ExecParam *params, size_t n,
			 const char **given)
{
	for (int i = 1; i < argc; i++) {
		const char *eq, *name = argv[i];
		size_t len, k;
		if (is_option_word(argv, i))
			continue;
		eq = strchr(name, '=');
		if (name[0] == '%')
			name++;
		if (!eq || eq == name) {
			cmd_error(ctx, "'%s' is not NAME=FILE.npy or NAME=random[:SEED[:(SHAPE)]]",
				  argv[i]);
			return false;
		}
		len = (size_t)(eq - name);
		for (k = 0; k < n; k++)
			if (strlen(params[k].name) == len &&
			    strncmp(params[k].name, name, len) == 0)
				break;
		if (k == n) {
			StrBuf names;
			strbuf_init(&names);
			for (size_t j = 0; j < n && j < 8; j++)
				strbuf_printf(&names, "%s%%%s", j ? ", " : "", params[j].name);
			if (n > 8)
				strbuf_printf(&names, ", ... (%zu in all)", n);
			cmd_error(ctx, "@main has no input '%%%.*s'; its inputs are %s", (int)len,
				  name, n ? names.data : "none");
			strbuf_free(&names);
			return false;
		}
		if (given[k]) {
			cmd_error(ctx, "input '%%%s' is given twice", params[k].name);
			return false;
		}
		given[k] = eq + 1;
	}
	return true;
}

/* "(3,4)", "(5)", "(5,)" or "()" after random:SEED: into spec. Returns
 * false after reporting. */
static bool parse_input_shape(CmdContext *ctx, const ExecParam *p, const char *value,
			      const char *text, RunInputSpec *spec)
{
	const char *c = text;
	spec->has_shape = true;
	spec->ndim = 0;
	if (*c++ != '(')
		goto malformed;
	while (*c == ' ')
		c++;
	while (*c != ')') {
		char *end;
		long long d;
		if (spec->ndim == RUN_INPUT_MAX_NDIM) {
			cmd_error(ctx, "'%s' for %%%s: a shape has at most %d dimensions", value,
				  p->name, RUN_INPUT_MAX_NDIM);
			return false;
		}
		if (*c == '-') {
			cmd_error(ctx, "'%s' for %%%s: dimension %u is negative", value, p->name,
				  spec->ndim);
			return false;
		}
		if (*c < '0' || *c > '9')
			goto malformed;
		errno = 0;
		d = strtoll(c, &end, 10);
		if (errno) {
			cmd_error(ctx, "'%s' for %%%s: dimension %u is too large", value, p->name,
				  spec->ndim);
			return false;
		}
		spec->shape[spec->ndim++] = d;
		c = end;
		while (*c == ' ')
			c++;
		if (*c == ',') {
			c++;
			while (*c == ' ')
				c++;
		} else if (*c != ')') {
			goto malformed;
		}
	}
	if (c[1] == '\0')
		return true;
malformed:
	cmd_error(ctx,
		  "'%s' for %%%s: expected random:SEED:(D0,D1,...), a shape of non-negative "
		  "integers",
		  value, p->name);
	return false;
}

/* The VALUE given for input k: FILE.npy, random, random:SEED or
 * random:SEED:(SHAPE); NULL (not named) is random with k as the seed. A
 * file's path is where a script finds it (commands_input_path; the
 * caller frees spec->path). Returns false after reporting. */
static bool parse_input_value(CmdContext *ctx, const ExecParam *p, const char *value, size_t k,
			      RunInputSpec *spec)
{
	bool random = !value || strncmp(value, "random", 6) == 0;
	run_input_spec_random(spec, k);
	if (!random) {
		spec->file = value;
		spec->path = commands_input_path(ctx, value);
		return true;
	}
	if (value && random && value[6] != '\0') {
		char *end;
		if (value[6] != ':' || !value[7]) {
			cmd_error(ctx,
				  "'%s' for %%%s: expected random, random:SEED or "
				  "random:SEED:(D0,D1,...)",
				  value, p->name);
			return false;
		}
		errno = 0;
		spec->seed = strtoull(value + 7, &end, 10);
		if (errno || end == value + 7 || (*end && *end != ':') || value[7] == '-') {
			cmd_error(ctx, "'%s' for %%%s: the seed must be a non-negative integer",
				  value, p->name);
			return false;
		}
		if (*end == ':' && !parse_input_shape(ctx, p, value, end + 1, spec))
			return false;
	}
	return true;
}

/* The session's diagnostics of a run step, printed and dropped. */
static void print_diags(CmdContext *ctx, DiagList *diags)
{
	cmd_print_diags(ctx, diags);
	diag_clear(diags);
}

/* Parses input k's VALUE and makes it; false after reporting. */
static bool make_input(CmdContext *ctx, RunInputs *in, size_t k, const char *given, DiagList *diags)
{
	RunInputSpec spec;
	bool ok = parse_input_value(ctx, &in->params[k], given, k, &spec) &&
		  run_inputs_make(ctx->session, in, k, &spec, diags);
	free((char *)spec.path);
	print_diags(ctx, diags);
	return ok;
}

/* Builds one array per input of m: the arguments matched with the inputs,
 * then each input parsed and made in order, and a note naming the inputs
 * not given, which take random values. Returns false after reporting,
 * with nothing in *in to free. */
static bool prepare_inputs(CmdContext *ctx, const IrModule *m, int argc, char **argv, RunInputs *in)
{
	size_t nrandom = 0;
	const char **given;
	StrBuf note;
	DiagList diags;
	bool ok = false;
	diag_init(&diags);
	if (!run_inputs_start(ctx->session, m, in, &diags)) {
		cmd_print_diags(ctx, &diags);
		diag_free(&diags);
		return false;
	}
	given = xcalloc(in->count + 1, sizeof(char *));
	strbuf_init(&note);
	if (!match_inputs(ctx, argc, argv, in->params, in->count, given))
		goto done;
	for (size_t k = 0; k < in->count; k++) {
		if (!make_input(ctx, in, k, given[k], &diags))
			goto done;
		if (!given[k]) {
			if (nrandom < RUN_LIST_RANDOM)
				strbuf_printf(&note, "%s%%%s=random:%zu", nrandom ? ", " : "",
					      in->params[k].name, k);
			nrandom++;
		}
	}
	if (nrandom > RUN_LIST_RANDOM)
		strbuf_printf(&note, ", and %zu more", nrandom - RUN_LIST_RANDOM);
	run_inputs_finish(ctx->session, in);
	if (nrandom)
		cmd_note(ctx, "%zu input%s not given take%s %srandom values: %s", nrandom,
			 nrandom == 1 ? "" : "s", nrandom == 1 ? "s" : "",
			 ctx->session->settings.inputs == INPUTS_REALISTIC ? "realistic "
									   : "uniform ",
			 note.data);
	ok = true;
done:
	if (!ok)
		run_inputs_free(in);
	strbuf_free(&note);
	free(given);
	diag_free(&diags);
	return ok;
}

/* run_specialize, its diagnostics printed; NULL after reporting. */
static IrModule *module_for_inputs(CmdContext *ctx, const IrModule *m, const RunInputs *in)
{
	DiagList diags;
	IrModule *out;
	diag_init(&diags);
	out = run_specialize(m, in->arrays, in->count, &diags);
	cmd_print_diags(ctx, &diags);
	diag_free(&diags);
	return out;
}

/* run_module, its diagnostics (notes included) printed either way. */
static bool run_with_inputs(CmdContext *ctx, const IrModule *m, const ExecOptions *o,
			    const RunInputs *in, ExecResult *result)
{
	DiagList diags;
	bool ok;
	diag_init(&diags);
	ok = run_module(ctx->session, m, o, in->arrays, in->count, result, &diags);
	cmd_print_diags(ctx, &diags);
	diag_free(&diags);
	return ok;
}

static void print_shape_type(CmdContext *ctx, const NpyArray *a)
{
	fputs("Tensor[(", ctx->out);
	for (uint32_t i = 0; i < a->ndim; i++)
		fprintf(ctx->out, "%s%lld", i ? ", " : "", (long long)a->shape[i]);
	fprintf(ctx->out, "), %s]", dtype_name(a->dtype));
}

/* `result` or `result.I` when @main returns several tensors. */
static void print_result_name(CmdContext *ctx, size_t i, size_t n)
{
	if (n == 1)
		fputs("result", ctx->out);
	else
		fprintf(ctx->out, "result.%zu", i);
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
		print_result_name(ctx, i, r->noutputs);
		fputs(": ", ctx->out);
		print_shape_type(ctx, a);
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

/* The operators by time, with the total. */
static void print_profile_ops(CmdContext *ctx, const RunProfileSummary *sum)
{
	const DeviceTable *devices = &ctx->session->devices;
	char buf[32];
	fprintf(ctx->out, "ops:\n  %-24s %-8s %7s %12s %7s\n", "op", "device", "calls", "time",
		"share");
	for (size_t i = 0; i < sum->nops; i++) {
		const ExecOpStat *op = &sum->ops[i];
		fprintf(ctx->out, "  %-24s %-8s %7llu %12s %6.1f%%\n", op_info(op->op)->name,
			devices_name(devices, op->device), (unsigned long long)op->calls,
			format_seconds(buf, sizeof buf, op->seconds),
			sum->op_seconds > 0 ? 100 * op->seconds / sum->op_seconds : 0.0);
	}
	fprintf(ctx->out, "  %-24s %-8s %7s %12s\n", "total", "", "",
		format_seconds(buf, sizeof buf, sum->op_seconds));
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
	char buf[32];
	run_profile_summarise(m, p, &sum);
	print_profile_ops(ctx, &sum);
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
	fprintf(ctx->out, "\nwall: %s\n", format_seconds(buf, sizeof buf, p->run_seconds));
	cmd_estimate_print_against(ctx, m, p);
	/* the emulator runs the cpu kernels and copies between host buffers:
	 * its times are the host's */
	for (size_t i = 0; i < p->ndevices; i++)
		if (run_profile_emulated(&p->devices[i]))
			cmd_note(ctx,
				 "%s ran on the host emulator: its times are the cpu kernels' and "
				 "host memory copies', and say nothing about a GPU",
				 devices_name(devices, p->devices[i].device));
}

/* ---- commands ------------------------------------------------------------- */

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
	if (!prepare_inputs(ctx, current, argc, argv, &in))
		return 1;
	if (!(m = module_for_inputs(ctx, current, &in))) {
		run_inputs_free(&in);
		return 1;
	}
	o = run_options(ctx->session, false, args.profile);
	if (!(keeper = start_keeping(ctx, m, args.dump, &of_limit))) {
		ir_module_free(m);
		run_inputs_free(&in);
		return 1;
	}
	o.observe = run_values_observe;
	o.observe_context = keeper;
	if (!run_with_inputs(ctx, m, &o, &in, &result)) {
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
	    !prepare_inputs(ctx, current, argc, argv, &in))
		return 1;
	if (!(m = module_for_inputs(ctx, current, &in))) {
		run_inputs_free(&in);
		return 1;
	}
	o = run_options(ctx->session, false, true);
	if (!run_with_inputs(ctx, m, &o, &in, &result)) {
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

/* ---- compare -------------------------------------------------------------- */

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
		print_result_name(ctx, i, c->ngot);
		fputs(": ", ctx->out);
		print_shape_type(ctx, &got->outputs[i]);
		if (r->layout_differs) {
			fputs(": differs in shape or dtype from the expected ", ctx->out);
			print_shape_type(ctx, &want->outputs[i]);
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

/* The two runs of `compare --each`, the reference first (its values wait
 * for the planned run's), and the report; false after reporting a failed
 * run. */
static bool compare_each_runs(CmdContext *ctx, const CompareArgs *args, const IrModule *reference,
			      const IrModule *planned, ExecOptions *ro, ExecOptions *po,
			      const RunInputs *in, ExecResult *got, ExecResult *want,
			      RunEachCounts *past)
{
	RunEach *each = run_each_new(reference, planned, in->arrays, in->count,
				     ctx->session->settings.tolerance, args->allow_nan);
	bool ok;
	ro->observe = run_each_observe_reference;
	ro->observe_context = each;
	po->observe = run_each_observe_planned;
	po->observe_context = each;
	ok = run_with_inputs(ctx, reference, ro, in, want);
	if (ok && !run_with_inputs(ctx, planned, po, in, got)) {
		exec_result_free(want);
		ok = false;
	}
	if (ok)
		*past = cmd_compare_each_report(ctx, each, args->all, args->top);
	run_each_free(each);
	return ok;
}

/* The planned run, then the reference's results: the --expect files or a
 * run on the cpu alone; false after reporting. */
static bool compare_runs(CmdContext *ctx, const CompareArgs *args, const IrModule *reference,
			 const IrModule *planned, const ExecOptions *ro, const ExecOptions *po,
			 const RunInputs *in, ExecResult *got, ExecResult *want)
{
	bool ok = run_with_inputs(ctx, planned, po, in, got);
	if (ok && args->nexpect)
		ok = read_expected(ctx, args, got, want);
	else if (ok)
		ok = run_with_inputs(ctx, reference, ro, in, want);
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
	if (!fault || !(*planned_run = module_for_inputs(ctx, planned, in)))
		return false;
	if (!args->nexpect && !(*reference_run = module_for_inputs(ctx, reference, in))) {
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
	    !prepare_inputs(ctx, planned, argc, argv, &in))
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

/* Options, then NAME= and NAME=random for each input of @main; a file
 * name after --output. */
void cmd_complete_run(const Session *s, int argc, char **argv, const char *word, CmdCandidates *out)
{
	const IrModule *m = session_current(s);
	ExecParam *params;
	size_t n;
	if (argc > 1 &&
	    (strcmp(argv[argc - 1], "--output") == 0 || strcmp(argv[argc - 1], "--dump") == 0)) {
		out->files = true;
		return;
	}
	if (strcmp(argv[0], "run") == 0) {
		cmd_candidates_add(out, word, "--dump");
		cmd_candidates_add(out, word, "--output");
		cmd_candidates_add(out, word, "--profile");
	}
	if (!m)
		return;
	n = exec_params(m, &params);
	for (size_t i = 0; i < n; i++) {
		char *c = xasprintf("%s=", params[i].name);
		char *r = xasprintf("%s=random", params[i].name);
		cmd_candidates_add(out, word, c);
		cmd_candidates_add(out, word, r);
		free(c);
		free(r);
	}
	free(params);
}
