/*
 * test_infer_adt.c - type inference of algebraic data types
 * (core/plan/infer/infer_adt.c): constructors solving their type
 * parameters, holes for the ones nothing binds, match typing its pattern
 * variables from the scrutinee and requiring one type of its clauses,
 * polymorphic globals instantiated at their calls, and the positioned
 * errors of each.
 *
 * Every module starts with the same type definitions (PRELUDE, 12 lines),
 * so @main's body starts on line 14. memory.alloc_storage and
 * memory.alloc_tensor, whose storage is an ADT, are the misc family's
 * (test_infer_misc.c).
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

#define PRELUDE                                     \
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
#define INFER_FIXTURE_PRELUDE PRELUDE
#define INFER_FIXTURE_BODY_LINE 14
#define F2 "Tensor[(2), float32]"
#define I3 "Tensor[(3), int32]"

#include "infer_fixture.h"

static void test_constructors(void **state)
{
	(void)state;
	check_type("%x: " F2, "Cons(%x, Nil)", "List[" F2 "]");
	check_type("%x: " F2 ", %i: " I3, "MkPair(%x, %i)", "Pair[" F2 ", " I3 "]");
	/* nothing says what a bare Nil holds: a hole, printed ? */
	check_type("", "Nil", "List[?]");
	/* unless TVM printed its type after it */
	check_type("", "Nil /* ty=List[" F2 "] */", "List[" F2 "]");
	check_type("%x: " F2, "MkPair(Nil /* ty=List[" I3 "] */, %x)",
		   "Pair[List[" I3 "], " F2 "]");
	/* the annotation says more than the value */
	check_type("", "let %l: List[" F2 "] = Nil;\n  %l", "List[" F2 "]");
	check_type("%x: " F2, "MkPair(Nil, Cons(%x, Nil))", "Pair[List[?], List[" F2 "]]");
	/* a list of lists: the inner hole meets the outer element type */
	check_type("%x: " F2, "Cons(Nil, Cons(Cons(%x, Nil), Nil))", "List[List[" F2 "]]");
}

/* A constructor used as a value has TVM's type for it, its polymorphic
 * function type, which each call instantiates, and which any instance
 * written for it accepts (an annotation, a parameter, a result). */
static void test_constructor_values(void **state)
{
	(void)state;
	check_type("", "Cons", "fn [A](A, List[A]) -> List[A]");
	check_type("%x: " F2, "let %c = Cons; %c(%x, Nil)", "List[" F2 "]");
	check_type("%x: " F2, "let %c: fn (" F2 ", List[" F2 "]) -> List[" F2 "] = Cons; %c",
		   "fn (" F2 ", List[" F2 "]) -> List[" F2 "]");
	check_error_at("%x: " F2, "let %c: fn (" F2 ", List[" F2 "]) -> " F2 " = Cons; %c", 7,
		       "'%c' is annotated fn (" F2 ", List[" F2 "]) -> " F2
		       " but its value has type fn [A](A, List[A]) -> List[A]");
}

static void test_constructor_errors(void **state)
{
	(void)state;
	check_error_at("%x: " F2 ", %i: " I3, "Cons(%x, Cons(%i, Nil))", 3,
		       "field 2 of constructor 'Cons' has type List[" I3 "], expected List[" F2
		       "]");
	check_error_at("%x: " F2, "Cons(%x, %x)", 3,
		       "field 2 of constructor 'Cons' has type " F2 ", expected List[" F2 "]");
}

static void test_match(void **state)
{
	(void)state;
	check_type("%l: List[" F2 "]", "match (%l) { Cons(%h, _) => %h, Nil => zeros(shape=[2]) }",
		   F2);
	/* nested constructor, tuple and typed-variable patterns */
	check_type("%l: List[(" F2 ", " I3 ")]",
		   "match? (%l) { Cons((%a, %b: " I3 "), Cons(_, %t)) => (%b, %t) }",
		   "(" I3 ", List[(" F2 ", " I3 ")])");
	/* a clause whose body is a hole takes the type of the others */
	check_type("%l: List[" F2 "]", "match (%l) { Cons(%h, %t) => %t, Nil => Nil }",
		   "List[" F2 "]");
	check_type("%l: List[" F2 "]", "match (%l) { Nil => Nil, Cons(%h, %t) => %t }",
		   "List[" F2 "]");
	/* a match in a clause: its variables are its own, the outer
	 * clause's still in scope */
	check_type("%l: List[" F2 "], %i: " I3 ", %x: " F2,
		   "match (%l) { Cons(%h, %t) => match (%t) { Cons(%h2, _) => (%h2, %i), "
		   "Nil => (%h, %i) }, Nil => (%x, %i) }",
		   "(" F2 ", " I3 ")");
	check_type("%x: " F2 ", %i: " I3, "@first(MkPair(%x, %i))", F2);
	check_type("%x: " F2, "@first(MkPair(Cons(%x, Nil), %x))", "List[" F2 "]");
}

static void test_match_errors(void **state)
{
	(void)state;
	/* a pattern variable is bound in its own clause only: elsewhere in its
	 * function, an error as in TVM's parser */
	check_parse_error("%l: List[" F2 "]", "match (%l) { Cons(%h, _) => %h, Nil => %h }", 42,
			  "'%h' is used outside the scope of its binding (a let's, a parameter's "
			  "or a pattern's variable is visible only in its body)");
	check_error_at("%l: List[" F2 "]", "match (%l) { Cons(%h, _) => %h, Nil => %l }", 35,
		       "match clauses have different types: " F2 " and List[" F2 "] (clause 2)");
	check_error_at("%x: " F2, "match (%x) { Cons(%h, _) => %h }", 16,
		       "constructor 'Cons' of type 'List' cannot match a value of type " F2);
	check_error_at("%l: List[" F2 "]", "match (%l) { MkPair(%a, _) => %a }", 16,
		       "constructor 'MkPair' of type 'Pair' cannot match a value of type List[" F2
		       "]");
	check_error_at("%l: List[" F2 "]", "match (%l) { Cons((%a, %b), _) => %a }", 21,
		       "a tuple pattern of 2 fields cannot match a value of type " F2);
	check_error_at("%l: List[" F2 "]", "match (%l) { Cons(%h: " I3 ", _) => %h }", 21,
		       "pattern variable '%h' is annotated " I3 " but matches a value of type " F2);
	check_error_at("%x: " F2 ", %i: " I3, "@first(%x)", 3,
		       "argument 1 of '@first' has type " F2 ", expected Pair[?, ?]");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_constructors),       TEST(test_constructor_values),
		TEST(test_constructor_errors), TEST(test_match),
		TEST(test_match_errors),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
