/*
 * test_relax.c - the Relax front end and RealizeVDevice (core/relax/).
 *
 * Parser errors: each malformed module of a table must fail at the
 * line:col written beside it with a message containing the text written
 * there. Round trip: modules with the forms the corpus lacks (if/else,
 * call_tir with a prim_func, match_cast, constants, shadowed names,
 * tuples, calls between functions, hand-written hints and vdevices)
 * print, and the print reads back to the same print. RealizeVDevice:
 * TVM's errors at the binding that raises them, and the placements that
 * depend on TVM's propagation order. The corpus itself (TVM's printed
 * outputs) is checked by tests/check-relax.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "relax_explain.h"
#include "relax_parse.h"
#include "relax_print.h"
#include "relax_realize.h"

#define HEADER                                                                               \
	"@I.ir_module\n"                                                                     \
	"class Module:\n"                                                                    \
	"    I.module_global_infos({\"vdevice\": [I.vdevice(\"llvm\"), I.vdevice(\"cuda\", " \
	"0)]})\n"

/* Parses text as NAME.py; the module or NULL, the diagnostics in diags. */
static RxModule *parse_text(const char *text, DiagList *diags, SourceFile **src)
{
	*src = source_from_string("t.py", text, strlen(text));
	return relax_parse(*src, diags);
}

static char *print_text(const RxModule *m)
{
	StrBuf sb;
	strbuf_init(&sb);
	relax_print_module(&sb, m);
	return strbuf_detach(&sb);
}

/* The first error's "line:col: message". */
static char *first_error(const DiagList *diags)
{
	for (size_t i = 0; i < diags->count; i++)
		if (diags->items[i].severity == DIAG_ERROR)
			return xasprintf("%u:%u: %s", diags->items[i].pos.line,
					 diags->items[i].pos.col, diags->items[i].message);
	return xstrdup("(no error)");
}

typedef struct ErrorCase {
	const char *text;
	const char *where; /* "line:col" */
	const char *says;
} ErrorCase;

static const ErrorCase parse_errors[] = {
	{"class Module:\n    pass\n", "1:1", "expected @I.ir_module"},
	{HEADER "    @R.function\n    def f(x: R.Tensor((2,), \"float32\")) -> R.Tensor((2,), "
		"\"float32\"):\n"
		"        y = R.add(x, q)\n        return y\n",
	 "6:22", "name 'q' is not defined"},
	{HEADER "    @R.function\n    def f(x: R.Tensor((2,), \"float32\", \"cuda:3\")):\n        "
		"return x\n",
	 "5:40", "The target VDevice in the GlobalInfos was not found"},
	{"@I.ir_module\nclass Module:\n    @R.function\n    def f(x: R.Tensor((2,), \"float32\", "
	 "\"cuda\")):\n"
	 "        return x\n",
	 "4:40", "The GlobalInfos in the IRModule is not defined"},
	{HEADER "    @R.function\n    def f(x: R.Tensor((2,), \"float32)):\n        return x\n",
	 "5:29", "unterminated string"},
	{HEADER "    @R.function\n    def f(x: R.Tensor((2,), \"float32\")):\n        y = x\n      "
		"return y\n",
	 "7:7", "unindent does not match"},
	{HEADER "    @R.function\n    def f(x: R.Tensor((2,), \"float32\")):\n        y = x\n",
	 "7:1", "must end with 'return'"},
	{HEADER
	 "    @R.function\n    def f(x: R.Tensor((2,), \"float32\"), c: R.Tensor((), \"bool\")):\n"
	 "        if c:\n            r = x\n        return r\n",
	 "8:9", "'else'"},
	{HEADER "    @R.function\n    def f(x: R.Tensor((2,), \"float32\")):\n        y = "
		"R.to_vdevice(x)\n"
		"        return y\n",
	 "6:13", "R.to_vdevice needs"},
	{HEADER
	 "    @R.function\n    def f(x: R.Tensor((2,), \"float32\")):\n        y = R.add(x, x\n",
	 "7:1", "expected ')'"},
	{HEADER "    @R.function\n    def f(x: 3):\n        return x\n", "5:14",
	 "expected a Relax type"},
	{HEADER
	 "    @R.function\n    def f(x: R.Tensor((2,), \"float32\")):\n"
	 "        y = R.hint_on_device(x, R.device(device_type=\"cuda\"))\n        return y\n",
	 "6:54", "integer device_type"},
	{HEADER "    I.module_attrs\n", "4:5", "expected I.module_attrs"},
	{HEADER "    f = R.foo(\"f\")\n", "4:9", "expected R.ExternFunc(...)"},
	{"@I.ir_module\nclass Module:\n    I.module_global_infos({\"vdevice\": [I.vdevice(3)]})\n",
	 "3:40", "I.vdevice needs a target"},
	{HEADER
	 "    @R.function\n    def f(x: R.Tensor((2,), \"float32\")):\n        y = f(x, k=1, x)\n"
	 "        return y\n",
	 "6:23", "positional argument follows keyword"},
};

static void test_parse_errors(void **state)
{
	(void)state;
	bool show = getenv("SHOW") != NULL;
	int bad = 0;
	for (size_t i = 0; i < sizeof parse_errors / sizeof parse_errors[0]; i++) {
		DiagList diags;
		SourceFile *src;
		RxModule *m;
		char *got, *want;
		diag_init(&diags);
		m = parse_text(parse_errors[i].text, &diags, &src);
		got = first_error(&diags);
		want = xasprintf("%s: ", parse_errors[i].where);
		if (show)
			fprintf(stderr, "%zu: %s\n", i, got);
		if (m || strncmp(got, want, strlen(want)) != 0 ||
		    !strstr(got, parse_errors[i].says)) {
			fprintf(stderr, "case %zu: got '%s', want '%s...%s'\n", i, got, want,
				parse_errors[i].says);
			bad++;
		}
		relax_module_free(m);
		free(got);
		free(want);
		diag_free(&diags);
		source_release(src);
	}
	assert_int_equal(bad, 0);
}

static const char *const roundtrip_modules[] = {
	HEADER
	"    @T.prim_func\n    def addone(A: T.Buffer((2, 3), \"float32\"), B: T.Buffer((2, 3), "
	"\"float32\")):\n"
	"        for i, j in T.grid(2, 3):\n            B[i, j] = A[i, j] + T.float32(1.0)\n\n"
	"    @R.function\n"
	"    def foo(x: R.Tensor((2, 3), \"float32\"), c: R.Tensor((), \"bool\")) -> R.Tensor((2, "
	"3), \"float32\"):\n"
	"        cls = Module\n"
	"        y = R.hint_on_device(x, tvm.cuda())\n"
	"        if c:\n            r_then = R.add(y, y)\n            r = r_then\n"
	"        else:\n            r_else = R.multiply(y, y)\n            r = r_else\n"
	"        s = R.call_tir(cls.addone, (r,), out_sinfo=R.Tensor((2, 3), \"float32\"))\n"
	"        t: R.Tensor((2, 3), \"float32\") = cls.g(s)\n"
	"        u = R.match_cast(t, R.Tensor((2, 3), \"float32\"))\n"
	"        k: R.Tensor((), \"float32\") = R.const(1.0, \"float32\")\n"
	"        w = R.add(u, k)\n"
	"        z: R.Tensor((4, 3), \"float32\") = R.concat((w, y))\n"
	"        tp = (w, y)\n        q = tp[0]\n        q = R.to_vdevice(q, \"llvm\")\n"
	"        return (q, z)\n"
	"    @R.function(private=True)\n"
	"    def g(a: R.Tensor((2, 3), \"float32\", \"vdevice:1\")) -> R.Tensor((2, 3), "
	"\"float32\"):\n"
	"        R.func_attr({\"num_input\": 1})\n"
	"        with R.dataflow():\n            b = R.nn.relu(a)\n            c = R.exp(b)\n"
	"            R.output(c)\n        return c\n",
};

static void test_roundtrip(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof roundtrip_modules / sizeof roundtrip_modules[0]; i++) {
		DiagList diags;
		SourceFile *src, *src2;
		RxModule *m, *m2;
		char *once, *twice;
		diag_init(&diags);
		m = parse_text(roundtrip_modules[i], &diags, &src);
		if (!m)
			diag_print_all(stderr, &diags);
		assert_non_null(m);
		once = print_text(m);
		m2 = parse_text(once, &diags, &src2);
		if (!m2)
			diag_print_all(stderr, &diags);
		assert_non_null(m2);
		twice = print_text(m2);
		assert_string_equal(once, twice);
		/* what TVM prints for these forms */
		assert_non_null(strstr(
			once, "q_1: R.Tensor((2, 3), dtype=\"float32\", vdevice=\"llvm:0:global\") "
			      "= R.to_vdevice(q, dst_vdevice=\"llvm:0:global\")"));
		assert_non_null(strstr(once, "        s = R.call_tir(cls.addone, (r,), out_ty="));
		assert_non_null(strstr(
			once, "tp: R.Tuple(R.Tensor((2, 3), dtype=\"float32\"), R.Tensor((2, 3), "
			      "dtype=\"float32\")) = w, y\n"));
		assert_non_null(strstr(
			once, "R.hint_on_device(x, R.device(device_type=2, index=0), \"global\")"));
		assert_non_null(strstr(once, "R.concat((w, y), axis=0)"));
		assert_non_null(strstr(once, "vdevice=\"cuda:0:global\")) -> "));
		assert_true(strstr(once, "def addone") < strstr(once, "def foo"));
		free(once);
		free(twice);
		relax_module_free(m);
		relax_module_free(m2);
		diag_free(&diags);
		source_release(src);
		source_release(src2);
	}
}

/* Realizes text; the printed result, or the first error as "line:col: msg". */
static char *realize_text(const char *text)
{
	DiagList diags;
	SourceFile *src;
	RxModule *m;
	RxRealize r;
	char *out = NULL;
	diag_init(&diags);
	m = parse_text(text, &diags, &src);
	assert_non_null(m);
	relax_realize_init(&r, m);
	while (r.done < RX_PHASE_COUNT && !out)
		if (!relax_realize_step(&r, &diags))
			out = first_error(&diags);
	if (!out)
		out = print_text(relax_realize_current(&r));
	relax_realize_free(&r);
	relax_module_free(m);
	diag_free(&diags);
	source_release(src);
	return out;
}

#define FOO                                                                               \
	"    @R.function\n    def foo(a: R.Tensor((2,), \"float32\"), b: R.Tensor((2,), " \
	"\"float32\"), "                                                                  \
	"c: R.Tensor((2,), \"float32\")):\n"

static void test_realize_errors(void **state)
{
	char *got;
	(void)state;
	/* Relay's #15019 pattern: b goes to cuda first, so R.add(a, b) raises */
	got = realize_text(HEADER FOO
			   "        x = R.add(a, b)\n        x1 = R.hint_on_device(x, tvm.cpu())\n"
			   "        y = R.add(b, c)\n        y1 = R.hint_on_device(y, tvm.cuda())\n"
			   "        z = R.subtract(x1, y1)\n        return z\n");
	assert_non_null(strstr(got, "6:9: ValueError: Binary operators"));
	assert_non_null(strstr(got, "R.add(a, b) has a LHS on VDevice llvm:0:global"));
	assert_non_null(strstr(got, "RHS on VDevice cuda:0:global"));
	free(got);
	/* a hint for a device the list lacks */
	got = realize_text(HEADER FOO
			   "        x = R.hint_on_device(a, tvm.cuda(1))\n        return x\n");
	assert_non_null(strstr(got, "6:9: ValueError: the hint asks for cuda:1"));
	free(got);
	got = realize_text(HEADER FOO
			   "        x = R.hint_on_device(a, tvm.cuda(-1))\n        return x\n");
	assert_non_null(strstr(got, "must not be negative"));
	free(got);
	got = realize_text(HEADER "    @R.function\n    def foo(a: R.Tensor((2,), \"float32\")) -> "
				  "R.Tuple(R.Tensor((2,), \"float32\", \"cuda\")):\n        t = "
				  "(a, a)\n        return t\n");
	assert_non_null(strstr(
		got, "Function returns a tuple with 2 elements, but is annotated as returning "
		     "a tuple with 1 elements"));
	free(got);
}

/* The classes after colocate and policy error's check on the #15019
 * pattern: two classes, both reached by seeds on two vdevices; the error
 * is at the first seed that disagrees with its class's first (y's hint),
 * naming that first (x's). */
static void test_classes_and_error(void **state)
{
	static const char text[] =
		HEADER FOO "        x = R.add(a, b)\n        x1 = R.hint_on_device(x, tvm.cpu())\n"
			   "        y = R.add(b, c)\n        y1 = R.hint_on_device(y, tvm.cuda())\n"
			   "        z = R.subtract(x1, y1)\n        w = R.add(z, z)\n        "
			   "return z\n";
	DiagList diags;
	SourceFile *src;
	RxModule *m;
	RxRealize r;
	RxConflict *c;
	size_t n;
	char *err;
	(void)state;
	diag_init(&diags);
	m = parse_text(text, &diags, &src);
	assert_non_null(m);
	relax_realize_init(&r, m);
	assert_true(relax_realize_step(&r, &diags));
	assert_true(relax_realize_step(&r, &diags));
	n = relax_classes(&r, &c);
	assert_int_equal(n, 2);
	/* in order of the first variable: a's class, then x1's (with z, w) */
	assert_string_equal(m->vars[c[0].vars[0]]->name, "a");
	assert_int_equal(c[0].nvars, 5);
	assert_true(relax_class_conflicts(&c[0]));
	assert_int_equal(c[1].nvars, 4);
	assert_int_equal(c[1].nseeds, 2);
	relax_conflicts_free(c, n);
	assert_false(relax_check_conflicts(&r, src, &diags));
	err = first_error(&diags);
	assert_non_null(strstr(err, "9:9: 'y' (hint input) seeds its co-location class on "
				    "cuda:0:global, but 'x' (hint input) at t.py:7:9"));
	free(err);
	relax_realize_free(&r);
	relax_module_free(m);
	diag_free(&diags);
	source_release(src);
}

static void test_realize_order(void **state)
{
	char *got;
	(void)state;
	/* a is hinted to cpu, then to cuda: the last hint of an input wins,
	 * and a's output hint becomes a copy */
	got = realize_text(HEADER FOO
			   "        x = R.hint_on_device(a, tvm.cpu())\n"
			   "        y = R.hint_on_device(a, tvm.cuda())\n        z = R.add(b, y)\n"
			   "        return z\n");
	assert_non_null(strstr(
		got, "def foo(a: R.Tensor((2,), dtype=\"float32\", vdevice=\"cuda:0:global\")"));
	assert_non_null(strstr(got,
			       "x: R.Tensor((2,), dtype=\"float32\", vdevice=\"llvm:0:global\") = "
			       "R.to_vdevice(a, dst_vdevice=\"llvm:0:global\")"));
	assert_non_null(strstr(
		got, "y: R.Tensor((2,), dtype=\"float32\", vdevice=\"cuda:0:global\") = a\n"));
	/* c is reached by nothing: no vdevice, no default */
	assert_non_null(strstr(got, "c: R.Tensor((2,), dtype=\"float32\"))"));
	free(got);
	/* a mixed matmul loses the vdevice; the function's type follows */
	got = realize_text(
		HEADER FOO
		"        x = R.hint_on_device(a, tvm.cpu())\n"
		"        y = R.hint_on_device(b, tvm.cuda())\n"
		"        z: R.Tensor((), \"float32\") = R.matmul(x, y)\n        return z\n");
	assert_non_null(
		strstr(got, "z: R.Tensor((), dtype=\"float32\") = R.matmul(x, y, out_dtype=None)"));
	free(got);
}

/* The devices the copy policy gives each variable, as "name:vdevice ..." in
 * variable-name order, for comparing two orders of the same bindings. */
static char *copy_plan(const char *text)
{
	DiagList diags;
	SourceFile *src;
	RxModule *m;
	RxRealize r;
	StrBuf sb;
	diag_init(&diags);
	m = parse_text(text, &diags, &src);
	assert_non_null(m);
	relax_realize_init(&r, m);
	r.copy_policy = true;
	while (r.done < RX_PHASE_COUNT)
		assert_true(relax_realize_step(&r, &diags));
	strbuf_init(&sb);
	for (char c = 'a'; c <= 'z'; c++)
		for (uint32_t v = 0; v < m->nvars; v++)
			if (m->vars[v]->name[0] == c && r.known[v] >= 0)
				strbuf_printf(&sb, "%s:%d ", m->vars[v]->name, r.known[v]);
	relax_realize_free(&r);
	relax_module_free(m);
	diag_free(&diags);
	source_release(src);
	return strbuf_detach(&sb);
}

/* [P4] under copy: the #15019 pattern with its two halves in either order
 * places every variable the same (b's tie goes to the lower vdevice), and
 * plans with copies where TVM raises. */
static void test_copy_order_free(void **state)
{
	char *one, *two;
	(void)state;
	one = copy_plan(HEADER FOO
			"        x = R.add(a, b)\n        x1 = R.hint_on_device(x, tvm.cpu())\n"
			"        y = R.add(b, c)\n        y1 = R.hint_on_device(y, tvm.cuda())\n"
			"        z = R.subtract(x1, y1)\n        return z\n");
	two = copy_plan(HEADER FOO
			"        y = R.add(b, c)\n        y1 = R.hint_on_device(y, tvm.cuda())\n"
			"        x = R.add(a, b)\n        x1 = R.hint_on_device(x, tvm.cpu())\n"
			"        z = R.subtract(y1, x1)\n        return z\n");
	assert_string_equal(one, two);
	assert_non_null(strstr(one, "b:0 "));
	free(one);
	free(two);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_errors),    cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_realize_errors),  cmocka_unit_test(test_realize_order),
		cmocka_unit_test(test_copy_order_free), cmocka_unit_test(test_classes_and_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
