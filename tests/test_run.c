/*
 * test_run.c - running in the session (core/session/run.h and the run_*.h
 * beside it), driven directly, with no command context: what `run`,
 * `compare` and `profile` stand on.
 *
 * Each test plans a small module in a Session of its own (cuda devices on
 * the host emulator, `set gpu emulate`) and checks one rule: the
 * statistics of realistic inputs (data N(0, 1), a dense weight N(0,
 * 1/fan_in), a variance 1 + |N(0, 0.1^2)|) and of uniform ones (in [-1,
 * 1), the variance non-negative); a shape given for a `?` dimension and
 * the module made static for it; a run on the cpu and on the emulated
 * cuda, against the reference with every op on the cpu; the values kept
 * within a budget; the comparison of two runs (a pass, a result past a
 * forced tolerance, a NaN in the reference, which fails unless allowed);
 * `compare --each` naming the op that made a planted NaN, and its two runs
 * in step giving the records of the reference run first while holding a
 * value or two; a profile's rows per op.
 */
#include <setjmp.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "run.h"
#include "run_compare.h"
#include "run_each.h"
#include "run_inputs.h"
#include "run_profile.h"
#include "run_values.h"
#include "session.h"

/* ---- fixtures --------------------------------------------------------------- */

/* Loads text into a fresh session (cuda emulated) and plans it; fails the
 * test when it does not plan. */
static void plan_text(Session *s, const char *text)
{
	SourceFile *src = source_from_string("t.relay", text, strlen(text));
	session_init(s);
	s->settings.gpu = GPU_EMULATE;
	if (!session_load_source(s, src, "t.relay") || !session_step(s, pipeline_count)) {
		diag_print_all(stderr, &s->diags);
		fail();
	}
	source_release(src);
}

/* Every input of the current module, random; fails the test otherwise. */
static void build_inputs(Session *s, RunInputs *in)
{
	DiagList diags;
	diag_init(&diags);
	if (!run_inputs_build(s, session_current(s), NULL, in, &diags)) {
		diag_print_all(stderr, &diags);
		fail();
	}
	diag_free(&diags);
}

/* Plans text in a fresh session (plan_text), builds its inputs and gives
 * the options of its two runs: ro the reference's, on the cpu alone, and po
 * the planned run's. */
static void plan_for_runs(Session *s, const char *text, RunInputs *in, ExecOptions *ro,
			  ExecOptions *po)
{
	plan_text(s, text);
	build_inputs(s, in);
	*ro = run_options(s, true, false);
	*po = run_options(s, false, false);
}

/* Runs m with o; fails the test when it does not run. */
static void run_or_fail(Session *s, const IrModule *m, const ExecOptions *o, const RunInputs *in,
			ExecResult *result)
{
	DiagList diags;
	diag_init(&diags);
	if (!run_module(s, m, o, in->arrays, in->count, result, &diags)) {
		diag_print_all(stderr, &diags);
		fail();
	}
	diag_free(&diags);
}

/* The input of the given name. */
static const NpyArray *input_named(const RunInputs *in, const char *name)
{
	for (size_t k = 0; k < in->count; k++)
		if (strcmp(in->params[k].name, name) == 0)
			return &in->arrays[k];
	fail_msg("no input %%%s", name);
	return NULL;
}

typedef struct Stats {
	double mean, sd, min, max;
} Stats;

static Stats stats_of(const NpyArray *a)
{
	int64_t n = npy_array_count(a);
	Stats st = {0, 0, INFINITY, -INFINITY};
	double sq = 0;
	for (int64_t i = 0; i < n; i++) {
		double v = exec_element(a, i);
		st.mean += v;
		sq += v * v;
		st.min = v < st.min ? v : st.min;
		st.max = v > st.max ? v : st.max;
	}
	st.mean /= (double)n;
	st.sd = sqrt(sq / (double)n - st.mean * st.mean);
	return st;
}

/* A dense layer over data, and a batch norm's variance under a square
 * root: 8192 data values, 16384 weights (fan-in 256), 64 variances. */
static const char layer_text[] =
	"def @main(%x: Tensor[(32, 256), float32], %w: Tensor[(64, 256), float32],\n"
	"          %bn_var: Tensor[(64), float32]) {\n"
	"  %0 = nn.dense(%x, %w, units=64);\n"
	"  %1 = sqrt(add(%bn_var, 1e-05f));\n"
	"  divide(%0, %1)\n"
	"}\n";

/* The add on cuda:0, the multiply and relu on the cpu: %a is copied to
 * cuda:0 and the sum back, 96 bytes each way. */
static const char split_text[] =
	"def @main(%a: Tensor[(4, 6), float32], %b: Tensor[(4, 6), float32]) {\n"
	"  %0 = add(%a, %b);\n"
	"  %1 = on_device(%0, virtual_device=\"cuda:0\");\n"
	"  %2 = multiply(%1, %a);\n"
	"  %3 = on_device(%2, virtual_device=\"cpu:0\");\n"
	"  nn.relu(%3)\n"
	"}\n";

/* ---- inputs ------------------------------------------------------------------ */

/* Realistic inputs (the default): the data N(0, 1), the dense weight
 * N(0, 1/256), the variance 1 + |N(0, 0.01)|, in [1, 1.5) for 64 draws. */
static void test_inputs_realistic(void **state)
{
	Session s;
	RunInputs in;
	Stats x, w, v;
	(void)state;
	plan_text(&s, layer_text);
	assert_int_equal(s.settings.inputs, INPUTS_REALISTIC);
	build_inputs(&s, &in);
	assert_int_equal(in.count, 3);
	x = stats_of(input_named(&in, "x"));
	w = stats_of(input_named(&in, "w"));
	v = stats_of(input_named(&in, "bn_var"));
	assert_true(fabs(x.mean) < 0.05 && x.sd > 0.95 && x.sd < 1.05);
	assert_true(fabs(w.mean) < 0.01 && w.sd > 0.055 && w.sd < 0.07);
	assert_true(v.min >= 1.0 && v.max < 1.5);
	run_inputs_free(&in);
	session_free(&s);
}

/* `set inputs random`: uniform in [-1, 1) (sd 1/sqrt(3)), the variance
 * (named so) made non-negative; the same seed gives the same tensor. */
static void test_inputs_uniform(void **state)
{
	Session s;
	RunInputs in, again;
	Stats x, w, v;
	(void)state;
	plan_text(&s, layer_text);
	s.settings.inputs = INPUTS_RANDOM;
	build_inputs(&s, &in);
	x = stats_of(input_named(&in, "x"));
	w = stats_of(input_named(&in, "w"));
	v = stats_of(input_named(&in, "bn_var"));
	assert_true(x.min >= -1 && x.max < 1 && x.sd > 0.55 && x.sd < 0.61);
	assert_true(w.min < -0.9 && w.max > 0.9);
	assert_true(v.min >= 0 && v.max < 1 && v.mean < 0.7);
	assert_true(run_input_is_variance("bn0_moving_var") &&
		    run_input_is_variance("x_variance") && !run_input_is_variance("w"));
	build_inputs(&s, &again);
	for (size_t k = 0; k < in.count; k++)
		assert_memory_equal(in.arrays[k].data, again.arrays[k].data, in.arrays[k].nbytes);
	run_inputs_free(&again);
	run_inputs_free(&in);
	session_free(&s);
}

/* A `?` dimension needs a shape, which must agree with the static ones;
 * the module is made static for it, and runs. */
static void test_inputs_shape_and_specialize(void **state)
{
	static const char text[] = "def @main(%x: Tensor[(?, 4), float32]) {\n"
				   "  nn.relu(%x)\n"
				   "}\n";
	Session s;
	RunInputs in;
	RunInputSpec spec;
	DiagList diags;
	IrModule *m;
	ExecResult result;
	ExecOptions o;
	(void)state;
	plan_text(&s, text);
	diag_init(&diags);
	assert_true(run_inputs_start(&s, session_current(&s), &in, &diags));
	run_input_spec_random(&spec, 0);
	assert_false(run_inputs_make(&s, &in, 0, &spec, &diags));
	assert_non_null(strstr(diags.items[0].message, "unknown dimensions"));
	diag_clear(&diags);
	spec.has_shape = true;
	spec.ndim = 2;
	spec.shape[0] = 3;
	spec.shape[1] = 5;
	assert_false(run_inputs_make(&s, &in, 0, &spec, &diags));
	assert_non_null(strstr(diags.items[0].message, "fixes it at 4"));
	diag_clear(&diags);
	spec.shape[1] = 4;
	assert_true(run_inputs_make(&s, &in, 0, &spec, &diags));
	run_inputs_finish(&s, &in);
	m = run_specialize(session_current(&s), in.arrays, in.count, &diags);
	assert_non_null(m);
	assert_false(plan_has_unknown_dims(m));
	o = run_options(&s, false, false);
	run_or_fail(&s, m, &o, &in, &result);
	assert_int_equal(result.noutputs, 1);
	assert_int_equal(result.outputs[0].ndim, 2);
	assert_int_equal(result.outputs[0].shape[0], 3);
	exec_result_free(&result);
	ir_module_free(m);
	diag_free(&diags);
	run_inputs_free(&in);
	session_free(&s);
}

/* ---- runs -------------------------------------------------------------------- */

/* The planned run puts the add on the emulated cuda:0 and returns from the
 * cpu; the reference runs everything on the cpu; the values agree. */
static void test_run_cpu_and_emulated(void **state)
{
	Session s;
	RunInputs in;
	ExecResult planned, reference;
	ExecOptions po, ro;
	bool emulated = false;
	(void)state;
	plan_for_runs(&s, split_text, &in, &ro, &po);
	run_or_fail(&s, session_current(&s), &po, &in, &planned);
	run_or_fail(&s, session_current(&s), &ro, &in, &reference);
	assert_int_equal(planned.noutputs, 1);
	assert_int_equal(planned.output_devices[0], 0); /* cpu:0 */
	for (size_t i = 0; i < planned.profile.ndevices; i++)
		emulated |= planned.profile.devices[i].device == 1 &&
			    strcmp(planned.profile.devices[i].backend, "emulated-cuda") == 0;
	assert_true(emulated);
	for (size_t i = 0; i < reference.profile.ndevices; i++)
		assert_string_equal(reference.profile.devices[i].backend, "cpu");
	assert_memory_equal(planned.outputs[0].data, reference.outputs[0].data,
			    planned.outputs[0].nbytes);
	exec_result_free(&planned);
	exec_result_free(&reference);
	run_inputs_free(&in);
	session_free(&s);
}

/* With room for nothing but results and inputs, the add and multiply are
 * dropped and counted; the result and both inputs are kept. */
static void test_values_within_budget(void **state)
{
	Session s;
	RunInputs in;
	RunValues *keeper;
	RunValuesReport report;
	ExecResult result;
	ExecOptions o;
	DiagList diags;
	(void)state;
	plan_text(&s, split_text);
	build_inputs(&s, &in);
	diag_init(&diags);
	keeper = run_values_new(&s, session_current(&s), NULL, 1, &diags);
	assert_non_null(keeper);
	o = run_options(&s, false, false);
	o.observe = run_values_observe;
	o.observe_context = keeper;
	run_or_fail(&s, session_current(&s), &o, &in, &result);
	run_values_finish(keeper, in.arrays, in.count, true, &report);
	assert_int_equal(report.offered, 3);
	assert_int_equal(report.dropped, 2);
	assert_int_equal(s.values.count, 3); /* the relu's result, %a, %b */
	assert_int_equal(s.values.items[0].kind, VALUE_KEPT_RESULT);
	assert_int_equal(s.values.items[1].kind, VALUE_KEPT_INPUT);
	assert_null(in.arrays[0].data); /* moved into the session */
	/* a budget for everything keeps everything */
	keeper = run_values_new(&s, session_current(&s), NULL, 1 << 20, &diags);
	exec_result_free(&result);
	run_inputs_free(&in);
	build_inputs(&s, &in);
	o.observe_context = keeper;
	run_or_fail(&s, session_current(&s), &o, &in, &result);
	run_values_finish(keeper, in.arrays, in.count, true, &report);
	assert_int_equal(report.dropped, 0);
	assert_int_equal(s.values.count, 5);
	assert_int_equal(diags.count, 0);
	diag_free(&diags);
	exec_result_free(&result);
	run_inputs_free(&in);
	session_free(&s);
}

/* ---- compare ----------------------------------------------------------------- */

/* Two runs agree (PASS); a result moved by 1e-3 fails tolerance 1e-5 and
 * passes 1e-2. */
static void test_compare_tolerance(void **state)
{
	Session s;
	RunInputs in;
	ExecResult got, want;
	ExecOptions po, ro;
	RunComparison c;
	RunEachCounts none = {0, 0};
	float *value;
	(void)state;
	plan_for_runs(&s, split_text, &in, &ro, &po);
	run_or_fail(&s, session_current(&s), &po, &in, &got);
	run_or_fail(&s, session_current(&s), &ro, &in, &want);
	run_compare_results(session_current(&s), &got, &want, 1e-5, false, none, &c);
	assert_int_equal(c.verdict, RUN_PASS);
	assert_int_equal(c.count, 1);
	assert_true(c.checks[0].max_abs == 0);
	run_comparison_free(&c);
	value = (float *)got.outputs[0].data;
	value[3] = ((float *)want.outputs[0].data)[3] + 1e-3f;
	run_compare_results(session_current(&s), &got, &want, 1e-5, false, none, &c);
	assert_int_equal(c.verdict, RUN_FAIL_RESULTS);
	assert_int_equal(c.failed, 1);
	assert_true(c.checks[0].differs && fabs(c.checks[0].max_abs - 1e-3) < 1e-5);
	run_comparison_free(&c);
	run_compare_results(session_current(&s), &got, &want, 1e-2, false, none, &c);
	assert_int_equal(c.verdict, RUN_PASS);
	run_comparison_free(&c);
	exec_result_free(&got);
	exec_result_free(&want);
	run_inputs_free(&in);
	session_free(&s);
}

/* A NaN in the reference: against a number it differs; against a NaN it
 * fails unless --allow-nan, which passes it. */
static void test_compare_nan(void **state)
{
	Session s;
	RunInputs in;
	ExecResult got, want;
	ExecOptions o;
	RunComparison c;
	RunEachCounts none = {0, 0};
	(void)state;
	plan_text(&s, split_text);
	build_inputs(&s, &in);
	o = run_options(&s, false, false);
	run_or_fail(&s, session_current(&s), &o, &in, &got);
	run_or_fail(&s, session_current(&s), &o, &in, &want);
	((float *)want.outputs[0].data)[0] = NAN;
	run_compare_results(session_current(&s), &got, &want, 1e-5, true, none, &c);
	assert_int_equal(c.verdict, RUN_FAIL_RESULTS);
	assert_int_equal(c.nans, 1);
	run_comparison_free(&c);
	((float *)got.outputs[0].data)[0] = NAN;
	run_compare_results(session_current(&s), &got, &want, 1e-5, false, none, &c);
	assert_int_equal(c.verdict, RUN_FAIL_NONFINITE);
	assert_int_equal(c.nonfinite, 1);
	assert_false(c.checks[0].differs);
	run_comparison_free(&c);
	run_compare_results(session_current(&s), &got, &want, 1e-5, true, none, &c);
	assert_int_equal(c.verdict, RUN_PASS);
	run_comparison_free(&c);
	exec_result_free(&got);
	exec_result_free(&want);
	run_inputs_free(&in);
	session_free(&s);
}

/* 0 / 0 is NaN: compare --each names the divide as the first value whose
 * reference is not finite (the add after it is the second), and allowed
 * they count for nothing. */
static void test_compare_each_first_nonfinite(void **state)
{
	static const char text[] =
		"def @main(%a: Tensor[(2, 3), float32], %b: Tensor[(2, 3), float32]) {\n"
		"  %0 = multiply(%a, 0f);\n"
		"  %1 = divide(%0, %0);\n"
		"  %2 = on_device(%1, virtual_device=\"cuda:0\");\n"
		"  add(%2, %b)\n"
		"}\n";
	Session s;
	RunInputs in;
	ExecResult got, want;
	ExecOptions po, ro;
	RunEachSummary sum;
	RunEach *each;
	RunEachOperand operand;
	StrBuf name;
	(void)state;
	plan_text(&s, text);
	build_inputs(&s, &in);
	/* allow NaN or not; the planned values owned by the observer or lent
	 * (observe_borrows: the cpu's compared where they are); the reference's
	 * owned or lent (copied into the tracker's chunks) */
	for (int mode = 0; mode < 8; mode++) {
		int allow = mode & 1;
		each = run_each_new(session_current(&s), session_current(&s), in.arrays, in.count,
				    1e-5, allow);
		ro = run_options(&s, true, false);
		po = run_options(&s, false, false);
		ro.observe =
			mode & 4 ? run_each_observe_reference_lent : run_each_observe_reference;
		ro.observe_borrows = (mode & 4) != 0;
		ro.observe_context = po.observe_context = each;
		po.observe = mode & 2 ? run_each_observe_planned_lent : run_each_observe_planned;
		po.observe_borrows = (mode & 2) != 0;
		run_or_fail(&s, session_current(&s), &ro, &in, &want);
		run_or_fail(&s, session_current(&s), &po, &in, &got);
		run_each_summarise(each, &sum);
		assert_int_equal(sum.compared, 3);
		assert_int_equal(sum.counts.differ, 0);
		assert_int_equal(sum.with_nonfinite, 2);
		assert_int_equal(sum.counts.nonfinite, allow ? 0 : 2);
		assert_non_null(sum.first_nonfinite);
		assert_true(ir_is_op(sum.first_nonfinite->e, OP_DIVIDE));
		assert_int_equal(sum.first_nonfinite->ref_nans, 6);
		strbuf_init(&name);
		run_each_name(each, sum.first_nonfinite, &name);
		assert_string_equal(name.data, "%1");
		strbuf_reset(&name);
		/* its operand, the multiply, was finite: the divide made the NaN */
		run_each_operand(each, sum.first_nonfinite, 0, true, &operand, &name);
		assert_string_equal(name.data, "%0");
		assert_true(operand.known && operand.nans == 0 && operand.min <= operand.max);
		strbuf_free(&name);
		run_each_free(each);
		exec_result_free(&got);
		exec_result_free(&want);
	}
	run_inputs_free(&in);
	session_free(&s);
}

/* What a loop in order finds in v[0, n): the least and greatest finite
 * elements (the first of equals, so the sign of a zero is the first
 * zero's), the NaNs and the infinities. */
static void naive_range(const float *v, int64_t n, double *lo, double *hi, int64_t *nans,
			int64_t *infs)
{
	float l = INFINITY, h = -INFINITY;
	*nans = *infs = 0;
	for (int64_t i = 0; i < n; i++) {
		if (isnan(v[i]))
			++*nans;
		else if (isinf(v[i]))
			++*infs;
		else {
			l = v[i] < l ? v[i] : l;
			h = v[i] > h ? v[i] : h;
		}
	}
	*lo = l;
	*hi = h;
}

/* The reference values lent to the tracker (copied into its chunks, a
 * value larger than a chunk in one of its own) and the planned values
 * compared where they are: every value matches, and each record's range
 * and counts are a loop in order's over the value (NaN, infinities, zeros
 * of both signs planted at seeded places, the least and the greatest
 * being zeros), whatever the length's remainder of the lanes. */
static void test_compare_each_kept_values(void **state)
{
	static const int64_t sizes[] = {9000001, 4099, 17, 1};
	(void)state;
	for (size_t k = 0; k < DP_COUNT(sizes); k++) {
		char *text = xasprintf("def @main(%%a: Tensor[(%lld), float32]) {\n"
				       "  %%0 = negative(%%a);\n"
				       "  %%1 = negative(%%0);\n"
				       "  %%2 = negative(%%1);\n"
				       "  negative(%%2)\n"
				       "}\n",
				       (long long)sizes[k]);
		int64_t n = sizes[k];
		uint64_t seed = 0x9e3779b97f4a7c15ull * (k + 1);
		Session s;
		RunInputs in;
		ExecResult got, want;
		ExecOptions po, ro;
		RunEachSummary sum;
		const RunEachRecord *recs;
		size_t nrecs;
		RunEach *each;
		float *a;
		plan_text(&s, text);
		free(text);
		build_inputs(&s, &in);
		a = in.arrays[0].data;
		/* non-negative, with zeros of both signs: -a's greatest is a zero */
		for (int64_t i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			a[i] = fabsf(a[i]);
			switch ((seed >> 33) % 64) {
			case 0:
				a[i] = NAN;
				break;
			case 1:
				a[i] = INFINITY;
				break;
			case 2:
				a[i] = -INFINITY;
				break;
			case 3:
				a[i] = 0.0f;
				break;
			case 4:
				a[i] = -0.0f;
				break;
			default:
				break;
			}
		}
		each = run_each_new(session_current(&s), session_current(&s), in.arrays, in.count,
				    1e-5, true);
		ro = run_options(&s, true, false);
		po = run_options(&s, false, false);
		ro.observe = run_each_observe_reference_lent;
		ro.observe_borrows = po.observe_borrows = true;
		ro.observe_context = po.observe_context = each;
		po.observe = run_each_observe_planned_lent;
		run_or_fail(&s, session_current(&s), &ro, &in, &want);
		run_or_fail(&s, session_current(&s), &po, &in, &got);
		run_each_summarise(each, &sum);
		assert_int_equal(sum.compared, 4);
		assert_int_equal(sum.counts.differ, 0);
		recs = run_each_records(each, &nrecs);
		assert_int_equal(nrecs, 4);
		for (size_t r = 0; r < nrecs; r++) {
			/* value r is -a for r even, a for r odd */
			float *v = xmalloc((size_t)n * sizeof(float));
			double lo, hi;
			int64_t nans, infs;
			for (int64_t i = 0; i < n; i++)
				v[i] = r % 2 ? a[i] : -a[i];
			naive_range(v, n, &lo, &hi, &nans, &infs);
			assert_int_equal(recs[r].bad, 0);
			assert_int_equal(recs[r].ref_nans, nans);
			assert_int_equal(recs[r].ref_infs, infs);
			assert_true(recs[r].ref_min == lo && recs[r].min == lo);
			assert_true(recs[r].ref_max == hi && recs[r].max == hi);
			assert_int_equal(signbit(recs[r].ref_min), signbit(lo));
			assert_int_equal(signbit(recs[r].ref_max), signbit(hi));
			free(v);
		}
		run_each_free(each);
		exec_result_free(&got);
		exec_result_free(&want);
		run_inputs_free(&in);
		session_free(&s);
	}
}

/* A fault planted in the add on cuda:0 (DEVPLAN_FAULT, test builds
 * only): compare --each names the add as the first value past tolerance,
 * the multiply after it second, and the result differs. */
static void test_compare_each_first_past_tolerance(void **state)
{
#ifdef DEVPLAN_FAULT_INJECTION
	Session s;
	RunInputs in;
	ExecResult got, want;
	ExecOptions po, ro;
	RunEachSummary sum;
	RunComparison c;
	RunEach *each;
	DiagList diags;
	(void)state;
	plan_for_runs(&s, split_text, &in, &ro, &po);
	diag_init(&diags);
	setenv("DEVPLAN_FAULT", "kernel:add@cuda:0", 1);
	assert_true(run_fault(&s, &po, &diags));
	unsetenv("DEVPLAN_FAULT");
	each = run_each_new(session_current(&s), session_current(&s), in.arrays, in.count, 1e-5,
			    false);
	ro.observe = run_each_observe_reference;
	ro.observe_context = po.observe_context = each;
	po.observe = run_each_observe_planned_lent; /* cuda:0's values lent as copies */
	po.observe_borrows = true;
	run_or_fail(&s, session_current(&s), &ro, &in, &want);
	run_or_fail(&s, session_current(&s), &po, &in, &got);
	run_each_summarise(each, &sum);
	assert_non_null(sum.first);
	assert_true(ir_is_op(sum.first->e, OP_ADD));
	assert_int_equal(sum.first->device, 1);
	assert_int_equal(sum.first->bad, 1);
	assert_null(sum.first_nonfinite);
	run_compare_results(session_current(&s), &got, &want, 1e-5, false, sum.counts, &c);
	assert_true(c.verdict == RUN_FAIL_RESULTS || c.verdict == RUN_FAIL_VALUES);
	run_comparison_free(&c);
	run_each_free(each);
	exec_result_free(&got);
	exec_result_free(&want);
	diag_free(&diags);
	run_inputs_free(&in);
	session_free(&s);
#else
	skip();
#endif
}

/* ---- compare --each pipelined ------------------------------------------------- */

/* What one way of running compare --each's two runs gave. */
typedef struct EachOutcome {
	bool ok, reference_ok;
	char *reference_text, *planned_text; /* the messages of each run */
	RunEachRecord *records;
	size_t nrecords, unmatched, peak_held;
} EachOutcome;

static char *diags_text(const DiagList *d)
{
	StrBuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; i < d->count; i++)
		diag_format(&sb, &d->items[i]);
	return strbuf_detach(&sb);
}

/* The two runs of reference and planned with ro and po (a fault, a memory
 * limit), the reference run to its end first (pipelined false: as compare
 * --each ran them before run_each_runs) or run_each_runs' pipeline. */
static void each_outcome(Session *s, const IrModule *reference, const IrModule *planned,
			 const ExecOptions *ro0, const ExecOptions *po0, const RunInputs *in,
			 bool pipelined, EachOutcome *out)
{
	RunEach *each = run_each_new(reference, planned, in->arrays, in->count, 1e-5, false);
	ExecOptions ro = *ro0, po = *po0;
	ExecResult got, want;
	DiagList rd, pd;
	RunEachSummary sum;
	const RunEachRecord *records;
	memset(out, 0, sizeof *out);
	diag_init(&rd);
	diag_init(&pd);
	memset(&got, 0, sizeof got);
	if (pipelined) {
		out->ok = run_each_runs(s, each, reference, planned, &ro, &po, in->arrays,
					in->count, &got, &want, &rd, &pd, &out->reference_ok);
	} else {
		ro.observe = run_each_observe_reference_lent;
		po.observe = run_each_observe_planned_lent;
		ro.observe_borrows = po.observe_borrows = true;
		ro.observe_context = po.observe_context = each;
		out->reference_ok =
			run_module(s, reference, &ro, in->arrays, in->count, &want, &rd);
		out->ok = out->reference_ok &&
			  run_module(s, planned, &po, in->arrays, in->count, &got, &pd);
		if (out->reference_ok && !out->ok)
			exec_result_free(&want);
	}
	if (out->ok) {
		exec_result_free(&got);
		exec_result_free(&want);
	}
	out->reference_text = diags_text(&rd);
	out->planned_text = diags_text(&pd);
	records = run_each_records(each, &out->nrecords);
	out->records = xmalloc((out->nrecords + 1) * sizeof(RunEachRecord));
	if (out->nrecords)
		memcpy(out->records, records, out->nrecords * sizeof(RunEachRecord));
	run_each_summarise(each, &sum);
	out->unmatched = sum.unmatched;
	out->peak_held = run_each_peak_held(each);
	diag_free(&rd);
	diag_free(&pd);
	run_each_free(each);
}

static void each_outcome_free(EachOutcome *o)
{
	free(o->reference_text);
	free(o->planned_text);
	free(o->records);
}

/* The pipeline and the sequential runs agree: which run failed, the
 * messages that are printed (the reference's; the planned run's when the
 * reference ran to its end) and, when the reference ran to its end, every
 * record bit for bit. Returns how many records. */
static size_t expect_same_outcome(Session *s, const IrModule *reference, const IrModule *planned,
				  const ExecOptions *ro, const ExecOptions *po, const RunInputs *in)
{
	EachOutcome a, b;
	size_t n;
	each_outcome(s, reference, planned, ro, po, in, false, &a);
	each_outcome(s, reference, planned, ro, po, in, true, &b);
	assert_int_equal(a.ok, b.ok);
	assert_int_equal(a.reference_ok, b.reference_ok);
	assert_string_equal(a.reference_text, b.reference_text);
	if (a.reference_ok) {
		assert_string_equal(a.planned_text, b.planned_text);
		assert_int_equal(a.nrecords, b.nrecords);
		assert_int_equal(a.unmatched, b.unmatched);
		for (size_t i = 0; i < a.nrecords; i++)
			assert_memory_equal(&a.records[i], &b.records[i], sizeof(RunEachRecord));
	}
	n = a.nrecords;
	each_outcome_free(&a);
	each_outcome_free(&b);
	return n;
}

/* @main's two-field result tuple of m with its fields swapped: the
 * planned run then evaluates the second chain first. */
static void swap_result_fields(IrModule *m)
{
	Expr **by_id = ir_index_by_id(m);
	bool swapped = false;
	for (uint32_t id = 0; id < m->nexprs && !swapped; id++) {
		Expr *e = by_id[id];
		if (e && e->kind == EXPR_TUPLE && e->u.tuple.nfields == 2) {
			Expr *t = e->u.tuple.fields[0];
			e->u.tuple.fields[0] = e->u.tuple.fields[1];
			e->u.tuple.fields[1] = t;
			swapped = true;
		}
	}
	free(by_id);
	assert_true(swapped);
}

/* m with the device_copy that op's operand goes through removed: the
 * planned run fails at op (its operand in another device's memory). */
static void remove_copy_into(IrModule *m, OpKind op)
{
	Expr **by_id = ir_index_by_id(m);
	bool removed = false;
	for (uint32_t id = 0; id < m->nexprs && !removed; id++) {
		Expr *e = by_id[id];
		if (!e || e->kind != EXPR_CALL || e->u.call.op != op)
			continue;
		for (uint32_t i = 0; i < e->u.call.nargs && !removed; i++)
			if (ir_is_op(e->u.call.args[i], OP_DEVICE_COPY)) {
				e->u.call.args[i] = e->u.call.args[i]->u.call.args[0];
				removed = true;
			}
	}
	free(by_id);
	assert_true(removed);
}

/* compare --each's pipeline (run_each_runs: the reference run stepped as
 * the planned run asks for values) gives what running the reference first
 * gave: on a layer, on a split across devices, with a NaN, with the
 * planned run's order unlike the reference's, with a value past tolerance
 * (a planted fault), and when either run fails midway (the planned run at
 * a missing copy, the reference run out of its memory budget). */
static void test_compare_each_pipelined(void **state)
{
	static const char nan_text[] =
		"def @main(%a: Tensor[(2, 3), float32], %b: Tensor[(2, 3), float32]) {\n"
		"  %0 = multiply(%a, 0f);\n"
		"  %1 = divide(%0, %0);\n"
		"  %2 = on_device(%1, virtual_device=\"cuda:0\");\n"
		"  add(%2, %b)\n"
		"}\n";
	static const char chains_text[] =
		"def @main(%a: Tensor[(4, 6), float32], %b: Tensor[(4, 6), float32]) {\n"
		"  %0 = negative(%a);\n"
		"  %1 = exp(%0);\n"
		"  %2 = on_device(%1, virtual_device=\"cuda:0\");\n"
		"  %3 = tanh(%b);\n"
		"  %4 = sigmoid(%3);\n"
		"  (%2, %4)\n"
		"}\n";
	static const char midway_text[] =
		"def @main(%a: Tensor[(4, 6), float32], %b: Tensor[(4, 6), float32]) {\n"
		"  %0 = negative(%a);\n"
		"  %1 = exp(%0);\n"
		"  %2 = add(%1, %b);\n"
		"  %3 = on_device(%2, virtual_device=\"cuda:0\");\n"
		"  %4 = multiply(%3, %a);\n"
		"  %5 = on_device(%4, virtual_device=\"cpu:0\");\n"
		"  nn.relu(%5)\n"
		"}\n";
	/* 4 KiB of input, then 8, 16 and 32 KiB values: a budget of 40 KiB
	 * (the input counted twice, held and bound) runs out at the third */
	static const char growing_text[] = "def @main(%a: Tensor[(1024), float32]) {\n"
					   "  %0 = negative(%a);\n"
					   "  %1 = concatenate((%0, %0));\n"
					   "  %2 = concatenate((%1, %1));\n"
					   "  %3 = concatenate((%2, %2));\n"
					   "  negative(%3)\n"
					   "}\n";
	const char *const texts[] = {layer_text, split_text, nan_text, chains_text};
	Session s;
	RunInputs in;
	ExecOptions po, ro;
	IrModule *clone;
	(void)state;
	for (size_t k = 0; k < DP_COUNT(texts); k++) {
		plan_for_runs(&s, texts[k], &in, &ro, &po);
		assert_true(expect_same_outcome(&s, session_current(&s), session_current(&s), &ro,
						&po, &in) >= 3);
		if (texts[k] == chains_text) {
			clone = ir_module_clone(session_current(&s));
			swap_result_fields(clone);
			assert_int_equal(
				expect_same_outcome(&s, session_current(&s), clone, &ro, &po, &in),
				4);
			ir_module_free(clone);
		}
#ifdef DEVPLAN_FAULT_INJECTION
		if (texts[k] == split_text) {
			DiagList diags;
			diag_init(&diags);
			setenv("DEVPLAN_FAULT", "kernel:add@cuda:0", 1);
			assert_true(run_fault(&s, &po, &diags));
			unsetenv("DEVPLAN_FAULT");
			diag_free(&diags);
			expect_same_outcome(&s, session_current(&s), session_current(&s), &ro, &po,
					    &in);
		}
#endif
		run_inputs_free(&in);
		session_free(&s);
	}
	/* the planned run fails at the multiply (its operand left in cuda:0's
	 * memory), after three values compared */
	plan_for_runs(&s, midway_text, &in, &ro, &po);
	clone = ir_module_clone(session_current(&s));
	remove_copy_into(clone, OP_MULTIPLY);
	assert_int_equal(expect_same_outcome(&s, session_current(&s), clone, &ro, &po, &in), 3);
	{
		EachOutcome o;
		each_outcome(&s, session_current(&s), clone, &ro, &po, &in, true, &o);
		assert_true(o.reference_ok && !o.ok);
		assert_non_null(strstr(o.planned_text, "'multiply' runs on cpu:0 but"));
		each_outcome_free(&o);
	}
	ir_module_free(clone);
	run_inputs_free(&in);
	session_free(&s);
	/* the reference run fails at the third value: nothing compared */
	plan_for_runs(&s, growing_text, &in, &ro, &po);
	ro.memory_limit = 40 << 10;
	assert_int_equal(
		expect_same_outcome(&s, session_current(&s), session_current(&s), &ro, &po, &in),
		0);
	{
		EachOutcome o;
		each_outcome(&s, session_current(&s), session_current(&s), &ro, &po, &in, true, &o);
		assert_false(o.reference_ok);
		assert_non_null(strstr(o.reference_text, "memory limit for all of them together"));
		each_outcome_free(&o);
	}
	run_inputs_free(&in);
	session_free(&s);
}

/* On a long chain the pipeline keeps a value or two of the reference run
 * at a time (each is asked for as soon as it is made), where running the
 * reference first keeps them all. */
static void test_compare_each_holds_little(void **state)
{
	enum { LENGTH = 64, COUNT = 65536 };
	StrBuf text;
	Session s;
	RunInputs in;
	ExecOptions po, ro;
	EachOutcome seq, pipe;
	size_t value = COUNT * sizeof(float);
	(void)state;
	strbuf_init(&text);
	strbuf_printf(&text, "def @main(%%a: Tensor[(%d), float32]) {\n  %%0 = negative(%%a);\n",
		      COUNT);
	for (int i = 1; i < LENGTH; i++)
		strbuf_printf(&text, "  %%%d = %s(%%%d);\n", i, i % 2 ? "exp" : "negative", i - 1);
	strbuf_printf(&text, "  %%%d\n}\n", LENGTH - 1);
	plan_for_runs(&s, text.data, &in, &ro, &po);
	strbuf_free(&text);
	each_outcome(&s, session_current(&s), session_current(&s), &ro, &po, &in, false, &seq);
	each_outcome(&s, session_current(&s), session_current(&s), &ro, &po, &in, true, &pipe);
	assert_true(seq.ok && pipe.ok);
	assert_int_equal(pipe.nrecords, LENGTH);
	assert_true(seq.peak_held >= LENGTH / 2 * value);
	assert_true(pipe.peak_held <= 2 * value);
	each_outcome_free(&seq);
	each_outcome_free(&pipe);
	run_inputs_free(&in);
	session_free(&s);
}

/* ---- profile ----------------------------------------------------------------- */

/* A timed run: one row per op and device, longest busy time first, and the plan's
 * copies matched with the run's. */
static void test_profile_rows(void **state)
{
	Session s;
	RunInputs in;
	ExecResult result;
	ExecOptions o;
	RunProfileSummary sum;
	bool add = false, multiply = false, relu = false, emulated = false;
	(void)state;
	plan_text(&s, split_text);
	build_inputs(&s, &in);
	o = run_options(&s, false, true);
	run_or_fail(&s, session_current(&s), &o, &in, &result);
	run_profile_summarise(session_current(&s), &result.profile, &sum);
	assert_int_equal(sum.nops, 3);
	for (size_t i = 0; i < sum.nops; i++) {
		assert_int_equal(sum.ops[i].calls, 1);
		if (i)
			assert_true(sum.ops[i - 1].busy >= sum.ops[i].busy);
		add |= sum.ops[i].op == OP_ADD && sum.ops[i].device == 1;
		multiply |= sum.ops[i].op == OP_MULTIPLY && sum.ops[i].device == 0;
		relu |= sum.ops[i].op == OP_RELU && sum.ops[i].device == 0;
	}
	assert_true(add && multiply && relu);
	assert_int_equal(sum.ncopies, 2);
	for (size_t i = 0; i < sum.ncopies; i++) {
		assert_non_null(sum.copies[i].stat);
		assert_int_equal(sum.copies[i].stat->bytes, sum.copies[i].fact->bytes);
	}
	assert_int_equal(sum.predicted_bytes, 192);
	assert_int_equal(sum.copy_bytes, 192);
	assert_int_equal(sum.copy_count, 2);
	for (size_t i = 0; i < result.profile.ndevices; i++)
		emulated |= run_profile_emulated(&result.profile.devices[i]);
	assert_true(emulated);
	run_profile_free(&sum);
	exec_result_free(&result);
	run_inputs_free(&in);
	session_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inputs_realistic),
		cmocka_unit_test(test_inputs_uniform),
		cmocka_unit_test(test_inputs_shape_and_specialize),
		cmocka_unit_test(test_run_cpu_and_emulated),
		cmocka_unit_test(test_values_within_budget),
		cmocka_unit_test(test_compare_tolerance),
		cmocka_unit_test(test_compare_nan),
		cmocka_unit_test(test_compare_each_first_nonfinite),
		cmocka_unit_test(test_compare_each_kept_values),
		cmocka_unit_test(test_compare_each_first_past_tolerance),
		cmocka_unit_test(test_compare_each_pipelined),
		cmocka_unit_test(test_compare_each_holds_little),
		cmocka_unit_test(test_profile_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
