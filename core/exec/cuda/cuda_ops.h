/*
 * cuda_ops.h - which file of core/exec/cuda/ holds each operator's CUDA
 * kernel: one list per family file, CUDA_OPS_FAMILY(X) naming the
 * operators whose kernel_cuda_ID cuda_FAMILY.cu defines.
 *
 * The lists are C and C++. kernels_cuda.h declares the kernels from them
 * and the backend's table (exec_cuda.cu) takes one per operator in ops.def
 * order, so where nvcc builds the backend an operator without an entry
 * does not compile. cuda_ops.c compiles in every build and checks the lists
 * against ops.def, so a build without CUDA rejects it as well: adding an
 * operator means adding its kernel to a family file and its ID here.
 */
#ifndef DEVPLAN_CUDA_OPS_H
#define DEVPLAN_CUDA_OPS_H

#define CUDA_OPS_ELEMENTWISE(X) \
	X(ADD)                  \
	X(SUBTRACT)             \
	X(MULTIPLY)             \
	X(DIVIDE)               \
	X(MAXIMUM)              \
	X(MINIMUM)              \
	X(BIAS_ADD)             \
	X(NEGATIVE)             \
	X(EXP)                  \
	X(LOG)                  \
	X(SQRT)                 \
	X(TANH)                 \
	X(SIGMOID)              \
	X(RELU)                 \
	X(CLIP)                 \
	X(CAST)                 \
	X(CAST_LIKE)            \
	X(FIXED_POINT_MULTIPLY) \
	X(ERF)                  \
	X(FAST_ERF)             \
	X(FAST_EXP)             \
	X(FAST_TANH)            \
	X(RSQRT)                \
	X(LOG2)                 \
	X(LOG10)                \
	X(SIN)                  \
	X(COS)                  \
	X(TAN)                  \
	X(ASIN)                 \
	X(ACOS)                 \
	X(ATAN)                 \
	X(SINH)                 \
	X(COSH)                 \
	X(ASINH)                \
	X(ACOSH)                \
	X(ATANH)                \
	X(ABS)                  \
	X(CEIL)                 \
	X(FLOOR)                \
	X(ROUND)                \
	X(TRUNC)                \
	X(SIGN)                 \
	X(LOGICAL_NOT)          \
	X(BITWISE_NOT)          \
	X(ISNAN)                \
	X(ISINF)                \
	X(ISFINITE)             \
	X(POWER)                \
	X(MOD)                  \
	X(TRUNC_MOD)            \
	X(TRUNC_DIVIDE)         \
	X(FLOOR_DIVIDE)         \
	X(FLOOR_MOD)            \
	X(LOGICAL_AND)          \
	X(LOGICAL_OR)           \
	X(LOGICAL_XOR)          \
	X(BITWISE_AND)          \
	X(BITWISE_OR)           \
	X(BITWISE_XOR)          \
	X(LEFT_SHIFT)           \
	X(RIGHT_SHIFT)          \
	X(EQUAL)                \
	X(NOT_EQUAL)            \
	X(LESS)                 \
	X(LESS_EQUAL)           \
	X(GREATER)              \
	X(GREATER_EQUAL)
#define CUDA_OPS_FILL(X) \
	X(ZEROS)         \
	X(ONES)          \
	X(ZEROS_LIKE)    \
	X(ONES_LIKE)
#define CUDA_OPS_REDUCE(X)   \
	X(SUM)               \
	X(MEAN)              \
	X(MAX)               \
	X(MIN)               \
	X(PROD)              \
	X(ALL)               \
	X(ANY)               \
	X(ARGMAX)            \
	X(ARGMIN)            \
	X(VARIANCE)          \
	X(COLLAPSE_SUM_LIKE) \
	X(COLLAPSE_SUM_TO)
#define CUDA_OPS_NN(X)  \
	X(SOFTMAX)      \
	X(FAST_SOFTMAX) \
	X(DENSE)        \
	X(BATCH_MATMUL) \
	X(MATMUL)
#define CUDA_OPS_NORM(X) \
	X(BATCH_NORM)    \
	X(LAYER_NORM)    \
	X(INSTANCE_NORM) \
	X(GROUP_NORM)    \
	X(LOG_SOFTMAX)   \
	X(L2_NORMALIZE)  \
	X(LRN)
#define CUDA_OPS_WINDOW(X)     \
	X(CONV1D)              \
	X(CONV2D)              \
	X(CONV3D)              \
	X(CONV1D_TRANSPOSE)    \
	X(CONV2D_TRANSPOSE)    \
	X(CONV3D_TRANSPOSE)    \
	X(MAX_POOL1D)          \
	X(MAX_POOL2D)          \
	X(MAX_POOL3D)          \
	X(AVG_POOL1D)          \
	X(AVG_POOL2D)          \
	X(AVG_POOL3D)          \
	X(GLOBAL_AVG_POOL2D)   \
	X(GLOBAL_MAX_POOL2D)   \
	X(ADAPTIVE_AVG_POOL1D) \
	X(ADAPTIVE_AVG_POOL2D) \
	X(ADAPTIVE_AVG_POOL3D) \
	X(ADAPTIVE_MAX_POOL1D) \
	X(ADAPTIVE_MAX_POOL2D) \
	X(ADAPTIVE_MAX_POOL3D)
#define CUDA_OPS_IMAGE(X) \
	X(RESIZE1D)       \
	X(RESIZE2D)       \
	X(RESIZE3D)       \
	X(UPSAMPLING)     \
	X(UPSAMPLING3D)   \
	X(CROP_AND_RESIZE)
#define CUDA_OPS_TRANSFORM(X)      \
	X(RESHAPE)                 \
	X(BATCH_FLATTEN)           \
	X(EXPAND_DIMS)             \
	X(SQUEEZE)                 \
	X(ON_DEVICE)               \
	X(DEVICE_COPY)             \
	X(TRANSPOSE)               \
	X(CONCATENATE)             \
	X(STACK)                   \
	X(LAYOUT_TRANSFORM)        \
	X(DEPTH_TO_SPACE)          \
	X(SPACE_TO_DEPTH)          \
	X(SPLIT)                   \
	X(COPY)                    \
	X(WHERE)                   \
	X(TAKE)                    \
	X(SHAPE_OF)                \
	X(PAD)                     \
	X(MIRROR_PAD)              \
	X(STRIDED_SLICE)           \
	X(TILE)                    \
	X(REPEAT)                  \
	X(BROADCAST_TO)            \
	X(REVERSE)                 \
	X(BROADCAST_TO_LIKE)       \
	X(SLICE_LIKE)              \
	X(RESHAPE_LIKE)            \
	X(CONTRIB_REVERSE_RESHAPE) \
	X(REINTERPRET)             \
	X(NDARRAY_SIZE)
#define CUDA_OPS_INDEX(X)   \
	X(GATHER)           \
	X(GATHER_ND)        \
	X(SCATTER_ELEMENTS) \
	X(SCATTER_ND)       \
	X(SPARSE_TO_DENSE)
#define CUDA_OPS_CREATE(X) \
	X(FULL)            \
	X(FULL_LIKE)       \
	X(ONE_HOT)         \
	X(ARANGE)
#define CUDA_OPS_ACTIVATION(X) \
	X(LEAKY_RELU)          \
	X(PRELU)               \
	X(DROPOUT)
#define CUDA_OPS_SCAN(X) \
	X(CUMSUM)        \
	X(CUMPROD)       \
	X(SORT)          \
	X(ARGSORT)       \
	X(TOPK)

#define CUDA_OPS_ARRANGE(X)   \
	X(DILATE)             \
	X(SEQUENCE_MASK)      \
	X(REVERSE_SEQUENCE)   \
	X(TRILU)              \
	X(MATRIX_SET_DIAG)    \
	X(MESHGRID)           \
	X(INVERT_PERMUTATION) \
	X(UNRAVEL_INDEX)      \
	X(SEARCHSORTED)       \
	X(SPACE_TO_BATCH_ND)  \
	X(BATCH_TO_SPACE_ND)

/* Every entry, family by family. */
#define CUDA_OPS_QNN(X)     \
	X(QNN_QUANTIZE)     \
	X(QNN_DEQUANTIZE)   \
	X(QNN_REQUANTIZE)   \
	X(QNN_ADD)          \
	X(QNN_SUBTRACT)     \
	X(QNN_MUL)          \
	X(QNN_DENSE)        \
	X(QNN_BATCH_MATMUL) \
	X(QNN_CONV2D)       \
	X(QNN_TANH)         \
	X(QNN_EXP)          \
	X(QNN_SQRT)         \
	X(QNN_RSQRT)        \
	X(QNN_ERF)          \
	X(QNN_SIGMOID)      \
	X(QNN_HARDSWISH)    \
	X(QNN_LOG)          \
	X(QNN_ABS)          \
	X(QNN_LEAKY_RELU)

#define CUDA_OPS(X)             \
	CUDA_OPS_ELEMENTWISE(X) \
	CUDA_OPS_FILL(X)        \
	CUDA_OPS_REDUCE(X)      \
	CUDA_OPS_NN(X)          \
	CUDA_OPS_NORM(X)        \
	CUDA_OPS_WINDOW(X)      \
	CUDA_OPS_IMAGE(X)       \
	CUDA_OPS_TRANSFORM(X)   \
	CUDA_OPS_INDEX(X)       \
	CUDA_OPS_CREATE(X)      \
	CUDA_OPS_ACTIVATION(X) CUDA_OPS_SCAN(X) CUDA_OPS_ARRANGE(X) CUDA_OPS_QNN(X)

#endif
