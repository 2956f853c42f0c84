/*
 * test_infer_ref.c - the type relations of the ref family of ops.def
 * (core/plan/infer/infer_ref.c): ref, ref_read, ref_write.
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

#define F234 "%a: Tensor[(2, 3, 4), float32]"

/* ---- references ------------------------------------------------------------ */

static void test_references(void **state)
{
	(void)state;
	check_type(F234, "ref(%a)", "ref(Tensor[(2, 3, 4), float32])");
	/* a cell holds any value: a tuple, a closure */
	check_type("%a: (Tensor[(2), float32], bool)", "ref(%a)",
		   "ref((Tensor[(2), float32], bool))");
	check_type(F234, "ref(fn (%x: Tensor[(2), float32]) { %x })",
		   "ref(fn (Tensor[(2), float32]) -> Tensor[(2), float32])");
	check_type("%r: ref(Tensor[(2), int64])", "ref_read(%r)", "Tensor[(2), int64]");
	check_type("%r: ref(ref(Tensor[(2), int64]))", "ref_read(%r)", "ref(Tensor[(2), int64])");
	check_type("%r: ref(Tensor[(2), int64]), %v: Tensor[(2), int64]", "ref_write(%r, %v)",
		   "()");
	check_type(F234, "ref_read(ref(%a))", "Tensor[(2, 3, 4), float32]");
	check_error(F234, "ref_read(%a)",
		    "'ref_read' expects a reference, got Tensor[(2, 3, 4), float32]");
	check_error(F234, "ref_write(%a, %a)",
		    "'ref_write' expects a reference, got Tensor[(2, 3, 4), float32]");
	check_error("%r: ref(Tensor[(2), int64]), %v: Tensor[(3), int64]", "ref_write(%r, %v)",
		    "'ref_write' cannot store Tensor[(3), int64] in ref(Tensor[(2), int64])");
	check_parse_error(F234, "ref(%a, %a)", 3, "operator 'ref' takes 1 argument, got 2");
	check_parse_error(F234, "ref_write(%a)", 3,
			  "operator 'ref_write' takes 2 arguments, got 1");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_references),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
