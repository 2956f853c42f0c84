/*
 * test_infer_transforms.c - unit tests of the type relations of the
 * transforms section of ops.def (core/plan/infer/infer_transform.c,
 * infer_index.c, infer_create.c, infer_scan.c, infer_arrange.c,
 * infer_dyn.c and infer_einsum.c):
 * take, shape_of, strided_slice, broadcasting, stacking, tiling, gathering,
 * scattering, sorting, creation, layouts, einsum and the dyn.* variants.
 *
 * Each test parses a one-call module `def @main(PARAMS) { CALL }`, infers
 * it and compares the body's type, printed in Relay syntax, with the type
 * written by hand from TVM's documented semantics; an error case compares
 * the exact message and its position (the call, line 2, column 3). A last
 * test prints a module that uses every operator with non-default
 * attributes and checks that it reads back to the same text [P1].
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
#include "print.h"

/* ---- fixture ----------------------------------------------------------- */

static DeviceTable devices;
static DiagList diags;
static SourceFile *src;
static IrModule *m;

static int setup(void **state)
{
	(void)state;
	devices_init_default(&devices);
	diag_init(&diags);
	src = NULL;
	m = NULL;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ir_module_free(m);
	diag_free(&diags);
	source_release(src);
	devices_free(&devices);
	return 0;
}

static void print_diags(void)
{
	StrBuf sb;
	strbuf_init(&sb);
	for (size_t i = 0; i < diags.count; i++)
		diag_format(&sb, &diags.items[i]);
	fprintf(stderr, "%s", sb.data ? sb.data : "");
	strbuf_free(&sb);
}

/* Parses `def @main(params) {\n  call\n}` (which must parse) and infers it;
 * returns whether inference succeeded. */
static bool infer_call(const char *params, const char *call)
{
	char text[2048];
	ir_module_free(m);
	source_release(src);
	diag_clear(&diags);
	snprintf(text, sizeof text, "def @main(%s) {\n  %s\n}\n", params, call);
	src = source_from_string("t.relay", text, strlen(text));
	m = parse_module(src, &devices, &diags);
	if (!m || diags.errors) {
		print_diags();
		fail_msg("does not parse: %s", text);
	}
	return infer_module(m, &diags);
}

static const char *body_type(void)
{
	static char buf[512];
	int32_t g = ir_find_global(m, "main");
	StrBuf sb;
	assert_true(g >= 0);
	strbuf_init(&sb);
	type_print(&sb, m->globals[g].fn->u.fn.body->type);
	snprintf(buf, sizeof buf, "%s", sb.data ? sb.data : "");
	strbuf_free(&sb);
	return buf;
}

/* The call types as `want`. */
static void expect_type(const char *params, const char *call, const char *want)
{
	if (!infer_call(params, call)) {
		print_diags();
		fail_msg("inference failed: %s", call);
	}
	if (strcmp(body_type(), want) != 0)
		fail_msg("%s: got %s, want %s", call, body_type(), want);
}

/* The call fails with exactly this error, positioned at the call. */
static void expect_error(const char *params, const char *call, const char *want)
{
	if (infer_call(params, call))
		fail_msg("%s: inferred %s, want the error %s", call, body_type(), want);
	if (diags.count != 1)
		print_diags();
	assert_int_equal(diags.count, 1);
	assert_string_equal(diags.items[0].message, want);
	assert_int_equal(diags.items[0].pos.line, 2);
	assert_int_equal(diags.items[0].pos.col, 3);
}

/* The call does not parse: its first error has this text and column. */
static void expect_parse_error(const char *params, const char *call, const char *want, uint32_t col)
{
	char text[2048];
	ir_module_free(m);
	source_release(src);
	diag_clear(&diags);
	snprintf(text, sizeof text, "def @main(%s) {\n  %s\n}\n", params, call);
	src = source_from_string("t.relay", text, strlen(text));
	m = parse_module(src, &devices, &diags);
	if (m && !diags.errors)
		fail_msg("parses: %s", call);
	assert_true(diags.count >= 1);
	assert_string_equal(diags.items[0].message, want);
	assert_int_equal(diags.items[0].pos.line, 2);
	assert_int_equal(diags.items[0].pos.col, col);
}

/* ---- take, shape_of, ndarray_size -------------------------------------- */

#define EMB "%w: Tensor[(30522, 768), float32], %i: Tensor[(1, 128), int64]"
#define D456 "%x: Tensor[(4, 5, 6), float32], %i: Tensor[(2, 3), int32]"

static void test_take(void **state)
{
	(void)state;
	/* bert's embedding lookup, and its `take(shape_of(w), 0)` */
	expect_type(EMB, "take(%w, %i, axis=0)", "Tensor[(1, 128, 768), float32]");
	expect_type("%s: Tensor[(2), int64]", "take(%s, 0i64)", "int64");
	/* without an axis: the flattened data, shaped like the indices */
	expect_type(D456, "take(%x, %i)", "Tensor[(2, 3), float32]");
	expect_type(D456, "take(%x, %i, axis=1)", "Tensor[(4, 2, 3, 6), float32]");
	expect_type(D456, "take(%x, %i, axis=-1, mode=\"wrap\")", "Tensor[(4, 5, 2, 3), float32]");
	expect_type("%x: Tensor[(4, 5, 6), float32], %i: Tensor[(4, 3), int64]",
		    "take(%x, %i, axis=1, batch_dims=1, mode=\"fast\")",
		    "Tensor[(4, 3, 6), float32]");
	expect_type("%x: Tensor[(?, 5), float32], %i: Tensor[(?), int64]", "take(%x, %i, axis=1)",
		    "Tensor[(?, ?), float32]");
}

static void test_take_errors(void **state)
{
	(void)state;
	expect_error(D456, "take(%x, %i, axis=3)",
		     "'take' axis 3 is out of range for Tensor[(4, 5, 6), float32]");
	expect_error(D456, "take(%x, %i, mode=\"nearest\")",
		     "'take' mode must be \"clip\", \"wrap\" or \"fast\", got \"nearest\"");
	expect_error("%x: Tensor[(4, 5), float32], %i: Tensor[(2), float32]", "take(%x, %i)",
		     "'take' indices must be integers, got Tensor[(2), float32]");
	expect_error("%x: Tensor[(4, 5), float32], %i: Tensor[(2), bool]", "take(%x, %i)",
		     "'take' indices must be integers, got Tensor[(2), bool]");
	/* TVM takes unsigned and narrow indices too */
	expect_type("%x: Tensor[(4, 5), float32], %i: Tensor[(2), uint8]", "take(%x, %i)",
		    "Tensor[(2), float32]");
	expect_error(D456, "take(%x, %i, axis=1, batch_dims=2)",
		     "'take' batch_dims 2 must be between 0 and the axis 1 and at most the rank "
		     "of Tensor[(2, 3), int32]");
	expect_error(D456, "take(%x, %i, axis=1, batch_dims=1)",
		     "'take' batch dimension 0 differs: Tensor[(4, 5, 6), float32] and "
		     "Tensor[(2, 3), int32]");
}

static void test_shape_of(void **state)
{
	(void)state;
	expect_type("%x: Tensor[(2, 3, 4), float32]", "shape_of(%x)", "Tensor[(3), int32]");
	expect_type("%x: Tensor[(?, 3), float16]", "shape_of(%x, dtype=\"int64\")",
		    "Tensor[(2), int64]");
	expect_type("%x: float32", "shape_of(%x)", "Tensor[(0), int32]");
	expect_error("%x: Tensor[(2, 3), float32]", "shape_of(%x, dtype=\"int3\")",
		     "'shape_of' has unknown dtype \"int3\"");
	expect_type("%x: Tensor[(2, 3), float32]", "ndarray_size(%x)", "int32");
	expect_type("%x: Tensor[(2, 3), float32]", "ndarray_size(%x, dtype=\"int64\")", "int64");
	expect_error("%x: (Tensor[(2, 3), float32],)", "ndarray_size(%x)",
		     "'ndarray_size' expects a tensor for argument 1, got (Tensor[(2, 3), "
		     "float32],)");
}

/* ---- strided_slice ----------------------------------------------------- */

#define X1020 "%x: Tensor[(10, 20), float32]"

static void test_strided_slice(void **state)
{
	(void)state;
	expect_type(X1020, "strided_slice(%x, begin=[2], end=[8])", "Tensor[(6, 20), float32]");
	/* ceil(9 / 3) and 20 / 5 */
	expect_type(X1020, "strided_slice(%x, begin=[1, 0], end=[10, 20], strides=[3, 5])",
		    "Tensor[(3, 4), float32]");
	expect_type(X1020, "strided_slice(%x, begin=[0], end=[10], strides=[3])",
		    "Tensor[(4, 20), float32]");
	/* negative indices count from the end; ends are clamped */
	expect_type(X1020, "strided_slice(%x, begin=[-3], end=[-1])", "Tensor[(2, 20), float32]");
	expect_type(X1020, "strided_slice(%x, begin=[-100, 5], end=[100, 1000])",
		    "Tensor[(10, 15), float32]");
	/* negative strides: 9 down to 1; 9 down to the front by 2 */
	expect_type(X1020, "strided_slice(%x, begin=[9], end=[0], strides=[-1])",
		    "Tensor[(9, 20), float32]");
	expect_type(X1020, "strided_slice(%x, begin=[-1], end=[-11], strides=[-2])",
		    "Tensor[(5, 20), float32]");
	/* a missing begin with a negative stride starts at the last element
	 * and a missing end stops before index 0 */
	expect_type(X1020, "strided_slice(%x, begin=[0], end=[10], strides=[1, -1])",
		    "Tensor[(10, 19), float32]");
	expect_type(X1020, "strided_slice(%x, begin=[5], end=[15], strides=[2], axes=[1])",
		    "Tensor[(10, 5), float32]");
	expect_type(X1020, "strided_slice(%x, begin=[1], end=[-2], axes=[-2])",
		    "Tensor[(7, 20), float32]");
	/* size mode: end is a size, -1 to the end; strides ignored */
	expect_type(X1020,
		    "strided_slice(%x, begin=[2, 3], end=[4, -1], strides=[2, 2], "
		    "slice_mode=\"size\")",
		    "Tensor[(4, 17), float32]");
	expect_type("%x: Tensor[(?, 20), float32]", "strided_slice(%x, begin=[1, 2], end=[3, 4])",
		    "Tensor[(?, 2), float32]");
	expect_type(X1020, "strided_slice(%x, begin=[3], end=[3])", "Tensor[(0, 20), float32]");
}

static void test_strided_slice_errors(void **state)
{
	(void)state;
	expect_error(X1020, "strided_slice(%x, begin=[8], end=[2])",
		     "'strided_slice' begin 8 and end 2 are invalid for axis 0 of Tensor[(10, "
		     "20), float32]");
	expect_error(X1020, "strided_slice(%x, begin=[0], end=[2], strides=[0])",
		     "'strided_slice' stride of axis 0 is 0");
	expect_error(X1020, "strided_slice(%x, begin=[0], end=[2], slice_mode=\"step\")",
		     "'strided_slice' slice_mode must be \"end\" or \"size\", got \"step\"");
	expect_error(X1020, "strided_slice(%x, begin=[0], end=[2, 3], axes=[0])",
		     "'strided_slice' axes, begin, end and strides must have the same length");
	expect_error(X1020, "strided_slice(%x, begin=[0, 0, 0], end=[1, 1, 1])",
		     "'strided_slice' begin, end and strides must have at most the 2 dimensions "
		     "of Tensor[(10, 20), float32]");
	expect_error(X1020, "strided_slice(%x, begin=[0], end=[1], axes=[2])",
		     "'strided_slice' axis 2 is out of range for Tensor[(10, 20), float32]");
	expect_error(X1020, "strided_slice(%x, end=[1])",
		     "'strided_slice' needs begin and end attributes");
}

/* ---- reshape_like, broadcasting, collapsing ---------------------------- */

static void test_reshape_like(void **state)
{
	(void)state;
	expect_type("%x: Tensor[(2, 3), float32], %y: Tensor[(3, 2), int32]",
		    "reshape_like(%x, %y)", "Tensor[(3, 2), float32]");
	/* TVM's documented example */
	expect_type("%x: Tensor[(1, 2, 3, 4), float32], %y: Tensor[(6, 2, 2, 3), float32]",
		    "reshape_like(%x, %y, lhs_begin=1, rhs_end=3)",
		    "Tensor[(1, 6, 2, 2), float32]");
	expect_type("%x: Tensor[(2, 12), float32], %y: Tensor[(5, 3, 4), float32]",
		    "reshape_like(%x, %y, lhs_begin=-1, lhs_end=2, rhs_begin=-2)",
		    "Tensor[(2, 3, 4), float32]");
	expect_error("%x: Tensor[(2, 3), float32], %y: Tensor[(4, 2), float32]",
		     "reshape_like(%x, %y)",
		     "'reshape_like' cannot reshape Tensor[(2, 3), float32] to 8 elements");
	expect_error("%x: Tensor[(2, 3), float32], %y: Tensor[(4, 2), float32]",
		     "reshape_like(%x, %y, lhs_begin=2, lhs_end=1)",
		     "'reshape_like' ranges [2, 1) of Tensor[(2, 3), float32] and [0, 2) of "
		     "Tensor[(4, 2), float32] are invalid");
}

static void test_broadcast(void **state)
{
	(void)state;
	expect_type("%x: Tensor[(3, 1), float32]", "broadcast_to(%x, shape=[2, 3, 4])",
		    "Tensor[(2, 3, 4), float32]");
	expect_type("%x: int64", "broadcast_to(%x, shape=[5])", "Tensor[(5), int64]");
	expect_error("%x: Tensor[(3, 2), float32]", "broadcast_to(%x, shape=[3, 4])",
		     "'broadcast_to' cannot broadcast Tensor[(3, 2), float32] to Tensor[(3, 4), "
		     "float32]");
	expect_error("%x: Tensor[(3, 2), float32]", "broadcast_to(%x, shape=[3, -2])",
		     "'broadcast_to' shape [3, -2] has a negative dimension");
	expect_type("%x: Tensor[(1, 4), float32], %y: Tensor[(3, 4), float32]",
		    "broadcast_to_like(%x, %y)", "Tensor[(3, 4), float32]");
	expect_error("%x: Tensor[(2, 4), float32], %y: Tensor[(3, 4), float32]",
		     "broadcast_to_like(%x, %y)",
		     "'broadcast_to_like' cannot broadcast Tensor[(2, 4), float32] to "
		     "Tensor[(3, 4), float32]");
	expect_error("%x: Tensor[(1, 4), int32], %y: Tensor[(3, 4), float32]",
		     "broadcast_to_like(%x, %y)",
		     "operands of 'broadcast_to_like' have different dtypes: Tensor[(1, 4), "
		     "int32] and Tensor[(3, 4), float32]");
}

static void test_collapse_sum(void **state)
{
	(void)state;
	expect_type("%x: Tensor[(2, 3, 4), float32], %y: Tensor[(3, 1), float32]",
		    "collapse_sum_like(%x, %y)", "Tensor[(3, 1), float32]");
	expect_error("%x: Tensor[(2, 3, 4), float32], %y: Tensor[(2, 4), float32]",
		     "collapse_sum_like(%x, %y)",
		     "'collapse_sum_like' cannot collapse Tensor[(2, 3, 4), float32] to "
		     "Tensor[(2, 4), float32]");
	expect_type("%x: Tensor[(2, 3, 4), float32], %s: Tensor[(2), int64]",
		    "collapse_sum_to(%x, %s, shape=[3, 1])", "Tensor[(3, 1), float32]");
	expect_type("%x: Tensor[(2, 3, 4), float32], %s: Tensor[(2), int64]",
		    "collapse_sum_to(%x, %s)", "Tensor[(?, ?), float32]");
	expect_error("%x: Tensor[(2, 3, 4), float32], %s: Tensor[(2), int64]",
		     "collapse_sum_to(%x, %s, shape=[2, 3])",
		     "'collapse_sum_to' cannot collapse Tensor[(2, 3, 4), float32] to "
		     "Tensor[(2, 3), float32]");
	expect_error("%x: Tensor[(2, 3, 4), float32], %s: Tensor[(2, 1), int64]",
		     "collapse_sum_to(%x, %s)",
		     "'collapse_sum_to' expects a 1-D integer shape of known length, got "
		     "Tensor[(2, 1), int64]");
}

/* ---- stack, tile, repeat, reverse -------------------------------------- */

#define PAIR23 "%a: Tensor[(2, 3), float32], %b: Tensor[(2, 3), float32]"

static void test_stack(void **state)
{
	(void)state;
	expect_type(PAIR23, "stack((%a, %b))", "Tensor[(2, 2, 3), float32]");
	expect_type(PAIR23, "stack((%a, %b, %a), axis=1)", "Tensor[(2, 3, 3), float32]");
	expect_type(PAIR23, "stack((%a, %b), axis=-1)", "Tensor[(2, 3, 2), float32]");
	expect_type("%a: Tensor[(?, 3), float32], %b: Tensor[(2, 3), float32]",
		    "stack((%a, %b), axis=2)", "Tensor[(2, 3, 2), float32]");
	expect_error(PAIR23, "stack((%a, %b), axis=3)",
		     "'stack' axis 3 is out of range for Tensor[(2, 3), float32]");
	expect_error("%a: Tensor[(2, 3), float32], %b: Tensor[(3, 2), float32]", "stack((%a, %b))",
		     "'stack' fields 0 and 1 differ: Tensor[(2, 3), float32] and Tensor[(3, 2), "
		     "float32]");
	expect_error("%a: Tensor[(2, 3), float32]", "stack(%a)",
		     "'stack' expects a non-empty tuple of tensors, got Tensor[(2, 3), float32]");
}

static void test_tile_repeat_reverse(void **state)
{
	(void)state;
	expect_type("%x: Tensor[(2, 3), float32]", "tile(%x, reps=[2])", "Tensor[(2, 6), float32]");
	expect_type("%x: Tensor[(2, 3), float32]", "tile(%x, reps=[2, 1, 2])",
		    "Tensor[(2, 2, 6), float32]");
	expect_type("%x: Tensor[(?, 3), float32]", "tile(%x, reps=[2, 2])",
		    "Tensor[(?, 6), float32]");
	expect_error("%x: Tensor[(2, 3), float32]", "tile(%x, reps=[1, 0])",
		     "'tile' reps [1, 0] must be positive");
	expect_type("%x: Tensor[(2, 3), float32]", "repeat(%x, repeats=3, axis=1)",
		    "Tensor[(2, 9), float32]");
	expect_type("%x: Tensor[(2, 3), float32]", "repeat(%x, repeats=3, axis=-2)",
		    "Tensor[(6, 3), float32]");
	expect_error("%x: Tensor[(2, 3), float32]", "repeat(%x, repeats=0, axis=1)",
		     "'repeat' needs repeats of at least 1");
	expect_type("%x: Tensor[(2, 3), int32]", "reverse(%x, axis=1)", "Tensor[(2, 3), int32]");
	expect_error("%x: Tensor[(2, 3), int32]", "reverse(%x, axis=2)",
		     "'reverse' axis 2 is out of range for Tensor[(2, 3), int32]");
	expect_type("%x: Tensor[(4, 5, 6), float32], %l: Tensor[(4), int32]",
		    "reverse_sequence(%x, %l)", "Tensor[(4, 5, 6), float32]");
	expect_type("%x: Tensor[(4, 5, 6), float32], %l: Tensor[(6), int64]",
		    "reverse_sequence(%x, %l, seq_axis=0, batch_axis=2)",
		    "Tensor[(4, 5, 6), float32]");
	expect_error("%x: Tensor[(4, 5, 6), float32], %l: Tensor[(5), int32]",
		     "reverse_sequence(%x, %l)",
		     "'reverse_sequence' seq_lengths must be 1-D integers as long as batch axis 0 "
		     "of Tensor[(4, 5, 6), float32], got Tensor[(5), int32]");
}

/* ---- gather, scatter, indexing ----------------------------------------- */

#define D34 "%x: Tensor[(3, 4), float32]"

static void test_gather(void **state)
{
	(void)state;
	expect_type(D34 ", %i: Tensor[(3, 2), int64]", "gather(%x, %i, axis=1)",
		    "Tensor[(3, 2), float32]");
	expect_type(D34 ", %i: Tensor[(5, 4), int32]", "gather(%x, %i, axis=-2)",
		    "Tensor[(5, 4), float32]");
	expect_error(D34 ", %i: Tensor[(2, 2), int64]", "gather(%x, %i, axis=1)",
		     "'gather' indices Tensor[(2, 2), int64] do not match Tensor[(3, 4), "
		     "float32] outside axis 1");
	expect_error(D34 ", %i: Tensor[(3, 2), int64]", "gather(%x, %i)",
		     "'gather' needs an axis attribute");
	expect_error(D34 ", %i: Tensor[(3, 2), float32]", "gather(%x, %i, axis=0)",
		     "'gather' indices must be integers, got Tensor[(3, 2), float32]");
	expect_type(D34 ", %i: Tensor[(3, 2), int16]", "gather(%x, %i, axis=1)",
		    "Tensor[(3, 2), float32]");
	/* indices (M, Y...) pick the first M dimensions */
	expect_type("%x: Tensor[(2, 3, 4), float32], %i: Tensor[(2, 5), int64]",
		    "gather_nd(%x, %i)", "Tensor[(5, 4), float32]");
	expect_type("%x: Tensor[(2, 3, 4), float32], %i: Tensor[(3, 2, 2), int64]",
		    "gather_nd(%x, %i, index_rank=3)", "Tensor[(2, 2), float32]");
	expect_type("%x: Tensor[(2, 3, 4), float32], %i: Tensor[(1, 2), int64]",
		    "gather_nd(%x, %i, batch_dims=1)", "Tensor[(2, 4), float32]");
	expect_error("%x: Tensor[(2, 3, 4), float32], %i: Tensor[(4, 5), int64]",
		     "gather_nd(%x, %i)",
		     "'gather_nd' indices Tensor[(4, 5), int64] with batch_dims 0 do not fit "
		     "Tensor[(2, 3, 4), float32]");
	expect_error("%x: Tensor[(2, 3, 4), float32], %i: Tensor[(1, 3), int64]",
		     "gather_nd(%x, %i, batch_dims=1)",
		     "'gather_nd' batch dimension 0 differs: Tensor[(2, 3, 4), float32] and "
		     "Tensor[(1, 3), int64]");
}

static void test_scatter(void **state)
{
	(void)state;
	expect_type(D34 ", %i: Tensor[(2, 4), int32], %u: Tensor[(2, 4), float32]",
		    "scatter_elements(%x, %i, %u, axis=1, reduction=\"add\")",
		    "Tensor[(3, 4), float32]");
	expect_error(D34 ", %i: Tensor[(2, 4), int32], %u: Tensor[(2, 4), float32]",
		     "scatter_elements(%x, %i, %u, reduction=\"sub\")",
		     "'scatter_elements' has unknown reduction \"sub\"");
	expect_error(D34 ", %i: Tensor[(2, 4), int32], %u: Tensor[(2, 4), float32]",
		     "scatter_elements(%x, %i, %u, axis=2)",
		     "'scatter_elements' axis 2 is out of range for Tensor[(3, 4), float32]");
	expect_type(D34 ", %i: Tensor[(2, 5), int64], %u: Tensor[(5), float32]",
		    "scatter_nd(%x, %i, %u)", "Tensor[(3, 4), float32]");
	expect_type(D34 ", %i: Tensor[(1, 5), int64], %u: Tensor[(5, 4), float32]",
		    "scatter_nd(%x, %i, %u, mode=\"add\")", "Tensor[(3, 4), float32]");
	expect_error(D34 ", %i: Tensor[(1, 5), int64], %u: Tensor[(5, 3), float32]",
		     "scatter_nd(%x, %i, %u)",
		     "'scatter_nd' indices Tensor[(1, 5), int64] and updates Tensor[(5, 3), "
		     "float32] do not fit Tensor[(3, 4), float32]");
}

static void test_adv_index(void **state)
{
	(void)state;
	expect_type("%x: Tensor[(5, 6, 7), float32], %i: Tensor[(2, 3), int64], %j: Tensor[(3), "
		    "int64]",
		    "adv_index((%x, %i, %j))", "Tensor[(2, 3, 7), float32]");
	expect_type("%x: Tensor[(5, 6), float32], %i: Tensor[(4), int64]", "adv_index((%x, %i))",
		    "Tensor[(4, 6), float32]");
	expect_error("%x: Tensor[(5, 6), float32], %i: Tensor[(2), int64], %j: Tensor[(3), int64]",
		     "adv_index((%x, %i, %j))",
		     "'adv_index' cannot broadcast the index Tensor[(3), int64]");
	expect_error("%x: Tensor[(5), float32], %i: Tensor[(2), int64]", "adv_index((%x, %i, %i))",
		     "'adv_index' has 2 indices for Tensor[(5), float32]");
}

static void test_one_hot_masks(void **state)
{
	(void)state;
	expect_type("%i: Tensor[(2, 3), int32], %on: float32, %off: float32",
		    "one_hot(%i, %on, %off, depth=4)", "Tensor[(2, 3, 4), float32]");
	expect_type("%i: Tensor[(2, 3), int32], %on: float32, %off: float32",
		    "one_hot(%i, %on, %off, depth=4, axis=0, dtype=\"int64\")",
		    "Tensor[(4, 2, 3), int64]");
	expect_error("%i: Tensor[(2, 3), int32], %on: float32, %off: float32",
		     "one_hot(%i, %on, %off, depth=0)", "'one_hot' depth 0 must be positive");
	expect_error("%i: Tensor[(2, 3), int32], %on: float32, %off: float32",
		     "one_hot(%i, %on, %off, depth=2, axis=3)",
		     "'one_hot' axis 3 is out of range for Tensor[(2, 3), int32]");
	expect_type("%x: Tensor[(5, 2, 3), float32], %l: Tensor[(2), int32]",
		    "sequence_mask(%x, %l)", "Tensor[(5, 2, 3), float32]");
	expect_type("%x: Tensor[(5, 2, 3), float32], %l: Tensor[(5), int32]",
		    "sequence_mask(%x, %l, mask_value=-1f, axis=1)", "Tensor[(5, 2, 3), float32]");
	expect_error("%x: Tensor[(5, 2, 3), float32], %l: Tensor[(5), int32]",
		     "sequence_mask(%x, %l, axis=2)", "'sequence_mask' axis must be 0 or 1, got 2");
	expect_error("%x: Tensor[(5, 2, 3), float32], %l: Tensor[(5), int32]",
		     "sequence_mask(%x, %l)",
		     "'sequence_mask' valid_length must be 1-D as long as axis 1 of Tensor[(5, 2, "
		     "3), float32], got Tensor[(5), int32]");
	expect_type("%x: Tensor[(2, 3, 4), float32], %d: Tensor[(2, 3), float32]",
		    "matrix_set_diag(%x, %d)", "Tensor[(2, 3, 4), float32]");
	expect_type("%x: Tensor[(2, 3, 4), float32], %d: Tensor[(2, 3, 4), float32]",
		    "matrix_set_diag(%x, %d, k1=-1, k2=1, super_diag_right_align=False)",
		    "Tensor[(2, 3, 4), float32]");
	expect_error("%x: Tensor[(2, 3, 4), float32], %d: Tensor[(2, 3), float32]",
		     "matrix_set_diag(%x, %d, k1=1, k2=0)",
		     "'matrix_set_diag' k2 0 is less than k1 1");
	expect_error("%x: Tensor[(2, 3, 4), float32], %d: Tensor[(2, 4), float32]",
		     "matrix_set_diag(%x, %d)",
		     "'matrix_set_diag' diagonal Tensor[(2, 4), float32] does not fit "
		     "Tensor[(2, 3, 4), float32] with k1=0, k2=0");
}

/* ---- creation ---------------------------------------------------------- */

static void test_create(void **state)
{
	(void)state;
	expect_type("%v: float32", "full(%v, shape=[2, 3])", "Tensor[(2, 3), float32]");
	expect_type("%v: float32", "full(%v, shape=[2, 3], dtype=\"int32\")",
		    "Tensor[(2, 3), int32]");
	expect_type("%v: int64", "full(%v, shape=[])", "int64");
	expect_error("%v: Tensor[(2), float32]", "full(%v, shape=[2])",
		     "'full' fill value must be a scalar, got Tensor[(2), float32]");
	expect_error("%v: float32", "full(%v)", "'full' needs a shape attribute");
	expect_error("%v: float32", "full(%v, shape=[4294967296, 4294967296])",
		     "'full' result has more elements than int64 can count");
	expect_type("%x: Tensor[(2, 3), int64], %v: int64", "full_like(%x, %v)",
		    "Tensor[(2, 3), int64]");
	expect_error("%x: Tensor[(2, 3), int64], %v: Tensor[(1), int64]", "full_like(%x, %v)",
		     "'full_like' fill value must be a scalar, got Tensor[(1), int64]");
	/* ceil((10 - 0) / 2) and ceil((5 - 0) / 2) */
	expect_type("", "arange(0f, 10f, 2f, start=0f, stop=10f, step=2f)", "Tensor[(5), float32]");
	expect_type("", "arange(0, 5, 2, start=0, stop=5, step=2, dtype=\"int32\")",
		    "Tensor[(3), int32]");
	expect_type("%a: float32", "arange(%a, 10f, 1f)", "Tensor[(?), float32]");
	expect_error("", "arange(0f, 10f, 2f, start=10f, stop=0f, step=2f)",
		     "'arange' has an invalid start, stop and step: 10, 0, 2");
	expect_error("", "arange(0f, 10f, 2f, dtype=\"int32\")",
		     "'arange' expects int32 scalars for start, stop and step, got float32");
	expect_type("%a: Tensor[(3), int32], %b: Tensor[(4), int32]", "meshgrid((%a, %b))",
		    "(Tensor[(3, 4), int32], Tensor[(3, 4), int32])");
	expect_type(
		"%a: Tensor[(3), int32], %b: Tensor[(4), int32], %c: int32",
		"meshgrid((%a, %b, %c), indexing=\"xy\")",
		"(Tensor[(4, 3, 1), int32], Tensor[(4, 3, 1), int32], Tensor[(4, 3, 1), int32])");
	expect_error("%a: Tensor[(3, 1), int32]", "meshgrid((%a,))",
		     "'meshgrid' expects scalars or 1-D tensors of one dtype, got (Tensor[(3, 1), "
		     "int32],)");
	expect_error("%a: Tensor[(3), int32]", "meshgrid((%a,), indexing=\"yx\")",
		     "'meshgrid' indexing must be \"ij\" or \"xy\", got \"yx\"");
}

/* ---- sorting ----------------------------------------------------------- */

#define X35 "%x: Tensor[(3, 5), float32]"

static void test_sort(void **state)
{
	(void)state;
	expect_type(X35, "sort(%x)", "Tensor[(3, 5), float32]");
	expect_type(X35, "argsort(%x, axis=0, is_ascend=False)", "Tensor[(3, 5), int32]");
	expect_type(X35, "argsort(%x, dtype=\"int64\")", "Tensor[(3, 5), int64]");
	expect_error(X35, "sort(%x, axis=2)",
		     "'sort' axis 2 is out of range for Tensor[(3, 5), float32]");
	/* topk: a (values, indices) tuple by default */
	expect_type(X35, "topk(%x, k=2)", "(Tensor[(3, 2), float32], Tensor[(3, 2), int32])");
	expect_type(X35, "topk(%x, k=2, axis=0, ret_type=\"values\")", "Tensor[(2, 5), float32]");
	expect_type(X35, "topk(%x, k=0, ret_type=\"indices\", dtype=\"int64\")",
		    "Tensor[(3, 5), int64]");
	expect_error(X35, "topk(%x, k=2, ret_type=\"all\")",
		     "'topk' ret_type must be \"both\", \"values\" or \"indices\", got \"all\"");
	expect_type("%x: Tensor[(7), int64]", "unique(%x)",
		    "(Tensor[(7), int64], Tensor[(7), int32], Tensor[(7), int32], Tensor[(1), "
		    "int32])");
	expect_type("%x: Tensor[(7), float32]", "unique(%x, sorted=False, return_counts=True)",
		    "(Tensor[(7), float32], Tensor[(7), int32], Tensor[(7), int32], Tensor[(1), "
		    "int32], Tensor[(7), int32])");
	expect_error(X35, "unique(%x)",
		     "'unique' expects a 1-D tensor, got Tensor[(3, 5), float32]");
	expect_type("%s: Tensor[(3, 5), float32], %v: Tensor[(3, 2), float32]",
		    "searchsorted(%s, %v)", "Tensor[(3, 2), int32]");
	expect_type("%s: Tensor[(5), float32], %v: Tensor[(4, 2), float32]",
		    "searchsorted(%s, %v, right=True, dtype=\"int64\")", "Tensor[(4, 2), int64]");
	expect_error("%s: Tensor[(3, 5), float32], %v: Tensor[(4, 2), float32]",
		     "searchsorted(%s, %v)",
		     "'searchsorted' values Tensor[(4, 2), float32] do not match the sorted "
		     "sequence Tensor[(3, 5), float32]");
	expect_type("%x: Tensor[(6), int32]", "invert_permutation(%x)", "Tensor[(6), int32]");
	expect_type(X35 ", %k: int64", "trilu(%x, %k, upper=False)", "Tensor[(3, 5), float32]");
	expect_error(X35 ", %k: Tensor[(1), int64]", "trilu(%x, %k)",
		     "'trilu' k must be a scalar, got Tensor[(1), int64]");
}

/* ---- dyn.* and sparse_to_dense ----------------------------------------- */

#define DX "%x: Tensor[(2, 3, 4), float32], %s3: Tensor[(3), int64], %s2: Tensor[(2), int32]"

static void test_dyn(void **state)
{
	(void)state;
	expect_type(DX, "dyn.reshape(%x, %s2)", "Tensor[(?, ?), float32]");
	expect_error(DX ", %q: Tensor[(?), int64]", "dyn.reshape(%x, %q)",
		     "'dyn.reshape' newshape must be a 1-D integer tensor of known length, got "
		     "Tensor[(?), int64]");
	expect_type(DX ", %s4: Tensor[(4), int64]", "dyn.broadcast_to(%x, %s4)",
		    "Tensor[(?, ?, ?, ?), float32]");
	expect_error(DX, "dyn.broadcast_to(%x, %s2)",
		     "'dyn.broadcast_to' cannot broadcast Tensor[(2, 3, 4), float32] to rank 2");
	/* the sliced leading axes are unknown, the rest kept */
	expect_type(DX, "dyn.strided_slice(%x, %s2, %s2, %s2)", "Tensor[(?, ?, 4), float32]");
	expect_type(DX, "dyn.tile(%x, %s2)", "Tensor[(?, ?, ?), float32]");
	expect_type("%x: Tensor[(2), float32], %s3: Tensor[(3), int64]", "dyn.tile(%x, %s3)",
		    "Tensor[(?, ?, ?), float32]");
	expect_type(DX ", %k: int32", "dyn.topk(%x, %k, axis=1)",
		    "(Tensor[(2, ?, 4), float32], Tensor[(2, ?, 4), int32])");
	expect_type(DX ", %k: Tensor[(1), int64]",
		    "dyn.topk(%x, %k, ret_type=\"indices\", dtype=\"int64\")",
		    "Tensor[(2, 3, ?), int64]");
	expect_error(DX ", %k: Tensor[(2), int64]", "dyn.topk(%x, %k)",
		     "'dyn.topk' k must be a scalar or a tensor of shape (1), got Tensor[(2), "
		     "int64]");
	expect_type(DX ", %v: int32", "dyn.full(%v, %s3)", "Tensor[(?, ?, ?), int32]");
	expect_type(DX ", %v: int32", "dyn.full(%v, %s2, dtype=\"float16\")",
		    "Tensor[(?, ?), float16]");
	expect_type(DX, "dyn.zeros(%s3)", "Tensor[(?, ?, ?), float32]");
	expect_type(DX, "dyn.ones(%s2, dtype=\"int64\")", "Tensor[(?, ?), int64]");
	expect_error(DX ", %f: Tensor[(3), float32]", "dyn.zeros(%f)",
		     "'dyn.zeros' shape must be a 1-D integer tensor of known length, got "
		     "Tensor[(3), float32]");
	expect_type(DX, "dyn.squeeze(%x, %s2)", "Tensor[(?), float32]");
	expect_error(DX ", %s4: Tensor[(4), int64]", "dyn.squeeze(%x, %s4)",
		     "'dyn.squeeze' cannot squeeze 4 axes of Tensor[(2, 3, 4), float32]");
	expect_type(DX ", %a: int64", "dyn.expand_dims(%x, %a)", "Tensor[(?, ?, ?, ?), float32]");
	expect_type(DX ", %a: int64", "dyn.expand_dims(%x, %a, num_newaxis=2)",
		    "Tensor[(?, ?, ?, ?, ?), float32]");
	expect_error(DX, "dyn.expand_dims(%x, %s2)",
		     "'dyn.expand_dims' axis must be a scalar, got Tensor[(2), int32]");
	expect_type("%i: Tensor[(2, 3), int32], %on: float32, %off: float32, %d: int32",
		    "dyn.one_hot(%i, %on, %off, %d, axis=1)", "Tensor[(2, ?, 3), float32]");
	expect_type("%i: Tensor[(2, 3), int32], %on: float32, %off: float32, %d: int32",
		    "dyn.one_hot(%i, %on, %off, %d, dtype=\"int32\")", "Tensor[(2, 3, ?), int32]");
	expect_type("%i: Tensor[(5, 2), int64], %v: Tensor[(5), float32], %d: float32, %o: "
		    "Tensor[(2), int64]",
		    "dyn.sparse_to_dense(%i, %v, %d, %o)", "Tensor[(?, ?), float32]");
	expect_type("%i: Tensor[(5, 2), int64], %v: Tensor[(5), float32], %d: float32",
		    "sparse_to_dense(%i, %v, %d, output_shape=[3, 4])", "Tensor[(3, 4), float32]");
	expect_error("%i: Tensor[(5, 2), int64], %v: Tensor[(5), float32], %d: Tensor[(1), "
		     "float32]",
		     "sparse_to_dense(%i, %v, %d, output_shape=[3, 4])",
		     "'sparse_to_dense' expects integer indices of rank at most 3, values of rank "
		     "at most 2 and a scalar default, got Tensor[(5, 2), int64], Tensor[(5), "
		     "float32] and Tensor[(1), float32]");
}

/* ---- reshape's special values, TVM's documented examples --------------- */

static void test_reshape_special_values(void **state)
{
	static const struct {
		const char *x, *newshape, *want;
	} cases[] = {
		{"(2, 3, 4)", "[4, 0, 2]", "Tensor[(4, 3, 2), float32]"},
		{"(2, 3, 4)", "[2, 0, 0]", "Tensor[(2, 3, 4), float32]"},
		{"(2, 3, 4)", "[6, 1, -1]", "Tensor[(6, 1, 4), float32]"},
		{"(2, 3, 4)", "[3, -1, 8]", "Tensor[(3, 1, 8), float32]"},
		{"(2, 3, 4)", "[-1]", "Tensor[(24), float32]"},
		{"(2, 3, 4)", "[-2]", "Tensor[(2, 3, 4), float32]"},
		{"(2, 3, 4)", "[2, -2]", "Tensor[(2, 3, 4), float32]"},
		{"(2, 3, 4)", "[-2, 1, 1]", "Tensor[(2, 3, 4, 1, 1), float32]"},
		{"(2, 3, 4)", "[-3, 4]", "Tensor[(6, 4), float32]"},
		{"(2, 3, 4, 5)", "[-3, -3]", "Tensor[(6, 20), float32]"},
		{"(2, 3, 4)", "[0, -3]", "Tensor[(2, 12), float32]"},
		{"(2, 3, 4)", "[-3, -2]", "Tensor[(6, 4), float32]"},
		{"(2, 3, 4)", "[-4, 1, 2, -2]", "Tensor[(1, 2, 3, 4), float32]"},
		{"(2, 3, 4)", "[2, -4, -1, 3, -2]", "Tensor[(2, 1, 3, 4), float32]"},
		{"(?, 3, 4)", "[-1, 4]", "Tensor[(?, 4), float32]"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char params[128], call[128];
		snprintf(params, sizeof params, "%%x: Tensor[%s, float32]", cases[i].x);
		snprintf(call, sizeof call, "reshape(%%x, newshape=%s)", cases[i].newshape);
		expect_type(params, call, cases[i].want);
	}
	/* TVM's documented contrib_reverse_reshape example (the Python
	 * docstring; the C++ one has a typo): the special values read from
	 * the right */
	expect_type("%x: Tensor[(10, 5, 4), float32]", "reshape(%x, newshape=[-1, 0])",
		    "Tensor[(40, 5), float32]");
	expect_type("%x: Tensor[(10, 5, 4), float32]",
		    "contrib_reverse_reshape(%x, newshape=[-1, 0])", "Tensor[(50, 4), float32]");
	expect_type("%x: Tensor[(2, 3, 4), float32]",
		    "contrib_reverse_reshape(%x, newshape=[0, -1])", "Tensor[(3, 8), float32]");
	expect_type("%x: Tensor[(2, 3, 4), float32]",
		    "contrib_reverse_reshape(%x, newshape=[-3, 0])", "Tensor[(6, 4), float32]");
	expect_error("%x: Tensor[(2, 3, 4), float32]",
		     "contrib_reverse_reshape(%x, newshape=[5, -1])",
		     "'contrib_reverse_reshape' cannot reshape Tensor[(2, 3, 4), float32] (24 "
		     "elements) to newshape [5, -1]");
	expect_error("%x: Tensor[(2, 3, 4), float32]", "reshape(%x, newshape=[-4, 5, -1, -2])",
		     "'reshape' newshape [-4, 5, -1, -2] cannot split dimension 2 of "
		     "Tensor[(2, 3, 4), float32]");
	expect_error("%x: Tensor[(2, 3, 4), float32]", "reshape(%x, newshape=[-1, -1])",
		     "'reshape' newshape [-1, -1] has more than one -1");
	expect_error("%x: Tensor[(2, 3, 4), float32]", "reshape(%x, newshape=[-5])",
		     "'reshape' newshape [-5] has invalid value -5");
}

/* ---- layouts and slice_like -------------------------------------------- */

#define NCHW "%x: Tensor[(1, 32, 7, 7), float32]"

static void test_layout_transform(void **state)
{
	(void)state;
	expect_type(NCHW, "layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NCHW16c\")",
		    "Tensor[(1, 2, 7, 7, 16), float32]");
	expect_type("%x: Tensor[(1, 2, 7, 7, 16), float32]",
		    "layout_transform(%x, src_layout=\"NCHW16c\", dst_layout=\"NCHW\")",
		    "Tensor[(1, 32, 7, 7), float32]");
	expect_type("%x: Tensor[(1, 2, 7, 7, 16), float32]",
		    "layout_transform(%x, src_layout=\"NCHW16c\", dst_layout=\"NCHW8c\")",
		    "Tensor[(1, 4, 7, 7, 8), float32]");
	expect_type(NCHW, "layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NHWC\")",
		    "Tensor[(1, 7, 7, 32), float32]");
	expect_type("%w: Tensor[(8, 16, 3, 3), float32]",
		    "layout_transform(%w, src_layout=\"OIHW\", dst_layout=\"OIHW4i4o\")",
		    "Tensor[(2, 4, 3, 3, 4, 4), float32]");
	expect_type("%x: Tensor[(?, 32, 7, 7), float32]",
		    "layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NHWC\")",
		    "Tensor[(?, 7, 7, 32), float32]");
	expect_error("%x: Tensor[(1, 3, 7, 7), float32]",
		     "layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NCHW16c\")",
		     "'layout_transform' cannot split axis C of Tensor[(1, 3, 7, 7), float32] (3) "
		     "by 16");
	expect_error(NCHW, "layout_transform(%x, src_layout=\"NCH\", dst_layout=\"NHC\")",
		     "'layout_transform' src_layout \"NCH\" does not match Tensor[(1, 32, 7, 7), "
		     "float32]");
	expect_error(NCHW, "layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NCDHW\")",
		     "'layout_transform' cannot convert from \"NCHW\" to \"NCDHW\"");
	expect_error(NCHW, "layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NCHWc\")",
		     "'layout_transform' dst_layout \"NCHWc\" is not a layout");
	expect_error(NCHW, "layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NHW4c\")",
		     "'layout_transform' dst_layout \"NHW4c\" is not a layout");
	expect_type(NCHW,
		    "auto_scheduler_layout_transform(%x, src_layout=\"1N32C7H7W\", "
		    "dst_layout=\"1N2C7H7W16c\")",
		    "Tensor[(1, 2, 7, 7, 16), float32]");
	expect_error(NCHW,
		     "auto_scheduler_layout_transform(%x, src_layout=\"1N32C7H7W\", "
		     "dst_layout=\"N2C\")",
		     "'auto_scheduler_layout_transform' dst_layout \"N2C\" is not a layout");
	expect_error(NCHW, "layout_transform(%x, src_layout=\"NCHW\")",
		     "'layout_transform' needs src_layout and dst_layout attributes");
}

/* meta_schedule_layout_transform's index map is TIR in the metadata: the
 * type comes from the printed one, checked against the data's dtype. */
static void test_meta_schedule_layout_transform(void **state)
{
	(void)state;
	expect_type(NCHW,
		    "meta_schedule_layout_transform(%x, index_map=meta[IndexMap][0]) "
		    "/* ty=Tensor[(1, 8, 7, 7, 4), float32] */",
		    "Tensor[(1, 8, 7, 7, 4), float32]");
	/* the type comment may carry devices too, as `ir --devices` prints */
	expect_type(NCHW,
		    "meta_schedule_layout_transform(%x, index_map=meta[IndexMap][2]) "
		    "/* ty=Tensor[(32, 49), float32] cpu:0 */",
		    "Tensor[(32, 49), float32]");
	expect_error(NCHW, "meta_schedule_layout_transform(%x, index_map=meta[IndexMap][0])",
		     "'meta_schedule_layout_transform' needs its result type printed after the "
		     "call (/* ty=... */): devplan cannot apply the index map");
	expect_error(NCHW, "meta_schedule_layout_transform(%x) /* ty=Tensor[(32, 49), float32] */",
		     "'meta_schedule_layout_transform' needs an index_map (meta[IndexMap][i])");
	expect_error(NCHW,
		     "meta_schedule_layout_transform(%x, index_map=meta[IndexMap][0]) "
		     "/* ty=Tensor[(32, 49), int64] */",
		     "'meta_schedule_layout_transform' is printed to give Tensor[(32, 49), int64], "
		     "not a tensor of its data's dtype float32");
	expect_parse_error(NCHW, "meta_schedule_layout_transform(%x, index_map=[0, 1])",
			   "attribute 'index_map' of 'meta_schedule_layout_transform' expects a "
			   "metadata object (meta[KIND][i]), found a list",
			   48);
	expect_parse_error(NCHW, "meta_schedule_layout_transform(%x, index_map=meta[IndexMap])",
			   "expected '[' before the metadata index, found ')'", 62);
}

static void test_slice_like(void **state)
{
	(void)state;
	expect_type("%x: Tensor[(5, 6, 7), float32], %y: Tensor[(3, 4), int32]",
		    "slice_like(%x, %y)", "Tensor[(3, 4, 7), float32]");
	expect_type("%x: Tensor[(5, 6, 7), float32], %y: Tensor[(1, 2, 3), float32]",
		    "slice_like(%x, %y, axes=[-1])", "Tensor[(5, 6, 3), float32]");
	expect_error("%x: Tensor[(5, 6, 7), float32], %y: Tensor[(6, 4), float32]",
		     "slice_like(%x, %y)",
		     "'slice_like' axis 0 of Tensor[(6, 4), float32] exceeds Tensor[(5, 6, 7), "
		     "float32]");
	expect_error("%x: Tensor[(5, 6, 7), float32], %y: Tensor[(5, 6), float32]",
		     "slice_like(%x, %y, axes=[2])",
		     "'slice_like' axis 2 exceeds the rank of Tensor[(5, 6), float32]");
}

/* ---- argwhere, unravel_index, strided_set, sparse, sliding_window ------ */

static void test_misc_indexing(void **state)
{
	(void)state;
	expect_type("%x: Tensor[(3, 4), bool]", "argwhere(%x)", "Tensor[(?, 2), int32]");
	expect_type("%i: Tensor[(5), int64], %s: Tensor[(3), int64]", "unravel_index(%i, %s)",
		    "Tensor[(3, 5), int64]");
	expect_type("%i: int32, %s: Tensor[(3), int32]", "unravel_index(%i, %s)",
		    "Tensor[(3), int32]");
	expect_error("%i: Tensor[(5, 2), int64], %s: Tensor[(3), int64]", "unravel_index(%i, %s)",
		     "'unravel_index' expects indices of rank at most 1 and a 1-D integer shape, "
		     "got Tensor[(5, 2), int64] and Tensor[(3), int64]");
	expect_type("%x: Tensor[(3, 4), float32], %v: Tensor[(1, 4), float32], %b: Tensor[(2), "
		    "int64]",
		    "strided_set(%x, %v, %b, %b, %b)", "Tensor[(3, 4), float32]");
	expect_type("%i: Tensor[(5, 2), int64], %v: Tensor[(5), float32], %d: Tensor[(2), int64], "
		    "%f: float32",
		    "sparse_fill_empty_rows(%i, %v, %d, %f)",
		    "(Tensor[(?, 2), int64], Tensor[(?), int64], Tensor[(?), int64])");
	expect_type("%i: Tensor[(5, 2), int64], %p: Tensor[(2), int64], %n: Tensor[(3), int64]",
		    "sparse_reshape(%i, %p, %n)", "(Tensor[(5, 3), int64], Tensor[(3), int64])");
	expect_error("%i: Tensor[(5), int64], %p: Tensor[(2), int64], %n: Tensor[(3), int64]",
		     "sparse_reshape(%i, %p, %n)",
		     "'sparse_reshape' expects 2-D integer indices and 1-D integer shapes, got "
		     "Tensor[(5), int64], Tensor[(2), int64] and Tensor[(3), int64]");
	/* TVM's documented example, and strides that do not divide */
	expect_type("%x: Tensor[(3, 4, 5), float32]",
		    "sliding_window(%x, axis=1, window_shape=[2, 3], strides=[1, 1])",
		    "Tensor[(3, 3, 3, 2, 3), float32]");
	expect_type("%x: Tensor[(2, 10, 8), float32]",
		    "sliding_window(%x, axis=1, window_shape=[3, 4], strides=[2, 2])",
		    "Tensor[(2, 4, 3, 3, 4), float32]");
	expect_error("%x: Tensor[(2, 10, 8), float32]",
		     "sliding_window(%x, axis=2, window_shape=[3, 4], strides=[2, 2])",
		     "'sliding_window' window [3, 4] from axis 2 does not fit Tensor[(2, 10, 8), "
		     "float32]");
	expect_error(
		"%x: Tensor[(2, 10, 8), float32]",
		"sliding_window(%x, axis=1, window_shape=[11], strides=[1])",
		"'sliding_window' window [11] with strides [1] does not fit Tensor[(2, 10, 8), "
		"float32]");
}

/* ---- einsum, stft, dft ------------------------------------------------- */

#define AB "%a: Tensor[(2, 3), float32], %b: Tensor[(3, 4), float32]"

static void test_einsum(void **state)
{
	(void)state;
	expect_type(AB, "einsum((%a, %b), equation=\"ij,jk->ik\")", "Tensor[(2, 4), float32]");
	/* implicit output: the letters used once, in alphabetical order */
	expect_type(AB, "einsum((%a, %b), equation=\"ij,jk\")", "Tensor[(2, 4), float32]");
	expect_type(AB, "einsum((%a,), equation=\"ij->ji\")", "Tensor[(3, 2), float32]");
	expect_type("%s: Tensor[(3, 3), float32]", "einsum((%s,), equation=\"ii->i\")",
		    "Tensor[(3), float32]");
	expect_type("%s: Tensor[(3, 3), float32]", "einsum((%s,), equation=\"ii\")", "float32");
	expect_type("%a: Tensor[(5, 2, 3), float32], %b: Tensor[(5, 3, 4), float32]",
		    "einsum((%a, %b), equation=\"bij,bjk->bik\")", "Tensor[(5, 2, 4), float32]");
	/* the ellipsis broadcasts the unnamed dimensions */
	expect_type("%a: Tensor[(5, 2, 3), float32], %b: Tensor[(3, 4), float32]",
		    "einsum((%a, %b), equation=\"...ij,...jk->...ik\")",
		    "Tensor[(5, 2, 4), float32]");
	expect_type("%a: Tensor[(5, 1, 2, 3), float32], %b: Tensor[(6, 3, 4), float32]",
		    "einsum((%a, %b), equation=\"...ij,...jk\")", "Tensor[(5, 6, 2, 4), float32]");
	expect_error("%a: Tensor[(2, 3), float32], %b: Tensor[(4, 5), float32]",
		     "einsum((%a, %b), equation=\"ij,jk->ik\")",
		     "'einsum' equation \"ij,jk->ik\" does not match the operands (Tensor[(2, 3), "
		     "float32], Tensor[(4, 5), float32])");
	expect_error(AB, "einsum((%a,), equation=\"ij->ik\")",
		     "'einsum' equation \"ij->ik\" is malformed for 1 operands");
	expect_error(AB, "einsum((%a,), equation=\"ij,jk->ik\")",
		     "'einsum' equation \"ij,jk->ik\" is malformed for 1 operands");
	expect_error(AB, "einsum((%a, %b), equation=\"ijk,jk->ik\")",
		     "'einsum' equation \"ijk,jk->ik\" does not match the operands (Tensor[(2, 3), "
		     "float32], Tensor[(3, 4), float32])");
}

static void test_stft_dft(void **state)
{
	(void)state;
	/* n_fft / 2 + 1 frequencies, (100 - 16) / 4 + 1 frames */
	expect_type("%x: Tensor[(1, 100), float32], %w: Tensor[(16), float32]",
		    "stft(%x, %w, n_fft=16, hop_length=4, win_length=16)",
		    "Tensor[(1, 9, 22, 2), float32]");
	expect_type("%x: Tensor[(100), float32], %w: Tensor[(16), float32]",
		    "stft(%x, %w, n_fft=16, hop_length=4, win_length=16, onesided=False)",
		    "Tensor[(16, 22, 2), float32]");
	expect_error("%x: Tensor[(10), float32], %w: Tensor[(16), float32]",
		     "stft(%x, %w, n_fft=16, hop_length=4, win_length=16)",
		     "'stft' signal Tensor[(10), float32] is shorter than n_fft 16");
	expect_type("%r: Tensor[(4, 8), float32], %i: Tensor[(4, 8), float32]",
		    "dft(%r, %i, inverse=True)",
		    "(Tensor[(4, 8), float32], Tensor[(4, 8), float32])");
}

static void test_scan(void **state)
{
	(void)state;
	expect_type("%x: Tensor[(2, 3), int32]", "cumsum(%x, axis=1)", "Tensor[(2, 3), int32]");
	expect_type("%x: Tensor[(2, 3), int32]", "cumsum(%x)", "Tensor[(6), int32]");
	expect_type("%x: Tensor[(2, 3), int32]",
		    "cumprod(%x, axis=0, dtype=\"int64\", "
		    "exclusive=True)",
		    "Tensor[(2, 3), int64]");
	expect_type("%x: Tensor[(?, 3), float32]", "cumprod(%x)", "Tensor[(?), float32]");
	expect_error("%x: Tensor[(2, 3), int32]", "cumsum(%x, axis=-3)",
		     "'cumsum' axis -3 is out of range for Tensor[(2, 3), int32]");
}

/* Attributes of the wrong kind, unknown ones and wrong operand counts are
 * the parser's errors, from the schemas and arities of ops.def. */
static void test_schema_errors(void **state)
{
	(void)state;
	expect_parse_error(D456, "take(%x, %i, axis=\"a\")",
			   "attribute 'axis' of 'take' expects an integer, found a string", 21);
	expect_parse_error(D456, "take(%x, %i, axis=1.5)",
			   "attribute 'axis' of 'take' expects an integer, found a float", 21);
	expect_parse_error(D456, "take(%x, %i, foo=1)",
			   "unknown attribute 'foo' for operator 'take' (it accepts batch_dims, "
			   "axis, mode)",
			   16);
	expect_parse_error(X1020, "strided_slice(%x, begin=1.5, end=[2])",
			   "attribute 'begin' of 'strided_slice' expects a list of integers, "
			   "found a float",
			   27);
	expect_parse_error(X1020, "topk(%x, k=2, is_ascend=\"yes\")",
			   "attribute 'is_ascend' of 'topk' expects a boolean, found a string", 27);
}

/* ---- round trip -------------------------------------------------------- */

/* Every operator of the family with non-default attributes prints as it
 * was written and reads back to the same text [P1]. */
static const char round_trip_text[] =
	"#[version = \"0.0.5\"]\n"
	"def @main(%x: Tensor[(4, 5, 6), float32], %i: Tensor[(4, 3), int64], %s: Tensor[(2), "
	"int64], %l: Tensor[(4), int32], %g: Tensor[(4, 5, 2), int64], %dg: Tensor[(4, 3, 6), "
	"float32]) {\n"
	"  %0 = take(%x, %i, batch_dims=1, axis=1, mode=\"wrap\");\n"
	"  %1 = shape_of(%0, dtype=\"int64\");\n"
	"  %2 = ndarray_size(%x, dtype=\"int64\");\n"
	"  %3 = strided_slice(%x, begin=[1, -1], end=[3, 0], strides=[1, -2], "
	"slice_mode=\"end\", axes=[0, 2]);\n"
	"  %4 = reshape_like(%x, %3, lhs_begin=1, lhs_end=3, rhs_begin=-3, rhs_end=None);\n"
	"  %5 = broadcast_to(%x, shape=[2, 4, 5, 6], dtype=\"\");\n"
	"  %6 = broadcast_to_like(%x, %5);\n"
	"  %7 = collapse_sum_like(%6, %x);\n"
	"  %8 = collapse_sum_to(%6, %s, shape=[5, 6], dtype=\"float32\");\n"
	"  %9 = (%x, %x);\n"
	"  %10 = stack(%9, axis=-1);\n"
	"  %11 = tile(%x, reps=[2, 1, 1]);\n"
	"  %12 = repeat(%x, repeats=2, axis=1);\n"
	"  %13 = reverse(%x, axis=-1);\n"
	"  %14 = reverse_sequence(%x, %l, seq_axis=2, batch_axis=0);\n"
	"  %15 = (%1, %2, %4, %7, %8, %10, %11, %12, %13, %14);\n"
	"  %16 = gather(%x, %g, axis=2);\n"
	"  %17 = expand_dims(%i, axis=0);\n"
	"  %18 = gather_nd(%x, %17, batch_dims=0, index_rank=1);\n"
	"  %19 = scatter_elements(%x, %g, %16, axis=1, reduction=\"max\");\n"
	"  %20 = scatter_nd(%x, %17, %18, mode=\"add\");\n"
	"  %21 = (%x, %i);\n"
	"  %22 = adv_index(%21);\n"
	"  %23 = one_hot(%i, 1f, 0f, depth=3, axis=0, dtype=\"float32\");\n"
	"  %24 = sequence_mask(%x, %l, mask_value=-2.5f, axis=1);\n"
	"  %25 = matrix_set_diag(%x, %dg, k1=-1, k2=1, super_diag_right_align=False, "
	"sub_diag_right_align=True);\n"
	"  %26 = full(2i64, shape=[2, 3], dtype=\"int32\");\n"
	"  %27 = full_like(%x, 0f);\n"
	"  %28 = arange(0f, 10f, 2f, start=0f, stop=10f, step=2f, dtype=\"float32\");\n"
	"  %29 = (%28, %28);\n"
	"  %30 = meshgrid(%29, indexing=\"xy\");\n"
	"  %31 = (%15, %19, %20, %22, %23, %24, %25, %26, %27, %30);\n"
	"  %32 = sort(%x, axis=1, is_ascend=False);\n"
	"  %33 = argsort(%x, axis=0, is_ascend=False, dtype=\"int64\");\n"
	"  %34 = topk(%x, k=2, axis=1, ret_type=\"values\", is_ascend=True, dtype=\"int64\");\n"
	"  %35 = unique(%l, sorted=False, return_counts=True);\n"
	"  %36 = searchsorted(%x, %x, right=True, dtype=\"int64\");\n"
	"  %37 = invert_permutation(%l);\n"
	"  %38 = trilu(%x, 1i64, upper=False);\n"
	"  %39 = (%31, %32, %33, %34, %35, %36, %37, %38);\n"
	"  %40 = dyn.reshape(%x, %s, allowzero=True);\n"
	"  %41 = dyn.broadcast_to(%x, %1, shape=None, dtype=\"\");\n"
	"  %42 = dyn.strided_slice(%x, %s, %s, %s, slice_mode=\"size\");\n"
	"  %43 = dyn.tile(%x, %s, reps=None);\n"
	"  %44 = dyn.topk(%x, 2i64, axis=0, ret_type=\"values\", is_ascend=True);\n"
	"  %45 = dyn.full(1f, %s, dtype=\"float16\");\n"
	"  %46 = dyn.zeros(%s, dtype=\"int32\");\n"
	"  %47 = dyn.ones(%s, dtype=\"bool\");\n"
	"  %48 = dyn.squeeze(%x, %s, axis=None);\n"
	"  %49 = dyn.expand_dims(%x, 0i64, num_newaxis=2);\n"
	"  %50 = dyn.one_hot(%i, 1f, 0f, 3i64, axis=0, dtype=\"int64\");\n"
	"  %51 = dyn.sparse_to_dense(%i, %l, 0, %s);\n"
	"  %52 = sparse_to_dense(%i, %l, 0, output_shape=[7, 8]);\n"
	"  %53 = (%39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52);\n"
	"  %54 = layout_transform(%dg, src_layout=\"NCW\", dst_layout=\"NWC3c\");\n"
	"  %55 = slice_like(%x, %dg, axes=[0, 1]);\n"
	"  %56 = argwhere(%x);\n"
	"  %57 = unravel_index(%s, %s);\n"
	"  %58 = strided_set(%x, %x, %s, %s, %s);\n"
	"  %59 = sparse_fill_empty_rows(%i, %l, %s, 0);\n"
	"  %60 = sparse_reshape(%i, %s, %s);\n"
	"  %61 = sliding_window(%x, axis=1, window_shape=[2, 3], strides=[1, 2]);\n"
	"  %62 = contrib_reverse_reshape(%x, newshape=[-1, 0], allowzero=False);\n"
	"  %63 = (%x, %dg);\n"
	"  %64 = einsum(%63, equation=\"abc,ade->bcde\");\n"
	"  %65 = stft(%i, %l, n_fft=2, hop_length=1, win_length=2, normalized=True, "
	"onesided=False);\n"
	"  %66 = dft(%x, %x, inverse=True);\n"
	"  %67 = (%53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %64, %65, %66);\n"
	"  %68 = auto_scheduler_layout_transform(%x, src_layout=\"4N5C6W\", "
	"dst_layout=\"2N5C6W2n\");\n"
	"  %69 = cumsum(%x, axis=1, dtype=\"float64\", exclusive=True);\n"
	"  %70 = cumprod(%i, axis=None, exclusive=False);\n"
	"  (%67, %68, %69, %70)\n"
	"}\n";

static void test_round_trip(void **state)
{
	StrBuf sb;
	(void)state;
	src = source_from_string("rt.relay", round_trip_text, strlen(round_trip_text));
	m = parse_module(src, &devices, &diags);
	if (!m || diags.errors)
		print_diags();
	assert_non_null(m);
	if (!infer_module(m, &diags)) {
		print_diags();
		fail_msg("the round-trip module does not infer");
	}
	strbuf_init(&sb);
	print_module(&sb, m, NULL);
	if (strcmp(sb.data, round_trip_text) != 0)
		fprintf(stderr, "printed:\n%s", sb.data);
	assert_string_equal(sb.data, round_trip_text);
	strbuf_free(&sb);
}

/* ---- runner ------------------------------------------------------------ */

#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(test_take),
		TEST(test_take_errors),
		TEST(test_shape_of),
		TEST(test_strided_slice),
		TEST(test_strided_slice_errors),
		TEST(test_reshape_like),
		TEST(test_broadcast),
		TEST(test_collapse_sum),
		TEST(test_stack),
		TEST(test_tile_repeat_reverse),
		TEST(test_gather),
		TEST(test_scatter),
		TEST(test_adv_index),
		TEST(test_one_hot_masks),
		TEST(test_create),
		TEST(test_sort),
		TEST(test_dyn),
		TEST(test_reshape_special_values),
		TEST(test_layout_transform),
		TEST(test_meta_schedule_layout_transform),
		TEST(test_slice_like),
		TEST(test_misc_indexing),
		TEST(test_einsum),
		TEST(test_stft_dft),
		TEST(test_scan),
		TEST(test_schema_errors),
		TEST(test_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
