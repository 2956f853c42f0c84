/*
 * test_printer.c - unit tests of the Relay text printer (core/ir/print.c).
 *
 * Modules are built by hand with the ir.h constructors and their printed
 * text is compared exactly, so a failure shows both texts. Where the text
 * is valid input, the test also parses it back and checks that printing
 * the parsed module gives the same text [P1]; and every shared case and
 * model goes through print(parse(print(parse(file)))) == print(parse(file)),
 * with and without the #[metadata] section.
 */
#include <dirent.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "devices.h"
#include "ir.h"
#include "parse.h"
#include "print.h"

/* ---- fixture ----------------------------------------------------------- */

static IrModule *m;
static DeviceTable devices;
static const Pos P0 = {1, 1};

static int setup(void **state)
{
	(void)state;
	m = ir_module_new(NULL);
	devices_init_default(&devices);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ir_module_free(m);
	devices_free(&devices);
	return 0;
}

/* ---- builders ---------------------------------------------------------- */

#define NDIMS(...) ((uint32_t)(sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
#define TENSOR(dt, ...) \
	type_tensor(ir_data_arena(m), dt, NDIMS(__VA_ARGS__), (int64_t[]){__VA_ARGS__})
#define T57 TENSOR(DT_FLOAT32, 5, 7)
#define LIST(...) \
	(Expr *[]){__VA_ARGS__}, (uint32_t)(sizeof((Expr *[]){__VA_ARGS__}) / sizeof(Expr *))

static Expr *prm(const char *name)
{
	return ir_var(m, P0, name, VAR_PARAM, T57);
}

static Expr *call(OpKind op, Expr *const *args, uint32_t nargs)
{
	return ir_call_op(m, P0, op, args, nargs, NULL, 0);
}

static Expr *call_attrs(OpKind op, Expr *const *args, uint32_t nargs, const Attr *attrs,
			uint32_t nattrs)
{
	return ir_call_op(m, P0, op, args, nargs, attrs, nattrs);
}

static Expr *add(Expr *a, Expr *b)
{
	return call(OP_ADD, LIST(a, b));
}

static Expr *mul(Expr *a, Expr *b)
{
	return call(OP_MULTIPLY, LIST(a, b));
}

static Expr *neg(Expr *a)
{
	return call(OP_NEGATIVE, LIST(a));
}

static Expr *let(Expr *var, Expr *value, Expr *body)
{
	return ir_let(m, P0, var, value, body);
}

static Expr *letvar(const char *name, Type *annotation)
{
	return ir_var(m, P0, name, VAR_LET, annotation);
}

static Expr *closure(Expr *const *params, uint32_t nparams, Type *ret, Expr *body)
{
	return ir_fn(m, P0, params, nparams, ret, body);
}

static void def(const char *name, Expr *const *params, uint32_t nparams, Type *ret, Expr *body)
{
	ir_add_global(m, name, ir_fn(m, P0, params, nparams, ret, body), P0);
}

static Expr *scalar(DType dt, const void *value)
{
	Tensor t = {dt, 0, NULL, (void *)value, dtype_size(dt)};
	return ir_constant(m, P0, &t, -1);
}

static Expr *f32(float v)
{
	return scalar(DT_FLOAT32, &v);
}

static Attr attr_int(const char *name, int64_t i)
{
	return (Attr){name, {.kind = ATTR_INT, .u.i = i}, P0};
}

static Attr attr_device(const char *name, int32_t device)
{
	return (Attr){name, {.kind = ATTR_DEVICE, .u.device = device}, P0};
}

static Attr attr_bool(const char *name, bool b)
{
	return (Attr){name, {.kind = ATTR_BOOL, .u.b = b}, P0};
}

static void add_free_var(Expr *var)
{
	m->free_vars = realloc(m->free_vars, (m->nfree_vars + 1) * sizeof(Expr *));
	m->free_vars[m->nfree_vars++] = var;
}

/* ---- checks ------------------------------------------------------------ */

static char *render(const IrModule *mod, const PrintOptions *opts)
{
	StrBuf sb;
	strbuf_init(&sb);
	print_module(&sb, mod, opts);
	return strbuf_detach(&sb);
}

static IrModule *parse_text(const char *text, bool must_parse)
{
	SourceFile *src = source_from_string("printed", text, strlen(text));
	DiagList diags;
	IrModule *mod;
	diag_init(&diags);
	mod = parse_module(src, &devices, &diags);
	if (!mod && must_parse) {
		diag_print_all(stderr, &diags);
		fprintf(stderr, "--- text that did not parse:\n%s", text);
	}
	diag_free(&diags);
	source_release(src);
	return mod;
}

/* print(parse(text)) == text, under opts. */
static void check_reprint(const char *text, const PrintOptions *opts)
{
	IrModule *back = parse_text(text, true);
	char *again;
	assert_non_null(back);
	again = render(back, opts);
	assert_string_equal(again, text);
	free(again);
	ir_module_free(back);
}

/* The module prints as expected and, when round_trip, reads back to the
 * same text [P1]. */
static void expect_text(const PrintOptions *opts, bool round_trip, const char *expected)
{
	char *got = render(m, opts);
	assert_string_equal(got, expected);
	if (round_trip)
		check_reprint(got, opts);
	free(got);
}

static const char *line_of(const char *text, const char *needle)
{
	const char *p = strstr(text, needle);
	assert_non_null(p);
	return p;
}

/* ---- graph form -------------------------------------------------------- */

static void test_simple_graph(void **state)
{
	Expr *a = prm("a"), *b = prm("b");
	Expr *sum = add(a, b);
	(void)state;
	def("main", LIST(a, b), T57, mul(sum, sum));
	expect_text(NULL, true,
		    "#[version = \"0.0.5\"]\n"
		    "def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32]) -> "
		    "Tensor[(5, 7), float32] {\n"
		    "  %0 = add(%a, %b);\n"
		    "  multiply(%0, %0)\n"
		    "}\n");
}

static void test_sharing_and_globals(void **state)
{
	Expr *a = prm("a"), *b = prm("b"), *c = prm("c"), *x = prm("x");
	Expr *sum = add(a, b);
	Expr *diff = call(OP_SUBTRACT, LIST(sum, c));
	Expr *prod = mul(sum, diff);
	Expr *g = ir_global_ref(m, P0, "f");
	(void)state;
	def("f", LIST(a, b, c), NULL, ir_tuple(m, P0, LIST(prod, diff, sum)));
	def("main", LIST(x), NULL, ir_call_expr(m, P0, g, LIST(x, x, x)));
	expect_text(NULL, true,
		    "#[version = \"0.0.5\"]\n"
		    "def @f(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32], "
		    "%c: Tensor[(5, 7), float32]) {\n"
		    "  %0 = add(%a, %b);\n"
		    "  %1 = subtract(%0, %c);\n"
		    "  %2 = multiply(%0, %1);\n"
		    "  (%2, %1, %0)\n"
		    "}\n"
		    "\n"
		    "def @main(%x: Tensor[(5, 7), float32]) {\n"
		    "  @f(%x, %x, %x)\n"
		    "}\n");
}

static void test_lets(void **state)
{
	Expr *a = prm("a"), *b = prm("b");
	Expr *x = letvar("x", T57), *y = letvar("y", NULL);
	Expr *body = let(x, add(a, b), let(y, mul(x, f32(2)), y));
	(void)state;
	def("main", LIST(a, b), NULL, body);
	expect_text(NULL, true,
		    "#[version = \"0.0.5\"]\n"
		    "def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32]) {\n"
		    "  let %x: Tensor[(5, 7), float32] = add(%a, %b);\n"
		    "  let %y = multiply(%x, 2f);\n"
		    "  %y\n"
		    "}\n");
}

/* A let used as an operand, as a let's value or twice is printed as TVM
 * prints it, in parentheses around lines of its own, `%0 = (let %x = v;
 * b);`, so that it reads back as the same nested let, not as a line of the
 * scope around it (which would read back as another nesting). */
static void test_let_as_operand(void **state)
{
	Expr *a = prm("a"), *b = prm("b"), *c = prm("c");
	Expr *x = letvar("x", NULL), *y = letvar("y", NULL), *z = letvar("z", NULL);
	Expr *inner = let(x, mul(c, c), neg(x));
	/* a let whose value is a let; and a let shared by two uses */
	Expr *nested = let(y, let(z, add(a, c), neg(z)), y);
	Expr *w = letvar("w", NULL);
	Expr *shared = let(w, add(b, b), w);
	Expr *root = ir_tuple(m, P0, LIST(add(a, b), inner, nested, shared, shared));
	(void)state;
	def("main", LIST(a, b, c), NULL, root);
	expect_text(NULL, true,
		    "#[version = \"0.0.5\"]\n"
		    "def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32], "
		    "%c: Tensor[(5, 7), float32]) {\n"
		    "  %0 = (\n"
		    "    let %x = multiply(%c, %c);\n"
		    "    negative(%x)\n"
		    "  );\n"
		    "  %1 = (\n"
		    "    let %y = (\n"
		    "      let %z = add(%a, %c);\n"
		    "      negative(%z)\n"
		    "    );\n"
		    "    %y\n"
		    "  );\n"
		    "  %2 = (\n"
		    "    let %w = add(%b, %b);\n"
		    "    %w\n"
		    "  );\n"
		    "  %3 = add(%a, %b);\n"
		    "  (%3, %0, %1, %2, %2)\n"
		    "}\n");
}

/* What TVM's parser reads beyond what its printer writes prints as its
 * printer writes it: infix operators as calls, `e1; e2` as a let of a
 * variable named %v, a parenthesised let bound in parentheses. */
static void test_sequences_and_infix_print_as_tvm(void **state)
{
	IrModule *mod = parse_text("def @main(%v: int32) {\n"
				   "  %v + 1 * 2;\n"
				   "  (let %a = 1; %a) - 2\n"
				   "}\n",
				   true);
	char *got;
	(void)state;
	assert_non_null(mod);
	got = render(mod, NULL);
	assert_string_equal(got, "#[version = \"0.0.5\"]\n"
				 "def @main(%v: int32) {\n"
				 "  %0 = multiply(1, 2);\n"
				 "  let %v1 = add(%v, %0);\n"
				 "  %1 = (\n"
				 "    let %a = 1;\n"
				 "    %a\n"
				 "  );\n"
				 "  subtract(%1, 2)\n"
				 "}\n");
	check_reprint(got, NULL);
	free(got);
	ir_module_free(mod);
}

static void test_closure_captures_outer_binding(void **state)
{
	Expr *a = prm("a"), *b = prm("b"), *y = prm("y");
	Expr *sum = add(a, b);
	Expr *f = closure(LIST(y), T57, mul(neg(y), sum));
	Expr *applied = ir_call_expr(m, P0, f, LIST(a));
	(void)state;
	def("main", LIST(a, b), NULL, add(applied, sum));
	expect_text(NULL, true,
		    "#[version = \"0.0.5\"]\n"
		    "def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32]) {\n"
		    "  %0 = add(%a, %b);\n"
		    "  %1 = fn (%y: Tensor[(5, 7), float32]) -> Tensor[(5, 7), float32] {\n"
		    "    %2 = negative(%y);\n"
		    "    multiply(%2, %0)\n"
		    "  };\n"
		    "  %3 = %1(%a);\n"
		    "  add(%3, %0)\n"
		    "}\n");
}

/* A recursive closure bound by a let refers to its own variable. */
static void test_recursive_let(void **state)
{
	Expr *a = prm("a"), *n = prm("n");
	Expr *f = letvar("f", NULL);
	Expr *loop = closure(LIST(n), NULL, ir_call_expr(m, P0, f, LIST(neg(n))));
	(void)state;
	def("main", LIST(a), NULL, let(f, loop, ir_call_expr(m, P0, f, LIST(a))));
	expect_text(NULL, true,
		    "#[version = \"0.0.5\"]\n"
		    "def @main(%a: Tensor[(5, 7), float32]) {\n"
		    "  let %f = fn (%n: Tensor[(5, 7), float32]) {\n"
		    "    %0 = negative(%n);\n"
		    "    %f(%0)\n"
		    "  };\n"
		    "  %f(%a)\n"
		    "}\n");
}

static void test_if_scopes(void **state)
{
	Expr *a = prm("a"), *b = prm("b");
	Expr *c = ir_var(m, P0, "c", VAR_PARAM, type_scalar(ir_data_arena(m), DT_BOOL));
	Expr *sum = add(a, b);
	Expr *then_only = neg(sum);
	Expr *branch = ir_if(m, P0, c, mul(then_only, sum), call(OP_SUBTRACT, LIST(sum, b)));
	Expr *a2 = prm("a"), *b2 = prm("b");
	Expr *c2 = ir_var(m, P0, "c", VAR_PARAM, type_scalar(ir_data_arena(m), DT_BOOL));
	Expr *cond = call(OP_MAX, LIST(c2));
	Expr *shared = ir_if(m, P0, cond, a2, neg(b2));
	(void)state;
	def("main", LIST(a, b, c), NULL, branch);
	/* an if used twice is bound; its condition is bound before it */
	def("g", LIST(a2, b2, c2), NULL, add(shared, shared));
	expect_text(NULL, true,
		    "#[version = \"0.0.5\"]\n"
		    "def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32], "
		    "%c: bool) {\n"
		    "  %0 = add(%a, %b);\n"
		    "  if (%c) {\n"
		    "    %1 = negative(%0);\n"
		    "    multiply(%1, %0)\n"
		    "  } else {\n"
		    "    subtract(%0, %b)\n"
		    "  }\n"
		    "}\n"
		    "\n"
		    "def @g(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32], "
		    "%c: bool) {\n"
		    "  %0 = max(%c);\n"
		    "  %1 = if (%0) {\n"
		    "    %a\n"
		    "  } else {\n"
		    "    negative(%b)\n"
		    "  };\n"
		    "  add(%1, %1)\n"
		    "}\n");
}

/* A value used in a branch and after the if is bound before the if. */
static void test_if_branch_and_after(void **state)
{
	Expr *a = prm("a");
	Expr *c = ir_var(m, P0, "c", VAR_PARAM, type_scalar(ir_data_arena(m), DT_BOOL));
	Expr *v = neg(a);
	Expr *branch = ir_if(m, P0, c, v, a);
	(void)state;
	def("main", LIST(a, c), NULL, ir_tuple(m, P0, LIST(branch, v)));
	expect_text(NULL, true,
		    "#[version = \"0.0.5\"]\n"
		    "def @main(%a: Tensor[(5, 7), float32], %c: bool) {\n"
		    "  %0 = negative(%a);\n"
		    "  %1 = if (%c) {\n"
		    "    %0\n"
		    "  } else {\n"
		    "    %a\n"
		    "  };\n"
		    "  (%1, %0)\n"
		    "}\n");
}

static void test_tuples_and_projections(void **state)
{
	Expr *a = prm("a"), *b = prm("b");
	Expr *one = ir_tuple(m, P0, LIST(a));
	Expr *none = ir_tuple(m, P0, NULL, 0);
	Expr *two = ir_tuple(m, P0, LIST(a, b));
	Expr *second = ir_proj(m, P0, two, 1);
	Expr *first = ir_proj(m, P0, one, 0);
	(void)state;
	def("main", LIST(a, b), NULL, ir_tuple(m, P0, LIST(one, none, second, first)));
	expect_text(NULL, true,
		    "#[version = \"0.0.5\"]\n"
		    "def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32]) {\n"
		    "  %0 = (%a,);\n"
		    "  %1 = ();\n"
		    "  %2 = (%a, %b);\n"
		    "  %3 = %2.1;\n"
		    "  %4 = %0.0;\n"
		    "  (%0, %1, %3, %4)\n"
		    "}\n");
}

/* ---- constants and attributes ----------------------------------------- */

static void test_scalar_constants(void **state)
{
	float f_one = 1, f_tenth = 0.1f, f_neg = -2.5f, f_small = 1e-05f;
	float f_big = 1e20f, f_whole = 123456792, f_negzero = -0.0f;
	double d_half = 1.5, d_tenth = 0.1;
	uint16_t h_one = 0x3c00, h_tenth = 0x2e66, h_max = 0x7bff, h_tiny = 0x0001;
	int64_t i64 = 2, i64_min = INT64_MIN;
	int32_t i32 = 3, i32_neg = -4;
	int16_t i16 = -7;
	uint8_t yes = 1, no = 0;
	(void)state;
	def("main", NULL, 0, NULL,
	    ir_tuple(m, P0,
		     LIST(scalar(DT_FLOAT32, &f_one), scalar(DT_FLOAT32, &f_tenth),
			  scalar(DT_FLOAT32, &f_neg), scalar(DT_FLOAT32, &f_small),
			  scalar(DT_FLOAT32, &f_big), scalar(DT_FLOAT32, &f_whole),
			  scalar(DT_FLOAT32, &f_negzero), scalar(DT_FLOAT64, &d_half),
			  scalar(DT_FLOAT64, &d_tenth), scalar(DT_FLOAT16, &h_one),
			  scalar(DT_FLOAT16, &h_tenth), scalar(DT_FLOAT16, &h_max),
			  scalar(DT_FLOAT16, &h_tiny), scalar(DT_INT64, &i64),
			  scalar(DT_INT64, &i64_min), scalar(DT_INT32, &i32),
			  scalar(DT_INT32, &i32_neg), scalar(DT_BOOL, &yes), scalar(DT_BOOL, &no),
			  scalar(DT_INT16, &i16))));
	expect_text(NULL, true,
		    "#[version = \"0.0.5\"]\n"
		    "def @main() {\n"
		    "  (1f, 0.1f, -2.5f, 1e-05f, 1e+20f, 123456792f, -0f, 1.5f64, 0.1f64, 1f16, "
		    "0.1f16, "
		    "65504f16, 6e-08f16, 2i64, -9223372036854775808i64, 3, -4, True, False, "
		    "-7i16)\n"
		    "}\n");
}

/* TVM has no literal for an int8, uint8 or bfloat16 scalar (support/
 * scalars.cc): one a pass builds without a metadata index prints as such. */
static void test_scalar_without_literal(void **state)
{
	int8_t i8 = 5;
	uint64_t u64 = 1;
	(void)state;
	def("main", NULL, 0, NULL,
	    ir_tuple(m, P0, LIST(scalar(DT_INT8, &i8), scalar(DT_UINT64, &u64))));
	expect_text(NULL, false,
		    "#[version = \"0.0.5\"]\n"
		    "def @main() {\n"
		    "  (meta[relay.Constant][?], meta[relay.Constant][?])\n"
		    "}\n");
}

/* FLT_MAX's shortest spelling; strtof reads it back exactly, but the parser
 * (parse_scalar) range-checks the double before rounding and rejects it,
 * so these are checked without reading back. Infinities and NaNs have no
 * Relay spelling and print as C writes them. */
static void test_float_extremes(void **state)
{
	float f_max = FLT_MAX, f_nan = NAN, f_inf = -INFINITY;
	double d_inf = INFINITY;
	uint16_t h_nan = 0x7e00;
	(void)state;
	def("main", NULL, 0, NULL,
	    ir_tuple(m, P0,
		     LIST(scalar(DT_FLOAT32, &f_max), scalar(DT_FLOAT32, &f_nan),
			  scalar(DT_FLOAT32, &f_inf), scalar(DT_FLOAT64, &d_inf),
			  scalar(DT_FLOAT16, &h_nan))));
	expect_text(NULL, false,
		    "#[version = \"0.0.5\"]\n"
		    "def @main() {\n"
		    "  (3.4028235e+38f, nanf, -inff, inff64, nanf16)\n"
		    "}\n");
}

static void test_meta_constant_and_metadata(void **state)
{
	float data[3] = {1, 2, 3};
	Tensor t = {DT_FLOAT32, 1, (int64_t[]){3}, data, sizeof data};
	Expr *x = ir_var(m, P0, "x", VAR_PARAM, TENSOR(DT_FLOAT32, 3));
	Expr *c = ir_constant(m, P0, &t, 0);
	PrintOptions meta = {.show_metadata = true, .devices = &devices};
	const char *prefix = "#[version = \"0.0.5\"]\n"
			     "def @main(%x: Tensor[(3), float32]) {\n"
			     "  add(%x, meta[relay.Constant][0])\n"
			     "}\n"
			     "\n"
			     "#[metadata]\n";
	char *text;
	(void)state;
	m->constants = calloc(1, sizeof(Expr *));
	m->constants[0] = c;
	m->nconstants = 1;
	def("main", LIST(x), NULL, add(x, c));
	expect_text(NULL, false,
		    "#[version = \"0.0.5\"]\n"
		    "def @main(%x: Tensor[(3), float32]) {\n"
		    "  add(%x, meta[relay.Constant][0])\n"
		    "}\n");
	text = render(m, &meta);
	assert_true(strncmp(text, prefix, strlen(prefix)) == 0);
	check_reprint(text, &meta);
	free(text);
}

static void test_attributes(void **state)
{
	Expr *a = prm("a"), *b = prm("b"), *y = prm("y");
	AttrValue ones[2] = {{.kind = ATTR_INT, .u.i = 1}, {.kind = ATTR_INT, .u.i = 1}};
	AttrValue nested[3] = {{.kind = ATTR_LIST, .u.list = {2, ones}},
			       {.kind = ATTR_LIST, .u.list = {0, NULL}},
			       {.kind = ATTR_INT, .u.i = -3}};
	Attr conv[] = {{"strides", {.kind = ATTR_LIST, .u.list = {2, ones}}, P0},
		       {"padding", {.kind = ATTR_LIST, .u.list = {3, nested}}, P0},
		       attr_int("groups", 1),
		       {"data_layout", {.kind = ATTR_STRING, .u.s = "NC\"H\\W\n\t\r\001"}, P0}};
	Attr clip[] = {{"a_min", {.kind = ATTR_FLOAT, .u.f = 0}, P0},
		       {"a_max", {.kind = ATTR_FLOAT, .u.f = 6.1}, P0}};
	Attr sum[] = {{"axis", {.kind = ATTR_NONE}, P0},
		      attr_bool("keepdims", false),
		      attr_bool("exclude", true)};
	Attr on[] = {attr_device("virtual_device", 1), attr_bool("constrain_result", true)};
	Attr copy[] = {attr_device("src_virtual_device", 0), attr_device("dst_virtual_device", -1)};
	Attr zeros[] = {{"shape", {.kind = ATTR_LIST, .u.list = {2, ones}}, P0},
			{"dtype", {.kind = ATTR_STRING, .u.s = "float32"}, P0}};
	Expr *conv_call = call_attrs(OP_CONV2D, LIST(a, b), conv, 4);
	Expr *clip_call = call_attrs(OP_CLIP, LIST(conv_call), clip, 2);
	Expr *sum_call = call_attrs(OP_SUM, LIST(clip_call), sum, 3);
	Expr *on_call = call_attrs(OP_ON_DEVICE, LIST(sum_call), on, 2);
	Expr *copy_call = call_attrs(OP_DEVICE_COPY, LIST(on_call), copy, 2);
	Expr *zeros_call = call_attrs(OP_ZEROS, NULL, 0, zeros, 2);
	Expr *prim = closure(LIST(y), NULL, y);
	Attr fn_attrs[] = {attr_int("Primitive", 1)};
	FnHead head = {fn_attrs, 1, 0, NULL};
	Expr *bare;
	(void)state;
	prim->u.fn.head = &head;
	bare = closure(NULL, 0, NULL, zeros_call);
	bare->u.fn.head = &head;
	def("main", LIST(a, b), NULL, ir_tuple(m, P0, LIST(copy_call, prim, bare)));
	expect_text(NULL, false,
		    "#[version = \"0.0.5\"]\n"
		    "def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32]) {\n"
		    "  %0 = nn.conv2d(%a, %b, strides=[1, 1], padding=[[1, 1], [], -3], groups=1, "
		    "data_layout=\"NC\\\"H\\\\W\\n\\t\\r\\\001\");\n"
		    "  %1 = clip(%0, a_min=0f, a_max=6.1f);\n"
		    "  %2 = sum(%1, axis=None, keepdims=False, exclude=True);\n"
		    "  %3 = on_device(%2, virtual_device=meta[VirtualDevice][1], "
		    "constrain_result=True);\n"
		    "  %4 = device_copy(%3, src_virtual_device=meta[VirtualDevice][0], "
		    "dst_virtual_device=None);\n"
		    "  %5 = fn (%y: Tensor[(5, 7), float32], Primitive=1) {\n"
		    "    %y\n"
		    "  };\n"
		    "  %6 = fn (Primitive=1) {\n"
		    "    zeros(shape=[1, 1], dtype=\"float32\")\n"
		    "  };\n"
		    "  (%4, %5, %6)\n"
		    "}\n");
}

/* The subset of attributes the parser accepts for these ops reads back. */
static void test_attributes_round_trip(void **state)
{
	Expr *a = prm("a");
	AttrValue axes[1] = {{.kind = ATTR_INT, .u.i = 1}};
	Attr clip[] = {{"a_min", {.kind = ATTR_FLOAT, .u.f = -0.5}, P0},
		       {"a_max", {.kind = ATTR_FLOAT, .u.f = 1e-07}, P0}};
	Attr sum[] = {{"axis", {.kind = ATTR_LIST, .u.list = {1, axes}}, P0},
		      attr_bool("keepdims", true)};
	Attr cast[] = {{"dtype", {.kind = ATTR_STRING, .u.s = "float16"}, P0}};
	Attr on[] = {attr_device("virtual_device", 0), attr_bool("constrain_body", false)};
	Attr layout[] = {{"data_layout", {.kind = ATTR_STRING, .u.s = "N\"C\\\r\001\n"}, P0}};
	Expr *e = call_attrs(OP_CLIP, LIST(a), clip, 2);
	(void)state;
	e = call_attrs(OP_SUM, LIST(e), sum, 2);
	e = call_attrs(OP_CAST, LIST(e), cast, 1);
	e = call_attrs(OP_ON_DEVICE, LIST(e), on, 2);
	e = call_attrs(OP_CONV2D, LIST(e, a), layout, 1);
	def("main", LIST(a), NULL, e);
	expect_text(NULL, true,
		    "#[version = \"0.0.5\"]\n"
		    "def @main(%a: Tensor[(5, 7), float32]) {\n"
		    "  %0 = clip(%a, a_min=-0.5f, a_max=1e-07f);\n"
		    "  %1 = sum(%0, axis=[1], keepdims=True);\n"
		    "  %2 = cast(%1, dtype=\"float16\");\n"
		    "  %3 = on_device(%2, virtual_device=meta[VirtualDevice][0], "
		    "constrain_body=False);\n"
		    "  nn.conv2d(%3, %a, data_layout=\"N\\\"C\\\\\\r\\\001\\n\")\n"
		    "}\n");
}

/* A pass that inserts a node (here a device_copy, with a higher id) and
 * points an existing binding at it: the new node prints just before its
 * first user, with the lowest free number, and everything else keeps the
 * source order. */
static void test_inserted_node(void **state)
{
	Expr *a = prm("a");
	Expr *first = neg(a), *second = neg(first), *third = mul(second, first);
	Attr copy[] = {attr_device("src_virtual_device", 0), attr_device("dst_virtual_device", 1)};
	Expr *copied;
	(void)state;
	first->name = "0";
	second->name = "1";
	def("main", LIST(a), NULL, third);
	copied = call_attrs(OP_DEVICE_COPY, LIST(first), copy, 2);
	second->u.call.args[0] = copied;
	expect_text(NULL, true,
		    "#[version = \"0.0.5\"]\n"
		    "def @main(%a: Tensor[(5, 7), float32]) {\n"
		    "  %0 = negative(%a);\n"
		    "  %2 = device_copy(%0, src_virtual_device=meta[VirtualDevice][0], "
		    "dst_virtual_device=meta[VirtualDevice][1]);\n"
		    "  %1 = negative(%2);\n"
		    "  multiply(%1, %0)\n"
		    "}\n");
}

/* The same when the user of the inserted node is a let's value inside a
 * closure: the closure waits for it. */
static void test_inserted_node_in_closure_let(void **state)
{
	Expr *a = prm("a"), *y = letvar("y", NULL);
	Expr *use = add(a, a);
	Expr *f = closure(NULL, 0, NULL, let(y, use, y));
	Expr *root = ir_tuple(m, P0, LIST(f, a));
	Expr *inserted;
	(void)state;
	def("main", LIST(a), NULL, root);
	inserted = neg(a);
	use->u.call.args[0] = inserted;
	root->u.tuple.fields[1] = inserted;
	expect_text(NULL, true,
		    "#[version = \"0.0.5\"]\n"
		    "def @main(%a: Tensor[(5, 7), float32]) {\n"
		    "  %0 = negative(%a);\n"
		    "  %1 = fn () {\n"
		    "    let %y = add(%0, %a);\n"
		    "    %y\n"
		    "  };\n"
		    "  (%1, %0)\n"
		    "}\n");
}

/* ---- devices, free variables, names ----------------------------------- */

static void test_devices(void **state)
{
	Expr *a = prm("a"), *b = prm("b"), *y = prm("y");
	Expr *sum = add(a, b);
	Attr on[] = {attr_device("virtual_device", 0), attr_bool("constrain_result", true)};
	Expr *pinned = call_attrs(OP_ON_DEVICE, LIST(sum), on, 2);
	Expr *f = closure(LIST(y), T57, neg(y));
	Expr *g = closure(NULL, 0, NULL, pinned);
	(void)state;
	b->device = 1;
	f->device = 1;
	g->device = 0;
	def("main", LIST(a, b), T57,
	    ir_tuple(m, P0, LIST(ir_call_expr(m, P0, f, LIST(pinned)), g)));
	m->globals[0].fn->device = 0;
	expect_text(
		NULL, true,
		"#[version = \"0.0.5\"]\n"
		"def @main(%a: Tensor[(5, 7), float32], "
		"%b {virtual_device=meta[VirtualDevice][1]}: Tensor[(5, 7), float32], "
		"virtual_device=meta[VirtualDevice][0]) -> Tensor[(5, 7), float32] {\n"
		"  %0 = add(%a, %b);\n"
		"  %1 = on_device(%0, virtual_device=meta[VirtualDevice][0], "
		"constrain_result=True);\n"
		"  %2 = fn (%y: Tensor[(5, 7), float32], virtual_device=meta[VirtualDevice][1]) "
		"-> Tensor[(5, 7), float32] {\n"
		"    negative(%y)\n"
		"  };\n"
		"  %3 = fn (virtual_device=meta[VirtualDevice][0]) {\n"
		"    %1\n"
		"  };\n"
		"  %4 = %2(%1);\n"
		"  (%4, %3)\n"
		"}\n");
}

static void test_free_vars(void **state)
{
	Expr *a = prm("a");
	Expr *w = ir_var(m, P0, "w", VAR_FREE, T57);
	Expr *z = ir_var(m, P0, "z", VAR_FREE, NULL);
	Expr *shadow = prm("w");
	Expr *left, *right;
	(void)state;
	add_free_var(w);
	left = add(a, w);
	right = add(z, shadow);
	def("main", LIST(a, shadow), NULL, add(left, right));
	/* %z was never declared: the printer declares it so the text reads back
	 * with the same free variables; the parameter named like the module's
	 * free variable is renamed */
	expect_text(NULL, true,
		    "#[version = \"0.0.5\"]\n"
		    "free_var %w: Tensor[(5, 7), float32];\n"
		    "free_var %z;\n"
		    "def @main(%a: Tensor[(5, 7), float32], %w1: Tensor[(5, 7), float32]) {\n"
		    "  %0 = add(%a, %w);\n"
		    "  %1 = add(%z, %w1);\n"
		    "  add(%0, %1)\n"
		    "}\n");
}

static void test_names(void **state)
{
	Expr *x = prm("x"), *x1 = prm("x1");
	Expr *named0 = neg(x), *unnamed = neg(named0), *named2 = neg(unnamed);
	Expr *dup0 = add(named2, named0), *tail = neg(dup0);
	Expr *p1 = prm("x"), *p2 = prm("x"), *p3 = ir_var(m, P0, NULL, VAR_PARAM, NULL);
	Expr *p4 = ir_var(m, P0, "7", VAR_PARAM, NULL);
	Expr *f1 = closure(LIST(p1), NULL, p1), *f2 = closure(LIST(p2, p3, p4), NULL, p3);
	Expr *word = neg(tail);
	(void)state;
	named0->name = "0";
	named2->name = "2";
	dup0->name = "0";
	word->name = "x";
	def("main", LIST(x, x1), NULL, ir_tuple(m, P0, LIST(word, f1, f2)));
	/* source names stay; the unnamed and the second %0 take the lowest
	 * numbers no node is named (1, 3); in print order, variables and the
	 * binding named like one get free suffixes, skipping %x1, which a
	 * parameter owns; a variable without a name is TVM's %v */
	expect_text(NULL, true,
		    "#[version = \"0.0.5\"]\n"
		    "def @main(%x: Tensor[(5, 7), float32], %x1: Tensor[(5, 7), float32]) {\n"
		    "  %0 = negative(%x);\n"
		    "  %1 = negative(%0);\n"
		    "  %2 = negative(%1);\n"
		    "  %3 = add(%2, %0);\n"
		    "  %4 = negative(%3);\n"
		    "  %5 = fn (%x2: Tensor[(5, 7), float32]) {\n"
		    "    %x2\n"
		    "  };\n"
		    "  %6 = fn (%x3: Tensor[(5, 7), float32], %v, %x4) {\n"
		    "    %v\n"
		    "  };\n"
		    "  %x5 = negative(%4);\n"
		    "  (%x5, %5, %6)\n"
		    "}\n");
}

/* ---- comments ---------------------------------------------------------- */

static void test_show_types_and_devices(void **state)
{
	Expr *a = prm("a"), *b = prm("b"), *y = prm("y");
	Expr *sum = add(a, b);
	Expr *x = letvar("x", NULL);
	Expr *f = closure(LIST(y), NULL, neg(y));
	Expr *applied = ir_call_expr(m, P0, f, LIST(x));
	Type *t = T57;
	Type *ft = type_func(ir_data_arena(m), 1, &t, t);
	PrintOptions types = {.show_types = true};
	PrintOptions devs = {.show_devices = true, .devices = &devices};
	PrintOptions both = {.show_types = true, .show_devices = true, .devices = &devices};
	(void)state;
	def("main", LIST(a, b), NULL, let(x, sum, applied));
	sum->type = t;
	sum->device = 1;
	x->type = t;
	x->device = 1;
	f->type = ft;
	f->u.fn.body->type = t;
	applied->type = t;
	applied->device = 0;
	m->globals[0].fn->type = ft;
	a->device = 1;
	expect_text(&types, false,
		    "#[version = \"0.0.5\"]\n"
		    "def @main(%a {virtual_device=meta[VirtualDevice][1]}: Tensor[(5, 7), float32] "
		    "/* ty=Tensor[(5, 7), float32] */, %b: Tensor[(5, 7), float32] "
		    "/* ty=Tensor[(5, 7), float32] */) -> Tensor[(5, 7), float32] {\n"
		    "  let %x = add(%a, %b) /* ty=Tensor[(5, 7), float32] */;\n"
		    "  %0 = fn (%y: Tensor[(5, 7), float32] /* ty=Tensor[(5, 7), float32] */) -> "
		    "Tensor[(5, 7), float32] {\n"
		    "    negative(%y) /* ty=Tensor[(5, 7), float32] */\n"
		    "  } /* ty=fn (Tensor[(5, 7), float32]) -> Tensor[(5, 7), float32] */;\n"
		    "  %0(%x) /* ty=Tensor[(5, 7), float32] */\n"
		    "}\n");
	expect_text(&devs, false,
		    "#[version = \"0.0.5\"]\n"
		    "def @main(%a {virtual_device=meta[VirtualDevice][1]}: Tensor[(5, 7), float32] "
		    "/* cuda:0 */, %b: Tensor[(5, 7), float32]) {\n"
		    "  let %x = add(%a, %b) /* cuda:0 */;\n"
		    "  %0 = fn (%y: Tensor[(5, 7), float32]) {\n"
		    "    negative(%y)\n"
		    "  };\n"
		    "  %0(%x) /* cpu:0 */\n"
		    "}\n");
	expect_text(&both, false,
		    "#[version = \"0.0.5\"]\n"
		    "def @main(%a {virtual_device=meta[VirtualDevice][1]}: Tensor[(5, 7), float32] "
		    "/* ty=Tensor[(5, 7), float32] cuda:0 */, %b: Tensor[(5, 7), float32] "
		    "/* ty=Tensor[(5, 7), float32] */) -> Tensor[(5, 7), float32] {\n"
		    "  let %x = add(%a, %b) /* ty=Tensor[(5, 7), float32] cuda:0 */;\n"
		    "  %0 = fn (%y: Tensor[(5, 7), float32] /* ty=Tensor[(5, 7), float32] */) -> "
		    "Tensor[(5, 7), float32] {\n"
		    "    negative(%y) /* ty=Tensor[(5, 7), float32] */\n"
		    "  } /* ty=fn (Tensor[(5, 7), float32]) -> Tensor[(5, 7), float32] */;\n"
		    "  %0(%x) /* ty=Tensor[(5, 7), float32] cpu:0 */\n"
		    "}\n");
	/* annotated text still reads back (comments are skipped) */
	{
		char *text = render(m, &both);
		IrModule *back = parse_text(text, true);
		assert_non_null(back);
		ir_module_free(back);
		free(text);
	}
}

static void test_only_global(void **state)
{
	Expr *a = prm("a"), *b = prm("b");
	PrintOptions only = {.only_global = "g"};
	(void)state;
	def("f", LIST(a), NULL, neg(a));
	def("g", LIST(b), NULL, b);
	expect_text(&only, false,
		    "#[version = \"0.0.5\"]\n"
		    "def @g(%b: Tensor[(5, 7), float32]) {\n"
		    "  %b\n"
		    "}\n");
}

/* ---- one-line form and devices ---------------------------------------- */

static void test_inline_and_device(void **state)
{
	Expr *a = prm("a"), *b = prm("b"), *x = letvar("x", NULL);
	Attr on[] = {attr_device("virtual_device", 1)};
	Expr *e = call_attrs(OP_ON_DEVICE, LIST(add(a, b)), on, 1);
	Expr *chain = a;
	StrBuf sb;
	(void)state;
	strbuf_init(&sb);
	print_expr_inline(&sb, let(x, e, ir_tuple(m, P0, LIST(ir_proj(m, P0, x, 0)))));
	assert_string_equal(
		sb.data, "let %x = on_device(add(%a, %b), virtual_device=meta[VirtualDevice][1]); "
			 "(%x.0,)");
	for (int i = 0; i < 20; i++)
		chain = neg(chain);
	strbuf_reset(&sb);
	print_expr_inline(&sb, chain);
	assert_string_equal(sb.data, "negative(negative(negative(negative(negative(negative("
				     "negative(negative(negative(...)))))))))");
	{
		Expr *c = ir_var(m, P0, "c", VAR_PARAM, NULL), *q = prm("q");
		Expr *f = closure(LIST(q, b), NULL, neg(q));
		Expr *g = ir_call_expr(m, P0, ir_global_ref(m, P0, "g"), LIST(f));
		Expr *h = ir_call_expr(m, P0, f, LIST(a, f32(1)));
		strbuf_reset(&sb);
		print_expr_inline(&sb, ir_if(m, P0, c, g, h));
		assert_string_equal(sb.data, "if (%c) { @g(fn (%q, %b) { negative(%q) }) } else { "
					     "fn (%q, %b) { negative(%q) }(%a, 1f) }");
	}
	strbuf_reset(&sb);
	print_device(&sb, 3);
	strbuf_puts(&sb, " ");
	print_device(&sb, IR_NO_DEVICE);
	assert_string_equal(sb.data, "meta[VirtualDevice][3] VirtualDevice()");
	strbuf_free(&sb);
}

/* ---- scale: no recursion proportional to depth ------------------------ */

static void test_deep_chain(void **state)
{
	enum { N = 200000 };
	Expr *a = prm("a"), *e = a;
	char *text;
	char last[64];
	(void)state;
	for (int i = 0; i < N; i++)
		e = neg(e);
	def("main", LIST(a), NULL, e);
	text = render(m, NULL);
	line_of(text, "\n  %0 = negative(%a);\n  %1 = negative(%0);\n");
	snprintf(last, sizeof last, "\n  negative(%%%d)\n}\n", N - 2);
	assert_string_equal(text + strlen(text) - strlen(last), last);
	check_reprint(text, NULL);
	free(text);
}

static void test_deep_lets(void **state)
{
	enum { N = 100000 };
	Expr *a = prm("a");
	Expr **vars = malloc(N * sizeof(Expr *));
	Expr *body;
	char *text;
	char name[32];
	(void)state;
	for (int i = 0; i < N; i++) {
		snprintf(name, sizeof name, "v%d", i);
		vars[i] = letvar(name, NULL);
	}
	body = vars[N - 1];
	for (int i = N; i-- > 0;)
		body = let(vars[i], neg(i ? vars[i - 1] : a), body);
	def("main", LIST(a), NULL, body);
	text = render(m, NULL);
	line_of(text, "\n  let %v0 = negative(%a);\n  let %v1 = negative(%v0);\n");
	line_of(text, "\n  let %v99999 = negative(%v99998);\n  %v99999\n}\n");
	check_reprint(text, NULL);
	free(text);
	free(vars);
}

static void test_deep_nesting(void **state)
{
	enum { N = 20000 };
	Expr *a = prm("a");
	Expr *c = ir_var(m, P0, "c", VAR_PARAM, type_scalar(ir_data_arena(m), DT_BOOL));
	Expr *e = neg(a);
	char *text;
	(void)state;
	/* closures inside ifs inside closures ..., each capturing %a */
	for (int i = 0; i < N; i++) {
		if (i % 2)
			e = ir_if(m, P0, c, e, a);
		else
			e = ir_call_expr(m, P0, closure(NULL, 0, NULL, e), NULL, 0);
	}
	def("main", LIST(a, c), NULL, e);
	text = render(m, NULL);
	/* indentation stops growing at 100 levels */
	{
		char needle[256];
		memset(needle, ' ', sizeof needle);
		needle[0] = '\n';
		snprintf(needle + 201, sizeof needle - 201, "negative(%%a)\n");
		line_of(text, needle);
		needle[0] = ' ';
		assert_null(strstr(text, needle)); /* no line indented deeper */
	}
	free(text);
}

/* ---- P1 on random modules ---------------------------------------------- */

/* Random, well-scoped IR: a pool of values visible at the current point
 * (parameters, earlier nodes, let variables) that nested scopes extend and
 * then cut back, so that sharing across scopes, lets used as operands,
 * recursive closures and duplicated names all occur. */
enum { POOL_MAX = 4096 };
static Expr *pool[POOL_MAX];
static int npool;
static uint64_t rng_state;
static int var_counter;
static Expr *calls[POOL_MAX]; /* op calls made, for insert_nodes */
static int ncalls;

static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state % n);
}

static Expr *remember(Expr *e)
{
	static const char *names[] = {"0", "1", "2", "5", "x", "7"};
	if (npool < POOL_MAX)
		pool[npool++] = e;
	if (e->kind == EXPR_CALL && e->u.call.op != OP_NONE && ncalls < POOL_MAX)
		calls[ncalls++] = e;
	/* a few nodes carry (possibly clashing) source names */
	if (e->kind != EXPR_VAR && e->kind != EXPR_LET && rnd(8) == 0)
		e->name = names[rnd(DP_COUNT(names))];
	return e;
}

static Expr *fresh_var(VarRole role)
{
	static const char *names[] = {"x", "y", "x1", "z"};
	char name[16];
	/* mostly distinct names, sometimes a clash */
	if (rnd(4) == 0)
		snprintf(name, sizeof name, "%s", names[rnd(DP_COUNT(names))]);
	else
		snprintf(name, sizeof name, "v%d", var_counter++);
	return ir_var(m, P0, name, role, rnd(2) ? T57 : NULL);
}

static Expr *gen(int depth)
{
	int mark;
	Expr *e, *v, *f, *params[3], *args[3];
	uint32_t n;
	switch (depth <= 0 ? rnd(2) : rnd(11)) {
	case 0:
	case 1:
		return pool[rnd((uint32_t)npool)];
	case 2:
		return remember(neg(gen(depth - 1)));
	case 3:
		e = gen(depth - 1);
		return remember(add(e, gen(depth - 1)));
	case 4:
		n = rnd(3);
		for (uint32_t i = 0; i < n; i++)
			args[i] = gen(depth - 1);
		return remember(ir_tuple(m, P0, args, n));
	case 5:
		e = gen(depth - 1);
		return remember(ir_proj(m, P0, e, rnd(2)));
	case 6:
	case 7:
		v = fresh_var(VAR_LET);
		e = gen(depth - 1);
		mark = npool;
		remember(v);
		f = gen(depth - 1);
		npool = mark;
		return remember(let(v, e, f));
	case 8:
		e = gen(depth - 1);
		mark = npool;
		v = gen(depth - 1);
		npool = mark;
		f = gen(depth - 1);
		npool = mark;
		return remember(ir_if(m, P0, e, v, f));
	case 9:
		n = rnd(3);
		mark = npool;
		for (uint32_t i = 0; i < n; i++)
			params[i] = remember(fresh_var(VAR_PARAM));
		f = closure(params, n, NULL, gen(depth - 1));
		npool = mark;
		if (rnd(2))
			return remember(f);
		for (uint32_t i = 0; i < n; i++)
			args[i] = gen(depth - 1);
		return remember(ir_call_expr(m, P0, f, args, n));
	case 10:
		/* let %f = fn (...) { ... %f(...) ... }; %f(...) */
		v = fresh_var(VAR_LET);
		v->u.var.annotation = v->type = NULL;
		n = 1 + rnd(2);
		mark = npool;
		remember(v);
		for (uint32_t i = 0; i < n; i++)
			params[i] = remember(fresh_var(VAR_PARAM));
		for (uint32_t i = 0; i < n; i++)
			args[i] = gen(depth - 1);
		f = closure(params, n, NULL, ir_call_expr(m, P0, v, args, n));
		npool = mark;
		remember(v);
		for (uint32_t i = 0; i < n; i++)
			args[i] = gen(depth - 1);
		e = ir_call_expr(m, P0, v, args, n);
		npool = mark;
		return remember(let(v, f, e));
	}
	return pool[0];
}

/* What a pass does: points arguments of existing calls at new nodes,
 * with higher ids, sometimes one new node for several arguments. The new
 * nodes use only a parameter, so the module stays well scoped. */
static void insert_nodes(Expr *param)
{
	Expr *inserted = NULL;
	for (uint32_t k = rnd(4); k > 0 && ncalls; k--) {
		Expr *user = calls[rnd((uint32_t)ncalls)];
		if (!user->u.call.nargs)
			continue;
		if (!inserted || rnd(2))
			inserted = neg(param);
		user->u.call.args[rnd(user->u.call.nargs)] = inserted;
	}
}

static void test_round_trip_random(void **state)
{
	(void)state;
	for (int round = 0; round < 1000; round++) {
		Expr *params[3];
		char *text, *again;
		rng_state = 0x9e3779b97f4a7c15ull + (uint64_t)round * 7919;
		var_counter = 0;
		ir_module_free(m);
		m = ir_module_new(NULL);
		npool = 0;
		ncalls = 0;
		for (int i = 0; i < 3; i++)
			params[i] = remember(fresh_var(VAR_PARAM));
		def("main", params, 3, NULL, gen(2 + round % 6));
		if (round % 2)
			insert_nodes(params[0]);
		text = render(m, NULL);
		again = render(m, NULL);
		assert_string_equal(again, text); /* deterministic */
		free(again);
		check_reprint(text, NULL);
		free(text);
	}
}

/* ---- P1 on the shared cases and models -------------------------------- */

static void round_trip_dir(const char *dir, int *files)
{
	DIR *d = opendir(dir);
	struct dirent *ent;
	assert_non_null(d);
	while ((ent = readdir(d))) {
		size_t n = strlen(ent->d_name);
		char path[1024], *err = NULL;
		SourceFile *src;
		DiagList diags;
		IrModule *first;
		if (n < 6 || strcmp(ent->d_name + n - 6, ".relay") != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
		src = source_read(path, &err);
		assert_non_null(src);
		diag_init(&diags);
		first = parse_module(src, &devices, &diags);
		if (!first)
			diag_print_all(stderr, &diags);
		assert_non_null(first);
		for (int meta = 0; meta < 2; meta++) {
			PrintOptions opts = {.devices = &devices, .show_metadata = meta};
			char *text;
			/* without the section, meta[relay.Constant] cannot read back */
			if (!meta && first->nconstants)
				continue;
			text = render(first, &opts);
			fprintf(stderr, "round trip %s%s\n", path, meta ? " (with metadata)" : "");
			check_reprint(text, &opts);
			free(text);
		}
		(*files)++;
		ir_module_free(first);
		diag_free(&diags);
		source_release(src);
	}
	closedir(d);
}

/* Algebraic data types in TVM's layout (type definitions, an empty one,
 * polymorphic globals, constructors bare and applied, match and match?
 * with nested, tuple, typed-variable and wildcard patterns, a clause
 * body with a let, Storage and Storage[]) read back byte for byte. */
static void test_adt_round_trip(void **state)
{
	/* adt_hole.relay: a result type inference left open, `List[?]`, as
	 * `ir` prints it, reads back */
	static const char *const files[] = {"adt.relay", "adt_hole.relay"};
	(void)state;
	for (size_t i = 0; i < DP_COUNT(files); i++) {
		char *err = NULL, path[512];
		SourceFile *src;
		PrintOptions opts = {.devices = &devices};
		IrModule *back;
		char *text;
		snprintf(path, sizeof path, "%s/tests/golden/roundtrip/%s", DEVPLAN_SOURCE_DIR,
			 files[i]);
		src = source_read(path, &err);
		assert_non_null(src);
		back = parse_text(src->text, true);
		assert_non_null(back);
		text = render(back, &opts);
		assert_string_equal(text, src->text);
		free(text);
		ir_module_free(back);
		source_release(src);
	}
}

/* A match built by hand: each clause's body is a scope of its own, a
 * binding used only inside one clause prints there, and a nullary
 * constructor prints bare wherever it is used. */
static void test_match_scopes(void **state)
{
	Type *list_a, *fields[2];
	IrTypeDef *list = arena_alloc(ir_data_arena(m), sizeof *list);
	IrConstructor *ctors = arena_array(ir_data_arena(m), 2, sizeof *ctors);
	const char **params = arena_array(ir_data_arena(m), 1, sizeof(char *));
	Pattern *var_h = arena_alloc(ir_data_arena(m), sizeof(Pattern));
	Pattern *wild = arena_alloc(ir_data_arena(m), sizeof(Pattern));
	Pattern *cons = arena_alloc(ir_data_arena(m), sizeof(Pattern));
	Pattern *nil = arena_alloc(ir_data_arena(m), sizeof(Pattern));
	const Pattern **subs = arena_array(ir_data_arena(m), 2, sizeof(Pattern *));
	MatchClause *clauses = arena_array(ir_data_arena(m), 2, sizeof(MatchClause));
	Expr *x = prm("x"), *h, *empty, *l, *body0, *match;
	(void)state;
	params[0] = "A";
	list_a = type_call(ir_data_arena(m), "List", 1,
			   (Type *[]){type_var(ir_data_arena(m), "A", false)}, false);
	fields[0] = list_a->u.call.args[0];
	fields[1] = list_a;
	ctors[0] = (IrConstructor){"Cons", fields, 2, P0};
	ctors[1] = (IrConstructor){"Nil", NULL, 0, P0};
	*list = (IrTypeDef){"List", params, 1, ctors, 2, P0};
	m->typedefs = list;
	m->ntypedefs = 1;
	empty = ir_construct(m, P0, 0, 1, NULL, 0);
	l = ir_construct(m, P0, 0, 0, LIST(x, empty));
	h = ir_var(m, P0, "h", VAR_PATTERN, NULL);
	*var_h = (Pattern){.kind = PATTERN_VAR, .pos = P0, .var = 0};
	*wild = (Pattern){.kind = PATTERN_WILDCARD, .pos = P0};
	subs[0] = var_h;
	subs[1] = wild;
	*cons = (Pattern){.kind = PATTERN_CONSTRUCTOR,
			  .pos = P0,
			  .adt = 0,
			  .ctor = 0,
			  .nsubs = 2,
			  .subs = subs};
	*nil = (Pattern){.kind = PATTERN_CONSTRUCTOR, .pos = P0, .adt = 0, .ctor = 1};
	clauses[0] = (MatchClause){cons, 0, 1, P0};
	clauses[1] = (MatchClause){nil, 1, 0, P0};
	body0 = mul(add(h, x), x);
	match = ir_match(m, P0, l, clauses, LIST(body0, neg(x)), LIST(h), false);
	def("main", LIST(x), NULL, add(match, match));
	expect_text(NULL, true,
		    "#[version = \"0.0.5\"]\n"
		    "type List[A] {\n"
		    "  Cons(A, List[A]),\n"
		    "  Nil,\n"
		    "}\n"
		    "\n"
		    "def @main(%x: Tensor[(5, 7), float32]) {\n"
		    "  %0 = Cons(%x, Nil);\n"
		    "  %1 = match? (%0) {\n"
		    "    Cons(%h, _) => {\n"
		    "      %2 = add(%h, %x);\n"
		    "      multiply(%2, %x)\n"
		    "    },\n"
		    "    Nil => {\n"
		    "      negative(%x)\n"
		    "    },\n"
		    "  };\n"
		    "  add(%1, %1)\n"
		    "}\n");
}

static void test_round_trip_shared_files(void **state)
{
	int files = 0;
	(void)state;
	round_trip_dir(DEVPLAN_DATA_DIR "/cases", &files);
	round_trip_dir(DEVPLAN_DATA_DIR "/models", &files);
	assert_true(files >= 15);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
		T(test_simple_graph),
		T(test_sharing_and_globals),
		T(test_lets),
		T(test_let_as_operand),
		T(test_sequences_and_infix_print_as_tvm),
		T(test_closure_captures_outer_binding),
		T(test_recursive_let),
		T(test_if_scopes),
		T(test_if_branch_and_after),
		T(test_tuples_and_projections),
		T(test_scalar_constants),
		T(test_scalar_without_literal),
		T(test_float_extremes),
		T(test_meta_constant_and_metadata),
		T(test_attributes),
		T(test_attributes_round_trip),
		T(test_inserted_node),
		T(test_inserted_node_in_closure_let),
		T(test_devices),
		T(test_free_vars),
		T(test_names),
		T(test_show_types_and_devices),
		T(test_only_global),
		T(test_inline_and_device),
		T(test_deep_chain),
		T(test_deep_lets),
		T(test_deep_nesting),
		T(test_round_trip_random),
		T(test_adt_round_trip),
		T(test_match_scopes),
		T(test_round_trip_shared_files),
#undef T
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
