/*
 * test_infer_nn_misc.c - the type relations of the nn_misc family of
 * ops.def (core/plan/infer/infer_nn_misc.c): nn.cross_entropy,
 * nn.cross_entropy_with_logits, nn.nll_loss, nn.fifo_buffer,
 * nn.max_pool2d_grad, nn.avg_pool2d_grad, nn.conv2d_backward_weight,
 * nn.correlation, nn.deformable_conv2d, nn.contrib_dense_pack,
 * nn.sparse_dense, nn.internal.sparse_dense_padded, nn.sparse_transpose,
 * nn.sparse_add, nn.sparse_conv2d.
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

#define F32(...) "Tensor[(" #__VA_ARGS__ "), float32]"

#define I32(...) "Tensor[(" #__VA_ARGS__ "), int32]"
#define I64(...) "Tensor[(" #__VA_ARGS__ "), int64]"

/* ---- the rest of nn.* ------------------------------------------------------- */

static void test_nn_misc(void **state)
{
	(void)state;
	expect_type("%x: " F32(4, 10) ", %y: " F32(4, 10), "nn.cross_entropy(%x, %y)", "float32");
	expect_type("%x: " F32(4, 10) ", %y: " F32(4, 10), "nn.cross_entropy_with_logits(%x, %y)",
		    "float32");
	expect_type("%p: " F32(4, 10) ", %t: Tensor[(4), uint8], %w: " F32(10),
		    "nn.nll_loss(%p, %t, %w)", "float32");
	expect_type("%p: " F32(4, 10) ", %t: " I64(4) ", %w: " F32(10), "nn.nll_loss(%p, %t, %w)",
		    "float32");
	expect_type("%p: " F32(4, 10, 5) ", %t: " I64(4, 5) ", %w: " F32(10),
		    "nn.nll_loss(%p, %t, %w, reduction=\"none\", ignore_index=0)", F32(4, 5));
	expect_type("%i: " F32(1, 2, 3) ", %b: " F32(1, 10, 3), "nn.fifo_buffer(%i, %b, axis=1)",
		    F32(1, 10, 3));
	expect_type("%g: " F32(1, 3, 2, 2) ", %x: " F32(1, 3, 4, 4),
		    "nn.max_pool2d_grad(%g, %x, pool_size=[2, 2], strides=[2, 2])",
		    F32(1, 3, 4, 4));
	expect_type("%g: " F32(1, 3, 2, 2) ", %x: " F32(1, 3, 4, 4),
		    "nn.avg_pool2d_grad(%g, %x, pool_size=[2, 2], strides=[2, 2], "
		    "count_include_pad=True)",
		    F32(1, 3, 4, 4));
	expect_type("%g: " F32(1, 8, 6, 6) ", %x: " F32(1, 4, 8, 8),
		    "nn.conv2d_backward_weight(%g, %x, kernel_size=[3, 3])", F32(8, 4, 3, 3));
	expect_type("%g: " F32(1, 8, 6, 6) ", %x: " F32(1, 4, 8, 8),
		    "nn.conv2d_backward_weight(%g, %x, groups=2, kernel_size=[3, 3])",
		    F32(8, 2, 3, 3));
	expect_type("%g: " F32(1, 4, 6, 6) ", %x: " F32(1, 4, 8, 8),
		    "nn.conv2d_backward_weight(%g, %x, groups=4, channels=4, kernel_size=[3, 3])",
		    F32(4, 1, 3, 3));
	/* channels last: the gradient's and the data's layouts, the weight in
	 * out_layout */
	expect_type("%g: " F32(1, 6, 6, 8) ", %x: " F32(1, 8, 8, 4),
		    "nn.conv2d_backward_weight(%g, %x, kernel_size=[3, 2], data_layout=\"NHWC\", "
		    "kernel_layout=\"NHWC\", out_layout=\"HWIO\")",
		    F32(3, 2, 4, 8));
	expect_type("%a: " F32(1, 3, 10, 10) ", %b: " F32(1, 3, 10, 10),
		    "nn.correlation(%a, %b, kernel_size=1, max_displacement=2, stride1=1, "
		    "stride2=1, padding=[2, 2])",
		    F32(1, 25, 10, 10));
	expect_type("%a: " F32(1, 3, 10, 10) ", %b: " F32(1, 3, 10, 10), "nn.correlation(%a, %b)",
		    F32(1, 9, 8, 8));
	expect_type("%d: " F32(1, 4, 8, 8) ", %o: " F32(1, 18, 6, 6) ", %w: " F32(6, 4, 3, 3),
		    "nn.deformable_conv2d(%d, %o, %w)", F32(1, 6, 6, 6));
	expect_type("%d: " F32(1, 4, 8, 8) ", %o: " F32(1, 36, 8, 8) ", %w: " F32(6, 4, 3, 3),
		    "nn.deformable_conv2d(%d, %o, %w, padding=[1, 1], deformable_groups=2)",
		    F32(1, 6, 8, 8));
	/* channels last: the offsets in the data's layout, the result in
	 * out_layout or the data's */
	expect_type("%d: " F32(1, 8, 8, 4) ", %o: " F32(1, 6, 6, 18) ", %w: " F32(3, 3, 4, 5),
		    "nn.deformable_conv2d(%d, %o, %w, data_layout=\"NHWC\", "
		    "kernel_layout=\"HWIO\")",
		    F32(1, 6, 6, 5));
	expect_type("%d: " F32(1, 8, 8, 4) ", %o: " F32(1, 6, 6, 18) ", %w: " F32(3, 3, 4, 5),
		    "nn.deformable_conv2d(%d, %o, %w, data_layout=\"NHWC\", "
		    "kernel_layout=\"HWIO\", out_layout=\"NCHW\")",
		    F32(1, 5, 6, 6));
	expect_type("%d: " F32(2, 16) ", %w: " F32(4, 16, 8), "nn.contrib_dense_pack(%d, %w)",
		    F32(2, 32));
}

static void test_nn_misc_errors(void **state)
{
	(void)state;
	expect_error("%x: " F32(4, 10) ", %y: " F32(4, 9), "nn.cross_entropy(%x, %y)",
		     "'nn.cross_entropy' expects predictions and targets of one 2-D shape, got "
		     "Tensor[(4, 10), float32] and Tensor[(4, 9), float32]");
	expect_error("%p: " F32(4, 10) ", %t: " F32(4) ", %w: " F32(10), "nn.nll_loss(%p, %t, %w)",
		     "'nn.nll_loss' expects integer targets, got Tensor[(4), float32]");
	expect_error("%p: " F32(4, 10) ", %t: Tensor[(4), bool], %w: " F32(10),
		     "nn.nll_loss(%p, %t, %w)",
		     "'nn.nll_loss' expects integer targets, got Tensor[(4), bool]");
	expect_error("%p: " F32(4, 10) ", %t: " I64(4) ", %w: " F32(9), "nn.nll_loss(%p, %t, %w)",
		     "'nn.nll_loss' expects weights as long as the classes of "
		     "Tensor[(4, 10), float32], got Tensor[(9), float32]");
	expect_error("%i: " F32(1, 10, 3) ", %b: " F32(1, 10, 3), "nn.fifo_buffer(%i, %b, axis=1)",
		     "'nn.fifo_buffer' expects an input like the buffer but shorter along axis 1, "
		     "got Tensor[(1, 10, 3), float32] and Tensor[(1, 10, 3), float32]");
	expect_error("%g: " F32(1, 8, 6, 6) ", %x: " F32(1, 4, 8, 8),
		     "nn.conv2d_backward_weight(%g, %x)",
		     "'nn.conv2d_backward_weight' needs a kernel_size attribute");
	expect_error(
		"%a: " F32(1, 3, 10, 10) ", %b: " F32(1, 3, 10, 10),
		"nn.correlation(%a, %b, kernel_size=2)",
		"'nn.correlation' needs an odd kernel_size, a non-negative max_displacement and "
		"positive strides");
	expect_error("%d: " F32(1, 4, 8, 8) ", %o: " F32(1, 18, 8, 8) ", %w: " F32(6, 4, 3, 3),
		     "nn.deformable_conv2d(%d, %o, %w)",
		     "'nn.deformable_conv2d' expects offsets of shape (1, 18, 6, 6), got "
		     "Tensor[(1, 18, 8, 8), float32]");
	expect_error("%d: " F32(2, 16) ", %w: " F32(4, 15, 8), "nn.contrib_dense_pack(%d, %w)",
		     "'nn.contrib_dense_pack' expects data [M, K] and packed weight [N / n, K, n], "
		     "got Tensor[(2, 16), float32] and Tensor[(4, 15, 8), float32]");
}

/* ---- sparse ------------------------------------------------------------------ */

#define CSR(nnz, rows) "Tensor[(" #nnz "), float32], %i: " I32(nnz) ", %p: " I32(rows)

static void test_sparse(void **state)
{
	(void)state;
	expect_type("%x: " F32(3, 8) ", %d: " CSR(10, 5), "nn.sparse_dense(%x, %d, %i, %p)",
		    F32(3, 4));
	expect_type("%x: " F32(3, 8) ", %d: " F32(6, 2, 4) ", %i: " I32(6) ", %p: " I32(3),
		    "nn.sparse_dense(%x, %d, %i, %p)", F32(3, 4));
	expect_type("%x: " F32(5, 8) ", %d: " CSR(10, 5),
		    "nn.sparse_dense(%x, %d, %i, %p, sparse_lhs=True)", F32(4, 5));
	expect_type("%x: " F32(3, 8) ", %d: " CSR(10, 5),
		    "nn.internal.sparse_dense_padded(%x, %d, %i, %p)", F32(3, 4));
	expect_type("%d: " CSR(10, 5), "nn.sparse_transpose(%d, %i, %p)",
		    "(" F32(10) ", " I32(10) ", " I32(5) ")");
	expect_type("%x: " F32(4, 6) ", %d: " CSR(5, 5), "nn.sparse_add(%x, %d, %i, %p)",
		    F32(4, 6));
	expect_type("%x: " F32(1, 8, 8, 16) ", %d: " F32(6, 4, 1) ", %i: " I32(6) ", %p: " I32(9),
		    "nn.sparse_conv2d(%x, %d, %i, %p)", F32(1, 8, 8, 32));
	expect_type("%x: " F32(1, 16, 8, 8) ", %d: " F32(6, 2) ", %i: " I32(6) ", %p: " I32(5),
		    "nn.sparse_conv2d(%x, %d, %i, %p, layout=\"NCHW\", kernel_size=[1, 1])",
		    F32(1, 8, 8, 8));
	expect_error("%x: " F32(3, 8) ", %d: " F32(10, 2) ", %i: " I32(10) ", %p: " I32(5),
		     "nn.sparse_dense(%x, %d, %i, %p)",
		     "'nn.sparse_dense' expects a sparse matrix as 1-D or 3-D data with 1-D "
		     "indices and index pointers, got Tensor[(10, 2), float32], "
		     "Tensor[(10), int32] and Tensor[(5), int32]");
	expect_error("%x: Tensor[(4, 6), float64], %d: " CSR(5, 5), "nn.sparse_add(%x, %d, %i, %p)",
		     "operands of 'nn.sparse_add' have different dtypes: Tensor[(4, 6), float64] "
		     "and Tensor[(5), float32]");
	expect_error(
		"%x: " F32(3, 6) ", %d: " CSR(5, 5), "nn.sparse_add(%x, %d, %i, %p)",
		"'nn.sparse_add' expects a 2-D dense operand and a CSR matrix of its rows, got "
		"Tensor[(3, 6), float32] and Tensor[(5), float32]");
	expect_error("%x: " F32(1, 8, 8, 16) ", %d: " CSR(10, 5),
		     "nn.sparse_conv2d(%x, %d, %i, %p, layout=\"HWCN\")",
		     "'nn.sparse_conv2d' attribute layout=\"HWCN\" must be \"NHWC\" or \"NCHW\"");
}

/* The rest of nn.*, every attribute given. */
static void test_round_trip_nn_misc(void **state)
{
	(void)state;
	expect_round_trip(
		"#[version = \"0.0.5\"]\n"
		"def @main(%x: Tensor[(1, 4, 8, 8), float32], %o: Tensor[(1, 18, 6, 8), float32], "
		"%w: Tensor[(4, 4, 3, 3), float32], %t: Tensor[(1, 8, 8), int64], "
		"%c: Tensor[(4), float32], %p: Tensor[(2, 16, 8), float32], "
		"%d: Tensor[(20), float32], %i: Tensor[(20), int32], %r: Tensor[(17), int32], "
		"%e: Tensor[(20, 1), float32]) {\n"
		"  %0 = nn.mirror_pad(%x, mode=\"REFLECT\", pad_width=[[0, 0], [0, 0], [0, 0], [1, "
		"1]]);\n"
		"  %1 = nn.deformable_conv2d(%0, %o, %w, strides=[1, 1], padding=[0, 0], "
		"dilation=[1, 1], deformable_groups=1, groups=1, channels=4, kernel_size=[3, 3], "
		"data_layout=\"NCHW\", kernel_layout=\"OIHW\", out_layout=\"\", "
		"out_dtype=\"float32\");\n"
		"  %2 = nn.correlation(%1, %x, kernel_size=3, max_displacement=1, stride1=1, "
		"stride2=1, padding=[2, 2], is_multiply=False, layout=\"NCHW\");\n"
		"  %3 = nn.max_pool2d_grad(%x, %x, pool_size=[1, 1], strides=[1, 1], "
		"dilation=[1, 1], padding=[0, 0], layout=\"NCHW\", out_layout=\"\", "
		"ceil_mode=False);\n"
		"  %4 = nn.avg_pool2d_grad(%3, %x, pool_size=[1, 1], strides=[1, 1], "
		"dilation=[1, 1], padding=[0, 0], layout=\"NCHW\", out_layout=\"\", "
		"ceil_mode=False, "
		"count_include_pad=True);\n"
		"  %5 = nn.conv2d_backward_weight(%4, %x, strides=[1, 1], padding=[1, 1], "
		"dilation=[1, 1], groups=1, channels=4, kernel_size=[3, 3], data_layout=\"NCHW\", "
		"kernel_layout=\"NCHW\", out_layout=\"OIHW\", out_dtype=\"float32\");\n"
		"  %6 = nn.space_to_batch_nd(%x, block_shape=[2, 2], paddings=[[0, 0], [0, 0]], "
		"pad_value=0f);\n"
		"  %7 = nn.batch_to_space_nd(%6, block_shape=[2, 2], crops=[[0, 0], [0, 0]]);\n"
		"  %8 = nn.dilate(%7, strides=[1, 1, 2, 2], dilation_value=1f);\n"
		"  %9 = nn.nll_loss(%x, %t, %c, reduction=\"sum\", ignore_index=-1);\n"
		"  %10 = reshape(%x, newshape=[32, 8]);\n"
		"  %11 = nn.cross_entropy(%10, %10);\n"
		"  %12 = nn.cross_entropy_with_logits(%10, %10);\n"
		"  %13 = nn.fifo_buffer(%x, %0, axis=3);\n"
		"  %14 = reshape(%x, newshape=[16, 16]);\n"
		"  %15 = nn.contrib_dense_pack(%14, %p, units=16, out_dtype=\"float32\", "
		"weight_layout=\"NC4n\");\n"
		"  %16 = nn.sparse_dense(%14, %d, %i, %r, sparse_lhs=False);\n"
		"  %17 = nn.internal.sparse_dense_padded(%14, %d, %i, %r, sparse_lhs=True);\n"
		"  %18 = nn.sparse_transpose(%d, %i, %r);\n"
		"  %19 = nn.sparse_add(%14, %d, %i, %r);\n"
		"  %20 = nn.sparse_conv2d(%x, %e, %i, %r, layout=\"NCHW\", kernel_size=[1, 1]);\n"
		"  (%2, %5, %8, %9, %11, %12, %13, %15, %16, %17, %18, %19, %20)\n"
		"}\n");
	assert_string_equal(
		infer_type_name(mod, mod->globals[0].fn->u.fn.body->type),
		"(" F32(1, 9, 6, 8) ", " F32(4, 4, 3, 3) ", " F32(
			1, 4, 15,
			15) ", float32, "
			    "float32, "
			    "float32, " F32(1, 4, 8, 10) ", " F32(16, 16) ", " F32(16, 16) ", " F32(
				    16, 16) ", "
					    "(" F32(20) ", " I32(20) ", " I32(17) "), " F32(
						    16, 16) ", " F32(1, 16, 8, 8) ")");
}

int main(void)
{
#define TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		TEST(test_nn_misc),
		TEST(test_nn_misc_errors),
		TEST(test_sparse),
		TEST(test_round_trip_nn_misc),
	};
#undef TEST
	return cmocka_run_group_tests(tests, NULL, NULL);
}
