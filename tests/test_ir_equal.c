/*
 * test_ir_equal.c - the structural comparison of two modules
 * (core/ir/ir_equal.h), which `diff --module` and test_roundtrip use.
 *
 * Each test loads two small modules and checks that they compare as TVM's
 * structural_equal with the devices TVM reads would: equal when only
 * names, comments or written defaults differ; a difference, with its place
 * and words, when an operator, an attribute, a constant, the binding
 * structure, the sharing or a device differs. The last one compares a
 * chain of 200,000 bindings, which a recursive walk could not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ir_equal.h"
#include "session.h"

typedef struct Pair {
	Session a, b;
} Pair;

static IrModule *load_into(Session *s, const char *name, const char *text)
{
	SourceFile *src = source_from_string(name, text, strlen(text));
	bool ok = session_load_source(s, src, name);
	source_release(src);
	if (!ok)
		diag_print_all(stderr, &s->diags);
	assert_true(ok);
	return session_current(s);
}

/* Compares text_a (a.relay) with text_b (b.relay), both after `phases`
 * phases; the difference goes to *d. */
static bool compare_texts(const char *text_a, const char *text_b, size_t phases,
			  const IrEqualOptions *extra, IrDifference *d)
{
	Pair p;
	IrEqualOptions opts = extra ? *extra : (IrEqualOptions){0};
	bool same;
	session_init(&p.a);
	session_init(&p.b);
	p.a.settings.fallback = p.b.settings.fallback = 1;
	load_into(&p.a, "a.relay", text_a);
	load_into(&p.b, "b.relay", text_b);
	if (phases) {
		assert_true(session_step(&p.a, phases));
		assert_true(session_step(&p.b, phases));
	}
	if (!opts.devices_a)
		opts.devices_a = &p.a.devices;
	if (!opts.devices_b)
		opts.devices_b = &p.b.devices;
	same = ir_equal_modules(session_current(&p.a), session_current(&p.b), &opts, d);
	if (!same)
		fprintf(stderr, "  (difference: %s at a:%u:%u, b:%u:%u)\n", d->what, d->pos_a.line,
			d->pos_a.col, d->pos_b.line, d->pos_b.col);
	session_free(&p.a);
	session_free(&p.b);
	return same;
}

static void expect_same(const char *a, const char *b)
{
	IrDifference d;
	assert_true(compare_texts(a, b, 0, NULL, &d));
}

/* A difference whose words contain `words`, at line_a of A and line_b of B. */
static void expect_difference(const char *a, const char *b, const char *words, uint32_t line_a,
			      uint32_t line_b)
{
	IrDifference d;
	assert_false(compare_texts(a, b, 0, NULL, &d));
	if (!strstr(d.what, words))
		fail_msg("'%s' does not say '%s'", d.what, words);
	assert_int_equal(d.pos_a.line, line_a);
	assert_int_equal(d.pos_b.line, line_b);
}

/* Names, type comments and layout are not compared. */
static void test_names_and_comments_aside(void **state)
{
	(void)state;
	expect_same("def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32]) {\n"
		    "  %0 = add(%a, %b);\n"
		    "  subtract(%0, %b)\n"
		    "}\n",
		    "def @main(%x: Tensor[(5, 7), float32] /* ty=Tensor[(5, 7), float32] */,\n"
		    "          %y: Tensor[(5, 7), float32]) -> Tensor[(5, 7), float32] {\n"
		    "  %7 = add(%x, %y) /* ty=Tensor[(5, 7), float32] */;\n"
		    "  subtract(%7, %y)\n"
		    "}\n");
}

static const char chain[] =
	"def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32]) {\n"
	"  %0 = add(%a, %b);\n"
	"  %1 = negative(%0);\n"
	"  subtract(%1, %b)\n"
	"}\n";

/* The first difference of structure is the outermost on the leftmost path,
 * with its place on both sides. */
static void test_operator(void **state)
{
	(void)state;
	expect_difference(chain,
			  "def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32]) {\n"
			  "  %0 = multiply(%a, %b);\n"
			  "  %1 = negative(%0);\n"
			  "  subtract(%1, %b)\n"
			  "}\n",
			  "add %0 against multiply %0", 2, 2);
	expect_difference(chain,
			  "def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32]) {\n"
			  "  %0 = add(%a, %b);\n"
			  "  %1 = negative(%0);\n"
			  "  subtract(%1, %a)\n"
			  "}\n",
			  "subtract reads parameter %b in A and parameter %a in B, which do not "
			  "correspond: A's is B's parameter %b at 1:40 (one value in A, two in B)",
			  4, 4);
	/* a node paired already that meets another kind: the kinds first, at
	 * the reader of the variable */
	expect_difference("def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32]) {\n"
			  "  add(%a, %b)\n"
			  "}\n",
			  "def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32]) {\n"
			  "  %0 = negative(%a);\n"
			  "  add(%0, %b)\n"
			  "}\n",
			  "parameter %a against negative %0", 2, 2);
}

/* Attributes by name: an attribute written with TVM's default is the same
 * as one left out; a device by the device it names. */
static void test_attributes(void **state)
{
	static const char *const fixed =
		"def @main(%a: Tensor[(5, 7), float32]) {\n"
		"  %0 = negative(%a);\n"
		"  on_device(%0, virtual_device=meta[VirtualDevice][0], constrain_result=True)\n"
		"}\n";
	DeviceTable table;
	IrEqualOptions swapped = {0};
	IrDifference d;
	char *err = NULL;
	(void)state;
	expect_same("def @main(%a: Tensor[(5, 7), float32]) {\n"
		    "  on_device(%a, virtual_device=meta[VirtualDevice][0])\n"
		    "}\n",
		    "def @main(%a: Tensor[(5, 7), float32]) {\n"
		    "  on_device(%a, constrain_body=True, virtual_device=meta[VirtualDevice][0], "
		    "constrain_result=False)\n"
		    "}\n");
	expect_difference("def @main(%a: Tensor[(5, 7), float32]) {\n"
			  "  on_device(%a, virtual_device=meta[VirtualDevice][0])\n"
			  "}\n",
			  fixed, "on_device: no constrain_result against constrain_result=True", 2,
			  3);
	expect_difference(fixed,
			  "def @main(%a: Tensor[(5, 7), float32]) {\n"
			  "  %0 = negative(%a);\n"
			  "  on_device(%0, virtual_device=meta[VirtualDevice][1], "
			  "constrain_result=True)\n"
			  "}\n",
			  "on_device: virtual_device=cpu:0 against virtual_device=cuda:0", 3, 3);
	expect_difference("def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, "
			  "3), float32]) {\n"
			  "  nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=4)\n"
			  "}\n",
			  "def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, "
			  "3), float32]) {\n"
			  "  nn.conv2d(%x, %w, padding=[1, 1, 1, 1])\n"
			  "}\n",
			  "nn.conv2d: channels=4 against no channels", 2, 2);
	/* B's table names index 0 cuda:0 and 1 cpu:0: meta[VirtualDevice][1]
	 * there is A's meta[VirtualDevice][0] */
	memset(&table, 0, sizeof table);
	assert_int_equal(devices_add(&table, "cuda:0", NULL, &err), 0);
	assert_int_equal(devices_add(&table, "cpu:0", NULL, &err), 1);
	swapped.devices_b = &table;
	assert_true(compare_texts(fixed,
				  "def @main(%a: Tensor[(5, 7), float32]) {\n"
				  "  %0 = negative(%a);\n"
				  "  on_device(%0, virtual_device=meta[VirtualDevice][1], "
				  "constrain_result=True)\n"
				  "}\n",
				  0, &swapped, &d));
	devices_free(&table);
}

/* Constants by value; a projection or a constant may be shared on one side
 * and not the other (TVM's graph nodes are calls, variables, tuples...). */
static void test_values(void **state)
{
	(void)state;
	expect_difference("def @main(%a: float32) { add(%a, 1f) }\n",
			  "def @main(%a: float32) {\n  add(%a, 2f)\n}\n", "different values", 1, 2);
	expect_same("def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32]) {\n"
		    "  %0 = (%a, %b);\n"
		    "  %1 = %0.0;\n"
		    "  add(%1, %1)\n"
		    "}\n",
		    "def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32]) {\n"
		    "  %0 = (%a, %b);\n"
		    "  add(%0.0, %0.0)\n"
		    "}\n");
	expect_difference("def @main(%a: Tensor[(5, 7), float32]) {\n"
			  "  %0 = negative(%a);\n"
			  "  add(%0, %0)\n"
			  "}\n",
			  "def @main(%a: Tensor[(5, 7), float32]) {\n"
			  "  add(negative(%a), negative(%a))\n"
			  "}\n",
			  "add reads negative %0 in A and negative in B, which do not correspond: "
			  "A's is B's negative at 2:7 (one value in A, two in B)",
			  3, 2);
}

/* Variables are paired by their binders, never by name. */
static void test_binders(void **state)
{
	static const char *const lets = "def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(5, "
					"7), float32]) {\n"
					"  let %x = negative(%a);\n"
					"  let %y = negative(%b);\n"
					"  subtract(%x, %y)\n"
					"}\n";
	(void)state;
	expect_same(lets, "def @main(%b: Tensor[(5, 7), float32], %a: Tensor[(5, 7), float32]) {\n"
			  "  let %y = negative(%b);\n"
			  "  let %x = negative(%a);\n"
			  "  subtract(%y, %x)\n"
			  "}\n");
	expect_difference(lets,
			  "def @main(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32]) {\n"
			  "  let %x = negative(%a);\n"
			  "  let %y = negative(%b);\n"
			  "  subtract(%y, %x)\n"
			  "}\n",
			  "subtract reads let variable %x in A and let variable %y in B", 4, 4);
	expect_difference("def @main(%a: Tensor[(5, 7), float32]) {\n"
			  "  let %f = fn (%x: Tensor[(5, 7), float32]) { negative(%x) };\n"
			  "  %f(%a)\n"
			  "}\n",
			  "def @main(%a: Tensor[(5, 7), float32]) {\n"
			  "  let %f = fn (%x: Tensor[(5, 7), float32]) { negative(%a) };\n"
			  "  %f(%a)\n"
			  "}\n",
			  "negative reads parameter %x in A and parameter %a in B", 2, 2);
}

/* The devices TVM reads: a function's and a parameter's, and a fixed
 * on_device's for what it wraps; reported at the first binding in
 * evaluation order once the structure agrees. */
static void test_devices(void **state)
{
	static const char *const planned =
		"def @main(%a {virtual_device=meta[VirtualDevice][0]}: Tensor[(5, 7), float32],\n"
		"          virtual_device=meta[VirtualDevice][1]) {\n"
		"  %0 = negative(%a);\n"
		"  %1 = on_device(%0, virtual_device=meta[VirtualDevice][0], "
		"constrain_result=True);\n"
		"  %2 = device_copy(%1, src_virtual_device=meta[VirtualDevice][0], "
		"dst_virtual_device=meta[VirtualDevice][1]);\n"
		"  negative(%2)\n"
		"}\n";
	IrEqualOptions no_devices = {.ignore_devices = true};
	IrDifference d;
	(void)state;
	expect_same(planned, planned);
	/* the same text without the wrapper: negative(%a) reads as on cuda:0 */
	expect_difference(
		planned,
		"def @main(%a {virtual_device=meta[VirtualDevice][0]}: Tensor[(5, 7), float32],\n"
		"          virtual_device=meta[VirtualDevice][1]) {\n"
		"  %0 = negative(%a);\n"
		"  %2 = device_copy(%0, src_virtual_device=meta[VirtualDevice][0], "
		"dst_virtual_device=meta[VirtualDevice][1]);\n"
		"  negative(%2)\n"
		"}\n",
		"on_device %1 against negative %0", 4, 3);
	expect_difference(
		planned,
		"def @main(%a {virtual_device=meta[VirtualDevice][0]}: Tensor[(5, 7), float32],\n"
		"          virtual_device=meta[VirtualDevice][0]) {\n"
		"  %0 = negative(%a);\n"
		"  %1 = on_device(%0, virtual_device=meta[VirtualDevice][0], "
		"constrain_result=True);\n"
		"  %2 = device_copy(%1, src_virtual_device=meta[VirtualDevice][0], "
		"dst_virtual_device=meta[VirtualDevice][1]);\n"
		"  negative(%2)\n"
		"}\n",
		"device_copy %2 is on cuda:0 against cpu:0, as TVM reads the text", 5, 5);
	expect_difference(
		planned,
		"def @main(%a {virtual_device=meta[VirtualDevice][1]}: Tensor[(5, 7), float32],\n"
		"          virtual_device=meta[VirtualDevice][1]) {\n"
		"  %0 = negative(%a);\n"
		"  %1 = on_device(%0, virtual_device=meta[VirtualDevice][0], "
		"constrain_result=True);\n"
		"  %2 = device_copy(%1, src_virtual_device=meta[VirtualDevice][0], "
		"dst_virtual_device=meta[VirtualDevice][1]);\n"
		"  negative(%2)\n"
		"}\n",
		"parameter %a: virtual_device=cpu:0 against virtual_device=cuda:0", 1, 1);
	/* a Primitive=1 function's parameters, which TVM reads no device
	 * through, by what they write (TVM's VarNode compares it) */
	expect_difference(
		"def @main(%a: Tensor[(5, 7), float32]) {\n"
		"  %0 = fn (%x {virtual_device=meta[VirtualDevice][0]}: Tensor[(5, 7), float32], "
		"Primitive=1) { negative(%x) };\n"
		"  %0(%a)\n"
		"}\n",
		"def @main(%a: Tensor[(5, 7), float32]) {\n"
		"  %0 = fn (%x {virtual_device=meta[VirtualDevice][1]}: Tensor[(5, 7), float32], "
		"Primitive=1) { negative(%x) };\n"
		"  %0(%a)\n"
		"}\n",
		"parameter %x: virtual_device=cpu:0 against virtual_device=cuda:0", 2, 2);
	assert_true(compare_texts(
		planned,
		"def @main(%a {virtual_device=meta[VirtualDevice][1]}: Tensor[(5, 7), float32],\n"
		"          virtual_device=meta[VirtualDevice][0]) {\n"
		"  %0 = negative(%a);\n"
		"  %1 = on_device(%0, virtual_device=meta[VirtualDevice][0], "
		"constrain_result=True);\n"
		"  %2 = device_copy(%1, src_virtual_device=meta[VirtualDevice][0], "
		"dst_virtual_device=meta[VirtualDevice][1]);\n"
		"  negative(%2)\n"
		"}\n",
		0, &no_devices, &d));
}

/* Types only when asked; globals by name, in any order. */
static void test_types_and_globals(void **state)
{
	static const char *const two = "def @f(%x: Tensor[(5, 7), float32]) { negative(%x) }\n"
				       "def @main(%a: Tensor[(5, 7), float32]) { @f(%a) }\n";
	IrEqualOptions types = {.types = true}, annotations = {.annotations = true};
	IrDifference d;
	(void)state;
	assert_true(compare_texts("def @main(%a: Tensor[(5, 7), float32]) { negative(%a) }\n",
				  "def @main(%a: Tensor[(5, 8), float32]) { negative(%a) }\n", 0,
				  NULL, &d));
	assert_false(compare_texts("def @main(%a: Tensor[(5, 7), float32]) { negative(%a) }\n",
				   "def @main(%a: Tensor[(5, 8), float32]) { negative(%a) }\n", 0,
				   &types, &d));
	assert_non_null(strstr(d.what,
			       "parameter %a: type Tensor[(5, 7), float32] against Tensor[(5, 8), "
			       "float32]"));
	assert_false(compare_texts("def @main(%a: Tensor[(5, 7), float32]) { negative(%a) }\n",
				   "def @main(%a: Tensor[(5, 8), float32]) { negative(%a) }\n", 0,
				   &annotations, &d));
	assert_non_null(strstr(d.what, "written type Tensor[(5, 7), float32]"));
	expect_same(two, "def @main(%a: Tensor[(5, 7), float32]) { @f(%a) }\n"
			 "def @f(%x: Tensor[(5, 7), float32]) { negative(%x) }\n");
	expect_difference(two,
			  "def @main(%a: Tensor[(5, 7), float32]) { @g(%a) }\n"
			  "def @g(%x: Tensor[(5, 7), float32]) { negative(%x) }\n",
			  "@f is defined in A only", 1, 0);
}

/* Planned modules: planning the same text twice gives the same module. */
static void test_planned(void **state)
{
	IrDifference d;
	(void)state;
	assert_true(compare_texts(chain, chain, pipeline_count, NULL, &d));
}

/* A chain of 200,000 bindings: the walk keeps its own stack. */
static void test_long_chain(void **state)
{
	enum { N = 200000 };
	StrBuf sb;
	IrDifference d;
	char *text, *other, *last;
	(void)state;
	strbuf_init(&sb);
	strbuf_puts(&sb, "def @main(%a: Tensor[(2), float32]) {\n  %0 = negative(%a);\n");
	for (int i = 1; i < N; i++)
		strbuf_printf(&sb, "  %%%d = negative(%%%d);\n", i, i - 1);
	strbuf_printf(&sb, "  %%%d\n}\n", N - 1);
	text = strbuf_detach(&sb);
	assert_true(compare_texts(text, text, 0, NULL, &d));
	/* the first binding a sigmoid: found at the far end of the walk */
	other = xstrdup(text);
	last = strstr(other, "negative(%a)");
	memcpy(last, "sigmoid(%a); ", 13);
	assert_false(compare_texts(text, other, 0, NULL, &d));
	assert_non_null(strstr(d.what, "negative %0 against sigmoid %0"));
	assert_int_equal(d.pos_a.line, 2);
	free(other);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_and_comments_aside),
		cmocka_unit_test(test_operator),
		cmocka_unit_test(test_attributes),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_binders),
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_types_and_globals),
		cmocka_unit_test(test_planned),
		cmocka_unit_test(test_long_chain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
