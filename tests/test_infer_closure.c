/*
 * test_infer_closure.c - type inference of closures without a written
 * signature (core/plan/infer.c, infer_seed_closure): a let-bound or
 * in-place `fn` whose parameters have no annotation takes their types from
 * its first call, and its result from its body, a recursive call (a loop
 * as TVM's frontends build it) taking the type of the branch that ends the
 * recursion, or, when no call names it, from where it flows: an `if` that
 * selects it, a closure it is passed to, a typed function's parameter, a
 * let's annotation; and polymorphic closures (`fn [A](%a: A) -> A`), instantiated
 * at each call. Expected types are TVM's: its inference gives each missing
 * annotation a fresh type variable and solves it by unification.
 *
 * Every module starts with a list type (PRELUDE, 5 lines), so @main's
 * body starts on line 7.
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
#include "infer.h"
#include "ir.h"
#include "parse.h"

#define PRELUDE                    \
	"#[version = \"0.0.5\"]\n" \
	"type List[A] {\n"         \
	"  Cons(A, List[A]),\n"    \
	"  Nil,\n"                 \
	"}\n"
#define INFER_FIXTURE_PRELUDE PRELUDE
#define INFER_FIXTURE_BODY_LINE 7
#define F2 "Tensor[(2), float32]"
#define I3 "Tensor[(3), int32]"
#define I0 "int32"

#include "infer_fixture.h"

#define LOOP                                                                     \
	"let %loop = fn (%i, %s) { if (less(%i, 10)) { %loop(add(%i, 1), %s) } " \
	"else { (%i, %s) } };\n  "

static void test_untyped_closure(void **state)
{
	(void)state;
	/* the call gives the parameter its type */
	check_type("%x: " F2, "let %f = fn (%a) { add(%a, %a) };\n  %f(%x)", F2);
	check_type("%x: " F2 ", %i: " I3,
		   "let %f = fn (%a, %b: " I3 ") { (%b, %a) };\n  %f(%x, %i)", "(" I3 ", " F2 ")");
	/* called in place */
	check_type("%x: " F2, "%0 = fn (%a) { negative(%a) };\n  %0(%x)", F2);
	/* a second call is checked against what the first gave */
	check_type("%x: " F2, "let %f = fn (%a) { %a };\n  %0 = %f(%x);\n  %f(%0)", F2);
	/* a closure inside a closure, each seeded by its own call */
	check_type("%x: " F2,
		   "let %f = fn (%a) { let %g = fn (%b) { multiply(%b, %a) }; %g(%a) };\n  %f(%x)",
		   F2);
}

static void test_untyped_recursive_closure(void **state)
{
	(void)state;
	check_type("%x: " F2, LOOP "%loop(0, %x)", "(" I0 ", " F2 ")");
	/* the recursion in the else branch, the result projected */
	check_type("%x: " F2,
		   "let %loop = fn (%i: int32, %s) { if (greater_equal(%i, 10)) { (%i, %s) } else "
		   "{ %r = %loop(add(%i, 1), negative(%s)); %r } };\n  %0 = %loop(0, %x);\n  %0.1",
		   F2);
	/* typed parameters but no result type: the result found the same way */
	check_type("%x: " F2,
		   "let %loop = fn (%i: int32, %s: " F2 ") { if (less(%i, 10)) { %loop(add(%i, "
		   "1), %s) } else { (%i, %s) } };\n  %loop(0, %x)",
		   "(" I0 ", " F2 ")");
	/* a recursion over a list: the match clause that ends it says what it
	 * returns */
	check_type("%x: " F2,
		   "let %len = fn (%l) { match (%l) { Cons(_, %t) => add(%len(%t), 1), Nil => 0 } "
		   "};\n  %len(Cons(%x, Cons(%x, Nil)))",
		   I0);
}

static void test_untyped_closure_errors(void **state)
{
	(void)state;
	/* no call says what %a is */
	check_error_at("%x: " F2, "let %f = fn (%a) { %a };\n  %x", 16,
		       "cannot infer the type of parameter '%a': no call of its function gives it "
		       "one; annotate it");
	/* nothing but the recursion says what %f returns */
	check_error_at("%x: " F2, "let %f = fn (%a) { %f(%a) };\n  %f(%x)", 7,
		       "'%f' is used in its own definition and needs a type annotation");
	/* a closure returning itself has no finite type */
	check_error_at("%x: " F2, "let %f = fn (%a) { %f };\n  %f(%x)", 7,
		       "'%f' is used in its own definition and needs a type annotation");
	check_error_at("%x: " F2, "let %f = fn (%a, %b) { %a }; %f(%x)", 32,
		       "'%f' expects 2 arguments, got 1");
	/* the body's errors, each reported once: one the call's types cause,
	 * one the walk met before the call */
	check_error_at("%x: " F2 ", %i: " I3, "let %f = fn (%a) { add(%a, %i) };\n  %f(%x)", 22,
		       "operands of 'add' have different dtypes: " F2 " and " I3);
	check_error_at("%x: " F2 ", %i: " I3,
		       "let %f = fn (%a) { let %u = add(%x, %i); %a };\n  %f(%x)", 31,
		       "operands of 'add' have different dtypes: " F2 " and " I3);
	/* an annotated parameter is checked against the call */
	check_error_at("%x: " F2 ", %i: " I3,
		       "let %f = fn (%a: " I3 ", %b) { %b }; %f(negative(%x), %x)", 55,
		       "argument 1 of '%f' has type " F2 ", expected " I3);
}

/* The body infers, and the value named `name` has the type `want`. */
static void check_value_type(const char *params, const char *body, const char *name,
			     const char *want)
{
	const Expr *e;
	StrBuf sb;
	if (!infer_main(params, body)) {
		char *s = format_diags();
		print_error("unexpected diagnostics for %s:\n%s", body, s);
		free(s);
		fail();
	}
	e = ir_find_value(mod, name);
	assert_non_null(e);
	strbuf_init(&sb);
	type_print(&sb, e->type);
	if (strcmp(sb.data, want) != 0)
		print_error("%s: %%%s is %s, want %s\n", body, name, sb.data, want);
	assert_string_equal(sb.data, want);
	strbuf_free(&sb);
}

#define FN_F2 "fn (" F2 ") -> " F2

/* Closures typed only by where they flow: TVM gives the parameters type
 * variables that a later use binds, through an `if` that selects the
 * closure, a call that passes it on, or the call of a closure that
 * returns it (test_pass_plan_devices.py's test_conditional and
 * test_higher_order). */
static void test_untyped_closure_through_uses(void **state)
{
	(void)state;
	/* test_conditional: the closures an `if` selects, typed by the call
	 * of the if's value */
#define CONDITIONAL                                    \
	"let %f = fn (%a) { add(%a, %x) };\n  "        \
	"let %g = fn (%a1) { subtract(%a1, %x) };\n  " \
	"let %h = if (%c) { %f } else { %g };\n  %h(%x)"
	check_type("%c: bool, %x: " F2, CONDITIONAL, F2);
	check_value_type("%c: bool, %x: " F2, CONDITIONAL, "a", F2);
	check_value_type("%c: bool, %x: " F2, CONDITIONAL, "a1", F2);
	check_value_type("%c: bool, %x: " F2, CONDITIONAL, "h", FN_F2);
	/* test_higher_order: %h passed to %f, which returns a closure that
	 * calls it; only the call of that closure says what %a is, and so
	 * what %g and %h take */
#define HIGHER_ORDER                                                                  \
	"let %f = fn (%g) { fn (%a) { %0 = on_device(%a, virtual_device=\"cpu:0\"); " \
	"%1 = %g(%0); add(%1, %x) } };\n  "                                           \
	"let %h = fn (%b) { negative(%b) };\n  "                                      \
	"%2 = %f(%h);\n  %3 = %2(%y);\n  subtract(%x, %3)"
	check_type("%x: " F2 ", %y: " F2, HIGHER_ORDER, F2);
	check_value_type("%x: " F2 ", %y: " F2, HIGHER_ORDER, "g", FN_F2);
	check_value_type("%x: " F2 ", %y: " F2, HIGHER_ORDER, "b", F2);
	check_value_type("%x: " F2 ", %y: " F2, HIGHER_ORDER, "f", "fn (" FN_F2 ") -> " FN_F2);
	/* %h's binding, behind an on_device, is typed after %f's walk
	 * needed it: a third walk types %g */
	check_type("%x: " F2,
		   "let %f = fn (%g) { fn (%a) { %g(%a) } };\n  "
		   "let %h = on_device(fn (%b) { negative(%b) }, virtual_device=\"cuda:0\");\n  "
		   "%2 = %f(%h);\n  %2(%x)",
		   F2);
	/* the same with the if's value stored before the call, and the
	 * closures' order swapped */
	check_value_type("%c: bool, %x: " F2,
			 "let %g = fn (%q) { negative(%q) };\n  let %f = fn (%p) { %p };\n  "
			 "let %h = if (%c) { %g } else { %f };\n  let %r = %h;\n  %r(%x)",
			 "p", F2);
	/* never called: the other branch's type says */
	check_value_type("%c: bool, %x: " F2,
			 "let %f = fn (%a: " F2
			 ") { negative(%a) };\n  let %g = fn (%b) { %b };\n  "
			 "if (%c) { %g } else { %f }",
			 "b", F2);
	/* the parameter type of the function it is passed to */
	check_type("%x: " F2,
		   "let %apply = fn (%k: " FN_F2 ", %v: " F2 ") { %k(%v) };\n  "
		   "%apply(fn (%z) { negative(%z) }, %x)",
		   F2);
	/* a let's annotation */
	check_value_type("%x: " F2, "let %f: " FN_F2 " = fn (%a) { %a };\n  %f(%x)", "a", F2);
	/* a field of a tuple, called */
	check_type("%x: " F2, "let %t = (fn (%a) { negative(%a) }, %x);\n  %0 = %t.0;\n  %0(%x)",
		   F2);
#undef CONDITIONAL
#undef HIGHER_ORDER
}

static void test_untyped_closure_through_uses_errors(void **state)
{
	(void)state;
	/* a global's unannotated parameter, called: its one error, not a
	 * second one from the call */
	assert_false(infer_main("%x: " F2 ", %f", "%f(%x)"));
	assert_int_equal(diags.count, 1);
	assert_string_equal(diags.items[0].message, "parameter '%f' has no type annotation");
	/* selected by an if, but nothing uses the if's value */
	check_error_at("%c: bool, %x: " F2,
		       "let %f = fn (%a) { %a };\n  let %h = if (%c) { %f } else { %f };\n  %x", 16,
		       "cannot infer the type of parameter '%a': no call of its function gives it "
		       "one; annotate it");
	/* both branches seeded by the call, then found to differ */
	check_error_at("%c: bool, %x: " F2,
		       "let %f = fn (%a) { %a }; let %g = fn (%b) { (%b, %b) }; "
		       "let %h = if (%c) { %f } else { %g }; %h(%x)",
		       68,
		       "if branches have different types: " FN_F2 " and fn (" F2 ") -> (" F2 ", " F2
		       ")");
}

/* `fn [A](%a: A) -> A { ... }`: instantiated afresh at each call, as TVM
 * instantiates a FuncType's type parameters. */
static void test_polymorphic_closure(void **state)
{
	(void)state;
	check_type("", "fn [A](%a: A) -> A { %a }", "fn [A](A) -> A");
	check_type("%x: " F2 ", %i: " I3,
		   "let %id = fn [A](%a: A) -> A { %a };\n  (%id(%x), %id(%i))",
		   "(" F2 ", " I3 ")");
	check_type("%x: " F2 ", %i: " I3,
		   "%0 = fn [A, B](%p: A, %q: B) -> (B, A) { (%q, %p) };\n  %0(%x, %i)",
		   "(" I3 ", " F2 ")");
	check_type("%x: " F2,
		   "let %single = fn [A](%a: A) -> List[A] { Cons(%a, Nil) };\n  %single(%x)",
		   "List[" F2 "]");
	/* a polymorphic closure passed as a value keeps its type parameters */
	check_type("%x: " F2, "let %id = fn [A](%a: A) -> A { %a };\n  (%id, %x)",
		   "(fn [A](A) -> A, " F2 ")");
}

static void test_polymorphic_closure_errors(void **state)
{
	(void)state;
	check_error_at("%x: " F2 ", %i: " I3,
		       "let %f = fn [A](%a: A, %b: A) -> A { %a }; %f(%x, %i)", 46,
		       "argument 2 of '%f' has type " I3 ", expected " F2);
	check_error_at("%x: " F2, "fn [A](%a: A) -> A { %x }", 3,
		       "'fn@7:3' is declared to return A but its body has type " F2);
}

int main(void)
{
#define TEST(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_untyped_closure),
		TEST(test_untyped_recursive_closure),
		TEST(test_untyped_closure_errors),
		TEST(test_untyped_closure_through_uses),
		TEST(test_untyped_closure_through_uses_errors),
		TEST(test_polymorphic_closure),
		TEST(test_polymorphic_closure_errors),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
