/*
 * cuda_ops.c - checks, in every build, that cuda_ops.h gives each operator
 * of ops.def exactly one CUDA entry; and says which dtypes the CUDA kernels
 * take (kernel_cuda_supports, which a build without nvcc links too).
 *
 * The CUDA kernels compile only where CMake finds nvcc, so on a machine
 * without it nothing would notice an operator added to ops.def with no CUDA
 * kernel until a GPU build. The lists of cuda_ops.h are C, and this file,
 * compiled everywhere, makes that a build error naming the operator:
 * "'cuda_entry_ID' undeclared".
 */
#include "cuda_ops.h"
#include "kernels.h"
#include "ops.h"

/* One constant per entry: an entry given twice is a redeclaration, one for
 * an operator that ops.def does not have an undeclared OP_ID. */
enum CudaEntry {
#define CUDA_ENTRY(id) cuda_entry_##id = OP_##id,
	CUDA_OPS(CUDA_ENTRY)
#undef CUDA_ENTRY
};

/* One check per operator of ops.def: an operator without an entry is an
 * undeclared cuda_entry_ID here. */
#define OP(id, name, min_args, max_args, schema) \
	_Static_assert((int)cuda_entry_##id == (int)OP_##id, "the CUDA entry of " #id);
#define OP_PLAN(id, name, min_args, max_args, schema) /* no kernel */
#include "ops.def"
#undef OP_PLAN
#undef OP

/* The transform family, the gathers and the arrange family move elements
 * by their size in bytes (or read and write integers of any dtype), and
 * the qnn family reads and writes every integer dtype, so they take every
 * dtype (the qnn relations let through only the ones TVM takes); the other CUDA kernels take only the dtypes
 * kernel_dtype_checked_at_launch names. */
bool kernel_cuda_supports(OpKind op, DType dtype)
{
	static const bool moves_bytes[OP_COUNT] = {
#define CUDA_MOVER(id) [OP_##id] = true,
		CUDA_OPS_TRANSFORM(CUDA_MOVER) CUDA_OPS_ARRANGE(CUDA_MOVER) CUDA_OPS_QNN(CUDA_MOVER)
			CUDA_MOVER(GATHER) CUDA_MOVER(GATHER_ND)
#undef CUDA_MOVER
	};
	return kernel_dtype_checked_at_launch(dtype) || moves_bytes[op];
}
