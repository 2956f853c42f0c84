/*
 * test_infer_closure.c - type inference of closures without a written
 * signature (core/plan/infer.c, infer_seed_closure): a let-bound or
 * in-place `fn` whose parameters have no annotation takes their types from
 * its first call, and its result from its body, a recursive call (a loop
 * as TVM's frontends build it) taking the type of the branch that ends the
 * recursion; and polymorphic closures (`fn [A](%a: A) -> A`), instantiated
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
		TEST(test_polymorphic_closure),
		TEST(test_polymorphic_closure_errors),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
