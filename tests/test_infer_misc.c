/*
 * test_infer_misc.c - unit tests of the type relations of the operators
 * that belong to no family of their own (core/plan/infer/infer_misc.c and
 * infer_qnn.c), which ops.def lists as OP_PLAN: the scans cumsum and
 * cumprod, debug and the annotation.* markers, the VM's vm.* and memory.*
 * operators and the quantized qnn.* operators.
 *
 * Each test parses a small Relay module, infers it and compares the
 * result type of @main, printed, with a type written by hand from TVM's
 * semantics (its relations in src/relay/op and src/relay/qnn/op); error
 * cases compare the formatted diagnostic, file:line:col included. A last
 * test prints a module that calls every one of these operators with
 * non-default attributes and reads it back unchanged [P1].
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "devices.h"
#include "diag.h"
#include "infer.h"
#include "ir.h"
#include "parse.h"
#include "print.h"

/* ---- fixture ----------------------------------------------------------- */

static DeviceTable devices;
static DiagList diags;
static SourceFile *src;
static IrModule *mod;

static int setup(void **state)
{
	(void)state;
	devices_init_default(&devices);
	diag_init(&diags);
	src = NULL;
	mod = NULL;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ir_module_free(mod);
	source_release(src);
	diag_free(&diags);
	devices_free(&devices);
	return 0;
}

static char *format_diags(void)
{
	StrBuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; i < diags.count; i++)
		diag_format(&sb, &diags.items[i]);
	return strbuf_detach(&sb);
}

/* Parses `def @main(params) {\n  body\n}` (the body on line 3, column 3)
 * and infers it; returns whether inference succeeded. Parse errors fail
 * the test. */
static bool infer_main(const char *params, const char *body)
{
	StrBuf sb;
	bool ok;
	ir_module_free(mod);
	source_release(src);
	diag_clear(&diags);
	strbuf_init(&sb);
	strbuf_printf(&sb, "#[version = \"0.0.5\"]\ndef @main(%s) {\n  %s\n}\n", params, body);
	src = source_from_string("t.relay", sb.data, sb.len);
	strbuf_free(&sb);
	mod = parse_module(src, &devices, &diags);
	if (!mod || diags.errors) {
		char *s = format_diags();
		print_error("unexpected parse diagnostics:\n%s", s);
		free(s);
		fail();
	}
	ok = infer_module(mod, &diags);
	return ok;
}

/* The body infers to the type `want`. */
static void check_type(const char *params, const char *body, const char *want)
{
	int32_t g;
	StrBuf sb;
	if (!infer_main(params, body)) {
		char *s = format_diags();
		print_error("unexpected diagnostics for %s:\n%s", body, s);
		free(s);
		fail();
	}
	g = ir_find_global(mod, "main");
	assert_true(g >= 0);
	strbuf_init(&sb);
	type_print(&sb, mod->globals[g].fn->u.fn.body->type);
	if (strcmp(sb.data, want) != 0)
		print_error("%s: got %s, want %s\n", body, sb.data, want);
	assert_string_equal(sb.data, want);
	strbuf_free(&sb);
}

/* The body fails with exactly one error, `want`, at line 3 column `col`. */
static void check_error_at(const char *params, const char *body, int col, const char *want)
{
	char *got, expected[512];
	assert_false(infer_main(params, body));
	got = format_diags();
	snprintf(expected, sizeof expected, "t.relay:3:%d: error: %s\n", col, want);
	if (diags.count != 1 || strncmp(got, expected, strlen(expected)) != 0)
		print_error("%s:\ngot:  %swant: %s", body, got, expected);
	assert_int_equal(diags.count, 1);
	assert_true(strncmp(got, expected, strlen(expected)) == 0);
	free(got);
}

#define check_error(params, body, want) check_error_at(params, body, 3, want)

/* The body does not parse: the first diagnostic is `want` at line 3,
 * column col. */
static void check_parse_error(const char *params, const char *body, int col, const char *want)
{
	StrBuf sb;
	char *got, expected[512];
	ir_module_free(mod);
	source_release(src);
	diag_clear(&diags);
	strbuf_init(&sb);
	strbuf_printf(&sb, "#[version = \"0.0.5\"]\ndef @main(%s) {\n  %s\n}\n", params, body);
	src = source_from_string("t.relay", sb.data, sb.len);
	strbuf_free(&sb);
	mod = parse_module(src, &devices, &diags);
	assert_null(mod);
	got = format_diags();
	snprintf(expected, sizeof expected, "t.relay:3:%d: error: %s\n", col, want);
	if (strncmp(got, expected, strlen(expected)) != 0)
		print_error("%s:\ngot:  %swant: %s", body, got, expected);
	assert_true(strncmp(got, expected, strlen(expected)) == 0);
	free(got);
}

#define F234 "%a: Tensor[(2, 3, 4), float32]"

/* ---- scans -------------------------------------------------------------- */

static void test_cumsum_cumprod(void **state)
{
	static const char *const ops[] = {"cumsum", "cumprod"};
	char body[96], want[160];
	(void)state;
	for (size_t i = 0; i < DP_COUNT(ops); i++) {
		/* no axis: over the data flattened */
		snprintf(body, sizeof body, "%s(%%a)", ops[i]);
		check_type(F234, body, "Tensor[(24), float32]");
		check_type("%a: Tensor[(2, ?, 4), int32]", body, "Tensor[(?), int32]");
		check_type("%a: float32", body, "Tensor[(1), float32]");
		snprintf(body, sizeof body, "%s(%%a, axis=None, dtype=None)", ops[i]);
		check_type(F234, body, "Tensor[(24), float32]");
		/* an axis keeps the shape */
		snprintf(body, sizeof body, "%s(%%a, axis=1)", ops[i]);
		check_type(F234, body, "Tensor[(2, 3, 4), float32]");
		snprintf(body, sizeof body, "%s(%%a, axis=-1, dtype=\"int64\", exclusive=True)",
			 ops[i]);
		check_type(F234, body, "Tensor[(2, 3, 4), int64]");
		snprintf(body, sizeof body, "%s(%%a, dtype=\"float64\")", ops[i]);
		check_type("%a: Tensor[(5, 2), int32]", body, "Tensor[(10), float64]");
		snprintf(body, sizeof body, "%s(%%a, axis=3)", ops[i]);
		snprintf(want, sizeof want,
			 "'%s' axis 3 is out of range for Tensor[(2, 3, 4), float32]", ops[i]);
		check_error(F234, body, want);
		snprintf(body, sizeof body, "%s(%%a, dtype=\"int7\")", ops[i]);
		snprintf(want, sizeof want, "'%s' has unknown dtype \"int7\"", ops[i]);
		check_error(F234, body, want);
		snprintf(body, sizeof body, "%s(%%a)", ops[i]);
		snprintf(want, sizeof want,
			 "'%s' expects a tensor for argument 1, got (Tensor[(2), float32], "
			 "Tensor[(2), float32])",
			 ops[i]);
		check_error("%a: (Tensor[(2), float32], Tensor[(2), float32])", body, want);
	}
}

/* ---- identities ---------------------------------------------------------- */

static void test_identities(void **state)
{
	static const char *const ops[] = {"debug",
					  "annotation.stop_fusion",
					  "annotation.checkpoint",
					  "annotation.bitpack_start",
					  "annotation.bitpack_end",
					  "annotation.cast_hint",
					  "annotation.compiler_begin",
					  "annotation.compiler_end"};
	char body[96];
	(void)state;
	for (size_t i = 0; i < DP_COUNT(ops); i++) {
		snprintf(body, sizeof body, "%s(%%a)", ops[i]);
		check_type(F234, body, "Tensor[(2, 3, 4), float32]");
		check_type("%a: Tensor[(?), int64]", body, "Tensor[(?), int64]");
		/* IdentityRel takes any type, a tuple too */
		check_type("%a: (Tensor[(2), float32], bool)", body,
			   "(Tensor[(2), float32], Tensor[(), bool])");
	}
	check_type(F234, "annotation.cast_hint(%a, dtype=\"float16\")",
		   "Tensor[(2, 3, 4), float32]");
	check_type(F234, "annotation.compiler_begin(%a, compiler=\"ccompiler\")",
		   "Tensor[(2, 3, 4), float32]");
	check_type(F234, "annotation.compiler_end(%a, compiler=\"ccompiler\")",
		   "Tensor[(2, 3, 4), float32]");
	check_error(F234, "annotation.cast_hint(%a, dtype=\"int3\")",
		    "'annotation.cast_hint' has unknown dtype \"int3\"");
	check_parse_error(F234, "annotation.checkpoint(%a, %a)", 3,
			  "operator 'annotation.checkpoint' takes 1 argument, got 2");
}

/* ---- vm.* and memory.* --------------------------------------------------- */

static void test_vm_shape_of(void **state)
{
	(void)state;
	check_type(F234, "vm.shape_of(%a, dtype=\"int64\")", "Tensor[(3), int64]");
	check_type(F234, "vm.shape_of(%a)", "Tensor[(3), int32]");
	check_type("%a: Tensor[(?, ?), float16]", "vm.shape_of(%a, dtype=\"int64\")",
		   "Tensor[(2), int64]");
	check_type("%a: int32", "vm.shape_of(%a, dtype=\"int64\")", "Tensor[(0), int64]");
	check_error("%a: (Tensor[(2), float32],)", "vm.shape_of(%a)",
		    "'vm.shape_of' expects a tensor for argument 1, got (Tensor[(2), float32],)");
}

static void test_vm_reshape_tensor(void **state)
{
	(void)state;
	check_type(F234 ", %s: Tensor[(2), int64]", "vm.reshape_tensor(%a, %s, newshape=[6, 4])",
		   "Tensor[(6, 4), float32]");
	check_type(F234 ", %s: Tensor[(1), int64]", "vm.reshape_tensor(%a, %s, newshape=[24])",
		   "Tensor[(24), float32]");
	check_type(F234 ", %s: Tensor[(3), int64]",
		   "vm.reshape_tensor(%a, %s, newshape=[-1, 2, 2])", "Tensor[(?, 2, 2), float32]");
	check_error(F234 ", %s: Tensor[(2), int64]", "vm.reshape_tensor(%a, %s)",
		    "'vm.reshape_tensor' needs newshape");
	check_error(F234 ", %s: Tensor[(2), int64]", "vm.reshape_tensor(%a, %s, newshape=[-2, 4])",
		    "'vm.reshape_tensor' newshape=[-2, 4] has a negative size");
}

static void test_vm_invoke_tvm_op(void **state)
{
	(void)state;
	check_type("%x: Tensor[(3), float32], %y: Tensor[(3), float32]",
		   "vm.invoke_tvm_op(fn (%p: Tensor[(3), float32]) -> Tensor[(3), float32] "
		   "{ negative(%p) }, (%x,), (%y,))",
		   "()");
	check_type("%x: Tensor[(3), float32], %y: Tensor[(3), float32], %z: Tensor[(3), int32]",
		   "vm.invoke_tvm_op(fn (%p: Tensor[(3), float32], %q: Tensor[(3), int32]) "
		   "{ (%p, %q) }, (%x, %z), (%y, %z))",
		   "()");
	check_error("%x: Tensor[(3), float32], %y: Tensor[(3), float32]",
		    "vm.invoke_tvm_op(fn (%p: Tensor[(3), float32]) { negative(%p) }, (%y,), %x)",
		    "'vm.invoke_tvm_op' expects a tuple for argument 3, got Tensor[(3), float32]");
	check_error("%x: Tensor[(3), float32], %y: Tensor[(3), float32]",
		    "vm.invoke_tvm_op(%x, (%x,), (%y,))",
		    "'vm.invoke_tvm_op' expects a function for argument 1, got "
		    "Tensor[(3), float32]");
	check_error(
		"%x: Tensor[(3), float32], %y: Tensor[(4), float32]",
		"vm.invoke_tvm_op(fn (%p: Tensor[(3), float32]) { negative(%p) }, (%x,), (%y,))",
		"'vm.invoke_tvm_op' outputs (Tensor[(4), float32],) do not match the results "
		"(Tensor[(3), float32],)");
	check_error(
		"%x: Tensor[(3), int32], %y: Tensor[(3), float32]",
		"vm.invoke_tvm_op(fn (%p: Tensor[(3), float32]) { negative(%p) }, (%x,), (%y,))",
		"'vm.invoke_tvm_op' inputs (Tensor[(3), int32],) do not match the parameters "
		"(Tensor[(3), float32],)");
}

static void test_memory_kill(void **state)
{
	(void)state;
	check_type(F234, "memory.kill(%a)", "()");
	check_type("%a: (Tensor[(2), float32],)", "memory.kill(%a)", "()");
}

/* ---- round trip ------------------------------------------------------------ */

static void test_round_trip(void **state)
{
	static const char text[] =
		"#[version = \"0.0.5\"]\n"
		"def @main(%a: Tensor[(2, 3), float32], %s: Tensor[(1), int64]) {\n"
		"  %0 = cumsum(%a, axis=1, dtype=\"float64\", exclusive=True);\n"
		"  %1 = cumprod(%a, axis=0, dtype=\"float32\", exclusive=True);\n"
		"  %2 = debug(%1);\n"
		"  %3 = annotation.stop_fusion(%2);\n"
		"  %4 = annotation.checkpoint(%3);\n"
		"  %5 = annotation.cast_hint(%4, dtype=\"float16\");\n"
		"  %6 = annotation.bitpack_start(%5);\n"
		"  %7 = annotation.bitpack_end(%6);\n"
		"  %8 = annotation.compiler_begin(%7, compiler=\"ccompiler\");\n"
		"  %9 = annotation.compiler_end(%8, compiler=\"ccompiler\");\n"
		"  %10 = vm.shape_of(%9, dtype=\"int64\");\n"
		"  %11 = vm.reshape_tensor(%9, %s, newshape=[6]);\n"
		"  %12 = fn (%p: Tensor[(6), float32]) {\n"
		"    negative(%p)\n"
		"  };\n"
		"  %13 = (%11,);\n"
		"  %14 = vm.invoke_tvm_op(%12, %13, %13);\n"
		"  %15 = memory.kill(%10);\n"
		"  (%0, %14, %15)\n"
		"}\n";
	StrBuf sb;
	src = source_from_string("t.relay", text, strlen(text));
	mod = parse_module(src, &devices, &diags);
	assert_non_null(mod);
	assert_int_equal(diags.count, 0);
	assert_true(infer_module(mod, &diags));
	strbuf_init(&sb);
	print_module(&sb, mod, NULL);
	if (strcmp(sb.data, text) != 0)
		print_error("printed:\n%s", sb.data);
	assert_string_equal(sb.data, text);
	strbuf_free(&sb);
}

/* ---- runner ------------------------------------------------------------ */

#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(test_cumsum_cumprod),    TEST(test_identities),       TEST(test_vm_shape_of),
		TEST(test_vm_reshape_tensor), TEST(test_vm_invoke_tvm_op), TEST(test_memory_kill),
		TEST(test_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
