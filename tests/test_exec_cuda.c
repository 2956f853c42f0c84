/*
 * test_exec_cuda.c - the CUDA kernels against the CPU kernels, op by op.
 *
 * Each case is a one-op program planned with cuda:0 as the fallback, so
 * that its inputs are copied to the GPU, the op runs there and the result
 * comes back; it runs with `gpu require` (the real GPU, never the
 * emulator) and again with every op on the cpu, on the same seeded
 * inputs, and the results must agree: exactly for integers and data
 * movement, within 1e-4 * max(1, |cpu|) for floating-point arithmetic
 * (float16 within 2e-3). Then whole programs: the shared planning cases
 * (transfers both ways, pinned memory) and the small models.
 *
 * Without a GPU every test skips, visibly, and the program exits with 77,
 * which CTest reports as skipped. tests/CMakeLists.txt builds this file
 * only with the CUDA backend.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "exec.h"
#include "pipeline.h"
#include "session.h"

static bool gpu_present(void)
{
	char *why = NULL;
	bool ok = exec_gpu_available(&why);
	if (!ok) {
		printf("skipped: no usable GPU (%s)\n", why);
		free(why);
	}
	return ok;
}

#define REQUIRE_GPU()               \
	do {                        \
		if (!gpu_present()) \
			skip();     \
	} while (0)

/* tests/data, or where the environment's DEVPLAN_DATA_DIR says
 * (scripts/gpu-check's bundle carries its own copy). */
static const char *data_dir(void)
{
	const char *dir = getenv("DEVPLAN_DATA_DIR");
	return dir && *dir ? dir : DEVPLAN_DATA_DIR;
}

static void set(Session *s, const char *name, const char *value)
{
	bool reset;
	char *err = NULL;
	int i = session_setting_find(name);
	assert_true(i >= 0);
	if (!session_setting_set(s, i, value, &reset, &err)) {
		print_error("set %s %s: %s\n", name, value, err);
		fail();
	}
}

/* Loads and plans path in s with fallback cuda:0 (unless keep_settings). */
static void plan_file(Session *s, const char *path, bool keep_settings)
{
	if (!keep_settings)
		set(s, "fallback", "cuda:0");
	if (!session_load(s, path) || !session_step(s, pipeline_count)) {
		diag_print_all(stderr, &s->diags);
		fail();
	}
}

/* Random inputs for m, seeded by index; variances non-negative. */
static NpyArray *random_inputs(const IrModule *m, size_t *n)
{
	ExecParam *params;
	NpyArray *in;
	char *err = NULL;
	*n = exec_params(m, &params);
	in = xcalloc(*n + 1, sizeof(NpyArray));
	for (size_t i = 0; i < *n; i++) {
		const Type *t = params[i].type;
		size_t len = strlen(params[i].name);
		assert_true(npy_random(&in[i], t->u.tensor.dtype, t->u.tensor.ndim,
				       t->u.tensor.dims, i, &err));
		if (len >= 3 && strcmp(params[i].name + len - 3, "var") == 0 &&
		    in[i].dtype == DT_FLOAT32)
			for (int64_t k = 0; k < npy_array_count(&in[i]); k++)
				((float *)in[i].data)[k] = fabsf(((float *)in[i].data)[k]);
	}
	free(params);
	return in;
}

/* Runs the session's planned module on the GPU and its typed module on
 * the cpu; the results must agree within tol (0: exactly). */
static void agree(Session *s, const char *what, double tol)
{
	const IrModule *planned = session_current(s);
	const IrModule *reference = session_version(s, pipeline_find("infer"));
	size_t n;
	NpyArray *in = random_inputs(planned, &n);
	ExecOptions gpu = {.gpu = GPU_REQUIRE}, cpu = {.all_on_cpu = true};
	ExecResult got, want;
	DiagList diags;
	diag_init(&diags);
	if (!exec_run(planned, &s->devices, &gpu, in, n, &got, &diags) ||
	    !exec_run(reference, &s->devices, &cpu, in, n, &want, &diags)) {
		diag_print_all(stderr, &diags);
		print_error("%s: a run failed\n", what);
		fail();
	}
	assert_int_equal(got.noutputs, want.noutputs);
	for (size_t o = 0; o < got.noutputs; o++) {
		const NpyArray *g = &got.outputs[o], *w = &want.outputs[o];
		int64_t count = npy_array_count(w);
		double worst = 0;
		assert_int_equal(g->dtype, w->dtype);
		assert_int_equal(g->nbytes, w->nbytes);
		for (int64_t i = 0; i < count; i++) {
			double x = exec_element(g, i), y = exec_element(w, i);
			double limit =
				(g->dtype == DT_FLOAT16 ? 2e-3 : tol) * (fabs(y) > 1 ? fabs(y) : 1);
			bool ok = (isnan(x) && isnan(y)) || x == y || fabs(x - y) <= limit;
			if (fabs(x - y) > worst)
				worst = fabs(x - y);
			if (!ok) {
				print_error("%s: result %zu element %lld: cuda %.9g, cpu %.9g\n",
					    what, o, (long long)i, x, y);
				fail();
			}
		}
		printf("  %-60s max abs difference %.3g\n", what, worst);
	}
	exec_result_free(&got);
	exec_result_free(&want);
	for (size_t i = 0; i < n; i++)
		npy_array_free(&in[i]);
	free(in);
	diag_free(&diags);
}

/* One program `def @main(PARAMS) { BODY }` on the GPU against the cpu. */
static void check(const char *params, const char *body, double tol)
{
	char path[] = "/tmp/devplan_cuda_XXXXXX";
	int fd = mkstemp(path);
	char *text = xasprintf("def @main(%s) {\n  %s\n}\n", params, body);
	Session s;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	session_init(&s);
	plan_file(&s, path, false);
	agree(&s, body, tol);
	session_free(&s);
	unlink(path);
	free(text);
}

#define F32(shape) "Tensor[(" shape "), float32]"

static void test_elementwise(void **state)
{
	static const char *const binary[] = {"add",    "subtract", "multiply",
					     "divide", "maximum",  "minimum"};
	static const char *const dtypes[] = {"float32", "float64", "float16", "int32", "int64"};
	(void)state;
	REQUIRE_GPU();
	for (size_t o = 0; o < DP_COUNT(binary); o++)
		for (size_t d = 0; d < DP_COUNT(dtypes); d++) {
			char params[256], body[64];
			snprintf(params, sizeof params,
				 "%%a: Tensor[(4, 1, 5, 3), %s], %%b: Tensor[(6, 1, 3), %s]",
				 dtypes[d], dtypes[d]);
			snprintf(body, sizeof body, "%s(%%a, %%b)", binary[o]);
			check(params, body, 1e-6);
			snprintf(params, sizeof params,
				 "%%a: Tensor[(1000, 300), %s], %%b: Tensor[(1000, 300), %s]",
				 dtypes[d], dtypes[d]);
			check(params, body, 1e-6);
		}
	check("%x: " F32("64, 33"),
	      "(negative(%x), exp(%x), log(exp(%x)), sqrt(exp(%x)), "
	      "tanh(%x), sigmoid(%x), nn.relu(%x))",
	      1e-5);
	check("%x: Tensor[(70, 3), float64]", "(negative(%x), exp(%x), tanh(%x), sigmoid(%x))",
	      1e-12);
	check("%x: Tensor[(70, 3), float16]", "(exp(%x), tanh(%x), nn.relu(%x))", 2e-3);
	check("%x: Tensor[(9, 7), int32]",
	      "(negative(%x), nn.relu(%x), clip(%x, a_min=-3f, a_max=4f))", 0);
	check("%x: " F32("9, 7"),
	      "(clip(%x, a_min=-0.25f, a_max=0.5f), zeros_like(%x), ones_like(%x), "
	      "zeros(shape=[3, 4], dtype=\"int64\"), ones(shape=[5], dtype=\"float16\"))",
	      0);
	check("%x: " F32("2, 3, 4"),
	      "(cast(%x, dtype=\"int32\"), cast(%x, dtype=\"float16\"), "
	      "cast(%x, dtype=\"bool\"), cast(%x, dtype=\"float64\"), "
	      "cast(cast(%x, dtype=\"int64\"), dtype=\"float32\"))",
	      0);
	check("%x: Tensor[(2, 3, 4), int64]",
	      "(cast(%x, dtype=\"int32\"), cast(%x, dtype=\"bool\"), "
	      "cast(%x, dtype=\"float32\"))",
	      0);
	check("%x: " F32("2, 3, 4") ", %b: " F32("3") ", %c: " F32("4"),
	      "(nn.bias_add(%x, %b), nn.bias_add(%x, %c, axis=-1))", 1e-6);
}

/* The rest of the elementwise family: math, rounding, classes, logical,
 * bitwise, comparisons, where. */
static void test_elementwise_family(void **state)
{
	static const char *const binary[] = {
		"power", "mod",       "trunc_mod", "floor_mod",  "trunc_divide", "floor_divide",
		"equal", "not_equal", "less",      "less_equal", "greater",      "greater_equal"};
	static const char *const dtypes[] = {"float32", "float64", "float16", "int32", "int64"};
	(void)state;
	REQUIRE_GPU();
	for (size_t o = 0; o < DP_COUNT(binary); o++)
		for (size_t d = 0; d < DP_COUNT(dtypes); d++) {
			char params[256], body[64];
			snprintf(params, sizeof params,
				 "%%a: Tensor[(4, 1, 5, 3), %s], %%b: Tensor[(6, 1, 3), %s]",
				 dtypes[d], dtypes[d]);
			snprintf(body, sizeof body, "%s(%%a, %%b)", binary[o]);
			check(params, body, 1e-5);
		}
	check("%x: " F32("64, 33"),
	      "(erf(%x), fast_erf(%x), fast_exp(%x), fast_tanh(%x), rsqrt(exp(%x)), "
	      "log2(exp(%x)), log10(exp(%x)), sin(%x), cos(%x), tan(%x), asin(tanh(%x)), "
	      "acos(tanh(%x)), atan(%x), sinh(%x), cosh(%x), asinh(%x), acosh(exp(%x)), "
	      "atanh(tanh(%x)))",
	      1e-5);
	check("%x: Tensor[(70, 3), float16]", "(erf(%x), sin(%x), rsqrt(exp(%x)))", 2e-3);
	check("%x: " F32("9, 7"),
	      "(abs(%x), ceil(%x), floor(%x), round(%x), trunc(%x), sign(%x), isnan(log(%x)), "
	      "isinf(log(abs(%x))), isfinite(log(%x)))",
	      0);
	check("%i: Tensor[(9, 7), int32], %j: Tensor[(9, 7), int32]",
	      "(abs(%i), sign(%i), bitwise_and(%i, %j), bitwise_or(%i, %j), bitwise_xor(%i, %j), "
	      "left_shift(%i, %j), right_shift(%i, %j), bitwise_not(%i), isfinite(%i))",
	      0);
	check("%p: Tensor[(5, 4), bool], %q: Tensor[(4), bool]",
	      "(logical_and(%p, %q), logical_or(%p, %q), logical_xor(%p, %q), logical_not(%p), "
	      "bitwise_not(%p))",
	      0);
	check("%c: Tensor[(2, 1, 3), bool], %x: " F32("4, 3") ", %y: " F32(""), "where(%c, %x, %y)",
	      0);
	check("%c: Tensor[(2, 4, 3), int32], %x: Tensor[(4, 3), int64], %y: Tensor[(3), int64]",
	      "where(%c, %x, %y)", 0);
}

static void test_matrix_products(void **state)
{
	(void)state;
	REQUIRE_GPU();
	check("%x: " F32("2, 37, 130") ", %w: " F32("65, 130"), "nn.dense(%x, %w)", 1e-4);
	check("%x: Tensor[(5, 17), float64], %w: Tensor[(9, 17), float64]", "nn.dense(%x, %w)",
	      1e-10);
	check("%x: " F32("3, 4, 6") ", %y: " F32("3, 5, 6"),
	      "nn.batch_matmul(%x, %y, transpose_b=True)", 1e-4);
	check("%x: " F32("3, 6, 4") ", %y: " F32("1, 6, 5"),
	      "nn.batch_matmul(%x, %y, transpose_a=True, transpose_b=False)", 1e-4);
	check("%x: " F32("1, 4, 6") ", %y: " F32("3, 5, 6"),
	      "nn.batch_matmul(%x, %y, transpose_a=False, transpose_b=True)", 1e-4);
	check("%x: " F32("3, 6, 4") ", %y: " F32("3, 5, 6"),
	      "nn.batch_matmul(%x, %y, transpose_a=True, transpose_b=True)", 1e-4);
}

static void test_softmax_and_reductions(void **state)
{
	static const char *const reductions[] = {"sum",  "mean",   "max",   "min",
						 "prod", "argmax", "argmin"};
	static const char *const attrs[] = {"", ", axis=[1]", ", axis=[1], keepdims=True",
					    ", axis=[0, 2]", ", axis=[1, 3], exclude=True"};
	(void)state;
	REQUIRE_GPU();
	check("%x: " F32("2, 3, 40"), "(nn.softmax(%x), nn.softmax(%x, axis=1))", 1e-6);
	check("%x: " F32("1, 1000"), "nn.softmax(%x)", 1e-6);
	check("%x: " F32("2, 3, 40"), "(nn.log_softmax(%x), nn.log_softmax(%x, axis=1))", 1e-6);
	check("%x: " F32("4, 128, 768") ", %g: " F32("768") ", %b: " F32("768"),
	      "nn.layer_norm(%x, %g, %b, epsilon=1e-12f)", 1e-4);
	check("%x: " F32("2, 6, 9, 7") ", %g: " F32("6") ", %b: " F32("6") ", %m: " F32("6"),
	      "%0 = nn.batch_norm(%x, %g, %b, %m, exp(%m)); "
	      "(%0.0, %0.1, %0.2, nn.instance_norm(%x, %g, %b), "
	      "nn.group_norm(%x, %g, %b, num_groups=3), nn.layer_norm(%x, %m, %b, axis=1))",
	      1e-4);
	for (size_t r = 0; r < DP_COUNT(reductions); r++)
		for (size_t a = 0; a < DP_COUNT(attrs); a++) {
			char body[128];
			snprintf(body, sizeof body, "%s(%%x%s)", reductions[r], attrs[a]);
			check("%x: " F32("2, 3, 4, 5"), body, 1e-6);
			check("%x: Tensor[(2, 3, 4, 5), int32]", body, 0);
		}
	check("%p: Tensor[(3, 70, 5), bool]",
	      "(all(%p, axis=[1]), any(%p, axis=[1]), all(%p), any(%p, axis=[0, 2]))", 0);
	check("%x: " F32("4, 700, 3"),
	      "(variance(%x, mean(%x, axis=[1], keepdims=True), axis=[1]), "
	      "variance(%x, mean(%x, axis=[0, 2], keepdims=True), axis=[0, 2], unbiased=True), "
	      "argmax(%x, axis=[1], select_last_index=True), sum(%x, axis=[1]))",
	      1e-5);
	check("%x: " F32("3, 100000"), "(sum(%x, axis=[1]), max(%x), mean(%x, axis=[0]))", 1e-5);
}

static void test_data_movement(void **state)
{
	(void)state;
	REQUIRE_GPU();
	check("%x: " F32("2, 3, 4, 5"),
	      "(reshape(%x, newshape=[0, -1]), reshape(%x, newshape=[-3, -2]), "
	      "nn.batch_flatten(%x), "
	      "expand_dims(%x, axis=1, num_newaxis=2), squeeze(expand_dims(%x, axis=0)))",
	      0);
	check("%x: " F32("2, 3, 4, 5"),
	      "(transpose(%x), transpose(%x, axes=[0, 2, 3, 1]), transpose(%x, axes=[1, 0, 2, 3]))",
	      0);
	check("%x: Tensor[(2, 3, 4), int64]", "transpose(%x, axes=[2, 0, 1])", 0);
	/* the other dtypes move by their size: 1, 2, 4 and 8 bytes */
	check("%x: Tensor[(2, 3, 4), int8]", "transpose(%x, axes=[2, 0, 1])", 0);
	check("%x: Tensor[(3, 5), bfloat16], %y: Tensor[(3, 2), bfloat16]",
	      "(transpose(%x), concatenate((%x, %y), axis=1))", 0);
	check("%x: Tensor[(2, 6), uint16]",
	      "%0 = split(%x, indices_or_sections=2, axis=1); (%0.1, reshape(%0.0, newshape=[-1]))",
	      0);
	check("%x: Tensor[(4, 3), uint32], %k: Tensor[(10), uint64]",
	      "(transpose(%x), expand_dims(%k, axis=0))", 0);
	check("%a: " F32("2, 2, 2") ", %b: " F32("2, 3, 2") ", %c: " F32("2, 4, 2"),
	      "concatenate((%a, %b, %c), axis=1)", 0);
	check("%x: " F32("2, 9, 2"),
	      "%0 = split(%x, indices_or_sections=[2, 5], axis=1); (%0.0, %0.1, %0.2)", 0);
	check("%x: " F32("6, 4"),
	      "%0 = split(%x, indices_or_sections=3); concatenate((%0.2, %0.0))", 0);
	check("%d: " F32("2, 3, 4") ", %i: Tensor[(2, 2), int32]",
	      "(take(%d, %i, axis=1), take(%d, %i, axis=1, mode=\"wrap\"), take(%d, %i), "
	      "take(%d, %i, axis=-1, mode=\"fast\"), take(%d, %i, axis=1, batch_dims=1), "
	      "shape_of(%d), shape_of(%d, dtype=\"int64\"), copy(%d))",
	      0);
	check("%d: Tensor[(30, 8), float16], %i: Tensor[(5), int64]", "take(%d, %i, axis=0)", 0);
	check("%x: " F32("2, 3, 5, 7") ", %v: " F32(""),
	      "(nn.pad(%x, %v, pad_width=[[0, 0], [1, 0], [2, 1], [3, 3]]), "
	      "nn.pad(%x, %v, pad_width=[[0, 0], [0, 0], [2, 2], [1, 1]], pad_mode=\"edge\"), "
	      "nn.pad(%x, %v, pad_width=[[0, 0], [0, 0], [2, 2], [1, 1]], pad_mode=\"reflect\"), "
	      "strided_slice(%x, begin=[1, -1, 0], end=[2, 0, 5], strides=[1, -1, 2]), "
	      "strided_slice(%x, begin=[2], end=[6], axes=[3]), tile(%x, reps=[2, 1, 1, 1, 2]), "
	      "repeat(%x, repeats=3, axis=2), reverse(%x, axis=3))",
	      0);
	check("%x: Tensor[(3, 1), int8]", "broadcast_to(%x, shape=[2, 3, 4])", 0);
}

/* The gathers move words of every size; the scatters with duplicate
 * indices (random indices run from -8 to 7, so they clamp and repeat)
 * apply their updates in the CPU's order, except scatter_nd's atomic add;
 * sparse_to_dense too. */
static void test_gather_scatter(void **state)
{
	static const char *const reductions[] = {"update", "add", "mul", "mean", "min", "max"};
	(void)state;
	REQUIRE_GPU();
	check("%d: " F32("4, 5, 6") ", %i: Tensor[(4, 9, 6), int64], %j: Tensor[(4, 5, 2), int32]",
	      "(gather(%d, %i, axis=1), gather(%d, %j, axis=-1))", 0);
	check("%d: Tensor[(6, 7), uint16], %i: Tensor[(3, 7), int8]", "gather(%d, %i, axis=0)", 0);
	check("%d: " F32("5, 6, 7") ", %i: Tensor[(2, 3, 4), int64], %b: Tensor[(1, 5, 3), int32]",
	      "(gather_nd(%d, %i), gather_nd(%d, %b, batch_dims=1))", 0);
	check("%d: Tensor[(8, 4), float16], %i: Tensor[(1, 10), int32]", "gather_nd(%d, %i)", 0);
	for (size_t r = 0; r < DP_COUNT(reductions); r++) {
		char body[160];
		snprintf(body, sizeof body,
			 "(scatter_elements(%%d, %%i, %%u, axis=1, reduction=\"%s\"), "
			 "scatter_elements(%%e, %%j, %%v, reduction=\"%s\"))",
			 reductions[r], reductions[r]);
		check("%d: " F32("5, 6") ", %i: Tensor[(5, 4), int64], %u: " F32(
			      "5, 4") ", %e: Tensor[(7, 3, 2), int32], %j: Tensor[(9, 2, 2), "
				      "int32], "
				      "%v: Tensor[(9, 2, 2), int32]",
		      body, 1e-6);
		if (strcmp(reductions[r], "mean") == 0)
			continue;
		snprintf(body, sizeof body,
			 "(scatter_nd(%%d, %%i, %%u, mode=\"%s\"), scatter_nd(%%e, %%j, %%v, "
			 "mode=\"%s\"), scatter_nd(%%h, %%i, %%w, mode=\"%s\"))",
			 reductions[r], reductions[r], reductions[r]);
		check("%d: " F32("6, 5") ", %i: Tensor[(1, 20), int32], %u: " F32(
			      "20, 5") ", %e: Tensor[(4, 3), int64], %j: Tensor[(2, 50), int64], "
				       "%v: Tensor[(50), int64], %h: Tensor[(6, 5), float16], "
				       "%w: Tensor[(20, 5), float16]",
		      body, 1e-5);
	}
	check("%d: Tensor[(6, 5), float64], %i: Tensor[(2, 40), int32], %u: Tensor[(40), float64]",
	      "scatter_nd(%d, %i, %u, mode=\"add\")", 1e-12);
	check("%d: Tensor[(3, 4), bool], %i: Tensor[(3, 4), int32], %u: Tensor[(3, 4), bool]",
	      "(scatter_elements(%d, %i, %u, axis=1, reduction=\"max\"), "
	      "scatter_elements(%d, %i, %u))",
	      0);
	/* sparse_to_dense: random indices from -8 to 7 repeat (the last
	 * wins) and fall out of range (they match nothing) */
	check("%i: Tensor[(30), int64], %v: " F32(
		      "30") ", %t: Tensor[(40, 2), int32], "
			    "%s: Tensor[(40), float16], %w: float64, %k: Tensor[(6, 1), int8]",
	      "(sparse_to_dense(%i, %v, 1f, output_shape=[6, 5]), "
	      "sparse_to_dense(%t, %s, 0f16, output_shape=[7, 3]), "
	      "sparse_to_dense(%k, %w, 2f64, output_shape=[4, 3, 2]))",
	      0);
}

/* stack, layout_transform, nn.depth_to_space and nn.space_to_depth move
 * words; full, full_like, one_hot and arange convert their
 * scalars on the device. */
static void test_stack_and_create(void **state)
{
	(void)state;
	REQUIRE_GPU();
	check("%a: " F32("3, 4, 5") ", %b: " F32("3, 4, 5") ", %c: " F32("3, 4, 5"),
	      "(stack((%a, %b, %c)), stack((%a, %b, %c), axis=2), stack((%c, %a), axis=-1))", 0);
	check("%a: Tensor[(7, 3), int8], %b: Tensor[(7, 3), int8]", "stack((%a, %b), axis=1)", 0);
	check("%i: Tensor[(6, 5), int64], %on: " F32("") ", %off: int32",
	      "(one_hot(%i, %on, %off, depth=8, dtype=\"float32\"), "
	      "one_hot(%i, %on, %off, depth=4, axis=1, dtype=\"int64\"), "
	      "one_hot(%i, %on, %off, depth=3, axis=0, dtype=\"float16\"))",
	      0);
	check("%x: Tensor[(5, 6), float64], %v: " F32("") ", %w: int64",
	      "(full(%v, shape=[4, 9], dtype=\"int32\"), full(%w, shape=[3], dtype=\"float64\"), "
	      "full_like(%x, %v), full(%v, shape=[7, 2]), full(%v, shape=[2], dtype=\"bool\"))",
	      0);
	check("%x: " F32("2, 8, 5, 3") ", %y: Tensor[(3, 6, 4), float16]",
	      "%0 = layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NCHW4c\");\n"
	      "  (layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NHWC\"), %0,\n"
	      "   layout_transform(%0, src_layout=\"NCHW4c\", dst_layout=\"NHWC2c\"),\n"
	      "   layout_transform(%y, src_layout=\"NCW\", dst_layout=\"NWC2c\"))",
	      0);
	check("%x: " F32("2, 12, 3, 5") ", %y: Tensor[(2, 3, 5, 12), float16]",
	      "(nn.depth_to_space(%x, block_size=2), "
	      "nn.depth_to_space(%x, block_size=2, mode=\"CDR\"), "
	      "nn.space_to_depth(%x, block_size=3), "
	      "nn.depth_to_space(%y, block_size=2, layout=\"NHWC\", mode=\"CDR\"))",
	      0);
	check("%x: " F32("2"),
	      "(%x, arange(1f, 7f, 0.5f, start=1f, stop=7f, step=0.5f), "
	      "arange(0, 50, 3, start=0, stop=50, step=3, dtype=\"int32\"), "
	      "arange(3i64, -40i64, -2i64, start=3i64, stop=-40i64, step=-2i64, dtype=\"int64\"))",
	      1e-6);
}

/* nn.matmul on cuBLAS, the parametrised activations and dropout. */
/* The *_like and shape operators: casts, byte copies, index views, the
 * collapsing sums and ndarray_size. */
static void test_like_ops(void **state)
{
	(void)state;
	REQUIRE_GPU();
	check("%x: " F32("2, 3, 4") ", %i: Tensor[(5), int64], %h: Tensor[(1), float16]",
	      "(cast_like(%x, %i), cast_like(%x, %h), cast_like(%i, %x), "
	      "reinterpret(%x, dtype=\"int32\"), reinterpret(%i, dtype=\"float64\"))",
	      0);
	check("%x: " F32("2, 3, 4") ", %l: Tensor[(3, 2, 2), float64], %b: " F32(
		      "3, 1") ", %s: "
			      "Tensor[(1), int64], %k: Tensor[(3, 4, 2, 5), int8]",
	      "(reshape_like(%x, %l, lhs_begin=1), "
	      "contrib_reverse_reshape(%x, newshape=[-1, 0]), "
	      "broadcast_to_like(%b, %x), slice_like(%x, %l, axes=[1, 2]), slice_like(%k, %l), "
	      "collapse_sum_like(%x, %b), collapse_sum_to(%x, %s, shape=[4]), "
	      "ndarray_size(%x), ndarray_size(%k, dtype=\"float16\"), "
	      "ndarray_size(%l, dtype=\"int64\"))",
	      1e-5);
}

/* nn.fast_softmax, nn.l2_normalize and nn.lrn compute in double; the
 * arrange family moves words and reads its integer operands on the device. */
static void test_norm_and_arrange(void **state)
{
	(void)state;
	REQUIRE_GPU();
	check("%x: " F32("2, 5, 3, 4") ", %y: Tensor[(3, 4, 5), float64]",
	      "(nn.fast_softmax(%x, axis=1), nn.l2_normalize(%x, eps=0.001f, axis=[1, 3]), "
	      "nn.l2_normalize(%y, eps=1e-08f, axis=[2]), nn.lrn(%x, size=3, axis=1), "
	      "nn.lrn(%y, size=5, axis=2, bias=1.5f, alpha=0.2f, beta=0.5f))",
	      1e-5);
	check("%x: " F32("2, 3, 4") ", %i: Tensor[(3, 4), int8], %h: Tensor[(5), float16]",
	      "(nn.mirror_pad(%x, pad_width=[[1, 1], [2, 0], [0, 3]]), "
	      "nn.mirror_pad(%i, mode=\"REFLECT\", pad_width=[[2, 2], [1, 3]]), "
	      "nn.dilate(%x, strides=[1, 2, 3], dilation_value=-2f), "
	      "nn.dilate(%h, strides=[4], dilation_value=0.5f), "
	      "trilu(%x, 1), trilu(%i, -1, upper=False), trilu(%i, 2))",
	      0);
	check("%x: " F32("4, 3, 2") ", %l: Tensor[(3), int32], %r: Tensor[(3, 6), int64], "
				    "%n: Tensor[(3), int64], %d0: Tensor[(4, 2), float32], %d: "
				    "Tensor[(4, 2, 3), float32]",
	      "(sequence_mask(%x, %l, mask_value=-3f), sequence_mask(%r, %n, axis=1), "
	      "reverse_sequence(%r, %n), reverse_sequence(%x, %l, seq_axis=0, batch_axis=1), "
	      "matrix_set_diag(%x, %d0), matrix_set_diag(%x, %d, k1=-1, k2=0), "
	      "matrix_set_diag(%x, %d, k1=-1, k2=0, super_diag_right_align=False, "
	      "sub_diag_right_align=True))",
	      0);
	check("%a: Tensor[(3), int8], %b: Tensor[(4), int8], %c: Tensor[(2), int8], "
	      "%p: Tensor[(5), int64], %s: " F32("7") ", %v: " F32("2, 3"),
	      "(meshgrid((%a, %b, %c)), meshgrid((%a, %b), indexing=\"xy\"), "
	      "invert_permutation(argsort(%p, dtype=\"int64\")), "
	      "unravel_index(cast(abs(%p), dtype=\"int32\"), shape_of(%v)), "
	      "searchsorted(sort(%s), %v), searchsorted(sort(%s), %v, right=True, "
	      "dtype=\"int64\"), "
	      "searchsorted(sort(%v), %v))",
	      0);
}

/* qnn.quantize, qnn.dequantize and qnn.requantize: kernel_qnn.h's
 * arithmetic on both sides, exactly; scalar and per-channel parameters,
 * every rounding and compute dtype. */
static void test_qnn_quantize(void **state)
{
	(void)state;
	REQUIRE_GPU();
	check("%x: " F32("3, 4, 5") ", %s: Tensor[(4), float32], %z: Tensor[(4), int32]",
	      "(qnn.quantize(%x, 0.01f, -3, out_dtype=\"int8\"), qnn.quantize(%x, 0.003f, 7, "
	      "out_dtype=\"uint8\"), qnn.quantize(%x, 0.0001f, 0, out_dtype=\"int16\"), "
	      "qnn.quantize(%x, 1e-6f, 5, out_dtype=\"int32\"), qnn.quantize(%x, %s, %z, "
	      "axis=1, out_dtype=\"uint16\"))",
	      0);
	check("%a: Tensor[(3, 4, 5), int8], %b: Tensor[(6, 5), uint8], %c: Tensor[(7), int32], "
	      "%s: Tensor[(5), float32], %z: Tensor[(5), int32]",
	      "(qnn.dequantize(%a, 0.37f, -3), qnn.dequantize(%a, %s, %z), qnn.dequantize(%b, "
	      "%s, %z, axis=-1, out_dtype=\"float16\"), qnn.dequantize(%c, 0.001f, 12))",
	      0);
	check("%a: Tensor[(3, 4, 5), int32], %b: Tensor[(6, 5), int8], %s: Tensor[(4), "
	      "float32], %z: Tensor[(4), int32]",
	      "(qnn.requantize(%a, 0.37f, -3, 0.0123f, 5, out_dtype=\"int8\"), "
	      "qnn.requantize(%a, 0.37f, -3, 0.0123f, 5, rounding=\"TONEAREST\", "
	      "out_dtype=\"uint8\"), qnn.requantize(%a, 0.5f, 0, 1f, 0, out_dtype=\"int32\"), "
	      "qnn.requantize(%a, %s, %z, 0.25f, -7, axis=1, out_dtype=\"int16\"), "
	      "qnn.requantize(%a, %s, %z, 0.25f, -7, axis=1, rounding=\"TONEAREST\", "
	      "out_dtype=\"int16\"), qnn.requantize(%a, 0.37f, -3, 0.0123f, 5, "
	      "compute_dtype=\"float32\", out_dtype=\"int8\"), qnn.requantize(%a, %s, %z, "
	      "0.0123f, 5, axis=1, rounding=\"TONEAREST\", compute_dtype=\"float64\", "
	      "out_dtype=\"int32\"), qnn.requantize(%b, 3.5f, 2, 0.25f, 1, "
	      "out_dtype=\"int8\"))",
	      0);
}

/* qnn.add, qnn.subtract and qnn.mul: broadcasting, scalar and per-channel
 * parameters, parameters equal to the output's (a cast in TVM). */
static void test_qnn_binary(void **state)
{
	(void)state;
	REQUIRE_GPU();
	check("%a: Tensor[(3, 4, 5), int8], %b: Tensor[(4, 1), int8], %c: Tensor[(3, 4, 5), int8], "
	      "%s: Tensor[(4), float32], %z: Tensor[(4), int32], %u: Tensor[(6, 5), uint8]",
	      "(qnn.add(%a, %b, 0.37f, -3, 0.11f, 4, 0.2f, 1), qnn.subtract(%a, %b, 0.37f, -3, "
	      "0.11f, 4, 0.37f, -3), qnn.mul(%a, %b, 0.37f, -3, 0.11f, 4, 0.05f, 2), "
	      "qnn.add(%a, %c, %s, %z, 0.5f, 0, 0.5f, 0, lhs_axis=1), qnn.mul(%a, %c, %s, %z, %s, "
	      "%z, 0.25f, -1, lhs_axis=1, rhs_axis=1), qnn.subtract(%u, %u, 0.1f, 7, 0.3f, 0, "
	      "0.2f, 9))",
	      0);
}

/* qnn.dense (per-unit weight zero points, uint8 data), qnn.batch_matmul
 * (both transposes, a broadcast batch) and qnn.conv2d (padding, strides,
 * dilation, groups, per-channel zero points). */
static void test_qnn_products(void **state)
{
	(void)state;
	REQUIRE_GPU();
	check("%x: Tensor[(3, 7, 9), uint8], %w: Tensor[(5, 9), int8], %z: Tensor[(5), int32], "
	      "%a: Tensor[(2, 6, 4), int8], %b: Tensor[(1, 5, 6), uint8]",
	      "(qnn.dense(%x, %w, 3, %z, 0.5f, 0.25f, units=5, out_dtype=\"int32\"), "
	      "qnn.dense(%x, %w, -2, 7, 0.5f, 0.25f, units=5, out_dtype=\"int64\"), "
	      "qnn.batch_matmul(%a, %b, -3, 9, 1f, 1f, out_dtype=\"int32\", transpose_a=True, "
	      "transpose_b=True))",
	      0);
	check("%d: Tensor[(2, 4, 9, 8), uint8], %k: Tensor[(6, 2, 3, 3), int8], %z: Tensor[(6), "
	      "int32], %k1: Tensor[(5, 4, 2, 3), int8]",
	      "(qnn.conv2d(%d, %k, 5, %z, 1f, 1f, strides=[2, 1], padding=[1, 2, 0, 1], "
	      "dilation=[1, 2], groups=2, channels=6, kernel_size=[3, 3], out_dtype=\"int32\"), "
	      "qnn.conv2d(%d, %k1, -4, 3, 1f, 1f, channels=5, kernel_size=[2, 3], "
	      "out_dtype=\"int32\"))",
	      0);
}

/* The qnn unary operators: each float function in double on both sides,
 * rounded to float32 once; qnn.leaky_relu in integers. */
static void test_qnn_unary(void **state)
{
	(void)state;
	REQUIRE_GPU();
	check("%a: Tensor[(3, 4, 5), int8], %b: Tensor[(6, 5), uint8]",
	      "(qnn.tanh(%a, 0.05f, -3, 0.0078125f, 0), qnn.exp(%a, 0.02f, 1, 0.03f, -128), "
	      "qnn.sqrt(%b, 0.1f, 0, 0.02f, 0), qnn.rsqrt(%b, 0.1f, -1, 0.01f, 3), "
	      "qnn.erf(%a, 0.02f, 0, 0.0078125f, 0), qnn.sigmoid(%b, 0.04f, 128, 0.00390625f, 0), "
	      "qnn.hardswish(%a, 0.05f, 2, 0.04f, -20), qnn.log(%b, 0.5f, 0, 0.05f, 10), "
	      "qnn.abs(%a, 0.3f, 5, 0.2f, -7), qnn.leaky_relu(%a, 0.05f, -3, 0.04f, 2, "
	      "alpha=0.1f), qnn.leaky_relu(%b, 0.1f, 100, 0.1f, 100, alpha=0.5f))",
	      0);
}

/* fixed_point_multiply's int64 arithmetic and TVM's one-half shortcut;
 * nn.space_to_batch_nd and nn.batch_to_space_nd move words. */
static void test_fixed_point_and_space_batch(void **state)
{
	(void)state;
	REQUIRE_GPU();
	check("%x: Tensor[(7, 9), int32]",
	      "(fixed_point_multiply(%x, multiplier=1073741824, shift=-3), "
	      "fixed_point_multiply(%x, multiplier=1073741824, shift=4), "
	      "fixed_point_multiply(%x, multiplier=1518500250, shift=2), "
	      "fixed_point_multiply(%x, multiplier=-1518500250, shift=-5))",
	      0);
	check("%x: " F32("2, 4, 6, 3") ", %h: Tensor[(1, 3, 5), float16], %b: Tensor[(12, 2, 3), "
				       "int8]",
	      "(nn.space_to_batch_nd(%x, block_shape=[3, 2], paddings=[[1, 1], [2, 0]], "
	      "pad_value=-7f), nn.space_to_batch_nd(%h, block_shape=[2], paddings=[[0, 1]]), "
	      "nn.space_to_batch_nd(%h, block_shape=[2, 3], paddings=[[1, 0], [0, 1]], "
	      "pad_value=0.5f), nn.batch_to_space_nd(%x, block_shape=[2, 1], "
	      "crops=[[1, 2], [0, 3]]), nn.batch_to_space_nd(%b, block_shape=[3, 4], "
	      "crops=[[0, 1], [2, 3]]))",
	      0);
}

/* image.crop_and_resize: the taps of kernel_resize.h per box, the region
 * and image read on the device (random boxes reach past the image and
 * random indices past the batch, which read extrapolation_value). */
static void test_crop_and_resize(void **state)
{
	(void)state;
	REQUIRE_GPU();
	check("%x: " F32("3, 2, 5, 6") ", %b: " F32(
		      "4, 4") ", %i: Tensor[(4), int32], "
			      "%y: Tensor[(2, 4, 4, 3), float64], %c: Tensor[(3, 4), float64], "
			      "%j: Tensor[(3), int64]",
	      "(image.crop_and_resize(%x, %b, %i, crop_size=[3, 4]), "
	      "image.crop_and_resize(%x, %b, %i, crop_size=[4, 3], method=\"nearest_neighbor\", "
	      "extrapolation_value=0.5f), "
	      "image.crop_and_resize(%y, %c, %j, crop_size=[2, 5], layout=\"NHWC\"))",
	      1e-5);
}

static void test_matmul_and_activations(void **state)
{
	(void)state;
	REQUIRE_GPU();
	check("%a: " F32("3, 7, 33") ", %b: " F32("33, 20") ", %c: " F32("20, 7") ", %t: " F32(
		      "4, 33, 9"),
	      "(nn.matmul(%a, %b), nn.matmul(%t, %b, transpose_a=True), "
	      "nn.matmul(%a, %c, transpose_a=True, transpose_b=True))",
	      1e-4);
	check("%x: " F32("4, 6, 5") ", %al: " F32("6") ", %h: Tensor[(30), float16]",
	      "%0 = nn.dropout(%x);\n"
	      "  (nn.leaky_relu(%x, alpha=0.2f), nn.prelu(%x, %al), %0.0, %0.1, "
	      "nn.leaky_relu(%h))",
	      1e-6);
}

/* cumsum and cumprod (in the output's dtype), sort, argsort and topk: one
 * thread per line. */
static void test_scans(void **state)
{
	(void)state;
	REQUIRE_GPU();
	check("%x: " F32("5, 40, 3") ", %i: Tensor[(4, 9), int32]",
	      "(cumsum(%x, axis=1), cumsum(%x, exclusive=True), cumprod(%x, axis=-1), "
	      "cumsum(%i, axis=0, dtype=\"int64\"), cumprod(%i, axis=1, exclusive=True), "
	      "cumsum(%i, dtype=\"float64\"))",
	      1e-5);
	/* random int32 values repeat, so the ties' order is checked too */
	check("%x: " F32("6, 50") ", %i: Tensor[(7, 5, 3), int32], %h: Tensor[(9, 4), float16]",
	      "%0 = topk(%x, k=5);\n"
	      "  (sort(%x), argsort(%x, is_ascend=False), sort(%i, axis=1), argsort(%i, axis=0), "
	      "%0.0, %0.1, topk(%i, k=2, axis=1, is_ascend=True, ret_type=\"indices\", "
	      "dtype=\"int64\"), argsort(%h), topk(%h, k=0, ret_type=\"values\"))",
	      0);
}

static void test_convolution_and_pooling(void **state)
{
	(void)state;
	REQUIRE_GPU();
	check("%x: " F32("1, 3, 7, 7") ", %w: " F32("4, 3, 3, 3"),
	      "nn.conv2d(%x, %w, padding=[1, 1])", 1e-4);
	check("%x: " F32("2, 4, 9, 8") ", %w: " F32("6, 2, 3, 2"),
	      "nn.conv2d(%x, %w, strides=[2, 1], padding=[0, 1, 2, 0], dilation=[1, 2], groups=2)",
	      1e-4);
	check("%x: " F32("1, 6, 10, 10") ", %w: " F32("6, 1, 3, 3"),
	      "nn.conv2d(%x, %w, strides=[2, 2], padding=[1, 1], groups=6)", 1e-4);
	check("%x: " F32("2, 8, 5, 6") ", %w: " F32("4, 8, 1, 1"), "nn.conv2d(%x, %w)", 1e-4);
	check("%x: " F32("1, 64, 56, 56") ", %w: " F32("64, 64, 3, 3"),
	      "nn.conv2d(%x, %w, padding=[1, 1])", 1e-4);
	check("%x: " F32("1, 4, 4, 4") ", %w: " F32("4, 3, 4, 4"),
	      "nn.conv2d_transpose(%x, %w, strides=[2, 2], padding=[1, 1, 1, 1], "
	      "kernel_layout=\"IOHW\")",
	      1e-4);
	check("%x: " F32("2, 4, 3, 5") ", %w: " F32("4, 3, 3, 3"),
	      "nn.conv2d_transpose(%x, %w, strides=[2, 1], padding=[0, 1, 0, 1], "
	      "output_padding=[1, 0], "
	      "groups=2, kernel_layout=\"IOHW\")",
	      1e-4);
	check("%x: " F32("2, 3, 7, 8"),
	      "(nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1]), "
	      "nn.avg_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1]), "
	      "nn.avg_pool2d(%x, pool_size=[3, 2], strides=[2, 3], padding=[0, 1, 2, 0], "
	      "ceil_mode=True, "
	      "count_include_pad=True), nn.global_avg_pool2d(%x))",
	      1e-6);
}

/* The window operators of rank 1 and 3: the same kernels with unit depth
 * and height, so these check the extra dimension's indexing. */
static void test_convolution_and_pooling_nd(void **state)
{
	(void)state;
	REQUIRE_GPU();
	check("%x: " F32("2, 4, 11") ", %w: " F32("6, 2, 3"),
	      "nn.conv1d(%x, %w, strides=[2], padding=[1, 2], dilation=[2], groups=2)", 1e-4);
	check("%x: " F32("1, 4, 10") ", %w: " F32("4, 1, 5"),
	      "nn.conv1d(%x, %w, padding=[2, 2], groups=4)", 1e-4);
	check("%x: " F32("2, 4, 6, 5, 7") ", %w: " F32("2, 2, 2, 3, 2"),
	      "nn.conv3d(%x, %w, strides=[2, 1, 3], padding=[0, 1, 1, 1, 0, 2], "
	      "dilation=[1, 2, 1], groups=2)",
	      1e-4);
	check("%x: " F32("1, 8, 6, 6, 6") ", %w: " F32("8, 8, 1, 1, 1"), "nn.conv3d(%x, %w)", 1e-4);
	check("%x: " F32("2, 4, 5") ", %w: " F32("4, 3, 3"),
	      "nn.conv1d_transpose(%x, %w, strides=[2], padding=[1, 0], output_padding=[1], "
	      "groups=2)",
	      1e-4);
	check("%x: " F32("1, 2, 3, 4, 3") ", %w: " F32("2, 3, 2, 3, 2"),
	      "nn.conv3d_transpose(%x, %w, strides=[2, 1, 2], padding=[0, 1, 1, 0, 1, 0], "
	      "dilation=[1, 1, 2], output_padding=[1, 0, 0])",
	      1e-4);
	check("%x: " F32("2, 3, 10") ", %y: " F32("2, 3, 6, 5, 6"),
	      "(nn.max_pool1d(%x, pool_size=[2], strides=[3], padding=[1, 2], dilation=[2], "
	      "ceil_mode=True), "
	      "nn.avg_pool1d(%x, pool_size=[3], strides=[2], padding=[1], "
	      "count_include_pad=True), "
	      "nn.max_pool3d(%y, pool_size=[3, 2, 2], strides=[2, 1, 3], padding=[1, 0, 1, 1, 1, "
	      "0], dilation=[1, 2, 1], ceil_mode=True), "
	      "nn.avg_pool3d(%y, pool_size=[2, 2, 3], strides=[2, 2, 2], padding=[0, 1, 1, 1, 0, "
	      "1]))",
	      1e-6);
}

static void test_adaptive_pooling(void **state)
{
	(void)state;
	REQUIRE_GPU();
	check("%x: " F32("2, 3, 10") ", %y: " F32("2, 3, 7, 9") ", %z: " F32("1, 2, 5, 4, 7"),
	      "(nn.adaptive_avg_pool1d(%x, output_size=[3]), "
	      "nn.adaptive_max_pool1d(%x, output_size=[13]), "
	      "nn.adaptive_avg_pool2d(%y, output_size=[3, 4]), "
	      "nn.adaptive_max_pool2d(%y, output_size=[1, 1]), nn.global_max_pool2d(%y), "
	      "nn.adaptive_avg_pool3d(%z, output_size=[2, 3, 3]), "
	      "nn.adaptive_max_pool3d(%z, output_size=[3, 2, 4]))",
	      1e-6);
}

/* The resamplings: every method and coordinate transformation once, the
 * rounding methods on nearest, NHWC, the other ranks and upsampling. */
static void test_resize(void **state)
{
	(void)state;
	REQUIRE_GPU();
	check("%x: " F32("2, 3, 4, 6"),
	      "(image.resize2d(%x, size=[8, 9]), "
	      "image.resize2d(%x, size=[3, 4], method=\"cubic\", cubic_alpha=-0.75f, "
	      "cubic_exclude=1), "
	      "image.resize2d(%x, size=[7, 5], method=\"cubic\", "
	      "coordinate_transformation_mode=\"align_corners\"), "
	      "image.resize2d(%x, size=[8, 9], method=\"nearest_neighbor\", "
	      "coordinate_transformation_mode=\"asymmetric\", rounding_method=\"floor\"), "
	      "image.resize2d(%x, size=[5, 13], method=\"nearest_neighbor\", "
	      "coordinate_transformation_mode=\"tf_half_pixel_for_nn\", "
	      "rounding_method=\"round_prefer_ceil\"), "
	      "image.resize2d(%x, size=[5, 13], method=\"nearest_neighbor\", "
	      "coordinate_transformation_mode=\"pytorch_half_pixel\", "
	      "rounding_method=\"round_prefer_floor\"), "
	      "image.resize2d(%x, size=[6, 7], method=\"nearest_neighbor\", "
	      "coordinate_transformation_mode=\"half_pixel\", rounding_method=\"ceil\"), "
	      "image.resize2d(%x, size=[6, 7], roi=[-0.2f, 0.1f, 1.1f, 0.8f], "
	      "coordinate_transformation_mode=\"tf_crop_and_resize\", "
	      "extrapolation_value=-3.5f))",
	      1e-5);
	check("%x: " F32("2, 4, 6, 3") ", %y: " F32("1, 3, 7") ", %z: " F32("1, 2, 3, 4, 5"),
	      "(image.resize2d(%x, size=[9, 5], layout=\"NHWC\", method=\"cubic\"), "
	      "nn.upsampling(%x, scale_h=2f, scale_w=1.5f, layout=\"NHWC\", "
	      "method=\"bilinear\", align_corners=True), "
	      "image.resize1d(%y, size=[12], method=\"cubic\"), "
	      "image.resize3d(%z, size=[4, 2, 9], method=\"linear\", "
	      "coordinate_transformation_mode=\"align_corners\"), "
	      "nn.upsampling3d(%z, scale_d=2f, scale_h=2f, scale_w=2f, method=\"trilinear\"), "
	      "nn.upsampling3d(%z, scale_d=2f, scale_h=1f, scale_w=2f))",
	      1e-5);
}

/* Whole programs: the planning cases (cpu <-> gpu transfers) and the
 * smaller models, everything on the GPU. */
static void test_programs(void **state)
{
	static const char *const cases[] = {"shared_input_cpu_default",
					    "shared_input_gpu_default",
					    "left_add_on_cpu",
					    "let_on_cpu",
					    "global_call",
					    "model_lstm"};
	static const char *const models[] = {"mlp",
					     "lstm",
					     "dcgan",
					     "squeezenet",
					     "mobilenet",
					     "resnet18",
					     "realworld/rw_resnet50",
					     "realworld/rw_mobilenet_v3_large",
					     "realworld/rw_bert_base"};
	(void)state;
	REQUIRE_GPU();
	for (size_t i = 0; i < DP_COUNT(cases); i++) {
		char *dp = xasprintf("%s/cases/%s.dp", data_dir(), cases[i]);
		FILE *f = fopen(dp, "r");
		char line[512], module[512] = "";
		Session s;
		session_init(&s);
		assert_non_null(f);
		while (fgets(line, sizeof line, f)) {
			char name[64], value[256];
			if (sscanf(line, "set %63s %255s", name, value) == 2)
				set(&s, name, value);
			else if (sscanf(line, "load %255s", value) == 1)
				snprintf(module, sizeof module, "%s/cases/%s", data_dir(), value);
		}
		fclose(f);
		plan_file(&s, module, true);
		agree(&s, cases[i], 1e-4);
		session_free(&s);
		free(dp);
	}
	for (size_t i = 0; i < DP_COUNT(models); i++) {
		char *path = xasprintf("%s/models/%s.relay", data_dir(), models[i]);
		Session s;
		session_init(&s);
		plan_file(&s, path, false);
		agree(&s, models[i], 1e-3);
		session_free(&s);
		free(path);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elementwise),
		cmocka_unit_test(test_elementwise_family),
		cmocka_unit_test(test_matrix_products),
		cmocka_unit_test(test_softmax_and_reductions),
		cmocka_unit_test(test_data_movement),
		cmocka_unit_test(test_gather_scatter),
		cmocka_unit_test(test_stack_and_create),
		cmocka_unit_test(test_like_ops),
		cmocka_unit_test(test_norm_and_arrange),
		cmocka_unit_test(test_fixed_point_and_space_batch),
		cmocka_unit_test(test_qnn_quantize),
		cmocka_unit_test(test_qnn_binary),
		cmocka_unit_test(test_qnn_products),
		cmocka_unit_test(test_qnn_unary),
		cmocka_unit_test(test_crop_and_resize),
		cmocka_unit_test(test_matmul_and_activations),
		cmocka_unit_test(test_scans),
		cmocka_unit_test(test_convolution_and_pooling),
		cmocka_unit_test(test_convolution_and_pooling_nd),
		cmocka_unit_test(test_adaptive_pooling),
		cmocka_unit_test(test_resize),
		cmocka_unit_test(test_programs),
	};
	char *why = NULL;
	bool gpu;
	int failed;
	/* scripts/gpu-check sends stdout to a file, where it would be block
	 * buffered: a crash or its timeout would then lose the lines that say
	 * which check was running, and cmocka's results (stdout) would land
	 * out of order with the failures (stderr) */
	setvbuf(stdout, NULL, _IOLBF, 0);
	gpu = exec_gpu_available(&why);
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	free(why);
	/* every test skipped: tell CTest (SKIP_RETURN_CODE) */
	return failed == 0 && !gpu ? 77 : failed;
}
