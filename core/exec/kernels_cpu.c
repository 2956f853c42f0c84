/*
 * kernels_cpu.c - one C kernel per operator of ops.def, on host memory.
 *
 * Elementwise operators share one broadcasting driver: operand shapes are
 * right-aligned against the output (numpy's rule), dimensions of size 1
 * are dropped and adjacent dimensions that stay contiguous in every operand
 * are merged, so the usual cases (same shapes, a scalar, a bias along one
 * axis) become a few long inner loops. Those loops are generated per
 * operator and dtype by macros: float32, float64 and float16 (computed in
 * float) and int32, int64 and bool (computed in wrapping 64-bit integer
 * arithmetic, division by zero giving 0, so that no input is undefined
 * behaviour). Large outputs are split across threads (kernel_parallel_for:
 * plain pthreads created per call, which costs tens of microseconds and so
 * is only used above a grain of work that takes far longer).
 *
 * Matrix products go to OpenBLAS (sgemm/dgemm): nn.dense and
 * nn.batch_matmul directly, nn.conv2d as im2col tiles of bounded size times
 * the weight (1x1 convolutions use the input as it is, depthwise ones run
 * a direct loop), nn.conv2d_transpose as the weight's transpose times the
 * input followed by col2im. OpenBLAS does its own threading; it is only
 * ever called from the thread that launched the kernel, never from our
 * workers, so the two pools never nest. Matrix kernels take float32 and
 * float64; other dtypes get an error, never a wrong answer.
 */
#include "kernels.h"

#include <cblas.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "npy.h"

/* ---- threads ----------------------------------------------------------- */

enum { KERNEL_MAX_THREADS = 64 };

static int cpu_threads = 1;
static pthread_once_t cpu_threads_once = PTHREAD_ONCE_INIT;

static void cpu_threads_init(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	const char *env = getenv("DEVPLAN_THREADS");
	if (env && *env) {
		char *end;
		long v = strtol(env, &end, 10);
		if (*end == '\0' && v >= 1)
			n = v;
	}
	if (n < 1)
		n = 1;
	if (n > KERNEL_MAX_THREADS)
		n = KERNEL_MAX_THREADS;
	cpu_threads = (int)n;
	openblas_set_num_threads(cpu_threads);
}

int kernel_cpu_threads(void)
{
	pthread_once(&cpu_threads_once, cpu_threads_init);
	return cpu_threads;
}

typedef struct RangeJob {
	KernelRangeFn fn;
	void *ctx;
	int64_t begin, end;
} RangeJob;

static void *range_job_run(void *arg)
{
	RangeJob *job = arg;
	job->fn(job->ctx, job->begin, job->end);
	return NULL;
}

void kernel_parallel_for(int64_t n, int64_t grain, KernelRangeFn fn, void *ctx)
{
	pthread_t threads[KERNEL_MAX_THREADS];
	RangeJob jobs[KERNEL_MAX_THREADS];
	bool started[KERNEL_MAX_THREADS];
	int64_t chunks;
	if (n <= 0)
		return;
	if (grain < 1)
		grain = 1;
	chunks = n / grain;
	if (chunks > kernel_cpu_threads())
		chunks = kernel_cpu_threads();
	if (chunks <= 1) {
		fn(ctx, 0, n);
		return;
	}
	for (int64_t i = 0; i < chunks; i++) {
		jobs[i] =
			(RangeJob){fn, ctx, n / chunks * i + (i < n % chunks ? i : n % chunks), 0};
		jobs[i].end = jobs[i].begin + n / chunks + (i < n % chunks);
		started[i] = false;
	}
	for (int64_t i = 1; i < chunks; i++)
		started[i] = pthread_create(&threads[i], NULL, range_job_run, &jobs[i]) == 0;
	range_job_run(&jobs[0]);
	for (int64_t i = 1; i < chunks; i++) {
		if (started[i])
			pthread_join(threads[i], NULL);
		else
			range_job_run(&jobs[i]);
	}
}

/* Work sizes (elements) below which a kernel stays on one thread. */
enum { GRAIN_ELEMENTWISE = 1 << 16, GRAIN_ROWS = 1 << 14 };

/* Defines kernel_cpu_ID, the table's entry for OP_ID, as a call of the shared DRIVER. */
#define KERNEL_CPU_VIA(ID, DRIVER)                                    \
	static bool kernel_cpu_##ID(const KernelCall *kc, char **err) \
	{                                                             \
		return DRIVER(kc, err);                               \
	}

/* ---- messages ---------------------------------------------------------- */

static bool unsupported(const KernelCall *kc, DType dt, char **err)
{
	*err = xasprintf("'%s' on the cpu does not support %s", kc->name, dtype_name(dt));
	return false;
}

static bool too_large(const KernelCall *kc, char **err)
{
	*err = xasprintf("'%s' has a dimension too large for BLAS (more than %d)", kc->name,
			 INT_MAX);
	return false;
}

static bool fits_int(int64_t v)
{
	return v >= 0 && v <= INT_MAX;
}

/* ---- scalar arithmetic ------------------------------------------------- */

static inline int64_t iadd(int64_t x, int64_t y)
{
	return (int64_t)((uint64_t)x + (uint64_t)y);
}

static inline int64_t isub(int64_t x, int64_t y)
{
	return (int64_t)((uint64_t)x - (uint64_t)y);
}

static inline int64_t imul(int64_t x, int64_t y)
{
	return (int64_t)((uint64_t)x * (uint64_t)y);
}

static inline int64_t idiv(int64_t x, int64_t y)
{
	if (y == 0)
		return 0;
	if (y == -1)
		return isub(0, x);
	return x / y;
}

static inline int64_t ineg(int64_t x)
{
	return isub(0, x);
}

/* Saturating float to integer conversion (NaN gives 0). */
static inline int64_t double_to_i64(double v)
{
	if (v != v)
		return 0;
	if (v >= 9223372036854775807.0)
		return INT64_MAX;
	if (v <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t)v;
}

static inline int32_t i64_to_i32(int64_t v)
{
	return (int32_t)(uint32_t)(uint64_t)v;
}

static inline int32_t double_to_i32(double v)
{
	if (v != v)
		return 0;
	if (v >= 2147483647.0)
		return INT32_MAX;
	if (v <= -2147483648.0)
		return INT32_MIN;
	return (int32_t)v;
}

/* ---- generic element access (cast, clip, reductions) -------------------- */

static double load_double(const void *p, DType dt, int64_t i)
{
	switch (dt) {
	case DT_FLOAT32:
		return ((const float *)p)[i];
	case DT_FLOAT64:
		return ((const double *)p)[i];
	case DT_FLOAT16:
		return npy_half_to_float(((const uint16_t *)p)[i]);
	case DT_INT32:
		return ((const int32_t *)p)[i];
	case DT_INT64:
		return (double)((const int64_t *)p)[i];
	case DT_BOOL:
		return ((const uint8_t *)p)[i];
	case DT_COUNT:
		break;
	}
	return 0;
}

static int64_t load_int(const void *p, DType dt, int64_t i)
{
	switch (dt) {
	case DT_INT32:
		return ((const int32_t *)p)[i];
	case DT_INT64:
		return ((const int64_t *)p)[i];
	case DT_BOOL:
		return ((const uint8_t *)p)[i];
	case DT_FLOAT32:
	case DT_FLOAT64:
	case DT_FLOAT16:
		return double_to_i64(load_double(p, dt, i));
	case DT_COUNT:
		break;
	}
	return 0;
}

static void store_double(void *p, DType dt, int64_t i, double v)
{
	switch (dt) {
	case DT_FLOAT32:
		((float *)p)[i] = (float)v;
		break;
	case DT_FLOAT64:
		((double *)p)[i] = v;
		break;
	case DT_FLOAT16:
		((uint16_t *)p)[i] = npy_float_to_half((float)v);
		break;
	case DT_INT32:
		((int32_t *)p)[i] = double_to_i32(v);
		break;
	case DT_INT64:
		((int64_t *)p)[i] = double_to_i64(v);
		break;
	case DT_BOOL:
		((uint8_t *)p)[i] = v != 0;
		break;
	case DT_COUNT:
		break;
	}
}

static void store_int(void *p, DType dt, int64_t i, int64_t v)
{
	switch (dt) {
	case DT_INT32:
		((int32_t *)p)[i] = i64_to_i32(v);
		break;
	case DT_INT64:
		((int64_t *)p)[i] = v;
		break;
	case DT_BOOL:
		((uint8_t *)p)[i] = v != 0;
		break;
	case DT_FLOAT32:
	case DT_FLOAT64:
	case DT_FLOAT16:
		store_double(p, dt, i, (double)v);
		break;
	case DT_COUNT:
		break;
	}
}

/* ---- elementwise: the broadcasting driver -------------------------------- */

/* Inner loop over n output elements; sa/sb are element strides (0 or 1
 * after merging, or any for a general layout). */
typedef void (*BinaryLoop)(const void *a, int64_t sa, const void *b, int64_t sb, void *out,
			   int64_t n);

#define F32_LOAD(x) (x)
#define F32_STORE(v) (v)
#define F16_LOAD(x) npy_half_to_float(x)
#define F16_STORE(v) npy_float_to_half(v)
#define I32_STORE(v) i64_to_i32(v)
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

/* X(OP, float expression, integer expression) over x and y */
#define BINARY_OPS(X)                                        \
	X(ADD, x + y, iadd(x, y))                            \
	X(SUBTRACT, x - y, isub(x, y))                       \
	X(MULTIPLY, x *y, imul(x, y))                        \
	X(DIVIDE, x / y, idiv(x, y))                         \
	X(MAXIMUM, (x > y || x != x) ? x : y, x > y ? x : y) \
	X(MINIMUM, (x < y || x != x) ? x : y, x < y ? x : y)

#define DEFINE_BINARY_LOOPS(OP, FEXPR, IEXPR)                                                 \
	DEFINE_BINARY_LOOP(binary_##OP##_f32, float, float, F32_LOAD, F32_STORE, FEXPR)       \
	DEFINE_BINARY_LOOP(binary_##OP##_f64, double, double, F32_LOAD, F32_STORE, FEXPR)     \
	DEFINE_BINARY_LOOP(binary_##OP##_f16, uint16_t, float, F16_LOAD, F16_STORE, FEXPR)    \
	DEFINE_BINARY_LOOP(binary_##OP##_i32, int32_t, int64_t, PLAIN_LOAD, I32_STORE, IEXPR) \
	DEFINE_BINARY_LOOP(binary_##OP##_i64, int64_t, int64_t, PLAIN_LOAD, I64_STORE, IEXPR) \
	DEFINE_BINARY_LOOP(binary_##OP##_bool, uint8_t, int64_t, PLAIN_LOAD, BOOL_STORE, IEXPR)
BINARY_OPS(DEFINE_BINARY_LOOPS)

static BinaryLoop binary_loop(OpKind op, DType dt)
{
#define PICK(OP, FEXPR, IEXPR)                     \
	if (op == OP_##OP) {                       \
		switch (dt) {                      \
		case DT_FLOAT32:                   \
			return binary_##OP##_f32;  \
		case DT_FLOAT64:                   \
			return binary_##OP##_f64;  \
		case DT_FLOAT16:                   \
			return binary_##OP##_f16;  \
		case DT_INT32:                     \
			return binary_##OP##_i32;  \
		case DT_INT64:                     \
			return binary_##OP##_i64;  \
		case DT_BOOL:                      \
			return binary_##OP##_bool; \
		case DT_COUNT:                     \
			break;                     \
		}                                  \
	}
	BINARY_OPS(PICK)
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
	size_t esize;
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
		job->loop(job->a + offa * job->esize, bc->stride[0][last],
			  job->b + offb * job->esize, bc->stride[1][last],
			  job->out + pos * job->esize, len);
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

/* out = a OP b with b seen through (b_shape, b_ndim). */
static bool binary_run(const KernelCall *kc, OpKind op, const int64_t *b_shape, uint32_t b_ndim,
		       char **err)
{
	const KernelTensor *a = &kc->in[0], *b = &kc->in[1], *out = &kc->out[0];
	const int64_t *shapes[2] = {a->shape, b_shape};
	uint32_t ndims[2] = {a->ndim, b_ndim};
	BinaryJob job;
	job.loop = binary_loop(op, out->dtype);
	if (!job.loop)
		return unsupported(kc, out->dtype, err);
	if (out->count == 0)
		return true;
	broadcast_init(&job.bc, out, shapes, ndims);
	job.a = a->data;
	job.b = b->data;
	job.out = out->data;
	job.esize = dtype_size(out->dtype);
	kernel_parallel_for(out->count, GRAIN_ELEMENTWISE, binary_range, &job);
	broadcast_free(&job.bc);
	return true;
}

static bool binary_kernel(const KernelCall *kc, char **err)
{
	return binary_run(kc, kc->op, kc->in[1].shape, kc->in[1].ndim, err);
}

KERNEL_CPU_VIA(ADD, binary_kernel)
KERNEL_CPU_VIA(SUBTRACT, binary_kernel)
KERNEL_CPU_VIA(MULTIPLY, binary_kernel)
KERNEL_CPU_VIA(DIVIDE, binary_kernel)
KERNEL_CPU_VIA(MAXIMUM, binary_kernel)
KERNEL_CPU_VIA(MINIMUM, binary_kernel)

/* nn.bias_add: the bias broadcast as [len, 1, ..., 1] against the axis. */
static bool kernel_cpu_BIAS_ADD(const KernelCall *kc, char **err)
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

/* ---- elementwise: unary ------------------------------------------------ */

typedef void (*UnaryLoop)(const void *in, void *out, int64_t n, const KernelCall *kc);

#define DEFINE_UNARY_LOOP(NAME, T, C, LOAD, STORE, EXPR)                               \
	static void NAME(const void *pin, void *pout, int64_t n, const KernelCall *kc) \
	{                                                                              \
		const T *restrict in = pin;                                            \
		T *restrict o = pout;                                                  \
		(void)kc;                                                              \
		for (int64_t i = 0; i < n; i++) {                                      \
			C x = LOAD(in[i]);                                             \
			o[i] = STORE(EXPR);                                            \
		}                                                                      \
	}

/* X(OP, float32 expression, float64 expression, integer expression or 0
 * when the op is float-only) */
#define UNARY_OPS(X)                                                                          \
	X(NEGATIVE, -x, -x, ineg(x), 1)                                                       \
	X(EXP, expf(x), exp(x), ((void)x, 0), 0)                                              \
	X(LOG, logf(x), log(x), ((void)x, 0), 0)                                              \
	X(SQRT, sqrtf(x), sqrt(x), ((void)x, 0), 0)                                           \
	X(TANH, tanhf(x), tanh(x), ((void)x, 0), 0)                                           \
	X(SIGMOID, 1.0f / (1.0f + expf(-x)), 1.0 / (1.0 + exp(-x)), ((void)x, 0), 0)          \
	X(RELU, x > 0 ? x : (x != x ? x : 0), x > 0 ? x : (x != x ? x : 0), x > 0 ? x : 0, 1) \
	X(CLIP, clip_f(x, kc), clip_f(x, kc), clip_i(x, kc), 1)

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
static inline int64_t clip_i(int64_t x, const KernelCall *kc)
{
	if ((double)x < kc->p.clip.lo)
		return double_to_i64(ceil(kc->p.clip.lo));
	if ((double)x > kc->p.clip.hi)
		return double_to_i64(floor(kc->p.clip.hi));
	return x;
}

#define DEFINE_UNARY_LOOPS(OP, F32EXPR, F64EXPR, IEXPR, HAS_INT)                            \
	DEFINE_UNARY_LOOP(unary_##OP##_f32, float, float, F32_LOAD, F32_STORE, F32EXPR)     \
	DEFINE_UNARY_LOOP(unary_##OP##_f64, double, double, F32_LOAD, F32_STORE, F64EXPR)   \
	DEFINE_UNARY_LOOP(unary_##OP##_f16, uint16_t, float, F16_LOAD, F16_STORE, F32EXPR)  \
	DEFINE_UNARY_LOOP(unary_##OP##_i32, int32_t, int64_t, PLAIN_LOAD, I32_STORE, IEXPR) \
	DEFINE_UNARY_LOOP(unary_##OP##_i64, int64_t, int64_t, PLAIN_LOAD, I64_STORE, IEXPR) \
	DEFINE_UNARY_LOOP(unary_##OP##_bool, uint8_t, int64_t, PLAIN_LOAD, BOOL_STORE, IEXPR)
UNARY_OPS(DEFINE_UNARY_LOOPS)

static UnaryLoop unary_loop(OpKind op, DType dt)
{
#define PICK(OP, F32EXPR, F64EXPR, IEXPR, HAS_INT)                 \
	if (op == OP_##OP) {                                       \
		switch (dt) {                                      \
		case DT_FLOAT32:                                   \
			return unary_##OP##_f32;                   \
		case DT_FLOAT64:                                   \
			return unary_##OP##_f64;                   \
		case DT_FLOAT16:                                   \
			return unary_##OP##_f16;                   \
		case DT_INT32:                                     \
			return HAS_INT ? unary_##OP##_i32 : NULL;  \
		case DT_INT64:                                     \
			return HAS_INT ? unary_##OP##_i64 : NULL;  \
		case DT_BOOL:                                      \
			return HAS_INT ? unary_##OP##_bool : NULL; \
		case DT_COUNT:                                     \
			break;                                     \
		}                                                  \
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
		return unsupported(kc, kc->out[0].dtype, err);
	job.in = kc->in[0].data;
	job.out = kc->out[0].data;
	job.esize = dtype_size(kc->out[0].dtype);
	job.kc = kc;
	kernel_parallel_for(kc->out[0].count, GRAIN_ELEMENTWISE, unary_range, &job);
	return true;
}

KERNEL_CPU_VIA(NEGATIVE, unary_kernel)
KERNEL_CPU_VIA(EXP, unary_kernel)
KERNEL_CPU_VIA(LOG, unary_kernel)
KERNEL_CPU_VIA(SQRT, unary_kernel)
KERNEL_CPU_VIA(TANH, unary_kernel)
KERNEL_CPU_VIA(SIGMOID, unary_kernel)
KERNEL_CPU_VIA(RELU, unary_kernel)
KERNEL_CPU_VIA(CLIP, unary_kernel)

/* ---- fills and casts ----------------------------------------------------- */

static bool fill_kernel(const KernelCall *kc, char **err)
{
	const KernelTensor *out = &kc->out[0];
	(void)err;
	if (kc->p.fill == 0) {
		memset(out->data, 0, out->nbytes);
		return true;
	}
	for (int64_t i = 0; i < out->count; i++)
		store_double(out->data, out->dtype, i, kc->p.fill);
	return true;
}

KERNEL_CPU_VIA(ZEROS, fill_kernel)
KERNEL_CPU_VIA(ONES, fill_kernel)
KERNEL_CPU_VIA(ZEROS_LIKE, fill_kernel)
KERNEL_CPU_VIA(ONES_LIKE, fill_kernel)

/* cast: integers (and bool) travel through int64, everything else through
 * double; float to integer saturates and NaN becomes 0. */
static bool kernel_cpu_CAST(const KernelCall *kc, char **err)
{
	const KernelTensor *in = &kc->in[0], *out = &kc->out[0];
	bool int_path = !dtype_is_float(in->dtype) && !dtype_is_float(out->dtype);
	(void)err;
	if (in->dtype == out->dtype) {
		memcpy(out->data, in->data, out->nbytes);
		return true;
	}
	for (int64_t i = 0; i < out->count; i++) {
		if (int_path)
			store_int(out->data, out->dtype, i, load_int(in->data, in->dtype, i));
		else
			store_double(out->data, out->dtype, i, load_double(in->data, in->dtype, i));
	}
	return true;
}

/* ---- data movement ------------------------------------------------------- */

static bool copy_kernel(const KernelCall *kc, char **err)
{
	(void)err;
	if (kc->out[0].data != kc->in[0].data && kc->out[0].nbytes)
		memcpy(kc->out[0].data, kc->in[0].data, kc->out[0].nbytes);
	return true;
}

KERNEL_CPU_VIA(RESHAPE, copy_kernel)
KERNEL_CPU_VIA(BATCH_FLATTEN, copy_kernel)
KERNEL_CPU_VIA(EXPAND_DIMS, copy_kernel)
KERNEL_CPU_VIA(SQUEEZE, copy_kernel)

/* on_device is a pass-through and device_copy a transfer: the interpreter
 * handles both without launching, but as kernels they are copies. */
KERNEL_CPU_VIA(ON_DEVICE, copy_kernel)
KERNEL_CPU_VIA(DEVICE_COPY, copy_kernel)

typedef struct TransposeJob {
	uint32_t ndim;
	const int64_t *out_shape;
	int64_t *in_stride; /* input stride of each output axis */
	const char *in;
	char *out;
	size_t esize;
} TransposeJob;

static void transpose_range(void *vjob, int64_t begin, int64_t end)
{
	TransposeJob *job = vjob;
	uint32_t nd = job->ndim;
	int64_t small[8], *idx = nd <= 8 ? small : xmalloc(nd * sizeof(int64_t));
	int64_t off = 0, rest = begin;
	for (uint32_t i = nd; i-- > 0;) {
		idx[i] = rest % job->out_shape[i];
		rest /= job->out_shape[i];
		off += idx[i] * job->in_stride[i];
	}
	for (int64_t pos = begin; pos < end; pos++) {
		switch (job->esize) {
		case 1:
			((uint8_t *)job->out)[pos] = ((const uint8_t *)job->in)[off];
			break;
		case 2:
			((uint16_t *)job->out)[pos] = ((const uint16_t *)job->in)[off];
			break;
		case 4:
			((uint32_t *)job->out)[pos] = ((const uint32_t *)job->in)[off];
			break;
		default:
			((uint64_t *)job->out)[pos] = ((const uint64_t *)job->in)[off];
			break;
		}
		for (uint32_t i = nd; i-- > 0;) {
			off += job->in_stride[i];
			if (++idx[i] < job->out_shape[i])
				break;
			off -= idx[i] * job->in_stride[i];
			idx[i] = 0;
		}
	}
	if (idx != small)
		free(idx);
}

static bool kernel_cpu_TRANSPOSE(const KernelCall *kc, char **err)
{
	const KernelTensor *in = &kc->in[0], *out = &kc->out[0];
	uint32_t nd = in->ndim;
	int64_t *in_strides, s = 1;
	TransposeJob job;
	(void)err;
	if (nd == 0 || out->count == 0)
		return copy_kernel(kc, err);
	in_strides = xmalloc(nd * sizeof(int64_t));
	for (uint32_t i = nd; i-- > 0;) {
		in_strides[i] = s;
		s *= in->shape[i];
	}
	job.ndim = nd;
	job.out_shape = out->shape;
	job.in_stride = xmalloc(nd * sizeof(int64_t));
	for (uint32_t i = 0; i < nd; i++)
		job.in_stride[i] = in_strides[kc->axes[i]];
	job.in = in->data;
	job.out = out->data;
	job.esize = dtype_size(in->dtype);
	kernel_parallel_for(out->count, GRAIN_ELEMENTWISE, transpose_range, &job);
	free(job.in_stride);
	free(in_strides);
	return true;
}

/* concatenate/split: each piece is [outer, len_i * inner] inside the whole
 * [outer, total * inner]. */
static bool pieces_copy(const KernelCall *kc, const KernelTensor *whole, const KernelTensor *pieces,
			uint32_t npieces, bool into_whole)
{
	int64_t axis = kc->p.axis.axis, outer = kc->p.axis.outer, inner = kc->p.axis.inner;
	size_t esize = dtype_size(whole->dtype);
	int64_t total = whole->shape[axis], offset = 0;
	for (uint32_t p = 0; p < npieces; p++) {
		int64_t len = pieces[p].shape[axis];
		size_t row = (size_t)(len * inner) * esize;
		for (int64_t o = 0; o < outer && row; o++) {
			char *w = (char *)whole->data +
				  ((size_t)(o * total + offset) * inner) * esize;
			char *q = (char *)pieces[p].data + (size_t)o * row;
			if (into_whole)
				memcpy(w, q, row);
			else
				memcpy(q, w, row);
		}
		offset += len;
	}
	return true;
}

static bool kernel_cpu_CONCATENATE(const KernelCall *kc, char **err)
{
	(void)err;
	return pieces_copy(kc, &kc->out[0], kc->in, kc->nin, true);
}

static bool kernel_cpu_SPLIT(const KernelCall *kc, char **err)
{
	(void)err;
	return pieces_copy(kc, &kc->in[0], kc->out, kc->nout, false);
}

/* ---- reductions ---------------------------------------------------------- */

typedef struct ReduceJob {
	const KernelCall *kc;
	uint32_t nkept, nred;
	int64_t *kept_shape, *kept_stride; /* input strides of the kept axes */
	int64_t *red_shape, *red_stride;
	int64_t red_count;
} ReduceJob;

static void reduce_range(void *vjob, int64_t begin, int64_t end)
{
	ReduceJob *job = vjob;
	const KernelCall *kc = job->kc;
	const KernelTensor *in = &kc->in[0], *out = &kc->out[0];
	bool is_float = dtype_is_float(in->dtype);
	uint32_t nr = job->nred;
	int64_t small[8], *idx = nr <= 8 ? small : xmalloc((nr ? nr : 1) * sizeof(int64_t));
	for (int64_t o = begin; o < end; o++) {
		int64_t base = 0, rest = o, off;
		double dacc = kc->op == OP_MAX ? -INFINITY : 0;
		int64_t iacc = kc->op == OP_MAX ? INT64_MIN : 0;
		for (uint32_t i = job->nkept; i-- > 0;) {
			base += rest % job->kept_shape[i] * job->kept_stride[i];
			rest /= job->kept_shape[i];
		}
		for (uint32_t i = 0; i < nr; i++)
			idx[i] = 0;
		off = base;
		for (int64_t r = 0; r < job->red_count; r++) {
			if (is_float) {
				double v = load_double(in->data, in->dtype, off);
				if (kc->op != OP_MAX)
					dacc += v;
				else if (v != v || dacc != dacc)
					dacc = NAN;
				else if (v > dacc)
					dacc = v;
			} else {
				int64_t v = load_int(in->data, in->dtype, off);
				if (kc->op == OP_MAX)
					iacc = v > iacc ? v : iacc;
				else
					iacc = iadd(iacc, v);
			}
			for (uint32_t i = nr; i-- > 0;) {
				off += job->red_stride[i];
				if (++idx[i] < job->red_shape[i])
					break;
				off -= idx[i] * job->red_stride[i];
				idx[i] = 0;
			}
		}
		if (kc->op == OP_MEAN) {
			dacc = job->red_count ? dacc / (double)job->red_count : NAN;
			iacc = job->red_count ? iacc / job->red_count : 0;
		}
		if (is_float)
			store_double(out->data, out->dtype, o, dacc);
		else
			store_int(out->data, out->dtype, o, iacc);
	}
	if (idx != small)
		free(idx);
}

static bool reduce_kernel(const KernelCall *kc, char **err)
{
	const KernelTensor *in = &kc->in[0], *out = &kc->out[0];
	uint32_t nd = in->ndim;
	int64_t s = 1, *strides = xmalloc((nd ? nd : 1) * sizeof(int64_t));
	ReduceJob job = {.kc = kc, .red_count = 1};
	(void)err;
	job.kept_shape = xmalloc((nd ? nd : 1) * sizeof(int64_t));
	job.kept_stride = xmalloc((nd ? nd : 1) * sizeof(int64_t));
	job.red_shape = xmalloc((nd ? nd : 1) * sizeof(int64_t));
	job.red_stride = xmalloc((nd ? nd : 1) * sizeof(int64_t));
	for (uint32_t i = nd; i-- > 0;) {
		strides[i] = s;
		s *= in->shape[i];
	}
	for (uint32_t i = 0; i < nd; i++) {
		if (kc->axes[i]) {
			job.red_shape[job.nred] = in->shape[i];
			job.red_stride[job.nred++] = strides[i];
			job.red_count *= in->shape[i];
		} else {
			job.kept_shape[job.nkept] = in->shape[i];
			job.kept_stride[job.nkept++] = strides[i];
		}
	}
	kernel_parallel_for(out->count, job.red_count ? GRAIN_ELEMENTWISE / job.red_count + 1 : 1,
			    reduce_range, &job);
	free(strides);
	free(job.kept_shape);
	free(job.kept_stride);
	free(job.red_shape);
	free(job.red_stride);
	return true;
}

KERNEL_CPU_VIA(SUM, reduce_kernel)
KERNEL_CPU_VIA(MEAN, reduce_kernel)
KERNEL_CPU_VIA(MAX, reduce_kernel)

/* ---- softmax ------------------------------------------------------------- */

/* Runs f32 or f64 over [0, n) by the first input's dtype; other dtypes are unsupported. */
static bool run_float_kernel(const KernelCall *kc, int64_t n, int64_t grain, KernelRangeFn f32,
			     KernelRangeFn f64, void *job, char **err)
{
	switch (kc->in[0].dtype) {
	case DT_FLOAT32:
		kernel_parallel_for(n, grain, f32, job);
		return true;
	case DT_FLOAT64:
		kernel_parallel_for(n, grain, f64, job);
		return true;
	case DT_FLOAT16:
	case DT_INT32:
	case DT_INT64:
	case DT_BOOL:
	case DT_COUNT:
		break;
	}
	return unsupported(kc, kc->in[0].dtype, err);
}

typedef struct SoftmaxJob {
	const KernelCall *kc;
} SoftmaxJob;

/* Rows are (outer, inner) pairs; each is max-shifted, exponentiated and
 * normalised, with the sum in double. */
#define DEFINE_SOFTMAX(NAME, T, EXPF)                                      \
	static void NAME(void *vjob, int64_t begin, int64_t end)           \
	{                                                                  \
		const KernelCall *kc = ((SoftmaxJob *)vjob)->kc;           \
		const T *x = kc->in[0].data;                               \
		T *y = kc->out[0].data;                                    \
		int64_t len = kc->p.axis.len, inner = kc->p.axis.inner;    \
		for (int64_t row = begin; row < end; row++) {              \
			int64_t o = row / inner, i = row % inner;          \
			const T *xr = x + o * len * inner + i;             \
			T *yr = y + o * len * inner + i;                   \
			T m = -INFINITY;                                   \
			double sum = 0;                                    \
			for (int64_t k = 0; k < len; k++)                  \
				m = xr[k * inner] > m ? xr[k * inner] : m; \
			for (int64_t k = 0; k < len; k++) {                \
				T e = EXPF(xr[k * inner] - m);             \
				yr[k * inner] = e;                         \
				sum += e;                                  \
			}                                                  \
			for (int64_t k = 0; k < len; k++)                  \
				yr[k * inner] = (T)(yr[k * inner] / sum);  \
		}                                                          \
	}
DEFINE_SOFTMAX(softmax_f32, float, expf)
DEFINE_SOFTMAX(softmax_f64, double, exp)

static bool kernel_cpu_SOFTMAX(const KernelCall *kc, char **err)
{
	SoftmaxJob job = {kc};
	int64_t rows = kc->p.axis.outer * kc->p.axis.inner;
	int64_t grain = GRAIN_ELEMENTWISE / (kc->p.axis.len + 1) + 1;
	return run_float_kernel(kc, rows, grain, softmax_f32, softmax_f64, &job, err);
}

/* ---- matrix products ----------------------------------------------------- */

/* c[m, n] = op(a) * op(b) with row-major leading dimensions. */
static void gemm(DType dt, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const void *a,
		 int64_t lda, const void *b, int64_t ldb, void *c, int64_t ldc)
{
	if (m == 0 || n == 0)
		return;
	if (k == 0) {
		for (int64_t i = 0; i < m; i++)
			memset((char *)c + (size_t)(i * ldc) * dtype_size(dt), 0,
			       (size_t)n * dtype_size(dt));
		return;
	}
	if (m == 1 && !ta) {
		/* a row vector times op(b): a matrix-vector product, which streams b
		 * once instead of packing it as gemm would */
		if (dt == DT_FLOAT32)
			cblas_sgemv(CblasRowMajor, tb ? CblasNoTrans : CblasTrans,
				    tb ? (int)n : (int)k, tb ? (int)k : (int)n, 1.0f, b, (int)ldb,
				    a, 1, 0.0f, c, 1);
		else
			cblas_dgemv(CblasRowMajor, tb ? CblasNoTrans : CblasTrans,
				    tb ? (int)n : (int)k, tb ? (int)k : (int)n, 1.0, b, (int)ldb, a,
				    1, 0.0, c, 1);
		return;
	}
	if (dt == DT_FLOAT32)
		cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans,
			    tb ? CblasTrans : CblasNoTrans, (int)m, (int)n, (int)k, 1.0f, a,
			    (int)lda, b, (int)ldb, 0.0f, c, (int)ldc);
	else
		cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans,
			    tb ? CblasTrans : CblasNoTrans, (int)m, (int)n, (int)k, 1.0, a,
			    (int)lda, b, (int)ldb, 0.0, c, (int)ldc);
}

static bool blas_dtype(const KernelCall *kc, char **err)
{
	DType dt = kc->in[0].dtype;
	if (dt == DT_FLOAT32 || dt == DT_FLOAT64)
		return true;
	return unsupported(kc, dt, err);
}

static bool matmul_kernel(const KernelCall *kc, char **err)
{
	const KernelMatmul *mm = &kc->p.matmul;
	size_t es = dtype_size(kc->in[0].dtype);
	if (!blas_dtype(kc, err))
		return false;
	if (!fits_int(mm->m) || !fits_int(mm->n) || !fits_int(mm->k))
		return too_large(kc, err);
	for (int64_t b = 0; b < mm->batch; b++) {
		const char *a = (const char *)kc->in[0].data +
				(size_t)((mm->batch_a == 1 ? 0 : b) * mm->m * mm->k) * es;
		const char *w = (const char *)kc->in[1].data +
				(size_t)((mm->batch_b == 1 ? 0 : b) * mm->k * mm->n) * es;
		char *c = (char *)kc->out[0].data + (size_t)(b * mm->m * mm->n) * es;
		gemm(kc->in[0].dtype, mm->trans_a, mm->trans_b, mm->m, mm->n, mm->k, a,
		     mm->trans_a ? mm->m : mm->k, w, mm->trans_b ? mm->k : mm->n, c, mm->n);
	}
	return true;
}

KERNEL_CPU_VIA(DENSE, matmul_kernel)
KERNEL_CPU_VIA(BATCH_MATMUL, matmul_kernel)

/* ---- convolution ----------------------------------------------------------- */

/* im2col workspace per tile, in bytes. */
enum { IM2COL_TILE_BYTES = 8 << 20 };

/* Columns per im2col/col2im tile of rows rows: IM2COL_TILE_BYTES' worth, in [64, plane]. */
static int64_t workspace_tile(int64_t rows, int64_t plane, size_t es)
{
	int64_t tile = IM2COL_TILE_BYTES / (int64_t)es / (rows ? rows : 1);
	if (tile < 64)
		tile = 64;
	if (tile > plane)
		tile = plane;
	return tile;
}

typedef struct Im2colJob {
	const KernelWindow *w;
	DType dt;
	const char *x; /* the input image of this batch item and group: [cg, h, w] */
	char *col;     /* [rows, ncols] */
	int64_t p0, ncols;
} Im2colJob;

#define DEFINE_IM2COL(NAME, T)                                                                    \
	static void NAME(void *vjob, int64_t begin, int64_t end)                                  \
	{                                                                                         \
		Im2colJob *job = vjob;                                                            \
		const KernelWindow *w = job->w;                                                   \
		const T *x = (const T *)job->x;                                                   \
		T *col = (T *)job->col;                                                           \
		for (int64_t r = begin; r < end; r++) {                                           \
			int64_t ci = r / (w->kh * w->kw), ky = r / w->kw % w->kh, kx = r % w->kw; \
			const T *xc = x + ci * w->h * w->w;                                       \
			int64_t oy = job->p0 / w->ow, ox = job->p0 % w->ow;                       \
			T *dst = col + r * job->ncols;                                            \
			for (int64_t t = 0; t < job->ncols; t++) {                                \
				int64_t iy = oy * w->stride[0] - w->pad[0] + ky * w->dilation[0]; \
				int64_t ix = ox * w->stride[1] - w->pad[1] + kx * w->dilation[1]; \
				dst[t] = (iy >= 0 && iy < w->h && ix >= 0 && ix < w->w)           \
						 ? xc[iy * w->w + ix]                             \
						 : (T)0;                                          \
				if (++ox == w->ow) {                                              \
					ox = 0;                                                   \
					oy++;                                                     \
				}                                                                 \
			}                                                                         \
		}                                                                                 \
	}
DEFINE_IM2COL(im2col_f32, float)
DEFINE_IM2COL(im2col_f64, double)

typedef struct DepthwiseJob {
	const KernelWindow *w;
	const void *x, *k;
	void *y;
} DepthwiseJob;

/* groups == c == o: one kh x kw filter per channel, a direct loop. */
#define DEFINE_DEPTHWISE(NAME, T)                                                            \
	static void NAME(void *vjob, int64_t begin, int64_t end)                             \
	{                                                                                    \
		DepthwiseJob *job = vjob;                                                    \
		const KernelWindow *w = job->w;                                              \
		for (int64_t plane = begin; plane < end; plane++) {                          \
			int64_t ch = plane % w->c;                                           \
			const T *x = (const T *)job->x + plane * w->h * w->w;                \
			const T *k = (const T *)job->k + ch * w->kh * w->kw;                 \
			T *y = (T *)job->y + plane * w->oh * w->ow;                          \
			for (int64_t oy = 0; oy < w->oh; oy++)                               \
				for (int64_t ox = 0; ox < w->ow; ox++) {                     \
					T acc = 0;                                           \
					for (int64_t ky = 0; ky < w->kh; ky++) {             \
						int64_t iy = oy * w->stride[0] - w->pad[0] + \
							     ky * w->dilation[0];            \
						if (iy < 0 || iy >= w->h)                    \
							continue;                            \
						for (int64_t kx = 0; kx < w->kw; kx++) {     \
							int64_t ix = ox * w->stride[1] -     \
								     w->pad[1] +             \
								     kx * w->dilation[1];    \
							if (ix >= 0 && ix < w->w)            \
								acc += x[iy * w->w + ix] *   \
								       k[ky * w->kw + kx];   \
						}                                            \
					}                                                    \
					y[oy * w->ow + ox] = acc;                            \
				}                                                            \
		}                                                                            \
	}
DEFINE_DEPTHWISE(depthwise_f32, float)
DEFINE_DEPTHWISE(depthwise_f64, double)

static bool kernel_cpu_CONV2D(const KernelCall *kc, char **err)
{
	const KernelWindow *w = &kc->p.window;
	DType dt = kc->in[0].dtype;
	size_t es = dtype_size(dt);
	int64_t cg = w->c / w->groups, og = w->o / w->groups, rows = cg * w->kh * w->kw;
	int64_t plane = w->oh * w->ow, tile;
	bool pointwise = w->kh == 1 && w->kw == 1 && w->stride[0] == 1 && w->stride[1] == 1 &&
			 w->pad[0] == 0 && w->pad[1] == 0 && w->oh == w->h && w->ow == w->w;
	char *col = NULL;
	if (!blas_dtype(kc, err))
		return false;
	if (kc->out[0].count == 0)
		return true;
	if (cg == 1 && og == 1) {
		DepthwiseJob job = {w, kc->in[0].data, kc->in[1].data, kc->out[0].data};
		kernel_parallel_for(w->n * w->c, 1 + GRAIN_ROWS / (plane * w->kh * w->kw + 1),
				    dt == DT_FLOAT32 ? depthwise_f32 : depthwise_f64, &job);
		return true;
	}
	if (!fits_int(og) || !fits_int(rows) || !fits_int(plane))
		return too_large(kc, err);
	tile = workspace_tile(rows, plane, es);
	if (!pointwise) {
		col = malloc((size_t)(rows * tile) * es);
		if (!col) {
			*err = xasprintf("'%s': cannot allocate its im2col workspace", kc->name);
			return false;
		}
	}
	for (int64_t n = 0; n < w->n; n++) {
		for (int64_t g = 0; g < w->groups; g++) {
			const char *x = (const char *)kc->in[0].data +
					(size_t)((n * w->c + g * cg) * w->h * w->w) * es;
			const char *k = (const char *)kc->in[1].data + (size_t)(g * og * rows) * es;
			char *y = (char *)kc->out[0].data +
				  (size_t)((n * w->o + g * og) * plane) * es;
			if (pointwise) {
				gemm(dt, false, false, og, plane, rows, k, rows, x, plane, y,
				     plane);
				continue;
			}
			for (int64_t p0 = 0; p0 < plane; p0 += tile) {
				Im2colJob job = {w,   dt, x,
						 col, p0, plane - p0 < tile ? plane - p0 : tile};
				kernel_parallel_for(rows, 1 + GRAIN_ROWS / job.ncols,
						    dt == DT_FLOAT32 ? im2col_f32 : im2col_f64,
						    &job);
				gemm(dt, false, false, og, job.ncols, rows, k, rows, col, job.ncols,
				     y + (size_t)p0 * es, plane);
			}
		}
	}
	free(col);
	return true;
}

typedef struct Col2imJob {
	const KernelWindow *w;
	const char *col; /* [og * kh * kw, ncols] for input positions p0.. */
	char *y;         /* the output of this batch item and group: [og, oh, ow] */
	int64_t p0, ncols;
} Col2imJob;

/* Scatter-adds the tile into the output channels [begin, end): each
 * channel is written by one thread only. */
#define DEFINE_COL2IM(NAME, T)                                                                 \
	static void NAME(void *vjob, int64_t begin, int64_t end)                               \
	{                                                                                      \
		Col2imJob *job = vjob;                                                         \
		const KernelWindow *w = job->w;                                                \
		for (int64_t oc = begin; oc < end; oc++) {                                     \
			T *y = (T *)job->y + oc * w->oh * w->ow;                               \
			for (int64_t ky = 0; ky < w->kh; ky++)                                 \
				for (int64_t kx = 0; kx < w->kw; kx++) {                       \
					const T *src =                                         \
						(const T *)job->col +                          \
						((oc * w->kh + ky) * w->kw + kx) * job->ncols; \
					int64_t iy = job->p0 / w->w, ix = job->p0 % w->w;      \
					for (int64_t t = 0; t < job->ncols; t++) {             \
						int64_t oy = iy * w->stride[0] - w->pad[0] +   \
							     ky * w->dilation[0];              \
						int64_t ox = ix * w->stride[1] - w->pad[1] +   \
							     kx * w->dilation[1];              \
						if (oy >= 0 && oy < w->oh && ox >= 0 &&        \
						    ox < w->ow)                                \
							y[oy * w->ow + ox] += src[t];          \
						if (++ix == w->w) {                            \
							ix = 0;                                \
							iy++;                                  \
						}                                              \
					}                                                      \
				}                                                              \
		}                                                                              \
	}
DEFINE_COL2IM(col2im_f32, float)
DEFINE_COL2IM(col2im_f64, double)

/* y = sum over input positions of w^T x, scattered: per batch item and
 * group, col = W_g^T [og*kh*kw, cg] x X_g [cg, h*w] in column tiles. */
static bool kernel_cpu_CONV2D_TRANSPOSE(const KernelCall *kc, char **err)
{
	const KernelWindow *w = &kc->p.window;
	DType dt = kc->in[0].dtype;
	size_t es = dtype_size(dt);
	int64_t cg = w->c / w->groups, og = w->o / w->groups, rows = og * w->kh * w->kw;
	int64_t plane = w->h * w->w, tile;
	char *col;
	if (!blas_dtype(kc, err))
		return false;
	memset(kc->out[0].data, 0, kc->out[0].nbytes);
	if (kc->out[0].count == 0 || plane == 0)
		return true;
	if (!fits_int(rows) || !fits_int(plane) || !fits_int(cg))
		return too_large(kc, err);
	tile = workspace_tile(rows, plane, es);
	col = malloc((size_t)(rows * tile) * es);
	if (!col) {
		*err = xasprintf("'%s': cannot allocate its col2im workspace", kc->name);
		return false;
	}
	for (int64_t n = 0; n < w->n; n++) {
		for (int64_t g = 0; g < w->groups; g++) {
			const char *x = (const char *)kc->in[0].data +
					(size_t)((n * w->c + g * cg) * plane) * es;
			const char *k = (const char *)kc->in[1].data + (size_t)(g * cg * rows) * es;
			char *y = (char *)kc->out[0].data +
				  (size_t)((n * w->o + g * og) * w->oh * w->ow) * es;
			for (int64_t p0 = 0; p0 < plane; p0 += tile) {
				Col2imJob job = {w, col, y, p0,
						 plane - p0 < tile ? plane - p0 : tile};
				gemm(dt, true, false, rows, job.ncols, cg, k, rows,
				     x + (size_t)p0 * es, plane, col, job.ncols);
				kernel_parallel_for(
					og, 1 + GRAIN_ROWS / (job.ncols * w->kh * w->kw),
					dt == DT_FLOAT32 ? col2im_f32 : col2im_f64, &job);
			}
		}
	}
	free(col);
	return true;
}

/* ---- pooling --------------------------------------------------------------- */

typedef struct PoolJob {
	const KernelCall *kc;
} PoolJob;

/* Window rows/columns inside the input add to the value; with
 * count_include_pad the average divides by the positions inside the padded
 * input, else by those inside the input (TVM's pool semantics). */
#define DEFINE_POOL(NAME, T, LOWEST)                                                                    \
	static void NAME(void *vjob, int64_t begin, int64_t end)                                        \
	{                                                                                               \
		const KernelCall *kc = ((PoolJob *)vjob)->kc;                                           \
		const KernelWindow *w = &kc->p.window;                                                  \
		bool is_max = kc->op == OP_MAX_POOL2D;                                                  \
		for (int64_t plane = begin; plane < end; plane++) {                                     \
			const T *x = (const T *)kc->in[0].data + plane * w->h * w->w;                   \
			T *y = (T *)kc->out[0].data + plane * w->oh * w->ow;                            \
			for (int64_t oy = 0; oy < w->oh; oy++)                                          \
				for (int64_t ox = 0; ox < w->ow; ox++) {                                \
					double acc = is_max ? -INFINITY : 0;                            \
					int64_t count = 0;                                              \
					bool any = false;                                               \
					for (int64_t ky = 0; ky < w->kh; ky++) {                        \
						int64_t iy = oy * w->stride[0] - w->pad[0] +            \
							     ky * w->dilation[0];                       \
						bool row_in = iy >= 0 && iy < w->h;                     \
						bool row_pad = iy >= -w->pad[0] &&                      \
							       iy < w->h + w->pad_end[0];               \
						for (int64_t kx = 0; kx < w->kw; kx++) {                \
							int64_t ix = ox * w->stride[1] -                \
								     w->pad[1] +                        \
								     kx * w->dilation[1];               \
							bool in = row_in && ix >= 0 && ix < w->w;       \
							if (in) {                                       \
								T v = x[iy * w->w + ix];                \
								any = true;                             \
								if (is_max)                             \
									acc = v > acc || v != v         \
										      ? v               \
										      : acc;            \
								else                                    \
									acc += v;                       \
							}                                               \
							if (w->count_include_pad                        \
								    ? row_pad &&                        \
									      ix >= -w->pad[1] &&       \
									      ix < w->w + w->pad_end[1] \
								    : in)                               \
								count++;                                \
						}                                                       \
					}                                                               \
					if (is_max && !any)                                             \
						acc = LOWEST; /* TVM pads with it */                    \
					y[oy * w->ow + ox] = (T)(is_max  ? acc                          \
								 : count ? acc / count                  \
									 : 0);                          \
				}                                                                       \
		}                                                                                       \
	}
DEFINE_POOL(pool_f32, float, -FLT_MAX)
DEFINE_POOL(pool_f64, double, -DBL_MAX)

static bool pool_kernel(const KernelCall *kc, char **err)
{
	const KernelWindow *w = &kc->p.window;
	PoolJob job = {kc};
	int64_t grain = 1 + GRAIN_ROWS / (w->oh * w->ow * w->kh * w->kw + 1);
	return run_float_kernel(kc, w->n * w->c, grain, pool_f32, pool_f64, &job, err);
}

KERNEL_CPU_VIA(MAX_POOL2D, pool_kernel)
KERNEL_CPU_VIA(AVG_POOL2D, pool_kernel)

static bool kernel_cpu_GLOBAL_AVG_POOL2D(const KernelCall *kc, char **err)
{
	const KernelTensor *in = &kc->in[0];
	int64_t planes = in->shape[0] * in->shape[1], size = in->shape[2] * in->shape[3];
	if (!dtype_is_float(in->dtype))
		return unsupported(kc, in->dtype, err);
	for (int64_t p = 0; p < planes; p++) {
		double sum = 0;
		for (int64_t i = 0; i < size; i++)
			sum += load_double(in->data, in->dtype, p * size + i);
		store_double(kc->out[0].data, in->dtype, p, size ? sum / (double)size : NAN);
	}
	return true;
}

/* ---- the table ------------------------------------------------------------- */

static const KernelFn kernel_cpu_table[OP_COUNT] = {
#define OP(id, name, min_args, max_args, schema) [OP_##id] = kernel_cpu_##id,
#include "ops.def"
#undef OP
};

bool kernel_cpu_launch(const KernelCall *kc, char **err)
{
	DP_ASSERT(kc->op < OP_COUNT && kernel_cpu_table[kc->op]);
	kernel_cpu_threads();
	return kernel_cpu_table[kc->op](kc, err);
}
