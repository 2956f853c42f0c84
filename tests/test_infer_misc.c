/*
 * test_infer_misc.c - the type relations of the misc family of ops.def
 * (core/plan/infer/infer_misc.c): debug, annotation.stop_fusion,
 * annotation.checkpoint, annotation.cast_hint, annotation.bitpack_start,
 * annotation.bitpack_end, annotation.compiler_begin,
 * annotation.compiler_end, vm.shape_of, vm.reshape_tensor,
 * vm.invoke_tvm_op, memory.kill, call_lowered, memory.alloc_storage,
 * memory.alloc_tensor.
 *
 * Each case infers a module whose @main calls the operators and compares
 * the result type, printed, with one written by hand from TVM 0.14's
 * relation (src/relay/op), or the error, its message and position, with the
 * one devplan must report. The cases are written in the four forms of
 * infer_fixture.h (Relay text after a prelude, plain text, one call, or
 * built with ir.h). tests/op-families checks that the operators these tests
 * are about are of this family.
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

#include "infer_fixture.h"

/* The type definitions memory.alloc_storage and memory.alloc_tensor need
 * (Storage) and one more (List), as test_infer_adt.c's modules start:
 * @main's body is on the line after them. */
#define ADT_PRELUDE                                 \
	"#[version = \"0.0.5\"]\n"                  \
	"type List[A] {\n"                          \
	"  Cons(A, List[A]),\n"                     \
	"  Nil,\n"                                  \
	"}\n"                                       \
	"type Pair[A, B] {\n"                       \
	"  MkPair(A, B),\n"                         \
	"}\n"                                       \
	"def @first[A, B](%p: Pair[A, B]) -> A {\n" \
	"  match (%p) { MkPair(%a, _) => %a }\n"    \
	"}\n"                                       \
	"type Storage {}\n"
#define ADT_PRELUDE_LINES 13
#define F2 "Tensor[(2), float32]"

#define F234 "%a: Tensor[(2, 3, 4), float32]"

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
			   "(Tensor[(2), float32], bool)");
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

/* ---- call_lowered ---------------------------------------------------------- */

/* @main's result type, or the diagnostics of parsing or inferring, for
 * `def @f F_SIG` followed by a @main of params and body (on line 7). */
static char *infer_with_callee(const char *f_sig, const char *params, const char *body)
{
	StrBuf sb;
	char *out;
	ir_module_free(mod);
	source_release(src);
	diag_clear(&diags);
	strbuf_init(&sb);
	strbuf_printf(&sb, "#[version = \"0.0.5\"]\ndef @f%s\n\ndef @main(%s) {\n  %s\n}\n", f_sig,
		      params, body);
	src = source_from_string("t.relay", sb.data, sb.len);
	strbuf_free(&sb);
	mod = parse_module(src, &devices, &diags);
	if (!mod || !infer_module(mod, &diags))
		return format_diags();
	strbuf_init(&sb);
	type_print(&sb, mod->globals[ir_find_global(mod, "main")].fn->u.fn.body->type);
	out = strbuf_detach(&sb);
	return out;
}

static void check_lowered(const char *params, const char *body, const char *want)
{
	static const char f_sig[] = "(%x: Tensor[(2), float32], %n: int64) -> "
				    "(Tensor[(2), float32], bool) {\n  (%x, equal(%n, %n))\n}";
	char *got = infer_with_callee(f_sig, params, body);
	if (strcmp(got, want) != 0)
		print_error("%s:\ngot:  %s\nwant: %s\n", body, got, want);
	assert_string_equal(got, want);
	free(got);
}

static void test_call_lowered(void **state)
{
	(void)state;
	check_lowered("%a: Tensor[(2), float32], %k: int64", "call_lowered(@f, (%a, %k))",
		      "(Tensor[(2), float32], bool)");
	check_lowered("%a: Tensor[(2), float32], %k: int64",
		      "%0 = (%a, %k);\n  %1 = call_lowered(@f, %0);\n  %1.1", "bool");
	/* CallLoweredAttrs' metadata map, as TVM prints it, is kept as written */
	check_lowered("%a: Tensor[(2), float32], %k: int64",
		      "call_lowered(@f, (%a, %k), metadata=meta[Map][0])",
		      "(Tensor[(2), float32], bool)");
	check_lowered(
		"%a: Tensor[(2), float32], %k: int64", "call_lowered(@f, (%a, %k), metadata=\"x\")",
		"t.relay:7:39: error: attribute 'metadata' of 'call_lowered' expects a metadata "
		"object (meta[KIND][i]), found a string\n"
		"    call_lowered(@f, (%a, %k), metadata=\"x\")\n"
		"                                        ^\n");
	check_lowered("%a: Tensor[(2), float32]", "call_lowered(@f, (%a,))",
		      "t.relay:7:3: error: 'call_lowered' passes 1 argument to @f, which takes "
		      "2\n"
		      "    call_lowered(@f, (%a,))\n"
		      "    ^\n");
	check_lowered("%a: Tensor[(2), float32], %k: int32", "call_lowered(@f, (%a, %k))",
		      "t.relay:7:3: error: 'call_lowered' passes int32 as argument 2 "
		      "of @f, which expects int64\n"
		      "    call_lowered(@f, (%a, %k))\n"
		      "    ^\n");
	check_lowered("%t: (Tensor[(2), float32], int64)", "call_lowered(@f, %t)",
		      "t.relay:7:3: error: 'call_lowered' expects a tuple of @f's arguments "
		      "second, got a variable of (Tensor[(2), float32], int64)\n"
		      "    call_lowered(@f, %t)\n"
		      "    ^\n");
	check_lowered("%a: Tensor[(2), float32], %k: int64",
		      "call_lowered(fn (%x: int64) { %x }, (%k,))",
		      "t.relay:7:3: error: 'call_lowered' expects a global function first, got fn "
		      "(int64) -> int64\n"
		      "    call_lowered(fn (%x: int64) { %x }, (%k,))\n"
		      "    ^\n");
	check_lowered("%a: Tensor[(2), float32], %k: int64", "call_lowered(@f)",
		      "t.relay:7:3: error: operator 'call_lowered' takes 2 arguments, got 1\n"
		      "    call_lowered(@f)\n"
		      "    ^\n");
}

/* Their storage is the module's Storage ADT (tests/test_infer_adt.c types
 * them); without the definition, a clear error. */
static void test_memory_alloc_needs_storage(void **state)
{
	(void)state;
	check_error("%n: int64, %s: Tensor[(2), int64]", "memory.alloc_storage(%n, %s, %n)",
		    "'memory.alloc_storage' needs the module's 'type Storage' definition (TVM's "
		    "prelude has it)");
}

#define I64 "int64"
#define ALLOC_PARAMS "%n: " I64 ", %a: " I64 ", %s: Tensor[(2), int64]"

static void test_memory_alloc(void **state)
{
	(void)state;
	fixture_prelude = ADT_PRELUDE;
	fixture_body_line = ADT_PRELUDE_LINES + 1;
	check_type(ALLOC_PARAMS, "memory.alloc_storage(%n, %s, %a, dtype=\"float32\")",
		   "Storage[]");
	check_type(ALLOC_PARAMS ", %st: Storage[]",
		   "memory.alloc_tensor(%st, 0i64, %s, dtype=\"float16\", const_shape=[4, 5])",
		   "Tensor[(4, 5), float16]");
	check_type(ALLOC_PARAMS ", %st: Storage",
		   "memory.alloc_tensor(%st, 0i64, %s, assert_shape=[-1, 5])",
		   "Tensor[(?, 5), float32]");
	check_error_at(ALLOC_PARAMS, "memory.alloc_storage(%s, %s, %a)", 3,
		       "'memory.alloc_storage' expects its size to be int64, got "
		       "Tensor[(2), int64]");
	check_error_at(ALLOC_PARAMS ", %st: Storage[]", "memory.alloc_tensor(%st, 0i64, %s)", 3,
		       "'memory.alloc_tensor' needs const_shape or assert_shape");
	check_error_at(ALLOC_PARAMS ", %st: Storage[]",
		       "memory.alloc_tensor(%st, 0i64, %s, const_shape=[4])", 3,
		       "'memory.alloc_tensor' const_shape=[4] has 1 sizes, but the shape vector "
		       "Tensor[(2), int64] has 2");
	check_error_at(ALLOC_PARAMS ", %l: List[" F2 "]",
		       "memory.alloc_tensor(%l, 0i64, %s, const_shape=[4, 5])", 3,
		       "'memory.alloc_tensor' expects Storage[] for argument 1, got List[" F2 "]");
}

/* A metadata section whose constant 0 is the b64 NDArray b64. */
#define CONSTANT_SECTION(b64)                                                      \
	"\n#[metadata]\n{\"root\": 1, \"nodes\": [{\"type_key\": \"\"}, "          \
	"{\"type_key\": \"Map\", \"keys\": [\"relay.Constant\"], \"data\": [2]}, " \
	"{\"type_key\": \"Array\", \"data\": [3]}, "                               \
	"{\"type_key\": \"relay.Constant\", \"attrs\": {\"data\": \"0\"}}], "      \
	"\"b64ndarrays\": [\"" b64 "\"], \"attrs\": {\"tvm_version\": \"0.14.0\"}}\n"

/* const_shape as TVM prints it: the Constant meta[relay.Constant][i], an
 * int64 (or int32) vector. */
static void test_memory_alloc_const_shape_constant(void **state)
{
	(void)state;
	fixture_prelude = ADT_PRELUDE;
	fixture_body_line = ADT_PRELUDE_LINES + 1;
	/* int64 [4, 5] */
	fixture_tail = CONSTANT_SECTION(
		"P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAQAAAABAAQACAAAAAAAAABAAAAAAAAAABAAA"
		"AAAAAAAFAAAAAAAAAA==");
	check_type(ALLOC_PARAMS ", %st: Storage[]",
		   "memory.alloc_tensor(%st, 0i64, %s, dtype=\"float16\", "
		   "const_shape=meta[relay.Constant][0])",
		   "Tensor[(4, 5), float16]");
	/* float32 [4, 5] */
	fixture_tail = CONSTANT_SECTION(
		"P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAQAAAAIgAQACAAAAAAAAAAgAAAAAAAAAAACA"
		"QAAAoEA=");
	check_error_at(
		ALLOC_PARAMS ", %st: Storage[]",
		"memory.alloc_tensor(%st, 0i64, %s, const_shape=meta[relay.Constant][0])", 3,
		"'memory.alloc_tensor' const_shape must be a constant vector of int64 or int32 "
		"sizes");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_identities),
		TEST(test_vm_shape_of),
		TEST(test_vm_reshape_tensor),
		TEST(test_vm_invoke_tvm_op),
		TEST(test_memory_kill),
		TEST(test_call_lowered),
		TEST(test_memory_alloc_needs_storage),
		TEST(test_memory_alloc),
		TEST(test_memory_alloc_const_shape_constant),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
