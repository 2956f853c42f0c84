/*
 * test_kernels_cpu.c - every operator's CPU kernel against values computed
 * independently.
 *
 * Each test writes a one-op Relay program (`def @main(%x: T, ...) { op }`),
 * parses and infers it, and runs it with exec_run on the cpu; the result is
 * compared with small hand-checked fixtures or with naive reference loops
 * written here from the operator's definition (a 7-loop convolution, a
 * scatter for the transposed convolution, explicit padded windows for
 * pooling, triple-loop matrix products, ...), computed in double. Several
 * shapes per operator are chosen to hit the kernels' special paths
 * (broadcast patterns, depthwise and 1x1 convolutions, tiles, groups).
 */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "dtype_access.h"
#include "exec.h"
#include "infer.h"
#include "kernel_fastmath.h"
#include "kernel_resize.h"
#include "kernels.h"
#include "parse.h"

/* ---- running one program ------------------------------------------------- */

#define MAX_INPUTS 12

typedef struct Input {
	const char *name;
	NpyArray a;
} Input;

static Input inputs[MAX_INPUTS];
static size_t ninputs;
static ExecResult result;

static int setup(void **state)
{
	(void)state;
	ninputs = 0;
	memset(&result, 0, sizeof result);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < ninputs; i++)
		npy_array_free(&inputs[i].a);
	exec_result_free(&result);
	return 0;
}

static void type_text(StrBuf *sb, const NpyArray *a)
{
	strbuf_puts(sb, "Tensor[(");
	for (uint32_t i = 0; i < a->ndim; i++)
		strbuf_printf(sb, "%s%lld", i ? ", " : "", (long long)a->shape[i]);
	strbuf_printf(sb, "), %s]", dtype_name(a->dtype));
}

/* Adds an input %name of random values (seeded by its position). */
static NpyArray *in_random(const char *name, DType dt, uint32_t ndim, const int64_t *shape)
{
	char *err = NULL;
	Input *in = &inputs[ninputs];
	assert_true(ninputs < MAX_INPUTS);
	in->name = name;
	assert_true(npy_random(&in->a, dt, ndim, shape, 100 + ninputs, &err));
	ninputs++;
	return &in->a;
}

#define SHAPE(...)                                                                  \
	(uint32_t)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)), (int64_t[]) \
	{                                                                           \
		__VA_ARGS__                                                         \
	}
#define RAND(name, dt, ...) in_random(name, dt, SHAPE(__VA_ARGS__))

static NpyArray *in_values(const char *name, DType dt, uint32_t ndim, const int64_t *shape,
			   const double *values)
{
	NpyArray *a = in_random(name, dt, ndim, shape);
	int64_t n = npy_array_count(a);
	for (int64_t i = 0; i < n; i++) {
		/* integers wrap (-1 is a uint8's 255); uint64 values from 2^63 on
		 * and floats convert */
		if (dtype_is_integer(dt) && values[i] < 0x1p63)
			dtype_store_int(a->data, dt, i, (int64_t)values[i]);
		else
			dtype_store_double(a->data, dt, i, values[i]);
	}
	return a;
}

/* Runs `def @main(inputs) { body }` on the cpu; fills `result`. */
static void run_body(const char *body)
{
	StrBuf text;
	DiagList diags;
	DeviceTable devices;
	SourceFile *src;
	IrModule *m;
	NpyArray arrays[MAX_INPUTS];
	ExecOptions o = {.gpu = GPU_EMULATE, .all_on_cpu = true};
	strbuf_init(&text);
	strbuf_puts(&text, "def @main(");
	for (size_t i = 0; i < ninputs; i++) {
		strbuf_printf(&text, "%s%%%s: ", i ? ", " : "", inputs[i].name);
		type_text(&text, &inputs[i].a);
		arrays[i] = inputs[i].a;
	}
	strbuf_printf(&text, ") {\n  %s\n}\n", body);
	diag_init(&diags);
	devices_init_default(&devices);
	src = source_from_string("test.relay", text.data, text.len);
	m = parse_module(src, &devices, &diags);
	if (!m || !infer_module(m, &diags)) {
		diag_print_all(stderr, &diags);
		print_error("program:\n%s", text.data);
		fail();
	}
	exec_result_free(&result);
	if (!exec_run(m, &devices, &o, arrays, ninputs, &result, &diags)) {
		diag_print_all(stderr, &diags);
		print_error("program:\n%s", text.data);
		fail();
	}
	ir_module_free(m);
	source_release(src);
	devices_free(&devices);
	diag_free(&diags);
	strbuf_free(&text);
}

/* Runs a program that must fail with a message containing `want`. */
static void run_body_fails(const char *body, const char *want)
{
	StrBuf text, msgs;
	DiagList diags;
	DeviceTable devices;
	SourceFile *src;
	IrModule *m;
	NpyArray arrays[MAX_INPUTS];
	ExecOptions o = {.gpu = GPU_EMULATE, .all_on_cpu = true};
	ExecResult r;
	strbuf_init(&text);
	strbuf_init(&msgs);
	strbuf_puts(&text, "def @main(");
	for (size_t i = 0; i < ninputs; i++) {
		strbuf_printf(&text, "%s%%%s: ", i ? ", " : "", inputs[i].name);
		type_text(&text, &inputs[i].a);
		arrays[i] = inputs[i].a;
	}
	strbuf_printf(&text, ") {\n  %s\n}\n", body);
	diag_init(&diags);
	devices_init_default(&devices);
	src = source_from_string("test.relay", text.data, text.len);
	m = parse_module(src, &devices, &diags);
	assert_non_null(m);
	assert_true(infer_module(m, &diags));
	assert_false(exec_run(m, &devices, &o, arrays, ninputs, &r, &diags));
	exec_result_free(&r);
	for (size_t i = 0; i < diags.count; i++)
		diag_format(&msgs, &diags.items[i]);
	if (!strstr(msgs.data ? msgs.data : "", want)) {
		print_error("diagnostics:\n%s\nlack '%s'\n", msgs.data ? msgs.data : "", want);
		fail();
	}
	ir_module_free(m);
	source_release(src);
	devices_free(&devices);
	diag_free(&diags);
	strbuf_free(&text);
	strbuf_free(&msgs);
}

static double in_at(size_t i, int64_t k)
{
	return exec_element(&inputs[i].a, k);
}

static double out_at(size_t i, int64_t k)
{
	return exec_element(&result.outputs[i], k);
}

static void expect_shape(size_t out, uint32_t ndim, const int64_t *shape)
{
	assert_true(out < result.noutputs);
	assert_int_equal(result.outputs[out].ndim, ndim);
	for (uint32_t i = 0; i < ndim; i++)
		assert_int_equal(result.outputs[out].shape[i], shape[i]);
}
#define EXPECT_SHAPE(out, ...) expect_shape(out, SHAPE(__VA_ARGS__))

/* |got - want| <= tol * (1 + |want|) for every element. */
static void expect_values(size_t out, const double *want, int64_t n, double tol)
{
	assert_int_equal(npy_array_count(&result.outputs[out]), n);
	for (int64_t i = 0; i < n; i++) {
		double g = out_at(out, i);
		bool ok = isnan(want[i])
				  ? isnan(g)
				  : g == want[i] || fabs(g - want[i]) <= tol * (1 + fabs(want[i]));
		if (!ok) {
			print_error("element %lld: got %.9g, want %.9g\n", (long long)i, g,
				    want[i]);
			fail();
		}
	}
}

/* ---- elementwise --------------------------------------------------------- */

/* Naive numpy broadcasting: element `flat` of out (shape os, nd dims) read
 * from an operand of shape s (n dims). */
static int64_t broadcast_index(const int64_t *os, uint32_t nd, const int64_t *s, uint32_t n,
			       int64_t flat)
{
	int64_t idx = 0, stride = 1;
	for (uint32_t k = 0; k < nd; k++) {
		uint32_t axis = nd - 1 - k;
		int64_t coord = flat % os[axis];
		flat /= os[axis];
		if (k < n) {
			int64_t dim = s[n - 1 - k];
			idx += (dim == 1 ? 0 : coord) * stride;
			stride *= dim;
		}
	}
	return idx;
}

static double apply_binary(const char *op, double x, double y, bool integer)
{
	if (!strcmp(op, "add"))
		return x + y;
	if (!strcmp(op, "subtract"))
		return x - y;
	if (!strcmp(op, "multiply"))
		return x * y;
	if (!strcmp(op, "divide"))
		return integer ? (y == 0 ? 0 : trunc(x / y)) : x / y;
	if (!strcmp(op, "maximum"))
		return x > y ? x : y;
	return x < y ? x : y;
}

/* v (a whole number) reduced modulo 2^bits into dt's range, as C's
 * conversions to a narrower integer type keep the low bits. */
static double wrap_integer(double v, DType dt)
{
	double span = ldexp(1, (int)dtype_size(dt) * 8), r = fmod(v, span);
	if (r < 0)
		r += span;
	if (!dtype_is_unsigned(dt) && r >= span / 2)
		r -= span;
	return r;
}

static void check_binary(const char *op, DType dt, uint32_t na, const int64_t *sa, uint32_t nb,
			 const int64_t *sb, uint32_t no, const int64_t *so)
{
	char body[128];
	int64_t n = 1;
	double *want;
	bool integer = !dtype_is_float(dt);
	teardown(NULL);
	setup(NULL);
	in_random("a", dt, na, sa);
	in_random("b", dt, nb, sb);
	snprintf(body, sizeof body, "%s(%%a, %%b)", op);
	run_body(body);
	expect_shape(0, no, so);
	for (uint32_t i = 0; i < no; i++)
		n *= so[i];
	want = xmalloc((size_t)(n ? n : 1) * sizeof(double));
	for (int64_t i = 0; i < n; i++) {
		double x = in_at(0, broadcast_index(so, no, sa, na, i));
		double y = in_at(1, broadcast_index(so, no, sb, nb, i));
		want[i] = apply_binary(op, x, y, integer);
		if (dt == DT_FLOAT16)
			want[i] = dtype_half_to_float(dtype_float_to_half((float)want[i]));
		else if (dt == DT_BFLOAT16)
			want[i] = dtype_bfloat16_to_float(dtype_float_to_bfloat16((float)want[i]));
		else if (dtype_is_integer(dt) && dtype_size(dt) < 8)
			want[i] = wrap_integer(want[i], dt);
		else if (dt == DT_FLOAT32)
			want[i] = (float)want[i];
		else if (dt == DT_BOOL)
			want[i] = want[i] != 0;
	}
	expect_values(0, want, n, dt == DT_FLOAT16 ? 1e-3 : dt == DT_BFLOAT16 ? 1e-2 : 1e-6);
	free(want);
}

static void test_binary_broadcasting(void **state)
{
	static const char *const ops[] = {"add",    "subtract", "multiply",
					  "divide", "maximum",  "minimum"};
	static const DType dtypes[] = {DT_FLOAT32, DT_FLOAT64, DT_FLOAT16, DT_INT32, DT_INT64};
	(void)state;
	for (size_t o = 0; o < DP_COUNT(ops); o++) {
		for (size_t d = 0; d < DP_COUNT(dtypes); d++) {
			check_binary(ops[o], dtypes[d], SHAPE(2, 3), SHAPE(2, 3), SHAPE(2, 3));
			check_binary(ops[o], dtypes[d], SHAPE(2, 3), SHAPE(3), SHAPE(2, 3));
			check_binary(ops[o], dtypes[d], SHAPE(2, 1, 4), SHAPE(3, 1),
				     SHAPE(2, 3, 4));
			check_binary(ops[o], dtypes[d], SHAPE(1), SHAPE(4, 5), SHAPE(4, 5));
			check_binary(ops[o], dtypes[d], SHAPE(4, 1, 5, 1), SHAPE(1, 3, 1, 6),
				     SHAPE(4, 3, 5, 6));
		}
	}
	/* scalars and a large, threaded case */
	check_binary("add", DT_FLOAT32, 0, NULL, SHAPE(3, 2), SHAPE(3, 2));
	check_binary("multiply", DT_FLOAT32, SHAPE(300, 700), SHAPE(700), SHAPE(300, 700));
	check_binary("subtract", DT_FLOAT32, SHAPE(400, 1, 300), SHAPE(1, 5, 300),
		     SHAPE(400, 5, 300));
	check_binary("add", DT_BOOL, SHAPE(3, 4), SHAPE(4), SHAPE(3, 4));
}

/* The dtypes beyond float32 and int32: every binary op broadcasting, the
 * integers wrapping (unsigned subtraction goes round), bfloat16 computed
 * in float and rounded. */
static void test_binary_other_dtypes(void **state)
{
	static const char *const ops[] = {"add",    "subtract", "multiply",
					  "divide", "maximum",  "minimum"};
	static const DType dtypes[] = {DT_INT8,   DT_UINT8,  DT_INT16,
				       DT_UINT16, DT_UINT32, DT_BFLOAT16};
	(void)state;
	for (size_t o = 0; o < DP_COUNT(ops); o++)
		for (size_t d = 0; d < DP_COUNT(dtypes); d++) {
			check_binary(ops[o], dtypes[d], SHAPE(2, 3), SHAPE(2, 3), SHAPE(2, 3));
			check_binary(ops[o], dtypes[d], SHAPE(2, 1, 4), SHAPE(3, 1),
				     SHAPE(2, 3, 4));
		}
}

/* Hand-checked: int8 and uint8 wrap; uint64 divides and compares unsigned
 * above 2^63. */
static void test_integer_wrap_and_uint64(void **state)
{
	static const double a8[] = {100, -128, 127}, b8[] = {100, -1, 1};
	static const double u8a[] = {3, 255, 16}, u8b[] = {5, 1, 16};
	static const double big[] = {9223372036854777856.0, 7}, two[] = {2, 0};
	(void)state;
	in_values("a", DT_INT8, SHAPE(3), a8);
	in_values("b", DT_INT8, SHAPE(3), b8);
	in_values("c", DT_UINT8, SHAPE(3), u8a);
	in_values("d", DT_UINT8, SHAPE(3), u8b);
	in_values("e", DT_UINT64, SHAPE(2), big);
	in_values("f", DT_UINT64, SHAPE(2), two);
	run_body("(add(%a, %b), subtract(%c, %d), multiply(%c, %d), divide(%e, %f), "
		 "maximum(%e, %f), negative(%a), nn.relu(%e))");
	{
		static const int8_t sum8[] = {-56, 127, -128}, neg8[] = {-100, -128, -127};
		static const uint8_t diff[] = {254, 254, 0}, prod[] = {15, 255, 0};
		const uint64_t *q = result.outputs[3].data, *mx = result.outputs[4].data,
			       *relu = result.outputs[6].data;
		assert_memory_equal(result.outputs[0].data, sum8, 3);
		assert_memory_equal(result.outputs[1].data, diff, 3);
		assert_memory_equal(result.outputs[2].data, prod, 3);
		assert_true(q[0] == 4611686018427388928ull && q[1] == 0);
		assert_true(mx[0] == 9223372036854777856ull && mx[1] == 7);
		assert_memory_equal(result.outputs[5].data, neg8, 3);
		assert_true(relu[0] == 9223372036854777856ull && relu[1] == 7);
	}
}

/* Hand-checked: clip on uint64 compares unsigned above 2^63 and takes
 * bounds at and past 2^63 as TVM's topi.clip casts them, saturating. */
static void test_clip_uint64(void **state)
{
	static const double big[] = {9223372036854777856.0, 7, 18446744073709549568.0};
	(void)state;
	in_values("u", DT_UINT64, SHAPE(3), big);
	run_body("(clip(%u, a_min=10f, a_max=1.8446744073709552e+19f), "
		 "clip(%u, a_min=0f, a_max=9.223372036854776e+18f))");
	{
		const uint64_t *wide = result.outputs[0].data, *half = result.outputs[1].data;
		assert_true(wide[0] == 9223372036854777856ull && wide[1] == 10 &&
			    wide[2] == 18446744073709549568ull);
		assert_true(half[0] == 9223372036854775808ull && half[1] == 7 &&
			    half[2] == 9223372036854775808ull);
	}
}

/* Hand-checked: integer division truncates and never traps. */
static void test_integer_division(void **state)
{
	static const double a[] = {7, -7, 7, 5, -9223372036854775807.0 - 1};
	static const double b[] = {2, 2, 0, -1, -1};
	static const double want[] = {3, -3, 0, -5, -9223372036854775807.0 - 1};
	(void)state;
	in_values("a", DT_INT64, SHAPE(5), a);
	in_values("b", DT_INT64, SHAPE(5), b);
	run_body("divide(%a, %b)");
	for (int i = 0; i < 5; i++)
		assert_true(((int64_t *)result.outputs[0].data)[i] == (int64_t)want[i]);
}

static double apply_unary(const char *op, double x)
{
	if (!strcmp(op, "negative"))
		return -x;
	if (!strcmp(op, "exp"))
		return exp(x);
	if (!strcmp(op, "log"))
		return log(x);
	if (!strcmp(op, "sqrt"))
		return sqrt(x);
	if (!strcmp(op, "tanh"))
		return tanh(x);
	if (!strcmp(op, "sigmoid"))
		return 1 / (1 + exp(-x));
	return x > 0 ? x : 0;
}

static void test_unary(void **state)
{
	static const char *const ops[] = {"negative", "exp",     "log",    "sqrt",
					  "tanh",     "sigmoid", "nn.relu"};
	static const DType dtypes[] = {DT_FLOAT32, DT_FLOAT64, DT_FLOAT16};
	(void)state;
	for (size_t o = 0; o < DP_COUNT(ops); o++) {
		for (size_t d = 0; d < DP_COUNT(dtypes); d++) {
			char body[64];
			double want[200];
			NpyArray *x;
			teardown(NULL);
			setup(NULL);
			x = RAND("x", dtypes[d], 10, 20);
			if (!strcmp(ops[o], "log") || !strcmp(ops[o], "sqrt"))
				for (int i = 0; i < 200; i++) {
					if (dtypes[d] == DT_FLOAT32)
						((float *)x->data)[i] =
							fabsf(((float *)x->data)[i]) + 0.01f;
					else if (dtypes[d] == DT_FLOAT64)
						((double *)x->data)[i] =
							fabs(((double *)x->data)[i]) + 0.01;
					else
						((uint16_t *)x->data)[i] = dtype_float_to_half(
							fabsf(dtype_half_to_float(
								((uint16_t *)x->data)[i])) +
							0.01f);
				}
			snprintf(body, sizeof body, "%s(%%x)", ops[o]);
			run_body(body);
			for (int i = 0; i < 200; i++)
				want[i] = apply_unary(ops[o], in_at(0, i));
			expect_values(0, want, 200, dtypes[d] == DT_FLOAT16 ? 2e-3 : 1e-6);
		}
	}
	/* integer negative and relu */
	teardown(NULL);
	setup(NULL);
	{
		static const double x[] = {-3, 0, 4, -1};
		static const double neg[] = {3, 0, -4, 1}, relu[] = {0, 0, 4, 0};
		in_values("x", DT_INT32, SHAPE(4), x);
		run_body("(negative(%x), nn.relu(%x))");
		expect_values(0, neg, 4, 0);
		expect_values(1, relu, 4, 0);
	}
}

static void test_clip_and_fills(void **state)
{
	static const double x[] = {-2, -0.25, 0, 0.75, 3, NAN};
	static const double clipped[] = {-0.5, -0.25, 0, 0.5, 0.5, NAN};
	static const double zeros[] = {0, 0, 0, 0, 0, 0}, ones[] = {1, 1, 1, 1, 1, 1};
	static const double ix[] = {-7, 2, 9};
	static const double iclipped[] = {-1, 2, 5};
	(void)state;
	in_values("x", DT_FLOAT32, SHAPE(2, 3), x);
	in_values("i", DT_INT32, SHAPE(3), ix);
	run_body("(clip(%x, a_min=-0.5f, a_max=0.5f), zeros(shape=[2, 3], dtype=\"float32\"), "
		 "ones(shape=[3, 2], dtype=\"int64\"), zeros_like(%x), ones_like(%x), "
		 "clip(%i, a_min=-1.5f, a_max=5f))");
	assert_int_equal(result.noutputs, 6);
	expect_values(0, clipped, 6, 0);
	expect_values(1, zeros, 6, 0);
	EXPECT_SHAPE(2, 3, 2);
	assert_int_equal(result.outputs[2].dtype, DT_INT64);
	expect_values(2, ones, 6, 0);
	expect_values(3, zeros, 6, 0);
	expect_values(4, ones, 6, 0);
	expect_values(5, iclipped, 3, 0);
}

static void test_cast(void **state)
{
	static const double x[] = {-2.75, -0.5, 0, 0.5, 1.5, 3e10, -3e10, NAN};
	(void)state;
	in_values("x", DT_FLOAT32, SHAPE(8), x);
	run_body("(cast(%x, dtype=\"int32\"), cast(%x, dtype=\"int64\"), cast(%x, dtype=\"bool\"), "
		 "cast(%x, dtype=\"float16\"), cast(%x, dtype=\"float64\"), "
		 "cast(cast(%x, dtype=\"int32\"), dtype=\"float32\"))");
	{
		static const double i32[] = {-2, 0, 0, 0, 1, 2147483647.0, -2147483648.0, 0};
		static const double i64[] = {-2, 0, 0, 0, 1, (float)3e10, (float)-3e10, 0};
		static const double b[] = {1, 1, 0, 1, 1, 1, 1, 1};
		static const double f16[] = {-2.75, -0.5, 0, 0.5, 1.5, INFINITY, -INFINITY, NAN};
		static const double back[] = {-2, 0, 0, 0, 1, 2147483647.0, -2147483648.0, 0};
		expect_values(0, i32, 8, 0);
		expect_values(1, i64, 8, 0);
		expect_values(2, b, 8, 0);
		for (int i = 0; i < 5; i++)
			assert_true(out_at(3, i) == f16[i]);
		assert_true(isinf(out_at(3, 5)) && out_at(3, 5) > 0);
		assert_true(isnan(out_at(3, 7)));
		for (int i = 0; i < 7; i++)
			assert_true(out_at(4, i) == (float)x[i]);
		expect_values(5, back, 8, 1e-7);
	}
	teardown(NULL);
	setup(NULL);
	{
		static const double v[] = {-5, 0, 7};
		static const double b[] = {1, 0, 1};
		in_values("i", DT_INT64, SHAPE(3), v);
		run_body("(cast(%i, dtype=\"float16\"), cast(%i, dtype=\"bool\"), "
			 "cast(cast(%i, dtype=\"bool\"), dtype=\"int32\"))");
		expect_values(0, v, 3, 0);
		expect_values(1, b, 3, 0);
		expect_values(2, b, 3, 0);
	}
}

/* ---- matrix products ------------------------------------------------------- */

static void test_dense(void **state)
{
	static const int64_t cases[][4] = {
		{1, 3, 5, 4}, {2, 3, 7, 6}, {1, 1, 64, 10}, {1, 37, 130, 65}};
	(void)state;
	for (size_t c = 0; c < DP_COUNT(cases); c++) {
		int64_t b = cases[c][0], m = cases[c][1], k = cases[c][2], n = cases[c][3];
		double *want = xmalloc((size_t)(b * m * n) * sizeof(double));
		teardown(NULL);
		setup(NULL);
		RAND("x", DT_FLOAT32, b, m, k);
		RAND("w", DT_FLOAT32, n, k);
		run_body("nn.dense(%x, %w)");
		EXPECT_SHAPE(0, b, m, n);
		for (int64_t r = 0; r < b * m; r++)
			for (int64_t j = 0; j < n; j++) {
				double acc = 0;
				for (int64_t q = 0; q < k; q++)
					acc += in_at(0, r * k + q) * in_at(1, j * k + q);
				want[r * n + j] = acc;
			}
		expect_values(0, want, b * m * n, 1e-5);
		free(want);
	}
	/* float64 and a hand-checked fixture */
	teardown(NULL);
	setup(NULL);
	{
		static const double x[] = {1, 2, 3, 4, 5, 6};
		static const double w[] = {1, 0, -1, 2, 1, 0};
		static const double want[] = {-2, 4, -2, 13};
		in_values("x", DT_FLOAT64, SHAPE(2, 3), x);
		in_values("w", DT_FLOAT64, SHAPE(2, 3), w);
		run_body("nn.dense(%x, %w, units=2)");
		expect_values(0, want, 4, 0);
	}
}

static void test_batch_matmul(void **state)
{
	(void)state;
	for (int ta = 0; ta < 2; ta++)
		for (int tb = 0; tb < 2; tb++)
			for (int bcast = 0; bcast < 3; bcast++) {
				int64_t B = 3, M = 4, N = 5, K = 6;
				int64_t ba = bcast == 1 ? 1 : B, bb = bcast == 2 ? 1 : B;
				char body[128];
				double want[3 * 4 * 5];
				teardown(NULL);
				setup(NULL);
				if (ta)
					RAND("x", DT_FLOAT32, ba, K, M);
				else
					RAND("x", DT_FLOAT32, ba, M, K);
				if (tb)
					RAND("y", DT_FLOAT32, bb, N, K);
				else
					RAND("y", DT_FLOAT32, bb, K, N);
				snprintf(
					body, sizeof body,
					"nn.batch_matmul(%%x, %%y, transpose_a=%s, transpose_b=%s)",
					ta ? "True" : "False", tb ? "True" : "False");
				run_body(body);
				EXPECT_SHAPE(0, B, M, N);
				for (int64_t b = 0; b < B; b++)
					for (int64_t i = 0; i < M; i++)
						for (int64_t j = 0; j < N; j++) {
							double acc = 0;
							int64_t xb = ba == 1 ? 0 : b,
								yb = bb == 1 ? 0 : b;
							for (int64_t q = 0; q < K; q++) {
								double xv = in_at(
									0,
									xb * M * K +
										(ta ? q * M + i
										    : i * K + q));
								double yv = in_at(
									1,
									yb * N * K +
										(tb ? j * K + q
										    : q * N + j));
								acc += xv * yv;
							}
							want[(b * M + i) * N + j] = acc;
						}
				expect_values(0, want, B * M * N, 1e-5);
			}
}

static void test_bias_add(void **state)
{
	double want[2 * 3 * 4];
	(void)state;
	RAND("x", DT_FLOAT32, 2, 3, 4);
	RAND("b", DT_FLOAT32, 3);
	RAND("c", DT_FLOAT32, 4);
	run_body("(nn.bias_add(%x, %b), nn.bias_add(%x, %c, axis=-1))");
	for (int i = 0; i < 24; i++)
		want[i] = (float)(in_at(0, i) + in_at(1, i / 4 % 3));
	expect_values(0, want, 24, 0);
	for (int i = 0; i < 24; i++)
		want[i] = (float)(in_at(0, i) + in_at(2, i % 4));
	expect_values(1, want, 24, 0);
}

/* ---- softmax and reductions ---------------------------------------------------- */

static void test_softmax(void **state)
{
	double want[2 * 3 * 4];
	(void)state;
	RAND("x", DT_FLOAT32, 2, 3, 4);
	run_body("(nn.softmax(%x), nn.softmax(%x, axis=1))");
	for (int axis = 0; axis < 2; axis++) {
		int64_t len = axis == 0 ? 4 : 3, inner = axis == 0 ? 1 : 4;
		for (int i = 0; i < 24; i++) {
			int64_t base = i / (len * inner) * len * inner + i % inner;
			double mx = -INFINITY, sum = 0;
			for (int64_t k = 0; k < len; k++)
				mx = fmax(mx, in_at(0, base + k * inner));
			for (int64_t k = 0; k < len; k++)
				sum += exp(in_at(0, base + k * inner) - mx);
			want[i] = exp(in_at(0, i) - mx) / sum;
		}
		expect_values(axis, want, 24, 1e-6);
	}
	/* hand-checked: equal logits share the mass */
	teardown(NULL);
	setup(NULL);
	{
		static const double x[] = {1000, 1000, 0, 0};
		static const double want2[] = {0.5, 0.5, 0.5, 0.5};
		in_values("x", DT_FLOAT64, SHAPE(2, 2), x);
		run_body("nn.softmax(%x)");
		expect_values(0, want2, 4, 1e-12);
	}
}

/* The float32 softmax's vector path (lanes of 16, blocks of 128, a
 * polynomial exp) on rows that end inside a lane and inside a block, with
 * logits far apart (exp underflows to 0 for most of a row) and an
 * -infinity, against exp in double; float64 on the same rows. */
static void test_softmax_long_rows(void **state)
{
	static const int64_t lens[] = {1, 15, 16, 17, 127, 128, 129, 300, 1000};
	(void)state;
	for (int f64 = 0; f64 < 2; f64++)
		for (size_t l = 0; l < DP_COUNT(lens); l++) {
			int64_t len = lens[l], rows = 3, n = rows * len;
			double *x = xmalloc((size_t)n * sizeof(double));
			double *want = xmalloc((size_t)n * sizeof(double));
			teardown(NULL);
			setup(NULL);
			for (int64_t i = 0; i < n; i++) {
				/* row 0 spread over [-40, 40], row 1 over [-2, 2], row 2 over
				 * [-200, 100] with an -inf */
				double u = (double)((i * 7919) % 1009) / 1009.0;
				int64_t r = i / len;
				x[i] = r == 0 ? u * 80 - 40 : r == 1 ? u * 4 - 2 : u * 300 - 200;
				if (r == 2 && i % len == len / 2)
					x[i] = -INFINITY;
			}
			in_values("x", f64 ? DT_FLOAT64 : DT_FLOAT32, SHAPE(rows, len), x);
			run_body("nn.softmax(%x)");
			for (int64_t r = 0; r < rows; r++) {
				double mx = -INFINITY, sum = 0;
				for (int64_t k = 0; k < len; k++)
					mx = fmax(mx, in_at(0, r * len + k));
				for (int64_t k = 0; k < len; k++)
					sum += exp(in_at(0, r * len + k) - mx);
				for (int64_t k = 0; k < len; k++)
					want[r * len + k] = exp(in_at(0, r * len + k) - mx) / sum;
			}
			expect_values(0, want, n, f64 ? 1e-12 : 1e-6);
			free(x);
			free(want);
		}
}

/* float32 power with a constant exponent of one element: 2 and 0.5 take
 * x * x and a square root (LLVM's forms of powf(x, 2) and powf(x, 0.5)),
 * 3 the product in double; each against double pow rounded to float, on
 * a spread of magnitudes with zeros of both signs, infinities, NaN,
 * subnormals and values that overflow or underflow, the exponent given as
 * a constant and as a scalar parameter, x a vector and a scalar. 2 and
 * 0.5 give the correctly rounded value exactly; 3 within 1 ulp; another
 * exponent (1.5, powf's path) within 1 ulp too. */
static void test_power_constant(void **state)
{
	static const double special[] = {0.0,   -0.0,   INFINITY, -INFINITY, NAN,
					 1e-45, -1e-45, 1e-38,    1e20,      -1e20,
					 3e38,  1e-20,  -2.5,     1.0,       -1.0};
	static const double consts[] = {2.0, 0.5, 3.0, 1.5};
	enum { N = 4000 };
	double x[N];
	(void)state;
	for (int64_t i = 0; i < N; i++) {
		/* magnitudes 1e-45 .. 1e38, both signs */
		double u = (double)((i * 7919) % 4001) / 4001.0;
		x[i] = (i % 2 ? -1 : 1) * pow(10.0, -45 + 83 * u);
	}
	memcpy(x, special, sizeof special);
	for (size_t c = 0; c < DP_COUNT(consts); c++)
		for (int form = 0; form < 3; form++) {
			char body[96];
			int64_t n = form == 2 ? 1 : N;
			teardown(NULL);
			setup(NULL);
			if (form == 2) {
				/* a scalar x */
				in_values("x", DT_FLOAT32, 0, NULL,
					  &special[(c * 5) % DP_COUNT(special)]);
				snprintf(body, sizeof body, "power(%%x, %gf)", consts[c]);
			} else {
				in_values("x", DT_FLOAT32, SHAPE(N), x);
				if (form == 1) {
					in_values("c", DT_FLOAT32, 0, NULL, &consts[c]);
					snprintf(body, sizeof body, "power(%%x, %%c)");
				} else {
					snprintf(body, sizeof body, "power(%%x, %gf)", consts[c]);
				}
			}
			run_body(body);
			for (int64_t i = 0; i < n; i++) {
				double xi = form == 2 ? in_at(0, 0) : in_at(0, i);
				float want = (float)pow(xi, consts[c]);
				double got = out_at(0, i);
				bool exact = consts[c] == 2.0 || consts[c] == 0.5;
				bool ok = isnan(want) ? isnan(got)
					  : isinf(want) || want == 0
						  ? got == want && !signbit(got) == !signbit(want)
					  : exact ? got == want
						  : fabs(got - want) <=
							    ldexp(fabs(want), -23) + 0x1p-149;
				if (!ok) {
					print_error(
						"power(%.9g, %g): got %.9g, want %.9g (form %d)\n",
						xi, consts[c], got, (double)want, form);
					fail();
				}
			}
		}
}

/* The distance of got from want in units of float32's last place at want. */
static double ulps(double got, double want)
{
	int e;
	float w = (float)fabs(want);
	if (w < FLT_MIN)
		return fabs(got - want) / ldexp(1, -149);
	frexpf(w, &e);
	return fabs(got - want) / ldexp(1, e - 24);
}

/* kernel_tanhf, kernel_sigmoidf and kernel_erff (kernel_fastmath.h, the
 * float32 kernels of tanh, sigmoid and erf) against libm's double forms
 * on 4 million points of [-12, 12] and around both sides of their branch
 * points (0.625 for tanh, 1 for erf): within 1.5, 2 and 1.3 ulp (measured
 * on every 7th float of [-12, 12]: 1.32, 2.0; erf on every float: 1.29,
 * test_kernel_erff_sweep); NaN stays NaN,
 * infinities give +-1, 0 and 1, and the sign of zero is kept. */
static void test_kernel_fastmath(void **state)
{
	double worst[3] = {0, 0, 0};
	(void)state;
	for (int64_t i = 0; i <= 4000000; i++) {
		/* x over [-12, 12]; tanh and erf also at x / 8, around their
		 * branch points */
		float x = (float)(-12.0 + 24.0 * (double)i / 4000000.0), s = x / 8.0f;
		double got[5] = {kernel_tanhf(x), kernel_tanhf(s), kernel_sigmoidf(x),
				 kernel_erff(x), kernel_erff(s)};
		double want[5] = {tanh((double)x), tanh((double)s), 1.0 / (1.0 + exp(-(double)x)),
				  erf((double)x), erf((double)s)};
		for (int k = 0; k < 5; k++) {
			int f = k < 2 ? 0 : k == 2 ? 1 : 2;
			if (ulps(got[k], want[k]) > worst[f])
				worst[f] = ulps(got[k], want[k]);
		}
	}
	print_message("tanh %.2f ulp, sigmoid %.2f ulp, erf %.2f ulp\n", worst[0], worst[1],
		      worst[2]);
	assert_true(worst[0] <= 1.5);
	assert_true(worst[1] <= 2.0);
	assert_true(worst[2] <= 1.3);
	assert_true(isnan(kernel_tanhf(NAN)) && isnan(kernel_sigmoidf(NAN)) &&
		    isnan(kernel_erff(NAN)));
	assert_true(kernel_tanhf(INFINITY) == 1.0f && kernel_tanhf(-INFINITY) == -1.0f);
	assert_true(kernel_erff(INFINITY) == 1.0f && kernel_erff(-INFINITY) == -1.0f);
	assert_true(kernel_sigmoidf(INFINITY) == 1.0f && kernel_sigmoidf(-INFINITY) == 0.0f);
	assert_true(signbit(kernel_tanhf(-0.0f)) && signbit(kernel_erff(-0.0f)));
	assert_true(kernel_tanhf(0.0f) == 0.0f && kernel_erff(0.0f) == 0.0f);
}

/* kernel_expf (kernel_fastmath.h, softmax's exp) within 2 ulp of exp over
 * the normal range, 0 where exp is subnormal, infinity past the largest
 * float, NaN kept. */
static void test_kernel_expf(void **state)
{
	(void)state;
	for (int64_t i = 0; i <= 2000000; i++) {
		float x = (float)(-87.3 + 176.0 * (double)i / 2000000.0);
		double want = exp((double)x), got = kernel_expf(x);
		if (want > FLT_MAX) {
			assert_true(isinf(got) && got > 0);
			continue;
		}
		if (fabs(got - want) > 2.4e-7 * want) {
			print_error("kernel_expf(%.9g) = %.9g, exp = %.9g\n", (double)x, got, want);
			fail();
		}
	}
	assert_true(kernel_expf(0.0f) == 1.0f);
	assert_true(kernel_expf(-87.5f) == 0.0f);
	assert_true(kernel_expf(-INFINITY) == 0.0f);
	assert_true(isinf(kernel_expf(88.8f)) && isinf(kernel_expf(INFINITY)));
	assert_true(isnan(kernel_expf(NAN)) && isnan(kernel_expf(-NAN)));
	/* kernel_expf_nonpos: kernel_expf's bits on every 97th non-positive
	 * float from -0 to -NaN, and the special values */
	for (uint64_t b = 0x80000000u; b <= 0xffffffffu; b += 97) {
		uint32_t u = (uint32_t)b;
		float x, e, f;
		memcpy(&x, &u, sizeof x);
		e = kernel_expf(x);
		f = kernel_expf_nonpos(x);
		if (memcmp(&e, &f, sizeof e) != 0 && !(isnan(e) && isnan(f))) {
			print_error("kernel_expf_nonpos(%.9g) = %.9g, kernel_expf %.9g\n",
				    (double)x, (double)f, (double)e);
			fail();
		}
	}
	assert_true(kernel_expf_nonpos(0.0f) == 1.0f && kernel_expf_nonpos(-0.0f) == 1.0f);
	assert_true(kernel_expf_nonpos(-87.33654f) == kernel_expf(-87.33654f));
	assert_true(kernel_expf_nonpos(-INFINITY) == 0.0f && isnan(kernel_expf_nonpos(NAN)));
}

/* Naive reduction over the axes flagged in `reduce`. */
/* The reduction `op` of input 0 (shape, nd) over the axes marked in
 * `reduce`, by a naive walk; argmax and argmin give the first extreme's
 * flattened position among the reduced axes, variance the mean square
 * deviation from the row's own mean (over n - 1 when unbiased). */
static void reduce_reference(const char *op, const int64_t *shape, uint32_t nd, const int *reduce,
			     double *want, int64_t nout)
{
	int64_t n = 1;
	int64_t *counts = xcalloc((size_t)nout, sizeof(int64_t));
	double *best = xcalloc((size_t)nout, sizeof(double));
	double *sum = xcalloc((size_t)nout, sizeof(double));
	bool is_var = !strncmp(op, "variance", 8), unbiased = !strcmp(op, "variance_unbiased");
	for (uint32_t i = 0; i < nd; i++)
		n *= shape[i];
	for (int64_t o = 0; o < nout; o++)
		want[o] = !strcmp(op, "max")                          ? -INFINITY
			  : !strcmp(op, "min")                        ? INFINITY
			  : !strcmp(op, "prod") || !strcmp(op, "all") ? 1
								      : 0;
	for (int pass = 0; pass < (is_var ? 2 : 1); pass++)
		for (int64_t i = 0; i < n; i++) {
			int64_t rest = i, o = 0, mult = 1, r = 0, rmult = 1;
			double v = in_at(0, i);
			for (uint32_t a = nd; a-- > 0;) {
				int64_t coord = rest % shape[a];
				rest /= shape[a];
				if (!reduce[a]) {
					o += coord * mult;
					mult *= shape[a];
				} else {
					r += coord * rmult;
					rmult *= shape[a];
				}
			}
			if (is_var && pass == 0) {
				sum[o] += v;
				counts[o]++;
			} else if (is_var) {
				double m = sum[o] / (double)counts[o];
				want[o] += (v - m) * (v - m);
			} else if (!strcmp(op, "max")) {
				want[o] = fmax(want[o], v);
			} else if (!strcmp(op, "min")) {
				want[o] = fmin(want[o], v);
			} else if (!strcmp(op, "prod")) {
				want[o] *= v;
			} else if (!strcmp(op, "all")) {
				want[o] = want[o] && v != 0;
			} else if (!strcmp(op, "any")) {
				want[o] = want[o] || v != 0;
			} else if (!strcmp(op, "argmax") || !strcmp(op, "argmin")) {
				bool better = !strcmp(op, "argmax") ? v > best[o] : v < best[o];
				if (counts[o] == 0 || better) {
					best[o] = v;
					want[o] = (double)r;
				}
			} else {
				want[o] += v;
			}
			if (!is_var)
				counts[o]++;
		}
	for (int64_t o = 0; o < nout; o++) {
		if (!strcmp(op, "mean"))
			want[o] /= (double)counts[o];
		else if (is_var)
			want[o] /= (double)(counts[o] - (unbiased ? 1 : 0));
	}
	free(counts);
	free(best);
	free(sum);
}

static void test_reductions(void **state)
{
	static const char *const ops[] = {"sum", "mean", "max", "min", "prod", "argmax", "argmin"};
	static const struct {
		const char *attrs;
		int reduce[4];
		uint32_t nd;
		int64_t shape[4];
	} cases[] = {
		{"", {1, 1, 1, 1}, 0, {0}},
		{", axis=[1]", {0, 1, 0, 0}, 3, {2, 4, 5}},
		{", axis=[1], keepdims=True", {0, 1, 0, 0}, 4, {2, 1, 4, 5}},
		{", axis=[0, 2]", {1, 0, 1, 0}, 2, {3, 5}},
		{", axis=[-1]", {0, 0, 0, 1}, 3, {2, 3, 4}},
		{", axis=[1, 3], exclude=True", {1, 0, 1, 0}, 2, {3, 5}},
		{", axis=[0], keepdims=True, exclude=True", {0, 1, 1, 1}, 4, {2, 1, 1, 1}},
		/* TVM's GetReduceAxes: an empty list is every axis, exclude or not */
		{", axis=[]", {1, 1, 1, 1}, 0, {0}},
		{", axis=[], keepdims=True, exclude=True", {1, 1, 1, 1}, 4, {1, 1, 1, 1}},
	};
	static const int64_t shape[4] = {2, 3, 4, 5};
	(void)state;
	for (size_t o = 0; o < DP_COUNT(ops); o++)
		for (size_t c = 0; c < DP_COUNT(cases); c++) {
			char body[128];
			double want[120];
			int64_t nout = 1;
			teardown(NULL);
			setup(NULL);
			in_random("x", DT_FLOAT32, 4, shape);
			snprintf(body, sizeof body, "%s(%%x%s)", ops[o], cases[c].attrs);
			run_body(body);
			expect_shape(0, cases[c].nd, cases[c].shape);
			if (!strncmp(ops[o], "arg", 3))
				assert_int_equal(result.outputs[0].dtype, DT_INT32);
			for (uint32_t i = 0; i < 4; i++)
				nout *= cases[c].reduce[i] ? 1 : shape[i];
			reduce_reference(ops[o], shape, 4, cases[c].reduce, want, nout);
			expect_values(0, want, nout, 1e-6);
		}
	/* integers and a hand-checked sum */
	teardown(NULL);
	setup(NULL);
	{
		static const double x[] = {1, 2, 3, 4, 5, 6};
		static const double sum[] = {6, 15}, mx[] = {4, 5, 6}, mean[] = {2, 5};
		in_values("x", DT_INT32, SHAPE(2, 3), x);
		run_body("(sum(%x, axis=[1]), max(%x, axis=[0]), mean(%x, axis=[1]))");
		expect_values(0, sum, 2, 0);
		expect_values(1, mx, 3, 0);
		expect_values(2, mean, 2, 0);
	}
}

/* variance against its definition, all/any on bool, NaN in max/min, ties
 * in argmax, and integer products. */
/* Rows long enough for the float32 fast paths' lanes (and a tail), and
 * reductions outside a contiguous kept axis wider than one tile, against
 * the reference; then NaN, ties and a NaN in front on long rows. */
static void test_reductions_long_rows(void **state)
{
	static const char *const ops[] = {"sum", "mean", "max", "min", "argmax", "argmin"};
	static const struct {
		const char *attrs;
		int reduce[3];
	} cases[] = {
		{", axis=[-1]", {0, 0, 1}},   {", axis=[0]", {1, 0, 0}},
		{", axis=[1]", {0, 1, 0}},    {", axis=[0, 1]", {1, 1, 0}},
		{", axis=[0, 2]", {1, 0, 1}}, {"", {1, 1, 1}},
	};
	static const int64_t shape[3] = {3, 37, 301};
	enum { ROW = 101 };
	double *want = xmalloc(3 * 37 * 301 * sizeof(double));
	double row[2 * ROW], mx[2], amax[2], amin[2], alast[2];
	(void)state;
	for (size_t o = 0; o < DP_COUNT(ops); o++)
		for (size_t c = 0; c < DP_COUNT(cases); c++) {
			char body[128];
			int64_t nout = 1;
			teardown(NULL);
			setup(NULL);
			in_random("x", DT_FLOAT32, 3, shape);
			snprintf(body, sizeof body, "%s(%%x%s)", ops[o], cases[c].attrs);
			run_body(body);
			for (uint32_t i = 0; i < 3; i++)
				nout *= cases[c].reduce[i] ? 1 : shape[i];
			reduce_reference(ops[o], shape, 3, cases[c].reduce, want, nout);
			expect_values(0, want, nout, 1e-5);
		}
	/* row 0: a NaN inside a lane, ties at 13 and 77; row 1: a NaN in front */
	for (int i = 0; i < 2 * ROW; i++)
		row[i] = (double)(i % 7);
	row[13] = row[77] = 50;
	row[40] = NAN;
	row[ROW] = NAN;
	row[ROW + 60] = 50;
	mx[0] = mx[1] = NAN;
	amax[0] = 13, amax[1] = 0;
	alast[0] = 77, alast[1] = 0;
	amin[0] = 0, amin[1] = 0;
	teardown(NULL);
	setup(NULL);
	in_values("x", DT_FLOAT32, SHAPE(2, ROW), row);
	run_body("(max(%x, axis=[1]), argmax(%x, axis=[1]), argmax(%x, axis=[1], "
		 "select_last_index=True), argmin(%x, axis=[1]), max(%x, axis=[0]))");
	expect_values(0, mx, 2, 0);
	expect_values(1, amax, 2, 0);
	expect_values(2, alast, 2, 0);
	expect_values(3, amin, 2, 0);
	for (int i = 0; i < ROW; i++)
		want[i] = i == 0 || i == 40 ? NAN : row[i] > row[ROW + i] ? row[i] : row[ROW + i];
	expect_values(4, want, ROW, 0);
	free(want);
}

/* The float32 sum over axis 0 reads its rows 16 at a time (cpu_reduce.c's
 * sum_rows16): 37 rows (two blocks and a tail of 5) by 2053 columns (a
 * full tile of 2048 and a tail of 5), small integers so that every sum is
 * exact, an infinity, infinities of both signs (NaN) and a NaN in the
 * tail's last row. */
static void test_sum_first_axis_blocks(void **state)
{
	enum { ROWS = 37, COLS = 2053 };
	double *x = xmalloc(ROWS * COLS * sizeof(double));
	double *sum = xcalloc(COLS, sizeof(double)), *mean = xmalloc(COLS * sizeof(double));
	(void)state;
	for (int r = 0; r < ROWS; r++)
		for (int j = 0; j < COLS; j++)
			x[r * COLS + j] = (double)((r * 7 + j) % 11 - 5);
	x[3 * COLS + 7] = INFINITY;
	x[20 * COLS + 7] = -INFINITY;
	x[5 * COLS + 2052] = INFINITY;
	x[36 * COLS + 2050] = NAN;
	for (int r = 0; r < ROWS; r++)
		for (int j = 0; j < COLS; j++)
			sum[j] += x[r * COLS + j];
	for (int j = 0; j < COLS; j++)
		mean[j] = sum[j] / ROWS;
	in_values("x", DT_FLOAT32, SHAPE(ROWS, COLS), x);
	run_body("(sum(%x, axis=[0]), mean(%x, axis=[0]))");
	EXPECT_SHAPE(0, COLS);
	expect_values(0, sum, COLS, 0);
	expect_values(1, mean, COLS, 1e-7);
	assert_true(isnan(sum[7]) && isnan(sum[2050]) && isinf(sum[2052]));
	free(x);
	free(sum);
	free(mean);
}

static void test_more_reductions(void **state)
{
	static const int64_t shape[3] = {3, 4, 5};
	static const struct {
		const char *body;
		const char *ref;
		int reduce[3];
		int64_t nout;
	} cases[] = {
		{"variance(%x, mean(%x, axis=[1], keepdims=True), axis=[1])",
		 "variance",
		 {0, 1, 0},
		 15},
		{"variance(%x, mean(%x, axis=[0, 2], keepdims=True), axis=[0, 2], unbiased=True)",
		 "variance_unbiased",
		 {1, 0, 1},
		 4},
		{"variance(%x, mean(%x, keepdims=True))", "variance", {1, 1, 1}, 1},
	};
	static const double p[] = {1, 0, 1, 1, 1, 1};
	static const double all_[] = {0, 1}, any_[] = {1, 1}, all_cols[] = {1, 0, 1};
	static const double nanx[] = {1, NAN, 3, 4, 2, 0};
	static const double mx[] = {NAN, 4}, mn[] = {NAN, 0};
	static const double ties[] = {5, 1, 5, 5, 0, 0};
	static const double first[] = {0, 0}, amin[] = {1, 1}, lastmax[] = {2, 0};
	static const double ix[] = {3, -2, 7, 100000, 100000, 100000};
	static const double iprod[] = {-42, 1000000000000000.0};
	(void)state;
	for (size_t c = 0; c < DP_COUNT(cases); c++) {
		double want[15];
		teardown(NULL);
		setup(NULL);
		in_random("x", DT_FLOAT32, 3, shape);
		run_body(cases[c].body);
		reduce_reference(cases[c].ref, shape, 3, cases[c].reduce, want, cases[c].nout);
		expect_values(0, want, cases[c].nout, 1e-5);
	}
	teardown(NULL);
	setup(NULL);
	in_values("p", DT_BOOL, SHAPE(2, 3), p);
	in_values("n", DT_FLOAT32, SHAPE(2, 3), nanx);
	in_values("t", DT_FLOAT32, SHAPE(2, 3), ties);
	in_values("i", DT_INT64, SHAPE(2, 3), ix);
	run_body("(all(%p, axis=[1]), any(%p, axis=[1]), all(%p, axis=[0]), max(%n, axis=[1]), "
		 "min(%n, axis=[1]), argmax(%t, axis=[1]), argmin(%t, axis=[1]), "
		 "argmax(%t, axis=[1], select_last_index=True), prod(%i, axis=[1]))");
	expect_values(0, all_, 2, 0);
	expect_values(1, any_, 2, 0);
	expect_values(2, all_cols, 3, 0);
	expect_values(3, mx, 2, 0);
	expect_values(4, mn, 2, 0);
	expect_values(5, first, 2, 0);
	expect_values(6, amin, 2, 0);
	expect_values(7, lastmax, 2, 0);
	expect_values(8, iprod, 2, 0);
}

/* ---- data movement --------------------------------------------------------------- */

static void test_reshape_family(void **state)
{
	static const struct {
		const char *body;
		uint32_t nd;
		int64_t shape[5];
	} cases[] = {
		{"reshape(%x, newshape=[6, 20])", 2, {6, 20}},
		{"reshape(%x, newshape=[0, -1])", 2, {2, 60}},
		{"reshape(%x, newshape=[-1, 5])", 2, {24, 5}},
		{"reshape(%x, newshape=[2, -2])", 4, {2, 3, 4, 5}},
		{"reshape(%x, newshape=[-3, -2])", 3, {6, 4, 5}},
		{"reshape(%x, newshape=[0, -4, 1, 3, -2])", 5, {2, 1, 3, 4, 5}},
		{"reshape(%x, newshape=[-4, 2, -1, 0, 0, 5])", 5, {2, 1, 3, 4, 5}},
		{"nn.batch_flatten(%x)", 2, {2, 60}},
		{"expand_dims(%x, axis=1, num_newaxis=2)", 0, {0}},
		{"squeeze(expand_dims(%x, axis=0))", 4, {2, 3, 4, 5}},
		{"squeeze(reshape(%x, newshape=[2, 1, 60, 1]), axis=[3])", 3, {2, 1, 60}},
	};
	(void)state;
	for (size_t c = 0; c < DP_COUNT(cases); c++) {
		double want[120];
		teardown(NULL);
		setup(NULL);
		RAND("x", DT_FLOAT32, 2, 3, 4, 5);
		run_body(cases[c].body);
		if (cases[c].nd)
			expect_shape(0, cases[c].nd, cases[c].shape);
		else
			EXPECT_SHAPE(0, 2, 1, 1, 3, 4, 5);
		for (int i = 0; i < 120; i++)
			want[i] = in_at(0, i);
		expect_values(0, want, 120, 0);
	}
}

static void test_transpose(void **state)
{
	static const struct {
		const char *attrs;
		int perm[4];
	} cases[] = {
		{"", {3, 2, 1, 0}},
		{", axes=[0, 2, 3, 1]", {0, 2, 3, 1}},
		{", axes=[1, 0, 2, 3]", {1, 0, 2, 3}},
		{", axes=[-1, 0, -2, 1]", {3, 0, 2, 1}},
	};
	static const int64_t shape[4] = {2, 3, 4, 5};
	(void)state;
	for (size_t c = 0; c < DP_COUNT(cases); c++) {
		char body[64];
		double want[120];
		int64_t oshape[4], istride[4], s = 1;
		teardown(NULL);
		setup(NULL);
		in_random("x", DT_INT64, 4, shape);
		snprintf(body, sizeof body, "transpose(%%x%s)", cases[c].attrs);
		run_body(body);
		for (int a = 3; a >= 0; a--) {
			istride[a] = s;
			s *= shape[a];
		}
		for (int a = 0; a < 4; a++)
			oshape[a] = shape[cases[c].perm[a]];
		expect_shape(0, 4, oshape);
		for (int64_t i = 0; i < 120; i++) {
			int64_t rest = i, off = 0;
			for (int a = 3; a >= 0; a--) {
				off += rest % oshape[a] * istride[cases[c].perm[a]];
				rest /= oshape[a];
			}
			want[i] = in_at(0, off);
		}
		expect_values(0, want, 120, 0);
	}
}

/* transpose of input 0 (shape, nd) by perm, against a naive walk of the
 * output, element for element (bits: every value is exact). */
static void check_transpose(DType dt, uint32_t nd, const int64_t *shape, const int *perm)
{
	StrBuf body;
	int64_t oshape[12] = {0}, istride[12] = {0}, s = 1, n = 1;
	double *want;
	teardown(NULL);
	setup(NULL);
	in_random("x", dt, nd, shape);
	strbuf_init(&body);
	strbuf_puts(&body, "transpose(%x, axes=[");
	for (uint32_t a = 0; a < nd; a++)
		strbuf_printf(&body, "%s%d", a ? ", " : "", perm[a]);
	strbuf_puts(&body, "])");
	run_body(body.data);
	strbuf_free(&body);
	for (uint32_t a = nd; a-- > 0;) {
		istride[a] = s;
		s *= shape[a];
	}
	for (uint32_t a = 0; a < nd; a++) {
		oshape[a] = shape[perm[a]];
		n *= oshape[a];
	}
	expect_shape(0, nd, oshape);
	want = xmalloc((size_t)n * sizeof(double));
	for (int64_t i = 0; i < n; i++) {
		int64_t rest = i, off = 0;
		for (uint32_t a = nd; a-- > 0;) {
			off += rest % oshape[a] * istride[perm[a]];
			rest /= oshape[a];
		}
		want[i] = in_at(0, off);
	}
	expect_values(0, want, n, 0);
	free(want);
}

/* The cache-blocked transpose: tiles of 32 with SIMD blocks of 8 (2-byte),
 * 4 (4-byte) and 2 (8-byte) elements, so shapes that end a tile or a
 * block early on either axis, in every element size; permutations whose
 * axes merge (attention's [0, 2, 3, 1] is a matrix transpose, [0, 2, 1, 3]
 * copies rows), size-1 axes between merged ones, and nine axes that do
 * not merge (the general walk). */
static void test_transpose_tiles(void **state)
{
	static const DType dtypes[] = {DT_FLOAT32, DT_INT32, DT_FLOAT16, DT_UINT16, DT_FLOAT64,
				       DT_INT64,   DT_UINT8, DT_BOOL,    DT_INT8,   DT_BFLOAT16};
	static const struct {
		uint32_t nd;
		int64_t shape[9];
		int perm[9];
	} cases[] = {
		{2, {37, 70}, {1, 0}},
		{2, {64, 96}, {1, 0}},
		{2, {1, 9}, {1, 0}},
		{2, {8, 5}, {1, 0}},
		{3, {33, 1, 41}, {2, 1, 0}},
		{4, {1, 13, 3, 9}, {0, 2, 3, 1}},
		{4, {1, 13, 3, 9}, {0, 2, 1, 3}},
		{4, {2, 35, 3, 17}, {2, 0, 3, 1}},
		{5, {3, 4, 1, 5, 6}, {3, 4, 2, 0, 1}},
		{4, {4, 1, 5, 3}, {1, 0, 2, 3}},
		{4, {4, 1, 5, 3}, {3, 1, 0, 2}},
		{5, {2, 3, 4, 5, 6}, {4, 1, 0, 3, 2}},
		{9, {2, 2, 2, 2, 2, 2, 2, 2, 3}, {8, 7, 6, 5, 4, 3, 2, 1, 0}},
		{9, {2, 2, 2, 2, 2, 2, 2, 2, 3}, {1, 3, 5, 7, 0, 2, 4, 6, 8}},
	};
	/* 4-byte outputs of 4 MiB or more are streamed around the caches
	 * (TRANSPOSE_STREAM): tiles ending early on both axes, and batched */
	static const struct {
		uint32_t nd;
		int64_t shape[3];
		int perm[3];
	} streamed[] = {
		{2, {1028, 1032}, {1, 0}},
		{3, {2, 700, 760}, {0, 2, 1}},
	};
	(void)state;
	for (size_t d = 0; d < DP_COUNT(dtypes); d++)
		for (size_t c = 0; c < DP_COUNT(cases); c++)
			check_transpose(dtypes[d], cases[c].nd, cases[c].shape, cases[c].perm);
	for (size_t c = 0; c < DP_COUNT(streamed); c++) {
		check_transpose(DT_FLOAT32, streamed[c].nd, streamed[c].shape, streamed[c].perm);
		check_transpose(DT_INT32, streamed[c].nd, streamed[c].shape, streamed[c].perm);
	}
}

static void test_concatenate_and_split(void **state)
{
	double want[2 * 9 * 2];
	(void)state;
	RAND("a", DT_FLOAT32, 2, 2, 2);
	RAND("b", DT_FLOAT32, 2, 3, 2);
	RAND("c", DT_FLOAT32, 2, 4, 2);
	run_body("concatenate((%a, %b, %c), axis=1)");
	EXPECT_SHAPE(0, 2, 9, 2);
	for (int n = 0; n < 2; n++)
		for (int j = 0; j < 9; j++)
			for (int k = 0; k < 2; k++) {
				int src = j < 2 ? 0 : j < 5 ? 1 : 2;
				int jj = j < 2 ? j : j < 5 ? j - 2 : j - 5;
				int len = src == 0 ? 2 : src == 1 ? 3 : 4;
				want[(n * 9 + j) * 2 + k] =
					in_at((size_t)src, (n * len + jj) * 2 + k);
			}
	expect_values(0, want, 36, 0);

	teardown(NULL);
	setup(NULL);
	RAND("x", DT_FLOAT32, 2, 9, 2);
	run_body("%0 = split(%x, indices_or_sections=[2, 5], axis=1); (%0.0, %0.1, %0.2)");
	assert_int_equal(result.noutputs, 3);
	EXPECT_SHAPE(0, 2, 2, 2);
	EXPECT_SHAPE(1, 2, 3, 2);
	EXPECT_SHAPE(2, 2, 4, 2);
	for (int n = 0; n < 2; n++)
		for (int j = 0; j < 9; j++)
			for (int k = 0; k < 2; k++) {
				int dst = j < 2 ? 0 : j < 5 ? 1 : 2;
				int jj = j < 2 ? j : j < 5 ? j - 2 : j - 5;
				int len = dst == 0 ? 2 : dst == 1 ? 3 : 4;
				assert_true(out_at((size_t)dst, (n * len + jj) * 2 + k) ==
					    in_at(0, (n * 9 + j) * 2 + k));
			}

	teardown(NULL);
	setup(NULL);
	RAND("x", DT_FLOAT32, 6, 4);
	run_body("%0 = split(%x, indices_or_sections=3); concatenate((%0.2, %0.0, %0.1))");
	for (int i = 0; i < 24; i++)
		want[i] = in_at(0, (i + 16) % 24);
	expect_values(0, want, 24, 0);
}

/* ---- convolution -------------------------------------------------------------------- */

typedef struct ConvCase {
	int64_t n, c, h, w, o, kh, kw;
	int64_t stride[2], pad[4], dilation[2], groups;
} ConvCase;

static void conv_attrs(char *buf, size_t size, const ConvCase *k)
{
	snprintf(buf, size,
		 "strides=[%lld, %lld], padding=[%lld, %lld, %lld, %lld], dilation=[%lld, %lld], "
		 "groups=%lld",
		 (long long)k->stride[0], (long long)k->stride[1], (long long)k->pad[0],
		 (long long)k->pad[1], (long long)k->pad[2], (long long)k->pad[3],
		 (long long)k->dilation[0], (long long)k->dilation[1], (long long)k->groups);
}

static void test_conv2d(void **state)
{
	static const ConvCase cases[] = {
		{1, 3, 7, 7, 4, 3, 3, {1, 1}, {1, 1, 1, 1}, {1, 1}, 1},
		{2, 4, 9, 8, 6, 3, 2, {2, 1}, {0, 1, 2, 0}, {1, 2}, 2},
		{1, 6, 10, 10, 6, 3, 3, {2, 2}, {1, 1, 1, 1}, {1, 1}, 6}, /* depthwise */
		{2, 8, 5, 6, 4, 1, 1, {1, 1}, {0, 0, 0, 0}, {1, 1}, 1},   /* pointwise */
		{1, 2, 12, 11, 3, 5, 5, {3, 2}, {2, 2, 2, 2}, {2, 1}, 1},
		{1, 16, 40, 40, 8, 3, 3, {1, 1}, {1, 1, 1, 1}, {1, 1}, 1},
		/* two im2col tiles (8 MiB of 576 rows: 3640 columns), the
		 * second starting inside an output row */
		{1, 64, 64, 64, 8, 3, 3, {1, 1}, {1, 1, 1, 1}, {1, 1}, 1},
		/* strided and padded past the right edge: a zero run after the gather */
		{1, 2, 9, 10, 3, 3, 4, {2, 3}, {1, 2, 1, 3}, {1, 1}, 1},
		/* depthwise by output rows: rows longer than a vector and ending
		 * inside one, strides 1, 2 and 3, dilation, uneven padding */
		{2, 5, 19, 37, 5, 3, 3, {1, 1}, {1, 1, 1, 1}, {1, 1}, 5},
		{1, 3, 17, 41, 3, 3, 3, {2, 2}, {1, 1, 1, 1}, {1, 1}, 3},
		{1, 4, 13, 35, 4, 5, 5, {3, 3}, {2, 1, 2, 3}, {2, 2}, 4},
		/* groups of few channels, computed directly too: 4 in and 4 out
		 * per group, and a depthwise multiplier of 2 */
		{2, 8, 11, 39, 8, 3, 3, {1, 1}, {1, 1, 1, 1}, {1, 1}, 2},
		{1, 3, 9, 33, 6, 3, 3, {2, 2}, {1, 1, 1, 1}, {1, 1}, 3},
	};
	(void)state;
	for (size_t c = 0; c < 2 * DP_COUNT(cases); c++) {
		/* every case in float32, then in float64 */
		const ConvCase *k = &cases[c % DP_COUNT(cases)];
		DType dt = c < DP_COUNT(cases) ? DT_FLOAT32 : DT_FLOAT64;
		int64_t cg = k->c / k->groups, og = k->o / k->groups;
		int64_t oh = (k->h + k->pad[0] + k->pad[2] - k->dilation[0] * (k->kh - 1) - 1) /
				     k->stride[0] +
			     1;
		int64_t ow = (k->w + k->pad[1] + k->pad[3] - k->dilation[1] * (k->kw - 1) - 1) /
				     k->stride[1] +
			     1;
		char attrs[256], body[320];
		double *want = xmalloc((size_t)(k->n * k->o * oh * ow) * sizeof(double));
		teardown(NULL);
		setup(NULL);
		RAND("x", dt, k->n, k->c, k->h, k->w);
		RAND("w", dt, k->o, cg, k->kh, k->kw);
		conv_attrs(attrs, sizeof attrs, k);
		snprintf(body, sizeof body, "nn.conv2d(%%x, %%w, %s)", attrs);
		run_body(body);
		EXPECT_SHAPE(0, k->n, k->o, oh, ow);
		/* the seven loops */
		for (int64_t n = 0; n < k->n; n++)
			for (int64_t o = 0; o < k->o; o++)
				for (int64_t y = 0; y < oh; y++)
					for (int64_t x = 0; x < ow; x++) {
						double acc = 0;
						int64_t g = o / og;
						for (int64_t ci = 0; ci < cg; ci++)
							for (int64_t ky = 0; ky < k->kh; ky++)
								for (int64_t kx = 0; kx < k->kw;
								     kx++) {
									int64_t iy =
										y * k->stride[0] -
										k->pad[0] +
										ky * k->dilation[0];
									int64_t ix =
										x * k->stride[1] -
										k->pad[1] +
										kx * k->dilation[1];
									if (iy < 0 || iy >= k->h ||
									    ix < 0 || ix >= k->w)
										continue;
									acc += in_at(0,
										     ((n * k->c +
										       g * cg +
										       ci) * k->h +
										      iy) * k->w +
											     ix) *
									       in_at(1,
										     ((o * cg +
										       ci) * k->kh +
										      ky) * k->kw +
											     kx);
								}
						want[((n * k->o + o) * oh + y) * ow + x] = acc;
					}
		expect_values(0, want, k->n * k->o * oh * ow, 1e-5);
		free(want);
	}
	/* hand-checked: a 3x3 box filter over 1..9 with padding 1 */
	teardown(NULL);
	setup(NULL);
	{
		static const double x[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
		static const double w[] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
		static const double want[] = {12, 21, 16, 27, 45, 33, 24, 39, 28};
		in_values("x", DT_FLOAT64, SHAPE(1, 1, 3, 3), x);
		in_values("w", DT_FLOAT64, SHAPE(1, 1, 3, 3), w);
		run_body("nn.conv2d(%x, %w, padding=[1, 1])");
		expect_values(0, want, 9, 0);
	}
}

static void test_conv2d_transpose(void **state)
{
	static const struct {
		ConvCase k;
		int64_t out_pad[2];
	} cases[] = {
		{{1, 4, 4, 4, 3, 4, 4, {2, 2}, {1, 1, 1, 1}, {1, 1}, 1}, {0, 0}},
		{{2, 4, 3, 5, 6, 3, 3, {2, 1}, {0, 1, 0, 1}, {1, 1}, 2}, {1, 0}},
		{{1, 2, 5, 5, 2, 3, 2, {1, 3}, {1, 0, 0, 0}, {2, 1}, 1}, {0, 2}},
		{{1, 8, 4, 4, 4, 4, 4, {2, 2}, {1, 1, 1, 1}, {1, 1}, 1},
		 {0, 0}}, /* dcgan's shape */
	};
	(void)state;
	for (size_t c = 0; c < DP_COUNT(cases); c++) {
		const ConvCase *k = &cases[c].k;
		const int64_t *op = cases[c].out_pad;
		int64_t cg = k->c / k->groups, og = k->o / k->groups;
		int64_t oh = (k->h - 1) * k->stride[0] - k->pad[0] - k->pad[2] +
			     k->dilation[0] * (k->kh - 1) + op[0] + 1;
		int64_t ow = (k->w - 1) * k->stride[1] - k->pad[1] - k->pad[3] +
			     k->dilation[1] * (k->kw - 1) + op[1] + 1;
		char attrs[256], body[400];
		double *want = xcalloc((size_t)(k->n * k->o * oh * ow), sizeof(double));
		teardown(NULL);
		setup(NULL);
		RAND("x", DT_FLOAT32, k->n, k->c, k->h, k->w);
		RAND("w", DT_FLOAT32, k->c, og, k->kh, k->kw);
		conv_attrs(attrs, sizeof attrs, k);
		snprintf(body, sizeof body,
			 "nn.conv2d_transpose(%%x, %%w, %s, output_padding=[%lld, %lld], "
			 "kernel_layout=\"IOHW\")",
			 attrs, (long long)op[0], (long long)op[1]);
		run_body(body);
		EXPECT_SHAPE(0, k->n, k->o, oh, ow);
		/* scatter every input pixel through the kernel */
		for (int64_t n = 0; n < k->n; n++)
			for (int64_t ci = 0; ci < k->c; ci++)
				for (int64_t iy = 0; iy < k->h; iy++)
					for (int64_t ix = 0; ix < k->w; ix++) {
						int64_t g = ci / cg;
						double xv = in_at(
							0,
							((n * k->c + ci) * k->h + iy) * k->w + ix);
						for (int64_t oc = 0; oc < og; oc++)
							for (int64_t ky = 0; ky < k->kh; ky++)
								for (int64_t kx = 0; kx < k->kw;
								     kx++) {
									int64_t y =
										iy * k->stride[0] -
										k->pad[0] +
										ky * k->dilation[0];
									int64_t x =
										ix * k->stride[1] -
										k->pad[1] +
										kx * k->dilation[1];
									if (y < 0 || y >= oh ||
									    x < 0 || x >= ow)
										continue;
									want[((n * k->o + g * og +
									       oc) * oh +
									      y) * ow +
									     x] +=
										xv *
										in_at(1,
										      ((ci * og +
											oc) * k->kh +
										       ky) * k->kw +
											      kx);
								}
					}
		expect_values(0, want, k->n * k->o * oh * ow, 1e-5);
		free(want);
	}
}

/* A list attribute `name=[v0, v1, ...]` of n values, appended to buf. */
static void append_list(char *buf, size_t size, const char *name, const int64_t *v, int n)
{
	size_t len = strlen(buf);
	len += (size_t)snprintf(buf + len, size - len, ", %s=[", name);
	for (int i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%lld", i ? ", " : "",
					(long long)v[i]);
	snprintf(buf + len, size - len, "]");
}

/* One convolution of rank 1 or 3 (nn.conv1d, nn.conv3d and their
 * transposes): sizes per spatial dimension, padding as begins then ends. */
typedef struct ConvNdCase {
	int rank;
	bool transpose;
	int64_t n, c, o, groups;
	int64_t in[3], k[3], stride[3], pad[6], dilation[3], out_pad[3];
} ConvNdCase;

/* Runs the convolution k of dtype dt and compares it with every (input
 * position, kernel tap) pair scattered to the output position it reaches,
 * summed in double (tol: the relative error allowed). */
static void check_conv_nd(const ConvNdCase *k, DType dt, double tol)
{
	static const char *const names[2][4] = {
		{NULL, "nn.conv1d", "nn.conv2d", "nn.conv3d"},
		{NULL, "nn.conv1d_transpose", "nn.conv2d_transpose", "nn.conv3d_transpose"}};
	int r = k->rank;
	int64_t cg = k->c / k->groups, og = k->o / k->groups;
	int64_t in[3] = {1, 1, 1}, ks[3] = {1, 1, 1}, out[3] = {1, 1, 1};
	int64_t xshape[5] = {k->n, k->c}, wshape[5], yshape[5] = {k->n, k->o};
	int64_t in_size = 1, k_size = 1, out_size = 1, total;
	char body[512];
	double *want;
	/* the spatial dimensions right-aligned in [depth, height, width] */
	for (int i = 0; i < r; i++) {
		int d = 3 - r + i;
		in[d] = k->in[i];
		ks[d] = k->k[i];
		if (k->transpose)
			out[d] = (k->in[i] - 1) * k->stride[i] - k->pad[i] - k->pad[r + i] +
				 k->dilation[i] * (k->k[i] - 1) + k->out_pad[i] + 1;
		else
			out[d] = (k->in[i] + k->pad[i] + k->pad[r + i] -
				  k->dilation[i] * (k->k[i] - 1) - 1) /
					 k->stride[i] +
				 1;
		xshape[2 + i] = in[d];
		wshape[2 + i] = ks[d];
		yshape[2 + i] = out[d];
		in_size *= in[d];
		k_size *= ks[d];
		out_size *= out[d];
	}
	wshape[0] = k->transpose ? k->c : k->o;
	wshape[1] = k->transpose ? og : cg;
	total = k->n * k->o * out_size;
	want = xcalloc((size_t)total, sizeof(double));
	teardown(NULL);
	setup(NULL);
	in_random("x", dt, (uint32_t)r + 2, xshape);
	in_random("w", dt, (uint32_t)r + 2, wshape);
	snprintf(body, sizeof body, "%s(%%x, %%w, groups=%lld", names[k->transpose][r],
		 (long long)k->groups);
	append_list(body, sizeof body, "strides", k->stride, r);
	append_list(body, sizeof body, "padding", k->pad, 2 * r);
	append_list(body, sizeof body, "dilation", k->dilation, r);
	if (k->transpose)
		append_list(body, sizeof body, "output_padding", k->out_pad, r);
	if (k->transpose && r == 2)
		strcat(body, ", kernel_layout=\"IOHW\"");
	strcat(body, ")");
	run_body(body);
	expect_shape(0, (uint32_t)r + 2, yshape);
	/* every (input position, kernel tap) pair, scattered to the output
	 * position it reaches: p_out = p_in * stride - pad + tap * dilation
	 * for the transpose, p_in = p_out * stride - pad + tap * dilation
	 * for the plain convolution */
	for (int64_t n = 0; n < k->n; n++)
		for (int64_t ci = 0; ci < k->c; ci++)
			for (int64_t oc = 0; oc < og; oc++)
				for (int64_t t = 0; t < k_size; t++) {
					int64_t tap[3] = {t / (ks[1] * ks[2]), t / ks[2] % ks[1],
							  t % ks[2]};
					int64_t g = ci / cg, o = g * og + oc;
					double wv = in_at(
						1, k->transpose ? (ci * og + oc) * k_size + t
								: (o * cg + ci % cg) * k_size + t);
					int64_t span = k->transpose ? in_size : out_size;
					for (int64_t q = 0; q < span; q++) {
						const int64_t *from = k->transpose ? in : out;
						const int64_t *to = k->transpose ? out : in;
						int64_t pos[3] = {q / (from[1] * from[2]),
								  q / from[2] % from[1],
								  q % from[2]};
						int64_t other = 0;
						bool inside = true;
						for (int d = 0; d < 3; d++) {
							int i = d - (3 - r);
							int64_t v = pos[d];
							if (i >= 0)
								v = pos[d] * k->stride[i] -
								    k->pad[i] +
								    tap[d] * k->dilation[i];
							inside = inside && v >= 0 && v < to[d];
							other = other * to[d] + v;
						}
						if (!inside)
							continue;
						if (k->transpose)
							want[(n * k->o + o) * out_size + other] +=
								in_at(0, (n * k->c + ci) * in_size +
										 q) *
								wv;
						else
							want[(n * k->o + o) * out_size + q] +=
								in_at(0, (n * k->c + ci) * in_size +
										 other) *
								wv;
					}
				}
	expect_values(0, want, total, tol);
	free(want);
}

static void test_conv_nd(void **state)
{
	static const ConvNdCase cases[] = {
		{1, false, 2, 4, 6, 2, {11}, {3}, {2}, {1, 2}, {2}, {0}},
		{1, false, 1, 3, 5, 1, {9}, {1}, {1}, {0, 0}, {1}, {0}},  /* pointwise */
		{1, false, 1, 4, 4, 4, {10}, {5}, {1}, {2, 2}, {1}, {0}}, /* depthwise */
		{3,
		 false,
		 1,
		 3,
		 4,
		 1,
		 {5, 6, 7},
		 {3, 3, 3},
		 {1, 1, 1},
		 {1, 1, 1, 1, 1, 1},
		 {1, 1, 1},
		 {0}},
		{3,
		 false,
		 2,
		 4,
		 2,
		 2,
		 {6, 5, 7},
		 {2, 3, 2},
		 {2, 1, 3},
		 {0, 1, 1, 1, 0, 2},
		 {1, 2, 1},
		 {0}},
		{1, true, 2, 4, 6, 2, {5}, {3}, {2}, {1, 0}, {1}, {1}},
		{3,
		 true,
		 1,
		 2,
		 3,
		 1,
		 {3, 4, 3},
		 {2, 3, 2},
		 {2, 1, 2},
		 {0, 1, 1, 0, 1, 0},
		 {1, 1, 2},
		 {1, 0, 0}},
	};
	(void)state;
	for (size_t c = 0; c < DP_COUNT(cases); c++)
		check_conv_nd(&cases[c], DT_FLOAT32, 1e-5);
	/* hand-checked: a width-3 box filter over 1..5 with padding 1, and a
	 * 2x2x2 box over a 2x2x2 cube of 1..8 */
	teardown(NULL);
	setup(NULL);
	{
		static const double x[] = {1, 2, 3, 4, 5}, w[] = {1, 1, 1};
		static const double want[] = {3, 6, 9, 12, 9};
		static const double cube[] = {1, 2, 3, 4, 5, 6, 7, 8},
				    ones[] = {1, 1, 1, 1, 1, 1, 1, 1};
		static const double sum[] = {36};
		in_values("x", DT_FLOAT64, SHAPE(1, 1, 5), x);
		in_values("w", DT_FLOAT64, SHAPE(1, 1, 3), w);
		run_body("nn.conv1d(%x, %w, padding=[1, 1])");
		expect_values(0, want, 5, 0);
		teardown(NULL);
		setup(NULL);
		in_values("x", DT_FLOAT64, SHAPE(1, 1, 2, 2, 2), cube);
		in_values("w", DT_FLOAT64, SHAPE(1, 1, 2, 2, 2), ones);
		run_body("nn.conv3d(%x, %w)");
		EXPECT_SHAPE(0, 1, 1, 1, 1, 1);
		expect_values(0, sum, 1, 0);
	}
}

/* ---- pooling ---------------------------------------------------------------------- */

static void test_pooling(void **state)
{
	static const struct {
		int64_t h, w, kh, kw, stride[2], pad[4], dilation[2];
		bool ceil, include_pad;
	} cases[] = {
		{6, 6, 2, 2, {2, 2}, {0, 0, 0, 0}, {1, 1}, false, false},
		{7, 7, 3, 3, {2, 2}, {1, 1, 1, 1}, {1, 1}, false, false},
		{7, 7, 3, 3, {2, 2}, {1, 1, 1, 1}, {1, 1}, false, true},
		{7, 8, 3, 2, {2, 3}, {0, 1, 2, 0}, {1, 1}, true, false},
		{7, 8, 3, 2, {2, 3}, {0, 1, 2, 0}, {1, 1}, true, true},
		{9, 9, 2, 3, {1, 2}, {1, 0, 1, 2}, {2, 1}, false, true},
		/* ceil_mode: the last column's window holds input cells and one
		 * past the padded input, which count_include_pad leaves out */
		{7, 8, 3, 3, {2, 3}, {0, 0, 0, 0}, {1, 1}, true, true},
		/* by output rows: rows longer than a vector and ending inside
		 * one, strides 1, 2 and 3 */
		{19, 37, 3, 3, {2, 2}, {1, 1, 1, 1}, {1, 1}, false, false},
		{11, 70, 3, 3, {1, 1}, {1, 1, 1, 1}, {1, 1}, false, true},
		{9, 41, 2, 3, {1, 3}, {0, 1, 0, 1}, {1, 2}, true, false},
	};
	(void)state;
	for (size_t cc = 0; cc < 2 * DP_COUNT(cases); cc++) {
		/* every case in float32, then in float64 */
		size_t c = cc % DP_COUNT(cases);
		DType dt = cc < DP_COUNT(cases) ? DT_FLOAT32 : DT_FLOAT64;
		int64_t N = 2, C = 3, H = cases[c].h, W = cases[c].w;
		int64_t kh = cases[c].kh, kw = cases[c].kw;
		const int64_t *s = cases[c].stride, *p = cases[c].pad, *d = cases[c].dilation;
		int64_t spanh = d[0] * (kh - 1) + 1, spanw = d[1] * (kw - 1) + 1;
		int64_t numh = H + p[0] + p[2] - spanh, numw = W + p[1] + p[3] - spanw;
		int64_t oh = (cases[c].ceil ? (numh + s[0] - 1) / s[0] : numh / s[0]) + 1;
		int64_t ow = (cases[c].ceil ? (numw + s[1] - 1) / s[1] : numw / s[1]) + 1;
		char body[1024], attrs[384];
		double *mx = xmalloc((size_t)(N * C * oh * ow) * sizeof(double));
		double *avg = xmalloc((size_t)(N * C * oh * ow) * sizeof(double));
		teardown(NULL);
		setup(NULL);
		RAND("x", dt, N, C, H, W);
		snprintf(attrs, sizeof attrs,
			 "pool_size=[%lld, %lld], strides=[%lld, %lld], padding=[%lld, %lld, %lld, "
			 "%lld], "
			 "dilation=[%lld, %lld], ceil_mode=%s",
			 (long long)kh, (long long)kw, (long long)s[0], (long long)s[1],
			 (long long)p[0], (long long)p[1], (long long)p[2], (long long)p[3],
			 (long long)d[0], (long long)d[1], cases[c].ceil ? "True" : "False");
		snprintf(body, sizeof body,
			 "(nn.max_pool2d(%%x, %s), nn.avg_pool2d(%%x, %s, count_include_pad=%s))",
			 attrs, attrs, cases[c].include_pad ? "True" : "False");
		run_body(body);
		EXPECT_SHAPE(0, N, C, oh, ow);
		EXPECT_SHAPE(1, N, C, oh, ow);
		/* explicit windows over the padded input: a padded cell counts for
		 * avg with count_include_pad, an input cell always */
		for (int64_t plane = 0; plane < N * C; plane++)
			for (int64_t y = 0; y < oh; y++)
				for (int64_t x = 0; x < ow; x++) {
					double m = -INFINITY, sum = 0;
					int64_t count = 0;
					for (int64_t ky = 0; ky < kh; ky++)
						for (int64_t kx = 0; kx < kw; kx++) {
							int64_t py = y * s[0] + ky * d[0],
								px = x * s[1] + kx * d[1];
							int64_t iy = py - p[0], ix = px - p[1];
							bool inside = iy >= 0 && iy < H &&
								      ix >= 0 && ix < W;
							bool padded = py < H + p[0] + p[2] &&
								      px < W + p[1] + p[3];
							if (inside) {
								double v = in_at(
									0,
									(plane * H + iy) * W + ix);
								m = fmax(m, v);
								sum += v;
							}
							if (cases[c].include_pad ? padded : inside)
								count++;
						}
					mx[(plane * oh + y) * ow + x] =
						m == -INFINITY
							? (dt == DT_FLOAT32 ? -FLT_MAX : -DBL_MAX)
							: m;
					avg[(plane * oh + y) * ow + x] =
						count ? sum / (double)count : 0;
				}
		expect_values(0, mx, N * C * oh * ow, 0);
		expect_values(1, avg, N * C * oh * ow, 1e-6);
		free(mx);
		free(avg);
	}
	/* global average, hand-checked */
	teardown(NULL);
	setup(NULL);
	{
		static const double x[] = {1, 2, 3, 4, 10, 20, 30, 40};
		static const double want[] = {2.5, 25};
		in_values("x", DT_FLOAT32, SHAPE(1, 2, 2, 2), x);
		run_body("nn.global_avg_pool2d(%x)");
		EXPECT_SHAPE(0, 1, 2, 1, 1);
		expect_values(0, want, 2, 0);
	}
}

/* nn.max_pool1d/3d and nn.avg_pool1d/3d against explicit windows over the
 * padded input. */
static void test_pooling_nd(void **state)
{
	static const struct {
		int rank;
		int64_t in[3], k[3], stride[3], pad[6], dilation[3];
		bool ceil, include_pad;
	} cases[] = {
		{1, {9}, {3}, {2}, {1, 1}, {1}, false, false},
		{1, {10}, {2}, {3}, {0, 2}, {2}, true, true},
		{1, {10}, {2}, {3}, {1, 2}, {2}, true, false},
		{3, {5, 6, 7}, {2, 2, 3}, {2, 2, 2}, {0, 1, 1, 1, 0, 1}, {1, 1, 1}, false, true},
		{3, {6, 5, 6}, {3, 2, 2}, {2, 1, 3}, {1, 0, 1, 1, 1, 0}, {1, 2, 1}, true, false},
		{3, {5, 6, 7}, {2, 3, 3}, {1, 1, 1}, {1, 1, 0, 0, 1, 1}, {2, 1, 1}, false, false},
		{3, {4, 5, 6}, {3, 2, 4}, {2, 1, 1}, {1, 0, 2, 1, 1, 0}, {1, 2, 1}, true, true},
	};
	static const char *const names[2][4] = {{NULL, "nn.max_pool1d", NULL, "nn.max_pool3d"},
						{NULL, "nn.avg_pool1d", NULL, "nn.avg_pool3d"}};
	(void)state;
	for (size_t c = 0; c < DP_COUNT(cases); c++) {
		int r = cases[c].rank;
		const int64_t *s = cases[c].stride, *p = cases[c].pad, *d = cases[c].dilation;
		int64_t N = 2, C = 3, in[3] = {1, 1, 1}, ks[3] = {1, 1, 1}, out[3] = {1, 1, 1};
		int64_t st[3] = {1, 1, 1}, pb[3] = {0, 0, 0}, pe[3] = {0, 0, 0}, dl[3] = {1, 1, 1};
		int64_t xshape[5] = {N, C}, yshape[5] = {N, C}, in_size = 1, out_size = 1,
			k_size = 1;
		char attrs[384], body[1024];
		double *mx, *avg;
		for (int i = 0; i < r; i++) {
			int j = 3 - r + i;
			int64_t num =
				cases[c].in[i] + p[i] + p[r + i] - (d[i] * (cases[c].k[i] - 1) + 1);
			in[j] = cases[c].in[i];
			ks[j] = cases[c].k[i];
			st[j] = s[i], pb[j] = p[i], pe[j] = p[r + i], dl[j] = d[i];
			out[j] = (cases[c].ceil ? (num + s[i] - 1) / s[i] : num / s[i]) + 1;
			xshape[2 + i] = in[j];
			yshape[2 + i] = out[j];
			in_size *= in[j];
			out_size *= out[j];
			k_size *= ks[j];
		}
		mx = xmalloc((size_t)(N * C * out_size) * sizeof(double));
		avg = xmalloc((size_t)(N * C * out_size) * sizeof(double));
		teardown(NULL);
		setup(NULL);
		in_random("x", DT_FLOAT32, (uint32_t)r + 2, xshape);
		snprintf(attrs, sizeof attrs, "ceil_mode=%s", cases[c].ceil ? "True" : "False");
		append_list(attrs, sizeof attrs, "pool_size", cases[c].k, r);
		append_list(attrs, sizeof attrs, "strides", s, r);
		append_list(attrs, sizeof attrs, "padding", p, 2 * r);
		append_list(attrs, sizeof attrs, "dilation", d, r);
		snprintf(body, sizeof body, "(%s(%%x, %s), %s(%%x, %s, count_include_pad=%s))",
			 names[0][r], attrs, names[1][r], attrs,
			 cases[c].include_pad ? "True" : "False");
		run_body(body);
		expect_shape(0, (uint32_t)r + 2, yshape);
		expect_shape(1, (uint32_t)r + 2, yshape);
		for (int64_t plane = 0; plane < N * C; plane++)
			for (int64_t o = 0; o < out_size; o++) {
				int64_t opos[3] = {o / (out[1] * out[2]), o / out[2] % out[1],
						   o % out[2]};
				double m = -INFINITY, sum = 0;
				int64_t count = 0;
				for (int64_t t = 0; t < k_size; t++) {
					int64_t tap[3] = {t / (ks[1] * ks[2]), t / ks[2] % ks[1],
							  t % ks[2]};
					bool inside = true, padded = true;
					int64_t at = 0;
					for (int j = 0; j < 3; j++) {
						int64_t pp = opos[j] * st[j] +
							     tap[j] * dl[j]; /* padded */
						int64_t ii = pp - pb[j];
						inside = inside && ii >= 0 && ii < in[j];
						padded = padded && pp < in[j] + pb[j] + pe[j];
						at = at * in[j] + ii;
					}
					if (inside) {
						double v = in_at(0, plane * in_size + at);
						m = fmax(m, v);
						sum += v;
					}
					if (cases[c].include_pad ? padded : inside)
						count++;
				}
				mx[plane * out_size + o] = m == -INFINITY ? -FLT_MAX : m;
				avg[plane * out_size + o] = count ? sum / (double)count : 0;
			}
		expect_values(0, mx, N * C * out_size, 0);
		expect_values(1, avg, N * C * out_size, 1e-6);
		free(mx);
		free(avg);
	}
	/* hand-checked: 1..6 in windows of 2, stride 2, one cell of padding each side */
	teardown(NULL);
	setup(NULL);
	{
		static const double x[] = {1, 2, 3, 4, 5, 6};
		static const double want_max[] = {1, 3, 5, 6}, want_avg[] = {0.5, 2.5, 4.5, 3};
		in_values("x", DT_FLOAT32, SHAPE(1, 1, 6), x);
		run_body("(nn.max_pool1d(%x, pool_size=[2], strides=[2], padding=[1]), "
			 "nn.avg_pool1d(%x, pool_size=[2], strides=[2], padding=[1], "
			 "count_include_pad=True))");
		expect_values(0, want_max, 4, 0);
		expect_values(1, want_avg, 4, 0);
	}
}

/* The adaptive poolings of every rank and nn.global_max_pool2d: output
 * position i over extent `in` of `out` reads [floor(i * in / out),
 * ceil((i + 1) * in / out)), computed here in floating point. */
static void test_adaptive_pooling(void **state)
{
	static const struct {
		int rank;
		int64_t in[3], out[3];
	} cases[] = {
		{1, {10}, {3}},      {1, {3}, {5}},       {2, {7, 9}, {3, 4}},
		{2, {6, 6}, {1, 1}}, {2, {4, 5}, {4, 5}}, {3, {5, 4, 7}, {2, 3, 3}},
	};
	static const char *const names[2][4] = {
		{NULL, "nn.adaptive_avg_pool1d", "nn.adaptive_avg_pool2d",
		 "nn.adaptive_avg_pool3d"},
		{NULL, "nn.adaptive_max_pool1d", "nn.adaptive_max_pool2d",
		 "nn.adaptive_max_pool3d"}};
	(void)state;
	for (size_t c = 0; c < DP_COUNT(cases); c++) {
		int r = cases[c].rank;
		int64_t N = 2, C = 3, in[3] = {1, 1, 1}, out[3] = {1, 1, 1};
		int64_t xshape[5] = {N, C}, yshape[5] = {N, C}, in_size = 1, out_size = 1;
		char attrs[128] = "", body[512];
		double *mx, *avg;
		for (int i = 0; i < r; i++) {
			in[3 - r + i] = xshape[2 + i] = cases[c].in[i];
			out[3 - r + i] = yshape[2 + i] = cases[c].out[i];
			in_size *= cases[c].in[i];
			out_size *= cases[c].out[i];
		}
		append_list(attrs, sizeof attrs, "output_size", cases[c].out, r);
		mx = xmalloc((size_t)(N * C * out_size) * sizeof(double));
		avg = xmalloc((size_t)(N * C * out_size) * sizeof(double));
		teardown(NULL);
		setup(NULL);
		in_random("x", DT_FLOAT32, (uint32_t)r + 2, xshape);
		snprintf(body, sizeof body, "(%s(%%x%s), %s(%%x%s))", names[0][r], attrs,
			 names[1][r], attrs);
		run_body(body);
		expect_shape(0, (uint32_t)r + 2, yshape);
		expect_shape(1, (uint32_t)r + 2, yshape);
		for (int64_t plane = 0; plane < N * C; plane++)
			for (int64_t o = 0; o < out_size; o++) {
				int64_t pos[3] = {o / (out[1] * out[2]), o / out[2] % out[1],
						  o % out[2]};
				int64_t lo[3], hi[3];
				double m = -INFINITY, sum = 0;
				int64_t count = 0;
				for (int j = 0; j < 3; j++) {
					lo[j] = (int64_t)floor((double)(pos[j] * in[j]) /
							       (double)out[j]);
					hi[j] = (int64_t)ceil((double)((pos[j] + 1) * in[j]) /
							      (double)out[j]);
				}
				for (int64_t z = lo[0]; z < hi[0]; z++)
					for (int64_t y = lo[1]; y < hi[1]; y++)
						for (int64_t x = lo[2]; x < hi[2]; x++) {
							double v = in_at(
								0, plane * in_size +
									   (z * in[1] + y) * in[2] +
									   x);
							m = fmax(m, v);
							sum += v;
							count++;
						}
				avg[plane * out_size + o] = sum / (double)count;
				mx[plane * out_size + o] = m;
			}
		expect_values(0, avg, N * C * out_size, 1e-6);
		expect_values(1, mx, N * C * out_size, 0);
		free(mx);
		free(avg);
	}
	/* hand-checked: 1..5 to 3 positions reads [0, 2), [1, 4), [3, 5); the
	 * global max of each 2x2 plane */
	teardown(NULL);
	setup(NULL);
	{
		static const double x[] = {1, 2, 3, 4, 5};
		static const double want_avg[] = {1.5, 3, 4.5}, want_max[] = {2, 4, 5};
		static const double planes[] = {1, 7, 3, 4, -1, -2, -8, -3}, peaks[] = {7, -1};
		in_values("x", DT_FLOAT32, SHAPE(1, 1, 5), x);
		run_body("(nn.adaptive_avg_pool1d(%x, output_size=[3]), "
			 "nn.adaptive_max_pool1d(%x, output_size=[3]))");
		expect_values(0, want_avg, 3, 0);
		expect_values(1, want_max, 3, 0);
		teardown(NULL);
		setup(NULL);
		in_values("x", DT_FLOAT32, SHAPE(1, 2, 2, 2), planes);
		run_body("nn.global_max_pool2d(%x)");
		EXPECT_SHAPE(0, 1, 2, 1, 1);
		expect_values(0, peaks, 2, 0);
	}
}

/* ---- resampling ------------------------------------------------------------------ */

/* topi's resize arithmetic (python/tvm/topi/image/resize.py), written out
 * here again for one spatial dimension, in float32 as topi computes the
 * coordinate (a tie such as 1.5 * 6 / 9 - 0.5 rounds differently in
 * double): the input coordinate of output position x. */
static float ref_resize_coordinate(const char *mode, int64_t x, int64_t image, int64_t target,
				   float start, float end)
{
	float scale = (float)image / (float)target, fx = (float)x;
	if (strcmp(mode, "half_pixel") == 0)
		return (fx + 0.5f) * scale - 0.5f;
	if (strcmp(mode, "align_corners") == 0)
		return target > 1 ? (float)(image - 1) / (float)(target - 1) * fx : 0.0f;
	if (strcmp(mode, "asymmetric") == 0)
		return scale * fx;
	if (strcmp(mode, "pytorch_half_pixel") == 0)
		return target > 1 ? (fx + 0.5f) * scale - 0.5f : 0.0f;
	if (strcmp(mode, "tf_half_pixel_for_nn") == 0)
		return (fx + 0.5f) * scale;
	/* tf_crop_and_resize */
	return target > 1 ? start * (float)(image - 1) +
				    fx * (end - start) * (float)(image - 1) / (float)(target - 1)
			  : 0.5f * (start + end) * (float)(image - 1);
}

static int64_t ref_resize_nearest(const char *rounding, float v)
{
	if (strcmp(rounding, "round") == 0)
		return (int64_t)roundf(v);
	if (strcmp(rounding, "round_prefer_floor") == 0)
		return (int64_t)ceilf(v - 0.5f);
	if (strcmp(rounding, "round_prefer_ceil") == 0)
		return (int64_t)floorf(v + 0.5f);
	if (strcmp(rounding, "floor") == 0)
		return (int64_t)floorf(v + 1e-5f);
	return (int64_t)ceilf(v - 1e-5f);
}

/* Pixel (y, x) of a h x w plane, the position clamped to the plane. */
static double ref_pixel(size_t input, int64_t base, int64_t h, int64_t w, int64_t y, int64_t x)
{
	y = y < 0 ? 0 : y >= h ? h - 1 : y;
	x = x < 0 ? 0 : x >= w ? w - 1 : x;
	return in_at(input, base + y * w + x);
}

static void ref_cubic_weights(double t, double a, double wt[4])
{
	wt[0] = a * (t * t * t - 2 * t * t + t);
	wt[1] = (a + 2) * t * t * t - (3 + a) * t * t + 1;
	wt[2] = -(a + 2) * t * t * t + (3 + 2 * a) * t * t - a * t;
	wt[3] = -a * t * t * t + a * t * t;
}

typedef struct ResizeRef {
	const char *method, *mode, *rounding;
	double alpha;
	int exclude;
	double roi[4]; /* start_h, start_w, end_h, end_w */
	double extrapolation;
} ResizeRef;

/* image.resize2d of the NCHW input 0, planes x h x w, to oh x ow. */
static void ref_resize2d(const ResizeRef *k, int64_t planes, int64_t h, int64_t w, int64_t oh,
			 int64_t ow, double *want)
{
	for (int64_t p = 0; p < planes; p++)
		for (int64_t oy = 0; oy < oh; oy++)
			for (int64_t ox = 0; ox < ow; ox++) {
				float iy = ref_resize_coordinate(
					k->mode, oy, h, oh, (float)k->roi[0], (float)k->roi[2]);
				float ix = ref_resize_coordinate(
					k->mode, ox, w, ow, (float)k->roi[1], (float)k->roi[3]);
				int64_t base = p * h * w;
				double v;
				if (strcmp(k->method, "nearest_neighbor") == 0) {
					v = ref_pixel(0, base, h, w,
						      ref_resize_nearest(k->rounding, iy),
						      ref_resize_nearest(k->rounding, ix));
				} else if (strcmp(k->method, "linear") == 0) {
					int64_t y0 = (int64_t)floor(iy), x0 = (int64_t)floor(ix);
					double ty = iy - (double)y0, tx = ix - (double)x0;
					double top = ref_pixel(0, base, h, w, y0, x0) * (1 - tx) +
						     ref_pixel(0, base, h, w, y0, x0 + 1) * tx;
					double bottom =
						ref_pixel(0, base, h, w, y0 + 1, x0) * (1 - tx) +
						ref_pixel(0, base, h, w, y0 + 1, x0 + 1) * tx;
					v = top * (1 - ty) + bottom * ty;
				} else {
					int64_t y0 = (int64_t)floor(iy), x0 = (int64_t)floor(ix);
					double wy[4], wx[4], sy = 0, sx = 0;
					ref_cubic_weights(iy - (double)y0, k->alpha, wy);
					ref_cubic_weights(ix - (double)x0, k->alpha, wx);
					for (int i = 0; i < 4; i++) {
						if (k->exclude && (x0 - 1 + i < 0 || x0 + i > w))
							wx[i] = 0;
						if (k->exclude && (y0 - 1 + i < 0 || y0 + i > h))
							wy[i] = 0;
						sx += wx[i];
						sy += wy[i];
					}
					v = 0;
					for (int j = 0; j < 4; j++) {
						double row = 0;
						for (int i = 0; i < 4; i++)
							row += ref_pixel(0, base, h, w, y0 - 1 + j,
									 x0 - 1 + i) *
							       (k->exclude ? wx[i] / sx : wx[i]);
						v += row * (k->exclude ? wy[j] / sy : wy[j]);
					}
				}
				if (strcmp(k->mode, "tf_crop_and_resize") == 0 &&
				    (iy < 0 || iy > (float)(h - 1) || ix < 0 ||
				     ix > (float)(w - 1)))
					v = k->extrapolation;
				want[(p * oh + oy) * ow + ox] = v;
			}
}

/* image.resize2d, every method, coordinate transformation and rounding
 * method, growing and shrinking, against the reference above; then values
 * PyTorch's F.interpolate is known to give. */
static void test_resize2d(void **state)
{
	static const char *const modes[] = {"half_pixel",           "align_corners",
					    "asymmetric",           "pytorch_half_pixel",
					    "tf_half_pixel_for_nn", "tf_crop_and_resize"};
	static const char *const roundings[] = {"round", "floor", "ceil", "round_prefer_floor",
						"round_prefer_ceil"};
	static const int64_t sizes[][2] = {{8, 9}, {3, 4}, {1, 5}};
	int64_t N = 2, C = 3, H = 4, W = 6;
	(void)state;
	for (size_t z = 0; z < DP_COUNT(sizes); z++)
		for (int method = 0; method < 3; method++)
			for (size_t m = 0; m < DP_COUNT(modes); m++)
				for (size_t r = 0; r < (method == 0 ? DP_COUNT(roundings) : 2);
				     r++) {
					static const char *const methods[] = {"nearest_neighbor",
									      "linear", "cubic"};
					int64_t oh = sizes[z][0], ow = sizes[z][1];
					ResizeRef k = {methods[method],
						       modes[m],
						       method == 0 ? roundings[r] : "round",
						       r ? -0.75 : -0.5,
						       method == 2 && r == 1,
						       {-0.2, 0.1, 1.1, 0.8},
						       -3.5};
					char body[512];
					double *want =
						xmalloc((size_t)(N * C * oh * ow) * sizeof(double));
					teardown(NULL);
					setup(NULL);
					RAND("x", DT_FLOAT32, N, C, H, W);
					snprintf(body, sizeof body,
						 "image.resize2d(%%x, size=[%lld, %lld], "
						 "roi=[-0.2f, 0.1f, "
						 "1.1f, 0.8f], method=\"%s\", "
						 "coordinate_transformation_mode=\"%s\", "
						 "rounding_method=\"%s\", cubic_alpha=%gf, "
						 "cubic_exclude=%d, "
						 "extrapolation_value=-3.5f)",
						 (long long)oh, (long long)ow, k.method, k.mode,
						 k.rounding, k.alpha, k.exclude);
					run_body(body);
					EXPECT_SHAPE(0, N, C, oh, ow);
					ref_resize2d(&k, N * C, H, W, oh, ow, want);
					expect_values(0, want, N * C * oh * ow, 1e-5);
					free(want);
				}
	teardown(NULL);
	setup(NULL);
	{
		static const double x[] = {1, 2, 3, 4}, row[] = {1, 2, 3, 4};
		/* F.interpolate(x, size=(4, 4), mode="bilinear", align_corners=False) */
		static const double bilinear[] = {1.0, 1.25, 1.75, 2.0, 1.5, 1.75, 2.25, 2.5,
						  2.5, 2.75, 3.25, 3.5, 3.0, 3.25, 3.75, 4.0};
		/* the same with align_corners=True, to 3 x 3 */
		static const double corners[] = {1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4};
		/* F.interpolate(x, scale_factor=2, mode="nearest") */
		static const double nearest[] = {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4};
		/* F.interpolate(row, size=(1, 8), mode="bicubic", align_corners=False):
		 * PyTorch's A = -0.75 */
		static const double bicubic[] = {0.89453125, 1.19140625, 1.66796875, 2.296875,
						 2.703125,   3.33203125, 3.80859375, 4.10546875};
		in_values("x", DT_FLOAT32, SHAPE(1, 1, 2, 2), x);
		in_values("row", DT_FLOAT32, SHAPE(1, 1, 1, 4), row);
		run_body("(image.resize2d(%x, size=[4, 4]), "
			 "image.resize2d(%x, size=[3, 3], "
			 "coordinate_transformation_mode=\"align_corners\"), "
			 "nn.upsampling(%x, scale_h=2f, scale_w=2f), "
			 "image.resize2d(%row, size=[1, 8], method=\"cubic\", cubic_alpha=-0.75f), "
			 "nn.upsampling(%x, scale_h=1.5f, scale_w=1.5f, method=\"bilinear\", "
			 "align_corners=True))");
		expect_values(0, bilinear, 16, 1e-6);
		expect_values(1, corners, 9, 1e-6);
		expect_values(2, nearest, 16, 0);
		expect_values(3, bicubic, 8, 1e-6);
		expect_values(4, corners, 9, 1e-6);
	}
}

/* The other ranks and layouts of the same arithmetic: image.resize1d and
 * resize3d, NHWC, nn.upsampling's bicubic and nn.upsampling3d, each
 * against image.resize2d on the same data (which test_resize2d checks)
 * or hand-checked values. */
static void test_resize_other_ranks(void **state)
{
	(void)state;
	{
		/* 1-D linear, half_pixel: 1, 3 to 4 positions at -0.25, 0.25, 0.75, 1.25 */
		static const double x[] = {1, 3}, want[] = {1, 1.5, 2.5, 3};
		/* 3-D nearest, asymmetric: each of 2 x 1 x 2 values doubled on every axis */
		static const double cube[] = {1, 2, 3, 4};
		double big[32];
		teardown(NULL);
		setup(NULL);
		in_values("x", DT_FLOAT64, SHAPE(1, 1, 2), x);
		in_values("v", DT_FLOAT64, SHAPE(1, 1, 2, 1, 2), cube);
		run_body("(image.resize1d(%x, size=[4]), "
			 "nn.upsampling3d(%v, scale_d=2f, scale_h=2f, scale_w=2f, "
			 "coordinate_transformation_mode=\"asymmetric\"), "
			 "image.resize3d(%v, size=[4, 2, 4], method=\"nearest_neighbor\", "
			 "coordinate_transformation_mode=\"asymmetric\", "
			 "rounding_method=\"floor\"))");
		expect_values(0, want, 4, 1e-12);
		for (int z = 0; z < 4; z++)
			for (int y = 0; y < 2; y++)
				for (int xx = 0; xx < 4; xx++)
					big[(z * 2 + y) * 4 + xx] = cube[(z / 2) * 2 + xx / 2];
		EXPECT_SHAPE(1, 1, 1, 4, 2, 4);
		expect_values(1, big, 32, 0);
		expect_values(2, big, 32, 0);
	}
	{
		/* trilinear on a 2 x 2 x 2 cube with align_corners: the centre of
		 * a 3 x 3 x 3 output is the mean of the eight corners */
		static const double cube[] = {1, 2, 3, 4, 5, 6, 7, 8};
		teardown(NULL);
		setup(NULL);
		in_values("v", DT_FLOAT32, SHAPE(1, 1, 2, 2, 2), cube);
		run_body("nn.upsampling3d(%v, scale_d=1.5f, scale_h=1.5f, scale_w=1.5f, "
			 "method=\"trilinear\", coordinate_transformation_mode=\"align_corners\")");
		EXPECT_SHAPE(0, 1, 1, 3, 3, 3);
		assert_true(fabs(exec_element(&result.outputs[0], 13) - 4.5) < 1e-6);
		assert_true(fabs(exec_element(&result.outputs[0], 26) - 8) < 1e-6);
		assert_true(fabs(exec_element(&result.outputs[0], 1) - 1.5) < 1e-6);
	}
	{
		/* NHWC is NCHW with the channels last; bicubic upsampling is cubic
		 * resize with asymmetric coordinates */
		int64_t N = 2, C = 3, H = 4, W = 5;
		const NpyArray *a, *b, *u, *v;
		teardown(NULL);
		setup(NULL);
		RAND("x", DT_FLOAT32, N, H, W, C);
		run_body("(image.resize2d(%x, size=[7, 3], layout=\"NHWC\", method=\"cubic\"), "
			 "image.resize2d(transpose(%x, axes=[0, 3, 1, 2]), size=[7, 3], "
			 "method=\"cubic\"), "
			 "nn.upsampling(%x, scale_h=2f, scale_w=2f, layout=\"NHWC\", "
			 "method=\"bicubic\"), "
			 "image.resize2d(%x, size=[8, 10], layout=\"NHWC\", method=\"cubic\", "
			 "coordinate_transformation_mode=\"asymmetric\"))");
		a = &result.outputs[0];
		b = &result.outputs[1];
		EXPECT_SHAPE(0, N, 7, 3, C);
		for (int64_t n = 0; n < N; n++)
			for (int64_t c = 0; c < C; c++)
				for (int64_t i = 0; i < 21; i++)
					assert_true(fabs(exec_element(a, (n * 21 + i) * C + c) -
							 exec_element(b, (n * C + c) * 21 + i)) <
						    1e-6);
		u = &result.outputs[2];
		v = &result.outputs[3];
		for (int64_t i = 0; i < N * 8 * 10 * C; i++)
			assert_true(fabs(exec_element(u, i) - exec_element(v, i)) < 1e-6);
	}
}

/* ---- the rest of the elementwise family ---------------------------------- */

/* The float binary operators against the C library, on broadcast operands. */
static double apply_float_binary(const char *op, double x, double y)
{
	if (!strcmp(op, "power"))
		return pow(x, y);
	if (!strcmp(op, "mod") || !strcmp(op, "trunc_mod"))
		return fmod(x, y);
	if (!strcmp(op, "trunc_divide"))
		return trunc(x / y);
	if (!strcmp(op, "floor_divide"))
		return floor(x / y);
	if (!strcmp(op, "floor_mod"))
		return x - floor(x / y) * y;
	if (!strcmp(op, "logical_and"))
		return x != 0 && y != 0;
	if (!strcmp(op, "logical_or"))
		return x != 0 || y != 0;
	if (!strcmp(op, "logical_xor"))
		return (x != 0) != (y != 0);
	if (!strcmp(op, "equal"))
		return x == y;
	if (!strcmp(op, "not_equal"))
		return x != y;
	if (!strcmp(op, "less"))
		return x < y;
	if (!strcmp(op, "less_equal"))
		return x <= y;
	if (!strcmp(op, "greater"))
		return x > y;
	return x >= y; /* greater_equal */
}

static void check_float_binary(const char *op, DType dt, bool compare)
{
	static const int64_t sa[] = {2, 1, 4}, sb[] = {3, 1}, so[] = {2, 3, 4};
	double want[24];
	char body[64];
	teardown(NULL);
	setup(NULL);
	in_random("a", dt, 3, sa);
	in_random("b", dt, 2, sb);
	snprintf(body, sizeof body, "%s(%%a, %%b)", op);
	run_body(body);
	expect_shape(0, 3, so);
	assert_int_equal(result.outputs[0].dtype, compare ? DT_BOOL : dt);
	for (int64_t i = 0; i < 24; i++) {
		double x = in_at(0, broadcast_index(so, 3, sa, 3, i));
		double y = in_at(1, broadcast_index(so, 3, sb, 2, i));
		want[i] = apply_float_binary(op, x, y);
		if (!compare && dt == DT_FLOAT32)
			want[i] = (float)want[i];
	}
	expect_values(0, want, 24, dt == DT_FLOAT16 ? 2e-3 : 1e-6);
}

static void test_binary_math_and_comparisons(void **state)
{
	static const char *const arith[] = {"power",     "mod",          "trunc_mod",
					    "floor_mod", "trunc_divide", "floor_divide"};
	static const char *const logical[] = {"logical_and", "logical_or", "logical_xor"};
	static const char *const cmp[] = {"equal",      "not_equal", "less",
					  "less_equal", "greater",   "greater_equal"};
	static const DType dtypes[] = {DT_FLOAT32, DT_FLOAT64, DT_FLOAT16};
	(void)state;
	for (size_t o = 0; o < DP_COUNT(arith); o++)
		for (size_t d = 0; d < DP_COUNT(dtypes); d++)
			check_float_binary(arith[o], dtypes[d], false);
	for (size_t o = 0; o < DP_COUNT(cmp); o++) {
		for (size_t d = 0; d < DP_COUNT(dtypes); d++)
			check_float_binary(cmp[o], dtypes[d], true);
		check_float_binary(cmp[o], DT_INT64, true);
		check_float_binary(cmp[o], DT_BOOL, true);
	}
	for (size_t o = 0; o < DP_COUNT(logical); o++)
		check_float_binary(logical[o], DT_BOOL, false);
}

/* Hand-checked: the signs of integer division and modulo, by zero too. */
static void test_integer_division_family(void **state)
{
	static const double a[] = {7, -7, 7, -7, 5};
	static const double b[] = {2, 2, -2, -2, 0};
	static const double floordiv[] = {3, -4, -4, 3, 0}, floormod[] = {1, 1, -1, -1, 0};
	static const double truncdiv[] = {3, -3, -3, 3, 0}, truncmod[] = {1, -1, 1, -1, 0};
	static const double pw[] = {49, 49, 0, 0, 1};
	static const double fa[] = {-7.5, 7.5}, fb[] = {2, -2};
	static const double ffloormod[] = {0.5, -0.5}, fmod_[] = {-1.5, 1.5};
	(void)state;
	in_values("a", DT_INT32, SHAPE(5), a);
	in_values("b", DT_INT32, SHAPE(5), b);
	in_values("x", DT_FLOAT32, SHAPE(2), fa);
	in_values("y", DT_FLOAT32, SHAPE(2), fb);
	run_body("(floor_divide(%a, %b), floor_mod(%a, %b), trunc_divide(%a, %b), "
		 "trunc_mod(%a, %b), mod(%a, %b), power(%a, %b), floor_mod(%x, %y), mod(%x, %y))");
	expect_values(0, floordiv, 5, 0);
	expect_values(1, floormod, 5, 0);
	expect_values(2, truncdiv, 5, 0);
	expect_values(3, truncmod, 5, 0);
	expect_values(4, truncmod, 5, 0);
	expect_values(5, pw, 5, 0);
	expect_values(6, ffloormod, 2, 0);
	expect_values(7, fmod_, 2, 0);
}

/* Hand-checked: bitwise operators and shifts, out-of-range shifts included. */
static void test_bitwise(void **state)
{
	static const double a[] = {12, -8, 5}, b[] = {10, 1, 70};
	static const double and_[] = {8, 0, 4}, or_[] = {14, -7, 71}, xor_[] = {6, -7, 67};
	static const double shl[] = {12288, -16, 0}, shr[] = {0, -4, 0};
	static const double not_[] = {-13, 7, -6};
	static const double p[] = {1, 0, 1}, q[] = {1, 1, 0};
	static const double pnot[] = {0, 1, 0}, pand[] = {1, 0, 0};
	(void)state;
	in_values("a", DT_INT32, SHAPE(3), a);
	in_values("b", DT_INT32, SHAPE(3), b);
	in_values("p", DT_BOOL, SHAPE(3), p);
	in_values("q", DT_BOOL, SHAPE(3), q);
	run_body("(bitwise_and(%a, %b), bitwise_or(%a, %b), bitwise_xor(%a, %b), "
		 "left_shift(%a, %b), right_shift(%a, %b), bitwise_not(%a), bitwise_not(%p), "
		 "logical_not(%p), bitwise_and(%p, %q))");
	expect_values(0, and_, 3, 0);
	expect_values(1, or_, 3, 0);
	expect_values(2, xor_, 3, 0);
	expect_values(3, shl, 3, 0);
	expect_values(4, shr, 3, 0);
	expect_values(5, not_, 3, 0);
	expect_values(6, pnot, 3, 0);
	expect_values(7, pnot, 3, 0);
	expect_values(8, pand, 3, 0);
}

static double apply_math(const char *op, double x)
{
	static const struct {
		const char *name;
		double (*fn)(double);
	} fns[] = {{"erf", erf},    {"fast_erf", erf}, {"fast_exp", exp}, {"fast_tanh", tanh},
		   {"log2", log2},  {"log10", log10},  {"sin", sin},      {"cos", cos},
		   {"tan", tan},    {"asin", asin},    {"acos", acos},    {"atan", atan},
		   {"sinh", sinh},  {"cosh", cosh},    {"asinh", asinh},  {"acosh", acosh},
		   {"atanh", atanh}};
	for (size_t i = 0; i < DP_COUNT(fns); i++)
		if (!strcmp(op, fns[i].name))
			return fns[i].fn(x);
	return 1 / sqrt(x); /* rsqrt */
}

static void test_unary_math(void **state)
{
	static const char *const ops[] = {"erf",   "fast_erf", "fast_exp", "fast_tanh", "rsqrt",
					  "log2",  "log10",    "sin",      "cos",       "tan",
					  "asin",  "acos",     "atan",     "sinh",      "cosh",
					  "asinh", "acosh",    "atanh"};
	static const DType dtypes[] = {DT_FLOAT32, DT_FLOAT64, DT_FLOAT16};
	(void)state;
	for (size_t o = 0; o < DP_COUNT(ops); o++)
		for (size_t d = 0; d < DP_COUNT(dtypes); d++) {
			char body[64];
			double want[60];
			teardown(NULL);
			setup(NULL);
			RAND("x", dtypes[d], 6, 10);
			snprintf(body, sizeof body, "%s(%%x)", ops[o]);
			run_body(body);
			for (int i = 0; i < 60; i++)
				want[i] = apply_math(ops[o], in_at(0, i));
			expect_values(0, want, 60, dtypes[d] == DT_FLOAT16 ? 2e-3 : 1e-6);
		}
	/* fast_erf is TVM's rational approximation: clamped far out, NaN kept,
	 * odd, and within 5e-7 of erf on a fine grid of [-5, 5] */
	{
		static const double special[] = {NAN, 10, -10, 0, 4, -4};
		double grid[1001], want[1001];
		for (int i = 0; i < 1001; i++)
			grid[i] = -5 + i * 0.01;
		for (int d = 0; d < 2; d++) {
			teardown(NULL);
			setup(NULL);
			in_values("s", DT_FLOAT32, SHAPE(6), special);
			in_values("g", d ? DT_FLOAT16 : DT_FLOAT32, SHAPE(1001), grid);
			run_body("(fast_erf(%s), fast_erf(%g))");
			for (int i = 0; i < 6; i++)
				want[i] = i < 3 ? special[i] / (i ? 10 : 1) : erf(special[i]);
			expect_values(0, want, 6, 5e-7);
			for (int i = 0; i < 1001; i++)
				want[i] = erf(in_at(1, i));
			expect_values(1, want, 1001, d ? 1e-3 : 5e-7);
		}
	}
	/* the float32 loop runs in AVX-512, AVX2 or SSE2 vectors, whichever
	 * the machine has (cpu_elementwise.c): every element, the vector tails
	 * of an odd count and the clamp's specials included, has the bits of
	 * the scalar formula this test computes with the same header */
	{
		double x[1003], want[1003];
		for (int i = 0; i < 1003; i++)
			x[i] = (double)(float)(-6 + i * 0.01171875 + i % 7 * 1e-4);
		x[0] = NAN;
		x[500] = INFINITY;
		x[1001] = -INFINITY;
		x[1002] = 4.0000005;
		teardown(NULL);
		setup(NULL);
		in_values("x", DT_FLOAT32, SHAPE(1003), x);
		run_body("fast_erf(%x)");
		for (int i = 0; i < 1003; i++)
			want[i] = kernel_fast_erf((float)x[i]);
		expect_values(0, want, 1003, 0);
	}
}

/* Hand-checked: rounding (half to even, as TVM's round), sign, and the
 * classification of NaN and infinities. */
static void test_rounding_and_classes(void **state)
{
	static const double x[] = {-2.5, -0.5, 0.5, 1.5, 2.5, -1.25};
	static const double round_[] = {-2, -0, 0, 2, 2, -1};
	static const double ceil_[] = {-2, -0, 1, 2, 3, -1};
	static const double floor_[] = {-3, -1, 0, 1, 2, -2};
	static const double trunc_[] = {-2, -0, 0, 1, 2, -1};
	static const double abs_[] = {2.5, 0.5, 0.5, 1.5, 2.5, 1.25};
	static const double sign_[] = {-1, -1, 1, 1, 1, -1};
	static const double c[] = {NAN, INFINITY, -INFINITY, 1};
	static const double isnan_[] = {1, 0, 0, 0}, isinf_[] = {0, 1, 1, 0},
			    isfinite_[] = {0, 0, 0, 1};
	static const double i[] = {-3, 0, 7}, iabs[] = {3, 0, 7}, isign[] = {-1, 0, 1},
			    ones[] = {1, 1, 1};
	(void)state;
	in_values("x", DT_FLOAT32, SHAPE(6), x);
	in_values("c", DT_FLOAT64, SHAPE(4), c);
	in_values("i", DT_INT64, SHAPE(3), i);
	run_body("(round(%x), ceil(%x), floor(%x), trunc(%x), abs(%x), sign(%x), isnan(%c), "
		 "isinf(%c), isfinite(%c), abs(%i), sign(%i), floor(%i), isfinite(%i))");
	expect_values(0, round_, 6, 0);
	expect_values(1, ceil_, 6, 0);
	expect_values(2, floor_, 6, 0);
	expect_values(3, trunc_, 6, 0);
	expect_values(4, abs_, 6, 0);
	expect_values(5, sign_, 6, 0);
	expect_values(6, isnan_, 4, 0);
	assert_int_equal(result.outputs[6].dtype, DT_BOOL);
	expect_values(7, isinf_, 4, 0);
	expect_values(8, isfinite_, 4, 0);
	expect_values(9, iabs, 3, 0);
	expect_values(10, isign, 3, 0);
	expect_values(11, i, 3, 0);
	expect_values(12, ones, 3, 0);
}

/* where against a naive three-way broadcast: cond broadcast along the last
 * axis or not, a scalar y, and three operands of the result's shape (the
 * typed loops' contiguous path). */
static void test_where(void **state)
{
	static const struct {
		uint32_t nc, nx, ny;
		int64_t sc[3], sx[3], sy[3];
	} shapes[] = {
		{3, 2, 0, {2, 1, 3}, {4, 3}, {0}},
		{3, 3, 3, {2, 4, 3}, {2, 4, 3}, {2, 4, 3}},
		{2, 3, 1, {4, 1}, {2, 4, 3}, {3}},
	};
	static const int64_t so[] = {2, 4, 3};
	static const DType conds[] = {DT_BOOL, DT_INT32, DT_FLOAT32};
	static const DType values[] = {DT_FLOAT32, DT_INT64, DT_FLOAT16, DT_BOOL};
	(void)state;
	for (size_t k = 0; k < DP_COUNT(shapes); k++)
		for (size_t c = 0; c < DP_COUNT(conds); c++)
			for (size_t v = 0; v < DP_COUNT(values); v++) {
				double want[24];
				teardown(NULL);
				setup(NULL);
				in_random("c", conds[c], shapes[k].nc, shapes[k].sc);
				in_random("x", values[v], shapes[k].nx, shapes[k].sx);
				in_random("y", values[v], shapes[k].ny, shapes[k].sy);
				run_body("where(%c, %x, %y)");
				expect_shape(0, 3, so);
				for (int64_t i = 0; i < 24; i++)
					want[i] =
						in_at(0, broadcast_index(so, 3, shapes[k].sc,
									 shapes[k].nc, i)) != 0
							? in_at(1,
								broadcast_index(so, 3, shapes[k].sx,
										shapes[k].nx, i))
							: in_at(2,
								broadcast_index(so, 3, shapes[k].sy,
										shapes[k].ny, i));
				expect_values(0, want, 24, 0);
			}
}

/* take against a naive gather: every mode, with and without an axis, with
 * batch_dims; shape_of and copy. */
static void test_take_shape_of_copy(void **state)
{
	static const double idx[] = {0, 2, -1, 5};
	static const double clip_ax1[] = {0, 2, 0, 2}, wrap_ax1[] = {0, 2, 2, 2};
	static const double shape[] = {2, 3, 4};
	const int64_t n = 2 * 3 * 4;
	(void)state;
	in_random("d", DT_FLOAT32, 3, (int64_t[]){2, 3, 4});
	in_values("i", DT_INT32, SHAPE(2, 2), idx);
	run_body("(take(%d, %i, axis=1), take(%d, %i, axis=1, mode=\"wrap\"), take(%d, %i), "
		 "take(%d, %i, axis=-1, mode=\"fast\"), take(%d, %i, axis=1, batch_dims=1), "
		 "shape_of(%d), shape_of(%d, dtype=\"int64\"), copy(%d))");
	/* axis 1: out [2, 2, 2, 4] = d[a, k(i[p, q]), c] */
	for (int mode = 0; mode < 2; mode++) {
		double want[32];
		const double *k = mode ? wrap_ax1 : clip_ax1;
		EXPECT_SHAPE(mode, 2, 2, 2, 4);
		for (int a = 0; a < 2; a++)
			for (int j = 0; j < 4; j++)
				for (int c = 0; c < 4; c++)
					want[(a * 4 + j) * 4 + c] =
						in_at(0, (a * 3 + (int64_t)k[j]) * 4 + c);
		expect_values(mode, want, 32, 0);
	}
	{ /* no axis: the flat data, indices clipped to [0, 23] */
		double want[4] = {in_at(0, 0), in_at(0, 2), in_at(0, 0), in_at(0, 5)};
		EXPECT_SHAPE(2, 2, 2);
		expect_values(2, want, 4, 0);
	}
	{ /* the last axis, fast mode clamped like clip */
		double want[24 / 4 * 4];
		EXPECT_SHAPE(3, 2, 3, 2, 2);
		for (int r = 0; r < 6; r++)
			for (int j = 0; j < 4; j++)
				want[r * 4 + j] = in_at(0, r * 4 + (j == 2   ? 0
								    : j == 3 ? 3
									     : (int)idx[j]));
		expect_values(3, want, 24, 0);
	}
	{ /* batch_dims=1: out[b, q, c] = d[b, k(i[b, q]), c] */
		double want[16];
		EXPECT_SHAPE(4, 2, 2, 4);
		for (int b = 0; b < 2; b++)
			for (int q = 0; q < 2; q++)
				for (int c = 0; c < 4; c++)
					want[(b * 2 + q) * 4 + c] = in_at(
						0, (b * 3 + (int64_t)clip_ax1[b * 2 + q]) * 4 + c);
		expect_values(4, want, 16, 0);
	}
	assert_int_equal(result.outputs[5].dtype, DT_INT32); /* TVM's default */
	expect_values(5, shape, 3, 0);
	assert_int_equal(result.outputs[6].dtype, DT_INT64);
	expect_values(6, shape, 3, 0);
	{
		double want[24];
		for (int64_t i = 0; i < n; i++)
			want[i] = in_at(0, i);
		expect_values(7, want, n, 0);
	}
}

/* ---- gathers and scatters ------------------------------------------------------ */

/* Hand-checked gather and gather_nd (negative indices count from the end,
 * larger ones clamp), and gather on random data against a naive loop. */
static void test_gather(void **state)
{
	static const double d[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
	static const double i1[] = {0, 0, 1, 0, 2, -1}, w1[] = {1, 1, 5, 4, 9, 9};
	static const double i0[] = {1, 2, 0, 2, 0, 7}, w0[] = {4, 8, 3, 7, 2, 9};
	static const double e[] = {0, 1, 2, 3, 4, 5, 6, 7};
	static const double t2[] = {1, 0, 0, 1}, t1[] = {1, -2}, tb[] = {1, 0};
	static const double wt1[] = {4, 5, 6, 7, 0, 1, 2, 3}, wtb[] = {2, 3, 4, 5};
	static const double i3[] = {0, 2, -1, 1, 9, 0,  1, 1, 2, 0, -3, 2, 1, 0, 2,
				    2, 0, 1,  1, 2, -9, 3, 3, 0, 1, -2, 0, 2, 1, 3};
	(void)state;
	in_values("d", DT_FLOAT32, SHAPE(3, 3), d);
	in_values("a", DT_INT32, SHAPE(3, 2), i1);
	in_values("b", DT_INT64, SHAPE(2, 3), i0);
	in_values("e", DT_INT16, SHAPE(2, 2, 2), e);
	in_values("t", DT_INT32, SHAPE(2, 2), t2);
	in_values("u", DT_INT64, SHAPE(1, 2), t1);
	in_values("v", DT_INT32, SHAPE(1, 2), tb);
	run_body("(gather(%d, %a, axis=1), gather(%d, %b, axis=0), gather_nd(%d, %t), "
		 "gather_nd(%e, %u), gather_nd(%e, %v, batch_dims=1))");
	EXPECT_SHAPE(0, 3, 2);
	expect_values(0, w1, 6, 0);
	EXPECT_SHAPE(1, 2, 3);
	expect_values(1, w0, 6, 0);
	/* tuples (1, 0) and (0, 1) of a 3x3 */
	EXPECT_SHAPE(2, 2);
	{
		double want[2] = {4, 2};
		expect_values(2, want, 2, 0);
	}
	/* rows 1 and -2 (0) of a 2x2x2 */
	EXPECT_SHAPE(3, 2, 2, 2);
	expect_values(3, wt1, 8, 0);
	assert_int_equal(result.outputs[3].dtype, DT_INT16);
	/* batch_dims=1: e[0][1] and e[1][0] */
	EXPECT_SHAPE(4, 2, 2);
	expect_values(4, wtb, 4, 0);

	teardown(NULL);
	setup(NULL);
	RAND("x", DT_FLOAT64, 2, 3, 4);
	in_values("i", DT_INT32, SHAPE(2, 3, 5), i3);
	run_body("gather(%x, %i, axis=-1)");
	EXPECT_SHAPE(0, 2, 3, 5);
	{
		double want[30];
		for (int a = 0; a < 2; a++)
			for (int b = 0; b < 3; b++)
				for (int c = 0; c < 5; c++) {
					int64_t k = (int64_t)i3[(a * 3 + b) * 5 + c];
					k = k < 0 ? k + 4 : k;
					k = k < 0 ? 0 : k > 3 ? 3 : k;
					want[(a * 3 + b) * 5 + c] = in_at(0, (a * 3 + b) * 4 + k);
				}
		expect_values(0, want, 30, 0);
	}
}

/* Hand-checked scatter_elements (ONNX's examples, every reduction over
 * duplicate indices, in order) and scatter_nd (update and add with
 * duplicates, slices, tuples). */
static void test_scatter(void **state)
{
	static const double z[9] = {0}, i0[] = {1, 0, 2, 0, 2, 1};
	static const double u0[] = {1.0, 1.1, 1.2, 2.0, 2.1, 2.2};
	static const double w0[] = {2.0, 1.1, 0, 1.0, 0, 2.2, 0, 2.1, 1.2};
	static const double row[] = {1, 2, 3, 4, 5}, dup[] = {1, -4, 6, -1},
			    ud[] = {1.1, 2.1, 7, 8};
	static const double upd_row[] = {1, 2.1, 3, 4, 8}, add_row[] = {1, 5.2, 3, 4, 20};
	static const double mul_row[] = {1, 4.62, 3, 4, 280}, min_row[] = {1, 1.1, 3, 4, 5};
	static const double max_row[] = {1, 2.1, 3, 4, 8}, mean_row[] = {1, 1.825, 3, 4, 7};
	static const double v[] = {1, 2, 3, 4}, iv[] = {1, 3, 1}, uv[] = {10, 20, 30};
	static const double wu[] = {1, 30, 3, 20}, wa[] = {1, 42, 3, 24};
	static const double ir[] = {1, 0}, ur[] = {1, 2, 3, 4, 5, 6}, wr[] = {4, 5, 6, 1, 2, 3};
	static const double it[] = {0, 1, 2, 0}, ut[] = {7, 8}, wt[] = {0, 0, 7, 8, 0, 0};
	(void)state;
	in_values("z", DT_FLOAT32, SHAPE(3, 3), z);
	in_values("i", DT_INT64, SHAPE(2, 3), i0);
	in_values("u", DT_FLOAT32, SHAPE(2, 3), u0);
	in_values("r", DT_FLOAT64, SHAPE(1, 5), row);
	in_values("j", DT_INT32, SHAPE(1, 4), dup);
	in_values("w", DT_FLOAT64, SHAPE(1, 4), ud);
	run_body("(scatter_elements(%z, %i, %u), "
		 "scatter_elements(%r, %j, %w, axis=1), "
		 "scatter_elements(%r, %j, %w, axis=1, reduction=\"add\"), "
		 "scatter_elements(%r, %j, %w, axis=-1, reduction=\"mul\"), "
		 "scatter_elements(%r, %j, %w, axis=1, reduction=\"min\"), "
		 "scatter_elements(%r, %j, %w, axis=1, reduction=\"max\"), "
		 "scatter_elements(%r, %j, %w, axis=1, reduction=\"mean\"))");
	EXPECT_SHAPE(0, 3, 3);
	expect_values(0, w0, 9, 1e-7);
	expect_values(1, upd_row, 5, 1e-12);
	expect_values(2, add_row, 5, 1e-12);
	expect_values(3, mul_row, 5, 1e-12);
	expect_values(4, min_row, 5, 1e-12);
	expect_values(5, max_row, 5, 1e-12);
	expect_values(6, mean_row, 5, 1e-12);

	teardown(NULL);
	setup(NULL);
	in_values("v", DT_INT32, SHAPE(4), v);
	in_values("i", DT_INT32, SHAPE(1, 3), iv);
	in_values("u", DT_INT32, SHAPE(3), uv);
	in_values("z", DT_FLOAT32, SHAPE(2, 3), z);
	in_values("r", DT_INT64, SHAPE(1, 2), ir);
	in_values("s", DT_FLOAT32, SHAPE(2, 3), ur);
	in_values("t", DT_INT64, SHAPE(2, 2), it);
	in_values("w", DT_FLOAT32, SHAPE(2), ut);
	run_body("(scatter_nd(%v, %i, %u), scatter_nd(%v, %i, %u, mode=\"add\"), "
		 "scatter_nd(%z, %r, %s), scatter_nd(%z, %t, %w))");
	EXPECT_SHAPE(0, 4);
	expect_values(0, wu, 4, 0);
	expect_values(1, wa, 4, 0);
	EXPECT_SHAPE(2, 2, 3);
	expect_values(2, wr, 6, 0);
	expect_values(3, wt, 6, 0);
}

/* Hand-checked sparse_to_dense: vector indices with a duplicate (the last
 * wins, as TVM's nested if_then_else) and negative and too large ones
 * (they match nothing), 2-D index tuples with one scalar value, a scalar
 * index and tuples narrower than the output (whole rows); values of the
 * wrong length and rank-3 indices are refused by name. */
static void test_sparse_to_dense(void **state)
{
	static const double i1[] = {1, 3, 1, -1, 9}, v1[] = {5, 6, 7, 8, 9};
	static const double w1[] = {-2, 7, -2, 6, -2};
	static const double i2[] = {0, 2, 1, 0, 0, 2}, s2[] = {4.5};
	static const double w2[] = {0, 0, 4.5, 4.5, 0, 0};
	static const double i0[] = {1}, s0[] = {3}, w0[] = {0, 0, 3, 3, 0, 0};
	static const double iw[] = {2, 0}, vw[] = {1, 2}, ww[] = {2, 2, 0, 0, 1, 1};
	(void)state;
	in_values("i", DT_INT64, SHAPE(5), i1);
	in_values("v", DT_INT32, SHAPE(5), v1);
	in_values("t", DT_INT32, SHAPE(3, 2), i2);
	in_values("s", DT_FLOAT32, 0, NULL, s2);
	in_values("k", DT_INT64, 0, NULL, i0);
	in_values("c", DT_FLOAT64, 0, NULL, s0);
	in_values("r", DT_INT32, SHAPE(2, 1), iw);
	in_values("u", DT_FLOAT32, SHAPE(2), vw);
	run_body("(sparse_to_dense(%i, %v, -2, output_shape=[5]), "
		 "sparse_to_dense(%t, %s, 0f, output_shape=[2, 3]), "
		 "sparse_to_dense(%k, %c, 0f64, output_shape=[3, 2]), "
		 "sparse_to_dense(%r, %u, 0f, output_shape=[3, 2]))");
	EXPECT_SHAPE(0, 5);
	expect_values(0, w1, 5, 0);
	EXPECT_SHAPE(1, 2, 3);
	expect_values(1, w2, 6, 0);
	EXPECT_SHAPE(2, 3, 2);
	expect_values(2, w0, 6, 0);
	EXPECT_SHAPE(3, 3, 2);
	expect_values(3, ww, 6, 0);

	teardown(NULL);
	setup(NULL);
	in_values("i", DT_INT64, SHAPE(5), i1);
	in_values("u", DT_FLOAT32, SHAPE(2), vw);
	run_body_fails("sparse_to_dense(%i, %u, 0f, output_shape=[5])",
		       "'sparse_to_dense' needs a scalar or one value per index (5) and a scalar "
		       "default, both float32");
	teardown(NULL);
	setup(NULL);
	in_values("i", DT_INT64, SHAPE(1, 1, 1), i0);
	in_values("c", DT_FLOAT64, 0, NULL, s0);
	run_body_fails("sparse_to_dense(%i, %c, 0f64, output_shape=[5])",
		       "'sparse_to_dense' needs integer indices of rank 0, 1 or 2, got int64 of "
		       "rank 3");
}

/* ---- creating tensors ------------------------------------------------------------ */

/* Hand-checked stack (first, middle and last axis), one_hot (negative and
 * too large indices match nothing, as in TVM; either axis; a dtype other
 * than the values'), full, full_like and arange (float, int, negative
 * step). */
static void test_stack_one_hot_full_arange(void **state)
{
	static const double a[] = {0, 1, 2, 3, 4, 5}, b[] = {10, 11, 12, 13, 14, 15};
	static const double s0[] = {0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15};
	static const double s1[] = {0, 1, 2, 10, 11, 12, 3, 4, 5, 13, 14, 15};
	static const double s2[] = {0, 10, 1, 11, 2, 12, 3, 13, 4, 14, 5, 15};
	static const double idx[] = {0, 2, -1, 5}, on[] = {5}, off[] = {-1}, fill[] = {2.7};
	static const double last[] = {5, -1, -1, -1, -1, 5, -1, -1, -1, -1, -1, -1};
	static const double first[] = {5, -1, -1, -1, -1, -1, -1, -1, -1, 5, -1, -1};
	static const double ints[] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0};
	static const double full2[] = {2, 2, 2, 2, 2, 2}, fullf[] = {2.7, 2.7, 2.7, 2.7, 2.7, 2.7};
	static const double r1[] = {1, 3, 5}, r2[] = {0, 2, 4}, r3[] = {3, 1.5, 0};
	(void)state;
	in_values("a", DT_FLOAT32, SHAPE(2, 3), a);
	in_values("b", DT_FLOAT32, SHAPE(2, 3), b);
	in_values("i", DT_INT32, SHAPE(4), idx);
	in_values("on", DT_FLOAT32, 0, NULL, on);
	in_values("off", DT_FLOAT32, 0, NULL, off);
	in_values("v", DT_FLOAT64, 0, NULL, fill);
	run_body("(stack((%a, %b)), stack((%a, %b), axis=1), stack((%a, %b), axis=-1), "
		 "one_hot(%i, %on, %off, depth=3, dtype=\"float32\"), "
		 "one_hot(%i, %on, %off, depth=3, axis=0, dtype=\"float32\"), "
		 "one_hot(%i, 1, 0, depth=3, dtype=\"int64\"), "
		 "full(%v, shape=[2, 3], dtype=\"int64\"), full_like(%a, %v), "
		 "arange(1f, 7f, 2f, start=1f, stop=7f, step=2f), "
		 "arange(0, 5, 2, start=0, stop=5, step=2, dtype=\"int32\"), "
		 "arange(3f, -1f, -1.5f, start=3f, stop=-1f, step=-1.5f))");
	EXPECT_SHAPE(0, 2, 2, 3);
	expect_values(0, s0, 12, 0);
	EXPECT_SHAPE(1, 2, 2, 3);
	expect_values(1, s1, 12, 0);
	EXPECT_SHAPE(2, 2, 3, 2);
	expect_values(2, s2, 12, 0);
	EXPECT_SHAPE(3, 4, 3);
	expect_values(3, last, 12, 0);
	EXPECT_SHAPE(4, 3, 4);
	expect_values(4, first, 12, 0);
	assert_int_equal(result.outputs[5].dtype, DT_INT64);
	expect_values(5, ints, 12, 0);
	assert_int_equal(result.outputs[6].dtype, DT_INT64);
	EXPECT_SHAPE(6, 2, 3);
	expect_values(6, full2, 6, 0);
	assert_int_equal(result.outputs[7].dtype, DT_FLOAT32);
	expect_values(7, fullf, 6, 1e-7);
	expect_values(8, r1, 3, 0);
	assert_int_equal(result.outputs[9].dtype, DT_INT32);
	expect_values(9, r2, 3, 0);
	expect_values(10, r3, 3, 0);
}

/* layout_transform against naive loops: a transpose (NCHW to NHWC), a
 * blocked split (NCHW to NCHW2c), a change of block (NCHW2c to NHWC4c) and
 * the way back. */
static void test_layout_transform(void **state)
{
	(void)state;
	RAND("x", DT_FLOAT32, 2, 4, 2, 3);
	run_body("%0 = layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NCHW2c\");\n"
		 "  %1 = layout_transform(%0, src_layout=\"NCHW2c\", dst_layout=\"NHWC4c\");\n"
		 "  (layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NHWC\"), %0, %1,\n"
		 "   layout_transform(%1, src_layout=\"NHWC4c\", dst_layout=\"NCHW\"))");
	{
		double want[48];
		for (int n = 0; n < 2; n++)
			for (int h = 0; h < 2; h++)
				for (int w = 0; w < 3; w++)
					for (int c = 0; c < 4; c++)
						want[((n * 2 + h) * 3 + w) * 4 + c] =
							in_at(0, ((n * 4 + c) * 2 + h) * 3 + w);
		EXPECT_SHAPE(0, 2, 2, 3, 4);
		expect_values(0, want, 48, 0);
		for (int n = 0; n < 2; n++)
			for (int co = 0; co < 2; co++)
				for (int h = 0; h < 2; h++)
					for (int w = 0; w < 3; w++)
						for (int ci = 0; ci < 2; ci++)
							want[(((n * 2 + co) * 2 + h) * 3 + w) * 2 +
							     ci] = in_at(0, ((n * 4 + co * 2 + ci) *
										     2 +
									     h) * 3 +
										    w);
		EXPECT_SHAPE(1, 2, 2, 2, 3, 2);
		expect_values(1, want, 48, 0);
		/* NHWC4c with C = 4: one block of 4 */
		for (int n = 0; n < 2; n++)
			for (int h = 0; h < 2; h++)
				for (int w = 0; w < 3; w++)
					for (int c = 0; c < 4; c++)
						want[((n * 2 + h) * 3 + w) * 4 + c] =
							in_at(0, ((n * 4 + c) * 2 + h) * 3 + w);
		EXPECT_SHAPE(2, 2, 2, 3, 1, 4);
		expect_values(2, want, 48, 0);
		for (int i = 0; i < 48; i++)
			want[i] = in_at(0, i);
		EXPECT_SHAPE(3, 2, 4, 2, 3);
		expect_values(3, want, 48, 0);
	}
}

/* nn.matmul against a triple loop (plain, transpose_a on a batch,
 * transpose_b with units); hand-checked nn.leaky_relu, nn.prelu and
 * nn.dropout (the data and a mask of ones). */
static void test_matmul_and_activations(void **state)
{
	static const double x[] = {-2, -0.5, 0, 1.5}, leaky[] = {-0.2, -0.05, 0, 1.5};
	static const double p[] = {-1, 2, -3, 4, -5, 6}, alpha[] = {0.1, 0.2, 0.3};
	static const double prelu[] = {-0.1, 2, -0.9, 4, -1, 6}, ones[] = {1, 1, 1, 1};
	static const double q[] = {-1, -1, -1, -1, 2, -2},
			    prelu3[] = {-0.1, -0.1, -0.2, -0.2, 2, -0.6};
	(void)state;
	RAND("a", DT_FLOAT64, 2, 3);
	RAND("b", DT_FLOAT64, 3, 4);
	RAND("t", DT_FLOAT64, 2, 3, 5);
	RAND("c", DT_FLOAT64, 4, 3);
	run_body("(nn.matmul(%a, %b), nn.matmul(%t, %b, transpose_a=True), "
		 "nn.matmul(%a, %c, units=4, transpose_b=True))");
	{
		double want[40];
		EXPECT_SHAPE(0, 2, 4);
		for (int i = 0; i < 2; i++)
			for (int j = 0; j < 4; j++) {
				want[i * 4 + j] = 0;
				for (int k = 0; k < 3; k++)
					want[i * 4 + j] +=
						in_at(0, i * 3 + k) * in_at(1, k * 4 + j);
			}
		expect_values(0, want, 8, 1e-12);
		EXPECT_SHAPE(1, 2, 5, 4);
		for (int b = 0; b < 2; b++)
			for (int i = 0; i < 5; i++)
				for (int j = 0; j < 4; j++) {
					double acc = 0;
					for (int k = 0; k < 3; k++)
						acc += in_at(2, (b * 3 + k) * 5 + i) *
						       in_at(1, k * 4 + j);
					want[(b * 5 + i) * 4 + j] = acc;
				}
		expect_values(1, want, 40, 1e-12);
		EXPECT_SHAPE(2, 2, 4);
		for (int i = 0; i < 2; i++)
			for (int j = 0; j < 4; j++) {
				want[i * 4 + j] = 0;
				for (int k = 0; k < 3; k++)
					want[i * 4 + j] +=
						in_at(0, i * 3 + k) * in_at(3, j * 3 + k);
			}
		expect_values(2, want, 8, 1e-12);
	}

	teardown(NULL);
	setup(NULL);
	in_values("x", DT_FLOAT32, SHAPE(4), x);
	in_values("p", DT_FLOAT64, SHAPE(2, 3), p);
	in_values("al", DT_FLOAT64, SHAPE(3), alpha);
	in_values("q", DT_FLOAT64, SHAPE(1, 3, 2), q);
	run_body("%0 = nn.dropout(%x, rate=0.3);\n"
		 "  (nn.leaky_relu(%x, alpha=0.1f), nn.prelu(%p, %al), %0.0, %0.1, "
		 "nn.prelu(%q, %al))");
	expect_values(0, leaky, 4, 1e-7);
	expect_values(1, prelu, 6, 1e-12);
	expect_values(2, x, 4, 0);
	expect_values(3, ones, 4, 0);
	expect_values(4, prelu3, 6, 1e-12);
}

/* Hand-checked cumsum and cumprod: an axis, the flat data, exclusive,
 * and a dtype wider than the data's. */
static void test_cumsum_cumprod(void **state)
{
	static const double x[] = {1, 2, 3, 4, 5, 6};
	static const double sum1[] = {1, 3, 6, 4, 9, 15}, sum0[] = {1, 2, 3, 5, 7, 9};
	static const double flat[] = {1, 3, 6, 10, 15, 21}, ex1[] = {0, 1, 3, 0, 4, 9};
	static const double prod1[] = {1, 2, 6, 4, 20, 120}, exprod[] = {1, 1, 2, 6, 24, 120};
	(void)state;
	in_values("x", DT_INT32, SHAPE(2, 3), x);
	in_values("f", DT_FLOAT32, SHAPE(2, 3), x);
	run_body("(cumsum(%x, axis=1), cumsum(%f, axis=0), cumsum(%x), "
		 "cumsum(%f, axis=-1, exclusive=True), cumprod(%x, axis=1, dtype=\"int64\"), "
		 "cumprod(%f, exclusive=True, dtype=\"float64\"))");
	expect_values(0, sum1, 6, 0);
	expect_values(1, sum0, 6, 0);
	EXPECT_SHAPE(2, 6);
	expect_values(2, flat, 6, 0);
	expect_values(3, ex1, 6, 0);
	assert_int_equal(result.outputs[4].dtype, DT_INT64);
	expect_values(4, prod1, 6, 0);
	assert_int_equal(result.outputs[5].dtype, DT_FLOAT64);
	EXPECT_SHAPE(5, 6);
	expect_values(5, exprod, 6, 0);
}

/* Hand-checked nn.depth_to_space (DCR, CDR, NHWC) and nn.space_to_depth,
 * and the two as each other's inverse on random data. */
static void test_depth_space(void **state)
{
	static const double v[] = {0, 1, 2, 3, 4, 5, 6, 7};
	static const double dcr[] = {0, 2, 4, 6, 1, 3, 5, 7}, s2d[] = {0, 4, 1, 5, 2, 6, 3, 7};
	(void)state;
	in_values("x", DT_FLOAT32, SHAPE(1, 8, 1, 1), v);
	in_values("y", DT_INT64, SHAPE(1, 2, 2, 2), v);
	in_values("z", DT_FLOAT32, SHAPE(1, 1, 1, 8), v);
	RAND("r", DT_FLOAT64, 2, 3, 4, 8);
	run_body("(nn.depth_to_space(%x, block_size=2), "
		 "nn.depth_to_space(%x, block_size=2, mode=\"CDR\"), "
		 "nn.space_to_depth(%y, block_size=2), "
		 "nn.depth_to_space(%z, block_size=2, layout=\"NHWC\"), "
		 "nn.depth_to_space(nn.space_to_depth(%r, block_size=2), block_size=2), "
		 "nn.space_to_depth(nn.depth_to_space(%r, block_size=2, layout=\"NHWC\"), "
		 "block_size=2, layout=\"NHWC\"))");
	EXPECT_SHAPE(0, 1, 2, 2, 2);
	expect_values(0, dcr, 8, 0);
	expect_values(1, v, 8, 0);
	EXPECT_SHAPE(2, 1, 8, 1, 1);
	expect_values(2, s2d, 8, 0);
	EXPECT_SHAPE(3, 1, 2, 2, 2);
	expect_values(3, v, 8, 0);
	{
		double want[192];
		for (int i = 0; i < 192; i++)
			want[i] = in_at(3, i);
		EXPECT_SHAPE(4, 2, 3, 4, 8);
		expect_values(4, want, 192, 0);
		EXPECT_SHAPE(5, 2, 3, 4, 8);
		expect_values(5, want, 192, 0);
	}
}

/* Hand-checked sort, argsort and topk: ties keep their index order in
 * either direction, both axes, every ret_type, k < 1 the whole axis. */
static void test_sort_topk(void **state)
{
	static const double x[] = {3, 1, 2, 1, 0, -1, 5, -1};
	static const double sorted[] = {1, 1, 2, 3, -1, -1, 0, 5}, asc[] = {1, 3, 2, 0, 1, 3, 0, 2};
	static const double desc[] = {0, 2, 1, 3, 2, 0, 1, 3}, col[] = {0, -1, 2, -1, 3, 1, 5, 1};
	static const double top_v[] = {3, 2, 5, 0}, top_i[] = {0, 2, 2, 0};
	static const double low_i[] = {1, 3, 2, 1, 3, 0};
	static const double all_v[] = {3, 2, 1, 1, 5, 0, -1, -1};
	(void)state;
	in_values("x", DT_FLOAT32, SHAPE(2, 4), x);
	in_values("i", DT_INT64, SHAPE(2, 4), x);
	run_body("%0 = topk(%x, k=2);\n"
		 "  (sort(%x), argsort(%x), argsort(%i, is_ascend=False, dtype=\"int64\"), "
		 "sort(%i, axis=0), %0.0, %0.1, topk(%x, k=3, is_ascend=True, "
		 "ret_type=\"indices\"), "
		 "topk(%x, k=0, ret_type=\"values\"))");
	expect_values(0, sorted, 8, 0);
	assert_int_equal(result.outputs[1].dtype, DT_INT32);
	expect_values(1, asc, 8, 0);
	expect_values(2, desc, 8, 0);
	expect_values(3, col, 8, 0);
	EXPECT_SHAPE(4, 2, 2);
	expect_values(4, top_v, 4, 0);
	expect_values(5, top_i, 4, 0);
	EXPECT_SHAPE(6, 2, 3);
	expect_values(6, low_i, 6, 0);
	EXPECT_SHAPE(7, 2, 4);
	expect_values(7, all_v, 8, 0);
}

/* ---- index views --------------------------------------------------------------- */

/* Hand-checked: nn.pad in its three modes. */
static void test_pad(void **state)
{
	static const double x[] = {1, 2, 3, 4, 5, 6}, nine[] = {9};
	static const double constant[] = {9, 9, 9, 9, 9, 9, 9, 9, 1, 2, 3, 9, 9, 9, 4, 5, 6, 9};
	static const double edge[] = {1, 1, 1, 2, 3, 3, 1, 1, 1, 2, 3, 3, 4, 4, 4, 5, 6, 6};
	static const double reflect[] = {6, 5, 4, 5, 6, 5, 3, 2, 1, 2, 3, 2, 6, 5, 4, 5, 6, 5};
	(void)state;
	in_values("x", DT_FLOAT32, SHAPE(2, 3), x);
	in_values("v", DT_FLOAT32, 0, NULL, nine);
	run_body("(nn.pad(%x, %v, pad_width=[[1, 0], [2, 1]]), "
		 "nn.pad(%x, %v, pad_width=[[1, 0], [2, 1]], pad_mode=\"edge\"), "
		 "nn.pad(%x, %v, pad_width=[[1, 0], [2, 1]], pad_mode=\"reflect\"))");
	EXPECT_SHAPE(0, 3, 6);
	expect_values(0, constant, 18, 0);
	expect_values(1, edge, 18, 0);
	expect_values(2, reflect, 18, 0);
}

/* strided_slice (negative strides, axes, size mode), tile, repeat,
 * broadcast_to and reverse on values equal to their flat index. */
static void test_views(void **state)
{
	double x[24], y[6], want[24];
	static const double z[] = {0, 1, 2};
	int k = 0;
	(void)state;
	for (int i = 0; i < 24; i++)
		x[i] = i;
	for (int i = 0; i < 6; i++)
		y[i] = i;
	in_values("x", DT_INT64, SHAPE(2, 3, 4), x);
	in_values("y", DT_FLOAT32, SHAPE(2, 3), y);
	in_values("z", DT_INT32, SHAPE(3, 1), z);
	run_body("(strided_slice(%x, begin=[0, 2], end=[2, 0], strides=[1, -1]), "
		 "strided_slice(%x, begin=[1], end=[4], strides=[2], axes=[2]), "
		 "strided_slice(%x, begin=[0, 1, 1], end=[1, -1, 2], slice_mode=\"size\"), "
		 "tile(%y, reps=[2, 1, 2]), repeat(%y, repeats=2, axis=1), "
		 "broadcast_to(%z, shape=[2, 3, 4]), reverse(%y, axis=1), "
		 "strided_slice(%x, begin=[10, -1], end=[-10, 0], strides=[-1, -2]))");
	EXPECT_SHAPE(0, 2, 2, 4);
	for (int a = 0; a < 2; a++)
		for (int j = 0; j < 2; j++)
			for (int c = 0; c < 4; c++)
				want[k++] = a * 12 + (2 - j) * 4 + c;
	expect_values(0, want, 16, 0);
	EXPECT_SHAPE(1, 2, 3, 2);
	k = 0;
	for (int a = 0; a < 2; a++)
		for (int b = 0; b < 3; b++)
			for (int c = 1; c < 4; c += 2)
				want[k++] = a * 12 + b * 4 + c;
	expect_values(1, want, 12, 0);
	EXPECT_SHAPE(2, 1, 2, 2);
	k = 0;
	for (int b = 1; b < 3; b++)
		for (int c = 1; c < 3; c++)
			want[k++] = b * 4 + c;
	expect_values(2, want, 4, 0);
	EXPECT_SHAPE(3, 2, 2, 6);
	k = 0;
	for (int t = 0; t < 2; t++)
		for (int r = 0; r < 2; r++)
			for (int c = 0; c < 6; c++)
				want[k++] = r * 3 + c % 3;
	expect_values(3, want, 24, 0);
	EXPECT_SHAPE(4, 2, 6);
	for (int r = 0; r < 2; r++)
		for (int c = 0; c < 6; c++)
			want[r * 6 + c] = r * 3 + c / 2;
	expect_values(4, want, 12, 0);
	EXPECT_SHAPE(5, 2, 3, 4);
	for (int i = 0; i < 24; i++)
		want[i] = i / 4 % 3;
	expect_values(5, want, 24, 0);
	for (int r = 0; r < 2; r++)
		for (int c = 0; c < 3; c++)
			want[r * 3 + c] = r * 3 + 2 - c;
	expect_values(6, want, 6, 0);
	/* begins out of range and negative: clamped, counted from the end */
	EXPECT_SHAPE(7, 2, 1, 4);
	for (int a = 0; a < 2; a++)
		for (int c = 0; c < 4; c++)
			want[a * 4 + c] = (1 - a) * 12 + 8 + c;
	expect_values(7, want, 8, 0);
}

/* The views move bytes, so the dtypes beyond the six run too (the supports
 * table must say so, or the run is refused before it starts). */
/* The views by rows (a row that is one run copied whole, a row gathered
 * through its positions, rows of nn.pad's constant) on rows longer than a
 * vector, in every element size: strided_slice with steps 1 and 2 and
 * nn.pad, against the coordinates computed here. */
static void test_views_rows(void **state)
{
	static const DType dtypes[] = {DT_FLOAT32, DT_FLOAT64, DT_FLOAT16, DT_INT8, DT_INT64};
	static const struct {
		int64_t begin[3], end[3], step[3];
	} slices[] = {
		{{0, 1, 2}, {3, 4, 35}, {1, 1, 1}},
		{{1, 0, 1}, {3, 5, 37}, {1, 2, 2}},
		{{0, 2, 0}, {2, 5, 37}, {2, 1, 3}},
	};
	(void)state;
	for (size_t d = 0; d < DP_COUNT(dtypes); d++) {
		for (size_t c = 0; c < DP_COUNT(slices); c++) {
			const int64_t *b = slices[c].begin, *e = slices[c].end,
				      *st = slices[c].step;
			int64_t os[3], n = 1;
			char body[256];
			double *want;
			teardown(NULL);
			setup(NULL);
			RAND("x", dtypes[d], 3, 5, 37);
			snprintf(body, sizeof body,
				 "strided_slice(%%x, begin=[%lld, %lld, %lld], end=[%lld, %lld, "
				 "%lld], "
				 "strides=[%lld, %lld, %lld])",
				 (long long)b[0], (long long)b[1], (long long)b[2], (long long)e[0],
				 (long long)e[1], (long long)e[2], (long long)st[0],
				 (long long)st[1], (long long)st[2]);
			run_body(body);
			for (int a = 0; a < 3; a++) {
				os[a] = (e[a] - b[a] + st[a] - 1) / st[a];
				n *= os[a];
			}
			expect_shape(0, 3, os);
			want = xmalloc((size_t)n * sizeof(double));
			for (int64_t i = 0; i < n; i++) {
				int64_t z = i / (os[1] * os[2]), y = i / os[2] % os[1],
					x = i % os[2];
				want[i] =
					in_at(0, ((b[0] + z * st[0]) * 5 + b[1] + y * st[1]) * 37 +
							 b[2] + x * st[2]);
			}
			expect_values(0, want, n, 0);
			free(want);
		}
		/* nn.pad: whole rows of the constant, and rows with it at both ends */
		{
			double want[4 * 7 * 41];
			teardown(NULL);
			setup(NULL);
			RAND("x", dtypes[d], 2, 5, 37);
			in_values("v", dtypes[d], 0, NULL, (const double[]){3});
			run_body("nn.pad(%x, %v, pad_width=[[1, 1], [0, 2], [3, 1]])");
			EXPECT_SHAPE(0, 4, 7, 41);
			for (int64_t i = 0; i < 4 * 7 * 41; i++) {
				int64_t z = i / (7 * 41) - 1, y = i / 41 % 7, x = i % 41 - 3;
				bool inside = z >= 0 && z < 2 && y < 5 && x >= 0 && x < 37;
				want[i] = inside ? in_at(0, (z * 5 + y) * 37 + x) : 3;
			}
			expect_values(0, want, 4 * 7 * 41, 0);
		}
	}
}

static void test_views_other_dtypes(void **state)
{
	static const double x[] = {-1, 2, -3}, pad[] = {7};
	static const double bc[] = {-1, -1, 2, 2, -3, -3, -1, -1, 2, 2, -3, -3};
	static const double padded[] = {7, 255, 2, 253, 7};
	(void)state;
	in_values("x", DT_INT8, SHAPE(3, 1), x);
	in_values("u", DT_UINT8, SHAPE(3), x);
	in_values("v", DT_UINT8, 0, NULL, pad);
	run_body("(broadcast_to(%x, shape=[2, 3, 2]), nn.pad(%u, %v, pad_width=[[1, 1]]))");
	expect_values(0, bc, 12, 0);
	expect_values(1, padded, 5, 0);
}

/* The *_like and shape operators, from their definitions: cast_like casts
 * to the second operand's dtype, reinterpret keeps the bits, reshape_like
 * and contrib_reverse_reshape keep the elements in order,
 * broadcast_to_like broadcasts numpy's way, collapse_sum_like and
 * collapse_sum_to sum the axes the target broadcasts along, slice_like
 * keeps each axis' leading positions and ndarray_size counts. */
static void test_like_ops(void **state)
{
	static const double f[] = {1.5, -2.75, 3, 1};
	static const double cast[] = {1, -2, 3, 1},
			    bits[] = {1069547520, -1070596096, 1077936128, 1065353216};
	static const double one[] = {0, 0}, size[] = {24};
	double a[24], want[24];
	int k = 0;
	(void)state;
	for (int i = 0; i < 24; i++)
		a[i] = i * 3 % 7 - 2;
	in_values("f", DT_FLOAT32, SHAPE(4), f);
	in_values("l", DT_INT16, SHAPE(2), one);
	in_values("a", DT_INT64, SHAPE(2, 3, 4), a);
	RAND("b", DT_INT64, 3, 1);
	RAND("c", DT_FLOAT64, 2, 2, 3);
	RAND("s", DT_INT64, 1);
	RAND("d", DT_FLOAT64, 3);
	run_body("(cast_like(%f, %l), reinterpret(%f, dtype=\"int32\"), "
		 "reshape_like(%a, %c, lhs_begin=1), "
		 "contrib_reverse_reshape(%a, newshape=[-1, 0]), broadcast_to_like(%d, %c), "
		 "collapse_sum_like(%a, %b), collapse_sum_to(%a, %s, shape=[4]), "
		 "slice_like(%a, %c), slice_like(%a, %c, axes=[2]), ndarray_size(%a), "
		 "ndarray_size(%c, dtype=\"float16\"), "
		 "reinterpret(reinterpret(%f, dtype=\"uint32\"), dtype=\"float32\"))");
	/* casts truncate toward zero */
	EXPECT_SHAPE(0, 4);
	assert_int_equal(result.outputs[0].dtype, DT_INT16);
	expect_values(0, cast, 4, 0);
	/* 1.5f is 0x3fc00000, -2.75f 0xc0300000, 3f 0x40400000, 1f 0x3f800000 */
	assert_int_equal(result.outputs[1].dtype, DT_INT32);
	expect_values(1, bits, 4, 0);
	EXPECT_SHAPE(2, 2, 2, 2, 3);
	expect_values(2, a, 24, 0);
	EXPECT_SHAPE(3, 6, 4);
	expect_values(3, a, 24, 0);
	EXPECT_SHAPE(4, 2, 2, 3);
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			for (int m = 0; m < 3; m++)
				want[k++] = in_at(6, m);
	expect_values(4, want, 12, 0);
	EXPECT_SHAPE(5, 3, 1);
	for (int j = 0; j < 3; j++) {
		want[j] = 0;
		for (int i = 0; i < 2; i++)
			for (int m = 0; m < 4; m++)
				want[j] += a[i * 12 + j * 4 + m];
	}
	expect_values(5, want, 3, 0);
	EXPECT_SHAPE(6, 4);
	for (int m = 0; m < 4; m++) {
		want[m] = 0;
		for (int i = 0; i < 6; i++)
			want[m] += a[i * 4 + m];
	}
	expect_values(6, want, 4, 0);
	EXPECT_SHAPE(7, 2, 2, 3);
	k = 0;
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			for (int m = 0; m < 3; m++)
				want[k++] = a[i * 12 + j * 4 + m];
	expect_values(7, want, 12, 0);
	EXPECT_SHAPE(8, 2, 3, 3);
	k = 0;
	for (int i = 0; i < 6; i++)
		for (int m = 0; m < 3; m++)
			want[k++] = a[i * 4 + m];
	expect_values(8, want, 18, 0);
	assert_int_equal(result.outputs[9].ndim, 0);
	assert_int_equal(result.outputs[9].dtype, DT_INT32);
	expect_values(9, size, 1, 0);
	assert_int_equal(result.outputs[10].dtype, DT_FLOAT16);
	want[0] = 12;
	expect_values(10, want, 1, 0);
	expect_values(11, f, 4, 0);
}

/* The same operators on dtypes the index views and the reductions take
 * beyond the common ones. */
static void test_like_ops_other_dtypes(void **state)
{
	static const double x[] = {-1, 2, -3, 4, 5, -6};
	static const double sums[] = {-2, 3}, sliced[] = {-1, 2, 4, 5},
			    bc[] = {-1, 2, -3, -1, 2, -3};
	(void)state;
	in_values("x", DT_INT8, SHAPE(2, 3), x);
	in_values("y", DT_UINT16, SHAPE(2, 2), x);
	in_values("z", DT_INT16, SHAPE(2, 3), x);
	in_values("r", DT_INT16, SHAPE(2, 1), x);
	run_body("(slice_like(%x, %y), collapse_sum_like(%z, %r), "
		 "broadcast_to_like(strided_slice(%x, begin=[0], end=[1]), %x), "
		 "ndarray_size(%x, dtype=\"uint8\"))");
	expect_values(0, sliced, 4, 0);
	expect_values(1, sums, 2, 0);
	expect_values(2, bc, 6, 0);
	assert_int_equal(result.outputs[3].dtype, DT_UINT8);
	assert_int_equal(out_at(3, 0), 6);
}

/* nn.fast_softmax against softmax from its definition, nn.l2_normalize
 * and nn.lrn against naive loops from TVM's formulas (numpy's
 * l2_normalize_python; topi's lrn window). */
static void test_norm_extras(void **state)
{
	double want[64];
	(void)state;
	RAND("x", DT_FLOAT32, 2, 3, 4);
	RAND("y", DT_FLOAT64, 2, 4, 2, 3);
	run_body("(nn.fast_softmax(%x, axis=1), nn.l2_normalize(%x, eps=0.001f, axis=[1]), "
		 "nn.l2_normalize(%y, eps=1e-10f, axis=[1, 3]), nn.l2_normalize(%x, eps=400f, "
		 "axis=[2]), nn.lrn(%y, size=3, axis=1, bias=1.5f, alpha=0.3f, beta=0.6f), "
		 "nn.lrn(%x, size=5, axis=2), nn.l2_normalize(%x, eps=0.25f, axis=[]))");
	/* softmax along axis 1 of [2, 3, 4] */
	for (int o = 0; o < 2; o++)
		for (int i = 0; i < 4; i++) {
			double sum = 0;
			for (int c = 0; c < 3; c++)
				sum += exp(in_at(0, o * 12 + c * 4 + i));
			for (int c = 0; c < 3; c++)
				want[o * 12 + c * 4 + i] = exp(in_at(0, o * 12 + c * 4 + i)) / sum;
		}
	expect_values(0, want, 24, 1e-5);
	for (int o = 0; o < 2; o++)
		for (int i = 0; i < 4; i++) {
			double sum = 0;
			for (int c = 0; c < 3; c++)
				sum += pow(in_at(0, o * 12 + c * 4 + i), 2);
			sum = sum > 0.001 ? sum : 0.001;
			for (int c = 0; c < 3; c++)
				want[o * 12 + c * 4 + i] = in_at(0, o * 12 + c * 4 + i) / sqrt(sum);
		}
	expect_values(1, want, 24, 1e-5);
	for (int n = 0; n < 2; n++)
		for (int h = 0; h < 2; h++) {
			double sum = 0;
			for (int c = 0; c < 4; c++)
				for (int w = 0; w < 3; w++)
					sum += pow(in_at(1, ((n * 4 + c) * 2 + h) * 3 + w), 2);
			for (int c = 0; c < 4; c++)
				for (int w = 0; w < 3; w++) {
					int k = ((n * 4 + c) * 2 + h) * 3 + w;
					want[k] = in_at(1, k) / sqrt(sum);
				}
		}
	expect_values(2, want, 48, 1e-12);
	/* eps above every sum of squares: x / 20 */
	for (int k = 0; k < 24; k++)
		want[k] = in_at(0, k) / 20;
	expect_values(3, want, 24, 1e-6);
	/* lrn over the 4 channels of [2, 4, 2, 3], a window of 3 */
	for (int n = 0; n < 2; n++)
		for (int c = 0; c < 4; c++)
			for (int s = 0; s < 6; s++) {
				double sum = 0;
				for (int w = c - 1; w <= c + 1; w++)
					if (w >= 0 && w < 4)
						sum += pow(in_at(1, (n * 4 + w) * 6 + s), 2);
				want[(n * 4 + c) * 6 + s] = in_at(1, (n * 4 + c) * 6 + s) /
							    pow(1.5 + 0.3 * sum / 3, 0.6);
			}
	expect_values(4, want, 48, 1e-7);
	/* lrn's defaults (bias 2, alpha 1e-4, beta 0.75) along the last axis,
	 * a window of 5 (channels c - 2 .. c + 2 within the 4) */
	for (int r = 0; r < 6; r++)
		for (int c = 0; c < 4; c++) {
			double sum = 0;
			for (int w = c - 2; w <= c + 2; w++)
				if (w >= 0 && w < 4)
					sum += pow(in_at(0, r * 4 + w), 2);
			want[r * 4 + c] = in_at(0, r * 4 + c) / pow(2 + 1e-4 * sum / 5, 0.75);
		}
	expect_values(5, want, 24, 1e-6);
	/* an empty axis list reduces nothing (topi's sum over no axis):
	 * x / sqrt(max(x^2, 0.25)) */
	for (int k = 0; k < 24; k++) {
		double v = in_at(0, k);
		want[k] = v / sqrt(v * v > 0.25 ? v * v : 0.25);
	}
	expect_values(6, want, 24, 1e-6);
}

/* Hand-checked nn.mirror_pad (numpy's symmetric and reflect) and nn.dilate. */
static void test_mirror_pad_dilate(void **state)
{
	static const double x[] = {1, 2, 3}, m[] = {1, 2, 3, 4};
	static const double sym[] = {2, 1, 1, 2, 3, 3, 2}, refl[] = {3, 2, 1, 2, 3, 2, 1};
	static const double dil[] = {1, 9, 9, 2, 9, 9, 9, 9, 3, 9, 9, 4};
	static const double dil1[] = {1, 0, 2, 0, 3};
	(void)state;
	in_values("x", DT_FLOAT32, SHAPE(3), x);
	in_values("m", DT_INT16, SHAPE(2, 2), m);
	in_values("u", DT_UINT8, SHAPE(3), x);
	run_body("(nn.mirror_pad(%x, pad_width=[[2, 2]]), nn.mirror_pad(%x, mode=\"REFLECT\", "
		 "pad_width=[[2, 2]]), nn.mirror_pad(%m, pad_width=[[1, 0], [1, 0]]), "
		 "nn.dilate(%m, strides=[2, 3], dilation_value=9f), nn.dilate(%u, strides=[2]))");
	expect_values(0, sym, 7, 0);
	expect_values(1, refl, 7, 0);
	EXPECT_SHAPE(2, 3, 3);
	{
		/* rows and columns both: [[1, 1, 2], [1, 1, 2], [3, 3, 4]] */
		static const double want[] = {1, 1, 2, 1, 1, 2, 3, 3, 4};
		expect_values(2, want, 9, 0);
	}
	EXPECT_SHAPE(3, 3, 4);
	expect_values(3, dil, 12, 0);
	assert_int_equal(result.outputs[4].dtype, DT_UINT8);
	expect_values(4, dil1, 5, 0);
}

/* Hand-checked trilu, sequence_mask, reverse_sequence and matrix_set_diag
 * (TVM's compute definitions; matrix_set_diag with the default alignment,
 * superdiagonals right-aligned and subdiagonals left-aligned). */
static void test_masks(void **state)
{
	static const double x[] = {0, 1, 2, 3, 4, 5, 6, 7, 8}, six[] = {1, 2, 3, 4, 5, 6};
	static const double up0[] = {0, 1, 2, 0, 4, 5, 0, 0, 8},
			    lo1[] = {0, 1, 0, 3, 4, 5, 6, 7, 8};
	static const double upm1[] = {0, 1, 2, 3, 4, 5, 0, 7, 8};
	static const double lens0[] = {1, 3}, lens1[] = {2, 0};
	static const double mask0[] = {1, 2, -1, 4, -1, 6}, mask1[] = {1, 2, 7, 7, 7, 7};
	static const double rx[] = {0, 1, 2, 3, 4, 5, 6, 7}, rlen[] = {3, 5};
	static const double rev[] = {2, 1, 0, 3, 7, 6, 5, 4};
	static const double ry[] = {0, 1, 2, 3, 4, 5}, rylen[] = {2, 3},
			    revy[] = {2, 5, 0, 3, 4, 1};
	(void)state;
	in_values("x", DT_INT32, SHAPE(3, 3), x);
	in_values("s", DT_FLOAT32, SHAPE(3, 2), six);
	in_values("l0", DT_INT32, SHAPE(2), lens0);
	in_values("l1", DT_INT64, SHAPE(2), lens1);
	in_values("r", DT_INT8, SHAPE(2, 4), rx);
	in_values("rl", DT_INT32, SHAPE(2), rlen);
	in_values("y", DT_FLOAT64, SHAPE(3, 2), ry);
	in_values("yl", DT_INT64, SHAPE(2), rylen);
	run_body("(trilu(%x, 0), trilu(%x, 1, upper=False), trilu(%x, -1), "
		 "sequence_mask(%s, %l0, mask_value=-1f), "
		 "sequence_mask(reshape(%s, newshape=[2, 3]), %l1, mask_value=7f, axis=1), "
		 "reverse_sequence(%r, %rl), reverse_sequence(%y, %yl, seq_axis=0, batch_axis=1))");
	expect_values(0, up0, 9, 0);
	expect_values(1, lo1, 9, 0);
	expect_values(2, upm1, 9, 0);
	expect_values(3, mask0, 6, 0);
	expect_values(4, mask1, 6, 0);
	expect_values(5, rev, 8, 0);
	expect_values(6, revy, 6, 0);
}

/* matrix_set_diag on one diagonal and on a band of three. */
static void test_matrix_set_diag(void **state)
{
	static const double x[] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
	static const double d1[] = {10, 11, 12};
	static const double d3[] = {20, 21, 22, 23, 10, 11, 12, 13, 30, 31, 32, 33};
	static const double set1[] = {10, 1, 2, 3, 11, 5, 6, 7, 12};
	/* TVM's relation makes the band's diagonals min(3 + 1, 3 + 1) = 4
	 * long, and its compute right-aligns diagonals 1 (2 long: from
	 * position 2) and 0 (3 long: from position 1), left-aligns -1 */
	static const double set3[] = {11, 22, 2, 30, 12, 23, 6, 31, 13};
	/* every diagonal left-aligned */
	static const double set3l[] = {10, 20, 2, 30, 11, 21, 6, 31, 12};
	/* a batch of two 2 x 3 matrices, diagonal 1 only (TVM's length
	 * min(2 + 1, 3) = 3, the last value unused) */
	static const double b[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
	static const double bd[] = {-1, -2, -9, -3, -4, -9};
	static const double setb[] = {0, -1, 2, 3, 4, -2, 6, -3, 8, 9, 10, -4};
	(void)state;
	in_values("x", DT_FLOAT32, SHAPE(3, 3), x);
	in_values("d1", DT_FLOAT32, SHAPE(3), d1);
	in_values("d3", DT_FLOAT32, SHAPE(3, 4), d3);
	in_values("b", DT_INT64, SHAPE(2, 2, 3), b);
	in_values("bd", DT_INT64, SHAPE(2, 3), bd);
	run_body("(matrix_set_diag(%x, %d1), matrix_set_diag(%x, %d3, k1=-1, k2=1), "
		 "matrix_set_diag(%x, %d3, k1=-1, k2=1, super_diag_right_align=False), "
		 "matrix_set_diag(%b, %bd, k1=1, k2=1))");
	expect_values(0, set1, 9, 0);
	expect_values(1, set3, 9, 0);
	expect_values(2, set3l, 9, 0);
	expect_values(3, setb, 12, 0);
}

/* Hand-checked meshgrid (ij and xy), invert_permutation, unravel_index
 * (numpy's examples) and searchsorted (1-D and batched sequences, left and
 * right). */
static void test_grids_and_searches(void **state)
{
	static const double a[] = {1, 2}, b[] = {3, 4, 5}, perm[] = {2, 0, 3, 1},
			    inv[] = {1, 3, 0, 2};
	static const double idx[] = {22, 41, 37}, shape[] = {7, 6}, unr[] = {3, 6, 6, 4, 5, 1};
	static const double unr1[] = {6, 5};
	static const double seq[] = {1, 3, 5, 7, 9}, vals[] = {0, 3, 6, 9, 10, 5};
	static const double left[] = {0, 1, 3, 4, 5, 2}, right[] = {0, 2, 3, 5, 5, 3};
	static const double seq2[] = {1, 2, 3, 2, 4, 6}, b2[] = {3, 2}, b2r[] = {3, 3};
	static const double ij0[] = {1, 1, 1, 2, 2, 2}, ij1[] = {3, 4, 5, 3, 4, 5};
	static const double xy0[] = {1, 2, 1, 2, 1, 2}, xy1[] = {3, 3, 4, 4, 5, 5};
	(void)state;
	in_values("a", DT_INT16, SHAPE(2), a);
	in_values("b", DT_INT16, SHAPE(3), b);
	in_values("p", DT_INT32, SHAPE(4), perm);
	in_values("i", DT_INT64, SHAPE(3), idx);
	in_values("sh", DT_INT32, SHAPE(2), shape);
	in_values("seq", DT_FLOAT32, SHAPE(5), seq);
	in_values("v", DT_FLOAT32, SHAPE(2, 3), vals);
	in_values("seq2", DT_INT32, SHAPE(2, 3), seq2);
	run_body("(meshgrid((%a, %b)), meshgrid((%a, %b), indexing=\"xy\"), "
		 "invert_permutation(%p), unravel_index(%i, %sh), "
		 "unravel_index(41, %sh), "
		 "searchsorted(%seq, %v), searchsorted(%seq, %v, right=True, dtype=\"int64\"), "
		 "searchsorted(%seq2, reshape(%sh, newshape=[2, 1])), "
		 "searchsorted(%seq2, reshape(%sh, newshape=[2, 1]), right=True))");
	EXPECT_SHAPE(0, 2, 3);
	expect_values(0, ij0, 6, 0);
	EXPECT_SHAPE(1, 2, 3);
	expect_values(1, ij1, 6, 0);
	EXPECT_SHAPE(2, 3, 2);
	expect_values(2, xy0, 6, 0);
	EXPECT_SHAPE(3, 3, 2);
	expect_values(3, xy1, 6, 0);
	expect_values(4, inv, 4, 0);
	EXPECT_SHAPE(5, 2, 3);
	expect_values(5, unr, 6, 0);
	EXPECT_SHAPE(6, 2);
	expect_values(6, unr1, 2, 0);
	assert_int_equal(result.outputs[7].dtype, DT_INT32);
	expect_values(7, left, 6, 0);
	assert_int_equal(result.outputs[8].dtype, DT_INT64);
	expect_values(8, right, 6, 0);
	EXPECT_SHAPE(9, 2, 1);
	expect_values(9, b2, 2, 0);
	expect_values(10, b2r, 2, 0);
}

/* fixed_point_multiply against TVM's legalised q_multiply_shift worked out
 * by hand: in int64, (x << max(shift, 0)) * multiplier + 2^(30 + rs),
 * shifted right by 31 + rs (rs = max(-shift, 0)), wrapped to int32; a
 * multiplier of 2^30 takes TVM's int32 shortcut (x << (shift - 1), or
 * (x + 2^(e - 1)) >> e with e = 1 - shift). */
static void test_fixed_point_multiply(void **state)
{
	static const double x[] = {1000, -1000, 7, -7, 2147483647, -2147483648.0};
	/* one half, shift 0: (x + 1) >> 1, the largest x wrapping first */
	static const double half[] = {500, -500, 4, -3, -1073741824, -1073741824};
	/* one half, shift 3: x << 2, wrapping */
	static const double half3[] = {4000, -4000, 28, -28, -4, 0};
	/* 1518500250 / 2^31 (about 0.7071) times 2 (shift 1) and times 1/4
	 * (shift -2), rounded half up; 2147483647 * 1.414 wraps */
	static const double r2[] = {1414, -1414, 10, -10, -1257966797, 1257966796};
	static const double r2q[] = {177, -177, 1, -1, 379625062, -379625062};
	(void)state;
	in_values("x", DT_INT32, SHAPE(6), x);
	run_body("(fixed_point_multiply(%x, multiplier=1073741824, shift=0), "
		 "fixed_point_multiply(%x, multiplier=1073741824, shift=3), "
		 "fixed_point_multiply(%x, multiplier=1518500250, shift=1), "
		 "fixed_point_multiply(%x, multiplier=1518500250, shift=-2))");
	expect_values(0, half, 6, 0);
	expect_values(1, half3, 6, 0);
	expect_values(2, r2, 6, 0);
	expect_values(3, r2q, 6, 0);
}

/* qnn.quantize and qnn.dequantize against TVM's lowering worked out by
 * hand: round(x / scale) + zero_point (ties to even, as devplan's round),
 * clipped to the dtype; (int32(q) - zero_point) * scale; scalar parameters
 * and per-channel ones (axis 0 and -1), negative zero points, float16's
 * range. */
static void test_qnn_quantize_dequantize(void **state)
{
	static const double x[] = {1.25, -1.25, 0.75, 100, -100, 2.5};
	static const double xc[] = {1.25, -1.25, 0.75, 600, 13, 3};
	static const double sc[] = {0.5, 2}, zc[] = {10, -4};
	static const double d[] = {-128, 127, 0, -3, 5, -1};
	static const double u[] = {0, 255, 7, 10, 2, 255};
	static const double s3[] = {0.5, 0.25, 2}, z3[] = {0, -2, 7};
	static const double h[] = {30000, -30000};
	/* 2.5, -2.5, 1.5, 200, -200, 5 round to 2, -2, 2, 200, -200, 5 */
	static const double q8[] = {-1, -5, -1, 127, -128, 2};
	/* row 1: 300 - 4 clips, 6.5 -> 6, 1.5 -> 2 - 4 clips to 0 */
	static const double qc[] = {12, 8, 12, 255, 2, 0};
	static const double dq[] = {-62.5, 65, 1.5, 0, 4, 1};
	static const double dc[] = {0, 64.25, 0, 5, 1, 496};
	static const double dh[] = {65504, -65504};
	(void)state;
	in_values("x", DT_FLOAT32, SHAPE(6), x);
	in_values("xc", DT_FLOAT32, SHAPE(2, 3), xc);
	in_values("sc", DT_FLOAT32, SHAPE(2), sc);
	in_values("zc", DT_INT32, SHAPE(2), zc);
	in_values("d", DT_INT8, SHAPE(6), d);
	in_values("u", DT_UINT8, SHAPE(2, 3), u);
	in_values("s3", DT_FLOAT32, SHAPE(3), s3);
	in_values("z3", DT_INT32, SHAPE(3), z3);
	in_values("h", DT_INT16, SHAPE(2), h);
	run_body("(qnn.quantize(%x, 0.5f, -3, out_dtype=\"int8\"), "
		 "qnn.quantize(%xc, %sc, %zc, out_dtype=\"uint8\", axis=0), "
		 "qnn.dequantize(%d, 0.5f, -3), qnn.dequantize(%u, %s3, %z3), "
		 "qnn.dequantize(%h, 4f, 0, out_dtype=\"float16\"))");
	assert_int_equal(result.outputs[0].dtype, DT_INT8);
	expect_values(0, q8, 6, 0);
	assert_int_equal(result.outputs[1].dtype, DT_UINT8);
	expect_values(1, qc, 6, 0);
	expect_values(2, dq, 6, 0);
	expect_values(3, dc, 6, 0);
	assert_int_equal(result.outputs[4].dtype, DT_FLOAT16);
	expect_values(4, dh, 2, 0);
}

/* qnn.requantize against TVM's lowering worked out by hand. compute_dtype
 * int64 (the default): x - zero_point in int32, times the multiplier in
 * fixed point (0.5: 2^30 * 2^-31, TVM's one-half shortcut (t + 1) >> 1;
 * 0.75: 1610612736 * 2^-31) rounded half up (UPWARD) or half away from
 * zero (TONEAREST), then the output zero point, clipped; per channel
 * along axis 0. float32 and float64: the output zero point added before
 * rounding, so the ties fall elsewhere. */
static void test_qnn_requantize(void **state)
{
	/* t = x - 1 = 5, -5, 3, -3, 400, -400 */
	static const double x[] = {6, -4, 4, -2, 401, -399};
	/* halves: 2.5 -> 3, -2.5 -> -2, 1.5 -> 2, -1.5 -> -1; - 100 */
	static const double up[] = {-97, -102, -98, -101, 100, -128};
	static const double near[] = {-97, -103, -98, -102, 100, -128};
	/* -97.5, -102.5, -98.5, -101.5, 100, -300 rounded */
	static const double fup[] = {-97, -102, -98, -101, 100, -128};
	static const double fnear[] = {-98, -103, -99, -102, 100, -128};
	/* row 0: scale 0.75, zero point 0; row 1: 0.5, -2 (t = x + 2) */
	static const double c[] = {2, -2, 10, -10, 3, -7, 65536, -80000};
	static const double sc[] = {0.75, 0.5}, zc[] = {0, -2};
	static const double cup[] = {2, -1, 8, -7, 3, -2, 32767, -32768};
	static const double cnear[] = {2, -2, 8, -8, 3, -3, 32767, -32768};
	/* 0.75 scalar, to int32 (no clip): 1.5 -> 2, -1.5 -> -1 / -2 */
	static const double t75[] = {2, -2, 3, -3, 10, -10};
	static const double up75[] = {2, -1, 2, -2, 8, -7};
	static const double near75[] = {2, -2, 2, -2, 8, -8};
	(void)state;
	in_values("x", DT_INT32, SHAPE(6), x);
	in_values("c", DT_INT32, SHAPE(2, 4), c);
	in_values("sc", DT_FLOAT32, SHAPE(2), sc);
	in_values("zc", DT_INT32, SHAPE(2), zc);
	in_values("t", DT_INT16, SHAPE(6), t75);
	run_body("(qnn.requantize(%x, 0.5f, 1, 1f, -100, out_dtype=\"int8\"), "
		 "qnn.requantize(%x, 0.5f, 1, 1f, -100, rounding=\"TONEAREST\", "
		 "out_dtype=\"int8\"), "
		 "qnn.requantize(%x, 0.5f, 1, 1f, -100, compute_dtype=\"float32\", "
		 "out_dtype=\"int8\"), "
		 "qnn.requantize(%x, 0.5f, 1, 1f, -100, rounding=\"TONEAREST\", "
		 "compute_dtype=\"float32\", out_dtype=\"int8\"), "
		 "qnn.requantize(%x, 0.5f, 1, 1f, -100, rounding=\"TONEAREST\", "
		 "compute_dtype=\"float64\", out_dtype=\"int8\"), "
		 "qnn.requantize(%c, %sc, %zc, 1f, 0, axis=0, rounding=\"UPWARD\", "
		 "out_dtype=\"int16\"), "
		 "qnn.requantize(%c, %sc, %zc, 1f, 0, axis=0, rounding=\"TONEAREST\", "
		 "out_dtype=\"int16\"), "
		 "qnn.requantize(%t, 0.75f, 0, 1f, 0, out_dtype=\"int32\"), "
		 "qnn.requantize(%t, 0.75f, 0, 1f, 0, rounding=\"TONEAREST\", "
		 "out_dtype=\"int32\"))");
	expect_values(0, up, 6, 0);
	expect_values(1, near, 6, 0);
	expect_values(2, fup, 6, 0);
	expect_values(3, fnear, 6, 0);
	expect_values(4, fnear, 6, 0);
	assert_int_equal(result.outputs[5].dtype, DT_INT16);
	expect_values(5, cup, 8, 0);
	expect_values(6, cnear, 8, 0);
	assert_int_equal(result.outputs[7].dtype, DT_INT32);
	expect_values(7, up75, 6, 0);
	expect_values(8, near75, 6, 0);
}

/* qnn.add, qnn.subtract and qnn.mul against TVM's lowering worked out by
 * hand. add, subtract: each operand requantized to the output's scale and
 * zero point in int32 (lhs: the scales agree, so x - 2 + 3; rhs: times
 * 0.5, (t + 1) >> 1 with t = x + 1, then + 3), or cast when its scalar
 * parameters are the output's; the sum less the output zero point, the
 * difference plus it, clipped. mul: (a - 2) * (b + 1) requantized from
 * scale 0.125 (times 0.25: (t + 2) >> 2, -38.5 rounding up). Per channel
 * along axis 0: multipliers 0.5 and 1 (add), 1 and 0.25 (mul); rhs
 * broadcasting over rows; uint8 saturating at 0. */
static void test_qnn_binary(void **state)
{
	static const double a[] = {10, -20, 127, -128}, b[] = {4, 6, 100, -100};
	static const double add[] = {14, -15, 127, -128}, sub[] = {8, -23, 77, -78};
	static const double add_same[] = {13, -16, 127, -128};
	static const double mul[] = {13, -35, 127, 127};
	static const double a2[] = {3, -3, 5, -5}, sc[] = {0.5, 1}, zc[] = {0, -4};
	static const double b2[] = {1, 100}, b3[] = {3, 5, 8, -8};
	static const double sc3[] = {2, 0.25}, zc3[] = {1, 0};
	static const double addc[] = {3, 99, 10, 99}, mulc[] = {6, -12, 18, 2};
	static const double u[] = {10, 0}, v[] = {3, 200}, subu[] = {12, 0};
	(void)state;
	in_values("a", DT_INT8, SHAPE(4), a);
	in_values("b", DT_INT8, SHAPE(4), b);
	in_values("a2", DT_INT8, SHAPE(2, 2), a2);
	in_values("sc", DT_FLOAT32, SHAPE(2), sc);
	in_values("zc", DT_INT32, SHAPE(2), zc);
	in_values("b2", DT_INT8, SHAPE(2), b2);
	in_values("b3", DT_INT8, SHAPE(2, 2), b3);
	in_values("sc3", DT_FLOAT32, SHAPE(2), sc3);
	in_values("zc3", DT_INT32, SHAPE(2), zc3);
	in_values("u", DT_UINT8, SHAPE(2), u);
	in_values("v", DT_UINT8, SHAPE(2), v);
	run_body("(qnn.add(%a, %b, 0.5f, 2, 0.25f, -1, 0.5f, 3), "
		 "qnn.subtract(%a, %b, 0.5f, 2, 0.25f, -1, 0.5f, 3), "
		 "qnn.add(%a, %b, 0.5f, 3, 0.25f, -1, 0.5f, 3), "
		 "qnn.mul(%a, %b, 0.5f, 2, 0.25f, -1, 0.5f, 3), "
		 "qnn.add(%a2, %b2, %sc, %zc, 1f, 0, 1f, 0, lhs_axis=0), "
		 "qnn.mul(%a2, %b3, %sc, %zc, %sc3, %zc3, 1f, 0, lhs_axis=0, rhs_axis=0), "
		 "qnn.subtract(%u, %v, 1f, 0, 1f, 0, 1f, 5))");
	assert_int_equal(result.outputs[0].dtype, DT_INT8);
	expect_values(0, add, 4, 0);
	expect_values(1, sub, 4, 0);
	expect_values(2, add_same, 4, 0);
	expect_values(3, mul, 4, 0);
	expect_values(4, addc, 4, 0);
	expect_values(5, mulc, 4, 0);
	assert_int_equal(result.outputs[6].dtype, DT_UINT8);
	expect_values(6, subu, 2, 0);
}

/* qnn.dense, qnn.batch_matmul and qnn.conv2d against TVM's lowering worked
 * out by hand: sums of (x - input_zero_point) * (w - weight_zero_point) in
 * int32. dense: uint8 data less 2, an int8 weight less 0 and -1 per unit
 * (-128 + 1 = -127 times 248). batch_matmul: transpose_b, zero points 1
 * and -1. conv2d: data less 1 padded with its zero point (so the padding
 * adds nothing), stride 2, weight zero points 0 and 1 per output channel:
 * channel 0 is P[2i][2j] - P[2i+1][2j+1], channel 1 the window's sum. */
static void test_qnn_products(void **state)
{
	static const double x[] = {1, 2, 3, 250, 0, 7}, w[] = {1, -1, 2, -128, 127, 0};
	static const double zw[] = {0, -1}, dense[] = {1, 128, 260, -31747};
	static const double bx[] = {1, 2, 3, 4}, by[] = {5, 6, 7, 8}, bmm[] = {7, 9, 33, 43};
	static const double d[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
	static const double k[] = {1, 0, 0, -1, 2, 2, 2, 2}, zk[] = {0, 1};
	static const double conv[] = {0, -2, -6, -4, 0, 3, 9, 24};
	(void)state;
	in_values("x", DT_UINT8, SHAPE(2, 3), x);
	in_values("w", DT_INT8, SHAPE(2, 3), w);
	in_values("zw", DT_INT32, SHAPE(2), zw);
	in_values("bx", DT_INT8, SHAPE(1, 2, 2), bx);
	in_values("by", DT_INT8, SHAPE(1, 2, 2), by);
	in_values("d", DT_INT8, SHAPE(1, 1, 3, 3), d);
	in_values("k", DT_INT8, SHAPE(2, 1, 2, 2), k);
	in_values("zk", DT_INT32, SHAPE(2), zk);
	run_body("(qnn.dense(%x, %w, 2, %zw, 0.5f, 0.25f, units=2, out_dtype=\"int32\"), "
		 "qnn.batch_matmul(%bx, %by, 1, -1, 1f, 1f, out_dtype=\"int32\", "
		 "transpose_b=True), "
		 "qnn.conv2d(%d, %k, 1, %zk, 1f, 1f, strides=[2, 2], padding=[1, 1], "
		 "channels=2, kernel_size=[2, 2], out_dtype=\"int32\"))");
	assert_int_equal(result.outputs[0].dtype, DT_INT32);
	expect_values(0, dense, 4, 0);
	expect_values(1, bmm, 4, 0);
	EXPECT_SHAPE(2, 1, 2, 2, 2);
	expect_values(2, conv, 8, 0);
}

/* The qnn unary operators against TVM's lowering worked out by hand:
 * dequantize ((x - 2) * 0.5: -65, -2.5, -1, 1, 62.5, 4), the float
 * function, quantize to int8 with the output's scale and zero point
 * (abs: / 0.25 - 100; hardswish: x * clip(x + 3, 0, 6) / 6, / 0.5; sqrt
 * of a negative is NaN, which gives 0; tanh: * 128; sigmoid: * 256 -
 * 128), clipped. */
static void test_qnn_unary(void **state)
{
	static const double x[] = {-128, -3, 0, 4, 127, 10};
	static const double abs_q[] = {127, -90, -96, -96, 127, -84};
	static const double hswish[] = {0, 0, -1, 1, 125, 8};
	static const double sqrt_q[] = {0, 0, 0, 8, 63, 16};
	static const double tanh_q[] = {-128, -126, -97, 97, 127, 127};
	static const double sigm[] = {-128, -109, -59, 59, 127, 123};
	(void)state;
	in_values("x", DT_INT8, SHAPE(6), x);
	run_body("(qnn.abs(%x, 0.5f, 2, 0.25f, -100), qnn.hardswish(%x, 0.5f, 2, 0.5f, 0), "
		 "qnn.sqrt(%x, 0.5f, 2, 0.125f, 0), qnn.tanh(%x, 0.5f, 2, 0.0078125f, 0), "
		 "qnn.sigmoid(%x, 0.5f, 2, 0.00390625f, -128))");
	assert_int_equal(result.outputs[0].dtype, DT_INT8);
	expect_values(0, abs_q, 6, 0);
	expect_values(1, hswish, 6, 0);
	expect_values(2, sqrt_q, 6, 0);
	expect_values(3, tanh_q, 6, 0);
	expect_values(4, sigm, 6, 0);
}

/* qnn.leaky_relu against TVM's lowering worked out by hand. Parameters
 * equal to the output's: x cast; below the zero point 2, alpha 0.25 as
 * (x + 2) >> 2 (q_multiply_shift's one-half shortcut) plus 0.75 * 2 = 2.
 * Output scale 0.25, zero point -1: x requantized, 2(x - 2) - 1, and
 * below 2, (r + 1) >> 1 plus 0.5 * -1 = 0; clipped. */
static void test_qnn_leaky_relu(void **state)
{
	static const double x[] = {-10, -3, 0, 5, 127, -128};
	static const double same[] = {0, 1, 2, 5, 127, -30};
	static const double requant[] = {-12, -5, -2, 5, 127, -128};
	(void)state;
	in_values("x", DT_INT8, SHAPE(6), x);
	run_body("(qnn.leaky_relu(%x, 0.5f, 2, 0.5f, 2, alpha=0.25f), "
		 "qnn.leaky_relu(%x, 0.5f, 2, 0.25f, -1, alpha=0.5f))");
	expect_values(0, same, 6, 0);
	expect_values(1, requant, 6, 0);
}

/* Hand-checked nn.space_to_batch_nd (TF's example layout: the block
 * offsets outermost in the new batch, padding read as pad_value) and
 * nn.batch_to_space_nd, and the two as each other's inverse. */
static void test_space_batch(void **state)
{
	static const double x[] = {1, 2, 3, 4},
			    sq[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
	/* [1, 2, 2, 1] padded to [1, 4, 2, 1] (a row of 9 above and below),
	 * blocks of 2 x 2: batch (0, 0) reads rows 0 and 2 of column 0, ... */
	static const double s2b[] = {9, 3, 9, 4, 1, 9, 2, 9};
	/* [1, 4, 4] in 2 x 2 blocks: batch (oy, ox) reads (2j + oy, 2i + ox) */
	static const double s2b4[] = {0, 2, 8, 10, 1, 3, 9, 11, 4, 6, 12, 14, 5, 7, 13, 15};
	(void)state;
	in_values("x", DT_FLOAT32, SHAPE(1, 2, 2, 1), x);
	in_values("q", DT_INT8, SHAPE(1, 4, 4), sq);
	RAND("r", DT_FLOAT64, 2, 4, 6, 3);
	run_body("(nn.space_to_batch_nd(%x, block_shape=[2, 2], paddings=[[1, 1], [0, 0]], "
		 "pad_value=9f), nn.space_to_batch_nd(%q, block_shape=[2, 2], paddings=[[0, 0], "
		 "[0, 0]]), nn.batch_to_space_nd(nn.space_to_batch_nd(%x, block_shape=[2, 2], "
		 "paddings=[[1, 1], [0, 0]]), block_shape=[2, 2], crops=[[1, 1], [0, 0]]), "
		 "nn.batch_to_space_nd(nn.space_to_batch_nd(%r, block_shape=[3, 2], "
		 "paddings=[[1, 1], [2, 0]]), block_shape=[3, 2], crops=[[1, 1], [2, 0]]), "
		 "nn.batch_to_space_nd(reshape(%q, newshape=[4, 2, 2]), block_shape=[2, 2], "
		 "crops=[[0, 0], [0, 1]]))");
	EXPECT_SHAPE(0, 4, 2, 1, 1);
	expect_values(0, s2b, 8, 0);
	EXPECT_SHAPE(1, 4, 2, 2);
	expect_values(1, s2b4, 16, 0);
	EXPECT_SHAPE(2, 1, 2, 2, 1);
	expect_values(2, x, 4, 0);
	{
		double want[144];
		for (int i = 0; i < 144; i++)
			want[i] = in_at(2, i);
		EXPECT_SHAPE(3, 2, 4, 6, 3);
		expect_values(3, want, 144, 0);
	}
	{
		/* batch b = 2 * oy + ox of [4, 2, 2] (element 4b + 2sy + sx)
		 * lands at (2sy + oy, 2sx + ox) of [1, 4, 4], the last column
		 * cropped */
		double want[12];
		for (int y = 0; y < 4; y++)
			for (int c = 0; c < 3; c++)
				want[y * 3 + c] = 4 * (2 * (y % 2) + c % 2) + 2 * (y / 2) + c / 2;
		EXPECT_SHAPE(4, 1, 4, 3);
		expect_values(4, want, 12, 0);
	}
}

/* Hand-checked image.crop_and_resize: topi's in_y = y1 * (H - 1) + (H - 1)
 * * (y2 - y1) / (crop_h - 1) * y (and x alike) over an image whose values
 * are linear in the position (3y + x), so bilinear reads 3 in_y + in_x
 * exactly; positions off the image read extrapolation_value; nearest
 * rounds half away from zero; NHWC reads the box index's image. */
static void test_crop_and_resize(void **state)
{
	static const double img[] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
	/* the whole image, and y in [0, 0.5], x in [0, 0.25] */
	static const double ba[] = {0, 0, 1, 1, 0, 0, 0.5, 0.25}, ia[] = {0, 0};
	static const double wa[] = {0, 1,    2,   3,   4,    5, 6, 7,    8,
				    0, 0.25, 0.5, 1.5, 1.75, 2, 3, 3.25, 3.5};
	/* y, x in [0.5, 1] (positions 1 and 2), and y in [-0.5, 0.5] (rows -1
	 * and 1), x in [0.5, 1.5] (columns 1 and 3): only (1, 1) is on the
	 * image */
	static const double bb[] = {0.5, 0.5, 1, 1, -0.5, 0.5, 0.5, 1.5};
	static const double wb[] = {4, 5, 7, 8, -9, -9, 4, -9};
	/* nearest: rows round(0, 0.5, 1) = 0, 1, 1; columns round(0, 0.25,
	 * 0.5) = 0, 0, 1 */
	static const double wn[] = {0, 0, 1, 3, 3, 4, 3, 3, 4};
	static const double bc[] = {0, 0, 1, 1}, ic[] = {1};
	double e[16];
	(void)state;
	for (int i = 0; i < 16; i++)
		e[i] = i;
	in_values("d", DT_FLOAT32, SHAPE(1, 1, 3, 3), img);
	in_values("ba", DT_FLOAT32, SHAPE(2, 4), ba);
	in_values("ia", DT_INT32, SHAPE(2), ia);
	in_values("bb", DT_FLOAT32, SHAPE(2, 4), bb);
	in_values("e", DT_FLOAT64, SHAPE(2, 2, 2, 2), e);
	in_values("bc", DT_FLOAT64, SHAPE(1, 4), bc);
	in_values("ic", DT_INT64, SHAPE(1), ic);
	run_body("(image.crop_and_resize(%d, %ba, %ia, crop_size=[3, 3]), "
		 "image.crop_and_resize(%d, %bb, %ia, crop_size=[2, 2], extrapolation_value=-9f), "
		 "image.crop_and_resize(%d, strided_slice(%ba, begin=[1], end=[2]), "
		 "strided_slice(%ia, begin=[1], end=[2]), crop_size=[3, 3], "
		 "method=\"nearest_neighbor\"), "
		 "image.crop_and_resize(%e, %bc, %ic, crop_size=[2, 2], layout=\"NHWC\"))");
	EXPECT_SHAPE(0, 2, 1, 3, 3);
	expect_values(0, wa, 18, 1e-6);
	EXPECT_SHAPE(1, 2, 1, 2, 2);
	expect_values(1, wb, 8, 1e-6);
	EXPECT_SHAPE(2, 1, 1, 3, 3);
	expect_values(2, wn, 9, 0);
	EXPECT_SHAPE(3, 1, 2, 2, 2);
	expect_values(3, e + 8, 8, 1e-12);
}

/* ---- normalisations --------------------------------------------------------- */

/* Normalises input 0 seen as [outer, mid, c, inner]: the statistics of
 * each (outer, group) over its channels' mid and inner elements (layer
 * norm: of each (outer, inner) over c), then gamma and beta (inputs 1 and
 * 2) per channel. */
static void norm_reference(int64_t outer, int64_t mid, int64_t c, int64_t inner, int64_t groups,
			   bool layer, double eps, bool center, bool scale, double *want)
{
	int64_t per = c / groups;
	int64_t nstat = layer ? outer * inner : outer * groups;
	for (int64_t st = 0; st < nstat; st++) {
		double mean = 0, var = 0, count = 0;
		for (int pass = 0; pass < 3; pass++)
			for (int64_t m = 0; m < mid; m++)
				for (int64_t ch = 0; ch < c; ch++)
					for (int64_t i = 0; i < inner; i++) {
						int64_t o = layer ? st / inner : st / groups;
						int64_t k = ((o * mid + m) * c + ch) * inner + i;
						double v;
						if (layer ? i != st % inner
							  : ch / per != st % groups)
							continue;
						v = in_at(0, k);
						if (pass == 0) {
							mean += v;
							count++;
						} else if (pass == 1) {
							var += (v - mean / count) *
							       (v - mean / count);
						} else {
							double y = (v - mean / count) /
								   sqrt(var / count + eps);
							want[k] = y * (scale ? in_at(1, ch) : 1) +
								  (center ? in_at(2, ch) : 0);
						}
					}
	}
}

static void test_norms(void **state)
{
	double want[240];
	(void)state;
	/* layer_norm over the last axis and over a middle one, with and
	 * without gamma and beta */
	RAND("x", DT_FLOAT32, 2, 3, 5);
	RAND("g", DT_FLOAT32, 5);
	RAND("b", DT_FLOAT32, 5);
	run_body("(nn.layer_norm(%x, %g, %b), nn.layer_norm(%x, %g, %b, epsilon=0.5f, "
		 "center=False), "
		 "nn.layer_norm(%x, %g, %b, scale=False))");
	norm_reference(6, 1, 5, 1, 1, true, 1e-5, true, true, want);
	expect_values(0, want, 30, 1e-5);
	norm_reference(6, 1, 5, 1, 1, true, 0.5, false, true, want);
	expect_values(1, want, 30, 1e-5);
	norm_reference(6, 1, 5, 1, 1, true, 1e-5, true, false, want);
	expect_values(2, want, 30, 1e-5);
	teardown(NULL);
	setup(NULL);
	RAND("x", DT_FLOAT64, 2, 3, 5);
	RAND("g", DT_FLOAT64, 3);
	RAND("b", DT_FLOAT64, 3);
	run_body("(nn.layer_norm(%x, %g, %b, axis=1), nn.instance_norm(%x, %g, %b), "
		 "nn.group_norm(%x, %g, %b, num_groups=1))");
	norm_reference(2, 1, 3, 5, 1, true, 1e-5, true, true, want);
	expect_values(0, want, 30, 1e-9);
	norm_reference(2, 1, 3, 5, 3, false, 1e-5, true, true, want);
	expect_values(1, want, 30, 1e-9);
	norm_reference(2, 1, 3, 5, 1, false, 1e-5, true, true, want);
	expect_values(2, want, 30, 1e-9);
	/* group norm of 3 groups of 2 channels; instance norm with the
	 * channels last (NHWC: mid is H) */
	teardown(NULL);
	setup(NULL);
	RAND("x", DT_FLOAT32, 2, 6, 4, 5);
	RAND("g", DT_FLOAT32, 6);
	RAND("b", DT_FLOAT32, 6);
	RAND("y", DT_FLOAT32, 2, 4, 5, 6);
	run_body("(nn.group_norm(%x, %g, %b, num_groups=3), nn.instance_norm(%y, %g, %b, axis=3))");
	norm_reference(2, 1, 6, 20, 3, false, 1e-5, true, true, want);
	expect_values(0, want, 240, 1e-5);
	{
		/* the reference reads input 0: make %y input 0 */
		Input keep = inputs[0];
		inputs[0] = inputs[3];
		norm_reference(2, 20, 6, 1, 6, false, 1e-5, true, true, want);
		inputs[0] = keep;
		expect_values(1, want, 240, 1e-5);
	}
	/* batch_norm with moving statistics; they pass through */
	teardown(NULL);
	setup(NULL);
	{
		static const double var[] = {0.5, 2, 1};
		NpyArray *x = RAND("x", DT_FLOAT32, 2, 3, 4);
		RAND("g", DT_FLOAT32, 3);
		RAND("b", DT_FLOAT32, 3);
		RAND("m", DT_FLOAT32, 3);
		in_values("v", DT_FLOAT32, SHAPE(3), var);
		run_body("%0 = nn.batch_norm(%x, %g, %b, %m, %v, epsilon=0.001f); (%0.0, %0.1, "
			 "%0.2)");
		for (int64_t k = 0; k < 24; k++) {
			int64_t ch = k / 4 % 3;
			want[k] = (in_at(0, k) - in_at(3, ch)) / sqrt(var[ch] + 0.001) *
					  in_at(1, ch) +
				  in_at(2, ch);
		}
		(void)x;
		expect_values(0, want, 24, 1e-5);
		for (int64_t ch = 0; ch < 3; ch++)
			want[ch] = in_at(3, ch);
		expect_values(1, want, 3, 0);
		expect_values(2, var, 3, 0);
	}
}

/* layer_norm along the last axis in eight lanes: rows that end inside a
 * lane, with and without gamma and beta, in both float dtypes, against
 * the two-pass statistics computed here. */
static void test_layer_norm_long_rows(void **state)
{
	static const int64_t lens[] = {1, 7, 8, 37, 130};
	static const char *const forms[] = {"", ", center=False", ", scale=False"};
	(void)state;
	for (int f64 = 0; f64 < 2; f64++)
		for (size_t l = 0; l < DP_COUNT(lens); l++)
			for (size_t f = 0; f < DP_COUNT(forms); f++) {
				int64_t c = lens[l], rows = 3;
				DType dt = f64 ? DT_FLOAT64 : DT_FLOAT32;
				char body[128];
				double *want = xmalloc((size_t)(rows * c) * sizeof(double));
				teardown(NULL);
				setup(NULL);
				RAND("x", dt, rows, c);
				RAND("g", dt, c);
				RAND("b", dt, c);
				snprintf(body, sizeof body,
					 "nn.layer_norm(%%x, %%g, %%b, epsilon=1e-5f%s)", forms[f]);
				run_body(body);
				for (int64_t r = 0; r < rows; r++) {
					double mean = 0, var = 0;
					for (int64_t k = 0; k < c; k++)
						mean += in_at(0, r * c + k);
					mean /= (double)c;
					for (int64_t k = 0; k < c; k++)
						var += (in_at(0, r * c + k) - mean) *
						       (in_at(0, r * c + k) - mean);
					var /= (double)c;
					for (int64_t k = 0; k < c; k++)
						want[r * c + k] =
							(in_at(0, r * c + k) - mean) /
								sqrt(var + 1e-5) *
								(f == 2 ? 1 : in_at(1, k)) +
							(f == 1 ? 0 : in_at(2, k));
				}
				expect_values(0, want, rows * c, f64 ? 1e-6 : 1e-5);
				free(want);
			}
}

static void test_log_softmax(void **state)
{
	double want[21];
	(void)state;
	RAND("x", DT_FLOAT32, 3, 7);
	run_body("(nn.log_softmax(%x), nn.log_softmax(%x, axis=0))");
	for (int r = 0; r < 3; r++) {
		double m = -INFINITY, sum = 0;
		for (int k = 0; k < 7; k++)
			m = fmax(m, in_at(0, r * 7 + k));
		for (int k = 0; k < 7; k++)
			sum += exp(in_at(0, r * 7 + k) - m);
		for (int k = 0; k < 7; k++)
			want[r * 7 + k] = in_at(0, r * 7 + k) - m - log(sum);
	}
	expect_values(0, want, 21, 1e-5);
	for (int k = 0; k < 7; k++) {
		double sum = 0;
		for (int r = 0; r < 3; r++)
			sum += exp(in_at(0, r * 7 + k));
		for (int r = 0; r < 3; r++)
			want[r * 7 + k] = in_at(0, r * 7 + k) - log(sum);
	}
	expect_values(1, want, 21, 1e-5);
}

/* ---- what the cpu refuses ----------------------------------------------------------- */

static void test_unsupported_dtype(void **state)
{
	(void)state;
	RAND("x", DT_INT32, 2, 3);
	RAND("w", DT_INT32, 4, 3);
	run_body_fails("nn.dense(%x, %w)", "'nn.dense' on the cpu does not support int32");
}

/* Casts between the other dtypes: float to integer saturates, integer to
 * integer wraps, bfloat16 rounds to nearest even. */
/* Every pair of dtypes through cast's generated loops, against the
 * conversion one element at a time through dtype_access.h (integers via
 * int64, the rest via double): random values, then the values at the
 * edges (NaN, infinities, past every integer range, subnormal and
 * half-way float16 values), bytes compared. */
static void test_cast_pairs(void **state)
{
	static const double edges[] = {
		NAN,          INFINITY, -INFINITY, 1e20, -1e20, 65520,       65519.9, 3e9,
		-3e9,         255.5,    -128.5,    0.5,  -0.5,  1.5,         2.5,     6e-8,
		2.9802322e-8, 1e-40,    -0.0,      0,    127.9, 4294967296.0};
	static const DType dts[] = {DT_FLOAT32, DT_FLOAT64, DT_FLOAT16, DT_BFLOAT16, DT_INT8,
				    DT_UINT8,   DT_INT16,   DT_UINT16,  DT_INT32,    DT_UINT32,
				    DT_INT64,   DT_UINT64,  DT_BOOL};
	(void)state;
	for (size_t a = 0; a < DP_COUNT(dts); a++)
		for (size_t b = 0; b < DP_COUNT(dts); b++) {
			DType in = dts[a], out = dts[b];
			int64_t n = 200 + (int64_t)DP_COUNT(edges);
			char body[64];
			char *want;
			NpyArray *x;
			bool ints = dtype_is_float(in) == false && dtype_is_float(out) == false;
			teardown(NULL);
			setup(NULL);
			x = in_random("x", in, SHAPE(n));
			for (size_t e = 0; e < DP_COUNT(edges); e++)
				dtype_store_double(x->data, in, 200 + (int64_t)e, edges[e]);
			snprintf(body, sizeof body, "cast(%%x, dtype=\"%s\")", dtype_name(out));
			run_body(body);
			want = xmalloc((size_t)n * dtype_size(out));
			for (int64_t i = 0; i < n; i++) {
				if (ints)
					dtype_store_int(want, out, i,
							dtype_load_int(x->data, in, i));
				else
					dtype_store_double(want, out, i,
							   dtype_load_double(x->data, in, i));
			}
			if (memcmp(result.outputs[0].data, want, (size_t)n * dtype_size(out))) {
				print_error("cast %s to %s differs\n", dtype_name(in),
					    dtype_name(out));
				fail();
			}
			free(want);
		}
}

/* float32 to float16 (the branch-free rounding of cast's loop) against
 * npy_float_to_half, bit for bit, on float32 bit patterns spread over all
 * of them and on every one around the edges of float16's ranges. */
static void test_cast_float16(void **state)
{
	enum { SPREAD = 1 << 20, EDGE = 1 << 13 };
	static const uint32_t edges[] = {0x33000000, 0x38800000, 0x477fe000, 0x47800000,
					 0x7f800000, 0x00000000, 0x387fc000, 0x33800000};
	int64_t n = SPREAD + 2 * (int64_t)DP_COUNT(edges) * EDGE;
	NpyArray *x;
	uint32_t *bits;
	const uint16_t *got;
	(void)state;
	x = in_random("x", DT_FLOAT32, SHAPE(n));
	bits = x->data;
	for (int64_t i = 0; i < SPREAD; i++)
		bits[i] = (uint32_t)((uint64_t)i * 4096 + (uint64_t)i % 4093);
	for (size_t e = 0; e < DP_COUNT(edges); e++)
		for (int64_t k = 0; k < 2 * EDGE; k++) {
			/* EDGE patterns below the edge and EDGE from it, both signs */
			uint32_t v = edges[e] - EDGE + (uint32_t)k;
			bits[SPREAD + ((int64_t)e * 2 * EDGE + k)] = k % 2 ? v | 0x80000000u : v;
		}
	run_body("cast(%x, dtype=\"float16\")");
	got = result.outputs[0].data;
	for (int64_t i = 0; i < n; i++) {
		float f;
		memcpy(&f, &bits[i], sizeof f);
		if (got[i] != npy_float_to_half(f)) {
			print_error("float32 %08x: float16 %04x, want %04x\n", bits[i], got[i],
				    npy_float_to_half(f));
			fail();
		}
	}
}

static void test_cast_other_dtypes(void **state)
{
	static const double x[] = {-3.5, 300.7, 3.14159, -70000, NAN};
	static const double i[] = {-3, 200, 65535, -1};
	(void)state;
	in_values("x", DT_FLOAT32, SHAPE(5), x);
	in_values("i", DT_INT32, SHAPE(4), i);
	run_body("(cast(%x, dtype=\"int8\"), cast(%x, dtype=\"uint8\"), cast(%x, "
		 "dtype=\"int16\"), cast(%x, dtype=\"uint16\"), cast(%x, dtype=\"bfloat16\"), "
		 "cast(%i, dtype=\"int8\"), cast(%i, dtype=\"uint8\"), cast(%i, dtype=\"uint64\"), "
		 "cast(cast(%i, dtype=\"uint32\"), dtype=\"float64\"))");
	{
		static const int8_t f_i8[] = {-3, 127, 3, -128, 0}, i_i8[] = {-3, -56, -1, -1};
		static const uint8_t f_u8[] = {0, 255, 3, 0, 0}, i_u8[] = {253, 200, 255, 255};
		static const int16_t f_i16[] = {-3, 300, 3, -32768, 0};
		static const uint16_t f_u16[] = {0, 300, 3, 0, 0};
		static const uint64_t i_u64[] = {18446744073709551613ull, 200, 65535,
						 18446744073709551615ull};
		static const double back[] = {4294967293.0, 200, 65535, 4294967295.0};
		static const double bf16[] = {-3.5, 300, 3.140625, -70144};
		assert_memory_equal(result.outputs[0].data, f_i8, 5);
		assert_memory_equal(result.outputs[1].data, f_u8, 5);
		assert_memory_equal(result.outputs[2].data, f_i16, sizeof f_i16);
		assert_memory_equal(result.outputs[3].data, f_u16, sizeof f_u16);
		for (int k = 0; k < 4; k++)
			assert_true(out_at(4, k) == bf16[k]);
		assert_true(isnan(out_at(4, 4)));
		assert_memory_equal(result.outputs[5].data, i_i8, 4);
		assert_memory_equal(result.outputs[6].data, i_u8, 4);
		assert_memory_equal(result.outputs[7].data, i_u64, sizeof i_u64);
		expect_values(8, back, 4, 0);
	}
}

/* Data movement, fills and reductions take the other dtypes too. */
static void test_other_dtypes_move_fill_reduce(void **state)
{
	static const double a[] = {1, -2, 3, -4, 5, -6}, b[] = {250, 251, 252};
	static const double u[] = {5, 4000000000.0, 7};
	(void)state;
	in_values("a", DT_INT16, SHAPE(2, 3), a);
	in_values("b", DT_UINT8, SHAPE(3), b);
	in_values("u", DT_UINT32, SHAPE(3), u);
	run_body("(transpose(%a), concatenate((%b, %b)), reshape(%a, newshape=[3, 2]), "
		 "ones_like(%b), sum(%a, axis=[1]), max(%u), sum(%b), mean(%a))");
	{
		static const int16_t t[] = {1, -4, -2, 5, 3, -6}, rows[] = {2, -5};
		static const uint8_t cat[] = {250, 251, 252, 250, 251, 252}, one[] = {1, 1, 1};
		static const uint32_t big = 4000000000u;
		static const uint8_t wrapped = (uint8_t)(250 + 251 + 252);
		static const int16_t mean = 0; /* (1 - 2 + 3 - 4 + 5 - 6) / 6 truncates */
		assert_memory_equal(result.outputs[0].data, t, sizeof t);
		assert_memory_equal(result.outputs[1].data, cat, sizeof cat);
		assert_memory_equal(result.outputs[2].data, inputs[0].a.data, sizeof t);
		assert_memory_equal(result.outputs[3].data, one, sizeof one);
		assert_memory_equal(result.outputs[4].data, rows, sizeof rows);
		assert_memory_equal(result.outputs[5].data, &big, sizeof big);
		assert_memory_equal(result.outputs[6].data, &wrapped, 1);
		assert_memory_equal(result.outputs[7].data, &mean, sizeof mean);
	}
	teardown(NULL);
	setup(NULL);
	in_values("a", DT_INT16, SHAPE(2, 3), a);
	run_body("%0 = split(%a, indices_or_sections=3, axis=1); (%0.0, %0.1, %0.2)");
	{
		static const int16_t p0[] = {1, -4}, p1[] = {-2, 5}, p2[] = {3, -6};
		assert_memory_equal(result.outputs[0].data, p0, sizeof p0);
		assert_memory_equal(result.outputs[1].data, p1, sizeof p1);
		assert_memory_equal(result.outputs[2].data, p2, sizeof p2);
	}
}

/* bfloat16's float-only kernels compute in float and round. */
static void test_bfloat16_unary(void **state)
{
	static const double x[] = {1, 0, -2};
	(void)state;
	in_values("x", DT_BFLOAT16, SHAPE(3), x);
	run_body("(exp(%x), sigmoid(%x), sqrt(%x))");
	{
		static const double e[] = {2.71875, 1, 0.1357421875};
		static const double sig[] = {0.73046875, 0.5, 0.119140625};
		expect_values(0, e, 3, 0);
		expect_values(1, sig, 3, 0);
		assert_true(out_at(2, 0) == 1 && out_at(2, 1) == 0 && isnan(out_at(2, 2)));
	}
}

/* A kernel that does not take a dtype is refused before the run, naming
 * the operator, the dtype and the device. */
static void test_other_dtypes_refused(void **state)
{
	(void)state;
	RAND("x", DT_INT8, 2, 3);
	RAND("w", DT_INT8, 4, 3);
	run_body_fails("nn.dense(%x, %w, out_dtype=\"int32\")",
		       "devplan has no kernel for 'nn.dense' on int8 tensors on ");
	teardown(NULL);
	setup(NULL);
	RAND("k", DT_UINT64, 4);
	run_body_fails("max(%k)", "devplan has no kernel for 'max' on uint64 tensors on ");
	teardown(NULL);
	setup(NULL);
	RAND("h", DT_BFLOAT16, 2, 3);
	run_body_fails("nn.softmax(%h)",
		       "devplan has no kernel for 'nn.softmax' on bfloat16 tensors on ");
}

/* The relations type channel-last windows; the kernels, channel-first
 * only, refuse them (the resamplings take both, and refuse the rest). */
static void test_unsupported_layout(void **state)
{
	static const struct {
		const char *body, *want;
		int rank;
	} cases[] = {
		{"nn.conv2d(%x, %w, data_layout=\"NHWC\", kernel_layout=\"HWIO\")",
		 "the kernels of 'nn.conv2d' compute only NCHW data with OIHW weights", 2},
		{"nn.conv2d(%x, %w, out_layout=\"NHWC\")",
		 "the kernels of 'nn.conv2d' compute only NCHW data with OIHW weights", 2},
		{"nn.conv2d_transpose(%x, %w, data_layout=\"NHWC\", kernel_layout=\"HWOI\")",
		 "the kernels of 'nn.conv2d_transpose' compute only NCHW data with IOHW weights",
		 2},
		{"nn.max_pool2d(%x, pool_size=[2, 2], layout=\"NHWC\")",
		 "the kernels of 'nn.max_pool2d' compute only NCHW data", 2},
		{"nn.avg_pool2d(%x, pool_size=[2, 2], out_layout=\"NHWC\")",
		 "the kernels of 'nn.avg_pool2d' compute only NCHW data", 2},
		{"nn.global_avg_pool2d(%x, layout=\"NHWC\")",
		 "the kernels of 'nn.global_avg_pool2d' compute only NCHW data", 2},
		{"nn.global_max_pool2d(%x, layout=\"NHWC\")",
		 "the kernels of 'nn.global_max_pool2d' compute only NCHW data", 2},
		{"nn.adaptive_avg_pool2d(%x, output_size=[2, 2], layout=\"NHWC\")",
		 "the kernels of 'nn.adaptive_avg_pool2d' compute only NCHW data", 2},
		{"image.resize2d(%x, size=[2, 2], layout=\"HWNC\")",
		 "the kernels of 'image.resize2d' compute only NCHW or NHWC data, not HWNC", 2},
		{"nn.conv1d(%x, %w, data_layout=\"NWC\", kernel_layout=\"WIO\")",
		 "the kernels of 'nn.conv1d' compute only NCW data with OIW weights", 1},
		{"nn.max_pool1d(%x, pool_size=[2], layout=\"NWC\")",
		 "the kernels of 'nn.max_pool1d' compute only NCW data", 1},
		{"nn.conv3d(%x, %w, data_layout=\"NDHWC\", kernel_layout=\"DHWIO\")",
		 "the kernels of 'nn.conv3d' compute only NCDHW data with OIDHW weights", 3},
		{"nn.conv3d_transpose(%x, %w, data_layout=\"NDHWC\", kernel_layout=\"DHWOI\")",
		 "the kernels of 'nn.conv3d_transpose' compute only NCDHW data with IODHW weights",
		 3},
		{"nn.avg_pool3d(%x, pool_size=[2, 2, 2], layout=\"NDHWC\")",
		 "the kernels of 'nn.avg_pool3d' compute only NCDHW data", 3},
		{"nn.adaptive_max_pool3d(%x, output_size=[2], layout=\"NDHWC\")",
		 "the kernels of 'nn.adaptive_max_pool3d' compute only NCDHW data", 3},
	};
	(void)state;
	for (size_t i = 0; i < DP_COUNT(cases); i++) {
		static const int64_t shape[] = {4, 4, 4, 4, 4};
		teardown(NULL);
		setup(NULL);
		in_random("x", DT_FLOAT32, (uint32_t)cases[i].rank + 2, shape);
		in_random("w", DT_FLOAT32, (uint32_t)cases[i].rank + 2, shape);
		run_body_fails(cases[i].body, cases[i].want);
	}
}

/* dtype_access.h's rules, dtype by dtype: stores from double saturate
 * (NaN gives 0), stores from int64 wrap, loads as int64 are exact. */
static void test_dtype_access(void **state)
{
	uint64_t w = 0;
	(void)state;
	for (int d = 0; d < DT_COUNT; d++) {
		DType dt = (DType)d;
		w = 0;
		dtype_store_double(&w, dt, 0, 3.0);
		assert_true(dtype_load_double(&w, dt, 0) == (dt == DT_BOOL ? 1.0 : 3.0));
		assert_int_equal(dtype_load_int(&w, dt, 0), dt == DT_BOOL ? 1 : 3);
		w = 0;
		dtype_store_double(&w, dt, 0, NAN);
		if (dt != DT_FLOAT32 && dt != DT_FLOAT64 && dt != DT_FLOAT16 && dt != DT_BFLOAT16)
			assert_int_equal(dtype_load_int(&w, dt, 0), dt == DT_BOOL ? 1 : 0);
	}
	dtype_store_double(&w, DT_INT8, 0, 1000.0);
	assert_int_equal(dtype_load_int(&w, DT_INT8, 0), 127);
	dtype_store_double(&w, DT_UINT16, 0, -5.0);
	assert_int_equal(dtype_load_int(&w, DT_UINT16, 0), 0);
	dtype_store_double(&w, DT_INT32, 0, 1e12);
	assert_int_equal(dtype_load_int(&w, DT_INT32, 0), INT32_MAX);
	dtype_store_int(&w, DT_INT8, 0, 300);
	assert_int_equal(dtype_load_int(&w, DT_INT8, 0), 44);
	dtype_store_int(&w, DT_UINT32, 0, -1);
	assert_int_equal(dtype_load_int(&w, DT_UINT32, 0), UINT32_MAX);
	dtype_store_int(&w, DT_UINT64, 0, -1);
	assert_int_equal(dtype_load_int(&w, DT_UINT64, 0), -1);
	assert_true(dtype_load_double(&w, DT_UINT64, 0) == 18446744073709551615.0);
	dtype_store_double(&w, DT_FLOAT32, 0, 1e300);
	assert_int_equal(dtype_load_int(&w, DT_FLOAT32, 0), INT64_MAX);
}

/* ---- the worker pool ------------------------------------------------------ */

typedef struct PoolCount {
	int *hits;
	int64_t nested; /* > 0: each range runs a parallel loop of this length */
	int *inner;
} PoolCount;

static void pool_count(void *ctx, int64_t begin, int64_t end)
{
	PoolCount *c = ctx;
	for (int64_t i = begin; i < end; i++) {
		c->hits[i]++;
		if (c->nested > 0) {
			PoolCount in = {c->inner + i * c->nested, 0, NULL};
			kernel_parallel_for(c->nested, 1, pool_count, &in);
		}
	}
}

/* Every index of [0, n) is run exactly once, for every n and grain. */
static void pool_check(int64_t n, int64_t grain, int64_t nested)
{
	int *hits = calloc((size_t)n + 1, sizeof(int));
	int *inner = calloc((size_t)(n * (nested > 0 ? nested : 1)) + 1, sizeof(int));
	PoolCount c = {hits, nested, inner};
	kernel_parallel_for(n, grain, pool_count, &c);
	for (int64_t i = 0; i < n; i++)
		assert_int_equal(hits[i], 1);
	for (int64_t i = 0; nested > 0 && i < n * nested; i++)
		assert_int_equal(inner[i], 1);
	free(hits);
	free(inner);
}

static void *pool_thread(void *arg)
{
	(void)arg;
	for (int k = 0; k < 200; k++)
		pool_check(1 + k % 37, 1, 0);
	return NULL;
}

/* The persistent workers: ranges cover [0, n) once whether the pool or
 * threads of the call's own run them (another caller owns the pool, or the
 * call is nested in a range), and the pool restarts after a stop and in a
 * child after fork. */
static void test_parallel_for_pool(void **state)
{
	pthread_t other;
	pid_t child;
	int status = -1;
	(void)state;
	for (int64_t n = 0; n < 70; n++)
		for (int64_t grain = 1; grain < 9; grain += 3)
			pool_check(n, grain, 0);
	pool_check(5, 1, 3);
	assert_int_equal(pthread_create(&other, NULL, pool_thread, NULL), 0);
	pool_thread(NULL);
	pthread_join(other, NULL);
	kernel_cpu_pool_stop();
	pool_check(1000, 1, 0);
	kernel_cpu_pool_open();
	kernel_cpu_pool_close(); /* the last one out: stops it */
	pool_check(1000, 1, 0);
	child = fork();
	if (child == 0) {
		int hits[64] = {0};
		PoolCount c = {hits, 0, NULL};
		kernel_parallel_for(64, 1, pool_count, &c);
		for (int i = 0; i < 64; i++)
			if (hits[i] != 1)
				_exit(1);
		_exit(0);
	}
	assert_true(child > 0);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

/* ---- by output rows: seeded random shapes against naive loops ------------------ */

/* The poolings, the direct (grouped and depthwise) convolutions and the
 * resamplings go by output rows or taps (cpu_window.c, cpu_image.c) and
 * promise the same bits as one output position's loop over its window
 * would give: each test below draws shapes and attributes from a fixed
 * seed, runs the operator and compares every element, sign included,
 * with such a loop written here in the kernel's dtype. */

static uint64_t prop_seed;

/* A value in [lo, hi] from the seeded sequence (splitmix64). */
static int64_t prop_int(int64_t lo, int64_t hi)
{
	uint64_t z = (prop_seed += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	z ^= z >> 31;
	return lo + (int64_t)(z % (uint64_t)(hi - lo + 1));
}

/* Output out equals want bit for bit: the same value and sign, a NaN for a NaN. */
static void expect_exact(size_t out, const double *want, int64_t n, const char *what)
{
	assert_int_equal(npy_array_count(&result.outputs[out]), n);
	for (int64_t i = 0; i < n; i++) {
		double g = out_at(out, i);
		bool ok = isnan(want[i]) ? isnan(g)
					 : g == want[i] && !signbit(g) == !signbit(want[i]);
		if (!ok) {
			print_error("%s: element %lld: got %.17g, want %.17g\n", what, (long long)i,
				    g, want[i]);
			fail();
		}
	}
}

/* Some special values among an input's random ones: NaN, infinities and
 * zeros of both signs (the maximum's ties and NaN rule). */
static void sprinkle_specials(NpyArray *a)
{
	static const double specials[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, -0.0, 0.0};
	int64_t n = npy_array_count(a);
	for (int64_t i = 0; i < n; i++)
		if (prop_int(0, 15) == 0)
			dtype_store_double(a->data, a->dtype, i,
					   specials[prop_int(0, DP_COUNT(specials) - 1)]);
}

/* Every element of a special or -1: windows whose maximum is a zero of
 * either sign (or a NaN) are common, so the maximum's order (ties keep
 * the first in the window's order) is tested wherever it runs. */
static void all_ties(NpyArray *a)
{
	static const double values[] = {-0.0, 0.0, -1.0, -1.0, -INFINITY, NAN};
	int64_t n = npy_array_count(a);
	for (int64_t i = 0; i < n; i++)
		dtype_store_double(a->data, a->dtype, i,
				   values[prop_int(0, 3) ? prop_int(0, 3) : prop_int(0, 5)]);
}

/* Pooling of planes x h x w with the window (kh, kw), strides s, padding p
 * (top, left, bottom, right) and dilation d, to oh x ow: the maximum (NaN
 * wins, -FLT_MAX / -DBL_MAX for a window without input) and the average
 * (the sum from 0 divided by the count cast to T), taps in the order ky,
 * kx, both in the dtype T (topi's arithmetic). */
#define DEFINE_NAIVE_POOL(NAME, T, LOWEST)                                                         \
	static void NAME(int64_t planes, int64_t h, int64_t w, const int64_t *k, const int64_t *s, \
			 const int64_t *p, const int64_t *d, bool include_pad, int64_t oh,         \
			 int64_t ow, double *mx, double *avg)                                      \
	{                                                                                          \
		for (int64_t plane = 0; plane < planes; plane++)                                   \
			for (int64_t y = 0; y < oh; y++)                                           \
				for (int64_t x = 0; x < ow; x++) {                                 \
					T m = (T)-INFINITY;                                        \
					T sum = 0;                                                 \
					int64_t in = 0, count = 0;                                 \
					for (int64_t ky = 0; ky < k[0]; ky++)                      \
						for (int64_t kx = 0; kx < k[1]; kx++) {            \
							int64_t py = y * s[0] + ky * d[0],         \
								px = x * s[1] + kx * d[1];         \
							int64_t iy = py - p[0], ix = px - p[1];    \
							bool inside = iy >= 0 && iy < h &&         \
								      ix >= 0 && ix < w;           \
							if (inside) {                              \
								T v = (T)in_at(                    \
									0, (plane * h + iy) * w +  \
										   ix);            \
								m = v > m || v != v ? v : m;       \
								sum += v;                          \
								in++;                              \
							}                                          \
							if (include_pad                            \
								    ? py < h + p[0] + p[2] &&      \
									      px < w + p[1] + p[3] \
								    : inside)                      \
								count++;                           \
						}                                                  \
					mx[(plane * oh + y) * ow + x] = in ? m : LOWEST;           \
					avg[(plane * oh + y) * ow + x] =                           \
						count ? sum / (T)count : 0;                        \
				}                                                                  \
	}
DEFINE_NAIVE_POOL(naive_pool_f32, float, -FLT_MAX)
DEFINE_NAIVE_POOL(naive_pool_f64, double, -DBL_MAX)

/* nn.max_pool2d and nn.avg_pool2d over random sizes, windows, strides,
 * dilations, paddings (also wider than the window), ceil_mode and
 * count_include_pad, with NaNs, infinities and signed zeros among the
 * inputs; the output's shape is the operator's own. */
static void test_pool_rows_random(void **state)
{
	(void)state;
	prop_seed = 30;
	for (int c = 0; c < 120; c++) {
		DType dt = c % 2 ? DT_FLOAT64 : DT_FLOAT32;
		int64_t N = prop_int(1, 2), C = prop_int(1, 3), H = prop_int(1, 14),
			W = prop_int(1, 45);
		int64_t k[2] = {prop_int(1, 4), prop_int(1, 4)},
			s[2] = {prop_int(1, 3), prop_int(1, 3)},
			d[2] = {prop_int(1, 2), prop_int(1, 2)}, p[4], oh, ow;
		bool ceil = prop_int(0, 1), include_pad = prop_int(0, 1);
		char attrs[384], body[1024];
		double *mx, *avg;
		for (int i = 0; i < 4; i++)
			p[i] = prop_int(0, k[i % 2] + 1);
		if (H + p[0] + p[2] < d[0] * (k[0] - 1) + 1 ||
		    W + p[1] + p[3] < d[1] * (k[1] - 1) + 1)
			continue; /* the window does not fit the padded input */
		teardown(NULL);
		setup(NULL);
		if (c % 4 == 3)
			all_ties(RAND("x", dt, N, C, H, W));
		else
			sprinkle_specials(RAND("x", dt, N, C, H, W));
		snprintf(attrs, sizeof attrs,
			 "pool_size=[%lld, %lld], strides=[%lld, %lld], padding=[%lld, %lld, %lld, "
			 "%lld], dilation=[%lld, %lld], ceil_mode=%s",
			 (long long)k[0], (long long)k[1], (long long)s[0], (long long)s[1],
			 (long long)p[0], (long long)p[1], (long long)p[2], (long long)p[3],
			 (long long)d[0], (long long)d[1], ceil ? "True" : "False");
		snprintf(body, sizeof body,
			 "(nn.max_pool2d(%%x, %s), nn.avg_pool2d(%%x, %s, count_include_pad=%s))",
			 attrs, attrs, include_pad ? "True" : "False");
		run_body(body);
		oh = result.outputs[0].shape[2];
		ow = result.outputs[0].shape[3];
		mx = xmalloc((size_t)(N * C * oh * ow + 1) * sizeof(double));
		avg = xmalloc((size_t)(N * C * oh * ow + 1) * sizeof(double));
		(dt == DT_FLOAT32 ? naive_pool_f32 : naive_pool_f64)(N * C, H, W, k, s, p, d,
								     include_pad, oh, ow, mx, avg);
		expect_exact(0, mx, N * C * oh * ow, body);
		expect_exact(1, avg, N * C * oh * ow, body);
		free(mx);
		free(avg);
	}
}

/* nn.avg_pool2d of strides 1 in height and width (a plane as one long
 * run, avg_flat_f32), windows of 3 x 3 half the time, over random sizes,
 * dilations, paddings, ceil_mode and count_include_pad, with NaNs,
 * infinities and signed zeros among the inputs, bit for bit against the
 * naive loops. */
static void test_avg_pool_stride1_random(void **state)
{
	(void)state;
	prop_seed = 31;
	for (int c = 0; c < 80; c++) {
		DType dt = c % 2 ? DT_FLOAT64 : DT_FLOAT32;
		bool three = prop_int(0, 1);
		int64_t N = prop_int(1, 2), C = prop_int(1, 3), H = prop_int(1, 14),
			W = prop_int(1, 45);
		int64_t k[2] = {three ? 3 : prop_int(1, 4), three ? 3 : prop_int(1, 4)},
			s[2] = {1, 1}, d[2] = {prop_int(1, 2), prop_int(1, 2)}, p[4], oh, ow;
		bool ceil = prop_int(0, 1), include_pad = prop_int(0, 1);
		char body[1024];
		double *mx, *avg;
		for (int i = 0; i < 4; i++)
			p[i] = prop_int(0, k[i % 2] + 1);
		if (H + p[0] + p[2] < d[0] * (k[0] - 1) + 1 ||
		    W + p[1] + p[3] < d[1] * (k[1] - 1) + 1)
			continue; /* the window does not fit the padded input */
		teardown(NULL);
		setup(NULL);
		sprinkle_specials(RAND("x", dt, N, C, H, W));
		snprintf(body, sizeof body,
			 "nn.avg_pool2d(%%x, pool_size=[%lld, %lld], padding=[%lld, %lld, %lld, "
			 "%lld], dilation=[%lld, %lld], ceil_mode=%s, count_include_pad=%s)",
			 (long long)k[0], (long long)k[1], (long long)p[0], (long long)p[1],
			 (long long)p[2], (long long)p[3], (long long)d[0], (long long)d[1],
			 ceil ? "True" : "False", include_pad ? "True" : "False");
		run_body(body);
		oh = result.outputs[0].shape[2];
		ow = result.outputs[0].shape[3];
		mx = xmalloc((size_t)(N * C * oh * ow + 1) * sizeof(double));
		avg = xmalloc((size_t)(N * C * oh * ow + 1) * sizeof(double));
		(dt == DT_FLOAT32 ? naive_pool_f32 : naive_pool_f64)(N * C, H, W, k, s, p, d,
								     include_pad, oh, ow, mx, avg);
		expect_exact(0, avg, N * C * oh * ow, body);
		free(mx);
		free(avg);
	}
}

/* Adaptive pooling of planes x h x w to oh x ow, TVM's windows [floor(i *
 * in / out), ceil((i + 1) * in / out)): the maximum from the dtype's
 * lowest value (NaN wins, the first of equal values stays) and the
 * average (the sum from 0 in the order y, x divided by the window's size
 * cast to T), in the dtype T. */
#define DEFINE_NAIVE_ADAPTIVE(NAME, T, LOWEST)                                                     \
	static void NAME(int64_t planes, int64_t h, int64_t w, int64_t oh, int64_t ow, double *mx, \
			 double *avg)                                                              \
	{                                                                                          \
		for (int64_t plane = 0; plane < planes; plane++)                                   \
			for (int64_t y = 0; y < oh; y++)                                           \
				for (int64_t x = 0; x < ow; x++) {                                 \
					int64_t y0 = y * h / oh, y1 = ((y + 1) * h + oh - 1) / oh; \
					int64_t x0 = x * w / ow, x1 = ((x + 1) * w + ow - 1) / ow; \
					T m = LOWEST, sum = 0;                                     \
					for (int64_t iy = y0; iy < y1; iy++)                       \
						for (int64_t ix = x0; ix < x1; ix++) {             \
							T v = (T)in_at(0,                          \
								       (plane * h + iy) * w + ix); \
							m = v > m || v != v ? v : m;               \
							sum += v;                                  \
						}                                                  \
					mx[(plane * oh + y) * ow + x] = m;                         \
					avg[(plane * oh + y) * ow + x] =                           \
						sum / (T)((y1 - y0) * (x1 - x0));                  \
				}                                                                  \
	}
DEFINE_NAIVE_ADAPTIVE(naive_adaptive_f32, float, -FLT_MAX)
DEFINE_NAIVE_ADAPTIVE(naive_adaptive_f64, double, -DBL_MAX)

/* nn.global_avg_pool2d, nn.global_max_pool2d (by blocks of planes) and
 * nn.adaptive_avg_pool2d / nn.adaptive_max_pool2d over random sizes and
 * plane counts (blocks and their tails), with NaNs, infinities and signed
 * zeros among the inputs, bit for bit against the loops above. */
static void test_global_pool_random(void **state)
{
	(void)state;
	prop_seed = 33;
	for (int c = 0; c < 80; c++) {
		DType dt = c % 2 ? DT_FLOAT64 : DT_FLOAT32;
		int64_t N = prop_int(1, 2), C = prop_int(1, 27), H = prop_int(1, 9),
			W = prop_int(1, 11), oh = prop_int(1, H + 2), ow = prop_int(1, W + 2);
		int64_t planes = N * C;
		char body[512];
		double *mx = xmalloc((size_t)(planes * oh * ow) * sizeof(double)),
		       *avg = xmalloc((size_t)(planes * oh * ow) * sizeof(double));
		teardown(NULL);
		setup(NULL);
		sprinkle_specials(RAND("x", dt, N, C, H, W));
		snprintf(body, sizeof body,
			 "(nn.global_avg_pool2d(%%x), nn.global_max_pool2d(%%x), "
			 "nn.adaptive_avg_pool2d(%%x, output_size=[%lld, %lld]), "
			 "nn.adaptive_max_pool2d(%%x, output_size=[%lld, %lld]))",
			 (long long)oh, (long long)ow, (long long)oh, (long long)ow);
		run_body(body);
		(dt == DT_FLOAT32 ? naive_adaptive_f32 : naive_adaptive_f64)(planes, H, W, 1, 1, mx,
									     avg);
		expect_exact(0, avg, planes, body);
		expect_exact(1, mx, planes, body);
		(dt == DT_FLOAT32 ? naive_adaptive_f32 : naive_adaptive_f64)(planes, H, W, oh, ow,
									     mx, avg);
		expect_exact(2, avg, planes * oh * ow, body);
		expect_exact(3, mx, planes * oh * ow, body);
		free(mx);
		free(avg);
	}
}

/* nn.conv2d of n x c x h x w by o x c/groups x kh x kw, the seven loops
 * with the products added in the dtype T in their order (input channel,
 * ky, kx) as fused multiply-adds (acc = fma(x, w, acc), one rounding
 * each: the direct kernel's definition), taps outside the input skipped. */
#define DEFINE_NAIVE_CONV(NAME, T, FMA)                                                           \
	static void NAME(const int64_t *x, const int64_t *k, const int64_t *s, const int64_t *p,  \
			 const int64_t *d, int64_t groups, int64_t oh, int64_t ow, double *want)  \
	{                                                                                         \
		int64_t n = x[0], c = x[1], h = x[2], w = x[3], o = k[0], cg = c / groups,        \
			og = o / groups;                                                          \
		for (int64_t b = 0; b < n; b++)                                                   \
			for (int64_t oc = 0; oc < o; oc++)                                        \
				for (int64_t y = 0; y < oh; y++)                                  \
					for (int64_t xx = 0; xx < ow; xx++) {                     \
						T acc = 0;                                        \
						for (int64_t ci = 0; ci < cg; ci++)               \
							for (int64_t ky = 0; ky < k[2]; ky++)     \
								for (int64_t kx = 0; kx < k[3];   \
								     kx++) {                      \
									int64_t iy = y * s[0] -   \
										     p[0] +       \
										     ky * d[0];   \
									int64_t ix = xx * s[1] -  \
										     p[1] +       \
										     kx * d[1];   \
									T a, wt;                  \
									if (iy < 0 || iy >= h ||  \
									    ix < 0 || ix >= w)    \
										continue;         \
									a = (T)in_at(             \
										0,                \
										((b * c +         \
										  oc / og * cg +  \
										  ci) * h +       \
										 iy) * w +        \
											ix);      \
									wt = (T)in_at(            \
										1, ((oc * cg +    \
										     ci) * k[2] + \
										    ky) * k[3] +  \
											   kx);   \
									acc = FMA(a, wt, acc);    \
								}                                 \
						want[((b * o + oc) * oh + y) * ow + xx] = acc;    \
					}                                                         \
	}
DEFINE_NAIVE_CONV(naive_conv_f32, float, fmaf)
DEFINE_NAIVE_CONV(naive_conv_f64, double, fma)

/* Grouped and depthwise nn.conv2d (the direct kernel: at most 64 input
 * times output channels per group) over random sizes (one row in four
 * wider than the widest block of columns), groups, channel multipliers,
 * strides, dilations and uneven paddings, bit for bit against the naive
 * loops' fused multiply-adds (one case in eight of stride 1 on tall and
 * wide inputs: the flat bands); one case in six with an infinite or NaN
 * weight (in both dtypes: the float32 and float64 columns computed with
 * the taps skipped), one with NaN, infinities and zeros of both signs
 * among the inputs and a weight of -0. */
static void test_conv_direct_random(void **state)
{
	(void)state;
	prop_seed = 31;
	for (int c = 0; c < 100; c++) {
		/* the cases c % 6 == 5 (odd) take float32 when c % 12 == 5 */
		DType dt = c % 2 && c % 12 != 5 ? DT_FLOAT64 : DT_FLOAT32;
		int64_t groups = prop_int(1, 5), cg = prop_int(1, 4), og = prop_int(1, 6);
		int64_t x[4] = {prop_int(1, 2), groups * cg, prop_int(1, 12),
				prop_int(0, 3) ? prop_int(1, 40) : prop_int(41, 150)};
		int64_t k[4] = {groups * og, cg, prop_int(1, 3), prop_int(1, 4)};
		int64_t s[2] = {prop_int(1, 3), prop_int(1, 3)},
			d[2] = {prop_int(1, 2), prop_int(1, 2)};
		int64_t p[4], oh, ow;
		char body[512];
		double *want;
		NpyArray *xa, *wa;
		for (int i = 0; i < 4; i++)
			p[i] = prop_int(0, 2);
		if (c % 8 == 3) {
			/* stride 1, rows wide and many: several flat bands a plane,
			 * the last one's scratch rows (padding) used before */
			s[0] = s[1] = 1;
			x[2] = 12;
			x[3] = 100 + c % 50;
		}
		oh = (x[2] + p[0] + p[2] - d[0] * (k[2] - 1) - 1);
		ow = (x[3] + p[1] + p[3] - d[1] * (k[3] - 1) - 1);
		if (oh < 0 || ow < 0)
			continue;
		oh = oh / s[0] + 1;
		ow = ow / s[1] + 1;
		teardown(NULL);
		setup(NULL);
		xa = RAND("x", dt, x[0], x[1], x[2], x[3]);
		wa = RAND("w", dt, k[0], k[1], k[2], k[3]);
		if (c % 6 == 5) {
			/* a weight that is not finite: the taps outside the input are
			 * skipped, not multiplied by a padding zero (inf * 0 is NaN) */
			double bad = c % 24 < 12 ? INFINITY : NAN;
			if (dt == DT_FLOAT32)
				((float *)wa->data)[0] = (float)bad;
			else
				((double *)wa->data)[0] = bad;
		}
		if (c % 6 == 4) {
			sprinkle_specials(xa);
			dtype_store_double(wa->data, dt, 0, -0.0);
		}
		snprintf(body, sizeof body,
			 "nn.conv2d(%%x, %%w, strides=[%lld, %lld], padding=[%lld, %lld, %lld, "
			 "%lld], "
			 "dilation=[%lld, %lld], groups=%lld, channels=%lld, kernel_size=[%lld, "
			 "%lld])",
			 (long long)s[0], (long long)s[1], (long long)p[0], (long long)p[1],
			 (long long)p[2], (long long)p[3], (long long)d[0], (long long)d[1],
			 (long long)groups, (long long)k[0], (long long)k[2], (long long)k[3]);
		run_body(body);
		EXPECT_SHAPE(0, x[0], k[0], oh, ow);
		want = xmalloc((size_t)(x[0] * k[0] * oh * ow) * sizeof(double));
		(dt == DT_FLOAT32 ? naive_conv_f32 : naive_conv_f64)(x, k, s, p, d, groups, oh, ow,
								     want);
		expect_exact(0, want, x[0] * k[0] * oh * ow, body);
		free(want);
	}
}

/* Convolutions and transposed convolutions of every rank over random
 * sizes, groups (from depthwise to groups of more than DIRECT_CONV_MAX
 * channel pairs, which go through im2col and a GEMM), strides, dilations,
 * uneven paddings and output paddings, in both dtypes, against the
 * scatter of check_conv_nd. */
static void test_conv_random(void **state)
{
	(void)state;
	prop_seed = 47;
	for (int c = 0; c < 120; c++) {
		ConvNdCase k = {0};
		DType dt = c % 3 == 2 ? DT_FLOAT64 : DT_FLOAT32;
		int64_t cg = prop_int(0, 3) ? prop_int(1, 4) : prop_int(8, 12);
		int64_t og = prop_int(0, 3) ? prop_int(1, 6) : prop_int(6, 9);
		bool ok = true;
		k.rank = (int)prop_int(1, 3);
		k.transpose = prop_int(0, 2) == 0;
		k.n = prop_int(1, 2);
		k.groups = prop_int(1, 3);
		k.c = k.groups * cg;
		k.o = k.groups * og;
		for (int i = 0; i < k.rank; i++) {
			int64_t most = k.rank == 1 ? 40 : k.rank == 2 ? (i ? 24 : 9) : 5;
			k.in[i] = prop_int(1, most);
			k.k[i] = prop_int(1, k.rank == 3 ? 3 : 4);
			k.stride[i] = prop_int(1, 3);
			k.dilation[i] = prop_int(1, 2);
			k.pad[i] = prop_int(0, 2);
			k.pad[k.rank + i] = prop_int(0, 2);
			k.out_pad[i] = prop_int(0, k.stride[i] - 1);
			if (k.transpose)
				ok = ok && (k.in[i] - 1) * k.stride[i] - k.pad[i] -
							   k.pad[k.rank + i] +
							   k.dilation[i] * (k.k[i] - 1) +
							   k.out_pad[i] + 1 >
						   0;
			else
				ok = ok && k.in[i] + k.pad[i] + k.pad[k.rank + i] >
						   k.dilation[i] * (k.k[i] - 1);
		}
		if (ok)
			check_conv_nd(&k, dt, dt == DT_FLOAT32 ? 1e-4 : 1e-10);
	}
}

/* A resampling as one output position at a time: its taps per dimension
 * (kernel_resize.h, which test_resize2d checks against topi's arithmetic)
 * and topi's nested sums in the dtype T: per height tap the width taps'
 * x * wx from the first product, per depth tap those times wy, then those
 * times wz; data channel-first or channel-last. */
#define DEFINE_NAIVE_RESIZE(NAME, T)                                                               \
	static void NAME(const KernelResize *r, double *want)                                      \
	{                                                                                          \
		int64_t in_size = r->in[0] * r->in[1] * r->in[2];                                  \
		int64_t out_size = r->out[0] * r->out[1] * r->out[2];                              \
		int64_t in_cs = r->channels_last ? 1 : in_size,                                    \
			in_ps = r->channels_last ? r->c : 1;                                       \
		int64_t out_cs = r->channels_last ? 1 : out_size,                                  \
			out_ps = r->channels_last ? r->c : 1;                                      \
		for (int64_t b = 0; b < r->n; b++)                                                 \
			for (int64_t o = 0; o < out_size; o++) {                                   \
				ResizeTaps tz, ty, tx;                                             \
				resize_taps(r, 0, o / (r->out[1] * r->out[2]), &tz);               \
				resize_taps(r, 1, o / r->out[2] % r->out[1], &ty);                 \
				resize_taps(r, 2, o % r->out[2], &tx);                             \
				for (int64_t c = 0; c < r->c; c++) {                               \
					T v = (T)r->extrapolation;                                 \
					bool off = tz.outside || ty.outside || tx.outside;         \
					for (int a = 0; !off && a < tz.n; a++) {                   \
						T vy = 0;                                          \
						for (int e = 0; e < ty.n; e++) {                   \
							T vx = 0;                                  \
							for (int f = 0; f < tx.n; f++) {           \
								int64_t at =                       \
									b * r->c * in_size +       \
									c * in_cs +                \
									((tz.index[a] * r->in[1] + \
									  ty.index[e]) *           \
										 r->in[2] +        \
									 tx.index[f]) *            \
										in_ps;             \
								T p = (T)in_at(0, at) *            \
								      (T)tx.weight[f];             \
								vx = f ? vx + p : p;               \
							}                                          \
							vy = e ? vy + vx * (T)ty.weight[e]         \
							       : vx * (T)ty.weight[e];             \
						}                                                  \
						v = a ? v + vy * (T)tz.weight[a]                   \
						      : vy * (T)tz.weight[a];                      \
					}                                                          \
					want[b * r->c * out_size + c * out_cs + o * out_ps] = v;   \
				}                                                                  \
			}                                                                          \
	}
DEFINE_NAIVE_RESIZE(naive_resize_f32, float)
DEFINE_NAIVE_RESIZE(naive_resize_f64, double)

/* image.resize1d/2d/3d, channel-first and channel-last, every method,
 * coordinate transformation, rounding method, cubic_alpha and
 * cubic_exclude, a region and an extrapolation value, growing and
 * shrinking, over random sizes. */
static void test_resize_rows_random(void **state)
{
	static const char *const methods[] = {"nearest_neighbor", "linear", "cubic"};
	static const char *const modes[] = {"half_pixel",           "align_corners",
					    "asymmetric",           "pytorch_half_pixel",
					    "tf_half_pixel_for_nn", "tf_crop_and_resize"};
	static const char *const roundings[] = {"round", "floor", "ceil", "round_prefer_floor",
						"round_prefer_ceil"};
	static const char *const first[] = {NULL, "NCW", "NCHW", "NCDHW"};
	static const char *const last[] = {NULL, "NWC", "NHWC", "NDHWC"};
	(void)state;
	prop_seed = 32;
	for (int c = 0; c < 150; c++) {
		DType dt = c % 2 ? DT_FLOAT64 : DT_FLOAT32;
		KernelResize r;
		int64_t shape[5], size[3];
		StrBuf body;
		double *want;
		int64_t total;
		memset(&r, 0, sizeof r);
		r.rank = (int)prop_int(1, 3);
		r.method = (KernelResizeMethod)prop_int(0, 2);
		r.coordinate = (KernelResizeCoordinate)prop_int(0, 5);
		r.rounding = (KernelResizeRounding)prop_int(0, 4);
		r.cubic_alpha = prop_int(0, 1) ? -0.5f : -0.75f;
		r.cubic_exclude = prop_int(0, 1);
		r.extrapolation = -3.5;
		r.channels_last = prop_int(0, 1);
		r.n = prop_int(1, 2);
		r.c = prop_int(1, 3);
		shape[0] = r.n;
		shape[r.channels_last ? r.rank + 1 : 1] = r.c;
		for (int i = 0; i < 3; i++)
			r.in[i] = r.out[i] = 1;
		for (int i = 0; i < r.rank; i++) {
			int dim = 3 - r.rank + i;
			r.in[dim] = prop_int(1, r.rank == 3 ? 5 : 9);
			r.out[dim] = size[i] = prop_int(1, r.rank == 3 ? 7 : 19);
			r.roi_start[dim] = (float)prop_int(-3, 3) / 10.0f;
			r.roi_end[dim] = (float)prop_int(7, 13) / 10.0f;
			shape[(r.channels_last ? 1 : 2) + i] = r.in[dim];
		}
		teardown(NULL);
		setup(NULL);
		sprinkle_specials(in_random("x", dt, (uint32_t)r.rank + 2, shape));
		strbuf_init(&body);
		strbuf_printf(&body, "image.resize%dd(%%x, size=[", r.rank);
		for (int i = 0; i < r.rank; i++)
			strbuf_printf(&body, "%s%lld", i ? ", " : "", (long long)size[i]);
		/* roi: [start, end] per dimension as topi reads it, 3-D reversed */
		strbuf_puts(&body, "], roi=[");
		for (int e = 0; e < 2; e++)
			for (int i = 0; i < r.rank; i++) {
				int dim = r.rank == 3 ? 2 - i : 3 - r.rank + i;
				strbuf_printf(&body, "%s%.1ff", e || i ? ", " : "",
					      (double)(e ? r.roi_end[dim] : r.roi_start[dim]));
			}
		strbuf_printf(
			&body,
			"], layout=\"%s\", method=\"%s\", coordinate_transformation_mode=\"%s\", "
			"rounding_method=\"%s\", cubic_alpha=%gf, cubic_exclude=%d, "
			"extrapolation_value=-3.5f)",
			r.channels_last ? last[r.rank] : first[r.rank], methods[r.method],
			modes[r.coordinate], roundings[r.rounding], (double)r.cubic_alpha,
			r.cubic_exclude);
		run_body(body.data);
		total = r.n * r.c * r.out[0] * r.out[1] * r.out[2];
		want = xmalloc((size_t)total * sizeof(double));
		(dt == DT_FLOAT32 ? naive_resize_f32 : naive_resize_f64)(&r, want);
		expect_exact(0, want, total, body.data);
		free(want);
		strbuf_free(&body);
	}
}

/* kernel_erff (kernel_fastmath.h, erf on float32) against double erf on
 * every 37th float of [0, 4.5] and every float around its two seams (1,
 * where the polynomials meet, and 3.92, where it turns to 1): within 1.3
 * ulp (1.29 measured on every float of [0, 4.5], at 0.9835), odd bit
 * for bit; +-0 keep their sign, tiny and subnormal x give 2x / sqrt(pi)
 * within an ulp, +-inf give +-1 and NaN stays NaN. Then erf launched
 * through the cpu kernel (whose float32 loop runs in the widest vectors
 * the machine has) on random values, vector tails and specials, within
 * the same bound. */
static double erff_worst(uint32_t from, uint32_t to, uint32_t step)
{
	double worst = 0;
	for (uint64_t b = from; b <= to; b += step) {
		uint32_t u = (uint32_t)b;
		float x, y, n, minus_y;
		memcpy(&x, &u, sizeof x);
		y = kernel_erff(x);
		n = kernel_erff(-x);
		minus_y = -y;
		if (memcmp(&n, &minus_y, sizeof n) != 0) {
			print_error("kernel_erff(%.9g) = %.9g, of -x %.9g\n", (double)x, (double)y,
				    (double)n);
			fail();
		}
		if (ulps(y, erf((double)x)) > worst)
			worst = ulps(y, erf((double)x));
	}
	return worst;
}

static void test_kernel_erff_sweep(void **state)
{
	static const float tiny[] = {0x1p-149f, 0x1p-140f, 0x1p-126f, 1e-30f, 1e-10f, 3e-5f};
	double worst[3], x[4099], want[4099];
	uint64_t seed = 0x9e3779b97f4a7c15u;
	(void)state;
	worst[0] = erff_worst(0u, 0x40900000u, 37);         /* [0, 4.5] */
	worst[1] = erff_worst(0x3f7fbe77u, 0x3f8020c5u, 1); /* [0.999, 1.001] */
	worst[2] = erff_worst(0x407a3d71u, 0x407c28f6u, 1); /* [3.91, 3.94] */
	print_message("erf %.3f ulp (sweep), %.3f (around 1), %.3f (around 3.92)\n", worst[0],
		      worst[1], worst[2]);
	for (int k = 0; k < 3; k++)
		assert_true(worst[k] <= 1.3);
	assert_true(kernel_erff(0.0f) == 0.0f && !signbit(kernel_erff(0.0f)));
	assert_true(kernel_erff(-0.0f) == 0.0f && signbit(kernel_erff(-0.0f)));
	assert_true(kernel_erff(INFINITY) == 1.0f && kernel_erff(-INFINITY) == -1.0f);
	assert_true(kernel_erff(4.0f) == 1.0f && kernel_erff(-1e30f) == -1.0f);
	assert_true(isnan(kernel_erff(NAN)) && isnan(kernel_erff(-NAN)));
	for (size_t i = 0; i < sizeof tiny / sizeof *tiny; i++) {
		double linear = 1.1283791670955126 * tiny[i]; /* 2 / sqrt(pi) */
		assert_true(ulps(kernel_erff(tiny[i]), linear) <= 1.0);
		assert_true(ulps(kernel_erff(-tiny[i]), -linear) <= 1.0);
	}
	/* through the kernel: 4099 elements (a tail in every vector width) */
	for (int i = 0; i < 4099; i++) {
		seed = seed * 6364136223846793005u + 1442695040888963407u;
		x[i] = (double)(float)(-5.0 + 10.0 * (double)(seed >> 11) / 0x1p53);
	}
	x[0] = NAN;
	x[1] = INFINITY;
	x[2] = -INFINITY;
	x[3] = -0.0;
	x[4098] = 0x1p-140;
	teardown(NULL);
	setup(NULL);
	in_values("x", DT_FLOAT32, SHAPE(4099), x);
	run_body("erf(%x)");
	for (int i = 0; i < 4099; i++) {
		double got = out_at(0, i);
		want[i] = erf(x[i]);
		if (isnan(x[i]) ? !isnan(got)
				: ulps(got, want[i]) > 1.3 || signbit(got) != signbit(want[i])) {
			print_error("erf(%.9g) = %.9g, want %.9g\n", x[i], got, want[i]);
			fail();
		}
	}
}

/* layer_norm's float32 output of 4 MiB or more is stored around the caches
 * (cpu_norm.c, LAYER_NORM_STREAM): rows of 4099 (starting at every
 * alignment mod 16, so that each has a head before its first aligned
 * vector and a tail) against the two-pass statistics in double, and five
 * of its rows the same bits as when they are normalised alone, in an
 * output too small to be streamed. */
static void test_layer_norm_streamed(void **state)
{
	enum { ROWS = 257, C = 4099 };
	static const int64_t pick[] = {0, 1, 2, 255, 256};
	double *big = xmalloc((size_t)ROWS * C * sizeof(double));
	double *small = xmalloc(DP_COUNT(pick) * C * sizeof(double));
	double gamma[C], beta[C];
	(void)state;
	teardown(NULL);
	setup(NULL);
	RAND("x", DT_FLOAT32, ROWS, C);
	RAND("g", DT_FLOAT32, C);
	RAND("b", DT_FLOAT32, C);
	run_body("nn.layer_norm(%x, %g, %b, epsilon=1e-5f)");
	assert_true(npy_array_count(&result.outputs[0]) * 4 >= (4 << 20));
	for (int64_t r = 0; r < ROWS; r++) {
		double mean = 0, var = 0;
		for (int64_t k = 0; k < C; k++)
			mean += in_at(0, r * C + k);
		mean /= C;
		for (int64_t k = 0; k < C; k++)
			var += (in_at(0, r * C + k) - mean) * (in_at(0, r * C + k) - mean);
		var /= C;
		for (int64_t k = 0; k < C; k++) {
			double want =
				(in_at(0, r * C + k) - mean) / sqrt(var + 1e-5) * in_at(1, k) +
				in_at(2, k);
			big[r * C + k] = out_at(0, r * C + k);
			if (fabs(big[r * C + k] - want) > 1e-5 * (1 + fabs(want))) {
				print_error("row %lld [%lld]: got %.9g, want %.9g\n", (long long)r,
					    (long long)k, big[r * C + k], want);
				fail();
			}
		}
	}
	for (size_t p = 0; p < DP_COUNT(pick); p++)
		for (int64_t k = 0; k < C; k++)
			small[p * C + k] = in_at(0, pick[p] * C + k);
	for (int64_t k = 0; k < C; k++) {
		gamma[k] = in_at(1, k);
		beta[k] = in_at(2, k);
	}
	teardown(NULL);
	setup(NULL);
	in_values("x", DT_FLOAT32, SHAPE((int64_t)DP_COUNT(pick), C), small);
	in_values("g", DT_FLOAT32, SHAPE(C), gamma);
	in_values("b", DT_FLOAT32, SHAPE(C), beta);
	run_body("nn.layer_norm(%x, %g, %b, epsilon=1e-5f)");
	assert_true(npy_array_count(&result.outputs[0]) * 4 < (4 << 20));
	for (size_t p = 0; p < DP_COUNT(pick); p++)
		for (int64_t k = 0; k < C; k++)
			if (out_at(0, (int64_t)p * C + k) != big[pick[p] * C + k]) {
				print_error("row %lld [%lld]: streamed %.9g, alone %.9g\n",
					    (long long)pick[p], (long long)k, big[pick[p] * C + k],
					    out_at(0, (int64_t)p * C + k));
				fail();
			}
	free(big);
	free(small);
}

/* Channel-first float32 rows wide enough for resize's windows
 * (cpu_image.c: 16 taps within 16 inputs loaded and permuted where the
 * CPU has AVX-512): a width of 70 upsampled to 150 (windows wholly on the
 * row and at its end) and downsampled to 20 (taps too far apart: the
 * gather), linear and cubic, the bits of the naive resize. */
static void test_resize_wide_rows(void **state)
{
	static const int64_t widths[] = {150, 20, 33};
	(void)state;
	prop_seed = 41;
	for (int method = 1; method <= 2; method++)
		for (size_t w = 0; w < DP_COUNT(widths); w++) {
			KernelResize r;
			StrBuf body;
			double *want;
			int64_t total;
			memset(&r, 0, sizeof r);
			r.rank = 2;
			r.method = method == 1 ? RESIZE_LINEAR : RESIZE_CUBIC;
			r.cubic_alpha = -0.5f; /* the operator's default */
			r.n = 1;
			r.c = 2;
			r.in[0] = r.out[0] = 1;
			r.in[1] = 3;
			r.out[1] = 5;
			r.in[2] = 70;
			r.out[2] = widths[w];
			r.roi_end[1] = r.roi_end[2] = 1.0f;
			teardown(NULL);
			setup(NULL);
			sprinkle_specials(RAND("x", DT_FLOAT32, 1, 2, 3, 70));
			strbuf_init(&body);
			strbuf_printf(&body, "image.resize2d(%%x, size=[5, %lld], method=\"%s\")",
				      (long long)widths[w], method == 1 ? "linear" : "cubic");
			run_body(body.data);
			total = r.c * r.out[1] * r.out[2];
			want = xmalloc((size_t)total * sizeof(double));
			naive_resize_f32(&r, want);
			expect_exact(0, want, total, body.data);
			free(want);
			strbuf_free(&body);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(test_dtype_access),
		TEST(test_parallel_for_pool),
		TEST(test_binary_broadcasting),
		TEST(test_integer_division),
		TEST(test_binary_other_dtypes),
		TEST(test_integer_wrap_and_uint64),
		TEST(test_clip_uint64),
		TEST(test_unary),
		TEST(test_clip_and_fills),
		TEST(test_cast),
		TEST(test_cast_other_dtypes),
		TEST(test_cast_pairs),
		TEST(test_cast_float16),
		TEST(test_other_dtypes_move_fill_reduce),
		TEST(test_bfloat16_unary),
		TEST(test_other_dtypes_refused),
		TEST(test_dense),
		TEST(test_batch_matmul),
		TEST(test_bias_add),
		TEST(test_softmax),
		TEST(test_softmax_long_rows),
		TEST(test_power_constant),
		TEST(test_kernel_expf),
		TEST(test_kernel_fastmath),
		TEST(test_layer_norm_long_rows),
		TEST(test_log_softmax),
		TEST(test_norms),
		TEST(test_reductions),
		TEST(test_reductions_long_rows),
		TEST(test_sum_first_axis_blocks),
		TEST(test_more_reductions),
		TEST(test_reshape_family),
		TEST(test_transpose),
		TEST(test_transpose_tiles),
		TEST(test_concatenate_and_split),
		TEST(test_conv2d),
		TEST(test_conv2d_transpose),
		TEST(test_conv_nd),
		TEST(test_pooling),
		TEST(test_pooling_nd),
		TEST(test_adaptive_pooling),
		TEST(test_resize2d),
		TEST(test_resize_other_ranks),
		TEST(test_pool_rows_random),
		TEST(test_avg_pool_stride1_random),
		TEST(test_global_pool_random),
		TEST(test_conv_direct_random),
		TEST(test_conv_random),
		TEST(test_resize_rows_random),
		TEST(test_binary_math_and_comparisons),
		TEST(test_integer_division_family),
		TEST(test_bitwise),
		TEST(test_unary_math),
		TEST(test_rounding_and_classes),
		TEST(test_where),
		TEST(test_take_shape_of_copy),
		TEST(test_gather),
		TEST(test_scatter),
		TEST(test_sparse_to_dense),
		TEST(test_stack_one_hot_full_arange),
		TEST(test_layout_transform),
		TEST(test_matmul_and_activations),
		TEST(test_cumsum_cumprod),
		TEST(test_depth_space),
		TEST(test_sort_topk),
		TEST(test_pad),
		TEST(test_views),
		TEST(test_views_other_dtypes),
		TEST(test_views_rows),
		TEST(test_like_ops),
		TEST(test_like_ops_other_dtypes),
		TEST(test_norm_extras),
		TEST(test_mirror_pad_dilate),
		TEST(test_masks),
		TEST(test_matrix_set_diag),
		TEST(test_grids_and_searches),
		TEST(test_fixed_point_multiply),
		TEST(test_qnn_quantize_dequantize),
		TEST(test_qnn_requantize),
		TEST(test_qnn_binary),
		TEST(test_qnn_products),
		TEST(test_qnn_unary),
		TEST(test_qnn_leaky_relu),
		TEST(test_space_batch),
		TEST(test_crop_and_resize),
		TEST(test_unsupported_dtype),
		TEST(test_unsupported_layout),
		TEST(test_kernel_erff_sweep),
		TEST(test_layer_norm_streamed),
		TEST(test_resize_wide_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
