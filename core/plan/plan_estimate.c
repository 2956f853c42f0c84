/*
 * plan_estimate.c - the cost of a plan from its static types (see
 * plan_estimate.h for what is counted and how).
 *
 * The FLOP rule of every operator is the one table flop_rules below, next
 * to nothing else: ops.def's X-macro has no column for it (adding one would
 * touch every includer), and an operator not in the table moves or makes
 * data (reshape, transpose, concatenate, take, zeros, ...) and counts 0.
 *
 * Time is a roofline per operator call (plan_estimate_call_seconds): its
 * FLOPs at the device's peak (an sgemm's rate, which `target calibrate`
 * measures) or its bytes at the device's memory bandwidth (memcpy's),
 * whichever takes longer. A FLOP of an elementwise operator or a
 * reduction is counted at the product's rate too, which makes those
 * operators bound by their bytes, as the kernels that stream them are.
 *
 * On a calibrated cpu (DeviceCpuModel) the roofline is that of what the
 * cpu backend runs, each part from what the calibration measured:
 * - threads: the kernels split an operator's elements (its output's, or
 *   a reduction's input's) one thread per GRAIN_ELEMENTWISE (65,536; global
 *   pooling per four times that), so one below twice that runs on one
 *   thread, at one thread's memcpy; OpenBLAS 0.3.21 keeps a product of M *
 *   N * K <= 262144 on one thread (exec_calibrate.h cites its source),
 *   which goes at the rate of a 64^3 product on one thread, and a larger
 *   one on all of them at the 512^3 sgemm rate; a product of one row is
 *   sgemv, on one thread below M * N of 9216 (interface/gemv.c), and a
 *   call costs what the calibration measured besides its bytes (on one
 *   thread, or split, where handing half the rows to OpenBLAS's worker
 *   and waiting for it costs the caller about what the half saves on a
 *   product of a few hundred KiB);
 * - the cache: an operator whose bytes fit half a core's L2 cache reads
 *   operands the operators before it just wrote (or a small model's
 *   weights, warm from its last run) at the rate of a copy within the
 *   cache, per thread;
 * - passes: nn.conv2d through im2col writes its column matrix (reading
 *   the input) before the product reads it, nn.conv2d_transpose's
 *   product writes one that col2im reads and adds into the zeroed output
 *   (cpu_window.c); each pass's bytes are added to the product's time;
 * - packing: OpenBLAS copies both operands of a product into its blocked
 *   layout on every call; the calibration's rate includes that copy for
 *   its square product (8 / side bytes a FLOP), and a product's bytes
 *   beyond that share are a pass of their own (packing_bytes): nothing for
 *   a square, about as long as the arithmetic for a side of a few dozen;
 * - narrow products: one with a side of at most skinny_max whose other
 *   operand is big and lies along the wide side's rows (as cpu_gemm
 *   decides, product_path) is computed by gemm_skinny.c, without
 *   packing, at the rate the calibration measured for it on a narrow side
 *   of skinny_max (its big operand streamed), the narrow side padded to a
 *   power of two as its tiles are;
 * - calls: each costs the interpreter's cost per operator (launch), and
 *   each operator kind's first call in a run its cold code's and data's
 *   misses besides (first_call): a model of a handful of tiny operators
 *   is mostly first calls.
 *
 * Peak memory is a sweep over each function's body in execution order:
 * the last use of every node is found in one pass, pushed through the
 * nodes that only name another's value (let variables, tuples,
 * projections, on_device, lets and ifs) in a second pass backwards, and a
 * third pass adds each tensor where it is defined and takes it away after
 * its last use, keeping each device's largest total. All three are linear
 * in the body, so a million-binding module estimates in well under a
 * second.
 */
#include "plan_estimate.h"

#include <stdlib.h>
#include <string.h>

#include "interrupt.h"

/* The FLOP rule of each operator; every one not listed is FLOP_NONE. */
static const uint8_t flop_rules[OP_COUNT] = {
	/* one FLOP per output element */
	[OP_ADD] = FLOP_ELEMENTWISE,
	[OP_SUBTRACT] = FLOP_ELEMENTWISE,
	[OP_MULTIPLY] = FLOP_ELEMENTWISE,
	[OP_DIVIDE] = FLOP_ELEMENTWISE,
	[OP_MAXIMUM] = FLOP_ELEMENTWISE,
	[OP_MINIMUM] = FLOP_ELEMENTWISE,
	[OP_NEGATIVE] = FLOP_ELEMENTWISE,
	[OP_EXP] = FLOP_ELEMENTWISE,
	[OP_LOG] = FLOP_ELEMENTWISE,
	[OP_SQRT] = FLOP_ELEMENTWISE,
	[OP_TANH] = FLOP_ELEMENTWISE,
	[OP_SIGMOID] = FLOP_ELEMENTWISE,
	[OP_RELU] = FLOP_ELEMENTWISE,
	[OP_BIAS_ADD] = FLOP_ELEMENTWISE,
	[OP_CLIP] = FLOP_ELEMENTWISE,
	[OP_CAST] = FLOP_ELEMENTWISE,
	[OP_CAST_LIKE] = FLOP_ELEMENTWISE,
	[OP_ERF] = FLOP_ELEMENTWISE,
	[OP_ACOS] = FLOP_ELEMENTWISE,
	[OP_ACOSH] = FLOP_ELEMENTWISE,
	[OP_ASIN] = FLOP_ELEMENTWISE,
	[OP_ASINH] = FLOP_ELEMENTWISE,
	[OP_ATAN] = FLOP_ELEMENTWISE,
	[OP_ATANH] = FLOP_ELEMENTWISE,
	[OP_COS] = FLOP_ELEMENTWISE,
	[OP_COSH] = FLOP_ELEMENTWISE,
	[OP_SIN] = FLOP_ELEMENTWISE,
	[OP_SINH] = FLOP_ELEMENTWISE,
	[OP_TAN] = FLOP_ELEMENTWISE,
	[OP_RSQRT] = FLOP_ELEMENTWISE,
	[OP_LOG2] = FLOP_ELEMENTWISE,
	[OP_LOG10] = FLOP_ELEMENTWISE,
	[OP_FAST_EXP] = FLOP_ELEMENTWISE,
	[OP_FAST_TANH] = FLOP_ELEMENTWISE,
	[OP_FAST_ERF] = FLOP_ELEMENTWISE,
	[OP_ABS] = FLOP_ELEMENTWISE,
	[OP_CEIL] = FLOP_ELEMENTWISE,
	[OP_FLOOR] = FLOP_ELEMENTWISE,
	[OP_ROUND] = FLOP_ELEMENTWISE,
	[OP_SIGN] = FLOP_ELEMENTWISE,
	[OP_TRUNC] = FLOP_ELEMENTWISE,
	[OP_ISNAN] = FLOP_ELEMENTWISE,
	[OP_ISINF] = FLOP_ELEMENTWISE,
	[OP_ISFINITE] = FLOP_ELEMENTWISE,
	[OP_LOGICAL_NOT] = FLOP_ELEMENTWISE,
	[OP_BITWISE_NOT] = FLOP_ELEMENTWISE,
	[OP_LOGICAL_AND] = FLOP_ELEMENTWISE,
	[OP_LOGICAL_OR] = FLOP_ELEMENTWISE,
	[OP_LOGICAL_XOR] = FLOP_ELEMENTWISE,
	[OP_BITWISE_AND] = FLOP_ELEMENTWISE,
	[OP_BITWISE_OR] = FLOP_ELEMENTWISE,
	[OP_BITWISE_XOR] = FLOP_ELEMENTWISE,
	[OP_LEFT_SHIFT] = FLOP_ELEMENTWISE,
	[OP_RIGHT_SHIFT] = FLOP_ELEMENTWISE,
	[OP_EQUAL] = FLOP_ELEMENTWISE,
	[OP_NOT_EQUAL] = FLOP_ELEMENTWISE,
	[OP_LESS] = FLOP_ELEMENTWISE,
	[OP_LESS_EQUAL] = FLOP_ELEMENTWISE,
	[OP_GREATER] = FLOP_ELEMENTWISE,
	[OP_GREATER_EQUAL] = FLOP_ELEMENTWISE,
	[OP_POWER] = FLOP_ELEMENTWISE,
	[OP_MOD] = FLOP_ELEMENTWISE,
	[OP_FLOOR_DIVIDE] = FLOP_ELEMENTWISE,
	[OP_FLOOR_MOD] = FLOP_ELEMENTWISE,
	[OP_TRUNC_DIVIDE] = FLOP_ELEMENTWISE,
	[OP_TRUNC_MOD] = FLOP_ELEMENTWISE,
	[OP_WHERE] = FLOP_ELEMENTWISE,
	[OP_FIXED_POINT_MULTIPLY] = FLOP_ELEMENTWISE,
	[OP_FIXED_POINT_MULTIPLY_PER_AXIS] = FLOP_ELEMENTWISE,
	[OP_LEAKY_RELU] = FLOP_ELEMENTWISE,
	[OP_PRELU] = FLOP_ELEMENTWISE,
	[OP_DROPOUT] = FLOP_ELEMENTWISE,
	[OP_QNN_QUANTIZE] = FLOP_ELEMENTWISE,
	[OP_QNN_DEQUANTIZE] = FLOP_ELEMENTWISE,
	[OP_QNN_REQUANTIZE] = FLOP_ELEMENTWISE,
	[OP_QNN_SIMULATED_QUANTIZE] = FLOP_ELEMENTWISE,
	[OP_QNN_SIMULATED_DEQUANTIZE] = FLOP_ELEMENTWISE,
	[OP_QNN_ADD] = FLOP_ELEMENTWISE,
	[OP_QNN_MUL] = FLOP_ELEMENTWISE,
	[OP_QNN_SUBTRACT] = FLOP_ELEMENTWISE,
	[OP_QNN_TANH] = FLOP_ELEMENTWISE,
	[OP_QNN_EXP] = FLOP_ELEMENTWISE,
	[OP_QNN_SQRT] = FLOP_ELEMENTWISE,
	[OP_QNN_RSQRT] = FLOP_ELEMENTWISE,
	[OP_QNN_ERF] = FLOP_ELEMENTWISE,
	[OP_QNN_SIGMOID] = FLOP_ELEMENTWISE,
	[OP_QNN_HARDSWISH] = FLOP_ELEMENTWISE,
	[OP_QNN_LOG] = FLOP_ELEMENTWISE,
	[OP_QNN_ABS] = FLOP_ELEMENTWISE,
	[OP_QNN_LEAKY_RELU] = FLOP_ELEMENTWISE,
	/* one FLOP per input element: reductions, and what reads its input
	 * a window or a row at a time (softmax, normalisations, pooling,
	 * scans) */
	[OP_SUM] = FLOP_REDUCE,
	[OP_MEAN] = FLOP_REDUCE,
	[OP_MAX] = FLOP_REDUCE,
	[OP_MIN] = FLOP_REDUCE,
	[OP_PROD] = FLOP_REDUCE,
	[OP_ALL] = FLOP_REDUCE,
	[OP_ANY] = FLOP_REDUCE,
	[OP_ARGMAX] = FLOP_REDUCE,
	[OP_ARGMIN] = FLOP_REDUCE,
	[OP_VARIANCE] = FLOP_REDUCE,
	[OP_SOFTMAX] = FLOP_REDUCE,
	[OP_LOG_SOFTMAX] = FLOP_REDUCE,
	[OP_FAST_SOFTMAX] = FLOP_REDUCE,
	[OP_QNN_SOFTMAX] = FLOP_REDUCE,
	[OP_BATCH_NORM] = FLOP_REDUCE,
	[OP_LAYER_NORM] = FLOP_REDUCE,
	[OP_GROUP_NORM] = FLOP_REDUCE,
	[OP_INSTANCE_NORM] = FLOP_REDUCE,
	[OP_L2_NORMALIZE] = FLOP_REDUCE,
	[OP_LRN] = FLOP_REDUCE,
	[OP_MAX_POOL1D] = FLOP_REDUCE,
	[OP_MAX_POOL2D] = FLOP_REDUCE,
	[OP_MAX_POOL3D] = FLOP_REDUCE,
	[OP_AVG_POOL1D] = FLOP_REDUCE,
	[OP_AVG_POOL2D] = FLOP_REDUCE,
	[OP_AVG_POOL3D] = FLOP_REDUCE,
	[OP_QNN_AVG_POOL2D] = FLOP_REDUCE,
	[OP_GLOBAL_AVG_POOL2D] = FLOP_REDUCE,
	[OP_GLOBAL_MAX_POOL2D] = FLOP_REDUCE,
	[OP_ADAPTIVE_AVG_POOL1D] = FLOP_REDUCE,
	[OP_ADAPTIVE_AVG_POOL2D] = FLOP_REDUCE,
	[OP_ADAPTIVE_AVG_POOL3D] = FLOP_REDUCE,
	[OP_ADAPTIVE_MAX_POOL1D] = FLOP_REDUCE,
	[OP_ADAPTIVE_MAX_POOL2D] = FLOP_REDUCE,
	[OP_ADAPTIVE_MAX_POOL3D] = FLOP_REDUCE,
	[OP_CUMSUM] = FLOP_REDUCE,
	[OP_CUMPROD] = FLOP_REDUCE,
	/* 2 * M * N * K */
	[OP_DENSE] = FLOP_MATMUL,
	[OP_MATMUL] = FLOP_MATMUL,
	[OP_BATCH_MATMUL] = FLOP_MATMUL,
	[OP_CONTRIB_DENSE_PACK] = FLOP_MATMUL,
	[OP_QNN_DENSE] = FLOP_MATMUL,
	[OP_QNN_CONTRIB_DENSE_PACK] = FLOP_MATMUL,
	[OP_QNN_BATCH_MATMUL] = FLOP_MATMUL,
	/* 2 * K * outputs */
	[OP_CONV1D] = FLOP_CONV,
	[OP_CONV2D] = FLOP_CONV,
	[OP_CONV3D] = FLOP_CONV,
	[OP_QNN_CONV2D] = FLOP_CONV,
	/* 2 * K * inputs */
	[OP_CONV1D_TRANSPOSE] = FLOP_CONV_TRANSPOSE,
	[OP_CONV2D_TRANSPOSE] = FLOP_CONV_TRANSPOSE,
	[OP_CONV3D_TRANSPOSE] = FLOP_CONV_TRANSPOSE,
	[OP_QNN_CONV2D_TRANSPOSE] = FLOP_CONV_TRANSPOSE,
};

EstimateFlopRule plan_estimate_flop_rule(OpKind op)
{
	return op < OP_COUNT ? (EstimateFlopRule)flop_rules[op] : FLOP_NONE;
}

/* Elements of a tensor type, or of every field of a tuple; false when
 * unknown. */
static bool count_elements(const Type *t, int64_t *out)
{
	int64_t total = 0, n;
	if (!t)
		return false;
	if (t->kind == TYPE_TENSOR)
		return type_num_elements(t, out);
	if (t->kind != TYPE_TUPLE)
		return false;
	for (uint32_t i = 0; i < t->u.tuple.nfields; i++) {
		if (!count_elements(t->u.tuple.fields[i], &n))
			return false;
		total += n;
	}
	*out = total;
	return true;
}

static bool attr_is_true(const Expr *call, const char *name)
{
	const Attr *a = ir_attr(call, name);
	if (!a)
		return false;
	return (a->value.kind == ATTR_BOOL && a->value.u.b) ||
	       (a->value.kind == ATTR_INT && a->value.u.i != 0);
}

/* The extent of the kernel layout's dimension `letter` (O or I) in the
 * weight type w: the layout as written or the operator's default, which
 * must name each of w's dimensions once (a blocked layout like OIHW16o
 * does not). 0 when not found. */
static int64_t kernel_extent(const Expr *call, const Type *w, char letter)
{
	const Attr *a = ir_attr(call, "kernel_layout");
	const char *layout = NULL;
	size_t len = 0;
	if (a && a->value.kind == ATTR_STRING && a->value.u.s[0]) {
		layout = a->value.u.s;
		len = strlen(layout);
	} else {
		layout = op_attr_default(call->u.call.op, "kernel_layout", &len);
	}
	if (!layout || len != w->u.tensor.ndim)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (layout[i] == letter)
			return w->u.tensor.dims[i] > 0 ? w->u.tensor.dims[i] : 0;
	return 0;
}

static const Type *argument_type(const Expr *call, uint32_t i)
{
	if (i >= call->u.call.nargs || !call->u.call.args[i]->type ||
	    call->u.call.args[i]->type->kind != TYPE_TENSOR)
		return NULL;
	return call->u.call.args[i]->type;
}

bool plan_estimate_call_flops(const Expr *call, double *flops)
{
	int64_t out = 0, in = 0, w = 0;
	const Type *t;
	*flops = 0;
	if (call->kind != EXPR_CALL)
		return false;
	switch (plan_estimate_flop_rule(call->u.call.op)) {
	case FLOP_NONE:
		return true;
	case FLOP_ELEMENTWISE:
		if (!count_elements(call->type, &out))
			return false;
		*flops = (double)out;
		return true;
	case FLOP_REDUCE:
		if (!(t = argument_type(call, 0)) || !type_num_elements(t, &in))
			return false;
		*flops = (double)in;
		return true;
	case FLOP_MATMUL: {
		uint32_t n;
		int64_t k;
		if (!(t = argument_type(call, 0)) || !count_elements(call->type, &out) ||
		    (n = t->u.tensor.ndim) == 0)
			return false;
		/* nn.matmul and batch_matmul may hold the first operand
		 * transposed, (K, M) rather than (M, K) */
		k = attr_is_true(call, "transpose_a") && n >= 2 ? t->u.tensor.dims[n - 2]
								: t->u.tensor.dims[n - 1];
		if (k < 0)
			return false;
		*flops = 2.0 * (double)out * (double)k;
		return true;
	}
	case FLOP_CONV: {
		int64_t channels;
		if (!(t = argument_type(call, 1)) || !type_num_elements(t, &w) ||
		    !count_elements(call->type, &out) || !(channels = kernel_extent(call, t, 'O')))
			return false;
		*flops = 2.0 * ((double)w / (double)channels) * (double)out;
		return true;
	}
	case FLOP_CONV_TRANSPOSE: {
		int64_t channels;
		const Type *data = argument_type(call, 0);
		if (!data || !type_num_elements(data, &in) || !(t = argument_type(call, 1)) ||
		    !type_num_elements(t, &w) || !(channels = kernel_extent(call, t, 'I')))
			return false;
		*flops = 2.0 * ((double)w / (double)channels) * (double)in;
		return true;
	}
	}
	return false;
}

bool plan_estimate_call_bytes(const Expr *call, double *bytes)
{
	int64_t b;
	bool reads_shapes_only;
	*bytes = 0;
	if (call->kind != EXPR_CALL)
		return false;
	/* these read their operand's shape, not its elements */
	reads_shapes_only = call->u.call.op == OP_SHAPE_OF || call->u.call.op == OP_NDARRAY_SIZE ||
			    call->u.call.op == OP_ZEROS_LIKE || call->u.call.op == OP_ONES_LIKE;
	for (uint32_t i = 0; i < call->u.call.nargs && !reads_shapes_only; i++) {
		const Type *t = call->u.call.args[i]->type;
		if (!t || !type_is_tensors(t))
			continue; /* a closure or a value that is no tensor */
		if (!type_bytes(t, &b))
			return false;
		*bytes += (double)b;
	}
	if (!call->type || !type_bytes(call->type, &b))
		return false;
	*bytes += (double)b;
	return true;
}

/* ---- the calibrated cpu's refinements ---- */

/* What a call makes the cpu backend do besides its plain roofline: the
 * products it hands cpu_gemm, the work its kernels split over threads and
 * the passes over a column matrix an im2col or col2im adds. */
typedef struct Product {
	double m, n, k; /* C [m, n] = op(A) [m, k] op(B) [k, n], */
	bool ta, tb;    /* op: transposed or not, as cpu_gemm is called */
	bool own;       /* ... through cpu_gemm (a float product, which
			   gemm_skinny may take), else a quantized one's */
	double count;   /* ... so many times a call (0: no product) */
} Product;

typedef struct CallWork {
	double flops, bytes; /* the plain roofline's (the product's, for a
				convolution through a column matrix) */
	Product product;
	double elements;      /* what its kernel splits over threads */
	double split;         /* ... a thread per this many (1: the device's
				split_elements; 4: global pooling's) */
	double pass_bytes;    /* an im2col or col2im pass, read + written */
	double pass_elements; /* ... its elements, which it splits */
} CallWork;

static double dims_product(const Type *t, uint32_t from, uint32_t to)
{
	double p = 1;
	for (uint32_t i = from; i < to && i < t->u.tensor.ndim; i++)
		p *= (double)(t->u.tensor.dims[i] > 0 ? t->u.tensor.dims[i] : 0);
	return p;
}

static int64_t int_attr(const Expr *call, const char *name, int64_t fallback)
{
	const Attr *a = ir_attr(call, name);
	return a && a->value.kind == ATTR_INT && a->value.u.i > 0 ? a->value.u.i : fallback;
}

/* nn.dense, nn.matmul, batch_matmul: one product per batch item, as
 * prepare_nn.c hands them to cpu_gemm (nn.dense's B transposed, the
 * others' by their attributes); the quantized ones by their own kernel. */
static void matmul_work(const Expr *call, CallWork *w)
{
	const Type *out = call->type;
	uint32_t nd = out && out->kind == TYPE_TENSOR ? out->u.tensor.ndim : 0;
	OpKind op = call->u.call.op;
	bool batched = op == OP_BATCH_MATMUL || op == OP_QNN_BATCH_MATMUL;
	bool dense = op != OP_BATCH_MATMUL && op != OP_QNN_BATCH_MATMUL && op != OP_MATMUL;
	Product *p = &w->product;
	if (nd == 0)
		return;
	p->n = dims_product(out, nd - 1, nd);
	p->k = p->n > 0 ? w->flops / 2 / dims_product(out, 0, nd) : 0;
	p->m = batched && nd >= 3 ? dims_product(out, nd - 2, nd - 1)
				  : dims_product(out, 0, nd - 1);
	p->count = batched && nd >= 3 ? dims_product(out, 0, nd - 2) : 1;
	p->ta = attr_is_true(call, "transpose_a");
	p->tb = dense || attr_is_true(call, "transpose_b");
	p->own = op == OP_DENSE || op == OP_MATMUL || op == OP_BATCH_MATMUL;
}

/* A convolution through OpenBLAS (core/exec/cpu/cpu_window.c): nn.conv2d
 * writes each (batch item, group)'s column matrix [cg * window, output
 * positions] (im2col, unless 1x1 of stride 1 without padding) and
 * multiplies the weight [og, cg * window] by it, so the columns are
 * written once and read once besides the product; a group of at most
 * direct_conv cg * og is computed directly, no product. nn.conv2d_transpose
 * multiplies the weight's transpose [og * window, cg] by the input [cg,
 * input positions] into a column matrix, then adds each column into the
 * output (col2im) after zeroing it. The column matrix goes in tiles of
 * 8 MiB (at least 64 columns), which changes no product's path: only a
 * plane of at most 16 positions has a narrow side of columns. False when
 * the shapes are unknown. */
static bool convolution_work(const Expr *call, double direct_conv, CallWork *w)
{
	const Type *data = argument_type(call, 0), *wt = argument_type(call, 1);
	bool transpose = plan_estimate_flop_rule(call->u.call.op) == FLOP_CONV_TRANSPOSE;
	int64_t groups = int_attr(call, "groups", 1), o, i, kernel, ko, ki;
	double es, batch, window, cg, og, out, in, col, plane, rows;
	if (!data || !wt || data->u.tensor.ndim < 3 || !type_num_elements(wt, &kernel) ||
	    !count_elements(call->type, &o) || !type_num_elements(data, &i) ||
	    !(ko = kernel_extent(call, wt, 'O')) || !(ki = kernel_extent(call, wt, 'I')))
		return false;
	out = (double)o;
	in = (double)i;
	es = (double)dtype_size(data->u.tensor.dtype);
	batch = dims_product(data, 0, 1);
	window = (double)kernel / (double)ko / (double)ki;
	if (batch <= 0)
		return false;
	if (transpose) {
		/* weight (C, og, ...): I = all input channels, O = per group */
		cg = (double)ki / (double)groups;
		og = (double)ko;
		plane = in / batch / (cg * (double)groups);
		rows = og * window;
		col = rows * plane * batch * (double)groups;
		w->product = (Product){rows, plane, cg, true, false, true, batch * (double)groups};
		w->bytes += col * es; /* the product writes the columns */
		w->pass_bytes = (col + 2 * out) * es;
		w->pass_elements = col;
		return true;
	}
	/* weight (O, cg, ...) */
	cg = (double)ki;
	og = (double)ko / (double)groups;
	plane = out / batch / (og * (double)groups);
	rows = cg * window;
	if (cg * og <= direct_conv) { /* direct: the output's windows, split by rows */
		w->elements = w->flops / 2;
		return true;
	}
	w->product = (Product){og, plane, rows, false, false, true, batch * (double)groups};
	if (window == 1 && dims_product(data, 2, data->u.tensor.ndim) == plane)
		return true; /* 1x1, stride 1: the input is the column matrix */
	col = rows * plane * batch * (double)groups;
	w->bytes += (col - in) * es; /* the product reads the columns */
	w->pass_bytes = (in + col) * es;
	w->pass_elements = col;
	return true;
}

/* What the cpu backend does for call (flops and bytes its plain
 * roofline's). */
static CallWork call_work(const DeviceCpuModel *c, const Expr *call, double flops, double bytes)
{
	const CallWork plain = {.flops = flops, .bytes = bytes, .split = 1};
	CallWork w = plain;
	int64_t in = 0, out = 0;
	const Type *t;
	switch (plan_estimate_flop_rule(call->u.call.op)) {
	case FLOP_MATMUL:
		matmul_work(call, &w);
		return w;
	case FLOP_CONV:
	case FLOP_CONV_TRANSPOSE:
		if (convolution_work(call, c->direct_conv, &w))
			return w;
		w = plain;
		break;
	case FLOP_NONE:
	case FLOP_ELEMENTWISE:
	case FLOP_REDUCE:
		break;
	}
	/* the kernels split their output, or a reduction's input, in
	 * GRAIN_ELEMENTWISE's; global pooling in four times as many */
	if ((t = argument_type(call, 0)) && !type_num_elements(t, &in))
		in = 0;
	if (!count_elements(call->type, &out))
		out = 0;
	w.elements = (double)(in > out ? in : out);
	if (call->u.call.op == OP_GLOBAL_AVG_POOL2D || call->u.call.op == OP_GLOBAL_MAX_POOL2D)
		w.split = 4;
	return w;
}

/* The threads kernel_parallel_for runs `elements` on: one per `grain`, at
 * most the device's. */
static double split_threads(const DeviceCpuModel *c, double elements, double grain)
{
	double t = grain > 0 ? (double)(int64_t)(elements / grain) : 1;
	return t < 1 ? 1 : t > c->threads ? c->threads : t;
}

/* GB/s of `bytes` moved on t threads: within their cores' caches when
 * they fit one, else memcpy's, between one thread's and all the
 * device's. */
static double bandwidth(const Device *d, double bytes, double t)
{
	const DeviceCpuModel *c = &d->cpu;
	if (bytes <= c->cache_bytes)
		return c->cache * t;
	if (c->threads <= 1 || t >= c->threads)
		return d->memory;
	return c->memory1 + (d->memory - c->memory1) * (t - 1) / (c->threads - 1);
}

/* How cpu_gemm (kernels_cpu.c) computes a product. */
typedef enum ProductPath {
	PRODUCT_NONE,   /* no product (or an empty one) */
	PRODUCT_GEMV,   /* one row: OpenBLAS's sgemv */
	PRODUCT_SKINNY, /* a narrow side, the other operand big and lying
			   along the wide side's rows: gemm_skinny.c */
	PRODUCT_GEMM,   /* OpenBLAS's sgemm, which packs both operands */
} ProductPath;

static ProductPath product_path(const DeviceCpuModel *c, const Product *p)
{
	if (p->count <= 0 || p->m <= 0 || p->n <= 0 || p->k <= 0)
		return PRODUCT_NONE;
	if (p->m == 1 && !p->ta)
		return PRODUCT_GEMV;
	if (p->own && c->skinny_max > 0 && c->skinny_peak > 0 &&
	    ((p->n <= c->skinny_max && p->ta && p->m * p->k >= c->skinny_big) ||
	     (p->m <= c->skinny_max && !p->tb && p->n * p->k >= c->skinny_big)))
		return PRODUCT_SKINNY;
	return PRODUCT_GEMM;
}

/* The bytes OpenBLAS's packing of a product's operands (op(A) and op(B)
 * copied into its blocked layout on every call: read and written) moves
 * beyond what the calibration's float32 square product of `side` packs
 * per FLOP (4 side^2 floats for 2 side^3 FLOPs, 8 / side bytes), which
 * its rate includes: nothing more for a square product, nearly as much
 * as the arithmetic takes for one with a side of a few dozen (dcgan's
 * transposed convolution of 8 x 8 positions, 4096 x 64 x 512, ran at a
 * third of the 512^3 rate). */
static double packing_bytes(const Product *p, double flops, double es, double side)
{
	double pack = 2 * es * (p->m * p->k + p->k * p->n) * p->count;
	double share = side > 0 ? flops * 8 / side : pack;
	return pack > share ? pack - share : 0;
}

/* The seconds of call (flops, bytes) on a calibrated cpu d, launch aside. */
static double calibrated_seconds(const Device *d, const Expr *call, double flops, double bytes)
{
	const DeviceCpuModel *c = &d->cpu;
	CallWork w = call_work(c, call, flops, bytes);
	const Product *p = &w.product;
	double t, rate, compute, memory, pass = 0, calls = 0, pack = 0, work = w.flops;
	switch (product_path(c, p)) {
	case PRODUCT_NONE:
		t = split_threads(c, w.elements, c->split_elements * w.split);
		rate = d->peak * t / c->threads;
		break;
	case PRODUCT_GEMV: {
		/* sgemv: one thread below its threshold, else all of them,
		 * and each call its own cost besides (the calibration's, on
		 * one thread or split: a split one's hand-off is most of a
		 * small one's time) */
		bool one = p->n * p->k < c->gemv_split || c->threads <= 1;
		t = one ? 1 : c->threads;
		rate = d->peak * t / c->threads;
		calls = p->count * (one ? c->gemv_call : c->gemv_threaded) * 1e-6;
		break;
	}
	case PRODUCT_SKINNY: {
		/* the narrow side padded to a power of two, the tiles of rows
		 * split over threads at about 2^16 multiply-adds each, at the
		 * calibration's rate (a narrow side of skinny_max, its big
		 * operand read where it lies); no packing */
		double narrow = p->n <= c->skinny_max && p->ta ? p->n : p->m, padded = 1;
		while (padded < narrow)
			padded *= 2;
		work = w.flops * padded / narrow;
		t = split_threads(c, p->m * p->n * p->k * padded / narrow, 65536);
		rate = c->skinny_peak * t / c->threads;
		break;
	}
	case PRODUCT_GEMM:
	default: { /* OpenBLAS: one thread at or below its threshold */
		bool one = p->m * p->n * p->k <= c->gemm_split;
		const Type *a = argument_type(call, 0);
		double es = a ? (double)dtype_size(a->u.tensor.dtype) : 4;
		t = one ? 1 : c->threads;
		rate = one ? c->small_peak : d->peak;
		pack = packing_bytes(p, w.flops, es, one ? c->small_side : c->gemm_side);
		break;
	}
	}
	compute = rate > 0 ? work / (rate * 1e9) : 0;
	memory = w.bytes / (bandwidth(d, w.bytes, t) * 1e9);
	if (w.pass_bytes > 0) {
		double tp = split_threads(c, w.pass_elements, c->split_elements);
		pass = w.pass_bytes / (bandwidth(d, w.pass_bytes, tp) * 1e9);
	}
	if (pack > 0)
		pass += pack / (bandwidth(d, pack, t) * 1e9);
	return (compute > memory ? compute : memory) + pass + calls;
}

static bool calibrated_cpu(const Device *d)
{
	return d->costs == DEVICE_COSTS_CALIBRATED && d->cpu.threads > 0 && d->cpu.cache > 0 &&
	       d->cpu.memory1 > 0 && d->cpu.small_peak > 0 && d->memory > 0;
}

double plan_estimate_call_seconds(const Device *d, const Expr *call, double flops, double bytes)
{
	double compute, memory;
	if (call && call->kind == EXPR_CALL && calibrated_cpu(d))
		return calibrated_seconds(d, call, flops, bytes) + d->launch * 1e-6;
	compute = d->peak > 0 ? flops / (d->peak * 1e9) : 0;
	memory = d->memory > 0 ? bytes / (d->memory * 1e9) : 0;
	return (compute > memory ? compute : memory) + d->launch * 1e-6;
}

/* The totals of op on device d, added to e's list when new. */
static EstimateOp *estimate_op(PlanEstimate *e, size_t *cap, OpKind op, int32_t device)
{
	for (size_t i = 0; i < e->nops; i++)
		if (e->ops[i].op == op && e->ops[i].device == device)
			return &e->ops[i];
	grow_array((void **)&e->ops, cap, e->nops + 1, sizeof(EstimateOp));
	memset(&e->ops[e->nops], 0, sizeof(EstimateOp));
	e->ops[e->nops].op = op;
	e->ops[e->nops].device = device;
	return &e->ops[e->nops++];
}

static int compare_ops(const void *a, const void *b)
{
	const EstimateOp *x = a, *y = b;
	if (x->device != y->device)
		return x->device < y->device ? -1 : 1;
	return (int)x->op - (int)y->op;
}

EstimateLink plan_estimate_link(const DeviceTable *devices, int32_t src, int32_t dst)
{
	const Device *a, *b;
	EstimateLink link = {0, 0};
	if (src < 0 || dst < 0 || (uint32_t)src >= devices->count ||
	    (uint32_t)dst >= devices->count)
		return link;
	a = &devices->items[src];
	b = &devices->items[dst];
	if (devices_same_device(devices, src, dst))
		a = b; /* within one device's memory */
	else if (a->device_type == DEVICE_TYPE_CPU && b->device_type != DEVICE_TYPE_CPU)
		a = b; /* the host's link to the accelerator */
	else if (b->device_type == DEVICE_TYPE_CPU && a->device_type != DEVICE_TYPE_CPU)
		b = a;
	/* one device's link, or the worse of two */
	link.bandwidth = a->bandwidth < b->bandwidth ? a->bandwidth : b->bandwidth;
	link.latency = a->latency > b->latency ? a->latency : b->latency;
	return link;
}

/* ---- peak memory ---- */

/* What a node's value is: a tensor of its own (allocated where it is
 * defined), or a name for others' (its targets). */
static bool allocates(const Expr *e)
{
	switch (e->kind) {
	case EXPR_CONSTANT:
		return true;
	case EXPR_CALL:
		/* on_device names its argument; device_copy makes a new tensor */
		return e->u.call.op == OP_DEVICE_COPY || !op_is_annotation(e->u.call.op);
	case EXPR_VAR:
		return e->u.var.role == VAR_PARAM;
	case EXPR_GLOBAL:
	case EXPR_OP_VALUE:
	case EXPR_LET:
	case EXPR_FN:
	case EXPR_TUPLE:
	case EXPR_PROJ:
	case EXPR_IF:
	case EXPR_CONSTRUCT:
	case EXPR_MATCH:
		return false;
	}
	return false;
}

/* The nodes whose values e's value names (e allocating nothing): pushes
 * e's last use onto each. */
static void push_last_use(const Expr *e, int64_t *last_use)
{
	int64_t l = last_use[e->id];
	const Expr *targets[3] = {NULL, NULL, NULL};
	switch (e->kind) {
	case EXPR_VAR:
		if (e->u.var.role == VAR_LET)
			targets[0] = e->u.var.value;
		break;
	case EXPR_LET:
		targets[0] = e->u.let.body;
		break;
	case EXPR_PROJ:
		targets[0] = e->u.proj.tuple;
		break;
	case EXPR_IF:
		targets[0] = e->u.if_.then_branch;
		targets[1] = e->u.if_.else_branch;
		break;
	case EXPR_CALL:
		if (op_is_annotation(e->u.call.op) && e->u.call.op != OP_DEVICE_COPY &&
		    e->u.call.nargs > 0)
			targets[0] = e->u.call.args[0];
		break;
	case EXPR_TUPLE:
		for (uint32_t i = 0; i < e->u.tuple.nfields; i++)
			if (last_use[e->u.tuple.fields[i]->id] < l)
				last_use[e->u.tuple.fields[i]->id] = l;
		break;
	case EXPR_GLOBAL:
	case EXPR_OP_VALUE:
	case EXPR_CONSTANT:
	case EXPR_FN:
	case EXPR_CONSTRUCT:
	case EXPR_MATCH:
		break;
	}
	for (size_t i = 0; i < DP_COUNT(targets); i++)
		if (targets[i] && last_use[targets[i]->id] < l)
			last_use[targets[i]->id] = l;
}

/* A tensor of the sweep, in the list of the step after which it dies. */
typedef struct LiveTensor {
	int64_t bytes;
	int32_t device;
	uint32_t next; /* the next in its list, or UINT32_MAX */
} LiveTensor;

typedef struct PeakWalk {
	const DeviceTable *devices;
	EstimateDevice *out;
	int64_t *last_use; /* by expression id; -1 unused */
	int64_t *live;     /* per device, now */
	int64_t *peak;     /* per device, this function's */
	LiveTensor *tensors;
	size_t ntensors, cap_tensors;
	uint32_t *dies; /* per step + 2: the first tensor of its list */
	size_t cap_dies;
	size_t polled;
} PeakWalk;

/* Adds tensor e (alive from now) to the live totals; it dies after step
 * `last` (-1 the start, nbody the end). */
static void walk_define(PeakWalk *w, const Expr *e, int64_t last)
{
	int64_t bytes;
	LiveTensor *t;
	if (e->device < 0 || (uint32_t)e->device >= w->devices->count ||
	    (e->type && !type_is_tensors(e->type)))
		return;
	if (!e->type || !type_bytes(e->type, &bytes)) {
		w->out[e->device].unsized++;
		return;
	}
	w->live[e->device] += bytes;
	if (w->live[e->device] > w->peak[e->device])
		w->peak[e->device] = w->live[e->device];
	grow_array((void **)&w->tensors, &w->cap_tensors, w->ntensors + 1, sizeof(LiveTensor));
	t = &w->tensors[w->ntensors];
	t->bytes = bytes;
	t->device = e->device;
	t->next = w->dies[last + 1];
	w->dies[last + 1] = (uint32_t)w->ntensors++;
}

/* Takes away the tensors that die after step (list step + 1). */
static void walk_release(PeakWalk *w, int64_t step)
{
	for (uint32_t i = w->dies[step + 1]; i != UINT32_MAX; i = w->tensors[i].next)
		w->live[w->tensors[i].device] -= w->tensors[i].bytes;
}

/* The peak of one function; false when interrupted. */
static bool walk_function(PeakWalk *w, const PlanFunctions *fns, const PlanFunction *f)
{
	Expr *const *body = fns->order.items + f->body;
	const Expr *fn = f->fn;
	int64_t n = (int64_t)f->nbody;
	uint32_t ndev = w->devices->count;
	/* last uses: direct uses, then through the nodes that only name */
	for (uint32_t i = 0; i < fn->u.fn.nparams; i++)
		w->last_use[fn->u.fn.params[i]->id] = -1;
	for (int64_t p = 0; p < n; p++)
		w->last_use[body[p]->id] = -1;
	w->last_use[fn->u.fn.body->id] = n; /* the result lives to the end */
	for (int64_t p = 0; p < n; p++) {
		const Expr *e = body[p];
		/* a closure's uses are its own walk's; a let only binds (its
		 * variable's uses are its value's, its value is its body's) */
		if (e->kind == EXPR_FN || e->kind == EXPR_LET)
			continue;
		for (uint32_t i = 0, c = ir_child_count(e); i < c; i++) {
			const Expr *child = ir_child(e, i);
			if (child && w->last_use[child->id] < p)
				w->last_use[child->id] = p;
		}
		if (interrupt_poll(w->polled++))
			return false;
	}
	for (int64_t p = n - 1; p >= 0; p--)
		if (!allocates(body[p]))
			push_last_use(body[p], w->last_use);
	/* the sweep */
	grow_array((void **)&w->dies, &w->cap_dies, (size_t)n + 2, sizeof(uint32_t));
	for (int64_t i = 0; i < n + 2; i++)
		w->dies[i] = UINT32_MAX;
	w->ntensors = 0;
	for (uint32_t d = 0; d < ndev; d++)
		w->live[d] = w->peak[d] = 0;
	for (uint32_t i = 0; i < fn->u.fn.nparams; i++)
		walk_define(w, fn->u.fn.params[i], w->last_use[fn->u.fn.params[i]->id]);
	for (int64_t p = 0; p < n; p++)
		if (body[p]->kind == EXPR_CONSTANT)
			walk_define(w, body[p], w->last_use[body[p]->id]);
	walk_release(w, -1);
	for (int64_t p = 0; p < n; p++) {
		const Expr *e = body[p];
		if (allocates(e) && e->kind != EXPR_CONSTANT) {
			int64_t last = w->last_use[e->id];
			walk_define(w, e, last > p ? last : p);
		}
		walk_release(w, p);
		if (interrupt_poll(w->polled++))
			return false;
	}
	for (uint32_t d = 0; d < ndev; d++)
		if (w->peak[d] > w->out[d].peak_bytes)
			w->out[d].peak_bytes = w->peak[d];
	return true;
}

/* ---- the estimate ---- */

static int compare_directions(const void *a, const void *b)
{
	const EstimateDirection *x = a, *y = b;
	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	return x->dst < y->dst ? -1 : x->dst > y->dst;
}

static void estimate_copies(PlanEstimate *e, const DeviceTable *devices)
{
	size_t cap = 0, cap_dirs = 0;
	for (size_t i = 0; i < e->placement.count; i++) {
		const PlacementFact *f = &e->placement.facts[i];
		EstimateLink link = plan_estimate_link(devices, f->device, f->dest);
		double bandwidth = link.bandwidth, latency = link.latency * 1e-6;
		EstimateCopy *c;
		size_t k = 0;
		if (f->kind != FACT_COPY)
			continue;
		grow_array((void **)&e->copies, &cap, e->ncopies + 1, sizeof(EstimateCopy));
		c = &e->copies[e->ncopies++];
		c->fact = f;
		c->seconds =
			latency +
			(f->bytes > 0 && bandwidth > 0 ? (double)f->bytes / (bandwidth * 1e9) : 0);
		while (k < e->ndirections &&
		       (e->directions[k].src != f->device || e->directions[k].dst != f->dest))
			k++;
		if (k == e->ndirections) {
			grow_array((void **)&e->directions, &cap_dirs, k + 1,
				   sizeof(EstimateDirection));
			memset(&e->directions[k], 0, sizeof(EstimateDirection));
			e->directions[k].src = f->device;
			e->directions[k].dst = f->dest;
			e->ndirections++;
		}
		e->directions[k].copies++;
		e->directions[k].bytes += f->bytes > 0 ? f->bytes : 0;
		e->directions[k].seconds += c->seconds;
	}
	if (e->ndirections)
		qsort(e->directions, e->ndirections, sizeof(EstimateDirection), compare_directions);
}

bool plan_estimate(const IrModule *m, const DeviceTable *devices, PlanEstimate *out)
{
	PlanFunctions fns;
	PeakWalk w;
	size_t cap_ops = 0;
	bool ok = true;
	uint32_t ndev = devices->count;
	memset(out, 0, sizeof *out);
	out->ndevices = ndev;
	out->devices = xcalloc(ndev ? ndev : 1, sizeof(EstimateDevice));
	plan_placement(m, &out->placement);
	estimate_copies(out, devices);

	plan_functions(m, &fns);
	memset(&w, 0, sizeof w);
	w.devices = devices;
	w.out = out->devices;
	w.last_use = xmalloc((m->nexprs ? m->nexprs : 1) * sizeof(int64_t));
	for (uint32_t i = 0; i < m->nexprs; i++)
		w.last_use[i] = -1; /* a closure may name a node of its parent's */
	w.live = xcalloc(ndev ? ndev : 1, sizeof(int64_t));
	w.peak = xcalloc(ndev ? ndev : 1, sizeof(int64_t));
	for (size_t i = 0; i < fns.count && ok; i++) {
		const PlanFunction *f = &fns.items[i];
		ok = walk_function(&w, &fns, f);
		/* FLOPs of the operators of its body */
		for (size_t p = 0; p < f->nbody && ok; p++) {
			const Expr *e = fns.order.items[f->body + p];
			double flops, bytes;
			EstimateDevice *d;
			EstimateOp *op;
			if (e->kind != EXPR_CALL || e->u.call.op == OP_NONE ||
			    op_is_annotation(e->u.call.op) || e->device < 0 ||
			    (uint32_t)e->device >= ndev)
				continue;
			d = &out->devices[e->device];
			d->ops++;
			/* an operator devplan does not know has no rule */
			if (e->u.call.op == OP_UNKNOWN || !plan_estimate_call_flops(e, &flops) ||
			    !plan_estimate_call_bytes(e, &bytes)) {
				d->ops_unknown++;
				/* what it cannot know, it leaves out but for the launch */
				d->seconds += devices->items[e->device].launch * 1e-6;
				continue;
			}
			op = estimate_op(out, &cap_ops, e->u.call.op, e->device);
			op->calls++;
			op->flops += flops;
			op->bytes += bytes;
			op->seconds += plan_estimate_call_seconds(&devices->items[e->device], e,
								  flops, bytes);
			d->flops += flops;
			d->bytes += bytes;
		}
	}
	if (out->nops)
		qsort(out->ops, out->nops, sizeof(EstimateOp), compare_ops);
	for (size_t i = 0; i < out->nops; i++) {
		/* on a calibrated cpu, an operator kind's first call in a run
		 * costs its cold code's and data's misses besides */
		const Device *d = &devices->items[out->ops[i].device];
		if (calibrated_cpu(d))
			out->ops[i].seconds += d->cpu.first_call * 1e-6;
		out->devices[out->ops[i].device].seconds += out->ops[i].seconds;
	}
	free(w.last_use);
	free(w.live);
	free(w.peak);
	free(w.tensors);
	free(w.dies);
	plan_functions_free(&fns);
	if (!ok)
		plan_estimate_free(out);
	return ok;
}

void plan_estimate_free(PlanEstimate *e)
{
	plan_placement_free(&e->placement);
	free(e->copies);
	free(e->directions);
	free(e->devices);
	free(e->ops);
	memset(e, 0, sizeof *e);
}
