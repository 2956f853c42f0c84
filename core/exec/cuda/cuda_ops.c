/*
 * cuda_ops.c - which dtypes the CUDA kernels take (kernel_cuda_supports),
 * compiled in every build so that a build without nvcc links it too.
 *
 * The CUDA kernels themselves are declared from ops.def (kernels_cuda.h),
 * one kernel_cuda_ID per OP line in cuda_FAMILY.cu of the family ops.def
 * gives it; the backend's table (exec_cuda.cu) takes them in ops.def order,
 * so where nvcc builds the backend an operator without its kernel does not
 * link, and tests/op-families checks, from the objects, that each kernel
 * is in its family's file.
 */
#include <string.h>

#include "kernels.h"
#include "ops.h"

/* The transform family, the gathers and the arrange family move elements
 * by their size in bytes (or read and write integers of any dtype), and
 * the qnn family reads and writes every integer dtype, so they take every
 * dtype (the qnn relations let through only the ones TVM takes); the other
 * CUDA kernels take only the dtypes kernel_dtype_checked_at_launch names. */
static bool moves_bytes(OpKind op)
{
	const OpInfo *info = op_info(op);
	if (!info->has_kernel)
		return false;
	return strcmp(info->family, "transform") == 0 || strcmp(info->family, "arrange") == 0 ||
	       strcmp(info->family, "qnn") == 0 || op == OP_GATHER || op == OP_GATHER_ND;
}

bool kernel_cuda_supports(OpKind op, DType dtype)
{
	return kernel_dtype_checked_at_launch(dtype) || moves_bytes(op);
}
