/*
 * cpu_elementwise.c - the CPU kernels of the elementwise operators: the
 * binary ops and nn.bias_add, the unary ops and clip, and cast.
 *
 * Binary operators share one broadcasting driver: operand shapes are
 * right-aligned against the output (numpy's rule), dimensions of size 1
 * are dropped and adjacent dimensions that stay contiguous in every operand
 * are merged, so the usual cases (same shapes, a scalar, a bias along one
 * axis) become a few long inner loops. Those loops are generated per
 * operator and dtype by macros: float32, float64 and float16 (computed in
 * float), bfloat16 (computed in float) and the integer dtypes and bool
 * (computed in wrapping 64-bit integer arithmetic, uint64 unsigned,
 * division by zero giving 0, so that no input is undefined behaviour). Large outputs are split across threads.
 */
#include "kernels_cpu.h"

#include "kernel_fastmath.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- binary: the broadcasting driver ----------------------------------- */

/* Inner loop over n output elements; sa/sb are element strides (0 or 1
 * after merging, or any for a general layout). */
typedef void (*BinaryLoop)(const void *a, int64_t sa, const void *b, int64_t sb, void *out,
			   int64_t n);

#define F32_LOAD(x) (x)
#define F32_STORE(v) (v)
#define F16_LOAD(x) dtype_half_to_float(x)
#define F16_STORE(v) dtype_float_to_half(v)
#define BF16_LOAD(x) dtype_bfloat16_to_float(x)
#define BF16_STORE(v) dtype_float_to_bfloat16(v)
#define WRAP_STORE(v) (v) /* the C conversion to a narrower unsigned type wraps */
#define I8_STORE(v) ((int8_t)(uint8_t)(uint64_t)(v))
#define I16_STORE(v) ((int16_t)(uint16_t)(uint64_t)(v))
#define I32_STORE(v) dtype_wrap_i32(v)
#define I64_STORE(v) (v)
#define BOOL_STORE(v) ((uint8_t)((v) != 0))
#define PLAIN_LOAD(x) (x)

#define DEFINE_BINARY_LOOP(NAME, T, C, LOAD, STORE, EXPR)                                  \
	static void NAME(const void *pa, int64_t sa, const void *pb, int64_t sb, void *po, \
			 int64_t n)                                                        \
	{                                                                                  \
		const T *restrict a = pa;                                                  \
		const T *restrict b = pb;                                                  \
		T *restrict o = po;                                                        \
		if (sa == 1 && sb == 1) {                                                  \
			for (int64_t i = 0; i < n; i++) {                                  \
				C x = LOAD(a[i]), y = LOAD(b[i]);                          \
				o[i] = STORE(EXPR);                                        \
			}                                                                  \
		} else if (sa == 1 && sb == 0) {                                           \
			C y = LOAD(b[0]);                                                  \
			for (int64_t i = 0; i < n; i++) {                                  \
				C x = LOAD(a[i]);                                          \
				o[i] = STORE(EXPR);                                        \
			}                                                                  \
		} else if (sa == 0 && sb == 1) {                                           \
			C x = LOAD(a[0]);                                                  \
			for (int64_t i = 0; i < n; i++) {                                  \
				C y = LOAD(b[i]);                                          \
				o[i] = STORE(EXPR);                                        \
			}                                                                  \
		} else {                                                                   \
			for (int64_t i = 0; i < n; i++) {                                  \
				C x = LOAD(a[i * sa]), y = LOAD(b[i * sb]);                \
				o[i] = STORE(EXPR);                                        \
			}                                                                  \
		}                                                                          \
	}

/* Integer division by the operands' type: uint64 ones stay unsigned (the
 * loops of the other integer dtypes compute in int64). */
static inline uint64_t udiv(uint64_t x, uint64_t y)
{
	return y == 0 ? 0 : x / y;
}
#define IDIV(x, y) _Generic((x), uint64_t : udiv, default : idiv)(x, y)

/* X(OP, float expression, integer expression, has float, has integer)
 * over x and y; an operator without one of the two has a placeholder there
 * and refuses those dtypes. Logical operators treat nonzero as true;
 * integer division and modulo by zero give 0; shifts by a negative amount
 * or by 64 or more shift everything out. */
#define BINARY_OPS(X)                                                    \
	X(ADD, x + y, iadd(x, y), 1, 1)                                  \
	X(SUBTRACT, x - y, isub(x, y), 1, 1)                             \
	X(MULTIPLY, x *y, imul(x, y), 1, 1)                              \
	X(DIVIDE, x / y, IDIV(x, y), 1, 1)                               \
	X(MAXIMUM, (x > y || x != x) ? x : y, x > y ? x : y, 1, 1)       \
	X(MINIMUM, (x < y || x != x) ? x : y, x < y ? x : y, 1, 1)       \
	X(POWER, fpow(x, y), ipow(x, y), 1, 1)                           \
	X(MOD, ffmod(x, y), imod(x, y), 1, 1)                            \
	X(TRUNC_MOD, ffmod(x, y), imod(x, y), 1, 1)                      \
	X(TRUNC_DIVIDE, ftrunc(x / y), idiv(x, y), 1, 1)                 \
	X(FLOOR_DIVIDE, ffloor(x / y), ifloordiv(x, y), 1, 1)            \
	X(FLOOR_MOD, x - ffloor(x / y) * y, ifloormod(x, y), 1, 1)       \
	X(LOGICAL_AND, (x != 0) && (y != 0), (x != 0) && (y != 0), 0, 1) \
	X(LOGICAL_OR, (x != 0) || (y != 0), (x != 0) || (y != 0), 0, 1)  \
	X(LOGICAL_XOR, (x != 0) != (y != 0), (x != 0) != (y != 0), 0, 1) \
	X(BITWISE_AND, ((void)y, x), x &y, 0, 1)                         \
	X(BITWISE_OR, ((void)y, x), x | y, 0, 1)                         \
	X(BITWISE_XOR, ((void)y, x), x ^ y, 0, 1)                        \
	X(LEFT_SHIFT, ((void)y, x), ishl(x, y), 0, 1)                    \
	X(RIGHT_SHIFT, ((void)y, x), ishr(x, y), 0, 1)

#define fpow(x, y) _Generic((x), float : powf, default : pow)(x, y)
#define ffmod(x, y) _Generic((x), float : fmodf, default : fmod)(x, y)
#define ftrunc(x) _Generic((x), float : truncf, default : trunc)(x)
#define ffloor(x) _Generic((x), float : floorf, default : floor)(x)

/* x to the power y in wrapping arithmetic; a negative power is the
 * truncated 1 / x^-y. */
static inline int64_t ipow(int64_t x, int64_t y)
{
	uint64_t r = 1, b = (uint64_t)x;
	if (y < 0)
		return x == 1 ? 1 : x == -1 ? ((y & 1) ? -1 : 1) : 0;
	for (; y; y >>= 1) {
		if (y & 1)
			r *= b;
		b *= b;
	}
	return (int64_t)r;
}

static inline int64_t imod(int64_t x, int64_t y)
{
	return y == 0 || y == -1 ? 0 : x % y;
}

static inline int64_t ifloordiv(int64_t x, int64_t y)
{
	int64_t q = idiv(x, y);
	return (y != 0 && y != -1 && (x % y != 0) && ((x < 0) != (y < 0))) ? q - 1 : q;
}

static inline int64_t ifloormod(int64_t x, int64_t y)
{
	int64_t r = imod(x, y);
	return (r != 0 && ((r < 0) != (y < 0))) ? r + y : r;
}

static inline int64_t ishl(int64_t x, int64_t y)
{
	return y < 0 || y >= 64 ? 0 : (int64_t)((uint64_t)x << y);
}

static inline int64_t ishr(int64_t x, int64_t y)
{
	if (y < 0 || y >= 64)
		return x < 0 ? -1 : 0;
	return x < 0 ? ~(~x >> y) : x >> y;
}

#define DEFINE_BINARY_LOOPS(OP, FEXPR, IEXPR, HAS_FLOAT, HAS_INT)                                \
	DEFINE_BINARY_LOOP(binary_##OP##_f32, float, float, F32_LOAD, F32_STORE, FEXPR)          \
	DEFINE_BINARY_LOOP(binary_##OP##_f64, double, double, F32_LOAD, F32_STORE, FEXPR)        \
	DEFINE_BINARY_LOOP(binary_##OP##_f16, uint16_t, float, F16_LOAD, F16_STORE, FEXPR)       \
	DEFINE_BINARY_LOOP(binary_##OP##_bf16, uint16_t, float, BF16_LOAD, BF16_STORE, FEXPR)    \
	DEFINE_BINARY_LOOP(binary_##OP##_i8, int8_t, int64_t, PLAIN_LOAD, I8_STORE, IEXPR)       \
	DEFINE_BINARY_LOOP(binary_##OP##_u8, uint8_t, int64_t, PLAIN_LOAD, WRAP_STORE, IEXPR)    \
	DEFINE_BINARY_LOOP(binary_##OP##_i16, int16_t, int64_t, PLAIN_LOAD, I16_STORE, IEXPR)    \
	DEFINE_BINARY_LOOP(binary_##OP##_u16, uint16_t, int64_t, PLAIN_LOAD, WRAP_STORE, IEXPR)  \
	DEFINE_BINARY_LOOP(binary_##OP##_u32, uint32_t, int64_t, PLAIN_LOAD, WRAP_STORE, IEXPR)  \
	DEFINE_BINARY_LOOP(binary_##OP##_u64, uint64_t, uint64_t, PLAIN_LOAD, WRAP_STORE, IEXPR) \
	DEFINE_BINARY_LOOP(binary_##OP##_i32, int32_t, int64_t, PLAIN_LOAD, I32_STORE, IEXPR)    \
	DEFINE_BINARY_LOOP(binary_##OP##_i64, int64_t, int64_t, PLAIN_LOAD, I64_STORE, IEXPR)    \
	DEFINE_BINARY_LOOP(binary_##OP##_bool, uint8_t, int64_t, PLAIN_LOAD, BOOL_STORE, IEXPR)
BINARY_OPS(DEFINE_BINARY_LOOPS)

static BinaryLoop binary_loop(OpKind op, DType dt)
{
#define PICK(OP, FEXPR, IEXPR, HAS_FLOAT, HAS_INT)                    \
	if (op == OP_##OP) {                                          \
		switch (dt) {                                         \
		case DT_FLOAT32:                                      \
			return HAS_FLOAT ? binary_##OP##_f32 : NULL;  \
		case DT_FLOAT64:                                      \
			return HAS_FLOAT ? binary_##OP##_f64 : NULL;  \
		case DT_FLOAT16:                                      \
			return HAS_FLOAT ? binary_##OP##_f16 : NULL;  \
		case DT_BFLOAT16:                                     \
			return HAS_FLOAT ? binary_##OP##_bf16 : NULL; \
		case DT_INT8:                                         \
			return HAS_INT ? binary_##OP##_i8 : NULL;     \
		case DT_UINT8:                                        \
			return HAS_INT ? binary_##OP##_u8 : NULL;     \
		case DT_INT16:                                        \
			return HAS_INT ? binary_##OP##_i16 : NULL;    \
		case DT_UINT16:                                       \
			return HAS_INT ? binary_##OP##_u16 : NULL;    \
		case DT_UINT32:                                       \
			return HAS_INT ? binary_##OP##_u32 : NULL;    \
		case DT_UINT64:                                       \
			return HAS_INT ? binary_##OP##_u64 : NULL;    \
		case DT_INT32:                                        \
			return HAS_INT ? binary_##OP##_i32 : NULL;    \
		case DT_INT64:                                        \
			return HAS_INT ? binary_##OP##_i64 : NULL;    \
		case DT_BOOL:                                         \
			return HAS_INT ? binary_##OP##_bool : NULL;   \
		case DT_COUNT:                                        \
			break;                                        \
		}                                                     \
	}
	BINARY_OPS(PICK)
#undef PICK
	return NULL;
}

/* ---- comparisons: any dtype in, bool out --------------------------------- */

#define DEFINE_COMPARE_LOOP(NAME, T, C, LOAD, EXPR)                                        \
	static void NAME(const void *pa, int64_t sa, const void *pb, int64_t sb, void *po, \
			 int64_t n)                                                        \
	{                                                                                  \
		const T *restrict a = pa;                                                  \
		const T *restrict b = pb;                                                  \
		uint8_t *restrict o = po;                                                  \
		for (int64_t i = 0; i < n; i++) {                                          \
			C x = LOAD(a[i * sa]), y = LOAD(b[i * sb]);                        \
			o[i] = (EXPR) ? 1 : 0;                                             \
		}                                                                          \
	}

#define COMPARE_OPS(X)        \
	X(EQUAL, x == y)      \
	X(NOT_EQUAL, x != y)  \
	X(LESS, x < y)        \
	X(LESS_EQUAL, x <= y) \
	X(GREATER, x > y)     \
	X(GREATER_EQUAL, x >= y)

#define DEFINE_COMPARE_LOOPS(OP, EXPR)                                                \
	DEFINE_COMPARE_LOOP(compare_##OP##_f32, float, float, F32_LOAD, EXPR)         \
	DEFINE_COMPARE_LOOP(compare_##OP##_f64, double, double, F32_LOAD, EXPR)       \
	DEFINE_COMPARE_LOOP(compare_##OP##_f16, uint16_t, float, F16_LOAD, EXPR)      \
	DEFINE_COMPARE_LOOP(compare_##OP##_bf16, uint16_t, float, BF16_LOAD, EXPR)    \
	DEFINE_COMPARE_LOOP(compare_##OP##_i8, int8_t, int64_t, PLAIN_LOAD, EXPR)     \
	DEFINE_COMPARE_LOOP(compare_##OP##_u8, uint8_t, int64_t, PLAIN_LOAD, EXPR)    \
	DEFINE_COMPARE_LOOP(compare_##OP##_i16, int16_t, int64_t, PLAIN_LOAD, EXPR)   \
	DEFINE_COMPARE_LOOP(compare_##OP##_u16, uint16_t, int64_t, PLAIN_LOAD, EXPR)  \
	DEFINE_COMPARE_LOOP(compare_##OP##_u32, uint32_t, int64_t, PLAIN_LOAD, EXPR)  \
	DEFINE_COMPARE_LOOP(compare_##OP##_u64, uint64_t, uint64_t, PLAIN_LOAD, EXPR) \
	DEFINE_COMPARE_LOOP(compare_##OP##_i32, int32_t, int64_t, PLAIN_LOAD, EXPR)   \
	DEFINE_COMPARE_LOOP(compare_##OP##_i64, int64_t, int64_t, PLAIN_LOAD, EXPR)   \
	DEFINE_COMPARE_LOOP(compare_##OP##_bool, uint8_t, int64_t, PLAIN_LOAD, EXPR)
COMPARE_OPS(DEFINE_COMPARE_LOOPS)

static BinaryLoop compare_loop(OpKind op, DType dt)
{
#define PICK(OP, EXPR)                              \
	if (op == OP_##OP) {                        \
		switch (dt) {                       \
		case DT_FLOAT32:                    \
			return compare_##OP##_f32;  \
		case DT_FLOAT64:                    \
			return compare_##OP##_f64;  \
		case DT_FLOAT16:                    \
			return compare_##OP##_f16;  \
		case DT_BFLOAT16:                   \
			return compare_##OP##_bf16; \
		case DT_INT8:                       \
			return compare_##OP##_i8;   \
		case DT_UINT8:                      \
			return compare_##OP##_u8;   \
		case DT_INT16:                      \
			return compare_##OP##_i16;  \
		case DT_UINT16:                     \
			return compare_##OP##_u16;  \
		case DT_UINT32:                     \
			return compare_##OP##_u32;  \
		case DT_UINT64:                     \
			return compare_##OP##_u64;  \
		case DT_INT32:                      \
			return compare_##OP##_i32;  \
		case DT_INT64:                      \
			return compare_##OP##_i64;  \
		case DT_BOOL:                       \
			return compare_##OP##_bool; \
		case DT_COUNT:                      \
			break;                      \
		}                                   \
	}
	COMPARE_OPS(PICK)
#undef PICK
	return NULL;
}

/* The output's dimensions with per-operand element strides, after
 * dropping size-1 dimensions and merging contiguous neighbours. */
typedef struct Broadcast {
	uint32_t ndim;
	int64_t *shape;
	int64_t *stride[2];
} Broadcast;

/* The plan for out (kernel_broadcast_plan); broadcast_free releases it. */
static void broadcast_init(Broadcast *bc, const KernelTensor *out, const int64_t *op_shapes[2],
			   const uint32_t op_ndims[2])
{
	uint32_t n = out->ndim;
	bc->shape = xmalloc((n + 1) * sizeof(int64_t));
	bc->stride[0] = xmalloc((n + 1) * sizeof(int64_t));
	bc->stride[1] = xmalloc((n + 1) * sizeof(int64_t));
	bc->ndim = kernel_broadcast_plan(out->shape, n, op_shapes, op_ndims, bc->shape, bc->stride);
}

static void broadcast_free(Broadcast *bc)
{
	free(bc->shape);
	free(bc->stride[0]);
	free(bc->stride[1]);
}

typedef struct BinaryJob {
	Broadcast bc;
	BinaryLoop loop;
	const char *a, *b;
	char *out;
	size_t in_esize, out_esize; /* the operands' element size, the result's */
} BinaryJob;

static void binary_range(void *vjob, int64_t begin, int64_t end)
{
	BinaryJob *job = vjob;
	const Broadcast *bc = &job->bc;
	uint32_t nd = bc->ndim, last = nd - 1;
	int64_t small[8], *idx = nd <= 8 ? small : xmalloc(nd * sizeof(int64_t));
	int64_t offa = 0, offb = 0, rest = begin, pos = begin;
	for (uint32_t i = nd; i-- > 0;) {
		idx[i] = rest % bc->shape[i];
		rest /= bc->shape[i];
		offa += idx[i] * bc->stride[0][i];
		offb += idx[i] * bc->stride[1][i];
	}
	while (pos < end) {
		int64_t len = bc->shape[last] - idx[last];
		if (len > end - pos)
			len = end - pos;
		job->loop(job->a + offa * job->in_esize, bc->stride[0][last],
			  job->b + offb * job->in_esize, bc->stride[1][last],
			  job->out + pos * job->out_esize, len);
		pos += len;
		idx[last] += len;
		offa += len * bc->stride[0][last];
		offb += len * bc->stride[1][last];
		for (uint32_t i = last; i > 0 && idx[i] == bc->shape[i]; i--) {
			offa -= idx[i] * bc->stride[0][i];
			offb -= idx[i] * bc->stride[1][i];
			idx[i] = 0;
			idx[i - 1]++;
			offa += bc->stride[0][i - 1];
			offb += bc->stride[1][i - 1];
		}
	}
	if (idx != small)
		free(idx);
}

/* out = loop(a, b) with b seen through (b_shape, b_ndim); the operands
 * have one dtype, the result may have another (a comparison's bool). */
static bool binary_drive(const KernelCall *kc, BinaryLoop loop, const int64_t *b_shape,
			 uint32_t b_ndim)
{
	const KernelTensor *a = &kc->in[0], *b = &kc->in[1], *out = &kc->out[0];
	const int64_t *shapes[2] = {a->shape, b_shape};
	uint32_t ndims[2] = {a->ndim, b_ndim};
	BinaryJob job;
	if (out->count == 0)
		return true;
	job.loop = loop;
	broadcast_init(&job.bc, out, shapes, ndims);
	job.a = a->data;
	job.b = b->data;
	job.out = out->data;
	job.in_esize = dtype_size(a->dtype);
	job.out_esize = dtype_size(out->dtype);
	kernel_parallel_for(out->count, GRAIN_ELEMENTWISE, binary_range, &job);
	broadcast_free(&job.bc);
	return true;
}

/* float32 power(x, c) for a constant c of one element (broadcast, so the
 * loop's b is always that element): c = 2 as x * x and c = 0.5 as a
 * square root (where pow's -0 and -inf give +0 and +inf), which is what
 * LLVM makes of powf(x, 2) and powf(x, 0.5) in TVM's code, so the same
 * bits; c = 3 as the product in double, rounded once to float (within
 * 0.5 ulp and a little of x^3, where powf is within 1). powf was a call
 * per element: 29x its estimate in rw_bert_base's layer norms. */
#define DEFINE_POWER_LOOP(NAME, EXPR)                                                      \
	static void NAME(const void *pa, int64_t sa, const void *pb, int64_t sb, void *po, \
			 int64_t n)                                                        \
	{                                                                                  \
		const float *restrict a = pa;                                              \
		float *restrict o = po;                                                    \
		(void)pb;                                                                  \
		(void)sb;                                                                  \
		if (sa == 1)                                                               \
			for (int64_t i = 0; i < n; i++) {                                  \
				float x = a[i];                                            \
				o[i] = EXPR;                                               \
			}                                                                  \
		else                                                                       \
			for (int64_t i = 0; i < n; i++) {                                  \
				float x = a[i * sa];                                       \
				o[i] = EXPR;                                               \
			}                                                                  \
	}
DEFINE_POWER_LOOP(power_square_f32, x *x)
DEFINE_POWER_LOOP(power_cube_f32, (float)((double)x *x *x))
DEFINE_POWER_LOOP(power_sqrt_f32, x == 0 ? 0.0f : x == -INFINITY ? INFINITY : sqrtf(x))

static BinaryLoop power_constant_loop(const KernelCall *kc)
{
	float c;
	if (kc->op != OP_POWER || kc->out[0].dtype != DT_FLOAT32 || kc->in[1].count != 1)
		return NULL;
	c = *(const float *)kc->in[1].data;
	return c == 2.0f   ? power_square_f32
	       : c == 3.0f ? power_cube_f32
	       : c == 0.5f ? power_sqrt_f32
			   : NULL;
}

/* out = a OP b with b seen through (b_shape, b_ndim). */
static bool binary_run(const KernelCall *kc, OpKind op, const int64_t *b_shape, uint32_t b_ndim,
		       char **err)
{
	BinaryLoop loop = op == kc->op ? power_constant_loop(kc) : NULL;
	if (!loop)
		loop = binary_loop(op, kc->out[0].dtype);
	if (!loop)
		return cpu_unsupported(kc, kc->out[0].dtype, err);
	return binary_drive(kc, loop, b_shape, b_ndim);
}

static bool binary_kernel(const KernelCall *kc, char **err)
{
	return binary_run(kc, kc->op, kc->in[1].shape, kc->in[1].ndim, err);
}

#define BINARY_KERNEL(OP, FEXPR, IEXPR, HAS_FLOAT, HAS_INT) KERNEL_CPU_VIA(OP, binary_kernel)
BINARY_OPS(BINARY_KERNEL)
#undef BINARY_KERNEL

static bool compare_kernel(const KernelCall *kc, char **err)
{
	BinaryLoop loop = compare_loop(kc->op, kc->in[0].dtype);
	if (!loop)
		return cpu_unsupported(kc, kc->in[0].dtype, err);
	return binary_drive(kc, loop, kc->in[1].shape, kc->in[1].ndim);
}

#define COMPARE_KERNEL(OP, EXPR) KERNEL_CPU_VIA(OP, compare_kernel)
COMPARE_OPS(COMPARE_KERNEL)
#undef COMPARE_KERNEL

/* nn.bias_add: the bias broadcast as [len, 1, ..., 1] against the axis. */
bool kernel_cpu_BIAS_ADD(const KernelCall *kc, char **err)
{
	uint32_t nd = kc->in[0].ndim - (uint32_t)kc->p.axis.axis;
	int64_t *shape = xmalloc(nd * sizeof(int64_t));
	bool ok;
	shape[0] = kc->p.axis.len;
	for (uint32_t i = 1; i < nd; i++)
		shape[i] = 1;
	ok = binary_run(kc, OP_ADD, shape, nd, err);
	free(shape);
	return ok;
}

/* ---- unary -------------------------------------------------------------- */

typedef void (*UnaryLoop)(const void *in, void *out, int64_t n, const KernelCall *kc);

#define DEFINE_UNARY_LOOP(NAME, T, C, LOAD, STORE, EXPR) \
	DEFINE_UNARY_LOOP_WITH(, NAME, T, C, LOAD, STORE, EXPR)
#define DEFINE_UNARY_LOOP_WITH(ATTRIBUTES, NAME, T, C, LOAD, STORE, EXPR)                         \
	ATTRIBUTES static void NAME(const void *pin, void *pout, int64_t n, const KernelCall *kc) \
	{                                                                                         \
		const T *restrict in = pin;                                                       \
		T *restrict o = pout;                                                             \
		(void)kc;                                                                         \
		for (int64_t i = 0; i < n; i++) {                                                 \
			C x = LOAD(in[i]);                                                        \
			o[i] = STORE(EXPR);                                                       \
		}                                                                                 \
	}

/* abs and sign of an integer loop's value: uint64 loops compute unsigned */
static inline int64_t iabs_signed(int64_t x)
{
	return x < 0 ? ineg(x) : x;
}
static inline uint64_t iabs_unsigned(uint64_t x)
{
	return x;
}
static inline int64_t isign_signed(int64_t x)
{
	return x > 0 ? 1 : x < 0 ? -1 : 0;
}
static inline uint64_t isign_unsigned(uint64_t x)
{
	return x > 0;
}
#define IABS(x) _Generic((x), uint64_t : iabs_unsigned, default : iabs_signed)(x)
#define ISIGN(x) _Generic((x), uint64_t : isign_unsigned, default : isign_signed)(x)
/* TVM's sign: NaN and both zeros give 0 */
#define fsign(x) ((x) > 0 ? 1 : (x) < 0 ? -1 : 0)

/* X(OP, float32 expression, float64 expression, integer expression, has
 * float, has integer, wide) over x; a placeholder where the op has no such
 * form, and those dtypes are refused. fast_erf is TVM's rational
 * approximation (kernel_fastmath.h); fast_exp is computed exactly, which
 * is within its tolerance. tanh, fast_tanh, sigmoid and erf on float32
 * (and float16) are kernel_fastmath.h's vectorisable forms, within 3 ulp
 * (libm's calls, one element at a time, took 10-80 times memcpy's time
 * in whole models); float64 keeps libm's. wide: the float32 loop is
 * bound by its arithmetic, not by memory, so it is compiled for the wider
 * vectors too (UNARY_WIDE_1). */
#define UNARY_OPS(X)                                                                             \
	X(NEGATIVE, -x, -x, ineg(x), 1, 1, 0)                                                    \
	X(EXP, expf(x), exp(x), ((void)x, 0), 1, 0, 0)                                           \
	X(LOG, logf(x), log(x), ((void)x, 0), 1, 0, 0)                                           \
	X(SQRT, sqrtf(x), sqrt(x), ((void)x, 0), 1, 0, 0)                                        \
	X(TANH, kernel_tanhf(x), tanh(x), ((void)x, 0), 1, 0, 1)                                 \
	X(SIGMOID, kernel_sigmoidf(x), 1.0 / (1.0 + exp(-x)), ((void)x, 0), 1, 0, 1)             \
	X(RELU, x > 0 ? x : (x != x ? x : 0), x > 0 ? x : (x != x ? x : 0), x > 0 ? x : 0, 1, 1, \
	  0)                                                                                     \
	X(CLIP, clip_f(x, kc), clip_f(x, kc), clip_i(x, kc), 1, 1, 0)                            \
	X(ERF, kernel_erff(x), erf(x), ((void)x, 0), 1, 0, 1)                                    \
	X(FAST_ERF, kernel_fast_erf(x), erf(x), ((void)x, 0), 1, 0, 1)                           \
	X(FAST_EXP, expf(x), exp(x), ((void)x, 0), 1, 0, 0)                                      \
	X(FAST_TANH, kernel_tanhf(x), tanh(x), ((void)x, 0), 1, 0, 1)                            \
	X(RSQRT, 1.0f / sqrtf(x), 1.0 / sqrt(x), ((void)x, 0), 1, 0, 0)                          \
	X(LOG2, log2f(x), log2(x), ((void)x, 0), 1, 0, 0)                                        \
	X(LOG10, log10f(x), log10(x), ((void)x, 0), 1, 0, 0)                                     \
	X(SIN, sinf(x), sin(x), ((void)x, 0), 1, 0, 0)                                           \
	X(COS, cosf(x), cos(x), ((void)x, 0), 1, 0, 0)                                           \
	X(TAN, tanf(x), tan(x), ((void)x, 0), 1, 0, 0)                                           \
	X(ASIN, asinf(x), asin(x), ((void)x, 0), 1, 0, 0)                                        \
	X(ACOS, acosf(x), acos(x), ((void)x, 0), 1, 0, 0)                                        \
	X(ATAN, atanf(x), atan(x), ((void)x, 0), 1, 0, 0)                                        \
	X(SINH, sinhf(x), sinh(x), ((void)x, 0), 1, 0, 0)                                        \
	X(COSH, coshf(x), cosh(x), ((void)x, 0), 1, 0, 0)                                        \
	X(ASINH, asinhf(x), asinh(x), ((void)x, 0), 1, 0, 0)                                     \
	X(ACOSH, acoshf(x), acosh(x), ((void)x, 0), 1, 0, 0)                                     \
	X(ATANH, atanhf(x), atanh(x), ((void)x, 0), 1, 0, 0)                                     \
	X(ABS, fabsf(x), fabs(x), IABS(x), 1, 1, 0)                                              \
	X(CEIL, ceilf(x), ceil(x), x, 1, 1, 0)                                                   \
	X(FLOOR, floorf(x), floor(x), x, 1, 1, 0)                                                \
	X(ROUND, nearbyintf(x), nearbyint(x), x, 1, 1, 0)                                        \
	X(TRUNC, truncf(x), trunc(x), x, 1, 1, 0)                                                \
	X(SIGN, fsign(x), fsign(x), ISIGN(x), 1, 1, 0)                                           \
	X(LOGICAL_NOT, x == 0, x == 0, x == 0, 1, 1, 0)                                          \
	X(BITWISE_NOT, x, x, ~x, 0, 1, 0)

static inline float clip_ff(float x, const KernelCall *kc)
{
	return x < kc->p.clip.lo   ? (float)kc->p.clip.lo
	       : x > kc->p.clip.hi ? (float)kc->p.clip.hi
				   : x;
}
static inline double clip_fd(double x, const KernelCall *kc)
{
	return x < kc->p.clip.lo ? kc->p.clip.lo : x > kc->p.clip.hi ? kc->p.clip.hi : x;
}
#define clip_f(x, kc) _Generic((x), float : clip_ff, default : clip_fd)(x, kc)
static inline int64_t clip_i64(int64_t x, const KernelCall *kc)
{
	if ((double)x < kc->p.clip.lo)
		return dtype_sat_i64(ceil(kc->p.clip.lo));
	if ((double)x > kc->p.clip.hi)
		return dtype_sat_i64(floor(kc->p.clip.hi));
	return x;
}
/* uint64 is clipped in its own range (as an int64, a value above 2^63
 * would be negative): the bounds cast to uint64 as topi.clip casts them,
 * saturating (a_max of 2^64 or more keeps every value). */
static inline uint64_t clip_u64(uint64_t x, const KernelCall *kc)
{
	uint64_t lo = dtype_sat_u64(ceil(kc->p.clip.lo));
	uint64_t hi = dtype_sat_u64(floor(kc->p.clip.hi));
	if (kc->p.clip.hi < 0)
		hi = 0;
	return x < lo ? lo : x > hi ? hi : x;
}
#define clip_i(x, kc) _Generic((x), uint64_t : clip_u64, default : clip_i64)(x, kc)

/* A loop compiled for AVX2 and AVX-512 as well as the baseline, picked
 * when the program loads (CPU_CLONES, kernels_cpu.h). */
#define UNARY_WIDE_1 CPU_CLONES
#define UNARY_WIDE_0

#define DEFINE_UNARY_LOOPS(OP, F32EXPR, F64EXPR, IEXPR, HAS_FLOAT, HAS_INT, WIDE)              \
	DEFINE_UNARY_LOOP_WITH(UNARY_WIDE_##WIDE, unary_##OP##_f32, float, float, F32_LOAD,    \
			       F32_STORE, F32EXPR)                                             \
	DEFINE_UNARY_LOOP(unary_##OP##_f64, double, double, F32_LOAD, F32_STORE, F64EXPR)      \
	DEFINE_UNARY_LOOP(unary_##OP##_f16, uint16_t, float, F16_LOAD, F16_STORE, F32EXPR)     \
	DEFINE_UNARY_LOOP(unary_##OP##_bf16, uint16_t, float, BF16_LOAD, BF16_STORE, F32EXPR)  \
	DEFINE_UNARY_LOOP(unary_##OP##_i8, int8_t, int64_t, PLAIN_LOAD, I8_STORE, IEXPR)       \
	DEFINE_UNARY_LOOP(unary_##OP##_u8, uint8_t, int64_t, PLAIN_LOAD, WRAP_STORE, IEXPR)    \
	DEFINE_UNARY_LOOP(unary_##OP##_i16, int16_t, int64_t, PLAIN_LOAD, I16_STORE, IEXPR)    \
	DEFINE_UNARY_LOOP(unary_##OP##_u16, uint16_t, int64_t, PLAIN_LOAD, WRAP_STORE, IEXPR)  \
	DEFINE_UNARY_LOOP(unary_##OP##_u32, uint32_t, int64_t, PLAIN_LOAD, WRAP_STORE, IEXPR)  \
	DEFINE_UNARY_LOOP(unary_##OP##_u64, uint64_t, uint64_t, PLAIN_LOAD, WRAP_STORE, IEXPR) \
	DEFINE_UNARY_LOOP(unary_##OP##_i32, int32_t, int64_t, PLAIN_LOAD, I32_STORE, IEXPR)    \
	DEFINE_UNARY_LOOP(unary_##OP##_i64, int64_t, int64_t, PLAIN_LOAD, I64_STORE, IEXPR)    \
	DEFINE_UNARY_LOOP(unary_##OP##_bool, uint8_t, int64_t, PLAIN_LOAD, BOOL_STORE, IEXPR)
UNARY_OPS(DEFINE_UNARY_LOOPS)

static UnaryLoop unary_loop(OpKind op, DType dt)
{
	/* on a bool, ~x is its negation (~1 is -2, nonzero, true) */
	if (op == OP_BITWISE_NOT && dt == DT_BOOL)
		return unary_LOGICAL_NOT_bool;
#define PICK(OP, F32EXPR, F64EXPR, IEXPR, HAS_FLOAT, HAS_INT, WIDE)  \
	if (op == OP_##OP) {                                         \
		switch (dt) {                                        \
		case DT_FLOAT32:                                     \
			return HAS_FLOAT ? unary_##OP##_f32 : NULL;  \
		case DT_FLOAT64:                                     \
			return HAS_FLOAT ? unary_##OP##_f64 : NULL;  \
		case DT_FLOAT16:                                     \
			return HAS_FLOAT ? unary_##OP##_f16 : NULL;  \
		case DT_BFLOAT16:                                    \
			return HAS_FLOAT ? unary_##OP##_bf16 : NULL; \
		case DT_INT8:                                        \
			return HAS_INT ? unary_##OP##_i8 : NULL;     \
		case DT_UINT8:                                       \
			return HAS_INT ? unary_##OP##_u8 : NULL;     \
		case DT_INT16:                                       \
			return HAS_INT ? unary_##OP##_i16 : NULL;    \
		case DT_UINT16:                                      \
			return HAS_INT ? unary_##OP##_u16 : NULL;    \
		case DT_UINT32:                                      \
			return HAS_INT ? unary_##OP##_u32 : NULL;    \
		case DT_UINT64:                                      \
			return HAS_INT ? unary_##OP##_u64 : NULL;    \
		case DT_INT32:                                       \
			return HAS_INT ? unary_##OP##_i32 : NULL;    \
		case DT_INT64:                                       \
			return HAS_INT ? unary_##OP##_i64 : NULL;    \
		case DT_BOOL:                                        \
			return HAS_INT ? unary_##OP##_bool : NULL;   \
		case DT_COUNT:                                       \
			break;                                       \
		}                                                    \
	}
	UNARY_OPS(PICK)
#undef PICK
	return NULL;
}

typedef struct UnaryJob {
	UnaryLoop loop;
	const char *in;
	char *out;
	size_t esize;
	const KernelCall *kc;
} UnaryJob;

static void unary_range(void *vjob, int64_t begin, int64_t end)
{
	UnaryJob *job = vjob;
	job->loop(job->in + begin * job->esize, job->out + begin * job->esize, end - begin,
		  job->kc);
}

static bool unary_kernel(const KernelCall *kc, char **err)
{
	UnaryJob job;
	job.loop = unary_loop(kc->op, kc->out[0].dtype);
	if (!job.loop)
		return cpu_unsupported(kc, kc->out[0].dtype, err);
	job.in = kc->in[0].data;
	job.out = kc->out[0].data;
	job.esize = dtype_size(kc->out[0].dtype);
	job.kc = kc;
	kernel_parallel_for(kc->out[0].count, GRAIN_ELEMENTWISE, unary_range, &job);
	return true;
}

#define UNARY_KERNEL(OP, F32EXPR, F64EXPR, IEXPR, HAS_FLOAT, HAS_INT, WIDE) \
	KERNEL_CPU_VIA(OP, unary_kernel)
UNARY_OPS(UNARY_KERNEL)
#undef UNARY_KERNEL

/* isnan, isinf, isfinite: a bool per element; an integer is finite. */
static bool float_class(OpKind op, double x)
{
	return op == OP_ISNAN ? isnan(x) : op == OP_ISINF ? isinf(x) : isfinite(x);
}

static bool classify_kernel(const KernelCall *kc, char **err)
{
	const KernelTensor *in = &kc->in[0];
	uint8_t *out = kc->out[0].data;
	(void)err;
	for (int64_t i = 0; i < in->count; i++)
		out[i] = dtype_is_float(in->dtype)
				 ? float_class(kc->op, dtype_load_double(in->data, in->dtype, i))
				 : kc->op == OP_ISFINITE;
	return true;
}

KERNEL_CPU_VIA(ISNAN, classify_kernel)
KERNEL_CPU_VIA(ISINF, classify_kernel)
KERNEL_CPU_VIA(ISFINITE, classify_kernel)

/* ---- cast -------------------------------------------------------------- */

/* float32 bits to float16 bits exactly as npy_float_to_half rounds them
 * (to nearest even; NaN keeps its top mantissa bits and stays a NaN; past
 * the largest half, infinity), computed on every path and selected, with
 * no branch, so that a loop of it vectorises where npy's is a call per
 * element. Checked against npy_float_to_half by test_cast_float16. */
static inline uint16_t cast_half_bits(uint32_t x)
{
	uint32_t sign = (x >> 16) & 0x8000, a = x & 0x7fffffff, man = x & 0x7fffff;
	uint32_t e8 = a >> 23, shift, r;
	int32_t t = 126 - (int32_t)e8;
	uint32_t special = 0x7c00 | ((0u - (man != 0)) & (0x200 | (man >> 13)));
	uint32_t h = (a >> 13) - (112u << 10), rest = a & 0x1fff;
	uint32_t m = man | 0x800000, sub, sub_rest, halfway;
	h += (uint32_t)(rest > 0x1000) | ((uint32_t)(rest == 0x1000) & h);
	/* a subnormal half: exponent e8 - 112 in [-10, 0], shift 14 - that */
	t = t < 14 ? 14 : t;
	shift = (uint32_t)(t > 24 ? 24 : t);
	sub = m >> shift;
	sub_rest = m & ((1u << shift) - 1);
	halfway = 1u << (shift - 1);
	sub += (uint32_t)(sub_rest > halfway) | ((uint32_t)(sub_rest == halfway) & sub);
	/* the comparisons give 0 or 1, so `& h` and `& sub` test the low bit */
	r = a >= 0x33000000 ? sub : 0u;
	r = a >= 0x38800000 ? h : r;
	r = a >= 0x47800000 ? 0x7c00u : r;
	r = e8 == 0xff ? special : r;
	return (uint16_t)(sign | r);
}

/* cast: integers (and bool) travel through int64, everything else through
 * double; float to integer saturates and NaN becomes 0. A loop per pair of
 * dtypes, generated below with both dtypes constant, so that
 * dtype_load_* and dtype_store_* (dtype_access.h) fold to the one
 * conversion the pair needs; float32 to float16, the cast of mixed
 * precision, is cast_half_bits. Every loop is compiled for AVX-512 and
 * AVX2 as well (CPU_CLONES). */
typedef void (*CastLoop)(const void *in, void *out, int64_t begin, int64_t end);

#define CAST_INTEGER(dt) \
	((dt) != DT_FLOAT32 && (dt) != DT_FLOAT64 && (dt) != DT_FLOAT16 && (dt) != DT_BFLOAT16)

#define DEFINE_CAST_LOOP(IN, OUT)                                                              \
	CPU_CLONES static void cast_##IN##_##OUT(const void *in, void *out, int64_t begin,     \
						 int64_t end)                                  \
	{                                                                                      \
		if (IN == DT_FLOAT32 && OUT == DT_FLOAT16) {                                   \
			const uint32_t *restrict x = in;                                       \
			uint16_t *restrict y = out;                                            \
			for (int64_t i = begin; i < end; i++)                                  \
				y[i] = cast_half_bits(x[i]);                                   \
		} else if (CAST_INTEGER(IN) && CAST_INTEGER(OUT)) {                            \
			for (int64_t i = begin; i < end; i++)                                  \
				dtype_store_int(out, OUT, i, dtype_load_int(in, IN, i));       \
		} else {                                                                       \
			for (int64_t i = begin; i < end; i++)                                  \
				dtype_store_double(out, OUT, i, dtype_load_double(in, IN, i)); \
		}                                                                              \
	}

/* The dtypes, one per line (clang-format would pack them into lines whose
 * breaks it moves on every run). */
/* clang-format off */
#define CAST_TO(X, IN) \
	X(IN, DT_FLOAT32) \
	X(IN, DT_FLOAT64) \
	X(IN, DT_FLOAT16) \
	X(IN, DT_BFLOAT16) \
	X(IN, DT_INT8) \
	X(IN, DT_UINT8) \
	X(IN, DT_INT16) \
	X(IN, DT_UINT16) \
	X(IN, DT_INT32) \
	X(IN, DT_UINT32) \
	X(IN, DT_INT64) \
	X(IN, DT_UINT64) \
	X(IN, DT_BOOL)
#define CAST_PAIRS(X) \
	CAST_TO(X, DT_FLOAT32) \
	CAST_TO(X, DT_FLOAT64) \
	CAST_TO(X, DT_FLOAT16) \
	CAST_TO(X, DT_BFLOAT16) \
	CAST_TO(X, DT_INT8) \
	CAST_TO(X, DT_UINT8) \
	CAST_TO(X, DT_INT16) \
	CAST_TO(X, DT_UINT16) \
	CAST_TO(X, DT_INT32) \
	CAST_TO(X, DT_UINT32) \
	CAST_TO(X, DT_INT64) \
	CAST_TO(X, DT_UINT64) \
	CAST_TO(X, DT_BOOL)
/* clang-format on */

CAST_PAIRS(DEFINE_CAST_LOOP)

#define CAST_ENTRY(IN, OUT) [IN][OUT] = cast_##IN##_##OUT,
static const CastLoop cast_loops[DT_COUNT][DT_COUNT] = {CAST_PAIRS(CAST_ENTRY)};
/* a dtype added to DTYPE_LIST and not to CAST_TO and CAST_PAIRS stops the build */
#define CAST_COUNT(IN, OUT) +1
_Static_assert(0 CAST_PAIRS(CAST_COUNT) == DT_COUNT * DT_COUNT,
	       "cast_loops lacks a dtype: list it in CAST_TO and CAST_PAIRS");

/* float32 to float16 by the F16C instruction (vcvtps2ph), eight at a time,
 * rounding to nearest even: the same bits as cast_half_bits, NaN included
 * (the instruction quiets it and keeps the top mantissa bits), in about a
 * third of the time of the vectorised selects (cast f32 -> f16 at 0.35 of
 * memcpy). Picked when the CPU has F16C (kernel_cpu_CAST). */
#if defined(__GNUC__) && defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#include <pthread.h>
#define CAST_F16C 1
__attribute__((target("avx,f16c"))) static void cast_f32_f16c(const void *in, void *out,
							      int64_t begin, int64_t end)
{
	const float *restrict x = in;
	uint16_t *restrict y = out;
	int64_t i = begin;
	for (; i + 8 <= end; i += 8)
		_mm_storeu_si128((__m128i *)(y + i), _mm256_cvtps_ph(_mm256_loadu_ps(x + i),
								     _MM_FROUND_TO_NEAREST_INT));
	for (; i < end; i++)
		y[i] = cast_half_bits(((const uint32_t *)in)[i]);
}

/* Whether the CPU has F16C and the OS keeps the AVX registers (XGETBV):
 * asked of CPUID once (clang 14's __builtin_cpu_supports does not know
 * "f16c"; in a VM every CPUID traps, so it is not asked per call). */
static bool f16c_usable;
static pthread_once_t f16c_once = PTHREAD_ONCE_INIT;

static void f16c_probe(void)
{
	unsigned a, b, c, d, lo, hi;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_F16C) || !(c & bit_AVX) ||
	    !(c & bit_OSXSAVE))
		return;
	__asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	f16c_usable = (lo & 6) == 6; /* XMM and YMM state */
}

static bool cpu_has_f16c(void)
{
	pthread_once(&f16c_once, f16c_probe);
	return f16c_usable;
}
#else
#define CAST_F16C 0
#endif

typedef struct CastJob {
	CastLoop loop;
	const void *in;
	void *out;
} CastJob;

static void cast_range(void *vjob, int64_t begin, int64_t end)
{
	const CastJob *job = vjob;
	job->loop(job->in, job->out, begin, end);
}

bool kernel_cpu_CAST(const KernelCall *kc, char **err)
{
	const KernelTensor *in = &kc->in[0], *out = &kc->out[0];
	CastJob job = {cast_loops[in->dtype][out->dtype], in->data, out->data};
	(void)err;
#if CAST_F16C
	if (in->dtype == DT_FLOAT32 && out->dtype == DT_FLOAT16 && cpu_has_f16c())
		job.loop = cast_f32_f16c;
#endif
	if (in->dtype == out->dtype) {
		memcpy(out->data, in->data, out->nbytes);
		return true;
	}
	kernel_parallel_for(out->count, GRAIN_ELEMENTWISE, cast_range, &job);
	return true;
}

/* cast_like: cast to the second operand's dtype */
KERNEL_CPU_VIA(CAST_LIKE, kernel_cpu_CAST)

/* ---- fixed_point_multiply ------------------------------------------------ */

/* TVM's legalised q_multiply_shift(x, multiplier, 31, shift) on int32: in
 * int64, x shifted left by a positive shift, times the multiplier, plus
 * half of 2^(31 + right shift), shifted right by that; a multiplier of
 * 2^30 (one half) takes TVM's int32 shortcut instead, a shift (wrapping)
 * or a rounded shift. The result wraps to int32. */
static int32_t fixed_point_multiply(int32_t x, int32_t m, int32_t s)
{
	int64_t v;
	int ls = s > 0 ? s : 0, rs = s > 0 ? 0 : -s;
	if (m == 1 << 30) {
		int e = s - 1;
		if (e > 31)
			return 0;
		if (e > 0)
			return (int32_t)((uint32_t)x << e);
		e = -e;
		if (e > 31)
			e = 31;
		return e == 0 ? x : (int32_t)((uint32_t)x + (1u << (e - 1))) >> e;
	}
	/* shifts past the 64 bits (which TVM leaves undefined) give 0 */
	if (ls > 62 || rs > 31)
		return 0;
	v = (int64_t)((uint64_t)(int64_t)x << ls);
	v = imul(v, m);
	v = iadd(v, (int64_t)1 << (rs + 30));
	return dtype_wrap_i32(v >> (rs + 31));
}

bool kernel_cpu_FIXED_POINT_MULTIPLY(const KernelCall *kc, char **err)
{
	const KernelTensor *x = &kc->in[0];
	if (x->dtype != DT_INT32)
		return cpu_unsupported(kc, x->dtype, err);
	for (int64_t i = 0; i < x->count; i++)
		((int32_t *)kc->out[0].data)[i] = fixed_point_multiply(
			((const int32_t *)x->data)[i], kc->p.fpm.multiplier, kc->p.fpm.shift);
	return true;
}
