/*
 * kernels.h - what a kernel launch is given: operand tensors and the
 * operator's attributes decoded into plain numbers.
 *
 * The attributes of a Relay call are decoded once, in C, by
 * kernel_call_prepare (kernels.c: the operator's kernel_prepare_ID in
 * prepare/prepare_FAMILY.c), into a KernelCall that every backend's
 * kernels read: the CPU kernels (cpu/) and the CUDA kernels (cuda/, which
 * are C++ and so never see the IR). Shapes come from the operands, which
 * the interpreter built from inferred types, so a kernel trusts them:
 * prepare has already checked that they agree with the attributes.
 *
 * Each backend has one kernel per operator of ops.def, in the file of the
 * operator's family (cpu/cpu_FAMILY.c, cuda/cuda_FAMILY.cu), and a table
 * generated from that list (a missing kernel does not link):
 *     #define OP(id, ...) [OP_##id] = kernel_cpu_##id,
 *
 * Ownership: a KernelCall borrows its tensors; kernel_call_release frees
 * what prepare allocated (the axes array). This header is C and C++.
 */
#ifndef DEVPLAN_KERNELS_H
#define DEVPLAN_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ops.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One operand: data in the launching device's memory. */
typedef struct KernelTensor {
	void *data;
	DType dtype;
	uint32_t ndim;
	const int64_t *shape; /* ndim dimensions, borrowed */
	int64_t count;        /* elements */
	size_t nbytes;
} KernelTensor;

/* Convolutions and pooling over one to three spatial dimensions: NCW,
 * NCHW or NCDHW data, the dimensions an operator lacks being 1 (nn.conv1d
 * is a convolution of unit depth and height, a 2-D one of unit depth), so
 * one set of kernels serves every rank. The spatial arrays are [depth,
 * height, width]. For a convolution the weight is [o, c / groups, kd, kh,
 * kw]; for a transposed one it is [c, o / groups, kd, kh, kw]. */
typedef struct KernelWindow {
	int64_t n, c, d, h, w; /* input */
	int64_t o, od, oh, ow; /* output channels (pooling: c) and extent */
	int64_t kd, kh, kw;    /* window */
	int64_t groups;
	int64_t stride[3], dilation[3];
	int64_t pad[3];         /* front, top, left */
	int64_t pad_end[3];     /* back, bottom, right */
	bool count_include_pad; /* the average poolings */
} KernelWindow;

/* out[b] = op(a[b]) * op(b[b]): a is [m, k] ([k, m] with trans_a), b is
 * [k, n] ([n, k] with trans_b); a batch of 1 broadcasts. nn.dense is one
 * batch with trans_b. */
typedef struct KernelMatmul {
	int64_t batch, batch_a, batch_b;
	int64_t m, n, k;
	bool trans_a, trans_b;
} KernelMatmul;

/* An axis of the first input seen as [outer, len, inner]. */
typedef struct KernelAxis {
	int64_t axis;
	int64_t outer, len, inner;
} KernelAxis;

/* take: data seen as [batch, outer, len, inner] and indices as [batch,
 * count]; out[b, o, q, i] = data[b, o, index(indices[b, q]), i]. Without
 * an axis the data is flat: batch, outer and inner are 1. */
typedef enum KernelTakeMode { TAKE_CLIP, TAKE_WRAP, TAKE_FAST } KernelTakeMode;
typedef struct KernelTake {
	int64_t batch, outer, len, inner;
	int64_t count;       /* indices per batch */
	KernelTakeMode mode; /* out-of-range indices: clamped, wrapped, or (fast) clamped too */
} KernelTake;

/* gather, gather_nd, scatter_elements, scatter_nd. An index i into an
 * extent n counts from the end when negative (i + n) and is then clamped
 * to [0, n), so no index reads or writes out of bounds.
 *
 * gather and scatter_elements (the "elements" form): the indices have
 * data's rank; element e of indices, at coordinates c, addresses data at
 * c with c[axis] replaced by the index: the sum of c[d] * stride[d] over
 * d != axis, plus index * stride[axis]. shape is the indices' shape,
 * stride data's element strides, len data's extent along axis; updates
 * are shaped like indices.
 *
 * gather_nd and scatter_nd (the "nd" form): indices are (m, Y...), tuples
 * of m indices; tuple q (of `tuples`) addresses the slice of `inner`
 * elements of data at batch q / per_batch (gather_nd's batch_dims; one
 * batch for scatter_nd) and indexed position ravel(tuple) over extent[0..m),
 * data's extents after the batch dimensions. */
enum { KERNEL_GATHER_MAX_NDIM = 8 };
typedef enum KernelScatterMode {
	SCATTER_UPDATE, /* the update replaces: with duplicate indices the last one wins */
	SCATTER_ADD,
	SCATTER_MUL,
	SCATTER_MEAN, /* scatter_elements: (out + update) / 2, one update at a time */
	SCATTER_MIN,
	SCATTER_MAX,
} KernelScatterMode;
typedef struct KernelGather {
	uint32_t ndim;                          /* elements: the indices' rank */
	int64_t axis, len;                      /* elements */
	int64_t shape[KERNEL_GATHER_MAX_NDIM];  /* elements: the indices' shape */
	int64_t stride[KERNEL_GATHER_MAX_NDIM]; /* elements: data's strides */
	int64_t m, tuples, per_batch, inner;    /* nd */
	int64_t extent[KERNEL_GATHER_MAX_NDIM]; /* nd: the m indexed extents */
	KernelScatterMode mode;                 /* the scatters */
} KernelGather;

/* sparse_to_dense: tuples index tuples of width coordinates each (the
 * indices [tuples, width]; a vector is width 1, a scalar one tuple), the
 * coordinates j * width + l; each names a slice of inner elements of the
 * output, whose first width extents are extent. A tuple with a coordinate
 * out of its extent names nothing (TVM compares, so it never matches).
 * Tuple j takes value j * values_step (0 for one scalar value); the last
 * tuple naming an element wins, the rest is the default value. */
typedef struct KernelSparse {
	int64_t tuples, width, inner, values_step;
	int64_t extent[KERNEL_GATHER_MAX_NDIM];
} KernelSparse;

/* layout_transform: each output coordinate c[d] adds c[d] * out_mult[d]
 * to the full coordinate of its primal axis (slot out_slot[d]: N, C, ...;
 * out_mult is the destination's split factor for a primal axis, 1 for a
 * subordinate one like the 4c of NCHW4c); input axis j then sits at
 * full[in_slot[j]] / in_div[j], taken modulo in_mod[j] when that is not 0
 * (a subordinate axis), in_stride[j] elements apart. */
typedef struct KernelLayout {
	uint32_t out_ndim, in_ndim;
	int64_t out_shape[KERNEL_GATHER_MAX_NDIM];
	int64_t out_slot[KERNEL_GATHER_MAX_NDIM], out_mult[KERNEL_GATHER_MAX_NDIM];
	int64_t in_slot[KERNEL_GATHER_MAX_NDIM], in_div[KERNEL_GATHER_MAX_NDIM];
	int64_t in_mod[KERNEL_GATHER_MAX_NDIM], in_stride[KERNEL_GATHER_MAX_NDIM];
} KernelLayout;

/* nn.depth_to_space and nn.space_to_depth: the extents in NCHW terms
 * (input c, h, w; output c) and the block; depth_to_space reads channel
 * (by * block + bx) * out_c + c (DCR) or c * block^2 + by * block + bx
 * (CDR) at (y / block, x / block), space_to_depth the inverse (DCR, as
 * TVM computes it whatever its mode). */
typedef struct KernelSubpixel {
	int64_t in_c, in_h, in_w, out_c, out_h, out_w, block;
	bool to_space, crd, nhwc;
} KernelSubpixel;

/* sort, argsort, topk: each line along the axis of the input (line) is
 * ordered stably (ties keep their index order; NaN after every number when
 * ascending), and its first `k` positions written: the values to
 * out[values_out], the indices to out[indices_out] (-1: not written). */
typedef struct KernelSort {
	KernelAxis line;
	int64_t k;
	bool ascend;
	int values_out, indices_out;
} KernelSort;

/* The index-mapping operators (nn.pad, nn.mirror_pad, strided_slice,
 * slice_like, tile, repeat, broadcast_to, broadcast_to_like, reverse):
 * output axis d reads input position begin[d] + ((o / div[d]) % mod[d]) *
 * step[d] of its coordinate o (no modulo when mod[d] is 0), in_stride[d]
 * elements apart; a position outside [0, extent[d]) reads nn.pad's value
 * (constant), the nearest edge (edge) or its mirror image (reflect,
 * symmetric). The arrays, ndim (the output's rank) each, live in
 * KernelCall.axes. */
typedef enum KernelPadMode {
	PAD_CONSTANT,
	PAD_EDGE,
	PAD_REFLECT,   /* numpy's reflect (nn.mirror_pad REFLECT): -1 reads 1 */
	PAD_SYMMETRIC, /* numpy's symmetric (nn.mirror_pad SYMMETRIC): -1 reads 0 */
} KernelPadMode;
typedef struct KernelView {
	uint32_t ndim;
	int64_t *begin, *step, *div, *mod, *extent, *in_stride;
	KernelPadMode mode;
} KernelView;

/* nn.l2_normalize: the input's axes split into kept ones and reduced
 * ones (size-1 axes dropped), each with its element stride; one line of
 * red_count elements per kept position. */
typedef struct KernelSplit {
	uint32_t nkept, nred;
	int64_t kept_shape[KERNEL_GATHER_MAX_NDIM], kept_stride[KERNEL_GATHER_MAX_NDIM];
	int64_t red_shape[KERNEL_GATHER_MAX_NDIM], red_stride[KERNEL_GATHER_MAX_NDIM];
	int64_t red_count;
	double eps;
} KernelSplit;

/* nn.lrn: the channel axis of the data and TVM's window arithmetic:
 * x / (bias + alpha * sum / size) ^ beta, the sum of the squares of the
 * size channels centred on each (zero beyond the edges). */
typedef struct KernelLrn {
	KernelAxis axis;
	int64_t size;
	double alpha, beta, bias;
} KernelLrn;

/* The arrange family (cpu/cpu_arrange.c, cuda/cuda_arrange.cu): operators
 * that place each output element by index arithmetic, reading their
 * integer operands (trilu's k, the lengths, the shapes) on the device.
 *   nn.dilate: out_shape and in_stride over ndim axes, stride per axis;
 *     an output coordinate that is a multiple of its stride on every
 *     axis reads the input at coordinate / stride, else the fill value.
 *   sequence_mask, reverse_sequence: the sequence axis (extent len, its
 *     element stride len_stride) and the batch axis (extent batch, stride
 *     batch_stride); sequence_mask fills from position valid_length[b] on,
 *     reverse_sequence reverses each batch's first seq_lengths[b].
 *   trilu, matrix_set_diag: the innermost rows x cols matrices; trilu
 *     keeps row <= col - k (upper) or row >= col - k; matrix_set_diag
 *     writes diagonals k1..k2 (diag_len long, aligned by the two flags).
 *   meshgrid: flag is xy indexing.
 *   searchsorted: outer sequences of len each (one shared when 1-D:
 *     outer 0), n values per sequence; flag is right.
 *   nn.space_to_batch_nd, nn.batch_to_space_nd: ndim block dimensions of
 *     extent block[k], the input's spatial extents in_space[k] and the
 *     output's out_shape[k], the padding before them (or the crop at
 *     their start) before[k], batch the smaller batch and n the elements
 *     after the spatial axes. As TF lays them out (and topi's reshapes
 *     and transposes), the larger batch is (block offsets, batch)
 *     row-major, a spatial coordinate of the padded (uncropped) data
 *     being j * block[k] + its block offset; padding reads the fill.
 * fill_bits is the fill value (nn.dilate, sequence_mask) as the output
 * dtype's bytes (kernel_scalar_bits). */
typedef struct KernelArrange {
	uint32_t ndim;
	int64_t out_shape[KERNEL_GATHER_MAX_NDIM], in_stride[KERNEL_GATHER_MAX_NDIM];
	int64_t stride[KERNEL_GATHER_MAX_NDIM];
	int64_t len, len_stride, batch, batch_stride;
	int64_t rows, cols, k1, k2, diag_len;
	int64_t outer, n;
	int64_t block[KERNEL_GATHER_MAX_NDIM], before[KERNEL_GATHER_MAX_NDIM];
	int64_t in_space[KERNEL_GATHER_MAX_NDIM];
	bool flag, flag2;
	uint64_t fill_bits;
} KernelArrange;

/* v converted to dt (integers saturate, as casts from float do), as the
 * bytes of one element in the low bytes of the result. */
uint64_t kernel_scalar_bits(DType dt, double v);

/* The normalisations: the data seen as [outer, mid, c, inner] around the
 * channel axis (batch_norm, layer_norm: mid 1; instance_norm, group_norm:
 * outer is the batch, mid the axes between it and the channels), groups of
 * c / groups channels (instance_norm: c groups). */
typedef struct KernelNorm {
	int64_t outer, mid, c, inner;
	int64_t groups;
	double eps;
	bool center, scale; /* add beta, multiply by gamma */
} KernelNorm;

/* The resamplings (image.resize1d/2d/3d, nn.upsampling, nn.upsampling3d),
 * TVM's topi resize arithmetic: per spatial dimension an output position
 * maps to an input coordinate by the coordinate transformation, and the
 * method reads the nearest input position (rounded by the rounding
 * method), the two around it (linear) or the four (cubic). The spatial
 * arrays are [depth, height, width], a missing dimension 1 and never
 * resized (rank says how many are real); kernel_resize.h holds the
 * arithmetic both backends share. */
typedef enum KernelResizeMethod { RESIZE_NEAREST, RESIZE_LINEAR, RESIZE_CUBIC } KernelResizeMethod;
typedef enum KernelResizeCoordinate {
	RESIZE_HALF_PIXEL,
	RESIZE_ALIGN_CORNERS,
	RESIZE_ASYMMETRIC,
	RESIZE_PYTORCH_HALF_PIXEL,
	RESIZE_TF_HALF_PIXEL_FOR_NN,
	RESIZE_TF_CROP_AND_RESIZE,
} KernelResizeCoordinate;
typedef enum KernelResizeRounding {
	RESIZE_ROUND, /* half away from zero */
	RESIZE_FLOOR,
	RESIZE_CEIL,
	RESIZE_ROUND_PREFER_FLOOR,
	RESIZE_ROUND_PREFER_CEIL,
} KernelResizeRounding;
typedef struct KernelResize {
	int rank;
	int64_t n, c;
	int64_t in[3], out[3];
	bool channels_last; /* N(D)(H)WC rather than NC(D)(H)W */
	KernelResizeMethod method;
	KernelResizeCoordinate coordinate;
	KernelResizeRounding rounding;
	float roi_start[3], roi_end[3]; /* tf_crop_and_resize's region, per dimension */
	float cubic_alpha;
	bool cubic_exclude;
	double extrapolation; /* tf_crop_and_resize outside the region */
} KernelResize;

/* Which reduction a reduction operator computes (KernelCall.p.reduce). */
typedef enum KernelReduce {
	REDUCE_SUM,
	REDUCE_MEAN,
	REDUCE_PROD,
	REDUCE_MAX,
	REDUCE_MIN,
	REDUCE_ALL,
	REDUCE_ANY,
	REDUCE_ARGMAX,
	REDUCE_ARGMIN,
	REDUCE_VARIANCE,
} KernelReduce;

/* The quantized operators (kernel_qnn.h): element i is in channel
 * (i / inner) % len of the data's axis (len 1 without one); a parameter
 * of one element applies to every channel. requantize's rounding and
 * compute dtype (TVM's defaults UPWARD and int64 where None), whether its
 * input scale is a scalar (TVM's scalar path) rather than a vector, and
 * whether its output is int32 (TVM does not clip it). */
enum { KERNEL_QNN_UPWARD, KERNEL_QNN_TONEAREST };
enum { KERNEL_QNN_INT64, KERNEL_QNN_FLOAT32, KERNEL_QNN_FLOAT64 };
enum { KERNEL_QNN_MAX_NDIM = 8 };
typedef struct KernelQnn {
	int64_t len, inner;
	int rounding, compute;
	bool scalar_scale, out_int32;
	/* qnn.add, qnn.subtract, qnn.mul: the broadcasting plan
	 * (kernel_broadcast_plan: ndim merged output dimensions, each
	 * operand's strides), each operand's channel axis (len, inner) along
	 * lhs_axis and rhs_axis, and whether its scale and zero point are
	 * both scalars (where TVM compares them with the output's) */
	uint32_t ndim;
	int64_t shape[KERNEL_QNN_MAX_NDIM], stride[2][KERNEL_QNN_MAX_NDIM];
	int64_t side_len[2], side_inner[2];
	bool side_scalar[2];
	/* qnn.dense and qnn.batch_matmul (the float operators' plans), and
	 * qnn.conv2d (NCHW data, an OIHW weight) */
	KernelMatmul matmul;
	KernelWindow window;
} KernelQnn;

typedef struct KernelCall {
	OpKind op;
	const char *name; /* the Relay op name, for messages */
	const KernelTensor *in;
	uint32_t nin; /* concatenate: one per tuple field */
	const KernelTensor *out;
	uint32_t nout; /* split: one per piece */
	union {
		KernelWindow window; /* the convolutions and the windowed poolings */
		KernelMatmul matmul; /* dense, batch_matmul, nn.matmul */
		KernelAxis axis;     /* bias_add, softmax, nn.fast_softmax, log_softmax,
					concatenate, split, stack, one_hot, nn.prelu */
		KernelTake take;
		KernelGather gather;     /* gather, gather_nd, scatter_elements, scatter_nd */
		KernelLayout layout;     /* layout_transform */
		KernelSparse sparse;     /* sparse_to_dense */
		KernelSubpixel subpixel; /* nn.depth_to_space, nn.space_to_depth */
		KernelSort sort;         /* sort, argsort, topk */
		KernelNorm norm;
		KernelView view;
		KernelSplit split;     /* nn.l2_normalize */
		KernelLrn lrn;         /* nn.lrn */
		KernelArrange arrange; /* the arrange family */
		KernelQnn qnn;         /* the quantized operators */
		KernelResize resize;
		struct {
			KernelReduce kind;
			bool select_last_index; /* argmax, argmin */
			bool unbiased;          /* variance: divide by n - 1 */
		} reduce;
		struct {
			double lo, hi;
		} clip;
		double fill; /* zeros, ones, zeros_like, ones_like */
		struct {
			int32_t multiplier, shift;
		} fpm;        /* fixed_point_multiply */
		double alpha; /* nn.leaky_relu */
		struct {
			KernelAxis line; /* the scanned axis; without one the flat data */
			bool exclusive;  /* out[j] combines the elements before j only */
		} scan;                  /* cumsum, cumprod */
	} p;
	/* transpose: the permutation (out axis i is input axis axes[i]);
	 * the reductions: 1 for each input axis reduced, else 0; the index
	 * views: KernelView's arrays. Owned. */
	int64_t *axes;
} KernelCall;

typedef bool (*KernelFn)(const KernelCall *kc, char **err);

struct Expr;
/* Decodes call's attributes against its operands. On failure (an attribute
 * the kernels cannot honour) returns false with *err (caller frees). */
bool kernel_call_prepare(KernelCall *kc, const struct Expr *call, const KernelTensor *in,
			 uint32_t nin, const KernelTensor *out, uint32_t nout, char **err);
void kernel_call_release(KernelCall *kc);

/* A tensor view of (data, dtype, shape). */
KernelTensor kernel_tensor(void *data, DType dtype, uint32_t ndim, const int64_t *shape);

/* The CPU kernels (cpu/kernels_cpu.c): runs kc on host memory. */
bool kernel_cpu_launch(const KernelCall *kc, char **err);
/* The backends' supports (ExecBackend): whether the CPU kernels
 * (cpu/kernels_cpu.c) and the CUDA ones (cuda/cuda_ops.c) run op on
 * tensors of dtype. */
bool kernel_cpu_supports(OpKind op, DType dtype);
bool kernel_cuda_supports(OpKind op, DType dtype);
/* float32, float64, float16, int32, int64 and bool, the dtypes each kernel
 * takes or refuses itself when launched ("'OP' on the cpu does not support
 * DTYPE"); a backend's supports answers true for them. For the others
 * (int8 ... uint64, bfloat16) it says which kernels take them, so that a
 * run is refused before it starts. */
bool kernel_dtype_checked_at_launch(DType dtype);
/* Worker threads the CPU kernels use (DEVPLAN_THREADS overrides the number
 * of online processors); also sets OpenBLAS to that many threads, once. */
int kernel_cpu_threads(void);

/* Runs fn over [0, n) split into contiguous ranges on up to
 * kernel_cpu_threads() threads, each range at least `grain` long; small n
 * runs on the calling thread. fn must only write what its range owns. */
/* The broadcasting plan of a binary elementwise op, shared by the CPU and
 * CUDA kernels: operand shapes are right-aligned against the output's, an
 * operand's dimension of 1 broadcasts (stride 0), size-1 output dimensions
 * are dropped and contiguous neighbours merged. `shape` and both `strides`
 * arrays have out_ndim + 1 slots, owned by the caller. Returns the number of
 * dimensions written, at least 1. */
uint32_t kernel_broadcast_plan(const int64_t *out_shape, uint32_t out_ndim,
			       const int64_t *const shapes[2], const uint32_t ndims[2],
			       int64_t *shape, int64_t *const strides[2]);

typedef void (*KernelRangeFn)(void *ctx, int64_t begin, int64_t end);
/* Runs fn over [0, n) on min(n / grain, kernel_cpu_threads()) threads,
 * the caller's alone when that is at most 1. */
void kernel_parallel_for(int64_t n, int64_t grain, KernelRangeFn fn, void *ctx);
/* Work sizes (elements) below which a kernel stays on one thread (the
 * grains of the cpu kernels, and what the calibration tells the cost
 * model, exec_calibrate.h). */
enum { GRAIN_ELEMENTWISE = 1 << 16, GRAIN_ROWS = 1 << 14 };
/* The most input times output channels of a convolution's group that the
 * cpu computes directly, without a product (and the cost model knows). */
enum { DIRECT_CONV_MAX = 64 };
/* A product with a narrow side of at most GEMM_SKINNY_MAX columns (or
 * rows) whose other operand, of at least GEMM_SKINNY_BIG elements, lies
 * along the wide side's rows is computed by the cpu's own kernel, which
 * reads that operand where it lies, not by OpenBLAS, which copies it
 * (cpu_gemm, gemm_skinny.c), where kernel_cpu_gemm_skinny says this CPU
 * has its vector kernels; the cost model knows. */
enum { GEMM_SKINNY_MAX = 16, GEMM_SKINNY_BIG = 1 << 19 };
bool kernel_cpu_gemm_skinny(void);
/* The workers kernel_parallel_for wakes are started on its first call and
 * kept: a cpu or emulator device counts itself in at open and out at close,
 * and the last one out joins them (as does exit); a later call starts them
 * again. kernel_cpu_pool_stop joins them now. */
void kernel_cpu_pool_open(void);
void kernel_cpu_pool_close(void);
void kernel_cpu_pool_stop(void);
/* The CPU seconds the pool's workers have used on the calls they ran,
 * from waking for one to the end of its range, since the process started
 * (those joined since included): with the calling thread's own, the work
 * of the kernels' threads, and none of OpenBLAS's (exec_clock.h). A sum
 * they keep, read without a system call. */
double kernel_cpu_pool_seconds(void);

/* The OpenBLAS core type devplan names for this CPU when OPENBLAS_CORETYPE
 * is not set (its instruction sets decide; NULL: OpenBLAS detects). A
 * program linking OpenBLAS itself must set it before OpenBLAS's
 * constructor runs, i.e. before it starts (tests/bench_exec.c re-executes
 * itself). */
const char *kernel_blas_coretype(void);

#ifdef __cplusplus
}
#endif

#endif
