/*
 * test_infer_transform.c - the type relations of the transform family of
 * ops.def (core/plan/infer/infer_transform.c): reshape, transpose,
 * concatenate, nn.batch_flatten, expand_dims, squeeze, split, on_device,
 * device_copy, copy, where, reinterpret, take, shape_of, ndarray_size,
 * strided_slice, reshape_like, broadcast_to, broadcast_to_like, stack,
 * tile, repeat, reverse, slice_like, layout_transform,
 * auto_scheduler_layout_transform, meta_schedule_layout_transform,
 * sliding_window, contrib_reverse_reshape, nn.pad, nn.depth_to_space,
 * nn.space_to_depth, nn.mirror_pad.
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

/* ---- reshape, transpose, concatenate ----------------------------------- */

static void test_reshape(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 16384)), *y = prm("y", T(DT_FLOAT32, 2, 3, 4));
	Expr *z = prm("z", T(DT_FLOAT32, 6, 4)), *u = prm("u", T(DT_FLOAT32, ANY, 4));
	Expr *e1 = call(OP_RESHAPE, ARGS(x), ATTRS(LIST("newshape", -1, 1024, 4, 4)));
	Expr *e2 = call(OP_RESHAPE, ARGS(y), ATTRS(LIST("newshape", 0, -1)));
	Expr *e3 = call(OP_RESHAPE, ARGS(y), ATTRS(LIST("newshape", 2, -2)));
	Expr *e4 = call(OP_RESHAPE, ARGS(y), ATTRS(LIST("newshape", -3, 4)));
	Expr *e5 = call(OP_RESHAPE, ARGS(z), ATTRS(LIST("newshape", -4, 2, -1, 4)));
	Expr *e6 = call(OP_RESHAPE, ARGS(u), ATTRS(LIST("newshape", -1)));
	Expr *e7 = call(OP_RESHAPE, ARGS(y), ATTRS(LIST("newshape", 24)));
	Expr *e8 = call(OP_RESHAPE, ARGS(y), ATTRS(LIST("newshape", 0, 0, 0)));
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4, e5, e6, e7, e8))));
	check_built_type(e1, "Tensor[(1, 1024, 4, 4), float32]");
	check_built_type(e2, "Tensor[(2, 12), float32]");
	check_built_type(e3, "Tensor[(2, 3, 4), float32]");
	check_built_type(e4, "Tensor[(6, 4), float32]");
	check_built_type(e5, "Tensor[(2, 3, 4), float32]");
	check_built_type(e6, "Tensor[(?), float32]");
	check_built_type(e7, "Tensor[(24), float32]");
	assert_ptr_equal(e8->type, y->type);
}

static void test_reshape_count_mismatch(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 5, 7));
	Expr *e = FAIL(OP_RESHAPE, ARGS(x), ATTRS(LIST("newshape", 6, 6)));
	check_built_error(e, "'reshape' cannot reshape Tensor[(5, 7), float32] (35 elements) to "
			     "newshape [6, 6] (36 elements)");
}

static void test_reshape_errors(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 5, 7));
	Expr *e1 = call(OP_RESHAPE, ARGS(x), ATTRS(LIST("newshape", -1, -1)));
	Expr *e2 = call(OP_RESHAPE, ARGS(x), ATTRS(LIST("newshape", -1, 6)));
	Expr *e3 = call(OP_RESHAPE, ARGS(x), ATTRS(LIST("newshape", 0, 0, 0)));
	Expr *e4 = call(OP_RESHAPE, ARGS(x), ATTRS(LIST("newshape", -5)));
	Expr *e5 = call(OP_RESHAPE, ARGS(x), NOATTRS);
	Expr *e6 = call(OP_RESHAPE, ARGS(x), ATTRS(LIST("newshape", INT64_MAX, INT64_MAX, 2)));
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4, e5, e6))));
	assert_int_equal(diags.count, 6);
	assert_string_equal(diags.items[0].message,
			    "'reshape' newshape [-1, -1] has more than one -1");
	assert_string_equal(diags.items[1].message,
			    "'reshape' cannot reshape Tensor[(5, 7), float32] (35 elements) to "
			    "newshape [-1, 6]");
	assert_string_equal(diags.items[2].message,
			    "'reshape' newshape [0, 0, 0] copies dimension 2 of "
			    "Tensor[(5, 7), float32], which has only 2");
	assert_string_equal(diags.items[3].message, "'reshape' newshape [-5] has invalid value -5");
	assert_string_equal(diags.items[4].message, "'reshape' needs a newshape attribute");
	assert_string_equal(diags.items[5].message,
			    "'reshape' newshape [9223372036854775807, 9223372036854775807, 2] has "
			    "more elements than int64 can count");
}

static void test_transpose(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 2, 3, 4));
	Expr *e1 = call(OP_TRANSPOSE, ARGS(x), NOATTRS);
	Expr *e2 = call(OP_TRANSPOSE, ARGS(x), ATTRS(LIST("axes", 0, 2, 1)));
	Expr *e3 = call(OP_TRANSPOSE, ARGS(x), ATTRS(LIST("axes", -1, 0, 1)));
	Expr *e4 = call(OP_TRANSPOSE, ARGS(x), ATTRS(LIST("axes", 0, 1, 2)));
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4))));
	check_built_type(e1, "Tensor[(4, 3, 2), float32]");
	check_built_type(e2, "Tensor[(2, 4, 3), float32]");
	check_built_type(e3, "Tensor[(4, 2, 3), float32]");
	assert_ptr_equal(e4->type, x->type);
}

static void test_transpose_errors(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 2, 3, 4));
	Expr *e1 = call(OP_TRANSPOSE, ARGS(x), ATTRS(LIST("axes", 0, 2, 2)));
	Expr *e2 = call(OP_TRANSPOSE, ARGS(x), ATTRS(LIST("axes", 1, 0)));
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2))));
	assert_int_equal(diags.count, 2);
	assert_string_equal(diags.items[0].message,
			    "'transpose' axes=[0, 2, 2] is not a permutation");
	assert_string_equal(diags.items[1].message,
			    "'transpose' axes=[1, 0] do not match the 3 dimensions of "
			    "Tensor[(2, 3, 4), float32]");
}

static void test_concatenate(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 1, 2, 3)), *b = prm("b", T(DT_FLOAT32, 1, 5, 3));
	Expr *c = prm("c", T(DT_FLOAT32, 1, 2, 4)), *d = prm("d", T(DT_FLOAT32, ANY, 2, ANY));
	Expr *e1 = call(OP_CONCATENATE, ARGS(ir_tuple(m, next_pos(), ARGS(a, b))),
			ATTRS(attr_int("axis", 1)));
	Expr *e2 = call(OP_CONCATENATE, ARGS(ir_tuple(m, next_pos(), ARGS(a, c, a))),
			ATTRS(attr_int("axis", -1)));
	Expr *e3 = call(OP_CONCATENATE, ARGS(ir_tuple(m, next_pos(), ARGS(d, a))), NOATTRS);
	Expr *e4 = call(OP_CONCATENATE, ARGS(ir_tuple(m, next_pos(), ARGS(a))), NOATTRS);
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4))));
	check_built_type(e1, "Tensor[(1, 7, 3), float32]");
	check_built_type(e2, "Tensor[(1, 2, 10), float32]");
	check_built_type(e3, "Tensor[(?, 2, 3), float32]");
	assert_ptr_equal(e4->type, a->type);
}

static void test_concatenate_errors(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 1, 2, 3)), *b = prm("b", T(DT_FLOAT32, 1, 5, 3));
	Expr *c = prm("c", T(DT_FLOAT32, 1, 2));
	Expr *e1 = call(OP_CONCATENATE, ARGS(ir_tuple(m, next_pos(), ARGS(a, b))),
			ATTRS(attr_int("axis", 2)));
	Expr *e2 = call(OP_CONCATENATE, ARGS(ir_tuple(m, next_pos(), ARGS(a, c))), NOATTRS);
	Expr *e3 = call(OP_CONCATENATE, ARGS(a), NOATTRS);
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3))));
	assert_int_equal(diags.count, 3);
	assert_string_equal(diags.items[0].message,
			    "'concatenate' fields 0 and 1 differ outside axis 2: "
			    "Tensor[(1, 2, 3), float32] and Tensor[(1, 5, 3), float32]");
	assert_string_equal(diags.items[1].message,
			    "'concatenate' fields 0 and 1 differ in rank or dtype: "
			    "Tensor[(1, 2, 3), float32] and Tensor[(1, 2), float32]");
	assert_string_equal(diags.items[2].message,
			    "'concatenate' expects a non-empty tuple of tensors, got "
			    "Tensor[(1, 2, 3), float32]");
}

/* ---- flatten, expand_dims, squeeze, split ------------------------------ */

static void test_batch_flatten(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 512, 7, 7)), *y = prm("y", T(DT_FLOAT32, 2, ANY, 3));
	Expr *z = prm("z", T(DT_FLOAT32, 2, 0, ANY));
	Expr *big = prm("big", T(DT_FLOAT32, 1, INT64_MAX, 2));
	Expr *e1 = call(OP_BATCH_FLATTEN, ARGS(x), NOATTRS);
	Expr *e2 = call(OP_BATCH_FLATTEN, ARGS(y), NOATTRS);
	Expr *e3 = call(OP_BATCH_FLATTEN, ARGS(z), NOATTRS);
	Expr *e4 = call(OP_BATCH_FLATTEN, ARGS(big), NOATTRS);
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4))));
	check_built_error(e4,
			  "'nn.batch_flatten' of Tensor[(1, 9223372036854775807, 2), float32] has "
			  "more elements than int64 can count");
	check_built_type(e1, "Tensor[(1, 25088), float32]");
	check_built_type(e2, "Tensor[(2, ?), float32]");
	check_built_type(e3, "Tensor[(2, 0), float32]");
}

static void test_expand_dims(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 64));
	Expr *e1 = call(OP_EXPAND_DIMS, ARGS(x),
			ATTRS(attr_int("axis", 1), attr_int("num_newaxis", 2)));
	Expr *e2 = call(OP_EXPAND_DIMS, ARGS(x), ATTRS(attr_int("axis", -1)));
	Expr *e3 = call(OP_EXPAND_DIMS, ARGS(x), ATTRS(attr_int("axis", 0)));
	Expr *e4 = call(OP_EXPAND_DIMS, ARGS(x), ATTRS(attr_int("axis", -2)));
	Expr *e5 = call(OP_EXPAND_DIMS, ARGS(x),
			ATTRS(attr_int("axis", 0), attr_int("num_newaxis", 0)));
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4, e5))));
	check_built_type(e1, "Tensor[(64, 1, 1), float32]");
	check_built_type(e2, "Tensor[(64, 1), float32]");
	check_built_type(e3, "Tensor[(1, 64), float32]");
	check_built_type(e4, "Tensor[(1, 64), float32]");
	assert_ptr_equal(e5->type, x->type);
}

static void test_expand_dims_errors(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 64));
	Expr *e1 = call(OP_EXPAND_DIMS, ARGS(x), ATTRS(attr_int("axis", 2)));
	Expr *e2 = call(OP_EXPAND_DIMS, ARGS(x),
			ATTRS(attr_int("axis", 0), attr_int("num_newaxis", INT64_MAX)));
	Expr *e3 = call(OP_EXPAND_DIMS, ARGS(x), NOATTRS);
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3))));
	assert_int_equal(diags.count, 3);
	assert_string_equal(diags.items[0].message,
			    "'expand_dims' axis 2 is out of range for Tensor[(64), float32]");
	assert_string_equal(
		diags.items[1].message,
		"'expand_dims' num_newaxis=9223372036854775807 must be between 0 and 1023");
	assert_string_equal(diags.items[2].message, "'expand_dims' needs an axis attribute");
}

static void test_squeeze(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 5, 1)), *y = prm("y", T(DT_FLOAT32, 1, ANY));
	Expr *e1 = call(OP_SQUEEZE, ARGS(x), NOATTRS);
	Expr *e2 = call(OP_SQUEEZE, ARGS(x), ATTRS(LIST("axis", 2)));
	Expr *e3 = call(OP_SQUEEZE, ARGS(x), ATTRS(attr_none("axis")));
	Expr *e4 = call(OP_SQUEEZE, ARGS(y), ATTRS(LIST("axis", -1)));
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4))));
	check_built_type(e1, "Tensor[(5), float32]");
	check_built_type(e2, "Tensor[(1, 5), float32]");
	check_built_type(e3, "Tensor[(5), float32]");
	check_built_type(e4, "Tensor[(1), float32]");
}

static void test_squeeze_error(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 5, 1));
	Expr *e = FAIL(OP_SQUEEZE, ARGS(x), ATTRS(LIST("axis", 0, 1)));
	check_built_error(e,
			  "'squeeze' cannot squeeze axis 1 of Tensor[(1, 5, 1), float32]: its size "
			  "is 5");
}

static void test_split(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 128)), *y = prm("y", T(DT_FLOAT32, 10));
	Expr *z = prm("z", T(DT_FLOAT32, 2, ANY));
	Expr *e1 = call(OP_SPLIT, ARGS(x),
			ATTRS(attr_int("indices_or_sections", 4), attr_int("axis", 1)));
	Expr *e2 = call(OP_SPLIT, ARGS(y), ATTRS(LIST("indices_or_sections", 2, 5)));
	Expr *e3 = call(OP_SPLIT, ARGS(z),
			ATTRS(LIST("indices_or_sections", 3), attr_int("axis", -1)));
	Expr *e4 = call(OP_SPLIT, ARGS(y), ATTRS(LIST("indices_or_sections", 5, 5)));
	Expr *p = ir_proj(m, next_pos(), e1, 3);
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4, p))));
	check_built_type(
		e1,
		"(Tensor[(1, 32), float32], Tensor[(1, 32), float32], Tensor[(1, 32), float32], "
		"Tensor[(1, 32), float32])");
	check_built_type(e2, "(Tensor[(2), float32], Tensor[(3), float32], Tensor[(5), float32])");
	check_built_type(e3, "(Tensor[(2, 3), float32], Tensor[(2, ?), float32])");
	check_built_type(e4, "(Tensor[(5), float32], Tensor[(0), float32], Tensor[(5), float32])");
	check_built_type(p, "Tensor[(1, 32), float32]");
	/* equal sections share one field type */
	assert_ptr_equal(e1->type->u.tuple.fields[0], e1->type->u.tuple.fields[3]);
}

static void test_split_errors(void **state)
{
	Expr *x = prm("x", T(DT_FLOAT32, 1, 10));
	Expr *e1 = call(OP_SPLIT, ARGS(x),
			ATTRS(attr_int("indices_or_sections", 3), attr_int("axis", 1)));
	Expr *e2 = call(OP_SPLIT, ARGS(x),
			ATTRS(LIST("indices_or_sections", 6, 2), attr_int("axis", 1)));
	Expr *e3 = call(OP_SPLIT, ARGS(x), ATTRS(attr_int("indices_or_sections", 0)));
	Expr *e4 = call(OP_SPLIT, ARGS(x),
			ATTRS(LIST("indices_or_sections", 11), attr_int("axis", 1)));
	assert_false(run_main(ir_tuple(m, next_pos(), ARGS(e1, e2, e3, e4))));
	assert_int_equal(diags.count, 4);
	assert_string_equal(diags.items[0].message,
			    "'split' cannot divide axis 1 of Tensor[(1, 10), float32] into 3 equal "
			    "sections");
	assert_string_equal(diags.items[1].message,
			    "'split' indices [6, 2] are not increasing within axis 1 of "
			    "Tensor[(1, 10), float32]");
	assert_string_equal(diags.items[2].message,
			    "'split' needs between 1 and 65536 sections, got 0");
	assert_string_equal(diags.items[3].message,
			    "'split' indices [11] are not increasing within axis 1 of "
			    "Tensor[(1, 10), float32]");
}

static void test_annotations(void **state)
{
	Expr *a = prm("a", T(DT_FLOAT32, 5, 7)), *b = prm("b", T(DT_FLOAT32, 5, 7));
	Expr *t = ir_tuple(m, next_pos(), ARGS(a, b));
	Expr *e1 = call(OP_ON_DEVICE, ARGS(a), NOATTRS);
	Expr *e2 = call(OP_DEVICE_COPY, ARGS(e1), NOATTRS);
	Expr *e3 = call(OP_ON_DEVICE, ARGS(t), NOATTRS);
	assert_true(run_main(ir_tuple(m, next_pos(), ARGS(e2, e3))));
	assert_ptr_equal(e1->type, a->type);
	assert_ptr_equal(e2->type, a->type);
	assert_ptr_equal(e3->type, t->type);
}

#define F32(...) "Tensor[(" #__VA_ARGS__ "), float32]"

/* ---- nn.pad ---------------------------------------------------------------- */

static void test_pad(void **state)
{
	(void)state;
	expect_type("%x: " F32(1, 3, 4, 4),
		    "nn.pad(%x, 0f, pad_width=[[0, 0], [0, 0], [1, 2], [3, 4]])", F32(1, 3, 7, 11));
	expect_type("%x: " F32(2, 5),
		    "nn.pad(%x, 1f, pad_width=[[0, 0], [-1, 0]], pad_mode=\"edge\")", F32(2, 4));
	expect_type("%x: " F32(?, 5), "nn.pad(%x, 0f, pad_width=[[1, 1], [2, 2]])", F32(?, 9));
	expect_error("%x: " F32(1, 3, 4, 4), "nn.pad(%x, 0f, pad_width=[[0, 0], [1, 1], [1, 1]])",
		     "'nn.pad' needs a pad_width of 4 [before, after] pairs for "
		     "Tensor[(1, 3, 4, 4), float32]");
	expect_error("%x: " F32(2, 5), "nn.pad(%x, 0f, pad_width=[[0, 0], [1, 1, 1]])",
		     "'nn.pad' pad_width item 1 must be a pair [before, after] of integers");
	expect_error("%x: " F32(2, 5),
		     "nn.pad(%x, 0f, pad_width=[[0, 0], [1, 1]], pad_mode=\"wrap\")",
		     "'nn.pad' attribute pad_mode=\"wrap\" must be \"constant\", \"edge\" or "
		     "\"reflect\"");
	expect_error("%x: " F32(2, 5), "nn.pad(%x, 0f, pad_width=[[0, 0], [-3, -3]])",
		     "'nn.pad' pads dimension 1 of Tensor[(2, 5), float32] to an invalid extent");
	expect_error("%x: " F32(2, 5) ", %v: " F32(1), "nn.pad(%x, %v, pad_width=[[0, 0], [1, 1]])",
		     "'nn.pad' expects a scalar pad value, got Tensor[(1), float32]");
}

/* ---- take, shape_of, ndarray_size -------------------------------------- */

#define EMB "%w: Tensor[(30522, 768), float32], %i: Tensor[(1, 128), int64]"
#define D456 "%x: Tensor[(4, 5, 6), float32], %i: Tensor[(2, 3), int32]"

static void test_take(void **state)
{
	(void)state;
	/* bert's embedding lookup, and its `take(shape_of(w), 0)` */
	expect_call_type(EMB, "take(%w, %i, axis=0)", "Tensor[(1, 128, 768), float32]");
	expect_call_type("%s: Tensor[(2), int64]", "take(%s, 0i64)", "int64");
	/* without an axis: the flattened data, shaped like the indices */
	expect_call_type(D456, "take(%x, %i)", "Tensor[(2, 3), float32]");
	expect_call_type(D456, "take(%x, %i, axis=1)", "Tensor[(4, 2, 3, 6), float32]");
	expect_call_type(D456, "take(%x, %i, axis=-1, mode=\"wrap\")",
			 "Tensor[(4, 5, 2, 3), float32]");
	expect_call_type("%x: Tensor[(4, 5, 6), float32], %i: Tensor[(4, 3), int64]",
			 "take(%x, %i, axis=1, batch_dims=1, mode=\"fast\")",
			 "Tensor[(4, 3, 6), float32]");
	expect_call_type("%x: Tensor[(?, 5), float32], %i: Tensor[(?), int64]",
			 "take(%x, %i, axis=1)", "Tensor[(?, ?), float32]");
}

static void test_take_errors(void **state)
{
	(void)state;
	expect_call_error(D456, "take(%x, %i, axis=3)",
			  "'take' axis 3 is out of range for Tensor[(4, 5, 6), float32]");
	expect_call_error(D456, "take(%x, %i, mode=\"nearest\")",
			  "'take' mode must be \"clip\", \"wrap\" or \"fast\", got \"nearest\"");
	expect_call_error("%x: Tensor[(4, 5), float32], %i: Tensor[(2), float32]", "take(%x, %i)",
			  "'take' indices must be integers, got Tensor[(2), float32]");
	expect_call_error("%x: Tensor[(4, 5), float32], %i: Tensor[(2), bool]", "take(%x, %i)",
			  "'take' indices must be integers, got Tensor[(2), bool]");
	/* TVM takes unsigned and narrow indices too */
	expect_call_type("%x: Tensor[(4, 5), float32], %i: Tensor[(2), uint8]", "take(%x, %i)",
			 "Tensor[(2), float32]");
	expect_call_error(
		D456, "take(%x, %i, axis=1, batch_dims=2)",
		"'take' batch_dims 2 must be between 0 and the axis 1 and at most the rank "
		"of Tensor[(2, 3), int32]");
	expect_call_error(D456, "take(%x, %i, axis=1, batch_dims=1)",
			  "'take' batch dimension 0 differs: Tensor[(4, 5, 6), float32] and "
			  "Tensor[(2, 3), int32]");
}

static void test_shape_of(void **state)
{
	(void)state;
	expect_call_type("%x: Tensor[(2, 3, 4), float32]", "shape_of(%x)", "Tensor[(3), int32]");
	expect_call_type("%x: Tensor[(?, 3), float16]", "shape_of(%x, dtype=\"int64\")",
			 "Tensor[(2), int64]");
	expect_call_type("%x: float32", "shape_of(%x)", "Tensor[(0), int32]");
	expect_call_error("%x: Tensor[(2, 3), float32]", "shape_of(%x, dtype=\"int3\")",
			  "'shape_of' has unknown dtype \"int3\"");
	expect_call_type("%x: Tensor[(2, 3), float32]", "ndarray_size(%x)", "int32");
	expect_call_type("%x: Tensor[(2, 3), float32]", "ndarray_size(%x, dtype=\"int64\")",
			 "int64");
	expect_call_error("%x: (Tensor[(2, 3), float32],)", "ndarray_size(%x)",
			  "'ndarray_size' expects a tensor for argument 1, got (Tensor[(2, 3), "
			  "float32],)");
}

/* ---- strided_slice ----------------------------------------------------- */

#define X1020 "%x: Tensor[(10, 20), float32]"

static void test_strided_slice(void **state)
{
	(void)state;
	expect_call_type(X1020, "strided_slice(%x, begin=[2], end=[8])",
			 "Tensor[(6, 20), float32]");
	/* ceil(9 / 3) and 20 / 5 */
	expect_call_type(X1020, "strided_slice(%x, begin=[1, 0], end=[10, 20], strides=[3, 5])",
			 "Tensor[(3, 4), float32]");
	expect_call_type(X1020, "strided_slice(%x, begin=[0], end=[10], strides=[3])",
			 "Tensor[(4, 20), float32]");
	/* negative indices count from the end; ends are clamped */
	expect_call_type(X1020, "strided_slice(%x, begin=[-3], end=[-1])",
			 "Tensor[(2, 20), float32]");
	expect_call_type(X1020, "strided_slice(%x, begin=[-100, 5], end=[100, 1000])",
			 "Tensor[(10, 15), float32]");
	/* negative strides: 9 down to 1; 9 down to the front by 2 */
	expect_call_type(X1020, "strided_slice(%x, begin=[9], end=[0], strides=[-1])",
			 "Tensor[(9, 20), float32]");
	expect_call_type(X1020, "strided_slice(%x, begin=[-1], end=[-11], strides=[-2])",
			 "Tensor[(5, 20), float32]");
	/* a missing begin with a negative stride starts at the last element
	 * and a missing end stops before index 0 */
	expect_call_type(X1020, "strided_slice(%x, begin=[0], end=[10], strides=[1, -1])",
			 "Tensor[(10, 19), float32]");
	expect_call_type(X1020, "strided_slice(%x, begin=[5], end=[15], strides=[2], axes=[1])",
			 "Tensor[(10, 5), float32]");
	expect_call_type(X1020, "strided_slice(%x, begin=[1], end=[-2], axes=[-2])",
			 "Tensor[(7, 20), float32]");
	/* size mode: end is a size, -1 to the end; strides ignored */
	expect_call_type(X1020,
			 "strided_slice(%x, begin=[2, 3], end=[4, -1], strides=[2, 2], "
			 "slice_mode=\"size\")",
			 "Tensor[(4, 17), float32]");
	expect_call_type("%x: Tensor[(?, 20), float32]",
			 "strided_slice(%x, begin=[1, 2], end=[3, 4])", "Tensor[(?, 2), float32]");
	expect_call_type(X1020, "strided_slice(%x, begin=[3], end=[3])",
			 "Tensor[(0, 20), float32]");
}

static void test_strided_slice_errors(void **state)
{
	(void)state;
	expect_call_error(X1020, "strided_slice(%x, begin=[8], end=[2])",
			  "'strided_slice' begin 8 and end 2 are invalid for axis 0 of Tensor[(10, "
			  "20), float32]");
	expect_call_error(X1020, "strided_slice(%x, begin=[0], end=[2], strides=[0])",
			  "'strided_slice' stride of axis 0 is 0");
	expect_call_error(X1020, "strided_slice(%x, begin=[0], end=[2], slice_mode=\"step\")",
			  "'strided_slice' slice_mode must be \"end\" or \"size\", got \"step\"");
	expect_call_error(X1020, "strided_slice(%x, begin=[0], end=[2, 3], axes=[0])",
			  "'strided_slice' axes, begin, end and strides must have the same length");
	expect_call_error(
		X1020, "strided_slice(%x, begin=[0, 0, 0], end=[1, 1, 1])",
		"'strided_slice' begin, end and strides must have at most the 2 dimensions "
		"of Tensor[(10, 20), float32]");
	expect_call_error(X1020, "strided_slice(%x, begin=[0], end=[1], axes=[2])",
			  "'strided_slice' axis 2 is out of range for Tensor[(10, 20), float32]");
	expect_call_error(X1020, "strided_slice(%x, end=[1])",
			  "'strided_slice' needs begin and end attributes");
}

/* ---- reshape_like, broadcasting, collapsing ---------------------------- */

static void test_reshape_like(void **state)
{
	(void)state;
	expect_call_type("%x: Tensor[(2, 3), float32], %y: Tensor[(3, 2), int32]",
			 "reshape_like(%x, %y)", "Tensor[(3, 2), float32]");
	/* TVM's documented example */
	expect_call_type("%x: Tensor[(1, 2, 3, 4), float32], %y: Tensor[(6, 2, 2, 3), float32]",
			 "reshape_like(%x, %y, lhs_begin=1, rhs_end=3)",
			 "Tensor[(1, 6, 2, 2), float32]");
	expect_call_type("%x: Tensor[(2, 12), float32], %y: Tensor[(5, 3, 4), float32]",
			 "reshape_like(%x, %y, lhs_begin=-1, lhs_end=2, rhs_begin=-2)",
			 "Tensor[(2, 3, 4), float32]");
	expect_call_error("%x: Tensor[(2, 3), float32], %y: Tensor[(4, 2), float32]",
			  "reshape_like(%x, %y)",
			  "'reshape_like' cannot reshape Tensor[(2, 3), float32] to 8 elements");
	expect_call_error("%x: Tensor[(2, 3), float32], %y: Tensor[(4, 2), float32]",
			  "reshape_like(%x, %y, lhs_begin=2, lhs_end=1)",
			  "'reshape_like' ranges [2, 1) of Tensor[(2, 3), float32] and [0, 2) of "
			  "Tensor[(4, 2), float32] are invalid");
}

static void test_broadcast(void **state)
{
	(void)state;
	expect_call_type("%x: Tensor[(3, 1), float32]", "broadcast_to(%x, shape=[2, 3, 4])",
			 "Tensor[(2, 3, 4), float32]");
	expect_call_type("%x: int64", "broadcast_to(%x, shape=[5])", "Tensor[(5), int64]");
	expect_call_error(
		"%x: Tensor[(3, 2), float32]", "broadcast_to(%x, shape=[3, 4])",
		"'broadcast_to' cannot broadcast Tensor[(3, 2), float32] to Tensor[(3, 4), "
		"float32]");
	expect_call_error("%x: Tensor[(3, 2), float32]", "broadcast_to(%x, shape=[3, -2])",
			  "'broadcast_to' shape [3, -2] has a negative dimension");
	expect_call_type("%x: Tensor[(1, 4), float32], %y: Tensor[(3, 4), float32]",
			 "broadcast_to_like(%x, %y)", "Tensor[(3, 4), float32]");
	expect_call_error("%x: Tensor[(2, 4), float32], %y: Tensor[(3, 4), float32]",
			  "broadcast_to_like(%x, %y)",
			  "'broadcast_to_like' cannot broadcast Tensor[(2, 4), float32] to "
			  "Tensor[(3, 4), float32]");
	expect_call_error("%x: Tensor[(1, 4), int32], %y: Tensor[(3, 4), float32]",
			  "broadcast_to_like(%x, %y)",
			  "operands of 'broadcast_to_like' have different dtypes: Tensor[(1, 4), "
			  "int32] and Tensor[(3, 4), float32]");
}

/* ---- stack, tile, repeat, reverse -------------------------------------- */

#define PAIR23 "%a: Tensor[(2, 3), float32], %b: Tensor[(2, 3), float32]"

static void test_stack(void **state)
{
	(void)state;
	expect_call_type(PAIR23, "stack((%a, %b))", "Tensor[(2, 2, 3), float32]");
	expect_call_type(PAIR23, "stack((%a, %b, %a), axis=1)", "Tensor[(2, 3, 3), float32]");
	expect_call_type(PAIR23, "stack((%a, %b), axis=-1)", "Tensor[(2, 3, 2), float32]");
	expect_call_type("%a: Tensor[(?, 3), float32], %b: Tensor[(2, 3), float32]",
			 "stack((%a, %b), axis=2)", "Tensor[(2, 3, 2), float32]");
	expect_call_error(PAIR23, "stack((%a, %b), axis=3)",
			  "'stack' axis 3 is out of range for Tensor[(2, 3), float32]");
	expect_call_error(
		"%a: Tensor[(2, 3), float32], %b: Tensor[(3, 2), float32]", "stack((%a, %b))",
		"'stack' fields 0 and 1 differ: Tensor[(2, 3), float32] and Tensor[(3, 2), "
		"float32]");
	expect_call_error(
		"%a: Tensor[(2, 3), float32]", "stack(%a)",
		"'stack' expects a non-empty tuple of tensors, got Tensor[(2, 3), float32]");
}

static void test_tile_repeat_reverse(void **state)
{
	(void)state;
	expect_call_type("%x: Tensor[(2, 3), float32]", "tile(%x, reps=[2])",
			 "Tensor[(2, 6), float32]");
	expect_call_type("%x: Tensor[(2, 3), float32]", "tile(%x, reps=[2, 1, 2])",
			 "Tensor[(2, 2, 6), float32]");
	expect_call_type("%x: Tensor[(?, 3), float32]", "tile(%x, reps=[2, 2])",
			 "Tensor[(?, 6), float32]");
	expect_call_error("%x: Tensor[(2, 3), float32]", "tile(%x, reps=[1, 0])",
			  "'tile' reps [1, 0] must be positive");
	expect_call_type("%x: Tensor[(2, 3), float32]", "repeat(%x, repeats=3, axis=1)",
			 "Tensor[(2, 9), float32]");
	expect_call_type("%x: Tensor[(2, 3), float32]", "repeat(%x, repeats=3, axis=-2)",
			 "Tensor[(6, 3), float32]");
	expect_call_error("%x: Tensor[(2, 3), float32]", "repeat(%x, repeats=0, axis=1)",
			  "'repeat' needs repeats of at least 1");
	expect_call_type("%x: Tensor[(2, 3), int32]", "reverse(%x, axis=1)",
			 "Tensor[(2, 3), int32]");
	expect_call_error("%x: Tensor[(2, 3), int32]", "reverse(%x, axis=2)",
			  "'reverse' axis 2 is out of range for Tensor[(2, 3), int32]");
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
		expect_call_type(params, call, cases[i].want);
	}
	/* TVM's documented contrib_reverse_reshape example (the Python
	 * docstring; the C++ one has a typo): the special values read from
	 * the right */
	expect_call_type("%x: Tensor[(10, 5, 4), float32]", "reshape(%x, newshape=[-1, 0])",
			 "Tensor[(40, 5), float32]");
	expect_call_type("%x: Tensor[(10, 5, 4), float32]",
			 "contrib_reverse_reshape(%x, newshape=[-1, 0])",
			 "Tensor[(50, 4), float32]");
	expect_call_type("%x: Tensor[(2, 3, 4), float32]",
			 "contrib_reverse_reshape(%x, newshape=[0, -1])",
			 "Tensor[(3, 8), float32]");
	expect_call_type("%x: Tensor[(2, 3, 4), float32]",
			 "contrib_reverse_reshape(%x, newshape=[-3, 0])",
			 "Tensor[(6, 4), float32]");
	expect_call_error("%x: Tensor[(2, 3, 4), float32]",
			  "contrib_reverse_reshape(%x, newshape=[5, -1])",
			  "'contrib_reverse_reshape' cannot reshape Tensor[(2, 3, 4), float32] (24 "
			  "elements) to newshape [5, -1]");
	expect_call_error("%x: Tensor[(2, 3, 4), float32]", "reshape(%x, newshape=[-4, 5, -1, -2])",
			  "'reshape' newshape [-4, 5, -1, -2] cannot split dimension 2 of "
			  "Tensor[(2, 3, 4), float32]");
	expect_call_error("%x: Tensor[(2, 3, 4), float32]", "reshape(%x, newshape=[-1, -1])",
			  "'reshape' newshape [-1, -1] has more than one -1");
	expect_call_error("%x: Tensor[(2, 3, 4), float32]", "reshape(%x, newshape=[-5])",
			  "'reshape' newshape [-5] has invalid value -5");
}

/* ---- layouts and slice_like -------------------------------------------- */

#define NCHW "%x: Tensor[(1, 32, 7, 7), float32]"

static void test_layout_transform(void **state)
{
	(void)state;
	expect_call_type(NCHW, "layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NCHW16c\")",
			 "Tensor[(1, 2, 7, 7, 16), float32]");
	expect_call_type("%x: Tensor[(1, 2, 7, 7, 16), float32]",
			 "layout_transform(%x, src_layout=\"NCHW16c\", dst_layout=\"NCHW\")",
			 "Tensor[(1, 32, 7, 7), float32]");
	expect_call_type("%x: Tensor[(1, 2, 7, 7, 16), float32]",
			 "layout_transform(%x, src_layout=\"NCHW16c\", dst_layout=\"NCHW8c\")",
			 "Tensor[(1, 4, 7, 7, 8), float32]");
	expect_call_type(NCHW, "layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NHWC\")",
			 "Tensor[(1, 7, 7, 32), float32]");
	expect_call_type("%w: Tensor[(8, 16, 3, 3), float32]",
			 "layout_transform(%w, src_layout=\"OIHW\", dst_layout=\"OIHW4i4o\")",
			 "Tensor[(2, 4, 3, 3, 4, 4), float32]");
	expect_call_type("%x: Tensor[(?, 32, 7, 7), float32]",
			 "layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NHWC\")",
			 "Tensor[(?, 7, 7, 32), float32]");
	expect_call_error(
		"%x: Tensor[(1, 3, 7, 7), float32]",
		"layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NCHW16c\")",
		"'layout_transform' cannot split axis C of Tensor[(1, 3, 7, 7), float32] (3) "
		"by 16");
	expect_call_error(
		NCHW, "layout_transform(%x, src_layout=\"NCH\", dst_layout=\"NHC\")",
		"'layout_transform' src_layout \"NCH\" does not match Tensor[(1, 32, 7, 7), "
		"float32]");
	expect_call_error(NCHW, "layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NCDHW\")",
			  "'layout_transform' cannot convert from \"NCHW\" to \"NCDHW\"");
	expect_call_error(NCHW, "layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NCHWc\")",
			  "'layout_transform' dst_layout \"NCHWc\" is not a layout");
	expect_call_error(NCHW, "layout_transform(%x, src_layout=\"NCHW\", dst_layout=\"NHW4c\")",
			  "'layout_transform' dst_layout \"NHW4c\" is not a layout");
	expect_call_type(NCHW,
			 "auto_scheduler_layout_transform(%x, src_layout=\"1N32C7H7W\", "
			 "dst_layout=\"1N2C7H7W16c\")",
			 "Tensor[(1, 2, 7, 7, 16), float32]");
	expect_call_error(NCHW,
			  "auto_scheduler_layout_transform(%x, src_layout=\"1N32C7H7W\", "
			  "dst_layout=\"N2C\")",
			  "'auto_scheduler_layout_transform' dst_layout \"N2C\" is not a layout");
	expect_call_error(NCHW, "layout_transform(%x, src_layout=\"NCHW\")",
			  "'layout_transform' needs src_layout and dst_layout attributes");
}

/* meta_schedule_layout_transform's index map is TIR in the metadata: the
 * type comes from the printed one, checked against the data's dtype. */
static void test_meta_schedule_layout_transform(void **state)
{
	(void)state;
	expect_call_type(NCHW,
			 "meta_schedule_layout_transform(%x, index_map=meta[IndexMap][0]) "
			 "/* ty=Tensor[(1, 8, 7, 7, 4), float32] */",
			 "Tensor[(1, 8, 7, 7, 4), float32]");
	/* the type comment may carry devices too, as `ir --devices` prints */
	expect_call_type(NCHW,
			 "meta_schedule_layout_transform(%x, index_map=meta[IndexMap][2]) "
			 "/* ty=Tensor[(32, 49), float32] cpu:0 */",
			 "Tensor[(32, 49), float32]");
	expect_call_error(
		NCHW, "meta_schedule_layout_transform(%x, index_map=meta[IndexMap][0])",
		"'meta_schedule_layout_transform' needs its result type printed after the "
		"call (/* ty=... */): devplan cannot apply the index map");
	expect_call_error(
		NCHW, "meta_schedule_layout_transform(%x) /* ty=Tensor[(32, 49), float32] */",
		"'meta_schedule_layout_transform' needs an index_map (meta[IndexMap][i])");
	expect_call_error(
		NCHW,
		"meta_schedule_layout_transform(%x, index_map=meta[IndexMap][0]) "
		"/* ty=Tensor[(32, 49), int64] */",
		"'meta_schedule_layout_transform' is printed to give Tensor[(32, 49), int64], "
		"not a tensor of its data's dtype float32");
	expect_call_parse_error(
		NCHW, "meta_schedule_layout_transform(%x, index_map=[0, 1])",
		"attribute 'index_map' of 'meta_schedule_layout_transform' expects a "
		"metadata object (meta[KIND][i]), found a list",
		48);
	expect_call_parse_error(NCHW,
				"meta_schedule_layout_transform(%x, index_map=meta[IndexMap])",
				"expected '[' before the metadata index, found ')'", 62);
}

static void test_slice_like(void **state)
{
	(void)state;
	expect_call_type("%x: Tensor[(5, 6, 7), float32], %y: Tensor[(3, 4), int32]",
			 "slice_like(%x, %y)", "Tensor[(3, 4, 7), float32]");
	expect_call_type("%x: Tensor[(5, 6, 7), float32], %y: Tensor[(1, 2, 3), float32]",
			 "slice_like(%x, %y, axes=[-1])", "Tensor[(5, 6, 3), float32]");
	expect_call_error(
		"%x: Tensor[(5, 6, 7), float32], %y: Tensor[(6, 4), float32]", "slice_like(%x, %y)",
		"'slice_like' axis 0 of Tensor[(6, 4), float32] exceeds Tensor[(5, 6, 7), "
		"float32]");
	expect_call_error("%x: Tensor[(5, 6, 7), float32], %y: Tensor[(5, 6), float32]",
			  "slice_like(%x, %y, axes=[2])",
			  "'slice_like' axis 2 exceeds the rank of Tensor[(5, 6), float32]");
}

/* Attributes of the wrong kind, unknown ones and wrong operand counts are
 * the parser's errors, from the schemas and arities of ops.def. */
static void test_schema_errors(void **state)
{
	(void)state;
	expect_call_parse_error(D456, "take(%x, %i, axis=\"a\")",
				"attribute 'axis' of 'take' expects an integer, found a string",
				21);
	expect_call_parse_error(D456, "take(%x, %i, axis=1.5)",
				"attribute 'axis' of 'take' expects an integer, found a float", 21);
	expect_call_parse_error(
		D456, "take(%x, %i, foo=1)",
		"unknown attribute 'foo' for operator 'take' (it accepts batch_dims, "
		"axis, mode)",
		16);
	expect_call_parse_error(X1020, "strided_slice(%x, begin=1.5, end=[2])",
				"attribute 'begin' of 'strided_slice' expects a list of integers, "
				"found a float",
				27);
	expect_call_parse_error(X1020, "topk(%x, k=2, is_ascend=\"yes\")",
				"attribute 'is_ascend' of 'topk' expects a boolean, found a string",
				27);
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
	mod = parse_module(src, &devices, &diags);
	if (!mod || diags.errors)
		print_diags();
	assert_non_null(mod);
	if (!infer_module(mod, &diags)) {
		print_diags();
		fail_msg("the round-trip module does not infer");
	}
	strbuf_init(&sb);
	print_module(&sb, mod, NULL);
	if (strcmp(sb.data, round_trip_text) != 0)
		fprintf(stderr, "printed:\n%s", sb.data);
	assert_string_equal(sb.data, round_trip_text);
	strbuf_free(&sb);
}

#define F23 "%a: Tensor[(2, 3), float32]"
#define AB_BCAST "%a: Tensor[(4, 1, 3), float32], %b: Tensor[(5, 1), float32]"

/* ---- unary ------------------------------------------------------------- */

static void test_copy(void **state)
{
	(void)state;
	check_type(F23, "copy(%a)", "Tensor[(2, 3), float32]");
	check_type("%a: Tensor[(?, 4), int64]", "copy(%a)", "Tensor[(?, 4), int64]");
	check_type("%a: bool", "copy(%a)", "bool");
	check_error("%a: (Tensor[(2), float32], Tensor[(2), float32])", "copy(%a)",
		    "'copy' expects a tensor for argument 1, got (Tensor[(2), float32], "
		    "Tensor[(2), float32])");
}

/* ---- where ------------------------------------------------------------- */

static void test_where(void **state)
{
	(void)state;
	check_type("%c: Tensor[(2, 3), bool], %x: Tensor[(2, 3), float32], %y: "
		   "Tensor[(2, 3), float32]",
		   "where(%c, %x, %y)", "Tensor[(2, 3), float32]");
	/* three-way broadcast: the condition's shape joins x's and y's */
	check_type("%c: Tensor[(4, 1, 1), bool], %x: Tensor[(3), int64], %y: Tensor[(5, 1), "
		   "int64]",
		   "where(%c, %x, %y)", "Tensor[(4, 5, 3), int64]");
	check_type("%c: bool, %x: Tensor[(?, 2), float32], %y: float32", "where(%c, %x, %y)",
		   "Tensor[(?, 2), float32]");
	/* TVM: a non-zero condition element selects x, whatever its dtype */
	check_type("%c: Tensor[(2, 1), int32], %x: Tensor[(3), float32], %y: float32",
		   "where(%c, %x, %y)", "Tensor[(2, 3), float32]");
	check_error("%c: bool, %x: Tensor[(3), float32], %y: Tensor[(3), int32]",
		    "where(%c, %x, %y)",
		    "operands of 'where' have different dtypes: Tensor[(3), float32] and "
		    "Tensor[(3), int32]");
	check_error("%c: bool, %x: Tensor[(3), float32], %y: Tensor[(2), float32]",
		    "where(%c, %x, %y)",
		    "cannot broadcast operands of 'where': Tensor[(3), float32] and "
		    "Tensor[(2), float32]");
	check_error("%c: Tensor[(4), bool], %x: Tensor[(3), float32], %y: float32",
		    "where(%c, %x, %y)",
		    "cannot broadcast operands of 'where': Tensor[(4), bool] and "
		    "Tensor[(3), float32]");
	check_error("%c: (bool,), %x: float32, %y: float32", "where(%c, %x, %y)",
		    "'where' expects a tensor for argument 1, got (bool,)");
}

static void test_reinterpret(void **state)
{
	(void)state;
	check_type(F23, "reinterpret(%a, dtype=\"int32\")", "Tensor[(2, 3), int32]");
	check_type("%a: Tensor[(?), int64]", "reinterpret(%a, dtype=\"float64\")",
		   "Tensor[(?), float64]");
	check_error(F23, "reinterpret(%a, dtype=\"int64\")",
		    "'reinterpret' cannot reinterpret Tensor[(2, 3), float32] as int64: "
		    "elements of 4 and 8 bytes");
	check_error(F23, "reinterpret(%a)", "'reinterpret' needs a dtype attribute");
	check_type(F23, "reinterpret(%a, dtype=\"uint32\")", "Tensor[(2, 3), uint32]");
	check_type("%a: Tensor[(4), int8]", "reinterpret(%a, dtype=\"uint8\")",
		   "Tensor[(4), uint8]");
	check_type("%a: Tensor[(4), float16]", "reinterpret(%a, dtype=\"bfloat16\")",
		   "Tensor[(4), bfloat16]");
	check_error(F23, "reinterpret(%a, dtype=\"uint8\")",
		    "'reinterpret' cannot reinterpret Tensor[(2, 3), float32] as uint8: "
		    "elements of 4 and 1 bytes");
	check_error(F23, "reinterpret(%a, dtype=\"uint4\")",
		    "'reinterpret' has unknown dtype \"uint4\"");
	check_parse_error(F23, "reinterpret(%a, dtype=4)", 25,
			  "attribute 'dtype' of 'reinterpret' expects a string, found an integer");
}

/* nn.depth_to_space and nn.space_to_depth: blocks of the channel axis
 * moved to the spatial ones and back. */
static void test_depth_space(void **state)
{
	(void)state;
	expect_type("%x: " F32(1, 8, 2, 3), "nn.depth_to_space(%x, block_size=2)", F32(1, 2, 4, 6));
	expect_type("%x: " F32(1, 2, 3, 8),
		    "nn.depth_to_space(%x, block_size=2, layout=\"NHWC\", mode=\"CDR\")",
		    F32(1, 4, 6, 2));
	expect_type("%x: " F32(1, 2, 4, 6), "nn.space_to_depth(%x, block_size=2)", F32(1, 8, 2, 3));
}

/* nn.depth_to_space and nn.space_to_depth: the errors. */
static void test_depth_space_errors(void **state)
{
	(void)state;
	expect_error("%x: " F32(1, 6, 2, 3), "nn.depth_to_space(%x, block_size=2)",
		     "'nn.depth_to_space' data Tensor[(1, 6, 2, 3), float32] has 6 channels, not "
		     "divisible by block_size^2=4");
	expect_error("%x: " F32(1, 2, 4, 6), "nn.space_to_depth(%x, block_size=0)",
		     "'nn.space_to_depth' attribute block_size=0 must be positive");
}

/* nn.mirror_pad: nn.pad's shape, in reflect or symmetric mode. */
static void test_mirror_pad(void **state)
{
	(void)state;
	expect_type("%x: " F32(2, 3),
		    "nn.mirror_pad(%x, mode=\"REFLECT\", pad_width=[[1, 1], [2, 0]])", F32(4, 5));
}

/* nn.mirror_pad: the errors. */
static void test_mirror_pad_errors(void **state)
{
	(void)state;
	expect_error("%x: " F32(2, 3), "nn.mirror_pad(%x, pad_width=[[1, 1], [-1, 0]])",
		     "'nn.mirror_pad' pad_width item 1 must not be negative");
	expect_error("%x: " F32(2, 3), "nn.mirror_pad(%x, pad_width=[[1, 1]])",
		     "'nn.mirror_pad' needs a pad_width of 2 [before, after] pairs");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_reshape),
		TEST(test_reshape_count_mismatch),
		TEST(test_reshape_errors),
		TEST(test_transpose),
		TEST(test_transpose_errors),
		TEST(test_concatenate),
		TEST(test_concatenate_errors),
		TEST(test_batch_flatten),
		TEST(test_expand_dims),
		TEST(test_expand_dims_errors),
		TEST(test_squeeze),
		TEST(test_squeeze_error),
		TEST(test_split),
		TEST(test_split_errors),
		TEST(test_annotations),
		TEST(test_pad),
		TEST(test_take),
		TEST(test_take_errors),
		TEST(test_shape_of),
		TEST(test_strided_slice),
		TEST(test_strided_slice_errors),
		TEST(test_reshape_like),
		TEST(test_broadcast),
		TEST(test_stack),
		TEST(test_tile_repeat_reverse),
		TEST(test_reshape_special_values),
		TEST(test_layout_transform),
		TEST(test_meta_schedule_layout_transform),
		TEST(test_slice_like),
		TEST(test_schema_errors),
		TEST(test_round_trip),
		TEST(test_copy),
		TEST(test_where),
		TEST(test_reinterpret),
		TEST(test_depth_space),
		TEST(test_depth_space_errors),
		TEST(test_mirror_pad),
		TEST(test_mirror_pad_errors),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
